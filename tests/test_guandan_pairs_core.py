"""Guandan pairs as a competition-core scoring agrees with the Shenzhen workbook's numbers.

规程 八（二）："比赛分为每副牌按同方向比较的比赛分之和除以顶分之和的百分比"；八（三）"轮空……51%，
场分1.5分"；十一（三）超时罚则、十一（四）迟到罚则（迟到一轮判该轮弃权）；十三 名次：场分→平均得分率→
相互间胜负→获胜轮数→平局轮数→级差. The golden workbook (tests/golden_build.py, made by the
old pipeline) is read back as core typed matches; the core scoring must give every pair's
比赛分, 场分, 级差, 罚分 and result of 成绩汇总, and the 排名 of the same chain.
"""

from decimal import Decimal

import pandas as pd
import pytest

from bianpai.engines import core
from bianpai.engines.core import Match, TypedMatch
from bianpai.engines.errors import InputError, InputErrors
from bianpai.engines.standings import rank
from bianpai.templates.presets_io import load_preset
from tests.golden_build import load_golden

OUTCOME_ZH = {"W": "胜", "D": "平", "L": "负", "BYE": "轮空", "FW": "对方弃权", "FL": "弃权"}


@pytest.fixture(scope="module")
def golden():
    return load_golden()


@pytest.fixture(scope="module")
def stage():
    return load_preset("shenzhen-guandan-pairs-2023").groups[0].stages[0]


def _typed(golden, group: str, b: int):
    """对阵/成绩/轮成绩/罚分 of one group as core matches and typed matches."""
    matches = []
    for r in golden["对阵"][1:]:
        if r[0] == group:
            matches.append(Match(round=r[1], table=r[2], sides=(r[3], r[5])))
    by = {(m.round, m.sides[0]): m for m in matches}
    games: dict = {}
    for r in golden["成绩"][1:]:
        if r[0] != group or (r[1], r[4]) not in by or by[(r[1], r[4])].sides[1] != r[5]:
            continue
        m = by[(r[1], r[4])]
        games.setdefault(m.key, []).append({"game": r[3] - (r[1] - 1) * b, "ns_score": r[6],
                                             "code": r[7]})
    totals, decisions, pens = {}, {}, {}
    for r in golden["轮成绩"][1:]:
        if r[0] == group:
            m = by[(r[1], r[3])]
            totals[m.key] = {"ns_pct": r[5], "ew_pct": r[6], "ns_level_diff": r[8]}
            decisions[m.key] = r[7]
    for r in golden["罚分"][1:]:
        if r[0] == group:
            m = next(m for m in matches if m.round == r[1] and r[2] in m.sides)
            value = r[4] if r[3] in ("超时", "迟到") else r[5]
            pens.setdefault(m.key, []).append((m.sides.index(r[2]), r[3], value))
    typed = {}
    for m in matches:
        k = m.key
        if k in games or k in totals or k in pens:
            typed[k] = TypedMatch(games=pd.DataFrame(games.get(k, []), columns=["game", "ns_score",
                                                                               "code"]),
                                  totals=totals.get(k, {}), decision=decisions.get(k),
                                  penalties=tuple(pens.get(k, ())))
    return matches, typed


@pytest.mark.parametrize("group", ["男子双人赛", "女子双人赛"])
def test_core_scoring_gives_the_round_results_sheet(golden, stage, group):
    """成绩汇总: every pair and round, same 比赛分%, 场分, 级差, 罚分 and result."""
    sc = stage.scoring
    matches, typed = _typed(golden, group, sc.boards_per_round)
    results = sc.score_stage(matches, typed)
    rows = core.entrant_rows(results)
    got = {(int(r.entrant), int(r.round)): r for r in rows.itertuples()}
    want = [r for r in golden["成绩汇总"][1:] if r[0] == group]
    assert len(got) == len(want)
    for w in want:
        r = got[(w[1], w[3])]
        opp = None if pd.isna(r.opponent) else int(r.opponent)
        assert opp == w[4]
        assert float(r.score_pct) == w[6], (w, r)
        assert float(r.match_points) == w[7], (w, r)
        assert int(r.level_diff) == w[8], (w, r)
        assert (float(r.penalty_pct) or None) == w[9], (w, r)
        assert OUTCOME_ZH[r.outcome] == w[10], (w, r)


