"""Fidelity: shenzhen-guandan-pairs-2023 (shared/regulations/shenzhen-guandan-pairs-2023.txt).

One test per clause (or per run of clauses checked by one computation) of docs/fidelity-audit.md
section 1; each docstring quotes the row id, the clause number and its Chinese text. Engine-level:
the preset's own settings (``load_preset``) drive the scoring, ranking, eligibility and award
engines, no workbook.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pandas as pd
import pytest

from bianpai.engines.eligibility import check_roster, has_errors
from bianpai.engines.errors import RuleError
from bianpai.engines.guandan import round_results
from bianpai.engines.prizes import allocate
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.engines.standings import rank
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.lazy_edit import load_workbook

REG = load_preset("shenzhen-guandan-pairs-2023")
STAGE = REG.groups[0].stages[0]
RULES = STAGE.scoring
CHAIN = STAGE.tie_breaks.criteria
DAY = dt.date(2023, 9, 19)


def _sched(rounds):
    rows = [{"round": r, "table": t, "home": h, "away": a}
            for r, rnd in enumerate(rounds, 1) for t, (h, a) in enumerate(rnd, 1)]
    df = pd.DataFrame(rows)
    df["away"] = df["away"].astype("Int64")
    return df


def _typed(rows):
    return pd.DataFrame(rows, columns=["round", "ns", "ew", "ns_pct", "ew_pct", "status",
                                       "ns_level_diff"])


FOUR = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def _four(rows):
    return round_results(_sched(FOUR), pd.DataFrame(), RULES, typed=_typed(rows))


def _roster(**cols):
    n = max(len(v) for v in cols.values())
    cols.setdefault("name", [f"选手{i}" for i in range(n)])
    df = pd.DataFrame(cols)
    df.index = range(2, 2 + n)
    return df


def _ranking(places, group):
    n = len(places)
    return pd.DataFrame({"group": group, "place": places,
                         "entrant_id": [f"e{i + 1}" for i in range(n)],
                         "name": [f"选手{i + 1}" for i in range(n)], "unit": "深圳"})


# ------------------------------------------------------------------ 六、七: entries

def test_sz01_sz05_three_pairs_events_by_gender():
    """SZ-01 六（一）（二）（三）“男子双人赛 / 女子双人赛 / 混合双人赛”; SZ-05 七（三）3 “各项目按双人报名”:
    a pair is exactly two players; a mixed pair of two men, a women's pair with a man and a
    pair of three are errors."""
    elig = REG.eligibility
    ok = _roster(gender=["男", "男", "女", "女", "男", "女"],
                 event=["男子双人赛"] * 2 + ["女子双人赛"] * 2 + ["混合双人赛"] * 2,
                 team=["A", "A", "B", "B", "C", "C"], birth_date=[dt.date(1980, 1, 1)] * 6)
    assert not has_errors(check_roster(ok, elig, event_date=DAY))
    bad = _roster(gender=["男", "男", "男", "女", "男", "男", "男"],
                  event=["混合双人赛"] * 2 + ["女子双人赛"] * 2 + ["男子双人赛"] * 3,
                  team=["A", "A", "B", "B", "C", "C", "C"], birth_date=[dt.date(1980, 1, 1)] * 7)
    f = check_roster(bad, elig, event_date=DAY)
    assert {2, 4} <= set(f.loc[f["code"] == "team_gender", "row"])
    assert set(f.loc[f["code"] == "team_too_large", "row"]) == {6}
    assert [groups.gender for groups in REG.groups] == ["male", "female", "mixed"]


@pytest.mark.parametrize("birth,ok", [
    (dt.date(2003, 9, 30), True), (dt.date(2003, 10, 1), False),
    (dt.date(1958, 10, 2), True), (dt.date(1958, 10, 1), False)])
def test_sz02_birth_window_follows_the_dates(birth, ok):
    """SZ-02 七（一）1 “运动员参赛年龄须年满20周岁（2003年10月1日前出生），不得超过65周岁（1958年10月1日后
    出生）”: the product reads the dates strictly (the two cut-off days are refused); the flags
    ``birth_windows[0].*_inclusive`` hold the other reading."""
    f = check_roster(_roster(birth_date=[birth]), REG.eligibility, event_date=DAY)
    assert (not has_errors(f)) == ok
    w = REG.eligibility.birth_windows[0]
    assert (w.born_after, w.born_before) == (dt.date(1958, 10, 1), dt.date(2003, 10, 1))


# ------------------------------------------------------------------ 八: format and scoring

def test_sz06_single_round_robin_at_most_seven_rounds():
    """SZ-06 八（一）“根据报名的队伍数进行单循环积分赛，不多于7轮，每轮不少于6副牌”: 8 pairs play 7
    rounds, every pair meets every other once; 9 pairs (9 rounds) are refused."""
    fmt = STAGE.format
    assert (fmt.kind, fmt.cycles, fmt.max_rounds, fmt.min_boards_per_round) == (
        "round_robin", 1, 7, 6)
    s = round_robin_schedule(8, cycles=fmt.cycles, max_rounds=fmt.max_rounds)
    assert s["round"].max() == 7
    met = {frozenset((h, a)) for h, a in zip(s["home"], s["away"])}
    assert len(met) == 28
    with pytest.raises(RuleError):
        round_robin_schedule(9, cycles=fmt.cycles, max_rounds=fmt.max_rounds)


def test_sz07_round_score_from_board_matchpoints():
    """SZ-07 八（二）“每轮比赛获比赛分…” — 比赛分 of a round is not defined by the text; the product's
    reading (``scoring.kind: guandan_pairs``): 2/1/0 matchpoints per board and direction among the
    round's tables, Σ MP ÷ Σ top, half-up to 2 places."""
    s = _sched([[(1, 2), (3, 4)]])
    boards = pd.DataFrame({"round": [1] * 4, "table": [1, 2, 1, 2], "board": [1, 1, 2, 2],
                           "ns": [1, 3, 1, 3], "ew": [2, 4, 2, 4], "ns_score": [2, -1, 1, 1]})
    res = round_results(s, boards, RULES).set_index("entrant")
    assert res.loc[1, "score_pct"] == D("75.00") and res.loc[3, "score_pct"] == D("25.00")
    assert res.loc[4, "score_pct"] == D("75.00")
    assert RULES.kind == "guandan_pairs"


