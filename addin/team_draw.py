"""抽签编排 of a bridge team event: team numbers by lot (六（一）), the next round of every running
stage (Swiss 高分对高分, round robin, knockout rounds), late entrants with their carry-over
(带分, 八（二）（三）), and the generated 抽签/对阵/带分 sheets with blank 成绩/逐副成绩 entry rows.
"""

from __future__ import annotations

from decimal import Decimal
import random

import pandas as pd

from bianpai.addin.team_eligibility import team_eligibility_findings
from bianpai.addin.team_event import (KO_LAST_ROUND, KO_ROUND, KO_TABLE, TeamEvent, _cmd,
                                      field_size_errors)
from bianpai.addin.team_read import load_team_event
from bianpai.engines.bridge import carry_over_parts
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.engines.core import Match, MatchResult, StageEntrant, StageState
from bianpai.templates.schema import KnockoutFormat, RoundRobinFormat, Stage, SwissFormat
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import records, cell_of, find_sheet

__all__ = ["team_draw"]


# ------------------------------------------------------------------------------ draw

def _number_teams(ev: TeamEvent, seed: int) -> tuple[list[list], str]:
    """Team numbers: as typed in 报名 (all 1…n once each) or by seeded lot (六（一）)."""
    r = ev.roster
    n = len(r)
    if n < 2:
        raise InputErrors([InputError("报名表少于2支队，无法编排", "fewer than 2 teams in the roster",
                                      sheet=ev.sheet(T.TEAM_ROSTER))])
    typed = [v for v in r["number"] if v is not None]
    if len(typed) == n and sorted(typed) == list(range(1, n + 1)):
        numbers, used = [int(v) for v in r["number"]], "报名表队号"
    elif typed:
        first = next(i for i, v in r["number"].items() if v is not None)
        raise InputErrors([InputError(
            f"队号须全部填写且为 1–{n} 各一次，或全部留空由抽签决定",
            f"team numbers must be 1–{n} once each, or all empty for the lot",
            sheet=ev.sheet(T.TEAM_ROSTER), cell=cell_of(r, first, "number"))])
    else:
        numbers = list(range(1, n + 1))
        random.Random(seed).shuffle(numbers)
        used = str(seed)
    rows = []
    for num, (row, rec) in zip(numbers, records(r)):
        ev.teams[num] = dict(name=rec["name"], unit=rec["unit"], roster_row=row)
        rows.append([num, rec["name"], rec["unit"], row, used])
    rows.sort(key=lambda x: x[0])
    ev.drawn = True
    return rows, used


def _seats(ev: TeamEvent, stage: Stage, home: int, away) -> str:
    """Seating text of a match (六（四）3, 六（五））."""
    zh = ev.lang == "zh"
    if away is None or pd.isna(away):
        return "轮空" if zh else "bye"
    if isinstance(stage.format, KnockoutFormat):
        if zh:
            return (f"主队开室南北/闭室东西，各节不变；第1节客队{int(away)}号、第2节主队{home}号"
                    f"有座位选择权，无选择权的队先入座")
        return (f"home NS open / EW closed in every session; seat choice: session 1 away "
                f"({int(away)}), session 2 home ({home}); the other team sits first")
    return "主队开室南北、闭室东西；无座位选择权，直接入座" if zh else \
        "home NS in the open room, EW in the closed room; no seat choice"


def _pair_swiss(ev: TeamEvent, stage: Stage, rnd: int) -> pd.DataFrame:
    """Round ``rnd`` of a Swiss stage, paired by the competition core's team Swiss
    (:class:`bianpai.engines.team_swiss.TeamSwiss`) from the stage as the core sees it: its
    entrants (carry-over less the fines so far), the 对阵 matches before ``rnd`` with their VP,
    and the group's other stages' matches."""
    fmt = stage.format
    fined: dict[int, Decimal] = {}
    if rnd > 1:
        for f_rnd, team, amount in ev.fines.get(stage.id, []):
            if f_rnd is None or f_rnd <= rnd - 1:
                fined[team] = fined.get(team, Decimal(0)) + amount
    ents = [StageEntrant(number=e["team"], unit=ev.unit_of(e["team"]), seed=e["prev_rank"],
                         carry=e["carry"] - fined.get(e["team"], Decimal(0)),
                         join_round=e["join_round"])
            for e in ev.stage_entrants(stage, upto_round=rnd)]
    vp_rows = ev.matches_frame(stage, upto_round=rnd - 1)
    results = {}
    for rec in vp_rows.itertuples():
        away = None if pd.isna(rec.away) else int(rec.away)
        m = Match(round=int(rec.round), table=0, sides=(int(rec.home), away))
        pts = (rec.home_vp, Decimal(0) if away is None else rec.away_vp)
        results[(None, m.round, len(results))] = MatchResult(match=m, points=pts,
                                                             outcome=("W", "L"))
    state = StageState(entrants=ents, matches=_core_matches(ev, stage), results=results,
                       prior=[m for o in ev.group.stages if o.id != stage.id
                              for m in _core_matches(ev, o)])
    return fmt.pair(state, rnd)


