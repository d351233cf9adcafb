"""The generated result sheets of the competition core: 排名 rows, 交叉表, and the
final ranking of a group (stage placings joined by ``final_ranking``, derived rankings).

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from bianpai.addin.competition import CoreEvent
from bianpai.addin.core_unplaced import VOID_NOTE, place_of
from bianpai.engines.errors import RuleError
from bianpai.engines.standings import CRITERIA
from bianpai.templates.schema import FinalRankPart, Group, Stage
from bianpai.addin.core_draw import _num
# 签表 / 签表图 (bianpai.addin.core_bracket_sheets); their names stay importable from here
from bianpai.addin.core_bracket_sheets import (_bracket_grid, _bracket_rows,  # noqa: F401
                                               bracket_stages, write_brackets)


# ------------------------------------------------------------------------------ rank

def _placings_so_far(s: Stage, st) -> pd.DataFrame:
    """A knockout's placings, or none yet while a match that gives them is undecided (a
    ranking after a round, ``rank --round``, in the middle of the bracket): no place shown."""
    try:
        return s.format.placings(st)
    except RuleError:
        return pd.DataFrame(columns=["entrant", "pool", "place", "decided_by"])


def _standing_rows(ev: CoreEvent, g: Group, s: Stage, crit_cols: list[str],
                   st=None, extras: list[dict] | None = None) -> list[list]:
    """排名 rows of one stage (columns of ``ev.lay.standings``); ``extras`` (when given) gets,
    per row, values a style's view of 排名 may show besides: ``rounds`` 已赛轮数, ``carry``
    (带分), every criterion as ``c_<name>`` and the sums of the scoring's per-side result values
    as ``v_<key>`` (:func:`value_sums`)."""
    st = st if st is not None else ev.state(g, s)
    rows = []
    placings = None
    sums = value_sums(st.results.values()) if extras is not None else {}
    carry = {e.number: e.carry for e in st.entrants}
    for p in st.pools():
        tab = st.standings[p]
        if _is_knockout(s):
            placings = placings if placings is not None else _placings_so_far(s, st)
            pl = placings[placings["pool"].isin([p]) | (placings["pool"].isna() if p is None else False)]
            order = {int(e): (int(pl_), d) for e, pl_, d in zip(pl["entrant"], pl["place"], pl["decided_by"])}
            tab = tab.assign(rank=[order.get(int(e), (None, ""))[0] for e in tab["entrant"]],
                             explanation_zh=[order.get(int(e), (None, ""))[1] for e in tab["entrant"]])
            tab = tab.sort_values("rank", kind="stable")
        shown = standings_record(s)
        for rec in tab.to_dict("records"):
            e = int(rec["entrant"])
            vals = [CRITERIA[k].show(rec.get(k)) if isinstance(rec.get(k), tuple) and k in CRITERIA
                    else rec.get(k) for k in crit_cols]
            expl = rec["explanation_zh"] if ev.lang == "zh" else rec.get("explanation_en", "")
            rows.append([ev.gname(g), ev.sname(s), pool_name(ev, g, p), rec["rank"], e, ev.name_of(g, e), ev.unit_of(g, e),
                         *[rec[k] if k in shown else None for k in RECORD],
                         *[_cell(v) for v in vals], expl])
            if extras is not None:
                extras.append({"rounds": rec.get("rounds"), "carry": carry.get(e),
                               **{f"c_{k}": _cell(v) for k, v in rec.items() if k in CRITERIA},
                               **sums.get(e, {})})
    return rows


def value_sums(results) -> dict[int, dict[str, Decimal]]:
    """Per entrant, the sum of each numeric per-side value of its results
    (``MatchResult.values``: VP before fines, fines, IMPs won …) as ``v_<key>``."""
    out: dict[int, dict[str, Decimal]] = {}
    for r in results:
        for i, e in enumerate(r.match.sides):
            if e is None:
                continue
            mine = out.setdefault(int(e), {})
            for k, vals in r.values.items():
                v = vals[i] if isinstance(vals, tuple) and i < len(vals) else None
                if isinstance(v, (int, Decimal)) and not isinstance(v, bool):
                    mine[f"v_{k}"] = mine.get(f"v_{k}", Decimal(0)) + v
    return out


#: the record columns of 排名 (场数, 胜, 平, 负), by standings key
RECORD = ("played", "won", "drawn", "lost")


def standings_record(s: Stage) -> tuple[str, ...]:
    """The record columns (:data:`RECORD`) the 排名 of stage ``s`` shows: its format's
    ``standings_record`` declaration, all four by default. A movement whose entrants are ranked
    against the whole field (a Mitchell: 80分规则 二3 "比较比赛中所获比赛分之和 … 最高分 … 次高分")
    shows 场数 alone: a win against the table's opponents decides nothing there."""
    return tuple(getattr(type(s.format), "standings_record", RECORD))


