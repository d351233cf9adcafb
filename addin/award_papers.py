"""The printed award papers: 荣誉证书 one page per person (each player of a pair or team gets
theirs), built from the allocation table and the final ranking's ``members``.

Called by the awards writer (:func:`bianpai.addin.commands.write_awards`) after it wrote 奖励,
领奖签收表 and 证书; the page layout is :func:`bianpai.workbooks.paper.certificate_pages`.
"""

from __future__ import annotations

import pandas as pd

from bianpai.workbooks import paper as P
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import find_sheet


def _members(standings: pd.DataFrame) -> dict:
    """``(group, entrant_id) → [person names]`` from the ranking's optional ``members``
    column (a list per entrant)."""
    if "members" not in standings.columns:
        return {}
    out = {}
    groups = standings["group"] if "group" in standings.columns else [None] * len(standings)
    for g, e, m in zip(groups, standings["entrant_id"], standings["members"]):
        if isinstance(m, (list, tuple)) and m:
            out[(g, e)] = [str(x) for x in m if x is not None and str(x).strip()]
    return out


def certificate_people(table: pd.DataFrame, standings: pd.DataFrame) -> list[dict]:
    """One item per person who receives a certificate, trophy, medal or named award: the
    allocation ``table`` rows (columns ``group, place_label, entrant_id, name, unit, award,
    trophy, medal, certificate``) times the entrant's members (``standings['members']``; an
    entrant without members is one person, its ``name``). Items: ``person, group, place_label,
    award, team, unit`` (``team`` None for an individual)."""
    members = _members(standings)
    out = []
    for rec in table.to_dict("records"):
        titled = any(bool(rec.get(k)) for k in ("trophy", "medal", "certificate"))
        if not titled and not rec.get("award"):
            continue
        people = members.get((rec.get("group"), rec.get("entrant_id"))) or [rec["name"]]
        team = rec["name"] if len(people) > 1 or people != [rec["name"]] else None
        for person in people:
            out.append(dict(person=person, group=rec.get("group") or "",
                            place_label=rec.get("place_label") or "", award=rec.get("award") or "",
                            team=team, unit=rec.get("unit")))
    return out


def write_certificate_pages(port: WorkbookPort, table: pd.DataFrame, standings: pd.DataFrame,
                            lang: str) -> int:
    """Rebuild 荣誉证书 (one page per person); returns the number of pages (the sheet is
    removed when nobody gets one)."""
    people = certificate_people(table, standings)
    name = find_sheet(port, P.CERTIFICATE_PAGES)
    if not people:
        if name is not None:
            port.delete_sheet(name)
        return 0
    grid, fmt = P.certificate_pages(people, lang)
    if name is not None:
        port.write_sheet(name, grid, fmt)
    else:
        port.write_sheet(P.CERTIFICATE_PAGES.name(lang), grid, fmt,
                         position=P.position_after(port.sheet_names(), "certificates"))
    return len(people)


def roster_members(roster: pd.DataFrame, row) -> list[str]:
    """The 队员1…6 names of the 报名 row ``row`` (index of ``roster``, a frame with columns
    ``player1`` … ``player6``); empty when the row or the columns are missing."""
    if row is None or row not in roster.index:
        return []
    rec = roster.loc[row]
    if isinstance(rec, pd.DataFrame):
        rec = rec.iloc[0]
    out = []
    for i in range(1, 7):
        v = rec.get(f"player{i}")
        if v is not None and not (isinstance(v, float) and v != v) and str(v).strip():
            out.append(str(v).strip())
    return out
