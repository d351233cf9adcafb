"""Round robin (Berger) and fixture-list stages of the competition core.

Requirements: Qingdao gouji 2015 规程 七（一）1/2/3 and 七（二）; FIDE Handbook C.05 Annex 1
(tests/data/berger, with its PROVENANCE).
"""

import json
import random
from decimal import Decimal

import pandas as pd
import pytest
from pydantic import ValidationError

from bianpai.engines.core import (Format, MatchResult, NotReady, StageEntrant, StageState,
                                  format_for)
from bianpai.engines.errors import RuleError
from bianpai.engines.formats_rr import (QINGDAO_AMATEUR_SIX, QINGDAO_FINAL_FOUR,
                                        QINGDAO_GROUP_CYCLE, QINGDAO_NINE, FixtureListStage,
                                        RoundRobinStage, pack_rounds, parse_fixture,
                                        parse_fixture_text, pool_order)
from tests.conftest import DATA

CORPUS = json.loads((DATA / "berger" / "berger_fide_3_16.json").read_text())


def state_of(pools: dict, seeds: dict | None = None) -> StageState:
    """pools: {pool: [numbers]}; seeds: {number: seed}."""
    seeds = seeds or {}
    return StageState(entrants=[StageEntrant(number=n, pool=p, seed=seeds.get(n))
                                for p, ns in pools.items() for n in ns], seed=1)


def draw(fmt, state):
    ms = fmt.next_round(state, random.Random(0))
    state.matches.extend(ms)
    return ms


def play(state, ms):
    for m in ms:
        if not m.is_bye:
            state.results[m.key] = MatchResult(m, (Decimal(1), Decimal(1)), ("D", "D"))


def run_all(fmt, state):
    rounds = []
    while True:
        try:
            ms = draw(fmt, state)
        except RuleError:
            return rounds
        rounds.append(ms)
        play(state, ms)


class TestRegistration:
    def test_kinds_and_aliases(self):
        assert format_for("round_robin") is RoundRobinStage
        assert format_for("单循环") is RoundRobinStage
        assert format_for("循环赛") is RoundRobinStage
        assert format_for("fixture_list") is FixtureListStage
        assert format_for("指定对阵") is FixtureListStage
        assert isinstance(RoundRobinStage(), Format)
        assert isinstance(FixtureListStage(fixtures=QINGDAO_FINAL_FOUR), Format)


