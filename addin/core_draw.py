"""The competition core's 抽签编排: numbers and pools by seeded lot, the next round of every
group's running stage (asked of its format), the record sheets (抽签, 对阵) and blank entry rows.

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

import functools
import random
from typing import Any


from bianpai.addin import commands as c
from bianpai.addin import core_paper
from bianpai.addin.competition import CoreEvent, load_core_event, rng_for
from bianpai.addin.core_standings import PoolStandings
from bianpai.engines.core import Match, NotReady, StageState
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.templates.schema import Group, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.workbooks.log_summaries import DrawFacts
from bianpai.workbooks.sheet_sets import sheet_set
from bianpai.workbooks.status_words import not_ready_words
from bianpai.addin.core_check import _findings, drawn_roster_errors, roster_errors
from bianpai.addin.core_numbers import _number_teams, _numbers_typed, seed_typed_groups
from bianpai.addin.core_joiners import add_late_entries, runs_beside_next, write_late_entries
from bianpai.addin.core_schedule_rows import (_num, _result_text,  # noqa: F401
                                             _schedule_rows, schedule_row)
from bianpai.addin.core_views import append_core_rows, style_of, write_core_sheet
from bianpai.addin.core_records import write_book_record


# ------------------------------------------------------------------------------ draw

def _scored_or_refuse(ev: CoreEvent, *, brackets: bool = True) -> None:
    """Raise ``InputErrors`` for every bad cell: those found reading the workbook, those the
    scorings find in the typed results (a seat typed twice …), (``brackets``; a draw learns
    it from its next round) a knockout result changed after a later round was drawn from it,
    and a finished stage's result changed after its qualifiers went on (``stale_qualifiers``)."""
    if not ev.errors:
        for g in ev.reg.groups:
            if ev.groups[g.id].drawn:
                for s in g.stages:
                    ev.results(g, s)
        if not ev.errors and brackets:
            from bianpai.addin.core_trust import bracket_conflicts  # noqa: PLC0415
            ev.errors += bracket_conflicts(ev)
        if not ev.errors:  # a finished stage's result changed after its qualifiers went on
            from bianpai.addin.core_trust import stale_qualifiers  # noqa: PLC0415
            ev.errors += stale_qualifiers(ev)
    elif any(ev.groups[g.id].drawn for g in ev.reg.groups):
        # what the scorings refuse in the rows that were read, listed with the reading errors
        from bianpai.addin.core_row_checks import scoring_typed_problems  # noqa: PLC0415
        for g in ev.reg.groups:
            if ev.groups[g.id].drawn:
                for s in g.stages:
                    ev.errors += scoring_typed_problems(ev, g, s)
    if ev.errors:
        raise InputErrors(ev.errors)


def _draw_rows(ev: CoreEvent, seed_of: dict[str, int]) -> list[list]:
    rows, rl = [], roster_layout(ev.reg.roster_layout)
    for g in ev.reg.groups:
        gs = ev.groups[g.id]
        for n, t in sorted(gs.teams.items()):
            rows.append([ev.gname(g), n, t["name"], t["unit"], t["pool"], t["position"],
                         t["roster_row"], rl.typed_seed if _numbers_typed(ev, g)
                         else str(seed_of.get(g.id, gs.seed) or ""),
                         t.get("join_round")])
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


def core_draw(port: WorkbookPort, *, seed: int | None = None, accept_warnings: str | None = None,
              redraw: bool = False):
    """抽签编排 (:func:`drawn`), logged in 日志 and saved."""
    result, args, lang = drawn(port, seed=seed, accept_warnings=accept_warnings, redraw=redraw)
    return c.finish(port, result, args, lang)


