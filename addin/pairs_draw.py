"""Draw of a pairs round robin workbook: numbers by seeded lot, the Berger schedule (对阵,
hand edits kept), blank 成绩 entry rows.

Reached through :mod:`bianpai.addin.commands` (see :mod:`bianpai.addin.pairs_check`).
"""

from __future__ import annotations

import random

import pandas as pd

from bianpai.addin.command_infra import (CommandResult, _name, finish, gate_roster, new_seed,
                                         write_generated)
from bianpai.addin.event import Event, GroupEntries, entrant_name, load_event, read_draw
from bianpai.addin.pairs_check import ceiling_findings, eligibility_findings, roster_findings
from bianpai.engines.errors import InputError, InputErrors
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import cell_of, find_sheet, read_table, records

def _results_exist(port: WorkbookPort) -> bool:
    for layout, cols in ((L.BOARDS, ("ns_score", "code")), (L.ROUND_SCORES, ("ns_pct", "ew_pct", "status"))):
        if find_sheet(port, layout) is None:
            continue
        df = read_table(port, layout, errors=[])
        if len(df) and df[list(cols)].notna().any(axis=None):
            return True
    return False


def pairs_draw(port: WorkbookPort, *, seed: int | None = None, redraw: bool = False,
         accept_warnings: str | None = None) -> CommandResult:
    """Draw pairing numbers by seeded lot (where the roster gives none) and write the whole
    round-robin schedule: 抽签, 对阵, and blank 成绩 entry rows for every board.

    Refuses (``InputErrors``) while the roster has errors. With an existing draw the numbers are
    kept (the schedule is rebuilt and missing entry rows added); ``redraw=True`` draws again but
    is refused once any result has been typed. ``seed``: the lot's random seed (a fresh one when
    None); it is written to 抽签 and 日志. Roster warnings (e.g. an ID check digit) block the
    draw until accepted with a reason (``accept_warnings``), which goes to 日志.
    """
    ev = load_event(port)
    warnings = gate_roster(ev.errors + roster_findings(ev),
                           ceiling_findings(ev) + eligibility_findings(ev),
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
