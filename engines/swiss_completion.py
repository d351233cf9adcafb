"""Can a Swiss stage still be played to its last round? The look-ahead of a round's pairing.

A Swiss round paired only for itself can leave a field in which the remaining rounds have no
rematch-free pairing at all: 6 teams whose first 3 rounds were the 9 games between {1,2,3} and
{4,5,6} have left only two triangles, and a 4th round cannot be paired. FIDE C.04.1 and the
象棋/围棋 Swiss rules forbid the rematch; they presuppose that the announced number of rounds can be
played, and the Chinese arbiters' practice (and every Swiss program) pairs a round so that it can.

:func:`completable` decides it exactly (a search for ``rounds`` edge-disjoint perfect matchings of
the allowed graph, within a step budget); :func:`best_completable` takes the round's matchings in
decreasing weight order (Murty's partition of the solution space, each part one maximum-weight
matching) and returns the first after which the stage can be completed, so the pairing is the one
the weights prefer whenever that one leaves a playable stage.

The bye is a dummy node whose edges join the entrants still allowed a bye: an entrant takes it at
most once, as the rules require.
"""

from __future__ import annotations

import heapq
from typing import Callable

__all__ = ["completable", "best_completable", "COMPLETION_MAX", "SEARCH_BUDGET"]

#: the look-ahead runs for fields up to this many nodes (entrants, plus the bye node): above it a
#: Swiss has far more possible opponents than rounds left
COMPLETION_MAX = 24
#: search steps of one :func:`completable` call (or of one :func:`best_completable`, all its
#: calls together) before it gives up (answering ``None``)
SEARCH_BUDGET = 200_000
#: matchings tried by :func:`best_completable` before it settles for the heaviest
MAX_CANDIDATES = 400


class _Budget(Exception):
    pass


def completable(n_nodes: int, edges, rounds: int, *, budget: int | list[int] = SEARCH_BUDGET
                ) -> bool | None:
    """Whether ``rounds`` edge-disjoint perfect matchings of the graph exist (the remaining
    rounds, each pairing everyone, no pair twice).

    ``n_nodes``: nodes ``0 … n_nodes − 1`` (even; the bye node included); ``edges``: the allowed
    pairs ``(i, j)``. Returns True/False, or ``None`` when ``budget`` search steps did not settle
    it (the caller then keeps its pairing); ``budget`` given as a one-item list is spent in place
    (one budget over several calls)."""
    if rounds <= 0:
        return True
    if n_nodes % 2:
        return False
    adj: list[set[int]] = [set() for _ in range(n_nodes)]
    for i, j in edges:
        if i != j:
            adj[i].add(j)
            adj[j].add(i)
    left = budget if isinstance(budget, list) else [budget]

    def tick():
        left[0] -= 1
        if left[0] < 0:
            raise _Budget

    def rounds_left(k: int, floor0: int) -> bool:
        # every node plays once per round: each needs k partners left
        if k == 0:
            return True
        if min(len(a) for a in adj) < k:
            return False
        return build(k, floor0, set(range(n_nodes)), [])

    def build(k: int, floor0: int, free: set[int], chosen: list[tuple[int, int]]) -> bool:
        tick()
        if not free:
            for a, b in chosen:
                adj[a].discard(b)
                adj[b].discard(a)
            ok = rounds_left(k - 1, chosen_partner0(chosen))
            for a, b in chosen:
                adj[a].add(b)
                adj[b].add(a)
            return ok
        # the free node with the fewest free partners; node 0 first, whose partner rises from
        # round to round (the rounds are interchangeable: one order of them is searched)
        if 0 in free:
            v = 0
            options = sorted(u for u in adj[0] if u in free and u > floor0)
        else:
            v = min(free, key=lambda x: sum(1 for u in adj[x] if u in free))
            options = sorted(u for u in adj[v] if u in free)
        for u in options:
            free.discard(v)
            free.discard(u)
            chosen.append((v, u))
            if build(k, floor0, free, chosen):
                return True
            chosen.pop()
            free.add(v)
            free.add(u)
        return False

    def chosen_partner0(chosen):
        return next(u if v == 0 else v for v, u in chosen if 0 in (v, u))

    try:
        return rounds_left(rounds, -1)
    except _Budget:
        return None


def best_completable(n_nodes: int, edges: dict[tuple[int, int], int], rounds_after: int,
                     solve: Callable[[dict[tuple[int, int], int], int],
                                     list[tuple[int, int]] | None],
                     first: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The heaviest perfect matching after which ``rounds_after`` more rounds can be paired.

    ``edges``: allowed pair ``(i, j)`` (i < j) → weight; ``solve(edges, pairs)``: a
    maximum-weight matching of those edges with ``pairs`` pairs (``(i, j)``, i < j), or ``None``
    when it has fewer; ``first``: the whole round's, already computed. Matchings come in decreasing weight (Murty's
    partition: a part fixes some pairs and forbids one); the first that leaves a completable
    graph is returned; ``first`` when it does, when the search budget runs out, or when no
    matching does (the stage is then unplayable to its end whatever this round is)."""
    def norm(m):
        return sorted((min(a, b), max(a, b)) for a, b in m)

    budget = [SEARCH_BUDGET]  # one budget for the whole search

    def rest_ok(m) -> bool | None:
        used = set(norm(m))
        return completable(n_nodes, [e for e in edges if e not in used], rounds_after,
                           budget=budget)

    first = norm(first)
    verdict = rest_ok(first)
    if verdict is not False:
        return first
    weight = lambda m: sum(edges[e] for e in m)  # noqa: E731
    heap: list = []
    seq = 0

    def push_parts(m, fixed: tuple, banned: frozenset):
        nonlocal seq
        free_edges = [e for e in m if e not in fixed]
        for i, e in enumerate(free_edges):
            fx = fixed + tuple(free_edges[:i])
            bn = banned | {e}
            sub = _solve_part(fx, bn)
            if sub is not None:
                seq += 1
                heapq.heappush(heap, (-weight(sub), seq, sub, fx, bn))

    def _solve_part(fixed, banned):
        taken = {x for e in fixed for x in e}
        part = {e: w for e, w in edges.items()
                if e not in banned and e[0] not in taken and e[1] not in taken}
        need = (n_nodes - len(taken)) // 2
        sub = solve(part, need) if need else []
        if sub is None:
            return None
        return norm(list(fixed) + list(sub))

    push_parts(first, (), frozenset())
    tried = 0
    while heap and tried < MAX_CANDIDATES:
        _, _, m, fx, bn = heapq.heappop(heap)
        tried += 1
        verdict = rest_ok(m)
        if verdict is None:
            return first  # undecided: keep the weights' own choice
        if verdict:
            return m
        push_parts(m, fx, bn)
    return first
