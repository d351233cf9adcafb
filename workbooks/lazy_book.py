"""An openpyxl workbook whose worksheets are parsed on first use (:class:`LazyBook`), for
:class:`~bianpai.workbooks.openpyxl_port.OpenpyxlPort`; the values of a sheet a command only
reads come from python-calamine (:meth:`LazyBook.fast_values`, 10–20 × faster than openpyxl's
parse, pinned to openpyxl's values by ``tests/test_fast_values.py``)."""

from __future__ import annotations

import datetime as dt
import io
import re
import warnings
import zipfile
from pathlib import Path

#: what calamine does not read as openpyxl does: a formula (openpyxl's reader gives its text and
#: the port its cached result, or names the cell that has none) and an error value (#N/A…)
_NOT_FAST = re.compile(rb'<f[ />]|<c [^>]*t="e"')


class LazyBook:
    """An openpyxl workbook whose worksheets are parsed on first use.

    Opening reads the package's workbook part, styles and shared strings, and puts an empty
    worksheet in place of each sheet; :meth:`sheet` parses one on demand with openpyxl's own
    reader (so a sheet that is parsed is exactly what ``load_workbook`` gives). A command reads
    a few sheets of a workbook that may hold many more (an archive of earlier results…), and the
    package-preserving save never needs the others. :meth:`load_all` parses the rest (for a
    whole-workbook save).
    """

    def __init__(self, path: Path, *, keep_vba: bool = False, data_only: bool = False):
        """``path``: the workbook file (or a binary file object holding one, read from again
        for each sheet parsed)."""
        from openpyxl.reader.excel import ExcelReader

        book = self
        self.path = path
        self._pending: dict[str, tuple] = {}
        self._calamine = None  # python_calamine.CalamineWorkbook, opened by fast_values
        #: a pending sheet's merged ranges as calamine read them (the file does not change)
        self._merged: dict[str, list] = {}

        class _Reader(ExcelReader):
            def read_worksheets(self):  # placeholders only; parsed by LazyBook.sheet
                for sheet, rel in self.parser.find_sheets():
                    if rel.target not in self.valid_files:
                        continue
                    if "chartsheet" in rel.Type:
                        self.read_chartsheet(sheet, rel)
                        continue
                    ws = self.wb.create_sheet(sheet.name)
                    ws.sheet_state = sheet.state
                    book._pending[sheet.name] = (sheet, rel)

        self._reader = _Reader(path if hasattr(path, "read") else str(path), read_only=False,
                               keep_vba=keep_vba, data_only=data_only, keep_links=True)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
            self._reader.read()
        self.wb = self._reader.wb
        vba = self.wb.vba_archive
        if vba is not None and vba.mode == "a":
            # openpyxl copies the VBA parts into a zip it leaves open for appending; closed now
            # and read back, it is only read from (by a whole save), and the garbage collector
            # can no longer finish it after its buffer ("I/O operation on closed file")
            fp = vba.fp
            vba.close()
            self.wb.vba_archive = zipfile.ZipFile(io.BytesIO(fp.getvalue()))

    def sheet(self, name: str):
        """The worksheet ``name``, parsed now if it was not yet."""
        return self.take(self.wb[name])

    def take(self, ws):
        """``ws`` (one of the workbook's worksheets), parsed now if it was not yet."""
        pending = self._pending.pop(ws.title, None)
        if pending is not None:
            self._parse(ws, *pending)
        return ws

    def fast_values(self, name: str) -> list[list] | None:
        """The values of sheet ``name`` as openpyxl's parse would give them (rows from A1, to
        the sheet's last used row and column; empty cells ``None``; a number typed whole an
        ``int``; a date a ``datetime``; a merged range's cells all its top-left value), read
        with python-calamine without parsing the sheet. ``None`` when the sheet is parsed
        already (it may have been changed since), holds a formula or an error value, or
        calamine cannot read it: the caller then reads the parsed sheet."""
        got = self.fast_grid(name)
        if got is None:
            return None
        grid, merged = got
        if merged:  # a merged range's cells are part of the sheet (openpyxl's MergedCell)
            height = max(len(grid), *(r1 + 1 for _, (r1, _c) in merged))
            width = max(max((len(r) for r in grid), default=0), *(c1 + 1 for _, (_r, c1) in merged))
            grid = [r + [None] * (width - len(r)) for r in grid]
            grid += [[None] * width for _ in range(height - len(grid))]
            for (r0, c0), (r1, c1) in merged:
                top = grid[r0][c0]
                for r in range(r0, r1 + 1):
                    grid[r][c0:c1 + 1] = [top] * (c1 + 1 - c0)
        return grid

    def fast_grid(self, name: str) -> tuple[list[list], list] | None:
        """The values of sheet ``name`` from python-calamine as openpyxl's parse gives each cell
        (rows from A1 to the last value; a merged range's other cells empty) and its merged
        ranges (calamine's ``((first row, first col), (last row, last col))``, 0-based), or
        ``None`` when :meth:`fast_values` would be ``None``."""
        pending = self._pending.get(name)
        if pending is None:
            return None
        try:
            if _NOT_FAST.search(self.part(pending[1].target)):
                return None
            if self._calamine is None:
                from python_calamine import CalamineWorkbook
                self._calamine = CalamineWorkbook.from_path(str(self.path))
            sh = self._calamine.get_sheet_by_name(name)
            rows = sh.to_python(skip_empty_area=False)
            merged = list(sh.merged_cell_ranges or ())
        except Exception:  # noqa: BLE001 - any calamine failure: openpyxl reads it
            return None
        self._merged.setdefault(name, merged)
        return [[_as_openpyxl(v) for v in r] for r in rows], merged

    def part(self, name: str) -> bytes:
        """The bytes of one part of the package (e.g. a sheet's XML)."""
        with zipfile.ZipFile(self.path) as z:
            return z.read(name)

    def sheet_part(self, name: str) -> str | None:
        """The package part of sheet ``name`` while it is not parsed yet (else ``None``)."""
        pending = self._pending.get(name)
        return None if pending is None else pending[1].target

    def fast_merged(self, name: str) -> list[tuple[int, int, int, int]] | None:
        """The merged ranges of a sheet not parsed yet, (first row, first column, last row,
        last column) 1-based, from python-calamine; ``None`` when it is parsed or calamine
        cannot tell."""
        if name not in self._pending:
            return None
        merged = self._merged.get(name)
        if merged is None:  # read once per sheet: a check of every load asks again
            try:
                if self._calamine is None:
                    from python_calamine import CalamineWorkbook
                    self._calamine = CalamineWorkbook.from_path(str(self.path))
                merged = self._calamine.get_sheet_by_name(name).merged_cell_ranges
            except Exception:  # noqa: BLE001 - openpyxl's parse answers instead
                return None
            if merged is None:
                return None
            self._merged[name] = list(merged)
        return [(r0 + 1, c0 + 1, r1 + 1, c1 + 1) for (r0, c0), (r1, c1) in merged]

    def forget(self, name: str) -> None:
        """``name`` is replaced or deleted: it will never be parsed."""
        self._pending.pop(name, None)

    def _parse(self, ws, sheet, rel) -> None:
        """openpyxl's own worksheet reader, run for this one sheet into its placeholder."""
        from openpyxl.reader.excel import ExcelReader
        r = self._reader
        r.archive = zipfile.ZipFile(self.path)
        wb = r.wb
        find = r.parser.find_sheets
        try:
            r.parser.find_sheets = lambda: iter([(sheet, rel)])
            wb.create_sheet = lambda title=None, index=None: ws
            with warnings.catch_warnings():  # see OpenpyxlPort.__init__: those parts are kept
                warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
                ExcelReader.read_worksheets(r)
        finally:
            del wb.create_sheet
            r.parser.find_sheets = find
            r.archive.close()

    def load_all(self):
        for name in list(self._pending):
            self.sheet(name)
        return self.wb


