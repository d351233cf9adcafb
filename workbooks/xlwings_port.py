"""``XlwingsPort``: the :class:`~bianpai.workbooks.port.WorkbookPort` over an ``xw.Book``.

One adapter serves three fronts, because all three hand a command an ``xw.Book``:

* **desktop** — classic xlwings over COM/AppleScript (``xw.Book.caller()`` from ``RunPython``);
  every write lands in the live book immediately.
* **remote** — ``xw.Book(json=payload)`` under xlwings Server (client ``"VBA"``, ``"Office.js"``,
  ``"Microsoft Office Scripts"``, ``"Google Apps Script"``) and in xlwings Lite (client
  ``"Office.js"``). Writes are recorded as ``book.json()["actions"]`` that the client replays.
  The remote book is a snapshot: it **cannot read its own writes** and cannot read formats, so
  this adapter never reads back what it wrote (commands read everything first, then write).

What each client can apply (the adapter degrades instead of emitting an action the client would
fail on; skipped features are listed in :attr:`XlwingsPort.degraded`):

=====================  =========  ==========================  ===============================
feature                desktop    remote, client Office.js    remote, VBA / Office Scripts /
                                  (Server add-in, Lite)       Google Apps Script
=====================  =========  ==========================  ===============================
values, clear, add,    yes        yes                         yes
delete sheet, alert
number formats, fill   yes        yes                         yes
bold header            yes        yes (setFontProperty)       no  (skipped)
column widths          yes        yes (setColumnWidth)        autofit instead (setAutofit)
wrap text              yes        yes                         no  (skipped)
freeze panes           yes        yes (freezePaneAtRange)     no  (skipped)
dropdown validation    yes        yes (setDataValidationList) no  (skipped)
Excel table            yes        yes (addTable)              yes (addTable)
print area             yes        yes (setPrintArea)          no  (skipped)
orientation, fit,      yes (COM   no (skipped)                no  (skipped)
repeat header          PageSetup)
hidden sheet           yes        yes (setSheetVisibility)    no  (skipped)
=====================  =========  ==========================  ===============================

The VBA column is what ``xlwings/addin/Remote.bas`` of the pinned xlwings implements (a test
checks :data:`BASIC_CLIENT_ACTIONS` against that file).

Text safety: every non-empty string is written with a leading apostrophe (Excel's text prefix),
so user text starting with ``=``, ``+``, ``-`` or ``@`` is never turned into a formula and text
such as ``"1-2"`` or ``"001"`` is not coerced into a date or number. Excel stores the apostrophe
as the cell's "quote prefix", not as part of the value.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import Any

from bianpai.engines.errors import InputError
from bianpai.workbooks.port import Grid, SheetFormat

#: Actions understood by the non-Office.js remote clients (``Remote.bas``, ``xlwings.ts``).
BASIC_CLIENT_ACTIONS = frozenset({
    "setValues", "rangeClearContents", "rangeClearFormats", "rangeClear", "addSheet",
    "setSheetName", "setAutofit", "setRangeColor", "activateSheet", "addHyperlink",
    "setNumberFormat", "setPictureName", "setPictureHeight", "setPictureWidth", "deletePicture",
    "addPicture", "updatePicture", "alert", "setRangeName", "namesAdd", "nameDelete", "runMacro",
    "rangeDelete", "rangeInsert", "rangeSelect", "addTable", "setTableName", "resizeTable",
    "showAutofilterTable", "showHeadersTable", "showTotalsTable", "setTableStyle", "copyRange",
    "sheetDelete", "sheetClear", "sheetClearContents", "sheetClearFormats",
})

#: The extra actions this adapter uses that only the Office.js client (Server add-in, Lite) has.
OFFICEJS_EXTRA_ACTIONS = frozenset({
    "setFontProperty", "setColumnWidth", "setWrapText", "freezePaneAtRange",
    "freezePaneUnfreeze", "setDataValidationList", "setPrintArea", "setSheetVisibility",
})

# Feature name -> the action it needs on a remote client.
_FEATURE_ACTIONS = {
    "bold": "setFontProperty",
    "column_width": "setColumnWidth",
    "autofit": "setAutofit",
    "wrap": "setWrapText",
    "freeze": "freezePaneAtRange",
    "validation": "setDataValidationList",
    "table": "addTable",
    "print_area": "setPrintArea",
    "hidden": "setSheetVisibility",
    "number_format": "setNumberFormat",
    "fill": "setRangeColor",
}
_DESKTOP_ONLY = {"page_setup"}

ALERT_TITLE = "编排 bianpai"


def _col_letter(col: int) -> str:
    """1-based column number -> letters (1 -> A, 27 -> AA)."""
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def quote_text(value: str) -> str:
    """``value`` prefixed with Excel's text apostrophe (empty strings stay empty)."""
    return "'" + value if value else value


