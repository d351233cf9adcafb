"""Where the event stands and what to do next, computed from the workbook (no stored state).

:func:`status` reads the workbook through any port — a :class:`~bianpai.workbooks.journal.JournalPort`
at the end of a command, so it sees the command's own writes even on the xlwings remote engine —
and returns the state and the next step in Chinese, e.g. ``("第3轮成绩未录完：缺 2 桌",
"录入成绩后点“计算排名”")``. :func:`write_status` puts them on the 操作 sheet of a macro
workbook (rows :data:`STATUS_ROW` and the one below), writing those two rows only, so the
sheet's buttons are never touched.
"""

from __future__ import annotations

from bianpai.engines.errors import BianpaiError, InputErrors
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import find_sheet
from bianpai.workbooks.xlsm import OPS_SHEET, STATUS_ROW

STATE_LABEL = "当前状态 / Status"
NEXT_LABEL = "下一步 / Next step"


def _rows(port: WorkbookPort, *layouts) -> int:
    """Data rows (below the header) of the first existing sheet among ``layouts``."""
    for layout in layouts:
        name = find_sheet(port, layout)
        if name is not None:
            return max(len(port.read_values(name)) - 1, 0)
    return 0


def _first_error(exc: InputErrors) -> str:
    e = exc.errors[0] if exc.errors else None
    return f"（首处：{e.where} {e.zh.splitlines()[0]}）" if e is not None and e.where else ""


def _finished(port: WorkbookPort, has_awards: bool, standings_layouts) -> tuple[str, str]:
    ranked = _rows(port, *standings_layouts) > 0
    awarded = _rows(port, L.AWARDS) > 0
    if ranked and awarded:
        return "全部成绩已录入，排名与奖励已完成", "可以打印“排名”“奖励”“领奖签收表”“证书”"
    if ranked:
        return ("全部成绩已录入，排名已计算",
                "可以奖励分配" if has_awards else "可以打印“排名”")
    return "全部成绩已录入", "可以计算排名"


def _core_status(port: WorkbookPort) -> tuple[str, str]:
    from bianpai.addin.competition import load_core_event  # noqa: PLC0415

    return core_status_of(load_core_event(port), port)


