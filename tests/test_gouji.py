"""Gouji (够级) six-seat team scoring, penalties, misconduct, forfeits and voiding.

Requirements: Qingdao gouji 2015 规程 九第一条2, 九第三条4, 九第四条, 十（六）（七）（十一）.
"""

from decimal import Decimal

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bianpai.engines.core import Match, MatchResult, entrant_rows, scoring_for
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.gouji import (FINISHES, GOUJI_TIE_CHAIN, GoujiScoring, annul_forfeits,
                                   parse_finish)
from bianpai.engines.standings import CRITERIA, rank
from bianpai.engines.voiding import annul_entrant, withdraw_results

D = Decimal
M = Match(round=1, table=1, sides=(11, 22), pool="A", label="A1vsA2")
RULES = GoujiScoring()


def wide(*games):
    """games: lists of six finishes for seats 1–6 → the wide frame."""
    return pd.DataFrame([{"game": g, **{f"seat_{k}": f for k, f in enumerate(fs, start=1)}}
                         for g, fs in enumerate(games, start=1)])


def adj(*rows):
    return pd.DataFrame([dict(zip(("side", "kind", "value"), r)) for r in rows])


# seats 1,3,5 = home (side 0); 2,4,6 = away (side 1)
HOME_2 = ["头科", "二科", "三科", "四科", "小落", "大落"]   # home 4+0−2 = 2, away 2+0−4 = −2
AWAY_2 = ["二科", "头科", "四科", "三科", "大落", "小落"]   # mirror: home −2, away 2
HOME_SWEEP = ["头科", "四科", "二科", "小落", "三科", "大落"]  # 串三户 for home
EVEN = ["头科", "二科", "大落", "三科", "四科", "小落"]     # home 4−4+0 = 0, away 2+0−2 = 0


class TestGameScoring:
    def test_registered(self):
        assert scoring_for("gouji_games") is GoujiScoring
        assert scoring_for("够级") is GoujiScoring

    def test_table_of_the_regulation(self):
        """九第一条2: 头科4分；二科2分；三科0分；四科0分小落-2分；大落-4分；串三户8分."""
        assert RULES.finish_points == {"头科": 4, "二科": 2, "三科": 0, "四科": 0,
                                       "小落": -2, "大落": -4}
        assert RULES.sweep_points == 8 and RULES.games_per_match == 3
        assert sum(RULES.finish_points.values()) == 0

    def test_one_game(self):
        assert RULES.game_points(dict(zip(range(1, 7), HOME_2))) == (D(2), D(-2))
        assert RULES.game_points(dict(zip(range(1, 7), EVEN))) == (D(0), D(0))

    def test_sweep_zero_sum_default(self):
        """串三户8分: the team with 头科, 二科, 三科 scores 8 (not 4+2+0 = 6), the other −8."""
        assert RULES.game_points(dict(zip(range(1, 7), HOME_SWEEP))) == (D(8), D(-8))

    def test_sweep_readings(self):
        seats = dict(zip(range(1, 7), HOME_SWEEP))
        assert GoujiScoring(sweep_scoring="other_keeps_places").game_points(seats) == (8, -6)
        assert GoujiScoring(sweep_scoring="added_zero_sum").game_points(seats) == (14, -14)

    def test_seating_setting(self):
        """The 规程 is silent on seating: home_seats is a setting."""
        r = GoujiScoring(home_seats=[1, 2, 3])
        assert r.game_points(dict(zip(range(1, 7), HOME_2))) == (D(8), D(-8))  # 串三户 at 1–3
        with pytest.raises(ValueError):
            GoujiScoring(home_seats=[1, 1, 3])

    @pytest.mark.parametrize("typed,finish", [
        ("头科", "头科"), (1, "头科"), (1.0, "头科"), ("6", "大落"), ("五科", "小落"),
        ("六科", "大落"), ("二落", "小落"), (" 三科 ", "三科"), ("", None), (None, None)])
    def test_finish_aliases(self, typed, finish):
        assert parse_finish(typed) == finish

    def test_unknown_finish(self):
        with pytest.raises(InputError) as exc:
            parse_finish("七科")
        assert "无法识别的名次“七科”" in exc.value.zh and "unknown finish" in exc.value.en