def _place_note(ev: CoreEvent, g: Group, s: Stage, rec) -> str:
    """说明 of a 总排名 row: the stage and its pool (as the 排名 sheet names it: 南北, not NS)
    and the place there, e.g. "米切尔赛南北第1名", "分组赛A组第2名"."""
    pool = rec["pool"]
    shown = pool_name(ev, g, pool) if pool else None
    word = "" if not pool else (shown if shown != pool else f"{pool}组")
    return f"{ev.sname(s)}{word}第{int(rec['place'])}名"


def pool_name(ev: CoreEvent, g: Group, pool):
    """The pool as the 排名 sheet shows it: a ``sub_entrants`` label by its Chinese name (NS →
    南北) in a Chinese workbook, any other pool as labelled."""
    sub = g.sub_entrants
    if pool is None or sub is None or ev.lang != "zh" or pool not in sub.labels:
        return pool
    return sub.name(sub.labels.index(pool))


def _is_knockout(s: Stage) -> bool:
    """True when the stage's 排名 rows take the format's placings (a bracket: places by the
    round reached), not the scoring's match points: the format declares ``ranks_by_placings``
    (or is one of the core's eliminations)."""
    return bool(getattr(type(s.format), "ranks_by_placings", False)) or \
        s.format.kind in ("single_elimination", "double_elimination")


def _cell(v):
    if v is None or (isinstance(v, float) and v != v):
        return None
    if isinstance(v, Decimal):
        if not v.is_finite():  # e.g. an IMP quotient with nothing lost
            return "∞" if v > 0 else "-∞"
        return int(v) if v == v.to_integral_value() else v
    return v


CROSSTABLE_FORMATS = ("round_robin", "fixture_list")


def _crosstable(ev: CoreEvent, extras: list[dict] | None = None) -> list[list]:
    """Rows of 交叉表 for every entered round-robin-like stage (see
    :func:`bianpai.workbooks.core_layouts.crosstable_layout`). A cell is the scoring's
    ``crosstable_text(result, side, lang)`` when it has one, else 场分:场分; two meetings are
    joined by the workbook style's ``crosstable_sep``. ``extras`` (when given) gets, per row,
    the entrant's criteria (``c_<name>``) and the rounds of its byes (``bye_rounds``) a
    style's view may show."""
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    sep = style_of(ev.reg).crosstable_sep
    out = []
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if s.format.kind not in CROSSTABLE_FORMATS or not ev.entered(g, s):
                continue
            st = ev.state(g, s)
            for p in st.pools():
                order = sorted(st.pool_entrants(p), key=lambda e: (e.seed or 0, e.number))
                pos = {e.number: i for i, e in enumerate(order, start=1)}
                tab = st.standings[p].set_index("entrant")
                cells: dict[tuple[int, int], list[str]] = {}
                byes: dict[int, list[int]] = {}
                for r in st.results.values():
                    m = r.match
                    if m.pool != p:
                        continue
                    if m.is_bye:
                        for e in m.entrants:
                            byes.setdefault(e, []).append(m.round)
                        continue
                    a, b = m.sides[0], m.sides[1]
                    own = getattr(s.scoring, "crosstable_text", None)
                    for i, (x, y) in enumerate(((a, b), (b, a))):
                        j = 1 - i
                        txt = f"{_num(r.points[i])}:{_num(r.points[j])}"
                        if own is not None:
                            txt = own(r, i, ev.lang)
                        elif "VOID" in r.outcome:
                            txt = "无效" if ev.lang == "zh" else "void"
                        elif r.outcome[i] in ("FW", "FL"):
                            txt += "（弃权）" if ev.lang == "zh" else " (forfeit)"
                        cells.setdefault((x, y), []).append(txt)
                width = len(order)
                for e in order:
                    row = [ev.gname(g), ev.sname(s), p, pos[e.number], e.number,
                           ev.name_of(g, e.number)]
                    row += ["×" if o.number == e.number else sep.join(cells.get((e.number, o.number), []))
                            or None for o in order]
                    row += [None] * (ev.crosstable_width - width)
                    main = s.tie_breaks.criteria[0] if s.tie_breaks else "match_points"
                    col = main if main in tab.columns else "match_points"  # 场分 or 积分
                    mp = tab.loc[e.number, col] if col in tab.columns else None
                    row += ["、".join(f"R{n}" for n in byes.get(e.number, [])) or None,
                            _cell(mp), place_of(tab.loc[e.number, "rank"])]
                    out.append(row)
                    if extras is not None:
                        extras.append({**{f"c_{k}": _cell(tab.loc[e.number, k])
                                          for k in tab.columns if k in CRITERIA},
                                       "bye_rounds": sorted(byes.get(e.number, []))})
    return out


