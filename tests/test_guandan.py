from decimal import Decimal as D

import pandas as pd
import pytest

from bianpai.engines.guandan import round_results
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.engines.standings import rank
from bianpai.templates.presets_io import load_preset

REG = load_preset("shenzhen-guandan-pairs-2023")
STAGE = REG.groups[0].stages[0]
RULES = STAGE.scoring
CHAIN = STAGE.tie_breaks.criteria


@pytest.mark.parametrize("pct,points", [
    ("55.00", "2"), ("54.99", "1.5"), ("51.00", "1.5"), ("50.99", "1"), ("50.00", "1"),
    ("49.01", "1"), ("49.00", "0.5"), ("45.01", "0.5"), ("45.00", "0"), ("0", "0"),
    ("100", "2"), ("54.995", "2"), ("48.994", "0.5")])
def test_band_edges(pct, points):
    assert RULES.bands.points(D(pct)) == D(points)


@pytest.mark.parametrize("minutes,pct,action", [
    ("0.5", 5, "none"), ("2", 5, "none"), ("2.1", 10, "none"), ("5", 10, "none"),
    ("5.5", 20, "none"), ("10", 20, "none"), ("10.5", 20, "stop"), ("30", 20, "stop")])
def test_overtime_ladder(minutes, pct, action):
    p = RULES.overtime.apply(D(minutes))
    assert (p.pct_of_top, p.action) == (D(pct), action)


@pytest.mark.parametrize("minutes,pct,boards_off", [
    ("1", 10, 0), ("5", 10, 0), ("6", 20, 1), ("10", 20, 1), ("11", 40, 2), ("15", 40, 2),
    ("15.5", 60, 3), ("20", 60, 3), ("21", 80, 4)])
def test_lateness_ladder(minutes, pct, boards_off):
    p = RULES.lateness.apply(D(minutes))
    assert (p.pct_of_top, p.boards_off) == (D(pct), boards_off)
    assert RULES.lateness.rounds_forfeit == 1 and RULES.lateness.rounds_disqualify == 2


def sched(pairs):
    rows = [{"round": r, "table": t, "home": h, "away": a}
            for r, rnd in enumerate(pairs, 1) for t, (h, a) in enumerate(rnd, 1)]
    df = pd.DataFrame(rows)
    df["away"] = df["away"].astype("Int64")
    return df


def typed(rows):
    return pd.DataFrame(rows, columns=["round", "ns", "ew", "ns_pct", "ew_pct", "status",
                                       "ns_level_diff"])


def test_bye_and_forfeit():
    s = sched([[(1, 2), (3, None)]])
    t = typed([{"round": 1, "ns": 1, "ew": 2, "status": "ew_forfeit"}])
    res = round_results(s, pd.DataFrame(), RULES, typed=t).set_index("entrant")
    assert (res.loc[1, "score_pct"], res.loc[1, "match_points"]) == (D("55.00"), D(2))
    assert (res.loc[2, "score_pct"], res.loc[2, "match_points"]) == (D("0.00"), D(0))
    assert (res.loc[3, "score_pct"], res.loc[3, "match_points"]) == (D("51.00"), D("1.5"))
    assert res.loc[3, "outcome"] == "BYE" and res.loc[1, "outcome"] == "FW"


def test_board_results_to_percent_with_penalty():
    s = sched([[(1, 2), (3, 4)]])
    boards = pd.DataFrame({
        "round": [1] * 4, "table": [1, 2, 1, 2], "board": [1, 1, 2, 2],
        "ns": [1, 3, 1, 3], "ew": [2, 4, 2, 4], "ns_score": [2, -1, 1, 1]})
    res = round_results(s, boards, RULES).set_index("entrant")
    # board 1: pair 1 beats pair 3 (NS), board 2 equal -> 1: 3/4 = 75 %
    assert res.loc[1, "score_pct"] == D("75.00") and res.loc[1, "match_points"] == 2
    assert res.loc[3, "score_pct"] == D("25.00")
    assert res.loc[2, "score_pct"] == D("25.00") and res.loc[4, "score_pct"] == D("75.00")
    assert res.loc[1, "level_diff"] == 3 and res.loc[2, "level_diff"] == -3
    pen = pd.DataFrame({"round": [1], "entrant": [1], "pct_of_top": [D(10)]})
    res2 = round_results(s, boards, RULES, penalties=pen).set_index("entrant")
    # 10 % of a board top (2) = 0.2 MP: (3 - 0.2) / 4 = 70 %
    assert res2.loc[1, "score_pct"] == D("70.00")
    assert res2.loc[2, "score_pct"] == D("25.00")  # the opponent is not credited


