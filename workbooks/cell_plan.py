"""A generated sheet's cells as they would be made, without making openpyxl cells.

Writing a regenerated sheet used to make one openpyxl ``Cell`` per position of its values and
of its formatted columns, set each cell's format, and then read them all back into the sheet's
XML (:class:`~bianpai.workbooks.package_cells.SheetCells`): on the CBSA demo's last save that
was 40,000 cells made to be read once. A :class:`CellPlan` holds, per position, what the cell
would hold — its stored value, data type and format (the style array as a tuple) — and answers
the calls :func:`bianpai.workbooks.sheet_writing._apply_format` makes on cells
(:class:`~bianpai.workbooks.style_memo.CellFormats`). Each distinct change of look is made once
on a scratch cell of the same worksheet, in the order the cells would have been formatted, so
the workbook's style tables grow exactly as they did and the saved file is byte for byte the
same. Values other than plain text and numbers, and rows appended after the write, go through
that scratch cell with :func:`~bianpai.workbooks.sheet_writing._set`.

:meth:`CellPlan.make_cells` makes the real cells when something needs them after all (a read
of the sheet's cells, openpyxl's whole-workbook save).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter

from bianpai.workbooks.port import Grid, SheetFormat
from bianpai.workbooks.sheet_writing import FORMULA_START, _set

__all__ = ["CellPlan", "plannable"]

_PLAIN = tuple(StyleArray())  # a new cell's look: no format


def plannable(fmt: SheetFormat | None) -> bool:
    """Whether a sheet written with ``fmt`` can be planned: not with row looks (merged title
    rows, boxed cards: ``fmt.rows``), charts or an Excel table, which openpyxl's writer takes
    from the cells themselves."""
    return fmt is None or not (fmt.rows or fmt.charts or fmt.table_name)


class CellPlan:
    """The cells of ``values`` (from A1) on worksheet ``ws`` as :func:`_fill` makes them, then
    formatted through the :class:`CellFormats` calls. ``cells``: ``(row, column)`` → ``[stored
    value, data type, look]``."""

    def __init__(self, ws, values: Grid) -> None:
        self.ws = ws
        self._scratch = Cell(ws, row=1, column=1)  # its formats go into ws's workbook
        self._memo: dict[tuple, tuple] = {}
        self._keep: list[Any] = []  # values keyed by id() stay alive with the memo
        self.cells: dict[tuple[int, int], list] = {}
        illegal = ILLEGAL_CHARACTERS_RE.search
        for r, row in enumerate(values, start=1):
            for c, v in enumerate(row, start=1):
                t = type(v)
                if t is str and (len(v) <= 32767 and not v.startswith(FORMULA_START)
                                 and v not in ERROR_CODES and not illegal(v)):
                    self.cells[(r, c)] = [v, "s", _PLAIN]
                elif t is int or t is float or v is None:
                    self.cells[(r, c)] = [v, "n", _PLAIN]
                else:
                    self.cells[(r, c)] = self._through_scratch([None, "n", _PLAIN], v)

    def _through_scratch(self, entry: list, v: Any) -> list:
        """``entry`` after :func:`_set` of ``v`` (a date's number format, a formula-like text's
        quote prefix …), done on the scratch cell."""
        cell = self._scratch
        cell._value, cell.data_type, cell._style = entry[0], entry[1], StyleArray(entry[2])
        _set(cell, v)
        return [cell._value, cell.data_type, tuple(cell._style)]

    def _cell(self, r: int, c: int) -> list:
        entry = self.cells.get((r, c))
        if entry is None:  # a position formatted beyond its row's values: an empty cell
            entry = self.cells[(r, c)] = [None, "n", _PLAIN]
        return entry

    # -- the CellFormats calls
    def set(self, r: int, c: int, attr: str, value: Any = None, *,
            make: Callable[[Any], Any] | None = None, key: Any = None) -> None:
        """As :meth:`StyleMemo.set`: the look after setting ``attr``, made once per (attribute,
        value or rule, look before)."""
        entry = self._cell(r, c)
        tag = key if make is not None else (value if isinstance(value, str) else id(value))
        k = (attr, tag, entry[2])
        look = self._memo.get(k)
        if look is None:
            if make is None and not isinstance(value, str):
                self._keep.append(value)
            cell = self._scratch
            cell._value, cell.data_type, cell._style = entry[0], entry[1], StyleArray(entry[2])
            setattr(cell, attr, make(cell) if make is not None else value)
            look = self._memo[k] = tuple(cell._style)
        entry[2] = look

    def set_each(self, r: int, c: int, attr: str, value: Any) -> None:
        """As a plain ``setattr``: the look after it depends only on the look before and the
        value (openpyxl indexes an equal value once), so it is made once per pair too."""
        entry = self._cell(r, c)
        k = ("each", attr, entry[2])
        hit = self._memo.get(k)
        if hit is not None and hit[0] == value:
            entry[2] = hit[1]
            return
        cell = self._scratch
        cell._value, cell.data_type, cell._style = entry[0], entry[1], StyleArray(entry[2])
        setattr(cell, attr, value)
        self._memo[k] = (value, tuple(cell._style))
        entry[2] = self._memo[k][1]

    def value(self, r: int, c: int) -> Any:
        return self._cell(r, c)[0]

    @property
    def memo(self):  # the row looks of a format: only on real cells (see plannable)
        raise TypeError("a format with row looks needs the worksheet's own cells")

    # -- after the format
    def append(self, rows: Grid, start_row: int) -> None:
        """Rows written below or over the planned cells after the sheet (``append_rows`` on a
        sheet written by this port), each cell as :func:`_set` leaves it."""
        for r, row in enumerate(rows, start=start_row):
            for c, v in enumerate(row, start=1):
                self.cells[(r, c)] = self._through_scratch(self._cell(r, c), v)

    def sorted_cells(self) -> Iterator[tuple[int, int, tuple, str, Any]]:
        """``(row, column, look, data type, stored value)`` in row then column order."""
        for (r, c), (v, t, look) in sorted(self.cells.items()):
            yield r, c, look, t, v

    def dimension(self) -> str:
        """``Worksheet.calculate_dimension`` of the made cells."""
        if not self.cells:
            return "A1:A1"
        rows = {r for r, _c in self.cells}
        cols = {c for _r, c in self.cells}
        return (f"{get_column_letter(min(cols))}{min(rows)}:"
                f"{get_column_letter(max(cols))}{max(rows)}")

    def make_cells(self) -> None:
        """Make the planned cells on the worksheet (as :func:`_fill` and the format would
        have); the plan is spent."""
        ws = self.ws
        for (r, c), (v, t, look) in self.cells.items():
            cell = Cell(ws, row=r, column=c)
            cell._value, cell.data_type, cell._style = v, t, StyleArray(look)
            ws._cells[(r, c)] = cell
            ws._current_row = max(ws._current_row, r)  # as Worksheet._add_cell
        self.cells = {}
