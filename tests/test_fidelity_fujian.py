"""Fidelity: fujian-elder-mind-games-2024 (shared/regulations/fujian-elder-mind-games-2024.txt),
presets ``fujian-elder-mind-games-2024`` and ``fujian-elder-bridge-teams``.

Rows of docs/fidelity-audit.md section 3 that no other test quotes; each docstring quotes the
row id, the clause number and its Chinese text. Engine-level, on the presets' own settings.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pandas as pd
import pytest

from bianpai.engines.board_scoring import TeamBoardGames
from bianpai.engines.bridge import apply_fine, carry_over, imps_from_board_scores, vp, vp_table
from bianpai.engines.core import Match, entrant_rows
from bianpai.engines.eligibility import check_roster, has_errors
from bianpai.engines.knockout import final_ranking, knockout8, knockout_places
from bianpai.engines.prizes import allocate
from bianpai.engines.standings import rank
from bianpai.engines.swiss import SwissEntrant, swiss_pairings
from bianpai.engines.team_standings import team_standings
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.lazy_edit import load_workbook

REG = load_preset("fujian-elder-mind-games-2024")
BRIDGE = load_preset("fujian-elder-bridge-teams")
S1, KO, CONS = BRIDGE.groups[0].stages
GROUPS = {g.id: g for g in REG.groups}
DAY = dt.date(2024, 5, 10)


def _team(event, team, n, unit="福州", roles=None, start=0, gender="男"):
    roles = roles or ["队员"] * n
    return pd.DataFrame({"name": [f"{team}{i}" for i in range(start, start + n)],
                         "gender": gender, "birth_date": dt.date(1960, 1, 1), "unit": unit,
                         "event": event, "team": team, "role": roles})


def _check(*teams):
    df = pd.concat(teams, ignore_index=True)
    df.index = range(2, 2 + len(df))
    return check_roster(df, REG.eligibility, event_date=DAY)


def _pairs(df):
    return [(int(h), None if pd.isna(a) else int(a)) for h, a in zip(df["home"], df["away"])]


# ------------------------------------------------------------------ 总规程 六、七、九

def test_fj02_second_80_team_of_a_unit_is_a_warning():
    """FJ-02 六（一）3（1）“每单位报1支队伍…省直机关老体协可增报3支队伍”: the product cannot tell the
    省直机关老体协 from the roster, so a unit's 2nd 80分 team is a warning (accepted with a logged
    reason), not an error (``eligibility.unit_limits[0].severity`` = warning)."""
    p80 = GROUPS["p80"].name_zh
    f = _check(_team(p80, "省直1队", 4, unit="省直机关老体协"),
               _team(p80, "省直2队", 4, unit="省直机关老体协", start=10))
    assert "unit_too_many_teams" in set(f["code"]) and not has_errors(f)
    lim = REG.eligibility.unit_limits[0]
    assert (lim.max_teams, lim.severity) == (1, "warning")


def test_fj04_unit_of_at_most_20_people():
    """FJ-04 六（二）3（1）“每单位限报20人。总领队1人、教练1人…”: 20 people (staff included) pass, 21 is an
    error (``eligibility.unit_limits[4].max_people`` = 20)."""
    base = [_team("桥牌", "A", 8), _team("象棋", "B", 5, start=20), _team("围棋", "C", 5, start=40),
            _team("围棋", "C", 2, roles=["总领队", "教练"], start=60)]
    assert "unit_too_many_people" not in set(_check(*base)["code"])
    f = _check(*base, _team("象棋", "B", 1, roles=["教练"], start=80))
    assert "unit_too_many_people" in set(f["code"]) and has_errors(f)


def test_fj05_bridge_two_teams_eight_players_per_unit():
    """FJ-05 六（二）3（1）“桥牌队员8人（可报2支队伍）”、（2）“省直老体协可增报3支桥牌队伍”: two teams of 4 pass;
    a 3rd team (12 players) is a warning (``unit_limits[3]`` max_teams 2, max_players 8)."""
    two = [_team("桥牌", "福州1队", 4), _team("桥牌", "福州2队", 4, start=10)]
    assert not ({"unit_too_many_teams", "unit_too_many_players"} & set(_check(*two)["code"]))
    f = _check(*two, _team("桥牌", "福州3队", 4, start=20))
    assert {"unit_too_many_teams", "unit_too_many_players"} <= set(f["code"])
    assert not has_errors(f)


@pytest.mark.parametrize("event", ["象棋", "围棋"])
def test_fj06_xiangqi_go_teams_of_4_or_5(event):
    """FJ-06 六（二）3（1）“象棋队员5人（其中替补1人），围棋队员5人（其中替补1人）”; 象棋 三 “队员限报5名（不分男女，
    每轮上场4名）”: 4 or 5 players, men or women, pass; 3 and 6 are errors."""
    ok = _check(_team(event, "甲", 5, gender="女"), _team(event, "乙", 4, unit="厦门"))
    assert not has_errors(ok)
    f = _check(_team(event, "甲", 3), _team(event, "乙", 6, unit="厦门"))
    assert {"team_too_small", "team_too_large"} <= set(f["code"])


@pytest.mark.parametrize("gender,birth,ok", [
    ("男", dt.date(1966, 5, 10), True), ("男", dt.date(1966, 5, 11), False),
    ("男", dt.date(1951, 5, 11), True), ("男", dt.date(1951, 5, 10), False),
    ("女", dt.date(1971, 5, 10), True), ("女", dt.date(1971, 5, 11), False),
    ("女", dt.date(1969, 1, 1), True), ("男", dt.date(1969, 1, 1), False)])
def test_fj07_ages_by_gender(gender, birth, ok):
    """FJ-07 七（一）“队员年龄:男队员58岁-72岁；女队员：53岁-72岁” (basis and day unstated): completed
    years at the event's first day, both ends included (``eligibility.age_ranges[0..1]``)."""
    df = pd.DataFrame({"name": ["甲"], "gender": [gender], "birth_date": [birth]}, index=[2])
    assert (not has_errors(check_roster(df, REG.eligibility, event_date=DAY))) == ok
    assert [(r.min_age, r.max_age) for r in REG.eligibility.age_ranges] == [(58, 72), (53, 72)]


