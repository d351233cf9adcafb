"""``openpyxl.load_workbook`` at the cost of the sheets one touches: :func:`load_workbook`.

For code that edits a closed workbook through openpyxl's own objects (the tests typing into a
workbook; :func:`bianpai.workbooks.payload.apply_actions` replaying what an xlwings client does).
Loading every sheet with openpyxl and saving them all again cost 0.3–0.8 s on a mid-event
workbook (a third of the test suite's time once). The workbook returned here is openpyxl's own
:class:`~openpyxl.workbook.workbook.Workbook`, read by
:class:`bianpai.workbooks.lazy_book.LazyBook`: a sheet is parsed by openpyxl's reader the first
time it is taken (``wb[name]``, ``wb.active``, ``wb.worksheets``, iteration), so what is seen and
edited is exactly what ``load_workbook`` gives. ``save`` writes the sheets taken (and the sheets
made) with openpyxl's serialisation into a copy of the original package
(:func:`bianpai.workbooks.package.save_package`); every other part is copied as it was. The
package is the file's bytes at load time, as openpyxl's load holds them: a sheet taken after the
file was rewritten reads as it was when loaded. Whatever that path cannot write (a comment or an
image on a taken sheet, a formula, a changed defined name or document property, another active
sheet) falls back to openpyxl's whole-workbook save, so the file saved always holds what
openpyxl's save would write in every sheet that could have changed. Pinned to openpyxl by
``tests/test_test_helpers.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
from openpyxl.workbook.workbook import Workbook

__all__ = ["load_workbook"]


def load_workbook(filename, read_only: bool = False, keep_vba: bool = False,
                  data_only: bool = False, keep_links: bool = True, rich_text: bool = False):
    """``openpyxl.load_workbook`` with each sheet parsed on first use and ``save`` writing only
    what the test could have changed (see the module). ``read_only`` and ``rich_text`` loads
    are openpyxl's own."""
    if read_only or rich_text or not isinstance(filename, (str, Path)):
        return openpyxl.load_workbook(filename, read_only=read_only, keep_vba=keep_vba,
                                      data_only=data_only, keep_links=keep_links,
                                      rich_text=rich_text)
    from bianpai.workbooks.lazy_book import LazyBook
    path = Path(filename)
    # the file as it is now: a sheet taken after a command rewrote the file is still what
    # load_workbook would have read (a test comparing before and after)
    snapshot = io.BytesIO(path.read_bytes())
    book = LazyBook(snapshot, keep_vba=keep_vba, data_only=data_only)
    wb = book.wb
    wb.__class__ = _EditBook
    wb._bp_book = book
    wb._bp_source = snapshot
    wb._bp_taken = []
    wb._bp_original = list(wb.sheetnames)
    wb._bp_names = _names(wb)
    wb._bp_props = _props(wb)
    wb._bp_active = wb._active_sheet_index
    return wb


def _names(wb) -> list:
    return [(k, v.attr_text) for k, v in wb.defined_names.items()] + [
        (ws.title, k, v.attr_text) for ws in wb._sheets for k, v in ws.defined_names.items()]


def _props(wb) -> list:
    return [(p.name, getattr(p, "value", None)) for p in wb.custom_doc_props]


class _EditBook(Workbook):
    """The class of a workbook :func:`load_workbook` returns (openpyxl's, sheets parsed on
    first use; see the module)."""

    _bp_parsing = False

    def _bp_take(self, ws):
        if self._bp_parsing:  # openpyxl's reader looking at the other sheets (table names)
            return ws
        self._bp_parsing = True
        try:
            self._bp_book.take(ws)
        finally:
            self._bp_parsing = False
        if not any(ws is t for t in self._bp_taken):
            self._bp_taken.append(ws)
        return ws

    def __getitem__(self, key):
        for ws in self._sheets:
            if ws.title == key:
                return self._bp_take(ws) if hasattr(ws, "iter_rows") else ws
        raise KeyError(f"Worksheet {key} does not exist.")

    @property
    def worksheets(self):
        return [self._bp_take(ws) for ws in Workbook.worksheets.fget(self)]

    @property
    def active(self):
        ws = Workbook.active.fget(self)
        return self._bp_take(ws) if ws is not None and hasattr(ws, "iter_rows") else ws

    @active.setter
    def active(self, value):
        Workbook.active.fset(self, value)

    def create_sheet(self, title=None, index=None):
        ws = Workbook.create_sheet(self, title, index)
        self._bp_taken.append(ws)
        return ws

    def save(self, filename):
        from bianpai.workbooks import package
        titles = [s.title for s in self._sheets]
        changes = package.Changes()
        changes.rewritten = [ws.title for ws in self._bp_taken
                             if any(ws is s for s in self._sheets)]
        changes.deleted = {t for t in self._bp_original if t not in titles}
        if (_names(self) == self._bp_names and _props(self) == self._bp_props
                and self._active_sheet_index == self._bp_active):
            buf = io.BytesIO()
            try:
                package.save_package(self._bp_source, self, changes, buf)
            except package.PackageError:
                pass
            else:
                Path(filename).write_bytes(buf.getvalue())
                return
        self._bp_book.load_all()
        Workbook.save(self, filename)
