"""掼蛋 knockout and 争上游 finishing-order scorings (otog-mind-games-2024 单项规程 九、十)."""

import random
from decimal import Decimal

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bianpai.engines.core import Match, MatchResult, NotReady, entrant_rows, scoring_for
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.finish_order import (GuandanKnockoutScoring, ZhengShangYouFormatChoice,
                                          ZhengShangYouScoring, game_places,
                                          order_knockout_losers)
from bianpai.engines.standings import rank

M = Match(round=1, table=1, sides=(1, 2))


def games(*deals) -> pd.DataFrame:
    """``deals``: per game ((side-0 places), (side-1 places)) → long rows."""
    rows = []
    for g, (a, b) in enumerate(deals, start=1):
        rows += [{"game": g, "side": 0, "place": p} for p in a]
        rows += [{"game": g, "side": 1, "place": p} for p in b]
    return pd.DataFrame(rows)


class TestGamePlaces:
    def test_two_firsts_and_missing(self):
        with pytest.raises(InputErrors) as ei:
            game_places(games(((1, 1), (2, 3)), ((1, 2), (3, 3)), ((1, 2), (3, 4))))
        zh = [e.zh for e in ei.value.errors]
        assert zh == ["第1局有两个头游", "第2局有两个3游"]
        assert "twice" not in ei.value.errors[0].en and "2 times" in ei.value.errors[0].en
        with pytest.raises(InputErrors) as ei:
            game_places(pd.DataFrame([{"game": 1, "side": 0, "place": 1},
                                      {"game": 1, "side": 0, "place": 2},
                                      {"game": 1, "side": 1, "place": 3}]))
        assert ei.value.errors[0].zh == "第1局缺少末游"

    def test_names_and_bad_values(self):
        df = pd.DataFrame([{"game": 1, "side": 0, "place": "头游"}, {"game": 1, "side": 0, "place": "末游"},
                           {"game": 1, "side": 1, "place": "二游"}, {"game": 1, "side": 1, "place": "3游"}])
        assert game_places(df) == {1: ([1, 4], [2, 3])}
        bad = df.assign(place=["头游", 5, "二游", "3游"])
        with pytest.raises(InputErrors):
            game_places(bad)
        with pytest.raises(InputErrors):
            game_places(df.assign(side=[0, 0, 1, 2]))
        with pytest.raises(InputErrors):
            game_places(df.assign(side=[0, 0, 0, 1]))
        with pytest.raises(InputErrors):
            game_places(df.drop(columns="side"))


class TestGuandanKnockout:
    """九（二）每局第一名记4分，第二名记3分，第三名记2分，第四名记1分。四局总积分高者列前，少者淘汰。
    如打成平分，进行5分钟包干制，一局定胜负。"""

    def test_registered(self):
        assert scoring_for("掼蛋淘汰") is GuandanKnockoutScoring

    def test_higher_total_advances(self):
        r = GuandanKnockoutScoring().score(
            M, games(((1, 2), (3, 4)), ((1, 4), (2, 3)), ((2, 4), (1, 3)), ((1, 3), (2, 4))))
        # side 0: 7 + 5 + 4 + 6 = 22; side 1: 3 + 5 + 6 + 4 = 18
        assert r.points == (Decimal(22), Decimal(18)) and r.outcome == ("W", "L")
        assert r.winner == 1 and r.values["firsts"] == (3, 1) and r.values["decider"] == (0, 0)

    def test_equal_totals_need_decider(self):
        deals = [((1, 2), (3, 4)), ((3, 4), (1, 2)), ((1, 4), (2, 3)), ((2, 3), (1, 4))]
        with pytest.raises(InputError) as ei:
            GuandanKnockoutScoring().score(M, games(*deals))
        assert "第5局" in ei.value.zh
        r = GuandanKnockoutScoring().score(M, games(*deals, ((2, 3), (1, 4))))
        # the decider's 头游 pair wins although its game points are 5:5
        assert r.outcome == ("L", "W") and r.points == (Decimal(20), Decimal(20))
        assert r.values["decider"] == (0, 1) and "加赛" in r.note_zh

    def test_decider_without_tie_and_missing_game(self):
        with pytest.raises(InputError):
            GuandanKnockoutScoring().score(M, games(((1, 2), (3, 4)), ((1, 2), (3, 4)),
                                                    ((1, 2), (3, 4)), ((1, 2), (3, 4)),
                                                    ((1, 2), (3, 4))))
        with pytest.raises(InputError):
            GuandanKnockoutScoring().score(M, games(((1, 2), (3, 4))))

    def test_forfeit(self):
        r = GuandanKnockoutScoring().score(M, pd.DataFrame(),
                                           pd.DataFrame([{"kind": "弃权", "side": 0}]))
        assert r.outcome == ("FL", "FW") and r.winner == 2
        with pytest.raises(InputError):
            GuandanKnockoutScoring().score(M, pd.DataFrame(), pd.DataFrame([{"kind": "x", "side": 0}]))

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(st.lists(st.permutations([1, 2, 3, 4]), min_size=4, max_size=4))
    def test_totals_zero_sum(self, perms):
        deals = [((p[0], p[1]), (p[2], p[3])) for p in perms]
        s = GuandanKnockoutScoring()
        tot = [sum(s.pair_points(list(d[k])) for d in deals) for k in (0, 1)]
        if tot[0] == tot[1]:
            deals.append(((1, 4), (2, 3)))
        r = s.score(M, games(*deals))
        assert sum(r.points) == 40  # 4 games × (4 + 3 + 2 + 1)
        assert r.winner in (1, 2)
        assert sum(r.values["firsts"]) == 4