def test_fj09_one_unit_one_event():
    """FJ-09 七（四）“每个队员只能代表一个单位，并限参加一个项目的交流，不得兼项”: a player in 象棋 and 围棋,
    or for two units, is refused; a 领队 listed twice is not (staff are exempt)."""
    r = pd.DataFrame({"name": ["甲", "甲", "乙", "乙", "丙", "丙"], "gender": "男",
                      "birth_date": dt.date(1960, 1, 1),
                      "unit": ["福州", "福州", "厦门", "泉州", "福州", "福州"],
                      "event": ["象棋", "围棋", "桥牌", "桥牌", "象棋", "围棋"],
                      "team": ["福州象棋", "福州围棋", "厦门1队", "泉州1队", "福州象棋", "福州围棋"],
                      "role": ["队员", "队员", "队员", "队员", "领队", "领队"]},
                     index=range(2, 8))
    f = check_roster(r, REG.eligibility, event_date=DAY)
    assert "multiple_events" in set(f.loc[f["row"] == 3, "code"])
    assert "multiple_units" in set(f.loc[f["row"] == 5, "code"])
    assert not set(f.loc[f["row"].isin([6, 7]), "code"]) & {"multiple_events", "multiple_units"}


def test_fj18_places_per_direction_set_by_the_organizer():
    """FJ-18 80分 二4 “南北方向和东西方向各取名额由主办方确定” (九（一）前三名颁发奖杯，第四名至第八名颁发证书):
    each direction is its own ranking (``groups[0].sub_entrants.separate_rankings``) with 8 places
    (``awards.groups[0].places``, editable)."""
    assert GROUPS["p80"].sub_entrants.separate_rankings is True
    name = GROUPS["p80"].name_zh
    st = pd.concat([pd.DataFrame({"group": f"{name}{d}", "place": range(1, 11),
                                  "entrant_id": [f"{d}{i}" for i in range(10)],
                                  "name": [f"{d}{i}" for i in range(10)], "unit": "福州"})
                    for d in ("南北", "东西")], ignore_index=True)
    t = allocate(st, REG.awards).table
    for d in ("南北", "东西"):
        part = t[t["group"] == f"{name}{d}"]
        assert len(part) == 8
        assert part["trophy"].tolist() == [True] * 3 + [False] * 5
        assert part["certificate"].tolist() == [False] * 3 + [True] * 5


