"""80分（升级）board values: the 得分 of one board, 抠底 multipliers and the table penalties in points.

A board result is the points (得分) taken by the side being scored: card points won in tricks
plus the kitty (底牌) multiplied when the defenders win the last trick (抠底) plus the table
penalties in points (四1–四10). The stage scoring that compares boards across tables is in
:mod:`bianpai.engines.upgrade80_stage`; the settings and the workbook entry in
:mod:`bianpai.engines.upgrade80`.

Source: fujian-elder-mind-games-2024 扑克牌升级（80分）比赛规则 三8（抠底：…单抠*2，双抠*4，拖拉机抠*8）,
四1–四10.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from bianpai.engines.core import is_blank
from bianpai.engines.errors import InputError
from bianpai.engines.rounding import to_decimal

if TYPE_CHECKING:
    from bianpai.engines.upgrade80 import Upgrade80Scoring

__all__ = ["KITTY_CODES", "PENALTY_KINDS", "FOULS", "foul_points", "KittyMultipliers",
           "board_score"]

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
    "illegal_info": "illegal_info", "传递非法信息": "illegal_info", "非法信息": "illegal_info",
    "四10": "illegal_info",
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

def _int(v, what_zh: str, what_en: str) -> int:
    if is_blank(v):
        raise InputError(f"{what_zh}未填（应为整数）", f"{what_en} is empty (an integer is expected)")
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
    if rules is None:
        from bianpai.engines.upgrade80 import Upgrade80Scoring  # noqa: PLC0415
        rules = Upgrade80Scoring()
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
