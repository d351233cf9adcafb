"""Eligibility of a team roster (资格审查): the regulation's ``eligibility`` block applied to every
player and staff member named in 报名, with their details from the 队员 sheet.

报名 has one row per team (队名, 地市/单位, 队员1–6, 领队/教练); 队员 has one row per person
(队名, 姓名, 性别, 出生日期, 身份证号), matched on 队名 + 姓名. Each person becomes one row of
:func:`bianpai.engines.eligibility.check_roster` (team = 队名, unit = 地市/单位, event = the
group's name, role 队员 or 领队), so team sizes (4–6), ages by gender at the event date
(Fujian 七（一）), one team per player, the same ID twice and the unit limits all come from the
engine. 领队/教练 count for the unit limits only (the age rules are 队员年龄); a captain who also
plays is listed among the 队员 columns too. Every finding names the cell to correct: the 队员 cell of a detail (性别, 出生日期,
身份证号) when the person has a 队员 row, else the 报名 cell of the name (队员N, 队名, 地市/单位).

Pure reading: nothing is written here.
"""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd

from bianpai.engines.eligibility import check_roster
from bianpai.engines.errors import InputError
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.tables import cell_of, find_sheet, read_table

__all__ = ["team_persons", "team_eligibility_findings"]

DETAIL_FIELDS = ("gender", "birth_date", "id_number")
#: Findings kept for a 领队/教练 row: only what is wrong with the details typed for them.
STAFF_CODES = {"bad_date", "bad_gender", "id_checksum", "id_length", "id_birth_mismatch",
               "id_gender_mismatch"}
#: Findings about a person entered twice: named at the person's name in 报名.
PERSON_CODES = {"multiple_teams", "multiple_events", "multiple_units", "duplicate_name_birth"}
FIELD_ZH = {"gender": "性别", "birth_date": "出生日期", "id_number": "身份证号", "name": "姓名"}


def _text(v) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return str(v).strip()


_LABEL = re.compile(r"(?:第 |row )?(\d+):(p(\d)|c)(?: 行)?")


def _labels(text: str, lang: str) -> str:
    """Person labels in engine messages (``2:p1``, ``5:c``) as roster places."""
    def sub(m):
        row, who, i = m.group(1), m.group(2), m.group(3)
        if lang == "zh":
            return f"报名第{row}行" + (f"队员{i}" if i else "领队")
        return f"roster row {row} " + (f"player {i}" if i else "captain")
    return _LABEL.sub(sub, text)


