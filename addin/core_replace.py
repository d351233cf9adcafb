"""递补: who takes the slot of an entrant that withdraws from a stage before it is drawn, by the
stage's :class:`~bianpai.templates.schema.Replacement` setting (CBSA 十二（四）"如遇…排名前8的选手
未报名参赛或不符合参赛条件，空余名额将按照排名依次顺延递补。如已报名又临时退赛的，空余名额将在资格赛未出线的选手中依据
资格赛的综合成绩择优递补").

Pure reads of a :class:`~bianpai.addin.competition.CoreEvent`: nothing here writes. The
withdraw command (:func:`bianpai.addin.core_results.core_withdraw`) records the replacement in
the 退赛 row (递补); :meth:`CoreEvent.stage_entrants` and ``advance`` put it in the slot.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING

from bianpai.engines.errors import RuleError

if TYPE_CHECKING:  # pragma: no cover
    from bianpai.addin.competition import CoreEvent
    from bianpai.templates.schema import Group, Stage

__all__ = ["substituted", "assigned", "non_qualified", "next_ranked", "promoted", "seed_stage",
           "slot_map", "source_started", "takes_slot", "typed_replacements"]


def _order(ev: "CoreEvent", g: "Group", s: "Stage", src: "Stage", members: list[int],
           keys: list[str], purpose: str) -> list[int]:
    """``members`` best first by ``keys``: ranking criteria over ``src``'s results, ``rating``
    (报名 等级分, higher first) / ``seed`` (种子, smaller first) from the roster, ``lots`` (a lot
    seeded by the source stage's seed, so a replay gives the same order). An entrant without a
    value comes after those with one. Raises ``RuleError`` for an unknown key."""
    from bianpai.addin.competition import rng_for  # noqa: PLC0415
    from bianpai.engines import core as core_engine  # noqa: PLC0415
    from bianpai.engines.standings import CRITERIA  # noqa: PLC0415
    st = ev.state(g, src, with_standings=False)
    rows = core_engine.entrant_rows(st.results.values(), members)
    lot = rng_for(ev.stage_seed(g, src) or 0, g.id, s.id, purpose)
    lots = {n: lot.random() for n in sorted(members)}
    sort_keys: dict[int, list] = {n: [] for n in members}
    for name in keys:
        if name == "lots":
            vals, desc = lots, False
        elif name in ("rating", "seed"):
            vals, desc = {n: ev.roster_value(g, n, name) for n in members}, name == "rating"
        elif name in CRITERIA:
            crit = CRITERIA[name]
            vals, desc = crit.compute(members, rows, {}), crit.descending
        else:
            raise RuleError(f"未知的递补排序依据“{name}”（{ev.sname(s)}）",
                            f"unknown replacement key {name!r}")
        for n in members:
            v = vals.get(n)
            if v is None or (isinstance(v, float) and v != v):
                sort_keys[n].append((1, 0))
            else:
                d = Decimal(str(v))
                sort_keys[n].append((0, -d if desc else d))
    return sorted(members, key=lambda n: sort_keys[n])


def typed_replacements(ev: "CoreEvent", g: "Group", s: "Stage") -> dict[int, int]:
    """withdrawn → replacement as recorded in 退赛 (递补) for stage ``s``."""
    return {n: r for (gid, sid, n), r in ev.replacements.items()
            if gid == g.id and sid == s.id and r is not None}


def source_started(ev: "CoreEvent", g: "Group", s: "Stage") -> bool:
    """True when the replacement source stage of ``s`` has a typed result."""
    src = g.stage(s.replacement.from_stage)
    return any(k[0] == g.id and k[1] == src.id and not t.empty for k, t in ev.typed.items())


def non_qualified(ev: "CoreEvent", g: "Group", s: "Stage", *, exclude=()) -> list[int]:
    """The entrants of the source stage who did not qualify for ``s``, best first by
    ``order_by`` ("依据资格赛的综合成绩择优"): not in ``s``'s 晋级 (before 晋级: not among the source's
    qualifiers), not withdrawn, not a replacement already, not in ``exclude``. Empty while the
    source stage is not finished."""
    rule = s.replacement
    src = g.stage(rule.from_stage)
    if not ev.finished(g, src):
        return []
    st = ev.state(g, src, with_standings=False)
    inside = {e.number for e in ev.entries_of(g, s)} or _survivors(ev, g, src)
    out = sorted(e.number for e in st.entrants)
    gone = {n for (gid, sid, n) in ev.withdrawals if gid == g.id}
    gone |= {r for (gid, _s, _n), r in ev.replacements.items() if gid == g.id and r is not None}
    members = [n for n in out if n not in inside and n not in gone and n not in set(exclude)]
    return _order(ev, g, s, src, members, rule.order_by, "replacement")


def next_ranked(ev: "CoreEvent", g: "Group", s: "Stage", number: int, *, exclude=()
                ) -> int | None:
    """"按照排名依次顺延递补": the best ``ranked_by`` entrant of the group without a 种子, with the
    same ``same_as`` roster value as ``number``, not withdrawn, not already a replacement and
    not in ``exclude``; ``None`` when nobody is left."""
    rule = s.replacement
    src = g.stage(rule.from_stage)
    want = ev.roster_value(g, number, rule.same_as) if rule.same_as else None
    used = {r for (gid, _sid, _n), r in ev.replacements.items() if gid == g.id and r is not None}
    gone = {n for (gid, _sid, n) in ev.withdrawals if gid == g.id}
    members = [n for n in ev.groups[g.id].teams
               if ev.roster_value(g, n, "seed") is None and n not in used and n not in gone
               and n not in set(exclude)
               and (not rule.same_as or ev.roster_value(g, n, rule.same_as) == want)]
    if not members:
        return None
    return _order(ev, g, s, src, members, rule.ranked_by, "ranking")[0]


def seed_stage(ev: "CoreEvent", g: "Group", number: int) -> "Stage | None":
    """The stage a roster seed enters directly (a rule ``from_roster: seeded``) when it is not
    entered yet: a withdrawal of that seed before then is that stage's (after round 0)."""
    if ev.roster_value(g, number, "seed") is None:
        return None
    for s in g.stages[1:]:
        rules = s.entrants if isinstance(s.entrants, list) else []
        if any(r.from_roster == "seeded" for r in rules) and not ev.entries_of(g, s):
            return s
    return None


