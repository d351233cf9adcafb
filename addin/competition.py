"""The competition core's event: one reading of a workbook for every format and scoring.

:func:`load_core_event` reads the whole workbook once through a
:class:`~bianpai.workbooks.port.WorkbookPort` (规程, 报名, 抽签, 对阵, 晋级, 成绩, 逐局成绩, 罚分),
validates every cell (errors collected with sheet!cell) and returns a :class:`CoreEvent`. The
event answers, per group (组别) and stage (阶段), the :class:`~bianpai.engines.core.StageState` a
format needs, the scored results, the standings per pool (小组) and the placings. Commands
(:mod:`bianpai.addin.competition_commands`) never branch on the sport: they ask the stage's
format and scoring.

State lives in the workbook: 抽签 (numbers, pools), 对阵 (every drawn match, hand edits
included), 晋级 (who entered a later stage from which place, with the ranking seed), and the
typed sheets. Everything else is derived on every run.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pandas as pd

from bianpai.engines import core
from bianpai.engines.core import Match, MatchResult, StageEntrant, StageState, TypedMatch
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.rounding import q2
from bianpai.engines.standings import CRITERIA
from bianpai.engines.standings import rank as rank_engine
from bianpai.templates.schema import Group, Regulation, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import regulation_from_sheet
from bianpai.workbooks.tables import cell_of, find_sheet, read_table
from bianpai.workbooks.tables import records as _all_records


def records(df: pd.DataFrame):
    """Rows of a read sheet, without those whose cells were already reported as bad (their
    blanks would only cause follow-on errors)."""
    bad = df.attrs.get("bad_rows", set())
    for row, rec in _all_records(df):
        if row not in bad:
            yield row, rec

__all__ = ["is_core_regulation", "is_core_workbook", "CoreEvent", "GroupState",
           "load_core_event", "layouts_for", "DEFAULT_SIDES"]

DEFAULT_SIDES = (("主队", "Home"), ("客队", "Away"))


# ------------------------------------------------------------------------------ detection

def _is_core_stage(stage: Stage) -> bool:
    return stage.scoring.kind in core.SCORINGS and stage.format.kind in core.FORMATS


def is_core_regulation(reg: Regulation) -> bool:
    """True when the regulation's stages run on the competition core (every stage's format and
    scoring are registered core pieces)."""
    stages = [s for g in reg.groups for s in g.stages]
    return bool(stages) and all(_is_core_stage(s) for s in stages)


def is_core_workbook(port: WorkbookPort) -> bool:
    """True when the workbook's 规程 sheet names a core regulation (False when it cannot be
    read: the generic command then reports the problem)."""
    try:
        return is_core_regulation(regulation_from_sheet(port))
    except Exception:
        return False


# ------------------------------------------------------------------------------ layouts

@dataclass
class Layouts:
    results: Any
    games: Any
    standings: Any
    sides: tuple[tuple[str, str], ...]


def layouts_for(reg: Regulation) -> Layouts:
    """The result-entry and standings layouts of ``reg``: value columns are the union of the
    stage scorings' entry columns (first declaration of a key wins), criteria columns the union
    of the stage chains; side titles from the regulation's ``side_titles`` when set (an event
    whose formats name their sides differently: 南北/东西 and 先手/后手), else from the first
    stage's format."""
    stages = [s for g in reg.groups for s in g.stages]
    sides = tuple(getattr(type(stages[0].format), "side_labels", DEFAULT_SIDES)) if stages \
        else DEFAULT_SIDES
    if reg.side_titles:
        en = list(reg.side_titles_en or reg.side_titles)
        sides = tuple((zh, en[i] if i < len(en) else zh) for i, zh in enumerate(reg.side_titles))
    mcols, gcols, decisions, crits = [], [], [], []
    seen_m, seen_g, seen_c = set(), set(), set()
    scorings = [(s, sc) for s in stages
                for sc in [s.scoring] + [v.scoring for v in s.variants if v.scoring is not None]]
    for s, sc in scorings:
        for c in sc.entry_match_columns():
            if c.key not in seen_m:
                seen_m.add(c.key)
                mcols.append(c)
        for c in sc.entry_game_columns():
            if c.key not in seen_g:
                seen_g.add(c.key)
                gcols.append(c)
        for d in sc.entry_decisions():
            if d not in decisions:
                decisions.append(d)
    for s in stages:
        for name in (s.tie_breaks.criteria if s.tie_breaks else []):
            if name not in seen_c and name in CRITERIA and name != "lots":
                seen_c.add(name)
                c = CRITERIA[name]
                crits.append((name, c.label_zh, c.label_en))
    return Layouts(results=K.results_layout(mcols, decisions, list(sides)),
                   games=K.games_layout(gcols, list(sides)),
                   standings=K.standings_layout(crits), sides=sides)


# ------------------------------------------------------------------------------ the event

@dataclass
class GroupState:
    """One group's drawn state: ``teams`` number → dict(name, unit, roster_row, pool,
    position, seed); ``seed`` the draw seed from 抽签."""

    group: Group
    teams: dict[int, dict] = field(default_factory=dict)
    seed: int | None = None

    @property
    def drawn(self) -> bool:
        return bool(self.teams)


