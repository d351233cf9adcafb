"""Brackets as core formats: every case of corpora/brackets, the CBSA 2022 structure (qualifier
flights, double-elimination groups of 8, stage-2 seeding by 胜率), the Qingdao 够级 redraw
knockout, and property tests over random brackets."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bianpai.engines.core import (FORMATS, Match, MatchResult, NotReady, StageEntrant, StageState,
                                  format_for)
from bianpai.engines.elimination import (
    DoubleEliminationGroups, SingleElimination, balance_byes, bracket_optimized_seeding,
    bracket_table, double_elimination_nodes, draw_into_pools, effort_balanced_seeding,
    seed_positions, snake_seeding, stage2_seeding, win_rate)
from bianpai.engines.errors import RuleError

CASES = {c["id"]: c for c in json.loads(
    (Path(__file__).parent / "data" / "brackets" / "brackets_cases.json")
    .read_text(encoding="utf-8"))["cases"]}


# ------------------------------------------------------------------------------ helpers

def won(m: Match, w: int, frames: tuple[int, int] | None = None) -> MatchResult:
    out = ["L", "L"]
    out[list(m.sides).index(w)] = "W"
    vals = {}
    if frames is not None:
        vals = {"frames_won": frames, "frames_lost": frames[::-1]}
    return MatchResult(m, tuple(Decimal(o == "W") for o in out), tuple(out), vals)


def play(fmt, state: StageState, pick, limit: int = 60) -> StageState:
    """Draw and decide rounds until the stage is finished; ``pick(match)`` → winner."""
    for _ in range(limit):
        if fmt.finished(state):
            return state
        ms = fmt.next_round(state, random.Random(0))
        state.matches.extend(ms)
        for m in ms:
            if not m.is_bye:
                state.results[m.key] = won(m, pick(m))
    raise AssertionError("stage did not finish")


def seeded(n: int, pool=None, **kw) -> list[StageEntrant]:
    return [StageEntrant(i, pool=pool, seed=i, **kw) for i in range(1, n + 1)]


def first_round_pairs(fmt, state) -> list[list]:
    t = bracket_table(state, fmt)
    r1 = t[t["bracket_round"] == 1].sort_values(["pos", "slot"])
    out = []
    for _, g in r1.groupby("pos", sort=True):
        out.append([None if pd.isna(e) else int(e) for e in g["entrant"]])
    return out


# ------------------------------------------------------------------------------ corpus cases

class TestSeedPositions:
    """corpora/brackets seed-positions-*, byes-* (standard seeding, byes to the top seeds)."""

    @pytest.mark.parametrize("cid", ["seed-positions-8", "seed-positions-16", "seed-positions-32"])
    def test_full_brackets(self, cid):
        case = CASES[cid]
        n = case["input"]["entrants"]
        assert seed_positions(case["input"]["bracket_size"]) == case["expected"]["slot_order"]
        fmt = SingleElimination()
        assert first_round_pairs(fmt, StageState(seeded(n), seed=1)) == case["expected"]["pairs"]

    @pytest.mark.parametrize("cid", ["byes-12-of-16", "byes-5-of-8"])
    def test_byes_go_to_the_best_seeds(self, cid):
        case = CASES[cid]
        fmt = SingleElimination(bracket_size=case["input"]["bracket_size"])
        state = StageState(seeded(case["input"]["entrants"]), seed=1)
        assert first_round_pairs(fmt, state) == case["expected"]["pairs"]
        r1 = fmt.next_round(state, random.Random(0))
        assert sorted(m.entrants[0] for m in r1 if m.is_bye) == case["expected"]["bye_seeds"]
        assert sum(not m.is_bye for m in r1) == case["expected"]["first_round_matches_played"]
        # core convention: real tables first, byes numbered after them
        assert [m.table for m in r1] == list(range(1, len(r1) + 1))
        assert all(not m.is_bye for m in r1[:case["expected"]["first_round_matches_played"]])

    def test_not_a_power_of_two_is_refused(self):
        with pytest.raises(RuleError):
            seed_positions(12)


class TestBalanceByes:
    """corpora/brackets balance-byes-helper (optional, not standard seeding)."""

    @pytest.mark.parametrize("i", [0, 1, 2])
    def test_vectors(self, i):
        v = CASES["balance-byes-helper"]["vectors"][i]
        assert balance_byes(v["input"]["seeds"], v["input"]["size"]) == v["expected"]


class TestDoubleEliminationStructure:
    """corpora/brackets double-elim-8-routing, -inner-outer-losers, -16-counts."""

    def feeders(self, nodes):
        def txt(f):
            kind, ref = f
            return f"seed {ref}" if kind == "seed" else f"{kind}({ref})"
        return {n.id: [txt(s) for s in n.sides] for n in nodes}

    def test_routing_8(self):
        case = CASES["double-elim-8-routing"]["expected"]
        nodes = double_elimination_nodes(8, grand_final="double")
        f = self.feeders(nodes)
        for m in case["matches"]:
            assert f[m["id"]] == [m["opponent1"], m["opponent2"]], m["id"]
        assert set(f) == set(case["match_ids_in_library_order"])
        assert [n.id for n in nodes if n.conditional] == ["GF2"]

    @pytest.mark.parametrize("gf", ["none", "simple", "double"])
    def test_counts_8(self, gf):
        case = CASES["double-elim-8-routing"]["expected"]["match_counts"]
        nodes = double_elimination_nodes(8, grand_final=gf)
        assert len(nodes) == case["total"][gf]
        wb = [sum(1 for n in nodes if n.part == "WB" and n.bracket_round == r) for r in (1, 2, 3)]
        lb = [sum(1 for n in nodes if n.part == "LB" and n.bracket_round == r)
              for r in (1, 2, 3, 4)]
        assert wb == case["WB"] and lb == case["LB"]
        assert sum(1 for n in nodes if n.part == "GF") == case["grand_final"][gf]

    def test_inner_outer_losers(self):
        case = CASES["double-elim-8-inner-outer-losers"]["expected"]
        f = self.feeders(double_elimination_nodes(8, loser_orderings=["inner_outer", "reverse"]))
        assert f["LB1.1"] == case["LB1.1"] and f["LB1.2"] == case["LB1.2"]

    def test_counts_16(self):
        case = CASES["double-elim-16-counts"]["expected"]
        nodes = double_elimination_nodes(16, grand_final="simple")
        assert len(nodes) == case["matches"]
        assert len({n.part for n in nodes}) == case["groups"]
        for part, k in case["rounds"].items():
            assert max(n.bracket_round for n in nodes if n.part == part) == k
        from bianpai.engines.elimination import DEFAULT_LOSER_ORDERINGS
        assert DEFAULT_LOSER_ORDERINGS[16] == case["default_loser_orderings"]


def _library_order_pick(order, rule):
    """Result rule of the standings cases: by library match index i, side 0 wins if rule(i)."""
    return lambda m: m.sides[0] if rule(order.index(m.label)) else m.sides[1]


class TestDoubleEliminationStandings:
    """corpora/brackets double-elim-8-standings-double / -none and grand-final-reset-rule."""

    @pytest.mark.parametrize("cid,gf,rule", [
        ("double-elim-8-standings-double", "double", lambda i: i % 2 == 0),
        ("double-elim-8-standings-none", "none", lambda i: i % 2 == 1)])
    def test_games_and_final_standings(self, cid, gf, rule):
        case = CASES[cid]["expected"]
        order = CASES["double-elim-8-routing"]["expected"]["match_ids_in_library_order"]
        fmt = DoubleEliminationGroups(qualify=None, grand_final=gf)
        state = play(fmt, StageState(seeded(8), seed=3), _library_order_pick(order, rule))
        games = sorted((m.label, m.sides, state.results[m.key].winner) for m in state.matches)
        expected = []
        for g in case["games"]:
            label, rest = g.split(": ")
            pair, w = rest.split(" -> ")
            a, b = pair.split(" v ")
            expected.append((label, (int(a), int(b)), int(w)))
        assert games == sorted(expected)
        pl = fmt.placings(state)
        dense = pl["place"].rank(method="dense").astype(int)
        got = sorted(zip(dense, pl["entrant"]))
        assert got == sorted((r, e) for r, e in case["final_standings"])

    def test_reset_only_when_the_loser_bracket_winner_wins_gf1(self):
        """grand-final-reset-rule: GF2 only if opponent2 (the LB winner) wins GF1."""
        order = CASES["double-elim-8-routing"]["expected"]["match_ids_in_library_order"]
        fmt = DoubleEliminationGroups(qualify=None, grand_final="double")
        # top seeds always win: the WB winner (1) wins GF1 → no GF2
        state = play(fmt, StageState(seeded(8), seed=3), lambda m: min(m.sides))
        assert "GF1" in {m.label for m in state.matches}
        assert "GF2" not in {m.label for m in state.matches}
        assert fmt.placings(state).iloc[0]["entrant"] == 1
        del order


class TestDoubleEliminationGroupQualify:
    """corpora/brackets double-elim-8-group-4-qualify; CBSA 十六（二）2(2)
    "第一阶段为分组双败淘汰赛，每8人一组，共分16个组，全部采用17局9胜，每组各晋级4人。"""

    def test_routing_and_qualifiers(self):
        case = CASES["double-elim-8-group-4-qualify"]["expected"]
        fmt = DoubleEliminationGroups()  # pool_size 8, qualify 4
        rng = random.Random(5)
        state = play(fmt, StageState(seeded(8, pool="A"), seed=9),
                     lambda m: rng.choice(m.entrants))
        labels = [m.label for m in state.matches]
        assert sorted(labels) == sorted(case["matches"]) and len(labels) == case["match_count"]
        win = {m.label: state.results[m.key].winner for m in state.matches}
        lose = {m.label: state.results[m.key].loser for m in state.matches}

        def ref(x):
            kind, lab = x[0], x[2:-1]
            return win[lab] if kind == "W" else lose[lab]
        pl = fmt.placings(state).set_index("entrant")
        for x in case["qualifiers"]["2-0"]:
            e = ref(x)
            assert pl.loc[e, "bracket_side"] == "winners" and pl.loc[e, "losses"] == 0
        for x in case["qualifiers"]["2-1"]:
            e = ref(x)
            assert pl.loc[e, "bracket_side"] == "losers" and pl.loc[e, "losses"] == 1
        for rec, xs in case["eliminated"].items():
            for x in xs:
                e = ref(x)
                assert pl.loc[e, "bracket_side"] is None and pl.loc[e, "losses"] == 2
                assert pl.loc[e, "place"] == (5 if rec == "1-2" else 7)

    def test_three_stage_rounds_each_player_once(self):
        fmt = DoubleEliminationGroups()
        state = play(fmt, StageState(seeded(8, pool="A"), seed=1), lambda m: min(m.sides))
        assert fmt.total_rounds(state) == 3
        for r in (1, 2, 3):
            es = [e for m in state.round_matches(r) for e in m.entrants]
            assert len(es) == len(set(es))

    def test_short_pool_byes(self):
        """A short pool: a BYE never wins, a player meeting a BYE advances at once, BYE v BYE
        vanishes (pairing-anchors §5; brackets-manager issue #54)."""
        fmt = DoubleEliminationGroups()
        state = StageState(seeded(5, pool="B"), seed=1)
        r1 = fmt.next_round(state, random.Random(0))
        assert sorted(m.label for m in r1 if not m.is_bye) == ["WB1.2"]
        play(fmt, state, lambda m: max(m.sides))
        pl = fmt.placings(state)
        assert (pl["bracket_side"] == "winners").sum() == 2
        assert (pl["bracket_side"] == "losers").sum() == 2
        assert pl[pl["bracket_side"].isna()]["losses"].tolist() == [2]


