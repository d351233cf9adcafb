"""Bridge team scorings as competition-core :class:`~bianpai.engines.core.Scoring` models.

* :class:`BridgeTeamsVp` (``bridge_teams_vp``): a Swiss/round-robin match scored in VP. The
  arbiter types the IMPs each team scored (成绩: 主队IMP, 客队IMP) or the open- and closed-room
  North-South score of every board (逐副成绩: 开室南北得分, 闭室南北得分; Law 78B IMPs per board);
  when both are typed they must agree. IMPs → VP on the WBF 2013 continuous 20-VP scale for the
  stage's boards (:func:`bianpai.engines.bridge.vp`); fines (罚分, positive VP) are deducted after
  the conversion and may take a match below 0.
* :class:`BridgeKnockoutImps` (``bridge_ko_imps``): a knockout match decided on total IMPs, typed
  the same two ways; equal IMPs are a draw here, settled by the knockout format's tie-breaks.

The entry columns carry the bridge team sheets' own headers, so existing workbooks read as they
are. Each scoring reads two settings of its stage's format (boards per round or per knockout
match; the bye VP) through :meth:`bind_format`, called by the stage model.

Sources: Fujian 2024 桥牌 五、四, 八（一）, 十一; Law 78B (IMP scale); WBF 2013 VP scale.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from bianpai.engines.bridge import match_imps, vp
from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import (EntryColumn, Match, MatchResult, TypedMatch, is_blank,
                                  register_scoring)
from bianpai.engines.errors import InputError
from bianpai.engines.rounding import q2, to_decimal

__all__ = ["FineRule", "BridgeTeamsVp", "BridgeKnockoutImps", "typed_imps"]

BOARD_COLUMNS = (EntryColumn("open_ns", "开室南北得分", "Open NS score", "int", width=12),
                 EntryColumn("closed_ns", "闭室南北得分", "Closed NS score", "int", width=12))
IMP_COLUMNS = (EntryColumn("home_imps", "{side}IMP", "{side} IMPs", "int", width=9, side=0),
               EntryColumn("away_imps", "{side}IMP", "{side} IMPs", "int", width=9, side=1))


class FineRule(BaseModel):
    """A VP fine of the 规程 (e.g. 吸烟扣罚2VP); ``vp`` fixed, or ``vp_min``–``vp_max``."""

    model_config = ConfigDict(extra="forbid")

    name_zh: str
    name_en: str = ""
    vp: Decimal | None = None
    vp_min: Decimal | None = None
    vp_max: Decimal | None = None
    clause: str | None = None


def _int_or_none(v) -> int | None:
    return None if is_blank(v) else int(to_decimal(v))


def typed_imps(typed: TypedMatch, *, boards: int, imp_entry: str) -> tuple[int, int] | None:
    """The match's IMPs ``(home, away)`` from what was typed, as the bridge sheets read them:
    every one of ``boards`` boards typed (both rooms) → Law 78B IMPs per board; else both
    per-match IMP cells → those. ``None`` when neither is complete. Raises ``InputError`` for
    board scores that are not multiples of 10, negative or half-typed IMPs, and per-match IMPs
    that differ from the boards' (naming the 主队IMP cell)."""
    from_boards = None
    recs = typed.game_records() if imp_entry != "per_match" else []
    if recs:
        done = []
        for rec in recs:
            o, c = _int_or_none(rec.get("open_ns")), _int_or_none(rec.get("closed_ns"))
            bad = [v for v in (o, c) if v is not None and v % 10]
            if bad:
                raise InputError("桥牌得分应为10的倍数", "bridge scores are multiples of 10")
            if o is not None and c is not None:
                done.append((rec.get("game"), o, c))
        if len(done) == boards:
            from_boards = match_imps((o, c) for _g, o, c in sorted(done, key=lambda x: x[0]))
    tot = None
    if imp_entry != "per_board":
        hi = _int_or_none(typed.totals.get("home_imps"))
        ai = _int_or_none(typed.totals.get("away_imps"))
        if hi is not None or ai is not None:
            if hi is None or ai is None:
                raise InputError("须同时填写主队IMP与客队IMP", "enter both the home and the away IMPs")
            if hi < 0 or ai < 0:
                raise InputError("IMP为各队所得IMP，不能为负数",
                                 "IMPs are those each team scored and cannot be negative")
            tot = (hi, ai)
    if from_boards is not None and tot is not None and from_boards != tot:
        err = InputError(f"与逐副成绩换算的IMP（{from_boards[0]} : {from_boards[1]}）不一致",
                         f"differs from the IMPs computed from the board results "
                         f"({from_boards[0]} : {from_boards[1]})")
        cell = typed.cells.get("home_imps")
        if cell:
            err.sheet, _, err.cell = cell.partition("!")
        raise err
    return from_boards if from_boards is not None else tot


