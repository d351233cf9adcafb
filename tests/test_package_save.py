"""Nothing made in Excel is lost: a command rewrites only the sheets it generates.

The package-preserving save (``bianpai.workbooks.package``) copies every other part of the
original .xlsx byte for byte; these tests compare the zip members before and after real commands
on the shared case files and on workbooks carrying defined names, conditional formats,
comments, an image and a chart.
"""

from __future__ import annotations

import shutil
import subprocess
import warnings
import zipfile
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from bianpai.addin.cli import app
from bianpai.workbooks import package
from tests.helpers import decorate_like_excel, four_pairs, new_event

CASES = Path(__file__).parent / "data" / "cases"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def case(tmp_path: Path, name: str) -> Path:
    dest = tmp_path / name
    shutil.copyfile(CASES / name, dest)
    return dest


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def sheet_part(path: Path, sheet: str) -> str:
    with zipfile.ZipFile(path) as z:
        return package._sheet_parts(z)[sheet]


def load_quietly(path: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return openpyxl.load_workbook(path)


def libreoffice_opens(path: Path, tmp_path: Path) -> None:
    """LibreOffice (when installed) converts the workbook: Excel-openable in practice."""
    soffice = shutil.which("soffice")
    if not soffice:
        return
    out = tmp_path / "lo"
    subprocess.run([soffice, "--headless", "--convert-to", "csv", "--outdir", str(out), str(path)],
                   capture_output=True, timeout=120, check=True)
    assert (out / (path.stem + ".csv")).exists()


# -- the shared cases --------------------------------------------------------------------------

def test_x14_dropdown_survives_check(tmp_path):
    wb = case(tmp_path, "x14-dropdown-lost.xlsx")
    before = members(wb)
    roster = sheet_part(wb, "报名")
    assert b"x14:dataValidation" in before[roster]
    res = run("check", wb)
    assert res.exit_code == 0, res.output
    assert "not supported and will be removed" not in res.output
    after = members(wb)
    assert after[roster] == before[roster]  # the dropdown and every typed cell, byte for byte
    changed = {n for n in before if after.get(n) != before[n]}
    # only the sheet list, its relationships and content types, and the log sheet (one row)
    assert changed <= {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml",
                       sheet_part(wb, "日志"), "xl/styles.xml"}
    sheets = after["xl/workbook.xml"].split(b"<sheets>", 1)[1]
    assert b'name="\xe6\xa0\xa1\xe9\xaa\x8c"' in sheets  # 校验, with the workbook's r: prefix
    assert b"xmlns:r=" not in sheets and b"ns0:" not in sheets
    book = load_quietly(wb)
    assert "校验" in book.sheetnames and book["校验"]["A2"].value == "通过"
    assert book["校验"]["A1"].font.b  # the generated header keeps its format
    assert book["日志"].cell(book["日志"].max_row, 2).value == "check"
    # a second command keeps it as well
    assert run("check", wb).exit_code == 0
    assert members(wb)[roster] == before[roster]


def test_typed_formulas_read_by_two_commands_in_a_row(tmp_path):
    wb = case(tmp_path, "formula-cache-lost.xlsx")
    scores = sheet_part(wb, "成绩")
    before = members(wb)[scores]
    assert b"<f>12+3</f>" in before and b"<v>15</v>" in before
    for _ in range(2):
        res = run("rank", wb, "--seed", "1")
        assert res.exit_code == 0, res.output
        assert "12.77" in res.output and "7.23" in res.output
    # the typed sheet was never re-serialised: formulas keep their cached results
    assert members(wb)[scores] == before
    cached = openpyxl.load_workbook(wb, data_only=True)["成绩"]
    assert (cached["G2"].value, cached["H2"].value, cached["G3"].value) == (15, 8, 10)


# -- a workbook with everything Excel users add -----------------------------------------------

def decorated_event(tmp_path: Path) -> Path:
    """A pairs event with a defined name, a conditional format, a comment, an image, an x14-free
    dropdown, a chart sheet and a print area — added the way a user's Excel would."""
    pytest.importorskip("PIL")
    path = new_event(tmp_path / "e.xlsx")
    four_pairs(path)
    decorate_like_excel(path, unit_range="$K$2:$K$5", match_text="甲1", comment="队长 / captain",
                        image_at="P2", print_area="A1:M5", stats=("单位", "对数", "深圳", 4))
    return path


def test_check_and_draw_keep_what_the_user_made(tmp_path):
    wb = decorated_event(tmp_path)
    before = members(wb)
    kept_sheets = [sheet_part(wb, s) for s in ("报名", "统计", "规程")]
    extra = [n for n in before if n.startswith(("xl/drawings/", "xl/charts/", "xl/media/",
                                                 "xl/comments"))]
    assert any("chart" in n for n in extra) and any("media" in n for n in extra)
    for cmd in (["check", wb], ["draw", wb, "--seed", "3"]):
        res = run(*cmd)
        assert res.exit_code == 0, res.output
    after = members(wb)
    for n in kept_sheets + extra:
        assert after.get(n) == before[n], n
    workbook_xml = after["xl/workbook.xml"].decode()
    assert "参赛单位" in workbook_xml and "Print_Area" in workbook_xml
    book = load_quietly(wb)
    assert "参赛单位" in book.defined_names
    ws = book["报名"]
    assert ws.conditional_formatting and ws["C2"].comment.text == "队长 / captain"
    assert ws.print_area == "'报名'!$A$1:$M$5"
    assert book["对阵"].max_row > 1 and book["抽签"].max_row > 1
    # every sheet bianpai wrote still opens where openpyxl and LibreOffice look for it
    libreoffice_opens(wb, tmp_path)
    # undo walks back through the same files
    assert run("undo", wb).exit_code == 0
    undone = members(wb)
    assert all(undone.get(n) == before[n] for n in kept_sheets + extra)
    assert load_quietly(wb)["报名"]["C2"].comment


def test_a_chart_on_a_generated_sheet_is_named_not_lost(tmp_path):
    from openpyxl.chart import LineChart, Reference
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert run("check", wb).exit_code == 0
    book = openpyxl.load_workbook(wb)
    chart = LineChart()
    chart.add_data(Reference(book["校验"], min_col=1, min_row=1, max_row=2))
    book["校验"].add_chart(chart, "F2")
    book.save(wb)
    before = wb.read_bytes()
    res = run("check", wb)
    assert res.exit_code == 2
    out = " ".join(res.output.split())
    assert "校验" in out and "图表" in out and "charts" in out and "未写入" in out
    assert wb.read_bytes() == before


def test_styles_of_generated_sheets_join_the_original_stylesheet(tmp_path):
    wb = case(tmp_path, "x14-dropdown-lost.xlsx")
    assert run("check", wb).exit_code == 0
    first = members(wb)["xl/styles.xml"]
    assert run("check", wb).exit_code == 0
    assert members(wb)["xl/styles.xml"] == first  # formats are reused, not appended again


# -- files --------------------------------------------------------------------------------------

def test_a_folder_as_workbook_is_named(tmp_path):
    d = tmp_path / "event.xlsx"
    d.mkdir()
    res = run("check", d)
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit)  # no traceback
    assert "文件夹" in res.output and "folder" in res.output


