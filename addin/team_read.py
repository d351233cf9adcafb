"""Reading a bridge team workbook into a :class:`~bianpai.addin.team_event.TeamEvent`:
报名 checks, 对阵, 带分, 成绩 + 逐副成绩 (IMPs per match or from board scores, Law 78B; 加赛 rows of
a tied knockout match) and 罚分. Every bad cell is collected as an ``InputError`` naming
sheet!cell, in Chinese and English.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from bianpai.addin.team_event import TeamEvent, is_team_regulation, _cmd
from bianpai.engines.bridge import match_imps
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.rounding import q2
from bianpai.templates.schema import KnockoutFormat
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import regulation_from_sheet
from bianpai.workbooks.tables import records, cell_of, find_sheet, read_table

__all__ = ["load_team_event"]


# ------------------------------------------------------------------------------ loading

def load_team_event(port: WorkbookPort) -> TeamEvent:
    """Read and validate the whole team workbook. Problems are collected in ``errors`` (each with
    sheet and cell); the 规程 sheet's errors raise at once (``InputError``)."""
    reg = regulation_from_sheet(port)
    if not is_team_regulation(reg):
        raise RuleError("本工作簿的规程不是团体赛", "this workbook's regulation is not a team event")
    _cmd().TITLE["text"] = reg.title_zh if reg.language == "zh" else (reg.title_en or reg.title_zh)
    errors: list[InputError] = []
    roster = read_table(port, T.TEAM_ROSTER, errors=errors)
    ev = TeamEvent(port=port, reg=reg, group=reg.groups[0], lang=reg.language, roster=roster,
                   errors=errors)
    _roster_checks(ev)
    if find_sheet(port, T.TEAM_DRAW):
        d = read_table(port, T.TEAM_DRAW, errors=errors)
        for rec in d.to_dict("records"):
            if rec["number"] is not None:
                ev.teams[int(rec["number"])] = dict(name=rec["name"], unit=rec["unit"],
                                                    roster_row=rec["roster_row"])
        ev.drawn = bool(ev.teams)
    ev.schedule = _read_schedule(ev)
    ev.entries = _read_entries(ev)
    _read_results(ev)
    _read_fines(ev)
    return ev


def _roster_checks(ev: TeamEvent) -> None:
    r = ev.roster
    sheet = r.attrs.get("sheet", T.TEAM_ROSTER.zh)
    names: dict[str, int] = {}
    players: dict[str, int] = {}
    numbers: dict[int, int] = {}
    for row, rec in records(r):
        if rec["name"] in names:
            ev.errors.append(InputError(f"队名“{rec['name']}”重复（另见第{names[rec['name']]}行）",
                                        f"team name {rec['name']!r} repeated (see row "
                                        f"{names[rec['name']]})", sheet=sheet,
                                        cell=cell_of(r, row, "name")))
        names.setdefault(rec["name"], row)
        ps = [rec[f"player{i}"] for i in range(1, 7) if rec[f"player{i}"]]
        # with an eligibility block, team sizes and one team per player are the eligibility
        # engine's (team_check, the first draw): see bianpai.addin.team_eligibility
        if ev.reg.eligibility is None and len(ps) < 4:
            ev.errors.append(InputError(f"每队至少4名队员，本队只有{len(ps)}名",
                                        f"a team needs at least 4 players; this one has {len(ps)}",
                                        sheet=sheet, cell=cell_of(r, row, f"player{len(ps) + 1}")))
        for i in range(1, 7):
            p = rec[f"player{i}"]
            if not p:
                continue
            if ev.reg.eligibility is None and p in players and players[p] != row:
                ev.errors.append(InputError(
                    f"队员“{p}”已在第{players[p]}行的队中（一名运动员只能在一个队内参赛）",
                    f"player {p} is already in the team of row {players[p]} (one team only)",
                    sheet=sheet, cell=cell_of(r, row, f"player{i}")))
            players.setdefault(p, row)
        n = rec["number"]
        if n is not None:
            if n < 1:
                ev.errors.append(InputError(f"队号应为正整数，实际为{n}", f"team numbers start at 1; got {n}",
                                            sheet=sheet, cell=cell_of(r, row, "number")))
            if n in numbers:
                ev.errors.append(InputError(f"队号{n}重复（另见第{numbers[n]}行）",
                                            f"team number {n} repeated (see row {numbers[n]})",
                                            sheet=sheet, cell=cell_of(r, row, "number")))
            numbers.setdefault(n, row)