class _BridgeImps(BaseModel, ScoringDefaults):
    """What both bridge team scorings share: entry columns, IMPs from the typed rows."""

    model_config = ConfigDict(extra="forbid")

    # each scoring declares ``imp_entry`` itself (its field order is the 规程 sheet's row order)
    #: its events run the competition core's commands (issue 8)
    runs_on_core: ClassVar[bool] = True
    #: IMPs typed per match and the boards may both be typed: they must agree (:func:`typed_imps`)
    totals_with_games: ClassVar[bool] = True
    _boards: int = PrivateAttr(16)
    _bye_vp: Decimal = PrivateAttr(Decimal("12"))

    def bind_format(self, fmt) -> None:
        """Read the stage format's boards (``boards_per_round``, or a knockout's ``boards``)
        and bye VP (``bye_vp``); a scoring's own ``boards`` wins."""
        own = getattr(self, "boards", None)
        self._boards = int(own or getattr(fmt, "boards_per_round", None)
                           or getattr(fmt, "boards", None) or 16)
        self._bye_vp = q2(getattr(fmt, "bye_vp", Decimal("12")))

    @property
    def stage_boards(self) -> int:
        return self._boards

    @property
    def games_per_match(self) -> int:
        return 0 if self.imp_entry == "per_match" else self._boards

    def entry_game_columns(self) -> list[EntryColumn]:
        return [] if self.imp_entry == "per_match" else list(BOARD_COLUMNS)

    def entry_match_columns(self) -> list[EntryColumn]:
        return [] if self.imp_entry == "per_board" else list(IMP_COLUMNS)

    def entry_decisions(self) -> list[str]:
        return []

    def imps(self, typed: TypedMatch) -> tuple[int, int] | None:
        return typed_imps(typed, boards=self._boards, imp_entry=self.imp_entry)

    def is_complete(self, typed: TypedMatch) -> bool:
        try:
            return self.imps(typed) is not None
        except InputError:
            return True  # complete enough to be scored, and refused there

    def problems(self, match: Match, typed: TypedMatch) -> list:
        try:
            self.imps(typed)
        except InputError as exc:
            return [exc]
        return []

    def typed_problems(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                       ) -> list[InputError]:
        """Errors in what was typed, each at its cell, listed with the reading errors: a board
        score that is not a multiple of 10 (its 逐副成绩 cell), IMPs typed for one team only (the
        blank one's 成绩 cell)."""
        out: list[InputError] = []
        for m in matches:
            t = typed.get(m.key)
            if t is None or m.is_bye:
                continue
            for rec in t.game_records():
                for k in ("open_ns", "closed_ns"):
                    v = rec.get(k)
                    if not is_blank(v) and isinstance(v, (int, float, Decimal)) and v % 10:
                        err = InputError("桥牌得分应为10的倍数", "bridge scores are multiples of 10")
                        err.row, err.column = rec.get("_row"), k  # type: ignore[attr-defined]
                        out.append(err)
                        break
            got = {k: not is_blank(t.totals.get(k)) for k in ("home_imps", "away_imps")}
            if any(got.values()) and not all(got.values()):
                blank = next(k for k, v in got.items() if not v)
                err = InputError("须同时填写主队IMP与客队IMP", "enter both the home and the away IMPs")
                if t.cells.get(blank):
                    err.sheet, _, err.cell = t.cells[blank].partition("!")
                out.append(err)
        return out

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """Board rows: open/closed-room NS scores, the stronger side gaining more swings."""
        out = []
        for g in range(1, games + 1):
            par = rng.choice([1, -1]) * rng.choice([110, 140, 420, 620, 1430])
            edge = strengths[0] - strengths[1]
            o = par + (rng.choice([0, 30, 100, 500]) if rng.random() < 0.5 + edge / 4 else 0)
            c = par - (rng.choice([0, 30, 100, 500]) if rng.random() < 0.5 - edge / 4 else 0)
            out.append({"game": g, "open_ns": o, "closed_ns": c})
        return out