class TestMatchScoring:
    def test_sum_of_three_games_decides_2_0(self):
        """九第一条2: 每轮比赛打三局，累计局得分多者获胜，胜方积2分 … 负方0分."""
        r = RULES.score(M, wide(HOME_2, AWAY_2, HOME_SWEEP))
        assert r.points == (D(2), D(0)) and r.outcome == ("W", "L")
        assert r.values["game_points"] == (D(8), D(-8))   # 2 − 2 + 8
        assert r.values["net_score"] == (D(16), D(-16))
        assert r.values["game_scores"] == ((2, -2, 8), (-2, 2, -8))
        assert r.winner == 11 and r.loser == 22

    def test_draw_1_each(self):
        """平局双方各的1分."""
        r = RULES.score(M, wide(HOME_2, AWAY_2, EVEN))
        assert r.points == (D(1), D(1)) and r.outcome == ("D", "D")
        assert r.values["net_score"] == (0, 0)

    def test_seat_numbers_as_columns_and_long_form(self):
        w = wide(HOME_2, AWAY_2, HOME_SWEEP).rename(columns={f"seat_{k}": k for k in range(1, 7)})
        assert RULES.score(M, w).values["game_points"] == (8, -8)
        long = pd.DataFrame([{"game": g, "seat": s, "finish": f}
                             for g, fs in enumerate((HOME_2, AWAY_2, HOME_SWEEP), start=1)
                             for s, f in enumerate(fs, start=1)])
        assert RULES.score(M, long).values["game_points"] == (8, -8)

    def test_game_points_typed_directly(self):
        typed = pd.DataFrame({"game": [1, 2, 3], "points_0": [2, -2, 8],
                              "points_1": [-2, 2, -8]})
        r = RULES.score(M, typed)
        assert r.values["game_points"] == (8, -8) and r.points == (2, 0)

    def test_typed_points_next_to_finishes_must_agree(self):
        g = wide(HOME_2, AWAY_2, HOME_SWEEP)
        g["points_0"], g["points_1"] = [2, -2, 8], [-2, 2, -8]
        assert RULES.score(M, g).points == (2, 0)
        g.loc[2, "points_0"], g.loc[2, "points_1"] = 6, -6
        with pytest.raises(InputError) as exc:
            RULES.score(M, g)
        assert "第3局录入的局分 6:-6 与名次算出的 8:-8 不符" in exc.value.zh
        assert exc.value.row == 2 and exc.value.column == "points_0"

    def test_bye(self):
        r = RULES.score(Match(1, 4, (5, None), "A"), pd.DataFrame())
        assert r.outcome[0] == "BYE" and r.points[0] == RULES.bye_points


class TestPenalties:
    def test_minus_two_per_penalty_changes_the_result(self):
        """九第三条4 / 第四条: 同一场比赛再犯每次扣除比赛成绩（局分）两分."""
        base = wide(HOME_2, AWAY_2, EVEN)  # 0 : 0, a draw
        r = RULES.score(M, base, adj((0, "扣分", None)))
        assert r.values["game_points"] == (-2, 0) and r.outcome == ("L", "W")
        assert r.points == (0, 2) and "主队扣局分2" in r.note_zh
        r = RULES.score(M, base, adj((0, "penalty", 2), (0, "penalty", -2), (1, "扣局分", None)))
        assert r.values["game_points"] == (-4, -2)
        assert r.values["net_score"] == (-2, 2)

    def test_penalty_only_for_tie_breaks_setting(self):
        r = GoujiScoring(penalty_affects_result=False).score(
            M, wide(HOME_2, AWAY_2, EVEN), adj((0, "扣分", None)))
        assert r.outcome == ("D", "D") and r.values["net_score"] == (-2, 2)


