"""Fidelity: qingdao-gouji-2015 (shared/regulations/qingdao-gouji-2015.txt).

Rows of docs/fidelity-audit.md section 2 that no other test quotes; each docstring quotes the
row id, the clause number and its Chinese text. Engine-level, on the preset's own settings.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pandas as pd

from bianpai.engines.core import Match, entrant_rows
from bianpai.engines.eligibility import check_roster, has_errors
from bianpai.engines.prizes import AwardRules, allocate
from bianpai.engines.standings import rank
from bianpai.engines.voiding import withdraw_results
from bianpai.templates.presets_io import load_preset

REG = load_preset("qingdao-gouji-2015")
CITY, AMATEUR = REG.groups
RULES = CITY.stages[0].scoring
CHAIN = list(CITY.stages[0].tie_breaks.criteria)
DAY = dt.date(2015, 9, 20)

HOME_2 = ["头科", "二科", "三科", "四科", "小落", "大落"]   # home 2, away −2
AWAY_2 = ["二科", "头科", "四科", "三科", "大落", "小落"]   # home −2, away 2
HOME_SWEEP = ["头科", "四科", "二科", "小落", "三科", "大落"]  # 串三户: home 8, away −8
EVEN = ["头科", "二科", "大落", "三科", "四科", "小落"]     # 0 : 0


def _games(*games):
    return pd.DataFrame([{"game": g, **{f"seat_{k}": f for k, f in enumerate(fs, start=1)}}
                         for g, fs in enumerate(games, start=1)])


def _adj(*rows):
    return pd.DataFrame([dict(zip(("side", "kind", "value"), r)) for r in rows])


def _people(births, team="甲队"):
    df = pd.DataFrame({"name": [f"选手{i}" for i in range(len(births))], "birth_date": births,
                       "event": CITY.name_zh, "team": team, "gender": "男"})
    df.index = range(2, 2 + len(births))
    return df


def test_qd01_age_at_most_55():
    """QD-01 四 “性别不限、年龄不超过55周岁”: 55 on 2015-09-20 plays, 56 is an error
    (``eligibility.age_ranges[0].max_age`` = 55, completed years)."""
    rule = REG.eligibility.age_ranges[0]
    assert rule.max_age == 55 and rule.gender is None
    f = check_roster(_people([dt.date(1960, 9, 20), dt.date(1960, 9, 21)]), REG.eligibility,
                     event_date=DAY)
    assert not has_errors(f)
    f = check_roster(_people([dt.date(1959, 9, 20), dt.date(1980, 1, 1)]), REG.eligibility,
                     event_date=DAY)
    assert set(f.loc[f["severity"] == "error", "row"]) == {2}


def test_qd02_two_sections_with_their_stages():
    """QD-02 五 “设各地市代表队、业余组”: two groups, each with the stages of 七（一） / 七（二）."""
    assert [g.name_zh for g in REG.groups] == ["各地市代表队", "业余组"]
    assert [s.format.kind for s in CITY.stages] == ["fixture_list"] * 3
    assert [s.format.kind for s in AMATEUR.stages] == ["single_elimination", "fixture_list"]
    assert (CITY.entries, AMATEUR.entries) == (18, 48)


def test_qd03_teams_of_three_size_unstated():
    """QD-03 六（一）“所有比赛人员组队参赛” (size not stated): six seats = 3 v 3, so a team of three
    (``groups[*].team_size`` = 3); a team of two is a warning (``eligibility.team_sizes[0]``,
    severity warning), not an error."""
    assert CITY.team_size == AMATEUR.team_size == 3
    ts = REG.eligibility.team_sizes[0]
    assert (ts.min_players, ts.severity) == (3, "warning")
    f = check_roster(_people([dt.date(1970, 1, 1)] * 2), REG.eligibility, event_date=DAY)
    assert not has_errors(f) and "team_too_small" in set(f["code"])
    f = check_roster(_people([dt.date(1970, 1, 1)] * 3), REG.eligibility, event_date=DAY)
    assert "team_too_small" not in set(f["code"])


def test_qd14_equal_points_by_net_score():
    """QD-14 九 第一条2 “如积分相等按小分计算，净胜分多者列前（头科4分；二科2分；三科0分；四科0分小落-2分；
    大落-4分；串三户8分）”: teams 1 and 3 both win twice and lose once (4 积分 each); 1's net
    +16 − 4 + 4 = 16 beats 3's +4 + 4 − 12 = −4."""
    assert RULES.finish_points == {"头科": 4, "二科": 2, "三科": 0, "四科": 0, "小落": -2,
                                   "大落": -4} and RULES.sweep_points == 8
    results = [
        RULES.score(Match(1, 1, (1, 2), "A"), _games(HOME_2, AWAY_2, HOME_SWEEP)),  # 1 +16
        RULES.score(Match(1, 2, (3, 4), "A"), _games(HOME_2, EVEN, EVEN)),         # 3 +4
        RULES.score(Match(2, 1, (1, 3), "A"), _games(AWAY_2, EVEN, EVEN)),         # 3 +4
        RULES.score(Match(2, 2, (2, 4), "A"), _games(EVEN, EVEN, EVEN)),
        RULES.score(Match(3, 1, (4, 1), "A"), _games(EVEN, AWAY_2, EVEN)),         # 1 +4
        RULES.score(Match(3, 2, (3, 2), "A"), _games(AWAY_2, AWAY_2, AWAY_2)),   # 2 +12
    ]
    st = rank([1, 2, 3, 4], entrant_rows(results), CHAIN, seed=1).table.set_index("entrant")
    assert CHAIN[:2] == ["match_points", "net_score"]
    assert st.loc[1, "match_points"] == st.loc[3, "match_points"] == D(4)
    assert (st.loc[1, "net_score"], st.loc[3, "net_score"]) == (D(16), D(-4))
    assert st.loc[1, "rank"] < st.loc[3, "rank"]
    assert "净胜分" in st.loc[1, "explanation_zh"] or "净胜分" in st.loc[3, "explanation_zh"]


