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

from bianpai.engines.errors import InputError
from bianpai.workbooks.layouts import SheetLayout
from bianpai.workbooks.tables import SharedMap, SharedRows

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
    #: core column key → (the view column it is read from, its value from a row read with the
    #: view's layout as a dict by view key): a core column the view shows computed (a board
    #: numbered across the event → 局). The function may refuse a row by raising
    #: ``InputError`` whose ``column`` is the view key of the offending cell (a 罚分 typed in
    #: the column its kind does not read). An optional third element gives, per row, the view
    #: column the value was read from (a 罚分 of 超时 from its 分钟), where a later problem with
    #: the value is named (``attrs["row_columns"]``, read by :func:`~bianpai.workbooks.tables.cell_of`)
    inverse: dict[str, tuple] = field(default_factory=dict)
    #: view keys naming the match's two sides on every row (南北序号, 东西序号): a row whose
    #: sides are not the drawn match's at its table belongs to an earlier pairing (a hand edit
    #: of 对阵 moved the pairs): left aside when blank, an error when typed
    sides: tuple[str, str] | None = None
    #: the core writes a blank entry row per drawn match on this sheet (False: only what the
    #: organizer types, e.g. the round scores of a round scored electronically)
    blank_rows: bool = True
    #: the view's layout from the core's when its columns depend on the event (交叉表: one
    #: column per pool position); ``layout`` otherwise
    layout_of: Callable[[SheetLayout], SheetLayout] | None = None
    #: view keys of 对阵 a 桌卡/记分单 shows under the sides, as 对阵 shows them (牌号, 座位)
    card_columns: tuple[str, ...] = ()
    #: lines written beneath the table, after one blank row: what the view's columns leave
    #: out of the core's rows (交叉表's byes), from the core rows as dicts (extras merged) and
    #: the language; none when it returns no line
    below: Callable[[list[dict], str], list[list]] | None = None

    def shown(self, core: SheetLayout) -> SheetLayout:
        """The layout the sheet is shown in, for the core layout ``core``."""
        return self.layout_of(core) if self.layout_of is not None else self.layout

    def read_layout(self, core: SheetLayout) -> SheetLayout:
        """The shown layout as read back: a view column that shows a required column of
        ``core`` is required too (a deleted or renamed header is named at the header row, and
        a blank cell at its cell), as the core's own sheet would be."""
        shown = self.shown(core)
        need = {c.key for c in core.columns if c.required}
        make = [i for i, col in enumerate(shown.columns) if not col.required
                and isinstance(src := self.source.get(col.key, col.key), str) and src in need]
        if not make:
            return shown
        cols = list(shown.columns)
        for i in make:
            cols[i] = cols[i].model_copy(update={"required": True})
        return shown.model_copy(update={"columns": cols})

    def rows(self, core: SheetLayout, rows: list[list], lang: str = "zh",
             extra: list[dict] | None = None) -> list[list]:
        """``rows`` in the columns of ``core`` → rows in the view's columns; ``extra``: per row,
        further core values a computed or renamed column may show (the match's sides)."""
        sources = [self.source.get(col.key, col.key) for col in self.shown(core).columns]
        return [[src(d, lang) if callable(src) else d.get(src) for src in sources]
                for d in _dicts(core, rows, extra)]

    def below_rows(self, core: SheetLayout, rows: list[list], lang: str = "zh",
                   extra: list[dict] | None = None) -> list[list]:
        """The rows written beneath the table (:attr:`below`): a blank row, then its lines;
        ``[]`` when the view has none or they are empty."""
        lines = self.below(_dicts(core, rows, extra), lang) if self.below is not None else []
        width = len(self.shown(core).columns)
        return [[None] * width, *(list(r) + [None] * (width - len(r)) for r in lines)] \
            if lines else []

    def to_core(self, df: pd.DataFrame, core: SheetLayout,
                errors: list[InputError] | None = None) -> pd.DataFrame:
        """A frame read with the view's layout (:func:`~bianpai.workbooks.tables.read_table`) in
        the columns of ``core``: renamed columns back to the core's keys, the core's other
        columns ``None``; index and ``attrs`` (sheet, column letters by core key) kept. A row an
        ``inverse`` function refuses goes to ``errors`` at its cell (sheet!column+row) and is
        marked bad (``attrs["bad_rows"]``: not read further)."""
        letters = dict(df.attrs.get("columns", {}))
        back: dict[str, str] = {}
        for key, src in self.source.items():  # a core column shown twice is read from the
            if isinstance(src, str):           # first (客队号, not 闭室南北 that repeats it)
                back.setdefault(src, key)
        cols, data = {}, {}
        bad: set = set(df.attrs.get("bad_rows", set()))
        row_cols: dict[tuple, str] = {}
        recs = df.to_dict("records") if self.inverse else []
        wanted = [c.key for c in core.columns]
        # the sides a view shows on every row come back as side0/side1 even where the core's
        # sheet has no such column (its 逐局成绩)
        wanted += [k for k in ("side0", "side1") if k in back and k not in wanted]
        # a flag the view reads off its own columns (a 加赛 row) comes back under its key
        wanted += [k for k in self.inverse if k not in wanted]
        for k in wanted:
            key = back.get(k, k)
            in_view = any(v.key == key for v in self.layout.columns) and not callable(
                self.source.get(key))
            if k in self.inverse:
                col, fn, *read_from = self.inverse[k]
                data[k] = []
                for row, r in zip(df.index, recs):
                    if row in bad:  # a cell of the row already refused (a 类别 not in the list)
                        data[k].append(None)
                        continue
                    if read_from and read_from[0](r) in letters:
                        row_cols[(row, k)] = letters[read_from[0](r)]
                    try:
                        data[k].append(fn(r))
                    except InputError as exc:
                        data[k].append(None)
                        bad.add(row)
                        if exc.sheet is None:
                            exc.sheet = df.attrs.get("sheet", self.layout.zh)
                            exc.cell = f"{letters.get(getattr(exc, 'column', col), '?')}{row}"
                        if errors is not None:
                            errors.append(exc)
                if col in letters:
                    cols[k] = letters[col]
                continue
            data[k] = list(df[key]) if in_view and key in df.columns else [None] * len(df)
            if in_view and key in letters:
                cols[k] = letters[key]
        # object columns throughout: an int cell stays an int, an empty one None
        out = pd.DataFrame(data, index=df.index, columns=wanted, dtype=object)
        out.attrs = {**df.attrs, "columns": SharedMap(cols), "view": True}
        if "sheet" in df.attrs:  # optional columns read back whose header is not there (zh, en)
            out.attrs["absent"] = tuple((c.zh, c.en) for c in self.shown(core).columns
                                        if not c.required and c.key not in letters
                                        and not callable(self.source.get(c.key)))
        if row_cols:
            out.attrs["row_columns"] = SharedMap(row_cols)
        if bad:
            out.attrs["bad_rows"] = SharedRows(bad)
        return out


def _dicts(core: SheetLayout, rows: list[list], extra: list[dict] | None) -> list[dict]:
    """``rows`` in the columns of ``core`` as dicts by core key, ``extra`` (per row) merged."""
    keys = [c.key for c in core.columns]
    return [{**(extra[i] if extra is not None else {}), **dict(zip(keys, r))}
            for i, r in enumerate(rows)]
