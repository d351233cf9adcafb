"""A port whose writes stay in memory: a command run only to see what it would write.

:class:`ScratchPort` wraps any :class:`~bianpai.workbooks.port.WorkbookPort`. Its reads see its
own writes (the grids written, as the workbook would give them back); nothing reaches the
wrapped port, and :meth:`ScratchPort.save` writes nothing. ``awards`` runs ``rank`` on one to
learn whether the places on the sheets are still those of the results (see
:func:`bianpai.addin.core_results.core_awards`).

The wrapped port is deliberately not exposed as ``inner`` and the port has no ``out``: code
that finds a command's file through them (the undo notes of :mod:`bianpai.addin.undo_log`)
must see none here.
"""

from __future__ import annotations

from bianpai.engines.errors import InputError
from bianpai.workbooks.journal import _plain, _trim
from bianpai.workbooks.port import Grid, SheetFormat, WorkbookPort


class ScratchPort:
    """A :class:`WorkbookPort` over ``base`` that keeps its writes to itself."""

    def __init__(self, base: WorkbookPort):
        self._base = base
        self._names = list(base.sheet_names())
        self._overlay: dict[str, Grid] = {}
        self._properties: dict[str, str | None] = {}
        self.messages: list[str] = []

    @property
    def name(self) -> str:
        return self._base.name

    def sheet_names(self) -> list[str]:
        return list(self._names)

    def read_values(self, sheet: str) -> Grid:
        if sheet not in self._names:
            raise InputError(f"工作簿中没有“{sheet}”工作表", f"the workbook has no sheet {sheet!r}",
                             sheet=sheet)
        if sheet in self._overlay:
            return [list(r) for r in self._overlay[sheet]]
        return self._base.read_values(sheet)

    def merged_ranges(self, sheet: str) -> list[tuple[int, int, int, int]]:
        if sheet in self._overlay:
            return []  # written here: merged cells only in a generated sheet's print layout
        read = getattr(self._base, "merged_ranges", None)
        return read(sheet) if read is not None else []

    def read_property(self, name: str) -> str | None:
        if name in self._properties:
            return self._properties[name]
        read = getattr(self._base, "read_property", None)
        return read(name) if read is not None else None

    def write_property(self, name: str, text: str | None) -> None:
        self._properties[name] = text

    def write_sheet(self, sheet: str, values: Grid, fmt: SheetFormat | None = None, *,
                    position: int | None = None) -> None:
        if sheet not in self._names:
            if position is None or position >= len(self._names):
                self._names.append(sheet)
            else:
                self._names.insert(max(position, 0), sheet)
        self._overlay[sheet] = _trim([[_plain(v) for v in row] for row in values])

    def append_rows(self, sheet: str, rows: Grid, *, start_row: int) -> None:
        grid = self.read_values(sheet) if sheet in self._names else []
        if sheet not in self._names:
            self._names.append(sheet)
        for i, row in enumerate(rows):
            r = start_row - 1 + i
            while len(grid) <= r:
                grid.append([])
            line = grid[r]
            if len(line) < len(row):
                line.extend([None] * (len(row) - len(line)))
            for c, v in enumerate(row):
                line[c] = _plain(v)
        self._overlay[sheet] = _trim(grid)

    def delete_sheet(self, sheet: str) -> None:
        if sheet in self._names:
            self._names.remove(sheet)
        self._overlay.pop(sheet, None)

    def notify(self, message: str) -> None:
        self.messages.append(message)

    def save(self) -> None:
        """Nothing is written."""