def _read_schedule(ev: TeamEvent) -> pd.DataFrame:
    cols = ["stage_id", "round", "match", "table", "home", "away"]
    if find_sheet(ev.port, T.TEAM_SCHEDULE) is None:
        return pd.DataFrame(columns=cols)
    df = read_table(ev.port, T.TEAM_SCHEDULE, errors=ev.errors)
    sheet = df.attrs.get("sheet", T.TEAM_SCHEDULE.zh)
    rows = []
    for row, rec in records(df):
        st = ev.stage_of(rec["stage"], sheet=sheet, cell=cell_of(df, row, "stage"))
        if st is None or rec["round"] is None or rec["table"] is None or rec["home"] is None:
            continue
        rows.append(dict(stage_id=st.id, round=int(rec["round"]), match=rec["match"] or "",
                         table=int(rec["table"]), home=int(rec["home"]), away=rec["away"]))
    out = pd.DataFrame(rows, columns=cols)
    out["away"] = pd.array([pd.NA if v is None or pd.isna(v) else int(v) for v in out["away"]],
                           dtype="Int64")
    return out


def _read_entries(ev: TeamEvent) -> pd.DataFrame:
    cols = ["stage_id", "team", "from_stage_id", "from_place", "from_vp", "fraction", "scaled",
            "plus", "carry", "join_round", "seed", "clause"]
    if find_sheet(ev.port, T.CARRY) is None:
        return pd.DataFrame(columns=cols)
    df = read_table(ev.port, T.CARRY, errors=ev.errors)
    sheet = df.attrs.get("sheet", T.CARRY.zh)
    rows = []
    for row, rec in records(df):
        st = ev.stage_of(rec["stage"], sheet=sheet, cell=cell_of(df, row, "stage"))
        src = ev.stage_of(rec["from_stage"], sheet=sheet, cell=cell_of(df, row, "from_stage"))
        if st is None or src is None or rec["team"] is None:
            continue
        rows.append(dict(stage_id=st.id, team=int(rec["team"]), from_stage_id=src.id,
                         from_place=rec["from_place"], from_vp=rec["from_vp"],
                         fraction=rec["fraction"], scaled=rec["scaled"], plus=rec["plus"],
                         carry=rec["carry"], join_round=rec["join_round"], seed=rec["seed"],
                         clause=rec["clause"]))
    return pd.DataFrame(rows, columns=cols)


def _sched_index(ev: TeamEvent) -> dict[tuple, Any]:
    return {(r.stage_id, int(r.round), int(r.table)): r for r in ev.schedule.itertuples()}


