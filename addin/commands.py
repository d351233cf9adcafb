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
from bianpai.workbooks.settings import settings_rows
from bianpai.workbooks.tables import cell_of, find_sheet, read_table

FRONT = {"name": "cli"}


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
                    position: int | None = None) -> None:
    """Rebuild a generated sheet whole: header (plus extra columns) and rows."""
    header = layout.headers(lang)
    fmt = layout.sheet_format(lang=lang)
    if extra_headers:
        # extra columns are inserted before the last layout column (说明 stays last)
        header = header[:-1] + [zh if lang == "zh" else en for zh, en in extra_headers] + header[-1:]
        last = fmt.columns[-1]
        from bianpai.workbooks.port import ColumnFormat
        for i, _ in enumerate(extra_headers):
            fmt.columns.insert(len(fmt.columns) - 1, ColumnFormat(index=len(layout.columns) - 1 + i,
                                                                  width=10, number_format="0.00"))
        last.index = len(header) - 1
        fmt.text_columns = [i for i in fmt.text_columns if i < len(layout.columns) - 1] + [
            len(header) - 1]
    if position is None and find_sheet(port, layout) is None:
        position = _position(layout, port)
    port.write_sheet(_name(layout, port, lang), [header] + rows, fmt, position=position)


def log(port: WorkbookPort, result: CommandResult, args: dict, lang: str) -> None:
    """Append one row to 日志 (created when missing)."""
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