def test_a_backups_path_that_is_a_file_is_named(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    shutil.rmtree(tmp_path / "e.xlsx.bianpai-backups", ignore_errors=True)
    (tmp_path / "e.xlsx.bianpai-backups").write_text("not a folder")
    before = wb.read_bytes()
    res = run("check", wb)
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit)
    assert "备份" in res.output and "is a file" in " ".join(res.output.split())
    assert wb.read_bytes() == before


def test_a_symbolic_link_is_written_through(tmp_path):
    target = new_event(tmp_path / "real.xlsx")
    four_pairs(target)
    link = tmp_path / "event.xlsx"
    link.symlink_to(target)
    original = target.read_bytes()
    assert run("check", link).exit_code == 0
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert openpyxl.load_workbook(target)["校验"]["A2"].value == "通过"
    assert run("undo", link, "--force").exit_code == 0
    assert link.is_symlink() and target.read_bytes() == original


@pytest.mark.parametrize("damage", [b"", b"PK\x03\x04 not a zip at all"])
def test_a_damaged_backup_is_not_restored(tmp_path, damage):
    from bianpai.workbooks.backups import stack
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert run("check", wb).exit_code == 0
    newest = stack(wb)[-1]
    newest.write_bytes(damage)
    before = wb.read_bytes()
    res = run("undo", wb, "--force")
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit)
    out = " ".join(res.output.split())
    assert "已损坏" in out and "damaged" in out and newest.name in out
    assert wb.read_bytes() == before and newest.exists()


