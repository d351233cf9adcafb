"""Reading an event workbook into validated frames (the inputs of every command).

Everything here reads through a :class:`~bianpai.workbooks.port.WorkbookPort` and collects
problems as ``InputError`` with sheet and cell; nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from bianpai.engines.errors import InputError
from bianpai.templates.schema import Group, Regulation
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import regulation_from_sheet
from bianpai.workbooks.tables import cell_of, find_sheet, read_table


@dataclass
class GroupEntries:
    """The entrants of one group after the draw: number → name, unit, roster row."""

    group: Group
    entries: pd.DataFrame  # columns: number (int), entrant_name, unit, roster_row (int)

    def name_of(self, number) -> str:
        if number is None or pd.isna(number):
            return "轮空"
        hit = self.entries[self.entries["number"] == int(number)]
        return hit["entrant_name"].iloc[0] if len(hit) else f"{number}号"


@dataclass
class Event:
    reg: Regulation
    lang: str
    roster: pd.DataFrame
    errors: list[InputError] = field(default_factory=list)

    def group_of(self, value, *, sheet: str, cell: str) -> Group | None:
        try:
            return self.reg.group(str(value).strip())
        except KeyError:
            names = "、".join(g.name_zh for g in self.reg.groups)
            self.errors.append(InputError(f"未知组别“{value}”，应为：{names}",
                                          f"unknown group {value!r}; expected one of "
                                          f"{', '.join(g.name_en or g.id for g in self.reg.groups)}",
                                          sheet=sheet, cell=cell))
            return None


def load_event(port: WorkbookPort) -> Event:
    """Regulation (preset + 规程 sheet) and the roster, type-checked. Errors are collected in
    ``Event.errors`` (the roster's bad cells included); the 规程 sheet's errors raise at once."""
    reg = regulation_from_sheet(port)
    errors: list[InputError] = []
    roster = read_table(port, L.ROSTER_PAIRS, errors=errors)
    ev = Event(reg=reg, lang=reg.language, roster=roster, errors=errors)
    sheet = roster.attrs.get("sheet", L.ROSTER_PAIRS.zh)
    gids = []
    for row, g in roster["group"].items():
        grp = ev.group_of(g, sheet=sheet, cell=cell_of(roster, row, "group")) if g else None
        gids.append(grp.id if grp else None)
    roster["group_id"] = gids
    return ev


def entrant_name(rec) -> str:
    names = [n for n in (rec.get("name1"), rec.get("name2")) if n]
    return "/".join(names)


def read_draw(port: WorkbookPort, ev: Event) -> dict[str, GroupEntries]:
    """The 抽签 sheet as entries per group id (empty dict before the draw)."""
    if find_sheet(port, L.DRAW) is None:
        return {}
    df = read_table(port, L.DRAW, errors=ev.errors)
    out: dict[str, GroupEntries] = {}
    sheet = df.attrs.get("sheet", L.DRAW.zh)
    for gname, sub in df.groupby("group", sort=False):
        grp = ev.group_of(gname, sheet=sheet, cell=cell_of(sub, sub.index[0], "group"))
        if grp is None:
            continue
        entries = sub[["number", "entrant_name", "unit", "roster_row"]].copy()
        entries["number"] = entries["number"].astype(int)
        out[grp.id] = GroupEntries(group=grp, entries=entries.reset_index(drop=True))
    return out
