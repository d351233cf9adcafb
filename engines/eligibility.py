"""Eligibility and roster checks (资格审查 / 校验): age and birth-date rules, teams, duplicates.

Pure computation: a roster (DataFrame) and the regulation's ``eligibility`` block (pydantic
models) in, a findings DataFrame out. ``error`` findings block drawing; ``warning`` findings can
be accepted with a reason (the command writes it to 日志).

Age is counted in completed years (周岁) at a reference date (the event date unless the rule names
one): the age goes up on the birthday itself; someone born on 29 February has a birthday on
1 March in common years. ``basis = "calendar_year"`` counts reference year − birth year instead
(the 年度 reading some senior games use).

Gender values accepted: 男/女, M/F, male/female (any case); blank is unknown.

The rule models live in :mod:`bianpai.engines.eligibility_rules`, the value helpers (dates, ages,
ID numbers) in :mod:`bianpai.engines.roster_values`; both are re-exported here.
"""

from __future__ import annotations

import datetime as dt

import pandas as pd

from bianpai.engines.eligibility_rules import (  # noqa: F401  (re-exported)
    STAFF_ROLES, Accompaniment, AgeBand, AgeGroups, AgeRange, BirthDateWindow, DuplicateCheck,
    EligibilityRules, IdNumberCheck, Severity, SingleEntry, TeamSize, UnitLimit, _Scoped,
    _Sourced)
from bianpai.engines.roster_values import (  # noqa: F401  (re-exported)
    _DATE_RE, _EXCEL_EPOCH, _ID_CHECK, _ID_WEIGHTS, _blank, _gender, _id_parts, _is_player,
    _to_date, age_on)

__all__ = [
    "Severity", "BirthDateWindow", "AgeRange", "AgeBand", "AgeGroups", "Accompaniment",
    "TeamSize", "UnitLimit", "SingleEntry", "DuplicateCheck", "IdNumberCheck",
    "EligibilityRules", "check_roster", "assign_age_group", "age_on", "has_errors",
    "FINDING_COLUMNS", "ROSTER_COLUMNS",
]

FINDING_COLUMNS = ["severity", "row", "field", "code", "message_zh", "message_en"]
ROSTER_COLUMNS = ["group", "number", "name", "gender", "birth_date", "id_number", "unit",
                  "event", "team", "role"]



# --------------------------------------------------------------------------------------------
# the check
# --------------------------------------------------------------------------------------------

class _Findings:
    def __init__(self) -> None:
        self.rows: list[dict] = []

    def add(self, severity: str, row, field: str, code: str, zh: str, en: str) -> None:
        self.rows.append({"severity": severity, "row": row, "field": field, "code": code,
                          "message_zh": zh, "message_en": en})

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=FINDING_COLUMNS)


def _text(v) -> str:
    return "" if _blank(v) else str(v).strip()


def _allowed_en(r) -> str:
    """The English words of an age range: "at most 55", "18 to under 65", "at least 58"."""
    hi = None if r.max_age is None else (f"under {r.max_age}" if r.max_exclusive
                                         else f"at most {r.max_age}")
    if r.min_age is None:
        return hi or "any age"
    if hi is None:
        return f"at least {r.min_age}"
    return f"{r.min_age} to {hi.removeprefix('at most ')}"


def _fmt(d: dt.date) -> str:
    return f"{d.year}年{d.month}月{d.day}日"