def core_status_of(ev, port: WorkbookPort) -> tuple[str, str]:
    """Status of a core event already read (:class:`bianpai.addin.competition.CoreEvent`), in
    the words its workbook style declares (:class:`bianpai.workbooks.status_words.StatusWords`)."""
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    words = style_of(ev.reg).status_words
    if ev.errors:  # before "empty": a roster whose 姓名 header was renamed reads as no rows
        if words.check_roster and not any(gs.drawn for gs in ev.groups.values()):
            from bianpai.addin.core_check import roster_errors  # noqa: PLC0415
            errors = roster_errors(ev)  # as many as 检查名单 and the draw name
            return _core_errors(ev, words, errors)
        return _core_errors(ev, words)
    if ev.roster.empty:
        return "报名表为空", "请填写报名表，然后点“检查名单”"
    if not any(g.stages for g in ev.reg.groups):  # every group's places typed (名次录入)
        if _rows(port, L.PLACINGS) == 0:
            return f"已报名 {len(ev.roster)} 行，名次尚未录入", "请在“名次录入”表填写名次，然后点“奖励分配”"
        if _rows(port, L.AWARDS) > 0:
            return "名次已录入，奖励已分配", "可以打印“奖励”“领奖签收表”“证书”"
        return "名次已录入", "可以奖励分配"
    staged = [g for g in ev.reg.groups if g.stages and (ev.roster["group_id"] == g.id).any()]
    drawn = [g for g in staged if ev.groups[g.id].drawn]
    if staged and not drawn:
        if words.check_roster:  # the draw's roster check (eligibility, field size)
            from bianpai.addin.core_check import _findings  # noqa: PLC0415
            found = _findings(ev)
            errors = [e for sev, e in found if sev == "error"]
            if errors:
                return _worded(words.roster_errors or words.errors, n=len(errors),
                               where=_where(errors[0]), first=_first(errors[0]))
            warnings = [e for sev, e in found if sev == "warning"]
            if warnings and words.roster_warnings:
                return _worded(words.roster_warnings, n=len(ev.roster), k=len(warnings))
        if words.undrawn_event:
            return _worded(words.undrawn_event, n=len(ev.roster))
    states, nexts = [], []
    played = False  # a round complete before the first one lacking results (missing_round)
    facts: dict = {}
    for g in ev.reg.groups:
        gs = ev.groups[g.id]
        if not (ev.roster["group_id"] == g.id).any() or not g.stages:
            continue
        if not gs.drawn:
            st, nx = _worded(words.undrawn, group=ev.gname(g))
            states.append(st)
            nexts.append(nx)
            continue
        for i, s in enumerate(g.stages):
            if not ev.entered(g, s):
                if i and ev.finished(g, g.stages[i - 1]):
                    st, nx = _worded(words.stage_done, group=ev.gname(g),
                                     stage=ev.sname(g.stages[i - 1]))
                    states.append(st)
                    nexts.append(nx)
                break
            if ev.finished(g, s):
                continue
            if not ev.started(g, s):  # entrants known (advance), no round drawn yet
                states.append(f"{ev.gname(g)}{ev.sname(s)}已确定 {len(ev.stage_entrants(g, s))} 个参赛者，"
                              f"尚未编排第1轮")
                nexts.append("可以抽签编排")
                break
            miss = ev.missing(g, s)
            if miss and words.missing_round:
                first = min(m.round for m in miss)
                n, partial = _lacking(ev, g, s, [m for m in miss if m.round == first])
                played = played or first > 1
                if "next" not in facts:  # the first one's: the round to draw, or rank after it
                    facts.update(next=first + 1, last=_last_round(ev, g, s, first))
                name = ev.gname(g) if len(drawn) > 1 or not words.group_when_several else ""
                states.append(words.missing_round[0].format(
                    group=name, stage=ev.sname(s), round=first, n=n,
                    note=words.partial_note.format(k=partial) if partial else ""))
                nexts.append(None)
            elif miss:
                st, nx = _worded(words.missing, group=ev.gname(g), stage=ev.sname(s), n=len(miss),
                                 where=_missing_where(miss))
                states.append(st)
                nexts.append(nx)
            else:
                rnd = ev.state(g, s, with_standings=False).rounds_drawn()
                st, nx = _worded(words.round_done, group=ev.gname(g), stage=ev.sname(s),
                                 round=rnd, next=rnd + 1)
                states.append(st)
                nexts.append(nx)
            break
    if states:
        if nexts[0] is None:  # missing_round: the next step depends on whether a round is in
            nxt = words.missing_round[1] if played else words.missing_round[2]
            if facts["last"] and words.missing_last:  # the stage's last round
                nxt = words.missing_last
            nexts[0] = nxt.format(next=facts["next"])
        return "；".join(states), nexts[0]
    from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
    # a style without 总排名 (a single-stage workbook) ranks finally in its 排名
    final = K.FINAL if style_of(ev.reg).final_sheet else ev.lay.standings
    return _finished(port, ev.reg.awards is not None, (final,))


def _missing_where(miss, shown: int = 3) -> str:
    """The first matches lacking results by the 轮次 and 桌号 that 对阵 and 成绩 show them
    under: “（第1轮第2桌、A组第2轮第1桌等）”."""
    names = [f"{m.pool}组" * bool(m.pool) + f"第{m.round}轮第{m.table}桌"
             for m in sorted(miss, key=lambda m: (m.round, m.pool or "", m.table))[:shown]]
    return "（" + "、".join(names) + ("等" if len(miss) > shown else "") + "）"


def _last_round(ev, g, s, rnd: int) -> bool:
    """Whether ``rnd`` is the last round of stage ``s`` (as far as its format can tell)."""
    try:
        return rnd >= (s.format.total_rounds(ev.state(g, s, with_standings=False)) or 0)
    except Exception:  # noqa: BLE001 - a format that cannot tell yet: not the last
        return False