class TestZhengShangYou:
    """十（五）（2）分组比赛每组打四副牌，头游记4分，二游记3分，三游记2分，四游记1分。
    （3）积分相同的获得头游次数多者胜出，头游数量相同则比较二游数量，二游数量再相同比较三游数量，
    三游数量相同，则加赛一副牌，加赛牌获得头游方获胜。"""

    def test_points(self):
        assert scoring_for("争上游") is ZhengShangYouScoring
        r = ZhengShangYouScoring().score(
            M, games(((1, 2), (3, 4)), ((1, 3), (2, 4)), ((2, 4), (1, 3)), ((3, 4), (1, 2))))
        assert r.points == (Decimal(7 + 6 + 4 + 3), Decimal(3 + 4 + 6 + 7))
        assert r.outcome == ("D", "D")  # round robin: an equal match is a draw

    def test_equal_points_by_firsts(self):
        # every deal 头游+四游 (5) against 二游+三游 (5): 20:20, side 0 has 4 头游
        r = ZhengShangYouScoring().score(M, games(*[((1, 4), (2, 3))] * 4))
        assert r.points == (Decimal(20), Decimal(20)) and r.outcome == ("W", "L")
        assert r.values["firsts"] == (4, 0) and "头游" in r.note_zh

    def test_extra_deal_in_knockout(self):
        deals = [((1, 4), (2, 3)), ((2, 3), (1, 4)), ((1, 4), (2, 3)), ((2, 3), (1, 4))]
        ko = ZhengShangYouScoring(must_decide=True)
        assert ZhengShangYouScoring().score(M, games(*deals)).outcome == ("D", "D")
        with pytest.raises(InputError):
            ko.score(M, games(*deals))
        r = ko.score(M, games(*deals, ((2, 4), (1, 3))))
        assert r.outcome == ("L", "W")
        with pytest.raises(InputError):  # an extra deal when the counts decide
            ko.score(M, games(((1, 4), (2, 3)), ((1, 4), (2, 3)), ((2, 3), (1, 4)),
                              ((1, 4), (2, 3)), ((1, 2), (3, 4))))

    def test_ranking_chain_with_playoff(self):
        s = ZhengShangYouScoring()
        res = [
            # 1 v 2: 1 wins 24:16 with 3 头游; 3 v 4: 3 wins 24:16 with 2 头游
            s.score(Match(1, 1, (1, 2)), games(((1, 2), (3, 4)), ((1, 2), (3, 4)),
                                               ((1, 4), (2, 3)), ((2, 3), (1, 4)))),
            s.score(Match(1, 2, (3, 4)), games(((1, 2), (3, 4)), ((1, 2), (3, 4)),
                                               ((2, 3), (1, 4)), ((2, 3), (1, 4)))),
        ]
        assert [r.points for r in res] == [(Decimal(24), Decimal(16))] * 2
        df = entrant_rows(res)
        st_ = rank([1, 2, 3, 4], df, s.chain())
        assert list(st_.table["entrant"])[:2] == [1, 3]
        assert "头游次数" in st_.table["explanation_zh"].iloc[0]
        # equal points and counts: 5 and 6 tied → the extra deal decides
        a = s.score(Match(1, 1, (5, 7)), games(*[((1, 4), (2, 3))] * 2, *[((2, 3), (1, 4))] * 2))
        b = s.score(Match(1, 2, (6, 8)), games(*[((1, 4), (2, 3))] * 2, *[((2, 3), (1, 4))] * 2))
        tied = rank([5, 6], entrant_rows([a, b]), s.chain())
        assert list(tied.table["rank"]) == [1, 1]
        po = s.score_playoff(Match(99, 1, (5, 6), label="加赛"),
                             games(((2, 3), (1, 4))))
        assert po.values["playoff_wins"] == (0, 1)
        done = rank([5, 6], entrant_rows([a, b, po]), s.chain())
        assert list(done.table["entrant"]) == [6, 5] and list(done.table["rank"]) == [1, 2]
        assert "加赛" in done.table["explanation_zh"].iloc[0]
        with pytest.raises(InputError):
            s.score_playoff(M, games(((1, 4), (2, 3)), ((1, 4), (2, 3))))

    def test_format_by_field_size(self):
        """十（五）（1）视参赛人数多少采取积分循环制或淘汰制."""
        c = ZhengShangYouFormatChoice()
        assert c.choose(10) == "round_robin" and c.choose(11) == "single_elimination"
        assert ZhengShangYouFormatChoice(round_robin_max=6).choose(8) == "single_elimination"
        with pytest.raises(RuleError):
            c.choose(1)