def drawn(port: WorkbookPort, *, seed: int | None = None, accept_warnings: str | None = None,
          redraw: bool = False):
    """抽签编排: team numbers and pools by seeded lot for every group not yet drawn, then the
    next round of every stage that can go on (asked of the stage's format). Refuses, naming the
    matches, while a stage's drawn rounds lack results; says when a stage is over and
    ``advance`` is the next step. Blank 成绩 / 逐局成绩 rows are added for every new match.
    ``redraw``: draw the numbers (and the first round) again while nothing is typed
    (:mod:`bianpai.addin.core_redraw`; refused "不能重新抽签" once a result is).
    Returns ``(result, logged arguments, language)``; nothing is logged nor saved yet."""
    ev = load_core_event(port)
    forgot = False
    if redraw:
        from bianpai.addin.core_redraw import refuse_or_forget  # noqa: PLC0415
        forgot = refuse_or_forget(ev)
    # a group without stages (its events run in another workbook, or places typed) is checked,
    # never drawn
    undrawn = [g for g in ev.reg.groups if g.stages and not ev.groups[g.id].drawn
               and (ev.roster["group_id"] == g.id).any()]
    if ev.errors and undrawn:  # the roster's every error at once, as 检查名单 lists them
        ev.errors = roster_errors(ev)
    _scored_or_refuse(ev, brackets=False)  # a changed knockout result: next_round says so
    if not undrawn:  # the roster edited since the first draw (a player put in two teams …)
        errors = drawn_roster_errors(ev)
        if errors:
            raise InputErrors(errors)
    warnings: list[InputError] = []
    if undrawn:
        found = _findings(ev)
        warnings = c.gate_roster([e for s, e in found if s == "error"],
                                 [(s, e) for s, e in found if s != "error"], accept_warnings)
    seed = c.new_seed() if seed is None else int(seed)
    seed_typed_groups(ev, seed)  # the lots of groups whose numbers were typed
    seed_of: dict[str, int] = {}
    lot_rng = random.Random(seed) if roster_layout(ev.reg.roster_layout).lot == "event" else None
    for g in undrawn:
        for t in _number_teams(ev, g, seed, lot_rng):
            ev.groups[g.id].teams[t["number"]] = t
        # every number typed: no lot, 抽签 records 报名表序号 (the ranking lots take the seed)
        ev.groups[g.id].seed = seed
        seed_of[g.id] = roster_layout(ev.reg.roster_layout).typed_seed \
            if _numbers_typed(ev, g) else seed
    from bianpai.addin.core_late import admit_late_entries  # noqa: PLC0415
    new, notes = admit_late_entries(ev)  # roster rows added after the draw (迟到报名)
    late = bool(notes)
    joiners: list[list] = []  # 晋级 rows of entrants joining a running stage now
    errs: list[InputError] = []
    ev_sheets = sheet_set(ev.reg.roster_layout)
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if not ev.entered(g, s):
                prev = g.stages[g.stages.index(s) - 1]
                if ev.finished(g, prev):
                    notes.append(f"{ev.gname(g)}{ev.sname(prev)}已结束，请运行“进入下一阶段”（bianpai advance）")
                break
            # a finished stage is skipped before its pools are ranked (finished() never reads
            # the standings: CoreEvent.finished asks it without them)
            st = ev.state(g, s, with_standings=False)
            if s.format.finished(st):
                continue
            st.standings = PoolStandings(ev, g, s, st)
            # a workbook style whose 对阵 lists the whole stage takes every round at once
            whole = getattr(s.format, "whole_schedule", None) if ev_sheets.schedule_whole else None
            if whole is not None and st.rounds_drawn() >= (s.format.total_rounds(st) or 0):
                break  # every round is in 对阵: the stage waits for its results
            try:
                if not ev.missing(g, s):  # entrants joining at the next round (core_joiners)
                    add_late_entries(ev, g, s, seed, joiners)
                    st = ev.state(g, s)
                ms = whole(st) if whole is not None else \
                    s.format.next_round(st, rng_for(seed, g.id, s.id, st.rounds_drawn() + 1))
            except NotReady as exc:
                if any(r.code == "result_changed" for r in exc.reasons):  # at the result's cell
                    from bianpai.addin.core_trust import bracket_conflicts  # noqa: PLC0415
                    raise InputErrors(bracket_conflicts(ev, [(g, s)])) from None
                miss = ev.missing(g, s)
                errs.append(_missing_reason(ev, g, s, miss) if miss else InputError(
                    *not_ready_words(ev_sheets.status_words, exc.reasons),
                    sheet=ev.sheet(ev.lay.results)))
                if not runs_beside_next(g, s):
                    break
                continue
            except RuleError as exc:  # this group cannot go on (say which); the others can
                n = st.rounds_drawn() + 1
                errs.append(InputError(
                    f"{ev.gname(g)}{ev.sname(s)}第{n}轮无法编排：{exc.zh.removeprefix('无法编排：')}",
                    f"{g.name_en or g.id} {s.name_en or s.id} round {n}: {exc.en}",
                    sheet=ev.sheet(K.SCHEDULE)))
                if not runs_beside_next(g, s):
                    break
                continue
            new += [(g, s, m) for m in ms]
            # pools drawn on while another waits for results: say which (one pool draws
            # only once nothing is missing)
            if ms and len(st.pools()) > 1 and (miss := ev.missing(g, s)):
                errs.append(_missing_reason(ev, g, s, miss))
            if not runs_beside_next(g, s):
                break  # one running stage per group at a time (the next waits for advance)
    if errs and not new and not seed_of:
        raise InputErrors(errs)
    for e in errs:  # groups go on independently: one group waiting does not hold the others
        head, *lines = e.zh.split("\n")
        listed = "；".join(x.strip() for x in lines if x.strip())  # the matches still missing
        notes.append(head.rstrip("：:") + (f"（{listed}）" if listed else "") + "（未编排）")
    relisted = _unlisted(ev)
    # a style whose 对阵 lists the whole event re-lists it on every press (the drawn 对阵 is the
    # record: a hand edit is kept and named), instead of refusing that everything is drawn
    refresh = ev_sheets.schedule_whole and ev_sheets.draw_summary is not None and not errs \
        and any(ev.groups[g.id].drawn for g in ev.reg.groups)
    if not new and not seed_of and not relisted and not refresh:
        if not any(ev.groups[g.id].drawn for g in ev.reg.groups) and \
                any(g.stages for g in ev.reg.groups) and not notes:
            raise InputErrors([_nothing_to_draw(ev)])
        if notes:
            exc = RuleError("；".join(notes), "a stage is over: run `bianpai advance`")
            # what to press next, for a caller that drives the commands (the demo, a front)
            exc.next_command = "advance" if any("bianpai advance" in n for n in notes) else None
            raise exc
        done = RuleError("所有阶段的各轮均已编排；请运行“计算排名”", "every round is drawn; run rank")
        done.next_command = "rank"
        raise done
    # a name corrected in 报名 (RosterLayout.name_parts) is written into 抽签 too
    if forgot:  # the blank entry rows of the draw made again
        from bianpai.addin.core_redraw import clear_entry_rows  # noqa: PLC0415
        clear_entry_rows(ev)
        notes.append("已重新抽签（此前未录入任何成绩）")
    added = _write_draw(ev, seed_of, new, rewrite_draw=late or bool(ev.corrections))
    if joiners:
        write_late_entries(ev, joiners)
    core_notes = list(notes)
    if relisted:  # tables a hand edit of 对阵 gave other pairs: their entry rows
        added += _append_entry_rows(ev, relisted)
        notes.append(f"对阵已手工调整：{'、'.join(f'{ev.gname(g)}第{m.round}轮第{m.table}桌' for g, _s, m in relisted)}"
                     f"，已为其新增成绩行")
    parts: dict[str, list[int]] = {}  # matches to play, byes (a bye is no 场 to play)
    for g, s, m in new:
        k = f"{ev.gname(g)}{ev.sname(s)}第{m.round}轮"
        parts.setdefault(k, [0, 0])[1 if m.is_bye else 0] += 1
    summary = "；".join(f"{k}（{n} 场{f'，轮空 {b}' if b else ''}）"
                       for k, (n, b) in parts.items()) or "抽签完成"
    byes = sum(b for _n, b in parts.values())
    result = c.CommandResult("draw", f"编排完成：{summary}" + "".join(f"；{n}" for n in notes),
                             f"drawn: {len(new) - byes} matches"
                             + (f", {byes} byes" if byes else ""), seed=seed)
    if style_of(ev.reg).draw_summary is not None:  # the workbook style's own sentence
        facts = _draw_facts(ev, new, seed_of, added, relisted, core_notes)
        result.summary_zh, result.summary_en = style_of(ev.reg).draw_summary(facts)
        result.facts = facts  # for a style whose advance logs the draw it made (core_advance)
        if style_of(ev.reg).seed_only_with_lots:
            result.seed = seed if _lots(seed_of) else None
    n_new = sum(1 for _g, _s, m in new if not m.is_bye)
    # a press that only listed the whole-event 对阵 again (no match, lot, late entrant or
    # re-paired table new): a caller chaining presses (the demo) tells it from a new round
    result.data["relisted_only"] = bool(refresh and not new and not seed_of and not relisted
                                        and not joiners and not forgot)
    # the drawn workbook's event, read after the draw's writes with what was typed as this
    # event read it (the draw adds blank entry rows only); a redraw cleared the entry rows:
    # read afresh then
    result.event_after = functools.cache(lambda: load_core_event(port) if forgot
                                         else load_core_event(port, typed_from=ev))
    if style_of(ev.reg).status_words.missing_round is None:
        result.status_hint = (f"{summary}已编排，待录入 {n_new} 场成绩",
                              "在“成绩”或“逐局成绩”表录入后点“抽签编排”编排下一轮（或“计算排名”）")
    else:  # the status of the drawn workbook, in the style's words (第1轮成绩未录完 …)
        result.status_event = result.event_after
    log_corrections(ev, result)
    if warnings:
        result.summary_zh += f"；已接受 {len(warnings)} 条名单警告，理由：{accept_warnings}"
        result.summary_en += f"; {len(warnings)} roster warnings accepted: {accept_warnings}"
    return result, {"seed": seed, "redraw": redraw or None,
                    "accept_warnings": accept_warnings if warnings else None}, ev.lang