def _core_matches(ev: TeamEvent, stage: Stage) -> list[Match]:
    """The stage's 对阵 rows as core matches (table numbers as drawn; ``None`` = a bye)."""
    return [Match(round=int(r.round), table=int(r.table),
                  sides=(int(r.home), None if pd.isna(r.away) else int(r.away)))
            for r in ev.stage_rows(stage).itertuples()]


def _pair_round_robin(ev: TeamEvent, stage: Stage, rnd: int) -> pd.DataFrame:
    ents = sorted(ev.stage_entrants(stage), key=lambda e: (e["prev_rank"] or 0, e["team"]))
    by_no = {i + 1: e["team"] for i, e in enumerate(ents)}
    sched = round_robin_schedule(len(ents), cycles=stage.format.cycles)
    s = sched[sched["round"] == rnd]
    return pd.DataFrame({"table": s["table"].astype(int),
                         "home": [by_no[int(h)] for h in s["home"]],
                         "away": pd.array([pd.NA if pd.isna(a) else by_no[int(a)]
                                           for a in s["away"]], dtype="Int64")})


def _sched_rows(ev: TeamEvent, stage: Stage, rnd: int, frame: pd.DataFrame,
                matches: list[str] | None = None) -> list[dict]:
    out = []
    nb = ev.boards(stage)
    for i, rec in enumerate(frame.itertuples()):
        away = None if pd.isna(rec.away) else int(rec.away)
        out.append(dict(stage_id=stage.id, round=rnd, match=(matches[i] if matches else ""),
                        table=int(rec.table), home=int(rec.home), away=away,
                        boards=f"1-{nb}" if away is not None else ""))
    return out


def _ko_rows(ev: TeamEvent, stage: Stage, ko_round: int) -> list[dict]:
    ko = ev.knockout(stage)
    out = []
    for rec in ko.to_dict("records"):
        if KO_ROUND[rec["match"].rstrip("1234")] != ko_round:
            continue
        if pd.isna(rec["home"]) or pd.isna(rec["away"]):
            continue
        out.append(dict(stage_id=stage.id, round=ko_round, match=rec["match"],
                        table=KO_TABLE[rec["match"]], home=int(rec["home"]), away=int(rec["away"]),
                        boards=f"1-{stage.format.boards}"))
    return out


def _ko_round_decided(ko: pd.DataFrame, ko_round: int) -> tuple[bool, list[str]]:
    pending = [r["match"] for r in ko.to_dict("records")
               if KO_ROUND[r["match"].rstrip("1234")] == ko_round and pd.isna(r["winner"])]
    return not pending, pending


def _ko_tied(ko: pd.DataFrame) -> list[str]:
    """Knockout matches with a result but no winner: tied on IMPs, waiting for extra boards."""
    return [r["match"] for r in ko.to_dict("records")
            if pd.isna(r["winner"]) and not pd.isna(r["home_imps"])]


def _tie_hint(ko: pd.DataFrame) -> tuple[str, str]:
    """How to enter the extra boards of tied knockout matches ('' when none is tied)."""
    tied = _ko_tied(ko)
    if not tied:
        return "", ""
    return (f"；其中 {'、'.join(tied)} IMP相同，须按规程加赛：在“成绩”表另起一行，"
            f"场次填“{tied[0]}加赛”，录入加赛双方IMP",
            f"; {', '.join(tied)} tied on IMPs: add a Results row with match "
            f"'{tied[0]}加赛' and the extra boards' IMPs")