def test_a_partial_temporary_file_is_removed_next_time(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    stale = [tmp_path / ".e.xlsx.k3j2h1g0.bianpai-tmp",  # this save's pattern
             tmp_path / ".e.ab12cd34.xlsx"]  # the pattern of earlier versions
    for p in stale:
        p.write_bytes(b"PK\x03\x04partial")
    keep = tmp_path / ".other.ab12cd34.xlsx"
    keep.write_bytes(b"someone else's")
    assert run("check", wb).exit_code == 0
    assert not any(p.exists() for p in stale) and keep.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(package_tmp_suffix())]


def package_tmp_suffix() -> str:
    from bianpai.workbooks.openpyxl_port import TEMP_SUFFIX
    return TEMP_SUFFIX


def test_appended_rows_are_patched_into_the_typed_sheet(tmp_path):
    """append_rows on a kept sheet writes only its cells into the sheet's own XML and grows
    its Excel table; other cells (formulas with results) stay as they were."""
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    wb = new_event(tmp_path / "e.xlsx")
    book = openpyxl.load_workbook(wb)
    book["报名"]["P1"] = "=1+1"
    book.save(wb)
    roster = sheet_part(wb, "报名")
    with zipfile.ZipFile(wb) as z:  # give the formula a cached result, as Excel would
        parts = {n: z.read(n) for n in z.namelist()}
    parts[roster] = parts[roster].replace(b"<f>1+1</f><v></v>", b"<f>1+1</f><v>2</v>")
    parts[roster] = parts[roster].replace(b"<f>1+1</f></c>", b"<f>1+1</f><v>2</v></c>")
    assert b"<f>1+1</f><v>2</v>" in parts[roster]
    with zipfile.ZipFile(wb, "w") as z:
        for n, data in parts.items():
            z.writestr(n, data)
    port = OpenpyxlPort(wb, command="test")
    port.append_rows("报名", [["男子双人赛", None, "甲", "男"], ["男子双人赛", None, "=乙", "女"]],
                     start_row=2)
    port.save()
    xml = members(wb)[roster]
    assert b"<f>1+1</f><v>2</v>" in xml
    book = openpyxl.load_workbook(wb)
    ws = book["报名"]
    assert [c.value for c in ws[3]][:4] == ["男子双人赛", None, "=乙", "女"]
    assert ws["C3"].data_type == "s"  # text, never a formula
    assert next(iter(ws.tables.values())).ref.endswith("3")
    assert openpyxl.load_workbook(wb, data_only=True)["报名"]["P1"].value == 2


