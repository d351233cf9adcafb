"""Setting one format on many cells through openpyxl, computed once per distinct cell look.

openpyxl's style setters (``cell.number_format = …``, ``cell.alignment = …``) look the value up
in the workbook's style tables and rebuild the cell's style array on every call: on a sheet of
thousands of cells that is most of a command's writing time. A cell's resulting style array
depends only on its style array before and on the value set, so :class:`StyleMemo` sets it
through openpyxl once per (look before, attribute, value) and copies the result to the other
cells: the saved file is exactly what setting every cell would have written.
"""

from __future__ import annotations

from copy import copy
from typing import Any, Callable

from openpyxl.styles.cell_style import StyleArray

__all__ = ["StyleMemo"]


class StyleMemo:
    """One memo per formatting pass over one workbook (the style tables only grow during it)."""

    def __init__(self) -> None:
        self._memo: dict[tuple, Any] = {}
        self._keep: list[Any] = []  # the values keyed by id() stay alive while the memo does

    def set(self, cell, attr: str, value: Any = None, *,
            make: Callable[[Any], Any] | None = None, key: Any = None) -> None:
        """``setattr(cell, attr, value)`` (or ``make(cell)`` when the value depends on the
        cell's own look, with ``key`` naming that rule)."""
        tag = key if make is not None else (value if isinstance(value, str) else id(value))
        style = cell._style
        k = (attr, tag, None if style is None else tuple(style))
        hit = self._memo.get(k)
        if hit is not None:
            cell._style = StyleArray(hit)
            return
        if make is None and not isinstance(value, str):
            self._keep.append(value)
        setattr(cell, attr, make(cell) if make is not None else value)
        self._memo[k] = copy(cell._style)


class CellFormats:
    """The formats a sheet format sets, by cell position, on an openpyxl worksheet's own cells
    (a cell made when absent, as ``ws.cell`` makes it), each distinct look through one
    :class:`StyleMemo`. :class:`bianpai.workbooks.cell_plan.CellPlan` answers the same calls
    without making the cells."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.memo = StyleMemo()
        self._cells = ws._cells

    def _cell(self, r: int, c: int):
        return self._cells.get((r, c)) or self.ws.cell(row=r, column=c)

    def set(self, r: int, c: int, attr: str, value: Any = None, *,
            make: Callable[[Any], Any] | None = None, key: Any = None) -> None:
        """:meth:`StyleMemo.set` on the cell at row ``r``, column ``c`` (1-based)."""
        self.memo.set(self._cell(r, c), attr, value, make=make, key=key)

    def set_each(self, r: int, c: int, attr: str, value: Any) -> None:
        """``setattr`` on the cell, through openpyxl every time (a header's few cells)."""
        setattr(self.ws.cell(row=r, column=c), attr, value)

    def value(self, r: int, c: int) -> Any:
        """The cell's stored value (the cell made when absent)."""
        return self._cell(r, c).value
