"""Print setup shared by every adapter: the event title on each page, page breaks by column,
paper-like rows (table cards, slips, notices) and integers printed as integers.

A :class:`~bianpai.workbooks.port.SheetFormat` describes *what* a printed sheet should look like;
the adapters call :func:`apply_openpyxl` (closed files) after their own column formats, so every
pipeline writing a layout gets the same pages:

* ``break_columns`` — a new A4 page whenever one of these columns changes between two data rows
  (排名 a page per group, 对阵 a page per round); the rows are found from the written values;
* ``rows`` — per-row height, font size, bold, merge across the used width, alignment and a thin
  border (the blocks of :mod:`bianpai.workbooks.paper`);
* integers print as integers: in a column formatted ``0.00`` a whole value (9, 12.0) is shown
  ``0`` (9, not 9.00); other values keep their places;
* ``data_row_height`` — every data row that tall (领奖签收表: room to sign);
* ``charts`` — native line charts over blocks of the values (排名走势);
* ``print_setup.gridlines`` off for sheets drawn with borders.

:data:`TITLE` is the event title of the command being run (set when the event loads); a layout's
print setup uses it as the page header when the writer gives none.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from bianpai.workbooks.port import Grid, SheetFormat

#: the event's title for page headers (``{"text": str | None}``), set by the event loaders
TITLE: dict[str, str | None] = {"text": None}

TWO_PLACES = ("0.00",)  # 场分 with one place (0.0) keeps it: 1.0 beside 1.5


def is_whole(v: Any) -> bool:
    """True for an int, or a float/Decimal with no fractional part (never for bool)."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    if isinstance(v, float):
        return v == v and v.is_integer()
    if isinstance(v, Decimal):
        return v.is_finite() and v == v.to_integral_value()
    return False


def break_rows(values: Grid, header_row: int, columns: list[int]) -> list[int]:
    """1-based sheet rows after which a new page starts: the last data row before a row whose
    value in one of ``columns`` (0-based) differs from the row above."""
    if not columns:
        return []
    out = []
    data = values[header_row:]

    def key(row):
        return tuple(row[i] if i < len(row) else None for i in columns)

    for i in range(1, len(data)):
        if key(data[i]) != key(data[i - 1]):
            out.append(header_row + i)
    return out


def apply_openpyxl(ws, values: Grid, fmt: SheetFormat, cells=None) -> None:
    """Apply the print extras of ``fmt`` to an openpyxl worksheet ``ws`` already holding
    ``values`` (see the module docstring). Called by the openpyxl adapter after its own format
    (``cells``: its :class:`~bianpai.workbooks.style_memo.CellFormats` or
    :class:`~bianpai.workbooks.cell_plan.CellPlan`, else the worksheet's own cells; a format
    with row looks, ``fmt.rows``, needs the worksheet's own)."""
    from bianpai.workbooks.style_memo import CellFormats
    from openpyxl.styles import Alignment, Border, Font, Side
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.pagebreak import Break

    hr = fmt.header_row
    cells = cells or CellFormats(ws)
    # integers print as integers
    two = {c.index for c in fmt.columns if c.number_format in TWO_PLACES}
    if two:
        for r, row in enumerate(values[hr:], start=hr + 1):
            for i in two:
                if i < len(row) and is_whole(row[i]):
                    cells.set(r, i + 1, "number_format", "0")
    if fmt.break_columns:
        have = {b.id for b in ws.row_breaks.brk}
        for r in break_rows(values, hr, fmt.break_columns):
            if r not in have:
                ws.row_breaks.append(Break(id=r))
    if fmt.data_row_height:
        for r in range(hr + 1, len(values) + 1):
            ws.row_dimensions[r].height = fmt.data_row_height
            for c in range(1, len(values[r - 1]) + 1):
                cells.set(r, c, "alignment", key="vcenter", make=lambda cell: (
                    Alignment(horizontal=cell.alignment.horizontal, vertical="center",
                              wrap_text=cell.alignment.wrap_text)))
    if fmt.print_setup is not None and not fmt.print_setup.gridlines:
        ws.print_options.gridLines = False
    for spec in fmt.charts:
        ws.add_chart(line_chart(ws, spec), spec.anchor)
    if not fmt.rows:
        return
    memo = cells.memo  # the row looks are set on the worksheet's own cells
    ncols = max((len(r) for r in values), default=1) or 1
    thin = Side(style="thin")
    box = Border(left=thin, right=thin, top=thin, bottom=thin)
    looks: dict = {}  # one Font/Alignment per distinct row look (openpyxl indexes each set)
    for r, rf in sorted(fmt.rows.items()):
        if rf.height:
            ws.row_dimensions[r].height = rf.height
        key = (rf.font_size, rf.bold, rf.align, rf.merge)
        if key not in looks:
            looks[key] = (Font(size=rf.font_size or 11, bold=rf.bold)
                          if rf.font_size or rf.bold else None,
                          Alignment(horizontal=rf.align or ("center" if rf.merge else None),
                                    vertical="center", wrap_text=True))
        font, align = looks[key]
        row = values[r - 1] if r - 1 < len(values) else []
        # a merged row shows its first cell only; a bordered row boxes each of its cells
        width = 1 if rf.merge else max(len(row), 1)
        for c in range(1, width + 1):
            cell = ws.cell(row=r, column=c)
            if font is not None:
                memo.set(cell, "font", font)
            memo.set(cell, "alignment", align)
            if rf.border:
                memo.set(cell, "border", box)
        if rf.merge and ncols > 1:
            # straight into the sheet's ranges: ``merge_cells`` checks every earlier range
            # (quadratic on a sheet of a few hundred cards); these rows never overlap
            ws.merged_cells.ranges.add(_merged(ws, f"A{r}:{get_column_letter(ncols)}{r}", memo))