@pytest.mark.parametrize("pct,points", [
    ("55.00", "2"), ("54.99", "1.5"), ("51.00", "1.5"), ("50.99", "1"), ("49.01", "1"),
    ("49.00", "0.5"), ("45.01", "0.5"), ("45.00", "0")])
def test_sz08_changfen_bands(pct, points):
    """SZ-08 八（二）“获比赛分55％（含）及其以上的对得场分2分，对手得0分；比赛分在51％（含）至55％之间的对得
    场分1.5分，其对手得0.5分；比赛分在49％至51％之间的双方各得1分”: edges by the symmetric reading."""
    assert RULES.bands.points(D(pct)) == D(points)


def test_sz09_own_percentage_after_a_penalty():
    """SZ-09 八（二）(implied): when a penalty breaks the 100 − p symmetry each pair's 场分 comes from
    its own % (``scoring.bands`` on each side) and an equal 0.5 : 0.5 is no draw
    (``scoring.draw_match_points`` = 1, audit D7)."""
    s = _sched([[(1, 2)]])
    t = _typed([{"round": 1, "ns": 1, "ew": 2, "ns_pct": D("54.99"), "ew_pct": D("45.01")}])
    pen = pd.DataFrame({"round": [1], "entrant": [1], "pct_of_top": [D(40)]})
    res = round_results(s, pd.DataFrame(), RULES, typed=t, penalties=pen).set_index("entrant")
    assert res.loc[1, "match_points"] == D("0.5") and res.loc[2, "match_points"] == D("0.5")
    assert res.loc[1, "outcome"] not in ("D", "W") and res.loc[2, "outcome"] not in ("D", "W")
    assert RULES.draw_match_points == D(1)