def _ko8(points_of_losers=None):
    """A 16-pair bracket's last 3 rounds as rounds 1-3 (QF, SF, F) among pairs 1-8."""
    pts = points_of_losers or {}
    def r(rnd, t, w, l):
        lp = Decimal(pts.get(l, 18))
        return MatchResult(Match(rnd, t, (w, l)), (40 - lp, lp), ("W", "L"),
                           values={"game_points": (40 - lp, lp)})
    return [r(1, 1, 1, 8), r(1, 2, 4, 5), r(1, 3, 3, 6), r(1, 4, 2, 7),
            r(2, 1, 1, 4), r(2, 2, 2, 3), r(3, 1, 1, 2)]


class TestLoserOrder:
    """Places 1–8 are paid (九（二）录取名次 1. 取前8名…); the order of a round's losers is a setting."""

    def test_shared(self):
        p = order_knockout_losers(_ko8()).set_index("entrant")["place"]
        assert p.to_dict() == {1: 1, 2: 2, 4: 3, 3: 3, 8: 5, 5: 5, 6: 5, 7: 5}

    def test_points_in_lost_match(self):
        p = order_knockout_losers(_ko8({8: 19, 5: 12, 6: 19, 7: 15, 4: 10, 3: 17}),
                                  method="points").set_index("entrant")["place"]
        assert p[3] == 3 and p[4] == 4
        assert (p[8], p[6], p[7], p[5]) == (5, 5, 7, 8)

    def test_playoffs(self):
        def po(rnd, t, w, l):
            return MatchResult(Match(rnd, t, (w, l)), (Decimal(1), Decimal(0)), ("W", "L"))
        pos = [po(1, 1, 3, 4),                       # 3rd-place match
               po(1, 2, 5, 8), po(1, 3, 7, 6),       # 5–8 semi-finals
               po(2, 1, 7, 5), po(2, 2, 8, 6)]       # 5th/6th and 7th/8th
        p = order_knockout_losers(_ko8(), method="playoffs", playoffs=pos)
        assert p.set_index("entrant")["place"].to_dict() == {
            1: 1, 2: 2, 3: 3, 4: 4, 7: 5, 5: 6, 8: 7, 6: 8}
        with pytest.raises(NotReady):
            order_knockout_losers(_ko8(), method="playoffs", playoffs=pos[:1])
        with pytest.raises(NotReady):
            order_knockout_losers(_ko8()[:-1])
        with pytest.raises(RuleError):
            order_knockout_losers(_ko8(), method="lots")  # type: ignore[arg-type]


def test_loser_order_setting_and_forfeit_points():
    from bianpai.engines.finish_order import KnockoutLoserOrder
    assert KnockoutLoserOrder().places(_ko8()).equals(order_knockout_losers(_ko8()))
    p = KnockoutLoserOrder(method="points").places(_ko8({8: 19}))
    assert p.set_index("entrant")["place"][8] == 5
    r = ZhengShangYouScoring().score(M, pd.DataFrame(), pd.DataFrame([{"kind": "forfeit", "side": 1}]))
    assert r.points == (Decimal(28), Decimal(0)) and r.outcome == ("FW", "FL")


def test_guandan_knockout_places_1_to_8_by_the_core_bracket_settings():
    """总规程 九（二）1. 扑克掼蛋…取前8名 (paid 1–8); 单项 九（二）单淘汰: the losers of a round are
    placed by the bracket's setting — ``loser_order: shared`` (one shared place, money split),
    ``frames`` (the points scored in the lost match: the 4-game total), or ``third_place``
    (a play-off for 3rd)."""
    from bianpai.engines.core import StageEntrant, StageState
    from bianpai.engines.elimination import SingleElimination as se
    sc = GuandanKnockoutScoring()
    # the higher number wins every match; the loser's 4-game total is 16 − (its number mod 5):
    # games of 7:3 (头游+2游 v 3游+末游) and 6:4 (头游+3游 v 2游+末游)
    def play(fmt):
        state = StageState([StageEntrant(number=n, seed=n) for n in range(1, 9)], seed=1)
        while not fmt.finished(state):
            for m in fmt.next_round(state, random.Random(1)):
                state.matches.append(m)
                if m.is_bye:
                    continue
                lo, hi = sorted(m.sides)
                a = lo % 5
                g = [((1, 2), (3, 4))] * a + [((1, 3), (2, 4))] * (4 - a)
                if m.sides[0] == lo:
                    g = [(y, x) for x, y in g]
                state.results[m.key] = sc.score(m, games(*g))
        return fmt.placings(state)
    shared = play(se(seeding="standard", loser_order="shared"))
    assert sorted(shared["place"]) == [1, 2, 3, 3, 5, 5, 5, 5]
    by_pts = play(se(seeding="standard", loser_order="frames"))
    assert sorted(by_pts["place"]) == list(range(1, 9))
    order = by_pts.sort_values("place")
    assert list(order["entrant"]) == [8, 7, 5, 6, 1, 2, 3, 4]  # losers: more points, higher
    third = play(se(seeding="standard", third_place=True))
    assert sorted(third["place"])[:4] == [1, 2, 3, 4]