class TestGroupPlacement:
    """corpora/brackets groups-orderings; CBSA 十六（三）2(1) "16名种子选手按蛇形排列定位至16个小组的1号位"."""

    @pytest.mark.parametrize("i", [0, 1, 2, 3])
    def test_vectors(self, i):
        v = CASES["groups-orderings"]["vectors"][i]
        fn = {"groups.seed_optimized (snake)": snake_seeding,
              "groups.effort_balanced (library default, not snake)": effort_balanced_seeding,
              "groups.bracket_optimized": bracket_optimized_seeding}[v["method"]]
        seeds = list(range(1, v["input"]["seeds"] + 1))
        assert fn(seeds, v["input"]["groups"]) == v["expected_groups"]

    def test_snake_128_into_16(self):
        """pairing-anchors §5: G1 = 1, 32, 33, 64, 65, 96, 97, 128; G16 = 16, 17, 48, 49, …"""
        g = snake_seeding(list(range(1, 129)), 16)
        assert g[0] == [1, 32, 33, 64, 65, 96, 97, 128]
        assert g[15] == [16, 17, 48, 49, 80, 81, 112, 113]

    def test_cbsa_seeds_in_slot_1_rest_drawn(self):
        ents = draw_into_pools(list(range(1, 17)), list(range(17, 129)),
                               [chr(65 + i) for i in range(16)], 8, random.Random(1))
        fmt = DoubleEliminationGroups()
        state = StageState(ents, seed=7)
        assert sorted(len(state.pool_entrants(p)) for p in state.pools()) == [8] * 16
        r1 = fmt.next_round(state, random.Random(0))
        for k, p in enumerate(state.pools(), start=1):
            wb11 = next(m for m in r1 if m.pool == p and m.label == "WB1.1")
            assert wb11.sides[0] == k  # seed k → pool k, 1号位
        other = draw_into_pools(list(range(1, 17)), list(range(17, 129)),
                                [chr(65 + i) for i in range(16)], 8, random.Random(2))
        assert {e.number: e.pool for e in ents} != {e.number: e.pool for e in other}


