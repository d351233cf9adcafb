"""Result and penalty rows checked against 对阵 by the competition core, each message at its cell
(:mod:`bianpai.addin.core_row_checks`), and the guandan pairs scoring's own checks of what was
typed (``typed_problems``, :mod:`bianpai.engines.guandan_checks`; 规程 八（二）、十一（三）（四）).

The pairs cases run the Shenzhen workbook with its roster layout switched onto the core (fixture
``on_core``, as ``tests/test_pairs_port.py``): the old pipeline's messages, given by the core.
The generic cases run a core eight-ball event (``tests/bad_workbooks.mid_event``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from bianpai.workbooks import roster_layouts as RL
from tests.helpers import digest, fill, four_pairs, new_event, pair_row, sheet_rows
from tests.shared_state import copy_of
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook


@pytest.fixture
def on_core(monkeypatch):
    """The pairs roster layout declared as running on the core (as it will once ported)."""
    monkeypatch.setitem(RL.ROSTER_LAYOUTS, "pairs",
                        dataclasses.replace(RL.ROSTER_LAYOUTS["pairs"], runs_on_core=True))


@pytest.fixture
def drawn(on_core, tmp_path, pairs_drawn_book):
    """new_event + four_pairs + draw --seed 11: a copy of the workbook built once per run."""
    return copy_of(pairs_drawn_book, tmp_path)


def refused(path, *needles, command="rank") -> str:
    before = digest(path)
    cmd, *flags = command.split()
    res = run(cmd, path, *flags, "--seed", 1)
    out = " ".join(res.output.split())
    assert res.exit_code == 2, out
    for n in needles:
        assert n in out, (n, out)
    assert "!?" not in out and digest(path) == before
    return out


def first(wb):
    g, rnd, table, ns, _, ew, _, _ = sheet_rows(wb, "对阵")[1]
    return g, rnd, table, ns, ew


def test_round_scores_rows_against_the_schedule(drawn):
    """九: a 轮成绩 row names a scheduled table: the round, each 序号, the seats, the table."""
    g, rnd, table, ns, ew = first(drawn)
    cases = [([g, 8, table, ns, ew], ("轮成绩!B2", "轮次应为 1–3", "实际为 8")),
             ([g, rnd, table, 9, ew], ("轮成绩!D2", "序号 9 不在本组抽签中", "pair 9")),
             ([g, rnd, table, ew, ns], ("轮成绩!D2", "填反了")),
             ([g, rnd, 2, ns, ew], ("轮成绩!C2", "在对阵表的第1桌，不是第2桌"))]
    other = next(r for r in sheet_rows(drawn, "对阵")[1:] if r[1] == rnd and r[3] != ns)
    cases.append(([g, rnd, table, ns, other[3]], ("轮成绩!D2", "没有", "第1桌为")))
    for row, needles in cases:
        fill(drawn, "轮成绩", [row + [50, 50, None, None]])
        refused(drawn, *needles)


def test_a_result_for_a_bye_is_named(on_core, tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}", b1=dt.date(1970, 1, i))
                     for i in range(1, 6)])
    assert run("draw", wb, "--seed", 1).exit_code == 0
    bye = next(r for r in sheet_rows(wb, "对阵")[1:] if r[5] is None)
    fill(wb, "轮成绩", [[bye[0], bye[1], bye[2], bye[3], 5 if bye[3] != 5 else 4, 50, 50, None, None]])
    refused(wb, "轮成绩!D2", "轮空")
    ws_clear(wb, "轮成绩", 2)
    fill(wb, "罚分", [[bye[0], bye[1], bye[3], "超时", 3, None, None]])
    refused(wb, "罚分!B2", "轮空，不能罚分")


def ws_clear(path, sheet, row):
    wb = load_workbook(path)
    for c in wb[sheet][row]:
        c.value = None
    wb.save(path)


def test_board_rows_checked_by_the_scoring(drawn):
    """八（二）: 南北得分 is a level −3…+3 (not 0), or a 代码, not both; one board once."""
    rows = sheet_rows(drawn, "成绩")
    head = list(rows[1][:6])
    for score, code, needles in [(4, None, ("成绩!G2", "“南北得分”应为")),
                                 (0, None, ("成绩!G2", "实际为 0")),
                                 (2, "A+", ("成绩!H2", "只保留一个"))]:
        fill(drawn, "成绩", [head + [score, code]])
        refused(drawn, *needles)
    fill(drawn, "成绩", [head + [1, None]])
    ws_clear_cells(drawn, "成绩", 2, (None, None, None))  # the 代码 typed above
    fill(drawn, "成绩", [head + [1, None]])
    fill(drawn, "成绩", [head + [2, None]], start_row=len(rows) + 1)
    refused(drawn, f"成绩!G{len(rows) + 1}", "重复录入", "另见第2行")


def test_typed_percentages_checked(drawn):
    g, rnd, table, ns, ew = first(drawn)
    for pcts, needles in [((60, 60, None), ("轮成绩!G2", "超过 100")),
                          ((55, None, None), ("轮成绩!G2", "都填写")),
                          ((70, 30, "南北弃权"), ("轮成绩!F2", "弃权"))]:
        fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, *pcts, None]])
        ws_clear_cells(drawn, "轮成绩", 2, pcts)
        refused(drawn, *needles)
    rows = sheet_rows(drawn, "成绩")
    fill(drawn, "成绩", [list(rows[1][:6]) + [1, None]])
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, 55, 45, None, None]])
    refused(drawn, "轮成绩!F2", "只保留一种", "成绩!G2")


def ws_clear_cells(path, sheet, row, pcts):
    """Empty the cells of ``pcts`` typed as None (openpyxl's ``cell(value=None)`` keeps them)."""
    wb = load_workbook(path)
    cols = ("G", "H") if sheet == "成绩" else ("F", "G", "H")
    for col, v in zip(cols, pcts):
        if v is None:
            wb[sheet][f"{col}{row}"].value = None
    wb.save(path)


@pytest.mark.parametrize("kind,minutes,pct,needles", [
    ("直接", None, -10, ("罚分!F2", "负数")),
    ("超时", 3, 50, ("罚分!F2", "分钟数计算")),
    ("直接", 5, 10, ("罚分!E2", "不填分钟")),
    ("直接", None, 5000, ("罚分!F2", "超过整轮")),
    ("超时", None, None, ("罚分!", "须填写分钟数"))])
def test_penalties_checked_at_their_cell(drawn, kind, minutes, pct, needles):
    """十一（三）（四）: 超时/迟到 by the minutes on the 规程's ladders, 直接 in % of a top."""
    g, rnd, table, ns, ew = first(drawn)
    fill(drawn, "罚分", [[g, rnd, ns, kind, minutes, pct, None]])
    refused(drawn, *needles)


def test_penalty_for_a_pair_not_in_the_draw(drawn):
    g, rnd, table, ns, ew = first(drawn)
    fill(drawn, "罚分", [[g, rnd, 9, "直接", None, 10, None]])
    refused(drawn, "罚分!C2", "序号 9 不在本组抽签中")
    fill(drawn, "罚分", [[g, 7, ns, "直接", None, 10, None]])
    refused(drawn, "罚分!B2", "轮次应为 1–3")


# ------------------------------------------------------------------ generic: a core event

@pytest.fixture
def eightball(mid_event_book, tmp_path):
    """A copy of ``mid_event("cbsa", draws=1)`` (built once per run)."""
    from tests.bad_workbooks import copy_event
    return copy_event(mid_event_book("cbsa", draws=1), tmp_path / "w")


def test_a_core_result_row_says_why_it_is_not_in_the_schedule(eightball):
    """Any core format: a result row's numbers swapped, unknown, or its round not drawn, each
    named at its own cell in the roster's word for a number (队号)."""
    rows = sheet_rows(eightball, "成绩")
    r = list(rows[1])
    keep = load_workbook(eightball)
    for change, needles in [({5: r[6], 6: r[5]}, ("成绩!F2", "填反了")),
                            ({6: 999}, ("成绩!G2", "队号 999 不在本组抽签中")),
                            ({3: 9}, ("成绩!D2", "轮次应为 1–"))]:
        keep.save(eightball)
        wb = load_workbook(eightball)
        for i, v in change.items():
            wb["成绩"].cell(2, i + 1).value = v
        wb.save(eightball)
        refused(eightball, *needles)


# ------------------------------------------------------------------ the draw: field, numbers, redraw

def test_more_pairs_than_the_rounds_allow_is_an_error(on_core, tmp_path):
    """八（一）: at most 7 rounds; 9 pairs need 9 (the format's ``field_problems``)."""
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}", b1=dt.date(1970, 1, i))
                     for i in range(1, 10)])
    refused(wb, "9 个参赛单位单循环需 9 轮，超过规程允许的 7 轮", command="draw")