def test_sz10_sz11_bye_and_forfeit():
    """SZ-10 八（三）1 “如遇轮空，轮空对该轮的比赛分为51%，场分为1.5分”; SZ-11 八（三）2 “如遇弃权，未弃权的对
    该轮的比赛分为55%，场分为2分；弃权对的比赛分和场分均为0”."""
    s = _sched([[(1, 2), (3, None)]])
    t = _typed([{"round": 1, "ns": 1, "ew": 2, "status": "ns_forfeit"}])
    res = round_results(s, pd.DataFrame(), RULES, typed=t).set_index("entrant")
    assert (res.loc[3, "score_pct"], res.loc[3, "match_points"]) == (D("51.00"), D("1.5"))
    assert (res.loc[2, "score_pct"], res.loc[2, "match_points"]) == (D("55.00"), D(2))
    assert (res.loc[1, "score_pct"], res.loc[1, "match_points"]) == (D("0.00"), D(0))


def test_sz13_six_boards_fifty_minutes():
    """SZ-13 十一（二）“暂定每轮打6副牌，用时50分钟”: 6 boards a round in the format and the scoring,
    and a lateness of 50 minutes is a whole round (十一（四）4 判违规方弃权一轮)."""
    assert STAGE.format.boards_per_round == 6 and RULES.boards_per_round == 6
    assert RULES.round_minutes == 50
    # one board's top as % of the round: 10 % of a board top is 10/6 % of the round
    s = _sched([[(1, 2), (3, 4)]])
    t = _typed([{"round": 1, "ns": 1, "ew": 2, "ns_pct": 60, "ew_pct": 40},
                {"round": 1, "ns": 3, "ew": 4, "ns_pct": 50, "ew_pct": 50}])
    pen = pd.DataFrame({"round": [1], "entrant": [1], "pct_of_top": [D(60)]})
    res = round_results(s, pd.DataFrame(), RULES, typed=t, penalties=pen).set_index("entrant")
    assert res.loc[1, "score_pct"] == D("50.00")


@pytest.mark.parametrize("minutes,pct,action", [
    ("0.5", "5", "none"), ("2", "5", "none"), ("3", "10", "none"), ("5", "10", "none"),
    ("7", "20", "none"), ("10", "20", "none"), ("11", "20", "stop")])
def test_sz14_sz15_overtime_ladder(minutes, pct, action):
    """SZ-14 十一（三）1–3 “超时0+~2分钟，扣违规方一副牌顶分的5%；超时2+~5分钟…10%；超时5+~10分钟…20%”;
    SZ-15 十一（三）4 “超时10分钟以上，停止比赛，扣违规方一副牌顶分的20%”."""
    p = RULES.overtime.apply(D(minutes))
    assert (p.pct_of_top, p.action) == (D(pct), action)


@pytest.mark.parametrize("minutes,pct,boards_off", [
    ("3", "10", 0), ("5", "10", 0), ("8", "20", 1), ("12", "40", 2), ("15", "40", 2),
    ("16", "60", 3)])
def test_sz16_lateness_ladder(minutes, pct, boards_off):
    """SZ-16 十一（四）1–3 “迟到0+~5分钟，扣违规方一副牌顶分的10%；迟到5+~10分钟，扣…20%，酌情减打一副牌；
    迟到10分钟以上，每5分钟加扣违规方一副牌顶分的20%。不足5分钟，按5分钟计算”."""
    p = RULES.lateness.apply(D(minutes))
    assert (p.pct_of_top, p.boards_off) == (D(pct), boards_off)


def test_sz17_average_plus_minus_are_settings():
    """SZ-17 十一（三）4、（四）2–3 “违规方…得平均负分，未违规方得平均正分” (values not defined): the
    settings ``artificial_plus_pct`` / ``artificial_minus_pct`` (60 / 40, bridge Law 12C2) give
    a board taken off: NS offender 40 % of the top 2 = 0.8, EW 1.2."""
    assert (RULES.artificial_plus_pct, RULES.artificial_minus_pct) == (D(60), D(40))
    s = _sched([[(1, 2), (3, 4)]])
    boards = pd.DataFrame({"round": [1] * 4, "table": [1, 2, 1, 2], "board": [1, 1, 2, 2],
                           "ns": [1, 3, 1, 3], "ew": [2, 4, 2, 4], "ns_score": [1, 1, None, 2],
                           "code": [None, None, "A-", None]})
    res = round_results(s, boards, RULES).set_index("entrant")
    assert res.loc[1, "mp"] == D("1.8") and res.loc[2, "mp"] == D("2.2")
    other = RULES.model_copy(update={"artificial_plus_pct": D(70), "artificial_minus_pct": D(30)})
    res = round_results(s, boards, other).set_index("entrant")
    assert res.loc[1, "mp"] == D("1.6") and res.loc[2, "mp"] == D("2.4")


