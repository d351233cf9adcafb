"""积分编排 (team Swiss, "高分对高分") as a competition-core :class:`~bianpai.engines.core.Format`.

The pairing itself is :func:`bianpai.engines.swiss.swiss_pairings` (top-down, no rematch, one bye
per team, round 1 by number with same-unit teams first); this module only turns a
:class:`~bianpai.engines.core.StageState` into its inputs, exactly as the bridge team pipeline
always did, so the pairings are the same:

* a team's total before round ``r`` = its carry-over (带分) + the match points (VP after fines,
  bye VP included) of the rounds before ``r``; ties by its previous-stage place
  (:attr:`StageEntrant.seed`), then by number;
* entrants joining later (:attr:`StageEntrant.join_round`, e.g. the quarter-final losers at round
  3 of the consolation Swiss) are paired from their round on;
* ``rematch: never`` also keeps apart the teams that met in an earlier stage, and
  ``bye_limit: per_event`` counts a bye of an earlier stage: both read
  :attr:`StageState.prior` (the group's other stages' matches).

Sources: Fujian 2024 桥牌 五、六（一）–（四）; Otog 2024 单项竞赛规则 四、桥牌; DESIGN.md (Swiss).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import Match, NotReady, Reason, StageState, register_format
from bianpai.engines.errors import RuleError
from bianpai.engines.swiss import SwissEntrant, swiss_pairings
from bianpai.engines.typed_rows import place_of

__all__ = ["TeamSwiss", "swiss_totals"]


def swiss_totals(state: StageState, before_round: int) -> dict[int, Decimal]:
    """Each entrant's total for pairing round ``before_round``: carry-over (Decimal) + the
    match points of its complete matches (byes included) of the rounds before it."""
    out = {e.number: Decimal(e.carry) for e in state.entrants}
    for r in state.results.values():
        if r.match.round >= before_round:
            continue
        for side, pts in zip(r.match.sides, r.points):
            if side is not None and side in out:
                out[side] += Decimal(pts)
    return out


class TeamSwiss(BaseModel):
    """积分编排 of a team stage (kind ``swiss``); see :mod:`bianpai.engines.swiss`.

    ``round1``: ``by_number`` (1–2, 3–4 … with same-unit teams first when ``same_unit_first``)
    or ``by_score`` (every round 高分对高分, e.g. a consolation Swiss whose round 1 is ordered by
    the carried VP). ``rematch``: ``not_within_stage`` (opponents of earlier stages may meet
    again) or ``never``. ``numbers``: how a team's pairing number / order tie is given: ``lot``
    (seeded draw) or ``previous_stage_rank``. ``bye_vp``: VP of a bye (the stage's scoring
    reads it). ``bye_limit``: one bye per team ``per_stage`` or ``per_event``.
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["swiss"] = "swiss"
    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("主队", "Home"), ("客队", "Away"))
    #: its events run the competition core's commands (issue 8)
    runs_on_core: ClassVar[bool] = True
    #: a later stage's entrants are ordered on equal totals by their source place (晋级 来源名次),
    #: not by their new numbers: read by the core when it builds the stage's entrants
    seed_from: ClassVar[str] = "from_place"

    rounds: int = Field(ge=1)
    boards_per_round: int = Field(ge=1)
    round1: Literal["by_number", "by_score"] = "by_number"
    same_unit_first: bool = True
    bye_vp: Decimal = Decimal("12")
    rematch: Literal["not_within_stage", "never"] = "not_within_stage"
    # at most one bye per team: within this stage (DESIGN, CBA practice) or over the whole event
    bye_limit: Literal["per_stage", "per_event"] = "per_stage"
    numbers: Literal["lot", "previous_stage_rank"] = "lot"
    clause: str | None = None
    note: str | None = None

    @property
    def reads_prior_stages(self) -> bool:
        """True when pairing needs the group's other stages (:attr:`StageState.prior`)."""
        return self.rematch == "never" or self.bye_limit == "per_event"

    # -- Format interface
    def total_rounds(self, state: StageState) -> int:
        return self.rounds

    def finished(self, state: StageState) -> bool:
        return state.rounds_drawn() >= self.rounds and not state.missing()

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places from ``state.standings[None]`` (rank order); without standings, by total
        (carry-over + match points), then previous-stage place, then number. Columns
        ``entrant``, ``pool`` (None), ``place``, ``decided_by``."""
        st = state.standings.get(None)
        if st is not None and len(st):
            pairs = [(int(e), int(r)) for e, r in zip(st["entrant"], st["rank"])
                     if place_of(r) is not None]  # no place: results annulled
        else:
            tot = swiss_totals(state, state.rounds_drawn() + 1)
            order = sorted(state.entrants, key=lambda e: (-tot[e.number], e.seed is None,
                                                          e.seed or 0, e.number))
            pairs = [(e.number, i + 1) for i, e in enumerate(order)]
        return pd.DataFrame([{"entrant": e, "pool": None, "place": p, "decided_by": "积分编排排名"}
                             for e, p in pairs], columns=["entrant", "pool", "place", "decided_by"])

    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The next round's matches (table 1 = top; a bye last, ``sides=(team, None)``).
        Raises :class:`NotReady` while the previous round lacks results, ``RuleError`` when
        every round is drawn or no rematch-free pairing exists."""
        rnd = state.rounds_drawn() + 1
        if rnd > self.rounds:
            raise RuleError(f"积分编排共{self.rounds}轮，已全部编排", f"all {self.rounds} rounds drawn")
        missing = state.missing(rnd - 1) if rnd > 1 else []
        if missing:
            raise NotReady([Reason("missing_results",
                                   f"第{rnd - 1}轮尚有 {len(missing)} 桌未录入成绩",
                                   f"{len(missing)} table(s) of round {rnd - 1} have no result")])
        frame = self.pair(state, rnd)
        out = []
        for t, h, a in zip(frame["table"], frame["home"], frame["away"]):
            out.append(Match(round=rnd, table=int(t),
                             sides=(int(h), None if pd.isna(a) else int(a))))
        return out

    def pair(self, state: StageState, rnd: int) -> pd.DataFrame:
        """Round ``rnd`` as :func:`~bianpai.engines.swiss.swiss_pairings` gives it: ``table``,
        ``home``, ``away`` (Int64, NA = bye)."""
        ents = [e for e in state.entrants if e.join_round <= rnd
                and (e.withdrawn_after is None or e.withdrawn_after >= rnd)]
        total = swiss_totals(state, rnd)
        before = [m for m in state.matches if m.round < rnd]
        met = {frozenset(m.entrants) for m in before if not m.is_bye}
        byes = {m.entrants[0] for m in before if m.is_bye and m.entrants}
        prior = list(getattr(state, "prior", []) or [])
        if self.rematch == "never":
            met |= {frozenset(m.entrants) for m in prior if not m.is_bye and len(m.entrants) == 2}
        if self.bye_limit == "per_event":
            byes |= {m.entrants[0] for m in prior if m.is_bye and m.entrants}
        es = [SwissEntrant(team=e.number, unit=e.unit, total=total[e.number], prev_rank=e.seed,
                           had_bye=e.number in byes) for e in ents]
        by_number = rnd == 1 and self.round1 == "by_number"
        return swiss_pairings(es, met, rnd, by_number=by_number,
                              same_unit_first=self.same_unit_first)


register_format(TeamSwiss, "积分编排赛", "团体积分编排")