def _read_results(ev: TeamEvent) -> None:
    idx = _sched_index(ev)
    typed: dict[tuple, tuple[int, int, str, int]] = {}
    res = read_table(ev.port, T.TEAM_RESULTS, required=False, errors=ev.errors)
    sheet = res.attrs.get("sheet", T.TEAM_RESULTS.zh)
    for row, rec in records(res):
        if rec["stage"] is None or rec["round"] is None or rec["table"] is None:
            continue
        st = ev.stage_of(rec["stage"], sheet=sheet, cell=cell_of(res, row, "stage"))
        if st is None:
            continue
        key = (st.id, int(rec["round"]), int(rec["table"]))
        m = idx.get(key)
        if m is None:
            ev.errors.append(InputError(
                f"{ev.stage_name(st)}第{rec['round']}轮没有第{rec['table']}桌（见“对阵”表）",
                f"{st.name_en or st.id} round {rec['round']} has no table {rec['table']} "
                f"(see the Pairings sheet)", sheet=sheet, cell=cell_of(res, row, "table")))
            continue
        away = None if pd.isna(m.away) else int(m.away)
        if rec["home"] != m.home or rec["away"] != away:
            ev.errors.append(InputError(
                f"第{rec['round']}轮第{rec['table']}桌的对阵是 {m.home}（主）对 {away}（客），"
                f"本行写的是 {rec['home']} 对 {rec['away']}",
                f"round {rec['round']} table {rec['table']} is {m.home} (home) v {away} (away); "
                f"this row says {rec['home']} v {rec['away']}",
                sheet=sheet, cell=cell_of(res, row, "home")))
            continue
        hi, ai = rec["home_imps"], rec["away_imps"]
        if hi is None and ai is None:
            continue
        if _is_playoff(rec["match"]):
            # 加赛 (extra boards) of a tied knockout match, for the extra_boards tie-break
            if not isinstance(st.format, KnockoutFormat):
                ev.errors.append(InputError("只有淘汰赛可以录入加赛成绩",
                                            "only knockout matches have extra boards",
                                            sheet=sheet, cell=cell_of(res, row, "match")))
            elif hi is None or ai is None or hi < 0 or ai < 0:
                ev.errors.append(InputError("加赛须同时填写双方IMP（非负数）",
                                            "enter both sides' extra-board IMPs (not negative)",
                                            sheet=sheet, cell=cell_of(res, row, "home_imps")))
            elif key in ev.extra:
                ev.errors.append(InputError("本场加赛成绩重复录入", "extra boards entered twice",
                                            sheet=sheet, cell=cell_of(res, row, "home_imps")))
            else:
                ev.extra[key] = (int(hi), int(ai))
            continue
        if hi is None or ai is None:
            col = "away_imps" if ai is None else "home_imps"
            ev.errors.append(InputError("须同时填写主队IMP与客队IMP",
                                        "enter both the home and the away IMPs",
                                        sheet=sheet, cell=cell_of(res, row, col)))
            continue
        if hi < 0 or ai < 0:
            col = "home_imps" if hi < 0 else "away_imps"
            ev.errors.append(InputError("IMP为各队所得IMP，不能为负数",
                                        "IMPs are those each team scored and cannot be negative",
                                        sheet=sheet, cell=cell_of(res, row, col)))
            continue
        if key in typed:
            ev.errors.append(InputError(f"本场成绩重复录入（另见第{typed[key][3]}行）",
                                        f"this match is entered twice (see row {typed[key][3]})",
                                        sheet=sheet, cell=cell_of(res, row, "home_imps")))
            continue
        typed[key] = (int(hi), int(ai), cell_of(res, row, "home_imps"), row)
    # per board
    boards: dict[tuple, dict[int, tuple]] = {}
    bd = read_table(ev.port, T.TEAM_BOARDS, required=False, errors=ev.errors)
    bsheet = bd.attrs.get("sheet", T.TEAM_BOARDS.zh)
    for row, rec in records(bd):
        if rec["stage"] is None or rec["round"] is None or rec["table"] is None \
                or rec["board"] is None:
            continue
        st = ev.stage_of(rec["stage"], sheet=bsheet, cell=cell_of(bd, row, "stage"))
        if st is None:
            continue
        key = (st.id, int(rec["round"]), int(rec["table"]))
        if key not in idx:
            ev.errors.append(InputError(
                f"{ev.stage_name(st)}第{rec['round']}轮没有第{rec['table']}桌（见“对阵”表）",
                f"{st.name_en or st.id} round {rec['round']} has no table {rec['table']}",
                sheet=bsheet, cell=cell_of(bd, row, "table")))
            continue
        nb = ev.boards(st)
        if not 1 <= rec["board"] <= nb:
            ev.errors.append(InputError(f"副号应为 1–{nb}，实际为 {rec['board']}",
                                        f"board numbers are 1–{nb}; got {rec['board']}",
                                        sheet=bsheet, cell=cell_of(bd, row, "board")))
            continue
        o, c = rec["open_ns"], rec["closed_ns"]
        if o is None and c is None:
            continue
        bad = [k for k, v in (("open_ns", o), ("closed_ns", c)) if v is not None and v % 10]
        if bad:
            ev.errors.append(InputError("桥牌得分应为10的倍数", "bridge scores are multiples of 10",
                                        sheet=bsheet, cell=cell_of(bd, row, bad[0])))
            continue
        per = boards.setdefault(key, {})
        if rec["board"] in per:
            ev.errors.append(InputError(f"第{rec['board']}副重复录入（另见第{per[rec['board']][2]}行）",
                                        f"board {rec['board']} entered twice (see row "
                                        f"{per[rec['board']][2]})", sheet=bsheet,
                                        cell=cell_of(bd, row, "board")))
            continue
        per[rec["board"]] = (o, c, row)
    # combine
    for key, m in idx.items():
        if pd.isna(m.away):
            continue
        st = ev.group.stage(key[0])
        mode = getattr(st.scoring, "imp_entry", "either")
        nb = ev.boards(st)
        from_boards = None
        per = boards.get(key, {})
        if mode != "per_match" and per:
            done = {b: (o, c) for b, (o, c, _r) in per.items() if o is not None and c is not None}
            if len(done) == nb:
                from_boards = match_imps(done[b] for b in sorted(done))
            else:
                ev.incomplete[key] = f"逐副成绩缺 {nb - len(done)} 副"
        t = typed.get(key) if mode != "per_board" else None
        if from_boards is not None and t is not None and from_boards != t[:2]:
            ev.errors.append(InputError(
                f"与逐副成绩换算的IMP（{from_boards[0]} : {from_boards[1]}）不一致",
                f"differs from the IMPs computed from the board results "
                f"({from_boards[0]} : {from_boards[1]})", sheet=sheet, cell=t[2]))
            continue
        if from_boards is not None:
            ev.results[key] = from_boards
        elif t is not None:
            ev.results[key] = t[:2]
            ev.incomplete.pop(key, None)


