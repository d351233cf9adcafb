"""Double-elimination pools (分组双败淘汰) as a format of the competition core (CBSA
十六（二）2(2); see :mod:`bianpai.engines.elimination` for the sources)."""

from __future__ import annotations

from typing import Literal

import pandas as pd
from pydantic import Field, model_validator

from bianpai.engines.bracket_base import _Bracket, _placings_frame
from bianpai.engines.bracket_structure import UNKNOWN, Node, double_elimination_nodes
from bianpai.engines.core import StageState, register_format
from bianpai.engines.errors import RuleError



# ============================================================================ double elimination

class DoubleEliminationGroups(_Bracket):
    """Double-elimination pools (分组双败淘汰) of ``pool_size`` (8) with winners' side (胜部) and
    losers' side (败部); a pool may be short (empty slots are byes). A player is out after
    exactly two losses.

    ``qualify`` K per pool (CBSA 十六（二）2(2) "每8人一组…每组各晋级4人": K/2 from each side —
    WB1, WB2 → the two 2–0 players; LB1 (the WB1 losers), LB2 (LB1 winners v WB2 losers) → the
    two 2–1 players; corpus ``double-elim-8-group-4-qualify``). ``qualify=None`` plays the whole
    bracket with ``grand_final`` ``none``/``simple``/``double`` (reset only when the LB winner
    wins GF1). Entrants with a ``seed`` take local seed numbers 1, 2 … of their pool (CBSA: the
    pool's seed on 1号位), the rest are drawn (``seeding="standard"``) or all drawn
    (``"drawn"``). ``loser_orderings``: WB-loser orderings into the LB (default brackets-manager).

    Placings: qualifiers with ``bracket_side`` ``"winners"`` (place 1 shared) or ``"losers"``
    (place K/2+1 shared); the rest by the stage round of their second loss.
    """

    kind: Literal["double_elimination"] = "double_elimination"
    pool_size: int = Field(8, ge=4, le=1024, description="每组签位数")
    qualify: int | None = Field(4, description="每组晋级人数（胜部、败部各半）")
    grand_final: Literal["none", "simple", "double"] = "none"
    seeding: Literal["standard", "drawn"] = "standard"
    loser_orderings: list[str] | None = None

    @model_validator(mode="after")
    def _check(self) -> "DoubleEliminationGroups":
        if self.loser_order == "playoffs":
            raise RuleError("双败淘汰不设排位附加赛（loser_order: playoffs 只用于单败淘汰）",
                            "double elimination has no place play-offs (single elimination only)")
        double_elimination_nodes(self.pool_size, qualify=self.qualify,
                                 grand_final=self.grand_final,
                                 loser_orderings=self.loser_orderings)
        return self

    def _pool_nodes(self, n: int, pool: str | None = None) -> list[Node]:
        if n > self.pool_size:
            raise RuleError(f"小组 {n} 人多于签位 {self.pool_size}",
                            f"a pool of {n} exceeds {self.pool_size} slots")
        return double_elimination_nodes(self.pool_size, qualify=self.qualify,
                                        grand_final=self.grand_final,
                                        loser_orderings=self.loser_orderings)

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places per pool. Columns as :meth:`SingleElimination.placings`; ``bracket_side`` is
        ``"winners"`` (胜部) or ``"losers"`` (败部) for the qualifiers (the next stage seeds them
        differently: CBSA 十六（三）2(2)), ``None`` for the others."""
        rows: list[dict] = []
        for pool in state.pools():
            res = self.resolution(state, pool)
            top: list[dict] = []
            nodes = res.nodes
            wb_last = max(r.node.bracket_round for r in nodes.values() if r.node.part == "WB")
            lb_last = max((r.node.bracket_round for r in nodes.values() if r.node.part == "LB"),
                          default=0)
            fin = all(r.status not in ("ready", "pending") for r in nodes.values())

            def side_row(x, place, why, side):
                return {"entrant": x, "pool": pool, "place": place, "decided_by": why,
                        "eliminated_round": pd.NA, "bracket_side": side,
                        "losses": res.losses.get(x, 0)}
            if "GF1" in nodes:
                gf = nodes["GF2"] if "GF2" in nodes and nodes["GF2"].status != "skipped" \
                    else nodes["GF1"]
                if gf.status in ("done", "bye") and fin:
                    top.append(side_row(gf.winner, 1, "总决赛胜", None))
                    if gf.loser not in (None, UNKNOWN):
                        top.append(side_row(gf.loser, 2, "总决赛负", None))
            else:
                half = (self.qualify or 2) // 2
                for r in nodes.values():
                    if r.node.part == "WB" and r.node.bracket_round == wb_last \
                            and r.winner not in (None, UNKNOWN):
                        top.append(side_row(r.winner, 1, "胜部出线" if self.qualify else "胜部冠军",
                                            "winners"))
                    if r.node.part == "LB" and r.node.bracket_round == lb_last \
                            and r.winner not in (None, UNKNOWN):
                        top.append(side_row(r.winner, half + 1,
                                            "败部出线" if self.qualify else "败部冠军", "losers"))
            placed = {row["entrant"] for row in top}
            alive = [e.number for e in state.pool_entrants(pool)
                     if e.number not in res.eliminated and e.number not in placed]
            for x in sorted(alive):
                top.append(side_row(x, 1, "未出局", None))
            rows.extend(self._place_eliminated(res, alive, top, pool))
        return _placings_frame(rows)


register_format(DoubleEliminationGroups, "双败淘汰", "分组双败淘汰", "double elimination")
