"""Bad workbooks on the competition core (issue 12, "Bad input"): one representative of each
kind of damage from ``tests/bad_workbooks.py`` (the generator ``bench/bad_workbooks.py`` runs
on every core preset), on a mid-event eight-ball open (drawn, round 1 typed, round 2 drawn).
Each must end with a clear sheet!cell message, exit ≠ 0 and the file unchanged — or, where the
damage is harmless, with exactly what the undamaged workbook gives.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tests.bad_workbooks import copy_event, mid_event, mutations
from tests.helpers import digest, set_setting, sheet_rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook


@pytest.fixture(scope="module")
def built(mid_event_book) -> Path:
    """``mid_event("cbsa", draws=1)``, built once per run (shared with test_core_row_checks)."""
    return mid_event_book("cbsa", draws=1)


@pytest.fixture
def event(built, tmp_path) -> Path:
    return copy_event(built, tmp_path / "w")


def edit(path: Path, fn) -> None:
    wb = load_workbook(path)
    fn(wb)
    wb.save(path)


def refused(path: Path, command: str, *needles: str) -> str:
    """Run ``command``: exit 2, every needle in the output, the workbook byte-identical, no
    message without a column letter (``成绩!?9``). Returns the output."""
    before = digest(path)
    res = run(command, path, "--seed", 3) if command != "check" else run(command, path)
    out = " ".join(res.output.split())
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2, out
    for n in needles:
        assert n in out, (n, out)
    assert "!?" not in out, out
    assert digest(path) == before
    return out


def _row_of(path: Path, sheet: str, col: str, value) -> int:
    ws = load_workbook(path, read_only=True)[sheet]
    header = next(ws.iter_rows(values_only=True))
    c = header.index(col)
    for r, row in enumerate(ws.iter_rows(min_row=2, values_only=True), start=2):
        if row[c] == value:
            return r
    raise LookupError(value)


def test_a_deleted_draw_sheet_is_the_one_cause_named(event):
    """十二（三）抽签: the numbers drawn are the basis of every match; deleting 抽签 after the
    draw names that sheet once, not every team of 对阵 as "not in the draw"."""
    edit(event, lambda wb: wb.remove(wb["抽签"]))
    out = refused(event, "rank", "缺少“抽签”工作表")
    assert "不在" not in out and "1 处问题" in out


def test_a_renamed_result_header_is_named_without_follow_on_errors(event):
    """Results are typed under their headers; a renamed 甲方号 header names 成绩!1:1 once
    instead of one "成绩!?N" per row."""
    edit(event, lambda wb: setattr(wb["成绩"]["F1"], "value", "甲方"))
    out = refused(event, "rank", "成绩!1:1", "甲方号")
    assert "1 处问题" in out


def test_roster_rows_resorted_after_the_draw_change_nothing(event, tmp_path):
    """The draw is matched to 报名 by name: a re-sorted 报名 ranks exactly as before."""
    plain = copy_event(event, tmp_path / "plain")
    assert run("rank", plain, "--seed", 3).exit_code == 0

    def reverse(wb):
        ws = wb["报名"]
        rows = [[c.value for c in r] for r in ws.iter_rows(min_row=2)]
        rows = [r for r in rows if any(v is not None for v in r)]
        for i, r in enumerate(reversed(rows), start=2):
            for j, v in enumerate(r, start=1):
                ws.cell(i, j).value = v
    edit(event, reverse)
    res = run("rank", event, "--seed", 3)
    assert res.exit_code == 0, res.output
    assert sheet_rows(event, "排名") == sheet_rows(plain, "排名")


def test_a_drawn_name_replaced_in_the_roster_is_named(event):
    """A drawn player renamed in 报名 after the draw: refused at his 报名 cell (undo and
    redraw to change an entrant), never ranked under the new name."""
    name = sheet_rows(event, "抽签")[1][2]
    row = _row_of(event, "报名", "姓名", name)
    edit(event, lambda wb: setattr(wb["报名"][f"D{row}"], "value", "新来的人"))
    refused(event, "rank", f"报名!D{row}", name, "新来的人")


def test_an_entry_added_to_a_drawn_group_is_named(event):
    """A 报名 row added after the draw is not in 抽签: named, not silently left out."""
    def add(wb):
        ws = wb["报名"]
        src = [c.value for c in ws[2]]
        ws.append(src)
        ws.cell(ws.max_row, 4).value = "后来报名"
    edit(event, add)
    refused(event, "rank", "后来报名", "不在抽签中")


def test_cells_merged_over_typed_results_are_refused(event):
    """Excel keeps the first value of a merged range: two frame counts merged into one are
    refused with the range, never read as the same score twice."""
    rows = sheet_rows(event, "成绩")
    typed = [i for i, r in enumerate(rows[1:], start=2) if r[7] is not None]
    a = next(r for r in typed if r + 1 in typed)
    edit(event, lambda wb: wb["成绩"].merge_cells(f"H{a}:H{a + 1}"))
    refused(event, "rank", f"成绩!H{a}:H{a + 1}", "合并")


@pytest.mark.parametrize("key,value,needle", [
    ("awards.tax.rate", 20, "不大于 1"),  # 二十 "代扣代缴20%税金" typed as 20, not 0.2
    ("groups[0].stages[2].format.third_place_race", -5, "0–100000"),
    ("groups[0].stages[1].format.qualify", 0, "规程!C"),
])
def test_regulation_numbers_out_of_range_name_their_cell(event, key, value, needle):
    """二十 代扣代缴20%税金: a rate is a fraction (0.2), a count is never negative; a 规程
    number outside its range is refused at its 值 cell."""
    set_setting(event, key, value)
    row = _row_of(event, "规程", "设置项", key)
    refused(event, "draw", f"规程!C{row}", needle)


def test_unset_optional_settings_are_not_blank_rows_and_stay_settable(tmp_path):
    """The 规程 sheet lists no blank 递补 (replacement) or 报名上限 (max_entries) rows; a row
    the organizer adds sets them (十三（一）资格赛报名人数为512人，额满为止)."""
    from bianpai.addin.competition import load_core_event
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    path = tmp_path / "e.xlsx"
    assert run("new", "qingdao-gouji-2015", "-o", path).exit_code == 0
    keys = [r[0] for r in sheet_rows(path, "规程")[1:] if r[0]]
    assert not any(k.endswith((".replacement", ".max_entries")) for k in keys)
    edit(path, lambda wb: wb["规程"].append(["groups[*].max_entries", "报名上限", 60]))
    ev = load_core_event(OpenpyxlPort(path, command="check"))
    assert [g.max_entries for g in ev.reg.groups] == [60, 60]


def test_every_kind_of_the_generator_applies(built):
    """The generator makes every kind of damage on this workbook (the bench's table rows)."""
    kinds = {m.kind for m in mutations(built, random.Random(1))}
    assert kinds >= {"sheet deleted", "sheet renamed", "header deleted", "header renamed",
                     "draw numbers", "roster after draw", "merged over typed", "column in front",
                     "settings out of range", "files"}


def test_a_damaged_backup_is_not_restored(event):
    """撤销 restores only a backup that opens: a damaged newest backup is named and the
    workbook is left as it is."""
    d = event.parent / f"{event.name}.bianpai-backups"
    from bianpai.workbooks.backups import stack
    newest = stack(event)[-1]
    newest.write_bytes(newest.read_bytes()[:300])
    before = digest(event)
    res = run("undo", event, "--force")
    assert res.exit_code == 2 and not isinstance(res.exception, (TypeError, ValueError, OSError))
    assert digest(event) == before
    shutil.rmtree(d)


def test_regulation_change_undo_and_force_are_in_the_log(event):
    """二十 代扣代缴20%税金: a 规程 value changed between commands is logged old → new; an
    ``undo --force`` (which restores the backup byte for byte) is logged with where the
    discarded file was kept, in the row before the next command's."""
    from tests.helpers import set_setting
    set_setting(event, "awards.tax.rate", 0.1)
    assert run("rank", event, "--seed", 3).exit_code == 0
    log = sheet_rows(event, "日志")
    assert "规程修改" in log[-1][4] and "awards.tax.rate：0.2 → 0.1" in log[-1][4]
    from bianpai.workbooks.backups import stack
    backup = stack(event)[-1].read_bytes()
    assert run("undo", event, "--force").exit_code == 0
    assert event.read_bytes() == backup  # undo itself restores exactly
    assert run("check", event).exit_code == 0
    log = sheet_rows(event, "日志")
    assert log[-2][1] == "undo" and log[-2][2] == "force=True"
    assert "撤销“rank”" in log[-2][4] and "undone/" in log[-2][4]
    assert log[-1][1] == "check"


def test_a_deleted_header_of_a_generated_sheet_is_one_error_at_the_header(event):
    """抽签 is checked against what the draw wrote; its 报名表行 header deleted is one error at
    抽签!1:1 naming the column, not one "抽签!?N" per drawn player."""
    def drop(wb):
        ws = wb["抽签"]
        col = [c.value for c in ws[1]].index("报名表行") + 1
        ws.cell(1, col).value = None
    edit(event, drop)
    out = refused(event, "rank", "抽签!1:1", "“报名表行”")
    assert "1 处问题" in out


def test_a_deleted_imp_header_is_named_once_at_the_header_row(tmp_path):
    """Issue 12 (bad-workbooks 319): the bridge style's 成绩 header 主队IMP deleted mid-event.
    The scoring's half-typed-IMPs check found the away IMPs without the home ones and named
    `成绩!?9`; now one error at 成绩!1:1 names the missing header, nothing is written."""
    wb = tmp_path / "event.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "bad-319-imp-header-deleted.xlsx", wb)
    out = refused(wb, "rank", "成绩!1:1", "“成绩”表缺少“主队IMP”列")
    assert "组别" not in out.split("缺少")[1].split("列")[0]  # the style's columns, not the core's


def test_a_deleted_draw_sheet_of_a_style_without_record_copies_is_the_one_cause(tmp_path):
    """Issue 12 (bad-workbooks 361): the bridge team style keeps no hidden copy of 抽签; with 抽签
    deleted mid-event the draw named 42 对阵 cells ("队号 10 不在…抽签中"). Now the one cause:
    the missing sheet, and nothing is written (no new numbers drawn)."""
    wb = tmp_path / "event.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "bad-361-draw-sheet-deleted.xlsx", wb)
    out = refused(wb, "draw", "缺少“抽签”工作表", "1 处问题")
    assert "不在" not in out


def test_cells_merged_over_pairs_board_scores_are_refused(tmp_path):
    """Issue 12 (bad-workbooks 054): the pairs style's 成绩 (a view of the core's 逐局成绩) with
    G5:G6 merged over two boards' scores was ranked with the first score for both; now refused
    at the merged range, nothing written."""
    wb = tmp_path / "event.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "bad-054-merged-scores.xlsx", wb)
    refused(wb, "rank", "成绩!G5:G6", "合并了单元格（南北得分）")


def test_rows_are_appended_under_their_headers_when_a_column_was_inserted(tmp_path):
    """Issue 12 (bad-workbooks 328): a column 序 inserted before A of 成绩; the draw of round 4
    appended its rows by position (shifted one column left) and the next check named 14 cells
    bianpai itself wrote. Rows now go under their titles; the organizer's column stays blank."""
    wb = tmp_path / "event.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "bad-328-column-inserted-before-a.xlsx", wb)
    res = run("draw", wb, "--seed", 3)
    assert res.exit_code == 0, res.output
    rows = sheet_rows(wb, "成绩")
    assert list(rows[0][:3]) == ["序", "阶段", "轮次"]
    new = [r for r in rows[1:] if r[2] == 4]
    assert len(new) == 7 and all(r[0] is None and r[1] == "排位赛" for r in new), new
    res = run("check", wb)
    assert "错误 0 处" in " ".join(res.output.split()), res.output


@pytest.fixture
def bridge_mid(tmp_path) -> Path:
    """A copy of a mid-event otog bridge team workbook (round 3 drawn, untyped)."""
    wb = tmp_path / "event.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "mid-otog-bridge-teams.xlsx", wb)
    return wb


def test_a_renamed_header_of_a_style_shown_schedule_is_the_one_cause(bridge_mid):
    """Issue 12 on the bridge style (bench: 对阵!B1 '轮次' renamed): 对阵 is shown in the style's
    columns; a column showing a required core column (轮次) renamed was read as blank and
    crashed draw and rank with a TypeError. Now one error at 对阵!1:1, none on the sheets that
    refer to 对阵, nothing written."""
    edit(bridge_mid, lambda wb: setattr(wb["对阵"]["B1"], "value", "轮次X"))
    for command in ("rank", "draw"):
        out = refused(bridge_mid, command, "对阵!1:1", "“对阵”表缺少“轮次”列", "1 处问题")
        assert "逐副成绩!" not in out and "成绩!" not in out.replace("逐副成绩", "")


def test_a_side_shown_twice_is_read_from_its_own_column(bridge_mid):
    """The bridge 对阵 shows the away team in 客队号 and again in 开室东西/闭室南北: it is read
    (and named in messages) from 客队号, the column an arbiter edits."""
    from bianpai.addin.core_views import read_core_sheet
    from bianpai.templates.presets_io import load_preset
    from bianpai.workbooks import core_layouts as K
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    df = read_core_sheet(OpenpyxlPort(bridge_mid), load_preset("otog-bridge-teams"), K.SCHEDULE,
                         errors=[])
    assert df.attrs["columns"]["side0"] == "E" and df.attrs["columns"]["side1"] == "G"


def test_a_renamed_optional_column_of_a_style_shown_sheet_is_refused(tmp_path):
    """Issue 12 on the pairs style (bench: 成绩!G1 '南北得分' renamed): the style's 成绩 (a view
    of the core's 逐局成绩) lost the column every board score is typed in, and rank ranked
    "尚未录入任何成绩" — by the draw alone. A column a view reads back must be there, as on
    the core's own sheets: one error at 成绩!1:1, nothing written."""
    wb = tmp_path / "event.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "mid-shenzhen-guandan-pairs.xlsx", wb)
    edit(wb, lambda b: setattr(b["成绩"]["G1"], "value", "南北得分X"))
    out = refused(wb, "rank", "成绩!1:1", "“成绩”表缺少“南北得分”列", "1 处问题")
    assert "尚未录入" not in out


def test_bracket_scores_are_number_cells(built, tmp_path):
    """Found by a trial user: 签表/签表图 局数 were text ('7', '0'): they are numbers now."""
    from tests.shared_state import copy_of
    path = copy_of(built, tmp_path)
    wb = load_workbook(path)
    for name in ("签表", "签表图"):
        vals = [c.value for r in wb[name].iter_rows(min_row=2) for c in r]
        assert not [v for v in vals if isinstance(v, str) and v.strip().isdigit()], name
        assert any(isinstance(v, int) and not isinstance(v, bool) for v in vals), name


def test_a_qualifier_flight_names_its_rounds_by_number(built, tmp_path):
    """Found by a trial user: a 资格赛 flight that stops with 2 (or 16) left named its rounds
    1/4决赛, 半决赛 … from a final it never plays; they are 第1轮, 第2轮 …"""
    from tests.shared_state import copy_of
    path = copy_of(built, tmp_path)
    wb = load_workbook(path)
    ws = wb["签表"]
    head = [c.value for c in ws[1]]
    by_pool: dict = {}
    for r in ws.iter_rows(min_row=2, values_only=True):
        if r[head.index("阶段")] == "资格赛":
            by_pool.setdefault(r[head.index("小组")], set()).add(r[head.index("轮次")])
    # this corpus's flights: 男1–男4 stop with 4 or 2 left, 女1/女2 play to their final
    for pool in ("男1", "男2", "男3", "男4"):
        assert by_pool[pool] and all(str(x).startswith("第") and str(x).endswith("轮")
                                     for x in by_pool[pool]), (pool, by_pool[pool])
    assert "决赛" in by_pool["女1"]
