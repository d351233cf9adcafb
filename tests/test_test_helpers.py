"""The test helpers that type into workbooks: the quick XML typing (tests.helpers.type_cells,
used by fill for numbers and texts) leaves the workbook reading exactly as openpyxl's typing
(load, set the cells, save) does, through bianpai's own reader and through openpyxl."""

from __future__ import annotations

import shutil

import openpyxl

from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import fill, four_pairs, new_event, openpyxl_fill, sheet_rows


def test_fill_reads_back_as_openpyxl_typing(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)  # rows the sheet did not have (2–5)
    rows = [["男子双人赛", None, "甲九", "男", None, None, "乙九", "女"],  # a new row (7)
            [None, 3, None, None, None, None, None, None, None, None, "  深 圳 "],  # an existing row
            ["女子双人赛", None, "丙", "女", None, None, "丁", "女", None, None, "x", 1.5, 7]]
    other = tmp_path / "o.xlsx"
    shutil.copyfile(wb, other)
    for path, typing in ((wb, fill), (other, openpyxl_fill)):
        typing(path, "报名", rows[:1], start_row=7)
        typing(path, "报名", rows[1:2], start_row=3)
        typing(path, "报名", rows[2:], start_row=12)  # past a gap of empty rows
        typing(path, "报名", [[None, 5]], start_row=2)
    assert sheet_rows(wb, "报名") == sheet_rows(other, "报名")
    assert OpenpyxlPort(wb).read_values("报名") == OpenpyxlPort(other).read_values("报名")
    got = OpenpyxlPort(wb).read_values("报名")
    assert got[6][2] == "甲九" and got[2][10] == "  深 圳 " and got[11][11] == 1.5
    assert got[1][1] == 5 and got[1][2] == "甲1"  # a blank leaves the cell as it was
    book = openpyxl.load_workbook(wb)  # still a workbook openpyxl (and Excel) opens
    assert book["报名"].max_row == 12


def test_sheet_rows_read_as_openpyxl_reads_them(golden_pairs_book, golden_teams_book):
    """sheet_rows reads a sheet with python-calamine: every sheet of two finished events (the
    pairs and a bridge team golden flow: dates, merged paper rows, empty styled cells, numbers
    and texts) reads exactly as openpyxl's read-only mode reads it."""
    from tests.helpers import _calamine_rows, openpyxl_sheet_rows
    for book in (golden_pairs_book, golden_teams_book("fujian-elder-bridge-teams")):
        fast = 0
        for name in openpyxl.load_workbook(book, read_only=True).sheetnames:
            got = _calamine_rows(book, name)
            if got is not None:
                fast += 1
                assert got == openpyxl_sheet_rows(book, name), name
        assert fast >= 10  # most sheets are read the quick way


def _edits(wb) -> None:
    """What tests do to a loaded workbook: cells set and cleared, rows appended and deleted, a
    date typed, cells merged, a sheet made, one removed, one renamed."""
    import datetime as dt
    ws = wb["成绩"]
    ws["G2"] = 5
    ws["G3"] = None
    ws.cell(300, 1, "远处")
    roster = wb["报名"]
    roster.delete_rows(3)
    roster.append(["男子双人赛", None, "新甲", "男", dt.date(1970, 5, 1)])
    roster.merge_cells("K2:K3")
    made = wb.create_sheet("新表", 1)
    made.append([1, "a", dt.date(2020, 1, 1), 2.5])
    wb.remove(wb["交叉表"])
    wb["排名"].title = "排名旧"


def _everything(path) -> dict:
    """Every sheet as openpyxl reads it whole: order, state, values, number formats, merges."""
    wb = openpyxl.load_workbook(path)
    return {ws.title: (ws.sheet_state, sorted(str(m) for m in ws.merged_cells.ranges),
                       [[(c.value, c.number_format) for c in row] for row in ws.iter_rows()])
            for ws in wb.worksheets} | {"_active": wb.active.title}


