"""The xlwings remote protocol on closed files: build a client payload, replay returned actions.

``payload_from_xlsx`` builds the JSON an xlwings client (VBA ``RunRemotePython``, the Office.js
add-in of xlwings Server, xlwings Lite) sends to Python, from a real .xlsx/.xlsm, so the remote
book (``xw.Book(json=payload)``) can be exercised on Linux without Excel. ``apply_actions``
replays the ``book.json()["actions"]`` that the remote engine recorded onto an openpyxl copy of
the file, doing what the client would do in Excel (for the actions :mod:`xlwings_port` emits),
so the cells written through the remote book can be compared with the openpyxl adapter's.

``remote_book`` opens a payload as an ``xw.Book``; the remote engine is xlwings PRO code and
needs ``XLWINGS_LICENSE_KEY`` (``noncommercial`` for noncommercial use only).
"""

from __future__ import annotations

import copy
import datetime as dt
import os
import re
from pathlib import Path
from typing import Any

from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.table import Table, TableStyleInfo

# The remote engine's own ISO pattern (xlwings.pro._xlremote.datetime_pattern) plus date-only,
# which it sends for midnight datetimes and which the clients parse into dates.
_ISO_DATETIME = re.compile(
    r"^(-?(?:[1-9][0-9]*)?[0-9]{4})-(1[0-2]|0[1-9])-(3[01]|0[1-9]|[12][0-9])"
    r"(?:[T ](2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(\.[0-9]+)?"
    r"(Z|[+-](?:2[0-3]|[01][0-9]):[0-5][0-9])?)?$")

_EXCEL_MAX_ROWS = 1_048_576


def _xlwings_version() -> str:
    import xlwings  # noqa: PLC0415

    return xlwings.__version__


def _iso(value: dt.datetime | dt.date) -> str:
    """Date as the VBA client's JSON converter sends it: ``2026-03-01T00:00:00.000Z``."""
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def _payload_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (dt.datetime, dt.date)):
        return _iso(value)
    if isinstance(value, dt.time):  # a time of day is a fraction of a day in Excel
        return (value.hour * 3600 + value.minute * 60 + value.second) / 86400
    if isinstance(value, dt.timedelta):
        return value.total_seconds() / 86400
    return value


def payload_from_xlsx(path: str | os.PathLike, *, client: str = "VBA",
                      version: str | None = None, active_sheet_index: int = 0,
                      fast_values: bool = True) -> dict:
    """The client JSON for the workbook at ``path``: what an xlwings client would send.

    ``values`` hold the used range from A1 with ``""`` for empty cells and date cells as ISO
    strings; formulas are sent as their cached values (as Excel would). ``client`` is
    ``"VBA"`` (desktop ``RunRemotePython``), ``"Office.js"`` (xlwings Server add-in, Lite),
    ``"Microsoft Office Scripts"`` or ``"Google Apps Script"``. A sheet without formulas is read
    with python-calamine (its extent, tables and gridlines from its XML); ``fast_values=False``
    parses every sheet with openpyxl (the reference ``tests/test_fronts_parity.py`` pins it to).
    """
    from bianpai.workbooks.lazy_book import LazyBook  # noqa: PLC0415
    path = Path(path)
    book = LazyBook(path, data_only=True, keep_vba=path.suffix.lower() == ".xlsm")
    wb = book.wb
    sheets = []
    for ws in wb.worksheets:
        fast = _fast_sheet(book, ws.title) if fast_values else None
        if fast is not None:
            values, tables, gridlines = fast
        else:
            ws = book.sheet(ws.title)
            values, tables = _parsed_sheet(ws)
            gridlines = ws.sheet_view.showGridLines is not False
        sheet: dict[str, Any] = {"name": ws.title, "values": values, "pictures": [],
                                 "tables": tables}
        if client == "Office.js":
            state = {"visible": "Visible", "hidden": "Hidden", "veryHidden": "VeryHidden"}
            sheet.update({
                "visibility": state.get(ws.sheet_state, "Visible"),
                "show_gridlines": gridlines,
                "print_area": None,
                "notes": [],
                "shapes": [],
                "charts": [],
                "pivot_tables": [],
            })
        sheets.append(sheet)

    names = []
    index = {ws.title: i for i, ws in enumerate(wb.worksheets)}

    def add_name(dn, scope_ix):
        try:
            dests = list(dn.destinations)
        except Exception:  # noqa: BLE001 - constants / formulas are not named ranges
            return
        if len(dests) != 1 or dests[0][0] not in index:
            return
        title, ref = dests[0]
        names.append({
            "name": dn.name if scope_ix is None else f"{wb.worksheets[scope_ix].title}!{dn.name}",
            "sheet_index": index[title],
            "address": ref.replace("$", ""),
            "book_scope": scope_ix is None,
            "scope_sheet_name": None if scope_ix is None else wb.worksheets[scope_ix].title,
            "scope_sheet_index": scope_ix,
        })

    for dn in wb.defined_names.values():
        add_name(dn, None)
    for i, ws in enumerate(wb.worksheets):
        for dn in ws.defined_names.values():
            add_name(dn, i)

    book: dict[str, Any] = {"name": path.name, "active_sheet_index": active_sheet_index,
                            "selection": "A1"}
    if client == "Office.js":
        book["calculation"] = "Automatic"
    return {"client": client, "version": version or _xlwings_version(), "book": book,
            "sheets": sheets, "names": names}