# ------------------------------------------------------------------------------ single elimination

class TestSingleElimination:
    """单败淘汰: CBSA 十六（二）1 qualifiers, 十六（二）2(3) stage 2; 跳棋 七（一） "比赛采取单淘汰"."""

    def test_registered_with_aliases(self):
        assert FORMATS["single_elimination"] is SingleElimination
        assert format_for("淘汰赛") is SingleElimination
        assert format_for("knockout") is SingleElimination
        assert format_for("双败淘汰") is DoubleEliminationGroups

    def test_placings_shared_by_round_lost(self):
        fmt = SingleElimination()
        state = play(fmt, StageState(seeded(12), seed=1), lambda m: min(m.sides))
        pl = fmt.placings(state)
        assert pl["place"].tolist() == [1, 2, 3, 3, 5, 5, 5, 5, 9, 9, 9, 9]
        assert pl["entrant"].tolist()[:2] == [1, 2]

    def test_third_place_match(self):
        fmt = SingleElimination(third_place=True)
        state = play(fmt, StageState(seeded(8), seed=1), lambda m: max(m.sides))
        third = [m for m in state.matches if m.label == "3rd"]
        assert len(third) == 1 and third[0].round == 3
        pl = fmt.placings(state)
        assert pl["place"].tolist()[:4] == [1, 2, 3, 4]

    def test_losers_ordered_by_frames(self):
        """A setting: losers of a round ordered by frames won in the lost match."""
        fmt = SingleElimination(loser_order="frames")
        state = StageState(seeded(4), seed=1)
        for _ in range(2):
            ms = fmt.next_round(state, None)
            state.matches.extend(ms)
            for m in ms:
                a, b = m.sides
                state.results[m.key] = won(m, a, (9, {1: 3, 2: 7}.get(a, 0)))
        pl = fmt.placings(state)
        assert pl["entrant"].tolist() == [1, 2, 3, 4] and pl["place"].tolist() == [1, 2, 3, 4]

    def test_later_rounds_drawn_only_when_feeders_decided(self):
        fmt = SingleElimination()
        state = StageState(seeded(8), seed=1)
        r1 = fmt.next_round(state, None)
        state.matches.extend(r1)
        for m in r1[:3]:
            state.results[m.key] = won(m, m.sides[0])
        with pytest.raises(NotReady) as ei:
            fmt.next_round(state, None)
        assert "尚无成绩" in ei.value.zh
        t = bracket_table(state, fmt)
        assert "QF4胜者" in set(t["text"]) and "SF1胜者" in set(t["text"])

    def test_drawn_is_replayable_and_depends_on_the_seed(self):
        """十六（三）1(1) "资格赛不设种子，全部混抽入位"; 十六（三）3: notarized, replayable draw."""
        fmt = SingleElimination(seeding="drawn")
        a = fmt.next_round(StageState(seeded(64), seed=11), None)
        b = fmt.next_round(StageState(seeded(64), seed=11), None)
        c = fmt.next_round(StageState(seeded(64), seed=12), None)
        assert a == b and a != c
        assert sorted(e for m in a for e in m.entrants) == list(range(1, 65))

    def test_qualifier_flight_stops_at_16(self):
        """十六（二）1(1) "第一场、第二场各晋级16名" — a flight of 128 stops when 16 remain."""
        fmt = SingleElimination(seeding="drawn", stop_when_remaining=16, races=[9])
        state = StageState([StageEntrant(i) for i in range(1, 129)], seed=4)
        assert fmt.total_rounds(state) == 3
        play(fmt, state, lambda m: min(m.sides))
        pl = fmt.placings(state)
        assert (pl["decided_by"] == "出线").sum() == 16 and (pl["place"] == 1).sum() == 16
        assert fmt.race_for(state.matches[0], state) == 9

    def test_stop_not_reachable_is_refused(self):
        fmt = SingleElimination(stop_when_remaining=6)
        with pytest.raises(RuleError):
            fmt.next_round(StageState(seeded(48), seed=1), None)

    def test_third_place_with_stop_is_refused(self):
        with pytest.raises(Exception):
            SingleElimination(third_place=True, stop_when_remaining=16)

    def test_redraw_48_to_6(self):
        """够级 七（二） "由前期海选出48支队伍进行业余组比赛，抽签选择对手第一轮淘汰24支队伍。第二轮、第三轮
        则继续延续淘汰赛。最后剩余的6支队伍进行循环赛"."""
        fmt = SingleElimination(seeding="redraw", stop_when_remaining=6)
        state = StageState([StageEntrant(i) for i in range(1, 49)], seed=2)
        assert fmt.total_rounds(state) == 3
        play(fmt, state, lambda m: min(m.sides))
        counts = [len(state.round_matches(r)) for r in (1, 2, 3)]
        assert counts == [24, 12, 6] and state.rounds_drawn() == 3
        pl = fmt.placings(state)
        assert (pl["decided_by"] == "出线").sum() == 6
        assert pl[pl["place"] > 1]["place"].unique().tolist() == [7, 13, 25]
        # opponents redrawn: not the fixed standard positions
        std = SingleElimination().next_round(StageState([StageEntrant(i) for i in range(1, 49)],
                                                        seed=2), None)
        assert {m.sides for m in state.round_matches(1)} != {m.sides for m in std}
        # no final is played: the rounds are named by number (签表, the bracket picture), not
        # 1/4决赛, 半决赛, 决赛 for 24, 12 and 6 matches
        names = bracket_table(state, fmt).groupby("bracket_round")["round_zh"].unique()
        assert {r: list(v) for r, v in names.items()} == {1: ["第1轮"], 2: ["第2轮"], 3: ["第3轮"]}
        played_out = SingleElimination(seeding="redraw")  # to the final: named back from it
        st8 = StageState([StageEntrant(i) for i in range(1, 9)], seed=2)
        assert set(bracket_table(st8, played_out)["round_zh"]) == {"1/4决赛", "半决赛", "决赛"}

    @pytest.mark.parametrize("mode", ["lot", "best_seed"])
    def test_redraw_odd_field_bye(self, mode):
        fmt = SingleElimination(seeding="redraw", odd_bye=mode)
        state = StageState(seeded(7), seed=3)
        r1 = fmt.next_round(state, None)
        byes = [m for m in r1 if m.is_bye]
        assert len(byes) == 1 and byes[0].table == len(r1)
        if mode == "best_seed":
            assert byes[0].entrants == [1]
        play(fmt, state, lambda m: min(m.sides))
        assert fmt.placings(state).iloc[0]["entrant"] == 1

    def test_cbsa_stage2_races(self):
        """十六（二）2(3) "其中半决赛和三、四名决赛采用41局21胜…决赛采用81局41胜…其余全部为25局13胜"."""
        fmt = SingleElimination(third_place=True, races_from_final=[41, 21, 13],
                                third_place_race=21)
        state = play(fmt, StageState(seeded(64), seed=1), lambda m: min(m.sides))
        race = {m.label: fmt.race_for(m, state) for m in state.matches}
        assert race["F"] == 41 and race["SF1"] == 21 and race["3rd"] == 21
        assert race["QF1"] == 13 and race["R64-1"] == 13

    def test_withdrawn_entrant_gives_a_walkover(self):
        ents = seeded(8)
        ents[4] = StageEntrant(5, seed=5, withdrawn_after=1)  # 5 wins round 1 then withdraws
        fmt = SingleElimination()
        state = play(fmt, StageState(ents, seed=1), lambda m: max(m.sides))
        r2 = state.round_matches(2)
        assert all(5 not in m.sides for m in r2)
        assert any(m.is_bye for m in r2)
        pl = fmt.placings(state).set_index("entrant")
        assert pl.loc[5, "decided_by"] == "第2轮退赛"


