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
"""

from __future__ import annotations

import random
import re
from decimal import Decimal
from typing import Any, ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import (EntryColumn, Match, MatchResult, TypedMatch, is_blank,
                                  register_scoring)
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.matchpoints import score_board, top
from bianpai.engines.mitchell import NS, EW, boards_from_label, direction_of
from bianpai.engines.rounding import to_decimal
from bianpai.engines.standings import Criterion, register

__all__ = ["Upgrade80Scoring", "KittyMultipliers", "score_round", "score_stage", "board_score",
           "foul_points", "FOULS", "KITTY_CODES", "PENALTY_KINDS"]

#: 抠底 codes as typed (Chinese or English) → canonical code; ``None`` = no 抠底.
KITTY_CODES: dict[str, str | None] = {
    "": None, "无": None, "none": None, "否": None, "不抠底": None, "0": None,
    "单": "single", "单抠": "single", "single": "single", "2": "single", "×2": "single",
    "双": "double", "双抠": "double", "double": "double", "4": "double", "×4": "double",
    "拖拉机": "tractor", "拖拉机抠": "tractor", "拖": "tractor", "tractor": "tractor",
    "8": "tractor", "×8": "tractor",
}

#: adjustment ``kind`` codes (Chinese or English) → canonical code.
PENALTY_KINDS: dict[str, str] = {
    "board_misplaced": "board_misplaced", "插错牌": "board_misplaced", "插错牌套": "board_misplaced",
    "discipline": "discipline", "纪律": "discipline", "违纪": "discipline",
    "mp": "mp", "比赛分": "mp", "罚比赛分": "mp",
    "late": "late", "迟到": "late",
}

#: Table penalties in points (四1–四10): code → (points, per card?, cap, clause, Chinese text).
#: The scorer adds them to the board's ``adjust`` column (points given to the other side are a
#: minus for the offending side's own score or a plus for the other side's, as typed).
FOULS: dict[str, tuple[int, bool, int | None, str, str]] = {
    "kitty_count": (40, False, None, "四1", "底牌不是8张，扣40分给对方"),
    "card_count": (10, True, None, "四2", "多牌或少牌，每张罚10分给对方"),
    "wrong_throw": (10, True, 80, "四4", "甩错牌，每张扣10分，每次最多80分"),
    "out_of_turn": (10, True, None, "四5", "越序出牌，每张罚10分"),
    "exposed_major": (20, False, None, "四6①", "重罚张，持重罚张一方扣20分"),
    "exposed_minor": (10, True, None, "四6②", "轻罚张，每张扣10分"),
    "hidden_card": (10, True, None, "四7", "藏张，每张罚10分（第三轮成立罚80分）"),
    "overtime": (10, False, None, "四8", "出牌超时，第一次警告，第二次起扣10分"),
    "signal": (40, False, None, "四9", "非法信号，罚40分"),
    "illegal_info": (40, False, None, "四10", "传递非法信息，警告并罚40分（或该副结束，对方得120分）"),
}


def foul_points(code: str, cards: int = 1, occurrence: int = 2) -> int:
    """Points a table foul costs (四1–四10), to type into the board's ``adjust`` column.

    ``cards``: cards involved (for per-card fouls); ``occurrence``: for ``overtime`` the
    how-many-th time (the first is a warning, 0 points); ``hidden_card`` found at the third
    trick is 80 (四7 藏张第三轮时结果成立，罚分80分). Raises ``InputError`` for an unknown code."""
    if code not in FOULS:
        raise InputError(f"未知的违规代码「{code}」", f"unknown foul code {code!r}")
    pts, per_card, cap, _, _ = FOULS[code]
    if code == "overtime" and occurrence < 2:
        return 0
    if code == "hidden_card" and cards >= 3:
        return 80
    total = pts * (cards if per_card else 1)
    return min(total, cap) if cap else total


class KittyMultipliers(BaseModel):
    """抠底 multipliers of the kitty points (三8 单抠*2，双抠*4，拖拉机抠*8)."""

    model_config = ConfigDict(extra="forbid")

    single: int = 2
    double: int = 4
    tractor: int = 8
    clause: str | None = "三8"
    note: str | None = "抠底：防家最后一圈最大时，底牌分按单抠×2、双抠×4、拖拉机抠×8计入防家得分"

    def factor(self, code: str | None) -> int:
        return {None: 0, "single": self.single, "double": self.double,
                "tractor": self.tractor}[code]


class Upgrade80Scoring(BaseModel):
    """80分 pairs scoring by 比赛分 (kind ``upgrade80_mp``; aliases 80分, 升级, 八十分).

    Settings (each a 规程 reading): ``scale`` (``2/1/0``: 2 per table beaten, 1 per tie; or
    ``acbl`` 1/½/0), ``neuberg`` (scale real results when a board has fewer comparable results
    than tables that should have played it), ``scored_side`` (whose 得分 a board row records
    when its ``scored`` cell is empty: ``NS`` — the 南北 pair keeps the card, 三1), ``kitty``
    (抠底 multipliers), ``total_points`` (200: two packs), ``point_step`` (5),
    ``max_kitty_points`` (8 cards, at most 80), ``penalty_mp`` (0.5: 三7, 五), ``late_minutes``
    (10: 四11), ``late_offender_share``/``late_other_share`` (the forfeited round's boards as a
    share of the top: 0 and 0.6), ``bye_share`` (a pair without an opponent: 0.5 of the top on
    each board of its set), ``countback`` (``board_mp`` or ``board_points``: what "最高分" is).

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
    clause: str | None = "扑克牌升级（80分）比赛规则 一4、二3、三7、三8、四、五"
    note: str | None = ("比赛分按同方向同一副牌逐桌比较：胜一桌2分、平1分（规程未写明，读作桥牌比赛分）；"
                        "某副比较桌数不足时用 Neuberg 公式；迟到弃权的一轮按违规方0%、对方60%计（四11 未写明"
                        "弃权后比赛分，读法）；“最高分”读作单副最高比赛分；罚0.5比赛分从该对总分中扣除，"
                        "不改逐副比较的比赛分。")

    #: the scoring needs every table of the stage at once (see :func:`score_round`)
    scope: ClassVar[str] = "stage"
    criteria: ClassVar[tuple[str, ...]] = ("match_points", "upgrade80_countback")
    game_columns: ClassVar[tuple[str, ...]] = ("round", "table", "board", "points", "scored",
                                               "kitty_points", "kitty", "adjust")

    def chain(self) -> list[str]:
        """The ranking chain (二3): Σ 比赛分, then the countback named by ``countback``."""
        return ["match_points", "upgrade80_countback" if self.countback == "board_mp"
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

    @staticmethod
    def _typed(r: dict) -> bool:
        return any(not is_blank(r.get(k)) for k in ("points", "kitty_points", "kitty", "adjust"))

    def is_complete(self, typed: TypedMatch) -> bool:
        """A lateness decision, or 得分 on every prepared board row."""
        if typed.decision:
            return True
        recs = typed.games.to_dict("records")
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

    def finalize(self, results: list[MatchResult]) -> list[MatchResult]:
        return list(results)

    _BOARD: ClassVar[re.Pattern] = re.compile(r"(\d+)\s*副")

    def score_stage(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                    ) -> list[MatchResult]:
        """The stage-scope entry point (``scope = "stage"``): every drawn match and what was
        typed for each (by :attr:`Match.key`) → the MatchResults of the complete matches.

        逐局成绩 rows become ``board_rows`` (index: the sheet row ``_row``); 罚分 rows become
        ``adjustments``: the 原因 names the kind (插错牌套 三7 — with the board, e.g.
        "插错牌套 第5副"; 违纪 五; otherwise a plain 比赛分 deduction) and 罚分 the 比赛分 (empty:
        ``penalty_mp``); a 判定 南北/东西迟到弃权 is the round's forfeit (四11). Raises
        ``InputErrors`` whose board-row errors carry ``row``/``column`` (the 逐局成绩 cell) and
        whose penalty errors carry ``where`` (the match's first typed cell)."""
        from bianpai.engines.errors import InputErrors as _Errs  # noqa: PLC0415
        rows, adj, adj_where = [], [], {}
        for m in matches:
            t = typed.get(m.key)
            if t is None:
                continue
            for r in t.games.to_dict("records"):
                if not self._typed(r):
                    continue
                rows.append({"_row": r.get("_row"), "round": m.round, "table": m.table,
                             "board": r.get("deal"), "points": r.get("points"),
                             "scored": r.get("scored"), "kitty_points": r.get("kitty_points"),
                             "kitty": r.get("kitty"), "adjust": r.get("adjust")})
            for side, reason, value in t.penalties:
                txt = str(reason or "").strip()
                kind = "mp"
                for k in sorted(PENALTY_KINDS, key=len, reverse=True):
                    if k in txt:
                        kind = PENALTY_KINDS[k]
                        break
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
                else:
                    _place(e, adj_where.get(e.row))
                    e.row = None
                    e.zh = re.sub(r"^罚则第\d+行：", "罚分：", e.zh)
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


# ------------------------------------------------------------------------------ board values



def _int(v, what_zh: str, what_en: str) -> int:
    try:
        d = to_decimal(v)
    except ValueError:
        raise InputError(f"{what_zh}须为整数，而不是「{v}」", f"{what_en} must be an integer, "
                         f"not {v!r}") from None
    if d != d.to_integral_value():
        raise InputError(f"{what_zh}须为整数，而不是「{v}」", f"{what_en} must be an integer, not {v!r}")
    return int(d)


def board_score(points, kitty_points=None, kitty=None, adjust=None, *,
                rules: Upgrade80Scoring | None = None) -> int:
    """The 得分 of the scored side on one board: ``points`` (card points won in tricks, a
    multiple of 5, 0 … 200) + ``kitty_points`` × the 抠底 multiplier (``kitty``: 单抠/双抠/拖拉机抠
    or single/double/tractor; none → the kitty does not count) + ``adjust`` (table penalties in
    points, ±, multiples of 5).

    Source: 三8 抠底 单抠*2，双抠*4，拖拉机抠*8; 四1–四10. Raises ``InputError`` for a value the
    rules do not allow (not a multiple of 5, more than the pack holds, unknown 抠底 code, kitty
    points with 抠底 above 8 cards' worth)."""
    rules = rules or Upgrade80Scoring()
    step, total = rules.point_step, rules.total_points
    if is_blank(points):
        raise InputError("缺少得分", "the points are missing")
    p = _int(points, "得分", "points")
    if p < 0 or p > total or p % step:
        raise InputError(f"得分 {p} 无效：须为 0–{total} 之间 {step} 的倍数",
                         f"points {p} invalid: a multiple of {step} from 0 to {total}")
    code_raw = "" if is_blank(kitty) else str(kitty).strip()
    code_key = code_raw.lower() if code_raw.lower() in KITTY_CODES else code_raw
    if code_key not in KITTY_CODES:
        raise InputError(f"抠底「{code_raw}」无效：应为 单抠、双抠、拖拉机抠 或留空",
                         f"kitty capture {code_raw!r} invalid: single, double, tractor or empty")
    code = KITTY_CODES[code_key]
    kp = 0 if is_blank(kitty_points) else _int(kitty_points, "底牌分", "kitty points")
    if kp < 0 or kp % step or kp > rules.max_kitty_points or p + kp > total:
        raise InputError(f"底牌分 {kp} 无效：须为 {step} 的倍数、不超过 {rules.max_kitty_points}，"
                         f"且与得分合计不超过 {total}",
                         f"kitty points {kp} invalid: a multiple of {step}, at most "
                         f"{rules.max_kitty_points}, and points + kitty at most {total}")
    if code and kp == 0 and is_blank(kitty_points):
        raise InputError("填写了抠底但没有填底牌分", "a kitty capture is typed without its kitty points")
    adj = 0 if is_blank(adjust) else _int(adjust, "罚分调整", "penalty adjustment")
    if adj % step:
        raise InputError(f"罚分调整 {adj} 须为 {step} 的倍数",
                         f"penalty adjustment {adj} must be a multiple of {step}")
    return p + kp * rules.kitty.factor(code) + adj


# ------------------------------------------------------------------------------ stage scoring

def _side(v, what="side") -> int:
    if isinstance(v, str):
        s = v.strip()
        if s in ("0", "1"):
            return int(s)
        return 0 if direction_of(s) == NS else 1
    i = int(v)
    if i not in (0, 1):
        raise InputError(f"方向 {v} 无效（0 南北、1 东西）", f"side {v} invalid (0 NS, 1 EW)")
    return i


def score_round(matches: list[Match], board_rows: pd.DataFrame,
                adjustments: pd.DataFrame | None = None, *,
                rules: Upgrade80Scoring | None = None) -> list[MatchResult]:
    """Score every match of a Mitchell stage so far (the name says "round": it is called once
    per draw/score cycle with ALL matches drawn so far, since a board travels through every round).

    ``matches``: the stage's matches (``sides = (NS, EW)``, ``label`` naming the boards, see
    :func:`bianpai.engines.mitchell.boards_from_label`). ``board_rows``: one row per table and
    board, columns ``round`` (int), ``table`` (int), ``board`` (int), ``points`` (int, the 得分 of
    the scored side), optional ``scored`` (``NS``/``EW``/南北/东西; default ``rules.scored_side``),
    ``kitty_points`` (int), ``kitty`` (str 抠底 code), ``adjust`` (int points, ±).
    ``adjustments`` (optional): columns ``round``, ``table``, ``side`` (0/1 or NS/EW), ``kind``
    (``board_misplaced``/插错牌套 三7 — needs ``board``; ``discipline``/违纪 五; ``mp`` any
    比赛分 deduction; ``late``/迟到 四11 — ``value`` = minutes late, over ``late_minutes``
    forfeits the round), optional ``board`` (int) and ``value`` (Decimal; 比赛分 deducted,
    default ``penalty_mp``).

    Returns one :class:`MatchResult` per match that is complete (all its boards typed, or
    forfeited, or a sit-out), in input order: ``points`` = (NS Σ比赛分 − penalties, EW …)
    (Decimal), ``outcome`` W/D/L (BYE for a sit-out, FW/FL for a lateness forfeit),
    ``values``: ``board_mps`` (per side a tuple of Decimal 比赛分, one per board, board order),
    ``board_points`` (per side a tuple of its own-perspective board scores; None where not
    played), ``top`` (Σ tops of its boards, Decimal), ``penalty_mp`` (Decimal deducted).

    Raises ``InputErrors`` (each ``InputError`` carries ``row`` = the index label of the bad
    row and ``table`` = ``"board_rows"`` or ``"adjustments"``) for: a row for a table/round not
    drawn, a board the table did not play, a duplicate board row, a bad value, a penalty on an
    unknown board or table, board rows for a forfeited round.
    """
    rules = rules or Upgrade80Scoring()
    errors: list[InputError] = []

    def err(e: InputError, row, table: str) -> None:
        e.row = row  # type: ignore[attr-defined]
        e.table = table  # type: ignore[attr-defined]
        e.zh = f"{'成绩' if table == 'board_rows' else '罚则'}第{row}行：{e.zh}"
        e.en = f"{table} row {row}: {e.en}"
        errors.append(e)

    by_key: dict[tuple[int, int], Match] = {}
    boards_of: dict[tuple[int, int], tuple[int, ...]] = {}
    for m in matches:
        k = (m.round, m.table)
        by_key[k] = m
        if all(s is None for s in m.sides):
            boards_of[k] = ()
            continue
        boards_of[k] = boards_from_label(m.label)

    # ---- adjustments
    adj = adjustments if adjustments is not None else pd.DataFrame()
    penalties: dict[tuple[int, int], list[Decimal]] = {k: [Decimal(0), Decimal(0)] for k in by_key}
    forfeits: dict[tuple[int, int], int] = {}
    for idx, a in adj.iterrows():
        try:
            k = (_int(a.get("round"), "轮次", "round"), _int(a.get("table"), "桌号", "table"))
            if k not in by_key:
                raise InputError(f"第{k[0]}轮第{k[1]}桌没有对阵", f"no match at round {k[0]} "
                                 f"table {k[1]}")
            kind_raw = str(a.get("kind", "")).strip()
            kind = PENALTY_KINDS.get(kind_raw, PENALTY_KINDS.get(kind_raw.lower()))
            if kind is None:
                raise InputError(f"罚则类别「{kind_raw}」无效（插错牌套、违纪、比赛分、迟到）",
                                 f"penalty kind {kind_raw!r} invalid (board_misplaced, "
                                 f"discipline, mp, late)")
            side = _side(a.get("side"))
            if by_key[k].sides[side] is None:
                raise InputError(f"第{k[0]}轮第{k[1]}桌该方向无人", f"no pair on that side at "
                                 f"round {k[0]} table {k[1]}")
            board = None if is_blank(a.get("board")) else _int(a.get("board"), "牌号", "board")
            if kind == "board_misplaced" and board is None:
                raise InputError("插错牌套的罚分须写明牌号（三7）",
                                 "a misplaced-board penalty needs the board number (三7)")
            if board is not None and board not in boards_of[k]:
                raise InputError(f"第{k[0]}轮第{k[1]}桌没有打第{board}副牌",
                                 f"round {k[0]} table {k[1]} did not play board {board}")
            val = a.get("value")
            if kind == "late":
                minutes = to_decimal(val) if not is_blank(val) else Decimal(rules.late_minutes + 1)
                if minutes > rules.late_minutes:
                    forfeits[k] = side
                continue
            mp = rules.penalty_mp if is_blank(val) else to_decimal(val)
            if mp < 0:
                raise InputError(f"罚比赛分 {mp} 须为正数", f"penalty {mp} must be positive")
            penalties[k][side] += mp
        except InputError as e:
            err(e, idx, "adjustments")
        except (ValueError, TypeError) as e:
            err(InputError(f"数值无效：{e}", f"invalid value: {e}"), idx, "adjustments")

    # ---- board rows
    scores: dict[tuple[int, int], dict[int, Decimal]] = {k: {} for k in by_key}
    for idx, b in board_rows.iterrows():
        try:
            k = (_int(b.get("round"), "轮次", "round"), _int(b.get("table"), "桌号", "table"))
            if k not in by_key or not by_key[k].entrants:
                raise InputError(f"第{k[0]}轮第{k[1]}桌没有对阵", f"no match at round {k[0]} "
                                 f"table {k[1]}")
            m = by_key[k]
            if m.is_bye:
                raise InputError(f"第{k[0]}轮第{k[1]}桌轮空，不应有成绩",
                                 f"round {k[0]} table {k[1]} is a sit-out: no board results")
            if k in forfeits:
                raise InputError(f"第{k[0]}轮第{k[1]}桌已判迟到弃权（四11），不应有成绩",
                                 f"round {k[0]} table {k[1]} is forfeited for lateness: "
                                 f"no board results")
            board = _int(b.get("board"), "牌号", "board")
            if board not in boards_of[k]:
                raise InputError(f"第{k[0]}轮第{k[1]}桌本轮打第{_span(boards_of[k])}副，没有打第{board}副",
                                 f"round {k[0]} table {k[1]} played boards "
                                 f"{_span(boards_of[k])}, not board {board}")
            if board in scores[k]:
                raise InputError(f"第{k[0]}轮第{k[1]}桌第{board}副成绩重复",
                                 f"board {board} of round {k[0]} table {k[1]} is typed twice")
            scored = rules.scored_side if is_blank(b.get("scored")) else direction_of(b.get("scored"))
            s = board_score(b.get("points"), b.get("kitty_points"), b.get("kitty"),
                            b.get("adjust"), rules=rules)
            scores[k][board] = Decimal(s if scored == NS else -s)
        except InputError as e:
            err(e, idx, "board_rows")
    if errors:
        raise InputErrors(errors)

    # ---- which matches count
    complete = {k for k, m in by_key.items() if not m.is_bye and k not in forfeits
                and set(scores[k]) == set(boards_of[k])}
    counted = complete | {k for k in forfeits if not by_key[k].is_bye}
    played: dict[int, list[tuple[int, int]]] = {}
    for k in counted:
        for bd in boards_of[k]:
            played.setdefault(bd, []).append(k)

    # ---- matchpoint every board
    half = Decimal(1) if rules.scale == "2/1/0" else Decimal("0.5")
    mp: dict[tuple[int, int], dict[int, tuple[Decimal, Decimal]]] = {k: {} for k in by_key}
    board_top: dict[int, Decimal] = {}
    for bd, keys in played.items():
        keys = sorted(keys)
        expected = len(keys)
        ns_scores = [scores[k][bd] if k in complete else None for k in keys]
        real = sum(1 for s in ns_scores if s is not None)
        t = top(expected)
        board_top[bd] = t * half
        if real:
            df = score_board(ns_scores, expected=expected if rules.neuberg else real)
        for i, k in enumerate(keys):
            if k in complete:
                ns_v, ew_v = df["ns_mp"].iloc[i], df["ew_mp"].iloc[i]
            else:
                off = forfeits[k]
                shares = [rules.late_other_share, rules.late_other_share]
                shares[off] = rules.late_offender_share
                ns_v, ew_v = shares[0] * t, shares[1] * t
            mp[k][bd] = (Decimal(ns_v) * half, Decimal(ew_v) * half)

    # ---- results
    out: list[MatchResult] = []
    for m in matches:
        k = (m.round, m.table)
        if not m.entrants:
            continue
        bds = boards_of[k]
        if m.is_bye:
            present = 0 if m.sides[0] is not None else 1
            tops = [board_top.get(bd, Decimal(0)) for bd in bds]
            own = tuple(rules.bye_share * t for t in tops)
            per_side = [(), ()]
            per_side[present] = own
            pen = penalties[k]
            pts = [Decimal(0), Decimal(0)]
            pts[present] = sum(own, Decimal(0)) - pen[present]
            outcome = ["BYE", "BYE"]
            out.append(MatchResult(m, tuple(pts), tuple(outcome), values={
                "board_mps": tuple(per_side), "board_points": ((), ()),
                "top": (sum(tops, Decimal(0)),) * 2, "penalty_mp": tuple(pen)},
                note_zh="轮空（本轮无对手）", note_en="sit-out (no opponent this round)"))
            continue
        if k not in counted:
            continue
        ns_mps = tuple(mp[k][bd][0] for bd in bds)
        ew_mps = tuple(mp[k][bd][1] for bd in bds)
        pen = penalties[k]
        pts = (sum(ns_mps, Decimal(0)) - pen[0], sum(ew_mps, Decimal(0)) - pen[1])
        if k in forfeits:
            off = forfeits[k]
            outcome = ("FL", "FW") if off == 0 else ("FW", "FL")
            nz, ne = "迟到超过10分钟，该轮弃权（四11）", "late over 10 minutes: round forfeited (四11)"
            bp = ((None,) * len(bds), (None,) * len(bds))
        else:
            outcome = ("W", "L") if pts[0] > pts[1] else ("L", "W") if pts[0] < pts[1] else ("D", "D")
            nz = ne = ""
            bp = (tuple(scores[k][bd] for bd in bds), tuple(-scores[k][bd] for bd in bds))
        tot = sum((board_top[bd] for bd in bds), Decimal(0))
        out.append(MatchResult(m, pts, outcome, values={
            "board_mps": (ns_mps, ew_mps), "board_points": bp, "top": (tot, tot),
            "penalty_mp": tuple(pen)}, note_zh=nz, note_en=ne))
    return out


#: same function; the stage is what it scores
score_stage = score_round


def _span(bds: tuple[int, ...]) -> str:
    if not bds:
        return "—"
    return f"{bds[0]}-{bds[-1]}" if len(bds) > 1 else str(bds[0])


# ------------------------------------------------------------------------------ countback

def _countback(column: str):
    """Criterion function: the entrant's per-board values of ``column`` over all its rows,
    sorted best first, as a tuple (compared lexicographically: the best board, then the next
    best …). Source: 二3 如比赛分相同，则比较最高分，多者列前；如仍相同，则比较次高分。"""
    def compute(members, results, ctx):
        r = results
        if "complete" in r.columns:
            r = r[r["complete"].astype(bool)]
        out = {}
        for e in members:
            vals: list[Decimal] = []
            if column in r.columns:
                for tup in r.loc[r["entrant"] == e, column]:
                    if isinstance(tup, tuple):
                        vals.extend(to_decimal(v) for v in tup if v is not None)
            out[e] = tuple(sorted(vals, reverse=True))
        return out
    return compute


def _show_tuple(v) -> str:
    if not v:
        return "—"
    head = "/".join(f"{x.normalize():f}" for x in list(v)[:5])
    return head + ("…" if len(v) > 5 else "")


register(Criterion("upgrade80_countback", "逐副比较最高比赛分", "best board 比赛分 countback",
                   _countback("board_mps"), fmt=_show_tuple))
register(Criterion("upgrade80_countback_points", "逐副比较最高得分", "best board points countback",
                   _countback("board_points"), fmt=_show_tuple))