def _table_entry(name, ref, header_rows, totals_rows, style, autofilter: bool) -> dict:
    return {"name": name, "range_address": _abs(ref), "header_row_range_address": None,
            "data_body_range_address": None, "total_row_range_address": None,
            "show_headers": bool(header_rows if header_rows is not None else 1),
            "show_totals": bool(totals_rows), "table_style": style or "",
            "show_autofilter": autofilter}


def _parsed_sheet(ws) -> tuple[list[list[Any]], list[dict]]:
    """(values, tables) of a sheet parsed by openpyxl: the cells from A1 to its last cell (a
    styled empty cell or a merged range counts, as Excel's used range does)."""
    if ws.max_row == 1 and ws.max_column == 1 and ws.cell(1, 1).value is None:
        values: list[list[Any]] = [[]]
    else:
        values = [[_payload_value(c.value) for c in row]
                  for row in ws.iter_rows(min_row=1, min_col=1, max_row=ws.max_row,
                                          max_col=ws.max_column)]
    tables = [_table_entry(t.displayName or t.name, t.ref, t.headerRowCount, t.totalsRowCount,
                           t.tableStyleInfo.name if t.tableStyleInfo else "",
                           t.autoFilter is not None) for t in ws.tables.values()]
    return values, tables


_GRIDLINES_OFF = re.compile(rb"<sheetView\b[^>]*\bshowGridLines=\"(?:0|false)\"")


def _fast_sheet(book, name: str) -> tuple[list[list[Any]], list[dict], bool] | None:
    """(values, tables, gridlines shown) of a sheet not parsed, as :func:`_parsed_sheet` gives
    them: values from python-calamine, the extent from the cells and merged ranges of the
    sheet's XML (:func:`~bianpai.workbooks.lazy_book.xml_extent`), tables from its table parts;
    ``None`` when only openpyxl can say (a formula, an error value, a cell without its
    reference)."""
    import zipfile  # noqa: PLC0415

    from lxml import etree  # noqa: PLC0415

    from bianpai.workbooks.lazy_book import xml_extent  # noqa: PLC0415
    from bianpai.workbooks.package_parts import TABLE_REL_TYPE, _q, _rels, resolve  # noqa
    part = book.sheet_part(name)
    got = book.fast_grid(name) if part is not None else None
    if got is None:
        return None
    grid, merged = got
    with zipfile.ZipFile(book.path) as z:
        xml = z.read(part)
        extent = xml_extent(xml)
        if extent is None:
            return None
        tables = []
        for rel in _rels(z, part).values():
            if rel.get("Type") == TABLE_REL_TYPE:
                t = etree.fromstring(z.read(resolve(part, rel.get("Target"))))
                style = t.find(_q("tableStyleInfo"))
                header = t.get("headerRowCount")
                tables.append(_table_entry(
                    t.get("displayName") or t.get("name"), t.get("ref"),
                    None if header is None else int(header), int(t.get("totalsRowCount") or 0),
                    style.get("name") if style is not None else "",
                    t.find(_q("autoFilter")) is not None))
    _rows, rows, cols = extent  # openpyxl's extent counts cells, not bare row elements
    for (r0, c0), (r1, c1) in merged:
        if (r0, c0) != (r1, c1):  # every cell of the range but the first is made by openpyxl
            rows, cols = max(rows, r1 + 1), max(cols, c1 + 1)
    if rows == 0 or (rows == 1 and cols == 1 and not (grid and grid[0] and
                                                       grid[0][0] is not None)):
        values: list[list[Any]] = [[]]
    else:
        values = [[_payload_value(v) for v in (list(r[:cols]) + [None] * (cols - len(r)))]
                  for r in grid[:rows]] + [[""] * cols for _ in range(rows - len(grid))]
    return values, tables, not _GRIDLINES_OFF.search(xml)