def _merged(ws, ref: str, memo):
    """``MergedCellRange(ws, ref)``: its one step on the cells, the bottom-right cell's right and
    bottom border added to the top-left cell's, set through ``memo`` (once per distinct pair of
    looks; openpyxl's own step adds and indexes a ``Border`` per range, most of saving a sheet
    of a few hundred cards)."""
    from openpyxl.styles import Border
    from openpyxl.worksheet.cell_range import CellRange
    from openpyxl.worksheet.merge import MergedCellRange

    rng = MergedCellRange.__new__(MergedCellRange)
    rng.ws = ws
    CellRange.__init__(rng, range_string=ref)
    start = ws._cells.get((rng.min_row, rng.min_col)) or ws.cell(row=rng.min_row,
                                                                column=rng.min_col)
    rng.start_cell = start
    end = ws._cells.get((rng.max_row, rng.max_col))
    if end is not None:
        end_border = end._style.borderId if end._style else 0
        memo.set(start, "border", key=("merged", end_border), make=lambda cell: (
            cell.border + Border(right=end.border.right, bottom=end.border.bottom)))
    return rng


def line_chart(ws, spec):
    """The openpyxl ``LineChart`` of a :class:`~bianpai.workbooks.port.ChartSpec` over ``ws``."""
    from openpyxl.chart import LineChart, Reference

    ch = LineChart()
    ch.title = spec.title
    ch.width, ch.height = spec.width, spec.height
    ch.y_axis.title = spec.y_title
    ch.x_axis.title = spec.x_title
    data = Reference(ws, min_col=spec.first_col, max_col=spec.last_col, min_row=spec.first_row,
                     max_row=spec.last_row)
    ch.add_data(data, from_rows=True, titles_from_data=True)
    ch.set_categories(Reference(ws, min_col=spec.first_col + 1, max_col=spec.last_col,
                                min_row=spec.header_row, max_row=spec.header_row))
    if spec.y_reversed:  # rank 1 at the top, the rounds still along the bottom
        ch.y_axis.scaling.orientation = "maxMin"
        ch.x_axis.crosses = "max"
    if spec.y_min is not None:
        ch.y_axis.scaling.min = spec.y_min
    if spec.y_max is not None:
        ch.y_axis.scaling.max = spec.y_max
    ch.y_axis.majorUnit = 1
    ch.y_axis.delete = False
    ch.x_axis.delete = False
    for s in ch.series:
        s.smooth = False
        s.marker.symbol = "circle"
    return ch