def _nothing_to_draw(ev: CoreEvent) -> InputError:
    """Nothing drawn and no entrant of a group with stages: the roster is empty (or names only
    groups whose places are typed), not "every round is drawn"."""
    rl = roster_layout(ev.reg.roster_layout)
    sheet = ev.sheet(rl.table)
    return InputError(f"“{sheet}”表中没有可抽签的参赛者（报名表为空）：请先填写报名，然后点“检查名单”",
                      f"{sheet} has no entrant to draw (the roster is empty): fill it in, then "
                      f"check", sheet=sheet, cell="A2")


def log_corrections(ev: CoreEvent, result) -> None:
    """The 报名 names corrected after the draw (``ev.corrections``), added to the command's
    日志 summary once: a correction 日志 already has (a rank before the next draw rewrites
    抽签 with it) is not said again."""
    from bianpai.workbooks import layouts as L  # noqa: PLC0415
    from bianpai.workbooks.tables import find_sheet  # noqa: PLC0415
    name = find_sheet(ev.port, L.LOG)
    logged = "\n".join(str(v) for row in (ev.port.read_values(name) if name else [])
                       for v in row if v is not None)
    new = [(zh, en) for zh, en in ev.corrections if zh not in logged]
    if new:
        result.summary_zh += "；" + "；".join(zh for zh, _en in new)
        result.summary_en += "; " + "; ".join(en for _zh, en in new)


