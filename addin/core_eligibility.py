"""Eligibility of a roster whose rows are people (the people roster, or a pairs roster's rows of
two persons): the regulation's ``eligibility`` block checked person by person
(:func:`bianpai.engines.eligibility.check_roster`), each finding at its roster cell.

Read by the core's 检查名单 and draw (:func:`bianpai.addin.core_check._findings`) through a
view of the roster (``reg``, ``lang``, ``roster`` with ``group_id``). A roster layout that joins
an entrant's name from several columns (``RosterLayout.name_parts``: 选手1, 选手2) holds one
person per part, with that part's own 性别/出生日期/证件号 columns (``gender1``, ``birth1``, ``id1``).
"""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd

from bianpai.engines.eligibility import check_roster
from bianpai.engines.errors import InputError
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.workbooks.tables import records

__all__ = ["eligibility_findings", "persons", "entrant_name"]

#: the columns of one person of a row of several (``name1``, ``gender1``, ``birth1``, ``id1``)
PART_FIELDS = {"name": "name{}", "gender": "gender{}", "birth_date": "birth{}", "id_number": "id{}"}


def _blank(v) -> bool:
    return not v or (isinstance(v, float) and v != v)


def entrant_name(rec, reg=None) -> str:
    """The name of an entrant whose roster row joins several names (a pair 甲/乙, by the roster
    layout's ``name_parts`` and ``name_sep``; ``name1``/``name2`` joined by "/" without a
    regulation); "" when the row has none of them."""
    rl = roster_layout(reg.roster_layout) if reg is not None else None
    parts, sep = (rl.name_parts, rl.name_sep) if rl is not None and rl.name_parts \
        else (("name1", "name2"), "/")
    return sep.join(str(rec.get(p)) for p in parts if not _blank(rec.get(p)))


def persons(ev) -> tuple[pd.DataFrame, dict]:
    """One row per person of the roster, in the columns of
    :func:`bianpai.engines.eligibility.check_roster`, and a map from (index label, field) to the
    roster cell (A1) so findings can name it. A row of several persons (``name_parts``) gives
    one person per part (team = the entrant, label ``row:part``)."""
    r = ev.roster
    rows, index, where = [], [], {}
    cols = r.attrs.get("columns", {})
    parts = roster_layout(ev.reg.roster_layout).name_parts
    for row, rec in records(r):
        gname = ev.reg.group(rec["group_id"]).name_zh if rec["group_id"] else rec["group"]
        if parts:
            team = entrant_name(rec, ev.reg) or f"第{row}行"
            for part in parts:
                i = part.removeprefix("name")
                label = f"{row}:{i}"
                person = {k: rec.get(v.format(i)) for k, v in PART_FIELDS.items()}
                if not any(person.values()):
                    continue
                person.update(group=gname, event=gname, team=team, unit=rec["unit"],
                              number=rec["number"], role="队员")
                rows.append(person)
                index.append(label)
                for k, v in PART_FIELDS.items():
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
    return pd.DataFrame(rows, index=index), where


def eligibility_findings(ev, unreadable: frozenset = frozenset()) -> list[tuple[str, InputError]]:
    """Eligibility problems as (severity, error) from the regulation's ``eligibility`` block
    (:func:`bianpai.engines.eligibility.check_roster`), each naming its roster cell. Ages are
    taken at each group's ``event_date`` (else the event's). ``unreadable``: cells
    (``sheet!cell``) already named as unreadable (a date typed as text …), not said again to
    be blank."""
    out: list[tuple[str, InputError]] = []
    rules = ev.reg.eligibility
    if rules is None or ev.roster.empty:
        return out
    people, where = persons(ev)
    if people.empty:
        return out
    sheet = ev.roster.attrs.get("sheet", roster_layout(ev.reg.roster_layout).table.zh)
    dates = {g.name_zh: g.event_date or ev.reg.event_date for g in ev.reg.groups}
    by_date: dict = {}
    for label, g in people["group"].items():
        by_date.setdefault(dates.get(g, ev.reg.event_date), []).append(label)
    seen = set()
    for day, labels in by_date.items():
        # checks across the roster (duplicates, one event per person) see everyone
        found = check_roster(people, rules, event_date=day or dt.date.today())
        for f in found.itertuples(index=False):
            if f.row is not None and not pd.isna(f.row) and f.row not in labels:
                continue
            key = (f.row, f.field, f.code, f.message_zh)
            if key in seen:
                continue
            seen.add(key)
            cell = where.get((f.row, f.field)) if f.row is not None else None
            if cell is None and f.row is not None and not pd.isna(f.row):
                cell = str(f.row).split(":")[0]
                cell = f"{cell}:{cell}"
            if f.code == "missing_value" and f"{sheet}!{cell}" in unreadable:
                continue
            out.append((f.severity, InputError(_readable(f.message_zh), _readable(f.message_en),
                                               sheet=sheet, cell=cell)))
    return out


_FIELD_ZH = {"name": "姓名", "gender": "性别", "birth_date": "出生日期", "id_number": "证件号",
             "unit": "单位", "team": "队名", "group": "组别", "role": "角色", "number": "序号",
             "event": "项目"}
_ROW_LABEL = re.compile(r"(第 ?|row )(\d+):(\d)( ?行)?")


def _readable(text: str) -> str:
    """Engine messages use column keys and person labels (``2:1`` = row 2, player 1): show the
    sheet's own words instead."""
    for k, zh in _FIELD_ZH.items():
        text = text.replace(f"「{k}」", f"「{zh}」")
    return _ROW_LABEL.sub(lambda m: (f"第{m[2]}行选手{m[3]}" if m[1].startswith("第")
                                     else f"row {m[2]} player {m[3]}"), text)
