"""Gouji (够级) team-match scoring: six seats, three games, 局分 from the finishing order.

Source: Qingdao 2015 World Leisure Games gouji 规程 (shared/regulations/qingdao-gouji-2015.txt):

* 九第一条2: 每轮比赛打三局，累计局得分多者获胜，胜方积2分，平局双方各的1分，负方0分。如遇对方弃赛，
  弃权方成绩为0，则该队所有成绩均为无效。如积分相等按小分计算，净胜分多者列前（头科4分；二科2分；三科0分；
  四科0分小落-2分；大落-4分；串三户8分）。
* 九第三条4, 第四条1/2/5/6/9: a repeat offence in the same match → 扣除当场比赛成绩（局分）两分;
  第四条7: 错牌 when someone holds < 10 cards → −2 at once.
* 十（六）（七）: 欺诈 / 提示联邦 → 立即判负，对手得8分.
* 十（十一）: 迟到15分钟，视为弃权.

A match (场) is ``games_per_match`` games between two teams of three at seats 1–6. Per game each
seat's finish is typed (头科/二科/三科/四科/小落/大落, or 1–6, or the aliases in
:data:`FINISH_ALIASES`); or, instead, each team's 局分 for the game. A team's game 局分 is the
sum of its three seats' values from ``finish_points``; when one team takes 头科, 二科 and 三科 (串三户)
``sweep_scoring`` applies. The match goes to the higher 局分 total (penalties deducted): win 2,
draw 1 each, loss 0.

The scoring gives per side ``values``: ``game_points`` (Σ own 局分 − penalties, Decimal) and
``net_score`` (净胜分: own ``game_points`` − the opponent's), registered as tie-break criteria
``game_points`` (局分) and ``net_score`` (净胜分) in :data:`bianpai.engines.standings.CRITERIA`.
A forfeiting team's results are all void (:func:`annul_forfeits`, built on
:func:`bianpai.engines.voiding.annul_entrant`).
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from bianpai.engines.core import Match, MatchResult, register_scoring
from bianpai.engines.errors import InputError
from bianpai.engines.gouji_entry import GoujiEntry
from bianpai.engines.gouji_input import (ADJUSTMENT_KINDS, FINISH_ALIASES, FINISHES,
                                         check_game, gouji_error, parse_finish,
                                         read_adjustments, read_games)
from bianpai.engines.standings import Criterion, register, sum_of
from bianpai.engines.voiding import annul_entrant

__all__ = ["GoujiScoring", "FINISHES", "FINISH_ALIASES", "ADJUSTMENT_KINDS", "parse_finish",
           "annul_forfeits", "GOUJI_TIE_CHAIN", "gouji_error"]

#: 九第一条2: 积分 (match points), then 净胜分; lots as the last resort (the 规程 stops there)
GOUJI_TIE_CHAIN: tuple[str, ...] = ("match_points", "net_score", "lots")

register(Criterion("net_score", "净胜分", "net score", sum_of("net_score"), places=None))
register(Criterion("game_points", "局分", "game points", sum_of("game_points"), places=None))

SWEEP = frozenset(("头科", "二科", "三科"))

DEFAULT_NOTE = (
    "座位：规程未规定，默认主队坐1、3、5号位，客队坐2、4、6号位（对家为队友）。"
    "串三户：默认一队包揽头科、二科、三科时该队本局得8分、对方−8分（零和），另可选对方保留本队名次分或8分为加分。"
    "判负（十（六）（七））“对手得8分”：默认对手本场局分记8、违规方记0，按积分负；另可选±8、在已打局分上加8或8为积分。"
    "弃权（含迟到15分钟）：弃权方按九第一条2全部成绩无效，对该队的各场比赛对所有队均不计。"
    "扣分：每次扣当场局分2分，计入当场胜负。 / Seating: the 规程 is silent; home at seats 1, 3, 5. "
    "串三户: the sweeping team scores 8, the other −8 (zero-sum). Misconduct: the opponent is "
    "credited 8 局分 and the offender 0 for the match, which the offender loses. A forfeiting "
    "team's results are all annulled for everyone. A −2 penalty lowers the match total and can "
    "change its result.")


class GoujiScoring(GoujiEntry, BaseModel):
    """Scoring of a gouji team match (kind ``gouji_games``, alias 够级). See the module text.

    Settings (every ambiguous reading is one; the default ``note`` states the readings):

    * ``games_per_match`` (3, 九第一条2 每轮比赛打三局).
    * ``home_seats`` ([1, 3, 5]; side 1 takes the other three). The 规程 is silent on seating.
    * ``finish_points`` (头科 4, 二科 2, 三科 0, 四科 0, 小落 −2, 大落 −4; 九第一条2).
    * ``sweep_points`` (8) and ``sweep_scoring`` for 串三户 (one team takes 头科+二科+三科):
      ``zero_sum`` (default: sweeping team +8, other −8), ``other_keeps_places`` (+8 and the
      other team's own place values, −6 with the default table), ``added_zero_sum`` (own
      places + 8 = 14, other −14).
    * ``win_points`` 2, ``draw_points`` 1, ``loss_points`` 0 (九第一条2).
    * ``penalty_points`` (2 局分 per penalty, 九第三条4, 第四条) and ``penalty_affects_result``
      (True: the deduction lowers the match total that decides the match; False: only the
      tie-break values).
    * ``misconduct_credit`` (8) and ``misconduct_reading`` (十（六）（七） 判负，对手得8分):
      ``replace`` (default: the match's 局分 become credit for the opponent, 0 for the offender),
      ``replace_zero_sum`` (+8 / −8), ``added`` (the games played so far count, the opponent
      gets +8 on top), ``match_points`` (8 is 积分 for the opponent; 局分 as played).
      The offender always loses the match (``L``), the opponent wins (``W``).
    * ``lateness_forfeit_minutes`` (15, 十（十一）): a ``late`` adjustment of at least this many
      minutes is a forfeit. ``forfeit_game_points`` (0): 局分 credited to the non-forfeiting
      team (only matters when results are not annulled). ``forfeit_annuls_all`` (True, 九第一条2):
      :func:`annul_forfeits` voids all matches of a forfeiting team.
    * ``bye_points`` (0): 积分 of a bye (the 规程 has no byes; a 9-team Berger round has one).

    What is typed in the workbook (entry columns, completeness, the extra game of a knockout) is
    the mixin :class:`bianpai.engines.gouji_entry.GoujiEntry`.

    ``games`` (rows of one match), one of three shapes:

    * wide: ``game`` (int 1…N) and ``seat_1`` … ``seat_6`` (finish per seat; or columns ``1`` …
      ``6``);
    * long: ``game``, ``seat`` (int 1–6), ``finish``;
    * 局分 typed directly: ``game``, ``points_0``, ``points_1`` (each team's 局分 of the game);
      also allowed next to the finishes, then they must agree.

    ``adjustments`` (optional): ``side`` (0/1; or ``entrant``), ``kind`` (:data:`ADJUSTMENT_KINDS`:
    ``penalty`` 扣分, ``misconduct`` 判负, ``forfeit`` 弃权, ``late`` 迟到), ``value`` (penalty:
    局分 deducted, empty = ``penalty_points``, sign ignored; late: minutes).

    Errors: :meth:`validate` lists every :class:`InputError` (Chinese then English, with
    ``row``/``column``/``game`` hints); :meth:`score` raises the first.
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["gouji_games"] = "gouji_games"
    games_per_match: int = Field(3, ge=1)
    home_seats: list[int] = Field(default_factory=lambda: [1, 3, 5])
    finish_points: dict[str, Decimal] = Field(default_factory=lambda: {
        "头科": Decimal(4), "二科": Decimal(2), "三科": Decimal(0), "四科": Decimal(0),
        "小落": Decimal(-2), "大落": Decimal(-4)})
    sweep_points: Decimal = Decimal(8)
    sweep_scoring: Literal["zero_sum", "other_keeps_places", "added_zero_sum"] = "zero_sum"
    win_points: Decimal = Decimal(2)
    draw_points: Decimal = Decimal(1)
    loss_points: Decimal = Decimal(0)
    penalty_points: Decimal = Decimal(2)
    penalty_affects_result: bool = True
    misconduct_credit: Decimal = Decimal(8)
    misconduct_reading: Literal["replace", "replace_zero_sum", "added", "match_points"] = "replace"
    lateness_forfeit_minutes: int = Field(15, ge=0)
    forfeit_game_points: Decimal = Decimal(0)
    forfeit_annuls_all: bool = True
    bye_points: Decimal = Decimal(0)
    # a knockout needs a winner; the 规程 (七（二）) does not say how a 局分 tie is broken:
    # ``extra_game`` = one more game decides (its 局分), ``none`` = a tie stays a draw
    tie_decider: Literal["none", "extra_game"] = "none"
    clause: str | None = "九第一条2；九第三条4；九第四条；十（六）（七）（十一）"
    note: str | None = DEFAULT_NOTE
    _allowed: set = PrivateAttr(default_factory=set)
    #: scored matches by (match, typed values): a pure function, so a repeated evaluation of
    #: the same typed rows (is_complete, then score_typed) is computed once
    _memo: dict = PrivateAttr(default_factory=dict)
    _settings_key: str | None = PrivateAttr(default=None)

    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("主队", "Home"), ("客队", "Away"))
    #: what is typed per game: (column, Chinese, English)
    game_columns: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("game", "局", "game"),
        *((f"seat_{k}", f"{k}号位", f"seat {k}") for k in range(1, 7)))
    #: the alternative: each team's 局分 per game
    points_columns: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("game", "局", "game"), ("points_0", "主队局分", "home game points"),
        ("points_1", "客队局分", "away game points"))
    criteria: ClassVar[tuple[str, ...]] = ("match_points", "net_score", "game_points")

    @field_validator("home_seats")
    @classmethod
    def _seats(cls, v):
        if len(v) != 3 or len(set(v)) != 3 or not all(1 <= s <= 6 for s in v):
            raise ValueError("主队座位须为1–6中的三个不同号位 / home_seats must be three distinct "
                             "seats of 1–6")
        return sorted(v)

    @field_validator("finish_points", mode="before")
    @classmethod
    def _table(cls, v):
        if isinstance(v, dict):
            v = {FINISH_ALIASES.get(str(k), str(k)): x for k, x in v.items()}
            if set(v) != set(FINISHES):
                raise ValueError(f"局分表须恰好列出{'、'.join(FINISHES)} / the table must list "
                                 f"exactly the six finishes")
        return v

    @model_validator(mode="after")
    def _sweep_table(self):
        self._allowed = self._allowed_pairs()
        return self

    # ---------------------------------------------------------------- per game
    def side_of_seat(self, seat: int) -> int:
        """0 for a home seat, 1 otherwise."""
        return 0 if seat in self.home_seats else 1

    def game_points(self, finishes: dict[int, str]) -> tuple[Decimal, Decimal]:
        """局分 of (side 0, side 1) for one game from ``{seat: finish}`` (all six seats)."""
        own = [[f for s, f in finishes.items() if self.side_of_seat(s) == side]
               for side in (0, 1)]
        base = [sum((self.finish_points[f] for f in fs), Decimal(0)) for fs in own]
        for side in (0, 1):
            if set(own[side]) == SWEEP:
                other = 1 - side
                if self.sweep_scoring == "zero_sum":
                    mine, theirs = self.sweep_points, -self.sweep_points
                elif self.sweep_scoring == "other_keeps_places":
                    mine, theirs = self.sweep_points, base[other]
                else:
                    mine = base[side] + self.sweep_points
                    theirs = -mine
                out = [Decimal(0), Decimal(0)]
                out[side], out[other] = mine, theirs
                return out[0], out[1]
        return base[0], base[1]

    def _allowed_pairs(self) -> set[tuple[Decimal, Decimal]]:
        """Every (side 0, side 1) 局分 pair a game can give under the settings."""
        seats = list(self.home_seats) + [s for s in range(1, 7) if s not in self.home_seats]
        out = set()
        for home in itertools.combinations(FINISHES, 3):
            away = [f for f in FINISHES if f not in home]
            out.add(self.game_points(dict(zip(seats, list(home) + away))))
        return out

    # ---------------------------------------------------------------- reading the rows
    def _check_points(self, g: int, p0: Decimal, p1: Decimal, row) -> InputError | None:
        if (p0, p1) in self._allowed:
            return None
        ok = "、".join(f"{a}:{b}" for a, b in sorted(self._allowed, reverse=True))
        return gouji_error(
            f"第{g}局的局分 {p0}:{p1} 不符合局分表（头科{self.finish_points['头科']}…"
            f"大落{self.finish_points['大落']}，串三户{self.sweep_points}），可能的比分：{ok}",
            f"game {g}: game points {p0}:{p1} are impossible under the table; possible: {ok}",
            row=row, column="points_0", game=g)

    def validate(self, match: Match, games: pd.DataFrame | list[dict] | None,
                 adjustments: pd.DataFrame | None = None) -> list[InputError]:
        """Every input error of this match's rows (empty list when it can be scored)."""
        return self._evaluate(match, games, adjustments)[1]

    def score(self, match: Match, games: pd.DataFrame | list[dict] | None,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score one complete match (see the class text for ``games``/``adjustments``; each a
        DataFrame or a list of row dicts, a game row's sheet row in ``_row``).

        Returns a :class:`MatchResult` with ``points`` (积分 2/1/0, Decimal), ``outcome``
        (W/D/L, FW/FL for a forfeit, BYE) and ``values`` ``game_points``, ``net_score``
        (Decimal per side) and ``game_scores`` (per side, the tuple of its 局分 per game, for
        display; not penalty-adjusted).
        Raises the first :class:`InputError` of :meth:`validate`.
        """
        result, errors = self._evaluate(match, games, adjustments)
        if errors:
            raise errors[0]
        return result

    def _evaluate(self, match, games, adjustments):
        if match.is_bye:
            pts = tuple(self.bye_points if s is not None else Decimal(0) for s in match.sides)
            z = (Decimal(0), Decimal(0))
            return MatchResult(match, pts, ("BYE", "BYE"),
                               {"game_points": z, "net_score": z, "game_scores": ((), ())},
                               "轮空", "bye"), []
        pen, mis, fft, late_min, errors = read_adjustments(
            match, adjustments, self.penalty_points, self.lateness_forfeit_minutes)
        if errors:
            return None, errors
        if any(fft):
            return self._forfeit(match, fft, late_min), []
        fins, pts, errors = read_games(games)
        per_game: dict[int, tuple[Decimal, Decimal]] = {}
        for g in sorted(set(fins) | set(pts)):
            pair = None
            if fins.get(g):
                got = check_game(g, fins[g], errors)
                if got is not None:
                    pair = self.game_points(got)
                    if g in pts and (pts[g][0], pts[g][1]) != pair:
                        errors.append(gouji_error(
                            f"第{g}局录入的局分 {pts[g][0]}:{pts[g][1]} 与名次算出的 "
                            f"{pair[0]}:{pair[1]} 不符",
                            f"game {g}: typed game points {pts[g][0]}:{pts[g][1]} differ from "
                            f"{pair[0]}:{pair[1]} given by the finishes",
                            row=pts[g][2], column="points_0", game=g))
                        continue
            elif g in pts:
                err = self._check_points(g, *pts[g])
                if err is not None:
                    errors.append(err)
                    continue
                pair = (pts[g][0], pts[g][1])
            else:
                continue
            if pair is not None:
                per_game[g] = pair
        if errors:
            return None, errors
        if not any(mis):
            want = list(range(1, self.games_per_match + 1))
            if sorted(per_game) != want:
                got_games = sorted(set(fins) | set(pts))
                errors.append(gouji_error(
                    f"本场应打{self.games_per_match}局（第1–{self.games_per_match}局），"
                    f"录入的是：{got_games or '无'}",
                    f"a match has {self.games_per_match} games (1–{self.games_per_match}); "
                    f"typed: {got_games or 'none'}", column="game",
                    row=_row_of_game(fins, pts, [g for g in got_games if g not in want])))
                return None, errors
        elif any(g > self.games_per_match or g < 1 for g in per_game):
            errors.append(gouji_error(f"局号须在1–{self.games_per_match}之间",
                                      f"game numbers must be 1–{self.games_per_match}",
                                      column="game", row=_row_of_game(fins, pts, [
                                          g for g in per_game
                                          if g > self.games_per_match or g < 1])))
            return None, errors
        played = [sum((p[i] for p in per_game.values()), Decimal(0)) for i in (0, 1)]
        games_shown = tuple(per_game[g] for g in sorted(per_game))
        if any(mis):
            return self._misconduct(match, mis, played, pen, games_shown), []
        total = [played[i] - pen[i] for i in (0, 1)]
        decide = total if self.penalty_affects_result else played
        outcome = ("W", "L") if decide[0] > decide[1] else ("L", "W") if decide[0] < decide[1] \
            else ("D", "D")
        zh, en = self._penalty_note(pen)
        return self._result(match, outcome, total, games_shown, zh, en), []

    def _points_for(self, o: str) -> Decimal:
        return {"W": self.win_points, "FW": self.win_points, "D": self.draw_points}.get(
            o, self.loss_points)

    def _result(self, match, outcome, total, games_shown, zh="", en="", points=None):
        points = points or tuple(self._points_for(o) for o in outcome)
        values = {"game_points": (total[0], total[1]),
                  "net_score": (total[0] - total[1], total[1] - total[0]),
                  "game_scores": (tuple(p[0] for p in games_shown),
                                  tuple(p[1] for p in games_shown))}
        return MatchResult(match, tuple(points), tuple(outcome), values, zh, en)

    def _penalty_note(self, pen):
        parts_zh, parts_en = [], []
        for i, p in enumerate(pen):
            if p:
                parts_zh.append(f"{self.side_labels[i][0]}扣局分{p}")
                parts_en.append(f"{self.side_labels[i][1].lower()} −{p} game points")
        if not parts_zh:
            return "", ""
        return "；".join(parts_zh) + "（九第三条、第四条）", "; ".join(parts_en)

    def _forfeit(self, match, fft, late_min) -> MatchResult:
        why_zh, why_en = [], []
        for i in (0, 1):
            if fft[i]:
                e = match.sides[i]
                if late_min[i] is not None:
                    why_zh.append(f"{e}号迟到{late_min[i]}分钟，视为弃权（十（十一））")
                    why_en.append(f"{e} was {late_min[i]} min late: forfeit")
                else:
                    why_zh.append(f"{e}号弃权")
                    why_en.append(f"{e} forfeited")
        # the annulment (九第一条2) is noted by annul_forfeits where the format applies it (the
        # forfeit itself included): not said twice here, nor in a knockout, which keeps it
        zh, en = "；".join(why_zh), "; ".join(why_en)
        if all(fft):
            z = Decimal(0)
            return self._result(match, ("FL", "FL"), (z, z), (), zh, en,
                                points=(self.loss_points, self.loss_points))
        w = 1 if fft[0] else 0
        total = [Decimal(0), Decimal(0)]
        total[w] = self.forfeit_game_points
        outcome = ["FL", "FL"]
        outcome[w] = "FW"
        return self._result(match, tuple(outcome), total, (), zh, en)

    def _misconduct(self, match, mis, played, pen, games_shown) -> MatchResult:
        c = self.misconduct_credit
        zh = "违规判负（十（六）（七）），对手得" + str(c) + "分"
        en = f"loss for misconduct; the opponent is credited {c}"
        if all(mis):
            total = [played[i] - pen[i] for i in (0, 1)]
            return self._result(match, ("L", "L"), total, games_shown, "双方均判负", "both lose",
                                points=(self.loss_points, self.loss_points))
        off = 0 if mis[0] else 1
        opp = 1 - off
        outcome = ["L", "L"]
        outcome[opp] = "W"
        total = [Decimal(0), Decimal(0)]
        points = None
        r = self.misconduct_reading
        if r == "replace":
            total[opp] = c
        elif r == "replace_zero_sum":
            total[opp], total[off] = c, -c
        elif r == "added":
            total = [played[0], played[1]]
            total[opp] += c
        else:
            total = [played[0], played[1]]
            points = [self.loss_points, self.loss_points]
            points[opp] = c
        total = [total[i] - pen[i] for i in (0, 1)]
        pz, pe = self._penalty_note(pen)
        return self._result(match, tuple(outcome), total, games_shown,
                            "；".join(x for x in (zh, pz) if x), "; ".join(x for x in (en, pe) if x),
                            points=points)

    # ---------------------------------------------------------------- the workbook's entry
    # (the entry sheet's columns, typed rows, completeness: engines/gouji_entry.py)
    #: 判定 codes of the 成绩 sheet → (side, adjustment kind)
    DECISIONS: ClassVar[dict[str, tuple[int, str]]] = {
        "主队弃权": (0, "forfeit"), "客队弃权": (1, "forfeit"),
        "主队判负": (0, "misconduct"), "客队判负": (1, "misconduct")}

    def finalize(self, results: list[MatchResult]) -> list[MatchResult]:
        """九第一条2: a forfeiting team's results are all void (setting ``forfeit_annuls_all``)."""
        return annul_forfeits(results, self)


register_scoring(GoujiScoring, "够级", "gouji")


def annul_forfeits(results, rules: GoujiScoring) -> list[MatchResult]:
    """九第一条2: every team with a forfeit (``FL``) in ``results`` has ALL its matches voided for
    both sides (removed from everyone's totals; 说明 says why). A no-op list copy when
    ``rules.forfeit_annuls_all`` is False. ``results``: MatchResults or the state's dict."""
    out = list(results.values()) if isinstance(results, dict) else list(results)
    if not rules.forfeit_annuls_all:
        return out
    forfeiters = []
    for r in out:
        for s, o in zip(r.match.sides, r.outcome):
            if o == "FL" and s is not None and s not in forfeiters:
                forfeiters.append(s)
    for e in forfeiters:
        out = annul_entrant(out, e, reason_zh=f"因{e}号弃权，其全部成绩无效",
                            reason_en=f"entrant {e} forfeited; all its results are annulled",
                            clause="九第一条2")
    return out


def _row_of_game(fins: dict, pts: dict, games: list[int]):
    """The typed row of the first of ``games`` (its 局 cell names the error), or None."""
    for g in games:
        if fins.get(g):
            return next(iter(fins[g].values()))[1]
        if g in pts:
            return pts[g][2]
    return None
