"""The bridge teams' 8-team knockout (淘汰赛) as a competition-core
:class:`~bianpai.engines.core.Format`: quarter-finals 1v8, 4v5 (upper half), 2v7, 3v6 (lower
half) by the previous stage's places, semi-finals, final and 3rd-place match, each decided on
IMPs with the 规程's tie-breaks. The bracket itself is :func:`bianpai.engines.knockout.knockout8`;
this module turns a :class:`~bianpai.engines.core.StageState` into its inputs.

Entrants are seeded by :attr:`StageEntrant.seed` (their stage-1 place). Matches are labelled
``QF1``…``QF4`` (round 1, tables 1–4), ``SF1``/``SF2`` (round 2), ``F`` (round 3, table 1) and
``3RD`` (round 3, table 2). A result's IMPs are read from ``MatchResult.values["imps_won"]``;
a tied match's play-off IMPs (加赛) from ``values["extra_imps"]`` when the scoring gives them.

Sources: Fujian 2024 桥牌 五、第二阶段1, 六（四）2, 九（二）.
"""

from __future__ import annotations

import random
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import FORMATS, Match, NotReady, Reason, StageState
from bianpai.engines.errors import RuleError
from bianpai.engines.knockout import knockout8, knockout_places

__all__ = ["Knockout8", "KO_ROUND", "KO_TABLE", "KO_LAST_ROUND"]

#: the round of each match (by its label without the number) and its table within the round
KO_ROUND = {"QF": 1, "SF": 2, "F": 3, "3RD": 3}
KO_TABLE = {"QF1": 1, "QF2": 2, "QF3": 3, "QF4": 4, "SF1": 1, "SF2": 2, "F": 1, "3RD": 2}
KO_LAST_ROUND = 3


def ko_round(label: str) -> int:
    """The round (1 = quarter-finals) of a match label (``QF2`` → 1, ``3RD`` → 3)."""
    return KO_ROUND[label.rstrip("1234")]


def _undecided(recs: list[dict]) -> list[Reason]:
    """Why the matches ``recs`` (bracket rows) hold the next step: those without a winner, and
    among them the ones tied on IMPs (code ``tied``, their labels as ``cells``), which wait for
    the 规程's extra boards (加赛, 九（二）); a workbook style may say how to type them."""
    pending = [r["match"] for r in recs if pd.isna(r["winner"])]
    tied = tuple(r["match"] for r in recs if pd.isna(r["winner"]) and not pd.isna(r["home_imps"]))
    out = [Reason("undecided", f"淘汰赛以下场次尚无结果：{'、'.join(pending)}",
                  f"knockout matches without a result: {', '.join(pending)}")]
    if tied:
        out.append(Reason("tied", f"其中 {'、'.join(tied)} IMP相同，须按规程加赛",
                          f"{', '.join(tied)} tied on IMPs: play the extra boards", cells=tied))
    return out


