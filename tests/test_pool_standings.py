"""``core_standings.PoolStandings``: a stage's per-pool rankings computed when a pool is first read, from the
state as it was when the mapping was made (the values an eager dict would hold)."""

from __future__ import annotations

import pytest

from bianpai.addin.core_standings import PoolStandings
from bianpai.engines.core import Match, StageEntrant, StageState


class Ranker:
    """Stands in for the event: each ranking records the pool and what the state held."""

    def __init__(self):
        self.calls = []

    def pool_standings(self, g, s, pool, st):
        self.calls.append(pool)
        return (pool, len(st.matches), [e.number for e in st.pool_entrants(pool)])


def test_ranks_a_pool_once_when_read_from_the_state_as_it_was():
    st = StageState(entrants=[StageEntrant(1, "B"), StageEntrant(2, "A"), StageEntrant(3, "B")],
                    matches=[Match(1, 1, (1, 3), "B")])
    ev = Ranker()
    lazy = PoolStandings(ev, None, None, st)
    assert ev.calls == []  # nothing ranked until read
    assert list(lazy) == ["B", "A"] == st.pools() and len(lazy) == 2
    st.matches.append(Match(1, 2, (2, None), "A"))  # later changes do not reach the ranking
    assert lazy["A"] == ("A", 1, [2])
    assert lazy.get("A") is lazy["A"] and ev.calls == ["A"]
    assert dict(lazy) == {"B": ("B", 1, [1, 3]), "A": ("A", 1, [2])}
    assert ev.calls == ["A", "B"]
    with pytest.raises(KeyError):
        lazy["C"]
    assert lazy.get("C") is None and ev.calls == ["A", "B"]
