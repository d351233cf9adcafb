"""Entrants who join a RUNNING stage at a later round (a progression rule with ``losers_of`` and
``join_round`` > 1): e.g. the quarter-final losers of the knockout entering the consolation
Swiss at its round 3 with a carry-over (福建 2024 桥牌 五、第二阶段1；八（二）（三）).

``advance`` starts the stage with its other rules' entrants; ``draw``, about to pair round k of
the stage, adds the rules joining at k once their source round is decided (the source format
declares ``losers(state, of)``), appends them to 晋级 and pairs them in the same round. A rule
whose source round is not decided refuses that stage's round (naming the matches); the group's
other stages go on.

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from bianpai.addin.competition import CoreEvent, rng_for
from bianpai.engines.bridge import carry_over, carry_over_parts
from bianpai.engines.core import NotReady, Reason
from bianpai.engines.errors import RuleError
from bianpai.templates.schema import Group, Stage

__all__ = ["runs_beside_next", "is_late_rule", "late_rows", "add_late_entries",
           "write_late_entries", "write_entries", "stage_totals", "carried"]


def _sources(s: Stage) -> set[str]:
    return {r.from_stage for r in (s.entrants if isinstance(s.entrants, list) else [])
            if r.from_stage}


def runs_beside_next(g: Group, s: Stage) -> bool:
    """True when the next stage of ``g`` runs beside ``s``: both are fed by the same earlier
    stage (e.g. the knockout of a first stage's top 8 and the consolation Swiss of its other
    teams, 福建 五、第二阶段; the final round robin and the consolation Swiss, 鄂托克旗 四（二）).
    ``advance`` then enters both and ``draw`` pairs the next round of each."""
    i = g.stages.index(s)
    return i + 1 < len(g.stages) and bool(_sources(s) & _sources(g.stages[i + 1]))


def is_late_rule(rule) -> bool:
    """True for a rule whose entrants are known only while its source stage runs (the losers
    of a round): ``advance`` leaves it to the draw of its ``join_round``."""
    return getattr(rule, "losers_of", None) is not None


def stage_totals(ev: CoreEvent, g: Group, s: Stage) -> dict[int, Decimal]:
    """Each entrant's main score in stage ``s`` (the chain's first criterion, e.g. VP with the
    fines deducted and the carry-over included): what a carry-over takes its share of."""
    st = ev.state(g, s)
    main = s.tie_breaks.criteria[0] if s.tie_breaks else "match_points"
    out: dict[int, Decimal] = {}
    for p in st.pools():
        tab = st.standings[p]
        col = main if main in tab.columns else "match_points"
        out.update({int(e): Decimal(str(v)) for e, v in zip(tab["entrant"], tab[col])})
    return out


def carried(totals: dict[int, Decimal], number: int, co) -> tuple[Decimal, dict]:
    """``(carry, parts)`` of entrant ``number`` under carry-over rule ``co`` (``None``: nothing
    carried): ``carry = q2(q2(total × fraction) + plus)``, half-up (八（二）（三））; ``parts``
    (``from_vp``, ``fraction``, ``scaled``, ``plus``, ``carry_clause``) for a style's view
    of 晋级 (来源VP, 比例, 比例带分, 另加VP)."""
    if co is None:
        zero = Decimal("0")
        return zero, dict(from_vp=zero, fraction=zero, scaled=zero, plus=zero, carry_clause=None)
    total = totals.get(number, Decimal("0"))
    scaled, carry = carry_over_parts(total, co.fraction, co.plus)
    return carry, dict(from_vp=total, fraction=co.fraction, scaled=scaled, plus=co.plus,
                       carry_clause=co.clause)


def source_place(ev: CoreEvent, g: Group, of: Stage, number: int) -> int | None:
    """``number``'s place in stage ``of`` as recorded in 晋级 when that stage's ranking was
    taken further (``None`` when not recorded)."""
    e = ev.entries
    if e is None or e.empty:
        return None
    sub = e[(e["group_id"] == g.id) & (e["from_stage_id"] == of.id) & (e["number"] == number)]
    for v in sub["from_place"]:
        if v is not None and not pd.isna(v):
            return int(v)
    return None


def late_rows(ev: CoreEvent, g: Group, s: Stage, rnd: int, seed: int) -> list[dict]:
    """晋级 rows (dicts: number, pool, position, from_stage, from_pool, from_place, carry,
    join_round, clause) of the late rules of ``s`` joining at round ``rnd`` not yet entered.
    Raises ``NotReady`` while the source round is undecided, ``RuleError`` when the source
    format cannot name the losers of a round."""
    rules = [r for r in (s.entrants if isinstance(s.entrants, list) else [])
             if is_late_rule(r) and r.join_round == rnd]
    if not rules:
        return []
    have = {e.number for e in ev.entries_of(g, s)}
    pos = max([e.seed or 0 for e in ev.entries_of(g, s)] + [len(have)])
    out: list[dict] = []
    for i, rule in enumerate(rules):
        src = g.stage(rule.from_stage)
        losers = getattr(src.format, "losers", None)
        if losers is None:
            raise RuleError(f"{ev.sname(src)}的赛制不能给出“{rule.losers_of}负者”（{ev.sname(s)}）",
                            f"{src.id}: its format cannot name the {rule.losers_of} losers")
        who = f"{ev.sname(s)}第{rnd}轮需要{ev.sname(src)}{rule.losers_of}" \
              f"{'负队' if g.entrant == 'team' else '负者'}加入"
        try:
            teams = losers(ev.state(g, src), rule.losers_of) if ev.entered(g, src) else None
        except NotReady as exc:  # drawn, not decided: say who waits for it
            first, *rest = exc.reasons
            raise NotReady([Reason(first.code, f"{who}，但{first.zh}", f"round {rnd} of {s.id} "
                                   f"needs the {rule.losers_of} losers: {first.en}", first.cells),
                            *rest]) from exc
        if teams is None:
            raise NotReady([Reason("undecided", f"{who}，该轮尚未编排",
                                   f"round {rnd} of {s.id} needs the {rule.losers_of} losers of "
                                   f"{src.id}, not drawn yet")])
        co = rule.carry_over
        of = g.stage(co.of_stage) if co is not None and co.of_stage else src
        totals = stage_totals(ev, g, of) if co is not None else {}
        blk = []
        for t in teams:
            if t in have:
                continue
            carry, parts = carried(totals, t, co)
            blk.append(dict(number=t, from_stage=src, from_pool=None,
                            from_place=source_place(ev, g, of, t), carry=carry,
                            join_round=rule.join_round, clause=rule.clause or s.clause,
                            pool=None, parts=parts))
        if rule.positions == "lot":
            rng_for(seed, g.id, s.id, "positions", "late", i).shuffle(blk)
        for r in blk:
            pos += 1
            r["position"] = pos
        out += blk
    return out


def add_late_entries(ev: CoreEvent, g: Group, s: Stage, seed: int, entry_rows: list[list]
                     ) -> None:
    """Before pairing the next round of running stage ``s``: its late entrants of that round
    join (added to ``ev.entries`` so the format sees them, and as 晋级 sheet rows to
    ``entry_rows``). Raises ``NotReady``/``RuleError`` as :func:`late_rows`."""
    rnd = len({m.round for m in ev.stage_matches(g, s)}) + 1
    rows = late_rows(ev, g, s, rnd, seed)
    if not rows:
        return
    new = [dict(group_id=g.id, stage_id=s.id, number=r["number"], pool=r["pool"],
                position=r["position"], from_stage_id=r["from_stage"].id,
                from_pool=r["from_pool"], from_place=r["from_place"], carry=r["carry"],
                join_round=r["join_round"], seed=None) for r in rows]
    ev.entries = pd.concat([ev.entries, pd.DataFrame(new)], ignore_index=True) \
        if ev.entries is not None and not ev.entries.empty else pd.DataFrame(new)
    ev._results_cache.clear()
    for r in rows:
        entry_rows.append([ev.gname(g), ev.sname(s), r["number"], ev.name_of(g, r["number"]),
                           r["pool"], r["position"], ev.sname(r["from_stage"]), r["from_pool"],
                           r["from_place"], r["carry"], r["join_round"], "", r["clause"]])
        ev.carry_parts[(ev.gname(g), ev.sname(s), r["number"])] = r["parts"]


def write_late_entries(ev: CoreEvent, rows: list[list]) -> None:
    """Append ``rows`` (晋级 sheet rows) to 晋级 (:func:`write_entries`)."""
    write_entries(ev, rows)


def write_entries(ev: CoreEvent, rows: list[list]) -> None:
    """Append ``rows`` (晋级 rows in the core's columns) to 晋级, rewritten whole. Through the
    workbook style's view when it declares one (the rows already there kept as shown, the new
    ones with their carry-over's parts from ``ev.carry_parts``); else in the core's columns.
    Its record: the hidden copy when the style keeps them (``SheetSet.record_copies``), else
    the document property of what the sheet now shows (the next command checks 晋级/带分
    against it, :func:`~bianpai.addin.core_read.check_record`)."""
    from bianpai.addin import command_infra as c  # noqa: PLC0415
    from bianpai.addin.competition import ENTRY_KEYS  # noqa: PLC0415
    from bianpai.addin.core_draw import write_record  # noqa: PLC0415
    from bianpai.addin.core_views import placed, style_of  # noqa: PLC0415
    from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
    from bianpai.workbooks.tables import find_sheet  # noqa: PLC0415
    style = style_of(ev.reg)
    view = style.view(ev.reg, K.ENTRIES.key)
    shown = K.ENTRIES if view is None else view.layout
    name = find_sheet(ev.port, shown)
    old = [list(r) for r in ev.port.read_values(name)[1:]] if name else []
    if view is None and style.record_copies:
        write_record(ev.port, K.ENTRIES, old + rows, ev.lang, ENTRY_KEYS)
        return
    if view is not None:
        rows = view.rows(K.ENTRIES, rows, ev.lang,
                         [ev.carry_parts.get((r[0], r[1], r[2]), {}) for r in rows])
    c.write_generated(ev.port, shown, old + rows, ev.lang,
                      position=placed(ev.port, ev.reg, K.ENTRIES))
    if not style.record_copies:  # a style whose sheets are fixed: a document property
        from bianpai.addin.core_records import write_shown_record  # noqa: PLC0415
        write_shown_record(ev, K.ENTRIES, ENTRY_KEYS)