def _resolve_joiners(ev: TeamEvent, stage: Stage, rnd: int, seed: int,
                     errs: list[InputError]) -> list[dict]:
    """Entries (带分 rows) of the rules of ``stage`` that join at ``rnd`` and are not in yet."""
    if stage.entrants == "all":
        return []
    have = set()
    if ev.entries is not None and len(ev.entries):
        have = set(ev.entries.loc[ev.entries["stage_id"] == stage.id, "team"].astype(int))
    out = []
    for rule in stage.entrants:
        if rule.join_round != rnd:
            continue
        src = ev.group.stage(rule.from_stage)
        if rule.losers_of:
            if not ev.started(src):
                errs.append(InputError(f"{ev.stage_name(src)}尚未开始，无法确定{rule.losers_of}负队",
                                       f"{src.name_en or src.id} has not started",
                                       sheet=ev.sheet(T.TEAM_RESULTS)))
                continue
            ko = ev.knockout(src)
            ok, pending = _ko_round_decided(ko, KO_ROUND[rule.losers_of])
            if not ok:
                hint_zh, hint_en = _tie_hint(ko)
                errs.append(InputError(
                    f"{ev.stage_name(stage)}第{rnd}轮需要{ev.stage_name(src)}{rule.losers_of}负队加入，"
                    f"但以下场次尚无结果：{'、'.join(pending)}{hint_zh}",
                    f"round {rnd} of {stage.name_en or stage.id} needs the {rule.losers_of} losers; "
                    f"no result yet for {', '.join(pending)}{hint_en}",
                    sheet=ev.sheet(T.TEAM_RESULTS)))
                continue
            teams = [int(r["loser"]) for r in ko.to_dict("records")
                     if r["match"].startswith(rule.losers_of) and r["match"] != "3RD"]
            place = {t: i + 1 for i, t in enumerate(ev.ko_places(src))}
            of = ev.group.stage(rule.carry_over.of_stage) if rule.carry_over and \
                rule.carry_over.of_stage else src
            prev = _prev_places(ev, of)
            for t in teams:
                if t not in have:
                    out.append(_entry(ev, stage, rule, t, prev.get(t, place.get(t)), of, rnd,
                                      None))
        else:
            errs.append(InputError(f"{ev.stage_name(stage)}第{rnd}轮的名次入选规则须在进入下一阶段时处理",
                                   "place rules joining after round 1 are not supported",
                                   sheet=L.SETTINGS.zh))
    return out


def _prev_places(ev: TeamEvent, stage: Stage) -> dict[int, int]:
    """Places of ``stage`` as recorded in 带分 when its ranking was taken further."""
    e = ev.entries
    if e is None or e.empty:
        return {}
    sub = e[e["from_stage_id"] == stage.id]
    return {int(t): int(p) for t, p in zip(sub["team"], sub["from_place"]) if p is not None}


def _entry(ev: TeamEvent, stage: Stage, rule, team: int, place, of_stage: Stage, rnd: int,
           seed) -> dict:
    """One 带分 row: ``carry = q2(q2(VP of of_stage × fraction) + plus)`` (八（二）（三））."""
    co = rule.carry_over
    from_vp = scaled = carry = Decimal("0.00")
    fraction = plus = Decimal("0")
    if co is not None:
        totals = _stage_totals(ev, of_stage)
        from_vp = totals.get(team, Decimal("0.00"))
        fraction, plus = co.fraction, co.plus
        scaled, carry = carry_over_parts(from_vp, fraction, plus)
    return dict(stage_id=stage.id, team=team, from_stage_id=rule.from_stage, from_place=place,
                from_vp=from_vp, fraction=fraction, scaled=scaled, plus=plus, carry=carry,
                join_round=rnd, seed=seed, clause=(co.clause if co and co.clause else rule.clause))


def _stage_totals(ev: TeamEvent, stage: Stage) -> dict[int, Decimal]:
    st = ev.standings(stage, seed=None, chain=["vp"])
    return {int(t): v for t, v in zip(st["team"], st["total"])}


