"""Check and new for a pairs round robin workbook (the 报名/成绩/轮成绩/罚分 sheets of
:mod:`bianpai.workbooks.layouts`): roster structure, eligibility, 校验.

Reached through :mod:`bianpai.addin.commands` when the regulation runs neither on the
competition core nor as a team event.
"""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd

from bianpai.addin.command_infra import (CommandResult, _finding_rows, _position, finish,
                                         too_many_entries, write_generated)
from bianpai.addin.event import Event, load_event, persons
from bianpai.engines.eligibility import check_roster
from bianpai.engines.errors import InputError
from bianpai.templates.schema import Regulation
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import write_settings_sheet
from bianpai.workbooks.tables import cell_of, records

def build_pairs_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh"
                         ) -> CommandResult:
    """Write the sheets of a new event workbook for ``reg``: 规程, 报名 and the typed entry sheets
    (成绩, 轮成绩, 罚分) with headers, dropdowns and print setup, and 日志."""
    lang = lang or reg.language
    reg = write_settings_sheet(port, reg, lang)
    groups = [g.name_zh if lang == "zh" else (g.name_en or g.name_zh) for g in reg.groups]
    typed = [L.ROSTERS[reg.roster_layout]]
    if any(g.stages and g.stages[0].scoring.kind == "guandan_pairs" for g in reg.groups):
        typed += [L.BOARDS, L.ROUND_SCORES, L.PENALTIES]
    if any(not g.stages for g in reg.groups):
        typed.append(L.PLACINGS)  # places typed by the organizer until the stages are modelled
    for layout in typed:
        choices = {"group": groups}
        port.write_sheet(layout.name(lang), [layout.headers(lang)],
                         layout.sheet_format(choices=choices, lang=lang),
                         position=_position(layout, port))
    # generated sheets appear from the start with their headers (rebuilt whole by commands)
    generated = [L.CHECKS]
    if any(g.stages and g.stages[0].scoring.kind == "guandan_pairs" for g in reg.groups):
        generated += [L.SCHEDULE, L.STANDINGS]
    if reg.awards is not None:
        generated.append(L.AWARDS)
    for layout in generated:
        write_generated(port, layout, [], lang)
    result = CommandResult("new", f"新建工作簿（规程：{reg.title_zh}）",
                           f"new workbook ({reg.title_en or reg.id})")
    return finish(port, result, {"preset": reg.id, "language": lang}, lang)


def roster_findings(ev: Event) -> list[InputError]:
    """Structural roster problems: repeated pairing numbers, group sizes against the format.
    (Duplicates, genders, ages and team sizes are the eligibility engine's: see
    :func:`eligibility_findings`.)"""
    errs: list[InputError] = []
    r = ev.roster
    sheet = r.attrs.get("sheet", L.ROSTER_PAIRS.zh)
    seen_number: dict[tuple, int] = {}
    for row, rec in records(r):
        gid = rec["group_id"]
        if gid is None:
            continue
        if rec["number"] is not None:
            nk = (gid, rec["number"])
            if nk in seen_number:
                errs.append(InputError(f"序号 {rec['number']} 在本组重复（另见第{seen_number[nk]}行）",
                                       f"number {rec['number']} repeated in the group "
                                       f"(see row {seen_number[nk]})",
                                       sheet=sheet, cell=cell_of(r, row, "number")))
            seen_number[nk] = row
    for g in ev.reg.groups:
        n = int((r["group_id"] == g.id).sum())
        if n == 0 or not g.stages:
            continue
        fmt = g.stages[0].format
        if n < 2:
            errs.append(InputError(f"{g.name_zh}只有 {n} 对报名，无法进行比赛",
                                   f"{g.name_en or g.id} has only {n} entry", sheet=sheet))
        needed = (n - 1 if n % 2 == 0 else n) * fmt.cycles
        if fmt.max_rounds and needed > fmt.max_rounds:
            errs.append(InputError(
                f"{g.name_zh}有 {n} 对报名，单循环需 {needed} 轮，超过规程允许的 {fmt.max_rounds} 轮",
                f"{g.name_en or g.id}: {n} entries need {needed} rounds, more than "
                f"{fmt.max_rounds}", sheet=sheet))
    return errs


def ceiling_findings(ev: Event) -> list[tuple[str, InputError]]:
    """A warning per group with more entries than the 规程 admits (``groups[*].max_entries``)."""
    r = ev.roster
    if r.empty:
        return []
    sheet = r.attrs.get("sheet", L.ROSTERS[ev.reg.roster_layout].zh)
    out = []
    for g in ev.reg.groups:
        rows = list(r.index[r["group_id"] == g.id])
        over = too_many_entries(g, len(rows), sheet, f"A{rows[0]}:A{rows[-1]}") if rows else None
        if over is not None:
            out.append(("warning", over))
    return out


def eligibility_findings(ev: Event) -> list[tuple[str, InputError]]:
    """Eligibility problems as (severity, error) from the regulation's ``eligibility`` block
    (:func:`bianpai.engines.eligibility.check_roster`), each naming its roster cell. Ages are
    taken at each group's ``event_date`` (else the event's)."""
    out: list[tuple[str, InputError]] = []
    rules = ev.reg.eligibility
    if rules is None or ev.roster.empty:
        return out
    people, where = persons(ev)
    if people.empty:
        return out
    sheet = ev.roster.attrs.get("sheet", L.ROSTERS[ev.reg.roster_layout].zh)
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
            out.append((f.severity, InputError(_readable(f.message_zh, ev),
                                               _readable(f.message_en, ev), sheet=sheet, cell=cell)))
    return out


_FIELD_ZH = {"name": "姓名", "gender": "性别", "birth_date": "出生日期", "id_number": "证件号",
             "unit": "单位", "team": "队名", "group": "组别", "role": "角色", "number": "序号",
             "event": "项目"}
_ROW_LABEL = re.compile(r"(第 ?|row )(\d+):(\d)( ?行)?")


def _readable(text: str, ev: Event) -> str:
    """Engine messages use column keys and person labels (``2:1`` = row 2, player 1): show the
    sheet's own words instead."""
    for k, zh in _FIELD_ZH.items():
        text = text.replace(f"「{k}」", f"「{zh}」")
    return _ROW_LABEL.sub(lambda m: (f"第{m[2]}行选手{m[3]}" if m[1].startswith("第")
                                     else f"row {m[2]} player {m[3]}"), text)


def pairs_check(port: WorkbookPort) -> CommandResult:
    """Check the roster (types, duplicates, group rules, eligibility) and write 校验.

    Unlike the other commands, check writes its findings instead of refusing: 校验 lists every
    problem with its sheet!cell; errors block 抽签编排, warnings do not.
    """
    ev = load_event(port)
    problems = [("error", e) for e in ev.errors + roster_findings(ev)]
    problems += ceiling_findings(ev) + eligibility_findings(ev)
    rows = _finding_rows(problems, ev.lang)
    if not rows:
        rows = [["通过" if ev.lang == "zh" else "ok", "", "未发现问题", "no problems found"]]
    write_generated(port, L.CHECKS, rows, ev.lang)
    n_err = sum(1 for s, _ in problems if s == "error")
    n_warn = len(problems) - n_err
    result = CommandResult("check", f"名单检查：{len(ev.roster)} 行，错误 {n_err} 处，警告 {n_warn} 处",
                           f"roster check: {len(ev.roster)} rows, {n_err} errors, {n_warn} warnings",
                           findings=[{"severity": s, "where": e.where, "zh": e.zh, "en": e.en}
                                     for s, e in problems])
    return finish(port, result, {}, ev.lang)
