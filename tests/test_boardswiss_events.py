"""Whole individual Swiss events on the engines: late entries (迟报), half-point byes requested in
advance (请假), forfeits, and the random-event invariants in both pairing modes.

全国智力运动会 2024 (otog) 单项规则 一（二）/二（二）: "采用积分循环制（电脑编排），比赛轮次视参赛人数而定";
国际象棋 "采用2019年国际棋联审定的国际象棋竞赛规则" (FIDE C.04.1, C.04.3, C.07 Art. 16).
"""

from __future__ import annotations

import random
from decimal import Decimal

import pandas as pd
import pytest

from bianpai.engines.board_scoring import BoardGameScoring
from bianpai.engines.c07 import c07_values
from bianpai.engines.core import StageEntrant, StageState, entrant_rows
from bianpai.engines.standings import rank
from bianpai.engines.swiss_individual import (BYE_LABEL, LATE_ENTRY_LABELS, REQUESTED_BYE_LABEL,
                                              IndividualSwiss, player_infos)
from bianpai.engines.tiebreaks import records_from_rows

from tests.test_boardswiss_individual import check_invariants

ONE, HALF, ZERO = Decimal(1), Decimal("0.5"), Decimal(0)


def _play(state, fmt, sc, rng, rounds, *, codes=("1-0", "0-1", "和", "+/-")):
    """Draw and score ``rounds`` rounds; every game scored through ``sc`` (byes too)."""
    for _ in range(rounds):
        ms = fmt.next_round(state, rng)
        state.matches.extend(ms)
        for m in ms:
            if m.is_bye:
                state.results[m.key] = sc.bye(m)
            else:
                w = rng.choices(codes, weights=[45, 40, 12, 3][:len(codes)])[0]
                state.results[m.key] = sc.score(m, pd.DataFrame([{"result": w}]))
    return state


def _points(state) -> dict[int, Decimal]:
    rows = entrant_rows(state.results.values(), [e.number for e in state.entrants])
    return {int(e): Decimal(sum(g["match_points"])) for e, g in rows.groupby("entrant")}


@pytest.mark.parametrize("late_entry, credit", [("zero", ZERO), ("half_per_round", ONE)])
def test_late_entry_credit_in_the_standings_and_c07(late_entry, credit):
    """Issue 9 "Late entries (join at round k with 0 or half points, a setting)": entrant 9 joins
    at round 3; rounds 1–2 are 迟报 byes worth 0 or half a win (a draw, 1 in 象棋 2/1/0) each,
    counted in 积分 and for the pairing; C.07 Art. 16: they are unplayed rounds (VUR, category
    3) whose BH contribution is the player's own score (the virtual opponent, 16.4)."""
    fmt = IndividualSwiss(rounds=5, late_entry=late_entry, colour_hard=True)
    sc = BoardGameScoring()
    ents = [StageEntrant(i, rating=Decimal(2000 - 10 * i)) for i in range(1, 9)]
    ents.append(StageEntrant(9, rating=Decimal(1500), join_round=3))
    state = _play(StageState(entrants=ents), fmt, sc, random.Random(3), 2)
    late = [m for m in state.matches if m.label == LATE_ENTRY_LABELS[late_entry]]
    assert [(m.round, m.sides) for m in late] == [(1, (9, None)), (2, (9, None))]
    assert _points(state)[9] == 2 * credit
    # the pairing score of round 3 carries the credit, no double count
    assert {p.number: p.score for p in player_infos(state, fmt, 3)}[9] == 2 * credit
    _play(state, fmt, sc, random.Random(4), 3)
    check_invariants(state, fmt)
    rows = entrant_rows(state.results.values(), range(1, 10))
    recs = records_from_rows(rows)
    assert [g.kind for g in recs[9][:2]] == ["requested_bye", "requested_bye"]
    pts = _points(state)
    bh = c07_values(recs, 5, ["BH"], win=Decimal(2))[9]["BH"]
    played = [g for g in recs[9] if g.kind == "played"]
    assert len(recs[9]) == 5  # every round is a record: 2 迟报, then games or a 轮空
    assert bh == sum((pts[g.opponent] for g in played), ZERO) + (5 - len(played)) * pts[9]
    table = rank(range(1, 10), rows, ["match_points", "lots"], seed=1).table
    assert table.set_index("entrant").loc[9, "match_points"] == pts[9]


