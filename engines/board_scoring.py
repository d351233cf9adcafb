"""Scoring of board games: individual games (象棋/围棋/国际象棋 …) and team matches on boards.

* :class:`BoardGameScoring` (kind ``board_game``): one game → points 2/1/0 (象棋竞赛规则 13.1,
  since 2015) or 1/½/0 (chess), a setting; result codes ``1-0``, ``0-1``, ``½-½``/``=``/``和``,
  forfeits ``+/-``, ``-/+``, double forfeit ``-/-``/``0:0``; a 轮空 (pairing bye) is a win, a 请假
  (requested) bye scores ``requested_bye_points``.
* :class:`TeamBoardGames` (team matches on boards, 局分 → 场分, 出场名单 rules and the team
  criteria): in :mod:`bianpai.engines.team_board_scoring`, re-exported here.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict

from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import EntryColumn, Match, MatchResult, TypedMatch, register_scoring
from bianpai.engines.errors import InputError
from bianpai.engines.rounding import to_decimal
from bianpai.engines.swiss_pairing import LATE_ENTRY_LABELS, REQUESTED_BYE_LABEL

__all__ = ["BoardGameScoring", "TeamBoardGames", "parse_result", "GO_TEAM_CHAIN",
           "XIANGQI_TEAM_CHAIN"]

# code → (side-0 outcome, side-1 outcome)
_CODES = {
    "1-0": ("W", "L"), "0-1": ("L", "W"), "2-0": ("W", "L"), "0-2": ("L", "W"),
    "½-½": ("D", "D"), "1/2-1/2": ("D", "D"), "0.5-0.5": ("D", "D"), "1-1": ("D", "D"),
    "=": ("D", "D"), "和": ("D", "D"), "d": ("D", "D"),
    "+/-": ("FW", "FL"), "+-": ("FW", "FL"), "+:-": ("FW", "FL"),
    "-/+": ("FL", "FW"), "-+": ("FL", "FW"), "-:+": ("FL", "FW"),
    "-/-": ("FL", "FL"), "--": ("FL", "FL"), "0:0": ("FL", "FL"), "-:-": ("FL", "FL"),
    "胜": ("W", "L"), "负": ("L", "W"),
}


def parse_result(code) -> tuple[str, str]:
    """Outcomes ``(side 0, side 1)`` of a typed result code (side 0 = 先手/红/white).
    Raises ``InputError`` for a code the rules do not know."""
    c = str(code).strip().replace(" ", "").replace("：", ":").replace("－", "-")
    if c in _CODES:
        return _CODES[c]
    raise InputError(f"无法识别的对局结果：{code!r}（可用 1-0、0-1、½-½/和、+/-、-/+、0:0）",
                     f"unknown game result {code!r} (use 1-0, 0-1, ½-½, +/-, -/+, 0:0)")


def _fouls(adjustments: pd.DataFrame | None, sides: int) -> list[Decimal]:
    out = [Decimal(0)] * sides
    if adjustments is None or len(adjustments) == 0:
        return out
    for rec in adjustments.to_dict("records"):
        if str(rec.get("kind")) in ("foul", "犯规"):
            s = int(rec["side"])
            out[s] += to_decimal(rec.get("value", 1))
    return out


class BoardGameScoring(BaseModel, ScoringDefaults):
    """One board game (kind ``board_game``, aliases 对局计分, 棋类个人).

    ``games``: one row, column ``result`` (a code of :func:`parse_result`, from side 0's view).
    ``adjustments``: rows ``side``, ``kind`` (``foul``/犯规), ``value`` (count) → 犯规 values.
    Result ``values``: ``unplayed`` (per side ``""``, ``forfeit_win``, ``forfeit_loss``,
    ``pairing_bye``, ``requested_bye``; read by :mod:`bianpai.engines.tiebreaks`) and ``fouls``.
    A bye match (``None`` side) needs no row: 轮空 = ``bye_points``, 请假 (label
    :data:`~bianpai.engines.swiss_individual.REQUESTED_BYE_LABEL`) = ``requested_bye_points``."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["board_game"] = "board_game"
    win_points: Decimal = Decimal(2)
    draw_points: Decimal = Decimal(1)
    loss_points: Decimal = Decimal(0)
    forfeit_win_points: Decimal | None = None  # None: as a win
    bye_points: Decimal | None = None  # None: as a win (象棋竞赛规则 14.4)
    requested_bye_points: Decimal | None = None  # None: as a draw (FIDE half-point bye)
    clause: str | None = "象棋竞赛规则 13.1（胜2、和1、负0）"
    note: str | None = "国际象棋请设为 1/0.5/0 / chess: set 1/0.5/0"

    def _pts(self, o: str) -> Decimal:
        if o == "W":
            return self.win_points
        if o == "D":
            return self.draw_points
        if o == "FW":
            return self.win_points if self.forfeit_win_points is None else self.forfeit_win_points
        return self.loss_points

    def score(self, match: Match, games: pd.DataFrame | None = None,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score one game; see the class docstring. Raises ``InputError`` for no or two rows
        or an unknown code."""
        results = None
        if games is not None and not match.is_bye:
            results = [games.iloc[0]["result"]] if len(games) == 1 else [None] * len(games)
        return self._score_one(match, results, adjustments)

    def _score_one(self, match: Match, results: list | None,
                   adjustments: pd.DataFrame | None = None) -> MatchResult:
        """:meth:`score` on the typed result codes (plain values: no one-row frame per game)."""
        n = len(match.sides)
        fouls = _fouls(adjustments, n)
        if match.is_bye:
            req = match.label == REQUESTED_BYE_LABEL
            late = match.label in LATE_ENTRY_LABELS.values()
            if late:  # before a late entrant joined: 0, or half a win (the format's late_entry)
                p = self.draw_points if match.label == LATE_ENTRY_LABELS["half_per_round"] \
                    else self.loss_points
            elif req:
                p = self.requested_bye_points if self.requested_bye_points is not None \
                    else self.draw_points
            else:
                p = self.bye_points if self.bye_points is not None else self.win_points
            pts = tuple(p if s is not None else Decimal(0) for s in match.sides)
            kinds = tuple(("requested_bye" if req or late else "pairing_bye") if s is not None
                          else "" for s in match.sides)
            note = ("迟报，本轮未赛", "late entry: not in this round") if late else \
                ("请假", "requested bye") if req else ("轮空", "bye")
            return MatchResult(match, pts, tuple("BYE" for _ in match.sides),
                               {"unplayed": kinds, "fouls": tuple(fouls)}, *note)
        if results is None or len(results) != 1:
            raise InputError("每盘对局须且仅须填写一行成绩", "a game needs exactly one result row")
        o0, o1 = parse_result(results[0])
        kinds = tuple({"FW": "forfeit_win", "FL": "forfeit_loss"}.get(o, "") for o in (o0, o1))
        note = ("双方弃权", "double forfeit") if (o0, o1) == ("FL", "FL") else \
            ("弃权", "forfeit") if "FW" in (o0, o1) else ("", "")
        return MatchResult(match, (self._pts(o0), self._pts(o1)), (o0, o1),
                           {"unplayed": kinds, "fouls": tuple(fouls)}, note[0], note[1])

    # ---------------------------------------------------------------- the workbook's entry
    #: one row per game (逐局成绩), one game per match
    games_per_match: ClassVar[int] = 1
    #: result codes offered in the 结果 dropdown (side 0 = 先手/红/白 first)
    RESULT_CHOICES: ClassVar[tuple[str, ...]] = ("1-0", "0-1", "和", "+/-", "-/+", "-/-")
    #: 判定 codes → the result code they stand for
    DECISIONS: ClassVar[dict[str, str]] = {"先手弃权": "-/+", "后手弃权": "+/-",
                                          "双方弃权": "-/-"}

    def entry_game_columns(self) -> list[EntryColumn]:
        """逐局成绩: 结果 (1-0 先手胜, 0-1 后手胜, 和, +/- −/+ 弃权, −/− 双方弃权)."""
        return [EntryColumn("result", "结果", "Result", "text", choices=self.RESULT_CHOICES,
                            width=8)]

    def entry_match_columns(self) -> list[EntryColumn]:
        return []

    def entry_decisions(self) -> list[str]:
        """弃权 of either player or both (the same as typing +/-, -/+ or -/- as the result)."""
        return list(self.DECISIONS)


    def is_complete(self, typed: TypedMatch) -> bool:
        """A 判定, or the game's 结果."""
        return bool(typed.decision) or bool(typed.rows_with("result"))

    def problems(self, match: Match, typed: TypedMatch) -> list[InputError]:
        """Nothing typed in part can be wrong (a game is one cell)."""
        return []

    def _adjustments(self, typed: TypedMatch) -> pd.DataFrame | None:
        fouls = [{"side": side, "kind": "foul", "value": value}
                 for side, kind, value in typed.penalties]
        return pd.DataFrame(fouls) if fouls else None

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        """Score the typed 结果 (or the 判定); 罚分 rows count as 犯规 (value = times). Raises
        ``InputError`` naming the 结果 cell for an unknown code, two typed rows, or a result
        and a 判定 that disagree."""
        rows = typed.rows_with("result")
        if typed.decision is not None:
            code = self.DECISIONS.get(str(typed.decision).strip())
            if code is None:
                raise InputError(f"未知的判定“{typed.decision}”（应为：{'、'.join(self.DECISIONS)}）",
                                 f"unknown decision {typed.decision!r}")
            if rows and parse_result(rows[0]["result"]) != parse_result(code):
                exc = InputError(f"结果“{rows[0]['result']}”与判定“{typed.decision}”矛盾",
                                 f"result {rows[0]['result']!r} contradicts the decision")
                exc.row, exc.column = rows[0].get("_row"), "result"
                raise exc
            rows = [{"result": code}]
        if len(rows) > 1:
            exc = InputError("每盘对局只填一行结果", "a game has one result row")
            exc.row, exc.column = rows[1].get("_row"), "result"
            raise exc
        try:
            return self._score_one(match, [rows[0]["result"]], self._adjustments(typed))
        except InputError as exc:
            exc.row, exc.column = rows[0].get("_row"), "result"
            raise

    def bye(self, match: Match) -> MatchResult:
        """轮空 (or 请假): ``bye_points`` / ``requested_bye_points``."""
        return self.score(match)

    def forfeit(self, match: Match, side: int) -> MatchResult:
        """``side`` loses by forfeit (a withdrawn player's later game)."""
        return self._score_one(match, ["-/+" if side == 0 else "+/-"])

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """A plausible game: the stronger player wins more often; about one game in five is
        drawn."""
        out = []
        for _ in range(games):
            d = strengths[0] - strengths[1] + rng.gauss(0, 1.2)
            out.append({"result": "1-0" if d > 0.25 else "0-1" if d < -0.25 else "和"})
        return out


register_scoring(BoardGameScoring, "对局计分", "棋类个人")

# the team scoring lives in its own module; imported here so old import paths keep working
from bianpai.engines.team_board_scoring import (GO_TEAM_CHAIN, XIANGQI_TEAM_CHAIN,  # noqa: E402
                                               TeamBoardGames)