def test_sheets_are_parsed_on_first_use_as_openpyxl_reads_them(tmp_path):
    """LazyBook gives what load_workbook gives, sheet by sheet; a command never parses a sheet
    it does not read (the package save copies it as it is)."""
    from bianpai.workbooks.openpyxl_port import LazyBook, OpenpyxlPort
    wb = case(tmp_path, "formula-cache-lost.xlsx")
    full = load_quietly(wb)
    lazy = LazyBook(wb)
    assert lazy.wb.sheetnames == full.sheetnames
    for name in full.sheetnames:
        a, b = lazy.sheet(name), full[name]
        assert list(a.iter_rows(values_only=True)) == list(b.iter_rows(values_only=True)), name
        assert list(a.tables) == list(b.tables) and a.print_title_rows == b.print_title_rows
        assert a.freeze_panes == b.freeze_panes and a.sheet_state == b.sheet_state
        assert ([str(d.sqref) for d in a.data_validations.dataValidation]
                == [str(d.sqref) for d in b.data_validations.dataValidation])
    port = OpenpyxlPort(wb)
    assert port.read_values("成绩")[1][6] == 15  # the formula's cached result
    assert "成绩" not in port._book._pending and "队员" in port._book._pending
    port.close()


def test_a_sheet_made_in_the_save_that_deletes_another_is_written(tmp_path):
    """A save that deletes one sheet and makes another (an undo restoring the sheets a command
    had replaced): the new sheet is in the file, in its place, and LibreOffice opens it. The
    new sheet's part must not take the name of the deleted sheet's part, which the save leaves
    out of the zip."""
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    wb = new_event(tmp_path / "e.xlsx")
    before = load_quietly(wb).sheetnames
    gone = before[2]
    port = OpenpyxlPort(wb, command="test")
    port.delete_sheet(gone)
    port.write_sheet("新表", [["甲", 1], ["乙", 2]], position=2)
    port.save()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Defined names for sheet index … cannot be located"
        book = openpyxl.load_workbook(wb)
    assert book.sheetnames == before[:2] + ["新表"] + before[3:]
    assert [[c.value for c in r] for r in book["新表"].iter_rows()] == [["甲", 1], ["乙", 2]]
    with zipfile.ZipFile(wb) as z:
        assert set(package._sheet_parts(z).values()) <= set(z.namelist())
    libreoffice_opens(wb, tmp_path)


