"""Mitchell movement and format (fujian 扑克牌升级（80分）比赛规则 一2、一3、一5)."""

import random
from decimal import Decimal

import pytest

from bianpai.engines.core import (FORMATS, MatchResult, NotReady, StageEntrant, StageState,
                                  format_for)
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.mitchell import (Mitchell, boards_from_label, direction_of, max_rounds,
                                      movement_table, team_pairs)


def _check_movement(n: int, mode: str) -> None:
    mv = movement_table(n, None, 3, even_tables=mode)
    rounds = max_rounds(n, mode)
    assert mv["round"].max() == rounds
    for ew, g in mv.groupby("ew"):
        # every EW pair meets every NS pair at most once and plays every board set at most once
        assert g["ns"].is_unique, (n, mode, ew)
        assert g["board_set"].is_unique, (n, mode, ew)
        assert len(g) == rounds
    for r, g in mv.groupby("round"):
        assert sorted(g["ns"]) == list(range(1, n + 1))  # NS stationary
        assert sorted(g["ew"]) == list(range(1, n + 1))  # every EW pair seated once
        counts = g["board_set"].value_counts()
        shared = g["shared_with"].notna().sum()
        # each set at one table, or at the two sharing tables (relay)
        assert counts.max() <= (2 if shared else 1)
        assert (counts == 2).sum() == shared // 2
    # each NS pair plays each set at most once too
    for ns, g in mv.groupby("ns"):
        assert g["board_set"].is_unique and g["ew"].is_unique


class TestMovement:
    @pytest.mark.parametrize("n", range(3, 21))
    def test_no_repeat_skip(self, n):
        """一2 计副制米切尔比赛方法: nobody meets the same opponent or replays a board set."""
        _check_movement(n, "skip")

    @pytest.mark.parametrize("n", range(4, 21, 2))
    def test_no_repeat_relay(self, n):
        _check_movement(n, "relay")

    def test_odd_full_even_skip_rounds(self):
        assert max_rounds(7) == 7 and max_rounds(8) == 7 and max_rounds(8, "relay") == 8
        # with the relay every EW pair meets every NS pair
        mv = movement_table(8, None, 2, even_tables="relay")
        assert all(len(set(g["ns"])) == 8 for _, g in mv.groupby("ew"))

    def test_round_one_and_board_travel(self):
        """一5 南北1号对东西1号在第1桌…南北方向不移动座位，所打的牌由南北方向选手往低号桌传."""
        mv = movement_table(5, None, 4)
        r1 = mv[mv["round"] == 1]
        assert list(r1["ns"]) == list(r1["ew"]) == list(r1["table"]) == [1, 2, 3, 4, 5]
        assert list(r1["boards"]) == ["1-4", "5-8", "9-12", "13-16", "17-20"]
        for r in range(1, 5):
            a = mv[mv["round"] == r].set_index("table")
            b = mv[mv["round"] == r + 1].set_index("table")
            for t in range(2, 6):
                assert b.loc[t - 1, "board_set"] == a.loc[t, "board_set"]  # boards go down
                assert b.loc[t, "ew"] == a.loc[t - 1, "ew"]  # EW go up
            assert b.loc[5, "board_set"] == a.loc[1, "board_set"]  # table 1 → table 5

    def test_skip_after_half(self):
        """scoring-anchors §4: with 6 tables the skip is at the start of round 4."""
        mv = movement_table(6, None, 2).set_index(["round", "ew"])
        assert mv.loc[(3, 1), "table"] == 3
        assert mv.loc[(4, 1), "table"] == 5

    def test_too_many_rounds(self):
        with pytest.raises(RuleError):
            movement_table(6, 6, 2)
        with pytest.raises(RuleError):
            movement_table(5, 3, 0)

    def test_label_round_trip(self):
        assert boards_from_label("牌套3 第9-12副") == (9, 10, 11, 12)
        assert boards_from_label("牌套1 第1副，与第4桌共用") == (1,)
        with pytest.raises(InputError):
            boards_from_label("A1vsA2")


def _field(ns: int, ew: int) -> list[StageEntrant]:
    return ([StageEntrant(number=i, pool="南北", unit=f"U{i}") for i in range(1, ns + 1)]
            + [StageEntrant(number=100 + i, pool="东西", unit=f"U{i}") for i in range(1, ew + 1)])


def _play(fmt: Mitchell, state: StageState, rng: random.Random) -> None:
    for m in fmt.next_round(state, rng):
        state.matches.append(m)
        state.results[m.key] = MatchResult(m, (Decimal(1), Decimal(1)), ("D", "D"))


