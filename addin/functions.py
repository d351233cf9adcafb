"""Worksheet functions (UDFs) for the conversions an organizer types into a cell.

Classic desktop xlwings (Windows only: **Import Python UDFs** with ``UDF Modules`` =
``bianpai.addin.functions``; the .xlsm built by :mod:`bianpai.workbooks.xlsm` sets this in its
hidden ``xlwings.conf`` sheet). For xlwings Lite and xlwings Server use the same functions from
:mod:`bianpai.addin.lite`, which registers them with ``xlwings.server``'s ``@func``.

=========================================  ==============================================
``=BP_IMP(diff)``                          IMPs for a point difference (Law 78B)
``=BP_VP(imps, boards)``                   VP of the side with IMP margin ``imps`` (WBF 2013;
                                           a range of margins spills)
``=BP_CARRY(total, fraction, [plus])``     carry-over: total × fraction (+ plus), half-up 2 dp
``=BP_CHANGFEN(pct, [bands])``             场分 from a 比赛分 percentage under the bands
``=BP_MATCHPOINTS(scores, [scale])``       matchpoints of each score of a range (spills)
=========================================  ==============================================

The engines are imported inside the function bodies, so this module imports anywhere (Linux,
Pyodide) and the engines load only when Excel calls a function. Decimal results are returned as
float (Excel has no decimal type); the rounding is done in Decimal before that.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import xlwings as xw

#: 场分 bands used when BP_CHANGFEN gets no bands range: (min_pct, inclusive, points), highest
#: first; DESIGN.md "Guandan 场分" (shenzhen-guandan-pairs-2023 八（三）).
DEFAULT_CHANGFEN_BANDS: list[tuple[Any, bool, Any]] = [
    (Decimal(55), True, Decimal(2)),
    (Decimal(51), True, Decimal("1.5")),
    (Decimal(49), False, Decimal(1)),
    (Decimal(45), False, Decimal("0.5")),
    (None, True, Decimal(0)),
]


def _num(value: Any) -> Any:
    """Decimal -> float (int when integral) for Excel; others unchanged."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


# -- implementations shared by the classic UDFs here and the Lite/Server functions -----------

def imp_value(diff: Any) -> int:
    from bianpai.engines.bridge import imp  # noqa: PLC0415

    if isinstance(diff, float) and diff.is_integer():
        diff = int(diff)
    return imp(diff)


def vp_value(imps: Any, boards: Any) -> Any:
    """VP of the side with margin ``imps``; a range of margins (list of rows) gives a range of
    the same shape (``boards`` one value or a range of that shape), ``""`` where a margin cell
    is empty, computed by the vectorised :func:`bianpai.engines.bridge.vp_array`."""
    if isinstance(imps, (list, tuple)):
        return vp_grid(imps, boards)
    from bianpai.engines.bridge import vp  # noqa: PLC0415

    if isinstance(imps, float) and imps.is_integer():
        imps = int(imps)
    if isinstance(boards, float) and boards.is_integer():
        boards = int(boards)
    return _num(vp(imps, boards)[0])


def vp_grid(imps: Any, boards: Any) -> Any:
    """:func:`vp_value` over a range: rows of margins → rows of VP (a 1×1 range → one value)."""
    from bianpai.engines.bridge import vp_array  # noqa: PLC0415

    grid = [list(r) if isinstance(r, (list, tuple)) else [r] for r in imps]
    if isinstance(boards, (list, tuple)):
        bgrid = [list(r) if isinstance(r, (list, tuple)) else [r] for r in boards]
        if len(bgrid) == 1 and len(bgrid[0]) == 1:
            boards = bgrid[0][0]
        else:
            boards = [b for r in bgrid for b in r]
    cells = [(i, j, v) for i, r in enumerate(grid) for j, v in enumerate(r)]
    filled = [k for k, (_, _, v) in enumerate(cells) if not _empty(v)]
    if isinstance(boards, list):
        if len(boards) != len(cells):
            from bianpai.engines.errors import InputError  # noqa: PLC0415
            raise InputError("每场副数区域须与IMP差区域同样大小",
                             "the boards range must have the shape of the IMP margin range")
        boards = [boards[k] for k in filled]
    mine, _theirs = vp_array([cells[k][2] for k in filled], boards)
    out: list[list[Any]] = [["" for _ in r] for r in grid]
    for k, v in zip(filled, mine.tolist()):
        i, j, _ = cells[k]
        out[i][j] = int(v) if v.is_integer() else v
    if len(out) == 1 and len(out[0]) == 1:
        return out[0][0]
    return out