def test_sz18_sz19_rounds_late_settings():
    """SZ-18 十一（四）4 “迟到一轮，判违规方弃权一轮”; SZ-19 十一（四）5 “迟到两轮，取消违规方比赛资格”: the
    settings ``lateness.rounds_forfeit`` = 1 and ``rounds_disqualify`` = 2 (read by the 罚分 kinds
    迟到一轮 / 迟到两轮); the forfeit scores 0/0 against 55 %/2."""
    assert (RULES.lateness.rounds_forfeit, RULES.lateness.rounds_disqualify) == (1, 2)
    s = _sched([[(1, 2)]])
    t = _typed([{"round": 1, "ns": 1, "ew": 2, "status": "ew_forfeit"}])
    res = round_results(s, pd.DataFrame(), RULES, typed=t).set_index("entrant")
    assert (res.loc[2, "match_points"], res.loc[1, "match_points"]) == (D(0), D(2))


# ------------------------------------------------------------------ 十二: places and awards

def test_sz20_sz21_sz22_certificates_trophy_and_qualification():
    """SZ-20 十二（一）“各组录取前三名，颁发证书”; SZ-21 十二（二）“冠军颁发奖杯”; SZ-22 十二（二）“并获得代表
    深圳参加全第五届全国智力运动会表演项目掼牌（掼蛋）资格。如因特殊原因不能参赛，第二、第三名依次替补”."""
    t = allocate(_ranking([1, 2, 3, 4, 5], "女子双人赛"), REG.awards).table
    assert len(t) == 3 and t["certificate"].all()
    assert t["trophy"].tolist() == [True, False, False]
    assert t["qualification"].tolist() == [
        "获得第五届全国智力运动会表演项目掼牌（掼蛋）资格", "第一替补", "第二替补"]
    r = _ranking([1, 2, 3], "男子双人赛")
    r["declined"] = [True, False, False]
    t = allocate(r, REG.awards).table
    assert t["qualification"].tolist()[1].startswith("递补")


# ------------------------------------------------------------------ 十三: ties

def test_sz23_average_percentage_first():
    """SZ-23 十三（一）“比较场分相同对的平均得分率，高者列前”: pairs 1 and 2 both have 4.5 场分; 2's
    average 54.00 % beats 1's 52.67 %."""
    res = _four([
        {"round": 1, "ns": 1, "ew": 4, "ns_pct": 56, "ew_pct": 44},
        {"round": 1, "ns": 2, "ew": 3, "ns_pct": 60, "ew_pct": 40},
        {"round": 2, "ns": 4, "ew": 3, "ns_pct": 50, "ew_pct": 50},
        {"round": 2, "ns": 1, "ew": 2, "ns_pct": 50, "ew_pct": 50},
        {"round": 3, "ns": 2, "ew": 4, "ns_pct": 52, "ew_pct": 48},
        {"round": 3, "ns": 3, "ew": 1, "ns_pct": 48, "ew_pct": 52},
    ])
    st = rank([1, 2, 3, 4], res, CHAIN, seed=1).table
    assert CHAIN[:2] == ["match_points", "avg_score_pct"]
    top = st.set_index("entrant")
    assert top.loc[1, "match_points"] == top.loc[2, "match_points"] == D("4.5")
    assert (top.loc[2, "avg_score_pct"], top.loc[1, "avg_score_pct"]) == (D("54.00"), D("52.67"))
    assert list(st.entrant)[:2] == [2, 1] and "平均得分率" in st.explanation_zh[0]