class TestMitchellFormat:
    def test_registered(self):
        assert format_for("米切尔") is Mitchell and format_for("米歇尔") is Mitchell
        assert FORMATS["mitchell"] is Mitchell

    def test_whole_stage(self):
        fmt = Mitchell(boards_per_round=3)
        state = StageState(entrants=_field(6, 6), seed=7)
        rng = random.Random(7)
        assert fmt.total_rounds(state) == 5
        while not fmt.finished(state):
            _play(fmt, state, rng)
        assert state.rounds_drawn() == 5
        seen, sets = set(), set()
        for m in state.matches:
            assert m.pool is None and len(m.sides) == 2
            ns, ew = m.sides
            assert ns <= 6 and ew > 100  # sides = (NS pair, EW pair)
            assert (ns, ew) not in seen
            seen.add((ns, ew))
            assert (ew, m.label.split()[0]) not in sets
            sets.add((ew, m.label.split()[0]))
        # the NS pair of a table is the same every round (NS stationary)
        for t in range(1, 7):
            assert len({m.sides[0] for m in state.matches if m.table == t}) == 1
        with pytest.raises(RuleError):
            fmt.next_round(state, rng)

    def test_not_ready(self):
        fmt = Mitchell(boards_per_round=2)
        state = StageState(entrants=_field(3, 3), seed=1)
        state.matches += fmt.next_round(state, random.Random(1))
        with pytest.raises(NotReady) as ei:
            fmt.next_round(state, random.Random(1))
        assert len(ei.value.reasons) == 3

    def test_lot_deterministic_and_seed_order(self):
        s1 = StageState(entrants=_field(5, 5), seed=3)
        a = Mitchell().next_round(s1, random.Random(3))
        b = Mitchell().next_round(s1, random.Random(3))
        assert a == b
        s = Mitchell(draw="seed").next_round(s1, random.Random(3))
        assert [m.sides for m in s] == [(i, 100 + i) for i in range(1, 6)]

    def test_uneven_field_sits_out(self):
        fmt = Mitchell(boards_per_round=2, draw="seed")
        state = StageState(entrants=_field(5, 4))
        ms = fmt.next_round(state, random.Random(0))
        assert len(ms) == 5 and ms[4].sides == (5, None) and ms[4].is_bye

    def test_default_boards_from_session_time(self):
        """一3 比赛轮数及副数将根据报名人数确定。每副牌比赛时间12分钟 (2 days, 4 sessions)."""
        fmt = Mitchell()
        state = StageState(entrants=_field(10, 10))
        assert fmt.total_rounds(state) == 9
        assert fmt.board_count(state) == (4 * 180 // 12) // 9  # 6
        assert Mitchell(rounds=5).board_count(state) == 12
        with pytest.raises(RuleError):
            Mitchell(rounds=10).total_rounds(state)

    def test_placings_per_direction(self):
        import pandas as pd
        state = StageState(entrants=_field(3, 3), standings={
            "NS": pd.DataFrame({"rank": [1, 2, 3], "entrant": [2, 1, 3]}),
            "东西": pd.DataFrame({"rank": [1, 1, 3], "entrant": [101, 103, 102]})})
        p = Mitchell().placings(state)
        assert list(p["pool"]) == ["NS"] * 3 + ["EW"] * 3
        assert list(p["place"]) == [1, 2, 3, 1, 1, 3]

    def test_team_of_four(self):
        """总规程 六（一）3（1）: a unit's team of 4 = its NS pair + its EW pair (双冠军)."""
        ns, ew = team_pairs("福州1队", 1, 101, ["甲", "乙", "丙", "丁"], unit="福州")
        assert (ns.direction, ew.direction) == ("NS", "EW") and ns.team == ew.team
        assert ns.entrant().pool == "NS" and ew.entrant().unit == "福州"
        with pytest.raises(InputError):
            team_pairs("X", 1, 2, ["甲", "乙", "丙"])
        with pytest.raises(InputError):
            direction_of("南")


def test_is_a_core_format():
    from bianpai.engines.core import Format
    assert isinstance(Mitchell(), Format)
    assert Mitchell.side_labels[0] == ("南北", "NS")


def _own_unit_meetings(state: StageState) -> int:
    unit = {e.number: e.unit for e in state.entrants}
    return sum(1 for m in state.matches if None not in m.sides
               and unit[m.sides[0]] is not None and unit[m.sides[0]] == unit[m.sides[1]])


@pytest.mark.parametrize("tables,rounds", [(6, None), (8, None), (7, 6), (9, 5), (5, 4)])
def test_lot_keeps_a_units_two_pairs_apart(tables, rounds):
    """A unit's team of 4 (its NS and EW pair) never plays itself when the movement lets each
    pair miss an opponent (even tables with the skip, or fewer rounds than tables): found by a
    trial user, 6 of 6 fujian 80分 units met their own pair. The lot stays a lot (seeded)."""
    draws = set()
    for seed in range(20):
        fmt = Mitchell(boards_per_round=2, rounds=rounds)
        state = StageState(entrants=_field(tables, tables), seed=seed)
        rng = random.Random(seed)
        while not fmt.finished(state):
            _play(fmt, state, rng)
        assert _own_unit_meetings(state) == 0, seed
        draws.add(tuple(m.sides for m in state.matches if m.round == 1))
    assert len(draws) >= 15  # still drawn by lot (a few draws may coincide)


def test_lot_meets_own_unit_only_where_the_movement_forces_it():
    # 7 tables, 7 rounds: every EW pair meets every NS pair; the unit meets itself once
    fmt = Mitchell(boards_per_round=2)
    state = StageState(entrants=_field(7, 7), seed=4)
    rng = random.Random(4)
    while not fmt.finished(state):
        _play(fmt, state, rng)
    assert _own_unit_meetings(state) == 7
    # no units given: the plain lot
    plain = [StageEntrant(number=e.number, pool=e.pool) for e in _field(6, 6)]
    s = StageState(entrants=plain, seed=5)
    before = Mitchell().next_round(s, random.Random(5))
    import random as _r
    rng = _r.Random(5)
    nums = [1, 2, 3, 4, 5, 6]
    rng.shuffle(nums)
    ew = [101, 102, 103, 104, 105, 106]
    rng.shuffle(ew)
    assert [m.sides for m in before] == list(zip(nums, ew))
