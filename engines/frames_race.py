"""A race to N frames (几局胜), the scoring of cue-sports knockout matches, and the frame
criteria (胜局数, 负局数, 胜率, 连续清台). See :mod:`bianpai.engines.knockout_scoring` for the sources."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, Field, PrivateAttr

from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import EntryColumn, Match, MatchResult, TypedMatch, register_scoring
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.rounding import to_decimal
from bianpai.engines.standings import Criterion, register, sum_of

__all__ = ["FramesRace", "frame_rate"]

#: (settings, match, typed values, decision, penalties) → its result (see ``score_typed``)
_SCORED: dict = {}


def frame_rate(members, results: pd.DataFrame, ctx) -> dict:
    """Criterion function 胜率: frames won ÷ frames played over an entrant's complete matches
    (columns ``frames_won``, ``frames_lost`` of :func:`~bianpai.engines.core.entrant_rows`),
    a ``Decimal`` with 4 places half-up, ``None`` when no frame was played. CBSA 十六（三）2(2)."""
    r = results[results["complete"].astype(bool)] if "complete" in results.columns else results
    # one pass over the rows (a pool of a 512-player qualifier has thousands)
    sums = {k: {} for k in ("frames_won", "frames_lost")}
    for k, acc in sums.items():
        if k in r.columns:
            for e, v in zip(r["entrant"].tolist(), r[k].tolist()):
                if not pd.isna(v):
                    acc[e] = acc.get(e, Decimal(0)) + to_decimal(v)
    out: dict = {}
    for e in members:
        won = sums["frames_won"].get(e, Decimal(0))
        lost = sums["frames_lost"].get(e, Decimal(0))
        out[e] = (won / (won + lost)).quantize(Decimal("0.0001"), "ROUND_HALF_UP") \
            if won + lost else None
    return out


register(Criterion("frames_won", "胜局数", "frames won", sum_of("frames_won"), places=None))
register(Criterion("frames_lost", "负局数", "frames lost", sum_of("frames_lost"), places=None,
                   descending=False))
register(Criterion("frame_rate", "胜率", "frame win rate", frame_rate, places=4))
register(Criterion("clearances", "连续清台", "clearances", sum_of("clearances"), places=None))


def _int(v, what_zh: str, what_en: str) -> int:
    if v is None or (not isinstance(v, str) and pd.isna(v)):
        raise InputError(f"{what_zh}未填写", f"{what_en} is empty")
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise InputError(f"{what_zh}不是数字：{v}", f"{what_en} is not a number: {v}") from None
    if f != int(f) or f < 0:
        raise InputError(f"{what_zh}必须是非负整数：{v}", f"{what_en} must be a whole number ≥ 0: {v}")
    return int(f)


def _adjust_rows(adjustments: pd.DataFrame | None) -> list[tuple[int, str, object]]:
    if adjustments is None or not len(adjustments):
        return []
    out = []
    for r in adjustments.itertuples(index=False):
        side = _int(getattr(r, "side"), "调整的方位", "adjustment side")
        if side not in (0, 1):
            raise InputError(f"调整的方位必须是 0 或 1：{side}", f"adjustment side must be 0 or 1: {side}")
        out.append((side, str(getattr(r, "kind")).strip(), getattr(r, "value", None)))
    return out


class FramesRace(BaseModel, ScoringDefaults):
    """A race to N frames (几局胜): frames won per side are typed; the winner is the side that
    reached the race.

    ``games`` columns: ``frames_0``, ``frames_1`` (int ≥ 0: frames won by side 0/1; one row per
    session — rows are summed, CBSA 41局21胜 "分两个阶段"), optional ``race`` (int: frames to win in
    this match, filled by the command from the format's ``race_for``; it wins over ``race_to``).
    ``adjustments`` codes (``side`` = the side concerned): ``no_show`` (未到场，判负一局: the
    opponent is credited ``value`` frames, default 1, unless ``no_show_frame_typed``),
    ``forfeit`` (15分钟后仍未到场视为弃权: the side loses by forfeit; frames per
    ``forfeit_frames``), ``timeout`` (十六（一）4 暂停 “任何一方超时未返回比赛场地将被判负一局”: the
    opponent is credited ``value`` frames, default 1, unless ``timeout_frame_typed``). Both sides
    forfeiting: both ``FL``, no winner.

    Validation (``InputError``, Chinese + English): exactly one side reaches the race, neither
    exceeds it. Result: points 1/0 (W/L; FW/FL for a forfeit); values ``frames_won``,
    ``frames_lost`` (int, per side) for 胜率 (CBSA 十六（三）2(2)).
    """

    kind: Literal["frames_race"] = "frames_race"
    race_to: int | None = Field(None, ge=1, description="几局胜（未按轮设定时）")
    no_show_frame_typed: bool = Field(
        True, description="未到场判负的一局已含在所填局数中（否则由调整自动加给对方）")
    timeout_frame_typed: bool = Field(
        True, description="暂停超时未返回判负的一局已含在所填局数中（否则由判定自动加给对方，十六（一）4）")
    forfeit_frames: Literal["none", "race"] = Field(
        "none", description="弃权场的局数：不计（不影响胜率）或胜方记满局、负方记所填局数")
    win_points: Decimal = Decimal(1)
    loss_points: Decimal = Decimal(0)
    clause: str | None = "十六（二）、十六（一）5"
    note: str | None = ("所填为各方胜局数（分阶段的场次每阶段一行，合计）；未到场判负的一局默认已计入所填"
                        "局数；弃权场默认不计局数（不进入胜率）。")

    _settings_key: str | None = PrivateAttr(default=None)
    game_columns: ClassVar[tuple[str, ...]] = ("frames_0", "frames_1", "race")
    criteria: ClassVar[tuple[str, ...]] = ("frames_won", "frames_lost", "frame_rate")

    def score(self, match: Match, games: pd.DataFrame,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score one match (see the class docstring). Raises ``InputError`` for a score the
        race does not allow and ``RuleError`` when no race is known."""
        races: list = []
        typed: list[tuple] = []
        if games is not None:
            races = list(games["race"]) if "race" in games.columns else []
            typed = [(getattr(r, "frames_0"), getattr(r, "frames_1"))
                     for r in games.itertuples(index=False)] if len(games) else []
        return self._score_rows(match, races, typed, _adjust_rows(adjustments))

    def _score_rows(self, match: Match, races: list, typed: list[tuple],
                    adj: list[tuple[int, str, object]]) -> MatchResult:
        """:meth:`score` on plain values: the typed races (the last one counts), the frames
        per row ``(side 0, side 1)``, the adjustments ``(side, kind, value)``."""
        race = None
        vals = [v for v in races if not pd.isna(v)]
        if vals:
            race = _int(vals[-1], "局数（几局胜）", "race")
        race = race or self.race_to
        if not race and not any(k == "forfeit" for _, k, _ in adj):
            raise RuleError("未设定几局胜", "the race (frames to win) is not set")
        frames = [0, 0]
        for f0, f1 in typed:
            frames[0] += _int(f0, "甲方局数", "side 0 frames")
            frames[1] += _int(f1, "乙方局数", "side 1 frames")
        forfeits = {s for s, k, _ in adj if k == "forfeit"}
        for s, k, v in adj:
            if (k == "no_show" and not self.no_show_frame_typed) or \
                    (k == "timeout" and not self.timeout_frame_typed):
                add = 1 if v is None or pd.isna(v) else _int(v, "判负局数", "frames awarded")
                frames[1 - s] += add
            elif k not in ("no_show", "forfeit", "timeout"):
                raise InputError(f"未知的调整代码：{k}", f"unknown adjustment code: {k}")
        if forfeits:
            if forfeits == {0, 1}:
                return MatchResult(match, (self.loss_points, self.loss_points), ("FL", "FL"),
                                   {"frames_won": (0, 0), "frames_lost": (0, 0)},
                                   "双方弃权", "both sides forfeited")
            lo = next(iter(forfeits))
            w = 1 - lo
            if self.forfeit_frames == "race":
                fw = [0, 0]
                fw[w], fw[lo] = race or 0, min(frames[lo], max((race or 0) - 1, 0))
            else:
                fw = [0, 0]
            pts = [self.loss_points, self.loss_points]
            pts[w] = self.win_points
            out = ["FL", "FL"]
            out[w] = "FW"
            return MatchResult(match, tuple(pts), tuple(out),
                               {"frames_won": (fw[0], fw[1]), "frames_lost": (fw[1], fw[0])},
                               "弃权（15分钟后仍未到场）", "forfeit (absent after 15 minutes)")
        if frames[0] > race or frames[1] > race:
            raise InputError(f"局数超过{race}局胜：{frames[0]}:{frames[1]}",
                             f"a score above the race to {race}: {frames[0]}:{frames[1]}")
        reached = [i for i in (0, 1) if frames[i] == race]
        if len(reached) != 1:
            raise InputError(
                f"{race}局胜的比分必须恰有一方达到{race}局：{frames[0]}:{frames[1]}",
                f"in a race to {race} exactly one side must reach {race}: "
                f"{frames[0]}:{frames[1]}")
        w = reached[0]
        pts = [self.loss_points, self.loss_points]
        pts[w] = self.win_points
        out = ["L", "L"]
        out[w] = "W"
        return MatchResult(match, tuple(pts), tuple(out),
                           {"frames_won": (frames[0], frames[1]),
                            "frames_lost": (frames[1], frames[0])})

    # ---------------------------------------------------------------- the workbook's entry
    #: typed per match in 成绩 (no 逐局成绩 rows)
    games_per_match: ClassVar[int] = 0
    #: 判定 codes of the 成绩 sheet → adjustments ((side, kind), …)
    DECISIONS: ClassVar[dict[str, tuple[tuple[int, str], ...]]] = {
        "甲方未到场": ((0, "no_show"),), "乙方未到场": ((1, "no_show"),),
        "甲方弃权": ((0, "forfeit"),), "乙方弃权": ((1, "forfeit"),),
        "甲方暂停超时": ((0, "timeout"),), "乙方暂停超时": ((1, "timeout"),),
        "双方弃权": ((0, "forfeit"), (1, "forfeit"))}

    def entry_game_columns(self) -> list[EntryColumn]:
        return []

    def entry_match_columns(self) -> list[EntryColumn]:
        """成绩: frames won per side, the race (几局胜, written by the draw), and each side's
        consecutive clearances (连续清台，含炸清、接清: 十七（三） best player)."""
        return [EntryColumn("frames_0", "{side}局数", "{side} frames", "int", side=0, width=7),
                EntryColumn("frames_1", "{side}局数", "{side} frames", "int", side=1, width=7),
                EntryColumn("race", "几局胜", "Race to", "int", width=6, prefill=True),
                EntryColumn("clearances_0", "{side}连续清台", "{side} clearances", "int",
                            side=0, width=8),
                EntryColumn("clearances_1", "{side}连续清台", "{side} clearances", "int",
                            side=1, width=8)]

    def entry_decisions(self) -> list[str]:
        """未到场 (判负一局, 十六（一）5: the frame is counted in the typed score), 弃权 (15
        minutes late) and 暂停超时 (十六（一）4: late back from the time-out, 判负一局)."""
        return list(self.DECISIONS)

    @staticmethod
    def _has(v) -> bool:
        return v is not None and not (isinstance(v, float) and v != v) and v != ""

    def _forfeit_decision(self, typed: TypedMatch) -> bool:
        return any(k == "forfeit" for _, k in self.DECISIONS.get(typed.decision or "", ()))

    def is_complete(self, typed: TypedMatch) -> bool:
        """Both sides' frames typed, or a forfeit decision."""
        if self._forfeit_decision(typed):
            return True
        t = typed.totals
        return self._has(t.get("frames_0")) and self._has(t.get("frames_1"))

    def _error(self, typed: TypedMatch, exc: InputError, key: str | None = None) -> InputError:
        """``exc`` placed on the typed cell of ``key`` (else the row's first value cell)."""
        where = typed.cells.get(key or "") or (typed.where[0] if typed.where else "")
        if where and exc.sheet is None:
            sheet, _, cell = where.partition("!")
            exc.sheet, exc.cell = sheet, cell
        return exc

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        """Score a 成绩 row: frames per side against the race (the row's 几局胜, else
        ``race_to``, else the higher score is taken as the race), the 判定 (未到场 / 弃权), and
        the clearances (value ``clearances`` per side, for the best-player ranking)."""
        # every command reads the regulation anew (a new scoring object): the memo is shared
        # by scorings of equal settings, so a match typed earlier is scored once per process
        if self._settings_key is None:
            self._settings_key = self.model_dump_json()
        key = (self._settings_key, match, tuple(typed.totals.items()), typed.decision,
               typed.penalties)
        hit = _SCORED.get(key)
        if hit is None:
            hit = _SCORED[key] = self._score_typed(match, typed)
            if len(_SCORED) > 50000:
                _SCORED.clear()
        return hit

    def _score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        if typed.decision and typed.decision not in self.DECISIONS:
            raise self._error(typed, InputError(
                f"未知的判定“{typed.decision}”（应为：{'、'.join(self.DECISIONS)}）",
                f"unknown decision {typed.decision!r}"), "decision")
        t = typed.totals
        adj = [(side, kind, None) for side, kind in self.DECISIONS.get(typed.decision or "", ())]
        row = {}
        for k in ("frames_0", "frames_1"):
            v = t.get(k)
            if self._has(v):
                try:
                    row[k] = _int(v, "局数", "frames")
                except InputError as exc:
                    raise self._error(typed, exc, k) from None
            else:
                row[k] = 0
        race = t.get("race")
        if self._has(race):
            try:
                row["race"] = _int(race, "几局胜", "race")
            except InputError as exc:
                raise self._error(typed, exc, "race") from None
        elif not self.race_to:
            row["race"] = max(row["frames_0"], row["frames_1"]) or 1
        # one row of frames (plain values: no one-row frame per match, issue 13)
        played = not self._forfeit_decision(typed) or \
            any(self._has(t.get(k)) for k in ("frames_0", "frames_1"))
        try:
            res = self._score_rows(match, [row["race"]] if played and "race" in row else [],
                                   [(row["frames_0"], row["frames_1"])] if played else [], adj)
        except InputError as exc:
            raise self._error(typed, exc, "frames_0") from None
        clear = []
        for k in ("clearances_0", "clearances_1"):
            v = t.get(k)
            try:
                clear.append(_int(v, "连续清台数", "clearances") if self._has(v) else 0)
            except InputError as exc:
                raise self._error(typed, exc, k) from None
            won = row[f"frames_{k[-1]}"]
            if clear[-1] > won:  # a clearance (炸清、接清) wins its frame: at most the frames won
                raise self._error(typed, InputError(
                    f"连续清台数 {clear[-1]} 多于该方所胜局数 {won}（每次清台即胜一局，十七（三））",
                    f"{clear[-1]} clearances but {won} frames won (each clearance wins its frame)"),
                    k) from None
        note_zh, note_en = res.note_zh, res.note_en
        shows = [s for s, k in self.DECISIONS.get(typed.decision or "", ()) if k == "no_show"]
        if shows and not note_zh:
            note_zh = f"{'甲方' if shows[0] == 0 else '乙方'}未到场，判负一局"
            note_en = f"side {shows[0]} absent at the start: one frame lost"
        late = [s for s, k in self.DECISIONS.get(typed.decision or "", ()) if k == "timeout"]
        if late and not note_zh:
            note_zh = f"{'甲方' if late[0] == 0 else '乙方'}暂停超时未返回，判负一局（十六（一）4）"
            note_en = f"side {late[0]} late back from the time-out: one frame lost"
        return MatchResult(res.match, res.points, res.outcome,
                           {**res.values, "clearances": tuple(clear)}, note_zh, note_en)

    def problems(self, match: Match, typed: TypedMatch) -> list:
        """Bad values in a partly typed row (a negative or non-whole frame count)."""
        out = []
        for k in ("frames_0", "frames_1", "clearances_0", "clearances_1"):
            v = typed.totals.get(k)
            if self._has(v):
                try:
                    _int(v, "局数", "frames")
                except InputError as exc:
                    out.append(self._error(typed, exc, k))
        return out

    def bye(self, match: Match) -> MatchResult:
        n = len(match.sides)
        return MatchResult(match, tuple(Decimal(0) for _ in range(n)),
                           tuple("BYE" if s is not None else "L" for s in match.sides), {})

    def forfeit(self, match: Match, side: int) -> MatchResult:
        """``side`` forfeits (a withdrawn player's later match): no frames (胜率 untouched)."""
        r = self.score(match, None, pd.DataFrame([{"side": side, "kind": "forfeit",
                                                   "value": None}]))
        return MatchResult(r.match, r.points, r.outcome, {**r.values, "clearances": (0, 0)},
                           "退赛，对方不战而胜（弃权）", "withdrawn: walkover")

    def simulate_match(self, rng: random.Random, strengths: tuple[float, ...],
                       prefilled: dict[str, Any]) -> dict[str, Any]:
        """A plausible 成绩 row for the demo: the stronger side reaches the race more often."""
        race = prefilled.get("race") or self.race_to or 5
        race = int(race)
        p = 1 / (1 + 10 ** ((strengths[1] - strengths[0]) / 2))
        f = [0, 0]
        while max(f) < race:
            f[0 if rng.random() < p else 1] += 1
        return {"frames_0": f[0], "frames_1": f[1],
                # a clearance wins its frame: a side clears at most the frames it won
                "clearances_0": rng.randint(0, min(f[0], max(1, f[0] // 3))),
                "clearances_1": rng.randint(0, min(f[1], max(1, f[1] // 3)))}

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        return [self.simulate_match(rng, strengths, {}) for _ in range(max(games, 1))]


register_scoring(FramesRace, "局数", "几局胜", "frames race")