def test_sz24_head_to_head_winner_first():
    """SZ-24 十三（二）1 “如相遇，胜者名次列前”: three pairs equal on 场分 and average are ordered by
    their mutual 场分 (2.5 > 2.0 > 1.5); ``restart_head_to_head`` (audit D6) is the setting for a
    sub-tie left by it."""
    res = _four([
        {"round": 1, "ns": 1, "ew": 4, "ns_pct": 50, "ew_pct": 50},
        {"round": 1, "ns": 2, "ew": 3, "ns_pct": 53, "ew_pct": 47},
        {"round": 2, "ns": 4, "ew": 3, "ns_pct": 44, "ew_pct": 56},
        {"round": 2, "ns": 1, "ew": 2, "ns_pct": 53, "ew_pct": 47},
        {"round": 3, "ns": 2, "ew": 4, "ns_pct": 53, "ew_pct": 47},
        {"round": 3, "ns": 3, "ew": 1, "ns_pct": 50, "ew_pct": 50},
    ])
    st = rank([1, 2, 3, 4], res, CHAIN, seed=1).table
    assert CHAIN[2] == "h2h_match_points"
    assert list(st["h2h_match_points"][:3]) == [D("2.5"), D("2.0"), D("1.5")]
    assert list(st.entrant) == [1, 2, 3, 4] and "相互间场分" in st.explanation_zh[0]
    assert STAGE.tie_breaks.restart_head_to_head is False


def test_sz25_sz26_sz27_rounds_won_drawn_and_level_difference():
    """SZ-25 十三（二）2 “在全部比赛中获胜轮数（平局不计），多者名次列前”; SZ-26 十三（二）3 “在全部比赛中平局的
    轮数，多者名次列前”; SZ-27 十三（二）4 “在全部比赛中的级差，多者名次列前”: each criterion decides in
    its turn when all before it are equal."""
    assert CHAIN[3:6] == ["rounds_won", "rounds_drawn", "level_diff"]
    # rounds won decides: equal 场分, average and mutual result
    rows = [{"round": 1, "entrant": e, "opponent": o, "match_points": D(mp), "outcome": out,
             "score_pct": D(pct), "level_diff": 0, "complete": True}
            for e, o, mp, out, pct in (
                (1, 9, 2, "W", 55), (2, 9, 1, "D", 50), (1, 8, 0, "L", 45), (2, 8, 1, "D", 50))]
    df = pd.DataFrame(rows)
    df["opponent"] = df["opponent"].astype("Int64")
    st = rank([1, 2], df, CHAIN, seed=3).table
    won = st.set_index("entrant")["rounds_won"]
    assert (won[1], won[2]) == (1, 0) and list(st.entrant) == [1, 2]
    assert "获胜轮数" in st.explanation_zh[0]
    # rounds drawn decides: pair 2 has two draws, pair 1 one draw, one win, one loss... levelled
    res = _four([
        {"round": 1, "ns": 1, "ew": 4, "ns_pct": 46, "ew_pct": 54},
        {"round": 1, "ns": 2, "ew": 3, "ns_pct": 46, "ew_pct": 54},
        {"round": 2, "ns": 4, "ew": 3, "ns_pct": 50, "ew_pct": 50, "ns_level_diff": -2},
        {"round": 2, "ns": 1, "ew": 2, "ns_pct": 50, "ew_pct": 50},
        {"round": 3, "ns": 2, "ew": 4, "ns_pct": 56, "ew_pct": 44, "ns_level_diff": 3},
        {"round": 3, "ns": 3, "ew": 1, "ns_pct": 44, "ew_pct": 56, "ns_level_diff": -5},
    ])
    st = rank([1, 2, 3, 4], res, CHAIN, seed=1).table
    assert list(st["level_diff"]) == [5, 3, -3, -5] and list(st.entrant) == [1, 2, 3, 4]
    assert "级差" in st.explanation_zh[0]


def test_sz26_rounds_drawn_decide():
    """SZ-26 十三（二）3 “在全部比赛中平局的轮数，多者名次列前”: equal 场分 (2), average (50 %), no meeting,
    no round won: the pair with two draws is ahead of the pair with none."""
    rows = []
    for e, games in ((1, [(7, 1, "D"), (8, 1, "D")]), (2, [(7, "1.5", "X"), (8, "0.5", "X")])):
        for o, mp, out in games:
            rows.append({"round": o - 6, "entrant": e, "opponent": o, "match_points": D(mp),
                         "outcome": out, "score_pct": D(50), "level_diff": 0, "complete": True})
    df = pd.DataFrame(rows)
    df["opponent"] = df["opponent"].astype("Int64")
    for seed in range(5):
        st = rank([1, 2], df, CHAIN, seed=seed).table
        assert list(st.entrant) == [1, 2]
        assert list(st["rounds_drawn"]) == [2, 0]
    assert "平局" in st.explanation_zh[0]


