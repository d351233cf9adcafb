"""The commands behind every button and CLI verb: new, check, draw, rank, awards.

Each command is a function over a :class:`~bianpai.workbooks.port.WorkbookPort`: it reads
everything it needs, validates (collecting every problem with its sheet and cell), computes with
the engines, then writes generated sheets whole, appends a 日志 row (time, command, arguments,
random seed, summary) and saves once. On bad input it raises ``InputErrors`` before any write.
The same inputs give the same sheets whichever front pressed the button.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import secrets
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pandas as pd

from bianpai.addin.event import (Event, GroupEntries, entrant_name, entries_per_group, load_event,
                                 persons, read_draw)
from bianpai.engines.eligibility import check_roster
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.guandan import round_results
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.engines.standings import rank as rank_engine
from bianpai.templates.schema import Regulation
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import write_settings_sheet
from bianpai.workbooks.tables import records, cell_of, find_sheet, read_table

FRONT = {"name": "cli"}
#: The event title printed in page headers; set by :func:`load_event` users via set_title.
from bianpai.workbooks.print_setup import TITLE  # noqa: E402  (the event title, shared)


@dataclass
class CommandResult:
    """What a command did: ``summary_zh``/``summary_en`` for the user and the log, ``seed`` used,
    ``findings`` (校验 rows) and ``data`` (e.g. standings per group for ``--json``)."""

    command: str
    summary_zh: str
    summary_en: str
    seed: int | None = None
    findings: list[dict] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    #: (state, next step) when the command knows them (see :func:`bianpai.addin.status.write_status`)
    status_hint: tuple[str, str] | None = None


# --- helpers ---------------------------------------------------------------------------------

def _name(layout: L.SheetLayout, port: WorkbookPort, lang: str) -> str:
    return find_sheet(port, layout) or layout.name(lang)


def _position(layout: L.SheetLayout, port: WorkbookPort) -> int | None:
    """Where a new sheet goes: before the first existing sheet that comes later in
    :data:`bianpai.workbooks.layouts.ORDER` (end when none)."""
    later = L.ORDER[L.ORDER.index(layout.key) + 1:] if layout.key in L.ORDER else []
    names = port.sheet_names()
    for i, n in enumerate(names):
        key = L.KEY_OF_NAME.get(n)
        if key in later:
            return i
    return None


def write_generated(port: WorkbookPort, layout: L.SheetLayout, rows: list[list], lang: str,
                    *, extra_headers: list[tuple[str, str]] | None = None,
                    extra_formats: list[str] | None = None,
                    position: int | None = None, title: str | None = None,
                    break_on: tuple[int, ...] = ()) -> None:
    """Rebuild a generated sheet whole: header (plus extra columns) and rows. ``title`` (the
    event's name) heads every printed page."""
    header = layout.headers(lang)
    fmt = layout.sheet_format(lang=lang)
    if fmt.print_setup is not None:
        fmt.print_setup.title = title or TITLE.get("text")
        if break_on:  # a printed page per value of these columns (e.g. group and round)
            keys = [tuple(r[i] for i in break_on) for r in rows]
            fmt.page_breaks = [i + 1 for i in range(1, len(keys)) if keys[i] != keys[i - 1]]
    if extra_headers:
        # extra columns are inserted before the last layout column (说明 stays last)
        header = header[:-1] + [zh if lang == "zh" else en for zh, en in extra_headers] + header[-1:]
        last = fmt.columns[-1]
        from bianpai.workbooks.port import ColumnFormat
        for i, _ in enumerate(extra_headers):
            nf = extra_formats[i] if extra_formats and i < len(extra_formats) else "0.00"
            fmt.columns.insert(len(fmt.columns) - 1, ColumnFormat(index=len(layout.columns) - 1 + i,
                                                                  width=10, number_format=nf))
        last.index = len(header) - 1
        fmt.text_columns = [i for i in fmt.text_columns if i < len(layout.columns) - 1] + [
            len(header) - 1]
    if position is None and find_sheet(port, layout) is None:
        position = _position(layout, port)
    port.write_sheet(_name(layout, port, lang), [header] + rows, fmt, position=position)


SETTINGS_SNAPSHOT = "_bianpai_settings"


def settings_changes(port: WorkbookPort) -> list[tuple[str, Any, Any]]:
    """Values of the 规程 sheet changed since the last command, as ``(path, old, new)``, and
    the hidden snapshot sheet brought up to date (created on the first command). Rows added or
    removed are reported as changes from/to empty."""
    from bianpai.workbooks.port import SheetFormat
    from bianpai.workbooks.tables import read_settings
    if find_sheet(port, L.SETTINGS) is None:
        return []
    cur = {k: v for k, (v, _row) in read_settings(port, L.SETTINGS).items()}
    text = {k: "" if v is None else str(v).strip() for k, v in cur.items()}
    old: dict[str, str] | None = None
    if SETTINGS_SNAPSHOT in port.sheet_names():
        old = {str(r[0]): ("" if len(r) < 2 or r[1] is None else str(r[1]))
               for r in port.read_values(SETTINGS_SNAPSHOT)[1:] if r and r[0] is not None}
    changes = [] if old is None else [
        (k, old.get(k, ""), text.get(k, "")) for k in list(text) + [k for k in old if k not in text]
        if old.get(k, "") != text.get(k, "")]
    if old is None or changes:
        port.write_sheet(SETTINGS_SNAPSHOT, [["path", "value"]] + [[k, v] for k, v in text.items()],
                         SheetFormat(hidden=True, freeze=None, header_fill=None, bold_header=False,
                                     text_columns=[0, 1]))
    return changes


def log(port: WorkbookPort, result: CommandResult, args: dict, lang: str) -> None:
    """Append one row to 日志 (created when missing). A 规程 value changed since the last
    command is logged in the summary as ``设置项: old → new``."""
    changes = settings_changes(port)
    if changes:
        result.summary_zh += "；规程修改：" + "；".join(f"{k}：{a or '（空）'} → {b or '（空）'}"
                                                   for k, a, b in changes)
        result.summary_en += "; regulation changed: " + "; ".join(f"{k}: {a!r} -> {b!r}"
                                                                   for k, a, b in changes)
    name = find_sheet(port, L.LOG)
    row = [dt.datetime.now().replace(microsecond=0), result.command,
           ", ".join(f"{k}={v}" for k, v in args.items() if v is not None),
           "" if result.seed is None else str(result.seed),
           result.summary_zh if lang == "zh" else result.summary_en, FRONT["name"]]
    if name is None:
        port.write_sheet(L.LOG.name(lang), [L.LOG.headers(lang), row],
                         L.LOG.sheet_format(lang=lang), position=_position(L.LOG, port))
        return
    existing = port.read_values(name)
    port.append_rows(name, [row], start_row=max(len(existing), 1) + 1)


def invalidate_awards(port: WorkbookPort, lang: str) -> bool:
    """After a new ranking, empty the award sheets (奖励, 领奖签收表, 证书) that were built from
    the old one, so nothing stale is printed; True when something was emptied."""
    emptied = False
    for layout in (L.AWARDS, L.AWARD_RECEIPTS, L.CERTIFICATES):
        name = find_sheet(port, layout)
        if name is not None and len(port.read_values(name)) > 1:
            write_generated(port, layout, [], lang)
            emptied = True
    return emptied


def finish(port: WorkbookPort, result: CommandResult, args: dict, lang: str) -> CommandResult:
    log(port, result, args, lang)
    if result.status_hint:  # the state the command computed: the status line need not re-read
        try:
            port.status_hint = result.status_hint
        except AttributeError:
            pass
    port.save()
    return result


def new_seed() -> int:
    """A fresh random seed for a draw; it is written to 日志 so the draw can be repeated."""
    return secrets.randbelow(10**9)


# --- new -------------------------------------------------------------------------------------

def build_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh") -> CommandResult:
    """Write the sheets of a new event workbook for ``reg``: 规程, 报名 and the typed entry sheets
    (成绩, 轮成绩, 罚分) with headers, dropdowns and print setup, and 日志. A team regulation
    gets the team workbook (:func:`bianpai.addin.teams.build_team_workbook`)."""
    from bianpai.addin import competition, teams
    if competition.is_core_regulation(reg):
        from bianpai.addin.competition_commands import build_core_workbook
        return build_core_workbook(port, reg, lang=lang)
    if teams.is_team_regulation(reg):
        return teams.build_team_workbook(port, reg, lang=lang)
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


# --- check -----------------------------------------------------------------------------------

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


def eligibility_findings(ev: Event) -> list[tuple[str, InputError]]:
    """Eligibility problems as (severity, error) from the regulation's ``eligibility`` block
    (:func:`bianpai.engines.eligibility.check_roster`), each naming its roster cell. Ages are
    taken at each group's ``event_date`` (else the event's)."""
    rules = ev.reg.eligibility
    if rules is None or ev.roster.empty:
        return []
    people, where = persons(ev)
    if people.empty:
        return []
    sheet = ev.roster.attrs.get("sheet", L.ROSTERS[ev.reg.roster_layout].zh)
    out = []
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


def gate_roster(errors: list[InputError], found: list[tuple[str, InputError]],
                accept_warnings: str | None) -> list[InputError]:
    """Refuse a draw (``InputErrors``) on any roster error, and on warnings not accepted with a
    reason; return the accepted warnings (for the 日志 summary)."""
    errs = list(errors) + [e for sev, e in found if sev == "error"]
    if errs:
        raise InputErrors(errs)
    warnings = [e for sev, e in found if sev == "warning"]
    if warnings and not accept_warnings:
        raise InputErrors([InputError(
            f"名单警告须说明理由后接受（--accept-warnings \"理由\"，或在“操作”表填写理由）：{e.zh}",
            f"roster warning; accept it with a reason (--accept-warnings): {e.en}",
            sheet=e.sheet, cell=e.cell) for e in warnings])
    return warnings


def _finding_rows(errors: list[tuple[str, InputError]], lang: str) -> list[list]:
    sev = {"error": ("错误", "error"), "warning": ("警告", "warning")}
    rows = []
    for s, e in errors:
        zh, en = sev.get(s, (s, s))
        rows.append([zh if lang == "zh" else en, e.where, e.zh, e.en])
    return rows


def check(port: WorkbookPort) -> CommandResult:
    """Check the roster (types, duplicates, group rules, eligibility) and write 校验.

    Unlike the other commands, check writes its findings instead of refusing: 校验 lists every
    problem with its sheet!cell; errors block 抽签编排, warnings do not.
    """
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_check
        return core_check(port)
    if teams.is_team_workbook(port):
        return teams.team_check(port)
    ev = load_event(port)
    problems = [("error", e) for e in ev.errors + roster_findings(ev)]
    problems += eligibility_findings(ev)
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


# --- draw ------------------------------------------------------------------------------------

def _results_exist(port: WorkbookPort) -> bool:
    for layout, cols in ((L.BOARDS, ("ns_score", "code")), (L.ROUND_SCORES, ("ns_pct", "ew_pct", "status"))):
        if find_sheet(port, layout) is None:
            continue
        df = read_table(port, layout, errors=[])
        if len(df) and df[list(cols)].notna().any(axis=None):
            return True
    return False


def draw(port: WorkbookPort, *, seed: int | None = None, redraw: bool = False,
         accept_warnings: str | None = None) -> CommandResult:
    """Draw pairing numbers by seeded lot (where the roster gives none) and write the whole
    round-robin schedule: 抽签, 对阵, and blank 成绩 entry rows for every board.

    Refuses (``InputErrors``) while the roster has errors. With an existing draw the numbers are
    kept (the schedule is rebuilt and missing entry rows added); ``redraw=True`` draws again but
    is refused once any result has been typed. ``seed``: the lot's random seed (a fresh one when
    None); it is written to 抽签 and 日志. Roster warnings (e.g. an ID check digit) block the
    draw until accepted with a reason (``accept_warnings``), which goes to 日志.
    A team workbook pairs its next round instead (:func:`bianpai.addin.teams.team_draw`).
    """
    from bianpai.addin import teams
    from bianpai.addin import competition
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_draw
        return core_draw(port, seed=seed, accept_warnings=accept_warnings)
    if teams.is_team_workbook(port):
        return teams.team_draw(port, seed=seed, accept_warnings=accept_warnings)
    ev = load_event(port)
    warnings = gate_roster(ev.errors + roster_findings(ev), eligibility_findings(ev),
                           accept_warnings)
    lang = ev.lang
    existing = read_draw(port, ev)
    if ev.errors:
        raise InputErrors(ev.errors)
    if existing and redraw and _results_exist(port):
        raise InputErrors([InputError("已录入成绩，不能重新抽签；如确需重抽，请先清空成绩表",
                                      "results have been entered; clear them before a redraw",
                                      sheet=_name(L.BOARDS, port, lang))])
    seed = new_seed() if seed is None else int(seed)
    rng = random.Random(seed)
    groups: dict[str, GroupEntries] = {}
    draw_rows, sched_rows = [], []
    edits: list[str] = []
    lots_drawn = False
    for g in ev.reg.groups:
        sub = ev.roster[ev.roster["group_id"] == g.id]
        if sub.empty:
            continue
        if g.id in existing and not redraw:
            ge = existing[g.id]
            if len(ge.entries) != len(sub):
                raise InputErrors([InputError(
                    f"{g.name_zh}报名人数（{len(sub)}）与已有抽签（{len(ge.entries)}）不一致；"
                    f"如需重新抽签请使用 --redraw", f"{g.name_en or g.id}: roster has {len(sub)} "
                    f"entries but the draw has {len(ge.entries)}; use --redraw",
                    sheet=_name(L.DRAW, port, lang))])
            used_seed = ge.seed or ""  # numbers kept: the original lot's seed stays on record
        else:
            typed = sub["number"].dropna()
            n = len(sub)
            if len(typed) == n and sorted(typed) == list(range(1, n + 1)):
                numbers = list(sub["number"])
                used_seed = "报名表序号"
            elif len(typed):
                raise InputErrors([InputError(
                    f"{g.name_zh}的序号须全部填写且为 1–{n} 各一次，或全部留空由抽签决定",
                    f"{g.name_en or g.id}: numbers must be all filled with 1–{n} once each, "
                    f"or all empty for the lot", sheet=ev.roster.attrs.get("sheet"),
                    cell=cell_of(ev.roster, typed.index[0], "number"))])
            else:
                numbers = list(range(1, n + 1))
                rng.shuffle(numbers)
                used_seed = str(seed)
                lots_drawn = True
            entries = pd.DataFrame({
                "number": numbers,
                "entrant_name": [entrant_name(rec) for _, rec in records(sub)],
                "unit": list(sub["unit"]), "roster_row": list(sub.index)})
            ge = GroupEntries(group=g, entries=entries.sort_values("number").reset_index(drop=True))
        groups[g.id] = ge
        gname = g.name_zh if lang == "zh" else (g.name_en or g.name_zh)
        for rec in ge.entries.itertuples():
            draw_rows.append([gname, rec.number, rec.entrant_name, rec.unit, rec.roster_row, used_seed])
        stage = g.stages[0]
        sched = round_robin_schedule(len(ge.entries), cycles=stage.format.cycles,
                                     max_rounds=stage.format.max_rounds)
        if g.id in existing and not redraw:  # the drawn 对阵 is the record (hand edits kept)
            sched_errs: list[InputError] = []
            sched = group_schedule(port, ev, ge, sched_errs)
            if sched_errs:
                raise InputErrors(sched_errs)
            note = edited_note(sched, g.name_zh)
            if note:
                edits.append(note)
        b = stage.format.boards_per_round
        for m in sched.itertuples():
            boards = f"{(m.round - 1) * b + 1}-{m.round * b}" if not pd.isna(m.away) else ""
            sched_rows.append([gname, m.round, m.table, m.home, ge.name_of(m.home),
                               None if pd.isna(m.away) else int(m.away),
                               ge.name_of(m.away), boards])
    if not groups:
        raise InputErrors([InputError("报名表为空，无法抽签", "the roster is empty; nothing to draw",
                                      sheet=_name(L.ROSTER_PAIRS, port, lang))])
    write_generated(port, L.DRAW, draw_rows, lang)
    write_generated(port, L.SCHEDULE, sched_rows, lang, break_on=(0, 1))
    added = _append_board_rows(port, ev, groups, lang)
    result = CommandResult(
        "draw", f"抽签编排完成：{len(groups)} 个组别，{len(sched_rows)} 桌次，成绩表新增 {added} 行",
        f"draw done: {len(groups)} groups, {len(sched_rows)} tables, {added} result rows added",
        seed=seed if lots_drawn else None)
    single = [ge.group.name_zh for ge in groups.values() if len(ge.entries) <= 3]
    if single:
        result.summary_zh += (f"；{'、'.join(single)}每轮只有一桌，无法逐副比较计算比赛分，"
                              f"请在“轮成绩”表直接录入各轮比赛分")
        result.summary_en += (f"; {', '.join(single)}: one table a round, so type each round's "
                              f"percentages in Round scores")
    if not lots_drawn:
        kept = sorted({str(ge.seed) for ge in groups.values() if ge.seed})
        result.summary_zh += f"；序号沿用原抽签（随机种子 {', '.join(kept) or '无'}），未重新抽签"
        result.summary_en += "; numbers kept from the earlier draw"
    if edits:
        result.summary_zh += "；" + "；".join(edits)
        result.summary_en += "; hand-edited pairings kept"
    if warnings:
        result.summary_zh += f"；已接受 {len(warnings)} 条名单警告，理由：{accept_warnings}（" + \
            "；".join(f"{e.where} {e.zh}" for e in warnings) + "）"
        result.summary_en += f"; {len(warnings)} roster warnings accepted: {accept_warnings}"
    return finish(port, result, {"seed": seed, "redraw": redraw or None,
                                 "accept_warnings": accept_warnings}, lang)


def group_schedule(port: WorkbookPort, ev: Event, ge: GroupEntries,
                   errors: list[InputError] | None = None) -> pd.DataFrame:
    """The group's round-robin schedule as it stands in 对阵 (the record: an arbiter's hand
    edit — two opponents swapped — is honoured, as in the team and core events), or the
    Berger table when 对阵 has no row of the group yet. Columns as
    :func:`bianpai.engines.round_robin.round_robin_schedule` plus ``edited`` (bool: differs
    from the Berger table). Problems (a number not drawn, a pair twice in a round, rounds
    missing) go to ``errors`` with their 对阵 cells; the Berger table is returned then."""
    g = ge.group
    fmt = g.stages[0].format
    berger = round_robin_schedule(len(ge.entries), cycles=fmt.cycles)
    berger["edited"] = False
    name = find_sheet(port, L.SCHEDULE)
    if name is None:
        return berger
    errs: list[InputError] = []
    df = read_table(port, L.SCHEDULE, errors=errs)
    sub = df[[str(x) in (g.name_zh, g.name_en, g.id) for x in df["group"]]]
    if sub.empty:
        return berger
    numbers = set(int(n) for n in ge.entries["number"])
    seen: dict[tuple, int] = {}
    rows = []
    for row, rec in records(sub):
        for k in ("ns", "ew"):
            v = rec[k]
            if v is not None and int(v) not in numbers:
                errs.append(InputError(f"对阵表序号 {v} 不在{g.name_zh}的抽签中",
                                       f"number {v} is not in the draw of {g.name_en or g.id}",
                                       sheet=name, cell=cell_of(sub, row, k)))
            elif v is not None:
                key = (rec["round"], int(v))
                if key in seen:
                    errs.append(InputError(
                        f"第{rec['round']}轮 {v}号 出现两次（另见第{seen[key]}行）：每轮每对只能出场一次",
                        f"pair {v} appears twice in round {rec['round']} (see row {seen[key]})",
                        sheet=name, cell=cell_of(sub, row, k)))
                seen[key] = row
        rows.append({"round": rec["round"], "table": rec["table"], "home": rec["ns"],
                     "away": rec["ew"]})
    sched = pd.DataFrame(rows, columns=["round", "table", "home", "away"])
    if set(sched["round"]) != set(berger["round"]):
        errs.append(InputError(f"对阵表中{g.name_zh}的轮次与循环赛轮次（1–{int(berger['round'].max())}）不符",
                               f"the rounds of {g.name_en or g.id} in Pairings differ from the "
                               f"round robin's", sheet=name))
    if errs:
        if errors is not None:
            errors.extend(errs)
        return berger
    sched["away"] = sched["away"].astype("Int64")
    key = lambda d: {(int(r), frozenset(x for x in (h, a) if not pd.isna(x)))  # noqa: E731
                     for r, h, a in zip(d["round"], d["home"], d["away"])}
    mine = key(sched)
    sched["edited"] = [(int(r), frozenset(x for x in (h, a) if not pd.isna(x))) not in key(berger)
                       for r, h, a in zip(sched["round"], sched["home"], sched["away"])]
    del mine
    return sched.sort_values(["round", "table"]).reset_index(drop=True)


def edited_note(sched: pd.DataFrame, gname: str) -> str:
    """"对阵已手工调整：…" naming the rounds and tables that differ from the Berger table."""
    ed = sched[sched["edited"]] if "edited" in sched.columns else sched.iloc[0:0]
    if ed.empty:
        return ""
    where = "、".join(f"第{int(r)}轮第{int(t)}桌" for r, t in zip(ed["round"], ed["table"]))
    return f"{gname}对阵已手工调整（与伯格表不同）：{where}"


def _append_board_rows(port, ev: Event, groups: dict[str, GroupEntries], lang: str) -> int:
    """Add blank 成绩 rows (group, round, table, board, NS, EW) for scheduled boards that have
    no row yet. Existing rows are never touched."""
    name = _name(L.BOARDS, port, lang)
    if find_sheet(port, L.BOARDS) is None:
        port.write_sheet(name, [L.BOARDS.headers(lang)], L.BOARDS.sheet_format(lang=lang))
        have = pd.DataFrame(columns=[c.key for c in L.BOARDS.columns])
        used = 1
    else:
        have = read_table(port, L.BOARDS, errors=[])
        used = max(len(port.read_values(name)), 1)
    keys = set()
    for rec in have.itertuples():
        keys.add((str(rec.group), rec.round, rec.board, rec.ns, rec.ew))
    rows = []
    for gid, ge in groups.items():
        g = ge.group
        gname = g.name_zh if lang == "zh" else (g.name_en or g.name_zh)
        stage = g.stages[0]
        sched = group_schedule(port, ev, ge)
        b = stage.format.boards_per_round
        for m in sched.dropna(subset=["away"]).itertuples():
            for board in range((m.round - 1) * b + 1, m.round * b + 1):
                k = (gname, m.round, board, m.home, int(m.away))
                alt = (g.id, m.round, board, m.home, int(m.away))
                if k in keys or alt in keys:
                    continue
                rows.append([gname, m.round, m.table, board, m.home, int(m.away), None, None])
    if rows:
        port.append_rows(name, rows, start_row=used + 1)
    return len(rows)


# --- rank ------------------------------------------------------------------------------------

@dataclass
class GroupResults:
    group_id: str
    entries: GroupEntries
    results: pd.DataFrame
    missing: list[str]
    rounds: int
    disqualified: dict = field(default_factory=dict)  # entrant -> round of disqualification
    warnings: list[str] = field(default_factory=list)  # typed results that look wrong (sheet!cell)


def collect_results(port: WorkbookPort, ev: Event, *, upto_round: int | None = None
                    ) -> dict[str, GroupResults]:
    """Validate 成绩/轮成绩/罚分 against the draw and compute every pair's rounds.

    Raises ``InputErrors`` for results naming an unknown pair or round, a pairing that is not in
    the schedule, a board entered twice, or a board outside the round's boards.
    """
    groups = read_draw(port, ev)
    if not groups:
        raise InputErrors([InputError("尚未抽签编排，请先运行“抽签编排”", "no draw yet; run draw first",
                                      sheet=L.DRAW.zh)])
    errs = ev.errors
    boards = read_table(port, L.BOARDS, required=False, errors=errs)
    typed = read_table(port, L.ROUND_SCORES, required=False, errors=errs)
    pens = read_table(port, L.PENALTIES, required=False, errors=errs)
    out: dict[str, GroupResults] = {}
    frames = {}
    for name, df in (("boards", boards), ("typed", typed), ("pens", pens)):
        sheet = df.attrs.get("sheet", "")
        gids = []
        for row, g in df["group"].items():
            grp = ev.group_of(g, sheet=sheet, cell=cell_of(df, row, "group")) if g else None
            gids.append(grp.id if grp else None)
        df = df.copy()
        df["group_id"] = gids
        frames[name] = df
    for gid, ge in groups.items():
        g = ge.group
        stage = g.stages[0]
        warnings: list[str] = []
        sched = group_schedule(port, ev, ge, errs)
        n_rounds = int(sched["round"].max())
        if upto_round is not None and not 1 <= upto_round <= n_rounds:
            errs.append(InputError(f"--round 应为 1–{n_rounds}（{g.name_zh}共 {n_rounds} 轮），实际为 {upto_round}",
                                   f"--round must be 1–{n_rounds} for {g.name_en or g.id}; got {upto_round}"))
            continue
        b = stage.format.boards_per_round
        real = sched.dropna(subset=["away"])
        pairings = {(int(m.round), int(m.home), int(m.away)) for m in real.itertuples()}
        byes = {(int(m.round), int(m.home)) for m in sched[sched["away"].isna()].itertuples()}
        ctx = _Ctx(numbers=set(ge.entries["number"]), pairings=pairings, byes=byes,
                   n_rounds=n_rounds)
        allowed = set(stage.scoring.board_score_values or [])
        # --- 成绩: one row per board --------------------------------------------------------
        bd = frames["boards"][frames["boards"]["group_id"] == gid]
        sheet_b = boards.attrs.get("sheet", L.BOARDS.zh)
        seen: dict = {}
        keep = []
        for row, rec in records(bd):
            if rec["ns_score"] is None and rec["code"] is None:
                continue  # a blank entry row (written by draw) not yet filled
            bad = _check_pairing(rec, row, bd, sheet_b, ctx)
            if bad:
                errs.append(bad)
                continue
            if rec["board"] is None:
                errs.append(InputError("“牌号”不能为空", "Board must not be empty", sheet=sheet_b,
                                       cell=cell_of(bd, row, "board")))
                continue
            lo, hi = (rec["round"] - 1) * b + 1, rec["round"] * b
            if not lo <= rec["board"] <= hi:
                errs.append(InputError(f"第{rec['round']}轮的牌号应为 {lo}–{hi}，实际为 {rec['board']}",
                                       f"boards of round {rec['round']} are {lo}–{hi}; got {rec['board']}",
                                       sheet=sheet_b, cell=cell_of(bd, row, "board")))
                continue
            if rec["ns_score"] is not None and rec["code"] is not None:
                errs.append(InputError("同一副牌不能既填“南北得分”又填人工成绩“代码”，请只保留一个",
                                       "a board has both a score and an artificial code; keep one",
                                       sheet=sheet_b, cell=cell_of(bd, row, "code")))
                continue
            if rec["ns_score"] is not None and allowed and rec["ns_score"] not in allowed:
                vals = "、".join(f"{v:+d}" for v in sorted(allowed))
                errs.append(InputError(f"“南北得分”应为 {vals} 之一（南北方本副升级数，东西赢为负），实际为 {rec['ns_score']}",
                                       f"NS score must be one of {sorted(allowed)}; got {rec['ns_score']}",
                                       sheet=sheet_b, cell=cell_of(bd, row, "ns_score")))
                continue
            key = (rec["round"], rec["board"], rec["ns"])
            if key in seen:
                errs.append(InputError(f"第{rec['round']}轮第{rec['board']}副 {rec['ns']}号对的成绩重复录入"
                                       f"（另见第{seen[key]}行）",
                                       f"board {rec['board']} of round {rec['round']} for pair {rec['ns']} "
                                       f"entered twice (see row {seen[key]})",
                                       sheet=sheet_b, cell=cell_of(bd, row, "ns_score")))
                continue
            seen[key] = row
            keep.append(row)
        board_df = bd.loc[keep, ["round", "table", "board", "ns", "ew", "ns_score", "code"]].copy()
        board_tables = {(r, n, e): row for row, (r, n, e) in
                        zip(board_df.index, zip(board_df["round"], board_df["ns"], board_df["ew"]))}
        # --- 轮成绩: a round's % typed directly (electronic scoring), forfeits ---------------
        tp = frames["typed"][frames["typed"]["group_id"] == gid]
        sheet_t = typed.attrs.get("sheet", L.ROUND_SCORES.zh)
        tkeep = []
        tseen: dict = {}
        for row, rec in records(tp):
            status = L.STATUS_CODES.get(str(rec["status"] or "").lower(), "")
            if rec["ns_pct"] is None and rec["ew_pct"] is None and not status:
                continue
            bad = _check_pairing(rec, row, tp, sheet_t, ctx)
            if bad:
                errs.append(bad)
                continue
            key = (rec["round"], rec["ns"], rec["ew"])
            if key in tseen:
                errs.append(InputError(f"第{rec['round']}轮 {rec['ns']}-{rec['ew']} 的比赛分重复录入（另见第{tseen[key]}行）",
                                       f"round {rec['round']} {rec['ns']}-{rec['ew']} entered twice (see row {tseen[key]})",
                                       sheet=sheet_t, cell=cell_of(tp, row, "ns_pct")))
                continue
            tseen[key] = row
            if key in board_tables:
                errs.append(InputError(f"第{rec['round']}轮 {rec['ns']}-{rec['ew']} 已在“成绩”表逐副录入（第{board_tables[key]}行起），"
                                       f"不能同时在此填写比赛分；请只保留一种",
                                       f"round {rec['round']} {rec['ns']}-{rec['ew']} has board results in Boards too; keep one",
                                       sheet=sheet_t, cell=cell_of(tp, row, "ns_pct")))
                continue
            if status and (rec["ns_pct"] is not None or rec["ew_pct"] is not None):
                errs.append(InputError("判定为弃权时不填比赛分（按规程给分），请清空比赛分或把判定改为“正常”",
                                       "a forfeit takes no percentages (the regulation scores it); clear them",
                                       sheet=sheet_t, cell=cell_of(tp, row, "ns_pct")))
                continue
            if not status:
                pcts = [rec["ns_pct"], rec["ew_pct"]]
                if None in pcts:
                    col = "ns_pct" if rec["ns_pct"] is None else "ew_pct"
                    errs.append(InputError("南北、东西比赛分须都填写", "both percentages are needed",
                                           sheet=sheet_t, cell=cell_of(tp, row, col)))
                    continue
                if sum(pcts) > 100 + Decimal("0.01"):
                    errs.append(InputError(f"双方比赛分之和 {sum(pcts)} 超过 100（罚分只会使和小于 100）",
                                           f"the two percentages add up to {sum(pcts)}, more than 100",
                                           sheet=sheet_t, cell=cell_of(tp, row, "ew_pct")))
                    continue
            tkeep.append(row)
        typed_df = tp.loc[tkeep].copy()
        typed_df["status"] = [L.STATUS_CODES.get(str(x or "").lower(), "") if x else ""
                              for x in typed_df["status"]]
        # --- 罚分 ---------------------------------------------------------------------------
        pn = frames["pens"][frames["pens"]["group_id"] == gid]
        sheet_p = pens.attrs.get("sheet", L.PENALTIES.zh)
        pen_rows = []
        dq: dict[int, int] = {}
        for row, rec in records(pn):
            if rec["entrant"] not in ctx.numbers:
                errs.append(InputError(f"序号 {rec['entrant']} 不在{g.name_zh}的抽签中",
                                       f"number {rec['entrant']} is not in the draw of {g.name_en or g.id}",
                                       sheet=sheet_p, cell=cell_of(pn, row, "entrant")))
                continue
            if not 1 <= rec["round"] <= n_rounds:
                errs.append(InputError(f"轮次应为 1–{n_rounds}，实际为 {rec['round']}",
                                       f"round must be 1–{n_rounds}; got {rec['round']}",
                                       sheet=sheet_p, cell=cell_of(pn, row, "round")))
                continue
            if (rec["round"], rec["entrant"]) in byes:
                errs.append(InputError(f"{rec['entrant']}号第{rec['round']}轮轮空，不能罚分",
                                       f"pair {rec['entrant']} has the bye in round {rec['round']}",
                                       sheet=sheet_p, cell=cell_of(pn, row, "round")))
                continue
            pct = _penalty_pct(rec, stage.scoring, sheet_p, pn, row, errs)
            if pct is None:
                continue
            pen_rows.append({"round": rec["round"], "entrant": rec["entrant"], "pct_of_top": pct})
            late = {"迟到一轮": 1, "迟到两轮": 2}.get(rec["kind"])
            if late:
                # 十一（四）4/5: whole rounds late → forfeit of the round / disqualification, by
                # the settings lateness.rounds_forfeit / rounds_disqualify (default 1 / 2)
                lat = stage.scoring.lateness
                rf = lat.rounds_forfeit if lat and lat.rounds_forfeit is not None else 1
                rd = lat.rounds_disqualify if lat and lat.rounds_disqualify is not None else 2
                if late >= rd:  # disqualified; forfeits from here on
                    dq[rec["entrant"]] = min(dq.get(rec["entrant"], rec["round"]), rec["round"])
                elif late >= rf:
                    typed_df = _forfeit_for_lateness(typed_df, sched, rec)
        for e, from_round in dq.items():
            for r in range(from_round, n_rounds + 1):
                if (r, e) not in byes:
                    typed_df = _forfeit_for_lateness(typed_df, sched, {"round": r, "entrant": e})
        pen_df = pd.DataFrame(pen_rows, columns=["round", "entrant", "pct_of_top"])
        warnings += _typed_pct_warnings(tp.loc[tkeep], pen_df, sheet_t, g.name_zh)
        # --- which board tables count: a round is scored once all its board tables are in ----
        complete_boards = []
        missing = []
        typed_keys = set(zip(typed_df["round"], typed_df["ns"], typed_df["ew"])) if len(typed_df) else set()
        for rnd, rsched in real.groupby("round"):
            tables = [(int(rnd), int(m.home), int(m.away)) for m in rsched.itertuples()]
            by_board = [t for t in tables if t not in typed_keys]
            if not by_board:
                continue
            got = {t: board_df[(board_df["round"] == t[0]) & (board_df["ns"] == t[1])] for t in by_board}
            if len(by_board) == 1 and len(got[by_board[0]]):
                t = by_board[0]
                errs.append(InputError(
                    f"第{rnd}轮只有一桌（{t[1]}-{t[2]}）按逐副成绩录入，无法与其他桌比较计算比赛分；"
                    f"请在“轮成绩”表直接填写该桌双方比赛分",
                    f"round {rnd} has a single table with board results ({t[1]}-{t[2]}); matchpoints need "
                    f"two or more tables: type that table's percentages in Round scores",
                    sheet=sheet_b, cell=cell_of(board_df, board_tables[t], "ns_score")))
                continue
            short = [(t, b - len(got[t])) for t in by_board if len(got[t]) < b]
            if short:
                if any(len(got[t]) for t in by_board):
                    missing += [f"第{rnd}轮 {t[1]}-{t[2]} 缺 {k} 副" for t, k in short]
                continue
            complete_boards += [got[t] for t in by_board]
        bdf = pd.concat(complete_boards) if complete_boards else pd.DataFrame(
            columns=["round", "table", "board", "ns", "ew", "ns_score", "code"])
        if len(bdf):
            bdf = bdf.astype({"round": int, "board": int, "ns": int, "ew": int})
            bdf["ns_score"] = [float(x) if x is not None else float("nan") for x in bdf["ns_score"]]
        sched_use = sched if upto_round is None else sched[sched["round"] <= upto_round]
        res = round_results(sched_use, bdf, stage.scoring,
                            typed=_typed_frame(typed_df), penalties=pen_df)
        # a round counts once something of it was entered: byes (and forfeits generated for a
        # disqualified pair) of rounds not yet played must not score in a mid-event standing
        entered = set(int(r) for r in bdf["round"]) | {int(r) for r in tp.loc[tkeep, "round"]} \
            | {int(r["round"]) for r in pen_rows if r["round"] is not None} | set(dq.values())
        if len(res):
            later = ~res["round"].isin(entered)
            res.loc[later, "complete"] = False
        done = res.groupby("round")["complete"].all() if len(res) else pd.Series(dtype=bool)
        for rnd, ok in done.items():
            if not ok:
                n_miss = int((~res[(res["round"] == rnd)]["complete"]).sum() // 2)
                missing.append(f"第{rnd}轮缺 {n_miss} 桌")
        out[gid] = GroupResults(gid, ge, res, missing, n_rounds, disqualified=dq,
                                warnings=warnings)
    if errs:
        raise InputErrors(errs)
    return out


def _typed_frame(df: pd.DataFrame) -> pd.DataFrame:
    cols = ["round", "ns", "ew", "ns_pct", "ew_pct", "status", "ns_level_diff"]
    return df[cols].reset_index(drop=True) if len(df) else pd.DataFrame(columns=cols)


def _typed_pct_warnings(tp: pd.DataFrame, pens: pd.DataFrame, sheet: str, gname: str) -> list[str]:
    """Typed round percentages that do not add up, where no 罚分 explains it: a table's NS + EW
    ≠ 100, and a round whose NS percentages do not average 50 (e.g. both tables of a two-table
    field at NS 52). Warnings, not errors (an electronic scorer may round); each names its cells."""
    out: list[str] = []
    penalised = {(int(r), int(e)) for r, e in zip(pens["round"], pens["entrant"])}
    cols = tp.attrs.get("columns", {})
    ok_rows = []
    for row, rec in records(tp):
        if rec["ns_pct"] is None or rec["ew_pct"] is None or rec["status"]:
            continue
        pen = (rec["round"], rec["ns"]) in penalised or (rec["round"], rec["ew"]) in penalised
        total = rec["ns_pct"] + rec["ew_pct"]
        if not pen and abs(total - 100) > Decimal("0.02"):
            out.append(f"{sheet}!{cols.get('ns_pct', '?')}{row}:{cols.get('ew_pct', '?')}{row} "
                       f"{gname}第{rec['round']}轮 {rec['ns']}-{rec['ew']} 比赛分之和 {total}（≠100，"
                       f"且无罚分记录）")
        if not pen:
            ok_rows.append((row, rec))
    by_round: dict = {}
    for row, rec in ok_rows:
        by_round.setdefault(rec["round"], []).append((row, rec))
    for rnd, items in by_round.items():
        if len(items) < 2:
            continue
        mean = sum(rec["ns_pct"] for _, rec in items) / len(items)
        if abs(mean - 50) > Decimal("0.05"):
            cells = "、".join(f"{cols.get('ns_pct', '?')}{row}" for row, _ in items)
            out.append(f"{sheet}!{cells} {gname}第{rnd}轮各桌南北比赛分平均为 {mean:.2f}（同一轮南北方"
                       f"互相比较，应平均 50）")
    return out


def _forfeit_for_lateness(typed_df, sched, rec):
    m = sched[(sched["round"] == rec["round"]) & ((sched["home"] == rec["entrant"]) |
                                                  (sched["away"] == rec["entrant"]))]
    if m.empty or pd.isna(m["away"].iloc[0]):
        return typed_df
    home, away = int(m["home"].iloc[0]), int(m["away"].iloc[0])
    status = "ns_forfeit" if home == rec["entrant"] else "ew_forfeit"
    if len(typed_df):
        same = (typed_df["round"] == rec["round"]) & (typed_df["ns"] == home)
        typed_df = typed_df[~same]
    row = pd.DataFrame([{"round": rec["round"], "ns": home, "ew": away, "ns_pct": None,
                         "ew_pct": None, "status": status, "ns_level_diff": None}])
    return pd.concat([typed_df, row], ignore_index=True) if len(typed_df) else row


def _penalty_pct(rec, scoring, sheet, df, row, errs) -> Decimal | None:
    kind = rec["kind"] or "直接"
    for col in ("minutes", "pct_of_top"):
        if rec[col] is not None and rec[col] < 0:
            errs.append(InputError("罚分与分钟数不能为负数", "penalties and minutes cannot be negative",
                                   sheet=sheet, cell=cell_of(df, row, col)))
            return None
    if kind in ("超时", "迟到") and rec["pct_of_top"] is not None:
        errs.append(InputError(f"“{kind}”按规程罚则由分钟数计算罚分；请清空“罚分(%顶分)”，或把类别改为“直接”",
                               f"{kind} penalties come from the minutes by the regulation's ladder; "
                               f"clear the % or use kind 直接", sheet=sheet, cell=cell_of(df, row, "pct_of_top")))
        return None
    if kind == "直接" and rec["minutes"] is not None:
        errs.append(InputError("“直接”罚分只填“罚分(%顶分)”，不填分钟", "a direct penalty takes no minutes",
                               sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None
    if kind == "直接" and rec["pct_of_top"] is not None and \
            rec["pct_of_top"] > 100 * scoring.boards_per_round:
        errs.append(InputError(f"罚分 {rec['pct_of_top']}% 顶分超过整轮 {scoring.boards_per_round} 副牌的顶分",
                               f"a penalty of {rec['pct_of_top']}% of a top exceeds the whole round",
                               sheet=sheet, cell=cell_of(df, row, "pct_of_top")))
        return None
    if kind == "直接":
        if rec["pct_of_top"] is None:
            errs.append(InputError("直接罚分须填写“罚分(%顶分)”", "a direct penalty needs its % of top",
                                   sheet=sheet, cell=cell_of(df, row, "pct_of_top")))
            return None
        return rec["pct_of_top"]
    if kind in ("迟到一轮", "迟到两轮"):
        return Decimal(0)
    ladder = scoring.overtime if kind == "超时" else scoring.lateness
    if kind == "迟到" and rec["minutes"] is not None and scoring.round_minutes and \
            rec["minutes"] >= scoring.round_minutes:
        errs.append(InputError(f"迟到 {rec['minutes']} 分钟已达一轮（{scoring.round_minutes} 分钟），"
                               f"请按类别“迟到一轮”录入（判该轮弃权）",
                               f"{rec['minutes']} minutes late is a whole round: use kind 迟到一轮 (forfeit)",
                               sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None
    if ladder is None or rec["minutes"] is None:
        errs.append(InputError(f"“{kind}”须填写分钟数", f"{kind} needs the minutes",
                               sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None
    try:
        return ladder.apply(rec["minutes"]).pct_of_top
    except RuleError as exc:
        errs.append(InputError(exc.zh, exc.en, sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None


@dataclass
class _Ctx:
    numbers: set
    pairings: set
    byes: set
    n_rounds: int


def _check_pairing(rec, row, df, sheet, ctx: _Ctx) -> InputError | None:
    """The round, NS and EW of a result row name a scheduled match (sheet!cell if not)."""
    n_rounds, numbers = ctx.n_rounds, ctx.numbers
    if rec["round"] is None or not 1 <= rec["round"] <= n_rounds:
        return InputError(f"轮次应为 1–{n_rounds}，实际为 {rec['round'] if rec['round'] is not None else '空'}",
                          f"round must be 1–{n_rounds}; got {rec['round']}",
                          sheet=sheet, cell=cell_of(df, row, "round"))
    for side, other in (("ns", "ew"), ("ew", "ns")):
        if rec[side] is None:
            o = rec[other]
            if (rec["round"], o) in ctx.byes:
                return InputError(f"{o}号第{rec['round']}轮轮空（按规程自动给分），无需录入成绩",
                                  f"pair {o} has the bye in round {rec['round']}: nothing to enter",
                                  sheet=sheet, cell=cell_of(df, row, other))
            return InputError(f"“{'南北序号' if side == 'ns' else '东西序号'}”不能为空",
                              f"{side.upper()} number must not be empty", sheet=sheet,
                              cell=cell_of(df, row, side))
        if rec[side] not in numbers:
            return InputError(f"序号 {rec[side]} 不在本组抽签中（应为 {min(numbers)}–{max(numbers)}）",
                              f"pair {rec[side]} is not in this group's draw",
                              sheet=sheet, cell=cell_of(df, row, side))
    if (rec["round"], rec["ns"], rec["ew"]) not in ctx.pairings:
        if (rec["round"], rec["ew"], rec["ns"]) in ctx.pairings:
            return InputError(f"南北与东西填反了：第{rec['round']}轮的对阵是 {rec['ew']}（南北）对 {rec['ns']}（东西）",
                              f"NS and EW are swapped: round {rec['round']} is {rec['ew']} (NS) v {rec['ns']} (EW)",
                              sheet=sheet, cell=cell_of(df, row, "ns"))
        return InputError(f"第{rec['round']}轮没有 {rec['ns']}（南北）对 {rec['ew']}（东西）的对阵，请核对“对阵”表",
                          f"round {rec['round']} has no match {rec['ns']} (NS) v {rec['ew']} (EW); see Pairings",
                          sheet=sheet, cell=cell_of(df, row, "ns"))
    return None


def standings_for(gr: GroupResults, ev: Event, *, seed: int) -> pd.DataFrame:
    """Standings table of one group (see :func:`bianpai.engines.standings.rank`)."""
    stage = gr.entries.group.stages[0]
    st = rank_engine(list(gr.entries.entries["number"]), gr.results, stage.tie_breaks.criteria,
                     seed=seed if seed is not None else gr.entries.lot_seed,
                     ctx={"restart": stage.tie_breaks.restart_head_to_head})
    return st


def rank(port: WorkbookPort, *, upto_round: int | None = None, seed: int | None = None
         ) -> CommandResult:
    """Rank every group as of ``upto_round`` (all entered rounds when None); write 排名 (one
    column per tie-break value and 说明) and 成绩汇总 (every pair's rounds). ``seed`` settles
    lots (logged). Raises ``InputErrors`` for bad results; writes nothing then. A team workbook
    is ranked per stage (:func:`bianpai.addin.teams.team_rank`)."""
    from bianpai.addin import teams
    from bianpai.addin import competition
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_rank
        return core_rank(port, seed=seed, upto_round=upto_round)
    if teams.is_team_workbook(port):
        return teams.team_rank(port, seed=seed, upto_round=upto_round)
    ev = load_event(port)
    groups = collect_results(port, ev, upto_round=upto_round)
    lang = ev.lang
    # lots reuse each group's draw seed (stable across presses) unless a seed is given
    seed = int(seed) if seed is not None else None
    used_seeds = {gid: seed if seed is not None else gr.entries.lot_seed
                  for gid, gr in groups.items()}
    if any(v is None for v in used_seeds.values()):
        fresh = new_seed()
        used_seeds = {k: (fresh if v is None else v) for k, v in used_seeds.items()}
    chain_labels: list[tuple[str, str]] = []
    chain: list = []
    stand_rows, rr_rows, cross_rows = [], [], []
    cross_n = max((len(gr.entries.entries) for gr in groups.values()), default=0)
    data: dict[str, Any] = {}
    missing_all = []
    for gid, gr in groups.items():
        g = gr.entries.group
        gname = g.name_zh if lang == "zh" else (g.name_en or g.name_zh)
        st = standings_for(gr, ev, seed=used_seeds[gid])
        crits = st.chain
        if not chain_labels:
            chain_labels = [(c.label_zh, c.label_en) for c in crits]
            chain = list(crits)
        played = gr.results[gr.results["complete"]].groupby("entrant").size() if len(gr.results) else {}
        group_data = []
        table = st.table.to_dict("records")
        if gr.disqualified:  # 十一（四）5: disqualified pairs are listed last, without a place
            kept = [r for r in table if r["entrant"] not in gr.disqualified]
            gone = [r for r in table if r["entrant"] in gr.disqualified]
            for r in gone:
                r["rank"] = None
                r["explanation_zh"] = f"第{gr.disqualified[r['entrant']]}轮起取消比赛资格（迟到两轮，规程十一（四）5）"
                r["explanation_en"] = f"disqualified from round {gr.disqualified[r['entrant']]} (two rounds late)"
            for i, r in enumerate(kept):  # places close up over the disqualified
                r["rank"] = 1 + sum(1 for q in kept if q["rank"] < r["rank"])
            table = kept + gone
        for rec in table:
            e = rec["entrant"]
            ent = gr.entries.entries[gr.entries.entries["number"] == e].iloc[0]
            vals = [rec[c.name] for c in crits]
            stand_rows.append([gname, rec["rank"], e, ent["entrant_name"], ent["unit"],
                               int(played.get(e, 0)) if hasattr(played, "get") else 0,
                               *vals, rec["explanation_zh"] if lang == "zh" else rec["explanation_en"]])
            group_data.append({"rank": None if rec["rank"] is None else int(rec["rank"]), "number": int(e), "name": ent["entrant_name"],
                               "unit": ent["unit"], **{c.name: _json(rec[c.name]) for c in crits},
                               "explanation": rec["explanation_zh"]})
        data[g.name_zh] = group_data
        cross_rows += crosstable_rows(gr, table, gname, cross_n)
        for rec in gr.results.sort_values(["entrant", "round"]).to_dict("records"):
            rr_rows.append([gname, rec["entrant"], gr.entries.name_of(rec["entrant"]), rec["round"],
                            None if pd.isna(rec["opponent"]) else int(rec["opponent"]), rec["seat"],
                            rec["score_pct"], rec["match_points"], rec["level_diff"],
                            rec["penalty_pct"] or None,
                            L.OUTCOME_ZH.get(rec["outcome"], rec["outcome"]) if rec["complete"] else "未录"])
        missing_all += [f"{g.name_zh}{m}" for m in gr.missing
                        if upto_round is None or _round_of(m) is None or _round_of(m) <= upto_round]
    # the chain's columns replace the layout's: header + one column per criterion before 说明
    old = find_sheet(port, L.STANDINGS)
    before = _places(port.read_values(old)[1:]) if old else None
    # integers print as integers (rounds won 3, not 3.00); 场分 with one place (1.5)
    formats = [("0" if c.places is None else "0." + "0" * c.places) for c in chain]
    write_generated(port, L.STANDINGS, stand_rows, lang, extra_headers=chain_labels,
                    extra_formats=formats)
    write_generated(port, L.ROUND_RESULTS, rr_rows, lang)
    if cross_rows:
        write_generated(port, L.crosstable_layout(cross_n), cross_rows, lang)
    # award sheets built from another ranking are emptied (an unchanged ranking keeps them)
    stale = before != _places(stand_rows) and invalidate_awards(port, lang)
    any_result = any(gr.results["complete"].any() for gr in groups.values() if len(gr.results))
    if not any_result:
        state = "尚未录入任何成绩，名次仅由抽签决定 / no result entered yet"
    else:
        state = "；".join(missing_all) if missing_all else "全部成绩已录入"
    distinct = sorted(set(used_seeds.values()))
    seed_text = str(distinct[0]) if len(distinct) == 1 else ", ".join(
        f"{groups[k].entries.group.name_zh}={v}" for k, v in used_seeds.items())
    result = CommandResult(
        "rank", f"排名完成（{'截至第%d轮' % upto_round if upto_round else '已录入各轮'}）：{state}",
        f"standings done ({'up to round %d' % upto_round if upto_round else 'entered rounds'}); "
        f"{len(missing_all)} missing items", seed=seed_text, data=data)
    if stale:
        result.summary_zh += "；排名已变，旧的奖励表已清空，请重新奖励分配"
        result.summary_en += "; the ranking changed: award sheets emptied, run awards again"
    warned = [w for gr in groups.values() for w in gr.warnings]
    if warned:
        result.summary_zh += "；请核对（警告）：" + "；".join(warned)
        result.summary_en += f"; {len(warned)} typed percentage(s) do not add up: check them"
        result.findings = [{"severity": "warning", "where": w.split(" ")[0], "zh": w, "en": ""}
                           for w in warned]
    return finish(port, result, {"round": upto_round, "seed": seed}, lang)


def crosstable_rows(gr: GroupResults, table: list[dict], gname: str, width: int) -> list[list]:
    """Rows of the 交叉表 for one group, by pairing number: "场分 (比赛分%)" against each
    opponent (several cycles joined by "／"), "×" on the diagonal, then 场分, 平均得分率, 名次."""
    res = gr.results[gr.results["complete"]] if len(gr.results) else gr.results
    by_entrant = {r["entrant"]: r for r in table}
    rows = []
    for e in sorted(gr.entries.entries["number"]):
        cells = []
        for o in range(1, width + 1):
            if o == e:
                cells.append("×")
                continue
            games = res[(res["entrant"] == e) & (res["opponent"] == o)] if len(res) else res
            cells.append("／".join(f"{_num(g.match_points)} ({g.score_pct:.2f})"
                                   for g in games.itertuples()) or None)
        st = by_entrant.get(e, {})
        rows.append([gname, e, gr.entries.name_of(e), *cells, st.get("match_points"),
                     st.get("avg_score_pct"), st.get("rank")])
    return rows


def _num(v) -> str:
    d = Decimal(str(v))
    return str(int(d)) if d == d.to_integral_value() else str(d.normalize())


def _places(rows) -> list[tuple]:
    """(group, place, entrant name, unit) of standings rows: what the award sheets depend on."""
    return [(r[0], None if r[1] is None else int(r[1]), r[3], r[4]) for r in rows if r and r[0]]


def _round_of(text: str) -> int | None:
    m = re.match(r"第(\d+)轮", text)
    return int(m[1]) if m else None


def _json(v):
    if isinstance(v, Decimal):
        return float(v) if v != v.to_integral_value() else int(v)
    return v


# --- awards ----------------------------------------------------------------------------------

def final_standings(port: WorkbookPort, ev: Event) -> pd.DataFrame:
    """The final ranking the prize table reads: the generated 排名 when the regulation's stages
    produced one, else the typed 名次录入 sheet. Columns: ``group`` (str, name_zh), ``place``
    (int), ``entrant_id``, ``name``, ``unit``, ``person_id``. Raises ``InputErrors``."""
    errs: list[InputError] = []
    ranked = find_sheet(port, L.STANDINGS) is not None and len(port.read_values(
        find_sheet(port, L.STANDINGS))) > 1
    if ranked:
        df = read_table(port, L.STANDINGS, errors=errs)
        df = df[df["rank"].notna()]  # disqualified entrants have no place and no award
        out = pd.DataFrame({"group": df["group"], "place": df["rank"],
                            "entrant_id": [f"{g}#{e}" for g, e in zip(df["group"], df["entrant"])],
                            "name": df["entrant_name"], "unit": df["unit"]})
    elif find_sheet(port, L.PLACINGS) is not None:
        out, df = typed_placings(port, ev, errs)
    else:
        raise InputErrors([InputError("还没有排名：请先“计算排名”，或在“名次录入”表填写名次",
                                      "no ranking yet: run rank, or type places in Placings",
                                      sheet=L.PLACINGS.zh)])
    sheet = df.attrs.get("sheet", "")
    names = []
    for row, g in df["group"].items():
        grp = ev.group_of(g, sheet=sheet, cell=cell_of(df, row, "group")) if g else None
        names.append(grp.name_zh if grp else g)
    out["group"] = names
    errs += ev.errors
    if errs:
        raise InputErrors(errs)
    return out.reset_index(drop=True)


def typed_placings(port: WorkbookPort, ev, errs: list[InputError]
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The typed 名次录入 as a ranking (columns ``group``, ``place``, ``entrant_id``, ``name``,
    ``unit``, ``person_id``) and the sheet as read; problems
    (:func:`placings_findings`) are appended to ``errs``. Also read by the competition core
    for its groups without stages."""
    df = read_table(port, L.PLACINGS, errors=errs)
    errs += placings_findings(df, ev)
    out = pd.DataFrame({"group": df["group"], "place": df["rank"],
                        "entrant_id": [f"{g}#{n}" for g, n in zip(df["group"], df["name"])],
                        "name": df["name"], "unit": df["unit"],
                        "person_id": df["person_id"]})
    return out, df


def entrant_names(ev: Event) -> dict[str, set[str]]:
    """Names a ranking may use per group name_zh: pair names (甲/乙), team names, and the
    names of individual players."""
    out: dict[str, set[str]] = {}
    for _, rec in records(ev.roster):
        if not rec.get("group_id"):
            continue
        g = ev.reg.group(rec["group_id"]).name_zh
        names = out.setdefault(g, set())
        if ev.reg.roster_layout == "pairs":
            names.add(entrant_name(rec))
            names.update(n for n in (rec.get("name1"), rec.get("name2")) if n)
        else:
            names.update(n for n in (rec.get("team"), rec.get("name")) if n)
    return out


def placings_findings(df: pd.DataFrame, ev: Event) -> list[InputError]:
    """A typed 名次录入 must name each entrant once, entrants of the roster's group only, and
    rank no more entrants than the group has."""
    errs: list[InputError] = []
    sheet = df.attrs.get("sheet", L.PLACINGS.zh)
    known = entrant_names(ev)
    seen: dict = {}
    counts: dict = {}
    for row, rec in records(df):
        if not rec["group"] or not rec["name"]:
            continue
        try:
            g = ev.reg.group(str(rec["group"])).name_zh
        except KeyError:
            continue  # reported by the group check
        key = (g, rec["name"])
        if key in seen:
            errs.append(InputError(f"“{rec['name']}”在{g}中出现两次（另见第{seen[key]}行）",
                                   f"{rec['name']} is ranked twice in {g} (see row {seen[key]})",
                                   sheet=sheet, cell=cell_of(df, row, "name")))
            continue
        seen[key] = row
        counts[g] = counts.get(g, 0) + 1
        if known.get(g) and rec["name"] not in known[g]:
            errs.append(InputError(f"“{rec['name']}”不在{g}的报名表中；请核对姓名/队名",
                                   f"{rec['name']} is not on the roster of {g}",
                                   sheet=sheet, cell=cell_of(df, row, "name")))
    for g, n in counts.items():
        entries = entries_per_group(ev).get(g, 0)
        if entries and n > entries:
            errs.append(InputError(f"{g}录入了 {n} 个名次，但只有 {entries} 个报名",
                                   f"{g}: {n} places typed for {entries} entries", sheet=sheet))
    return errs


def _money(v):
    return None if v is None or (isinstance(v, float) and v != v) else v


def awards(port: WorkbookPort) -> CommandResult:
    """Allocate places, prizes, tax, trophies and certificates by the regulation's ``awards``
    block (:func:`bianpai.engines.prizes.allocate`) and write 奖励 (flat, for mail merge, with
    totals), 领奖签收表 (amounts in 大写 and a signature column) and 证书. Money in yuan
    (Decimal, shown ¥ with 2 decimals). Raises ``InputErrors`` for a missing ranking."""
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_awards
        return core_awards(port)
    if teams.is_team_workbook(port):
        from bianpai.addin.team_awards import team_awards
        return team_awards(port)
    ev = load_event(port)
    lang = ev.lang
    if ev.reg.awards is None:
        raise InputErrors([InputError("规程没有奖励设置", "the regulation has no awards block",
                                      sheet=_name(L.SETTINGS, port, lang))])
    standings = final_standings(port, ev)
    entries = entries_per_group(ev)
    entries = {g: (n or int((standings["group"] == g).sum())) for g, n in entries.items()}
    return write_awards(port, ev.reg, standings, entries, lang)


def write_awards(port: WorkbookPort, reg: Regulation, standings: pd.DataFrame,
                 entries: dict[str, int], lang: str, *, args: dict | None = None) -> CommandResult:
    """Allocate (:func:`bianpai.engines.prizes.allocate`) from a final ``standings`` frame
    (columns ``group, place, entrant_id, name, unit``) with ``entries`` per group, write 奖励,
    领奖签收表 and 证书, log and save. Shared by the pairs/individual and the team flows."""
    from bianpai.addin import award_papers
    from bianpai.engines.prizes import allocate, yuan_capital

    alloc = allocate(standings, reg.awards, entries)
    t = alloc.table
    award_rows, receipt_rows, cert_rows = [], [], []
    for rec in t.to_dict("records"):
        award_rows.append([rec["group"], rec["place_label"], rec["name"], rec["unit"],
                           rec["award"], _money(rec["gross"]), _money(rec["tax_withheld"]),
                           _money(rec["net"]), rec["note"]])
        net = _money(rec["net"])
        if net:
            receipt_rows.append([rec["group"], rec["place_label"], rec["name"], net,
                                 yuan_capital(net), "", ""])
        titles = [x for x, flag in (("奖杯", rec["trophy"]), ("奖牌", rec["medal"]),
                                    ("证书", rec["certificate"])) if flag]
        if titles or rec["qualification"]:
            cert_rows.append([rec["group"], rec["place_label"], rec["name"], rec["unit"],
                              "、".join(titles) + (f"（{rec['award']}）" if rec["award"] else ""),
                              rec["qualification"]])
    totals = alloc.totals
    paid = any(_money(v) is not None for v in t["gross"]) if len(t) else False
    if len(totals) and paid:
        last = totals.iloc[-1]
        award_rows.append(["合计" if lang == "zh" else "Total", "", "", "", "",
                           _money(last["gross"]), _money(last["tax_withheld"]), _money(last["net"]),
                           ""])
        total_net = _money(last["net"])
        if total_net:
            receipt_rows.append(["合计" if lang == "zh" else "Total", "", "", total_net,
                                 yuan_capital(total_net), "", ""])
    if not paid:
        later = any(getattr(getattr(g, "prize_table", None), "announced_later", False)
                    for g in (reg.awards.groups if reg.awards is not None else []))
        if later:  # 十一: 具体奖金数额另行通知 — not "no money"
            receipt_rows = [["（规程规定奖金另行通知：请在“规程”表填入各名次金额后重新奖励分配）" if lang == "zh"
                             else "(prize money announced later: type the amounts in the "
                                  "Regulation sheet and run awards again)",
                             "", "", None, "", "", ""]]
        else:
            receipt_rows = [["（本规程未设奖金，无需签收）" if lang == "zh" else "(no prize money)",
                         "", "", None, "", "", ""]]
    write_generated(port, L.AWARDS, award_rows, lang)
    write_generated(port, L.AWARD_RECEIPTS, receipt_rows, lang)
    write_generated(port, L.CERTIFICATES, cert_rows, lang)
    award_papers.write_certificate_pages(port, t, standings, lang)  # 荣誉证书, one per person
    n_money = sum(1 for r in receipt_rows[:-1] if r[3]) if paid else 0
    result = CommandResult(
        "awards", f"奖励分配：{len(award_rows) - (1 if len(totals) and paid else 0)} 行，"
                  f"发奖金 {n_money} 人次；" + "；".join(x.split(" / ")[0] for x in alloc.log),
        f"awards: {len(t)} rows, {n_money} paid; " + "; ".join(
            x.split(" / ")[-1] for x in alloc.log),
        data={"awards": [{k: _json(v) if not isinstance(v, (bool, type(None))) else v
                          for k, v in r.items()} for r in t.to_dict("records")],
              "log": alloc.log, "cancelled": alloc.cancelled})
    return finish(port, result, args or {}, lang)


def advance(port: WorkbookPort, *, seed: int | None = None) -> CommandResult:
    """进入下一阶段: the stages whose sources are finished get their entrants (core events:
    :func:`bianpai.addin.competition_commands.core_advance`; bridge team events:
    :func:`bianpai.addin.teams.team_advance`). Raises ``RuleError`` for a single-stage event."""
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_advance
        return core_advance(port, seed=seed)
    if teams.is_team_workbook(port):
        return teams.team_advance(port, seed=seed)
    raise RuleError("本赛事只有一个阶段，没有“下一阶段”",
                    "this event has a single stage; there is no next stage")


def withdraw(port: WorkbookPort, *, group: str | None = None, team: int | None = None,
             after_round: int | None = None,
             annul: bool | None = None, reason: str = "") -> CommandResult:
    """退赛 of one entrant (competition-core events:
    :func:`bianpai.addin.competition_commands.core_withdraw`). Raises ``RuleError`` for a
    workbook whose preset does not run on the core yet."""
    from bianpai.addin import competition
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_withdraw
        return core_withdraw(port, group=group, team=team, after_round=after_round, annul=annul,
                             reason=reason)
    raise RuleError("本工作簿的赛制尚不支持“退赛”命令（请在罚分/判定中按弃权处理）",
                    "withdraw is not supported for this workbook's format yet")
