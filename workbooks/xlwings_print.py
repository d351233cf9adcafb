"""The print extras of a :class:`~bianpai.workbooks.port.SheetFormat` on an xlwings book — what
:func:`bianpai.workbooks.print_setup.apply_openpyxl` does for closed files (issue 12: the desktop
port lacked page breaks, paper rows and charts).

==========================  ===========================  =====================================
extra                       desktop Excel (COM)           remote clients (VBA / Office.js)
==========================  ===========================  =====================================
integers as integers        number format ``0``           same (``setNumberFormat``)
bold / font size of a row   ``Font``                      Office.js only (``setFontProperty``)
page breaks                 ``HPageBreaks.Add``           not possible: named in ``degraded``
row height, data row height ``RowHeight``                 not possible: named
merge, border, alignment    ``Merge``/``Borders``/…       not possible: named
native line chart           ``ChartObjects`` + series     not possible: named
gridlines off on paper      ``PageSetup.PrintGridlines``  not possible: named
==========================  ===========================  =====================================

Nothing here fails a command: a desktop call that raises (macOS, an older Excel) is named in
``port.degraded`` like a remote limitation, so the log says what the printed sheet lacks.
"""

from __future__ import annotations

from bianpai.workbooks.port import Grid, SheetFormat
from bianpai.workbooks.print_setup import TWO_PLACES, break_rows, is_whole

__all__ = ["apply_xlwings", "DESKTOP_ONLY"]

#: extras only desktop Excel can apply (the remote clients have no action for them)
DESKTOP_ONLY = {"page_breaks", "row_height", "merge", "border", "align", "chart", "gridlines"}
ALIGN = {"left": -4131, "center": -4108, "right": -4152}  # xlLeft / xlCenter / xlRight


def _letter(col: int) -> str:
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def _desktop(port, sheet: str, feature: str, fn) -> None:
    """Run the desktop call ``fn``; on a remote book, or when it raises, name ``feature``."""
    if port.is_remote:
        port._skip(sheet, feature)
        return
    try:
        fn()
    except Exception:  # noqa: BLE001 - cosmetic: never fail a command on print extras
        port._skip(sheet, feature)


def apply_xlwings(port, s, sheet: str, values: Grid, fmt: SheetFormat) -> None:
    """Apply the print extras of ``fmt`` to the xlwings sheet ``s`` (named ``sheet``) that now
    holds ``values`` (see the module table); ``port`` is the
    :class:`~bianpai.workbooks.xlwings_port.XlwingsPort` (its ``is_remote``, ``supports`` and
    ``degraded``)."""
    hr = fmt.header_row
    two = {c.index for c in fmt.columns if c.number_format in TWO_PLACES}
    for r, row in enumerate(values[hr:], start=hr + 1):
        for i in two:
            if i < len(row) and is_whole(row[i]):
                port._number_format(s, sheet, (r, i + 1), (r, i + 1), "0")
    breaks = sorted(set(fmt.page_breaks) | set(break_rows(values, hr, fmt.break_columns)))
    if breaks:
        def add_breaks():
            for r in breaks:
                s.api.HPageBreaks.Add(Before=s.api.Range(f"A{r + 1}"))
        _desktop(port, sheet, "page_breaks", add_breaks)
    if fmt.data_row_height and len(values) > hr:
        _desktop(port, sheet, "row_height", lambda: setattr(
            s.range(f"{hr + 1}:{len(values)}"), "row_height", fmt.data_row_height))
    if fmt.print_setup is not None and not fmt.print_setup.gridlines:
        _desktop(port, sheet, "gridlines",
                 lambda: setattr(s.api.PageSetup, "PrintGridlines", False))
    for spec in fmt.charts:
        _desktop(port, sheet, "chart", lambda spec=spec: _chart(s, spec))
    ncols = max((len(r) for r in values), default=1) or 1
    for r, rf in sorted(fmt.rows.items()):
        row = values[r - 1] if r - 1 < len(values) else []
        rng = s.range((r, 1), (r, max(len(row), 1) if not rf.merge else ncols))
        if rf.bold or rf.font_size:
            if port.supports("bold"):
                if rf.bold:
                    rng.font.bold = True
                if rf.font_size:
                    rng.font.size = rf.font_size
            else:
                port._skip(sheet, "bold")
        if rf.height:
            _desktop(port, sheet, "row_height",
                     lambda rng=rng, h=rf.height: setattr(rng, "row_height", h))
        if rf.merge and ncols > 1:
            _desktop(port, sheet, "merge", rng.merge)
        if rf.border:
            _desktop(port, sheet, "border", lambda rng=rng: setattr(rng.api.Borders, "LineStyle", 1))
        if rf.align or rf.merge:
            _desktop(port, sheet, "align", lambda rng=rng, a=rf.align or "center": setattr(
                rng.api, "HorizontalAlignment", ALIGN.get(a, -4108)))


def _chart(s, spec) -> None:
    """A native line chart of ``spec`` (:class:`~bianpai.workbooks.port.ChartSpec`) on the
    desktop sheet ``s``: one series per row, categories from the header row."""
    anchor = s.range(spec.anchor)
    chart = s.charts.add(left=anchor.left, top=anchor.top,
                         width=spec.width * 28.35, height=spec.height * 28.35)
    chart.chart_type = "line_markers"
    api = chart.api[1] if isinstance(chart.api, tuple) else chart.api
    first, last = _letter(spec.first_col), _letter(spec.last_col)
    api.SetSourceData(s.range(f"{first}{spec.first_row}:{last}{spec.last_row}").api, 1)  # by rows
    for i in range(1, api.SeriesCollection().Count + 1):
        api.SeriesCollection(i).XValues = s.range(
            (spec.header_row, spec.first_col + 1), (spec.header_row, spec.last_col)).api
    api.HasTitle = True
    api.ChartTitle.Text = spec.title
    if spec.y_reversed:
        api.Axes(2).ReversePlotOrder = True