@pytest.mark.parametrize("group", ["男子双人赛", "女子双人赛"])
def test_core_scoring_gives_the_standings(golden, stage, group):
    """排名: the preset's chain over the core results gives the same places and values."""
    sc = stage.scoring
    matches, typed = _typed(golden, group, sc.boards_per_round)
    rows = core.entrant_rows(sc.score_stage(matches, typed))
    want = [r for r in golden["排名"][1:] if r[0] == group]
    seed = int(next(r[5] for r in golden["抽签"][1:] if r[0] == group))
    st = rank([r[2] for r in want], rows, stage.tie_breaks.criteria, seed=seed,
              ctx={"restart": stage.tie_breaks.restart_head_to_head}).table
    assert list(st["entrant"]) == [r[2] for r in want]
    assert list(st["rank"]) == [r[1] for r in want]
    assert [float(v) for v in st["match_points"]] == [r[6] for r in want]
    assert [float(v) for v in st["avg_score_pct"]] == [r[7] for r in want]
    assert [int(v) for v in st["level_diff"]] == [r[11] for r in want]


def test_entry_columns_are_the_shenzhen_headers(stage):
    """The entry columns carry the headers of 成绩 (南北得分, 代码) and 轮成绩 (南北/东西比赛分%,
    判定, 南北级差), so an existing workbook still reads."""
    sc = stage.scoring
    assert [c.zh for c in sc.entry_game_columns()] == ["南北得分", "代码"]
    assert [c.zh for c in sc.entry_match_columns()] == ["南北比赛分%", "东西比赛分%", "南北级差"]
    assert sc.entry_decisions() == ["正常", "南北弃权", "东西弃权", "双方弃权"]
    assert sc.scope == "stage" and sc.games_per_match == 6


def test_penalty_ladders(stage):
    """十一（三）超时2+~5分钟罚10%；十一（四）迟到5+~10分钟罚20%，10分钟以上每5分钟加扣20%；迟到满一轮
    (50分钟) 须按“迟到一轮”录入."""
    sc = stage.scoring
    assert sc.penalty_pct("超时", 3) == Decimal(10)
    assert sc.penalty_pct("迟到", 7) == Decimal(20)
    assert sc.penalty_pct("迟到", 12) == Decimal(40)
    assert sc.penalty_pct("直接", 25) == Decimal(25)
    assert sc.penalty_pct("迟到一轮", None) == Decimal(0)
    with pytest.raises(InputError, match="迟到一轮"):
        sc.penalty_pct("迟到", 50)
    with pytest.raises(InputError, match="未知的罚分类别"):
        sc.penalty_pct("吸烟", 1)


def test_one_board_table_in_a_round_is_refused(stage):
    """八（二）比赛分按同方向比较：一轮只有一桌逐副录入时无从比较，须直接录入比赛分."""
    sc = stage.scoring
    ms = [Match(1, 1, (1, 2)), Match(1, 2, (3, 4))]
    games = pd.DataFrame([{"game": i, "ns_score": 1, "code": None} for i in range(1, 7)])
    typed = {ms[0].key: TypedMatch(games=games, where=("成绩!G2",)),
             ms[1].key: TypedMatch(games=games.iloc[0:0], totals={"ns_pct": 50, "ew_pct": 50})}
    with pytest.raises(InputErrors) as exc:
        sc.score_stage(ms, typed)
    assert exc.value.errors[0].cell == "G2"


def test_two_rounds_late_forfeits_the_rest(stage):
    """十一（四）5：迟到两轮取消比赛资格 — every later match of the pair is forfeited."""
    sc = stage.scoring
    ms = [Match(1, 1, (1, 2)), Match(2, 1, (1, 3)), Match(3, 1, (2, 3)), Match(3, 2, (1, None))]
    empty = pd.DataFrame(columns=["game", "ns_score", "code"])
    typed = {ms[1].key: TypedMatch(games=empty, penalties=((0, "迟到两轮", None),))}
    res = {r.match.key: r for r in sc.score_stage(ms, typed)}
    assert res[ms[1].key].outcome == ("FL", "FW")
    assert res[ms[1].key].points == (Decimal(0), Decimal(2))
    assert ms[0].key not in res  # round 1: nothing entered


