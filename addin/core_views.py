"""The core's sheets through the workbook style's views: the one place where a core command
writes or reads a sheet a style may show in its own columns
(:class:`bianpai.workbooks.sheet_sets.SheetSet`, :class:`~bianpai.workbooks.sheet_views.SheetView`).
Without a view, the core's own layout is used unchanged.
"""

from __future__ import annotations

import pandas as pd

from bianpai.addin import command_infra as c
from bianpai.engines.errors import InputError
from bianpai.templates.schema import Regulation
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.layouts import SheetLayout
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.sheet_sets import SheetSet, sheet_set
from bianpai.workbooks.tables import find_sheet, read_table


def style_of(reg: Regulation) -> SheetSet:
    """The workbook style's declarations (named by the regulation's ``roster_layout``)."""
    return sheet_set(reg.roster_layout)


def shown_layout(reg: Regulation, layout: SheetLayout) -> SheetLayout:
    """The layout the workbook shows for core sheet ``layout`` (its view's, else itself)."""
    v = style_of(reg).view(reg, layout.key)
    return layout if v is None else v.layout


def shown_for(reg: Regulation, layout: SheetLayout) -> SheetLayout:
    """As :func:`shown_layout`, for a view whose columns follow the core layout's (排名: one
    column per criterion of the event), so a new workbook's header is the one rank writes."""
    v = style_of(reg).view(reg, layout.key)
    return layout if v is None else v.shown(layout)


def _breaks(layout: SheetLayout) -> tuple[int, ...]:
    keys = tuple(getattr(layout, "page_break_on", None) or ())
    return tuple(i for i, col in enumerate(layout.columns) if col.key in keys)


def write_core_sheet(port: WorkbookPort, reg: Regulation, layout: SheetLayout, rows: list[list],
                     lang: str, extra: list[dict] | None = None, **kw) -> None:
    """Write the generated core sheet ``layout`` (``rows`` in its columns) as the style shows
    it: through its view when declared (page breaks on the view's ``page_break_on``;
    ``extra``: per row, further values the view may show)."""
    v = style_of(reg).view(reg, layout.key)
    if kw.get("position") is None:
        kw["position"] = placed(port, reg, layout)
    if v is None:
        c.write_generated(port, layout, rows, lang, **kw)
        return
    shown = v.shown(layout)
    kw["break_on"] = _breaks(shown)
    c.write_generated(port, shown, v.rows(layout, rows, lang, extra)
                      + v.below_rows(layout, rows, lang, extra), lang, **kw)


def placed(port: WorkbookPort, reg: Regulation, layout: SheetLayout,
           shown: SheetLayout | None = None) -> int | None:
    """Where generated core sheet ``layout`` goes when not yet in the workbook: for a style
    whose sheets are placed as written (``SheetSet.as_written``) at the end, 抽签 right after
    the roster sheet; ``None`` (the canonical order) otherwise or when the sheet exists.
    ``shown``: the sheet as shown, when not the style's view of ``layout`` (排名-‹阶段›)."""
    style = style_of(reg)
    shown = shown or shown_layout(reg, layout)
    if not style.as_written or find_sheet(port, shown) is not None:
        return None
    names = port.sheet_names()
    if layout.key == K.DRAW.key:
        from bianpai.workbooks.roster_layouts import roster_layout  # noqa: PLC0415
        roster = find_sheet(port, roster_layout(reg.roster_layout).sheets[0])
        if roster is not None:
            return names.index(roster) + 1
    return len(names)


def has_core_sheet(port: WorkbookPort, reg: Regulation, layout: SheetLayout) -> bool:
    return find_sheet(port, shown_layout(reg, layout)) is not None


def read_core_sheet(port: WorkbookPort, reg: Regulation, layout: SheetLayout, *,
                    errors: list[InputError], required: bool = True) -> pd.DataFrame:
    """Read core sheet ``layout`` (through the style's view when declared) as a frame in the
    core's column keys, index the Excel rows, ``attrs`` naming the shown sheet's cells."""
    v = style_of(reg).view(reg, layout.key)
    if v is None:
        return read_table(port, layout, errors=errors, required=required)
    return v.to_core(read_table(port, v.read_layout(layout), errors=errors, required=required),
                     layout, errors)


def append_core_rows(port: WorkbookPort, reg: Regulation, layout: SheetLayout, rows: list[list],
                     lang: str, extra: list[dict] | None = None, *, always: bool = False) -> int:
    """Append blank entry rows (in the columns of core sheet ``layout``) after the last typed
    row of the sheet as the style shows it (created with its header when missing); a view that
    declares ``blank_rows = False`` gets none unless ``always`` (the only place a match's result
    can be typed). ``extra``: per row, further core values the view may show (the match's
    sides). Returns the rows added."""
    v = style_of(reg).view(reg, layout.key)
    if v is not None and not v.blank_rows and not always:
        return 0
    shown = layout if v is None else v.layout
    out = rows if v is None else v.rows(layout, rows, lang, extra)
    if not out:
        return 0
    name = find_sheet(port, shown)
    if name is None:
        name = shown.name(lang)
        port.write_sheet(name, [shown.headers(lang)], shown.sheet_format(lang=lang))
    existing = port.read_values(name)
    last = len(existing)
    while last > 1 and all(x in (None, "") for x in existing[last - 1]):
        last -= 1
    port.append_rows(name, by_header(shown, existing[0] if existing else [], out),
                     start_row=max(last, 1) + 1)
    return len(out)


def by_header(layout: SheetLayout, header: list, rows: list[list]) -> list[list]:
    """``rows`` (in ``layout``'s column order) placed under the sheet's own header row: a
    column the organizer inserted or moved keeps its place, and bianpai's values go under their
    titles (Chinese, English, key or alias), never by fixed position. When a title is missing
    from the header the rows stay as they are (the sheet's reading names the missing column)."""
    titles = [str(h).strip() if h is not None else "" for h in header]
    pos = []
    for c in layout.columns:
        at = next((titles.index(t) for t in (c.zh, c.en, c.key, *c.aliases) if t in titles), None)
        if at is None:
            return rows
        pos.append(at)
    if pos == list(range(len(pos))):
        return rows
    width = max(len(titles), max(pos) + 1)
    out = []
    for r in rows:
        row = [None] * width
        for i, v in enumerate(r[:len(pos)]):
            row[pos[i]] = v
        out.append(row)
    return out