@pytest.mark.parametrize("entries,cut", [(20, 12), (13, 7), (10, 6), (3, 1)])
def test_fj12_sixty_percent_winners_forty_percent_merit(entries, cut):
    """FJ-12 九（二）“桥牌、象棋、围棋项目：根据报名队数，60%优胜奖，40%优秀奖” (rounding unstated): places
    1 … ⌊0.6 × 报名队数⌋ get 优胜奖, the rest 优秀奖 (``awards.groups[1].merit_split.winner_percent``)."""
    assert REG.awards.groups[1].merit_split.winner_percent == 60
    st = pd.DataFrame({"group": "象棋", "place": range(1, entries + 1),
                       "entrant_id": [f"t{i}" for i in range(entries)],
                       "name": [f"队{i}" for i in range(entries)], "unit": "福州"})
    t = allocate(st, REG.awards).table
    assert t["award"].tolist() == ["优胜奖"] * cut + ["优秀奖"] * (entries - cut)


# ------------------------------------------------------------------ 象棋 / 围棋

def test_fj53_xiangqi_team_ranking_stand_in_chain():
    """FJ-53 象棋 四5 “团体名次确定：执行《规则》14.7条款” (text not given): the stand-in chain
    ``tie_breaks.criteria`` 场分 → 局分 → 团体对手分 → 第一台胜局数 → 抽签 (note: to be checked against
    14.7). Teams 1 and 3 both have 3 场分; 3 has more 局分 (10 > 9)."""
    stage = GROUPS["xiangqi"].stages[0]
    chain = list(stage.tie_breaks.criteria)
    assert chain == ["match_points", "team_game_points", "team_opp_score", "board1_wins", "lots"]
    assert "14.7" in stage.tie_breaks.note
    sc = stage.scoring

    def team(codes):
        return pd.DataFrame({"board": [1, 2, 3, 4], "result": codes})
    res = [sc.score(Match(1, 1, (1, 2)), team(["1-0", "1-0", "0-1", "和"])),
           sc.score(Match(1, 2, (3, 4)), team(["0-1", "1-0", "1-0", "1-0"])),
           sc.score(Match(2, 1, (1, 3)), team(["0-1", "0-1", "1-0", "1-0"])),
           sc.score(Match(2, 2, (2, 4)), team(["1-0", "和", "和", "0-1"]))]
    st = rank([1, 2, 3, 4], entrant_rows(res), chain, seed=3).table.set_index("entrant")
    assert st.loc[1, "match_points"] == st.loc[3, "match_points"] == 3
    assert (st.loc[3, "team_game_points"], st.loc[1, "team_game_points"]) == (10, 9)
    assert (st.loc[3, "rank"], st.loc[1, "rank"]) == (1, 2)


def test_fj58_go_lateness_over_10_minutes_loses_the_game():
    """FJ-58 围棋 四(六) “每轮比赛迟到超过10分钟，以弃权论,该局判负”: the board is typed as a forfeit
    (−/+): 0 局分 to the late player's team, 2 to the other; the match is decided on the rest."""
    sc: TeamBoardGames = GROUPS["go"].stages[0].scoring
    r = sc.score(Match(1, 1, (1, 2)), pd.DataFrame({"board": [1, 2, 3, 4],
                                                    "result": ["-/+", "1-0", "0-1", "和"]}))
    assert r.values["game_points"] == (3, 5) and r.points == (0, 2)