def test_artificial_scores_for_boards_taken_off():
    s = sched([[(1, 2), (3, 4)]])
    boards = pd.DataFrame({
        "round": [1] * 4, "table": [1, 2, 1, 2], "board": [1, 1, 2, 2],
        "ns": [1, 3, 1, 3], "ew": [2, 4, 2, 4], "ns_score": [1, 1, None, 2],
        "code": [None, None, "A-", None]})
    res = round_results(s, boards, RULES).set_index("entrant")
    # board 2: NS 1 gets 40 % of top 2 = 0.8, EW 2 gets 1.2; pair 3 alone real -> Neuberg (0+1)*2/1-1 = 1
    assert res.loc[1, "mp"] == D("1.8") and res.loc[2, "mp"] == D("2.2")
    assert res.loc[3, "mp"] == D(2)


def four_pair_event(rows):
    s = sched([[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]])
    return round_results(s, pd.DataFrame(), RULES, typed=typed(rows))


def test_three_way_tie_settled_by_head_to_head():
    res = four_pair_event([
        {"round": 1, "ns": 1, "ew": 4, "ns_pct": 50, "ew_pct": 50},
        {"round": 1, "ns": 2, "ew": 3, "ns_pct": 53, "ew_pct": 47},
        {"round": 2, "ns": 4, "ew": 3, "ns_pct": 44, "ew_pct": 56},
        {"round": 2, "ns": 1, "ew": 2, "ns_pct": 53, "ew_pct": 47},
        {"round": 3, "ns": 2, "ew": 4, "ns_pct": 53, "ew_pct": 47},
        {"round": 3, "ns": 3, "ew": 1, "ns_pct": 50, "ew_pct": 50},
    ])
    st = rank([1, 2, 3, 4], res, CHAIN, seed=1).table
    assert list(st.entrant) == [1, 2, 3, 4]
    assert list(st["match_points"]) == [D("3.5")] * 3 + [D("1.5")]
    assert list(st["avg_score_pct"][:3]) == [D("51.00")] * 3
    assert list(st["h2h_match_points"][:3]) == [D("2.5"), D("2.0"), D("1.5")]
    assert "相互间场分" in st.explanation_zh[0] and "2.5 > 2.0" in st.explanation_zh[0]
    assert "相互间场分" in st.explanation_zh[1]
    assert list(st["rank"]) == [1, 2, 3, 4]


def test_ties_settled_by_level_difference():
    res = four_pair_event([
        {"round": 1, "ns": 1, "ew": 4, "ns_pct": 46, "ew_pct": 54},
        {"round": 1, "ns": 2, "ew": 3, "ns_pct": 46, "ew_pct": 54},
        {"round": 2, "ns": 4, "ew": 3, "ns_pct": 50, "ew_pct": 50, "ns_level_diff": -2},
        {"round": 2, "ns": 1, "ew": 2, "ns_pct": 50, "ew_pct": 50},
        {"round": 3, "ns": 2, "ew": 4, "ns_pct": 56, "ew_pct": 44, "ns_level_diff": 3},
        {"round": 3, "ns": 3, "ew": 1, "ns_pct": 44, "ew_pct": 56, "ns_level_diff": -5},
    ])
    st = rank([1, 2, 3, 4], res, CHAIN, seed=1).table
    assert list(st.entrant) == [1, 2, 3, 4]
    assert list(st["level_diff"]) == [5, 3, -3, -5]
    for i in (0, 2):
        assert st.explanation_zh[i].endswith("以级差区分（5 > 3）") or "以级差区分" in st.explanation_zh[i]
    assert list(st["rounds_won"]) == [1, 1, 1, 1] and list(st["rounds_drawn"]) == [1, 1, 1, 1]


def test_lots_are_seeded_and_logged():
    res = four_pair_event([
        {"round": r, "ns": a, "ew": b, "ns_pct": 50, "ew_pct": 50}
        for r, pairs in enumerate([[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]], 1)
        for a, b in pairs])
    a = rank([1, 2, 3, 4], res, CHAIN, seed=7).table
    b = rank([1, 2, 3, 4], res, CHAIN, seed=7).table
    assert list(a.entrant) == list(b.entrant)
    assert all("抽签" in x for x in a.explanation_zh[:3])
    orders = {tuple(rank([1, 2, 3, 4], res, CHAIN, seed=s).table.entrant) for s in range(20)}
    assert len(orders) > 1


def test_full_round_robin_schedule_scores():
    s = round_robin_schedule(5)
    res = round_results(s, pd.DataFrame(), RULES)
    assert (res["outcome"] == "BYE").sum() == 5
    assert (~res["complete"]).sum() == 20