def _draw_facts(ev: CoreEvent, new, seed_of: dict[str, int], added: int, relisted,
                notes: list[str]) -> DrawFacts:
    """The facts of the draw for the workbook style's own 日志 sentence
    (``SheetSet.draw_summary``)."""
    drawn = [g for g in ev.reg.groups if ev.groups[g.id].drawn and g.stages]
    parts: dict[tuple, list] = {}
    for g, s, m in new:
        ko = s.format.kind == "knockout" and m.label
        parts.setdefault((ev.sname(s), m.round), []).extend([m.label] if ko else [])
    return DrawFacts(
        groups=len(drawn), tables=len(_schedule_rows(ev, new)), rows_added=added,
        lots_drawn=_lots(seed_of),
        kept_seeds=tuple(sorted({roster_layout(ev.reg.roster_layout).typed_seed
                                 if _numbers_typed(ev, g) else ev.groups[g.id].seed
                                 for g in drawn if ev.groups[g.id].seed}, key=str)),
        edited=tuple((ev.gname(g), m.round, m.table) for g, _s, m in _edited(ev, relisted)),
        notes=tuple(notes), new_tables=len(new),
        parts=tuple((name, rnd, tuple(labels)) for (name, rnd), labels in parts.items()))


def _edited(ev: CoreEvent, relisted) -> list[tuple[Group, Stage, Match]]:
    """The tables of 对阵 an arbiter changed by hand: those re-listed by this press and those
    whose sides differ from what the stage format's whole schedule (``whole_schedule``, a
    position schedule such as a Berger table) gives the drawn positions — the entry rows
    retyped by hand too. In group, stage, round and table order."""
    keyed = {(g.id, s.id, m.key): (g, s, m) for g, s, m in relisted}
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            whole = getattr(s.format, "whole_schedule", None)
            drawn = ev.stage_matches(g, s) if whole is not None else []
            if not drawn:
                continue
            try:
                planned = {m.key: m.sides for m in
                           whole(StageState(entrants=ev.stage_entrants(g, s)))}
            except RuleError:
                continue
            for m in drawn:
                if planned.get(m.key, m.sides) != m.sides:
                    keyed.setdefault((g.id, s.id, m.key), (g, s, m))
    order = {g.id: (i, {s.id: j for j, s in enumerate(g.stages)})
             for i, g in enumerate(ev.reg.groups)}
    return [gsm for _k, gsm in sorted(keyed.items(), key=lambda kv: (
        order[kv[0][0]][0], order[kv[0][0]][1][kv[0][1]], kv[1][2].round,
        str(kv[1][2].pool or ""), kv[1][2].table))]


