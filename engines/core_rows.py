"""Scored matches of the competition core as rows: :func:`entrant_rows` (the long form
:func:`bianpai.engines.standings.rank` reads) and :func:`annul_entrant` (every match of an
entrant made void for both sides). Re-exported by :mod:`bianpai.engines.core`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Iterable

import pandas as pd

from bianpai.engines.core import MatchResult


# ------------------------------------------------------------------------------ standings input

def entrant_rows(results: Iterable[MatchResult], entrants: Iterable[int] | None = None
                 ) -> pd.DataFrame:
    """Long form of scored matches for :func:`bianpai.engines.standings.rank`.

    One row per entrant and match (byes included, void matches included with
    ``complete=False`` so they count for nothing). Columns: ``round`` (int), ``pool`` (object),
    ``table`` (int), ``entrant`` (int), ``opponent`` (Int64; NA for a bye; for N-seat matches the
    first other entrant), ``opponents`` (tuple of the other entrants), ``side`` (int),
    ``match_points`` (Decimal), ``outcome`` (str), ``complete`` (bool), plus one column per key
    of :attr:`MatchResult.values`. ``entrants``: keep only these.
    """
    keep = None if entrants is None else {int(e) for e in entrants}
    rows: list[dict] = []
    for r in results:
        m = r.match
        for i, e in enumerate(m.sides):
            if e is None or (keep is not None and e not in keep):
                continue
            others = tuple(s for s in m.sides if s is not None and s != e)
            row = {"round": m.round, "pool": m.pool, "table": m.table, "entrant": int(e),
                   "opponent": others[0] if others else pd.NA, "opponents": others,
                   "side": i, "match_points": r.points[i], "outcome": r.outcome[i],
                   "complete": r.outcome[i] != "VOID"}
            for k, vals in r.values.items():
                row[k] = vals[i]
            rows.append(row)
    cols = ["round", "pool", "table", "entrant", "opponent", "opponents", "side",
            "match_points", "outcome", "complete"]
    df = pd.DataFrame(rows)
    if df.empty:
        df = pd.DataFrame(columns=cols)
    df["opponent"] = df["opponent"].astype("Int64")
    return df


# ------------------------------------------------------------------------------ annulment

def annul_entrant(results: Iterable[MatchResult], entrant: int, *, note_zh: str = "",
                  note_en: str = "") -> list[MatchResult]:
    """Every match of ``entrant`` made VOID for both sides (points 0, ``complete`` False in
    :func:`entrant_rows`), so it counts for nobody: a forfeiting gouji team (青岛够级 九 第一条2:
    "弃权方成绩为0，则该队所有成绩均为无效"), or a withdrawal whose results the 规程 cancels
    (退赛, 十（十）"取消比赛资格及全部比赛成绩"). Other matches are returned unchanged; order is kept.
    """
    out = []
    zh = note_zh or f"{entrant}号成绩全部无效"
    en = note_en or f"all results of {entrant} annulled"
    for r in results:
        if entrant in r.match.sides:
            n = len(r.match.sides)
            out.append(MatchResult(match=r.match, points=tuple(Decimal(0) for _ in range(n)),
                                   outcome=tuple("VOID" for _ in range(n)),
                                   values={k: tuple(None for _ in v) for k, v in r.values.items()},
                                   note_zh=zh, note_en=en))
        else:
            out.append(r)
    return out
