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
from bianpai.workbooks.tables import records, cell_of, find_sheet, read_table


@dataclass
class GroupEntries:
    """The entrants of one group after the draw: number → name, unit, roster row."""

    group: Group
    entries: pd.DataFrame  # columns: number (int), entrant_name, unit, roster_row (int)
    seed: str | None = None  # how the numbers were drawn (the lot's seed, or a note)

    @property
    def lot_seed(self) -> int | None:
        """The draw's integer seed, reused for lots in the standings so that pressing 排名
        twice never re-draws a tie (a seed given to rank overrides it)."""
        try:
            return int(str(self.seed).strip())
        except (TypeError, ValueError):
            return None

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
    from bianpai.addin.command_infra import TITLE  # noqa: PLC0415  (page headers carry it)
    TITLE["text"] = reg.title_zh if reg.language == "zh" else (reg.title_en or reg.title_zh)
    errors: list[InputError] = []
    roster = read_table(port, L.ROSTERS[reg.roster_layout], errors=errors)
    ev = Event(reg=reg, lang=reg.language, roster=roster, errors=errors)
    sheet = roster.attrs.get("sheet", L.ROSTER_PAIRS.zh)
    gids = []
    for row, g in roster["group"].items():
        grp = ev.group_of(g, sheet=sheet, cell=cell_of(roster, row, "group")) if g else None
        gids.append(grp.id if grp else None)
    roster["group_id"] = gids
    return ev


PAIR_FIELDS = {"name": "name{}", "gender": "gender{}", "birth_date": "birth{}", "id_number": "id{}"}


def persons(ev: Event) -> tuple[pd.DataFrame, dict]:
    """One row per person of the roster, in the columns of
    :func:`bianpai.engines.eligibility.check_roster`, and a map from (index label, field) to the
    roster cell (A1) so findings can name it. Pairs rows become two persons (team = the pair)."""
    r = ev.roster
    rows, index, where = [], [], {}
    cols = r.attrs.get("columns", {})
    for row, rec in records(r):
        gname = ev.reg.group(rec["group_id"]).name_zh if rec["group_id"] else rec["group"]
        if ev.reg.roster_layout == "pairs":
            team = entrant_name(rec) or f"第{row}行"
            for i in ("1", "2"):
                label = f"{row}:{i}"
                person = {k: rec[v.format(i)] for k, v in PAIR_FIELDS.items()}
                if not any(person.values()):
                    continue
                person.update(group=gname, event=gname, team=team, unit=rec["unit"],
                              number=rec["number"], role="队员")
                rows.append(person)
                index.append(label)
                for k, v in PAIR_FIELDS.items():
                    where[(label, k)] = f"{cols.get(v.format(i), '?')}{row}"
                for k in ("group", "unit", "number"):
                    where[(label, k)] = f"{cols.get(k, '?')}{row}"
        else:
            person = {k: rec.get(k) for k in ("name", "gender", "birth_date", "id_number", "unit",
                                             "number", "role", "team")}
            person.update(group=gname, event=gname)
            rows.append(person)
            index.append(str(row))
            for k in person:
                where[(str(row), k)] = f"{cols.get(k, '?')}{row}"
    df = pd.DataFrame(rows, index=index)
    return df, where


def entries_per_group(ev: Event) -> dict[str, int]:
    """Number of entries (pairs, teams or individuals) per group name_zh, for places ladders."""
    out: dict[str, int] = {}
    r = ev.roster
    for g in ev.reg.groups:
        sub = r[r["group_id"] == g.id]
        if ev.reg.roster_layout == "pairs" or "team" not in sub.columns:
            n = len(sub)
        else:
            players = sub[~sub["role"].fillna("").astype(str).str.match(r"^(领队|教练|领队兼教练)$")]
            keys = [t if t else f"#{n}" for n, t in zip(players["name"], players["team"])]
            n = len(set(keys))
        out[g.name_zh] = n
    return out


def entrant_name(rec) -> str:
    names = [n for n in (rec.get("name1"), rec.get("name2"))
             if n and not (isinstance(n, float) and n != n)]
    return "/".join(str(n) for n in names)


def read_draw(port: WorkbookPort, ev: Event) -> dict[str, GroupEntries]:
    """The 抽签 sheet as entries per group id (empty dict before the draw)."""
    if find_sheet(port, L.DRAW) is None:
        return {}
    df = read_table(port, L.DRAW, errors=ev.errors)
    out: dict[str, GroupEntries] = {}
    sheet = df.attrs.get("sheet", L.DRAW.zh)
    roster = ev.roster
    rsheet = roster.attrs.get("sheet", "")
    for gname, sub in df.groupby("group", sort=False):
        grp = ev.group_of(gname, sheet=sheet, cell=cell_of(sub, sub.index[0], "group"))
        if grp is None:
            continue
        entries = sub[["number", "entrant_name", "unit", "roster_row"]].copy()
        entries["number"] = entries["number"].astype(int)
        # names and units follow corrections typed in 报名 after the draw (by roster row)
        names, units = [], []
        for rec in entries.to_dict("records"):
            row = rec["roster_row"]
            if row in roster.index and roster.at[row, "group_id"] == grp.id:
                r = {k: (None if isinstance(v, float) and v != v else v)
                     for k, v in roster.loc[row].to_dict().items()}
                names.append(entrant_name(r) or r.get("name") or rec["entrant_name"])
                units.append(r.get("unit"))
            else:
                ev.errors.append(InputError(
                    f"抽签时的报名表第{row}行（{rec['entrant_name']}）已不在{grp.name_zh}中；"
                    f"报名表行被移动或删除，请恢复或重新抽签（--redraw）",
                    f"roster row {row} ({rec['entrant_name']}) drawn for {grp.name_en or grp.id} "
                    f"has moved or gone; restore it or redraw", sheet=rsheet, cell=f"A{row}"))
                names.append(rec["entrant_name"])
                units.append(rec["unit"])
        entries["entrant_name"] = names
        entries["unit"] = units
        seeds = [x for x in sub["seed"] if x]
        out[grp.id] = GroupEntries(group=grp, entries=entries.reset_index(drop=True),
                                   seed=seeds[0] if seeds else None)
    return out