class Knockout8(BaseModel):
    """淘汰赛 from earlier stage places (kind ``knockout``).

    ``bracket``: ``8`` = quarter-finals 1v8, 4v5 (upper half), 2v7, 3v6 (lower half),
    semi-finals, final and (``third_place``) 3rd-place match. ``boards`` per match in
    ``sessions`` sessions, decided on IMPs; ``tie_breaks``: names of
    ``bianpai.engines.knockout.KO_TIE_BREAKS`` tried in order when the IMPs are equal. ``home``:
    the better previous-stage place is the home team (open room North-South, same direction in
    every session). ``seat_choice``: the rule's text.
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["knockout"] = "knockout"
    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("主队", "Home"), ("客队", "Away"))
    #: registered in the core under its kind ``knockout`` (the authoring alias ``knockout`` of a
    #: 规程 typed by hand still names the core's single elimination); its events run the
    #: competition core's commands (issue 8)
    runs_on_core: ClassVar[bool] = True

    #: a later stage's entrants are seeded by their source place (晋级 来源名次: 1 v 8, 4 v 5 …
    #: whatever their new numbers), read by the core when it builds the stage's entrants
    seed_from: ClassVar[str] = "from_place"
    #: its 排名 rows are its placings (1–4 from the final and 3rd-place match, 5 for the
    #: quarter-final losers), not a table of match points
    ranks_by_placings: ClassVar[bool] = True

    bracket: Literal[8] = 8
    boards: int = Field(16, ge=1)
    sessions: int = Field(2, ge=1)
    third_place: bool = True
    tie_breaks: list[str] = Field(default_factory=lambda: ["stage_place"])
    home: Literal["better_stage_place"] = "better_stage_place"
    seat_choice: str = "第1节客队有座位选择权，第2节主队有座位选择权；无座位选择权的队先入座"
    clause: str | None = None
    note: str | None = None

    # -- the bracket
    def places(self, state: StageState) -> list[int]:
        """The entrants in seed order (stage-1 place 1 first)."""
        return [e.number for e in sorted(state.entrants, key=lambda e: (e.seed or 0, e.number))]

    def frame(self, state: StageState) -> pd.DataFrame:
        """The :func:`~bianpai.engines.knockout.knockout8` frame filled with the stage's
        results (by match label)."""
        res, extra = {}, {}
        for r in state.results.values():
            lab = r.match.label
            if lab is None or "imps_won" not in r.values:
                continue
            res[lab] = tuple(int(v) for v in r.values["imps_won"])
            if r.values.get("extra_imps") is not None and r.values["extra_imps"][0] is not None:
                extra[lab] = tuple(int(v) for v in r.values["extra_imps"])
        return knockout8(self.places(state), res, tie_chain=self.tie_breaks, extra_imps=extra)

    # -- Format interface
    def total_rounds(self, state: StageState) -> int:
        return KO_LAST_ROUND

    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The next round's matches once the current one is decided. Raises
        :class:`NotReady` naming the undecided matches, ``RuleError`` after the final."""
        if len(state.entrants) != 8:
            raise RuleError(f"淘汰赛需要8支队，实际{len(state.entrants)}支",
                            f"the knockout needs 8 teams; {len(state.entrants)} qualify")
        k = state.rounds_drawn()
        if k >= KO_LAST_ROUND:
            raise RuleError("淘汰赛各轮均已编排", "every knockout round is drawn")
        ko = self.frame(state)
        if k:
            recs = [r for r in ko.to_dict("records") if ko_round(r["match"]) == k]
            if any(pd.isna(r["winner"]) for r in recs):
                raise NotReady(_undecided(recs))
        out = []
        for r in ko.to_dict("records"):
            if ko_round(r["match"]) != k + 1 or pd.isna(r["home"]) or pd.isna(r["away"]):
                continue
            if r["match"] == "3RD" and not self.third_place:
                continue
            out.append(Match(round=k + 1, table=KO_TABLE[r["match"]],
                             sides=(int(r["home"]), int(r["away"])), label=r["match"]))
        return out

    def losers(self, state: StageState, of: str) -> list[int] | None:
        """The losers of the matches labelled ``of`` + a number (``QF`` → QF1…QF4; never the
        3rd-place match) in bracket order once every such match is decided, ``None`` while one
        is not (a progression rule's ``losers_of``, e.g. the quarter-final losers joining the
        consolation Swiss, 福建 八（二）). Raises ``NotReady`` naming the undecided matches when
        the round is drawn but not decided."""
        if state.rounds_drawn() < ko_round(of):
            return None
        ko = self.frame(state)
        recs = [r for r in ko.to_dict("records")
                if r["match"].rstrip("1234") == of and r["match"] != "3RD"]
        if any(pd.isna(r["winner"]) for r in recs):
            raise NotReady(_undecided(recs))
        return [int(r["loser"]) for r in recs]

    def finished(self, state: StageState) -> bool:
        if state.rounds_drawn() < KO_LAST_ROUND:
            return False
        return bool(self.frame(state)["winner"].notna().all())

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places 1–4 from the final and 3rd-place match; the quarter-final losers share place
        5 (their order is decided elsewhere, e.g. by the consolation standings). Columns
        ``entrant``, ``pool``, ``place``, ``decided_by``. Raises ``RuleError`` while undecided."""
        kp = knockout_places(self.frame(state))
        rows = [{"entrant": int(t), "pool": None, "place": 5 if pd.isna(p) else int(p),
                 "decided_by": "淘汰赛" if g == "1-4" else "1/4决赛负"}
                for t, p, g in zip(kp["team"], kp["place"], kp["group"])]
        return pd.DataFrame(rows, columns=["entrant", "pool", "place", "decided_by"])


# registered under its own kind only: ``knockout`` stays the authoring alias of single
# elimination in ``ALIASES`` (format_for), while a parsed stage of kind ``knockout`` is this model
FORMATS.setdefault("knockout", Knockout8)