# ------------------------------------------------------------------ 桥牌项目竞赛规程

def test_fj24_fj25_swiss_six_rounds_eight_boards_by_total_vp():
    """FJ-24 二 “队式团体赛”; 五 “第一阶段：排位赛。进行6轮积分编排赛，每轮8副牌，以累计VP积分排列名次”;
    FJ-25 五 (VP scale not named): WBF 2013 continuous 20-VP (``scoring.scale`` = wbf2013_20vp),
    8-board scale, loser = 20 − winner; the stage ranks by total VP."""
    assert (S1.format.kind, S1.format.rounds, S1.format.boards_per_round) == ("swiss", 6, 8)
    assert S1.scoring.scale == "wbf2013_20vp"
    assert vp(5, 8) == (D("12.05"), D("7.95")) and vp(43, 8) == (D("20.00"), D("0.00"))
    assert len(vp_table(8)) == 44
    rows = []
    for h, a, hi, ai in ((1, 2, 30, 20), (3, 4, 0, 12), (1, 3, 5, 0), (2, 4, 10, 10)):
        hv, av = vp(hi - ai, 8)
        rows.append(dict(home=h, away=a, home_imps=hi, away_imps=ai, home_vp=hv, away_vp=av))
    df = pd.DataFrame(rows)
    df["away"] = df["away"].astype("Int64")
    st = team_standings(df, seed=1)
    assert list(st["team"]) == [1, 4, 2, 3]
    assert st["total"].tolist() == sorted(st["total"].tolist(), reverse=True)


def test_fj26_fj27_fj28_top_eight_knockout_halves_sessions():
    """FJ-26 五 “取前8名进入第二阶段淘汰赛，未进入淘汰赛的队进入第二阶段的附加积分编排赛”; FJ-27 五 第二阶段1
    “第一阶段排位赛第1-8名的队自动对位进入上、下半区” (read as 1–8, 4–5 | 2–7, 3–6); FJ-28 “1/4决赛：比赛16副牌,
    分2节进行，以IMP决定胜负。胜队进入半决赛，负队进入附加积分编排赛…负队进入3-4名附加赛”."""
    assert (KO.entrants[0].places.first, KO.entrants[0].places.last) == (1, 8)
    assert CONS.entrants[0].places.first == 9 and CONS.entrants[1].losers_of == "QF"
    assert (KO.format.bracket, KO.format.boards, KO.format.sessions, KO.format.third_place) == (
        8, 16, 2, True)
    teams = [11, 12, 13, 14, 15, 16, 17, 18]
    ko = knockout8(teams, {"QF1": (40, 30), "QF2": (25, 20), "QF3": (10, 50), "QF4": (33, 34),
                           "SF1": (5, 30), "SF2": (22, 21), "F": (50, 10), "3RD": (1, 0)})
    row = {r["match"]: r for r in ko.to_dict("records")}
    assert [(row[q]["home"], row[q]["away"]) for q in ("QF1", "QF2", "QF3", "QF4")] == [
        (11, 18), (14, 15), (12, 17), (13, 16)]
    assert [row[q]["half"] for q in ("QF1", "QF2", "QF3", "QF4")] == ["上半区"] * 2 + ["下半区"] * 2
    assert {row[q]["loser"] for q in ("QF1", "QF2", "QF3", "QF4")} == {18, 15, 12, 13}
    assert (row["3RD"]["home"], row["3RD"]["away"]) == (11, 17)   # the SF losers