class TestRoundRobinStage:
    @pytest.mark.parametrize("n", range(3, 17))
    def test_berger_equals_fide_corpus(self, n):
        """FIDE C.05 Annex 1: every round of the stage is the Berger table (pairs and colours)."""
        st = state_of({None: list(range(1, n + 1))})
        rounds = run_all(RoundRobinStage(), st)
        assert len(rounds) == len(CORPUS[str(n)]) == RoundRobinStage().total_rounds(st)
        for ms, expected in zip(rounds, CORPUS[str(n)]):
            got = {tuple(m.sides) for m in ms}
            want = {(a, b) if b is not None else (a, None) for a, b in expected}
            assert got == want
            assert [m.table for m in ms] == list(range(1, len(ms) + 1))
            assert ms[-1].is_bye == (n % 2 == 1)  # the bye is numbered after the real tables
        assert RoundRobinStage().finished(st)

    def test_positions_follow_seed_then_number(self):
        st = state_of({"A": [11, 12, 13, 14]}, seeds={14: 1, 13: 2})
        assert [e.number for e in pool_order(st, "A")] == [14, 13, 11, 12]
        ms = draw(RoundRobinStage(), st)
        # Berger n=4 round 1: 1–4, 2–3 → positions 1=14, 4=12, 2=13, 3=11
        assert [m.sides for m in ms] == [(14, 12), (13, 11)]
        assert [m.label for m in ms] == ["A1vsA4", "A2vsA3"]

    def test_double_round_robin_reverses_home(self):
        st = state_of({None: [1, 2, 3, 4]})
        rounds = run_all(RoundRobinStage(cycles=2), st)
        assert len(rounds) == 6
        first = {m.sides for ms in rounds[:3] for m in ms}
        second = {m.sides[::-1] for ms in rounds[3:] for m in ms}
        assert first == second

    def test_every_pool_goes_on_and_waits_for_results(self):
        st = state_of({"A": [1, 2, 3, 4], "B": [5, 6, 7]})
        fmt = RoundRobinStage()
        r1 = draw(fmt, st)
        assert {m.pool for m in r1} == {"A", "B"}
        with pytest.raises(NotReady) as exc:
            fmt.next_round(st, random.Random(0))
        assert "A组第1轮尚缺成绩" in exc.value.zh and "lacks results" in exc.value.en
        # pool B's results alone let pool B go on
        play(st, [m for m in r1 if m.pool == "B"])
        r2 = draw(fmt, st)
        assert {m.pool for m in r2} == {"B"} and all(m.round == 2 for m in r2)
        assert not fmt.finished(st)

    def test_finished_stage_refuses_another_round(self):
        st = state_of({None: [1, 2, 3]})
        fmt = RoundRobinStage()
        run_all(fmt, st)
        with pytest.raises(RuleError):
            fmt.next_round(st, random.Random(0))

    def test_withdrawn_entrant_keeps_its_fixtures(self):
        """A withdrawal does not reshuffle a round robin: the withdrawn entrant's later matches
        stay in the schedule (the scoring makes them forfeits), so the others' byes and
        opponents are as the Berger table says."""
        st = StageState(entrants=[StageEntrant(1), StageEntrant(2), StageEntrant(3),
                                  StageEntrant(4, withdrawn_after=1)])
        fmt = RoundRobinStage()
        play(st, draw(fmt, st))
        r2 = draw(fmt, st)
        assert sum(4 in m.sides for m in r2) == 1
        assert not any(m.is_bye for m in r2)

    def test_placings_from_standings_shared_ranks_stay_shared(self):
        st = state_of({"A": [1, 2, 3], "B": [4, 5, 6]})
        st.standings = {"A": pd.DataFrame({"rank": [1, 2, 2], "entrant": [3, 1, 2]}),
                        "B": pd.DataFrame({"rank": [1, 2, 3], "entrant": [4, 6, 5]})}
        pl = RoundRobinStage().placings(st)
        assert list(pl.columns) == ["entrant", "pool", "place", "decided_by"]
        assert list(zip(pl.entrant, pl.pool, pl.place)) == [
            (3, "A", 1), (1, "A", 2), (2, "A", 2), (4, "B", 1), (6, "B", 2), (5, "B", 3)]
        assert set(pl.decided_by) == {"小组排名"}

    def test_placings_need_standings(self):
        with pytest.raises(RuleError):
            RoundRobinStage().placings(state_of({"A": [1, 2]}))

    def test_pool_of_one_refused(self):
        with pytest.raises(RuleError):
            RoundRobinStage().next_round(state_of({"A": [1]}), random.Random(0))