class TestStage2Seeding:
    """CBSA 十六（三）2(2) "将第一阶段胜部晋级的32名选手依据胜率排序设为种子，胜率相同者依据排名进行排序，
    如排名相同或都无排名则抽签决定。败部晋级的32名选手全部混抽入位。"""

    def test_order_by_win_rate_then_ranking_then_lots(self):
        m = lambda a, b: Match(1, 1, (a, b), "A", "WB1.1")  # noqa: E731
        results = [won(m(1, 9), 1, (9, 1)), won(m(2, 10), 2, (9, 5)), won(m(3, 11), 3, (9, 5)),
                   won(m(4, 12), 4, (9, 5)), won(m(5, 13), 5, (9, 0))]
        assert win_rate(results, 2) == Fraction(9, 14)
        ents = stage2_seeding([1, 2, 3, 4, 5], [9, 10, 11], results, random.Random(0),
                              ranking={4: 3, 3: 10})
        order = [e.number for e in ents]
        assert order[:2] == [5, 1]          # 100 %, 90 %
        assert order[2:4] == [4, 3]          # equal 64 %: ranking 3 before 10, unranked 2 last
        assert order[4] == 2
        assert sorted(order[5:]) == [9, 10, 11] and [e.seed for e in ents] == list(range(1, 9))

    def test_winners_side_never_meet_in_round_1(self):
        wins = list(range(1, 33))
        rng = random.Random(1)
        results = [won(Match(1, i, (i, 100 + i), "A", "x"), i, (9, rng.randint(0, 8)))
                   for i in wins]
        ents = stage2_seeding(wins, list(range(33, 65)), results, random.Random(3))
        r1 = SingleElimination().next_round(StageState(ents, seed=5), None)
        for mm in r1:
            assert sum(e <= 32 for e in mm.entrants) == 1