def test_kept_parts_are_copied_as_stored(tmp_path):
    """The parts a command does not write are copied as the file stores them (the compressed
    bytes, not decompressed and compressed again); the written zip checks clean and reads back
    the same content; a part the raw copy cannot take (stored by another tool with a data
    descriptor) is still copied whole."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    # as some zip tools write: sizes after the data (a data descriptor), an extra field
    with zipfile.ZipFile(wb) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    with open(wb, "wb") as fh:
        with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as z:
            for n, data in parts.items():
                with z.open(zipfile.ZipInfo(n, (2024, 1, 1, 0, 0, 0)), "w") as out:
                    out.write(data)  # written through a stream: flag bit 3, a data descriptor
    before = members(wb)
    with zipfile.ZipFile(wb) as z:
        stored = {i.filename: package._raw_member(z, i) for i in z.infolist()}
    assert all(v is not None for v in stored.values())
    assert run("check", wb).exit_code == 0
    with zipfile.ZipFile(wb) as z:
        assert z.testzip() is None
        after = {i.filename: package._raw_member(z, i) for i in z.infolist()}
    now = members(wb)
    kept = [n for n in before if n.startswith(("xl/worksheets/", "docProps/")) and
            now.get(n) == before[n]]  # the sheets check does not write, the document parts
    assert sheet_part(wb, "报名") in kept and len(kept) >= 10
    assert all(after[n] == stored[n] for n in kept)  # the same compressed bytes
    assert load_quietly(wb)["报名"]["C2"].value == "甲1"
    libreoffice_opens(wb, tmp_path)


def test_rows_appended_below_a_kept_sheet_leave_it_unparsed(tmp_path):
    """Rows appended below every row of a kept sheet (日志 after a button, a draw's new 成绩
    rows) are held without parsing the sheet, read back at once, and saved exactly as when the
    sheet is parsed first (values, types, formats: a date gets its date format); rows that
    overlap the sheet, and a sheet with an Excel table (报名), take the parse; a sheet parsed
    after rows were held gets them."""
    import datetime as dt

    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert run("draw", wb, "--seed", 5).exit_code == 0
    rows = [[dt.datetime(2026, 12, 3, 9, 30), "check", "", "", "=不是公式", 3.0, True],
            [None, "draw", 7, "x" * 3, None, 2.5]]
    saved = {}
    for how in ("held", "parsed"):
        path = tmp_path / f"{how}.xlsx"
        shutil.copyfile(wb, path)
        port = OpenpyxlPort(path, command="test")
        n = len(port.read_values("日志"))
        if how == "parsed":
            port._sheet("日志")
        port.append_rows("日志", rows, start_row=n + 1)
        assert ("日志" in port._book._pending) is (how == "held")
        got = port.read_values("日志")
        assert got[n][:2] == [dt.datetime(2026, 12, 3, 9, 30), "check"] and got[n + 1][5] == 2.5
        assert got[n][4] == "=不是公式" and got[n][3] is None  # "" reads back empty
        port.append_rows("报名", [["男子双人赛", None, "新"]], start_row=7)  # has a table
        assert "报名" not in port._book._pending
        port.save()
        saved[how] = path
    book = {k: openpyxl.load_workbook(p) for k, p in saved.items()}
    for sheet in ("日志", "报名"):
        a, b = book["held"][sheet], book["parsed"][sheet]
        assert [[(c.value, c.number_format, c.data_type) for c in r] for r in a.iter_rows()] == \
            [[(c.value, c.number_format, c.data_type) for c in r] for r in b.iter_rows()], sheet
    assert book["held"]["日志"].cell(n + 1, 1).is_date
    # held, then the sheet is parsed (another reader needs its cells): the rows are there
    port = OpenpyxlPort(saved["held"], command="test")
    m = len(port.read_values("日志"))
    port.append_rows("日志", [["再一行"]], start_row=m + 1)
    port.append_rows("日志", [["覆盖"]], start_row=2)  # overlaps the sheet: parsed now
    assert "日志" not in port._book._pending
    got = port.read_values("日志")
    assert got[m][0] == "再一行" and got[1][0] == "覆盖"


def test_undo_of_a_folder_or_a_removed_workbook(tmp_path):
    d = tmp_path / "dir.xlsx"
    d.mkdir()
    res = run("undo", d)
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit) and "文件夹" in res.output
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert run("check", wb).exit_code == 0
    wb.unlink()  # deleted by mistake: undo brings back the version before check
    assert run("undo", wb).exit_code == 0
    assert load_quietly(wb)["校验"].max_row == 1


def test_excel_bookkeeping_parts_stay_consistent(tmp_path):
    """What Excel adds around the sheets: calcChain.xml (dropped with its relationship and
    content type, Excel rebuilds it), markup-compatibility prefixes on workbook.xml (kept
    declared), a sheet-local name on a later sheet (re-indexed when a sheet is inserted)."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    parts = members(wb)
    x15 = "http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"
    mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    xml = parts["xl/workbook.xml"].decode()
    xml = xml.replace("<workbook ", f'<workbook xmlns:mc="{mc}" xmlns:x15="{x15}" '
                                    f'mc:Ignorable="x15" ', 1)
    assert "localSheetId" in xml
    parts["xl/workbook.xml"] = xml.encode()
    parts["xl/calcChain.xml"] = (b'<calcChain xmlns="http://schemas.openxmlformats.org/'
                                 b'spreadsheetml/2006/main"><c r="A1" i="1"/></calcChain>')
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    parts["xl/_rels/workbook.xml.rels"] = rels.replace("</Relationships>", (
        '<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/calcChain" Target="calcChain.xml"/></Relationships>')).encode()
    ct = parts["[Content_Types].xml"].decode()
    parts["[Content_Types].xml"] = ct.replace("</Types>", (
        '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.calcChain+xml"/></Types>')).encode()
    with zipfile.ZipFile(wb, "w") as z:
        for n, data in parts.items():
            z.writestr(n, data)
    titles_before = load_quietly(wb).sheetnames
    assert run("draw", wb, "--seed", "5").exit_code == 0
    after = members(wb)
    assert "xl/calcChain.xml" not in after
    assert b"calcChain" not in after["xl/_rels/workbook.xml.rels"]
    assert b"calcChain" not in after["[Content_Types].xml"]
    root = after["xl/workbook.xml"].decode()
    assert 'mc:Ignorable="x15"' in root and f'xmlns:x15="{x15}"' in root
    book = load_quietly(wb)
    assert [t for t in book.sheetnames if t in titles_before] == titles_before
    assert len(book.sheetnames) > len(titles_before)  # 抽签 was inserted
    from lxml import etree
    names = etree.fromstring(after["xl/workbook.xml"]).find(package._q("definedNames"))
    local = [d for d in names if d.get("localSheetId") is not None]
    assert local
    for d in local:  # every sheet-local name sits on the sheet it names
        title = book.sheetnames[int(d.get("localSheetId"))]
        assert d.text.startswith(package._quote(title) + "!"), (d.text, title)