def test_typed_numbers_all_or_none(on_core, tmp_path):
    """九: the roster's 序号 all typed (1…n, kept; seed 报名表序号) or all blank (by lot)."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    book = load_workbook(wb)
    book["报名"]["B3"].value = 2
    book.save(wb)
    refused(wb, "报名!B3", "全部填写", command="draw")
    book = load_workbook(wb)
    for i, n in enumerate((3, 1, 4, 2), start=2):
        book["报名"][f"B{i}"].value = n
    book.save(wb)
    assert run("draw", wb, "--seed", 4).exit_code == 0
    draw = sheet_rows(wb, "抽签")[1:]
    assert {r[5] for r in draw} == {"报名表序号"}
    assert [r[4] for r in sorted(draw, key=lambda r: r[1])] == [3, 5, 2, 4]
    assert run("rank", wb, "--seed", 2).exit_code == 0  # ranking lots by the rank's seed


def test_check_names_a_mix_of_typed_and_blank_numbers(on_core, tmp_path):
    """九: ``check`` reports a mix of typed and blank 序号 as an error in 校验, at the first typed
    cell (before the draw refuses it there)."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    book = load_workbook(wb)
    book["报名"]["B4"].value = 3
    book["报名"]["B5"].value = 1
    book.save(wb)
    res = run("check", wb)
    assert res.exit_code == 1
    errors = [r for r in sheet_rows(wb, "校验")[1:] if r[0] == "错误"]
    assert [r[1] for r in errors] == ["报名!B4"] and "全部填写" in errors[0][2]


