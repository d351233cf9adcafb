"""Places 1–8 of a single-elimination bracket: an order for the losers of each round.

The money table of the otog pairs events pays places 1–8 (总规程 九（二）1.); a knockout only
decides 1 and 2, so the losers of each earlier round need an order: shared (equal split),
play-offs, or the points scored in the lost match — a 规程 setting (:class:`KnockoutLoserOrder`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Iterable, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict

from bianpai.engines.core import MatchResult, NotReady, Reason
from bianpai.engines.errors import RuleError
from bianpai.engines.rounding import to_decimal

__all__ = ["order_knockout_losers", "KnockoutLoserOrder"]


def order_knockout_losers(results: Iterable[MatchResult], *,
                          method: Literal["shared", "playoffs", "points"] = "shared",
                          playoffs: Iterable[MatchResult] = (),
                          value: str = "game_points") -> pd.DataFrame:
    """Places of a single-elimination bracket, with an order for each round's losers.

    ``results``: the main-bracket results (byes allowed; no 3rd-place or play-off matches),
    rounds numbered from 1 with the final the last round. Places: the final's winner 1, its
    loser 2; the losers of the round before the final share the block 3–4, those of the round
    before 5–8, and so on. ``method`` orders each block (the 规程 pays places 1–8: otog 九（二）
    录取名次 1.; it does not say how losers are placed):

    * ``shared``: one shared place per block (3, 5, 9 …); the prize engine splits the pooled
      money equally;
    * ``points``: by ``values[value]`` of the loser in its lost match, higher first (equal
      values share the place);
    * ``playoffs``: by the play-off matches among the block (``playoffs``: their results; round
      numbers order them): the winners of a block's first play-off round take the upper half,
      the losers the lower half, recursively (a 3rd-place match, a 5–8 mini-bracket …).

    Returns columns ``entrant`` (int), ``place`` (int), ``decided_by`` (str, Chinese). Raises
    ``NotReady`` when the final or a needed play-off has no result, ``RuleError`` for an
    unknown method.
    """
    results = [r for r in results]
    if method not in ("shared", "playoffs", "points"):
        raise RuleError(f"未知的名次排序方法：{method}", f"unknown loser ordering method: {method}")
    if not results:
        raise NotReady([Reason("no_results", "淘汰赛尚无成绩", "no knockout results yet")])
    final_round = max(r.match.round for r in results)
    finals = [r for r in results if r.match.round == final_round and not r.match.is_bye]
    if len(finals) != 1 or finals[0].winner is None:
        raise NotReady([Reason("no_final", "决赛尚无结果", "the final has no result yet")])
    rows = [{"entrant": finals[0].winner, "place": 1, "decided_by": "冠军"},
            {"entrant": finals[0].loser, "place": 2, "decided_by": "决赛负"}]
    po = sorted(playoffs, key=lambda r: (r.match.round, r.match.table))
    place = 3
    for rnd in range(final_round - 1, 0, -1):
        losers = [(r.loser, r) for r in results if r.match.round == rnd and r.loser is not None]
        if not losers:
            continue
        label = f"第{rnd}轮负"
        block = [e for e, _ in losers]
        if method == "shared":
            rows += [{"entrant": e, "place": place, "decided_by": f"{label}，名次并列"} for e in block]
        elif method == "points":
            def val(r: MatchResult, e: int):
                i = r.match.sides.index(e)
                v = r.values.get(value, r.points)[i]
                return to_decimal(v) if v is not None else Decimal("-Infinity")
            vals = {e: val(r, e) for e, r in losers}
            ordered = sorted(block, key=lambda e: vals[e], reverse=True)
            for i, e in enumerate(ordered):
                first = next(j for j, x in enumerate(ordered) if vals[x] == vals[e])
                rows.append({"entrant": e, "place": place + first,
                             "decided_by": f"{label}，按负场得分 {vals[e]}"})
        else:
            for e, p in _ladder(block, po, place, label):
                rows.append({"entrant": e, "place": p, "decided_by": f"{label}，附加赛"})
        place += len(block)
    return pd.DataFrame(rows, columns=["entrant", "place", "decided_by"])


class KnockoutLoserOrder(BaseModel):
    """规程 setting: how the losers of one knockout round are placed (for the money table of
    places 1–8, otog 九（二） and 九 录取名次 1.). ``method``: ``shared`` (default; equal split of
    the pooled prizes), ``playoffs`` or ``points`` (``value`` of the lost match: ``game_points``
    for 掼蛋, ``deal_points`` for 争上游). See :func:`order_knockout_losers`."""

    model_config = ConfigDict(extra="forbid")

    method: Literal["shared", "playoffs", "points"] = "shared"
    value: str = "game_points"
    clause: str | None = "单项规程 九（二）；总规程 九（二）1."
    note: str | None = "规程只写单淘汰、取前8名，未写同轮负者如何排序：默认名次并列、奖金平分（读法）"

    def places(self, results: Iterable[MatchResult], playoffs: Iterable[MatchResult] = ()
               ) -> pd.DataFrame:
        """:func:`order_knockout_losers` with these settings."""
        return order_knockout_losers(results, method=self.method, playoffs=playoffs,
                                     value=self.value)


def _ladder(block: list[int], playoffs: list[MatchResult], first_place: int, label: str
            ) -> list[tuple[int, int]]:
    """Places of ``block`` from play-off results: the earliest play-off round with matches
    inside the block splits it into winners (upper) and losers (lower), recursively."""
    if len(block) == 1:
        return [(block[0], first_place)]
    bset = set(block)
    inside = [r for r in playoffs if set(r.match.entrants) <= bset and len(r.match.entrants) == 2]
    if not inside:
        raise NotReady([Reason("playoff_missing",
                               f"{label}的第{first_place}–{first_place + len(block) - 1}名附加赛尚无结果",
                               f"the play-off for places {first_place}-"
                               f"{first_place + len(block) - 1} has no result")])
    rnd = min(r.match.round for r in inside)
    ms = [r for r in inside if r.match.round == rnd]
    winners = [r.winner for r in ms if r.winner is not None]
    losers = [r.loser for r in ms if r.loser is not None]
    covered = set(winners) | set(losers)
    if covered != bset or len(winners) != len(losers):
        raise NotReady([Reason("playoff_incomplete",
                               f"{label}的附加赛未覆盖全部负者", f"the play-off round does not "
                               f"cover every loser of the block")])
    rest = [r for r in playoffs if r.match.round > rnd]
    return (_ladder(winners, rest, first_place, label)
            + _ladder(losers, rest, first_place + len(winners), label))