def team_persons(ev) -> tuple[pd.DataFrame, dict, list[tuple[str, InputError]]]:
    """The persons of a team roster in the columns of ``check_roster``.

    Returns ``(people, where, problems)``: ``people`` indexed by labels ``"<row>:p<i>"`` (player
    i of 报名 row) and ``"<row>:c"`` (领队/教练); ``where`` maps ``(label, field)`` to
    ``(sheet, cell)``; ``problems`` are (severity, error) about the 队员 sheet itself (a person
    not in 报名, a person listed twice)."""
    r = ev.roster
    rsheet = r.attrs.get("sheet", T.TEAM_ROSTER.zh)
    problems: list[tuple[str, InputError]] = []
    details: dict[tuple[str, str], tuple[int, dict]] = {}
    dsheet = None
    dframe = None
    if find_sheet(ev.port, T.TEAM_PLAYERS) is not None:
        errs: list[InputError] = []
        dframe = read_table(ev.port, T.TEAM_PLAYERS, errors=errs)
        dsheet = dframe.attrs.get("sheet", T.TEAM_PLAYERS.zh)
        problems += [("error", e) for e in errs]
        for row, rec in zip(dframe.index, dframe.to_dict("records")):
            key = (_text(rec["team"]), _text(rec["name"]))
            if not all(key):
                continue
            if key in details:
                problems.append(("error", InputError(
                    f"「{key[0]}」的“{key[1]}”在队员表重复（另见第{details[key][0]}行）",
                    f"{key[1]} of {key[0]} is listed twice in Players (see row {details[key][0]})",
                    sheet=dsheet, cell=cell_of(dframe, row, "name"))))
                continue
            details[key] = (row, rec)
    group = ev.group.name_zh
    rows, index, where = [], [], {}
    named: set[tuple[str, str]] = set()
    for row, rec in zip(r.index, r.to_dict("records")):
        team = _text(rec["name"])
        unit = _text(rec["unit"]) or None
        slots = [(f"player{i}", f"{row}:p{i}", "队员") for i in range(1, 7)]
        slots.append(("captain", f"{row}:c", "领队"))
        for col, label, role in slots:
            name = _text(rec.get(col))
            if not name:
                continue
            named.add((team, name))
            person = dict(group=group, event=group, team=team or None, unit=unit,
                          number=rec["number"], name=name, role=role,
                          gender=None, birth_date=None, id_number=None)
            here = (rsheet, cell_of(r, row, col))
            for k in ("name", "role"):
                where[(label, k)] = here
            where[(label, "team")] = (rsheet, cell_of(r, row, "name"))
            where[(label, "unit")] = (rsheet, cell_of(r, row, "unit"))
            where[(label, "group")] = (rsheet, cell_of(r, row, "name"))
            where[(label, "event")] = (rsheet, cell_of(r, row, "name"))
            d = details.get((team, name))
            for k in DETAIL_FIELDS:
                if d is not None:
                    person[k] = d[1][k]
                    where[(label, k)] = (dsheet, cell_of(dframe, d[0], k))
                else:
                    where[(label, k)] = here
            rows.append(person)
            index.append(label)
    # a roster of several groups is checked group by group: persons of the other groups' teams
    # are theirs (``ev.other_teams``)
    others = getattr(ev, "other_teams", set())
    for (team, name), (row, _rec) in details.items():
        if (team, name) not in named and team not in others:
            problems.append(("error", InputError(
                f"队员表中的“{name}”不在报名表「{team}」的队员或领队栏中（请核对队名与姓名）",
                f"{name} (Players) is not listed in the roster row of team {team}",
                sheet=dsheet, cell=cell_of(dframe, row, "name"))))
    cols = ["group", "event", "team", "unit", "number", "name", "role", "gender", "birth_date",
            "id_number"]
    return pd.DataFrame(rows, index=index, columns=cols), where, problems


def team_eligibility_findings(ev) -> list[tuple[str, InputError]]:
    """Eligibility findings of a team roster as ``(severity, InputError)``, each naming its cell.
    Empty when the regulation has no ``eligibility`` block. Ages at the group's ``event_date``
    (else the event's)."""
    rules = ev.reg.eligibility
    if rules is None or ev.roster.empty:
        return []
    people, where, problems = team_persons(ev)
    if people.empty:
        return problems
    day = ev.group.event_date or ev.reg.event_date or dt.date.today()
    found = check_roster(people, rules, event_date=day)
    out = list(problems)
    seen = set()
    for f in found.itertuples(index=False):
        row = None if f.row is None or (isinstance(f.row, float) and f.row != f.row) else f.row
        field_ = "name" if f.code in PERSON_CODES else f.field
        sheet, cell = where.get((row, field_), (ev.roster.attrs.get("sheet", T.TEAM_ROSTER.zh),
                                                 None))
        zh, en = _labels(f.message_zh, "zh"), _labels(f.message_en, "en")
        if row is not None and people.at[row, "role"] == "领队" and f.code not in STAFF_CODES:
            continue  # 领队/教练: counted for unit limits, not checked as a player
        if row is not None:
            p = people.loc[row]
            who_zh = f"「{p['team']}」{'领队' if p['role'] == '领队' else '队员'}{p['name']}"
            who_en = f"{p['name']} ({p['team']})"
            if f.code == "missing_value" and f.field in DETAIL_FIELDS:
                listed = sheet != where[(row, "name")][0]  # the person has a 队员 row
                zh = f"{who_zh}缺少{FIELD_ZH[f.field]}" + (
                    "" if listed else "（请在“队员”表按队名、姓名填写）")
                en = f"{who_en}: {f.field} is blank" + (
                    "" if listed else " (no row in the Players sheet)")
            elif f.code not in ("team_too_small", "team_too_large", "unit_too_many_teams",
                                "unit_too_many_players", "unit_too_many_people"):
                zh, en = f"{who_zh}：{zh}", f"{who_en}: {en}"
        key = (f.severity, sheet, cell, zh)
        if key in seen:  # e.g. a blank birth date is reported by two engine rules
            continue
        seen.add(key)
        out.append((f.severity, InputError(zh, en, sheet=sheet, cell=cell)))
    return out
