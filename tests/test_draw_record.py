"""Issue 12 ("generated facts … checked against what bianpai wrote before"): on the workbook
styles whose sheet list is fixed by their golden workbooks — the Shenzhen pairs and the two
bridge team presets keep no hidden ``_bianpai_draw`` sheet — 抽签 is checked against the record
the draw kept as a custom document property (``addin.core_records``), in the one read path
(``core_read.check_record``); so is 带分, the bridge style's view of 晋级, against the record
advance kept (below). Mid-event workbooks built by the commands (``mid_event``: every
save package-preserving, as an organizer's)."""

from __future__ import annotations

import zipfile
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest

from tests.bad_workbooks import _data_rows, _header_col, copy_event
from tests.helpers import digest, fill, four_pairs, new_event, sheet_rows
from tests.test_cli_flow import run
from tests.test_core_bad_workbooks import edit, refused
from bianpai.workbooks.lazy_edit import load_workbook

STYLES = ["pairs", "fjbridge", "otbridge"]


@pytest.fixture(params=STYLES)
def event(request, mid_event_book, tmp_path) -> Path:
    return copy_event(mid_event_book(request.param), tmp_path / "w")


def _numbers(path: Path) -> tuple[int, int, int, object, object]:
    """(column of the number, two data rows of one group, their numbers) of 抽签."""
    ws = load_workbook(path)["抽签"]
    col = _header_col(ws, "序号") or _header_col(ws, "队号")
    group = _header_col(ws, "组别")
    rows = _data_rows(ws)
    r1 = rows[1]
    r2 = next(r for r in rows[2:] if group is None
              or ws.cell(r, group).value == ws.cell(r1, group).value)
    return col, r1, r2, ws.cell(r1, col).value, ws.cell(r2, col).value


def _custom(path: Path) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read("docProps/custom.xml")


def test_swapped_draw_numbers_are_refused_at_their_cells(event):
    """Two 抽签 numbers of one group swapped after the draw (the names, 报名表行 and 对阵 all
    still consistent: it was ranked silently) are refused at both cells, saying what the draw
    wrote, in Chinese then English; nothing is written, by rank nor by draw (never re-drawn);
    the sheet list stays the golden one (no hidden copy)."""
    col, r1, r2, a, b = _numbers(event)
    letter = openpyxl.utils.get_column_letter(col)

    def swap(wb):
        ws = wb["抽签"]
        ws.cell(r1, col).value, ws.cell(r2, col).value = b, a
    edit(event, swap)
    for command in ("rank", "draw"):
        out = refused(event, command,
                      f"抽签!{letter}{r1} “抽签”表的值被改动（原为“{a}”，现为“{b}”）",
                      f"抽签!{letter}{r2} “抽签”表的值被改动（原为“{b}”，现为“{a}”）",
                      f"抽签 was edited ('{a}' → '{b}')")
        assert out.index(f"抽签!{letter}{r1}") < out.index("抽签 was edited")
    assert "_bianpai_draw" not in load_workbook(event).sheetnames


@pytest.mark.parametrize("change", ["deleted", "duplicated"])
def test_a_deleted_or_duplicated_draw_number_is_the_first_cause(event, change):
    """A number deleted or copied over another is named first at its 抽签 cell (the draw wrote
    another number there), before the 对阵 cells it leaves without a team."""
    col, r1, r2, a, b = _numbers(event)
    letter = openpyxl.utils.get_column_letter(col)
    edit(event, lambda wb: setattr(wb["抽签"].cell(r1, col), "value",
                                   None if change == "deleted" else b))
    now = "" if change == "deleted" else b
    out = refused(event, "rank", f"（原为“{a}”，现为“{now}”）")
    first = out.split("处问题", 1)[1].split()[0]
    assert first == f"抽签!{letter}{r1}", out


