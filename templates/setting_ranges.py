"""The range of every 规程 number (issue 12: "every 规程 number has a range").

A number field declared with its own bounds (``Field(ge=…, le=…)``) is checked by pydantic; every
other number of a :class:`~bianpai.templates.schema.Regulation` gets the range its name implies:

=============================  ==========  ===================================================
name                           range       examples
=============================  ==========  ===================================================
``…pct``, ``…percent…``        0–100       band minimum %, 奖金分成比例 (winner_percent)
``…share``, ``…rate``,         0–1         税率 0.2, 迟到方所得份额 0.6, 结转比例
``…fraction``
``…vp…``                       0–20        WBF 20-VP scale (0–``vp_max`` when the block has one)
counts (:data:`AT_LEAST_ONE`)  1–100000    轮数, 每轮牌数, 局数, 名次 first/last, 队员人数
``…points``, ``…mp``,          any         a forfeit may cost points (negative values allowed)
``…credit``, ``…plus``/minus
any other number               0–100000    minutes, places, ages, ratings
=============================  ==========  ===================================================

:func:`range_problems` returns the violations as (path, zh, en); the 规程 reader
(:func:`bianpai.workbooks.settings.regulation_from_sheet`) names their cells.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel

__all__ = ["range_problems", "AT_LEAST_ONE"]

#: numbers that count something that exists at least once (a round, a board, a place)
AT_LEAST_ONE = {"rounds", "max_rounds", "total_rounds", "boards", "boards_per_round",
                "min_boards_per_round", "games_per_match", "sessions", "cycles", "race_to",
                "first", "last", "from_place", "to_place", "join_round", "team_size", "count",
                "pool_size", "qualify", "minutes_per_board", "session_minutes", "round_minutes",
                "point_step", "total_points"}
#: names that may be negative (points a forfeit or penalty costs)
SIGNED = ("points", "_mp", "credit", "plus", "minus", "draw", "win", "loss", "double", "single",
          "tractor")
UPPER = 100000


def _bounded(info) -> bool:
    """The field declares its own bounds (pydantic checks them)."""
    return any(type(m).__name__ in ("Ge", "Gt", "Le", "Lt", "Interval") for m in info.metadata)


def _range(name: str, parent: BaseModel) -> tuple[Decimal | None, Decimal | None]:
    n = name.lower()
    if n.endswith("pct") or "percent" in n:
        return Decimal(0), Decimal(100)
    if n.endswith(("share", "rate", "fraction")):
        return Decimal(0), Decimal(1)
    if "vp" in n and n != "vp_max":
        top = getattr(parent, "vp_max", None)
        return Decimal(0), Decimal(str(top)) if isinstance(top, (int, float, Decimal)) else Decimal(20)
    if n in AT_LEAST_ONE:
        return Decimal(1), Decimal(UPPER)
    if any(s in n for s in SIGNED):
        return None, None
    return Decimal(0), Decimal(UPPER)


def range_problems(model: BaseModel, path: list | None = None) -> list[tuple[list, str, str]]:
    """Every number of ``model`` (a Regulation or any block of it, recursively) outside the
    range its name implies (module table). Returns ``[(path, zh, en)]``; ``path`` as in
    ``model_dump`` (field names and list indexes)."""
    path = path or []
    out: list[tuple[list, str, str]] = []
    for name, info in type(model).model_fields.items():
        v = getattr(model, name, None)
        if isinstance(v, BaseModel):
            out += range_problems(v, path + [name])
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, BaseModel):
                    out += range_problems(x, path + [name, i])
        elif isinstance(v, (int, float, Decimal)) and not isinstance(v, bool) and not _bounded(info):
            lo, hi = _range(name, model)
            d = Decimal(str(v))
            if (lo is not None and d < lo) or (hi is not None and d > hi):
                span = f"{lo}–{hi}"
                out.append((path + [name], f"应在 {span} 之间（现为 {v}）",
                            f"must be within {span} (is {v})"))
    return out