def test_fj29_fj43_fj44_consolation_carry_over():
    """FJ-29 五 第二阶段2 “进行6轮比赛，每轮8副牌，以累积VP再加上第一阶段排位赛VP积分的25%排定各队最终名次”;
    FJ-43 八（二）“1/4决赛的负队带排位赛本队累计VP的25%加上24VP之和进入附加积分编排赛第3轮”; FJ-44 八（三）
    “所有带分遇不能整除时，按四舍五入计算（保留到第2位小数）”."""
    nine, qf = CONS.entrants
    assert (CONS.format.rounds, CONS.format.boards_per_round) == (6, 8)
    assert (nine.carry_over.fraction, nine.carry_over.plus) == (D("0.25"), 0)
    assert (qf.carry_over.fraction, qf.carry_over.plus, qf.join_round) == (D("0.25"), 24, 3)
    assert carry_over("72.82", nine.carry_over.fraction) == D("18.21")        # 18.205 half-up
    assert carry_over("72.82", qf.carry_over.fraction, qf.carry_over.plus) == D("42.21")
    assert carry_over("63.02", "0.25") == D("15.76")                          # 15.755 half-up


def test_fj30_team_numbers_by_lot():
    """FJ-30 六（一）“参赛队队号由裁判长抽签决定”: ``stages[0].format.numbers`` = lot (the draw is seeded
    and logged)."""
    assert S1.format.numbers == "lot"
    assert CONS.format.numbers == "previous_stage_rank"


def test_fj31_fj32_fj33_fj36_swiss_pairing_rules():
    """FJ-31 六（二）1 “第1轮在同一地市或同部门的队须先相遇的原则下，依队号顺序1-2、3-4、5-6……编排对阵”;
    FJ-32 六（二）2 “第2轮及以后按高分对高分的原则进行编排对阵”; FJ-33 六（二）3 “在同一阶段中相遇过的队不再相遇”;
    FJ-36 六（四）1 “比赛对阵表中队号在前者为主队”."""
    assert (S1.format.round1, S1.format.same_unit_first, S1.format.rematch) == (
        "by_number", True, "not_within_stage")
    units = {1: "福州", 2: "厦门", 3: "福州", 4: "泉州", 5: "厦门", 6: None, 7: "福州", 8: None}
    r1 = swiss_pairings([{"team": t, "unit": u} for t, u in units.items()], round_no=1)
    assert _pairs(r1) == [(1, 3), (2, 5), (4, 6), (7, 8)]
    es = [SwissEntrant(team=t, total=D(v)) for t, v in
          [(1, "10.00"), (2, "15.50"), (3, "4.50"), (4, "15.50"), (5, "12.00"), (6, "8.00")]]
    r2 = swiss_pairings(es, {frozenset((2, 4))}, round_no=2)
    assert _pairs(r2) == [(2, 5), (4, 1), (6, 3)]     # 2 and 4 met: no rematch; listed first = home


def test_fj34_fj35_consolation_high_against_high_from_round_one():
    """FJ-34 六（三）1 “各轮均按高分对高分的原则进行编排对阵”; FJ-35 六（三）2 “在第一阶段相遇过的队有可能再次相遇，
    但在第二阶段中相遇过的队不再相遇”: round 1 of the consolation pairs by carried VP, not by number;
    a stage-1 meeting does not block a pairing."""
    assert CONS.format.round1 == "by_score" and CONS.format.rematch == "not_within_stage"
    es = [SwissEntrant(team=t, total=carry_over(v, "0.25"), unit="A")
          for t, v in [(9, "60.00"), (10, "70.10"), (11, "50.00"), (12, "55.00")]]
    assert _pairs(swiss_pairings(es, round_no=1, by_number=False)) == [(10, 9), (12, 11)]
    # 10 and 9 met in stage 1; only this stage's meetings are passed: they meet again
    again = swiss_pairings(es, set(), round_no=2)
    assert (10, 9) in _pairs(again)


def test_fj37_fj38_knockout_home_and_rooms():
    """FJ-37 六（四）2 “淘汰赛：第一阶段排位赛名次在前的为主队，各节主客队的方位不变”; FJ-38 六（四）3
    “主队在开室坐南北、闭室坐东西”: SF2 between places 7 and 6 has place 6 at home; home NS in the open
    room: +620 open, −100 closed → +12 IMPs to home."""
    assert KO.format.home == "better_stage_place"
    ko = knockout8([11, 12, 13, 14, 15, 16, 17, 18],
                   {"QF1": (40, 30), "QF2": (25, 20), "QF3": (10, 50), "QF4": (33, 34)})
    sf2 = ko[ko["match"] == "SF2"].iloc[0]
    assert (sf2["home"], sf2["away"]) == (16, 17)
    assert imps_from_board_scores(620, -100) == 12 and imps_from_board_scores(650, 1430) == -13


