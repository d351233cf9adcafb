"""Late entries (迟到报名 / 补报) into a running first stage: a roster row typed after its group
was drawn joins at the next round drawn, if the stage's format admits late entrants.

A format declares it with the optional hook ``admit_late(state, numbers)``: it returns the rows
that record the rounds the newcomers missed (e.g. the individual Swiss's 迟报 rows, scored by its
``late_entry`` setting: 0 or half a win per round), or raises ``RuleError`` when the stage can
take nobody any more. The 抽签 sheet records each newcomer's number and 进入轮次 (join round);
every later command reads it back (:meth:`bianpai.addin.competition.CoreEvent.stage_entrants`).
Nothing here knows the sport.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bianpai.engines.core import Match
from bianpai.engines.errors import InputError, RuleError
from bianpai.workbooks.tables import cell_of

if TYPE_CHECKING:
    from bianpai.addin.competition import CoreEvent
    from bianpai.templates.schema import Group, Stage

__all__ = ["late_rows", "admit_late_entries"]


def late_rows(ev: CoreEvent, g: Group) -> list[tuple[int, dict]]:
    """``(roster row, record)`` of the group's roster entries not in its draw (抽签) — neither
    their row nor their name — in roster order; empty when the group is not drawn."""
    gs = ev.groups[g.id]
    if not gs.drawn or g.sub_entrants is not None:  # (an entry playing as parts: not here)
        return []
    drawn = {int(t["roster_row"]) for t in gs.teams.values() if t.get("roster_row") is not None}
    # an entrant already drawn whose row moved (a row inserted above it) is not a newcomer
    names = {str(t["name"]).strip() for t in gs.teams.values() if t.get("name") is not None}
    r = ev.roster[ev.roster["group_id"] == g.id]
    from bianpai.addin.competition import records  # noqa: PLC0415
    return [(row, rec) for row, rec in records(r)
            if int(row) not in drawn and str(rec["name"]).strip() not in names]


def admit_late_entries(ev: CoreEvent) -> tuple[list[tuple[Group, Stage, Match]], list[str]]:
    """Number every late roster entry of a drawn group whose first stage is running and whose
    format has ``admit_late``: the lowest free numbers from the top (a typed 队号 kept when
    free), placed after the others, joining at the round after the last drawn. Returns the
    rows recording the rounds they missed (``(group, stage, match)``) and one note per group.
    Raises ``InputErrors`` (the roster cell) when the stage cannot take them (not running, a
    format without late entries, every round drawn) or a typed number is taken."""
    from bianpai.engines.errors import InputErrors  # noqa: PLC0415
    new: list[tuple] = []
    notes: list[str] = []
    errs: list[InputError] = []
    sheet = ev.roster.attrs.get("sheet", "报名")
    for g in ev.reg.groups:
        rows = late_rows(ev, g)
        if not rows or not g.stages:
            continue
        s = g.stages[0]
        admit = getattr(s.format, "admit_late", None)
        gs = ev.groups[g.id]

        def refuse(zh: str, en: str, row: int, key: str = "name") -> None:
            errs.append(InputError(zh, en, sheet=sheet, cell=cell_of(ev.roster, row, key)))
        if admit is None or len(g.stages) > 1 and ev.entered(g, g.stages[1]):
            for row, rec in rows:
                refuse(f"{ev.gname(g)}已抽签，“{rec['name']}”为抽签后新增的报名：{ev.sname(s)}的赛制不接受迟到报名（补报）",
                       f"{rec['name']} was added after {g.name_en or g.id} was drawn: its format "
                       f"takes no late entries", row)
            continue
        st = ev.state(g, s, with_standings=False)
        join = st.rounds_drawn() + 1
        numbers = []
        taken = set(gs.teams)
        nxt = max(taken, default=0)
        pos = max((int(t["position"] or 0) for t in gs.teams.values()), default=0)
        for row, rec in rows:
            if rec["number"] is not None:
                n = int(rec["number"])
                if n in taken:
                    refuse(f"迟到报名“{rec['name']}”的队号 {n} 已被使用", f"late entry "
                           f"{rec['name']}: number {n} is taken", row, "number")
                    continue
            else:
                nxt += 1
                while nxt in taken:
                    nxt += 1
                n = nxt
            taken.add(n)
            pos += 1
            gs.teams[n] = dict(name=rec["name"], unit=rec["unit"], roster_row=row, pool=None,
                               position=pos, join_round=join)
            numbers.append((n, row, rec))
        if not numbers:
            continue
        try:
            missed = admit(st, [n for n, _r, _rec in numbers])
        except RuleError as exc:
            for n, row, rec in numbers:
                del gs.teams[n]
                refuse(f"迟到报名“{rec['name']}”：{exc.zh}", f"late entry {rec['name']}: {exc.en}", row)
            continue
        new += [(g, s, m) for m in missed]
        names = "、".join(f"{n}号{rec['name']}" for n, _r, rec in numbers)
        notes.append(f"{ev.gname(g)}迟到报名 {names} 自第{join}轮起参赛")
    if errs:
        raise InputErrors(errs)
    return new, notes