# ------------------------------------------------------------------------------ properties

def _random_result(rng):
    return lambda m: rng.choice(m.entrants)


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(n=st.integers(2, 512), mode=st.sampled_from(["standard", "drawn", "redraw"]),
       seed=st.integers(0, 10 ** 6), withdraw=st.integers(0, 3))
def test_single_elimination_invariants(n, mode, seed, withdraw):
    """Everyone plays once per round until out (a bye counts), a loser never plays again, one
    champion; places cover every entrant."""
    rng = random.Random(seed)
    ents = [StageEntrant(i, seed=i if rng.random() < 0.5 else None) for i in range(1, n + 1)]
    for _ in range(withdraw):
        i = rng.randrange(n)
        ents[i] = StageEntrant(ents[i].number, seed=ents[i].seed,
                               withdrawn_after=rng.randint(0, 3))
    fmt = SingleElimination(seeding=mode)
    state = play(fmt, StageState(ents, seed=seed), _random_result(rng))
    out: set[int] = set()
    for r in range(1, state.rounds_drawn() + 1):
        ms = state.round_matches(r)
        es = [e for m in ms for e in m.entrants]
        assert len(es) == len(set(es)), "someone plays twice in a round"
        assert not (set(es) & out), "an eliminated entrant plays again"
        for m in ms:
            assert any(s is not None for s in m.sides), "BYE v BYE must vanish"
            if not m.is_bye:
                out.add(state.results[m.key].loser)
        wd = {e.number for e in ents if e.withdrawn_after is not None and e.withdrawn_after < r}
        alive = {e.number for e in ents} - out - wd
        # everyone still in (not withdrawn) plays this round
        assert alive <= set(es), (r, alive - set(es))
        out |= wd
    pl = fmt.placings(state)
    assert sorted(pl["entrant"]) == list(range(1, n + 1))
    assert (pl["place"] == 1).sum() <= 1 or not len(state.matches)


def test_a_final_nobody_plays_leaves_the_title_vacant():
    """Both finalists withdraw after the semi-finals (the case hypothesis found: 3 entrants,
    all withdrawn after round 1): nobody is champion; the two share 2nd (第2轮退赛), the
    semi-final loser is 4th."""
    ents = [StageEntrant(1, seed=1, withdrawn_after=1), StageEntrant(2, withdrawn_after=1),
            StageEntrant(3, withdrawn_after=1)]
    fmt = SingleElimination(seeding="standard")
    state = play(fmt, StageState(ents, seed=18800), lambda m: 3 if 3 in m.entrants else m.entrants[0])
    assert fmt.finished(state)
    pl = fmt.placings(state).set_index("entrant")
    assert (pl["place"] == 1).sum() == 0
    assert pl.loc[1, "place"] == pl.loc[3, "place"] == 2
    assert pl.loc[2, "place"] == 4 and pl.loc[1, "decided_by"] == "第2轮退赛"


