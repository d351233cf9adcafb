"""80分（升级）duplicate pairs scoring: board points, 抠底, 比赛分 by board, penalties, countback.

The 80-point event of the Fujian elder games is played with pre-dealt boards (牌套) in a
Mitchell movement (:mod:`bianpai.engines.mitchell`): every table plays the same boards with a
fixed declarer, level and trump, and "more points is better" (以多得分为原则，不升级). A board
result is the points (得分) taken by the side being scored — card points won in tricks plus the
kitty (底牌) multiplied when the defenders win the last trick (抠底: single ×2, pair ×4, tractor
×8) plus the table penalties in points. Results on a board are compared among all tables that
played it, in the same direction, into 比赛分 (matchpoints: 2 per result beaten, 1 per tie; the
Neuberg formula when a board was played fewer times, :mod:`bianpai.engines.matchpoints`). A pair's
total is Σ 比赛分 less 0.5 比赛分 per penalty; equal totals are split by the best single board,
then the next best, … (countback).

Because 比赛分 compares tables, the scoring works on the whole stage (every match drawn so far
and every typed board row): :func:`score_round` (alias :func:`score_stage`), not per match.

Source: fujian-elder-mind-games-2024, 扑克牌升级（80分）比赛规则 一4（打同样的牌，以多得分为原则），
二3（比赛名次：首先比较比赛中所获比赛分之和，高者列前；如比赛分相同，则比较最高分，多者列前；如仍相同，
则比较次高分，多者列前，以此类推）, 三7（如果牌插错，影响比赛，裁判将判罚0.5比赛分）, 三8（抠底：…单抠*2，
双抠*4，拖拉机抠*8）, 四1–四10 (point penalties at the table), 四11（比赛一方迟到超过10分钟，判违规方该轮
弃权）, 五（每次将扣0.5个比赛分处理）; Law 78A (matchpoints); research/scoring-anchors.md §3, §5.3.

This module holds the settings (:class:`Upgrade80Scoring`) and the workbook entry; the board
values (得分, 抠底, fouls) are in :mod:`bianpai.engines.upgrade80_board` and the stage scoring
(比赛分, penalties, countback) in :mod:`bianpai.engines.upgrade80_stage`; their public names are
re-exported here.
"""

from __future__ import annotations

import random
import re
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import (EntryColumn, Match, MatchResult, TypedMatch, is_blank,
                                  register_scoring)
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.mitchell import boards_from_label
from bianpai.engines.upgrade80_board import (FOULS, KITTY_CODES, PENALTY_KINDS, KittyMultipliers,
                                             board_score, foul_points)
from bianpai.engines.upgrade80_stage import score_round, score_stage

__all__ = ["Upgrade80Scoring", "KittyMultipliers", "score_round", "score_stage", "board_score",
           "foul_points", "FOULS", "KITTY_CODES", "PENALTY_KINDS"]


