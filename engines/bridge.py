"""Bridge team scoring: IMPs (Law 78B), victory points (WBF 2013 continuous 20-VP scale),
carry-over and fines.

Units: bridge scores in points (multiples of 10, North-South's view), IMP = international match
points (integers, signed), VP = victory points (``Decimal`` with 2 places, 0.00–20.00 before
fines). Everything carried or compared is ``Decimal`` half-up to 2 places (see
:mod:`bianpai.engines.rounding`).

Sources: Laws of Duplicate Bridge, Law 78B (IMP scale); "The New WBF IMP to VP Scales" (WBF 2013)
as recovered in ``research/scoring-anchors.md`` §2.1–2.2 and checked against the EBU 8-board table
and five 2014 European Championships 16-board results (§2.3–2.4).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from decimal import Decimal
from functools import lru_cache

from bianpai.engines.errors import InputError
from bianpai.engines.rounding import q2, to_decimal

__all__ = [
    "IMP_TABLE",
    "imp_table",
    "imp",
    "imps_from_board_scores",
    "match_imps",
    "vp",
    "vp_hundredths_array",
    "vp_array",
    "vp_table",
    "blitz_margin",
    "carry_over",
    "carry_over_parts",
    "apply_fine",
]

#: Law 78B as ``(lowest |difference|, highest |difference| or None, IMPs)``.
IMP_TABLE: tuple[tuple[int, int | None, int], ...] = (
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23), (4000, None, 24),
)
#: Alias in lower case (the name used in the issue).
imp_table = IMP_TABLE

# Lower bounds of bands 1..24: IMPs = number of lower bounds <= |difference|.
_IMP_LOWER = tuple(lo for lo, _hi, _imps in IMP_TABLE[1:])


def _as_int(value, what: str) -> int:
    if isinstance(value, bool):
        raise InputError(f"{what}必须是整数：{value!r}", f"{what} must be an integer: {value!r}")
    if isinstance(value, int):
        return value
    try:
        d = to_decimal(value)
    except ValueError as exc:
        raise InputError(f"{what}不是数字：{value!r}", f"{what} is not a number: {value!r}") from exc
    if d != d.to_integral_value():
        raise InputError(f"{what}必须是整数：{value!r}", f"{what} must be an integer: {value!r}")
    return int(d)


def imp(points: int) -> int:
    """IMPs for a point difference ``points`` (Law 78B), with the sign of the difference.

    ``points`` is the net score difference in bridge points (e.g. +450 vs −50 in the other room
    is 500 → 11 IMP; −450 → −10 IMP). Differences that are not multiples of 10 fall in the band
    whose lower bound they have reached (15 → 0, 25 → 1), as the table is read on |difference|.

    Raises :class:`InputError` when ``points`` is not an integer.
    """
    p = _as_int(points, "分差")
    n = bisect_right(_IMP_LOWER, abs(p))
    return -n if p < 0 else n


def imps_from_board_scores(open_ns: int, closed_ns: int) -> int:
    """Home team's IMPs on one board of a team match (Law 78B).

    The home team sits North-South in the open room and East-West in the closed room (Fujian
    规程 六（四）3), so both scores are North-South scores and the home team's net is
    ``open_ns − closed_ns``. Returns signed IMPs for the home team; the away team gets the
    negative. Raises :class:`InputError` for non-integer scores.
    """
    o = _as_int(open_ns, "开室南北得分")
    c = _as_int(closed_ns, "闭室南北得分")
    return imp(o - c)


def match_imps(boards) -> tuple[int, int]:
    """Total IMPs ``(home, away)`` of a match given ``(open_ns, closed_ns)`` per board.

    Each board's IMPs go to the side that gained them, so ``home`` and ``away`` are both ≥ 0
    (the IMP quotient tie-break needs IMPs won and lost, not only the margin).
    """
    home = away = 0
    for open_ns, closed_ns in boards:
        b = imps_from_board_scores(open_ns, closed_ns)
        if b > 0:
            home += b
        else:
            away -= b
    return home, away


# --------------------------------------------------------------------------------------------
# Victory points, WBF 2013 continuous scale


def blitz_margin(boards: int) -> int:
    """Smallest IMP margin giving 20.00–0.00 on ``boards`` boards: ``ceil(15·√boards)``.

    8 → 43, 10 → 48, 12 → 52, 16 → 60, 20 → 68, 24 → 74 (WBF 2013).
    """
    b = _check_boards(boards)
    return math.ceil(15 * math.sqrt(b))


def _check_boards(boards) -> int:
    b = _as_int(boards, "每场副数")
    if b < 1:
        raise InputError(f"每场副数必须至少为1：{boards!r}",
                         f"boards per match must be at least 1: {boards!r}")
    return b


@lru_cache(maxsize=None)
def _vp_hundredths(boards: int) -> tuple[int, ...]:
    """Winner's VP in integer hundredths for margins 0..ceil(B) (last entry is 2000)."""
    tau = (math.sqrt(5) - 1) / 2
    r = tau ** 3
    blitz = 15 * math.sqrt(boards)
    top = math.ceil(blitz)
    c = []
    for i in range(top + 1):
        raw = 1000 + 1000 * (1 - r ** (i / blitz)) / (1 - r)
        c.append(min(2000, math.floor(raw + 0.5)))  # round half up on the float value
    # Concavity correction: the gain per extra IMP must never increase.
    changed = True
    while changed:
        changed = False
        for i in range(1, top):
            if c[i + 1] - c[i] > c[i] - c[i - 1]:
                c[i] += 1
                changed = True
                break
    return tuple(c)


