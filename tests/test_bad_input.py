"""Bad input: a clear Chinese + English message naming sheet and cell, and nothing written."""

import datetime as dt
import hashlib

import pytest
from typer.testing import CliRunner

from bianpai.addin.cli import app
from bianpai.workbooks.backups import stack
from tests.helpers import fill, four_pairs, new_event, pair_row, sheet_rows
from tests.shared_state import copy_of
from bianpai.workbooks.lazy_edit import load_workbook

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def drawn(tmp_path, pairs_drawn_book):
    """new_event + four_pairs + draw --seed 11: a copy of the workbook built once per run."""
    return copy_of(pairs_drawn_book, tmp_path)


def first_match(wb):
    g, rnd, table, ns, _, ew, _, _ = sheet_rows(wb, "对阵")[1]
    return g, rnd, table, ns, ew


def assert_refused(wb, command, *needles):
    before, backups = digest(wb), len(stack(wb))
    res = run(command, wb, "--seed", 1)
    assert res.exit_code == 2, res.output
    out = " ".join(res.output.split())
    for n in needles:
        assert n in out, (n, out)
    assert "nothing written" in out
    assert digest(wb) == before and len(stack(wb)) == backups


def test_unknown_pair(drawn):
    g, rnd, table, ns, ew = first_match(drawn)
    fill(drawn, "轮成绩", [[g, rnd, table, 9, ew, 50, 50, None, None]])
    assert_refused(drawn, "rank", "轮成绩!D2", "序号 9 不在本组抽签中", "pair 9")


def test_a_pairings_header_changed_is_named_at_the_header_not_at_every_result(drawn):
    """A trial user renamed 对阵!D1 (南北序号): 240 errors at 成绩 rows ("None 对 8"), none at
    对阵. The side number columns' headers are needed: one error at 对阵's header row."""
    g, rnd, table, ns, ew = first_match(drawn)
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, 50, 50, None, None]])
    wb = load_workbook(drawn)
    wb["对阵"]["D1"] = "南"
    wb.save(drawn)
    assert_refused(drawn, "rank", "对阵!1:1", "“对阵”表缺少“南北序号”列")
    res = run("rank", drawn)
    assert "1 处问题" in " ".join(res.output.split())


def test_unknown_round(drawn):
    g, rnd, table, ns, ew = first_match(drawn)
    fill(drawn, "轮成绩", [[g, 8, table, ns, ew, 50, 50, None, None]])
    assert_refused(drawn, "rank", "轮成绩!B2", "轮次应为 1–3")


def test_swapped_seats_named(drawn):
    g, rnd, table, ns, ew = first_match(drawn)
    fill(drawn, "轮成绩", [[g, rnd, table, ew, ns, 50, 50, None, None]])
    assert_refused(drawn, "rank", "轮成绩!D2", "填反了")


def test_pairing_not_in_schedule(drawn):
    rows = sheet_rows(drawn, "对阵")
    g, rnd, table, ns, ew = rows[1][0], rows[1][1], rows[1][2], rows[1][3], rows[1][5]
    other = next(r for r in rows[1:] if r[1] == rnd and r[3] != ns)
    fill(drawn, "轮成绩", [[g, rnd, table, ns, other[3], 50, 50, None, None]])
    assert_refused(drawn, "rank", "轮成绩!D2", "没有")


@pytest.mark.parametrize("value,needle", [
    (120, "0–100"), (-5, "0–100"), ("五十", "文本"), ("５５", "全角"), ("55%", "不要带“%”"),
    (0.55, "小数形式")])
def test_bad_percentages(drawn, value, needle):
    g, rnd, table, ns, ew = first_match(drawn)
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, value, 50, None, None]])
    assert_refused(drawn, "rank", "轮成绩!F2", needle)


def test_text_in_number_cell_of_boards(drawn):
    fill(drawn, "成绩", [[None, None, None, None, None, None, "二", None]], start_row=2)
    assert_refused(drawn, "rank", "成绩!G2", "应为数字")


def test_board_entered_twice(drawn):
    rows = sheet_rows(drawn, "成绩")
    first = list(rows[1][:6]) + [1, None]
    fill(drawn, "成绩", [first, first], start_row=2)
    fill(drawn, "成绩", [first], start_row=len(rows) + 1)
    assert_refused(drawn, "rank", "重复录入", f"成绩!G{len(rows) + 1}")


def test_duplicate_roster_rows_block_draw(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    rows = [pair_row("男子双人赛", f"甲{i}", f"乙{i}", b1=dt.date(1970, 1, i + 1)) for i in range(1, 4)]
    rows.append(rows[0])
    fill(wb, "报名", rows)
    assert_refused(wb, "draw", "报名!", "重复")
    assert run("check", wb).exit_code == 1
    assert any(r[0] == "错误" for r in sheet_rows(wb, "校验")[1:])


@pytest.mark.parametrize("birth,ok", [
    (dt.date(2003, 9, 30), True), (dt.date(2003, 10, 1), False), (dt.date(2003, 10, 2), False),
    (dt.date(1958, 10, 2), True), (dt.date(1958, 10, 1), False), (dt.date(1958, 9, 30), False)])
def test_eligibility_window_blocks_draw(tmp_path, birth, ok):
    wb = new_event(tmp_path / "e.xlsx")
    rows = [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 4)]
    rows.append(pair_row("男子双人赛", "甲4", "乙4", b1=birth))
    fill(wb, "报名", rows)
    if ok:
        assert run("draw", wb, "--seed", 1).exit_code == 0
    else:
        assert_refused(wb, "draw", "报名!E5")


