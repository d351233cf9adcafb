"""The standings of one pool of a core stage (:meth:`CoreEvent.pool_standings
<bianpai.addin.competition.CoreEvent.pool_standings>`): the stage's tie-break chain over its
scored results (:func:`bianpai.engines.standings.rank`), carries (带分) included, entrants whose
results are all annulled last, and the played / won / drawn / lost / rounds counts.

Memoised per command: the same pool over the same results (``state``, each round's
``state_after``, the bulletin, 排名走势) is ranked once. :class:`PoolStandings` is a stage's
``StageState.standings``, each pool ranked when first read.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from bianpai.engines import core
from bianpai.engines.core import StageState
from bianpai.engines.standings import rank as rank_engine
from bianpai.templates.schema import Group, Stage


def pool_standings(ev, g: Group, s: Stage, pool, st: StageState) -> pd.DataFrame:
    """The ranking of one pool: columns ``rank``, ``entrant``, one per criterion,
    ``explanation_zh``/``explanation_en``, and ``played``, ``won``, ``drawn``, ``lost``,
    ``rounds`` (rounds with a result, a bye included)."""
    ents = [e for e in st.entrants if e.pool == pool]
    members = {e.number for e in ents}
    # a match without a pool may bring together entrants of two pools (a Mitchell table:
    # one 南北 pair and one 东西 pair, ranked apart); each pool takes its own entrants' rows
    res = [r for r in st.results.values() if r.match.pool == pool or (
        r.match.pool is None and members.intersection(r.match.entrants))]
    # memo: the same pool over the same results (state, state_after, the papers) is
    # ranked once per command; the results are held, so their ids stay theirs
    seed = ev.stage_seed(g, s)
    last = max((m.round for m in st.matches), default=0)  # for the unplaced entrants below
    memo = ("standings", g.id, s.id, pool, tuple(map(id, res)), seed, last,
            tuple((e.number, e.carry) for e in ents),
            frozenset(ev.annulled.get((g.id, s.id), ())))
    if memo in ev._results_cache:
        return ev._results_cache[memo][1].copy()
    rows = core.entrant_rows(res, [e.number for e in ents])
    carry = {e.number: e.carry for e in ents if e.carry}
    if carry:
        rows = pd.concat([rows, pd.DataFrame([
            {"round": 0, "pool": pool, "table": 0, "entrant": n, "opponent": pd.NA,
             "opponents": (), "side": 0, "match_points": c, "outcome": "CARRY",
             "complete": True} for n, c in carry.items()])], ignore_index=True)
        rows["opponent"] = rows["opponent"].astype("Int64")
    chain = s.tie_breaks.criteria if s.tie_breaks else ["match_points", "lots"]
    ctx = dict(s.tie_breaks.options) if s.tie_breaks else {}
    # entrants whose results are all annulled (弃权 / 取消资格), and those the scoring leaves
    # without a place from a round this state reaches (十一（四）5 迟到两轮: earlier results
    # kept): listed last with no place, the others ranked among themselves
    from bianpai.addin.core_unplaced import VOID_NOTE, unplaced, without_places  # noqa: PLC0415
    numbers = [e.number for e in ents]
    gone = ev.annulled.get((g.id, s.id), set()) & set(numbers)
    out = {e: v for e, v in unplaced(ev, g, s).items() if v[0] <= last}
    table = rank_engine(numbers, rows, chain, seed=seed, ctx=ctx,
                        unranked=gone | set(out)).table
    if gone:
        void = {e: (None, *VOID_NOTE) for e in gone}
        table = without_places(table, void)
    if out:
        table = without_places(table, out)
    # matches played, won, drawn, lost: one pass over the complete rows (carries excluded);
    # ``rounds``: rounds with a result, a bye included (已赛轮数)
    tally: dict[tuple, int] = {}
    for e, out, done in zip(rows["entrant"].tolist(), rows["outcome"].tolist(),
                            rows["complete"].tolist()):
        if bool(done) and out != "CARRY":
            tally[(e, out)] = tally.get((e, out), 0) + 1
    for col, codes in (("played", ("W", "D", "L", "FW", "FL")), ("won", ("W", "FW")),
                       ("drawn", ("D",)), ("lost", ("L", "FL")),
                       ("rounds", ("W", "D", "L", "FW", "FL", "BYE"))):
        table[col] = [sum(tally.get((e, c), 0) for c in codes) for e in table["entrant"]]
    ev._results_cache[memo] = (res, table)
    return table.copy()


class PoolStandings(Mapping):
    """``StageState.standings`` of a stage: pool → :meth:`CoreEvent.pool_standings`, each
    pool ranked when first read (a format that draws without a ranking, a bracket, and a
    reader of one pool never rank the others), from the state as it was when this was made
    (a copy of its entrants, matches and results): the values an eager ``{pool: ranking}``
    made then would hold. Iterates the pools in ``StageState.pools()`` order."""

    def __init__(self, ev, g: Group, s: Stage, st: StageState):
        self._ev, self._g, self._s = ev, g, s
        self._st = StageState(entrants=list(st.entrants), matches=list(st.matches),
                              results=dict(st.results), seed=st.seed, prior=list(st.prior))
        self._pools = st.pools()
        self._ranked: dict = {}

    def __getitem__(self, pool):
        if pool not in self._ranked:
            if pool not in self._pools:
                raise KeyError(pool)
            self._ranked[pool] = self._ev.pool_standings(self._g, self._s, pool, self._st)
        return self._ranked[pool]

    def __iter__(self):
        return iter(self._pools)

    def __len__(self) -> int:
        return len(self._pools)
