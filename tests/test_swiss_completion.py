"""The Swiss look-ahead (engines/swiss_completion.py): a round is paired so that the stage's
remaining rounds can still be paired without a rematch (found by a trial user: 6 象棋 teams,
5 rounds, stuck at round 4 after rounds 1–3 paired {1,2,3} against {4,5,6})."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal

import pytest

from bianpai.engines.core import StageEntrant, StageState
from bianpai.engines.errors import RuleError
from bianpai.engines.swiss_completion import best_completable, completable
from bianpai.engines.swiss_individual import IndividualSwiss
from bianpai.engines import swiss_pairing

from tests.test_boardswiss_individual import _result, check_invariants


def _perfect_matchings(nodes: tuple[int, ...], edges: set) -> list[frozenset]:
    if not nodes:
        return [frozenset()]
    v, rest = nodes[0], nodes[1:]
    out = []
    for u in rest:
        if (min(u, v), max(u, v)) in edges:
            left = tuple(x for x in rest if x != u)
            out += [m | {(min(u, v), max(u, v))} for m in _perfect_matchings(left, edges)]
    return out


def _brute(n: int, edges: set, rounds: int) -> bool:
    """Exhaustive: ``rounds`` edge-disjoint perfect matchings of the graph exist."""
    if rounds == 0:
        return True
    return any(_brute(n, edges - m, rounds - 1)
               for m in _perfect_matchings(tuple(range(n)), edges))


@pytest.mark.parametrize("seed", range(60))
def test_completable_matches_exhaustive_search(seed):
    rng = random.Random(seed)
    n = rng.choice([2, 4, 6, 8])
    p = rng.uniform(0.45, 1.0)
    edges = {(i, j) for i, j in itertools.combinations(range(n), 2) if rng.random() < p}
    rounds = rng.randint(1, min(4, n - 1))
    assert completable(n, edges, rounds) == _brute(n, edges, rounds)


def test_two_triangles_cannot_play_a_round():
    # after K3,3 (rounds 1–3 of {1,2,3} v {4,5,6}) only two triangles are left
    left = {(0, 1), (0, 2), (1, 2), (3, 4), (3, 5), (4, 5)}
    assert completable(6, left, 1) is False
    # the whole K6 can play its 5 rounds (a round robin)
    assert completable(6, set(itertools.combinations(range(6), 2)), 5) is True
    assert completable(6, set(itertools.combinations(range(6), 2)), 6) is False


def test_budget_gives_up_with_none():
    full = set(itertools.combinations(range(20), 2))
    # a 1-factorization question on K20 minus a little, with a tiny budget
    assert completable(20, full - {(0, 1)}, 18, budget=10) is None


def test_best_completable_keeps_the_heaviest_when_it_works_else_the_next():
    # 4 nodes, 2 more rounds: K4 minus the chosen matching must leave two matchings
    edges = {(0, 1): 10, (2, 3): 10, (0, 2): 1, (1, 3): 1, (0, 3): 1, (1, 2): 1}

    def solve(part, pairs):
        best = None
        for m in _perfect_matchings(tuple(sorted({x for e in part for x in e})), set(part)):
            if len(m) >= pairs and (best is None or sum(part[e] for e in m) >
                                    sum(part[e] for e in best)):
                best = m
        return sorted(best) if best is not None else None

    first = [(0, 1), (2, 3)]
    assert best_completable(4, edges, 2, solve, first) == first
    # forbid (1, 2): after {01, 23} only {02, 13} and {03} … is left: not two rounds
    less = {e: w for e, w in edges.items() if e != (1, 2)}
    got = best_completable(4, less, 1, solve, first)
    assert got == first  # one round after it: {02, 13} is there
    assert best_completable(4, less, 2, solve, first) == first  # no choice completes 2 more


def _simulate(n, seed, rounds, lookahead=True):
    rng = random.Random(seed)
    ents = [StageEntrant(number=i + 1, rating=Decimal(2400 - 7 * i)) for i in range(n)]
    fmt = IndividualSwiss(rounds=rounds)
    state = StageState(entrants=ents, seed=seed)
    for _ in range(rounds):
        ms = fmt.next_round(state, rng)
        state.matches.extend(ms)
        for m in ms:
            state.results[m.key] = _result(m, rng, draw=0.3)
    return state, fmt


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10])
def test_a_swiss_of_as_many_rounds_as_a_round_robin_is_always_played_out(n):
    """n − 1 rounds for an even field, n for an odd one (one bye each): every round is drawn,
    with no rematch and one bye at most, whatever the results."""
    rounds = n - 1 if n % 2 == 0 else n
    for seed in range(25):
        state, fmt = _simulate(n, seed, rounds)
        assert state.rounds_drawn() == rounds
        # the colour rule is soft by default (completeness first): checked here are the
        # pairings (nobody twice a round, no rematch, one bye at most)
        check_invariants(state, fmt.model_copy(update={"max_same_colour_run": 99,
                                                       "max_colour_diff": 99}))


def test_without_the_look_ahead_such_events_get_stuck(monkeypatch):
    """The same events paired round by round alone (rounds_after ignored) do get stuck: the
    test above can fail."""
    plain = swiss_pairing.pair_players

    def no_look(infos, fmt, *, full=None, rounds_after=0):
        return plain(infos, fmt, full=full, rounds_after=0)

    import bianpai.engines.swiss_individual as si
    monkeypatch.setattr(si, "pair_players", no_look)
    stuck = 0
    for seed in range(25):
        try:
            _simulate(6, seed, 5)
        except RuleError:
            stuck += 1
    assert stuck > 0


def test_look_ahead_changes_nothing_when_the_plain_pairing_can_be_completed():
    """On a larger field the look-ahead agrees with the weights' own pairing every round."""
    for seed in range(5):
        rng = random.Random(seed)
        n, rounds = 16, 7
        ents = [StageEntrant(number=i + 1, rating=Decimal(2400 - 7 * i)) for i in range(n)]
        fmt = IndividualSwiss(rounds=rounds)
        state = StageState(entrants=ents, seed=seed)
        for rnd in range(1, rounds + 1):
            if rnd > 1:
                infos = swiss_pairing.player_infos(state, fmt, rnd)
                a = swiss_pairing.pair_players(infos, fmt, rounds_after=rounds - rnd)
                infos = swiss_pairing.player_infos(state, fmt, rnd)
                b = swiss_pairing.pair_players(infos, fmt, rounds_after=0)
                key = lambda r: ([(x.number, y.number) for x, y in r[0]],  # noqa: E731
                                 r[1] and r[1].number)
                assert key(a) == key(b)
            ms = fmt.next_round(state, rng)
            state.matches.extend(ms)
            for m in ms:
                state.results[m.key] = _result(m, rng)