def _two_rounds_then_flip(fmt):
    """8 entrants: rounds 1 and 2 drawn and won by the lower number, no conflict yet; then the
    first match of round 1 flipped. Returns (state, round 1, round 2, the flipped match)."""
    state = StageState(seeded(8), seed=3)
    played = []
    for _ in range(2):
        ms = fmt.next_round(state, random.Random(0))
        state.matches.extend(ms)
        for m in ms:
            state.results[m.key] = won(m, min(m.entrants))
        played.append(ms)
    assert not fmt.resolution(state).conflicts
    m = played[0][0]
    state.results[m.key] = won(m, max(m.entrants))  # flipped after round 2 was drawn
    return state, played[0], played[1], m


def test_a_result_changed_after_the_next_round_was_drawn_is_not_drawn_on():
    """A quarter-final result flipped once its semi-final is drawn: the semi-final lacks the
    new winner, so the next round is not drawn from it (``result_changed``) and the resolution
    names the node, its feeder and the entrant missing; a hand edit of the semi-final that no
    result contradicts (the old winner put back) is drawn on as before."""
    fmt = SingleElimination(seeding="standard")
    state, _qf, _sf, m = _two_rounds_then_flip(fmt)
    with pytest.raises(NotReady) as exc:
        fmt.next_round(state, random.Random(0))
    assert [r.code for r in exc.value.reasons] == ["result_changed"]
    (nd, src, v), = fmt.resolution(state).conflicts
    assert src.node.id == m.label and v == max(m.entrants) and nd.round == 2
    state.results[m.key] = won(m, min(m.entrants))  # restored
    assert not fmt.resolution(state).conflicts
    assert len(fmt.next_round(state, random.Random(0))) >= 1


def test_a_redrawn_round_after_a_result_changed_since_is_a_conflict():
    """够级 七（二） redraw: a trial user swapped a round-1 result after round 2 was drawn; rank
    went on, the old winner still in round 2 and the new one shown as withdrawn. The round-2
    match holding an entrant a result put out is a conflict (named with that result), and no
    round 3 is drawn from it."""
    fmt = SingleElimination(seeding="redraw")
    state, _r1, r2, m = _two_rounds_then_flip(fmt)
    (nd, src, v), = fmt.resolution(state).conflicts
    old = min(m.entrants)  # drawn on in round 2, though the result now puts it out
    assert src.node.id == m.label and v == old and nd.round == 2
    assert old in next(x for x in r2 if x.label == nd.id).entrants
    with pytest.raises(NotReady) as exc:
        fmt.next_round(state, random.Random(0))
    assert "result_changed" in [r.code for r in exc.value.reasons]


def test_a_state_memo_is_kept_only_while_the_state_holds_the_same_values():
    """StageState.memo: a format's derived value (a bracket's resolution) is computed once
    for states holding equal entrants, matches, results and seed — two states of one stage
    built apart share it through one ``memos`` dict — and again once a result is replaced in
    place, the matches are extended, or the seed differs."""
    fmt = SingleElimination(seeding="standard")
    memos: dict = {}
    state = StageState(seeded(8), seed=3, memos=memos)
    qf = fmt.next_round(state, random.Random(0))
    state.matches.extend(qf)
    for m in qf:
        state.results[m.key] = won(m, min(m.entrants))
    calls = []

    def value(st):
        return st.memo(("test", 1), lambda: calls.append(1) or len(calls))

    twin = StageState(list(state.entrants), list(state.matches), dict(state.results), seed=3,
                      memos=memos)
    assert value(state) == value(state) == value(twin) == 1
    assert fmt.resolution(state) is fmt.resolution(twin)
    state.results[qf[0].key] = won(qf[0], max(qf[0].entrants))  # replaced in place
    assert value(state) == 2 and value(twin) == 3
    assert fmt.resolution(state).nodes["QF1"].winner != fmt.resolution(twin).nodes["QF1"].winner
    state.matches.extend(fmt.next_round(twin, random.Random(0)))
    assert value(state) == 4
    assert value(StageState(list(twin.entrants), list(twin.matches), dict(twin.results),
                            seed=4, memos=memos)) == 5


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(sizes=st.lists(st.integers(1, 8), min_size=1, max_size=4), seed=st.integers(0, 10 ** 6))
def test_double_elimination_invariants(sizes, seed):
    """A player is out after exactly two losses; min(K, n) qualify per pool, K/2 of them from
    the winners' side with no loss when the pool is full."""
    rng = random.Random(seed)
    ents, num = [], 1
    for p, k in enumerate(sizes):
        for j in range(k):
            ents.append(StageEntrant(num, pool=chr(65 + p), seed=1 if j == 0 else None))
            num += 1
    fmt = DoubleEliminationGroups()
    state = play(fmt, StageState(ents, seed=seed), _random_result(rng))
    pl = fmt.placings(state)
    for p, k in enumerate(sizes):
        g = pl[pl["pool"] == chr(65 + p)]
        q = g[g["bracket_side"].notna()]
        assert len(q) == min(4, k)
        assert (q["losses"] <= 1).all()
        assert (g[g["bracket_side"] == "winners"]["losses"] == 0).all()
        assert (g[g["bracket_side"].isna()]["losses"] == 2).all()
    for r in range(1, state.rounds_drawn() + 1):
        es = [(m.pool, e) for m in state.round_matches(r) for e in m.entrants]
        assert len(es) == len(set(es))