class TestQingdaoLists:
    def test_group_cycle_as_written(self):
        """七（一）1: A组：A1vsA2、A2vsA3、A3vsA4、A4vsA5、A5vsA6、A6vsA1 (B, C the same)."""
        written = parse_fixture_text("A1vsA2、A2vsA3、A3vsA4、A4vsA5、A5vsA6、A6vsA1")
        assert [parse_fixture(x, "A") for x in written] == \
            [parse_fixture(x) for x in QINGDAO_GROUP_CYCLE] == \
            [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 1)]

    def test_nine_team_list_as_written(self):
        """七（一）2: 1vs2/1vs3/…/3Vs8/…/8vs9 — the 36 fixtures of 9 teams, each pair once."""
        pairs = [parse_fixture(x) for x in QINGDAO_NINE]
        assert len(pairs) == 36 and "3Vs8" in QINGDAO_NINE
        assert {frozenset(p) for p in pairs} == {frozenset((a, b)) for a in range(1, 10)
                                                 for b in range(a + 1, 10)}
        assert pairs[0] == (1, 2) and pairs[19] == (3, 8) and pairs[-1] == (8, 9)

    def test_final_and_amateur_lists(self):
        """七（一）3: 1vs2/1vs3/1vs4/2vs3/2vs4/3vs4; 七（二）: 1vs2/…/5vs6 (15)."""
        assert [parse_fixture(x) for x in QINGDAO_FINAL_FOUR] == [
            (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
        assert len(QINGDAO_AMATEUR_SIX) == 15
        assert parse_fixture(QINGDAO_AMATEUR_SIX[-1]) == (5, 6)


class TestFixtureListStage:
    def test_three_groups_play_the_cycle_in_two_rounds(self):
        """七（一）1: 18支队伍由抽签分为A、B、C三个小组 … A1vsA2、…、A6vsA1 (6 matches per group)."""
        st = state_of({"A": list(range(1, 7)), "B": list(range(7, 13)),
                       "C": list(range(13, 19))})
        fmt = FixtureListStage(fixtures=QINGDAO_GROUP_CYCLE, clause="七（一）1")
        assert fmt.total_rounds(st) == 2
        rounds = run_all(fmt, st)
        assert len(rounds) == 2
        a1 = [m.label for m in rounds[0] if m.pool == "A"]
        a2 = [m.label for m in rounds[1] if m.pool == "A"]
        assert a1 == ["A1vsA2", "A3vsA4", "A5vsA6"]
        assert a2 == ["A2vsA3", "A4vsA5", "A6vsA1"]
        c2 = [m.sides for m in rounds[1] if m.pool == "C"]
        assert c2 == [(14, 15), (16, 17), (18, 13)]  # C6vsC1: C6 at home as written
        assert sum(1 for ms in rounds for m in ms) == 18  # 6 per group, not 15
        assert fmt.finished(st)

    def test_full_round_robin_is_the_other_setting(self):
        """七（一）1 heading: 每个小组6支队伍进行单循环 — as a Berger round robin: 15 per group."""
        st = state_of({"A": list(range(1, 7)), "B": list(range(7, 13)),
                       "C": list(range(13, 19))})
        rounds = run_all(RoundRobinStage(clause="七（一）1"), st)
        assert len(rounds) == 5
        for pool in "ABC":
            ms = [m for r in rounds for m in r if m.pool == pool]
            assert len(ms) == 15 and len({frozenset(m.sides) for m in ms}) == 15

    def test_per_pool_lists_with_pool_letters(self):
        fmt = FixtureListStage(pool_fixtures={
            "A": "A1vsA2、A2vsA3、A3vsA4、A4vsA5、A5vsA6、A6vsA1",
            "B": "B1vsB2、B2vsB3、B3vsB4、B4vsB5、B5vsB6、B6vsB1"})
        st = state_of({"A": list(range(1, 7)), "B": list(range(7, 13))})
        assert len(run_all(fmt, st)) == 2

    def test_nine_team_list_in_nine_berger_rounds(self):
        """七（一）2: 晋级的9支队伍进行循环赛 — 36 listed fixtures, home as listed; the team idle
        in a round has its bye (轮空), each team once, as in a round robin of 9."""
        st = state_of({None: list(range(101, 110))})
        fmt = FixtureListStage(fixtures=QINGDAO_NINE)
        rounds = run_all(fmt, st)
        assert len(rounds) == 9
        assert all(len([m for m in ms if not m.is_bye]) == 4 for ms in rounds)
        played = [m.sides for ms in rounds for m in ms if not m.is_bye]
        listed = [(100 + a, 100 + b) for a, b in map(parse_fixture, QINGDAO_NINE)]
        assert sorted(played) == sorted(listed)
        byes = [m.sides[0] for ms in rounds for m in ms if m.is_bye]
        assert sorted(byes) == list(range(101, 110))
        for ms in rounds:
            es = [e for m in ms for e in m.sides if e is not None]
            assert len(es) == len(set(es)) == 9

    @pytest.mark.parametrize("items,n,rounds", [(QINGDAO_FINAL_FOUR, 4, 3),
                                                (QINGDAO_AMATEUR_SIX, 6, 5)])
    def test_final_lists(self, items, n, rounds):
        """七（一）3 最后四支队伍循环 (6 fixtures); 七（二） 最后剩余的6支队伍进行循环赛 (15)."""
        st = state_of({None: list(range(1, n + 1))})
        got = run_all(FixtureListStage(fixtures=items), st)
        assert len(got) == rounds
        assert sorted(m.sides for ms in got for m in ms) == sorted(map(parse_fixture, items))

    def test_first_fit_packing_in_listed_order(self):
        assert pack_rounds([(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 1)]) == [
            [(1, 2), (3, 4), (5, 6)], [(2, 3), (4, 5), (6, 1)]]
        fmt = FixtureListStage(fixtures=QINGDAO_AMATEUR_SIX, packing="first_fit")
        assert fmt.total_rounds(state_of({None: list(range(1, 7))})) == 7

    def test_explicit_rounds(self):
        fmt = FixtureListStage(fixtures=QINGDAO_FINAL_FOUR,
                               rounds=[["1vs2", "3vs4"], ["2vs4", "1vs3"], ["1vs4", "2vs3"]])
        st = state_of({None: [1, 2, 3, 4]})
        rounds = run_all(fmt, st)
        assert [[m.sides for m in ms] for ms in rounds] == [
            [(1, 2), (3, 4)], [(2, 4), (1, 3)], [(1, 4), (2, 3)]]

    def test_explicit_round_with_a_team_twice_refused(self):
        fmt = FixtureListStage(fixtures=QINGDAO_FINAL_FOUR,
                               rounds=[["1vs2", "1vs3"], ["3vs4", "2vs4"], ["1vs4", "2vs3"]])
        with pytest.raises(RuleError) as exc:
            fmt.next_round(state_of({None: [1, 2, 3, 4]}), random.Random(0))
        assert "出场两次" in exc.value.zh and "plays twice" in exc.value.en

    def test_explicit_rounds_must_cover_the_list(self):
        fmt = FixtureListStage(fixtures=QINGDAO_FINAL_FOUR, rounds=[["1vs2", "3vs4"]])
        with pytest.raises(RuleError, match="未排入"):
            fmt.total_rounds(state_of({None: [1, 2, 3, 4]}))
        fmt = FixtureListStage(fixtures=QINGDAO_FINAL_FOUR, rounds=[["1vs5"]])
        with pytest.raises(RuleError, match="不在对阵表"):
            fmt.total_rounds(state_of({None: [1, 2, 3, 4]}))

    def test_unknown_position_refused(self):
        """七（一）1's cycle names 6 positions: a group of 5 cannot play it."""
        fmt = FixtureListStage(fixtures=QINGDAO_GROUP_CYCLE)
        with pytest.raises(RuleError) as exc:
            fmt.next_round(state_of({"A": [1, 2, 3, 4, 5]}), random.Random(0))
        assert "A组只有 5 个参赛单位" in exc.value.zh and "[6]" in exc.value.en

    def test_entrant_without_fixture_refused(self):
        fmt = FixtureListStage(fixtures=QINGDAO_GROUP_CYCLE)
        with pytest.raises(RuleError, match="未出现在对阵表"):
            fmt.total_rounds(state_of({"A": list(range(1, 8))}))

    @pytest.mark.parametrize("items,zh", [
        (["1vs2", "2vs1"], "重复"), (["1vs2", "1vs2"], "重复"), (["1vs1"], "无效"),
        (["1 plays 2"], "无法识别"), ([], "为空")])
    def test_bad_lists_refused_at_setting_time(self, items, zh):
        with pytest.raises(ValidationError) as exc:
            FixtureListStage(fixtures=items)
        assert zh in str(exc.value)

    def test_pool_letter_must_match(self):
        with pytest.raises(ValidationError, match="不是A组"):
            FixtureListStage(pool_fixtures={"A": ["A1vsA2", "B2vsB3"]})
        with pytest.raises(RuleError) as exc:
            parse_fixture("B1vsB2", "A")
        assert "pool B, not pool A" in exc.value.en

    def test_pair_listed_twice_is_a_rule_error(self):
        fmt = FixtureListStage(fixtures=QINGDAO_FINAL_FOUR)
        fmt.fixtures.append("2vs1")  # after validation, e.g. a hand-edited list
        with pytest.raises(RuleError) as exc:
            fmt.pairs(None)
        assert "重复" in exc.value.zh and "repeats" in exc.value.en

    def test_placings_by_pool(self):
        st = state_of({"A": [1, 2, 3, 4, 5, 6]})
        st.standings = {"A": pd.DataFrame({"rank": [1, 2, 3, 4, 5, 6],
                                           "entrant": [6, 5, 4, 3, 2, 1]})}
        pl = FixtureListStage(fixtures=QINGDAO_GROUP_CYCLE).placings(st)
        assert list(pl.entrant[pl.place <= 3]) == [6, 5, 4]
