"""The common base of the bracket formats: settings (races, loser order), drawing the next
round from the resolution, placings of the eliminated."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, Field

from bianpai.engines.bracket_structure import (Node, Resolution, Resolved, _layout, _rng_key,
                                               resolve)
from bianpai.engines.core import Match, NotReady, Reason, StageState
from bianpai.engines.errors import RuleError



# ============================================================================ common base

class _Bracket(BaseModel):
    """Shared settings and machinery of the bracket formats."""

    #: frames to win per stage round (index 0 = round 1; the last value repeats)
    #: a list for every pool, or a mapping pool label → list (e.g. men's flights 9, women's 7)
    races: list[int] | dict[str, list[int]] | None = Field(
        default=None, description="每轮局数（几局胜），按轮次；可按小组分别设定")
    loser_order: Literal["shared", "frames", "playoffs"] = Field(
        "shared", description="同轮出局者名次：并列，按所负场次的得局数排序，或加赛排位（单败淘汰）")
    clause: str | None = None
    note: str | None = None

    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("甲方", "Player A"),
                                                          ("乙方", "Player B"))
    #: a bracket's results decide who goes on: annulling a forfeiting entrant's results (a
    #: scoring's stage rule, a withdrawal's 取消) must not take the walkover from its opponent
    annul_results: ClassVar[bool] = False

    # -- to be provided by subclasses
    def _pool_nodes(self, n: int, pool: str | None = None) -> list[Node]:  # pragma: no cover
        raise NotImplementedError

    def _races_of(self, pool) -> list[int] | None:
        """The ``races`` list of ``pool`` (a mapping is looked up by the pool label)."""
        if isinstance(self.races, dict):
            return self.races.get(str(pool)) if pool is not None else None
        return self.races

    def entry_prefill(self, match: Match, state: StageState) -> dict[str, Any]:
        """Values the draw writes into the match's 成绩 row: ``race`` (几局胜) when known."""
        race = self.race_for(match, state)
        return {"race": race} if race else {}

    def _seat_of(self, state: StageState, pool, rng=None) -> dict[int, int]:
        ents = state.pool_entrants(pool)
        mode = getattr(self, "seeding", "standard")
        return _layout(ents, mode, _rng_key(state, pool, "layout", rng))

    def resolution(self, state: StageState, pool: str | None = None,
                   rng: random.Random | None = None) -> Resolution:
        """The :class:`Resolution` of ``pool`` (pure; once per state and pool,
        :meth:`StageState.memo`: the passed ``rng`` never changes it, see ``_rng_key``)."""
        def compute():
            ents = state.pool_entrants(pool)
            return resolve(self._pool_nodes(len(ents), pool), ents, state.matches,
                           state.results, seat_of=self._seat_of(state, pool, rng), pool=pool)
        return state.memo(("resolution", id(self), pool), compute, keep=self)

    def _emit(self, res: Resolution, rnd: int, pool) -> list[Match]:
        real, byes = [], []
        for r in res.nodes.values():
            if r.node.round != rnd or r.match is not None:
                continue
            if r.status == "ready":
                real.append((r.node.id, tuple(r.sides)))
            elif r.status == "bye":
                byes.append((r.node.id, tuple(r.sides)))
        return [Match(rnd, t, sides, pool, label)
                for t, (label, sides) in enumerate(real + byes, start=1)]

    def _next_round_of(self, res: Resolution) -> int | None:
        """The smallest round with a node still to draw (ready/bye/pending, not drawn)."""
        todo = [r.node.round for r in res.nodes.values()
                if r.match is None and r.status in ("ready", "bye", "pending")]
        return min(todo) if todo else None

    # -- Format protocol
    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The next round's matches of every pool (drawn only when their feeders are decided).
        Raises :class:`NotReady` (missing results, a match without a winner) or ``RuleError``
        when every pool is finished."""
        reasons: list[Reason] = []
        plans = []
        for pool in state.pools():
            res = self.resolution(state, pool, rng)
            reasons.extend(res.problems)
            for nd, src, v in res.conflicts:  # a feeder's result changed after nd was drawn
                reasons.append(Reason(
                    "result_changed", f"{src.node.id} 的成绩与已编排的 {nd.id} 不符（{v}号未列入）",
                    f"the result of {src.node.id} disagrees with {nd.id} drawn from it ({v} "
                    f"is not in it)"))
            missing = [m for m in state.missing() if m.pool == pool]
            nxt = self._next_round_of(res)
            if nxt is None:
                continue
            pending = [r for r in res.nodes.values() if r.node.round == nxt and r.match is None
                       and r.status == "pending"]
            if missing or pending:
                for m in missing:
                    reasons.append(Reason(
                        "missing_result",
                        f"{'' if pool is None else f'{pool}组'}第{m.round}轮 {m.label or m.table} "
                        f"尚无成绩", f"{'' if pool is None else f'pool {pool} '}round {m.round} "
                        f"{m.label or m.table} has no result"))
                if not missing:
                    reasons.append(Reason("pending", "上一轮尚未决出全部胜者",
                                          "the previous round is not decided"))
                continue
            plans.append((pool, res, nxt))
        if reasons:
            raise NotReady(reasons)
        if not plans:
            raise RuleError("本阶段已全部结束", "the stage is finished")
        out: list[Match] = []
        for pool, res, nxt in plans:
            out.extend(self._emit(res, nxt, pool))
        return out

    def finished(self, state: StageState) -> bool:
        """True when every node of every pool is decided (done, bye, vanished or skipped; a bye
        needs no result, drawn or not)."""
        for pool in state.pools():
            res = self.resolution(state, pool)
            if any(r.status in ("ready", "pending") for r in res.nodes.values()):
                return False
        return True

    def total_rounds(self, state: StageState) -> int | None:
        """The last stage round of the largest pool's bracket."""
        rounds = [max((n.round for n in self._pool_nodes(len(state.pool_entrants(p)), p)),
                      default=0) for p in state.pools()]
        return max(rounds, default=0)

    def race_for(self, match: Match, state: StageState | None = None) -> int | None:
        """Frames to win in ``match`` (from ``races`` by round; ``None`` when not set)."""
        races = self._races_of(match.pool)
        if not races:
            return None
        return races[min(match.round, len(races)) - 1]

    def bracket_table(self, state: StageState) -> pd.DataFrame:
        """Every slot of the bracket with placeholders: see
        :func:`bianpai.engines.bracket_sheet.bracket_table`."""
        from bianpai.engines.bracket_sheet import bracket_table  # noqa: PLC0415 (it imports us)
        return bracket_table(state, self)

    # -- placings
    def _loser_key(self, r: Resolved, x: int):
        if self.loser_order != "frames" or r.result is None:
            return 0
        res = r.result
        i = list(res.match.sides).index(x)
        fw = res.values.get("frames_won")
        v = fw[i] if fw is not None else res.points[i]
        return -Decimal(str(v))

    def _place_eliminated(self, res: Resolution, alive: list[int], top: list[dict],
                          pool, *, vacant: int = 0) -> list[dict]:
        """Rows for the eliminated, after the ``top`` rows: later elimination ranks higher;
        within one stage round shared (or by frames in the lost match). ``vacant``: places
        left empty before them (a champion nobody won: both finalists withdrew)."""
        rows = list(top)
        placed = len(rows) + vacant
        by_round: dict[int, list[tuple[int, Resolved]]] = {}
        for x, r in res.eliminated.items():
            if any(row["entrant"] == x for row in top):
                continue
            by_round.setdefault(r.node.round, []).append((x, r))
        for rnd in sorted(by_round, reverse=True):
            group = sorted(by_round[rnd], key=lambda t: (self._loser_key(t[1], t[0]), t[0]))
            prev_key, prev_place = None, None
            for i, (x, r) in enumerate(group):
                key = self._loser_key(r, x)
                place = prev_place if key == prev_key else placed + i + 1
                prev_key, prev_place = key, place
                why = (f"第{rnd}轮退赛" if x in r.gone else f"第{rnd}轮负（{r.node.id}）")
                rows.append({"entrant": x, "pool": pool, "place": place, "decided_by": why,
                             "eliminated_round": rnd, "bracket_side": None,
                             "losses": res.losses.get(x, 0)})
            placed += len(group)
        return rows


def _placings_frame(rows: list[dict]) -> pd.DataFrame:
    cols = ["entrant", "pool", "place", "decided_by", "eliminated_round", "bracket_side", "losses"]
    df = pd.DataFrame(rows, columns=cols)
    df["entrant"] = df["entrant"].astype(int)
    df["place"] = df["place"].astype(int)
    df["eliminated_round"] = df["eliminated_round"].astype("Int64")
    df["losses"] = df["losses"].astype(int)
    df["bracket_side"] = df["bracket_side"].astype(object)
    df.loc[df["bracket_side"].isna(), "bracket_side"] = None
    return df.sort_values(["pool", "place", "entrant"], key=lambda s: s.astype(str)
                          if s.name == "pool" else s, kind="stable").reset_index(drop=True)