class TestPurity:
    """The bracket is a function of (entrants + seeds, seed, results): no stored winners."""

    def test_hand_edit_of_a_drawn_match_wins(self):
        fmt = SingleElimination()
        state = StageState(seeded(4), seed=1)
        r1 = fmt.next_round(state, None)
        # the arbiter swaps entrant 4 for entrant 3 in SF1 and 3 for 4 in SF2
        edited = [Match(m.round, m.table, tuple({4: 3, 3: 4}.get(s, s) for s in m.sides),
                        m.pool, m.label) for m in r1]
        state.matches.extend(edited)
        for m in edited:
            state.results[m.key] = won(m, max(m.sides))
        final = fmt.next_round(state, None)
        assert [set(m.sides) for m in final] == [{3, 4}]

    def test_recomputed_views_agree(self):
        fmt = DoubleEliminationGroups()
        state = StageState(seeded(8, pool="A") + seeded(6, pool="B"), seed=4)
        state.entrants = [StageEntrant(e.number + (100 if e.pool == "B" else 0), pool=e.pool,
                                       seed=e.seed) for e in state.entrants]
        r1 = fmt.next_round(state, None)
        t = bracket_table(state, fmt)
        assert len(t) == 2 * 10 * 2
        assert "WB1.1负者" in set(t["text"]) and "LB1.1胜者" in set(t["text"])
        assert fmt.next_round(state, None) == r1  # nothing stored: same draw again


class TestEndToEnd:
    """The two events of issue 11 through format + scoring."""

    def test_tiaoqi_knockout_with_decider(self):
        """跳棋 七（一） "比赛采取单淘汰，一局定胜负…若出现平局，加赛一局决胜负"."""
        from bianpai.engines.knockout_scoring import SingleGame
        fmt, sc = SingleElimination(third_place=True), SingleGame()
        state = StageState(seeded(10), seed=8)
        rng = random.Random(2)
        while not fmt.finished(state):
            ms = fmt.next_round(state, None)
            state.matches.extend(ms)
            for m in ms:
                if m.is_bye:
                    continue
                rows = ["½-½", rng.choice(["1-0", "0-1"])] if rng.random() < 0.3 else \
                    [rng.choice(["1-0", "0-1"])]
                state.results[m.key] = sc.score(m, pd.DataFrame({"result": rows}))
        pl = fmt.placings(state)
        assert pl["place"].tolist()[:8] == [1, 2, 3, 4, 5, 5, 5, 5]
        assert pl["place"].tolist()[8:] == [9, 9]

    def test_cbsa_main_event(self):
        """十六（二）2 and 十六（三）2: 128 in 16 double-elimination groups of 8 (4 qualify), then 64
        seeded by 胜率 (胜部) with the 败部 qualifiers drawn; 25局13胜 … 41局21胜, 81局41胜."""
        from bianpai.engines.knockout_scoring import FramesRace
        rng = random.Random(3)
        ents = draw_into_pools(list(range(1, 17)), list(range(17, 129)),
                               [f"{i + 1:02d}" for i in range(16)], 8, random.Random(1))

        def run(fmt, state):
            sc = FramesRace()
            while not fmt.finished(state):
                ms = fmt.next_round(state, None)
                state.matches.extend(ms)
                for m in ms:
                    if m.is_bye:
                        continue
                    race = fmt.race_for(m, state)
                    fr = [rng.randrange(race), rng.randrange(race)]
                    fr[rng.randrange(2)] = race
                    state.results[m.key] = sc.score(m, pd.DataFrame(
                        [{"frames_0": fr[0], "frames_1": fr[1], "race": race}]))
            return state
        de = DoubleEliminationGroups(races=[9])
        s1 = run(de, StageState(ents, seed=5))
        assert len(s1.matches) == 160
        pl1 = de.placings(s1)
        wins = pl1[pl1["bracket_side"] == "winners"]["entrant"].tolist()
        loss = pl1[pl1["bracket_side"] == "losers"]["entrant"].tolist()
        assert len(wins) == len(loss) == 32
        ents2 = stage2_seeding(wins, loss, s1.results.values(), random.Random(4))
        rates = [win_rate(s1.results.values(), e.number) for e in ents2[:32]]
        assert rates == sorted(rates, reverse=True)
        se = SingleElimination(third_place=True, races_from_final=[41, 21, 13],
                               third_place_race=21)
        s2 = run(se, StageState(ents2, seed=6))
        assert len(s2.matches) == 64
        final = next(m for m in s2.matches if m.label == "F")
        assert max(s2.results[final.key].values["frames_won"]) == 41
        pl2 = se.placings(s2)
        assert pl2["place"].tolist()[:8] == [1, 2, 3, 4, 5, 5, 5, 5]