def test_late_one_round_twice_is_two_rounds_late(stage):
    """十一（四）5 迟到两轮，取消违规方比赛资格: a trial user typed 迟到一轮 for pair 1 in rounds 1
    and 2 and it played on, ranked, without a word. The rounds late are counted over the event:
    round 1 forfeited (十一（四）4), disqualified from round 2 on (unplaced, later rounds lost)."""
    sc = stage.scoring
    ms = [Match(1, 1, (1, 2)), Match(1, 2, (3, 4)), Match(2, 1, (1, 3)), Match(2, 2, (2, 4)),
          Match(3, 1, (1, 4)), Match(3, 2, (2, 3))]
    empty = pd.DataFrame(columns=["game", "ns_score", "code"])
    pct = {"ns_pct": 50, "ew_pct": 50}
    typed = {ms[0].key: TypedMatch(games=empty, penalties=((0, "迟到一轮", None),)),
             ms[1].key: TypedMatch(games=empty, totals=pct),
             ms[2].key: TypedMatch(games=empty, penalties=((0, "迟到一轮", None),)),
             ms[3].key: TypedMatch(games=empty, totals=pct),
             ms[5].key: TypedMatch(games=empty, totals=pct)}
    res = {r.match.key: r for r in sc.score_stage(ms, typed)}
    assert res[ms[0].key].outcome == ("FL", "FW")
    assert res[ms[2].key].outcome == ("FL", "FW") and res[ms[4].key].outcome == ("FL", "FW")
    out = sc.unplaced(ms, typed)
    assert set(out) == {1} and out[1][0] == 2 and "取消比赛资格" in out[1][1]
    once = {ms[0].key: typed[ms[0].key]}  # late once: that round only
    assert sc.unplaced(ms, once) == {}


def test_one_round_late_forfeits_that_round(stage):
    """十一（四）4："迟到一轮……判该轮弃权" — the late pair loses that round 0 %/0 and the other
    gets 55 %/2 (十一（四）: 弃权 scores); its other rounds stand."""
    sc = stage.scoring
    assert sc.lateness.rounds_forfeit == 1
    ms = [Match(1, 1, (1, 2)), Match(1, 2, (3, 4)), Match(2, 1, (1, 3)), Match(2, 2, (2, 4))]
    empty = pd.DataFrame(columns=["game", "ns_score", "code"])
    pct = {"ns_pct": 50, "ew_pct": 50}
    typed = {ms[0].key: TypedMatch(games=empty, totals=pct),
             ms[1].key: TypedMatch(games=empty, totals=pct),
             ms[2].key: TypedMatch(games=empty, penalties=((1, "迟到一轮", None),)),
             ms[3].key: TypedMatch(games=empty, totals=pct)}
    res = {r.match.key: r for r in sc.score_stage(ms, typed)}
    late = res[ms[2].key]
    assert late.outcome == ("FW", "FL")
    assert late.points == (Decimal(2), Decimal(0))
    assert late.values["score_pct"] == (Decimal(55), Decimal(0))
    assert res[ms[0].key].outcome == ("D", "D")


def test_bad_penalty_names_round_table_and_pair(stage):
    """十一（四）：迟到满一轮按“迟到一轮”处理 — minutes of a whole round are refused, naming the
    round, table and pair (the typed match has no 罚分 cell)."""
    sc = stage.scoring
    ms = [Match(2, 3, (5, 6))]
    empty = pd.DataFrame(columns=["game", "ns_score", "code"])
    typed = {ms[0].key: TypedMatch(games=empty, penalties=((1, "迟到", Decimal(55)),))}
    with pytest.raises(InputErrors) as exc:
        sc.score_stage(ms, typed)
    assert exc.value.errors[0].zh.startswith("第2轮第3桌 6号罚分：迟到 55 分钟已达一轮")


def test_round_percentages_not_adding_up_are_warned_with_the_decision_normal():
    """Found by a trial user: 56.5 / 33.5 typed in 轮成绩 with 判定 “正常” (the sheet's default)
    gave no warning; only a blank 判定 was checked. A forfeit (no percentages) is not."""
    from bianpai.engines.guandan_checks import typed_pct_warnings
    m = Match(round=1, table=1, sides=(2, 3))
    cells = {"ns_pct": "轮成绩!F2", "ew_pct": "轮成绩!G2"}
    for decision in (None, "正常", "normal"):
        t = TypedMatch(games=pd.DataFrame(columns=["game"]),
                       totals={"ns_pct": Decimal("56.5"), "ew_pct": Decimal("33.5")},
                       decision=decision, cells=cells)
        w = typed_pct_warnings([m], {m.key: t})
        assert len(w) == 1 and "90.0" in w[0].zh and w[0].cell == "F2:G2", decision
    ok = TypedMatch(games=pd.DataFrame(columns=["game"]), totals={"ns_pct": Decimal("56.5"), "ew_pct": Decimal("43.5")},
                    decision="正常", cells=cells)
    assert typed_pct_warnings([m], {m.key: ok}) == []
    ff = TypedMatch(games=pd.DataFrame(columns=["game"]), totals={}, decision="东西弃权", cells=cells)
    assert typed_pct_warnings([m], {m.key: ff}) == []