def check_roster(roster: pd.DataFrame, rules: EligibilityRules, *,
                 event_date: dt.date) -> pd.DataFrame:
    """Check a roster against the ``eligibility`` block of a regulation.

    ``roster``: one row per person and entry; the index labels are the row keys reported back
    (e.g. the worksheet row number). Columns (all optional except those in
    ``rules.required_fields``; a missing column skips the checks that need it):
    ``group`` (str, 组别), ``number`` (编号), ``name`` (str, 姓名), ``gender`` (str, 男/女 or M/F),
    ``birth_date`` (date, Timestamp, Excel serial or text ``2003-10-01``), ``id_number`` (str,
    身份证号), ``unit`` (str, 单位), ``event`` (str, 项目), ``team`` (str, 队名; pairs are teams of
    two), ``role`` (str: blank/队员 = player; 领队, 教练, 领队兼教练 = staff, not counted as
    players; 领队兼队员 counts as a player).

    ``event_date``: reference date for ages when a rule names none (the event's first day).

    Returns findings, columns :data:`FINDING_COLUMNS`: ``severity`` ("error" blocks drawing,
    "warning" can be accepted), ``row`` (index label), ``field`` (column key), ``code`` (str),
    ``message_zh``, ``message_en``. Raises nothing for bad data: bad values are findings.
    """
    f = _Findings()
    df = roster
    cols = set(df.columns)
    event_date = _to_date(event_date)

    # each column's values by row label, read once (``df.at`` per cell was most of the check)
    by_col = {c: dict(zip(df.index, df[c].tolist())) for c in cols} if df.index.is_unique \
        else None

    def val(idx, col):
        if col not in cols:
            return None
        return by_col[col][idx] if by_col is not None else df.at[idx, col]

    for col in rules.required_fields:
        if col not in cols:
            f.add("error", None, col, "missing_column", f"报名表缺少「{col}」列",
                  f"roster lacks column {col!r}")
            continue
        for idx in df.index:
            if _blank(val(idx, col)):
                f.add("error", idx, col, "missing_value", f"「{col}」不能为空",
                      f"{col.replace('_', ' ')} is blank")

    births: dict = {}
    genders: dict = {}
    if "birth_date" in cols:
        for idx in df.index:
            v = val(idx, "birth_date")
            try:
                births[idx] = _to_date(v)
            except (ValueError, TypeError, OverflowError):
                births[idx] = None
                f.add("error", idx, "birth_date", "bad_date", f"出生日期「{v}」无法识别",
                      f"birth date {v!r} not understood")
                continue
            if births[idx] is None and rules.needs_birth_date \
                    and "birth_date" not in rules.required_fields:  # (said once, above)
                f.add("error", idx, "birth_date", "missing_value", "出生日期不能为空",
                      "birth date is blank")
            limit = event_date or dt.date.today()
            if births[idx] is not None and births[idx] > limit:  # a typo (2090 for 1990…)
                f.add("error", idx, "birth_date", "born_after_event",
                      f"出生日期 {_fmt(births[idx])} 晚于{'比赛日期' if event_date else '今天'} "
                      f"{_fmt(limit)}，请核对",
                      f"birth date {births[idx]} is after the "
                      f"{'event date' if event_date else 'present day'} {limit}")
                births[idx] = None  # no age rule reads it
    elif rules.needs_birth_date:
        f.add("warning", None, "birth_date", "missing_column", "报名表无出生日期列，未检查年龄",
              "roster has no birth_date column; ages not checked")
    if "gender" in cols:
        for idx in df.index:
            genders[idx] = _gender(val(idx, "gender"))
            if genders[idx] == "?":
                f.add("error", idx, "gender", "bad_gender",
                      f"性别「{val(idx, 'gender')}」无法识别（应为 男/女）",
                      f"gender {val(idx, 'gender')!r} not understood (男/女 or M/F)")

    def scope(idx) -> tuple[str, str]:
        return _text(val(idx, "event")), _text(val(idx, "group"))

    # birth-date windows
    for w in rules.birth_windows:
        for idx, b in births.items():
            if b is None or not w.applies(*scope(idx)):
                continue
            if w.born_after is not None:
                a = w.born_after
                if b < a or (b == a and not w.after_inclusive):
                    f.add(w.severity, idx, "birth_date", "born_too_early",
                          f"出生日期 {_fmt(b)} 须在 {_fmt(a)}{'（含）' if w.after_inclusive else ''}"
                          f"之后（{w.clause or '规程'}）",
                          f"born {b}, must be born after {a}"
                          f"{' (inclusive)' if w.after_inclusive else ''}")
                    continue
                if b == a and w.warn_on_boundary:
                    f.add("warning", idx, "birth_date", "boundary_day",
                          f"出生日期恰为截止日 {_fmt(a)}，按规程读法计入，请资格审查确认",
                          f"born on the cut-off day {a}; admitted by the preset's reading, "
                          f"please confirm")
            if w.born_before is not None:
                c = w.born_before
                if b > c or (b == c and not w.before_inclusive):
                    f.add(w.severity, idx, "birth_date", "born_too_late",
                          f"出生日期 {_fmt(b)} 须在 {_fmt(c)}{'（含）' if w.before_inclusive else ''}"
                          f"之前（{w.clause or '规程'}）",
                          f"born {b}, must be born before {c}"
                          f"{' (inclusive)' if w.before_inclusive else ''}")
                    continue
                if b == c and w.warn_on_boundary:
                    f.add("warning", idx, "birth_date", "boundary_day",
                          f"出生日期恰为截止日 {_fmt(c)}，按规程读法计入，请资格审查确认",
                          f"born on the cut-off day {c}; admitted by the preset's reading, "
                          f"please confirm")

    # age ranges
    for r in rules.age_ranges:
        ref = r.reference_date or event_date
        for idx, b in births.items():
            if b is None or not r.applies(*scope(idx)):
                continue
            if r.gender is not None:
                if "gender" not in cols:
                    continue
                g = genders.get(idx)
                if g is None:
                    f.add("error", idx, "gender", "missing_value",
                          "性别为空，无法检查分性别的年龄规定",
                          "gender blank; the age rule depends on it")
                    continue
                if g != r.gender:
                    continue
            age = age_on(b, ref, r.basis)
            if not r.contains(age):
                who = {"M": "男", "F": "女", None: ""}[r.gender]
                hi = "" if r.max_age is None else (
                    f"{'不满' if r.max_exclusive else '不超过'}{r.max_age}岁")
                lo = "" if r.min_age is None else f"不小于{r.min_age}岁"
                limit = "、".join(s for s in (lo, hi) if s)
                code = "age_below_min" if r.min_age is not None and age < r.min_age \
                    else "age_above_max"
                f.add(r.severity, idx, "birth_date", code,
                      f"{who}运动员于 {_fmt(ref)} 年龄 {age} 岁，须{limit}（{r.clause or '规程'}）",
                      f"age {age} on {ref}; allowed: {_allowed_en(r)}"
                      f"{' for ' + r.gender if r.gender else ''}")

    # age groups
    ag = rules.age_groups
    if ag is not None:
        ref = ag.reference_date or event_date
        # a row an age range already refused is not refused again as "no age group"
        said = {x["row"] for x in f.rows if x["code"] in ("age_below_min", "age_above_max")}
        for idx, b in births.items():
            if b is None or not ag.applies(*scope(idx)):
                continue
            age = age_on(b, ref, ag.basis)
            band = ag.band_for(age)
            if band is None and idx in said:
                continue
            if band is None:
                f.add("error", idx, "birth_date", "age_outside_groups",
                      f"于 {_fmt(ref)} 年龄 {age} 岁，不属于任何年龄组（{ag.clause or '规程'}）",
                      f"age {age} on {ref} fits no age group")
                continue
            ev, gr = scope(idx)
            named = [x for x in ag.bands if x.name in gr or x.name in ev]
            if named and band not in named:
                f.add("error", idx, "group", "age_group_mismatch",
                      f"于 {_fmt(ref)} 年龄 {age} 岁，应为「{band.name}」，报名为「{gr or ev}」",
                      f"age {age} on {ref} belongs to {band.name}, entered in {gr or ev}")

    # accompaniment
    acc = rules.accompaniment
    if acc is not None:
        ref = acc.reference_date or event_date
        for idx, b in births.items():
            if b is None or not acc.applies(*scope(idx)):
                continue
            age = age_on(b, ref, acc.basis)
            if age < acc.under_age or (acc.inclusive and age == acc.under_age):
                f.add(acc.severity, idx, "birth_date", "needs_guardian",
                      f"年龄 {age} 岁，须有成年亲属陪同参赛（{acc.clause or '规程'}）",
                      f"age {age}: must be accompanied by an adult relative")

    # ID numbers
    if rules.id_numbers.enabled and "id_number" in cols:
        for idx in df.index:
            s = _text(val(idx, "id_number"))
            if not s:
                continue
            parts = _id_parts(s)
            if parts is None:
                digits = s.upper().rstrip("X")
                if digits.isdigit() and len(s) not in (15, 18):  # not a passport's letters
                    f.add("warning", idx, "id_number", "id_length",
                          f"证件号为 {len(s)} 位数字：居民身份证号应为 18 位，请核对",
                          f"the ID number has {len(s)} digits; a resident ID has 18")
                continue
            ok, idb, idg = parts
            if not ok and s.endswith("000"):  # Excel keeps 15 digits of a number: …000
                f.add("warning", idx, "id_number", "id_checksum",
                      "身份证号校验位不符，且末三位为 000：多半是 Excel 把它存成了数字（只保留 15 位），"
                      "请把该列设为文本格式后重新输入",
                      "ID number check digit is wrong and it ends in 000: Excel probably stored "
                      "it as a number (15 digits kept); format the column as text and retype it")
            elif not ok:
                f.add("warning", idx, "id_number", "id_checksum", "身份证号校验位不符，请核对",
                      "ID number check digit is wrong")
            if idb is not None and births.get(idx) is not None and idb != births[idx]:
                f.add("error", idx, "birth_date", "id_birth_mismatch",
                      f"出生日期与身份证号（{_fmt(idb)}）不一致",
                      f"birth date differs from the ID number's ({idb})")
            g = genders.get(idx)
            lost = not ok and s.endswith("000")  # the 17th digit (gender) is lost with the rest
            if g in ("M", "F") and g != idg and not lost:
                f.add("warning", idx, "gender", "id_gender_mismatch", "性别与身份证号不一致",
                      "gender differs from the ID number's")

    # person keys (players only)
    players = [idx for idx in df.index if _is_player(val(idx, "role"))]

    def person(idx):
        s = _text(val(idx, "id_number")).upper()
        if s:
            return ("id", s)
        b = births.get(idx)
        return ("nb", _text(val(idx, "name")), b)

    # duplicates inside one event
    d = rules.duplicates
    seen_id: dict = {}
    seen_nb: dict = {}
    for idx in players:
        ev = _text(val(idx, "event")) or _text(val(idx, "group"))
        s = _text(val(idx, "id_number")).upper()
        if d.by_id and s:
            key = (ev, s)
            if key in seen_id:
                f.add(d.severity, idx, "id_number", "duplicate_id",
                      f"身份证号与第 {seen_id[key]} 行重复", f"same ID number as row {seen_id[key]}")
            else:
                seen_id[key] = idx
        nm = _text(val(idx, "name"))
        b = births.get(idx)
        if d.by_name_birth and nm and b is not None:
            key = (ev, nm, b)
            if key in seen_nb:
                f.add(d.severity, idx, "name", "duplicate_name_birth",
                      f"姓名和出生日期与第 {seen_nb[key]} 行重复",
                      f"same name and birth date as row {seen_nb[key]}")
            else:
                seen_nb[key] = idx

    # single entry across events / teams / units
    se = rules.single_entry
    if se is not None:
        by_person: dict = {}
        for idx in players:
            if _blank(val(idx, "name")) and _blank(val(idx, "id_number")):
                continue
            by_person.setdefault(person(idx), []).append(idx)
        for _, idxs in by_person.items():
            if len(idxs) < 2:
                continue
            first = idxs[0]
            events_seen: list[str] = []
            teams: dict[str, str] = {}
            for idx in idxs:
                ev = _text(val(idx, "event")) or _text(val(idx, "group"))
                if ev not in events_seen:
                    events_seen.append(ev)
                    if se.max_events is not None and len(events_seen) > se.max_events and \
                            "event" in cols:
                        f.add(se.severity, idx, "event", "multiple_events",
                              f"已在第 {first} 行报名「{events_seen[0]}」，限参加 {se.max_events} 个项目，"
                              f"不得兼项（{se.clause or '规程'}）",
                              f"already entered in {events_seen[0]} (row {first}); at most "
                              f"{se.max_events} event(s)")
                tm = _text(val(idx, "team"))
                if se.one_team_per_event and tm and "team" in cols:
                    if ev in teams and teams[ev] != tm:
                        f.add(se.severity, idx, "team", "multiple_teams",
                              f"同一项目已在「{teams[ev]}」队，一名运动员只能在一个队内参赛",
                              f"already in team {teams[ev]} in this event")
                    teams.setdefault(ev, tm)
            if se.one_unit and "unit" in cols:
                units = [_text(val(i, "unit")) for i in idxs]
                units_set = [u for u in dict.fromkeys(units) if u]
                if len(units_set) > 1:
                    idx = idxs[units.index(units_set[1])]
                    f.add(se.severity, idx, "unit", "multiple_units",
                          f"已代表「{units_set[0]}」，每名运动员只能代表一个单位",
                          f"already represents {units_set[0]}; one unit per player")

    # team sizes
    if rules.team_sizes and "team" in cols:
        teams_rows: dict[tuple[str, str], list] = {}
        for idx in df.index:
            tm = _text(val(idx, "team"))
            if tm:
                teams_rows.setdefault((_text(val(idx, "event")) or _text(val(idx, "group")), tm),
                                      []).append(idx)
        for (ev, tm), idxs in teams_rows.items():
            ply = [i for i in idxs if _is_player(val(i, "role"))]
            for ts in rules.team_sizes:
                if not ts.applies(*scope(idxs[0])):
                    continue
                n = len(ply)
                if ts.min_players is not None and n < ts.min_players:
                    f.add(ts.severity, idxs[0], "team", "team_too_small",
                          f"「{tm}」队员 {n} 人，少于 {ts.min_players} 人（{ts.clause or '规程'}）",
                          f"team {tm}: {n} players, fewer than {ts.min_players}")
                if ts.max_players is not None and n > ts.max_players:
                    f.add(ts.severity, idxs[0], "team", "team_too_large",
                          f"「{tm}」队员 {n} 人，多于 {ts.max_players} 人（{ts.clause or '规程'}）",
                          f"team {tm}: {n} players, more than {ts.max_players}")
                if ts.genders and "gender" in cols:
                    counts = {"M": 0, "F": 0}
                    for i in ply:
                        g = genders.get(i)
                        if g in counts:
                            counts[g] += 1
                    want = {"M": ts.genders.get("M", 0), "F": ts.genders.get("F", 0)}
                    if counts != want:
                        f.add(ts.severity, idxs[0], "gender", "team_gender",
                              f"「{tm}」男 {counts['M']} 人、女 {counts['F']} 人，应为男 {want['M']} 人、"
                              f"女 {want['F']} 人（{ts.clause or '规程'}）",
                              f"team {tm}: {counts['M']} men, {counts['F']} women; required "
                              f"{want['M']} men, {want['F']} women")

    # unit limits
    if rules.unit_limits and "unit" in cols:
        for ul in rules.unit_limits:
            per_unit: dict[str, list] = {}
            for idx in df.index:
                u = _text(val(idx, "unit"))
                if u and ul.applies(*scope(idx)):
                    per_unit.setdefault(u, []).append(idx)
            for u, idxs in per_unit.items():
                if ul.max_teams is not None and "team" in cols:
                    tms = list(dict.fromkeys(
                        ((_text(val(i, "event")) or _text(val(i, "group"))), _text(val(i, "team")))
                        for i in idxs if _text(val(i, "team"))))
                    if len(tms) > ul.max_teams:  # named at the first team over the limit
                        extra = tms[ul.max_teams]
                        at = next(i for i in idxs if ((_text(val(i, "event"))
                                                       or _text(val(i, "group"))),
                                                      _text(val(i, "team"))) == extra)
                        f.add(ul.severity, at, "team", "unit_too_many_teams",
                              f"「{u}」报 {len(tms)} 支队（第{ul.max_teams + 1}支：{extra[1]}），"
                              f"限 {ul.max_teams} 支（{ul.clause or '规程'}）",
                              f"unit {u}: {len(tms)} teams (the one over: {extra[1]}), at most "
                              f"{ul.max_teams}")
                if ul.max_players is not None:
                    pl = {person(i) for i in idxs if _is_player(val(i, "role"))}
                    if len(pl) > ul.max_players:
                        f.add(ul.severity, idxs[0], "unit", "unit_too_many_players",
                              f"「{u}」队员 {len(pl)} 人，限 {ul.max_players} 人（{ul.clause or '规程'}）",
                              f"unit {u}: {len(pl)} players, at most {ul.max_players}")
                if ul.max_people is not None:
                    pp = {person(i) for i in idxs}
                    if len(pp) > ul.max_people:
                        f.add(ul.severity, idxs[0], "unit", "unit_too_many_people",
                              f"「{u}」报名 {len(pp)} 人，限 {ul.max_people} 人（{ul.clause or '规程'}）",
                              f"unit {u}: {len(pp)} people, at most {ul.max_people}")

    return f.frame()


def assign_age_group(roster: pd.DataFrame, groups: AgeGroups, *,
                     event_date: dt.date) -> pd.Series:
    """The age group name (str, or ``None`` when no band fits or the birth date is blank/bad) of
    each roster row, from its ``birth_date`` at ``groups.reference_date`` or ``event_date``."""
    ref = groups.reference_date or _to_date(event_date)
    out = []
    for v in roster["birth_date"]:
        try:
            b = _to_date(v)
        except (ValueError, TypeError, OverflowError):
            b = None
        band = groups.band_for(age_on(b, ref, groups.basis)) if b else None
        out.append(band.name if band else None)
    return pd.Series(out, index=roster.index, name="age_group", dtype=object)


def has_errors(findings: pd.DataFrame) -> bool:
    """True when any finding blocks drawing."""
    return bool((findings["severity"] == "error").any())
