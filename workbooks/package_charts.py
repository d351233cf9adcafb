"""Charts of a regenerated sheet (排名走势) written into the package under fresh part names.

A sheet bianpai regenerates may carry its own native charts (openpyxl ``ws._charts``); the
package-preserving save (:mod:`bianpai.workbooks.package`) writes them as a new drawing part and
new chart parts whose names no part of the original package has, so the old version's drawing
and charts can go without clashing.
"""

from __future__ import annotations

from bianpai.workbooks.package_parts import rels_path

CHART_CT = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
DRAWING_CT = "application/vnd.openxmlformats-officedocument.drawing+xml"


def fresh(pattern: str, taken: set[str]) -> tuple[str, int]:
    """The first ``pattern.format(n)`` (n ≥ 1) not in ``taken`` (added to it) and its n."""
    n = 1
    while pattern.format(n) in taken:
        n += 1
    taken.add(pattern.format(n))
    return pattern.format(n), n


def write_charts(ws, srels, taken: set[str], out: dict[str, bytes],
                 overrides: dict[str, str]) -> None:
    """The drawing of ``ws``'s charts and the charts themselves into ``out`` (part → bytes) with
    their content-type ``overrides``; the sheet's drawing relationship in ``srels`` is pointed at
    the new drawing. ``taken``: part names that may not be used (updated)."""
    from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
    from openpyxl.xml.functions import tostring

    drawing = SpreadsheetDrawing()
    drawing.charts = list(ws._charts)
    dpart, drawing._id = fresh("xl/drawings/drawing{0}.xml", taken)
    for chart in drawing.charts:
        cpart, chart._id = fresh("xl/charts/chart{0}.xml", taken)
        out[cpart] = tostring(chart._write())
        overrides["/" + cpart] = CHART_CT
    out[dpart] = tostring(drawing._write())
    out[rels_path(dpart)] = tostring(drawing._write_rels())
    overrides["/" + dpart] = DRAWING_CT
    for r in srels:
        if "drawing" in r.Type:
            r.Target = "/" + dpart
