"""罚分 rows checked against the 规程: a penalty is the positive amount deducted, in the size the
规程 fixes for one penalty (or a multiple of it, for repeated offences).

The per-penalty size is the stage scoring's setting — 够级 ``penalty_points`` (九 第三条4、第四条：
扣除当场比赛成绩（局分）两分), 80分 ``penalty_mp`` (三7、五：每次扣0.5个比赛分) — read by
:func:`penalty_unit`; a scoring without one takes any positive amount.
"""

from __future__ import annotations

from decimal import Decimal

from bianpai.engines.errors import InputError

#: scoring settings holding the size of one penalty, in the scoring's unit
UNIT_SETTINGS = ("penalty_points", "penalty_mp")


def penalty_unit(scoring) -> Decimal | None:
    """The size of one penalty the stage's 规程 fixes, or None."""
    for name in UNIT_SETTINGS:
        v = getattr(scoring, name, None)
        if isinstance(v, (Decimal, int)) and not isinstance(v, bool) and v > 0:
            return Decimal(v)
    return None


def check_penalty(scoring, value: Decimal, *, sheet: str, cell: str) -> InputError | None:
    """An error naming ``sheet!cell`` when ``value`` (a 罚分 cell) is not positive, or not a
    whole multiple of the 规程's per-penalty size; None when it is right. A scoring whose
    penalty values depend on their kind (``checks_own_penalties``) checks them itself."""
    if getattr(scoring, "checks_own_penalties", False):
        return None
    value = Decimal(value)
    if value <= 0:
        return InputError(f"罚分应填扣除的分数（正数），实际为 {value}",
                          f"a penalty is the positive amount deducted; got {value}",
                          sheet=sheet, cell=cell)
    unit = penalty_unit(scoring)
    if unit is not None and value % unit != 0:
        return InputError(f"罚分 {value} 不是规程规定的每次罚分 {unit} 的整数倍",
                          f"penalty {value} is not a multiple of the regulation's {unit} "
                          f"per penalty", sheet=sheet, cell=cell)
    return None


def penalty_amount(scoring, reason: str | None, value, *, sheet: str, cells: dict[str, str]
                   ) -> tuple[Decimal | None, InputError | None]:
    """The amount a 罚分 row deducts: the typed ``value``, or — left blank — the amount the
    规程 fixes for the named offence ``reason`` when the scoring declares
    ``penalty_for(reason, value)`` (e.g. 福建 桥牌 十一（一）"赛场内吸烟…扣罚2VP"; the hook also
    refuses an unknown reason or an amount outside the offence's range, raising ``InputError``
    whose optional ``column`` names the offending column). Then :func:`check_penalty`.
    ``cells``: the cell of each column key (``points``, ``reason``). Returns ``(amount, None)``
    or ``(None, error naming sheet!cell)``."""
    hook = getattr(scoring, "penalty_for", None)
    if hook is not None:
        try:
            value = hook(reason, None if value is None else Decimal(value))
        except InputError as exc:
            exc.sheet, exc.cell = sheet, cells.get(getattr(exc, "column", "points"), cells["points"])
            return None, exc
    if value is None:
        return None, InputError("“罚分”不能为空", "Penalty must not be empty", sheet=sheet,
                                cell=cells["points"])
    bad = check_penalty(scoring, value, sheet=sheet, cell=cells["points"])
    return (None, bad) if bad is not None else (Decimal(value), None)