def core_final_standings(ev: CoreEvent, g: Group, *, provisional: bool = False
                         ) -> pd.DataFrame | None:
    """The final ranking of a finished group from ``group.final_ranking`` parts (places of the
    named stages, in order; places shared inside a part stay shared; an entrant whose results
    are all annulled — 弃权, 退赛 取消 — is listed last with no place). Columns ``place``,
    ``number``, ``source``, ``explanation``, ``ranking`` (the sub-entrant label of a separate
    ranking, else ``None``); ``None`` while a stage is unfinished. A derived group
    (``group.derived``) ranks the source group's entrants by a summed result value.
    ``provisional``: the places as they stand even while a stage is unfinished (a style that
    awards by its 排名 at any time, ``SheetSet.awards_unfinished``) — once a match of the group
    has a result (before any, the places would be the draw's alone). Computed once per event
    (awards checks them against 总排名, then gives by them): a copy each time."""
    key = ("final_standings", g.id, provisional)
    if key not in ev._results_cache:
        ev._results_cache[key] = _final_standings(ev, g, provisional)
    fs = ev._results_cache[key]
    return None if fs is None else fs.copy()


def _final_standings(ev: CoreEvent, g: Group, provisional: bool) -> pd.DataFrame | None:
    if g.derived is not None:
        d = _derived_standings(ev, g)
        return None if d is None else d.assign(ranking=None)
    if not g.stages:
        return None
    if not all(ev.finished(g, s) for s in g.stages) and not (provisional and any(
            not r.match.is_bye for s in g.stages for r in ev.results(g, s).values())):
        return None
    sub = g.sub_entrants
    if sub is not None and sub.separate_rankings:
        teams = ev.groups[g.id].teams
        frames = []
        for lab in sub.labels:
            keep = {n for n, t in teams.items() if t["pool"] == lab}
            frames.append(_final_rows(ev, g, keep).assign(ranking=lab))
        return pd.concat(frames, ignore_index=True)
    return _final_rows(ev, g, None).assign(ranking=None)


def ranking_name(ev: CoreEvent, g: Group, label, *, zh: bool | None = None) -> str:
    """The name of one of a group's final rankings: the group's, or with ``sub_entrants``
    ``组别（南北）`` per label."""
    zh = ev.lang == "zh" if zh is None else zh
    base = g.name_zh if zh else (g.name_en or g.name_zh)
    if label is None or g.sub_entrants is None:
        return base
    j = g.sub_entrants.labels.index(label)
    return f"{base}（{g.sub_entrants.name(j) if zh else label}）"


def _final_rows(ev: CoreEvent, g: Group, keep: set[int] | None) -> pd.DataFrame:
    # without a final_ranking the last stage's places are the group's
    parts = g.final_ranking or [FinalRankPart(from_stage=g.stages[-1].id)]
    rows: list[dict] = []
    void: list[dict] = []   # entrants whose results are all annulled: listed, no place
    seen: set[int] = set()
    for part in parts:
        s = g.stage(part.from_stage)
        st = ev.state(g, s)
        gone = ev.annulled.get((g.id, s.id), set())
        placed = s.format.placings(st)
        pl = placed.sort_values(["place"], kind="stable")
        lo, hi = part.places.first, part.places.last or 10**6
        pl = pl[(pl["place"] >= lo) & (pl["place"] <= hi)]
        if keep is not None:
            pl = pl[pl["entrant"].isin(keep)]
        base = len(rows)
        for rec in pl.to_dict("records"):
            n = int(rec["entrant"])
            if n in seen:
                continue
            seen.add(n)
            if n in gone:  # 弃权 / 取消资格: all its results void, not ranked, no award
                void.append(dict(place=None, number=n, source=ev.sname(s),
                                 explanation=VOID_NOTE[0]))
                continue
            same = [r for r in rows[base:] if r["_p"] == rec["place"]]
            place = same[0]["place"] if same else len(rows) + 1
            rows.append(dict(place=place, number=n, source=ev.sname(s), _p=rec["place"],
                             explanation=_place_note(ev, g, s, rec)))
        # the stage's annulled entrants have no place there (the ranking leaves them
        # unranked): listed by the part that takes the places after the stage's placed ones
        after = len(placed) + 1
        for n in [e.number for e in st.entrants if e.number in gone]:
            if n in seen or not lo <= after <= hi or (keep is not None and n not in keep):
                continue
            seen.add(n)
            void.append(dict(place=None, number=n, source=ev.sname(s),
                             explanation=VOID_NOTE[0]))
    cols = ["place", "number", "source", "explanation"]
    if void:  # object columns: the places stay integers next to the empty ones
        return pd.DataFrame(rows + void, columns=cols, dtype=object)
    return pd.DataFrame(rows, columns=cols)


