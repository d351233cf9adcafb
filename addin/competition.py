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
from dataclasses import dataclass, field

import pandas as pd

from bianpai.engines import core
from bianpai.engines.core import Match, MatchResult, StageEntrant, StageState, TypedMatch
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.rounding import q2
from bianpai.templates.schema import Group, Regulation, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L  # noqa: F401
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.addin.core_row_checks import prefilled_problems, scoring_typed_problems
from bianpai.addin.core_views import shown_layout
from bianpai.addin import core_withdrawn as _cw
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import regulation_from_sheet
from bianpai.workbooks.tables import SheetsMemo, find_sheet, read_table
from bianpai.addin.core_read import (DRAW_KEYS, ENTRY_KEYS, RECORD_COPIES,  # noqa: F401
                                     _read_draw, _read_entries, _read_schedule, _read_typed,
                                     check_record, records)
from bianpai.addin.core_roster import (_check_members, _entrants_from_people,
                                       _choose_variants, _read_roster_groups,
                                       _read_withdrawals, _ruled_disqualifications)
from bianpai.addin.core_detect import (DEFAULT_SIDES, Layouts,  # noqa: F401
                                       is_core_regulation, is_core_workbook, layouts_for)

__all__ = ["is_core_regulation", "is_core_workbook", "CoreEvent", "GroupState",
           "load_core_event", "layouts_for", "DEFAULT_SIDES",
           # the record sheets' reading, re-exported for the commands that write them
           "records", "check_record", "RECORD_COPIES", "DRAW_KEYS", "ENTRY_KEYS"]


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
    #: (group_id, stage_id, number) → the replacement (递补) recorded in 退赛, or None
    replacements: dict[tuple, int | None] = field(default_factory=dict)
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
    #: names corrected in 报名 after the draw and followed by their row (``RosterLayout.name_parts``):
    #: (Chinese, English) notes the commands log
    corrections: list[tuple[str, str]] = field(default_factory=list)
    #: (group_id, stage_id) → the seed of this command that ranks the stage (an advance whose
    #: style records its own seed as the ranking seed, ``SheetSet.advance_ranking_seed``)
    ranking_seeds: dict = field(default_factory=dict)
    #: (组别, 阶段, 号) of a 晋级 row written by this command → its carry-over's parts (来源VP,
    #: 比例, 比例带分, 另加VP, the carry rule's clause) for a style's view of 晋级
    carry_parts: dict = field(default_factory=dict)
    _results_cache: dict = field(default_factory=dict)

    # -- names
    def gname(self, g: Group) -> str:
        return g.name_zh if self.lang == "zh" else (g.name_en or g.name_zh)

    def sname(self, s: Stage) -> str:
        return s.name_zh if self.lang == "zh" else (s.name_en or s.name_zh)

    def sheet(self, layout) -> str:
        """The name of core sheet ``layout`` as the workbook shows it (a style's view)."""
        layout = shown_layout(self.reg, layout)
        return find_sheet(self.port, layout) or layout.name(self.lang)

    def group_of(self, value) -> Group | None:
        if value is None and len(self.reg.groups) == 1:  # no 组别 column: the only group
            return self.reg.groups[0]
        v = "" if value is None else str(value).strip()
        for g in self.reg.groups:
            if v in (g.id, g.name_zh, g.name_en):
                return g
        return None

    def stage_of(self, g: Group, value) -> Stage | None:
        """The stage named ``value``; a sheet that shows no 阶段 column (a workbook style's view,
        ``None``) means the group's only stage."""
        if value is None and len(g.stages) == 1:
            return g.stages[0]
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
            # the column by roster row (a row given twice: its first value)
            by_row = {} if col is None else \
                col[~col.index.duplicated()].to_dict()
            cache.clear()
            for n, t in teams.items():
                row = t.get("roster_row")
                v = None if row is None else by_row.get(int(row))
                cache[n] = None if v is None or (isinstance(v, float) and v != v) else v
            cache[None] = None
        return cache.get(int(number))

    def unit_of(self, g: Group, number) -> str | None:
        t = self.groups[g.id].teams.get(int(number))
        return t["unit"] if t else None

    # -- stage state
    def stage_matches(self, g: Group, s: Stage) -> list[Match]:
        """The drawn matches of the stage; a replacement (递补) taking an unplayed slot after the
        draw (``Replacement.after_draw = replace_unplayed``) sits in the withdrawn side."""
        out = self.raw_matches(g, s)
        if s.replacement is None or s.replacement.after_draw != "replace_unplayed":
            return out
        from bianpai.addin.core_replace import substituted  # noqa: PLC0415
        return substituted(self, g, s, out)

    def schedule_records(self) -> list[dict]:
        """``schedule.to_dict("records")``, computed once per schedule (several readers walk
        it per command); the dicts are shared: read them, do not change them."""
        sch = self.schedule
        if sch is None:
            return []
        built = self._results_cache.get("schedule_records")
        if built is None or built[0] is not sch:
            built = self._results_cache["schedule_records"] = (sch, sch.to_dict("records"))
        return list(built[1])

    def raw_matches(self, g: Group, s: Stage) -> list[Match]:
        """The matches of the stage as drawn in 对阵."""
        sch = self.schedule
        if sch is None or sch.empty:
            return []
        # every stage's matches built once per schedule (asked for many times per command)
        built = self._results_cache.get("raw_matches")
        if built is None or built[0] is not sch:
            by_stage: dict[tuple, list[Match]] = {}
            cols = {c: sch[c].tolist() for c in ("group_id", "stage_id", "round", "table",
                                                 "side0", "side1", "pool", "label")}
            for gid, sid, rnd, tab, s0, s1, pool, label in zip(*cols.values()):
                by_stage.setdefault((gid, sid), []).append(Match(
                    round=int(rnd), table=int(tab),
                    sides=tuple(None if v is None else int(v) for v in (s0, s1)),
                    pool=pool, label=label))
            for ms in by_stage.values():
                ms.sort(key=lambda m: (m.round, str(m.pool or ""), m.table))
            built = self._results_cache["raw_matches"] = (sch, by_stage)
        return list(built[1].get((g.id, s.id), ()))

    def started(self, g: Group, s: Stage) -> bool:
        return bool(self.stage_matches(g, s))

    def stage_entrants(self, g: Group, s: Stage) -> list[StageEntrant]:
        """The first stage: every drawn team (pool and position from 抽签); later stages: the
        晋级 rows written by ``advance``. Made once while the group's numbers, the
        withdrawals, the replacements, 晋级 and 报名 are the same (a draw numbering a group, a
        late entry or a joiner changes one of them): a new list of the same entrants."""
        gs = self.groups[g.id]
        token = (id(gs.teams), len(gs.teams), tuple(self.withdrawals.items()),
                 tuple(self.replacements.items()), id(self.entries), id(self.roster))
        hit = self._results_cache.get(("stage_entrants", g.id, s.id))
        if hit is not None and hit[0] == token:
            return list(hit[1])
        out = self._stage_entrants(g, s)
        self._results_cache[("stage_entrants", g.id, s.id)] = (token, out)
        return list(out)

    def _stage_entrants(self, g: Group, s: Stage) -> list[StageEntrant]:
        gs = self.groups[g.id]
        if s is g.stages[0] or s.entrants in ("all", "unseeded"):
            # "unseeded": the roster's entrants with a 种子 skip this stage (they enter a later
            # one directly, EntrantRule.from_roster)
            return [StageEntrant(number=n, pool=t["pool"], seed=t["position"] or n,
                                 unit=t["unit"], withdrawn_after=self.withdrawn_after(g, s, n),
                                 rating=self.roster_value(g, n, "rating"),
                                 join_round=int(t.get("join_round") or 1))
                    for n, t in sorted(gs.teams.items())
                    if s.entrants != "unseeded" or self.roster_value(g, n, "seed") is None]
        out = self.entries_of(g, s)
        if s.replacement is None or not out:
            return out
        from bianpai.addin.core_replace import substituted  # noqa: PLC0415
        return substituted(self, g, s, out)

    def entries_of(self, g: Group, s: Stage) -> list[StageEntrant]:
        """A later stage's entrants as written in 晋级 (before any 递补)."""
        sub = [r for r in self.entry_records() if r["group_id"] == g.id and r["stage_id"] == s.id]
        # a format may seed a later stage by the source place instead of the new position
        seed_col = "from_place" if getattr(type(s.format), "seed_from", None) == "from_place" \
            else "position"
        return [StageEntrant(number=int(r["number"]), pool=r["pool"],
                             seed=int(r[seed_col]) if r[seed_col] is not None else None,
                             carry=q2(r["carry"] or 0), join_round=int(r["join_round"] or 1),
                             unit=self.unit_of(g, r["number"]),
                             withdrawn_after=self.withdrawn_after(g, s, int(r["number"])))
                for r in sub]

    def entry_records(self) -> list[dict]:
        """``entries.to_dict("records")`` (晋级), built once per table; shared: read only."""
        e = self.entries
        built = self._results_cache.get("entry_records")
        if built is None or built[0] is not e:
            recs = [] if e is None or e.empty else e.to_dict("records")
            built = self._results_cache["entry_records"] = (e, recs)
        return built[1]

    def withdrawn_after(self, g: Group, s: Stage, number: int) -> int | None:
        """The last round ``number`` plays in stage ``s`` (退赛), ``None`` if it plays on; a
        team that withdrew in an earlier stage plays no round of a later one."""
        w = self.withdrawals.get((g.id, s.id, number))
        if w is not None:
            return w[0]
        if self.replacements:
            from bianpai.addin.core_replace import promoted  # noqa: PLC0415
            if promoted(self, g, s, number):
                return 0
        for earlier in g.stages[:g.stages.index(s)]:
            if (g.id, earlier.id, number) in self.withdrawals:
                # a player who left an earlier stage to replace a withdrawn one here plays here
                if any(r == number for (gid, sid, _n), r in self.replacements.items()
                       if gid == g.id and sid == s.id):
                    continue
                return 0
        return None

    def entered(self, g: Group, s: Stage) -> bool:
        """True when the stage's entrants are known (first stage: drawn; later: advanced), i.e.
        :meth:`stage_entrants` is not empty (without building them: a 递补 swaps entrants)."""
        if s is g.stages[0] or s.entrants in ("all", "unseeded"):
            teams = self.groups[g.id].teams
            return any(self.roster_value(g, n, "seed") is None for n in teams) \
                if s.entrants == "unseeded" else bool(teams)
        return any(r["group_id"] == g.id and r["stage_id"] == s.id for r in self.entry_records())

    def stage_seed(self, g: Group, s: Stage) -> int | None:
        """The seed a stage's ranking lots use: the seed recorded when the stage's entrants
        were taken further (晋级), else the seed of the command taking them further now
        (``ranking_seeds``), else the group's draw seed."""
        for r in self.entry_records():
            v = r["seed"]
            if r["group_id"] == g.id and r["from_stage_id"] == s.id and not pd.isna(v):
                try:
                    return int(str(v).strip())
                except ValueError:
                    continue
        return self.ranking_seeds.get((g.id, s.id), self.groups[g.id].seed)

    def results(self, g: Group, s: Stage) -> dict[tuple, MatchResult]:
        """Scored complete matches of the stage by match key (byes included), after the
        scoring's stage-level rules (e.g. annulment of a forfeiting team's matches)."""
        key = (g.id, s.id)
        if key in self._results_cache:
            return self._results_cache[key]
        out: dict[tuple, MatchResult] = {}
        forfeits: dict[tuple, MatchResult] = {}
        sc = s.scoring
        if bad := scoring_typed_problems(self, g, s):  # the scoring refuses what was typed
            self.errors += bad
            if any(str(getattr(e, "cell", "") or "").startswith("?") for e in bad):
                from bianpai.addin.core_trust import collapse_missing_columns  # noqa: PLC0415
                collapse_missing_columns(self)  # a deleted header: named once, at its row
            return self._results_cache.setdefault(key, {})
        if getattr(sc, "scope", "match") == "stage":
            from bianpai.addin.core_stage_scope import stage_scope_results  # noqa: PLC0415
            out = stage_scope_results(self, g, s)
        # what the draw wrote into each match's 成绩 row from the regulation (几局胜 of the
        # round): a blank cell reads as it, another value is an error at its cell
        prefill = None
        if getattr(s.format, "entry_prefill", None) is not None:
            light = StageState(entrants=self.stage_entrants(g, s), matches=self.stage_matches(g, s),
                               results={}, seed=self.stage_seed(g, s))
            prefill = lambda m: s.format.entry_prefill(m, light)  # noqa: E731
        for m in ([] if getattr(sc, "scope", "match") == "stage" else self.stage_matches(g, s)):
            if m.is_bye:
                out[m.key] = sc.bye(m)
                continue
            typed = self.typed.get((g.id, s.id, *m.key))
            gone = [i for i, e in enumerate(m.sides) if e is not None and
                    (w := self.withdrawn_after(g, s, e)) is not None and m.round > w]
            if gone and _cw.untyped(typed, sc):  # (what the draw prefilled is no result)
                forfeits[m.key] = sc.forfeit(m, gone[0])
                continue
            if typed is None or typed.empty:
                continue
            if prefill is not None and (bad := prefilled_problems(self, m, typed, prefill)):
                self.errors += bad
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
                    # a scoring may annul one side only (a Mitchell: the opponents' boards
                    # were compared across tables and stand)
                    annul = getattr(sc, "annul_entrant", core.annul_entrant)
                    done = annul(done, number,
                                              note_zh=f"{number}号退赛，成绩取消（{reason}）",
                                              note_en=f"{number} withdrew; results annulled")
        else:  # a bracket: results stand (walkovers included), nobody's are annulled
            done = played + list(forfeits.values())
        # a scoring's checks across the stage's results (a ranking play-off typed between
        # entrants that are not level …), each error placed at its match's cell
        check = getattr(sc, "stage_problems", None)
        if check is not None:
            typed_of = {m.key: t for m in self.stage_matches(g, s)
                        if (t := self.typed.get((g.id, s.id, *m.key))) is not None}
            empty = TypedMatch(games=pd.DataFrame(columns=["game"]))
            for mkey, exc in check(done, typed_of):
                self.errors.append(self._placed(exc, typed_of.get(mkey, empty)))
        self.annulled[key] = annulled
        self.errors += _cw.played_after_withdrawal(self, g, s, played)
        out = {r.match.key: r for r in done}
        self._results_cache[key] = out
        return out

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
                        results=self.results(g, s), seed=self.stage_seed(g, s),
                        # the stage's states share what its format computed from them
                        memos=self._results_cache.setdefault(("state_memos", g.id, s.id), {}))
        if getattr(s.format, "reads_prior_stages", False):  # e.g. no rematch over the event
            st.prior = [m for o in g.stages if o.id != s.id for m in self.stage_matches(g, o)]
        if with_standings:
            from bianpai.addin.core_standings import PoolStandings  # noqa: PLC0415
            st.standings = PoolStandings(self, g, s, st)
        return st

    def pool_standings(self, g: Group, s: Stage, pool, st: StageState | None = None
                       ) -> pd.DataFrame:
        """The ranking of one pool (:func:`bianpai.addin.core_standings.pool_standings`)."""
        from bianpai.addin.core_standings import pool_standings  # noqa: PLC0415
        return pool_standings(self, g, s, pool, st or self.state(g, s, with_standings=False))

    def finished(self, g: Group, s: Stage) -> bool:
        return self.entered(g, s) and s.format.finished(self.state(g, s, with_standings=False))