def finish(port: WorkbookPort, result: CommandResult, args: dict, lang: str) -> CommandResult:
    log(port, result, args, lang)
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
    from bianpai.addin import teams
    if teams.is_team_regulation(reg):
        return teams.build_team_workbook(port, reg, lang=lang)
    lang = lang or reg.language
    # the 规程 sheet's own `language` row must carry the chosen language (read back last)
    reg = reg.model_copy(update={"language": lang})
    rows = settings_rows(reg)
    if lang == "en":
        rows[0] = L.SETTINGS.headers("en")
    lang_row = ["language", "语言 (zh/en)", lang, "", "工作表与列名的语言 / language of sheet and column names"]
    rows.insert(2, lang_row)
    port.write_sheet(L.SETTINGS.name(lang), rows, L.SETTINGS.sheet_format(lang=lang))
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
    for row, rec in r.iterrows():
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
            out.append((f.severity, InputError(f.message_zh, f.message_en, sheet=sheet, cell=cell)))
    return out


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
    from bianpai.addin import teams
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
    if teams.is_team_workbook(port):
        return teams.team_draw(port, seed=seed, accept_warnings=accept_warnings)
    ev = load_event(port)
    errs = ev.errors + roster_findings(ev)
    found = eligibility_findings(ev)
    errs += [e for s, e in found if s == "error"]
    if errs:
        raise InputErrors(errs)
    warnings = [e for s, e in found if s == "warning"]
    if warnings and not accept_warnings:
        raise InputErrors([InputError(
            f"名单警告须说明理由后接受（--accept-warnings \"理由\"）：{e.zh}",
            f"roster warning; accept it with a reason (--accept-warnings): {e.en}",
            sheet=e.sheet, cell=e.cell) for e in warnings])
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
            used_seed = "（沿用）"
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
            entries = pd.DataFrame({
                "number": numbers,
                "entrant_name": [entrant_name(rec) for _, rec in sub.iterrows()],
                "unit": list(sub["unit"]), "roster_row": list(sub.index)})
            ge = GroupEntries(group=g, entries=entries.sort_values("number").reset_index(drop=True))
        groups[g.id] = ge
        gname = g.name_zh if lang == "zh" else (g.name_en or g.name_zh)
        for rec in ge.entries.itertuples():
            draw_rows.append([gname, rec.number, rec.entrant_name, rec.unit, rec.roster_row, used_seed])
        stage = g.stages[0]
        sched = round_robin_schedule(len(ge.entries), cycles=stage.format.cycles,
                                     max_rounds=stage.format.max_rounds)
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
    write_generated(port, L.SCHEDULE, sched_rows, lang)
    added = _append_board_rows(port, ev, groups, lang)
    result = CommandResult(
        "draw", f"抽签编排完成：{len(groups)} 个组别，{len(sched_rows)} 桌次，成绩表新增 {added} 行",
        f"draw done: {len(groups)} groups, {len(sched_rows)} tables, {added} result rows added",
        seed=seed)
    if warnings:
        result.summary_zh += f"；已接受 {len(warnings)} 条名单警告，理由：{accept_warnings}（" + \
            "；".join(f"{e.where} {e.zh}" for e in warnings) + "）"
        result.summary_en += f"; {len(warnings)} roster warnings accepted: {accept_warnings}"
    return finish(port, result, {"seed": seed, "redraw": redraw or None,
                                 "accept_warnings": accept_warnings}, lang)


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
        sched = round_robin_schedule(len(ge.entries), cycles=stage.format.cycles)
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
        sched = round_robin_schedule(len(ge.entries), cycles=stage.format.cycles)
        n_rounds = int(sched["round"].max())
        b = stage.format.boards_per_round
        pairings = {(int(m.round), int(m.home), int(m.away)) for m in sched.dropna(subset=["away"]).itertuples()}
        numbers = set(ge.entries["number"])
        bd = frames["boards"][frames["boards"]["group_id"] == gid]
        sheet_b = boards.attrs.get("sheet", L.BOARDS.zh)
        seen = {}
        keep = []
        for row, rec in bd.iterrows():
            if rec["round"] is None or rec["ns"] is None or rec["ew"] is None or rec["board"] is None:
                continue
            bad = _check_pairing(rec, row, bd, sheet_b, numbers, pairings, n_rounds)
            if bad:
                errs.append(bad)
                continue
            lo, hi = (rec["round"] - 1) * b + 1, rec["round"] * b
            if not lo <= rec["board"] <= hi:
                errs.append(InputError(f"第{rec['round']}轮的牌号应为 {lo}–{hi}，实际为 {rec['board']}",
                                       f"boards of round {rec['round']} are {lo}–{hi}; got {rec['board']}",
                                       sheet=sheet_b, cell=cell_of(bd, row, "board")))
                continue
            key = (rec["round"], rec["board"], rec["ns"])
            if rec["ns_score"] is None and rec["code"] is None:
                continue  # not yet entered
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
        tp = frames["typed"][frames["typed"]["group_id"] == gid]
        sheet_t = typed.attrs.get("sheet", L.ROUND_SCORES.zh)
        tkeep = []
        for row, rec in tp.iterrows():
            bad = _check_pairing(rec, row, tp, sheet_t, numbers, pairings, n_rounds)
            if bad:
                errs.append(bad)
                continue
            if rec["ns_pct"] is None and rec["ew_pct"] is None and rec["status"] in (None, "正常", "normal"):
                continue
            tkeep.append(row)
        typed_df = tp.loc[tkeep].copy()
        typed_df["status"] = [L.STATUS_CODES.get(str(s or "").lower(), "") if s else ""
                              for s in typed_df["status"]]
        pn = frames["pens"][frames["pens"]["group_id"] == gid]
        sheet_p = pens.attrs.get("sheet", L.PENALTIES.zh)
        pen_rows = []
        for row, rec in pn.iterrows():
            if rec["entrant"] not in numbers:
                errs.append(InputError(f"序号 {rec['entrant']} 不在{g.name_zh}的抽签中",
                                       f"number {rec['entrant']} is not in the draw of {g.name_en or g.id}",
                                       sheet=sheet_p, cell=cell_of(pn, row, "entrant")))
                continue
            pct = _penalty_pct(rec, stage.scoring, sheet_p, pn, row, errs)
            if pct is None:
                continue
            pen_rows.append({"round": rec["round"], "entrant": rec["entrant"], "pct_of_top": pct})
            if rec["kind"] in ("迟到一轮",):
                typed_df = _forfeit_for_lateness(typed_df, sched, rec)
        pen_df = pd.DataFrame(pen_rows, columns=["round", "entrant", "pct_of_top"])
        # only complete tables count: every board of the round entered
        complete_boards = []
        missing = []
        for (rnd, ns, ew), sub in board_df.groupby(["round", "ns", "ew"]):
            if len(typed_df) and ((typed_df["round"] == rnd) & (typed_df["ns"] == ns)).any():
                continue
            if len(sub) < b:
                missing.append(f"第{rnd}轮 {ns}-{ew} 缺 {b - len(sub)} 副")
                continue
            complete_boards.append(sub)
        bdf = pd.concat(complete_boards) if complete_boards else pd.DataFrame(
            columns=["round", "table", "board", "ns", "ew", "ns_score", "code"])
        if len(bdf):
            bdf = bdf.astype({"round": int, "board": int, "ns": int, "ew": int})
            bdf["ns_score"] = [float(x) if x is not None else float("nan") for x in bdf["ns_score"]]
        sched_use = sched if upto_round is None else sched[sched["round"] <= upto_round]
        res = round_results(sched_use, bdf, stage.scoring,
                            typed=_typed_frame(typed_df), penalties=pen_df)
        done = res.groupby("round")["complete"].all() if len(res) else pd.Series(dtype=bool)
        for rnd, ok in done.items():
            if not ok:
                n_miss = int((~res[(res["round"] == rnd)]["complete"]).sum() // 2)
                missing.append(f"第{rnd}轮缺 {n_miss} 桌")
        out[gid] = GroupResults(gid, ge, res, missing, n_rounds)
    if errs:
        raise InputErrors(errs)
    return out


def _typed_frame(df: pd.DataFrame) -> pd.DataFrame:
    cols = ["round", "ns", "ew", "ns_pct", "ew_pct", "status", "ns_level_diff"]
    return df[cols].reset_index(drop=True) if len(df) else pd.DataFrame(columns=cols)


def _forfeit_for_lateness(typed_df, sched, rec):
    m = sched[(sched["round"] == rec["round"]) & ((sched["home"] == rec["entrant"]) |
                                                  (sched["away"] == rec["entrant"]))]
    if m.empty or pd.isna(m["away"].iloc[0]):
        return typed_df
    home, away = int(m["home"].iloc[0]), int(m["away"].iloc[0])
    status = "ns_forfeit" if home == rec["entrant"] else "ew_forfeit"
    row = pd.DataFrame([{"round": rec["round"], "ns": home, "ew": away, "ns_pct": None,
                         "ew_pct": None, "status": status, "ns_level_diff": None}])
    return pd.concat([typed_df, row], ignore_index=True) if len(typed_df) else row


def _penalty_pct(rec, scoring, sheet, df, row, errs) -> Decimal | None:
    kind = rec["kind"] or "直接"
    if kind == "直接":
        if rec["pct_of_top"] is None:
            errs.append(InputError("直接罚分须填写“罚分(%顶分)”", "a direct penalty needs its % of top",
                                   sheet=sheet, cell=cell_of(df, row, "pct_of_top")))
            return None
        return rec["pct_of_top"]
    if kind in ("迟到一轮", "迟到两轮"):
        return Decimal(0)
    ladder = scoring.overtime if kind == "超时" else scoring.lateness
    if ladder is None or rec["minutes"] is None:
        errs.append(InputError(f"“{kind}”须填写分钟数", f"{kind} needs the minutes",
                               sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None
    try:
        return ladder.apply(rec["minutes"]).pct_of_top
    except RuleError as exc:
        errs.append(InputError(exc.zh, exc.en, sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None


def _check_pairing(rec, row, df, sheet, numbers, pairings, n_rounds) -> InputError | None:
    if rec["round"] is None or not 1 <= rec["round"] <= n_rounds:
        return InputError(f"轮次应为 1–{n_rounds}，实际为 {rec['round']}",
                          f"round must be 1–{n_rounds}; got {rec['round']}",
                          sheet=sheet, cell=cell_of(df, row, "round"))
    for side in ("ns", "ew"):
        if rec[side] not in numbers:
            return InputError(f"序号 {rec[side]} 不在本组抽签中（应为 {min(numbers)}–{max(numbers)}）",
                              f"pair {rec[side]} is not in this group's draw",
                              sheet=sheet, cell=cell_of(df, row, side))
    if (rec["round"], rec["ns"], rec["ew"]) not in pairings:
        return InputError(f"第{rec['round']}轮没有 {rec['ns']}（南北）对 {rec['ew']}（东西）的对阵",
                          f"round {rec['round']} has no match {rec['ns']} (NS) v {rec['ew']} (EW)",
                          sheet=sheet, cell=cell_of(df, row, "ns"))
    return None


def standings_for(gr: GroupResults, ev: Event, *, seed: int) -> pd.DataFrame:
    """Standings table of one group (see :func:`bianpai.engines.standings.rank`)."""
    stage = gr.entries.group.stages[0]
    st = rank_engine(list(gr.entries.entries["number"]), gr.results, stage.tie_breaks.criteria,
                     seed=seed)
    return st


def rank(port: WorkbookPort, *, upto_round: int | None = None, seed: int | None = None
         ) -> CommandResult:
    """Rank every group as of ``upto_round`` (all entered rounds when None); write 排名 (one
    column per tie-break value and 说明) and 成绩汇总 (every pair's rounds). ``seed`` settles
    lots (logged). Raises ``InputErrors`` for bad results; writes nothing then. A team workbook
    is ranked per stage (:func:`bianpai.addin.teams.team_rank`)."""
    from bianpai.addin import teams
    if teams.is_team_workbook(port):
        return teams.team_rank(port, seed=seed, upto_round=upto_round)
    ev = load_event(port)
    groups = collect_results(port, ev, upto_round=upto_round)
    lang = ev.lang
    seed = new_seed() if seed is None else int(seed)
    chain_labels: list[tuple[str, str]] = []
    stand_rows, rr_rows = [], []
    data: dict[str, Any] = {}
    missing_all = []
    for gid, gr in groups.items():
        g = gr.entries.group
        gname = g.name_zh if lang == "zh" else (g.name_en or g.name_zh)
        st = standings_for(gr, ev, seed=seed)
        crits = st.chain
        if not chain_labels:
            chain_labels = [(c.label_zh, c.label_en) for c in crits]
        played = gr.results[gr.results["complete"]].groupby("entrant").size() if len(gr.results) else {}
        group_data = []
        for rec in st.table.to_dict("records"):
            e = rec["entrant"]
            ent = gr.entries.entries[gr.entries.entries["number"] == e].iloc[0]
            vals = [rec[c.name] for c in crits]
            stand_rows.append([gname, rec["rank"], e, ent["entrant_name"], ent["unit"],
                               int(played.get(e, 0)) if hasattr(played, "get") else 0,
                               *vals, rec["explanation_zh"] if lang == "zh" else rec["explanation_en"]])
            group_data.append({"rank": int(rec["rank"]), "number": int(e), "name": ent["entrant_name"],
                               "unit": ent["unit"], **{c.name: _json(rec[c.name]) for c in crits},
                               "explanation": rec["explanation_zh"]})
        data[g.name_zh] = group_data
        for rec in gr.results.sort_values(["entrant", "round"]).to_dict("records"):
            rr_rows.append([gname, rec["entrant"], gr.entries.name_of(rec["entrant"]), rec["round"],
                            None if pd.isna(rec["opponent"]) else int(rec["opponent"]), rec["seat"],
                            rec["score_pct"], rec["match_points"], rec["level_diff"],
                            rec["penalty_pct"] or None,
                            L.OUTCOME_ZH.get(rec["outcome"], rec["outcome"]) if rec["complete"] else "未录"])
        missing_all += [f"{g.name_zh}{m}" for m in gr.missing]
    # the chain's columns replace the layout's: header + one column per criterion before 说明
    write_generated(port, L.STANDINGS, stand_rows, lang, extra_headers=chain_labels)
    write_generated(port, L.ROUND_RESULTS, rr_rows, lang)
    state = "；".join(missing_all) if missing_all else "全部成绩已录入"
    result = CommandResult(
        "rank", f"排名完成（{'截至第%d轮' % upto_round if upto_round else '已录入各轮'}）：{state}",
        f"standings done ({'up to round %d' % upto_round if upto_round else 'entered rounds'}); "
        f"{len(missing_all)} missing items", seed=seed, data=data)
    return finish(port, result, {"round": upto_round, "seed": seed}, lang)


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
        out = pd.DataFrame({"group": df["group"], "place": df["rank"],
                            "entrant_id": [f"{g}#{e}" for g, e in zip(df["group"], df["entrant"])],
                            "name": df["entrant_name"], "unit": df["unit"]})
    elif find_sheet(port, L.PLACINGS) is not None:
        df = read_table(port, L.PLACINGS, errors=errs)
        out = pd.DataFrame({"group": df["group"], "place": df["rank"],
                            "entrant_id": [f"{g}#{n}" for g, n in zip(df["group"], df["name"])],
                            "name": df["name"], "unit": df["unit"],
                            "person_id": df["person_id"]})
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


def _money(v):
    return None if v is None or (isinstance(v, float) and v != v) else v


def awards(port: WorkbookPort) -> CommandResult:
    """Allocate places, prizes, tax, trophies and certificates by the regulation's ``awards``
    block (:func:`bianpai.engines.prizes.allocate`) and write 奖励 (flat, for mail merge, with
    totals), 领奖签收表 (amounts in 大写 and a signature column) and 证书. Money in yuan
    (Decimal, shown ¥ with 2 decimals). Raises ``InputErrors`` for a missing ranking."""
    from bianpai.addin import teams
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
    if len(totals):
        last = totals.iloc[-1]
        award_rows.append(["合计" if lang == "zh" else "Total", "", "", "", "",
                           _money(last["gross"]), _money(last["tax_withheld"]), _money(last["net"]),
                           ""])
        total_net = _money(last["net"])
        if total_net:
            receipt_rows.append(["合计" if lang == "zh" else "Total", "", "", total_net,
                                 yuan_capital(total_net), "", ""])
    write_generated(port, L.AWARDS, award_rows, lang)
    write_generated(port, L.AWARD_RECEIPTS, receipt_rows, lang)
    write_generated(port, L.CERTIFICATES, cert_rows, lang)
    n_money = sum(1 for r in receipt_rows[:-1] if r[3])
    result = CommandResult(
        "awards", f"奖励分配：{len(award_rows) - (1 if len(totals) else 0)} 行，"
                  f"发奖金 {n_money} 人次；" + "；".join(x.split(" / ")[0] for x in alloc.log),
        f"awards: {len(t)} rows, {n_money} paid; " + "; ".join(
            x.split(" / ")[-1] for x in alloc.log),
        data={"awards": [{k: _json(v) if not isinstance(v, (bool, type(None))) else v
                          for k, v in r.items()} for r in t.to_dict("records")],
              "log": alloc.log, "cancelled": alloc.cancelled})
    return finish(port, result, args or {}, lang)