def test_half_point_bye_requested_in_advance_chess():
    """FIDE C.04.1/C.07 (chess, 1/½/0): a half-point bye asked for round 2 (``requested_byes``)
    keeps the player out of that round's pairing, scores ½ in the standings, is an unplayed round
    for C.07 and is no pairing-allocated bye (the PAB may still go to that player later)."""
    fmt = IndividualSwiss(rounds=4, requested_byes={2: [3]}, bye_points=ONE,
                          requested_bye_points=HALF, colour_hard=True)
    sc = BoardGameScoring(win_points=ONE, draw_points=HALF, requested_bye_points=HALF)
    ents = [StageEntrant(i, rating=Decimal(2000 - 10 * i)) for i in range(1, 8)]
    state = _play(StageState(entrants=ents), fmt, sc, random.Random(5), 4,
                  codes=("1-0", "0-1", "½-½", "+/-"))
    r2 = state.round_matches(2)
    req = [m for m in r2 if m.label == REQUESTED_BYE_LABEL]
    assert [m.sides for m in req] == [(3, None)]
    assert state.results[req[0].key].points == (HALF, ZERO)
    assert all(3 not in m.sides for m in r2 if m.label != REQUESTED_BYE_LABEL)
    recs = records_from_rows(entrant_rows(state.results.values(), range(1, 8)))
    assert [g.kind for g in recs[3] if g.round == 2] == ["requested_bye"]
    assert sum(g.score for g in recs[3]) == _points(state)[3]
    pabs = [m.entrants[0] for m in state.matches if m.label == BYE_LABEL]
    assert len(pabs) == len(set(pabs)) == 4 - 1 + 1 - 1  # 7 players: a PAB in rounds 1, 3, 4
    check_invariants(state, fmt)


def test_forfeits_score_and_block_a_rematch():
    """Result codes +/− and 0:0 (FIDE C.04.1: players whose game was forfeited may meet again only
    where the regulations allow — here ``forfeit_counts_as_met`` true): a forfeit win scores as a
    win, both lose a double forfeit, and C.07 sees forfeit win/loss rounds as unplayed."""
    sc = BoardGameScoring()
    fmt = IndividualSwiss(rounds=3)
    state = StageState(entrants=[StageEntrant(i, rating=Decimal(100 - i)) for i in range(1, 5)])
    rng = random.Random(1)
    ms = fmt.next_round(state, rng)
    state.matches.extend(ms)
    codes = ["+/-", "0:0"]
    for m, c in zip(ms, codes):
        state.results[m.key] = sc.score(m, pd.DataFrame([{"result": c}]))
    res = [state.results[m.key] for m in ms]
    assert res[0].points == (Decimal(2), ZERO) and res[0].outcome == ("FW", "FL")
    assert res[1].points == (ZERO, ZERO) and res[1].outcome == ("FL", "FL")
    ms2 = fmt.next_round(state, rng)
    first = {frozenset(m.sides) for m in ms}
    assert not first & {frozenset(m.sides) for m in ms2}
    recs = records_from_rows(entrant_rows(state.results.values(), range(1, 5)))
    kinds = {e: gs[0].kind for e, gs in recs.items()}
    assert sorted(kinds.values()) == ["forfeit_loss", "forfeit_loss", "forfeit_loss",
                                      "forfeit_win"]


def _random_event(n, seed, mode, *, withdraw, late):
    rng = random.Random(seed)
    ents = []
    for i in range(n):
        join, wd = 1, None
        if i < late:
            join = rng.randint(2, 3)
        elif i < late + withdraw:
            wd = rng.randint(1, 4)
        ents.append(StageEntrant(i + 1, rating=Decimal(2400 - 7 * i), join_round=join,
                                 withdrawn_after=wd))
    if mode == "dutch":
        fmt = IndividualSwiss(mode="dutch", rounds=min(5, n - 1), first_colour="white",
                              bye_points=ONE, requested_bye_points=HALF)
        sc = BoardGameScoring(win_points=ONE, draw_points=HALF)
        codes = ("1-0", "0-1", "½-½", "+/-")
    else:
        fmt = IndividualSwiss(rounds=min(5, n - 1), colour_hard=True)
        sc = BoardGameScoring()
        codes = ("1-0", "0-1", "和", "+/-")
    state = StageState(entrants=ents, seed=seed)
    return _play(state, fmt, sc, rng, fmt.rounds, codes=codes), fmt