def _survivors(ev: "CoreEvent", g: "Group", src: "Stage") -> set[int]:
    """The qualifiers of a finished source stage: its remaining entrants (a knockout stopped
    when K remained), else the first of each pool (as ``advance`` takes ``remaining``)."""
    st = ev.state(g, src, with_standings=False)
    rem = getattr(src.format, "remaining", None)
    if rem:
        return set(rem(st))
    pl = src.format.placings(st)
    return set(pl[pl["place"] == pl["place"].min()]["entrant"].astype(int))


def assigned(ev: "CoreEvent", g: "Group", s: "Stage") -> dict[int, int]:
    """withdrawn → replacement for stage ``s`` (empty without a ``replacement`` setting): every
    withdrawal from ``s`` after round 0, and every survivor of the source stage withdrawn there
    (qualified, then withdrew), in 退赛 row order; the recorded 递补 first, else the best
    non-qualified entrant of the source stage not used yet (once it is finished). Cached."""
    rule = s.replacement
    if rule is None:
        return {}
    key = ("replacement", g.id, s.id)
    if key in ev._results_cache:
        return ev._results_cache[key]
    ev._results_cache[key] = {}  # guards a re-entry while computing
    typed = typed_replacements(ev, g, s)
    used = set(typed.values())
    out: dict[int, int] = {}
    pool: list[int] | None = None
    survivors: set[int] | None = None
    drawn: set | None = None
    for (gid, sid, n), (k, _annul, _why) in ev.withdrawals.items():
        if gid != g.id:
            continue
        if sid == s.id:
            if k != 0:
                continue
        elif sid == rule.from_stage:
            if survivors is None:
                src = g.stage(rule.from_stage)
                survivors = _survivors(ev, g, src) if ev.finished(g, src) else set()
            if n not in survivors:
                continue
        else:
            continue
        r = typed.get(n)
        if r is None:
            if drawn is None:
                drawn = {x for m in ev.raw_matches(g, s) for x in m.sides}
            if n in drawn:
                continue  # withdrawn after the draw without a recorded 递补: a walkover
            if pool is None:
                pool = non_qualified(ev, g, s, exclude=used)
            r = next((x for x in pool if x not in used), None)
        if r is not None:
            out[n] = r
            used.add(r)
    ev._results_cache[key] = out
    return out


def takes_slot(ev: "CoreEvent", g: "Group", s: "Stage", number: int) -> bool:
    """True when a withdrawal of ``number`` registered now gets a replacement in ``s``: he is in
    no drawn match of ``s`` (the stage is not drawn yet), or ``after_draw`` is
    ``replace_unplayed`` and no result of his in ``s`` is typed."""
    raw = ev.raw_matches(g, s)
    mine = [m for m in raw if number in m.sides]
    if not mine:
        return True
    if s.replacement.after_draw != "replace_unplayed":
        return False
    return not any((g.id, s.id, *m.key) in ev.typed and not ev.typed[(g.id, s.id, *m.key)].empty
                   for m in mine)


