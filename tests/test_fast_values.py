"""The values of a sheet a command only reads come from python-calamine (issue 13, "Below the
floor"): they must be exactly what openpyxl's parse gives through the port — value and type —
for dates, numbers as typed, formulas' cached values, empty cells and merged cells.

Each check reads the same sheet twice: once fresh (the fast path, the sheet left unparsed) and
once after openpyxl has parsed it (the port's original path), and compares cell by cell.
"""

from __future__ import annotations

import datetime as dt
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest

from bianpai.workbooks.openpyxl_port import OpenpyxlPort

CASES = Path(__file__).parent / "data" / "cases"


def both(path: Path, sheet: str):
    """(fast reading, parsed reading, fast merged ranges, parsed merged ranges, was the sheet
    left unparsed by the fast reading?) of ``sheet``."""
    port = OpenpyxlPort(path)
    try:
        fast = port.read_values(sheet)
        fast_merged = port.merged_ranges(sheet)
        unparsed = sheet in port._book._pending
        port._book.sheet(sheet)  # parse it: the port now reads through openpyxl
        port._read_cache.clear()
        parsed = port.read_values(sheet)
        return fast, parsed, fast_merged, port.merged_ranges(sheet), unparsed
    finally:
        port.close()


def same(a, b) -> bool:
    return a == b and all(type(x) is type(y) for ra, rb in zip(a, b) for x, y in zip(ra, rb))


@pytest.fixture
def typed_book(tmp_path: Path) -> Path:
    """A workbook typed the ways a desk types: numbers whole and not, dates, times, text with
    spaces, gaps, styled empty cells past the data, merged ranges across and down."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报名"
    rows = [
        ["序号", "姓名", "出生日期", "等级分", "比分", "到场", "备注"],
        [1, "张 三", dt.date(1989, 3, 24), 1850.5, 3.0, True, None],
        [2, " 李四 ", dt.datetime(1970, 9, 4, 13, 30), -7, 2.25, False, ""],
        [None, None, None, None, None, None, None],  # a blank row in the middle stays
        [4, "王五", dt.time(9, 15), 123456789012, 0.1 + 0.2, None, "迟到"],
        [5, "赵六", dt.timedelta(hours=30), 1e20, 0, None, "１２"],
    ]
    for r in rows:
        ws.append(r)
    ws["C3"].number_format = "yyyy-mm-dd hh:mm"
    ws["D2"].number_format = "0.00"
    ws["A12"].fill = openpyxl.styles.PatternFill("solid", fgColor="FFFF00")  # styled, empty
    ws["J2"].number_format = "0"  # a styled empty cell right of the data
    m = wb.create_sheet("组别")
    m.append(["组别", "队名", "备注"])
    for i in range(2, 8):
        m.cell(i, 2, f"队{i}")
    m["A2"] = "男子组"
    m.merge_cells("A2:A4")  # 组别 merged down
    m["A5"] = "女子组"
    m.merge_cells("A5:A7")
    m["C2"] = "跨列"
    m.merge_cells("C2:E2")  # merged across, past the last typed column
    m.merge_cells("B9:C10")  # merged below the data, empty
    wb.create_sheet("空表")
    path = tmp_path / "typed.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize("sheet", ["报名", "组别", "空表"])
def test_fast_values_are_openpyxls(typed_book, sheet):
    fast, parsed, fm, pm, unparsed = both(typed_book, sheet)
    assert unparsed, "a plain sheet is read without the openpyxl parse"
    assert same(fast, parsed), (fast, parsed)
    assert sorted(fm) == sorted(pm)


def _values(book: Path, sheet: str) -> list[list]:
    """One sheet's values as a command's port reads them (opened and closed here)."""
    port = OpenpyxlPort(book)
    try:
        return port.read_values(sheet)
    finally:
        port.close()


def test_numbers_dates_and_gaps_read_as_typed(typed_book):
    v = _values(typed_book, "报名")
    assert v[1][0] == 1 and type(v[1][0]) is int
    assert v[1][4] == 3 and type(v[1][4]) is int  # 3.0 is stored "3": openpyxl reads an int
    assert v[1][3] == 1850.5 and v[4][4] == pytest.approx(0.3)
    assert v[1][2] == dt.datetime(1989, 3, 24) and type(v[1][2]) is dt.datetime
    assert v[2][2] == dt.datetime(1970, 9, 4, 13, 30) and v[4][2] == dt.time(9, 15)
    assert v[2][1] == " 李四 " and v[2][6] is None and v[3] == [None] * 7
    assert len(v) == 6 and all(len(r) == 7 for r in v)  # styled empty cells are not data


def test_merged_cells_read_their_top_left_value(typed_book):
    v = _values(typed_book, "组别")
    assert [r[0] for r in v[1:7]] == ["男子组"] * 3 + ["女子组"] * 3
    assert v[1][2:5] == ["跨列"] * 3


def _with_cached_formula(src: Path, dest: Path, cached: str | None) -> None:
    """``src`` with 报名!H2 = ``=D2*2`` whose cached result is ``cached`` (none when None)."""
    with zipfile.ZipFile(src) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    name = "xl/worksheets/sheet1.xml"
    xml = parts[name].decode()
    v = "" if cached is None else f"<v>{cached}</v>"
    cell = f'<c r="H2"><f>D2*2</f>{v}</c>'
    at = xml.index("</row>")
    parts[name] = (xml[:at] + cell + xml[at:]).encode()
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in parts.items():
            z.writestr(n, b)


def test_a_formula_reads_as_its_cached_value(typed_book, tmp_path):
    wb = tmp_path / "cached.xlsx"
    _with_cached_formula(typed_book, wb, "3701")
    fast, parsed, _, _, _ = both(wb, "报名")
    assert same(fast, parsed) and fast[1][7] == 3701
    # a formula without a result is still named with its cell, as before
    bad = tmp_path / "nocache.xlsx"
    _with_cached_formula(typed_book, bad, None)
    port = OpenpyxlPort(bad)
    try:
        with pytest.raises(Exception) as exc:
            port.read_values("报名")
        assert getattr(exc.value, "cell", None) == "H2"
    finally:
        port.close()


@pytest.mark.parametrize("name", sorted(p.name for p in CASES.glob("*.xlsx")))
def test_every_sheet_of_the_case_files(tmp_path, name):
    """Files saved by Excel, WPS and LibreOffice (cached formula results, x14 dropdowns…)."""
    wb = tmp_path / name
    shutil.copyfile(CASES / name, wb)
    for sheet in openpyxl.load_workbook(wb, read_only=True).sheetnames:
        fast, parsed, fm, pm, _ = both(wb, sheet)
        assert same(fast, parsed), sheet
        assert sorted(fm) == sorted(pm), sheet


def test_a_sheet_written_by_the_command_is_read_as_written(typed_book):
    """Once a command appends to a sheet, its values come from the parsed, changed sheet."""
    port = OpenpyxlPort(typed_book)
    try:
        assert len(port.read_values("报名")) == 6
        port.append_rows("报名", [[6, "孙七"]], start_row=7)
        assert port.read_values("报名")[6][:2] == [6, "孙七"]
    finally:
        port.close()
