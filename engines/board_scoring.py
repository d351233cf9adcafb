"""Scoring of board games: individual games (象棋/围棋/国际象棋 …) and team matches on boards.

* :class:`BoardGameScoring` (kind ``board_game``): one game → points 2/1/0 (象棋竞赛规则 13.1,
  since 2015) or 1/½/0 (chess), a setting; result codes ``1-0``, ``0-1``, ``½-½``/``=``/``和``,
  forfeits ``+/-``, ``-/+``, double forfeit ``-/-``/``0:0``; a 轮空 (pairing bye) is a win, a 请假
  (requested) bye scores ``requested_bye_points``.
* :class:`TeamBoardGames` (kind ``team_board_games``): every board's game 2/1/0 → the team's 局分;
  the match 2/1/0 by comparing 局分 → 场分 (象棋竞赛规则 13.2; 福建省老年人智力运动会 2024 围棋
  团体 "每局胜2分、和1分、负0分；每场比赛按局分多少确定胜负，胜2分、平1分、负0分").

Registered criteria for the team chain (福建 2024 围棋 四（五）): ``team_game_points`` 全队总局分,
``team_opp_score`` 团体对手分 (Σ opponents' 场分), ``matches_won`` 胜场数, ``team_fouls`` 犯规次数
(fewer first), ``board1_wins`` … ``board4_wins`` 第一台…第四台胜局数; :data:`GO_TEAM_CHAIN`.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import EntryColumn, Match, MatchResult, TypedMatch, register_scoring
from bianpai.engines.errors import InputError
from bianpai.engines.rounding import to_decimal
from bianpai.engines.standings import Criterion, count_of, register, sum_of
from bianpai.engines.swiss_individual import REQUESTED_BYE_LABEL

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


class BoardGameScoring(BaseModel):
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
        n = len(match.sides)
        fouls = _fouls(adjustments, n)
        if match.is_bye:
            req = match.label == REQUESTED_BYE_LABEL
            p = (self.requested_bye_points if self.requested_bye_points is not None
                 else self.draw_points) if req else \
                (self.bye_points if self.bye_points is not None else self.win_points)
            pts = tuple(p if s is not None else Decimal(0) for s in match.sides)
            kinds = tuple(("requested_bye" if req else "pairing_bye") if s is not None else ""
                          for s in match.sides)
            return MatchResult(match, pts, tuple("BYE" for _ in match.sides),
                               {"unplayed": kinds, "fouls": tuple(fouls)},
                               "请假" if req else "轮空", "requested bye" if req else "bye")
        if games is None or len(games) != 1:
            raise InputError("每盘对局须且仅须填写一行成绩", "a game needs exactly one result row")
        o0, o1 = parse_result(games.iloc[0]["result"])
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
            return self.score(match, pd.DataFrame([{"result": rows[0]["result"]}]),
                              self._adjustments(typed))
        except InputError as exc:
            exc.row, exc.column = rows[0].get("_row"), "result"
            raise

    def bye(self, match: Match) -> MatchResult:
        """轮空 (or 请假): ``bye_points`` / ``requested_bye_points``."""
        return self.score(match)

    def forfeit(self, match: Match, side: int) -> MatchResult:
        """``side`` loses by forfeit (a withdrawn player's later game)."""
        return self.score(match, pd.DataFrame([{"result": "-/+" if side == 0 else "+/-"}]))

    def finalize(self, results: list[MatchResult]) -> list[MatchResult]:
        return list(results)

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """A plausible game: the stronger player wins more often; about one game in five is
        drawn."""
        out = []
        for _ in range(games):
            d = strengths[0] - strengths[1] + rng.gauss(0, 1.2)
            out.append({"result": "1-0" if d > 0.25 else "0-1" if d < -0.25 else "和"})
        return out


class TeamBoardGames(BaseModel):
    """Team match on boards (kind ``team_board_games``, aliases 团体对抗, 棋类团体).

    ``games``: one row per board with ``board`` (int 1…``boards``) and ``result`` (code of
    :func:`parse_result` from side 0's view; lateness/overtime losses are typed as the game's
    result, e.g. ``0-1`` or ``-/+``). ``adjustments``: ``side``, ``kind`` (``foul``/犯规 counts;
    ``forfeit``/弃权 = the side forfeits the whole match), ``value``.
    Values: ``game_points`` 局分, ``fouls``, ``board1_wins`` … per side.
    ``first_move_boards``: side 0 (first-listed team) moves first on ``odd`` boards (象棋 practice:
    先列队单数台执红) or ``even`` boards, a setting; :meth:`first_mover`.
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["team_board_games"] = "team_board_games"
    boards: int = Field(4, ge=1)
    game_win: Decimal = Decimal(2)
    game_draw: Decimal = Decimal(1)
    game_loss: Decimal = Decimal(0)
    match_win: Decimal = Decimal(2)
    match_draw: Decimal = Decimal(1)
    match_loss: Decimal = Decimal(0)
    bye_game_points: Decimal | None = None  # None: every board won
    first_move_boards: Literal["odd", "even"] = "odd"
    #: 出场名单 columns on 逐局成绩 (who played each board), checked against the roster
    lineups: bool = True
    clause: str | None = "福建省老年人智力运动会2024 围棋团体 四（四）；象棋竞赛规则 13.2"
    note: str | None = ("每局胜2和1负0得局分；按局分多少定场分胜2平1负0；轮空按全胜计（可改）"
                        " / game 2/1/0 → 局分; match 2/1/0 by 局分; a bye wins every board")

    def first_mover(self, board: int) -> int:
        """Side (0/1) that moves first (先手/红) on ``board``."""
        odd = board % 2 == 1
        return 0 if odd == (self.first_move_boards == "odd") else 1

    def _gp(self, o: str) -> Decimal:
        return self.game_win if o in ("W", "FW") else self.game_draw if o == "D" \
            else self.game_loss

    def score(self, match: Match, games: pd.DataFrame | None = None,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score a team match. Raises ``InputError`` for a missing/duplicate/out-of-range board
        or an unknown code."""
        fouls = _fouls(adjustments, 2)
        zero = {f"board{b}_wins": (0, 0) for b in range(1, self.boards + 1)}
        if match.is_bye:
            gp = self.bye_game_points if self.bye_game_points is not None \
                else self.game_win * self.boards
            pts = tuple(self.match_win if s is not None else Decimal(0) for s in match.sides)
            gps = tuple(gp if s is not None else Decimal(0) for s in match.sides)
            return MatchResult(match, pts, ("BYE", "BYE"),
                               {"game_points": gps, "fouls": tuple(fouls), **zero}, "轮空", "bye")
        forfeit = [False, False]
        if adjustments is not None and len(adjustments):
            for rec in adjustments.to_dict("records"):
                if str(rec.get("kind")) in ("forfeit", "弃权"):
                    forfeit[int(rec["side"])] = True
        if any(forfeit):
            o = ("FL", "FL") if all(forfeit) else (("FL", "FW") if forfeit[0] else ("FW", "FL"))
            pts = tuple(self.match_win if x == "FW" else self.match_loss for x in o)
            gps = tuple(self.game_win * self.boards if x == "FW" else Decimal(0) for x in o)
            return MatchResult(match, pts, o, {"game_points": gps, "fouls": tuple(fouls), **zero},
                               "弃权", "forfeit")
        if games is None or len(games) != self.boards:
            raise InputError(f"团体赛每场须填写{self.boards}台成绩",
                             f"a team match needs {self.boards} board results")
        boards = [int(b) for b in games["board"]]
        if sorted(boards) != list(range(1, self.boards + 1)):
            raise InputError(f"台次须为1至{self.boards}且不重复：{boards}",
                             f"boards must be 1..{self.boards} once each: {boards}")
        gp = [Decimal(0), Decimal(0)]
        wins = {}
        for b, code in zip(boards, games["result"]):
            o0, o1 = parse_result(code)
            gp[0] += self._gp(o0)
            gp[1] += self._gp(o1)
            wins[f"board{b}_wins"] = (int(o0 in ("W", "FW")), int(o1 in ("W", "FW")))
        if gp[0] > gp[1]:
            o, pts = ("W", "L"), (self.match_win, self.match_loss)
        elif gp[0] < gp[1]:
            o, pts = ("L", "W"), (self.match_loss, self.match_win)
        else:
            o, pts = ("D", "D"), (self.match_draw, self.match_draw)
        return MatchResult(match, pts, o, {"game_points": tuple(gp), "fouls": tuple(fouls),
                                           **wins})


    # ---------------------------------------------------------------- the workbook's entry
    #: 判定 codes of the 成绩 sheet → the side that forfeits the whole match
    DECISIONS: ClassVar[dict[str, int]] = {"主队弃权": 0, "客队弃权": 1}
    #: entry columns prefilled when a match's rows are prepared (the board numbers)
    prefilled: ClassVar[tuple[str, ...]] = ("board",)
    #: result codes offered in the 逐局成绩 dropdown (side 0's view; any code of parse_result
    #: is accepted)
    RESULT_CHOICES: ClassVar[tuple[str, ...]] = ("1-0", "0-1", "和", "+/-", "-/+", "0:0")

    @property
    def games_per_match(self) -> int:
        """One 逐局成绩 row per board (台)."""
        return self.boards

    def entry_game_columns(self) -> list[EntryColumn]:
        """逐局成绩: one row per board: 台次 (prefilled) and the game's result from the first-listed
        team's view (1-0 胜, 0-1 负, 和, +/- 对方弃权/迟到, 0:0 双方弃权); with ``lineups`` each
        side's player on that board (出场名单; optional, checked against the roster)."""
        cols = [EntryColumn("board", "台次", "Board", "int", width=5),
                EntryColumn("result", "结果（{side}）", "Result ({side})", "code",
                            choices=self.RESULT_CHOICES, side=0, width=9)]
        if self.lineups:
            cols += [EntryColumn(f"player_{i}", "{side}出场队员", "{side} player", "text",
                                 side=i, width=9, member=True) for i in (0, 1)]
        return cols

    def entry_match_columns(self) -> list[EntryColumn]:
        return []

    def entry_decisions(self) -> list[str]:
        """A team forfeiting the whole match (弃权)."""
        return list(self.DECISIONS)

    def entry_rows(self, match: Match) -> list[dict[str, Any]]:
        """The rows prepared for a new match: boards 1 … ``boards``."""
        return [{"board": b} for b in range(1, self.boards + 1)]

    @staticmethod
    def _has(v) -> bool:
        return v is not None and v == v and str(v).strip() != ""

    def _rows(self, typed: TypedMatch) -> list[dict]:
        return [r for r in typed.games.to_dict("records") if self._has(r.get("result"))]

    def is_complete(self, typed: TypedMatch) -> bool:
        """A 弃权 decision, or a result on every board."""
        if typed.decision:
            return True
        return len(self._rows(typed)) >= self.boards

    def problems(self, match: Match, typed: TypedMatch) -> list[InputError]:
        """Bad cells typed so far: an unknown result code, a board number outside 1 … boards or
        typed twice (with the 逐局成绩 row and column)."""
        errs: list[InputError] = []
        seen: dict[int, Any] = {}
        for r in typed.games.to_dict("records"):
            row = r.get("_row")
            if self._has(r.get("result")):
                try:
                    parse_result(r["result"])
                except InputError as e:
                    e.row, e.column = row, "result"
                    errs.append(e)
            b = r.get("board")
            if not self._has(b):
                if self._has(r.get("result")):
                    e = InputError("已填结果但未填台次", "a result without its board number")
                    e.row, e.column = row, "board"
                    errs.append(e)
                continue
            try:
                bn = int(b)
            except (TypeError, ValueError):
                bn = -1
            if not 1 <= bn <= self.boards:
                e = InputError(f"台次须为 1–{self.boards}，而不是「{b}」",
                               f"the board must be 1–{self.boards}, not {b!r}")
                e.row, e.column = row, "board"
                errs.append(e)
            elif bn in seen:
                e = InputError(f"第{bn}台填了两次", f"board {bn} typed twice")
                e.row, e.column = row, "board"
                errs.append(e)
            else:
                seen[bn] = row
        return errs

    def _adjustments(self, typed: TypedMatch) -> pd.DataFrame | None:
        adj = [{"side": side, "kind": "foul", "value": value}
               for side, _reason, value in typed.penalties]
        if typed.decision:
            if typed.decision not in self.DECISIONS:
                raise InputError(f"未知的判定“{typed.decision}”（应为：{'、'.join(self.DECISIONS)}）",
                                 f"unknown decision {typed.decision!r}")
            adj.append({"side": self.DECISIONS[typed.decision], "kind": "forfeit", "value": None})
        return pd.DataFrame(adj, columns=["side", "kind", "value"]) if adj else None

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        """Score the typed boards (罚分 rows count as 犯规, one per point typed); a 弃权
        decision forfeits the whole match. Raises the first of :meth:`problems`."""
        errs = self.problems(match, typed)
        if errs:
            raise errs[0]
        adj = self._adjustments(typed)
        rows = self._rows(typed)
        games = pd.DataFrame([{"board": int(r["board"]), "result": r["result"]} for r in rows],
                             columns=["board", "result"])
        if typed.decision:
            return self.score(match, None, adj)
        return self.score(match, games, adj)

    def bye(self, match: Match) -> MatchResult:
        return self.score(match, None)

    def forfeit(self, match: Match, side: int) -> MatchResult:
        """``side`` forfeits the match (e.g. a withdrawn team's later match)."""
        return self.score(match, None, pd.DataFrame([{"side": side, "kind": "forfeit",
                                                      "value": None}]))

    def finalize(self, results: list[MatchResult]) -> list[MatchResult]:
        return list(results)

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """A result per board, the stronger team winning more often (draws now and then)."""
        out = []
        for _ in range(games):
            d = strengths[0] - strengths[1] + rng.gauss(0, 1.2)
            out.append({"result": "1-0" if d > 0.35 else "0-1" if d < -0.35 else "和"})
        return out


def _team_opp_score(members, results, ctx):
    """团体对手分: Σ of the opponents' 场分 (match points) over the matches played."""
    r = results[results["complete"].astype(bool)] if "complete" in results.columns else results
    mp = {}
    for e, v in zip(r["entrant"], r["match_points"]):
        mp[int(e)] = mp.get(int(e), Decimal(0)) + to_decimal(v)
    out = {}
    for e in members:
        opps = r.loc[(r["entrant"] == e) & r["opponent"].notna(), "opponent"]
        out[e] = sum((mp.get(int(o), Decimal(0)) for o in opps), Decimal(0))
    return out


def _sum_or_zero(column: str):
    f = sum_of(column)

    def compute(members, results, ctx):
        if column not in results.columns:
            return {e: Decimal(0) for e in members}
        return f(members, results, ctx)
    return compute


register(Criterion("team_game_points", "全队总局分", "total game points",
                   _sum_or_zero("game_points"), places=None))
register(Criterion("team_opp_score", "团体对手分", "team opponents' match points",
                   _team_opp_score, places=None))
register(Criterion("matches_won", "胜场数", "matches won", count_of("outcome", ["W", "FW", "BYE"]),
                   places=None))
register(Criterion("team_fouls", "犯规次数", "fouls (fewer first)", _sum_or_zero("fouls"),
                   descending=False, places=None))
for _b in range(1, 9):
    register(Criterion(f"board{_b}_wins", f"第{_b}台胜局数", f"board {_b} wins",
                       _sum_or_zero(f"board{_b}_wins"), places=None))

#: 福建省老年人智力运动会 2024 围棋团体 四（五）
GO_TEAM_CHAIN = ("match_points", "team_game_points", "team_opp_score", "matches_won",
                 "team_fouls", "board1_wins", "board2_wins", "board3_wins", "board4_wins",
                 "lots")
#: 象棋竞赛规则 14.7 (text not transcribed: a stand-in, flagged like bridge Art. 44)
XIANGQI_TEAM_CHAIN = ("match_points", "team_game_points", "team_opp_score", "board1_wins",
                      "lots")

register_scoring(BoardGameScoring, "对局计分", "棋类个人")
register_scoring(TeamBoardGames, "团体对抗", "棋类团体")
