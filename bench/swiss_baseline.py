"""The Swiss engine's pairing search before issue 13 (commit 67b5b01), kept as the bench baseline.

It asks networkx for a new maximum matching, on a graph rebuilt from scratch, for every candidate
opponent of every team ("can the rest still be paired?"). ``bench/run.py`` times it against
:func:`bianpai.engines.swiss.swiss_pairings` on the same field and checks both give the same
pairing. Not used by the package.
"""

from __future__ import annotations

from typing import Sequence

import networkx as nx


def perfect_matching_exists(teams: Sequence[int], met: set[frozenset[int]]) -> bool:
    if len(teams) % 2:
        return False
    if not teams:
        return True
    g = nx.Graph()
    g.add_nodes_from(teams)
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            if frozenset((a, b)) not in met:
                g.add_edge(a, b)
    m = nx.max_weight_matching(g, maxcardinality=True)
    return 2 * len(m) == len(teams)


class _Search:
    def __init__(self, met: set[frozenset[int]]):
        self.met = met
        self.dead: set[tuple[int, ...]] = set()
        self.backtracks = 0

    def pair(self, order: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not order:
            return []
        if order in self.dead:
            return None
        top, rest = order[0], order[1:]
        for i, opp in enumerate(rest):
            if frozenset((top, opp)) in self.met:
                continue
            remaining = rest[:i] + rest[i + 1:]
            if not perfect_matching_exists(remaining, self.met):
                self.backtracks += 1
                continue
            sub = self.pair(remaining)
            if sub is not None:
                return [(top, opp)] + sub
            self.backtracks += 1
        self.dead.add(order)
        return None


def baseline_pairing(order: Sequence[int], met: set[frozenset[int]], had_bye: set[int]
                     ) -> tuple[int | None, list[tuple[int, int]] | None]:
    """``(bye, pairs)`` for a by-score round of ``order`` (highest first), the old way;
    ``pairs`` is None when no rematch-free pairing exists."""
    order = list(order)
    bye = None
    if len(order) % 2:
        for cand in [t for t in reversed(order) if t not in had_bye]:
            if perfect_matching_exists([t for t in order if t != cand], met):
                bye = cand
                break
        else:
            return None, None
        order = [t for t in order if t != bye]
    elif not perfect_matching_exists(order, met):
        return None, None
    return bye, _Search(met).pair(tuple(order))
