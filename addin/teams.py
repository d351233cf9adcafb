"""Commands of a bridge team event across stages: new, draw (next round), advance, rank.

The regulation's group is a list of stages (``swiss``, ``knockout``, ``round_robin``) whose
entrants come from the roster or from earlier stages (places, knockout losers, with carry-over).
Every command reads the whole workbook through a :class:`~bianpai.workbooks.port.WorkbookPort`,
validates (every bad cell named by sheet!cell, in Chinese and English), computes with the
engines, writes the generated sheets whole, appends a 日志 row with the random seed, and saves
once. Nothing is written when the input is bad.

The workbook is the state: 抽签 (team numbers), 对阵 (every round drawn, all stages), 带分 (who
entered a later stage, from which place, with what carry-over and the ranking seed used),
成绩/逐副成绩/罚分 (typed by the arbiter).

Sources: Fujian 2024 桥牌项目竞赛规程 五、六、八、九; Otog 2024 单项竞赛规则 四、桥牌.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pandas as pd

from bianpai.addin.team_eligibility import team_eligibility_findings
from bianpai.engines.bridge import carry_over_parts
from bianpai.engines.bridge import match_imps, vp
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.knockout import knockout8, knockout_places
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.engines.rounding import q2, to_decimal
from bianpai.engines.swiss import SwissEntrant, swiss_pairings
from bianpai.engines.team_standings import combine_places, team_standings
from bianpai.templates.schema import (
    Group, KnockoutFormat, Regulation, RoundRobinFormat, Stage, SwissFormat)
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import regulation_from_sheet, write_settings_sheet
from bianpai.workbooks.tables import records, cell_of, find_sheet, read_table

__all__ = ["is_team_regulation", "is_team_workbook", "build_team_workbook", "team_check", "team_draw",
           "team_advance", "team_rank", "load_team_event"]

KO_ROUND = {"QF": 1, "SF": 2, "F": 3, "3RD": 3}
KO_TABLE = {"QF1": 1, "QF2": 2, "QF3": 3, "QF4": 4, "SF1": 1, "SF2": 2, "F": 1, "3RD": 2}
KO_LAST_ROUND = 3


def _cmd():
    # imported lazily: commands dispatches to this module
    from bianpai.addin import commands
    return commands


# ------------------------------------------------------------------------------ detection

def is_team_regulation(reg: Regulation) -> bool:
    """True when the regulation's (first) group is a team event run by this module."""
    return bool(reg.groups) and reg.groups[0].entrant == "team"


def is_team_workbook(port: WorkbookPort) -> bool:
    """True when the workbook's 规程 sheet names a team preset (False when it cannot be read:
    the generic command then reports the problem)."""
    try:
        return is_team_regulation(regulation_from_sheet(port))
    except Exception:
        return False


# ------------------------------------------------------------------------------ the event

