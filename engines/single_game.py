"""One game decides a knockout match, a drawn game → one decider (跳棋 otog 七（一）). See
:mod:`bianpai.engines.knockout_scoring` for the sources."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, Field

from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import (EntryColumn, Match, MatchResult, TypedMatch, decision_side,
                                  register_scoring)
from bianpai.engines.errors import InputError
from bianpai.engines.frames_race import _adjust_rows

__all__ = ["SingleGame", "parse_game_result"]


_RESULTS = {"1-0": (1, 0), "0-1": (0, 1), "½-½": None, "0.5-0.5": None, "=": None, "和": None,
            "D": None, "1:0": (1, 0), "0:1": (0, 1), "胜": (1, 0), "负": (0, 1)}


def parse_game_result(text) -> tuple[int, int] | None:
    """A typed game result from side 0's point of view: ``"1-0"``/``"胜"`` → (1, 0),
    ``"0-1"``/``"负"`` → (0, 1), ``"½-½"``/``"="``/``"和"``/``"D"`` → ``None`` (drawn).
    Raises ``InputError`` for anything else."""
    t = str(text).strip().replace("－", "-").replace("：", ":").upper()
    t = {"½-½": "½-½"}.get(t, t)
    if t.lower() in ("½-½",):
        return None
    if t in _RESULTS:
        return _RESULTS[t]
    raise InputError(f"无法识别的对局结果：{text}（应为 1-0、0-1 或 ½-½）",
                     f"unknown game result: {text} (use 1-0, 0-1 or ½-½)")


class SingleGame(BaseModel, ScoringDefaults):
    """One game decides the match; a drawn game → one decider (跳棋 otog 七（一）"若出现平局，加赛
    一局决胜负。加赛局用时：5分钟包干，超时3次判负").

    ``games`` columns: ``result`` (str, side 0's view: ``1-0``, ``0-1``, ``½-½``), one row per
    game in order — row 1 the game, row 2 the decider (typed only after a draw). ``adjustments``
    code ``forfeit`` (the side loses by forfeit). Raises ``InputError`` when a decided game is
    followed by more rows, a draw has no decider (``decider=True``), or the decider is drawn
    (the decider must have a winner: 超时3次判负). Result: points ``win_points``/``loss_points``
    (W/L or FW/FL); values ``games_won`` (int per side).
    """

    kind: Literal["single_game"] = "single_game"
    decider: bool = Field(True, description="平局加赛一局决胜负")
    win_points: Decimal = Decimal(1)
    loss_points: Decimal = Decimal(0)
    clause: str | None = "跳棋 七（一）"
    note: str | None = "一局定胜负；平局则在第二行填加赛局结果，加赛局不得为和。"

    game_columns: ClassVar[tuple[str, ...]] = ("result",)
    criteria: ClassVar[tuple[str, ...]] = ()

    def score(self, match: Match, games: pd.DataFrame,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score one match (see the class docstring)."""
        adj = _adjust_rows(adjustments)
        forfeits = {s for s, k, _ in adj if k == "forfeit"}
        if any(k != "forfeit" for _, k, _ in adj):
            bad = next(k for _, k, _ in adj if k != "forfeit")
            raise InputError(f"未知的调整代码：{bad}", f"unknown adjustment code: {bad}")
        if forfeits == {0, 1}:
            return MatchResult(match, (self.loss_points,) * 2, ("FL", "FL"),
                               {"games_won": (0, 0)}, "双方弃权", "both sides forfeited")
        if forfeits:
            lo = next(iter(forfeits))
            pts = [self.loss_points] * 2
            pts[1 - lo] = self.win_points
            out = ["FL", "FL"]
            out[1 - lo] = "FW"
            won = [0, 0]
            won[1 - lo] = 1
            return MatchResult(match, tuple(pts), tuple(out), {"games_won": tuple(won)},
                               "弃权", "forfeit")
        rows = [] if games is None else [r for r in games["result"]
                                         if not (not isinstance(r, str) and pd.isna(r))
                                         and str(r).strip()]
        if not rows:
            raise InputError("对局结果未填写", "the game result is empty")
        winner = None
        for i, text in enumerate(rows):
            r = parse_game_result(text)
            if winner is not None:
                raise InputError("已决出胜负后不应再有加赛局", "a game after the match was decided")
            if r is None:
                if i == 0 and self.decider:
                    continue
                raise InputError("加赛局不得为和局（须决出胜负）", "the decider cannot be drawn")
            winner = 0 if r == (1, 0) else 1
        if winner is None:
            raise InputError("平局须加赛一局决胜负：请填写加赛局结果",
                             "a drawn game needs a decider: type its result")
        pts = [self.loss_points] * 2
        pts[winner] = self.win_points
        out = ["L", "L"]
        out[winner] = "W"
        won = [0, 0]
        won[winner] = 1
        note = ("平局，加赛一局定胜负", "drawn; the decider decided it") if len(rows) > 1 else ("", "")
        return MatchResult(match, tuple(pts), tuple(out), {"games_won": tuple(won)}, *note)

    # ---------------------------------------------------------------- the workbook's entry
    #: 逐局成绩 rows prepared per match: the game (the decider gets its own row when needed)
    games_per_match: ClassVar[int] = 1
    DECISIONS: ClassVar[dict[str, int]] = {"甲方弃权": 0, "乙方弃权": 1}

    def entry_game_columns(self) -> list[EntryColumn]:
        """逐局成绩: 结果 of the game (1-0, 0-1, 和); after a draw the decider on the next row."""
        return [EntryColumn("result", "结果", "Result", "text",
                            choices=("1-0", "0-1", "和", "+/-", "-/+", "-/-"), width=8)]

    def entry_match_columns(self) -> list[EntryColumn]:
        return []

    def entry_decisions(self) -> list[str]:
        return list(self.DECISIONS)


    def _drawn(self, text) -> bool:
        try:
            return parse_game_result(text) is None
        except InputError:
            return False

    def extra_games_needed(self, typed: TypedMatch) -> int:
        """1 when the game is typed as drawn and its decider is not typed yet (加赛一局)."""
        rows = typed.rows_with("result")
        if typed.decision or not self.decider or len(rows) != 1:
            return 0
        return int(self._drawn(rows[0]["result"]))

    def is_complete(self, typed: TypedMatch) -> bool:
        """A 判定, or a decided game (a drawn game needs its decider)."""
        if typed.decision:
            return True
        rows = typed.rows_with("result")
        return bool(rows) and not self.extra_games_needed(typed)

    def problems(self, match: Match, typed: TypedMatch) -> list[InputError]:
        """An unreadable 结果 already typed."""
        out = []
        for r in typed.rows_with("result"):
            try:
                parse_game_result(r["result"])
            except InputError as exc:
                exc.row, exc.column = r.get("_row"), "result"
                out.append(exc)
        return out

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        """Score the typed game(s) or the 判定 (弃权); errors name the 结果 cell."""
        if typed.decision:
            return self.forfeit(match, decision_side(self.DECISIONS, typed.decision))
        rows = typed.rows_with("result")
        # +/- codes typed as the result are forfeits too
        code = str(rows[0]["result"]).strip().replace(" ", "")
        if code in ("+/-", "-/+", "-/-"):
            adj = [{"side": s, "kind": "forfeit", "value": None}
                   for s, lost in ((0, code[0] == "-"), (1, code[-1] == "-")) if lost]
            return self.score(match, None, pd.DataFrame(adj))
        try:
            return self.score(match, pd.DataFrame({"result": [r["result"] for r in rows]}))
        except InputError as exc:
            exc.row, exc.column = rows[-1].get("_row"), "result"
            raise

    def bye(self, match: Match) -> MatchResult:
        """A bye (轮空) goes through."""
        won = tuple(1 if s is not None else 0 for s in match.sides)
        return MatchResult(match, tuple(self.win_points if s is not None else self.loss_points
                                        for s in match.sides), ("BYE",) * len(match.sides),
                           {"games_won": won}, "轮空", "bye")

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """A game per row: the stronger side wins more often, about one in six is drawn (the
        demo then types the decider, which is never drawn)."""
        out = []
        for _ in range(games):
            d = strengths[0] - strengths[1] + rng.gauss(0, 1.2)
            out.append({"result": "1-0" if d > 0.2 else "0-1" if d < -0.2 else "和"})
        return out

    def simulate_extra(self, rng: random.Random, strengths: tuple[float, ...], games: int
                       ) -> list[dict[str, Any]]:
        """Decider rows for the demo: never drawn (超时3次判负)."""
        return [{"result": "1-0" if strengths[0] - strengths[1] + rng.gauss(0, 1.2) >= 0
                 else "0-1"} for _ in range(games)]


register_scoring(SingleGame, "一局定胜负", "single game")