def to_excel_value(value: Any) -> Any:
    """A port value as written into Excel: text quoted, Decimal as float, NaN as empty."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return quote_text(value)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, (int, float, dt.datetime, dt.date)):
        return value
    # numpy / pandas scalars and anything else: try the numeric protocol, else text.
    try:
        import pandas as pd  # noqa: PLC0415

        if pd.isna(value):
            return None
        if isinstance(value, pd.Timestamp):
            return value.to_pydatetime()
    except (ImportError, TypeError, ValueError):
        pass
    if hasattr(value, "item"):
        return to_excel_value(value.item())
    return quote_text(str(value))


def from_excel_value(value: Any) -> Any:
    """A value read from xlwings as a port value (integral floats -> int; COM gives floats)."""
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
    if isinstance(value, str) and value == "":
        return None
    return value


def _rectangular(values: Grid) -> Grid:
    width = max((len(r) for r in values), default=0)
    return [[to_excel_value(v) for v in row] + [None] * (width - len(row)) for row in values]


class XlwingsPort:
    """The workbook port over an ``xw.Book`` (desktop COM, remote/Server, or Lite).

    ``save_on_commit``: on desktop, :meth:`save` saves the file (default: leave saving to the
    user); on remote books :meth:`save` adds nothing (the client applies the actions).
    """

    def __init__(self, book, *, save_on_commit: bool = False):
        self.book = book
        self.save_on_commit = save_on_commit
        self.engine = book.app.engine.name  # "excel" (desktop), "remote"
        self.client: str | None = None
        if self.engine != "excel":
            api = book.api
            self.client = api.get("client") if isinstance(api, dict) else None
        #: Format features skipped because the client cannot apply them (for the log).
        self.degraded: list[str] = []

    # -- capabilities ---------------------------------------------------------------------
    @property
    def is_remote(self) -> bool:
        return self.engine != "excel"

    def supports(self, feature: str) -> bool:
        """Whether the front behind this book can apply ``feature`` (see the module table)."""
        if not self.is_remote:
            return True
        if feature in _DESKTOP_ONLY:
            return False
        action = _FEATURE_ACTIONS.get(feature)
        if action is None:
            return False
        if self.client == "Office.js":
            return action in BASIC_CLIENT_ACTIONS or action in OFFICEJS_EXTRA_ACTIONS
        return action in BASIC_CLIENT_ACTIONS

    def _skip(self, sheet: str, feature: str) -> None:
        note = f"{sheet}: {feature}"
        if note not in self.degraded:
            self.degraded.append(note)

    # -- WorkbookPort ---------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.book.name

    def sheet_names(self) -> list[str]:
        return [s.name for s in self.book.sheets]

    def _find(self, sheet: str):
        for s in self.book.sheets:
            if s.name.casefold() == sheet.casefold():
                return s
        return None

    def _get(self, sheet: str):
        s = self._find(sheet)
        if s is None:
            raise InputError(f"工作表「{sheet}」不存在", f"sheet '{sheet}' is missing",
                             sheet=sheet)
        return s

    def read_values(self, sheet: str) -> Grid:
        s = self._get(sheet)
        last = s.used_range.last_cell
        rng = s.range((1, 1), (last.row, last.column))
        raw = rng.options(ndim=2).value
        grid = [[from_excel_value(v) for v in row] for row in raw]
        while grid and all(v is None for v in grid[-1]):
            grid.pop()
        width = max((max((i + 1 for i, v in enumerate(r) if v is not None), default=0)
                     for r in grid), default=0)
        return [row[:width] for row in grid]

    def write_sheet(self, sheet: str, values: Grid, fmt: SheetFormat | None = None,
                    *, position: int | None = None) -> None:
        fmt = fmt or SheetFormat()
        s = self._find(sheet)
        if s is None:
            s = self._add_sheet(sheet, position)
        else:
            s.clear()
            if self.supports("freeze") and fmt.freeze is None:
                try:
                    s.freeze_panes.unfreeze()
                except (AttributeError, NotImplementedError):
                    pass
        grid = _rectangular(values)
        nrows = len(grid)
        ncols = len(grid[0]) if grid else 0
        ncols = max(ncols, max((c.index + 1 for c in fmt.columns), default=0))
        first_data = fmt.header_row + 1

        # Number formats before values: a text column ("@") must be text when values land.
        text_cols = set(fmt.text_columns)
        for c in fmt.columns:
            if c.number_format == "@":
                text_cols.add(c.index)
        if nrows >= first_data:
            for ci in sorted(text_cols):
                self._number_format(s, sheet, (first_data, ci + 1), (nrows, ci + 1), "@")
            for c in fmt.columns:
                if c.number_format and c.number_format != "@" and c.index not in text_cols:
                    self._number_format(s, sheet, (first_data, c.index + 1), (nrows, c.index + 1),
                                        c.number_format)

        if nrows and len(grid[0]):
            s.range((1, 1)).value = grid  # one setValues action

        if ncols and 1 <= fmt.header_row <= max(nrows, fmt.header_row):
            header = s.range((fmt.header_row, 1), (fmt.header_row, ncols))
            if fmt.header_fill:
                if self.supports("fill"):
                    header.color = fmt.header_fill
                else:
                    self._skip(sheet, "fill")
            if fmt.bold_header:
                if self.supports("bold"):
                    header.font.bold = True
                else:
                    self._skip(sheet, "bold")

        self._column_layout(s, sheet, fmt, nrows)
        self._validations(s, sheet, fmt)
        if fmt.freeze:
            if self.supports("freeze"):
                s.freeze_panes.freeze_at(fmt.freeze)
            else:
                self._skip(sheet, "freeze")
        if fmt.table_name and nrows >= fmt.header_row and ncols:
            self._table(s, sheet, fmt, nrows, ncols)
        if fmt.print_setup and ncols and nrows:
            self._print_setup(s, sheet, fmt, nrows, ncols)
        from bianpai.workbooks.xlwings_print import apply_xlwings  # noqa: PLC0415
        apply_xlwings(self, s, sheet, grid, fmt)  # breaks, paper rows, charts, integers
        if fmt.hidden:
            if self.supports("hidden"):
                s.visible = False
            else:
                self._skip(sheet, "hidden")

    def append_rows(self, sheet: str, rows: Grid, *, start_row: int) -> None:
        s = self._get(sheet)
        grid = _rectangular(rows)
        if grid and grid[0]:
            s.range((start_row, 1)).value = grid

    def delete_sheet(self, sheet: str) -> None:
        s = self._find(sheet)
        if s is not None:
            s.delete()

    def notify(self, message: str) -> None:
        self.book.app.alert(message, title=ALERT_TITLE)

    def save(self) -> None:
        if not self.is_remote and self.save_on_commit:
            self.book.save()

    # -- helpers --------------------------------------------------------------------------
    def _add_sheet(self, sheet: str, position: int | None):
        sheets = self.book.sheets
        n = len(sheets)
        if position is None or position >= n:
            return sheets.add(sheet, after=sheets[n - 1])
        if position <= 0:
            return sheets.add(sheet, before=sheets[0])
        # ``after=`` rather than ``before=``: the remote engine's ``before`` is off by one
        # for indices > 1 in xlwings 0.37.8.
        return sheets.add(sheet, after=sheets[position - 1])

    def _number_format(self, s, sheet, first, last, number_format) -> None:
        if self.supports("number_format"):
            s.range(first, last).number_format = number_format
        else:
            self._skip(sheet, "number_format")

    def _column_layout(self, s, sheet: str, fmt: SheetFormat, nrows: int) -> None:
        for c in fmt.columns:
            if c.width is not None:
                if self.supports("column_width"):
                    letter = _col_letter(c.index + 1)
                    s.range(f"{letter}:{letter}").column_width = c.width  # in characters
                elif self.supports("autofit") and nrows:
                    s.range((1, c.index + 1), (nrows, c.index + 1)).columns.autofit()
                    self._skip(sheet, "column_width→autofit")
                else:
                    self._skip(sheet, "column_width")
            if c.wrap and nrows:
                if self.supports("wrap"):
                    s.range((1, c.index + 1), (nrows, c.index + 1)).wrap_text = True
                else:
                    self._skip(sheet, "wrap")

    def _validations(self, s, sheet: str, fmt: SheetFormat) -> None:
        for c in fmt.columns:
            if not c.choices:
                continue
            if not self.supports("validation"):
                self._skip(sheet, "validation")
                continue
            first = fmt.header_row + 1
            rng = s.range((first, c.index + 1), (first + c.validation_rows - 1, c.index + 1))
            try:
                rng.data_validation.set_list([str(x) for x in c.choices])
            except (AttributeError, NotImplementedError):
                self._skip(sheet, "validation")

    def _table(self, s, sheet: str, fmt: SheetFormat, nrows: int, ncols: int) -> None:
        if not self.supports("table"):
            self._skip(sheet, "table")
            return
        rng = s.range((fmt.header_row, 1), (nrows, ncols))
        try:
            existing = [t for t in s.tables if t.name.casefold() == fmt.table_name.casefold()]
        except (AttributeError, NotImplementedError, KeyError):
            existing = []
        if existing:
            existing[0].resize(rng)
        else:
            s.tables.add(source=rng, name=fmt.table_name)

    def _print_setup(self, s, sheet: str, fmt: SheetFormat, nrows: int, ncols: int) -> None:
        ps = fmt.print_setup
        area = f"$A$1:${_col_letter(ncols)}${nrows}"
        if self.supports("print_area"):
            s.page_setup.print_area = area
        else:
            self._skip(sheet, "print_area")
        if self.is_remote:
            self._skip(sheet, "page_setup")
            return
        try:  # Windows COM PageSetup; macOS appscript differs, so best effort.
            api = s.api.PageSetup
            api.PaperSize = 8 if ps.paper == "A3" else 9  # xlPaperA3 / xlPaperA4
            api.Orientation = 2 if ps.landscape else 1
            if ps.fit_width:
                api.Zoom = False
                api.FitToPagesWide = 1
                api.FitToPagesTall = False
            if ps.repeat_header:
                api.PrintTitleRows = f"${fmt.header_row}:${fmt.header_row}"
        except Exception:  # noqa: BLE001 - page setup is cosmetic; never fail a command on it
            self._skip(sheet, "page_setup")