def _unlisted(ev: CoreEvent) -> list[tuple[Group, Stage, Match]]:
    """Drawn matches without any entry row, when the workbook style's game rows name their
    sides (a hand edit of 对阵 gave a table other pairs: the rows of the earlier pairing are left
    aside, and the new pairing needs its own). Empty for other styles."""
    view = style_of(ev.reg).view(ev.reg, ev.lay.games.key)
    if view is None or view.sides is None:
        return []
    out = []
    for g in ev.reg.groups:
        for s in g.stages:
            for m in ev.stage_matches(g, s):
                if not m.is_bye and (g.id, s.id, *m.key) not in ev.typed:
                    out.append((g, s, m))
    return out


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
            # a pair's number here is its direction number (80分规则 一5: 南北1号对东西1号在第1桌 —
            # NS k sits at table k, EW k starts there), when the format numbers them so
            seat_no: list[dict] = [{}, {}]
            numbering = getattr(s.format, "numbering", None)
            if ms and numbering is not None:
                for j, by_table in enumerate(numbering(st)):
                    seat_no[j] = {e: t for t, e in by_table.items() if e is not None}
            for m in sorted(ms, key=lambda m: (str(m.pool or ""), m.table, m.round)):
                a, b = (m.sides + (None,))[:2]
                rows.append([ev.gname(g), ev.sname(s), m.table, m.round, seat_no[0].get(a, a),
                             ev.name_of(g, a) if a is not None else None, seat_no[1].get(b, b),
                             ev.name_of(g, b) if b is not None else None, m.label])
    return rows, sides


def write_record(port: WorkbookPort, layout, rows: list[list], lang: str, keys: list[str]) -> None:
    """Write a record sheet (抽签, 晋级) and its hidden copy (the values ``keys`` of each row),
    against which every later command checks it (:func:`bianpai.addin.competition.check_record`)."""
    from bianpai.addin.core_records import RECORD_COPIES, record_values
    from bianpai.workbooks.port import SheetFormat
    c.write_generated(port, layout, rows, lang)
    copy = [keys] + record_values(layout, rows, keys)
    port.write_sheet(RECORD_COPIES[layout.key], copy,
                     SheetFormat(hidden=True, freeze=None, header_fill=None, bold_header=False,
                                 text_columns=list(range(len(keys)))))