def _abs(ref: str) -> str:
    parts = ref.replace("$", "").split(":")
    out = []
    for p in parts:
        m = re.match(r"([A-Z]+)(\d+)", p)
        out.append(f"${m.group(1)}${m.group(2)}" if m else p)
    return ":".join(out)


def ensure_remote_engine() -> None:
    """Register xlwings' remote engines if xlwings was imported before ``XLWINGS_LICENSE_KEY``
    was set (xlwings adds its PRO engines only at import time). Raises ``RuntimeError`` without
    a key."""
    import xlwings as xw  # noqa: PLC0415

    if "remote" in [e.name for e in xw.engines]:
        return
    if not os.environ.get("XLWINGS_LICENSE_KEY"):
        raise RuntimeError(
            "xlwings 远程引擎需要 XLWINGS_LICENSE_KEY（非商业用途可设为 noncommercial） / "
            "the xlwings remote engine needs XLWINGS_LICENSE_KEY "
            "('noncommercial' for noncommercial use only)")
    from xlwings.main import Engine  # noqa: PLC0415
    from xlwings.pro import _xlofficejs, _xlremote  # noqa: PLC0415

    xw.engines.add(Engine(impl=_xlremote.engine))
    xw.engines.add(Engine(impl=_xlofficejs.engine))
    xw.__pro__ = True


def remote_book(payload: dict):
    """``xw.Book(json=payload)`` on the remote engine (see :func:`ensure_remote_engine`)."""
    import xlwings as xw  # noqa: PLC0415

    ensure_remote_engine()
    return xw.Book(json=payload)


# -- replaying actions ---------------------------------------------------------------------

def _client_value(value: Any):
    """(value, quote_prefix) as Excel stores a value the client wrote with ``Range.Value``."""
    if value is None or value == "":
        return None, False
    if isinstance(value, str):
        if value.startswith("'"):
            return value[1:], True
        if _ISO_DATETIME.match(value):
            return dt.datetime.fromisoformat(value.rstrip("Z").split("+")[0]), False
    return value, False


def _cells(ws, action, *, cap: int | None = None):
    r0, c0 = action["start_row"], action["start_column"]
    nr, nc = action["row_count"], action["column_count"]
    if nr >= _EXCEL_MAX_ROWS:  # whole columns: only the rows that exist
        nr = max(ws.max_row - r0, 1)
    if cap is not None:
        nr = min(nr, cap)
    for r in range(r0 + 1, r0 + nr + 1):
        for c in range(c0 + 1, c0 + nc + 1):
            yield ws.cell(r, c)


def _ref(action) -> str:
    r0, c0 = action["start_row"], action["start_column"]
    nr, nc = action["row_count"], action["column_count"]
    return (f"{get_column_letter(c0 + 1)}{r0 + 1}:"
            f"{get_column_letter(c0 + nc)}{r0 + nr}")