@pytest.mark.parametrize("mode", ["chinese", "dutch"])
@pytest.mark.parametrize("n, seed", [(5, 1), (6, 2), (7, 3), (9, 4), (12, 5), (15, 6), (21, 7)])
def test_random_events_keep_the_invariants(mode, n, seed):
    """Issue 9 done-means: random events with withdrawals (退赛) and late entries keep the
    invariants — nobody paired twice in a round, no rematch, at most one 轮空 (PAB) each, never
    three same colours running nor a colour difference over 2 (FIDE C.04.1; 象棋 先后手交替).
    Dutch: a forfeited game is no meeting (C.04.2) and final-round topscorers are exempt from
    the colour rule (C.04.3)."""
    from bianpai.engines.errors import RuleError
    try:
        state, fmt = _random_event(n, seed, mode, withdraw=max(1, n // 8), late=max(1, n // 10))
    except RuleError:
        assert n <= 7  # a tiny field with withdrawals may run out of rematch-free pairings
        return
    exempt = set()
    if mode == "dutch":  # C.04.3: topscorers (> 50 % of the maximum) in the final round only
        last = state.rounds_drawn()
        before = _points(StageState(entrants=state.entrants, results={
            k: v for k, v in state.results.items() if v.match.round < last}))
        exempt = {e for e, p in before.items() if p > Decimal(last - 1) / 2}
    check_invariants(state, fmt, final_round_exempt=exempt, played_only_met=mode == "dutch")


def test_random_event_big_field_chinese():
    """One large field (300 entrants, 5 rounds, withdrawals and late entries) in 中国规则 mode."""
    state, fmt = _random_event(300, 11, "chinese", withdraw=20, late=15)
    check_invariants(state, fmt)


def test_dutch_many_seeds_small_fields():
    """More seeds for the Dutch mode (odd and even small fields, withdrawals, late entries)."""
    for seed in range(20, 30):
        n = 8 + seed % 5
        state, fmt = _random_event(n, seed, "dutch", withdraw=1, late=1)
        last = state.rounds_drawn()
        before = _points(StageState(entrants=state.entrants, results={
            k: v for k, v in state.results.items() if v.match.round < last}))
        check_invariants(state, fmt, played_only_met=True, final_round_exempt={
            e for e, p in before.items() if p > Decimal(last - 1) / 2})


from bianpai.engines.errors import RuleError  # noqa: E402


@pytest.mark.parametrize("counts", [True, False])
def test_dutch_mode_honours_forfeit_counts_as_met(counts):
    """单项 二（二）“比赛采用积分循环制、电脑编排” read as the FIDE Dutch system; whether a forfeited
    game counts as a meeting is the setting ``forfeit_counts_as_met`` (the 规程 is silent; FIDE
    C.04.1: a game not played is no meeting). True: the two are written as an ``XXP`` forbidden
    pair and the Dutch engine never pairs them again; false: they may meet again."""
    from bianpai.engines.swiss_dutch import state_to_trf
    fmt = IndividualSwiss(mode="dutch", rounds=3, first_colour="white", bye_points=ONE,
                          forfeit_counts_as_met=counts)
    sc = BoardGameScoring(win_points=ONE, draw_points=HALF)
    state = StageState(entrants=[StageEntrant(i, rating=Decimal(2000 - i)) for i in range(1, 5)])
    rng = random.Random(1)
    ms = fmt.next_round(state, rng)
    state.matches.extend(ms)
    # table 1 forfeited, table 2 played
    for m, code in zip(ms, ["+/-", "1-0"]):
        state.results[m.key] = sc.score(m, pd.DataFrame([{"result": code}]))
    forfeited = frozenset(ms[0].sides)
    trf, back = state_to_trf(state, fmt, 2, 3)
    xxp = [rest for code, rest in trf.other if code == "XXP"]
    assert bool(xxp) == counts
    if counts:
        assert {back[int(x)] for x in xxp[0].split()} == set(forfeited)
    # round 2 of a 4-player field: 1st-table winner v 2nd-table winner is the natural pairing
    # unless forbidden; under ``counts`` the forfeit pair is never one of round 2 or 3
    for rnd in (2, 3):
        ms2 = fmt.next_round(state, rng)
        state.matches.extend(ms2)
        for m in ms2:
            state.results[m.key] = sc.score(m, pd.DataFrame([{"result": "1-0"}]))
        if counts:
            assert forfeited not in {frozenset(m.sides) for m in ms2}
    # two players, two rounds: after a forfeit only "false" pairs them again; "true" refuses
    duo = StageState(entrants=[StageEntrant(i, rating=Decimal(2000 - i)) for i in (1, 2)])
    two = fmt.model_copy(update={"rounds": 2})
    first = two.next_round(duo, rng)
    duo.matches.extend(first)
    duo.results[first[0].key] = sc.score(first[0], pd.DataFrame([{"result": "+/-"}]))
    if counts:
        with pytest.raises(RuleError):
            two.next_round(duo, rng)
    else:
        assert [set(m.sides) for m in two.next_round(duo, rng)] == [{1, 2}]