def team_draw(port: WorkbookPort, *, seed: int | None = None,
              accept_warnings: str | None = None):
    """抽签编排 of a team event: pair the NEXT round of every running stage.

    Round 1 of the first stage also draws the team numbers (seeded lot, 六（一）) unless 报名 gives
    them all. A Swiss/round-robin stage's next round is refused while any match of its previous
    round lacks a result (the missing tables are named); teams joining at this round (e.g. the
    quarter-final losers at round 3, 八（二）) are entered with their carry-over (带分). A running
    knockout gets its next round once the current one is decided. Raises ``InputErrors`` (nothing
    written) or ``RuleError`` when everything is drawn / the next step is ``advance``.

    The first draw (team numbers and round 1) runs the eligibility rules first
    (:func:`bianpai.addin.team_eligibility.team_eligibility_findings`): errors refuse the draw,
    warnings refuse it unless ``accept_warnings`` gives the reason, which goes to 日志.
    """
    c = _cmd()
    ev = load_team_event(port)
    if ev.errors:
        raise InputErrors(ev.errors)
    warnings: list[InputError] = []
    if not ev.started(ev.group.stages[0]):
        warnings = c.gate_roster(field_size_errors(ev), team_eligibility_findings(ev),
                                 accept_warnings)
    seed = c.new_seed() if seed is None else int(seed)
    errs: list[InputError] = []
    new_rows: list[dict] = []
    new_entries: list[dict] = []
    draw_rows = None
    done_msgs = []
    notes: list[str] = []
    first = ev.group.stages[0]
    if not ev.drawn:
        draw_rows, _used = _number_teams(ev, seed)
    if not ev.started(first):
        frame = _pair_stage(ev, first, 1)
        new_rows += _sched_rows(ev, first, 1, frame)
        done_msgs.append(f"{ev.stage_name(first)}第1轮")
    else:
        for stage in ev.group.stages:
            if not ev.started(stage):
                continue
            if isinstance(stage.format, KnockoutFormat):
                ko = ev.knockout(stage)
                k = ev.rounds_drawn(stage)
                ok, _pending = _ko_round_decided(ko, k)
                if ok and k < KO_LAST_ROUND:
                    rows = _ko_rows(ev, stage, k + 1)
                    new_rows += rows
                    done_msgs.append(f"{ev.stage_name(stage)}{'、'.join(r['match'] for r in rows)}")
                tied = _ko_tied(ko)
                if tied:
                    notes.append(f"{ev.stage_name(stage)}{'、'.join(tied)} IMP相同，待录入加赛成绩"
                                 f"（成绩表另起一行，场次填“{tied[0]}加赛”）")
                continue
            r = ev.rounds_drawn(stage)
            if r >= ev.total_rounds(stage):
                continue
            miss = ev.missing(stage, r)
            if miss:
                errs.append(InputError(
                    f"{ev.stage_name(stage)}第{r}轮尚有 {len(miss)} 桌未录入成绩，不能编排第{r + 1}轮：\n    "
                    + "\n    ".join(miss),
                    f"{stage.name_en or stage.id}: {len(miss)} table(s) of round {r} have no "
                    f"result; round {r + 1} cannot be drawn", sheet=ev.sheet(T.TEAM_RESULTS)))
                continue
            joiners = _resolve_joiners(ev, stage, r + 1, seed, errs)
            if joiners:
                new_entries += joiners
                ev.entries = pd.concat([ev.entries, pd.DataFrame(joiners)], ignore_index=True)
            frame = _pair_stage(ev, stage, r + 1)
            new_rows += _sched_rows(ev, stage, r + 1, frame)
            done_msgs.append(f"{ev.stage_name(stage)}第{r + 1}轮")
    if errs:
        raise InputErrors(errs)
    if not new_rows:
        waiting = [s for s in ev.group.stages if not ev.started(s)]
        if ev.finished(first) and waiting:
            raise RuleError(f"{ev.stage_name(first)}已全部结束，请运行“进入下一阶段”（bianpai advance）",
                            f"{first.name_en or first.id} is over: run `bianpai advance`")
        ko_wait = [s for s in ev.group.stages if isinstance(s.format, KnockoutFormat)
                   and ev.started(s) and not ev.finished(s)]
        if ko_wait:
            ko = ev.knockout(ko_wait[0])
            recs = [r for r in ko.to_dict("records") if pd.isna(r["winner"])
                    and not pd.isna(r["home"]) and not pd.isna(r["away"])]
            pending = [r["match"] for r in recs]
            hint_zh, hint_en = _tie_hint(ko)
            raise InputErrors([InputError(
                f"淘汰赛以下场次尚无结果，无法编排下一轮：{'、'.join(pending)}{hint_zh}",
                f"knockout matches without a result: {', '.join(pending)}{hint_en}",
                sheet=ev.sheet(T.TEAM_RESULTS))])
        raise RuleError("所有阶段的各轮均已编排；请运行“排名”", "every round is drawn; run rank")
    _write_draw_outputs(ev, draw_rows, new_rows, new_entries)
    result = c.CommandResult("draw", f"编排完成：{'；'.join(done_msgs)}（{len(new_rows)} 桌次）"
                             + "".join(f"；{n}" for n in notes),
                             f"drawn: {len(new_rows)} tables"
                             + ("; knockout tie(s) wait for extra boards" if notes else ""),
                             seed=seed)
    if warnings:
        result.summary_zh += f"；已接受 {len(warnings)} 条名单警告，理由：{accept_warnings}（" + \
            "；".join(f"{e.where} {e.zh}" for e in warnings) + "）"
        result.summary_en += f"; {len(warnings)} roster warnings accepted: {accept_warnings}"
    return c.finish(port, result, {"seed": seed, "accept_warnings": accept_warnings if warnings
                                   else None}, ev.lang)


