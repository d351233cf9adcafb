"""A workbook style's own form of one of the core's sheets: a :class:`SheetView`.

The core writes and reads its sheets in its own columns (``core_layouts``: 抽签, 对阵 …). A
workbook style that shows a sheet otherwise (other headers, fewer columns, a value computed from
the row) declares a view: its :class:`~bianpai.workbooks.layouts.SheetLayout` and, per column
of it, where the value comes from. The core's writers hand their rows to :meth:`SheetView.rows`
and its readers get their own column keys back from :meth:`SheetView.to_core`; they never know
which style is in use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import pandas as pd

from bianpai.workbooks.layouts import SheetLayout

#: a computed column: the core row (dict by core column key) and the language → the value
Computed = Callable[[dict, str], Any]


@dataclass(frozen=True)
class SheetView:
    """One core sheet shown in a style's own columns.

    ``layout``: the sheet as the style shows it; ``source``: view column key → the core column
    key it shows, or a :data:`Computed` function (a column not named shows the core column of
    the same key, ``None`` when the core has none). Reading back, a view column that shows a
    core column renamed gives that core column; computed columns are not read."""

    layout: SheetLayout
    source: dict[str, str | Computed] = field(default_factory=dict)

    def rows(self, core: SheetLayout, rows: list[list], lang: str = "zh") -> list[list]:
        """``rows`` in the columns of ``core`` → rows in the view's columns."""
        keys = [c.key for c in core.columns]
        out = []
        for r in rows:
            d = dict(zip(keys, r))
            row = []
            for col in self.layout.columns:
                src = self.source.get(col.key, col.key)
                row.append(src(d, lang) if callable(src) else d.get(src))
            out.append(row)
        return out

    def to_core(self, df: pd.DataFrame, core: SheetLayout) -> pd.DataFrame:
        """A frame read with the view's layout (:func:`~bianpai.workbooks.tables.read_table`) in
        the columns of ``core``: renamed columns back to the core's keys, the core's other
        columns ``None``; index and ``attrs`` (sheet, column letters by core key) kept."""
        letters = dict(df.attrs.get("columns", {}))
        back = {src: key for key, src in self.source.items() if isinstance(src, str)}
        cols, data = {}, {}
        for c in core.columns:
            key = back.get(c.key, c.key)
            in_view = any(v.key == key for v in self.layout.columns) and not callable(
                self.source.get(key))
            data[c.key] = list(df[key]) if in_view and key in df.columns else [None] * len(df)
            if in_view and key in letters:
                cols[c.key] = letters[key]
        # object columns throughout: an int cell stays an int, an empty one None
        out = pd.DataFrame(data, index=df.index, columns=[c.key for c in core.columns],
                           dtype=object)
        out.attrs = {**df.attrs, "columns": cols}
        return out
