"""进入下一阶段 and 排名 of a bridge team event: the first stage ranked and the later stages
started (knockout 1v8 …, consolation Swiss with carry-over), the 排名-<阶段> sheets, the 淘汰赛
bracket and 总排名 (Fujian 五: 1–4 from the knockout, 5+ from the consolation standings).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from bianpai.addin.team_draw import _entry, _ko_rows, _pair_stage, _sched_rows, _write_draw_outputs
from bianpai.addin.team_event import TeamEvent, _cmd
from bianpai.addin.team_read import load_team_event
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.knockout import knockout_places
from bianpai.engines.team_standings import combine_places
from bianpai.templates.schema import KnockoutFormat, Stage
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort

__all__ = ["team_advance", "team_rank", "current_stages"]


# ------------------------------------------------------------------------------ advance

def team_advance(port: WorkbookPort, *, seed: int | None = None):
    """进入下一阶段: rank the finished first stage (lots by ``seed``, logged and kept in 带分) and
    start every stage whose entrants come from it: the knockout's first round (1/4决赛 1v8, 4v5,
    2v7, 3v6) and round 1 of the consolation Swiss with the carried VP (25 % of stage-1 VP,
    八（三）), or round 1 of a final round robin. Refuses, naming the missing tables, while the
    first stage is unfinished; ``RuleError`` when the next stages have started already.
    """
    c = _cmd()
    ev = load_team_event(port)
    if ev.errors:
        raise InputErrors(ev.errors)
    stages = ev.group.stages
    first = stages[0]
    if not ev.started(first):
        raise RuleError(f"{ev.stage_name(first)}尚未开始", f"{first.id} has not started")
    r = ev.rounds_drawn(first)
    if r < ev.total_rounds(first):
        raise RuleError(f"{ev.stage_name(first)}共{ev.total_rounds(first)}轮，目前只编排了{r}轮",
                        f"{first.id} has {ev.total_rounds(first)} rounds; only {r} drawn")
    miss = [m for k in range(1, r + 1) for m in ev.missing(first, k)]
    if miss:
        raise InputErrors([InputError(
            f"{ev.stage_name(first)}尚有 {len(miss)} 桌未录入成绩，不能进入下一阶段：\n    "
            + "\n    ".join(miss), f"{len(miss)} table(s) of {first.id} have no result",
            sheet=ev.sheet(T.TEAM_RESULTS))])
    todo = [s for s in stages[1:] if not ev.started(s) and s.entrants != "all"
            and any(rule.from_stage == first.id and rule.join_round == 1 for rule in s.entrants)]
    if not todo:
        raise RuleError("下一阶段已经开始", "the next stages have already started")
    seed = c.new_seed() if seed is None else int(seed)
    st1 = ev.standings(first, seed=seed)
    order = [int(t) for t in st1["team"]]
    place = {t: i + 1 for i, t in enumerate(order)}
    entries, rows, msgs = [], [], []
    for stage in todo:
        for rule in stage.entrants:
            if rule.from_stage != first.id or rule.join_round != 1 or rule.places is None:
                continue
            last = rule.places.last or len(order)
            of = ev.group.stage(rule.carry_over.of_stage) if rule.carry_over and \
                rule.carry_over.of_stage else first
            for t in order[rule.places.first - 1:last]:
                entries.append(_entry(ev, stage, rule, t, place[t], of, 1, seed))
    ev.entries = pd.concat([ev.entries, pd.DataFrame(entries)], ignore_index=True)
    for stage in todo:
        if isinstance(stage.format, KnockoutFormat):
            if not stage.format.third_place:
                raise RuleError("目前只支持含3-4名附加赛的8队淘汰赛（third_place: true）",
                                "only the 8-team knockout with a 3rd-place match is supported")
            n = len(ev.stage_entrants(stage))
            if n != 8:
                raise RuleError(f"淘汰赛需要8支队，实际{n}支（参赛队不足）",
                                f"the knockout needs 8 teams; {n} qualify")
            new = _ko_rows(ev, stage, 1)
            msgs.append(f"{ev.stage_name(stage)}{'、'.join(x['match'] for x in new)}")
        else:
            frame = _pair_stage(ev, stage, 1)
            new = _sched_rows(ev, stage, 1, frame)
            msgs.append(f"{ev.stage_name(stage)}第1轮")
        rows += new
    _write_draw_outputs(ev, None, rows, entries)
    _write_stage_standings(ev, first, st1)
    for stage in todo:
        if isinstance(stage.format, KnockoutFormat):
            _write_knockout(ev, stage)
    result = c.CommandResult(
        "advance", f"{ev.stage_name(first)}排名已定（抽签种子 {seed}），进入下一阶段：{'；'.join(msgs)}",
        f"{first.name_en or first.id} ranked (seed {seed}); started: {len(todo)} stage(s)",
        seed=seed, data={"order": order})
    return c.finish(port, result, {"seed": seed}, ev.lang)


# ------------------------------------------------------------------------------ rank

def _write_stage_standings(ev: TeamEvent, stage: Stage, st: pd.DataFrame,
                           upto_round: int | None = None) -> list[dict]:
    """Write 排名-<阶段> from standings ``st`` (as of ``upto_round`` when given: the sheet's
    header row then says so in its 说明 column). 已赛场数 counts matches played, not byes."""
    lang = ev.lang
    # the chain's own columns (imp_quotient has its fixed column already)
    chain = [c for c in st.attrs.get("chain", [])[1:] if c.name != "imp_quotient"]
    header = T.TEAM_STANDINGS.headers(lang)
    header = header[:-1] + [(c.label_zh if lang == "zh" else c.label_en) for c in chain] + header[-1:]
    if upto_round is not None:
        header[-1] = f"{header[-1]}（截至第{upto_round}轮）" if lang == "zh" else \
            f"{header[-1]} (after round {upto_round})"
    played = {}
    m = ev.matches_frame(stage, upto_round)
    for h, a in zip(m["home"], m["away"]):
        if pd.isna(a):  # a bye is not a match played
            continue
        played[int(h)] = played.get(int(h), 0) + 1
        played[int(a)] = played.get(int(a), 0) + 1
    rows, data = [], []
    for rec in st.to_dict("records"):
        t = int(rec["team"])
        q = rec["imp_quotient"]
        rows.append([rec["rank"], t, ev.name_of(t), ev.unit_of(t), played.get(t, 0),
                     rec["carry_over"], rec["match_vp"], rec["fines"], rec["total"],
                     rec["imps_won"], rec["imps_lost"], q if isinstance(q, str) else float(q),
                     *[rec[f"tb_{c.name}"] or None for c in chain],
                     rec["说明"] if lang == "zh" else rec["explanation"]])
        data.append({"rank": int(rec["rank"]), "team": t, "name": ev.name_of(t),
                     "played": played.get(t, 0), "carry_over": str(rec["carry_over"]),
                     "total": str(rec["total"]), "explanation": rec["说明"]})
    fmt = T.TEAM_STANDINGS.sheet_format(lang=lang)
    from bianpai.workbooks.port import ColumnFormat
    last = fmt.columns[-1]
    for i, _ in enumerate(chain):
        fmt.columns.insert(len(fmt.columns) - 1, ColumnFormat(index=len(T.TEAM_STANDINGS.columns)
                                                              - 1 + i, width=10))
    last.index = len(header) - 1
    fmt.text_columns = [i for i in fmt.text_columns if i < len(T.TEAM_STANDINGS.columns) - 1] \
        + [len(header) - 1]
    for col in fmt.columns:
        if col.index == 11:
            col.number_format = "0.0000"
    ev.port.write_sheet(T.stage_sheet(T.TEAM_STANDINGS, ev.stage_name(stage), lang),
                        [header] + rows, fmt)
    return data


def _write_knockout(ev: TeamEvent, stage: Stage) -> list[dict]:
    ko = ev.knockout(stage)
    rows, data = [], []

    def i(v):
        return None if v is None or pd.isna(v) else int(v)
    for rec in ko.to_dict("records"):
        rows.append([rec["match"], rec["round"], rec["half"], i(rec["home"]),
                     ev.name_of(i(rec["home"])) if i(rec["home"]) else None, i(rec["home_place"]),
                     i(rec["away"]), ev.name_of(i(rec["away"])) if i(rec["away"]) else None,
                     i(rec["away_place"]),
                     f"{i(rec['seat_choice_s1'])}号" if i(rec["seat_choice_s1"]) else None,
                     f"{i(rec['seat_choice_s2'])}号" if i(rec["seat_choice_s2"]) else None,
                     i(rec["home_imps"]), i(rec["away_imps"]), i(rec["winner"]), i(rec["loser"]),
                     rec["说明"] or None])
        data.append({"match": rec["match"], "home": i(rec["home"]), "away": i(rec["away"]),
                     "winner": i(rec["winner"]), "explanation": rec["说明"]})
    ev.port.write_sheet(ev.sheet(T.KNOCKOUT), [T.KNOCKOUT.headers(ev.lang)] + rows,
                        T.KNOCKOUT.sheet_format(lang=ev.lang))
    return data


def current_stages(ev: TeamEvent) -> list[Stage]:
    """The Swiss/round-robin stages now running: the first stage until a later one has started,
    then the started later ones (e.g. the consolation Swiss next to the knockout)."""
    vp_stages = [s for s in ev.group.stages if not isinstance(s.format, KnockoutFormat)]
    later = [s for s in vp_stages[1:] if ev.started(s)]
    if later:
        return later
    return [s for s in vp_stages[:1] if ev.started(s)]


def team_rank(port: WorkbookPort, *, seed: int | None = None, upto_round: int | None = None):
    """排名: one 排名-<阶段> sheet per running Swiss/round-robin stage (VP, 带分, 罚分, every
    tie-break column and 说明; complete matches only), the 淘汰赛 bracket, and 总排名 once every
    stage is finished (Fujian 五: 1–4 from the knockout, 5+ from the consolation standings).
    ``seed`` settles lots (a stage already taken further keeps the seed recorded in 带分).
    ``upto_round``: the 排名 sheets of the current stages (:func:`current_stages`) show the
    standings as of that round (matches of later rounds and teams joining later left out); the
    other stages and 总排名 are unaffected. Raises ``InputErrors`` for bad results or a round not
    drawn in the current stage; nothing is written then.
    """
    c = _cmd()
    ev = load_team_event(port)
    if ev.errors:
        raise InputErrors(ev.errors)
    current = current_stages(ev)
    if upto_round is not None:
        upto_round = int(upto_round)
        if not current:
            raise RuleError("比赛尚未开始，没有可排名的轮次", "no round has been drawn yet")
        most = max(ev.rounds_drawn(s) for s in current)
        if not 1 <= upto_round <= most:
            names = "、".join(ev.stage_name(s) for s in current)
            raise InputErrors([InputError(
                f"--round 应为 1–{most}（当前阶段：{names}，已编排 {most} 轮），实际为 {upto_round}",
                f"--round must be 1–{most} (current stage: "
                f"{', '.join(s.name_en or s.id for s in current)}); got {upto_round}",
                sheet=ev.sheet(T.TEAM_SCHEDULE))])
    seed = c.new_seed() if seed is None else int(seed)
    data: dict[str, Any] = {}
    ordered: dict[str, list[int]] = {}
    missing = []
    for stage in ev.group.stages:
        if not ev.started(stage):
            continue
        for k in range(1, ev.rounds_drawn(stage) + 1):
            missing += ev.missing(stage, k)
        if isinstance(stage.format, KnockoutFormat):
            data[ev.stage_name(stage)] = _write_knockout(ev, stage)
            if ev.finished(stage):
                kp = knockout_places(ev.knockout(stage))
                top = kp[kp["group"] == "1-4"].sort_values("place")
                ordered[stage.id] = [int(t) for t in top["team"]]
            continue
        st = ev.standings(stage, seed=ev.ranking_seed(stage) or seed)
        ordered[stage.id] = [int(t) for t in st["team"]]
        if upto_round is not None and stage in current:
            part = ev.standings(stage, seed=ev.ranking_seed(stage) or seed, upto_round=upto_round)
            data[ev.stage_name(stage)] = _write_stage_standings(ev, stage, part, upto_round)
        else:
            data[ev.stage_name(stage)] = _write_stage_standings(ev, stage, st)
    final_rows = []
    complete = all(ev.finished(s) for s in ev.group.stages)
    if ev.group.final_ranking and complete:
        blocks = []
        for part in ev.group.final_ranking:
            st = ev.group.stage(part.from_stage)
            teams = ordered.get(st.id, [])
            blocks.append((ev.stage_name(st), teams[part.places.first - 1:part.places.last]))
        fr = combine_places(blocks)
        for rec in fr.to_dict("records"):
            t = int(rec["team"])
            final_rows.append([rec["place"], t, ev.name_of(t), ev.unit_of(t), rec["source"],
                               rec["explanation"]])
        data["总排名"] = [{"place": r[0], "team": r[1], "name": r[2], "source": r[4],
                        "explanation": r[5]} for r in final_rows]
    elif ev.group.final_ranking:
        final_rows = [[None, None, None, None, None,
                       "比赛尚未结束，总排名待全部阶段完成后生成" if ev.lang == "zh" else
                       "the event is not over; the final ranking follows when every stage is"]]
    if ev.group.final_ranking:
        header = [h for h, col in zip(T.FINAL.headers(ev.lang), T.FINAL.columns)
                  if col.key != "award"]
        port.write_sheet(ev.sheet(T.FINAL), [header] + final_rows,
                         _final_format(ev.lang))
    state = f"缺 {len(missing)} 桌成绩" if missing else "全部成绩已录入"
    upto = ""
    if upto_round is not None:
        upto = f"{'、'.join(ev.stage_name(s) for s in current)}截至第{upto_round}轮；"
    result = c.CommandResult("rank", f"排名完成（{upto}{state}）{'，总排名已生成' if complete else ''}",
                             f"standings done ({'up to round %d; ' % upto_round if upto_round else ''}"
                             f"{len(missing)} tables missing)", seed=seed, data=data)
    if c.invalidate_awards(port, ev.lang):
        result.summary_zh += "；排名已变，旧的奖励表已清空，请重新奖励分配"
        result.summary_en += "; the ranking changed: award sheets emptied, run awards again"
    return c.finish(port, result, {"round": upto_round, "seed": seed}, ev.lang)


def _final_format(lang: str):
    cols = [c for c in T.FINAL.columns if c.key != "award"]
    layout = T.FINAL.model_copy(update={"columns": cols})
    return layout.sheet_format(lang=lang)