def _pair_stage(ev: TeamEvent, stage: Stage, rnd: int) -> pd.DataFrame:
    if isinstance(stage.format, SwissFormat):
        return _pair_swiss(ev, stage, rnd)
    if isinstance(stage.format, RoundRobinFormat):
        return _pair_round_robin(ev, stage, rnd)
    raise RuleError(f"{ev.stage_name(stage)}不是积分编排或循环赛阶段", f"{stage.id} is not paired by round")


def _write_draw_outputs(ev: TeamEvent, draw_rows, new_rows: list[dict],
                        new_entries: list[dict]) -> None:
    lang, port = ev.lang, ev.port
    if draw_rows is not None:
        port.write_sheet(ev.sheet(T.TEAM_DRAW), [T.TEAM_DRAW.headers(lang)] + draw_rows,
                         T.TEAM_DRAW.sheet_format(lang=lang), position=2)
    # 对阵: the existing rows plus the new ones, rebuilt whole
    rows = []
    old = ev.schedule.to_dict("records") if ev.schedule is not None else []
    for rec in old + new_rows:
        st = ev.group.stage(rec["stage_id"])
        away = rec["away"]
        away = None if away is None or pd.isna(away) else int(away)
        nb = ev.boards(st)
        rows.append([ev.stage_name(st), rec["round"], rec["match"] or None, rec["table"],
                     rec["home"], ev.name_of(rec["home"]), away, ev.name_of(away),
                     rec["home"] if away else None, away, away, rec["home"] if away else None,
                     f"1-{nb}" if away else "", _seats(ev, st, rec["home"], away)])
    port.write_sheet(ev.sheet(T.TEAM_SCHEDULE), [T.TEAM_SCHEDULE.headers(lang)] + rows,
                     T.TEAM_SCHEDULE.sheet_format(lang=lang))
    if new_entries:
        _write_entries(ev, new_entries)
    # blank entry rows for the new matches (typed sheets are only appended to)
    res_rows, board_rows = [], []
    for rec in new_rows:
        if rec["away"] is None:
            continue
        st = ev.group.stage(rec["stage_id"])
        name = ev.stage_name(st)
        mode = getattr(st.scoring, "imp_entry", "either")
        if mode != "per_board":
            res_rows.append([name, rec["round"], rec["match"] or None, rec["table"], rec["home"],
                             rec["away"], None, None, None])
        if mode != "per_match":
            for b in range(1, ev.boards(st) + 1):
                board_rows.append([name, rec["round"], rec["match"] or None, rec["table"], b,
                                   None, None])
    for layout, add in ((T.TEAM_RESULTS, res_rows), (T.TEAM_BOARDS, board_rows)):
        if not add:
            continue
        name = find_sheet(port, layout)
        if name is None:
            name = layout.name(lang)
            port.write_sheet(name, [layout.headers(lang)], layout.sheet_format(lang=lang))
            used = 1
        else:
            used = max(len(port.read_values(name)), 1)
        port.append_rows(name, add, start_row=used + 1)


def _write_entries(ev: TeamEvent, new_entries: list[dict]) -> None:
    old = _read_entries_records(ev, exclude=new_entries)
    rows = []
    for rec in old + new_entries:
        st = ev.group.stage(rec["stage_id"])
        src = ev.group.stage(rec["from_stage_id"])
        rows.append([ev.stage_name(st), rec["team"], ev.name_of(rec["team"]), ev.stage_name(src),
                     rec["from_place"], rec["from_vp"], rec["fraction"], rec["scaled"],
                     rec["plus"], rec["carry"], rec["join_round"],
                     None if rec["seed"] is None or (isinstance(rec["seed"], float)
                                                      and rec["seed"] != rec["seed"])
                     else str(rec["seed"]), rec["clause"]])
    fmt = T.CARRY.sheet_format(lang=ev.lang)
    for col in fmt.columns:
        if T.CARRY.columns[col.index].key == "fraction":
            col.number_format = "0%"
    ev.port.write_sheet(ev.sheet(T.CARRY), [T.CARRY.headers(ev.lang)] + rows, fmt)


def _read_entries_records(ev: TeamEvent, exclude: list[dict]) -> list[dict]:
    if ev.entries is None or ev.entries.empty:
        return []
    ex = {(e["stage_id"], e["team"]) for e in exclude}
    return [r for r in ev.entries.to_dict("records") if (r["stage_id"], int(r["team"])) not in ex]