class Upgrade80Scoring(BaseModel, ScoringDefaults):
    """80分 pairs scoring by 比赛分 (kind ``upgrade80_mp``; aliases 80分, 升级, 八十分).

    Settings (each a 规程 reading): ``scale`` (``2/1/0``: 2 per table beaten, 1 per tie; or
    ``acbl`` 1/½/0), ``neuberg`` (scale real results when a board has fewer comparable results
    than tables that should have played it), ``scored_side`` (whose 得分 a board row records
    when its ``scored`` cell is empty: ``NS`` — the 南北 pair keeps the card, 三1), ``kitty``
    (抠底 multipliers), ``total_points`` (200: two packs), ``point_step`` (5),
    ``max_kitty_points`` (8 cards, at most 80), ``penalty_mp`` (0.5: 三7, 五), ``late_minutes``
    (10: 四11), ``late_offender_share``/``late_other_share`` (the forfeited round's boards as a
    share of the top: 0 and 0.6), ``bye_share`` (a pair without an opponent: 0.5 of the top on
    each board of its set), ``countback`` (``board_mp`` or ``board_points``: what "最高分" is),
    ``illegal_info_points`` (四10 传递非法信息 "该副牌立即结束，判违规方负，非违规方得120分": typed in
    罚分 with 原因 "传递非法信息 第N副" and 队号 = the offender; the board is scored as 120 taken by
    the other side and compared across tables like any board), ``illegal_info_disqualify``
    (四10 "累计二次以上…取消违规方比赛资格": from the 2nd ruling the pair is disqualified —
    :meth:`disqualified`, registered by the command as a 退赛 with 成绩处理 取消). The other 四10 option, warning + 40 points,
    is a table penalty typed in the board's 罚分调整. ``withdrawal_boards``: the boards a pair
    meets at a table whose other pair has withdrawn (退赛; the seat is empty from the round after
    its last round, label "（n号退赛）"): ``average`` (``bye_share`` of the top, as a sit-out) or
    ``not_scored`` (nothing); the 规程 is silent.

    Use :meth:`score_round` (the whole stage); :meth:`score` refuses (a single match cannot be
    matchpointed).
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["upgrade80_mp"] = "upgrade80_mp"
    scale: Literal["2/1/0", "acbl"] = "2/1/0"
    neuberg: bool = True
    scored_side: Literal["NS", "EW"] = "NS"
    kitty: KittyMultipliers = Field(default_factory=KittyMultipliers)
    total_points: int = 200
    point_step: int = 5
    max_kitty_points: int = 80
    penalty_mp: Decimal = Decimal("0.5")
    late_minutes: int = 10
    late_offender_share: Decimal = Decimal("0")
    late_other_share: Decimal = Decimal("0.6")
    bye_share: Decimal = Decimal("0.5")
    countback: Literal["board_mp", "board_points"] = "board_mp"
    illegal_info_points: int = Field(120, ge=0)
    illegal_info_disqualify: int = Field(2, ge=1)
    withdrawal_boards: Literal["average", "not_scored"] = "average"
    clause: str | None = "扑克牌升级（80分）比赛规则 一4、二3、三7、三8、四、五"
    note: str | None = ("比赛分按同方向同一副牌逐桌比较：胜一桌2分、平1分（规程未写明，读作桥牌比赛分）；"
                        "某副比较桌数不足时用 Neuberg 公式；迟到弃权的一轮按违规方0%、对方60%计（四11 未写明"
                        "弃权后比赛分，读法）；“最高分”读作单副最高比赛分；罚0.5比赛分从该对总分中扣除，"
                        "不改逐副比较的比赛分。四10 传递非法信息判该副结束时（罚分表原因写「传递非法信息 第N副」，"
                        "队号为违规方），该副按非违规方得120分记、与其他桌同副比较（读法）；累计2次提示取消资格。"
                        "一对退赛后，其对手在该桌各副按平均比赛分（轮空同样，0.5×满分）计（规程未写明，读法；"
                        "可改为 not_scored 不计分）。")

    #: the scoring needs every table of the stage at once (see :func:`score_round`)
    scope: ClassVar[str] = "stage"
    criteria: ClassVar[tuple[str, ...]] = ("upgrade80_total", "upgrade80_countback")
    game_columns: ClassVar[tuple[str, ...]] = ("round", "table", "board", "points", "scored",
                                               "kitty_points", "kitty", "adjust")

    def chain(self) -> list[str]:
        """The ranking chain (二3): Σ 比赛分, then the countback named by ``countback``."""
        return ["upgrade80_total", "upgrade80_countback" if self.countback == "board_mp"
                else "upgrade80_countback_points"]

    def score(self, match: Match, games: pd.DataFrame,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Not available per match: raises ``RuleError`` (use :meth:`score_round`)."""
        raise RuleError("80分比赛分须将同一副牌的各桌成绩比较，请对全部对阵一次计分（score_round）",
                        "80-point matchpoints compare tables: score the whole stage with "
                        "score_round, not one match")

    def score_round(self, matches: list[Match], board_rows: pd.DataFrame,
                    adjustments: pd.DataFrame | None = None) -> list[MatchResult]:
        """See :func:`score_round`."""
        return score_round(matches, board_rows, adjustments, rules=self)


    # ---------------------------------------------------------------- the workbook's entry
    #: 判定 codes of the 成绩 sheet: a lateness forfeit of the round (四11) by one direction
    DECISIONS: ClassVar[dict[str, int]] = {"南北迟到弃权": 0, "东西迟到弃权": 1}
    #: entry columns prefilled when a match's rows are prepared (the board numbers)
    prefilled: ClassVar[tuple[str, ...]] = ("deal",)
    #: one 逐局成绩 row per board; the boards of a round come from the match (entry_rows)
    games_per_match: ClassVar[int] = 1
    KITTY_CHOICES: ClassVar[tuple[str, ...]] = ("单抠", "双抠", "拖拉机抠")

    def entry_game_columns(self) -> list[EntryColumn]:
        """逐局成绩 (随牌记录): one row per board a table played: 牌号 (prefilled), 得分 (the
        scored side's card points, 三1 南北家负责记分), 计分方 (empty = ``scored_side``), 底牌分 and
        抠底 (三8), 罚分调整 (points ± of the table penalties, 四1–四10)."""
        return [EntryColumn("deal", "牌号", "Board", "int", width=5),
                EntryColumn("points", "得分", "Points", "int", width=6),
                EntryColumn("scored", "计分方", "Scored side", "code", choices=("南北", "东西"),
                            width=6),
                EntryColumn("kitty_points", "底牌分", "Kitty points", "int", width=6),
                EntryColumn("kitty", "抠底", "Kitty capture", "code", choices=self.KITTY_CHOICES,
                            width=8),
                EntryColumn("adjust", "罚分调整", "Penalty points", "int", width=7)]

    def entry_match_columns(self) -> list[EntryColumn]:
        return []

    def entry_decisions(self) -> list[str]:
        """四11 比赛一方迟到超过10分钟，判违规方该轮弃权."""
        return list(self.DECISIONS)

    def entry_rows(self, match: Match) -> list[dict[str, Any]]:
        """The rows prepared for a table of a round: one per board of its set."""
        return [{"deal": b} for b in boards_from_label(match.label)]

    def stage_warnings(self, matches: list[Match], typed: dict) -> list[InputError]:
        """Said by rank, not refused: while every typed board has been played at one table only
        (a Mitchell's round 1: each set at one table), nothing can be compared (二3 比赛分 compares
        a board's tables), so every 比赛分 is 0 and the places are the lots'."""
        tables: dict[int, int] = {}
        for t in typed.values():
            for r in t.game_records():
                if self._typed(r) and not is_blank(r.get("deal")):
                    b = int(r["deal"])
                    tables[b] = tables.get(b, 0) + 1
        if not tables or max(tables.values()) > 1:
            return []
        return [InputError("各副牌目前都只在一桌打过：比赛分要与其他桌的同一副牌比较（二3），第2轮起才有比赛分，"
                           "现在全部为 0，名次暂由抽签决定",
                           "every board has been played at one table only: 比赛分 compares a "
                           "board's tables, so all are 0 until round 2 (places by lot for now)")]

    @staticmethod
    def _typed(r: dict) -> bool:
        return any(not is_blank(r.get(k)) for k in ("points", "kitty_points", "kitty", "adjust"))

    def is_complete(self, typed: TypedMatch) -> bool:
        """A lateness decision, or 得分 on every prepared board row."""
        if typed.decision:
            return True
        recs = typed.game_records()
        return bool(recs) and all(not is_blank(r.get("points")) for r in recs)

    def problems(self, match: Match, typed: TypedMatch) -> list:
        """Per-match problems are found by :meth:`score_stage` (the whole stage at once)."""
        return []

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        return self.score(match, typed.games)

    def bye(self, match: Match) -> MatchResult:
        return self.score(match, pd.DataFrame())

    def forfeit(self, match: Match, side: int) -> MatchResult:
        return self.score(match, pd.DataFrame())

    @staticmethod
    def annul_entrant(results: list[MatchResult], entrant: int, *, note_zh: str = "",
                      note_en: str = "") -> list[MatchResult]:
        """退赛 with 成绩处理 取消 (or 四10 取消比赛资格): the pair's own side of each of its
        results is VOID (0, not counted); its opponents keep the 比赛分 they earned — their
        boards were compared with every other table's and stand (a reading; the 规程 is silent).
        Other results are returned unchanged, in order."""
        out = []
        for r in results:
            if entrant not in r.match.sides:
                out.append(r)
                continue
            i = r.match.sides.index(entrant)
            pts, outcome = list(r.points), list(r.outcome)
            pts[i], outcome[i] = Decimal(0), "VOID"
            values = {k: tuple(None if j == i else x for j, x in enumerate(v))
                      for k, v in r.values.items()}
            out.append(MatchResult(r.match, tuple(pts), tuple(outcome), values,
                                   note_zh or f"{entrant}号成绩取消", note_en or "annulled"))
        return out

    _BOARD: ClassVar[re.Pattern] = re.compile(r"(\d+)\s*副")

    @staticmethod
    def penalty_kind(reason) -> str:
        """The penalty kind a 罚分 原因 names (longest matching word of ``PENALTY_KINDS``), else
        ``"mp"`` (a plain 比赛分 deduction)."""
        txt = str(reason or "").strip()
        for k in sorted(PENALTY_KINDS, key=len, reverse=True):
            if k in txt:
                return PENALTY_KINDS[k]
        return "mp"

    def disqualified(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                     ) -> dict[int, tuple[int, str, str]]:
        """四10 “累计二次以上传递非法信息的，取消违规方比赛资格”: entrant → (round of the ruling that
        reached ``illegal_info_disqualify``, reason zh, reason en), from the 罚分 rows naming
        传递非法信息 (counted per pair in round order). The command registers each as a 退赛
        with 成绩处理 取消 after that round, unless the arbiter registered one."""
        count: dict[int, int] = {}
        out: dict[int, tuple[int, str, str]] = {}
        for m in sorted(matches, key=lambda m: (m.round, m.table)):
            t = typed.get(m.key)
            for side, reason, _v in (t.penalties if t is not None else ()):
                who = m.sides[side] if side < len(m.sides) else None
                if who is None or self.penalty_kind(reason) != "illegal_info":
                    continue
                count[who] = count.get(who, 0) + 1
                if count[who] == self.illegal_info_disqualify and who not in out:
                    out[who] = (m.round, f"四10 累计{count[who]}次传递非法信息，取消比赛资格",
                                f"四10: illegal information {count[who]} times, disqualified")
        return out

    def score_stage(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                    ) -> list[MatchResult]:
        """The stage-scope entry point (``scope = "stage"``): every drawn match and what was
        typed for each (by :attr:`Match.key`) → the MatchResults of the complete matches.

        逐局成绩 rows become ``board_rows`` (index: the sheet row ``_row``); 罚分 rows become
        ``adjustments``: the 原因 names the kind (插错牌套 三7 — with the board, e.g.
        "插错牌套 第5副"; 违纪 五; 传递非法信息 第N副 四10 — the board ends, 罚分 = the points
        the other side is scored, 120; otherwise a plain 比赛分 deduction) and 罚分 the 比赛分
        (empty: ``penalty_mp``); a 判定 南北/东西迟到弃权 is the round's forfeit (四11). Raises
        ``InputErrors`` whose board-row errors carry ``row``/``column`` (the 逐局成绩 cell) and
        whose penalty errors carry ``where`` (the match's first typed cell)."""
        from bianpai.engines.errors import InputErrors as _Errs  # noqa: PLC0415
        rows, adj, adj_where = [], [], {}
        for m in matches:
            t = typed.get(m.key)
            if t is None:
                continue
            for r in t.game_records():
                if not self._typed(r):
                    continue
                rows.append({"_row": r.get("_row"), "round": m.round, "table": m.table,
                             "board": r.get("deal"), "points": r.get("points"),
                             "scored": r.get("scored"), "kitty_points": r.get("kitty_points"),
                             "kitty": r.get("kitty"), "adjust": r.get("adjust")})
            for side, reason, value in t.penalties:
                txt = str(reason or "").strip()
                kind = self.penalty_kind(txt)
                b = self._BOARD.search(txt)
                i = len(adj)
                adj.append({"round": m.round, "table": m.table, "side": side, "kind": kind,
                            "board": int(b.group(1)) if b else None,
                            "value": value if value else None})
                adj_where[i] = t.where[0] if t.where else None
            if t.decision:
                if t.decision not in self.DECISIONS:
                    e = InputError(f"未知的判定“{t.decision}”（应为：{'、'.join(self.DECISIONS)}）",
                                   f"unknown decision {t.decision!r}")
                    _place(e, t.where[0] if t.where else None)
                    raise _Errs([e])
                adj_where[len(adj)] = t.where[0] if t.where else None
                adj.append({"round": m.round, "table": m.table, "side": self.DECISIONS[t.decision],
                            "kind": "late", "board": None, "value": None})
        idx = [r.pop("_row") for r in rows]
        board_rows = pd.DataFrame(rows, index=idx if all(i is not None for i in idx) else None,
                                  columns=list(self.game_columns))
        adjustments = pd.DataFrame(adj, columns=["round", "table", "side", "kind", "board",
                                                 "value"]) if adj else None
        try:
            return self.score_round(matches, board_rows, adjustments)
        except _Errs as exc:
            for e in exc.errors:
                if getattr(e, "table", None) == "board_rows":
                    e.column = "points" if "得分" in e.zh or "底牌" in e.zh or "抠底" in e.zh \
                        or "罚分" in e.zh else "deal"
                    e.zh = re.sub(r"^成绩第\d+行：", "", e.zh)
                    e.en = re.sub(r"^board_rows row \d+: ", "", e.en)
                else:
                    _place(e, adj_where.get(e.row))
                    e.row = None
                    e.zh = re.sub(r"^罚则第\d+行：", "罚分：", e.zh)
                    e.en = re.sub(r"^adjustments row \S+: ", "penalty: ", e.en)
            raise

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """Board rows from 南北's view: points around 90, more for the stronger NS pair, now and
        then a kitty capture."""
        out = []
        for _ in range(games):
            d = strengths[0] - strengths[1]
            p = int(round((90 + 25 * d + rng.gauss(0, 30)) / 5)) * 5
            p = max(0, min(self.total_points, p))
            row: dict[str, Any] = {"points": p}
            if rng.random() < 0.15 and p <= self.total_points - 20:
                row["kitty_points"] = rng.choice((5, 10, 15, 20))
                row["kitty"] = rng.choice(self.KITTY_CHOICES[:2])
            out.append(row)
        return out


def _place(e: InputError, where: str | None) -> None:
    """Give ``e`` the cell ``where`` (``"sheet!cell"``) when it has none."""
    if where and getattr(e, "sheet", None) is None:
        e.sheet, _, e.cell = where.partition("!")


register_scoring(Upgrade80Scoring, "80分", "升级", "八十分", "升级80分")
