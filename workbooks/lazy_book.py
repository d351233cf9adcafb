"""An openpyxl workbook whose worksheets are parsed on first use (:class:`LazyBook`), for
:class:`~bianpai.workbooks.openpyxl_port.OpenpyxlPort`."""

from __future__ import annotations

import warnings
import zipfile
from pathlib import Path


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
        from openpyxl.reader.excel import ExcelReader

        book = self
        self.path = path
        self._pending: dict[str, tuple] = {}

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

        self._reader = _Reader(str(path), read_only=False, keep_vba=keep_vba,
                               data_only=data_only, keep_links=True)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
            self._reader.read()
        self.wb = self._reader.wb

    def sheet(self, name: str):
        """The worksheet ``name``, parsed now if it was not yet."""
        ws = self.wb[name]
        pending = self._pending.pop(name, None)
        if pending is not None:
            self._parse(ws, *pending)
        return ws

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