def test_wrong_gender_for_group(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    rows = [pair_row("女子双人赛", f"甲{i}", f"乙{i}", g1="女", g2="女") for i in range(1, 4)]
    rows.append(pair_row("女子双人赛", "甲4", "乙4", g1="女", g2="男"))
    fill(wb, "报名", rows)
    assert_refused(wb, "draw", "报名!")


def test_unknown_group(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男双", "甲", "乙")])
    assert_refused(wb, "draw", "报名!A2", "未知组别")


def test_too_many_pairs_for_seven_rounds(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}", b1=dt.date(1970, 1, i))
                     for i in range(1, 10)])
    assert_refused(wb, "draw", "超过规程允许的 7 轮")


def test_bad_setting_value_names_cell(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    book = load_workbook(wb)
    ws = book["规程"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "groups[*].stages[0].format.max_rounds":
            row[2].value = "七"
            cell = f"C{row[0].row}"
    book.save(wb)
    assert_refused(wb, "draw", f"规程!{cell}")


def test_formula_like_text_stays_text(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    rows = [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 4)]
    rows.append(pair_row("男子双人赛", "=1+1", "@SUM(A1)", unit="-单位"))
    fill(wb, "报名", rows)
    book = load_workbook(wb)
    book["报名"]["C5"].data_type = "s"
    book["报名"]["G5"].data_type = "s"
    book.save(wb)
    assert run("draw", wb, "--seed", 2).exit_code == 0
    ws = load_workbook(wb)["抽签"]
    cells = [c for row in ws.iter_rows() for c in row if isinstance(c.value, str) and "1+1" in c.value]
    assert cells and all(c.data_type == "s" for c in cells)


# --- found by trying to break the workbook ----------------------------------------------------

def test_merged_group_cells_read_as_their_value(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    book = load_workbook(wb)
    ws = book["报名"]
    for r in (3, 4, 5):
        ws.cell(row=r, column=1).value = None
    ws.merge_cells("A2:A5")
    book.save(wb)
    assert run("draw", wb, "--seed", 1).exit_code == 0
    assert len(sheet_rows(wb, "抽签")) == 5


def test_libreoffice_booleans_and_cached_formulas(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    book = load_workbook(wb)
    for row in book["规程"].iter_rows(min_row=2):
        if isinstance(row[2].value, bool):
            row[2].value = "=TRUE()" if row[2].value else "=FALSE()"
    book.save(wb)
    assert run("draw", wb, "--seed", 1).exit_code == 0


def test_not_a_workbook_extension(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    csv = tmp_path / "e.csv"
    csv.write_bytes(wb.read_bytes())
    res = run("rank", csv)
    assert res.exit_code == 2 and ".xlsx" in res.output


@pytest.mark.parametrize("lock", ["~${}", ".~{}", ".~lock.{}#"])
def test_a_workbook_open_in_excel_or_wps_is_not_written(drawn, lock):
    """Excel/WPS/LibreOffice keep a lock file beside a workbook they have open: a command would
    write under the user's eyes, and their next save would undo it. Refused, nothing written,
    no backup; --out writes elsewhere; once the lock is gone the command runs."""
    held = drawn.parent / lock.format(drawn.name)
    held.write_bytes(b"")
    before, backups = digest(drawn), len(stack(drawn))
    res = run("rank", drawn)
    assert res.exit_code == 2 and held.name in res.output and "--out" in res.output, res.output
    assert digest(drawn) == before and len(stack(drawn)) == backups
    assert run("rank", drawn, "--out", drawn.parent / "copy.xlsx").exit_code == 0
    held.unlink()
    assert run("rank", drawn).exit_code == 0


@pytest.mark.parametrize("rnd", [0, -1, 4, 99])
def test_rank_round_out_of_range(drawn, rnd):
    assert_refused(drawn, "rank", "--round 应为 1–3") if False else None
    before = digest(drawn)
    res = run("rank", drawn, "--round", rnd)
    assert res.exit_code == 2 and "1–3" in res.output
    assert digest(drawn) == before


def test_single_table_round_needs_typed_percentages(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}", b1=dt.date(1970, 1, i))
                     for i in range(1, 3)])
    assert run("draw", wb, "--seed", 1).exit_code == 0
    # the draw prepares no 逐副 rows for a one-table round (a trial user typed 18 of them, all
    # refused): its 轮成绩 row instead
    assert len(sheet_rows(wb, "成绩")) == 1
    typed = sheet_rows(wb, "轮成绩")[1:]
    assert len(typed) == 1 and typed[0][:2] == ("男子双人赛", 1) and typed[0][5] is None
    g, rnd, table, ns, ew = typed[0][:5]
    # board rows typed by hand are still refused, naming 轮成绩
    fill(wb, "成绩", [[g, rnd, table, b, ns, ew, 3, None] for b in range(1, 7)])
    assert_refused(wb, "rank", "只有一桌", "轮成绩")


def test_typed_percentages_cross_checked(drawn):
    g, rnd, table, ns, ew = first_match(drawn)
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, 60, 60, None, None]])
    assert_refused(drawn, "rank", "轮成绩!G2", "超过 100")
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, 55, 45, None, None],
                          [g, rnd, table, ns, ew, 56, 44, None, None]])
    assert_refused(drawn, "rank", "轮成绩!F3", "重复")
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, 70, 30, "南北弃权", None],
                          [None] * 9])
    assert_refused(drawn, "rank", "轮成绩!F2", "弃权")