@dataclass
class CoreEvent:
    """Everything a core command reads, validated. ``errors`` holds every bad cell found."""

    port: WorkbookPort
    reg: Regulation
    lang: str
    lay: Layouts
    roster: pd.DataFrame
    groups: dict[str, GroupState] = field(default_factory=dict)
    schedule: pd.DataFrame | None = None
    entries: pd.DataFrame | None = None
    typed: dict[tuple, TypedMatch] = field(default_factory=dict)
    #: (group_id, stage_id, number) → (last round played, annul results?, reason)
    withdrawals: dict[tuple, tuple[int, bool, str]] = field(default_factory=dict)
    #: the people roster (one row per person) when the regulation's roster layout is "people";
    #: ``roster`` then holds one row per entrant built from it (index: first person's row)
    people: pd.DataFrame | None = None
    #: (group_id, stage_id) → entrants whose results are all annulled (forfeit, 取消 withdrawal):
    #: ranked after the others, never qualified
    annulled: dict = field(default_factory=dict)
    #: columns of the widest pool in 交叉表 (set by rank)
    crosstable_width: int = 0
    #: column key → letter of the 逐局成绩 sheet (for scoring errors' cells)
    game_cols: dict[str, str] = field(default_factory=dict)
    errors: list[InputError] = field(default_factory=list)
    _results_cache: dict = field(default_factory=dict)

    # -- names
    def gname(self, g: Group) -> str:
        return g.name_zh if self.lang == "zh" else (g.name_en or g.name_zh)

    def sname(self, s: Stage) -> str:
        return s.name_zh if self.lang == "zh" else (s.name_en or s.name_zh)

    def sheet(self, layout) -> str:
        return find_sheet(self.port, layout) or layout.name(self.lang)

    def group_of(self, value) -> Group | None:
        v = "" if value is None else str(value).strip()
        for g in self.reg.groups:
            if v in (g.id, g.name_zh, g.name_en):
                return g
        return None

    def stage_of(self, g: Group, value) -> Stage | None:
        v = "" if value is None else str(value).strip()
        for s in g.stages:
            if v in (s.id, s.name_zh, s.name_en):
                return s
        return None

    def name_of(self, g: Group, number) -> str:
        if number is None or number is pd.NA or (isinstance(number, float) and number != number):
            return "轮空" if self.lang == "zh" else "bye"
        t = self.groups[g.id].teams.get(int(number))
        return t["name"] if t else f"{number}号"

    def roster_value(self, g: Group, number, key: str):
        """The 报名 value ``key`` (``seed`` 种子, ``rating`` 等级分, ``gender`` …) of entrant
        ``number`` of ``g`` (``None`` when empty or unknown)."""
        teams = self.groups[g.id].teams
        cache = self._results_cache.setdefault(("roster_value", g.id, key), {})
        if len(cache) != len(teams) + 1:  # (re)built once the group's numbers are known
            r = self.roster
            col = r[key] if key in r.columns else None
            cache.clear()
            for n, t in teams.items():
                v = None
                if col is not None and t.get("roster_row") is not None:
                    try:
                        v = col.loc[int(t["roster_row"])]
                    except KeyError:
                        v = None
                    if isinstance(v, pd.Series):
                        v = v.iloc[0]
                cache[n] = None if v is None or (isinstance(v, float) and v != v) else v
            cache[None] = None
        return cache.get(int(number))

    def unit_of(self, g: Group, number) -> str | None:
        t = self.groups[g.id].teams.get(int(number))
        return t["unit"] if t else None

    # -- stage state
    def stage_matches(self, g: Group, s: Stage) -> list[Match]:
        sch = self.schedule
        if sch is None or sch.empty:
            return []
        sub = sch[(sch["group_id"] == g.id) & (sch["stage_id"] == s.id)]
        out = []
        for rec in sub.to_dict("records"):
            sides = (rec["side0"], rec["side1"])
            out.append(Match(round=int(rec["round"]), table=int(rec["table"]),
                             sides=tuple(None if v is None else int(v) for v in sides),
                             pool=rec["pool"], label=rec["label"]))
        out.sort(key=lambda m: (m.round, str(m.pool or ""), m.table))
        return out

    def started(self, g: Group, s: Stage) -> bool:
        return bool(self.stage_matches(g, s))

    def stage_entrants(self, g: Group, s: Stage) -> list[StageEntrant]:
        """The first stage: every drawn team (pool and position from 抽签); later stages: the
        晋级 rows written by ``advance``."""
        gs = self.groups[g.id]
        if s is g.stages[0] or s.entrants in ("all", "unseeded"):
            # "unseeded": the roster's entrants with a 种子 skip this stage (they enter a later
            # one directly, EntrantRule.from_roster)
            return [StageEntrant(number=n, pool=t["pool"], seed=t["position"] or n,
                                 unit=t["unit"], withdrawn_after=self.withdrawn_after(g, s, n),
                                 rating=self.roster_value(g, n, "rating"))
                    for n, t in sorted(gs.teams.items())
                    if s.entrants != "unseeded" or self.roster_value(g, n, "seed") is None]
        e = self.entries
        if e is None or e.empty:
            return []
        sub = e[(e["group_id"] == g.id) & (e["stage_id"] == s.id)]
        return [StageEntrant(number=int(r["number"]), pool=r["pool"],
                             seed=int(r["position"]) if r["position"] is not None else None,
                             carry=q2(r["carry"] or 0), join_round=int(r["join_round"] or 1),
                             unit=self.unit_of(g, r["number"]),
                             withdrawn_after=self.withdrawn_after(g, s, int(r["number"])))
                for r in sub.to_dict("records")]

    def withdrawn_after(self, g: Group, s: Stage, number: int) -> int | None:
        """The last round ``number`` plays in stage ``s`` (退赛), ``None`` if it plays on; a
        team that withdrew in an earlier stage plays no round of a later one."""
        w = self.withdrawals.get((g.id, s.id, number))
        if w is not None:
            return w[0]
        for earlier in g.stages[:g.stages.index(s)]:
            if (g.id, earlier.id, number) in self.withdrawals:
                return 0
        return None

    def entered(self, g: Group, s: Stage) -> bool:
        """True when the stage's entrants are known (first stage: drawn; later: advanced)."""
        return bool(self.stage_entrants(g, s))

    def stage_seed(self, g: Group, s: Stage) -> int | None:
        """The seed a stage's ranking lots use: the seed recorded when the stage's entrants
        were taken further (晋级), else the group's draw seed."""
        e = self.entries
        if e is not None and not e.empty:
            sub = e[(e["group_id"] == g.id) & (e["from_stage_id"] == s.id) & e["seed"].notna()]
            for v in sub["seed"]:
                try:
                    return int(str(v).strip())
                except ValueError:
                    continue
        return self.groups[g.id].seed

    def results(self, g: Group, s: Stage) -> dict[tuple, MatchResult]:
        """Scored complete matches of the stage by match key (byes included), after the
        scoring's stage-level rules (e.g. annulment of a forfeiting team's matches)."""
        key = (g.id, s.id)
        if key in self._results_cache:
            return self._results_cache[key]
        out: dict[tuple, MatchResult] = {}
        forfeits: dict[tuple, MatchResult] = {}
        sc = s.scoring
        if getattr(sc, "scope", "match") == "stage":
            out = self._stage_scope_results(g, s)
        for m in ([] if getattr(sc, "scope", "match") == "stage" else self.stage_matches(g, s)):
            if m.is_bye:
                out[m.key] = sc.bye(m)
                continue
            typed = self.typed.get((g.id, s.id, *m.key))
            gone = [i for i, e in enumerate(m.sides) if e is not None and
                    (w := self.withdrawn_after(g, s, e)) is not None and m.round > w]
            if gone and (typed is None or typed.empty):
                forfeits[m.key] = sc.forfeit(m, gone[0])
                continue
            if typed is None or typed.empty:
                continue
            if not sc.is_complete(typed):
                for exc in sc.problems(m, typed):
                    self.errors.append(self._placed(exc, typed))
                continue
            try:
                out[m.key] = sc.score_typed(m, typed)
            except InputError as exc:
                self.errors.append(self._placed(exc, typed))
        # a withdrawal's forfeits come after the scoring's own stage rules (九第一条2 voids a
        # forfeiting team's results: a withdrawal decides that itself, by its 成绩处理)
        played = list(out.values())
        annulled: set[int] = set()
        if getattr(type(s.format), "annul_results", True):
            done = sc.finalize(played)
            # entrants whose forfeit voided all their results (九第一条2) rank after the others
            gone = {e for r in played for e, o in zip(r.match.sides, r.outcome) if o == "FL"}
            annulled |= {e for e in gone if all("VOID" in r.outcome for r in done
                                                 if e in r.match.sides)}
            done += list(forfeits.values())
            for (gid, sid, number), (_k, annul, reason) in self.withdrawals.items():
                if annul and gid == g.id and sid == s.id:
                    annulled.add(number)
                    done = core.annul_entrant(done, number,
                                              note_zh=f"{number}号退赛，成绩取消（{reason}）",
                                              note_en=f"{number} withdrew; results annulled")
        else:  # a bracket: results stand (walkovers included), nobody's are annulled
            done = played + list(forfeits.values())
        self.annulled[key] = annulled
        out = {r.match.key: r for r in done}
        self._results_cache[key] = out
        return out

    def _stage_scope_results(self, g: Group, s: Stage) -> dict[tuple, MatchResult]:
        """A scoring with ``scope = "stage"`` scores the whole stage at once (results compared
        across tables): ``score_stage(matches, typed by match key)``; its errors are placed like
        a match scoring's."""
        matches = self.stage_matches(g, s)
        typed = {m.key: self.typed[(g.id, s.id, *m.key)] for m in matches
                 if (g.id, s.id, *m.key) in self.typed}
        try:
            done = s.scoring.score_stage(matches, typed)
        except InputErrors as exc:
            empty = TypedMatch(games=pd.DataFrame(columns=["game"]))
            for e in exc.errors:
                self.errors.append(self._placed(e, empty))
            return {}
        except InputError as exc:
            self.errors.append(self._placed(exc, TypedMatch(games=pd.DataFrame(columns=["game"]))))
            return {}
        return {r.match.key: r for r in done}

    def _placed(self, exc: InputError, typed: TypedMatch) -> InputError:
        """``exc`` with its sheet!cell: a scoring error carries the typed row (Excel row of
        逐局成绩) and column key; else the match's first typed cell."""
        row, col = getattr(exc, "row", None), getattr(exc, "column", None)
        cols = self.game_cols
        if exc.sheet is None and row is not None and col in cols:
            exc.sheet, exc.cell = self.sheet(self.lay.games), f"{cols[col]}{row}"
        elif exc.sheet is None and row is not None and col == "game":
            exc.sheet, exc.cell = self.sheet(self.lay.games), f"{cols.get('game', 'F')}{row}"
        elif exc.sheet is None and typed.where:
            exc.sheet, _, exc.cell = typed.where[0].partition("!")
        return exc

    def missing(self, g: Group, s: Stage, rnd: int | None = None) -> list[Match]:
        res = self.results(g, s)
        return [m for m in self.stage_matches(g, s) if not m.is_bye and m.key not in res
                and (rnd is None or m.round == rnd)]

    def state(self, g: Group, s: Stage, *, with_standings: bool = True) -> StageState:
        st = StageState(entrants=self.stage_entrants(g, s), matches=self.stage_matches(g, s),
                        results=self.results(g, s), seed=self.stage_seed(g, s))
        if with_standings:
            st.standings = {p: self.pool_standings(g, s, p, st) for p in st.pools()}
        return st

    def pool_standings(self, g: Group, s: Stage, pool, st: StageState | None = None
                       ) -> pd.DataFrame:
        """The ranking of one pool: columns ``rank``, ``entrant``, one per criterion,
        ``explanation_zh``/``explanation_en``, and ``played``, ``won``, ``drawn``, ``lost``."""
        st = st or self.state(g, s, with_standings=False)
        ents = [e for e in st.entrants if e.pool == pool]
        members = {e.number for e in ents}
        # a match without a pool may bring together entrants of two pools (a Mitchell table:
        # one 南北 pair and one 东西 pair, ranked apart); each pool takes its own entrants' rows
        res = [r for r in st.results.values() if r.match.pool == pool or (
            r.match.pool is None and members.intersection(r.match.entrants))]
        rows = core.entrant_rows(res, [e.number for e in ents])
        carry = {e.number: e.carry for e in ents if e.carry}
        if carry:
            rows = pd.concat([rows, pd.DataFrame([
                {"round": 0, "pool": pool, "table": 0, "entrant": n, "opponent": pd.NA,
                 "opponents": (), "side": 0, "match_points": c, "outcome": "CARRY",
                 "complete": True} for n, c in carry.items()])], ignore_index=True)
            rows["opponent"] = rows["opponent"].astype("Int64")
        chain = s.tie_breaks.criteria if s.tie_breaks else ["match_points", "lots"]
        ctx = dict(s.tie_breaks.options) if s.tie_breaks else {}
        table = rank_engine([e.number for e in ents], rows, chain,
                            seed=self.stage_seed(g, s), ctx=ctx).table
        gone = self.annulled.get((g.id, s.id), set()) & set(table["entrant"])
        if gone:  # annulled entrants after everyone else, sharing the last place
            keep = table[~table["entrant"].isin(gone)].copy()
            keep["rank"] = [1 + int((keep["rank"] < r).sum()) for r in keep["rank"]]
            tail = table[table["entrant"].isin(gone)].copy()
            tail["rank"] = len(keep) + 1
            tail["explanation_zh"] = "弃权或取消资格，全部成绩无效，不参加排名"
            tail["explanation_en"] = "forfeited or disqualified: all results void, not ranked"
            table = pd.concat([keep, tail], ignore_index=True)
        played = rows[rows["complete"].astype(bool) & (rows["outcome"] != "CARRY")]
        for col, codes in (("played", ("W", "D", "L", "FW", "FL")), ("won", ("W", "FW")),
                           ("drawn", ("D",)), ("lost", ("L", "FL"))):
            counts = played[played["outcome"].isin(codes)].groupby("entrant").size()
            table[col] = [int(counts.get(e, 0)) for e in table["entrant"]]
        return table

    def finished(self, g: Group, s: Stage) -> bool:
        return self.entered(g, s) and s.format.finished(self.state(g, s, with_standings=False))