@dataclass
class TeamEvent:
    """Everything a team command reads, validated. Keys of ``results``: ``(stage_id, round,
    table)`` → ``(home_imps, away_imps)`` of complete matches only; ``incomplete`` names the
    scheduled matches still lacking results (same keys)."""

    port: WorkbookPort
    reg: Regulation
    group: Group
    lang: str
    roster: pd.DataFrame
    teams: dict[int, dict] = field(default_factory=dict)  # number -> name, unit, roster_row
    drawn: bool = False
    schedule: pd.DataFrame | None = None
    entries: pd.DataFrame | None = None
    results: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    incomplete: dict[tuple, str] = field(default_factory=dict)
    extra: dict[tuple, tuple[int, int]] = field(default_factory=dict)  # knockout play-off IMPs
    fines: dict[str, list[tuple[int | None, int, Decimal]]] = field(default_factory=dict)
    errors: list[InputError] = field(default_factory=list)

    # -- names
    def stage_name(self, stage: Stage) -> str:
        return stage.name_zh if self.lang == "zh" else (stage.name_en or stage.name_zh)

    def stage_of(self, value, *, sheet: str, cell: str) -> Stage | None:
        v = str(value).strip()
        for s in self.group.stages:
            if v in (s.id, s.name_zh, s.name_en):
                return s
        names = "、".join(s.name_zh for s in self.group.stages)
        self.errors.append(InputError(f"未知阶段“{value}”，应为：{names}",
                                      f"unknown stage {value!r}; expected one of "
                                      f"{', '.join(s.name_en or s.id for s in self.group.stages)}",
                                      sheet=sheet, cell=cell))
        return None

    def name_of(self, team) -> str:
        if team is None or team is pd.NA or (isinstance(team, float) and team != team):
            return "轮空" if self.lang == "zh" else "bye"
        t = self.teams.get(int(team))
        return t["name"] if t else f"{team}号"

    def unit_of(self, team) -> str | None:
        t = self.teams.get(int(team))
        return t["unit"] if t else None

    def sheet(self, layout) -> str:
        return find_sheet(self.port, layout) or layout.name(self.lang)

    # -- stage state
    def stage_rows(self, stage: Stage) -> pd.DataFrame:
        s = self.schedule
        if s is None or s.empty:
            return pd.DataFrame(columns=["stage_id", "round", "match", "table", "home", "away"])
        return s[s["stage_id"] == stage.id]

    def started(self, stage: Stage) -> bool:
        return not self.stage_rows(stage).empty

    def rounds_drawn(self, stage: Stage) -> int:
        rows = self.stage_rows(stage)
        return int(rows["round"].max()) if len(rows) else 0

    def total_rounds(self, stage: Stage) -> int:
        f = stage.format
        if isinstance(f, SwissFormat):
            return f.rounds
        if isinstance(f, KnockoutFormat):
            return KO_LAST_ROUND
        n = len(self.stage_entrants(stage))
        return len(round_robin_schedule(max(n, 2), cycles=f.cycles)["round"].unique())

    def boards(self, stage: Stage) -> int:
        f = stage.format
        if isinstance(f, KnockoutFormat):
            return f.boards
        sc = stage.scoring
        return getattr(sc, "boards", None) or f.boards_per_round

    def missing(self, stage: Stage, rnd: int) -> list[str]:
        """Descriptions of the matches of ``rnd`` without a complete result."""
        out = []
        rows = self.stage_rows(stage)
        for rec in rows[rows["round"] == rnd].itertuples():
            if rec.away is None or pd.isna(rec.away):
                continue
            key = (stage.id, int(rec.round), int(rec.table))
            if key not in self.results:
                label = f"{rec.match} " if rec.match else ""
                what = self.incomplete.get(key, "未录入")
                out.append(f"{self.stage_name(stage)}第{rnd}轮{label}第{rec.table}桌 "
                           f"{rec.home}号{self.name_of(rec.home)} 对 {int(rec.away)}号"
                           f"{self.name_of(rec.away)}（{what}）")
        return out

    def finished(self, stage: Stage) -> bool:
        """All rounds drawn and every match of the stage has its result."""
        if isinstance(stage.format, KnockoutFormat):
            if not self.started(stage):
                return False
            ko = self.knockout(stage)
            return bool(ko["winner"].notna().all())
        r = self.rounds_drawn(stage)
        return r >= self.total_rounds(stage) and r > 0 and not any(
            self.missing(stage, k) for k in range(1, r + 1))

    # -- entrants
    def stage_entrants(self, stage: Stage, upto_round: int | None = None) -> list[dict]:
        """Entrants of ``stage``: ``team, carry (VP), join_round, prev_rank``; for the first
        stage every drawn team; later ones from 带分, joined by ``upto_round`` when given."""
        if stage.entrants == "all" or stage is self.group.stages[0]:
            return [dict(team=t, carry=Decimal("0.00"), join_round=1, prev_rank=None)
                    for t in sorted(self.teams)]
        e = self.entries
        if e is None or e.empty:
            return []
        sub = e[e["stage_id"] == stage.id]
        out = []
        for rec in sub.to_dict("records"):
            jr = int(rec["join_round"] or 1)
            if upto_round is not None and jr > upto_round:
                continue
            out.append(dict(team=int(rec["team"]), carry=q2(rec["carry"] or 0), join_round=jr,
                            prev_rank=rec["from_place"]))
        return out

    def ranking_seed(self, stage: Stage) -> int | None:
        """The seed used when ``stage``'s ranking was taken into a later stage (from 带分)."""
        e = self.entries
        if e is None or e.empty:
            return None
        sub = e[(e["from_stage_id"] == stage.id) & e["seed"].notna()]
        for v in sub["seed"]:
            try:
                return int(str(v).strip())
            except ValueError:
                continue
        return None

    # -- computing
    def matches_frame(self, stage: Stage, upto_round: int | None = None) -> pd.DataFrame:
        """Complete matches of a VP stage: ``round, home, away, home_imps, away_imps, home_vp,
        away_vp`` (byes: the format's bye VP)."""
        rows = self.stage_rows(stage)
        if upto_round is not None:
            rows = rows[rows["round"] <= upto_round]
        b = self.boards(stage)
        bye_vp = getattr(stage.format, "bye_vp", Decimal("12"))
        out = []
        for rec in rows.itertuples():
            if rec.away is None or pd.isna(rec.away):
                out.append(dict(round=int(rec.round), home=int(rec.home), away=pd.NA,
                                home_imps=0, away_imps=0, home_vp=q2(bye_vp), away_vp=None))
                continue
            key = (stage.id, int(rec.round), int(rec.table))
            if key not in self.results:
                continue
            hi, ai = self.results[key]
            hv, av = vp(hi - ai, b)
            out.append(dict(round=int(rec.round), home=int(rec.home), away=int(rec.away),
                            home_imps=hi, away_imps=ai, home_vp=hv, away_vp=av))
        df = pd.DataFrame(out, columns=["round", "home", "away", "home_imps", "away_imps",
                                        "home_vp", "away_vp"])
        df["away"] = df["away"].astype("Int64")
        return df

    def standings(self, stage: Stage, *, seed: int | None, upto_round: int | None = None,
                  chain: list[str] | None = None) -> pd.DataFrame:
        """VP standings of a swiss/round-robin stage (engine: ``team_standings``)."""
        ents = self.stage_entrants(stage, upto_round)
        fines: dict[int, Decimal] = {}
        for rnd, team, amount in self.fines.get(stage.id, []):
            if upto_round is None or rnd is None or rnd <= upto_round:
                fines[team] = fines.get(team, Decimal(0)) + amount
        return team_standings(self.matches_frame(stage, upto_round),
                              teams=[e["team"] for e in ents],
                              carry_over={e["team"]: e["carry"] for e in ents}, fines=fines,
                              tie_chain=chain or stage.tie_breaks.criteria, seed=seed)

    def ko_places(self, stage: Stage) -> list[int]:
        ents = sorted(self.stage_entrants(stage), key=lambda e: e["prev_rank"] or 0)
        return [e["team"] for e in ents]

    def knockout(self, stage: Stage) -> pd.DataFrame:
        """The bracket (engine ``knockout8``) filled with the entered results."""
        res, extra = {}, {}
        for rec in self.stage_rows(stage).itertuples():
            key = (stage.id, int(rec.round), int(rec.table))
            if key in self.results:
                res[rec.match] = self.results[key]
            if key in self.extra:
                extra[rec.match] = self.extra[key]
        return knockout8(self.ko_places(stage), res, tie_chain=stage.format.tie_breaks,
                         extra_imps=extra)


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


