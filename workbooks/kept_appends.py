"""Rows appended below a kept sheet that the command never parses (:class:`KeptAppends`), for
:class:`~bianpai.workbooks.openpyxl_port.OpenpyxlPort`.

A command appends rows to sheets it otherwise leaves alone: a line to 日志 after every button,
the new round's rows to 成绩 at a draw. Parsing such a sheet with openpyxl only to add rows
below it cost 10.8 s of CPU over the test suite (930 parses). When every appended row lies
below the last row the sheet's XML holds, no cell of the sheet is touched: the new cells are
made in a scratch worksheet (exactly as they would be made in the parsed sheet: a new cell has
no format of its own there either) and patched into the sheet's XML on save. Anything else (a
row that overlaps the sheet, a sheet with an Excel table or merged cells, a row without its
number) takes the parse, and a sheet parsed later gets the held rows replayed into it.
"""

from __future__ import annotations

from bianpai.workbooks.sheet_writing import _as_saved, _set, _style_of

class KeptAppends:
    """The rows appended below kept, unparsed sheets of one workbook.

    ``book``: the port's :class:`~bianpai.workbooks.lazy_book.LazyBook` (``None``: a new
    workbook, nothing held). ``scratch[sheet]`` is the worksheet holding a sheet's appended
    cells (not one of the workbook's sheets), handed to the package save."""

    def __init__(self, wb, book) -> None:
        self.wb = wb
        self.book = book
        self.scratch: dict[str, object] = {}
        self._held: dict[str, list[tuple[list, int]]] = {}
        self._last: dict[str, int | None] = {}
        #: per sheet, every held cell's value as it reads back, in the order written, and
        #: the last overlay made from it (the grid it was made on, the cells applied, the grid)
        self._saved: dict[str, list[tuple[int, int, object]]] = {}
        self._overlaid: dict[str, tuple[list, int, list]] = {}

    def take(self, sheet: str, rows: list[list], start_row: int, flags: dict) -> bool:
        """Hold ``rows`` (from ``start_row``) of ``sheet`` in its scratch worksheet when the sheet
        is kept, not parsed, and holds nothing at or below ``start_row``; ``flags`` gets each
        written cell's "format unchanged" (as the parsed sheet's would). False: not held (the
        caller parses the sheet and appends there)."""
        if self.book is None:
            return False
        part = self.book.sheet_part(sheet)
        if part is None:
            return False
        if sheet not in self._last:
            self._last[sheet] = _last_row(self.book.part(part))
        last = self._last[sheet]
        if last is None or start_row <= last:
            return False
        ws = self.scratch.get(sheet)
        if ws is None:
            from openpyxl.worksheet.worksheet import Worksheet
            ws = self.scratch[sheet] = Worksheet(self.wb, title="bianpai-appended")
        saved = self._saved.setdefault(sheet, [])
        for r, row in enumerate(rows, start=start_row):
            for c, v in enumerate(row, start=1):
                cell = ws.cell(row=r, column=c)
                before = _style_of(cell)
                _set(cell, v)
                flags[(r, c)] = flags.get((r, c), True) and _style_of(cell) == before
                saved.append((r, c, _as_saved(cell.value)))
        self._held.setdefault(sheet, []).append(([list(r) for r in rows], start_row))
        return True

    def overlay(self, sheet: str, grid: list[list]) -> list[list]:
        """``grid`` (the sheet's values as the file holds them) with the held cells' values as
        they read back once saved (``as_saved``). Made on from the last overlay of the same
        grid: only the cells held since are applied (a draw's rows, then their results, read
        after each)."""
        saved = self._saved.get(sheet)
        if sheet not in self.scratch or not saved:
            return grid
        base, done, out = self._overlaid.get(sheet, (None, 0, None))
        if base is None or base != grid:
            base, done, out = [list(r) for r in grid], 0, grid
        else:
            out = [list(r) for r in out]
        for r, c, v in saved[done:]:  # in the order written: the last value of a cell stays
            while len(out) < r:
                out.append([])
            line = out[r - 1]
            if len(line) < c:
                line.extend([None] * (c - len(line)))
            line[c - 1] = v
        self._overlaid[sheet] = (base, len(saved), [list(r) for r in out])
        return out

    def release(self, sheet: str) -> list[tuple[list, int]]:
        """The rows held for ``sheet`` in the order they came (to replay into the parsed sheet);
        the sheet holds none afterwards."""
        self.scratch.pop(sheet, None)
        self._last.pop(sheet, None)
        self._saved.pop(sheet, None)
        self._overlaid.pop(sheet, None)
        return self._held.pop(sheet, [])

    def forget(self, sheet: str) -> None:
        """``sheet`` is replaced or deleted: what was held for it goes."""
        self.release(sheet)


def _last_row(xml: bytes) -> int | None:
    """The last row number the sheet XML holds (0: none), or ``None`` when rows cannot be
    appended below it unparsed (an Excel table to grow, merged cells, a row or cell without
    its reference)."""
    from bianpai.workbooks.lazy_book import xml_extent
    extent = None if b"tablePart" in xml or b"mergeCell" in xml else xml_extent(xml)
    return None if extent is None else max(extent[0], extent[1])