# ------------------------------------------------------------------------------ loading

def load_core_event(port: WorkbookPort) -> CoreEvent:
    """Read and validate the whole core workbook. Problems are collected in ``errors`` (each
    with sheet and cell); the 规程 sheet's errors raise at once (``InputError``)."""
    reg = regulation_from_sheet(port)
    if not is_core_regulation(reg):
        raise RuleError("本工作簿的规程不使用通用赛制核心", "this workbook's regulation is not a core event")
    from bianpai.addin import commands as c
    c.TITLE["text"] = reg.title_zh if reg.language == "zh" else (reg.title_en or reg.title_zh)
    errors: list[InputError] = []
    people = None
    if reg.roster_layout == "people":
        people = read_table(port, L.ROSTER_PEOPLE, errors=errors)
        roster = pd.DataFrame(columns=[c.key for c in K.ROSTER.columns])
        roster.attrs = dict(people.attrs)
    else:
        roster = read_table(port, K.ROSTER, errors=errors)
    ev = CoreEvent(port=port, reg=reg, lang=reg.language, lay=layouts_for(reg), roster=roster,
                   errors=errors, people=people)
    for g in reg.groups:
        ev.groups[g.id] = GroupState(group=g)
    if people is not None:
        _entrants_from_people(ev)
    _read_roster_groups(ev)
    _read_draw(ev)
    _choose_variants(ev)
    ev.schedule = _read_schedule(ev)
    ev.entries = _read_entries(ev)
    _read_typed(ev)
    _check_members(ev)
    _read_withdrawals(ev)
    return ev