def _lots(seed_of: dict) -> bool:
    """Whether a lot was drawn (a group's numbers not all typed)."""
    return any(not isinstance(v, str) for v in seed_of.values())  # else 报名表序号 …


def _write_draw(ev: CoreEvent, seed_of: dict[str, int], new, rewrite_draw: bool = False) -> int:
    from bianpai.addin.competition import DRAW_KEYS
    port, lang = ev.port, ev.lang
    if seed_of or rewrite_draw:
        rows = _draw_rows(ev, seed_of)
        if style_of(ev.reg).record_copies:
            write_record(port, K.DRAW, rows, lang, DRAW_KEYS)
        else:  # a style whose sheets are fixed keeps the record as a document property
            write_core_sheet(port, ev.reg, K.DRAW, rows, lang)
            write_book_record(port, K.DRAW, rows, DRAW_KEYS)
    mrows, sides = _movement_rows(ev, new)
    if mrows:
        c.write_generated(port, K.movement_layout(sides or ev.lay.sides), mrows, lang,
                          break_on=(0, 1, 2))
    write_core_sheet(port, ev.reg, K.SCHEDULE, _schedule_rows(ev, new), lang, break_on=(0, 1, 3))
    if any(getattr(s.format, "bracket_table", None) is not None
           or callable(getattr(s.format, "frame", None)) for _g, s, _m in new):
        from bianpai.addin.core_sheets import write_brackets  # noqa: PLC0415
        write_brackets(ev, new)  # 签表 / 签表图 with the round just drawn
    added = _append_entry_rows(ev, new)
    if style_of(ev.reg).round_papers:
        core_paper.write_round_papers(ev, new)  # 桌卡, 记分单 of the new round
    return added


def _append_entry_rows(ev: CoreEvent, new) -> int:
    """Blank entry rows of the new matches; the number of game rows added."""
    port, lang = ev.port, ev.lang
    res_rows, res_sides, game_rows, game_sides = [], [], [], []
    states: dict[tuple, Any] = {}
    rkeys = [col.key for col in ev.lay.results.columns]
    # a scoring comparing a board across tables (guandan pairs) takes no board rows from a
    # round with fewer tables: that table's result is typed per round (轮成绩) instead
    tables: dict[tuple, int] = {}
    only_results: list[tuple[list, dict]] = []  # such a match: its 轮成绩 row, always
    for g, s, m in new:
        if not m.is_bye:
            k = (g.id, s.id, m.pool, m.round)
            tables[k] = tables.get(k, 0) + 1
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
        res_sides.append({"side0": m.sides[0], "side1": m.sides[1], "label": m.label})
        gkeys = [col.key for col in ev.lay.games.columns]
        prepared = s.scoring.entry_rows(m) if hasattr(s.scoring, "entry_rows") else \
            [{} for _ in range(s.scoring.games_per_match)]
        if tables[(g.id, s.id, m.pool, m.round)] < getattr(s.scoring, "games_need_tables", 1):
            prepared = []
            only_results.append((row, res_sides[-1]))
        from bianpai.addin.core_lineups import last_lineups  # noqa: PLC0415
        lineups = last_lineups(ev, g, s, m)  # 出场名单 not handed in: last round's (a setting)
        for k, pre in enumerate(prepared, start=1):
            grow = key + [k] + [None] * (len(gkeys) - 6)
            for col, v in pre.items():
                grow[gkeys.index(col)] = v
            for col, names in lineups.items():
                if k in names:
                    grow[gkeys.index(col)] = names[k]
            game_rows.append(grow)
            game_sides.append({"side0": m.sides[0], "side1": m.sides[1], "label": m.label})
    # through the workbook style's views (its own columns; the sides on every board row)
    if not append_core_rows(port, ev.reg, ev.lay.results, res_rows, lang, extra=res_sides) \
            and only_results:
        append_core_rows(port, ev.reg, ev.lay.results, [r for r, _ in only_results], lang,
                         extra=[x for _, x in only_results], always=True)
    append_core_rows(port, ev.reg, ev.lay.games, game_rows, lang, extra=game_sides)
    return len(game_rows)