def test_fj39_fj40_bye_vp_and_minimum_field():
    """FJ-39 (silent) odd number of teams: one bye per team, to the lowest-placed team without one,
    worth ``format.bye_vp`` = 12 VP; FJ-40 (silent) minimum field: ``groups[0].min_entries`` = 12
    (fewer teams are refused before the draw)."""
    assert S1.format.bye_vp == 12 and BRIDGE.groups[0].min_entries == 12
    es = [SwissEntrant(team=t, total=D(10 - t), had_bye=(t == 5)) for t in range(1, 6)]
    assert _pairs(swiss_pairings(es, set(), round_no=2))[-1] == (4, None)


def test_fj41_fj47_fj48_fj49_fines_after_conversion():
    """FJ-47 十一（一）“赛场内及规定相关区域严禁吸烟，否则扣罚2VP”; FJ-48 十一（二）“赛员比赛期间禁止使用任何移动通讯
    工具…否则扣罚2VP”; FJ-49 十一（三）“不得在赛场内及周边区域大声讨论牌情，否则将视情节和后果的严重程度扣罚1-3VP”;
    FJ-41 七（三）“比赛迟到和超时，均按照规则进行判罚” (scale not in the text: a free VP fine). Fines come
    off the converted VP and may go below 0."""
    fines = {f.name_zh: f for f in S1.scoring.fines}
    assert fines["赛场内吸烟"].vp == 2 and fines["使用移动通讯工具"].vp == 2
    assert (fines["大声讨论牌情"].vp_min, fines["大声讨论牌情"].vp_max) == (1, 3)
    loser = vp(63 - 10, 16)[1]
    assert apply_fine(loser, fines["使用移动通讯工具"].vp) == loser - 2
    assert apply_fine(D("1.00"), 2) == D("-1.00")


def test_fj42_fj46_knockout_carries_nothing_tie_to_better_place():
    """FJ-42 八（一）“进入淘汰赛阶段的各队均不带分”; FJ-46 九（二）“淘汰赛：如遇同分…不加赛，按第一阶段名次在前者胜”:
    a 20 : 20 quarter-final goes to stage-1 place 4 over place 5."""
    assert KO.entrants[0].carry_over is None
    assert list(KO.format.tie_breaks) == ["stage_place"]
    ko = knockout8([11, 12, 13, 14, 15, 16, 17, 18], {"QF2": (20, 20)})
    qf2 = ko[ko["match"] == "QF2"].iloc[0]
    assert qf2["winner"] == 14 and "第一阶段名次在前者胜" in qf2["说明"]


def test_fj45_swiss_ties_stand_in_chain():
    """FJ-45 九（一）“积分编排赛：如遇同分，按规则第四十四条三款执行” (text not available): stand-in chain
    vp → h2h_vp → imp_quotient → lots; two teams level on VP are split by their own match."""
    assert list(S1.tie_breaks.criteria) == ["vp", "h2h_vp", "imp_quotient", "lots"]
    rows = []
    for h, a, hi, ai in ((1, 2, 25, 20), (1, 3, 0, 20), (2, 4, 40, 0), (3, 4, 0, 0)):
        hv, av = vp(hi - ai, 8)
        rows.append(dict(home=h, away=a, home_imps=hi, away_imps=ai, home_vp=hv, away_vp=av))
    df = pd.DataFrame(rows)
    df["away"] = df["away"].astype("Int64")
    raw = {int(r["team"]): r["total"] for r in team_standings(df, seed=1).to_dict("records")}
    gap = raw[2] - raw[1]
    st = team_standings(df, fines={2: gap} if gap > 0 else {1: -gap}, seed=1,
                        tie_chain=list(S1.tie_breaks.criteria))
    t = {int(r["team"]): r for r in st.to_dict("records")}
    assert t[1]["total"] == t[2]["total"] and t[1]["rank"] < t[2]["rank"]


