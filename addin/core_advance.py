"""The competition core's 进入下一阶段: qualifiers of finished stages by the regulation's entrant
rules, their numbers in the new stage, and the 晋级 record.

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any


from bianpai.addin import commands as c
from bianpai.addin.competition import CoreEvent, load_core_event, rng_for
from bianpai.engines.errors import RuleError
from bianpai.templates.schema import Group, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.port import WorkbookPort
from bianpai.addin.core_draw import _scored_or_refuse
from bianpai.addin.core_views import style_of
from bianpai.addin.core_joiners import (carried, is_late_rule, runs_beside_next, stage_totals,
                                       write_entries)


# ------------------------------------------------------------------------------ advance

def _progress(ev: CoreEvent, g: Group, src: Stage) -> str:
    """How far an unfinished stage is: its rounds not drawn yet, else its results missing."""
    st = ev.state(g, src, with_standings=False)
    try:
        total = src.format.total_rounds(st)
    except Exception:  # noqa: BLE001 - a format that cannot tell yet
        total = None
    if total and st.rounds_drawn() < total:
        return f"{ev.sname(src)}共{total}轮，目前只编排了{st.rounds_drawn()}轮"
    miss = ev.missing(g, src)
    return f"{ev.sname(src)}尚有 {len(miss)} 场未录入成绩" if miss else ""


def _qualifiers(ev: CoreEvent, g: Group, s: Stage, seed: int) -> tuple[list[dict], list[str]]:
    """Entrants of ``s`` from its rules: ``(rows, waiting)``; ``waiting`` names source stages
    not finished yet. Rules fill the stage in order (the first rule's entrants take the first
    numbers); within a rule the order is its ``positions``."""
    waiting: list[str] = []
    blocks: list[tuple[Any, list[dict]]] = []
    from bianpai.addin.core_replace import assigned  # noqa: PLC0415
    for rule in s.entrants if isinstance(s.entrants, list) else []:
        if rule.from_roster == "seeded":
            blocks.append((rule, _replaced(ev, g, s, _roster_seeded(ev, g, s, rule), assigned)))
            continue
        if is_late_rule(rule):  # joins the running stage later (addin.core_joiners)
            continue
        src = g.stage(rule.from_stage)
        if not ev.finished(g, src):
            waiting.append(ev.sname(src))
            continue
        st = ev.state(g, src)
        pl = src.format.placings(st)
        pl = pl[~pl["entrant"].isin(ev.annulled.get((g.id, src.id), set()))]  # never qualify
        if rule.remaining:
            rem = getattr(src.format, "remaining", None)
            keep = set(rem(st)) if rem else set(pl[pl["place"] == pl["place"].min()]["entrant"])
            pl = pl[pl["entrant"].isin(keep)]
        elif rule.places is not None:
            lo, hi = rule.places.first, rule.places.last or 10**6
            if rule.per_pool:
                pl = pl[(pl["place"] >= lo) & (pl["place"] <= hi)]
            else:
                pl = pl.sort_values(["place"], kind="stable")
                pl = pl[(pl["place"] >= lo) & (pl["place"] <= hi)]
        for col, val in (rule.where or {}).items():
            if col not in pl.columns:
                raise RuleError(f"{ev.sname(src)}的名次表没有“{col}”列", f"no placings column {col!r}")
            pl = pl[pl[col].astype(str) == str(val)]
        totals = {}
        if rule.carry_over is not None:  # carried: a share of the main score (chain's first)
            of = g.stage(rule.carry_over.of_stage) if rule.carry_over.of_stage else src
            totals = stage_totals(ev, g, of)
        blk = []
        for rec in pl.to_dict("records"):
            carry, parts = carried(totals, int(rec["entrant"]), rule.carry_over)
            blk.append(dict(number=int(rec["entrant"]), from_stage=src, from_pool=rec["pool"],
                            from_place=int(rec["place"]), carry=carry,
                            join_round=rule.join_round, positions=rule.positions,
                            clause=rule.clause or s.clause, parts=parts))
        blk = _replaced(ev, g, s, blk, assigned)
        if rule.positions == "seed_by":
            blk = _seed_by(ev, g, s, src, st, rule, blk, seed, len(blocks))
        blocks.append((rule, blk))
    rows = [r for _, blk in blocks for r in blk]
    if waiting or not rows:
        return rows, waiting
    single = len(blocks) == 1
    for i, (rule, blk) in enumerate(blocks):
        if rule.from_roster or rule.positions == "seed_by":
            continue
        if rule.positions == "lot":
            # one rule: the lot of earlier versions (same seed → same numbers)
            rng_for(seed, g.id, s.id, "positions", *(() if single else (i,))).shuffle(blk)
        else:
            pool_order = {p: j for j, p in enumerate(dict.fromkeys(r["from_pool"] for r in blk))}
            blk.sort(key=lambda r: (r["from_place"], pool_order[r["from_pool"]]))
    rows = [r for _, blk in blocks for r in blk]
    labels = s.pools.pool_labels() if s.pools else [None]
    if s.pools is not None and s.pools.method == "snake" and len(blocks) > 1:
        # the first rule's entrants snaked into position 1, 2 … of the pools, the rest (already
        # in lot order) dealt to the pools with the fewest members
        k = len(labels)
        members: list[list[dict]] = [[] for _ in labels]
        first = blocks[0][1]
        for i, r in enumerate(first):
            lap, j = divmod(i, k)
            members[j if lap % 2 == 0 else k - 1 - j].append(r)
        for r in rows[len(first):]:
            members[min(range(k), key=lambda j: (len(members[j]), j))].append(r)
        for lab, ms in zip(labels, members):
            for pos, r in enumerate(ms, start=1):
                r["pool"], r["position"] = lab, pos
        return [r for ms in members for r in ms], waiting
    size = -(-len(rows) // len(labels))
    for i, r in enumerate(rows):
        r["pool"] = labels[i // size]
        r["position"] = i % size + 1
    return rows, waiting


def _replaced(ev: CoreEvent, g: Group, s: Stage, blk: list[dict], assigned) -> list[dict]:
    """``blk`` with a note on the row of every withdrawn entrant that has a replacement (递补,
    ``s.replacement``): the row keeps the withdrawn entrant (the 退赛 record stays true) and its
    place in the rule's order; the replacement takes that slot when the stage is read
    (:meth:`CoreEvent.stage_entrants`)."""
    if s.replacement is None:
        return blk
    sub = assigned(ev, g, s)
    why = s.replacement.clause or ""
    return [r if r["number"] not in sub else
            {**r, "clause": f"{r['clause'] or ''}；{r['number']}号退赛，由{sub[r['number']]}号递补（{why}）"}
            for r in blk]


def _roster_seeded(ev: CoreEvent, g: Group, s: Stage, rule) -> list[dict]:
    """``from_roster: seeded``: the roster's entrants with a 种子, in 种子 order (``places``
    caps the range of that order)."""
    gs = ev.groups[g.id]
    seeded = sorted((int(ev.roster_value(g, n, "seed")), n) for n in gs.teams
                    if ev.roster_value(g, n, "seed") is not None)
    lo = rule.places.first if rule.places else 1
    hi = (rule.places.last if rule.places else None) or 10**6
    return [dict(number=n, from_stage=None, from_pool=None, from_place=sd, carry=Decimal("0"),
                 join_round=rule.join_round, positions="seed", clause=rule.clause or s.clause)
            for i, (sd, n) in enumerate(seeded, start=1) if lo <= i <= hi]


def _seed_by(ev: CoreEvent, g: Group, s: Stage, src: Stage, st, rule, blk: list[dict],
             seed: int, index: int) -> list[dict]:
    """``blk`` ordered by ``rule.seed_by``: registered criteria over the source stage's results
    (胜率 …), ``rating`` (报名 等级分, higher first), ``seed`` (报名 种子, smaller first),
    ``lots``; an entrant without a value comes after those with one."""
    from bianpai.engines import core as core_engine  # noqa: PLC0415
    from bianpai.engines.standings import CRITERIA  # noqa: PLC0415
    members = [r["number"] for r in blk]
    rows = core_engine.entrant_rows(st.results.values(), members)
    lot = rng_for(seed, g.id, s.id, "seed_by", index)
    lots = {n: lot.random() for n in sorted(members)}
    keys: dict[int, list] = {n: [] for n in members}
    for name in rule.seed_by or ["lots"]:
        if name == "lots":
            vals, desc = lots, False
        elif name in ("rating", "seed"):
            vals = {n: ev.roster_value(g, n, name) for n in members}
            desc = name == "rating"
        elif name in CRITERIA:
            crit = CRITERIA[name]
            vals, desc = crit.compute(members, rows, {}), crit.descending
        else:
            raise RuleError(f"未知的排序依据“{name}”（{ev.sname(s)}）", f"unknown seed_by key {name!r}")
        for n in members:
            v = vals.get(n)
            keys[n].append((1, 0) if v is None else (0, -Decimal(str(v)) if desc else Decimal(str(v))))
    return sorted(blk, key=lambda r: keys[r["number"]])


def core_advance(port: WorkbookPort, *, seed: int | None = None):
    """进入下一阶段: for every stage whose source stages are finished and whose entrants are not
    yet known, take the qualifiers (places per pool, knockout survivors …) by the regulation's
    rules, give their numbers in the new stage (by seeded lot or by place) and write 晋级 with
    the seed; the next ``draw`` then pairs the new stage's first round."""
    ev = load_core_event(port)
    if all(len(g.stages) <= 1 for g in ev.reg.groups):
        raise RuleError("本赛事只有一个阶段，没有“下一阶段”",
                        "this event has a single stage; there is no next stage")
    _scored_or_refuse(ev)
    seed = c.new_seed() if seed is None else int(seed)
    style = style_of(ev.reg)
    new_rows: list[list] = []
    done, waiting, ranked = [], [], []
    sources: list = []  # (group, stage) ranked and taken further by this press
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages[1:]:
            if ev.entered(g, s):
                continue
            froms = [g.stage(r.from_stage) for r in s.entrants if isinstance(s.entrants, list)
                     and r.from_stage and not is_late_rule(r)]
            if style.advance_ranking_seed:  # the stages taken further are ranked by this seed
                for src in froms:
                    if not any(r["group_id"] == g.id and r["from_stage_id"] == src.id
                               for r in ev.entry_records()):
                        ev.ranking_seeds.setdefault((g.id, src.id), seed)
            rows, wait = _qualifiers(ev, g, s, seed)
            if wait:
                why = [p for src in g.stages if ev.sname(src) in wait if (p := _progress(ev, g, src))]
                waiting.append(f"{ev.gname(g)}{ev.sname(s)}（等待{'、'.join(wait)}结束"
                               + "".join(f"：{p}" for p in why) + "）")
                break
            ranked += [ev.sname(src) for src in froms]
            sources += [(g, src) for src in froms if (g, src) not in sources]
            for r in rows:
                # the seed the source ranking's lots used, so the places stay as taken
                src = r["from_stage"]
                rseed = ev.stage_seed(g, src) if src is not None else None
                new_rows.append([ev.gname(g), ev.sname(s), r["number"], ev.name_of(g, r["number"]),
                                 r["pool"], r["position"],
                                 ev.sname(src) if src is not None else K.ROSTER.name(ev.lang),
                                 r["from_pool"],
                                 r["from_place"], r["carry"], r["join_round"],
                                 "" if rseed is None else str(rseed), r["clause"]])
                ev.carry_parts[(ev.gname(g), ev.sname(s), r["number"])] = r.get("parts", {})
            done.append(f"{ev.gname(g)}{ev.sname(s)} {len(rows)} 队")
            if not runs_beside_next(g, s):
                break
    if not new_rows:
        raise RuleError("没有可以进入下一阶段的组别：" + ("；".join(waiting) or "各阶段均已开始"),
                        "no stage can be entered yet")
    write_entries(ev, new_rows)
    if style.stage_standings is not None:  # the style's 排名-‹阶段› of the stages just ranked
        from bianpai.addin.core_stage_sheets import write_stage_standings  # noqa: PLC0415
        write_stage_standings(ev, [(g, src, None) for g, src in sources])
    else:  # 排名 as rank would write it: the finished stages' final tables beside 晋级
        _write_standings(ev)
    result = c.CommandResult("advance", "进入下一阶段：" + "；".join(done),
                             f"advanced: {len(new_rows)} qualifiers", seed=seed)
    result.status_hint = ("；".join(done) + " 已进入", "可以抽签编排新阶段第1轮")
    if style.draw_on_advance:  # the style pairs the new stages' first round at once
        from bianpai.addin.core_draw import drawn  # noqa: PLC0415
        d, _args, _lang = drawn(port, seed=seed)
        result.summary_zh += "；" + d.summary_zh
        result.summary_en += "; " + d.summary_en
        result.status_hint = d.status_hint
        if style.advance_summary is not None and getattr(d, "facts", None):
            result.summary_zh, result.summary_en = style.advance_summary(
                tuple(dict.fromkeys(ranked)), seed, d.facts)
    return c.finish(port, result, {"seed": seed}, ev.lang)


def _write_standings(ev: CoreEvent) -> None:
    """Rewrite 排名 from the results as typed (every entered stage, as ``rank`` writes it), so a
    printed 排名 agrees with the 晋级 an advance took from the finished stages (a trial user
    printed the round-before table beside the qualifiers). Nothing when there is no 排名 yet."""
    from bianpai.addin.core_places import standing_rows_now  # noqa: PLC0415
    from bianpai.addin.core_views import write_core_sheet  # noqa: PLC0415
    from bianpai.workbooks.tables import find_sheet  # noqa: PLC0415
    if find_sheet(ev.port, ev.lay.standings) is None:
        return
    rows, extras = standing_rows_now(ev)
    write_core_sheet(ev.port, ev.reg, ev.lay.standings, rows, ev.lang, break_on=(0, 1, 2),
                     extra=extras if len(extras) == len(rows) else None)
