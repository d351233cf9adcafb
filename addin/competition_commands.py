"""Commands of every competition-core event: new, check, draw, advance, rank, awards, withdraw.

One path for every format and scoring: each command reads the workbook once
(:func:`bianpai.addin.competition.load_core_event`), asks the stages' formats and scorings, writes
the generated sheets whole (typed sheets only get blank entry rows), appends a 日志 row with the
random seed, and saves once. Bad input raises ``InputErrors`` (every cell named, Chinese and
English) before anything is written.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pandas as pd

from bianpai.addin import commands as c
from bianpai.addin.competition import (CoreEvent, layouts_for, load_core_event, rng_for)
from bianpai.addin.team_eligibility import team_eligibility_findings
from bianpai.engines.bridge import carry_over
from bianpai.engines.core import Match, NotReady
from bianpai.engines.standings import CRITERIA
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.templates.schema import FinalRankPart, Group, Regulation, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import write_settings_sheet
from bianpai.addin.competition import records
from bianpai.workbooks.tables import cell_of

__all__ = ["build_core_workbook", "core_check", "core_draw", "core_advance", "core_rank",
           "core_awards", "core_final_standings", "core_withdraw"]

OUTCOME_ZH = {"W": "胜", "D": "平", "L": "负", "FW": "对方弃权", "FL": "弃权", "BYE": "轮空",
              "VOID": "无效"}


# ------------------------------------------------------------------------------ new

def build_core_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh"):
    """The sheets of a new core workbook: 规程, 报名 (one row per team with its 组别), 队员 (one
    row per person, for eligibility), 成绩 / 逐局成绩 (entry columns from the scorings), 罚分, and
    the generated 校验, 对阵, 排名, 奖励 with their headers; logs ``new``."""
    lang = lang or reg.language
    reg = write_settings_sheet(port, reg, lang)
    lay = layouts_for(reg)
    groups = [g.name_zh if lang == "zh" else (g.name_en or g.name_zh) for g in reg.groups]
    stages = sorted({s.name_zh if lang == "zh" else (s.name_en or s.name_zh)
                     for g in reg.groups for s in g.stages})
    choices = {"group": groups, "stage": stages}
    roster = [L.ROSTER_PEOPLE] if reg.roster_layout == "people" else [K.ROSTER, T.TEAM_PLAYERS]
    # groups without stages (no engine for their format yet) get their places typed
    typed_places = [L.PLACINGS] if any(not g.stages for g in reg.groups) else []
    for layout in (*roster, lay.results, lay.games, K.PENALTIES, K.WITHDRAWALS, *typed_places):
        port.write_sheet(layout.name(lang), [layout.headers(lang)],
                         layout.sheet_format(choices=choices, lang=lang))
    for layout in (L.CHECKS, K.SCHEDULE, lay.standings):
        c.write_generated(port, layout, [], lang)
    if reg.awards is not None:
        c.write_generated(port, L.AWARDS, [], lang)
    result = c.CommandResult("new", f"新建工作簿（规程：{reg.title_zh}）",
                             f"new workbook ({reg.title_en or reg.id})")
    return c.finish(port, result, {"preset": reg.id, "language": lang}, lang)


# ------------------------------------------------------------------------------ check

class _GroupView:
    """What :func:`team_eligibility_findings` reads, for one group of a core roster."""

    def __init__(self, ev: CoreEvent, g: Group):
        self.port, self.reg, self.group, self.lang = ev.port, ev.reg, g, ev.lang
        r = ev.roster
        self.roster = r[r["group_id"] == g.id].copy()
        self.roster.attrs = dict(r.attrs)
        mine = {str(x).strip() for x in self.roster["name"] if x is not None}
        self.other_teams = {str(x).strip() for x in r["name"] if x is not None} - mine


def roster_problems(ev: CoreEvent) -> list[InputError]:
    """Structural roster problems: a team number typed twice in a group, a team name twice,
    a group with fewer than two teams."""
    errs: list[InputError] = []
    r = ev.roster
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    seen_n: dict[tuple, int] = {}
    seen_name: dict[tuple, int] = {}
    for row, rec in records(r):
        gid = rec["group_id"]
        if gid is None:
            continue
        if rec["number"] is not None:
            k = (gid, rec["number"])
            if k in seen_n:
                errs.append(InputError(f"队号 {rec['number']} 在本组重复（另见第{seen_n[k]}行）",
                                       f"team number {rec['number']} repeated (see row {seen_n[k]})",
                                       sheet=sheet, cell=cell_of(r, row, "number")))
            seen_n[k] = row
        k = (gid, rec["name"])
        if k in seen_name:
            errs.append(InputError(f"队名“{rec['name']}”在本组重复（另见第{seen_name[k]}行）",
                                   f"team {rec['name']!r} repeated (see row {seen_name[k]})",
                                   sheet=sheet, cell=cell_of(r, row, "name")))
        seen_name[k] = row
    for g in ev.reg.groups:
        n = int((r["group_id"] == g.id).sum())
        if 0 < n < 2 and g.stages:
            errs.append(InputError(f"{ev.gname(g)}只有 {n} 队报名，无法比赛",
                                   f"{g.name_en or g.id} has only {n} entry", sheet=sheet))
    return errs


class _PeopleView:
    """What :func:`bianpai.addin.commands.eligibility_findings` reads, for a people roster."""

    def __init__(self, ev: CoreEvent):
        self.reg, self.lang = ev.reg, ev.lang
        p = ev.people.copy()
        p.attrs = dict(ev.people.attrs)
        gids = []
        for v in p["group"]:
            g = ev.group_of(v)
            gids.append(g.id if g else None)
        p["group_id"] = gids
        self.roster = p


def _stage_sizes(ev: CoreEvent, g: Group) -> list[tuple[Stage, dict]]:
    """(stage, {pool: entrants}) each stage of ``g`` will have with the roster as it stands: the
    first stage by its pool split, later ones from their entrant rules (places per pool, a
    knockout's survivors)."""
    n = int((ev.roster["group_id"] == g.id).sum())
    out: list[tuple[Stage, dict]] = []
    sizes: dict[str, dict] = {}
    for i, s in enumerate(g.stages):
        if i == 0 and g.sub_entrants is not None:  # each entry plays once in every label's pool
            split = {lab: n for lab in g.sub_entrants.labels}
            sizes[s.id] = split
            out.append((s, split))
            continue
        if s.entrants == "all":
            total = n
        elif not isinstance(s.entrants, list):
            break  # entrants chosen otherwise (e.g. the unseeded only): not modelled here
        else:
            total = 0
            for rule in s.entrants:
                src = sizes.get(rule.from_stage) or {}
                stop = getattr(g.stage(rule.from_stage).format, "stop_when_remaining", None) \
                    if rule.from_stage in sizes else None
                if getattr(rule, "from_roster", None) or getattr(rule, "where", None) \
                        or rule.from_stage not in sizes or isinstance(stop, dict):
                    return out  # a rule this estimate does not model: stop checking here
                if rule.remaining:
                    total += stop or 0
                elif rule.places is not None:
                    span = (rule.places.last or 10**6) - rule.places.first + 1
                    per = [min(span, max(0, c - rule.places.first + 1)) for c in src.values()]
                    total += sum(per) if rule.per_pool else min(span, sum(src.values()))
        labels = s.pools.pool_labels() if s.pools else [None]
        size = -(-total // len(labels)) if total else 0
        split = {lab: max(0, min(size, total - i * size)) for i, lab in enumerate(labels)}
        sizes[s.id] = split
        out.append((s, split))
    return out


def structure_problems(ev: CoreEvent) -> list[InputError]:
    """A field the regulation's stage structure cannot play (七（一）1: three pools of six; 七（二）:
    a knockout that must leave exactly six), found before the first draw and named at the
    group's 报名 rows, instead of a stage that cannot be drawn later."""
    from bianpai.engines.core import StageEntrant, StageState
    errs = []
    r = ev.roster
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    for g in ev.reg.groups:
        rows = list(r.index[r["group_id"] == g.id])
        if len(rows) < 2 or ev.groups[g.id].drawn:
            continue
        where = f"A{rows[0]}:A{rows[-1]}"
        for s, split in _stage_sizes(ev, g):
            st = StageState(entrants=[StageEntrant(number=100 * j + k, pool=p, seed=k)
                                      for j, (p, c) in enumerate(split.items())
                                      for k in range(1, c + 1)])
            problems = []
            try:
                s.format.total_rounds(st)
            except Exception as exc:  # noqa: BLE001 - a format's own refusal, shown as text
                problems.append(getattr(exc, "zh", str(exc)))
            problems += getattr(s.format, "field_problems", lambda _st: [])(st)
            for text in problems:
                errs.append(InputError(
                    f"{ev.gname(g)}报名 {len(rows)} 队，{ev.sname(s)}（{sum(split.values())} 队）无法按规程进行："
                    f"{text}", f"{g.name_en or g.id}: {len(rows)} entries cannot play "
                    f"{s.name_en or s.id} as set", sheet=sheet, cell=where))
            if problems:
                break
    return errs


def _findings(ev: CoreEvent) -> list[tuple[str, InputError]]:
    out = [("error", e) for e in ev.errors + roster_problems(ev) + structure_problems(ev)]
    if ev.people is not None:
        out += c.eligibility_findings(_PeopleView(ev))
    else:
        for g in ev.reg.groups:
            view = _GroupView(ev, g)
            if not view.roster.empty:
                out += team_eligibility_findings(view)
    # a finding about a shared sheet (队员) is found once per group: list it once
    seen: set[tuple] = set()
    unique = []
    for sev, e in out:
        key = (sev, e.where, e.zh)
        if key not in seen:
            seen.add(key)
            unique.append((sev, e))
    return unique


def core_check(port: WorkbookPort):
    """检查名单: roster structure and eligibility of every group → 校验 (sheet!cell per
    finding). Errors block the first draw; warnings need a reason."""
    ev = load_core_event(port)
    problems = _findings(ev)
    rows = c._finding_rows(problems, ev.lang)
    if not rows:
        rows = [["通过" if ev.lang == "zh" else "ok", "", "未发现问题", "no problems found"]]
    c.write_generated(port, L.CHECKS, rows, ev.lang)
    n_err = sum(1 for s, _ in problems if s == "error")
    result = c.CommandResult(
        "check", f"名单检查：{len(ev.roster)} 队，错误 {n_err} 处，警告 {len(problems) - n_err} 处",
        f"roster check: {len(ev.roster)} teams, {n_err} errors, {len(problems) - n_err} warnings",
        findings=[{"severity": s, "where": e.where, "zh": e.zh, "en": e.en} for s, e in problems])
    if n_err:
        result.status_hint = (f"名单有 {n_err} 处错误（首处：{problems[0][1].where}）",
                              "请按“校验”表修改报名/队员表后再点“检查名单”")
    return c.finish(port, result, {}, ev.lang)


# ------------------------------------------------------------------------------ draw

def _scored_or_refuse(ev: CoreEvent) -> None:
    """Raise ``InputErrors`` for every bad cell: those found reading the workbook and those the
    scorings find in the typed results (a seat typed twice, 局分 the table cannot give …)."""
    if not ev.errors:
        for g in ev.reg.groups:
            if ev.groups[g.id].drawn:
                for s in g.stages:
                    ev.results(g, s)
    if ev.errors:
        raise InputErrors(ev.errors)


def _number_teams(ev: CoreEvent, g: Group, seed: int) -> list[dict]:
    """Team numbers by seeded lot (typed numbers kept) and the first stage's pools."""
    r = ev.roster[ev.roster["group_id"] == g.id]
    typed = {int(rec["number"]) for _, rec in records(r) if rec["number"] is not None}
    free = [n for n in range(1, len(r) + 1) if n not in typed]
    rng = rng_for(seed, g.id, "numbers")
    rng.shuffle(free)
    teams = []
    it = iter(free)
    for row, rec in records(r):
        n = int(rec["number"]) if rec["number"] is not None else next(it)
        teams.append(dict(number=n, name=rec["name"], unit=rec["unit"], roster_row=row,
                          seed_rank=rec.get("seed"), _rec=rec))
    teams.sort(key=lambda t: t["number"])
    if g.sub_entrants is not None:
        return _sub_entrant_teams(g, teams)
    first = g.stages[0]
    split = first.pools
    if split is None:
        # positions (the first stage's seeding): typed seeds (种子, 1 = best) first in seed
        # order, then the others in number (lot) order
        order = sorted(teams, key=lambda t: (t["seed_rank"] is None, t["seed_rank"] or 0,
                                             t["number"]))
        for i, t in enumerate(order, start=1):
            t["pool"], t["position"] = None, i
        return teams
    if split.method == "by_column":
        return _pools_by_column(ev, first, teams, rng)
    labels = split.pool_labels()
    k = len(labels)
    if split.method == "snake":
        seeded = sorted([t for t in teams if t["seed_rank"]], key=lambda t: t["seed_rank"])
        rest = [t for t in teams if not t["seed_rank"]]
        rng.shuffle(rest)
        order = seeded + rest
        pools: list[list[dict]] = [[] for _ in labels]
        for i, t in enumerate(order):
            lap, j = divmod(i, k)
            pools[j if lap % 2 == 0 else k - 1 - j].append(t)
    else:
        size = -(-len(teams) // k)
        pools = [teams[i * size:(i + 1) * size] for i in range(k)]
    for lab, members in zip(labels, pools):
        for pos, t in enumerate(members, start=1):
            t["pool"], t["position"] = lab, pos
    return teams


def _pools_by_column(ev: CoreEvent, first: Stage, teams: list[dict], rng) -> list[dict]:
    """PoolSplit ``by_column``: the entrants with value v in the roster column ``by`` dealt by
    the seeded lot into the pools ``labels_by[v]`` (evenly, positions in dealing order); with
    ``entrants: unseeded`` the roster's seeded entrants get no pool (they skip the stage). A
    value with no pools is an error on its cell."""
    split = first.pools
    by, labels_by = split.by or "", split.labels_by or {}
    sheet = ev.roster.attrs.get("sheet", K.ROSTER.zh)
    errs = []
    playing = []
    for t in teams:
        t["pool"], t["position"] = None, None
        if first.entrants == "unseeded" and t["seed_rank"] is not None:
            continue
        v = t["_rec"].get(by)
        v = None if v is None else str(v).strip()
        if v not in labels_by:
            errs.append(InputError(
                f"“{t['name']}”的{by}“{v or ''}”不能分入{ev.sname(first)}的小组（应为："
                + "、".join(labels_by) + "）",
                f"{t['name']}: {by} {v!r} has no pool (expected one of {', '.join(labels_by)})",
                sheet=sheet, cell=cell_of(ev.roster, t["roster_row"], by)))
            continue
        playing.append((v, t))
    if errs:
        raise InputErrors(errs)
    for v, labs in labels_by.items():
        members = [t for w, t in playing if w == v]
        rng.shuffle(members)
        for i, t in enumerate(members):
            t["pool"] = labs[i % len(labs)]
            t["position"] = i // len(labs) + 1
    return teams


def _sub_entrant_teams(g: Group, teams: list[dict]) -> list[dict]:
    """``g.sub_entrants``: each drawn entry ``t`` (of ``n``) plays as parts ``j`` = 0, 1 …,
    numbered ``t + j·n``, in pool ``labels[j]``, named ``队名（names_zh[j]）``."""
    sub = g.sub_entrants
    n = len(teams)
    out = []
    for j, lab in enumerate(sub.labels):
        for t in teams:
            out.append({**t, "number": t["number"] + j * n, "name": f"{t['name']}（{sub.name(j)}）",
                        "pool": lab, "position": t["number"]})
    return out


def _draw_rows(ev: CoreEvent, seed_of: dict[str, int]) -> list[list]:
    rows = []
    for g in ev.reg.groups:
        gs = ev.groups[g.id]
        for n, t in sorted(gs.teams.items()):
            rows.append([ev.gname(g), n, t["name"], t["unit"], t["pool"], t["position"],
                         t["roster_row"], str(seed_of.get(g.id, gs.seed) or "")])
    return rows


def _result_text(ev: CoreEvent, g: Group, s: Stage, m: Match) -> tuple[str, str]:
    if m.is_bye:
        return ("轮空" if ev.lang == "zh" else "bye"), ""
    res = ev.results(g, s).get(m.key)
    if res is None:
        return "", ""
    pts = ":".join(_num(p) for p in res.points)
    note = res.note_zh if ev.lang == "zh" else (res.note_en or res.note_zh)
    w = res.winner
    if w is not None and len(m.entrants) == 2:
        note = (f"{w}号胜" + (f"；{note}" if note else "")) if ev.lang == "zh" else \
            (f"{w} won" + (f"; {note}" if note else ""))
    return pts, note


def _num(v) -> str:
    d = Decimal(str(v))
    return str(int(d)) if d == d.to_integral_value() else f"{d.normalize()}"


def _schedule_rows(ev: CoreEvent, extra: list[tuple[Group, Stage, Match]]) -> list[list]:
    rows = []
    for g in ev.reg.groups:
        for s in g.stages:
            ms = ev.stage_matches(g, s) + [m for gg, ss, m in extra if gg is g and ss is s]
            for m in sorted(ms, key=lambda m: (m.round, str(m.pool or ""), m.table)):
                a, b = (m.sides + (None,))[:2]
                res, note = _result_text(ev, g, s, m)
                rows.append([ev.gname(g), ev.sname(s), m.pool, m.round, m.table, m.label,
                             a, ev.name_of(g, a), b, ev.name_of(g, b) if b is not None else
                             ("轮空" if ev.lang == "zh" else "bye"), res, note])
    return rows


def _sides_text(ev: CoreEvent, g: Group, m: Match) -> str:
    return " 对 ".join(f"{s}号{ev.name_of(g, s)}" if s is not None else "轮空" for s in m.sides)


def _missing_reason(ev: CoreEvent, g: Group, s: Stage, miss: list[Match]) -> InputError:
    where = f"{ev.gname(g)}{ev.sname(s)}"
    lines = []
    for m in miss:
        line = f"{m.pool or ''}{'组' if m.pool else ''}第{m.round}轮第{m.table}桌 {_sides_text(ev, g, m)}"
        typed = ev.typed.get((g.id, s.id, *m.key))
        need = getattr(s.scoring, "extra_games_needed", None)
        if typed is not None and need is not None and need(typed):
            n = len(typed.games) + 1
            line += f"（局分相同，须加赛：在“逐局成绩”加一行，局填 {n}）"
        lines.append(line)
    return InputError(f"{where}尚有 {len(miss)} 场未录入成绩，不能编排下一轮：\n    " + "\n    ".join(lines),
                      f"{g.name_en or g.id} {s.name_en or s.id}: {len(miss)} match(es) without a result",
                      sheet=ev.sheet(ev.lay.results))


def core_draw(port: WorkbookPort, *, seed: int | None = None, accept_warnings: str | None = None):
    """抽签编排: team numbers and pools by seeded lot for every group not yet drawn, then the
    next round of every stage that can go on (asked of the stage's format). Refuses, naming the
    matches, while a stage's drawn rounds lack results; says when a stage is over and
    ``advance`` is the next step. Blank 成绩 / 逐局成绩 rows are added for every new match."""
    ev = load_core_event(port)
    _scored_or_refuse(ev)
    warnings: list[InputError] = []
    # a group without stages (its events run in another workbook, or places typed) is checked,
    # never drawn
    undrawn = [g for g in ev.reg.groups if g.stages and not ev.groups[g.id].drawn
               and (ev.roster["group_id"] == g.id).any()]
    if undrawn:
        found = _findings(ev)
        warnings = c.gate_roster([e for s, e in found if s == "error"],
                                 [(s, e) for s, e in found if s != "error"], accept_warnings)
    seed = c.new_seed() if seed is None else int(seed)
    seed_of: dict[str, int] = {}
    for g in undrawn:
        for t in _number_teams(ev, g, seed):
            ev.groups[g.id].teams[t["number"]] = t
        ev.groups[g.id].seed = seed
        seed_of[g.id] = seed
    new: list[tuple[Group, Stage, Match]] = []
    errs: list[InputError] = []
    notes: list[str] = []
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if not ev.entered(g, s):
                prev = g.stages[g.stages.index(s) - 1]
                if ev.finished(g, prev):
                    notes.append(f"{ev.gname(g)}{ev.sname(prev)}已结束，请运行“进入下一阶段”（bianpai advance）")
                break
            st = ev.state(g, s)
            if s.format.finished(st):
                continue
            try:
                ms = s.format.next_round(st, rng_for(seed, g.id, s.id, st.rounds_drawn() + 1))
            except NotReady as exc:
                miss = ev.missing(g, s)
                errs.append(_missing_reason(ev, g, s, miss) if miss else InputError(
                    exc.zh, exc.en, sheet=ev.sheet(ev.lay.results)))
                break
            new += [(g, s, m) for m in ms]
            break  # one running stage per group at a time (the next waits for advance)
    if errs and not new and not seed_of:
        raise InputErrors(errs)
    for e in errs:  # groups go on independently: one group waiting does not hold the others
        notes.append(e.zh.split("\n")[0].rstrip("：:") + "（未编排）")
    if not new and not seed_of:
        if notes:
            raise RuleError("；".join(notes), "a stage is over: run `bianpai advance`")
        raise RuleError("所有阶段的各轮均已编排；请运行“计算排名”", "every round is drawn; run rank")
    _write_draw(ev, seed_of, new)
    parts: dict[str, int] = {}
    for g, s, m in new:
        k = f"{ev.gname(g)}{ev.sname(s)}第{m.round}轮"
        parts[k] = parts.get(k, 0) + 1
    summary = "；".join(f"{k}（{n} 场）" for k, n in parts.items()) or "抽签完成"
    result = c.CommandResult("draw", f"编排完成：{summary}" + "".join(f"；{n}" for n in notes),
                             f"drawn: {len(new)} matches", seed=seed)
    n_new = sum(1 for _g, _s, m in new if not m.is_bye)
    result.status_hint = (f"{summary}已编排，待录入 {n_new} 场成绩",
                          "在“逐局成绩”表录入后点“抽签编排”编排下一轮（或“计算排名”）")
    if warnings:
        result.summary_zh += f"；已接受 {len(warnings)} 条名单警告，理由：{accept_warnings}"
        result.summary_en += f"; {len(warnings)} roster warnings accepted: {accept_warnings}"
    return c.finish(port, result, {"seed": seed, "accept_warnings": accept_warnings if warnings
                                   else None}, ev.lang)


def _movement_rows(ev: CoreEvent, new) -> tuple[list[list], tuple | None]:
    """移动表 rows of every stage whose format has ``plan(state)`` (all rounds fixed once round 1
    is drawn), by table then round; and the side titles of the first such format."""
    rows, sides = [], None
    for g in ev.reg.groups:
        for s in g.stages:
            plan = getattr(s.format, "plan", None)
            if plan is None or not ev.entered(g, s):
                continue
            st = ev.state(g, s, with_standings=False)
            st.matches = st.matches + [m for gg, ss, m in new if gg is g and ss is s]
            ms = plan(st)
            if ms:
                sides = sides or tuple(getattr(type(s.format), "side_labels", ()))
            for m in sorted(ms, key=lambda m: (str(m.pool or ""), m.table, m.round)):
                a, b = (m.sides + (None,))[:2]
                rows.append([ev.gname(g), ev.sname(s), m.table, m.round, a,
                             ev.name_of(g, a) if a is not None else None, b,
                             ev.name_of(g, b) if b is not None else None, m.label])
    return rows, sides


def write_record(port: WorkbookPort, layout, rows: list[list], lang: str, keys: list[str]) -> None:
    """Write a record sheet (抽签, 晋级) and its hidden copy (the values ``keys`` of each row),
    against which every later command checks it (:func:`bianpai.addin.competition.check_record`)."""
    from bianpai.addin.competition import RECORD_COPIES
    from bianpai.workbooks.port import SheetFormat
    c.write_generated(port, layout, rows, lang)
    idx = [next(i for i, col in enumerate(layout.columns) if col.key == k) for k in keys]
    copy = [keys] + [[("" if r[i] is None else str(r[i])) for i in idx] for r in rows]
    port.write_sheet(RECORD_COPIES[layout.key], copy,
                     SheetFormat(hidden=True, freeze=None, header_fill=None, bold_header=False,
                                 text_columns=list(range(len(keys)))))


def _write_draw(ev: CoreEvent, seed_of: dict[str, int], new) -> None:
    from bianpai.addin.competition import DRAW_KEYS
    port, lang = ev.port, ev.lang
    if seed_of:
        write_record(port, K.DRAW, _draw_rows(ev, seed_of), lang, DRAW_KEYS)
    mrows, sides = _movement_rows(ev, new)
    if mrows:
        c.write_generated(port, K.movement_layout(sides or ev.lay.sides), mrows, lang,
                          break_on=(0, 1, 2))
    c.write_generated(port, K.SCHEDULE, _schedule_rows(ev, new), lang, break_on=(0, 1, 3))
    _append_entry_rows(ev, new)


def _append_entry_rows(ev: CoreEvent, new) -> None:
    port, lang = ev.port, ev.lang
    res_rows, game_rows = [], []
    states: dict[tuple, Any] = {}
    rkeys = [col.key for col in ev.lay.results.columns]
    for g, s, m in new:
        if m.is_bye:
            continue
        key = [ev.gname(g), ev.sname(s), m.pool, m.round, m.table]
        n_res = len(ev.lay.results.columns)
        row = key + [m.sides[0], m.sides[1]] + [None] * (n_res - 7)
        # values the format knows at the draw (几局胜 of this round …)
        prefill = getattr(s.format, "entry_prefill", None)
        if prefill is not None:
            st = states.get((g.id, s.id))
            if st is None:
                st = states[(g.id, s.id)] = ev.state(g, s, with_standings=False)
            for k, v in prefill(m, st).items():
                if k in rkeys:
                    row[rkeys.index(k)] = v
        res_rows.append(row)
        gkeys = [col.key for col in ev.lay.games.columns]
        prepared = s.scoring.entry_rows(m) if hasattr(s.scoring, "entry_rows") else \
            [{} for _ in range(s.scoring.games_per_match)]
        for k, pre in enumerate(prepared, start=1):
            grow = key + [k] + [None] * (len(gkeys) - 6)
            for col, v in pre.items():
                grow[gkeys.index(col)] = v
            game_rows.append(grow)
    for layout, rows in ((ev.lay.results, res_rows), (ev.lay.games, game_rows)):
        if not rows:
            continue
        name = ev.sheet(layout)
        if name not in port.sheet_names():
            port.write_sheet(layout.name(lang), [layout.headers(lang)], layout.sheet_format(lang=lang))
        existing = port.read_values(name)
        last = len(existing)
        while last > 1 and all(v in (None, "") for v in existing[last - 1]):
            last -= 1
        port.append_rows(name, rows, start_row=max(last, 1) + 1)


# ------------------------------------------------------------------------------ advance

def _qualifiers(ev: CoreEvent, g: Group, s: Stage, seed: int) -> tuple[list[dict], list[str]]:
    """Entrants of ``s`` from its rules: ``(rows, waiting)``; ``waiting`` names source stages
    not finished yet. Rules fill the stage in order (the first rule's entrants take the first
    numbers); within a rule the order is its ``positions``."""
    waiting: list[str] = []
    blocks: list[tuple[Any, list[dict]]] = []
    for rule in s.entrants if isinstance(s.entrants, list) else []:
        if rule.from_roster == "seeded":
            blocks.append((rule, _roster_seeded(ev, g, s, rule)))
            continue
        src = g.stage(rule.from_stage)
        if not ev.finished(g, src):
            waiting.append(ev.sname(src))
            continue
        st = ev.state(g, src)
        pl = src.format.placings(st)
        pl = pl[~pl["entrant"].isin(ev.annulled.get((g.id, src.id), set()))]  # never qualify
        if rule.remaining:
            rem = getattr(src.format, "remaining", None)
            keep = set(rem(st)) if rem else set(pl[pl["place"] == pl["place"].min()]["entrant"])
            pl = pl[pl["entrant"].isin(keep)]
        elif rule.places is not None:
            lo, hi = rule.places.first, rule.places.last or 10**6
            if rule.per_pool:
                pl = pl[(pl["place"] >= lo) & (pl["place"] <= hi)]
            else:
                pl = pl.sort_values(["place"], kind="stable")
                pl = pl[(pl["place"] >= lo) & (pl["place"] <= hi)]
        for col, val in (rule.where or {}).items():
            if col not in pl.columns:
                raise RuleError(f"{ev.sname(src)}的名次表没有“{col}”列", f"no placings column {col!r}")
            pl = pl[pl[col].astype(str) == str(val)]
        totals = {}
        if rule.carry_over is not None:
            for p in st.pools():
                tab = st.standings[p]
                totals.update({int(e): v for e, v in zip(tab["entrant"], tab["match_points"])})
        blk = []
        for rec in pl.to_dict("records"):
            carry = Decimal("0")
            if rule.carry_over is not None:
                co = rule.carry_over
                carry = carry_over(totals.get(int(rec["entrant"]), 0), co.fraction, co.plus)
            blk.append(dict(number=int(rec["entrant"]), from_stage=src, from_pool=rec["pool"],
                            from_place=int(rec["place"]), carry=carry,
                            join_round=rule.join_round, positions=rule.positions,
                            clause=rule.clause or s.clause))
        if rule.positions == "seed_by":
            blk = _seed_by(ev, g, s, src, st, rule, blk, seed, len(blocks))
        blocks.append((rule, blk))
    rows = [r for _, blk in blocks for r in blk]
    if waiting or not rows:
        return rows, waiting
    single = len(blocks) == 1
    for i, (rule, blk) in enumerate(blocks):
        if rule.from_roster or rule.positions == "seed_by":
            continue
        if rule.positions == "lot":
            # one rule: the lot of earlier versions (same seed → same numbers)
            rng_for(seed, g.id, s.id, "positions", *(() if single else (i,))).shuffle(blk)
        else:
            pool_order = {p: j for j, p in enumerate(dict.fromkeys(r["from_pool"] for r in blk))}
            blk.sort(key=lambda r: (r["from_place"], pool_order[r["from_pool"]]))
    rows = [r for _, blk in blocks for r in blk]
    labels = s.pools.pool_labels() if s.pools else [None]
    if s.pools is not None and s.pools.method == "snake" and len(blocks) > 1:
        # the first rule's entrants snaked into position 1, 2 … of the pools, the rest (already
        # in lot order) dealt to the pools with the fewest members
        k = len(labels)
        members: list[list[dict]] = [[] for _ in labels]
        first = blocks[0][1]
        for i, r in enumerate(first):
            lap, j = divmod(i, k)
            members[j if lap % 2 == 0 else k - 1 - j].append(r)
        for r in rows[len(first):]:
            members[min(range(k), key=lambda j: (len(members[j]), j))].append(r)
        for lab, ms in zip(labels, members):
            for pos, r in enumerate(ms, start=1):
                r["pool"], r["position"] = lab, pos
        return [r for ms in members for r in ms], waiting
    size = -(-len(rows) // len(labels))
    for i, r in enumerate(rows):
        r["pool"] = labels[i // size]
        r["position"] = i % size + 1
    return rows, waiting


def _roster_seeded(ev: CoreEvent, g: Group, s: Stage, rule) -> list[dict]:
    """``from_roster: seeded``: the roster's entrants with a 种子, in 种子 order (``places``
    caps the range of that order)."""
    gs = ev.groups[g.id]
    seeded = sorted((int(ev.roster_value(g, n, "seed")), n) for n in gs.teams
                    if ev.roster_value(g, n, "seed") is not None)
    lo = rule.places.first if rule.places else 1
    hi = (rule.places.last if rule.places else None) or 10**6
    return [dict(number=n, from_stage=None, from_pool=None, from_place=sd, carry=Decimal("0"),
                 join_round=rule.join_round, positions="seed", clause=rule.clause or s.clause)
            for i, (sd, n) in enumerate(seeded, start=1) if lo <= i <= hi]


def _seed_by(ev: CoreEvent, g: Group, s: Stage, src: Stage, st, rule, blk: list[dict],
             seed: int, index: int) -> list[dict]:
    """``blk`` ordered by ``rule.seed_by``: registered criteria over the source stage's results
    (胜率 …), ``rating`` (报名 等级分, higher first), ``seed`` (报名 种子, smaller first),
    ``lots``; an entrant without a value comes after those with one."""
    from bianpai.engines import core as core_engine  # noqa: PLC0415
    from bianpai.engines.standings import CRITERIA  # noqa: PLC0415
    members = [r["number"] for r in blk]
    rows = core_engine.entrant_rows(st.results.values(), members)
    lot = rng_for(seed, g.id, s.id, "seed_by", index)
    lots = {n: lot.random() for n in sorted(members)}
    keys: dict[int, list] = {n: [] for n in members}
    for name in rule.seed_by or ["lots"]:
        if name == "lots":
            vals, desc = lots, False
        elif name in ("rating", "seed"):
            vals = {n: ev.roster_value(g, n, name) for n in members}
            desc = name == "rating"
        elif name in CRITERIA:
            crit = CRITERIA[name]
            vals, desc = crit.compute(members, rows, {}), crit.descending
        else:
            raise RuleError(f"未知的排序依据“{name}”（{ev.sname(s)}）", f"unknown seed_by key {name!r}")
        for n in members:
            v = vals.get(n)
            keys[n].append((1, 0) if v is None else (0, -Decimal(str(v)) if desc else Decimal(str(v))))
    return sorted(blk, key=lambda r: keys[r["number"]])


def core_advance(port: WorkbookPort, *, seed: int | None = None):
    """进入下一阶段: for every stage whose source stages are finished and whose entrants are not
    yet known, take the qualifiers (places per pool, knockout survivors …) by the regulation's
    rules, give their numbers in the new stage (by seeded lot or by place) and write 晋级 with
    the seed; the next ``draw`` then pairs the new stage's first round."""
    ev = load_core_event(port)
    _scored_or_refuse(ev)
    seed = c.new_seed() if seed is None else int(seed)
    new_rows: list[list] = []
    done, waiting = [], []
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages[1:]:
            if ev.entered(g, s):
                continue
            rows, wait = _qualifiers(ev, g, s, seed)
            if wait:
                waiting.append(f"{ev.gname(g)}{ev.sname(s)}（等待{'、'.join(wait)}结束）")
                break
            for r in rows:
                # the seed the source ranking's lots used, so the places stay as taken
                src = r["from_stage"]
                rseed = ev.stage_seed(g, src) if src is not None else None
                new_rows.append([ev.gname(g), ev.sname(s), r["number"], ev.name_of(g, r["number"]),
                                 r["pool"], r["position"],
                                 ev.sname(src) if src is not None else K.ROSTER.name(ev.lang),
                                 r["from_pool"],
                                 r["from_place"], r["carry"], r["join_round"],
                                 "" if rseed is None else str(rseed), r["clause"]])
            done.append(f"{ev.gname(g)}{ev.sname(s)} {len(rows)} 队")
            break
    if not new_rows:
        raise RuleError("没有可以进入下一阶段的组别：" + ("；".join(waiting) or "各阶段均已开始"),
                        "no stage can be entered yet")
    old = []
    if ev.entries is not None:
        from bianpai.workbooks.tables import find_sheet
        name = find_sheet(port, K.ENTRIES)
        old = [list(r) for r in port.read_values(name)[1:]] if name else []
    from bianpai.addin.competition import ENTRY_KEYS
    write_record(port, K.ENTRIES, old + new_rows, ev.lang, ENTRY_KEYS)
    result = c.CommandResult("advance", "进入下一阶段：" + "；".join(done),
                             f"advanced: {len(new_rows)} qualifiers", seed=seed)
    result.status_hint = ("；".join(done) + " 已进入", "可以抽签编排新阶段第1轮")
    return c.finish(port, result, {"seed": seed}, ev.lang)


# ------------------------------------------------------------------------------ rank

def _standing_rows(ev: CoreEvent, g: Group, s: Stage, crit_cols: list[str]) -> list[list]:
    st = ev.state(g, s)
    rows = []
    placings = None
    for p in st.pools():
        tab = st.standings[p]
        if _is_knockout(s):
            placings = placings if placings is not None else s.format.placings(st)
            pl = placings[placings["pool"].isin([p]) | (placings["pool"].isna() if p is None else False)]
            order = {int(e): (int(pl_), d) for e, pl_, d in zip(pl["entrant"], pl["place"], pl["decided_by"])}
            tab = tab.assign(rank=[order.get(int(e), (None, ""))[0] for e in tab["entrant"]],
                             explanation_zh=[order.get(int(e), (None, ""))[1] for e in tab["entrant"]])
            tab = tab.sort_values("rank", kind="stable")
        for rec in tab.to_dict("records"):
            e = int(rec["entrant"])
            vals = [CRITERIA[k].show(rec.get(k)) if isinstance(rec.get(k), tuple) and k in CRITERIA
                    else rec.get(k) for k in crit_cols]
            expl = rec["explanation_zh"] if ev.lang == "zh" else rec.get("explanation_en", "")
            rows.append([ev.gname(g), ev.sname(s), p, rec["rank"], e, ev.name_of(g, e), ev.unit_of(g, e),
                         rec["played"], rec["won"], rec["drawn"], rec["lost"],
                         *[_cell(v) for v in vals], expl])
    return rows


def _is_knockout(s: Stage) -> bool:
    return s.format.kind in ("single_elimination", "double_elimination")


def _cell(v):
    if v is None or (isinstance(v, float) and v != v):
        return None
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else v
    return v


CROSSTABLE_FORMATS = ("round_robin", "fixture_list")


def _crosstable(ev: CoreEvent) -> list[list]:
    """Rows of 交叉表 for every entered round-robin-like stage (see
    :func:`bianpai.workbooks.core_layouts.crosstable_layout`)."""
    out = []
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if s.format.kind not in CROSSTABLE_FORMATS or not ev.entered(g, s):
                continue
            st = ev.state(g, s)
            for p in st.pools():
                order = sorted(st.pool_entrants(p), key=lambda e: (e.seed or 0, e.number))
                pos = {e.number: i for i, e in enumerate(order, start=1)}
                tab = st.standings[p].set_index("entrant")
                cells: dict[tuple[int, int], list[str]] = {}
                byes: dict[int, list[str]] = {}
                for r in st.results.values():
                    m = r.match
                    if m.pool != p:
                        continue
                    if m.is_bye:
                        for e in m.entrants:
                            byes.setdefault(e, []).append(f"R{m.round}")
                        continue
                    a, b = m.sides[0], m.sides[1]
                    for i, (x, y) in enumerate(((a, b), (b, a))):
                        j = 1 - i
                        txt = f"{_num(r.points[i])}:{_num(r.points[j])}"
                        if "VOID" in r.outcome:
                            txt = "无效" if ev.lang == "zh" else "void"
                        elif r.outcome[i] in ("FW", "FL"):
                            txt += "（弃权）" if ev.lang == "zh" else " (forfeit)"
                        cells.setdefault((x, y), []).append(txt)
                width = len(order)
                for e in order:
                    row = [ev.gname(g), ev.sname(s), p, pos[e.number], e.number,
                           ev.name_of(g, e.number)]
                    row += ["×" if o.number == e.number else "、".join(cells.get((e.number, o.number), []))
                            or None for o in order]
                    row += [None] * (ev.crosstable_width - width)
                    mp = tab.loc[e.number, "match_points"] if "match_points" in tab.columns else None
                    row += ["、".join(byes.get(e.number, [])) or None, _cell(mp),
                            int(tab.loc[e.number, "rank"])]
                    out.append(row)
    return out


def bracket_stages(ev: CoreEvent):
    """``(group, stage, bracket_table)`` of every entered stage whose format draws a bracket."""
    for g in ev.reg.groups:
        if g.derived is not None or not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            table = getattr(s.format, "bracket_table", None)
            if table is not None and ev.entered(g, s):
                yield g, s, table(ev.state(g, s, with_standings=False))


def _bracket_rows(ev: CoreEvent) -> list[list]:
    """Rows of 签表 for every entered stage whose format draws a bracket (``bracket_table``):
    one row per slot, in round and bracket order, names for numbers, 轮空 / 待定 placeholders."""
    out = []
    for g, s, t in bracket_stages(ev):
            t = t.sort_values(["pool", "round", "y", "slot"], key=lambda c: c.astype(str)
                              if c.name == "pool" else c, kind="stable")
            for rec in t.to_dict("records"):
                e = rec["entrant"]
                known = e is not None and e is not pd.NA and not (isinstance(e, float) and e != e)
                out.append([ev.gname(g), ev.sname(s), rec["pool"],
                            rec["round_zh"] if ev.lang == "zh" else rec["round_en"], rec["label"],
                            int(e) if known else None,
                            ev.name_of(g, int(e)) if known else rec["text"], rec["score"] or None,
                            "✓" if rec["won"] else None, rec["next"] or None])
    return out


def _bracket_grid(ev: CoreEvent) -> tuple[int, list[list]]:
    """(rounds, rows) of 签表图: every single-elimination bracket (parts SE and 3rd of
    ``bracket_table``) drawn in cells, a block of rows per stage and pool (see
    :func:`bianpai.workbooks.core_layouts.bracket_grid_layout`)."""
    blocks: list[list[list]] = []
    width = 0
    for g, s, t in bracket_stages(ev):
            t = t[t["part"].isin(["SE", "3rd"])]
            if t.empty:
                continue
            keys = t["pool"].map(lambda v: "" if v is None or v != v else str(v))
            for pool, sub in t.groupby(keys, sort=True):
                main = sub[sub["part"] == "SE"]
                rounds = sorted(main["bracket_round"].unique())
                col_of = {r: i for i, r in enumerate(rounds)}
                width = max(width, len(rounds))
                cells: dict[tuple[int, int], tuple[str, str]] = {}
                for rec in main.to_dict("records"):
                    row = int(2 * rec["y"] - 1 + rec["slot"])
                    cells[(row, col_of[rec["bracket_round"]])] = _grid_text(ev, g, rec)
                n_rows = max((r for r, _ in cells), default=-1) + 1
                third = sub[sub["part"] == "3rd"].to_dict("records")
                if third:
                    cells[(n_rows + 1, 0)] = ("三、四名决赛" if ev.lang == "zh" else "Third place", "")
                    for rec in third:
                        cells[(n_rows + 2 + rec["slot"], 0)] = _grid_text(ev, g, rec)
                    n_rows += 4
                p = pool or None
                block = []
                for r in range(n_rows):
                    row = [ev.gname(g), ev.sname(s), p]
                    for c in range(len(rounds)):
                        name, score = cells.get((r, c), (None, None))
                        row += [name, score]
                    block.append(row)
                blocks.append(block)
    return width, [[*r, *([None] * (3 + 2 * width - len(r)))] for b in blocks for r in b]


def _grid_text(ev: CoreEvent, g: Group, rec: dict) -> tuple[str, str | None]:
    e = rec["entrant"]
    known = e is not None and e is not pd.NA and not (isinstance(e, float) and e != e)
    name = f"{int(e)} {ev.name_of(g, int(e))}" if known else rec["text"]
    return (("✓ " if rec["won"] else "") + name, rec["score"] or None)


def core_final_standings(ev: CoreEvent, g: Group) -> pd.DataFrame | None:
    """The final ranking of a finished group from ``group.final_ranking`` parts (places of the
    named stages, in order; places shared inside a part stay shared). Columns ``place``,
    ``number``, ``source``, ``explanation``, ``ranking`` (the sub-entrant label of a separate
    ranking, else ``None``); ``None`` while a stage is unfinished. A derived group
    (``group.derived``) ranks the source group's entrants by a summed result value."""
    if g.derived is not None:
        d = _derived_standings(ev, g)
        return None if d is None else d.assign(ranking=None)
    if not g.stages or not all(ev.finished(g, s) for s in g.stages):
        return None
    sub = g.sub_entrants
    if sub is not None and sub.separate_rankings:
        teams = ev.groups[g.id].teams
        frames = []
        for lab in sub.labels:
            keep = {n for n, t in teams.items() if t["pool"] == lab}
            frames.append(_final_rows(ev, g, keep).assign(ranking=lab))
        return pd.concat(frames, ignore_index=True)
    return _final_rows(ev, g, None).assign(ranking=None)


def ranking_name(ev: CoreEvent, g: Group, label, *, zh: bool | None = None) -> str:
    """The name of one of a group's final rankings: the group's, or with ``sub_entrants``
    ``组别（南北）`` per label."""
    zh = ev.lang == "zh" if zh is None else zh
    base = g.name_zh if zh else (g.name_en or g.name_zh)
    if label is None or g.sub_entrants is None:
        return base
    j = g.sub_entrants.labels.index(label)
    return f"{base}（{g.sub_entrants.name(j) if zh else label}）"


def _final_rows(ev: CoreEvent, g: Group, keep: set[int] | None) -> pd.DataFrame:
    # without a final_ranking the last stage's places are the group's
    parts = g.final_ranking or [FinalRankPart(from_stage=g.stages[-1].id)]
    rows: list[dict] = []
    seen: set[int] = set()
    for part in parts:
        s = g.stage(part.from_stage)
        st = ev.state(g, s)
        pl = s.format.placings(st).sort_values(["place"], kind="stable")
        lo, hi = part.places.first, part.places.last or 10**6
        pl = pl[(pl["place"] >= lo) & (pl["place"] <= hi)]
        if keep is not None:
            pl = pl[pl["entrant"].isin(keep)]
        base = len(rows)
        for rec in pl.to_dict("records"):
            n = int(rec["entrant"])
            if n in seen:
                continue
            seen.add(n)
            same = [r for r in rows[base:] if r["_p"] == rec["place"]]
            place = same[0]["place"] if same else len(rows) + 1
            rows.append(dict(place=place, number=n, source=ev.sname(s), _p=rec["place"],
                             explanation=f"{ev.sname(s)}{(rec['pool'] or '')}{'组' if rec['pool'] else ''}"
                                         f"第{int(rec['place'])}名"))
    return pd.DataFrame(rows, columns=["place", "number", "source", "explanation"])


def _source_group(ev: CoreEvent, g: Group) -> Group:
    """The group whose entrants ``g`` ranks (itself unless derived)."""
    return ev.reg.group(g.derived.from_group) if g.derived is not None else g


def _derived_standings(ev: CoreEvent, g: Group) -> pd.DataFrame | None:
    """``group.derived``: the source group's entrants by the sum of the result value
    ``derived.value`` over ``derived.stages`` (higher first, equal sums share the place; sums
    ≤ ``min_value`` unranked). ``None`` while one of those stages is unfinished."""
    d = g.derived
    og = ev.reg.group(d.from_group)
    if not ev.groups[og.id].drawn:
        return None
    stages = [og.stage(x) for x in d.stages]
    if not all(ev.finished(og, s) for s in stages):
        return None
    total: dict[int, Decimal] = {}
    for s in stages:
        for r in ev.results(og, s).values():
            vals = r.values.get(d.value)
            if vals is None:
                continue
            for e, v in zip(r.match.sides, vals):
                if e is not None and v is not None:
                    total[int(e)] = total.get(int(e), Decimal(0)) + Decimal(str(v))
    order = sorted(((v, n) for n, v in total.items() if v > d.min_value), key=lambda t: (-t[0], t[1]))
    rows, prev = [], None
    for i, (v, n) in enumerate(order, start=1):
        place = rows[-1]["place"] if prev == v else i
        prev = v
        rows.append(dict(place=place, number=n, source=ev.gname(g),
                         explanation=f"{'、'.join(ev.sname(s) for s in stages)}合计 {_num(v)}"))
    return pd.DataFrame(rows, columns=["place", "number", "source", "explanation"])


def core_rank(port: WorkbookPort, *, seed: int | None = None, upto_round: int | None = None):
    """计算排名: 排名 (every entered stage, per pool: 场数, 胜平负, each criterion of the chain and
    说明), the 对阵 results column, and 总排名 of every finished group. Award sheets built from an
    older ranking are emptied."""
    ev = load_core_event(port)
    _scored_or_refuse(ev)
    if not any(ev.groups[g.id].drawn for g in ev.reg.groups) and \
            any(g.stages for g in ev.reg.groups):
        raise InputErrors([InputError("尚未抽签编排，没有可排名的比赛：请先“抽签编排”",
                                      "nothing is drawn yet: run draw first",
                                      sheet=ev.sheet(K.SCHEDULE))])
    seed = c.new_seed() if seed is None else int(seed)
    crit_cols = [col.key[2:] for col in ev.lay.standings.columns if col.key.startswith("c_")]
    rows, data, final_rows = [], {}, []
    missing = 0
    for g in ev.reg.groups:
        if not ev.groups[_source_group(ev, g).id].drawn:
            continue
        for s in g.stages:
            if not ev.entered(g, s):
                continue
            missing += len(ev.missing(g, s))
            part = _standing_rows(ev, g, s, crit_cols)
            rows += part
            data[f"{ev.gname(g)} {ev.sname(s)}"] = [
                {"pool": r[2], "rank": r[3], "number": r[4], "name": r[5], "played": r[7],
                 "won": r[8], "drawn": r[9], "lost": r[10],
                 **{k: (str(v) if v is not None else None) for k, v in zip(crit_cols, r[11:-1])},
                 "explanation": r[-1]} for r in part]
        fs = core_final_standings(ev, g)
        if fs is not None:
            og = _source_group(ev, g)
            for label in dict.fromkeys(fs["ranking"]):
                title = ranking_name(ev, g, label)
                part = fs[fs["ranking"].isna()] if label is None else fs[fs["ranking"] == label]
                for rec in part.to_dict("records"):
                    final_rows.append([title, rec["place"], rec["number"],
                                       ev.name_of(og, rec["number"]), ev.unit_of(og, rec["number"]),
                                       rec["source"], rec["explanation"]])
                data[f"{title} 总排名"] = [
                    {"place": r[1], "number": r[2], "name": r[3], "source": r[5], "explanation": r[6]}
                    for r in final_rows if r[0] == title]
    for g in ev.reg.groups:  # team groups: 队号/队名 in the terminal and --json ("team")
        if g.entrant == "team":
            for title, recs in data.items():
                if title.startswith(ev.gname(g) + " ") or title.startswith(ev.gname(g) + "（"):
                    for r in recs:
                        if "number" in r:
                            r["team"] = r.pop("number")
    c.write_generated(port, ev.lay.standings, rows, ev.lang, break_on=(0, 1, 2))
    sizes = [len(ev.state(g, s, with_standings=False).pool_entrants(p))
             for g in ev.reg.groups if ev.groups[g.id].drawn for s in g.stages
             if s.format.kind in CROSSTABLE_FORMATS and ev.entered(g, s)
             for p in ev.state(g, s, with_standings=False).pools()]
    if sizes:
        ev.crosstable_width = max(sizes)
        c.write_generated(port, K.crosstable_layout(ev.crosstable_width), _crosstable(ev), ev.lang,
                          break_on=(0, 1, 2))
    c.write_generated(port, K.SCHEDULE, _schedule_rows(ev, []), ev.lang, break_on=(0, 1, 3))
    brackets = _bracket_rows(ev)
    if brackets:
        c.write_generated(port, K.BRACKET, brackets, ev.lang, break_on=(0, 1, 2))
    width, grid = _bracket_grid(ev)
    if grid:
        c.write_generated(port, K.bracket_grid_layout(width), grid, ev.lang, break_on=(0, 1, 2))
    if final_rows:
        c.write_generated(port, K.FINAL, final_rows, ev.lang, break_on=(0,))
    state = f"缺 {missing} 场成绩" if missing else "全部成绩已录入"
    result = c.CommandResult("rank", f"排名完成（{state}）" + ("，总排名已生成" if final_rows else ""),
                             f"standings done ({missing} matches missing)", seed=seed, data=data)
    if c.invalidate_awards(port, ev.lang):
        result.summary_zh += "；排名已变，旧的奖励表已清空，请重新奖励分配"
        result.summary_en += "; the ranking changed: award sheets emptied, run awards again"
    from bianpai.addin.status import core_status_of
    state, nxt = core_status_of(ev, port)
    if state.startswith("全部成绩已录入"):  # what rank itself just wrote
        state, nxt = ("全部成绩已录入，排名已计算",
                      "可以奖励分配" if ev.reg.awards is not None else "可以打印“排名”")
    result.status_hint = (state, nxt)
    return c.finish(port, result, {"round": upto_round, "seed": seed}, ev.lang)


# ------------------------------------------------------------------------------ awards

def core_awards(port: WorkbookPort):
    """奖励分配 from the final ranking of every finished group (the regulation's awards block:
    places, money, tax, certificates). Refuses while a group with awards is unfinished."""
    ev = load_core_event(port)
    if ev.errors:
        raise InputErrors(ev.errors)
    if ev.reg.awards is None:
        raise RuleError("本规程没有奖励设置", "this regulation has no awards")
    parts, entries, errs = [], {}, []
    typed = _typed_places(ev, errs)
    for g in ev.reg.groups:
        og = _source_group(ev, g)
        mine = typed[typed["group"] == g.name_zh] if typed is not None else None
        drawn = ev.groups[og.id].drawn
        if drawn and mine is not None and len(mine):
            errs.append(InputError(f"{ev.gname(g)}已抽签编排，名次由排名生成：请删去“名次录入”中该组别的行",
                                   f"{g.name_en or g.id} is drawn: its places come from the "
                                   f"ranking; remove its Placings rows",
                                   sheet=ev.sheet(L.PLACINGS)))
            continue
        if not drawn:
            # a group without stages (no engine for its format yet), or one played outside
            # the workbook: the places typed in 名次录入
            n = int((ev.roster["group_id"] == g.id).sum())
            if mine is not None and len(mine):
                entries[g.name_zh] = n or len(mine)
                parts.append(mine)
            elif n and not g.stages and g.derived is None:
                errs.append(InputError(f"{ev.gname(g)}没有编排阶段，请在“名次录入”表填写其名次",
                                       f"{g.name_en or g.id} has no stages: type its places in "
                                       f"Placings", sheet=ev.sheet(L.PLACINGS)))
            continue
        fs = core_final_standings(ev, g)
        if fs is None:
            left = [ev.sname(s) for s in og.stages if not ev.finished(og, s)]
            errs.append(InputError(f"{ev.gname(g)}尚未结束（{'、'.join(left)}未完成），不能分配奖励",
                                   f"{g.name_en or g.id} is not over: no awards yet",
                                   sheet=ev.sheet(K.SCHEDULE)))
            continue
        teams = ev.groups[og.id].teams
        for label in dict.fromkeys(fs["ranking"]):
            part = fs[fs["ranking"].isna()] if label is None else fs[fs["ranking"] == label]
            name = ranking_name(ev, g, label, zh=True)
            entries[name] = len(teams) if label is None else \
                sum(1 for t in teams.values() if t["pool"] == label)
            # person_id: one key per entrant across a group and the groups derived from it
            parts.append(pd.DataFrame({
                "group": name, "place": part["place"],
                "entrant_id": [f"{og.id}#{n}" for n in part["number"]],
                "person_id": [f"{og.id}#{n}" for n in part["number"]],
                "name": [ev.name_of(og, n) for n in part["number"]],
                "unit": [ev.unit_of(og, n) for n in part["number"]]}))
    if errs:
        raise InputErrors(errs)
    if not parts:
        raise InputErrors([InputError("还没有可颁奖的组别：请先抽签编排并完成比赛",
                                      "no group has finished yet", sheet=ev.sheet(K.SCHEDULE))])
    return c.write_awards(port, ev.reg, pd.concat(parts, ignore_index=True), entries, ev.lang)


def _typed_places(ev: CoreEvent, errs: list[InputError]) -> pd.DataFrame | None:
    """The typed 名次录入 rows (groups not drawn), read and checked as in the pairs flow
    (:func:`bianpai.addin.commands.typed_placings`); ``None`` when there is no such sheet."""
    from bianpai.workbooks.tables import find_sheet
    if find_sheet(ev.port, L.PLACINGS) is None:
        return None
    out, _ = c.typed_placings(ev.port, ev, errs)
    names = []
    for v in out["group"]:
        g = ev.group_of(v)
        names.append(g.name_zh if g else v)
    out["group"] = names
    return out[["group", "place", "entrant_id", "name", "unit"]]


# ------------------------------------------------------------------------------ withdraw

def core_withdraw(port: WorkbookPort, *, group: str | None = None, team: int | None = None,
                  after_round: int | None = None, annul: bool | None = None, reason: str = ""):
    """退赛: with ``group`` and ``team`` (command line), append the row to the 退赛 sheet (last
    round played default: the last round drawn in the team's stage; 成绩处理 from ``annul``,
    default the regulation's ``withdrawal.results``); then check every 退赛 row and log them
    (the 登记退赛 button does only this, for rows the arbiter typed). A withdrawn team is paired
    no more, its later scheduled matches are forfeits won by the opponents, and its played results
    stay or are void for everyone (取消). Raises ``InputErrors`` for an unknown group/team, a
    round not drawn, or a team withdrawn twice."""
    ev = load_core_event(port)
    if ev.errors:
        raise InputErrors(ev.errors)
    if group is not None or team is not None:
        g = ev.group_of(group)
        if g is None or team is None or int(team) not in ev.groups[g.id].teams:
            raise InputErrors([InputError(
                f"组别“{group}”中没有 {team} 号队（组别应为："
                + "、".join(x.name_zh for x in ev.reg.groups) + "）",
                f"no team {team} in group {group!r}", sheet=ev.sheet(K.DRAW))])
        current = None
        for s in g.stages:
            if ev.entered(g, s) and any(e.number == int(team) for e in ev.stage_entrants(g, s)):
                current = s
        if current is None:
            raise InputErrors([InputError(f"{team} 号队不在任何已开始的阶段中",
                                          f"team {team} is in no running stage", sheet=ev.sheet(K.SCHEDULE))])
        drawn = ev.state(g, current, with_standings=False).rounds_drawn()
        k = drawn if after_round is None else int(after_round)
        if not 0 <= k <= drawn:
            raise InputErrors([InputError(
                f"最后参赛轮次应为 0–{drawn}（{ev.sname(current)}已编排 {drawn} 轮），实际为 {k}",
                f"the last round played must be 0–{drawn}; got {k}", sheet=ev.sheet(K.SCHEDULE))])
        res = None if annul is None else ("取消" if annul else "保留")
        from bianpai.workbooks.tables import find_sheet
        name = find_sheet(port, K.WITHDRAWALS)
        if name is None:
            name = K.WITHDRAWALS.name(ev.lang)
            port.write_sheet(name, [K.WITHDRAWALS.headers(ev.lang)],
                             K.WITHDRAWALS.sheet_format(lang=ev.lang))
            start = 2
        else:
            start = len(port.read_values(name)) + 1
        port.append_rows(name, [[ev.gname(g), int(team), k, res, reason or None, None]],
                         start_row=start)
        ev = load_core_event(port)
        if ev.errors:
            raise InputErrors(ev.errors)
    if not ev.withdrawals:
        raise InputErrors([InputError("“退赛”表没有登记任何退赛", "the Withdrawals sheet is empty",
                                      sheet=ev.sheet(K.WITHDRAWALS))])
    parts = []
    for (gid, sid, n), (k, do_annul, why) in ev.withdrawals.items():
        g = ev.reg.group(gid)
        parts.append(f"{ev.gname(g)}{n}号{ev.name_of(g, n)}{ev.sname(g.stage(sid))}第{k}轮后退赛，"
                     + ("成绩全部取消" if do_annul else "已赛成绩保留") + (f"（{why}）" if why else ""))
    result = c.CommandResult("withdraw", "退赛登记：" + "；".join(parts),
                             f"withdrawals: {len(parts)}")
    return c.finish(port, result, {"group": group, "team": team, "after_round": after_round,
                                   "annul": annul, "reason": reason or None}, ev.lang)