def test_the_record_survives_saves_that_do_not_write_the_draw(event):
    """The package-preserving save writes only what a command changed: a rank (which does not
    write 抽签) keeps the record byte for byte, and a swap after it is still refused."""
    before = _custom(event)
    assert b"_bianpai_draw.1" in before
    assert run("rank", event, "--seed", 3).exit_code == 0
    assert _custom(event) == before
    col, r1, r2, a, b = _numbers(event)

    def swap(wb):
        ws = wb["抽签"]
        ws.cell(r1, col).value, ws.cell(r2, col).value = b, a
    edit(event, swap)
    refused(event, "rank", f"（原为“{a}”，现为“{b}”）")


def test_what_bianpai_rewrites_in_the_draw_is_its_new_record(tmp_path):
    """A name corrected in 报名 after the draw (报名更正) is written into 抽签 by the next draw,
    with its record: the commands after it accept their own 抽签."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert run("draw", wb, "--seed", 5).exit_code == 0
    fill(wb, "报名", [["男子双人赛", None, "甲一改"]], start_row=2)
    assert run("draw", wb).exit_code == 0
    assert any(r[2] == "甲一改/乙1" for r in sheet_rows(wb, "抽签")[1:])
    res = run("rank", wb)
    assert res.exit_code == 0, res.output


def test_a_record_a_live_book_may_have_left_stale_refuses_nothing(tmp_path):
    """A front that keeps no record (a live book through xlwings) may have rewritten 抽签 after
    the record was written (or undone the draw that wrote it): with a 日志 row from another
    front after the record's, a difference is not reported — bianpai never refuses what it may
    have written itself. Without that row, the same edit is refused."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert run("draw", wb, "--seed", 5).exit_code == 0
    wb2 = copy_event(wb, tmp_path / "second")
    for path, front in ((wb, "excel"), (wb2, None)):
        def rename(book, front=front):
            book["抽签"]["C2"].value = "甲1/乙1改"
            if front:
                log = book["日志"]
                log.append([None, "draw", None, None, "抽签编排完成", front])
        edit(path, rename)
    assert run("rank", wb).exit_code == 0
    before = digest(wb2)
    res = run("rank", wb2)
    out = " ".join(res.output.split())
    assert res.exit_code == 2 and "抽签!C2 “抽签”表的值被改动" in out and digest(wb2) == before


# ------------------------------------------------------------ 带分 (晋级 on the bridge style)
# The bridge team style shows the core's 晋级 as 带分 in its own columns (来源VP, 比例, 比例带分,
# 另加VP, 带分); advance (and a draw adding late joiners) keeps what 带分 then shows as the
# document property of the entries record, compared in the columns the view reads back.

@pytest.fixture
def advanced(shared_book, tmp_path) -> Path:
    """The 20-team Fujian event after its first stage and ``advance --seed 3``."""
    from tests.test_bridge_teams_cli import fujian20
    return fujian20(shared_book, tmp_path, "advanced")


def _carry(path: Path) -> tuple[dict[str, int], list[int], openpyxl.worksheet.worksheet.Worksheet]:
    """(column of each 带分 header, the data rows carrying VP, the sheet)."""
    ws = load_workbook(path)["带分"]
    cols = {c.value: c.column for c in ws[1] if c.value}
    rows = [r for r in _data_rows(ws) if ws.cell(r, cols["带分"]).value]
    return cols, rows, ws


def _text(v) -> str:
    return format(Decimal(str(v)).normalize(), "f")


@pytest.mark.parametrize("command", ["rank", "draw"])
def test_a_changed_carry_over_is_refused_at_its_cell(advanced, command):
    """A team's carried VP typed over after advance (the standings would have used it) is
    refused at its 带分 cell, saying what advance wrote, Chinese then English; nothing written."""
    cols, rows, ws = _carry(advanced)
    r, c = rows[0], cols["带分"]
    old = ws.cell(r, c).value
    edit(advanced, lambda wb: setattr(wb["带分"].cell(r, c), "value", 30.5))
    letter = openpyxl.utils.get_column_letter(c)
    out = refused(advanced, command,
                  f"带分!{letter}{r} “带分”表的值被改动（原为“{_text(old)}”，现为“30.5”）",
                  f"带分 was edited ('{_text(old)}' → '30.5')")
    assert out.index(f"带分!{letter}{r}") < out.index("带分 was edited")