def test_fj50_final_order_knockout_then_consolation():
    """FJ-50 五 “以累积VP再加上第一阶段排位赛VP积分的25%排定各队最终名次” with the knockout: places 1–4 from the
    final and 3rd-place match, then every team of the consolation standings from 5 on."""
    assert [p.from_stage for p in BRIDGE.groups[0].final_ranking] == ["ko", "cons"]
    ko = knockout8([11, 12, 13, 14, 15, 16, 17, 18],
                   {"QF1": (40, 30), "QF2": (20, 20), "QF3": (10, 50), "QF4": (33, 34),
                    "SF1": (5, 30), "SF2": (22, 22), "F": (50, 10), "3RD": (1, 0)})
    fr = final_ranking(knockout_places(ko),
                       pd.DataFrame({"team": [15, 21, 12, 18, 22, 13, 20]}))
    assert list(fr["team"]) == [14, 16, 11, 17, 15, 21, 12, 18, 22, 13, 20]
    assert list(fr["place"]) == list(range(1, 12))


def test_fj10_disqualified_entrant_loses_results_place_and_award(tmp_path):
    """FJ-10 七（五）“对在报名或参加各项交流活动中违反资格规定者，一经查实，取消其参加资格和已获成绩及奖项”: a 退赛 with
    成绩处理 取消 (``bianpai withdraw --annul``) voids every result of the entrant, lists it in 总排名
    without a place (不参加排名) and gives it no award — even where the places awarded reach the
    whole field. Run on the generic core path with one small individual group (6 players, one
    round, 6 places paid)."""
    from typer.testing import CliRunner

    from bianpai.addin import commands
    from bianpai.addin.cli import app
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    from tests.helpers import sheet_rows

    def run(*args):
        res = CliRunner().invoke(app, [str(a) for a in args])
        assert res.exit_code == 0, res.output
        return res

    group = "中国象棋成年组"
    path = tmp_path / "q.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"),
                            load_preset("otog-mind-games-2024"))
    wb = load_workbook(path)
    for i in range(6):
        wb["报名"].append([group, None, None, f"棋手{i}", "男", dt.date(1985, 3, 3), None,
                          "鄂托克旗", "队员", None, None, None])
    ws = wb["规程"]
    for r in range(2, ws.max_row + 1):
        key = str(ws.cell(r, 1).value or "")
        if key == "groups[4].stages[0].format.rounds":
            ws.cell(r, 3).value = 1
        if key == "awards.groups[1].places_by_entries.steps[3].places":
            ws.cell(r, 3).value = 6          # 6 entries → 6 places: the whole field is paid
    wb.save(path)
    run("draw", path, "--seed", 4)
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    col = [c.value for c in ws[1]].index("结果") + 1
    for r in range(2, ws.max_row + 1):
        if ws.cell(r, 1).value == group:
            ws.cell(r, col, "1-0")           # every first-listed player wins
    wb.save(path)
    loser = next(r for r in sheet_rows(path, "对阵")[1:] if r[0] == group)
    number, name = loser[8], loser[9]        # the second-listed player of table 1 lost
    run("withdraw", path, "--group", group, "--team", number, "--after-round", 1, "--annul",
        "--reason", "违反资格规定")
    run("rank", path)
    final = [r for r in sheet_rows(path, "总排名")[1:] if r[0] == group]
    void = [r for r in final if r[3] == name]
    assert len(final) == 6 and len(void) == 1
    assert void[0][1] is None and "不参加排名" in void[0][6]
    assert sorted(r[1] for r in final if r[3] != name) == [1, 2, 3, 4, 5]
    run("awards", path)
    paid = [r for r in sheet_rows(path, "奖励")[1:] if r[0] == group]
    assert len(paid) == 5 and name not in [r[2] for r in paid]