def vp_table(boards: int) -> list[Decimal]:
    """The winner's VP for IMP margins ``0 … blitz_margin(boards)`` on ``boards`` boards.

    Entry ``i`` is the VP of a side winning by ``i`` IMPs (``Decimal``, 2 places); the last entry
    is 20.00. WBF 2013 continuous scale, rounded to hundredths, then concavity-corrected.
    Raises :class:`InputError` when ``boards`` < 1.
    """
    b = _check_boards(boards)
    return [Decimal(h).scaleb(-2) for h in _vp_hundredths(b)]


def vp(imp_margin: int, boards: int) -> tuple[Decimal, Decimal]:
    """Victory points ``(given side, opponent)`` for an IMP margin on ``boards`` boards.

    ``imp_margin`` is the given side's IMPs minus the opponent's (signed, IMP). The winner's VP
    comes from :func:`vp_table`; the loser gets ``20 − VP`` computed in integer hundredths, so the
    two always add up to 20.00. A margin of at least ``blitz_margin(boards)`` gives 20.00–0.00.
    Fines are not applied here (see :func:`apply_fine`).

    Source: WBF 2013 continuous 20-VP scale. Raises :class:`InputError` for a non-integer margin
    or ``boards`` < 1.
    """
    m = _as_int(imp_margin, "IMP差")
    b = _check_boards(boards)
    table = _vp_hundredths(b)
    win = table[min(abs(m), len(table) - 1)]
    lose = 2000 - win
    mine, theirs = (win, lose) if m >= 0 else (lose, win)
    return Decimal(mine).scaleb(-2), Decimal(theirs).scaleb(-2)