def test_where_rows_can_be_held_below_a_sheet():
    """The last row of a sheet's XML, read without parsing it, whatever prefix the writer gave
    the namespace; a sheet whose table or merged cells the rows would touch, or a row without
    its number, is parsed instead (None)."""
    from bianpai.workbooks.kept_appends import _last_row
    plain = b'<worksheet><sheetData><row r="1"><c r="A1"/></row><row r="4" ht="20"/>' \
            b'</sheetData></worksheet>'
    assert _last_row(plain) == 4
    assert _last_row(plain.replace(b"<row", b"<x:row").replace(b"</row", b"</x:row")
                     .replace(b"<c ", b"<x:c ")) == 4
    assert _last_row(b'<worksheet><sheetData><row><c r="B7"/></row></sheetData></worksheet>') \
        is None
    assert _last_row(b'<worksheet><sheetData/><x:mergeCells><x:mergeCell ref="A1:B1"/>'
                     b'</x:mergeCells></worksheet>') is None
    assert _last_row(b'<worksheet><sheetData/><tableParts count="1"><tablePart r:id="rId1"/>'
                     b'</tableParts></worksheet>') is None
    assert _last_row(b"<worksheet><sheetData/></worksheet>") == 0
    from bianpai.workbooks.lazy_book import xml_extent  # the same reading gives the extent
    assert xml_extent(plain) == (4, 1, 1)
    assert xml_extent(b'<x:sheetData><x:row r="2"><x:c r="AB2" s="1"/></x:row>'
                      b'</x:sheetData>') == (2, 2, 28)


def _planned_and_made(tmp_path: Path, monkeypatch, write) -> tuple[Path, Path]:
    """The same writes (``write(port)``) into a copy of one workbook, saved once with the
    generated sheets' cells planned (the default) and once with them made as openpyxl cells."""
    from bianpai.workbooks import openpyxl_port
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    src = tmp_path / "src.xlsx"
    new_event(src)
    out = {}
    for how in ("planned", "made"):
        path = tmp_path / f"{how}.xlsx"
        shutil.copyfile(src, path)
        if how == "made":
            monkeypatch.setattr(openpyxl_port, "plannable", lambda fmt: False)
        port = OpenpyxlPort(path, command="test")
        write(port)
        port.save()
        out[how] = path
    return out["planned"], out["made"]