def test_sizes_2_to_1024():
    """Any size 2–1024; larger fields are refused (RuleError, Chinese + English)."""
    fmt = SingleElimination(seeding="drawn")
    assert len(fmt.next_round(StageState(seeded(2), seed=1), None)) == 1
    r1 = fmt.next_round(StageState(seeded(1024), seed=1), None)
    assert len(r1) == 512 and fmt.total_rounds(StageState(seeded(1024))) == 10
    with pytest.raises(RuleError) as ei:
        fmt.next_round(StageState(seeded(1025), seed=1), None)
    assert "1024" in ei.value.zh and "1024" in ei.value.en
    with pytest.raises(RuleError):
        fmt.next_round(StageState(seeded(1), seed=1), None)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(sizes=st.lists(st.integers(1, 8), min_size=1, max_size=3), seed=st.integers(0, 10 ** 6),
       gf=st.sampled_from(["none", "simple", "double"]), q=st.sampled_from([4, 2, None]))
def test_double_elimination_with_withdrawals(sizes, seed, gf, q):
    """Withdrawn entrants never play after their last round (their opponents advance at once),
    nobody has more than two losses, every entrant is placed, the reset GF2 never hangs."""
    rng = random.Random(seed)
    ents, num = [], 1
    for p, k in enumerate(sizes):
        for _ in range(k):
            ents.append(StageEntrant(num, pool=chr(65 + p), withdrawn_after=rng.choice(
                [None] * 4 + [0, 1, 2, 3])))
            num += 1
    fmt = DoubleEliminationGroups(qualify=q, grand_final=gf)
    state = play(fmt, StageState(ents, seed=seed), _random_result(rng))
    wd = {e.number: e.withdrawn_after for e in ents}
    for m in state.matches:
        assert all(wd[e] is None or wd[e] >= m.round for e in m.entrants)
    pl = fmt.placings(state)
    assert sorted(pl["entrant"]) == list(range(1, num)) and (pl["losses"] <= 2).all()


def _double_elim_with_withdrawals(sizes, seed, share=0.2):
    """Play a double-elimination group stage with some entrants withdrawn (退赛 after round
    0–3); a withdrawn entrant never wins a match after his last round (a walkover)."""
    rng = random.Random(seed)
    ents, num = [], 1
    for p, k in enumerate(sizes):
        for j in range(k):
            wd = rng.randint(0, 3) if rng.random() < share else None
            ents.append(StageEntrant(num, pool=f"G{p}", seed=1 if j == 0 else None,
                                     withdrawn_after=wd))
            num += 1
    gone = {e.number: e.withdrawn_after for e in ents}

    def pick(m):
        fit = [e for e in m.entrants if gone[e] is None or gone[e] >= m.round]
        return rng.choice(fit or list(m.entrants))
    fmt = DoubleEliminationGroups()
    return fmt, play(fmt, StageState(ents, seed=seed), pick, limit=80), gone


def _check_double_elim(fmt, state, gone, sizes):
    losses: dict[int, int] = {}
    for r in range(1, state.rounds_drawn() + 1):
        ms = state.round_matches(r)
        es = [(m.pool, e) for m in ms for e in m.entrants]
        assert len(es) == len(set(es)), "someone plays twice in a round"
        for m in ms:
            assert any(s is not None for s in m.sides), "BYE v BYE must vanish"
            for e in m.entrants:
                assert losses.get(e, 0) < 2, "a player out after two losses plays again"
                assert gone[e] is None or gone[e] >= r or m.is_bye, "a withdrawn player plays"
            if not m.is_bye:
                loser = state.results[m.key].loser
                losses[loser] = losses.get(loser, 0) + 1
    pl = fmt.placings(state)
    for p, k in enumerate(sizes):
        g = pl[pl["pool"] == f"G{p}"]
        q = g[g["bracket_side"].notna()]
        assert len(q) <= min(4, k)
        if all(gone[int(e)] is None for e in g["entrant"]):
            assert len(q) == min(4, k)
        out = g[g["bracket_side"].isna()]
        # out without a withdrawal: exactly two losses
        assert all(losses.get(int(e), 0) == 2 for e in out["entrant"] if gone[int(e)] is None)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(sizes=st.lists(st.integers(1, 8), min_size=1, max_size=6), seed=st.integers(0, 10 ** 6))
def test_double_elimination_invariants_with_withdrawals(sizes, seed):
    """Issue 11 done-means with 退赛 (CBSA 十六（二）2(2) 分组双败淘汰, 每组各晋级4人): short groups (BYEs)
    and withdrawals keep the invariants — nobody plays twice in a round, nobody plays after his
    second loss nor after his withdrawal, at most K = 4 qualify per group (exactly min(K, n)
    where nobody withdrew), everyone else still in has lost exactly twice."""
    fmt, state, gone = _double_elim_with_withdrawals(sizes, seed)
    _check_double_elim(fmt, state, gone, sizes)


def test_double_elimination_512_entrants_with_withdrawals():
    """The largest field (64 groups of 8 = 512, CBSA-sized ×4) with withdrawals keeps the same
    invariants (十六（二）2(2))."""
    sizes = [8] * 64
    fmt, state, gone = _double_elim_with_withdrawals(sizes, 7, share=0.05)
    _check_double_elim(fmt, state, gone, sizes)