# ------------------------------------------------------------------------------ check

def field_size_errors(ev: TeamEvent) -> list[InputError]:
    """A field too small for the stage structure (e.g. an 8-team knockout plus a consolation
    Swiss) is refused before the first draw, not discovered at 进入下一阶段."""
    need = ev.group.min_entries
    n = len(ev.roster)
    if not need or n == 0 or n >= need:
        return []
    why = f"（{ev.group.min_entries_note}）" if ev.group.min_entries_note else ""
    return [InputError(f"本规程的赛制至少需要 {need} 队{why}，现报名 {n} 队；请在“规程”表修改赛制"
                       f"或 groups[0].min_entries 后再编排",
                       f"this format needs at least {need} teams; {n} entered",
                       sheet=T.TEAM_ROSTER.zh)]


def team_check(port: WorkbookPort):
    """Check the team roster (structure, and the regulation's eligibility rules on every person of
    报名/队员) and every typed sheet; write 校验 (severity, sheet!cell, zh, en). Errors block the
    first draw; warnings block it until accepted with a reason (``accept_warnings``)."""
    c = _cmd()
    ev = load_team_event(port)
    problems = [("error", e) for e in ev.errors + field_size_errors(ev)] + \
        team_eligibility_findings(ev)
    rows = c._finding_rows(problems, ev.lang)
    if not rows:
        rows = [["通过" if ev.lang == "zh" else "ok", "", "未发现问题", "no problems found"]]
    c.write_generated(port, L.CHECKS, rows, ev.lang)
    n_err = sum(1 for sev, _ in problems if sev == "error")
    n_warn = len(problems) - n_err
    result = c.CommandResult("check", f"检查：{len(ev.roster)} 队，错误 {n_err} 处，警告 {n_warn} 处",
                             f"check: {len(ev.roster)} teams, {n_err} errors, {n_warn} warnings",
                             findings=[{"severity": sev, "where": e.where, "zh": e.zh, "en": e.en}
                                       for sev, e in problems])
    return c.finish(port, result, {}, ev.lang)