def carry_value(total: Any, fraction: Any, plus: Any = 0) -> float:
    from bianpai.engines.bridge import carry_over  # noqa: PLC0415

    return _num(carry_over(total, fraction, 0 if _empty(plus) else plus))


def changfen_value(pct: Any, bands: Any = None) -> float:
    """场分 for ``pct``; ``bands`` is None or rows ``(min_pct, points[, inclusive])``."""
    from bianpai.engines import guandan  # noqa: PLC0415

    direct = getattr(guandan, "match_points_from_pct", None)
    if direct is not None and bands is None:
        return _num(direct(pct))
    if bands is None:
        rows = DEFAULT_CHANGFEN_BANDS
    else:
        rows = []
        for row in bands:
            row = list(row) if isinstance(row, (list, tuple)) else [row]
            if all(_empty(v) for v in row):
                continue
            min_pct = None if _empty(row[0]) else Decimal(str(row[0]))
            points = Decimal(str(row[1]))
            inclusive = True if len(row) < 3 or _empty(row[2]) else bool(row[2])
            rows.append((min_pct, inclusive, points))
    table = guandan.MatchPointBands(bands=[
        guandan.Band(min_pct=m, inclusive=inc, points=p) for m, inc, p in rows])
    return _num(table.points(pct))


def matchpoints_grid(scores: Any, scale: str = "2/1/0") -> list[list[Any]]:
    """Matchpoints of every non-empty cell of ``scores`` against the others, same shape,
    ``""`` where the input is empty."""
    from bianpai.engines.matchpoints import matchpoints  # noqa: PLC0415

    if not isinstance(scores, list):
        scores = [[scores]]
    grid = [list(r) if isinstance(r, (list, tuple)) else [r] for r in scores]
    filled = [(i, j, v) for i, r in enumerate(grid) for j, v in enumerate(r) if not _empty(v)]
    mps = matchpoints([v for _, _, v in filled], scale=scale or "2/1/0")
    out: list[list[Any]] = [["" for _ in r] for r in grid]
    for (i, j, _), mp in zip(filled, mps):
        out[i][j] = _num(mp)
    return out


# -- classic desktop UDFs (Windows) ---------------------------------------------------------

@xw.func
def BP_IMP(diff):  # noqa: N802 - the Excel-facing name
    """IMPs for a point difference (Law 78B), signed. Example: =BP_IMP(620) → 12."""
    return imp_value(diff)


@xw.func
@xw.arg("imps", ndim=2)
@xw.arg("boards", ndim=2)
def BP_VP(imps, boards):  # noqa: N802
    """VP of the side with IMP margin imps on boards boards (WBF 2013 20-VP scale).
    Example: =BP_VP(10, 16) → 12.8 (the opponent gets 7.2). imps may be a range (a whole
    column): the VP spill in its shape; boards one value or a range of the same shape."""
    return vp_value(imps, boards)


@xw.func
def BP_CARRY(total, fraction, plus=0):  # noqa: N802
    """Carry-over: total × fraction, half-up to 2 places, plus a constant.
    Example: =BP_CARRY(70.10, "25%", 24) → 41.53."""
    return carry_value(total, fraction, plus)


@xw.func
@xw.arg("bands", ndim=2)
def BP_CHANGFEN(pct, bands=None):  # noqa: N802
    """场分 from a 比赛分 percentage. bands: optional range of rows (min %, points[, inclusive]),
    highest first, an empty min % last. Example: =BP_CHANGFEN(52.3) → 1.5."""
    return changfen_value(pct, bands)


@xw.func
@xw.arg("scores", ndim=2)
def BP_MATCHPOINTS(scores, scale="2/1/0"):  # noqa: N802
    """Matchpoints of each score in a range against the others (2 per score beaten, 1 per tie),
    spilled in the range's shape. Example: =BP_MATCHPOINTS(C2:C5) with 420, 450, 420, -50 →
    3, 6, 3, 0."""
    return matchpoints_grid(scores, scale)


__all__ = ["BP_IMP", "BP_VP", "BP_CARRY", "BP_CHANGFEN", "BP_MATCHPOINTS"]