PLAYOFF_SUFFIXES = ("加赛", "extra", "playoff", "play-off")


def _is_playoff(match) -> bool:
    """A 成绩 row whose 场次 ends with 加赛 (e.g. ``QF2加赛``) holds a knockout play-off."""
    return bool(match) and str(match).strip().lower().endswith(PLAYOFF_SUFFIXES)


def _read_fines(ev: TeamEvent) -> None:
    df = read_table(ev.port, T.TEAM_FINES, required=False, errors=ev.errors)
    sheet = df.attrs.get("sheet", T.TEAM_FINES.zh)
    for row, rec in records(df):
        if rec["stage"] is None or rec["team"] is None:
            continue
        st = ev.stage_of(rec["stage"], sheet=sheet, cell=cell_of(df, row, "stage"))
        if st is None:
            continue
        if isinstance(st.format, KnockoutFormat):
            ev.errors.append(InputError("淘汰赛以IMP决定胜负，不能扣罚VP；请在成绩中按裁判判罚调整IMP",
                                        "a knockout is decided on IMPs: a VP fine does not apply",
                                        sheet=sheet, cell=cell_of(df, row, "stage")))
            continue
        rules = {f.name_zh: f for f in getattr(st.scoring, "fines", [])}
        rules.update({f.name_en: f for f in getattr(st.scoring, "fines", []) if f.name_en})
        if ev.teams and int(rec["team"]) not in ev.teams:
            ev.errors.append(InputError(f"队号 {rec['team']} 不在抽签中", f"team {rec['team']} is not in the draw",
                                        sheet=sheet, cell=cell_of(df, row, "team")))
            continue
        total = ev.total_rounds(st)
        if rec["round"] is not None and not 1 <= rec["round"] <= total:
            ev.errors.append(InputError(f"{ev.stage_name(st)}共 {total} 轮，轮次 {rec['round']} 无效",
                                        f"{st.name_en or st.id} has {total} rounds; got {rec['round']}",
                                        sheet=sheet, cell=cell_of(df, row, "round")))
            continue
        amount = rec["vp"]
        rule = rules.get(rec["reason"]) if rec["reason"] else None
        if rec["reason"] and rule is None and rules:
            ev.errors.append(InputError(f"原因应为以下之一：{'、'.join(f.name_zh for f in st.scoring.fines)}"
                                        f"，或留空并填写扣罚VP",
                                        f"reason must be one of the 规程's fines or empty",
                                        sheet=sheet, cell=cell_of(df, row, "reason")))
            continue
        if amount is None:
            if rule is not None and rule.vp is not None:
                amount = rule.vp
            else:
                ev.errors.append(InputError("须填写扣罚VP", "enter the VP fined",
                                            sheet=sheet, cell=cell_of(df, row, "vp")))
                continue
        if amount <= 0:
            ev.errors.append(InputError("扣罚VP应为正数（扣除的VP）",
                                        "a fine is the positive number of VP deducted",
                                        sheet=sheet, cell=cell_of(df, row, "vp")))
            continue
        if rule is not None and rule.vp_min is not None and not (
                rule.vp_min <= amount <= (rule.vp_max or amount)):
            ev.errors.append(InputError(f"“{rule.name_zh}”扣罚{rule.vp_min}–{rule.vp_max}VP，"
                                        f"实际填写{amount}", f"{rule.name_en or rule.name_zh} is "
                                        f"{rule.vp_min}–{rule.vp_max} VP; got {amount}",
                                        sheet=sheet, cell=cell_of(df, row, "vp")))
            continue
        ev.fines.setdefault(st.id, []).append((rec["round"], int(rec["team"]), q2(amount)))
