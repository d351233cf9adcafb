"""Team matches on boards (象棋/围棋团体): games → 局分 → 场分, the 出场名单 rules, team criteria.

* :class:`TeamBoardGames` (kind ``team_board_games``): every board's game 2/1/0 → the team's 局分;
  the match 2/1/0 by comparing 局分 → 场分 (象棋竞赛规则 13.2; 福建省老年人智力运动会 2024 围棋
  团体 "每局胜2分、和1分、负0分；每场比赛按局分多少确定胜负，胜2分、平1分、负0分"); the 出场名单's
  board-order rule (:meth:`TeamBoardGames.lineup_problems`; 象棋 四3、四4, 围棋 四（四）).

Registered criteria for the team chain (福建 2024 围棋 五（三）): ``team_game_points`` 全队总局分,
``team_opp_score`` 团体对手分 (Σ opponents' 场分), ``matches_won`` 胜场数, ``team_fouls`` 犯规次数
(fewer first), ``board1_wins`` … ``board8_wins`` 第一台…胜局数; :data:`GO_TEAM_CHAIN`.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.board_scoring import _fouls, parse_result
from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import EntryColumn, Match, MatchResult, TypedMatch, register_scoring
from bianpai.engines.errors import InputError
from bianpai.engines.rounding import to_decimal
from bianpai.engines.standings import Criterion, count_of, register, sum_of
from bianpai.engines.swiss_pairing import LATE_ENTRY_LABELS

__all__ = ["TeamBoardGames", "GO_TEAM_CHAIN", "XIANGQI_TEAM_CHAIN"]


class TeamBoardGames(BaseModel, ScoringDefaults):
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
    #: board-order rule of the 出场名单 against the 台次名单 (the team's players in the order
    #: registered; the first ``boards`` are the board players, the rest reserves):
    #: ``fixed`` 定台 — board b is played by the b-th listed player or by a reserve in their
    #: place (象棋 四3 分台换人制/四4 台次名单不予更改; 围棋 四（四） 定台制，上场台次不再变动);
    #: ``order`` — whoever plays, the boards keep the 台次名单 order (players move up);
    #: ``free`` — any registered players on any board
    lineup_rule: Literal["fixed", "order", "free"] = "fixed"
    #: reserves who may come in per match (象棋 四3 "另有一名替换队员"; 围棋 四（四） "替换…其中一名
    #: 队员"); None = no limit
    substitutes_per_round: int | None = Field(1, ge=0)
    #: a side's 出场名单 not handed in for a round: ``last_round`` — the draw prepares the new
    #: round's rows with the team's line-up of its last match (象棋 四4 “若未能按时提交，将按该队
    #: 上轮的具体出场名单执行”; the arbiter overwrites them when a new list comes in); ``none`` — empty
    lineup_default: Literal["last_round", "none"] = "none"
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

    def lineup_problems(self, lineup: dict[int, str], listed: list[str]
                        ) -> list[tuple[int, str, str]]:
        """Board-order breaches of one side's 出场名单 (source: 象棋项目竞赛规程 四3、四4; 围棋项目
        竞赛规程 四（四）; the rule is the setting ``lineup_rule``).

        ``lineup``: board (1 … ``boards``) → the player typed there (registered names only:
        unknown names and a player on two boards are checked by the pipeline). ``listed``: the
        team's players in 台次名单 order. Returns ``(board, zh, en)`` per bad board, in board
        order; empty when the line-up keeps the rule."""
        out: list[tuple[int, str, str]] = []
        pos = {n: i for i, n in enumerate(listed)}
        typed = sorted((b, n) for b, n in lineup.items() if n in pos)
        subs = 0
        last = (-1, 0)
        for b, n in typed:
            i = pos[n]
            reserve = i >= self.boards
            if reserve:
                subs += 1
                if self.substitutes_per_round is not None and subs > self.substitutes_per_round:
                    out.append((b, f"每轮最多{self.substitutes_per_round}名替补队员上场，"
                                   f"“{n}”是第{subs}名",
                                f"at most {self.substitutes_per_round} reserve(s) per round; "
                                f"{n!r} is number {subs}"))
                    continue
            if self.lineup_rule == "fixed" and not reserve and i + 1 != b:
                out.append((b, f"定台制：“{n}”是台次名单第{i + 1}名，只能上第{i + 1}台（替补队员可替换任意一台）",
                            f"fixed boards: {n!r} is number {i + 1} of the board list and may "
                            f"only play board {i + 1} (a reserve may replace any board)"))
            elif self.lineup_rule == "order" and i < last[0]:
                out.append((b, f"出场顺序须与台次名单一致：“{n}”（名单第{i + 1}名）不能排在第{last[1]}台"
                               f"（名单第{last[0] + 1}名）之后",
                            f"the boards must follow the board list: {n!r} (number {i + 1}) "
                            f"cannot play below board {last[1]} (number {last[0] + 1})"))
            else:
                last = (i, b)
        return out

    def score(self, match: Match, games: pd.DataFrame | None = None,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score a team match. Raises ``InputError`` for a missing/duplicate/out-of-range board
        or an unknown code."""
        fouls = _fouls(adjustments, 2)
        zero = {f"board{b}_wins": (0, 0) for b in range(1, self.boards + 1)}
        if match.is_bye and match.label in LATE_ENTRY_LABELS.values():
            # a team entered late: the round missed is no match won (0, or a draw by the format)
            half = match.label == LATE_ENTRY_LABELS["half_per_round"]
            mp = self.match_draw if half else self.match_loss
            gp = self.game_draw * self.boards if half else Decimal(0)
            return MatchResult(match, tuple(mp if s is not None else Decimal(0)
                                            for s in match.sides), ("BYE", "BYE"),
                               {"game_points": tuple(gp if s is not None else Decimal(0)
                                                     for s in match.sides),
                                "fouls": tuple(fouls), **zero}, "迟报，本轮未赛", "late entry")
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
    prefilled: ClassVar[tuple[str, ...]] = ("board", "first_move")
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
        cols.append(EntryColumn("first_move", "先手方", "First move", "text", width=7,
                                prefill=True))
        return cols

    def entry_match_columns(self) -> list[EntryColumn]:
        return []

    def entry_decisions(self) -> list[str]:
        """A team forfeiting the whole match (弃权)."""
        return list(self.DECISIONS)

    def entry_rows(self, match: Match) -> list[dict[str, Any]]:
        """The rows prepared for a new match: boards 1 … ``boards`` and who moves first on each
        (先手方 甲方/乙方 by ``first_move_boards``: colours alternate board by board)."""
        return [{"board": b, "first_move": ("甲方", "乙方")[self.first_mover(b)]}
                for b in range(1, self.boards + 1)]

    @staticmethod
    def _has(v) -> bool:
        return v is not None and v == v and str(v).strip() != ""

    def _rows(self, typed: TypedMatch) -> list[dict]:
        return [r for r in typed.game_records() if self._has(r.get("result"))]

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
        for r in typed.game_records():
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
    out = {e: Decimal(0) for e in members}
    for e, o in zip(r["entrant"].tolist(), r["opponent"].tolist()):
        if e in out and not pd.isna(o):
            out[e] += mp.get(int(o), Decimal(0))
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

register_scoring(TeamBoardGames, "团体对抗", "棋类团体")