@pytest.mark.parametrize("change", ["deleted", "duplicated"])
def test_a_deleted_or_duplicated_carry_row_is_refused(advanced, change):
    """A 带分 row deleted (its team would lose its carry-over and its place in the stage) or
    copied in beneath itself (a team entered twice) is refused at that row alone (not at the
    rows it moved), saying what advance wrote there; nothing written, never re-advanced."""
    cols, rows, ws = _carry(advanced)
    r = rows[0]
    was = [ws.cell(r, cols[h]).value for h in ("阶段", "队号", "来源阶段", "来源名次", "带分")]
    if change == "deleted":
        edit(advanced, lambda wb: wb["带分"].delete_rows(r))
        needle = (f"带分!{r}:{r} “带分”表少了第{r}行（原为 {was[0]}、{was[1]}、{was[2]}、{was[3]}、"
                  f"{_text(was[4])}、")
    else:
        def copy(wb):
            sh = wb["带分"]
            sh.insert_rows(r + 1)
            for c in range(1, sh.max_column + 1):
                sh.cell(r + 1, c).value = sh.cell(r, c).value
        edit(advanced, copy)
        needle = f"带分!{r + 1}:{r + 1} “带分”表多了第{r + 1}行"
    for command in ("rank", "draw"):
        refused(advanced, command, needle, "1 处问题")


def test_swapped_team_numbers_in_carry_are_refused_at_both_cells(advanced):
    """Two 队号 swapped in 带分 (each team would take the other's carry-over and stage) are
    refused at both cells; nothing written by rank nor by draw."""
    cols, rows, ws = _carry(advanced)
    knock = next(r for r in _data_rows(ws) if not ws.cell(r, cols["带分"]).value)
    r1, r2, c = knock, rows[0], cols["队号"]
    a, b = ws.cell(r1, c).value, ws.cell(r2, c).value

    def swap(wb):
        sh = wb["带分"]
        sh.cell(r1, c).value, sh.cell(r2, c).value = b, a
    edit(advanced, swap)
    letter = openpyxl.utils.get_column_letter(c)
    for command in ("rank", "draw"):
        refused(advanced, command,
                f"带分!{letter}{r1} “带分”表的值被改动（原为“{a}”，现为“{b}”）",
                f"带分!{letter}{r2} “带分”表的值被改动（原为“{b}”，现为“{a}”）")


def test_what_the_style_rewrites_in_carry_is_accepted(advanced):
    """What bianpai itself writes is its record: advance keeps 带分's record (the sheet list
    stays the golden one), rank accepts it, a team name corrected in 带分's 队名 column (not a
    fact the stages depend on) is not refused, and an undo then a new advance writes the
    record anew. (A draw appending late joiners rewrites it too:
    test_bridge_teams_cli::test_qf_loser_joins_consolation_at_round_3_with_25_percent_plus_24.)"""
    assert b"_bianpai_entries.1" in _custom(advanced)
    assert "_bianpai_entries" not in load_workbook(advanced).sheetnames
    cols, rows, _ws = _carry(advanced)
    edit(advanced, lambda wb: setattr(wb["带分"].cell(rows[0], cols["队名"]), "value", "改名队"))
    before = _custom(advanced)
    # the second undo (of advance) drops the 队名 typed after it: --force says so
    for args in (("rank", "--seed", 3), ("undo",), ("undo", "--force"), ("advance", "--seed", 5),
                 ("rank", "--seed", 3)):
        res = run(args[0], advanced, *args[1:])
        assert res.exit_code == 0, (args, res.output)
    assert _custom(advanced) != before  # seed 5: another order, its own record