def _lacking(ev, g, s, matches) -> tuple[int, int]:
    """(tables lacking results, of which partly typed) among ``matches`` of one round without
    a score. A table typed in full on its own is held back only by the others (a round is
    matchpointed across its tables, 八（二）): not counted; when every one is, all are."""
    n = partial = 0
    boards = s.scoring.games_per_match
    for m in matches:
        t = ev.typed.get((g.id, s.id, *m.key))
        if t is None or t.empty:
            n += 1
            continue
        keys = [c.key for c in s.scoring.entry_game_columns()]
        got = sum(1 for r in t.game_records() if any(r.get(k) not in (None, "") for k in keys))
        if s.scoring.is_complete(t) or (boards and got >= boards):
            continue
        n += 1
        partial += 1 if got else 0
    return (n or len(matches)), partial


def _worded(pair: tuple[str, ...], **facts) -> tuple[str, str]:
    """(state, next step) of a :class:`~bianpai.workbooks.status_words.StatusWords` entry."""
    return pair[0].format(**facts), pair[1].format(**facts)


def _where(e) -> str:
    return f"（首处：{e.where}）" if getattr(e, "where", None) else ""


def _first(e) -> str:
    return f"（首处：{e.where} {e.zh.splitlines()[0]}）" if getattr(e, "where", None) else ""


def _core_errors(ev, words, errors=None) -> tuple[str, str]:
    """The state of a core event with bad cells (``errors``, default the cells read): the
    style's roster or result wording by the sheet of the first one (the roster sheets: 报名,
    队员 …), else the core's."""
    from bianpai.workbooks.roster_layouts import roster_layout  # noqa: PLC0415
    errors = errors or ev.errors
    e = errors[0]
    rl = roster_layout(ev.reg.roster_layout)
    on_roster = {ev.roster.attrs.get("sheet")} | {find_sheet(ev.port, lay) for lay in rl.sheets}
    pair = (words.roster_errors if getattr(e, "sheet", None) in on_roster - {None}
            else words.result_errors) or words.errors
    return _worded(pair, n=len(errors), where=_where(e), first=_first(e))


def status(port: WorkbookPort) -> tuple[str, str]:
    """``(state_zh, next_zh)`` of the event in ``port``, computed from its sheets.

    Never raises: an unreadable workbook gives a state naming the problem."""
    try:
        if find_sheet(port, L.SETTINGS) is None:
            return "缺少“规程”表", "请用 bianpai new 新建赛事工作簿"
        from bianpai.addin.competition import is_core_workbook  # noqa: PLC0415
        if is_core_workbook(port):
            return _core_status(port)
        return _core_status(port)  # names what it cannot read
    except InputErrors as exc:
        return f"有 {len(exc.errors)} 处输入错误{_first_error(exc)}", "请按提示修改后再点“检查名单”"
    except BianpaiError as exc:
        return f"无法判断状态：{exc.zh}", "请点“检查名单”查看问题"
    except Exception as exc:  # noqa: BLE001 - the status line must never break a command
        return f"无法判断状态（{type(exc).__name__}）", "请点“检查名单”查看问题"


def write_status(port: WorkbookPort) -> tuple[str, str]:
    """Compute :func:`status` and write it into the 操作 sheet (rows ``STATUS_ROW`` and
    ``STATUS_ROW + 1``, columns A–B) when the workbook has one; returns it either way. A command
    that already knows where the event stands leaves it on the port as ``status_hint`` (state,
    next step), and the workbook is not read again for it."""
    hint = getattr(port, "status_hint", None)
    state, nxt = hint if hint else status(port)
    if OPS_SHEET in port.sheet_names():
        port.append_rows(OPS_SHEET, [[STATE_LABEL, state], [NEXT_LABEL, nxt]],
                         start_row=STATUS_ROW)
    return state, nxt