# a sheet's rows and cells in its XML (a tool may give the namespace a prefix: <x:row>, <x:c>)
_ROW_NUMBER = re.compile(rb'<(?:\w+:)?row\b[^>]*?\br="(\d+)"')
_CELL_REF = re.compile(rb'<(?:\w+:)?c\b[^>]*?\br="([A-Z]+)(\d+)"')
_UNNUMBERED = re.compile(rb"<(?:\w+:)?(?:row|c)(?=[\s/>])(?![^>]*\br=)")


def xml_extent(xml: bytes) -> tuple[int, int, int] | None:
    """(last row element, last row of a cell, last column of a cell) of a sheet's XML, read
    without parsing it (0 when there is none), or ``None`` when a row or a cell does not carry
    its reference (its place is known only by counting)."""
    if _UNNUMBERED.search(xml):
        return None
    from openpyxl.utils import column_index_from_string
    rows = max((int(m.group(1)) for m in _ROW_NUMBER.finditer(xml)), default=0)
    cell_rows = cell_cols = 0
    letters = set()
    for m in _CELL_REF.finditer(xml):
        cell_rows = max(cell_rows, int(m.group(2)))
        letters.add(m.group(1))
    if letters:
        cell_cols = max(column_index_from_string(c.decode()) for c in letters)
    return rows, cell_rows, cell_cols


def _as_openpyxl(v):
    """A calamine cell value as openpyxl reads the same cell: ``""`` (empty) → ``None``, a whole
    float below 10**15 → ``int`` (openpyxl reads "3" as 3; Excel writes 15 digits), a ``date``
    → midnight ``datetime``."""
    if v == "" and isinstance(v, str):
        return None
    if type(v) is float:
        return int(v) if v.is_integer() and abs(v) < 1e15 else v
    if type(v) is dt.date:
        return dt.datetime(v.year, v.month, v.day)
    return v
