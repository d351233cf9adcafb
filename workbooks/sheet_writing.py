"""Cell values and sheet formats written through openpyxl: :func:`_set` (a value, never a
formula), :func:`_apply_format` (a :class:`~bianpai.workbooks.port.SheetFormat`)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.table import Table, TableStyleInfo

from bianpai.workbooks import print_setup
from bianpai.workbooks.style_memo import CellFormats
from bianpai.workbooks.port import Grid, SheetFormat

FORMULA_START = ("=", "+", "-", "@")


def _style_of(cell) -> tuple:
    """A cell's format as comparable numbers (no style = all zero)."""
    style = tuple(cell._style) if cell._style is not None else ()
    return style if any(style) else ()


def _cell_value(v: Any) -> Any:
    """What :func:`_set` stores for ``v``: a Decimal as a float, any other non-number text."""
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, bool) or v is None or isinstance(v, (int, float, dt.date, dt.datetime)):
        return v
    return str(v)


def _as_saved(v: Any) -> Any:
    """A value written to a cell as openpyxl reads it back from the saved file: ``""`` is
    empty, a whole float an ``int`` (``3.0`` is stored as ``3``), a date a ``datetime``."""
    if isinstance(v, str):
        return None if v == "" else v
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e16:
        return int(v)
    if type(v) is dt.date:
        return dt.datetime.combine(v, dt.time())
    return v


def _set(cell, v: Any) -> None:
    v = _cell_value(v)
    cell.value = v
    if isinstance(v, str) and v.startswith(FORMULA_START):
        # never a formula: store as a string with Excel's quote prefix
        cell.data_type = "s"
        cell.quotePrefix = True


def _fill(ws, values: Grid) -> None:
    """Make the cells of ``values`` (from A1) on an empty worksheet, each holding what
    :func:`_set` stores (every position a cell, as ``ws.cell`` makes it): the common values, text
    and numbers, are bound directly, the rest through :func:`_set`."""
    from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE, Cell
    illegal = ILLEGAL_CHARACTERS_RE.search
    cells = ws._cells
    for r, row in enumerate(values, start=1):
        for c, v in enumerate(row, start=1):
            cell = cells[(r, c)] = Cell(ws, row=r, column=c)
            t = type(v)
            if t is str:
                if (len(v) <= 32767 and not v.startswith(FORMULA_START) and v not in ERROR_CODES
                        and not illegal(v)):
                    cell._value = v  # as Cell._bind_value stores plain text
                    cell.data_type = "s"
                else:
                    _set(cell, v)
            elif t is int or t is float:
                cell._value = v  # data_type "n", as made
            elif v is not None:
                _set(cell, v)
    if values:
        ws._current_row = max(ws._current_row, len(values))


def _apply_format(ws, values: Grid, fmt: SheetFormat, cells=None) -> None:
    """Apply ``fmt`` to ``ws`` holding ``values``: the sheet's own settings on ``ws``, the cell
    formats through ``cells`` (the worksheet's own cells, :class:`CellFormats`, by default; a
    :class:`~bianpai.workbooks.cell_plan.CellPlan` to compute them without making cells)."""
    hr = fmt.header_row
    ncols = max((len(r) for r in values), default=0)
    nrows = len(values)
    # each distinct look computed once (openpyxl's setters are slow)
    cells = CellFormats(ws) if cells is None else cells
    if fmt.bold_header and nrows >= hr:
        fill = PatternFill("solid", fgColor=fmt.header_fill.lstrip("#")) if fmt.header_fill else None
        for c in range(1, ncols + 1):
            cells.set_each(hr, c, "font", Font(bold=True))
            cells.set_each(hr, c, "alignment", Alignment(horizontal="center", vertical="center",
                                                         wrap_text=True))
            if fill:
                cells.set_each(hr, c, "fill", fill)
    for col in fmt.columns:
        letter = get_column_letter(col.index + 1)
        if col.width:
            ws.column_dimensions[letter].width = col.width
        body = range(hr + 1, max(nrows, hr) + 1)
        c = col.index + 1
        if col.number_format:
            for r in body:
                cells.set(r, c, "number_format", col.number_format)
        if col.wrap:
            wrap = Alignment(wrap_text=True, vertical="top")
            for r in body:
                cells.set(r, c, "alignment", wrap)
        if col.choices:
            dv = DataValidation(type="list", formula1='"' + ",".join(col.choices) + '"',
                                allow_blank=True, showErrorMessage=True,
                                errorTitle="输入无效 / Invalid",
                                error="请从下拉列表中选择 / choose from the list")
            ws.add_data_validation(dv)
            dv.add(f"{letter}{hr + 1}:{letter}{hr + max(col.validation_rows, nrows - hr)}")
    for i in fmt.text_columns:
        for r in range(hr + 1, nrows + 1):
            v = cells.value(r, i + 1)
            if isinstance(v, str) or v is None:
                cells.set(r, i + 1, "number_format", "@")
    if fmt.freeze:
        ws.freeze_panes = fmt.freeze
    if fmt.print_setup:
        ws.page_setup.paperSize = (ws.PAPERSIZE_A3 if fmt.print_setup.paper == "A3"
                                   else ws.PAPERSIZE_A4)
        ws.page_setup.orientation = "landscape" if fmt.print_setup.landscape else "portrait"
        if fmt.print_setup.fit_width:
            ws.sheet_properties.pageSetUpPr.fitToPage = True
            ws.page_setup.fitToWidth = 1
            ws.page_setup.fitToHeight = 0
        if fmt.print_setup.repeat_header:
            ws.print_title_rows = f"{hr}:{hr}"
        ws.oddHeader.center.text = (fmt.print_setup.title + " — &A") if fmt.print_setup.title else "&A"
        ws.oddFooter.center.text = "第 &P 页 / 共 &N 页"
        ws.oddFooter.right.text = "&D"
        ws.print_options.gridLines = True
    if fmt.table_name and ncols:
        ref = f"A{hr}:{get_column_letter(ncols)}{max(nrows, hr + 1)}"
        t = Table(displayName=fmt.table_name, ref=ref)
        t.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2", showRowStripes=True)
        ws.add_table(t)
    if fmt.hidden:
        ws.sheet_state = "hidden"
    if fmt.page_breaks:
        from openpyxl.worksheet.pagebreak import Break
        for r in fmt.page_breaks:
            ws.row_breaks.append(Break(id=r))
    print_setup.apply_openpyxl(ws, values, fmt, cells)  # breaks by column, paper rows, integers