# ------------------------------------------------------------------------------ loading

def load_core_event(port: WorkbookPort, *, typed_from: CoreEvent | None = None) -> CoreEvent:
    """Read and validate the whole core workbook. Problems are collected in ``errors`` (each
    with sheet and cell); the 规程 sheet's errors raise at once (``InputError``).

    ``typed_from``: the event as a draw read it before writing (without an error: the draw
    refuses any). The draw adds only blank entry rows, so what is typed is that event's: its
    typed matches are taken instead of reading 成绩/逐局成绩/罚分 again (a blank match and a
    match not listed read alike: not played)."""
    reg = regulation_from_sheet(port)
    if not is_core_regulation(reg):
        raise RuleError("本工作簿的规程不使用通用赛制核心", "this workbook's regulation is not a core event")
    from bianpai.addin import commands as c
    c.TITLE["text"] = reg.title_zh if reg.language == "zh" else (reg.title_en or reg.title_zh)
    errors: list[InputError] = []
    people = None
    rl = roster_layout(reg.roster_layout)  # the layout's declaration, never its name
    table = read_table(port, rl.table, errors=errors)
    if rl.per_person:
        people = table
        roster = pd.DataFrame(columns=[c.key for c in K.ROSTER.columns])
        roster.attrs = dict(people.attrs)
    else:
        roster = rl.entrants(table) if rl.entrants is not None else table
    ev = CoreEvent(port=port, reg=reg, lang=reg.language, lay=layouts_for(reg), roster=roster,
                   errors=errors, people=people)
    for g in reg.groups:
        ev.groups[g.id] = GroupState(group=g)
    if people is not None:  # the entrants of the people roster, made once while it is unchanged
        memo = SheetsMemo(port, [people.attrs.get("sheet"), find_sheet(port, L.SETTINGS)],
                          "core_entrants")
        hit = memo.get()
        if hit is None:
            start = len(errors)
            _entrants_from_people(ev)
            memo.put((ev.roster.copy(), errors[start:]))
        else:
            ev.roster = hit[0].copy()
            errors.extend(hit[1])
    _read_roster_groups(ev)
    _read_draw(ev)
    _choose_variants(ev)
    ev.schedule = _read_schedule(ev)
    ev.entries = _read_entries(ev)
    if typed_from is None:
        _read_typed(ev)
    else:
        ev.typed, ev.game_cols = dict(typed_from.typed), dict(typed_from.game_cols)
    _check_members(ev)
    _read_withdrawals(ev)
    _ruled_disqualifications(ev)
    from bianpai.addin.core_trust import check_what_the_event_depends_on  # noqa: PLC0415
    check_what_the_event_depends_on(ev)
    return ev


def rng_for(seed: int, *parts) -> random.Random:
    """A random generator derived from the command seed and the stage/round, so one seed
    repeats the whole draw."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))