class TestMisconduct:
    """十（六）: 欺诈行为，立即判负，对手得8分; 十（七）: 提示联邦 … 立即判负，对手得8分."""

    def test_default_reading_opponent_credited_8(self):
        r = RULES.score(M, wide(HOME_2), adj((0, "判负", None)))  # stopped during game 2
        assert r.outcome == ("L", "W") and r.points == (0, 2)
        assert r.values["game_points"] == (0, 8) and r.values["net_score"] == (-8, 8)
        assert "对手得8分" in r.note_zh

    def test_other_readings(self):
        games = wide(HOME_2, AWAY_2)
        r = GoujiScoring(misconduct_reading="replace_zero_sum").score(
            M, games, adj((1, "misconduct", None)))
        assert r.values["game_points"] == (8, -8) and r.outcome == ("W", "L")
        r = GoujiScoring(misconduct_reading="added").score(M, wide(HOME_2),
                                                           adj((1, "misconduct", None)))
        assert r.values["game_points"] == (10, -2)
        r = GoujiScoring(misconduct_reading="match_points").score(M, wide(HOME_2),
                                                                  adj((1, "misconduct", None)))
        assert r.points == (8, 0) and r.values["game_points"] == (2, -2)


class TestForfeitAndVoiding:
    def test_late_15_minutes_is_a_forfeit(self):
        """十（十一）: 迟到15分钟，视为弃权."""
        r = RULES.score(M, pd.DataFrame(), adj((1, "迟到", 15)))
        assert r.outcome == ("FW", "FL") and r.points == (2, 0)
        assert "迟到15分钟，视为弃权" in r.note_zh
        with pytest.raises(InputError):  # 14 minutes late: the match is played, games needed
            RULES.score(M, pd.DataFrame(), adj((1, "迟到", 14)))
        assert RULES.score(M, wide(HOME_2, AWAY_2, EVEN), adj((1, "迟到", 14))).outcome == \
            ("D", "D")

    def test_forfeiting_team_results_all_void(self):
        """九第一条2: 如遇对方弃赛，弃权方成绩为0，则该队所有成绩均为无效."""
        m1 = Match(1, 1, (1, 2), "A", "A1vsA2")
        m2 = Match(1, 2, (3, 4), "A", "A3vsA4")
        m3 = Match(2, 1, (2, 3), "A", "A2vsA3")
        m4 = Match(2, 2, (4, 1), "A", "A4vsA1")
        results = [RULES.score(m1, wide(HOME_2, AWAY_2, HOME_SWEEP)),  # 1 beats 2 (+16)
                   RULES.score(m2, wide(HOME_2, AWAY_2, EVEN)),        # 3 draws 4
                   RULES.score(m3, wide(HOME_2, HOME_2, EVEN)),        # 2 beats 3
                   RULES.score(m4, pd.DataFrame(), adj((0, "弃权", None)))]  # 4 forfeits
        assert results[3].outcome == ("FL", "FW")
        after = annul_forfeits(results, RULES)
        # the earlier draw 3–4 and the forfeit itself are void for both sides
        assert after[1].outcome == ("VOID", "VOID") and after[3].outcome == ("VOID", "VOID")
        assert after[1].points == (0, 0) and "因4号弃权，其全部成绩无效（九第一条2）" in after[1].note_zh
        assert after[0] is results[0] and after[2] is results[2]
        rows = entrant_rows(after)
        st = rank([1, 2, 3], rows[rows.entrant != 4], list(GOUJI_TIE_CHAIN), seed=1).table
        got = dict(zip(st.entrant, st.match_points))
        assert got == {1: 2, 2: 2, 3: 0}  # 3 keeps nothing from the annulled draw with 4
        assert list(st.entrant[:2]) == [1, 2]  # 净胜分 16 > −8 (2: −16 + 8)
        assert "净胜分" in st.explanation_zh.iloc[0]
        # the annulled team listed but unranked: the others' places and 说明 are their own
        # (4 would rank 3rd on its 0 net points, between 2 and 3, were it ranked)
        un = rank([1, 2, 3, 4], rows, list(GOUJI_TIE_CHAIN), seed=1, unranked=[4]).table
        assert list(un.entrant) == [1, 2, 3, 4] and list(un["rank"]) == [1, 2, 3, None]
        assert "第3名" in un.explanation_zh.iloc[1] and un.explanation_zh.iloc[3] == ""
        assert "第2名" in un.explanation_zh.iloc[0]
        without = annul_forfeits(results, GoujiScoring(forfeit_annuls_all=False))
        assert [r.outcome for r in without] == [r.outcome for r in results]

    def test_annul_entrant_generic_and_withdrawals(self):
        m1, m2 = Match(1, 1, (1, 2)), Match(2, 1, (1, 3))
        res = {m1.key: MatchResult(m1, (D(2), D(0)), ("W", "L")),
               m2.key: MatchResult(m2, (D(1), D(1)), ("D", "D"))}
        out = annul_entrant(res, 1, from_round=2)
        assert out[0].outcome == ("W", "L") and out[1].outcome == ("VOID", "VOID")
        assert withdraw_results(res, 3, "keep") == list(res.values())
        w = withdraw_results(res, 3, "annul", clause="十（十）")
        assert w[1].outcome == ("VOID", "VOID") and "3号退赛" in w[1].note_zh
        assert "（十（十））" in w[1].note_zh
        with pytest.raises(RuleError):
            withdraw_results(res, 3, "half")
        twice = annul_entrant(annul_entrant(res, 1), 1)
        assert twice[0].note_zh.count("无效") == 1