def vp_hundredths_array(imp_margin, boards):
    """Vectorised :func:`vp` in integer hundredths: ``(given side, opponent)`` int64 arrays.

    ``imp_margin``: array-like of signed IMP margins (one per match; integers, or floats with
    integral values such as a sheet column read as float). ``boards``: one board count for all,
    or an array-like of the same length. Entry ``i`` of the result is exactly
    ``vp(imp_margin[i], boards[i])`` × 100 (WBF 2013 continuous scale, concavity-corrected,
    loser = 2000 − winner), so ``Decimal(h).scaleb(-2)`` gives the scalar form's value.

    Raises :class:`InputError` for a margin that is not a finite integer, or a board count that
    is not an integer ≥ 1. Source: as :func:`vp`.
    """
    import numpy as np  # noqa: PLC0415  (kept out of the scalar path: UDFs start without numpy)

    try:
        m = np.asarray(imp_margin, dtype=float)
        b = np.broadcast_to(np.asarray(boards, dtype=float), m.shape)
    except (TypeError, ValueError) as exc:
        raise InputError(f"IMP差或每场副数不是数字：{exc}",
                         f"IMP margin or boards is not a number: {exc}") from exc
    bad = ~np.isfinite(m) | (m != np.round(m))
    if bad.any():
        v = m[bad][0]
        raise InputError(f"IMP差必须是整数：{v!r}", f"IMP差 must be an integer: {v!r}")
    bad = ~np.isfinite(b) | (b != np.round(b)) | (b < 1)
    if bad.any():
        v = b[bad][0]
        raise InputError(f"每场副数必须是至少为1的整数：{v!r}",
                         f"boards per match must be an integer of at least 1: {v!r}")
    mi = np.clip(m, -2.0**53, 2.0**53).astype(np.int64)  # far past any blitz margin
    bi = b.astype(np.int64)
    win = np.empty(mi.shape, dtype=np.int64)
    margin = np.abs(mi)
    for count in np.unique(bi):
        table = np.asarray(_vp_hundredths(int(count)), dtype=np.int64)
        sel = bi == count
        win[sel] = table[np.minimum(margin[sel], len(table) - 1)]
    lose = 2000 - win
    ahead = mi >= 0
    return np.where(ahead, win, lose), np.where(ahead, lose, win)


def vp_array(imp_margin, boards):
    """Vectorised :func:`vp` as float64 arrays ``(given side, opponent)`` in VP, for sheet
    columns and range UDFs (Excel stores floats). Each value is the float nearest the scalar
    form's ``Decimal`` (``float(vp(m, b)[0])``: hundredths / 100 is correctly rounded), so the
    half-up 2-place values are kept exactly. Arguments and errors as :func:`vp_hundredths_array`.
    """
    mine, theirs = vp_hundredths_array(imp_margin, boards)
    return mine / 100, theirs / 100


def carry_over(total, fraction, plus=0) -> Decimal:
    """Points carried into a later stage: ``total × fraction + plus``, half-up to 2 places (VP).

    ``fraction`` may be a Decimal/str/number (``"0.25"``) or a percentage string (``"25%"``).
    The product is rounded before ``plus`` is added (Fujian 规程 八（二）（三）: "25 % 加上 24VP",
    "四舍五入…保留到第2位小数"): 70.10 × 25 % = 17.53; + 24 → 41.53.
    Raises :class:`InputError` for values that are not numbers or a negative fraction.
    """
    try:
        t = to_decimal(total)
        if isinstance(fraction, str) and fraction.strip().endswith("%"):
            f = to_decimal(fraction.strip()[:-1]) / 100
        else:
            f = to_decimal(fraction)
        p = to_decimal(plus)
    except ValueError as exc:
        raise InputError(f"带分参数不是数字：{exc}", f"carry-over input is not a number: {exc}") \
            from exc
    if f < 0:
        raise InputError(f"带分比例不能为负：{fraction!r}",
                         f"carry-over fraction cannot be negative: {fraction!r}")
    return q2(q2(t * f) + p)


def carry_over_parts(total, fraction, plus=0) -> tuple[Decimal, Decimal]:
    """``(total × fraction, carry_over(total, fraction, plus))``, both half-up to 2 places (VP),
    for sheets that show the scaled part on its own (70.10 × 25 % = 17.53; + 24 → 41.53).
    Raises :class:`InputError` as :func:`carry_over` does."""
    carried = carry_over(total, fraction, plus)
    return carry_over(total, fraction, 0), carried


def apply_fine(vp_value, fine) -> Decimal:
    """VP after a fine (e.g. 扣罚2VP): ``vp − fine``, 2 places; the result may go below 0.

    Fines are applied after the IMP→VP conversion (2014 EC: 0.57 − 3 = −2.43). ``fine`` is the
    positive number of VP deducted. Raises :class:`InputError` for a negative fine or non-number.
    """
    try:
        v = to_decimal(vp_value)
        f = to_decimal(fine)
    except ValueError as exc:
        raise InputError(f"罚分不是数字：{exc}", f"fine is not a number: {exc}") from exc
    if f < 0:
        raise InputError(f"罚分必须为正数（扣除的VP）：{fine!r}",
                         f"a fine is the positive number of VP deducted: {fine!r}")
    return q2(v - f)