# ------------------------------------------------------------------------------ new

def build_team_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh"):
    """Write the sheets of a new team event workbook: 规程, 报名, 队员, 成绩, 逐副成绩, 罚分, 日志.

    Returns the ``CommandResult`` of the ``new`` command."""
    c = _cmd()
    lang = lang or reg.language
    reg = write_settings_sheet(port, reg, lang)
    g = reg.groups[0]
    stages = [s.name_zh if lang == "zh" else (s.name_en or s.name_zh) for s in g.stages]
    reasons = [f.name_zh for s in g.stages for f in getattr(s.scoring, "fines", [])]
    for layout in (T.TEAM_ROSTER, T.TEAM_PLAYERS, T.TEAM_RESULTS, T.TEAM_BOARDS, T.TEAM_FINES):
        choices = {"stage": stages, "reason": sorted(set(reasons))}
        port.write_sheet(layout.name(lang), [layout.headers(lang)],
                         layout.sheet_format(choices=choices, lang=lang))
    result = c.CommandResult("new", f"新建团体赛工作簿（规程：{reg.title_zh}）",
                             f"new team workbook ({reg.title_en or reg.id})")
    return c.finish(port, result, {"preset": reg.id, "language": lang}, lang)


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
    fmt: SwissFormat = stage.format
    ents = ev.stage_entrants(stage, upto_round=rnd)
    st = ev.standings(stage, seed=None, upto_round=rnd - 1, chain=["vp"]) if rnd > 1 else None
    total = dict(zip(st["team"], st["total"])) if st is not None else {}
    rows = ev.stage_rows(stage)
    rows = rows[rows["round"] < rnd]
    met = {frozenset((int(h), int(a))) for h, a in zip(rows["home"], rows["away"]) if not pd.isna(a)}
    if fmt.rematch == "never":  # opponents of earlier stages may not meet again either
        s = ev.schedule
        earlier = s[(s["stage_id"] != stage.id)]
        met |= {frozenset((int(h), int(a))) for h, a in zip(earlier["home"], earlier["away"])
                if not pd.isna(a)}
    byes = {int(h) for h, a in zip(rows["home"], rows["away"]) if pd.isna(a)}
    if fmt.bye_limit == "per_event":  # a bye in an earlier stage counts too
        s = ev.schedule
        earlier = s[(s["stage_id"] != stage.id)]
        byes |= {int(h) for h, a in zip(earlier["home"], earlier["away"]) if pd.isna(a)}
    es = [SwissEntrant(team=e["team"], unit=ev.unit_of(e["team"]),
                       total=total.get(e["team"], e["carry"]), prev_rank=e["prev_rank"],
                       had_bye=e["team"] in byes) for e in ents]
    by_number = rnd == 1 and fmt.round1 == "by_number"
    return swiss_pairings(es, met, rnd, by_number=by_number, same_unit_first=fmt.same_unit_first)


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