class TestStandings:
    def test_criteria_registered(self):
        """九第一条2: 如积分相等按小分计算，净胜分多者列前."""
        assert CRITERIA["net_score"].label_zh == "净胜分"
        assert CRITERIA["game_points"].label_zh == "局分"
        assert GOUJI_TIE_CHAIN[:2] == ("match_points", "net_score")


class TestBadInput:
    def test_seat_typed_twice(self):
        long = pd.DataFrame([{"game": 1, "seat": s, "finish": f}
                             for s, f in enumerate(HOME_2, start=1)]
                            + [{"game": 1, "seat": 3, "finish": "头科"}])
        errs = RULES.validate(M, long)
        assert any("第1局3号位录入了两次" in e.zh and "seat 3 is typed twice" in e.en
                   for e in errs)

    def test_finish_typed_twice_and_missing(self):
        g = wide(["头科", "头科", "三科", "四科", "小落", "大落"], AWAY_2, EVEN)
        with pytest.raises(InputError) as exc:
            RULES.score(M, g)
        assert "第1局的“头科”录入了两次（1号位、2号位）" in exc.value.zh
        assert exc.value.row == 0 and exc.value.column == "seat_2" and exc.value.game == 1
        g = wide(HOME_2, ["头科", "二科", None, "四科", "小落", "大落"], EVEN)
        with pytest.raises(InputError) as exc:
            RULES.score(M, g)
        assert "第2局缺少3号位的名次" in exc.value.zh and exc.value.column == "seat_3"

    def test_unknown_finish_names_the_cell(self):
        g = wide(HOME_2, AWAY_2, ["头科", "二科", "三科", "四科", "落", "大落"])
        with pytest.raises(InputError) as exc:
            RULES.score(M, g)
        assert exc.value.zh.startswith("第3局5号位：无法识别的名次“落”")
        assert exc.value.row == 2 and exc.value.column == "seat_5"

    def test_game_count(self):
        with pytest.raises(InputError) as exc:
            RULES.score(M, wide(HOME_2, AWAY_2))
        assert "本场应打3局" in exc.value.zh and "typed: [1, 2]" in exc.value.en
        with pytest.raises(InputError):
            RULES.score(M, wide(HOME_2, AWAY_2, EVEN, EVEN))
        assert GoujiScoring(games_per_match=2).score(M, wide(HOME_2, AWAY_2)).points == (1, 1)
        dup = pd.concat([wide(HOME_2), wide(AWAY_2)], ignore_index=True)
        assert any("第1局录入了两次" in e.zh for e in RULES.validate(M, dup))

    @pytest.mark.parametrize("p0,p1", [(4, -2), (7, -7), (10, -10), (3, -3), (2, 2)])
    def test_typed_points_outside_the_table(self, p0, p1):
        """局分 per game can only be what six distinct finishes (and 串三户) give."""
        typed = pd.DataFrame({"game": [1, 2, 3], "points_0": [2, p0, 0],
                              "points_1": [-2, p1, 0]})
        with pytest.raises(InputError) as exc:
            RULES.score(M, typed)
        assert f"第2局的局分 {p0}:{p1} 不符合局分表" in exc.value.zh
        assert exc.value.row == 1

    def test_typed_points_one_side_or_not_a_number(self):
        typed = pd.DataFrame({"game": [1, 2, 3], "points_0": [2, 2, 0],
                              "points_1": [-2, None, 0]})
        assert "只录入了一方" in RULES.validate(M, typed)[0].zh
        typed = pd.DataFrame({"game": [1, 2, 3], "points_0": [2, "x", 0],
                              "points_1": [-2, 2, 0]})
        assert "不是数字" in RULES.validate(M, typed)[0].zh

    def test_bad_adjustments(self):
        g = wide(HOME_2, AWAY_2, EVEN)
        assert "未知的处罚类型" in RULES.validate(M, g, adj((0, "警告", None)))[0].zh
        assert "一方" in RULES.validate(M, g, adj((2, "扣分", None)))[0].zh
        assert "分钟数" in RULES.validate(M, g, adj((0, "迟到", None)))[0].zh
        by_entrant = pd.DataFrame([{"entrant": 22, "kind": "扣分", "value": 2}])
        assert RULES.score(M, g, by_entrant).values["game_points"] == (0, -2)
        other = pd.DataFrame([{"entrant": 99, "kind": "扣分", "value": 2}])
        assert "99号不在本场比赛中" in RULES.validate(M, g, other)[0].zh

    def test_table_must_list_six_finishes(self):
        with pytest.raises(ValueError):
            GoujiScoring(finish_points={"头科": 4})


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.permutations(FINISHES), min_size=3, max_size=3),
       st.sampled_from(["zero_sum", "added_zero_sum"]))
