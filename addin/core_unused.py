"""Values typed where the match's scoring does not read them (成绩 / 逐局成绩).

The entry sheets of a workbook hold the union of every group's entry columns (象棋 结果 beside
掼蛋 名次). A value typed in a column that the match's own scoring does not declare, or one half
of a pair the scoring reads only together (``EntryColumn.together``: 主队局分 with 客队局分), would
be silently ignored; the reader refuses it by cell instead (Chinese + English).
"""

from __future__ import annotations

from bianpai.engines.core import EntryColumn
from bianpai.engines.errors import InputError

__all__ = ["UnusedCells"]


def _typed(v) -> bool:
    return v is not None and v == v and v != ""


class UnusedCells:
    """The check of one sheet's rows against one scoring's ``declared`` entry columns (made
    once: a reader checks every row of a sheet with the same few); ``layout_columns``: the
    sheet's layout columns (for the header titles).

    Calling it with ``values`` (entry-column key → value of one sheet row), ``cell_of_key(key)``
    → the cell (``"G6"``), the sheet and the group name returns one :class:`InputError` per
    value typed in an undeclared column, and one per typed cell of a half-typed ``together``
    pair (naming the empty one too)."""

    def __init__(self, declared: list[EntryColumn], layout_columns):
        self.declared = list(declared)
        self.titles = {c.key: c.zh for c in layout_columns}
        self.en = {c.key: c.en for c in layout_columns}
        self.own = {c.key for c in self.declared}
        pairs: dict[str, list[EntryColumn]] = {}
        for c in self.declared:
            if getattr(c, "together", None):
                pairs.setdefault(c.together, []).append(c)
        self.pairs = list(pairs.values())

    def __call__(self, values: dict, cell_of_key, sheet: str, group: str) -> list[InputError]:
        titles, en, own, declared = self.titles, self.en, self.own, self.declared
        errs = []
        for k, v in values.items():
            if k in own or k not in titles or not _typed(v):
                continue
            used = "、".join(f"“{titles[c.key]}”列（{cell_of_key(c.key)}）"
                            for c in declared if c.key in titles)
            used_en = ", ".join(f"{en[c.key]!r} ({cell_of_key(c.key)})" for c in declared
                                if c.key in en)
            errs.append(InputError(
                f"{group}不用“{titles[k]}”列（填了 {v}）；应填在{used}",
                f"{group} does not use column {en[k]!r} (typed {v!r}); type it in {used_en}",
                sheet=sheet, cell=cell_of_key(k)))
        for cols in self.pairs:
            have = [c for c in cols if _typed(values.get(c.key))]
            empty = [c for c in cols if c not in have]
            if have and empty:
                miss = "、".join(f"“{titles.get(c.key, c.key)}”（{cell_of_key(c.key)}）"
                                for c in empty)
                for c in have:
                    errs.append(InputError(
                        f"只填了“{titles.get(c.key, c.key)}”，{miss}未填：成对填写，或都不填",
                        f"half a pair typed: {', '.join(e.key for e in empty)} empty beside "
                        f"{c.key} (type both or neither)",
                        sheet=sheet, cell=cell_of_key(c.key)))
        return errs