def test_sz28_sz29_chain_for_every_place_ending_in_lots():
    """SZ-28 十三 “前三名同分时排名方式” — the title limits the chain to the top three; the product
    applies the chain (``tie_breaks.criteria``) to every place. SZ-29 十三（二）4 — the text stops
    after 级差: the chain ends in seeded lots (same seed, same order; the 说明 says 抽签)."""
    assert CHAIN[-1] == "lots"
    res = _four([{"round": r, "ns": a, "ew": b, "ns_pct": 50, "ew_pct": 50}
                 for r, rnd in enumerate(FOUR, 1) for a, b in rnd])
    a = rank([1, 2, 3, 4], res, CHAIN, seed=7).table
    b = rank([1, 2, 3, 4], res, CHAIN, seed=7).table
    assert list(a.entrant) == list(b.entrant)
    assert all("抽签" in x for x in a.explanation_zh[:3])   # 4th place too: every place
    assert list(a["rank"]) == [1, 2, 3, 4]
    assert len({tuple(rank([1, 2, 3, 4], res, CHAIN, seed=s).table.entrant)
                for s in range(20)}) > 1


# ------------------------------------------------------------------ 九: the draw (workbook)

def test_sz12_numbers_drawn_by_seeded_lot(tmp_path):
    """SZ-12 九 “比赛的编号对阵在第一轮比赛前抽签确定”: ``bianpai draw`` gives the pairs the numbers 1–n by
    lot; the seed is written next to each number (同一种子同一结果, a replayable lot), another
    seed gives another order."""
    from typer.testing import CliRunner

    from bianpai.addin.cli import app
    from tests.helpers import four_pairs, new_event, sheet_rows

    assert REG.draw.numbers_by_lot is True
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    orders = []
    for seed in (5, 6, 5):
        res = CliRunner().invoke(app, ["draw", str(wb), "--seed", str(seed), "--redraw"])
        assert res.exit_code == 0, res.output
        draw = sheet_rows(wb, "抽签")[1:]
        assert sorted(r[1] for r in draw) == [1, 2, 3, 4]
        assert {r[5] for r in draw} == {str(seed)}
        orders.append([r[2] for r in sorted(draw, key=lambda r: r[1])])
    assert orders[0] == orders[2] and orders[0] != orders[1]


def test_sz04_group_ceilings_8_4_4_pairs(tmp_path):
    """SZ-04, 七（一）3："（1）获得……深圳站男子双人组前四名、女子双人组前两名，混合双人组前两名的运动员……
    （2）深圳市掼蛋运动协会可推荐男子双人组4对、女子双人组2对，混合双人组2对运动员" — at most 8 / 4 / 4
    pairs (``groups[*].max_entries``). A fifth women's pair is a warning naming its 报名 rows; the
    draw refuses it until accepted with a reason, and writes nothing; four pairs pass."""

    from bianpai.addin import commands
    from bianpai.engines.errors import InputErrors
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    from tests.helpers import digest, fill, new_event, pair_row

    assert [g.max_entries for g in REG.groups] == [8, 4, 4]
    path = new_event(tmp_path / "sz04.xlsx")
    rows = [pair_row("女子双人赛", f"甲{i}", f"乙{i}", "女", "女") for i in range(1, 6)]
    fill(path, "报名", rows)
    res = commands.check(OpenpyxlPort(path, command="check"))
    over = [f for f in res.findings if "超过规程规定的 4 个" in str(f)]
    assert over and "A2:A6" in str(over[0]), res.findings
    before = digest(path)
    with pytest.raises(InputErrors) as exc:
        commands.draw(OpenpyxlPort(path, command="draw"), seed=1)
    assert any("超过规程规定的 4 个" in e.zh and e.cell == "A2:A6" for e in exc.value.errors)
    assert digest(path) == before
    wb = load_workbook(path)
    for cell in wb["报名"][2]:
        cell.value = None  # back to four pairs (row 2 emptied)
    wb.save(path)
    res = commands.check(OpenpyxlPort(path, command="check"))
    assert not [f for f in res.findings if "超过规程规定" in str(f)]