@pytest.mark.parametrize("kind,minutes,pct,cell,needle", [
    ("超时", -5, None, "罚分!E2", "负数"), ("迟到", None, None, "罚分!E2", "须填写分钟数"),
    ("直接", None, -10, "罚分!F2", "负数"), ("超时", 3, 50, "罚分!F2", "分钟数计算"),
    ("直接", 5, None, "罚分!E2", "不填分钟")])
def test_a_penalty_error_names_the_column_its_kind_reads(drawn, kind, minutes, pct, cell, needle):
    """十一（三）（四）: a 罚分 row's problem is named at the column its kind reads — 分钟 (E) for
    超时/迟到, 罚分(%顶分) (F) for 直接 — or at the column typed against its kind."""
    g, rnd, _table, ns, _ew = first(drawn)
    fill(drawn, "罚分", [[g, rnd, ns, kind, minutes, pct, None]])
    out = refused(drawn, cell, needle)
    assert out.count("罚分!") == 1


def test_an_unknown_penalty_kind_is_named_once(drawn):
    """A 类别 not in the list is named at its cell only (not read as 直接 with minutes)."""
    g, rnd, _table, ns, _ew = first(drawn)
    fill(drawn, "罚分", [[g, rnd, ns, "乱写", 5, None, None]])
    out = refused(drawn, "罚分!D2", "类别")
    assert out.count("罚分!") == 1


def test_redraw_while_nothing_is_typed(drawn):
    """``draw --redraw``: new numbers and schedule, the earlier blank rows replaced, logged;
    refused once a result is typed."""
    n_rows = len(sheet_rows(drawn, "成绩"))
    before = sheet_rows(drawn, "抽签")[1:]
    res = run("draw", drawn, "--redraw", "--seed", 12)
    assert res.exit_code == 0, res.output
    after = sheet_rows(drawn, "抽签")[1:]
    assert {r[5] for r in after} == {"12"} and after != before
    assert len(sheet_rows(drawn, "成绩")) == n_rows
    g, rnd, table, ns, ew = first(drawn)
    fill(drawn, "轮成绩", [[g, rnd, table, ns, ew, 55, 45, None, None]])
    refused(drawn, "不能重新抽签", command="draw --redraw")


def test_redraw_of_a_core_event(eightball):
    """Any core format: refused once results are typed (the eight-ball event has round 1)."""
    refused(eightball, "不能重新抽签", command="draw --redraw")