class BridgeTeamsVp(_BridgeImps):
    """Bridge teams scored in VP (kind ``bridge_teams_vp``): IMPs per match (or from per-board
    scores, Law 78B) converted on ``scale`` for ``boards`` boards (None: the format's boards per
    round); fines in VP (``TypedMatch.penalties``) are deducted after the conversion and may
    take a total below 0. A bye scores the format's ``bye_vp``; a forfeit gives the other side
    the bye VP and the forfeiting side 0 (WBF practice; the 规程 are silent).

    ``MatchResult.values``: ``vp`` (VP before fines), ``fines``, ``imps_won``, ``imps_lost`` per
    side, for the ``vp`` / ``h2h_vp`` / ``imp_quotient`` criteria."""

    kind: Literal["bridge_teams_vp"] = "bridge_teams_vp"
    scale: Literal["wbf2013_20vp"] = "wbf2013_20vp"
    boards: int | None = Field(None, ge=1)
    imp_entry: Literal["per_match", "per_board", "either"] = "either"
    fines: list[FineRule] = Field(default_factory=list)
    clause: str | None = None
    note: str | None = None

    scope: ClassVar[str] = "match"

    def penalty_for(self, reason: str | None, value: Decimal | None) -> Decimal:
        """The VP a 罚分 row deducts (福建 十一（一）"赛场内吸烟…扣罚2VP"): the typed ``value``,
        or — blank — the fixed VP of the 规程's fine named ``reason``. Raises ``InputError``
        (``column`` ``reason`` or ``points``) for a reason that is not one of the 规程's fines,
        a blank amount without a fixed fine, or an amount outside the fine's range."""
        rules = {f.name_zh: f for f in self.fines}
        rules.update({f.name_en: f for f in self.fines if f.name_en})
        rule = rules.get(reason) if reason else None
        if reason and rule is None and rules:
            err = InputError(f"原因应为以下之一：{'、'.join(f.name_zh for f in self.fines)}"
                             f"，或留空并填写罚分（VP）",
                             "reason must be one of the 规程's fines, or empty with the VP typed")
            err.column = "reason"
            raise err
        if value is None:
            if rule is None or rule.vp is None:
                err = InputError("须填写罚分（扣除的VP）", "enter the VP fined")
                err.column = "points"
                raise err
            value = rule.vp
        if rule is not None and rule.vp_min is not None and value > 0 and not (
                rule.vp_min <= value <= (rule.vp_max or value)):
            err = InputError(f"“{rule.name_zh}”扣罚{rule.vp_min}–{rule.vp_max}VP，实际填写{value}",
                             f"{rule.name_en or rule.name_zh} is {rule.vp_min}–{rule.vp_max} VP; "
                             f"got {value}")
            err.column = "points"
            raise err
        return value

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        imps = self.imps(typed)
        if imps is None:
            raise InputError("本场成绩不完整", "this match's result is incomplete")
        hi, ai = imps
        hv, av = vp(hi - ai, self._boards)
        fines = [Decimal(0), Decimal(0)]
        for side, _kind, value in typed.penalties:
            fines[side] += to_decimal(value)
        fines = [q2(f) for f in fines]
        pts = (q2(hv - fines[0]), q2(av - fines[1]))
        out = ("W", "L") if hv > av else ("L", "W") if hv < av else ("D", "D")
        return MatchResult(match=match, points=pts, outcome=out,
                           values={"vp": (hv, av), "fines": tuple(fines),
                                   "imps_won": (hi, ai), "imps_lost": (ai, hi)})

    def bye(self, match: Match) -> MatchResult:
        pts = tuple(self._bye_vp if s is not None else Decimal(0) for s in match.sides)
        none = tuple(None if s is None else 0 for s in match.sides)
        return MatchResult(match=match, points=pts,
                           outcome=tuple("BYE" if s is not None else "L" for s in match.sides),
                           values={"vp": tuple(self._bye_vp if s is not None else None
                                               for s in match.sides),
                                   "fines": none, "imps_won": none, "imps_lost": none})

    def forfeit(self, match: Match, side: int) -> MatchResult:
        pts = tuple(Decimal(0) if i == side else self._bye_vp for i in range(len(match.sides)))
        zero = tuple(0 for _ in match.sides)
        return MatchResult(match=match, points=pts,
                           outcome=tuple("FL" if i == side else "FW"
                                         for i in range(len(match.sides))),
                           values={"vp": pts, "fines": tuple(Decimal(0) for _ in pts),
                                   "imps_won": zero, "imps_lost": zero},
                           note_zh=f"{match.sides[side]}号弃权", note_en="forfeit")


class BridgeKnockoutImps(_BridgeImps):
    """A knockout match decided on total IMPs, typed per match or per board (kind
    ``bridge_ko_imps``). ``points`` are the IMPs; equal IMPs are a draw (``D``) for the
    knockout format's tie-breaks (stage place, extra boards) to settle."""

    kind: Literal["bridge_ko_imps"] = "bridge_ko_imps"
    imp_entry: Literal["per_match", "per_board", "either"] = "either"
    clause: str | None = None
    note: str | None = None

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        imps = self.imps(typed)
        if imps is None:
            raise InputError("本场成绩不完整", "this match's result is incomplete")
        hi, ai = imps
        out = ("W", "L") if hi > ai else ("L", "W") if hi < ai else ("D", "D")
        values = {"imps_won": (hi, ai), "imps_lost": (ai, hi)}
        # a tied match's extra boards (加赛), typed as their own row: for the ``extra_boards``
        # tie-break of the knockout format
        extra = tuple(_int_or_none(typed.totals.get(f"extra_{k}")) for k in ("home_imps", "away_imps"))
        if None not in extra:
            values["extra_imps"] = extra
        return MatchResult(match=match, points=(Decimal(hi), Decimal(ai)), outcome=out,
                           values=values)

    def bye(self, match: Match) -> MatchResult:
        return MatchResult(match=match, points=tuple(Decimal(0) for _ in match.sides),
                           outcome=tuple("BYE" if s is not None else "L" for s in match.sides))

    def forfeit(self, match: Match, side: int) -> MatchResult:
        return MatchResult(match=match, points=tuple(Decimal(0) for _ in match.sides),
                           outcome=tuple("FL" if i == side else "FW"
                                         for i in range(len(match.sides))),
                           note_zh=f"{match.sides[side]}号弃权", note_en="forfeit")


register_scoring(BridgeTeamsVp, "桥牌VP", "桥牌团体VP")
register_scoring(BridgeKnockoutImps, "桥牌淘汰IMP")
