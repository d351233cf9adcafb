"""The competition core's 计算排名, 奖励分配 and 退赛 commands.

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from bianpai.addin import commands as c
from bianpai.addin import core_paper
from bianpai.addin.competition import CoreEvent, load_core_event
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks.log_summaries import RankFacts
from bianpai.workbooks.port import WorkbookPort
from bianpai.addin.core_draw import _schedule_rows, _scored_or_refuse, log_corrections
from bianpai.addin.core_places import (PLACE_KEYS, _award_places, _has_awards,  # noqa: F401
                                      _place_key, final_sheet_rows, stale_ranking)
from bianpai.addin.core_views import style_of, write_core_sheet
from bianpai.addin.core_stage_sheets import stage_cut, write_stage_standings
from bianpai.addin.core_sheets import (CROSSTABLE_FORMATS, write_brackets,
                                       _crosstable, _source_group, _standing_rows,
                                       core_final_standings, ranking_name)


def core_rank(port: WorkbookPort, *, seed: int | None = None, upto_round: int | None = None):
    """计算排名: 排名 (every entered stage, per pool: 场数, 胜平负, each criterion of the chain and
    说明), the 对阵 results column, and 总排名 of every finished group. Award sheets built from an
    older ranking are emptied; they are kept when the places the awards were given by are
    unchanged (:func:`_award_places`: 总排名, or 排名 when the style writes no 总排名): a second
    press, or ``upto_round`` (a look at an earlier round) that leaves those places as they were."""
    ev = load_core_event(port)
    style = style_of(ev.reg)
    kept_places = _award_places(port, ev)  # before anything is rewritten
    _scored_or_refuse(ev)
    if not any(ev.groups[g.id].drawn for g in ev.reg.groups) and \
            any(g.stages for g in ev.reg.groups):
        raise InputErrors([InputError("尚未抽签编排，没有可排名的比赛：请先“抽签编排”",
                                      "nothing is drawn yet: run draw first",
                                      sheet=ev.sheet(K.SCHEDULE))])
    last = 0
    if upto_round is not None:  # standings after a round that was drawn
        last = max((m.round for g in ev.reg.groups if ev.groups[g.id].drawn for s in g.stages
                    for m in ev.stage_matches(g, s)), default=0)
        if not 1 <= int(upto_round) <= last:
            raise InputErrors([InputError(
                f"--round {upto_round} 超出已编排的轮次：应为 1–{last}",
                f"--round {upto_round} is outside the drawn rounds: 1–{last}",
                sheet=ev.sheet(K.SCHEDULE))])
    given, seed = seed, _rank_seed(ev, seed)
    from bianpai.addin.core_numbers import seed_typed_groups  # noqa: PLC0415
    seed_typed_groups(ev, seed)  # numbers typed, no lot: the ranking lots take this seed
    crit_cols = [col.key[2:] for col in ev.lay.standings.columns if col.key.startswith("c_")]
    rows, data, final_rows, extras = [], {}, [], []
    per_stage: list[tuple] = []  # (group, stage, round cut, rows, extras) for 排名-‹阶段›
    missing = 0
    for g in ev.reg.groups:
        if not ev.groups[_source_group(ev, g).id].drawn:
            continue
        for s in g.stages:
            if not ev.entered(g, s):
                continue
            missing += len(ev.missing(g, s))
            cut, pextras = stage_cut(ev, g, s, upto_round), []
            part = _standing_rows(ev, g, s, crit_cols, None if cut is None else
                                  core_paper.state_after(ev, g, s, cut), pextras)
            rows += part
            extras += pextras
            per_stage.append((g, s, cut, part, pextras))
            # a single-stage style names its rankings by group alone, criteria as numbers
            plain = style_of(ev.reg).plain_data
            # a countback sequence whole, as numbers (the sheet shows its first values only)
            raw = pextras if len(pextras) == len(part) else [{}] * len(part)
            data[ev.gname(g) if plain else f"{ev.gname(g)} {ev.sname(s)}"] = [
                {"pool": r[2], "rank": r[3], "number": r[4], "name": r[5], "played": r[7],
                 "won": r[8], "drawn": r[9], "lost": r[10],
                 **{k: [_json_value(y) for y in x[f"c_{k}"]]
                    if isinstance(x.get(f"c_{k}"), tuple) else _json_value(v)
                    for k, v in zip(crit_cols, r[11:-1])},
                 "explanation": r[-1]} for r, x in zip(part, raw)]
        fs = core_final_standings(ev, g)
        if fs is not None:
            for title, part in final_sheet_rows(ev, g, fs):
                final_rows += part
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
    from bianpai.addin.core_playoffs import (explain_playoffs, playoff_offers,  # noqa: PLC0415
                                             prepare_playoff_rows)
    offers = playoff_offers(ev)
    explain_playoffs(ev, offers, rows)
    # play-off rows explained above keep their place: extras follow the rows one to one
    if style.stage_standings is not None:  # one sheet per stage (排名-‹阶段›)
        write_stage_standings(ev, per_stage)
    else:
        write_core_sheet(port, ev.reg, ev.lay.standings, rows, ev.lang, break_on=(0, 1, 2),
                         extra=extras if len(extras) == len(rows) else None)
    sizes = [len(ev.state(g, s, with_standings=False).pool_entrants(p))
             for g in ev.reg.groups if ev.groups[g.id].drawn for s in g.stages
             if s.format.kind in CROSSTABLE_FORMATS and ev.entered(g, s)
             for p in ev.state(g, s, with_standings=False).pools()]
    if sizes and style.crosstable:
        ev.crosstable_width = max(sizes)
        xextras: list[dict] = []
        xrows = _crosstable(ev, xextras)
        from bianpai.engines.standings import CRITERIA  # noqa: PLC0415
        mains = {s.tie_breaks.criteria[0] for g in ev.reg.groups for s in g.stages
                 if s.tie_breaks and s.format.kind in CROSSTABLE_FORMATS}
        main = CRITERIA.get(next(iter(mains))) if len(mains) == 1 else None
        points = (main.label_zh, main.label_en) if main is not None else ("场分", "Match points")
        write_core_sheet(port, ev.reg, K.crosstable_layout(ev.crosstable_width, points), xrows,
                         ev.lang, extra=xextras, break_on=(0, 1, 2))
    write_core_sheet(port, ev.reg, K.SCHEDULE, _schedule_rows(ev, []), ev.lang, break_on=(0, 1, 3))
    write_brackets(ev)
    if style.entrant_rounds:  # e.g. 成绩汇总: one row per entrant and round
        from bianpai.addin.core_sheets import entrant_round_rows  # noqa: PLC0415
        from bianpai.workbooks.sheet_sets import ENTRANT_ROUNDS  # noqa: PLC0415
        erows, eextras = entrant_round_rows(ev)
        write_core_sheet(port, ev.reg, ENTRANT_ROUNDS, erows, ev.lang, extra=eextras)
    if final_rows and style.final_sheet:
        write_core_sheet(port, ev.reg, K.FINAL, final_rows, ev.lang, break_on=(0,))
    if style.rank_papers:
        core_paper.write_rank_papers(ev, upto_round)  # 成绩公告, 排名走势
    added = prepare_playoff_rows(ev, offers)
    state = f"缺 {missing} {style.status_words.match_word}成绩" if missing else "全部成绩已录入"
    upto = "" if upto_round is None else f"第{int(upto_round)}轮后"
    result = c.CommandResult("rank", f"{upto}排名完成（{state}）" + ("，总排名已生成" if final_rows else ""),
                             ("" if upto_round is None else f"standings after round {upto_round} ")
                             + f"done ({missing} matches missing)", seed=seed, data=data)
    if style.rank_summary is not None:  # the workbook style's own sentence
        total = sum(1 for g in ev.reg.groups if ev.groups[_source_group(ev, g).id].drawn
                    for s in g.stages if ev.entered(g, s)
                    for m in ev.stage_matches(g, s) if not m.is_bye)
        tabled = [(g, s) for g in ev.reg.groups for s in g.stages if ev.entered(g, s)
                  and not getattr(s.format, "ranks_by_placings", False)]
        later = [(g, s) for g, s in tabled if g.stages.index(s) > 0]
        result.summary_zh, result.summary_en = style.rank_summary(RankFacts(
            upto_round=None if upto_round is None else int(upto_round), missing=missing,
            any_result=missing < total, final=bool(final_rows),
            stages=tuple(ev.sname(s) for _g, s in (later or tabled[:1]))))
    if offers:
        result.summary_zh += (f"；{len(offers)} 场须加赛（排名各项相同）"
                              + (f"，已在“逐局成绩”备好 {added} 行" if added else "")
                              + "，录入后请重新计算排名")
        result.summary_en += f"; {len(offers)} ranking play-off(s) to type in Games, then rank again"
    # the awards stay while the places they were given by stay (rank again, --round N)
    now = [_place_key(r) for r in final_rows] if style.final_sheet else _award_places(port, ev)
    if kept_places == now:
        if upto_round is not None and style.final_sheet and _has_awards(port):
            result.summary_zh += "；总排名未变，奖励表保留（--round 只查看该轮后的排名）"
            result.summary_en += "; the final ranking is unchanged: award sheets kept"
    elif c.invalidate_awards(port, ev.lang):
        result.summary_zh += "；排名已变，旧的奖励表已清空，请重新奖励分配"
        result.summary_en += "; the ranking changed: award sheets emptied, run awards again"
    log_corrections(ev, result)
    warned = _stage_warnings(ev)
    typed_places: list[InputError] = []  # 名次录入: rank does not use it, awards will refuse it
    if ev.reg.awards is not None:
        try:
            _typed_places(ev, typed_places)
        except InputErrors as exc:
            typed_places += exc.errors
    warned += [f"{e.where} {e.zh}（奖励分配前请改正）" for e in typed_places]
    if warned:  # a scoring's checks that do not refuse (typed numbers that do not add up)
        result.summary_zh += "；请核对（警告）：" + "；".join(warned)
        result.summary_en += f"; {len(warned)} warning(s): check them"
        result.findings = [{"severity": "warning", "zh": w, "en": "",
                            "where": w.split(" ")[0] if "!" in w.split(" ")[0] else ""}
                           for w in warned]
    from bianpai.addin.status import core_status_of
    state, nxt = core_status_of(ev, port)
    if state.startswith("全部成绩已录入"):  # what rank itself just wrote
        state, nxt = ("全部成绩已录入，排名已计算",
                      "可以奖励分配" if ev.reg.awards is not None else "可以打印“排名”")
    if upto_round is not None and int(upto_round) < last:  # a look back: 排名 is not current
        state, nxt = (f"排名表为第{int(upto_round)}轮后的排名（查看用，非当前排名）",
                      "查看后请点“计算排名”（不指定轮次）恢复当前排名，再奖励分配或打印")
    result.status_hint = (state, nxt)
    return c.finish(port, result, {"round": upto_round, "seed": given}, ev.lang)


def _number(v):
    """A criterion value for JSON: an int when whole, else a float (6, 1.5)."""
    d = Decimal(str(v))
    return int(d) if d == d.to_integral_value() else float(d)


def _json_value(v):
    """A criterion value for ``rank --json``: a number when it is one (every style alike: 6,
    262.25, 0.6364), else its text (a countback sequence "8/8/7…"), ``None`` when empty."""
    if v is None or (isinstance(v, float) and v != v):
        return None
    try:
        return _number(v)
    except (ArithmeticError, ValueError, TypeError):
        return str(v)


def _rank_seed(ev, seed: int | None):
    """The seed logged by ``rank``: the one given, else the draw seed its lots use (one per
    group when they differ: "甲组=1, 乙组=2"), else a fresh one."""
    if seed is not None:
        return int(seed)
    used = {ev.gname(g): ev.groups[g.id].seed for g in ev.reg.groups
            if ev.groups[g.id].drawn and ev.groups[g.id].seed is not None}
    if len(set(used.values())) == 1:
        return next(iter(used.values()))
    if used:
        return ", ".join(f"{k}={v}" for k, v in used.items())
    return c.new_seed()


def _stage_warnings(ev) -> list[str]:
    """Warnings of every entered stage's scoring (``stage_warnings(matches, typed)``, a
    declared hook), each as "sheet!cells 组别…"."""
    out = []
    for g in ev.reg.groups:
        if not ev.groups[_source_group(ev, g).id].drawn:
            continue
        for s in g.stages:
            check = getattr(s.scoring, "stage_warnings", None)
            if check is None or not ev.entered(g, s):
                continue
            matches = ev.stage_matches(g, s)
            typed = {m.key: t for m in matches
                     if (t := ev.typed.get((g.id, s.id, *m.key))) is not None}
            out += [(f"{e.sheet}!{e.cell} " if e.sheet else "") + f"{ev.gname(g)}{e.zh}"
                    for e in check(matches, typed)]
    return out


# ------------------------------------------------------------------------------ awards

def core_awards(port: WorkbookPort):
    """奖励分配 from the final ranking of every finished group (the regulation's awards block:
    places, money, tax, certificates). Refuses while a group with awards is unfinished."""
    ev = load_core_event(port)
    if ev.errors:
        raise InputErrors(ev.errors)
    if ev.reg.awards is None:
        raise RuleError("本规程没有奖励设置", "this regulation has no awards")
    if any(ev.groups[g.id].drawn for g in ev.reg.groups):
        _scored_or_refuse(ev)  # what rank would refuse, at its cells (not "rank first")
    stale = stale_ranking(port, ev)
    if stale is not None:
        raise InputErrors([stale])
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
        fs = core_final_standings(ev, g, provisional=style_of(ev.reg).awards_unfinished)
        if fs is None:
            left = [s for s in og.stages if not ev.finished(og, s)]
            words = style_of(ev.reg).status_words.unfinished
            facts = dict(group=ev.gname(g), group_en=g.name_en or g.id,
                         stages="、".join(ev.sname(s) for s in left),
                         stages_en=", ".join(s.name_en or s.id for s in left))
            errs.append(InputError(words[0].format(**facts), words[1].format(**facts),
                                   sheet=ev.sheet(K.SCHEDULE)))
            continue
        teams = ev.groups[og.id].teams
        for label in dict.fromkeys(fs["ranking"]):
            part = fs[fs["ranking"].isna()] if label is None else fs[fs["ranking"] == label]
            part = part[part["place"].notna()]  # annulled entrants (no place) get no award
            name = ranking_name(ev, g, label, zh=True)
            entries[name] = len(teams) if label is None else \
                sum(1 for t in teams.values() if t["pool"] == label)
            # person_id: one key per entrant across a group and the groups derived from it
            parts.append(pd.DataFrame({
                "group": name, "place": part["place"],
                "entrant_id": [f"{og.id}#{n}" for n in part["number"]],
                "person_id": [f"{og.id}#{n}" for n in part["number"]],
                "name": [ev.name_of(og, n) for n in part["number"]],
                "unit": [ev.unit_of(og, n) for n in part["number"]],
                "members": [core_paper.members_of(ev, og, n) for n in part["number"]]}))
    from bianpai.addin.core_playoffs import untyped_playoffs  # noqa: PLC0415
    errs += untyped_playoffs(ev)
    if errs:
        raise InputErrors(errs)
    if not parts:
        raise InputErrors([InputError("还没有可颁奖的组别：请先抽签编排并完成比赛",
                                      "no group has finished yet", sheet=ev.sheet(K.SCHEDULE))])
    return c.write_awards(port, ev.reg, pd.concat(parts, ignore_index=True), entries, ev.lang,
                          args={"entries": sum(entries.values())}
                          if style_of(ev.reg).awards_logs_entries else None, event=ev)


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

def _replacement(ev, g, s, number: int, k: int) -> int | None:
    """递补 of ``number`` withdrawn from ``s`` after round ``k``, by the stage's ``replacement``
    setting (CBSA 十二（四））. Before the stage is drawn (or, with ``after_draw =
    replace_unplayed``, before he played in it): a roster seed withdrawn while the source stage
    has no result → the next ranked player (who then plays no more in the source stage: his
    drawn match there is a walkover, :meth:`CoreEvent.withdrawn_after`); otherwise the best
    non-qualified entrant of the finished source stage not used yet (``None`` while it is not
    finished: taken when the stage is entered)."""
    from bianpai.addin.core_replace import (assigned, next_ranked, non_qualified,  # noqa: PLC0415
                                            source_started, takes_slot)
    rule = s.replacement
    if rule is None or k != 0 or not takes_slot(ev, g, s, number):
        return None
    used = {r for x, r in assigned(ev, g, s).items() if x != number}
    if rule.seeds == "ranking" and ev.roster_value(g, number, "seed") is not None \
            and not source_started(ev, g, s):
        return next_ranked(ev, g, s, number, exclude=used)
    pool = non_qualified(ev, g, s, exclude=used)
    return pool[0] if pool else None


def _fill_replacements(port: WorkbookPort, ev) -> bool:
    """递补队号 for the 退赛 rows typed without one whose stage takes replacements (the same
    choice as a withdrawal through the command, :func:`_replacement`); True when written."""
    from bianpai.workbooks.tables import find_sheet  # noqa: PLC0415
    todo = [(gid, sid, n, k) for (gid, sid, n), (k, _a, _w) in ev.withdrawals.items()
            if ev.replacements.get((gid, sid, n)) is None
            and ev.reg.group(gid).stage(sid).replacement is not None]
    name = find_sheet(port, K.WITHDRAWALS)
    if not todo or name is None:
        return False
    grid = [list(r) for r in port.read_values(name)]
    heads = [str(h or "") for h in grid[0]]
    col = next((i for i, h in enumerate(heads) if h in ("递补队号", "Replacement No")), None)
    if col is None:
        return False
    written = False
    for gid, sid, n, k in todo:
        g = ev.reg.group(gid)
        r = _replacement(ev, g, g.stage(sid), n, k)
        if r is None:
            continue
        for row in grid[1:]:
            row += [None] * (len(heads) - len(row))
            try:
                same = ev.group_of(row[0]) is g and int(float(str(row[1]))) == n
            except ValueError:
                same = False
            if same:
                row[col] = r
                written = True
        ev.replacements[(gid, sid, n)] = r
        ev._results_cache.pop(("replacement", gid, sid), None)
    if written:
        port.append_rows(name, grid[1:], start_row=2)
    return written


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
        names = "、".join(x.name_zh for x in ev.reg.groups)
        g = None if group is None else ev.group_of(group)
        if group is None or team is None:
            raise InputErrors([InputError(
                f"请同时给出退赛的组别（--group，应为：{names}）和队号（--team）",
                "give both the group (--group) and the number (--team) of the withdrawal")])
        if g is None:
            raise InputErrors([InputError(f"没有组别“{group}”（组别应为：{names}）",
                                          f"no group {group!r}", sheet=ev.sheet(K.DRAW))])
        if not ev.groups[g.id].drawn:
            raise InputErrors([InputError(
                f"{ev.gname(g)}尚未抽签编排，退赛无需登记：请在“报名”表删去该队后再抽签",
                f"{g.name_en or g.id} is not drawn yet: remove the entry from the roster "
                f"instead", sheet=ev.sheet(K.ROSTER))])
        if int(team) not in ev.groups[g.id].teams:
            drawn = sorted(ev.groups[g.id].teams)
            raise InputErrors([InputError(
                f"{ev.gname(g)}中没有 {team} 号（抽签号为 {drawn[0]}–{drawn[-1]}）",
                f"no number {team} in {g.name_en or g.id} (drawn {drawn[0]}–{drawn[-1]})",
                sheet=ev.sheet(K.DRAW))])
        from bianpai.addin.core_roster import withdrawal_stage  # noqa: PLC0415
        current = withdrawal_stage(ev, g, int(team))
        if current is None:
            raise InputErrors([InputError(f"{team} 号队不在任何已开始的阶段中",
                                          f"team {team} is in no running stage", sheet=ev.sheet(K.SCHEDULE))])
        drawn = ev.state(g, current, with_standings=False).rounds_drawn()
        k = drawn if after_round is None else int(after_round)
        if not 0 <= k <= drawn:
            raise InputErrors([InputError(
                f"最后参赛轮次应为 0–{drawn}（{ev.sname(current)}已编排 {drawn} 轮），实际为 {k}",
                f"the last round played must be 0–{drawn}; got {k}", sheet=ev.sheet(K.SCHEDULE))])
        if annul is None:  # the regulation's default, written so the row says what applies
            annul = ev.reg.withdrawal.results == "annul"
        res = "取消" if annul else "保留"
        rep = _replacement(ev, g, current, int(team), k)
        from bianpai.workbooks.tables import find_sheet
        name = find_sheet(port, K.WITHDRAWALS)
        if name is not None and any(key[0] == g.id and key[2] == int(team) for key in ev.withdrawals):
            rows = port.read_values(name)
            at = next((i for i, r in enumerate(rows[1:], start=2) if len(r) > 1
                       and ev.group_of(r[0]) is g and str(r[1]).strip() == str(int(team))), None)
            raise InputErrors([InputError(
                f"{ev.gname(g)}{int(team)}号已登记退赛" + (f"（{name}!A{at}）" if at else "")
                + "：每队只登记一次；要改轮次或成绩处理，请直接修改该行",
                f"{int(team)} is already withdrawn; edit that row instead", sheet=name,
                cell=f"A{at}" if at else None)])
        if name is None:
            name = K.WITHDRAWALS.name(ev.lang)
            port.write_sheet(name, [K.WITHDRAWALS.headers(ev.lang)],
                             K.WITHDRAWALS.sheet_format(lang=ev.lang))
            start = 2
        else:
            start = len(port.read_values(name)) + 1
        port.append_rows(name, [[ev.gname(g), int(team), k, res, reason or None, None, rep]],
                         start_row=start)
        ev = load_core_event(port)
        if not ev.errors:  # a result it played after that round contradicts the withdrawal
            ev.results(g, current)
        if ev.errors:
            raise InputErrors(ev.errors)
        from bianpai.addin.core_replace import write_replacements  # noqa: PLC0415
        if write_replacements(ev, _schedule_rows):  # a 递补 into a drawn, unplayed match
            ev = load_core_event(port)
    elif _fill_replacements(port, ev):  # the 登记退赛 button: rows typed without 递补队号
        ev = load_core_event(port)
        if ev.errors:
            raise InputErrors(ev.errors)
    if not ev.withdrawals:
        raise InputErrors([InputError("“退赛”表没有登记任何退赛", "the Withdrawals sheet is empty",
                                      sheet=ev.sheet(K.WITHDRAWALS))])
    parts = []
    from bianpai.addin.core_replace import assigned  # noqa: PLC0415
    subs = {}
    for g in ev.reg.groups:
        for s in g.stages:
            subs.update({(g.id, n): (s, r) for n, r in assigned(ev, g, s).items()})
    for (gid, sid, n), (k, do_annul, why) in ev.withdrawals.items():
        g = ev.reg.group(gid)
        sub = subs.get((gid, n))
        parts.append(f"{ev.gname(g)}{n}号{ev.name_of(g, n)}{ev.sname(g.stage(sid))}第{k}轮后退赛，"
                     + ("成绩全部取消" if do_annul else "已赛成绩保留") + (f"（{why}）" if why else "")
                     + (f"，{ev.sname(sub[0])}由{sub[1]}号{ev.name_of(g, sub[1])}递补"
                        f"（{sub[0].replacement.clause or ''}）" if sub else ""))
    result = c.CommandResult("withdraw", "退赛登记：" + "；".join(parts),
                             f"withdrawals: {len(parts)}")
    return c.finish(port, result, {"group": group, "team": team, "after_round": after_round,
                                   "annul": annul, "reason": reason or None}, ev.lang)
