"""争上游 ranking play-off in the workbook (otog 单项 十（五）（3）, audit OT-36).

十（五）（3）“积分相同的获得头游次数多者胜出，头游数量相同则比较二游数量，二游数量再相同比较三游数量，
三游数量相同，则加赛一副牌，加赛牌获得头游方获胜。” In the round robin (积分循环制) two pairs still level
after the 三游 count play one extra deal: the rank command prepares its row in 逐局成绩 (deal 5 of
their match) and names it in 排名; once typed, the ranking reads it. A play-off deal typed for pairs
that are not level is refused by sheet!cell, nothing written.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest

from bianpai.addin import commands
from bianpai.engines.core import Match, TypedMatch
from bianpai.engines.finish_order import ZhengShangYouScoring
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import digest
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "otog-mind-games-2024"
ZSY = "扑克争上游双人成年组"
PLACES = slice(6, 10)          # 甲方名次1, 甲方名次2, 乙方名次1, 乙方名次2 (0-based in a row)
#: equal deals: 头游+四游 against 二游+三游, twice each way → 20:20, 2 of every place each
EQUAL = [(1, 4, 2, 3), (1, 4, 2, 3), (2, 3, 1, 4), (2, 3, 1, 4)]
#: side 0 takes 头游 and 二游 in every deal → 28:12
SWEEP = [(1, 2, 3, 4)] * 4


def _deals(a: int, b: int) -> list[tuple]:
    """Pair 1 sweeps pair 2; every other match is EQUAL: 1 = 68, 3 = 4 = 60 (level on every
    count), 2 = 52."""
    if {a, b} == {1, 2}:
        return SWEEP if a == 1 else [(c, d, x, y) for x, y, c, d in SWEEP]
    return EQUAL


def _type_round(path: Path, rnd: int) -> None:
    sched = {(r[3], r[4]): (r[6], r[8]) for r in rows(path, "对阵")[1:] if r[0] == ZSY}
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    for i, r in enumerate(ws.iter_rows(values_only=True), start=1):
        if r[0] == ZSY and r[3] == rnd and r[5] <= 4:
            a, b = sched[(r[3], r[4])]
            for j, v in enumerate(_deals(a, b)[r[5] - 1]):
                ws.cell(i, 7 + j, v)
    wb.save(path)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """4 pairs of 争上游, the whole round robin typed, ranked once."""
    path = tmp_path_factory.mktemp("zsy") / "z.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), load_preset(PRESET))
    wb = load_workbook(path)
    ws = wb["报名"]
    for k, (i, who) in enumerate([(i, w) for i in range(4) for w in "甲乙"], start=2):
        for j, v in enumerate([ZSY, f"组合{i}", None, f"{who}{i}", "男", dt.date(1985, 3, 3),
                               None, "鄂托克旗", "队员", None, None, None], start=1):
            ws.cell(k, j, v)
    wb.save(path)
    for rnd in (1, 2, 3):
        res = run("draw", path, "--seed", 3)
        assert res.exit_code == 0, res.output
        _type_round(path, rnd)
    res = run("rank", path, "--seed", 1)
    assert res.exit_code == 0, res.output
    assert "须加赛" in res.output
    return path


def _copy(src: Path, tmp_path: Path) -> Path:
    p = tmp_path / "c.xlsx"
    p.write_bytes(src.read_bytes())
    return p


def _standing(path: Path) -> list[tuple]:
    return [r for r in rows(path, "排名")[1:] if r[0] == ZSY]


def test_the_rank_command_offers_the_extra_deal_where_the_tie_remains(played):
    """十（五）（3）三游数量相同，则加赛一副牌 (OT-36): only pairs 3 and 4 are level on points, 头游, 二游 and 三游; the
    rank command prepares deal 5 of their match in 逐局成绩 and says so in their 说明."""
    sched = [r for r in rows(played, "对阵")[1:] if r[0] == ZSY]
    m34 = next(r for r in sched if {r[6], r[8]} == {3, 4})
    extra = [r for r in rows(played, "逐局成绩")[1:] if r[0] == ZSY and r[5] == 5]
    assert [(r[3], r[4]) for r in extra] == [(m34[3], m34[4])]
    assert all(v is None for v in extra[0][PLACES])
    st = {r[4]: r for r in _standing(played)}
    assert st[1][3] == 1 and st[2][3] == 4
    assert "须加赛" in st[3][-1] and "须加赛" in st[4][-1] and "须加赛" not in (st[1][-1] or "")
    # ranking again does not prepare the row twice
    assert run("rank", played, "--seed", 1).exit_code == 0
    assert len([r for r in rows(played, "逐局成绩")[1:] if r[0] == ZSY and r[5] == 5]) == 1


def _type_extra(path: Path, places: tuple, where=None) -> int:
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    for i, r in enumerate(ws.iter_rows(values_only=True), start=1):
        if r[0] == ZSY and r[5] == 5 and (where is None or (r[3], r[4]) == where):
            for j, v in enumerate(places):
                ws.cell(i, 7 + j, v)
            wb.save(path)
            return i
    if where is not None:   # a row typed by hand under the match
        i = ws.max_row + 1
        for j, v in enumerate([ZSY, "争上游比赛", None, where[0], where[1], 5, *places], start=1):
            ws.cell(i, j, v)
        wb.save(path)
        return i
    raise AssertionError("no play-off row")


def test_the_typed_extra_deal_decides_the_ranking(played, tmp_path, head=1):
    """十（五）（3）加赛牌获得头游方获胜 (OT-36): whichever side takes 头游 in deal 5 is placed above the other."""
    path = _copy(played, tmp_path)
    m34 = next(r for r in rows(path, "对阵")[1:] if r[0] == ZSY and {r[6], r[8]} == {3, 4})
    _type_extra(path, (1, 4, 2, 3) if head == 0 else (2, 3, 1, 4))
    assert run("rank", path, "--seed", 1).exit_code == 0
    winner = m34[6] if head == 0 else m34[8]
    loser = m34[8] if head == 0 else m34[6]
    st = {r[4]: r for r in _standing(path)}
    assert (st[winner][3], st[loser][3]) == (2, 3)
    header = rows(path, "排名")[0]
    assert st[winner][header.index("加赛")] == 1 and st[loser][header.index("加赛")] == 0
    # the match itself keeps its 4-deal score; the play-off shows in 对阵's 说明
    m = next(r for r in rows(path, "对阵")[1:] if r[0] == ZSY and {r[6], r[8]} == {3, 4})
    assert m[10] == "20:20" and "加赛" in m[11]


def test_an_extra_deal_for_pairs_not_level_is_refused(played, tmp_path):
    """The extra deal is for pairs level after 三游 only: deal 5 typed under 1 v 2 (68 v 52) →
    逐局成绩!G{row}, nothing written."""
    path = _copy(played, tmp_path)
    m12 = next(r for r in rows(path, "对阵")[1:] if r[0] == ZSY and {r[6], r[8]} == {1, 2})
    row = _type_extra(path, (1, 4, 2, 3), where=(m12[3], m12[4]))
    before = digest(path)
    res = run("rank", path, "--seed", 1)
    assert res.exit_code != 0 and f"逐局成绩!G{row}" in res.output and "不应加赛" in res.output
    assert digest(path) == before


def test_a_half_typed_extra_deal_is_named(played, tmp_path):
    path = _copy(played, tmp_path)
    row = _type_extra(path, (1, None, None, None))
    before = digest(path)
    res = run("rank", path, "--seed", 1)
    assert res.exit_code != 0 and f"逐局成绩!" in res.output and "未填全" in res.output
    assert str(row) in res.output and digest(path) == before


def _games(deals) -> TypedMatch:
    return TypedMatch(games=pd.DataFrame([
        {"game": i + 1, "place_0a": d[0], "place_0b": d[1], "place_1a": d[2], "place_1b": d[3],
         "_row": 2 + i} for i, d in enumerate(deals)]))


def test_three_or_more_level_pairs_play_each_other_once():
    """十（五）（3） (OT-36) reading (setting note): with 3+ pairs level after 三游 each two play one extra deal; no
    offer in a knockout (must_decide) or with ``ranking_playoff`` off."""
    s = ZhengShangYouScoring()
    ms = [Match(1, 1, (1, 2)), Match(1, 2, (3, 4)), Match(2, 1, (1, 3)), Match(2, 2, (2, 4)),
          Match(3, 1, (1, 4)), Match(3, 2, (2, 3))]
    res = [s.score_typed(m, _games(EQUAL)) for m in ms]
    assert all(r.points == (Decimal(20), Decimal(20)) for r in res)
    assert [m.sides for m, n in s.playoffs_needed(res)] == [m.sides for m in ms]
    assert {n for _, n in s.playoffs_needed(res)} == {5}
    res[0] = s.score_typed(ms[0], _games(EQUAL + [(2, 3, 1, 4)]))
    assert res[0].values["playoff_wins"] == (0, 1) and res[0].points == (20, 20)
    assert len(s.playoffs_needed(res)) == 5 and s.stage_problems(res, {}) == []
    assert ZhengShangYouScoring(must_decide=True).playoffs_needed(res) == []
    assert ZhengShangYouScoring(ranking_playoff=False).playoffs_needed(res) == []


def test_two_firsts_in_a_deal_are_named_and_nothing_written(played, tmp_path):
    """十 争头游、二游、三游和四游 — one of each per deal: a deal typed with two 头游 →
    逐局成绩!G{row} “第1局有两个头游”, nothing written (issue 10 bad input)."""
    path = _copy(played, tmp_path)
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    row = next(i for i, r in enumerate(ws.iter_rows(values_only=True), start=1)
               if r[0] == ZSY and r[5] == 1)
    for j, v in enumerate((1, 1, 2, 3)):
        ws.cell(row, 7 + j, v)
    wb.save(path)
    before = digest(path)
    res = run("rank", path, "--seed", 1)
    assert res.exit_code != 0 and f"逐局成绩!G{row}" in res.output and "两个头游" in res.output
    assert digest(path) == before


def test_awards_wait_for_an_untyped_extra_deal(played, tmp_path):
    """十（五）（3）“三游数量相同，则加赛一副牌，加赛牌获得头游方获胜” (OT-36): until the extra deal is typed the
    places of the level pairs are not known, so 奖励分配 refuses, naming the prepared row's cell
    (逐局成绩!G{row}), in Chinese and English, and writes nothing; once typed the awards run."""
    path = _copy(played, tmp_path)
    row = next(i for i, r in enumerate(rows(path, "逐局成绩"), start=1)
               if r[0] == ZSY and r[5] == 5)
    before = digest(path)
    res = run("awards", path)
    assert res.exit_code != 0, res.output
    assert f"逐局成绩!G{row}" in res.output and "须加赛" in res.output and "不能分配奖励" in res.output
    assert digest(path) == before
    _type_extra(path, (1, 4, 2, 3))
    assert run("rank", path, "--seed", 1).exit_code == 0
    res = run("awards", path)
    assert res.exit_code == 0, res.output