def slot_map(ev: "CoreEvent", g: "Group", s: "Stage") -> dict[int, int]:
    """withdrawn → replacement for the slots of ``s``: a withdrawn entrant in no drawn match
    (withdrawn before the draw, so the draw already holds the replacement), or one whose 递补 was
    recorded after the draw under ``after_draw = replace_unplayed``."""
    if s.replacement is None or not any(k[0] == g.id for k in ev.withdrawals):
        return {}
    drawn = {x for m in ev.raw_matches(g, s) for x in m.sides}
    late = s.replacement.after_draw == "replace_unplayed"
    typed = typed_replacements(ev, g, s)
    return {n: r for n, r in assigned(ev, g, s).items()
            if n not in drawn or (late and typed.get(n) == r)}


def promoted(ev: "CoreEvent", g: "Group", s: "Stage", number: int) -> bool:
    """True when ``number`` is recorded as 递补 in a later stage taking its replacements from
    ``s`` and has no typed result in ``s`` (a seed's replacement by ranking, 十二（四）"按照排名依次
    顺延递补"): he plays no more in ``s``, so a match of his drawn there is a walkover."""
    if not any(r == number and gid == g.id and g.stage(sid).replacement is not None
               and g.stage(sid).replacement.from_stage == s.id
               for (gid, sid, _n), r in ev.replacements.items()):
        return False
    mine = {m.key for m in ev.raw_matches(g, s) if number in m.sides}
    return not any(k[:2] == (g.id, s.id) and tuple(k[2:]) in mine and not t.empty
                   for k, t in ev.typed.items())


def substituted(ev: "CoreEvent", g: "Group", s: "Stage", items: list) -> list:
    """``items`` (the stage's :class:`~bianpai.engines.core.StageEntrant` or drawn
    :class:`~bianpai.engines.core.Match` records) with every withdrawn entrant whose
    replacement takes the slot now (:func:`slot_map`) replaced."""
    from bianpai.engines.core import Match  # noqa: PLC0415
    sub = slot_map(ev, g, s)
    if not sub:
        return items
    for n in list(sub):  # a chain (a seed's replacement withdrawn and replaced in turn)
        seen = {n}
        while sub[n] in sub and sub[n] not in seen:
            seen.add(sub[n])
            sub[n] = sub[sub[n]]
    out = []
    for x in items:
        if isinstance(x, Match):
            out.append(replace(x, sides=tuple(sub.get(e, e) if e is not None else None
                                              for e in x.sides)))
        elif x.number in sub:
            r = sub[x.number]
            out.append(replace(x, number=r, unit=ev.unit_of(g, r),
                               withdrawn_after=ev.withdrawn_after(g, s, r)))
        else:
            out.append(x)
    return out


def replaced_matches(ev: "CoreEvent") -> list[tuple]:
    """``(group, stage, drawn match, match now)`` of every drawn match whose side a 递补 now
    takes (``after_draw = replace_unplayed``, recorded after the draw): the pairings and the
    result rows still name the withdrawn entrant until :func:`write_replacements`."""
    out = []
    for g in ev.reg.groups:
        for s in g.stages:
            if s.replacement is None or s.replacement.after_draw != "replace_unplayed":
                continue
            for a, b in zip(ev.raw_matches(g, s), ev.stage_matches(g, s)):
                if a.sides != b.sides:
                    out.append((g, s, a, b))
    return out


def write_replacements(ev: "CoreEvent", schedule_rows) -> int:
    """Write each 递补 of :func:`replaced_matches` into the workbook: 对阵 rebuilt (rows from
    ``schedule_rows(ev, [])``) and the team numbers (主队号/客队号) of the match's 成绩 row, so
    the replaced entrant no longer shows (十二（四） “空余名额…择优递补”). Returns the number of
    matches changed."""
    from bianpai.addin.core_views import write_core_sheet  # noqa: PLC0415
    from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
    from bianpai.workbooks.tables import find_sheet  # noqa: PLC0415
    changed = replaced_matches(ev)
    if not changed:
        return 0
    port = ev.port
    write_core_sheet(port, ev.reg, K.SCHEDULE, schedule_rows(ev, []), ev.lang, break_on=(0, 1, 3))
    name = find_sheet(port, ev.lay.results)
    if name is None:
        return len(changed)
    grid = port.read_values(name)
    keys = [col.key for col in ev.lay.results.columns]
    at = {k: keys.index(k) for k in ("group", "stage", "pool", "round", "table", "side0", "side1")}
    want = {(ev.gname(g), ev.sname(s), str(m.pool or ""), m.round, m.table): now
            for g, s, m, now in changed}
    for i, row in enumerate(grid[1:], start=2):
        row = list(row) + [None] * (len(keys) - len(row))
        try:
            key = (row[at["group"]], row[at["stage"]], str(row[at["pool"]] or ""),
                   int(row[at["round"]]), int(row[at["table"]]))
        except (TypeError, ValueError):
            continue
        now = want.get(key)
        if now is not None:
            row[at["side0"]], row[at["side1"]] = now.sides[0], now.sides[1]
            port.append_rows(name, [row[:len(keys)]], start_row=i)
    return len(changed)