def test_random_valid_finishes_are_zero_sum_and_2_1_0(games, sweep):
    """Six distinct finishes always sum to 0, a 串三户 game to ±8: every game and the match
    are zero-sum; 2/1/0 follows the sign of the 局分 difference; the typed-局分 form agrees."""
    rules = GoujiScoring(sweep_scoring=sweep)
    r = rules.score(M, wide(*games))
    gp = r.values["game_points"]
    assert gp[0] + gp[1] == 0
    assert all(a + b == 0 for a, b in zip(*r.values["game_scores"]))
    expected = (2, 0) if gp[0] > gp[1] else (0, 2) if gp[0] < gp[1] else (1, 1)
    assert r.points == expected
    assert r.values["net_score"] == (gp[0] - gp[1], gp[1] - gp[0])
    typed = pd.DataFrame({"game": [1, 2, 3], "points_0": list(r.values["game_scores"][0]),
                          "points_1": list(r.values["game_scores"][1])})
    assert rules.score(M, typed).values == r.values


class TestGroupStageFlow:
    def test_pool_plays_the_cycle_and_places_top_three(self):
        """七（一）1 with 九第一条2: the A-group cycle scored, ranked by 积分 then 净胜分, top 3."""
        import random

        from bianpai.engines.core import StageEntrant, StageState
        from bianpai.engines.formats_rr import QINGDAO_GROUP_CYCLE, FixtureListStage

        rng = random.Random(2015)
        fmt = FixtureListStage(fixtures=QINGDAO_GROUP_CYCLE, clause="七（一）1")
        state = StageState(entrants=[StageEntrant(n, pool="A") for n in range(1, 7)], seed=7)
        while not fmt.finished(state):
            for m in fmt.next_round(state, rng):
                state.matches.append(m)
                games = wide(*(rng.sample(FINISHES, 6) for _ in range(3)))
                state.results[m.key] = RULES.score(m, games)
        rows = entrant_rows(state.results.values())
        table = rank(range(1, 7), rows, list(GOUJI_TIE_CHAIN), seed=state.seed).table
        state.standings = {"A": table}
        places = fmt.placings(state)
        assert len(state.results) == 6
        assert sum(rows.match_points) == 12 and sum(rows.net_score) == 0
        assert list(places.entrant[:3]) == list(table.entrant[:3])
        mp = dict(zip(table.entrant, table.match_points))
        assert list(table.match_points) == sorted(mp.values(), reverse=True)