def _source_group(ev: CoreEvent, g: Group) -> Group:
    """The group whose entrants ``g`` ranks (itself unless derived from a group of the
    regulation: a derived group whose source is not in it has its places typed)."""
    known = {o.id for o in ev.reg.groups}
    return ev.reg.group(g.derived.from_group) \
        if g.derived is not None and g.derived.from_group in known else g


def _derived_standings(ev: CoreEvent, g: Group) -> pd.DataFrame | None:
    """``group.derived``: the source group's entrants by the sum of the result value
    ``derived.value`` over ``derived.stages`` (higher first, equal sums share the place; sums
    ≤ ``min_value`` unranked). ``None`` while one of those stages is unfinished."""
    d = g.derived
    og = ev.reg.group(d.from_group)
    if not ev.groups[og.id].drawn:
        return None
    stages = [og.stage(x) for x in d.stages]
    if not all(ev.finished(og, s) for s in stages):
        return None
    total: dict[int, Decimal] = {}
    for s in stages:
        for r in ev.results(og, s).values():
            vals = r.values.get(d.value)
            if vals is None:
                continue
            for e, v in zip(r.match.sides, vals):
                if e is not None and v is not None:
                    total[int(e)] = total.get(int(e), Decimal(0)) + Decimal(str(v))
    order = sorted(((v, n) for n, v in total.items() if v > d.min_value), key=lambda t: (-t[0], t[1]))
    rows, prev = [], None
    for i, (v, n) in enumerate(order, start=1):
        place = rows[-1]["place"] if prev == v else i
        prev = v
        rows.append(dict(place=place, number=n, source=ev.gname(g),
                         explanation=f"{'、'.join(ev.sname(s) for s in stages)}合计 {_num(v)}"))
    return pd.DataFrame(rows, columns=["place", "number", "source", "explanation"])


def entrant_round_rows(ev: CoreEvent) -> tuple[list[list], list[dict]]:
    """Rows of :data:`bianpai.workbooks.sheet_sets.ENTRANT_ROUNDS` for every entered stage (by
    group, entrant, round), and per row the scoring's per-side values (比赛分%, 级差 …) and
    ``complete``, for a style's view."""
    from bianpai.engines.core import entrant_rows  # noqa: PLC0415
    rows, extras = [], []
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if not ev.entered(g, s):
                continue
            st = ev.state(g, s, with_standings=False)
            df = entrant_rows(st.results.values(), [e.number for e in st.entrants])
            part: list[tuple[tuple, list, dict]] = []
            for rec in ([] if df.empty else df.to_dict("records")):
                e = int(rec["entrant"])
                opp = rec["opponent"]
                opp = None if opp is None or opp is pd.NA or opp != opp else int(opp)
                part.append(((e, int(rec["round"])), [
                    ev.gname(g), ev.sname(s), rec["pool"], e, ev.name_of(g, e),
                    int(rec["round"]), opp, int(rec["side"]), _cell(rec["match_points"]),
                    rec["outcome"]], {k: _cell(v) for k, v in rec.items()
                                      if k not in ("opponents", "opponent", "pool", "round",
                                                   "table", "entrant", "side", "match_points",
                                                   "outcome")}))
            # a drawn match without its result yet: one row per side, not complete (未录)
            for m in st.matches:
                if m.key in st.results:
                    continue
                for i, e in enumerate(m.sides):
                    if e is None:
                        continue
                    opp = next((o for j, o in enumerate(m.sides) if j != i and o is not None), None)
                    part.append(((int(e), m.round), [
                        ev.gname(g), ev.sname(s), m.pool, int(e), ev.name_of(g, e), m.round,
                        opp, i, None, None], {"complete": False}))
            if not part:
                continue
            part.sort(key=lambda t: t[0])
            rows += [r for _k, r, _x in part]
            extras += [x for _k, _r, x in part]
    return rows, extras