def test_a_planned_sheet_is_saved_as_its_made_cells_would_be(tmp_path, monkeypatch):
    """A regenerated sheet written into the package from its planned cells (no openpyxl cell
    made: bianpai.workbooks.cell_plan) is the same file, byte for byte, as the one made through
    openpyxl cells: every kind of value (text, whole and decimal numbers, Decimal, a date, a
    bool, a text that looks like a formula, an error code), blank cells in formatted columns,
    number formats, wrapped and text columns, whole numbers in a two-place column, a header
    fill, row heights, page breaks by column, and rows appended after the write."""
    import datetime as dt
    from decimal import Decimal
    from bianpai.workbooks.port import ColumnFormat, PrintSetup, SheetFormat
    fmt = SheetFormat(columns=[ColumnFormat(index=0, width=8), ColumnFormat(
        index=1, number_format="0.00"), ColumnFormat(index=2, wrap=True, width=30),
        ColumnFormat(index=4, number_format="yyyy-mm-dd"), ColumnFormat(index=6, choices=["是", "否"])],
        text_columns=[0, 2, 5], break_columns=[0], data_row_height=20.5,
        print_setup=PrintSetup(title="测试", landscape=True))
    rows = [["组别", "分", "说明", "胜", "日期", "代码", "选"],
            ["男子", Decimal("2.50"), "很长的说明 " * 8, True, dt.date(2024, 5, 1), "=SUM(A1)", "是"],
            ["男子", 3, None, False, dt.datetime(2024, 5, 2, 9, 30), "#N/A", None],
            ["女子", 1.25, " 前后空格 ", None, None, "+1", "否"],
            ["女子"]]

    def write(port):
        port.write_sheet("测试表", rows, fmt)
        port.append_rows("测试表", [["女子", 4, "补", 1, dt.date(2024, 6, 1)]], start_row=6)
        port.write_sheet("无格式", [["a", 1], [None, 2.5]])

    planned, made = _planned_and_made(tmp_path, monkeypatch, write)
    a, b = members(planned), members(made)
    assert a.keys() == b.keys()
    assert [n for n in a if a[n] != b[n] and n != "docProps/core.xml"] == []
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    again = OpenpyxlPort(planned)
    assert again.read_values("测试表")[5] == ["女子", 4, "补", 1, dt.datetime(2024, 6, 1), None,
                                           None]


def test_a_port_reads_and_writes_a_sheet_it_saved_from_a_plan(tmp_path, monkeypatch):
    """After a save that planned a sheet's cells, the same port still reads the sheet, appends
    to it and saves it again: its cells are made then, and the second save is the one a port
    that made them from the start writes."""
    def write(port):
        port.write_sheet("对阵X", [["轮次", "桌号"], [1, 1], [1, 2]])
        port.save()
        assert port.read_values("对阵X") == [["轮次", "桌号"], [1, 1], [1, 2]]
        port.append_rows("对阵X", [[2, 1]], start_row=4)

    planned, made = _planned_and_made(tmp_path, monkeypatch, write)
    a, b = members(planned), members(made)
    assert [n for n in a if a[n] != b.get(n) and n != "docProps/core.xml"] == []
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    assert OpenpyxlPort(planned).read_values("对阵X")[-1] == [2, 1]


def test_a_planned_sheet_falls_back_to_openpyxl_whole(tmp_path, monkeypatch):
    """A package the save cannot edit falls back to openpyxl's whole-workbook save: the sheets
    planned for the package save get their cells made first, nothing is written empty."""
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    from bianpai.workbooks.port import ColumnFormat, SheetFormat
    path = tmp_path / "e.xlsx"
    new_event(path)

    def refuse(*_a, **_k):
        raise package.PackageError("test: not editable")
    monkeypatch.setattr(package, "save_package", refuse)
    port = OpenpyxlPort(path, command="test")
    port.write_sheet("签表X", [["轮次", "说明"], [1.5, "甲"], [2, None]],
                     SheetFormat(columns=[ColumnFormat(index=0, number_format="0.00")],
                                 text_columns=[1]))
    port.save()
    ws = openpyxl.load_workbook(path)["签表X"]
    assert [[c.value for c in r] for r in ws.iter_rows()] == [["轮次", "说明"], [1.5, "甲"],
                                                              [2, None]]
    assert ws["A2"].number_format == "0.00" and ws["B3"].number_format == "@"
    assert ws["A1"].font.b