def _choose_variants(ev: CoreEvent) -> None:
    """Stages whose format depends on the field size (``Stage.variants``) take the variant of
    the group's entry count: the drawn teams, else the roster's entries of the group."""
    for g in ev.reg.groups:
        if not any(s.variants for s in g.stages):
            continue
        gs = ev.groups[g.id]
        n = len(gs.teams) if gs.drawn else int((ev.roster["group_id"] == g.id).sum())
        g.stages[:] = [s.for_entries(n) if s.variants else s for s in g.stages]


def _read_withdrawals(ev: CoreEvent) -> None:
    """退赛 (typed by the arbiter, or appended by ``bianpai withdraw``): the team leaves the stage
    it is playing after round 最后参赛轮次 (counted in that stage); 成绩处理 保留/取消, empty = the
    regulation's ``withdrawal.results``."""
    if not find_sheet(ev.port, K.WITHDRAWALS):
        return
    d = read_table(ev.port, K.WITHDRAWALS, errors=ev.errors)
    sheet = d.attrs.get("sheet", K.WITHDRAWALS.zh)
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        if g is None:
            ev.errors.append(InputError(f"未知组别“{rec['group']}”", f"unknown group {rec['group']!r}",
                                        sheet=sheet, cell=cell_of(d, row, "group")))
            continue
        n = rec["number"]
        if n is None or int(n) not in ev.groups[g.id].teams:
            ev.errors.append(InputError(f"{ev.gname(g)}的抽签中没有 {n} 号队", f"no team {n} in the draw",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        current = None
        for s in g.stages:
            if ev.entered(g, s) and any(e.number == int(n) for e in ev.stage_entrants(g, s)):
                current = s
        if current is None:
            ev.errors.append(InputError(f"{n} 号队不在任何已开始的阶段中", f"team {n} is in no running stage",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        key = (g.id, current.id, int(n))
        if key in ev.withdrawals:
            ev.errors.append(InputError(f"{n} 号队的退赛登记了两次", f"team {n} withdrawn twice",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        k = int(rec["after_round"])
        drawn = max((m.round for m in ev.stage_matches(g, current)), default=0)
        if not 0 <= k <= drawn:
            ev.errors.append(InputError(
                f"最后参赛轮次应为 0–{drawn}（{ev.sname(current)}已编排 {drawn} 轮），实际为 {k}",
                f"the last round played must be 0–{drawn}; got {k}",
                sheet=sheet, cell=cell_of(d, row, "after_round")))
            continue
        res = rec["results"]
        annul = (res == "取消") if res else ev.reg.withdrawal.results == "annul"
        ev.withdrawals[key] = (k, annul, rec["reason"] or "")


STAFF = re.compile(r"^(领队|教练|领队兼教练)$")


def _entrants_from_people(ev: CoreEvent) -> None:
    """One entrant row per individual (individual groups) or per 队名/组合 (pair and team
    groups) from the people roster; the first person's row is the entrant's row. A pair or team
    member without 队名/组合, or two different 序号 for one entrant, is an error with its cell."""
    p = ev.people
    sheet = p.attrs.get("sheet", L.ROSTER_PEOPLE.zh)
    rows: dict[tuple, dict] = {}
    index: list[int] = []
    for row, rec in records(p):
        g = ev.group_of(rec["group"])
        if g is None or (rec["role"] and STAFF.match(str(rec["role"]))):
            if g is None and rec["group"] is not None:
                ev.errors.append(InputError(f"未知组别“{rec['group']}”", f"unknown group {rec['group']!r}",
                                            sheet=sheet, cell=cell_of(p, row, "group")))
            continue
        if g.entrant == "individual":
            key = (g.id, "#", row)
            name = rec["name"]
        else:
            if not rec["team"]:
                ev.errors.append(InputError(f"{ev.gname(g)}是{'双人' if g.entrant == 'pair' else '团体'}项目，"
                                            "请填写“队名/组合”", f"{g.name_en or g.id} needs the team / pair name",
                                            sheet=sheet, cell=cell_of(p, row, "team")))
                continue
            key = (g.id, rec["team"])
            name = rec["team"]
        e = rows.get(key)
        if e is None:
            e = rows[key] = dict(group=g.name_zh, number=rec["number"], name=name, unit=rec["unit"],
                                 seed=rec.get("seed"), note=None, players=[],
                                 gender=rec.get("gender"), rating=rec.get("rating"))
            index.append(row)
        elif rec["number"] is not None and e["number"] is not None and rec["number"] != e["number"]:
            ev.errors.append(InputError(f"“{name}”的序号与其队友不同（{e['number']}）",
                                        f"{name}: a different number from the partner's ({e['number']})",
                                        sheet=sheet, cell=cell_of(p, row, "number")))
        e["number"] = e["number"] if e["number"] is not None else rec["number"]
        e["unit"] = e["unit"] or rec["unit"]
        e["seed"] = e["seed"] if e["seed"] is not None else rec.get("seed")
        e["players"].append(rec["name"])
    out = []
    for e in rows.values():
        pl = (e.pop("players") + [None] * 6)[:6]
        out.append({**e, **{f"player{i}": v for i, v in enumerate(pl, start=1)}, "captain": None})
    # 性别 and 等级分 of the people roster stay readable (pool split by column, seeding by rating)
    df = pd.DataFrame(out, index=pd.Index(index, name="row"),
                      columns=[c.key for c in K.ROSTER.columns] + ["gender", "rating"]).astype(object)
    df = df.where(pd.notna(df), None)
    df.attrs = dict(p.attrs)
    ev.roster = df


def _read_roster_groups(ev: CoreEvent) -> None:
    r = ev.roster
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    gids = []
    names = "、".join(g.name_zh for g in ev.reg.groups)
    for row, rec in records(r):
        g = ev.group_of(rec["group"])
        if g is None and rec["group"] is not None:
            ev.errors.append(InputError(f"未知组别“{rec['group']}”，应为：{names}",
                                        f"unknown group {rec['group']!r}; expected one of "
                                        + ", ".join(x.name_en or x.id for x in ev.reg.groups),
                                        sheet=sheet, cell=cell_of(r, row, "group")))
        gids.append(g.id if g else None)
    r["group_id"] = gids


#: hidden copies of the record sheets a command generated (抽签, 晋级): a hand edit of a fact
#: the event depends on is refused with its cell instead of being trusted or re-drawn
RECORD_COPIES = {"draw": "_bianpai_draw", "entries": "_bianpai_entries"}
DRAW_KEYS = ["group", "number", "name", "pool", "position", "roster_row", "seed"]
ENTRY_KEYS = ["group", "stage", "number", "pool", "position", "from_stage", "from_pool",
              "from_place", "carry", "join_round", "seed"]


def check_record(ev: CoreEvent, layout, df: pd.DataFrame, keys: list[str]) -> None:
    """Compare the record sheet ``df`` (columns ``keys``) with the hidden copy the generating
    command wrote; every changed, added or deleted cell is an error naming it."""
    copy = RECORD_COPIES[layout.key]
    if copy not in ev.port.sheet_names():
        return
    grid = ev.port.read_values(copy)
    saved = [list(r) + [None] * (len(keys) - len(r)) for r in grid[1:] if any(v is not None for v in r)]
    sheet = df.attrs.get("sheet", layout.zh)
    cols = df.attrs.get("columns", {})
    now = [(row, [rec.get(k) for k in keys]) for row, rec in _all_records(df)]
    norm = lambda v: "" if v is None else str(v).strip()  # noqa: E731
    for i in range(max(len(saved), len(now))):
        if i >= len(now):
            ev.errors.append(InputError(
                f"“{sheet}”表少了第{i + 2}行（原为 {'、'.join(norm(v) for v in saved[i] if v is not None)}）："
                f"此表由命令生成，请勿删改；如需重抽请撤销或重新抽签",
                f"row {i + 2} of {sheet} was deleted; this sheet is generated: undo instead",
                sheet=sheet, cell=f"{i + 2}:{i + 2}"))
            break
        row, vals = now[i]
        if i >= len(saved):
            ev.errors.append(InputError(f"“{sheet}”表多了第{row}行：此表由命令生成，请勿添加",
                                        f"row {row} was added to {sheet}; it is generated",
                                        sheet=sheet, cell=f"{row}:{row}"))
            continue
        for k, a, b in zip(keys, saved[i], vals):
            if norm(a) != norm(b):
                ev.errors.append(InputError(
                    f"“{sheet}”表的值被改动（原为“{norm(a)}”，现为“{norm(b)}”）：此表由命令生成，"
                    f"是编排的依据，不能手改；如需调整请撤销或重新抽签/进入下一阶段",
                    f"{sheet} was edited ({norm(a)!r} → {norm(b)!r}); it is generated, undo instead",
                    sheet=sheet, cell=f"{cols.get(k, '?')}{row}"))


def _read_draw(ev: CoreEvent) -> None:
    if not find_sheet(ev.port, K.DRAW):
        return
    d = read_table(ev.port, K.DRAW, errors=ev.errors)
    check_record(ev, K.DRAW, d, DRAW_KEYS)
    sheet = d.attrs.get("sheet", K.DRAW.zh)
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        if g is None or rec["number"] is None:
            continue
        gs = ev.groups[g.id]
        n = int(rec["number"])
        if n in gs.teams:
            ev.errors.append(InputError(f"抽签表中{ev.gname(g)}队号 {n} 重复",
                                        f"team number {n} repeated in the draw",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        gs.teams[n] = dict(name=rec["name"], unit=rec["unit"], roster_row=rec["roster_row"],
                           pool=rec["pool"], position=rec["position"])
        if gs.seed is None and rec["seed"] not in (None, ""):
            try:
                gs.seed = int(str(rec["seed"]).strip())
            except ValueError:
                ev.errors.append(InputError(f"随机种子应为整数：“{rec['seed']}”",
                                            f"the seed must be a whole number: {rec['seed']!r}",
                                            sheet=sheet, cell=cell_of(d, row, "seed")))


def _read_schedule(ev: CoreEvent) -> pd.DataFrame:
    cols = ["group_id", "stage_id", "pool", "round", "table", "label", "side0", "side1", "row"]
    if not find_sheet(ev.port, K.SCHEDULE):
        return pd.DataFrame(columns=cols)
    d = read_table(ev.port, K.SCHEDULE, errors=ev.errors)
    sheet = d.attrs.get("sheet", K.SCHEDULE.zh)
    out = []
    seen: dict[tuple, int] = {}
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        if g is None:
            ev.errors.append(InputError(f"对阵表组别“{rec['group']}”未知", f"unknown group {rec['group']!r}",
                                        sheet=sheet, cell=cell_of(d, row, "group")))
            continue
        s = ev.stage_of(g, rec["stage"])
        if s is None:
            ev.errors.append(InputError(f"对阵表阶段“{rec['stage']}”未知", f"unknown stage {rec['stage']!r}",
                                        sheet=sheet, cell=cell_of(d, row, "stage")))
            continue
        teams = ev.groups[g.id].teams
        for k in ("side0", "side1"):
            v = rec[k]
            if v is not None and int(v) not in teams:
                ev.errors.append(InputError(f"队号 {v} 不在{ev.gname(g)}的抽签中",
                                            f"team {v} is not in the draw of {g.name_en or g.id}",
                                            sheet=sheet, cell=cell_of(d, row, k)))
        key = (g.id, s.id, rec["pool"], rec["round"], rec["table"])
        if key in seen:
            ev.errors.append(InputError(f"对阵表中同一桌出现两次（另见第{seen[key]}行）",
                                        f"the same table appears twice (see row {seen[key]})",
                                        sheet=sheet, cell=cell_of(d, row, "table")))
            continue
        seen[key] = row
        out.append(dict(group_id=g.id, stage_id=s.id, pool=rec["pool"], round=rec["round"],
                        table=rec["table"], label=rec["label"], side0=rec["side0"],
                        side1=rec["side1"], row=row))
    _check_rounds(ev, out, sheet, d)
    return _frame(out, cols)


def _check_rounds(ev: CoreEvent, rows: list[dict], sheet: str, d: pd.DataFrame) -> None:
    """An arbiter may edit 对阵 by hand; every entrant still plays at most once per round."""
    seen: dict[tuple, int] = {}
    for r in rows:
        for k in ("side0", "side1"):
            if r[k] is None:
                continue
            key = (r["group_id"], r["stage_id"], r["round"], int(r[k]))
            if key in seen:
                ev.errors.append(InputError(
                    f"第{r['round']}轮 {r[k]}号 出现两次（另见第{seen[key]}行）：每轮每队只能出场一次",
                    f"team {r[k]} appears twice in round {r['round']} (see row {seen[key]})",
                    sheet=sheet, cell=cell_of(d, r["row"], k)))
            else:
                seen[key] = r["row"]


def _read_entries(ev: CoreEvent) -> pd.DataFrame:
    cols = ["group_id", "stage_id", "number", "pool", "position", "from_stage_id", "from_pool",
            "from_place", "carry", "join_round", "seed"]
    if not find_sheet(ev.port, K.ENTRIES):
        return pd.DataFrame(columns=cols)
    d = read_table(ev.port, K.ENTRIES, errors=ev.errors)
    check_record(ev, K.ENTRIES, d, ENTRY_KEYS)
    sheet = d.attrs.get("sheet", K.ENTRIES.zh)
    out = []
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        s = ev.stage_of(g, rec["stage"]) if g else None
        if g is None or s is None or rec["number"] is None:
            ev.errors.append(InputError("晋级表的组别、阶段或队号无法识别（此表由“进入下一阶段”生成，请勿改动）",
                                        "unreadable qualifier row (written by advance; do not edit)",
                                        sheet=sheet, cell=cell_of(d, row, "stage")))
            continue
        src = ev.stage_of(g, rec["from_stage"])
        out.append(dict(group_id=g.id, stage_id=s.id, number=int(rec["number"]), pool=rec["pool"],
                        position=rec["position"], from_stage_id=src.id if src else None,
                        from_pool=rec["from_pool"], from_place=rec["from_place"],
                        carry=rec["carry"], join_round=rec["join_round"], seed=rec["seed"]))
    return _frame(out, cols)


def _frame(rows: list[dict], cols: list[str]) -> pd.DataFrame:
    """A DataFrame of record dicts whose empty cells stay ``None`` (pandas would turn ``None``
    into NaN in mixed object columns, and keys such as an empty pool must compare equal)."""
    df = pd.DataFrame(rows, columns=cols).astype(object)
    return df.where(pd.notna(df), None)


def _match_key(ev: CoreEvent, rec: dict, df: pd.DataFrame, row: int, sheet: str):
    g = ev.group_of(rec["group"])
    if g is None:
        ev.errors.append(InputError(f"未知组别“{rec['group']}”", f"unknown group {rec['group']!r}",
                                    sheet=sheet, cell=cell_of(df, row, "group")))
        return None
    s = ev.stage_of(g, rec["stage"])
    if s is None:
        ev.errors.append(InputError(f"未知阶段“{rec['stage']}”，应为："
                                    + "、".join(x.name_zh for x in g.stages),
                                    f"unknown stage {rec['stage']!r}",
                                    sheet=sheet, cell=cell_of(df, row, "stage")))
        return None
    return (g.id, s.id, rec["pool"], rec["round"], rec["table"])


def _all_columns(ev: CoreEvent, layout, df: pd.DataFrame) -> None:
    """A typed sheet that exists must have every column of its layout: a renamed or deleted
    header would silently drop what is typed under it (a result, a 判定)."""
    if "sheet" not in df.attrs:
        return
    have = df.attrs.get("columns", {})
    missing = [c for c in layout.columns if c.key not in have and not c.required]
    for c in missing:
        ev.errors.append(InputError(
            f"“{df.attrs['sheet']}”表缺少“{c.zh}”列（第1行应为表头；表头被改名或删除）",
            f"sheet {df.attrs['sheet']!r} has no column {c.en!r} (row 1 must be the header)",
            sheet=df.attrs["sheet"], cell="1:1"))


def _read_typed(ev: CoreEvent) -> None:
    """成绩 (per match), 逐局成绩 (per game) and 罚分 into :class:`TypedMatch` per match key;
    every row must name a drawn match, and each match is typed at one level only."""
    drawn: dict[tuple, dict] = {}
    if ev.schedule is not None:
        for r in ev.schedule.to_dict("records"):
            drawn[(r["group_id"], r["stage_id"], r["pool"], r["round"], r["table"])] = r
    needed = bool(drawn)  # once matches are drawn, the entry sheets and all their columns
    res_df = read_table(ev.port, ev.lay.results, required=needed, errors=ev.errors) \
        if needed else read_table(ev.port, ev.lay.results, required=False, errors=ev.errors)
    games_df = read_table(ev.port, ev.lay.games, required=needed, errors=ev.errors) \
        if needed else read_table(ev.port, ev.lay.games, required=False, errors=ev.errors)
    pen_df = read_table(ev.port, K.PENALTIES, required=False, errors=ev.errors)
    for layout, df in ((ev.lay.results, res_df), (ev.lay.games, games_df), (K.PENALTIES, pen_df)):
        _all_columns(ev, layout, df)
    ev.game_cols = dict(games_df.attrs.get("columns", {}))
    rsheet = res_df.attrs.get("sheet", ev.lay.results.zh)
    gsheet = games_df.attrs.get("sheet", ev.lay.games.zh)
    psheet = pen_df.attrs.get("sheet", K.PENALTIES.zh)
    value_keys = [c.key for c in ev.lay.results.columns
                  if c.key not in {k.key for k in K.KEY_COLUMNS} | {"side0", "side1", "decision",
                                                                       "note"}]
    game_keys = [c.key for c in ev.lay.games.columns if c.key not in
                 {k.key for k in K.KEY_COLUMNS} | {"game"}]
    totals: dict[tuple, tuple[dict, str | None, str]] = {}
    cells: dict[tuple, dict[str, str]] = {}
    # values the draw writes (几局胜 …) do not make a row "typed"
    prefilled = {c.key for g in ev.reg.groups for s in g.stages
                 for c in s.scoring.entry_match_columns() if getattr(c, "prefill", False)}
    for row, rec in records(res_df):
        key = _match_key(ev, rec, res_df, row, rsheet)
        if key is None:
            continue
        m = drawn.get(key)
        if m is None:
            ev.errors.append(InputError("成绩行对应的比赛不在对阵表中（组别、阶段、小组、轮次、桌号）",
                                        "no drawn match has this group/stage/pool/round/table",
                                        sheet=rsheet, cell=cell_of(res_df, row, "table")))
            continue
        if (rec["side0"], rec["side1"]) != (m["side0"], m["side1"]):
            ev.errors.append(InputError(
                f"队号与对阵表不符：对阵表为 {m['side0']} 对 {m['side1']}",
                f"team numbers differ from the pairings ({m['side0']} v {m['side1']})",
                sheet=rsheet, cell=cell_of(res_df, row, "side0")))
            continue
        if key in totals:
            ev.errors.append(InputError("同一场比赛的成绩录入了两行", "the same match is entered twice",
                                        sheet=rsheet, cell=cell_of(res_df, row, "table")))
            continue
        totals[key] = ({k: rec.get(k) for k in value_keys}, rec["decision"],
                       f"{rsheet}!{cell_of(res_df, row, value_keys[0] if value_keys else 'decision')}")
        cells[key] = {k: f"{rsheet}!{cell_of(res_df, row, k)}" for k in [*value_keys, "decision"]}
    games: dict[tuple, list[dict]] = {}
    where_g: dict[tuple, str] = {}
    for row, rec in records(games_df):
        key = _match_key(ev, rec, games_df, row, gsheet)
        if key is None:
            continue
        if key not in drawn:
            ev.errors.append(InputError("逐局成绩行对应的比赛不在对阵表中", "no drawn match for this game row",
                                        sheet=gsheet, cell=cell_of(games_df, row, "table")))
            continue
        games.setdefault(key, []).append({"game": rec["game"], **{k: rec.get(k) for k in game_keys},
                                          "_row": row})
        where_g.setdefault(key, f"{gsheet}!{cell_of(games_df, row, game_keys[0] if game_keys else 'game')}")
    pens: dict[tuple, list[tuple[int, str, Decimal]]] = {}
    for row, rec in records(pen_df):
        key = _match_key(ev, rec, pen_df, row, psheet)
        if key is None:
            continue
        m = drawn.get(key)
        if m is None or rec["team"] not in (m["side0"], m["side1"]):
            ev.errors.append(InputError("罚分行的队号不在该场比赛中", "the penalised team did not play this match",
                                        sheet=psheet, cell=cell_of(pen_df, row, "team")))
            continue
        side = 0 if rec["team"] == m["side0"] else 1
        pens.setdefault(key, []).append((side, rec["reason"] or "", Decimal(rec["points"])))
    for key in set(totals) | set(games) | set(pens):
        vals, decision, where_t = totals.get(key, ({}, None, ""))
        rows = games.get(key, [])
        gdf = pd.DataFrame(rows).sort_values("game") if rows else pd.DataFrame(columns=["game"])
        has_totals = any(v is not None for k, v in vals.items() if k not in prefilled)
        has_games = bool(rows) and gdf.drop(columns=["game", "_row"], errors="ignore").notna().any(axis=None)
        if has_totals and has_games:
            ev.errors.append(InputError("同一场比赛既在“成绩”表录入了总分，又在“逐局成绩”表录入了各局：只能二选一",
                                        "a match is entered both as totals and game by game; keep one",
                                        sheet=rsheet, cell=where_t.split("!")[-1]))
            continue
        ev.typed[key] = TypedMatch(games=gdf, totals=vals if has_totals else {},
                                   decision=decision, penalties=tuple(pens.get(key, ())),
                                   where=tuple(w for w in (where_t, where_g.get(key, "")) if w),
                                   cells=cells.get(key, {}))


def _check_members(ev: CoreEvent) -> None:
    """出场名单: every typed cell of an entry column with ``member`` names a registered player of
    that side's entrant (报名), and nobody plays two boards of one match."""
    if ev.schedule is None or ev.schedule.empty:
        return
    sides = {(r["group_id"], r["stage_id"], r["pool"], r["round"], r["table"]): (r["side0"], r["side1"])
             for r in ev.schedule.to_dict("records")}
    sheet = ev.sheet(ev.lay.games)
    for key, typed in ev.typed.items():
        g = ev.reg.group(key[0])
        s = g.stage(key[1])
        cols = [c for c in s.scoring.entry_game_columns() if c.member and c.side is not None]
        if not cols or typed.games.empty or key not in sides:
            continue
        teams = ev.groups[g.id].teams
        for col in cols:
            number = sides[key][col.side]
            t = teams.get(int(number)) if number is not None else None
            players: set[str] = set()
            if t is not None and t.get("roster_row") is not None and t["roster_row"] in ev.roster.index:
                rec = ev.roster.loc[t["roster_row"]]
                players = {str(rec[f"player{i}"]).strip() for i in range(1, 7)
                           if rec.get(f"player{i}") is not None}
            seen: dict[str, Any] = {}
            for r in typed.games.to_dict("records"):
                v = r.get(col.key)
                if v is None or v != v or str(v).strip() == "":
                    continue
                name = str(v).strip()
                cell = f"{ev.game_cols.get(col.key, '')}{r.get('_row')}"
                if name not in players:
                    ev.errors.append(InputError(
                        f"“{name}”不是{number}号{t['name'] if t else ''}的报名队员（出场名单只能填写本队报名队员）",
                        f"{name!r} is not a registered player of entrant {number}",
                        sheet=sheet, cell=cell))
                elif name in seen:
                    ev.errors.append(InputError(f"“{name}”在同一场比赛中出场两次",
                                                f"{name!r} plays twice in one match",
                                                sheet=sheet, cell=cell))
                seen[name] = r.get("_row")


def rng_for(seed: int, *parts) -> random.Random:
    """A random generator derived from the command seed and the stage/round, so one seed
    repeats the whole draw."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))