def test_typed_and_board_results_for_one_table(drawn):
    g, rnd, table, ns, ew = first_match(drawn)
    rows = sheet_rows(drawn, "成绩")
    fill(drawn, "成绩", [list(rows[1][:6]) + [1, None]])
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, 55, 45, None, None]])
    assert_refused(drawn, "rank", "轮成绩!F2", "只保留一种", "逐副录入")  # boards, not 局


@pytest.mark.parametrize("score,code,needle", [(4, None, "南北得分"), (0, None, "南北得分"),
                                               (2, "A+", "只保留一个")])
def test_board_score_values(drawn, score, code, needle):
    rows = sheet_rows(drawn, "成绩")
    fill(drawn, "成绩", [list(rows[1][:6]) + [score, code]])
    assert_refused(drawn, "rank", "成绩!", needle)


@pytest.mark.parametrize("kind,minutes,pct,needle", [
    ("直接", None, -10, "负数"), ("超时", 3, 50, "分钟数计算"), ("直接", None, 5000, "超过整轮")])
def test_bad_penalties(drawn, kind, minutes, pct, needle):
    g, rnd, table, ns, ew = first_match(drawn)
    fill(drawn, "罚分", [[g, rnd, ns, kind, minutes, pct, None]])
    assert_refused(drawn, "rank", "罚分!", needle)


def test_penalty_on_a_bye_round(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}", b1=dt.date(1970, 1, i))
                     for i in range(1, 6)])
    run("draw", wb, "--seed", 1)
    bye = next(r for r in sheet_rows(wb, "对阵")[1:] if r[5] is None)
    fill(wb, "罚分", [[bye[0], bye[1], bye[3], "超时", 3, None, None]])
    assert_refused(wb, "rank", "罚分!B2", "轮空")


def test_eight_digit_dates(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    rows = [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 5)]
    rows[0][4] = "19700501"
    fill(wb, "报名", rows)
    assert run("draw", wb, "--seed", 1).exit_code == 0


def test_nonsense_settings_refused_with_cell(tmp_path):
    for key, value, needle in [
            ("groups[*].stages[0].scoring.bands.bands[0].min_pct", 40, "从高到低"),
            ("groups[*].stages[0].format.boards_per_round", 0, "greater than or equal"),
            ("groups[*].stages[0].format.boards_per_round", 4, "少于规程要求"),
            ("groups[*].stages[0].tie_breaks.criteria", "场分, 抽签, foo", "foo")]:
        wb = new_event(tmp_path / f"e{abs(hash(key + str(value)))}.xlsx")
        four_pairs(wb)
        book = load_workbook(wb)
        for row in book["规程"].iter_rows(min_row=2):
            if row[0].value == key:
                row[2].value = value
                cell = f"C{row[0].row}"
        book.save(wb)
        assert_refused(wb, "draw", needle)


def test_chinese_criteria_names_accepted(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    book = load_workbook(wb)
    for row in book["规程"].iter_rows(min_row=2):
        if row[0].value == "groups[*].stages[0].tie_breaks.criteria":
            row[2].value = "场分，级差，抽签"
    book.save(wb)
    assert run("draw", wb, "--seed", 1).exit_code == 0
    assert run("rank", wb).exit_code == 0
    assert sheet_rows(wb, "排名")[0][6:9] == ("场分", "级差", "抽签")


def test_an_error_value_and_a_huge_text_are_described_as_what_they_are():
    """Found by a trial tester: #N/A was called 文本“#N/A”, and a 40,000-character cell was
    echoed whole in the message."""
    from bianpai.workbooks.tables import coerce
    with pytest.raises(ValueError) as exc:
        coerce("#N/A", "int")
    assert exc.value.args[0].startswith("单元格是错误值 #N/A") and "整数" in exc.value.args[0]
    assert "whole number" in exc.value.args[1]
    with pytest.raises(ValueError) as exc:
        coerce("x" * 40000, "number")
    assert len(exc.value.args[0]) < 120 and "共 40000 字" in exc.value.args[0]
    assert len(exc.value.args[1]) < 120
    assert coerce("#N/A", "text") == "#N/A"  # a text column takes it as typed