def apply_actions(path_in: str | os.PathLike, actions: list[dict],
                  path_out: str | os.PathLike) -> list[str]:
    """Replay ``actions`` (from ``book.json()["actions"]``) onto a copy of ``path_in``.

    Does what the xlwings client would do in Excel for the actions bianpai emits: sheets are
    added/deleted/cleared, ``setValues`` stores values (a leading apostrophe makes text with a
    quote prefix, ISO date strings become dates), formats, widths, freeze panes, dropdowns,
    tables and visibility are set. Autofit, selection and save are ignored. Only the sheets the
    actions touch are parsed and written (:func:`bianpai.workbooks.lazy_edit.load_workbook`).
    Returns the alert messages. Raises ``NotImplementedError`` on an action it does not know.
    """
    from bianpai.workbooks.lazy_edit import load_workbook  # noqa: PLC0415
    path_in = Path(path_in)
    wb = load_workbook(path_in, keep_vba=path_in.suffix.lower() == ".xlsm")
    alerts: list[str] = []

    def sheet(action):  # taken (parsed) by its title: only the sheets the actions touch
        tabs = [s for s in wb._sheets if hasattr(s, "iter_rows")]  # worksheets, not charts
        return wb[tabs[action["sheet_position"]].title]

    for action in actions:
        func, args = action["func"], action.get("args") or []
        if func == "addSheet":
            wb.create_sheet(args[1], index=args[0])
        elif func == "sheetDelete":
            wb.remove(sheet(action))
        elif func in ("sheetClear", "sheetClearContents"):
            ws = sheet(action)
            if func == "sheetClear":
                if ws.max_row:
                    ws.delete_rows(1, ws.max_row)
                ws.conditional_formatting = type(ws.conditional_formatting)()
            else:
                for row in ws.iter_rows():
                    for c in row:
                        c.value = None
        elif func in ("rangeClear", "rangeClearContents"):
            for c in _cells(sheet(action), action):
                c.value = None
                if func == "rangeClear":
                    c.style = "Normal"
        elif func == "setValues":
            ws = sheet(action)
            r0, c0 = action["start_row"], action["start_column"]
            for i, row in enumerate(action["values"]):
                for j, v in enumerate(row):
                    value, quoted = _client_value(v)
                    cell = ws.cell(r0 + i + 1, c0 + j + 1)
                    cell.value = value
                    if quoted:  # text, even when it looks like a formula
                        cell.data_type = "s"
                        cell.quotePrefix = True
                    if isinstance(value, dt.datetime) and cell.number_format == "General":
                        cell.number_format = ("yyyy-mm-dd" if value.time() == dt.time(0)
                                              else "yyyy-mm-dd hh:mm:ss")
        elif func == "setNumberFormat":
            for c in _cells(sheet(action), action):
                c.number_format = args[0]
        elif func == "setRangeColor":
            color = args[0].lstrip("#").upper() if args[0] else None
            for c in _cells(sheet(action), action):
                c.fill = (PatternFill("solid", fgColor=color) if color else PatternFill())
        elif func == "setFontProperty":
            prop, value = args[0], args[1]
            key = {"bold": "b", "italic": "i", "size": "sz", "name": "name", "color": "color"}[prop]
            if prop == "color" and value:
                value = value.lstrip("#").upper()
            for c in _cells(sheet(action), action):
                f = copy.copy(c.font)
                setattr(f, key, value)
                c.font = f
        elif func == "setColumnWidth":
            ws = sheet(action)
            c0, nc = action["start_column"], action["column_count"]
            for c in range(c0 + 1, c0 + nc + 1):
                ws.column_dimensions[get_column_letter(c)].width = args[0]
        elif func == "setWrapText":
            for c in _cells(sheet(action), action):
                c.alignment = Alignment(wrap_text=bool(args[0]), horizontal=c.alignment.horizontal,
                                        vertical=c.alignment.vertical)
        elif func == "freezePaneAtRange":
            sheet(action).freeze_panes = args[0].replace("$", "")
        elif func == "freezePaneUnfreeze":
            sheet(action).freeze_panes = None
        elif func == "setDataValidationList":
            source, dropdown = args[0], args[1] if len(args) > 1 else True
            if source.get("type") != "literal":
                raise NotImplementedError("setDataValidationList with a range source")
            items = ",".join(str(v) for v in source["values"])
            dv = DataValidation(type="list", formula1=f'"{items}"', allow_blank=True,
                                showDropDown=not dropdown)  # OOXML flag is inverted
            dv.add(_ref(action))
            sheet(action).add_data_validation(dv)
        elif func == "addTable":
            ws = sheet(action)
            address, _has_headers, style, name = args
            ref = address.replace("$", "")
            t = Table(displayName=name, ref=ref)
            t.tableStyleInfo = TableStyleInfo(name=style or "TableStyleMedium2",
                                              showRowStripes=True)
            ws.add_table(t)
        elif func == "resizeTable":
            ws = sheet(action)
            t = list(ws.tables.values())[args[0]]
            t.ref = args[1].replace("$", "")
            if t.autoFilter is not None:
                t.autoFilter.ref = t.ref
            t.tableColumns = []  # openpyxl renames them from the header cells on save
        elif func == "setPrintArea":
            sheet(action).print_area = args[0].replace("$", "") if args[0] else None
        elif func == "setSheetVisibility":
            sheet(action).sheet_state = {"Visible": "visible", "Hidden": "hidden",
                                         "VeryHidden": "veryHidden"}[args[0]]
        elif func == "alert":
            alerts.append(args[0])
        elif func in ("setAutofit", "setSheetAutofit", "activateSheet", "rangeSelect", "save",
                      "calculate", "setScreenUpdating"):
            pass
        else:
            raise NotImplementedError(f"apply_actions: unsupported action {func!r}")
    wb.save(path_out)
    return alerts