def test_lazy_load_workbook_saves_what_openpyxl_saves(golden_pairs_book, tmp_path):
    """bianpai.workbooks.lazy_edit.load_workbook (sheets parsed when taken, only those saved): the same
    edits through it and through openpyxl's load and save give the same workbook, sheet by
    sheet, value and format by cell; a sheet the test never took is copied byte for byte."""
    import zipfile

    from bianpai.workbooks.lazy_edit import load_workbook
    lazy, whole = tmp_path / "lazy.xlsx", tmp_path / "whole.xlsx"
    for path, load in ((lazy, load_workbook), (whole, openpyxl.load_workbook)):
        shutil.copyfile(golden_pairs_book, path)
        wb = load(path)
        _edits(wb)
        wb.save(path)
    assert _everything(lazy) == _everything(whole)
    with zipfile.ZipFile(golden_pairs_book) as a, zipfile.ZipFile(lazy) as b:
        from tests.helpers import _sheet_part
        part = _sheet_part(a, "成绩汇总")
        assert a.read(part) == b.read(_sheet_part(b, "成绩汇总"))
    # what the package path cannot write (a comment, a formula, a new defined name, another
    # active sheet) is saved whole
    from openpyxl.comments import Comment
    from openpyxl.workbook.defined_name import DefinedName
    for path, load in ((lazy, load_workbook), (whole, openpyxl.load_workbook)):
        wb = load(path)
        wb["报名"]["C2"].comment = Comment("注", "裁判长")
        wb["新表"]["E1"] = "=1+1"
        wb.active = 2
        wb.defined_names["单位"] = DefinedName("单位", attr_text="'报名'!$K$2:$K$9")
        wb.save(path)
    assert _everything(lazy) == _everything(whole)
    again = openpyxl.load_workbook(lazy)
    assert again["报名"]["C2"].comment.text == "注" and "单位" in again.defined_names


def test_lazy_load_workbook_reads_the_file_as_it_was_loaded(tmp_path):
    """A sheet taken only after a command rewrote the file reads as it was at the load, as
    openpyxl's whole load holds it (a test comparing before with after stays a comparison)."""
    from bianpai.workbooks.lazy_edit import load_workbook
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    logged = openpyxl.load_workbook(wb)["日志"].max_row
    before = load_workbook(wb)
    from tests.test_cli_flow import run
    assert run("draw", wb, "--seed", 5).exit_code == 0
    assert openpyxl.load_workbook(wb)["日志"].max_row > logged
    assert before["日志"].max_row == logged and "抽签" not in before.sheetnames


def test_lazy_load_workbook_keeps_the_vba_buttons_of_a_sheet_it_writes(tmp_path):
    """An .xlsm with its form buttons (legacy VML drawing on 操作), loaded with keep_vba: a cell
    typed on 操作 saves as openpyxl's keep_vba save does, the buttons' drawing still linked."""
    import zipfile

    from typer.testing import CliRunner

    from bianpai.addin.cli import app
    from bianpai.workbooks.lazy_edit import load_workbook
    src = tmp_path / "m.xlsm"
    assert CliRunner().invoke(app, ["new", "shenzhen-guandan-pairs-2023", "--macros", "-o",
                                    str(src)]).exit_code == 0
    lazy, whole = tmp_path / "lazy.xlsm", tmp_path / "whole.xlsm"
    for path, load in ((lazy, load_workbook), (whole, openpyxl.load_workbook)):
        shutil.copyfile(src, path)
        wb = load(path, keep_vba=True)
        wb["操作"]["B2"] = 4242
        wb.save(path)
    assert _everything(lazy) == _everything(whole)
    again = openpyxl.load_workbook(lazy, keep_vba=True)
    assert again["操作"]["B2"].value == 4242 and again["操作"].legacy_drawing
    with zipfile.ZipFile(lazy) as a, zipfile.ZipFile(src) as b:
        assert a.read("xl/vbaProject.bin") == b.read("xl/vbaProject.bin")
        assert a.read(again["操作"].legacy_drawing) == b.read(again["操作"].legacy_drawing)