def test_qd16_wrong_card_inside_ten_cards_costs_two_at_once():
    """QD-16 九 第四条7 “错牌1-5的情况如果发生在户数以内（6人有一人剩余牌不足10张）判罚升级，扣除当场比赛成绩
    两分”: the arbiter types the penalty at once (no warning first); 2 局分 come off the match
    (``scoring.penalty_points`` = 2) and turn a 0 : 0 draw into a loss."""
    assert RULES.penalty_points == D(2) and RULES.penalty_affects_result is True
    r = RULES.score(Match(1, 1, (1, 2)), _games(HOME_2, AWAY_2, EVEN), _adj((1, "扣分", None)))
    assert r.values["game_points"] == (D(0), D(-2)) and r.outcome == ("W", "L")
    assert r.points == (D(2), D(0))


def test_qd18_disqualified_team_loses_all_results():
    """QD-18 十（十）“凡弄虚作假、违反竞赛规程、扰乱赛事者，取消比赛资格及全部比赛成绩” (and 十（一）（二）（四）
    （八）（九）: warning then 取消比赛资格): the disqualification is a 退赛 whose results are annulled
    for everyone (``withdrawal.results`` = annul)."""
    assert REG.withdrawal.results == "annul"
    results = [RULES.score(Match(1, 1, (1, 2)), _games(HOME_2, AWAY_2, HOME_SWEEP)),  # 1 beats 2
               RULES.score(Match(2, 1, (2, 3)), _games(HOME_2, HOME_2, EVEN))]       # 2 beats 3
    after = withdraw_results(results, 1, REG.withdrawal.results, clause="十（十）")
    assert after[0].outcome == ("VOID", "VOID") and after[0].points == (0, 0)
    assert after[1].outcome == ("W", "L")
    st = rank([2, 3], entrant_rows(after).query("entrant != 1"), CHAIN, seed=1).table
    assert dict(zip(st.entrant, st.match_points)) == {2: 2, 3: 0}


def test_qd20_qd21_qd22_top_three_money_tax_announced_later():
    """QD-20/QD-21/QD-22 十一 “各组录取前三名，颁发奖金、奖杯及证书（所有获得奖金运动员需缴纳20%的个人所得税），
    具体奖金数额另行通知”: three places per group with trophy and certificate; no amount until
    typed (``prize_table.announced_later``); once typed, 20 % withheld (``awards.tax.rate``)."""
    ranking = pd.DataFrame({"group": "业余组", "place": [1, 2, 3, 4],
                            "entrant_id": ["a", "b", "c", "d"], "name": list("甲乙丙丁"),
                            "unit": "青岛"})
    a = allocate(ranking, REG.awards)
    t = a.table
    assert len(t) == 3 and t["trophy"].all() and t["certificate"].all()
    assert t["gross"].tolist() == [None, None, None]
    data = REG.awards.model_dump()
    data["groups"][0]["prize_table"]["amounts"] = {1: 2000, 2: 1000, 3: 500}
    t = allocate(ranking, AwardRules.model_validate(data)).table
    assert [D(str(v)) for v in t["tax_withheld"]] == [D(400), D(200), D(100)]
    assert [D(str(v)) for v in t["net"]] == [D(1600), D(800), D(400)]
    assert REG.awards.tax.rate == D("0.2")
    # 十一 limits nobody to one prize: the same person 1st in both sections is paid twice
    assert REG.awards.one_prize_per_person is False
    both = pd.concat([ranking.assign(group=g, person_id=["p1", "p2", "p3", "p4"])
                      for g in ("各地市代表队", "业余组")], ignore_index=True)
    t = allocate(both, AwardRules.model_validate(data)).table.set_index(["group", "place"])
    assert D(str(t.loc[("各地市代表队", 1), "gross"])) == D(str(t.loc[("业余组", 1), "gross"])) == D(2000)
