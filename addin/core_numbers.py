"""The numbers of a competition-core event's draw: team numbers by seeded lot (typed numbers
kept, or — where the roster layout says so — all typed or all drawn), and the first stage's
pools and positions (snake, in order, by a roster column, or parts of one entry).

Used by :func:`bianpai.addin.core_draw.core_draw` (and by ``check`` to foresee the pools).
Sources: each stage's ``pools`` setting (PoolSplit); 深圳 九 (序号 by lot, or the roster's).
"""

from __future__ import annotations

from bianpai.addin.competition import CoreEvent, records, rng_for
from bianpai.engines.errors import InputError, InputErrors
from bianpai.templates.schema import Group, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.workbooks.tables import cell_of


def _number_teams(ev: CoreEvent, g: Group, seed: int, lot_rng=None) -> list[dict]:
    """Team numbers by seeded lot (typed numbers kept; setting ``draw.numbers_by_lot`` false:
    the free numbers in roster order) and the first stage's pools. ``lot_rng``: one lot drawn
    across the event's groups in order (a roster layout's ``lot = "event"``), else a lot per
    group derived from the seed."""
    r = ev.roster[ev.roster["group_id"] == g.id]
    typed = {int(rec["number"]) for _, rec in records(r) if rec["number"] is not None}
    if roster_layout(ev.reg.roster_layout).numbers_all_or_none:
        _all_or_none(ev, g, r, typed)
    free = [n for n in range(1, len(r) + 1) if n not in typed]
    rng = rng_for(seed, g.id, "numbers") if lot_rng is None else lot_rng
    if ev.reg.draw.numbers_by_lot and free:
        rng.shuffle(free)
    teams = []
    it = iter(free)
    for row, rec in records(r):
        n = int(rec["number"]) if rec["number"] is not None else next(it)
        teams.append(dict(number=n, name=rec["name"], unit=rec["unit"], roster_row=row,
                          seed_rank=rec.get("seed"), _rec=rec))
    teams.sort(key=lambda t: t["number"])
    if g.sub_entrants is not None:
        return _sub_entrant_teams(g, teams)
    first = g.stages[0]
    split = first.pools
    if split is None:
        # positions (the first stage's seeding): typed seeds (种子, 1 = best) first in seed
        # order, then the others in number (lot) order
        order = sorted(teams, key=lambda t: (t["seed_rank"] is None, t["seed_rank"] or 0,
                                             t["number"]))
        for i, t in enumerate(order, start=1):
            t["pool"], t["position"] = None, i
        return teams
    if split.method == "by_column":
        return _pools_by_column(ev, first, teams, rng)
    labels = split.pool_labels()
    k = len(labels)
    if split.method == "snake":
        seeded = sorted([t for t in teams if t["seed_rank"]], key=lambda t: t["seed_rank"])
        rest = [t for t in teams if not t["seed_rank"]]
        rng.shuffle(rest)
        order = seeded + rest
        pools: list[list[dict]] = [[] for _ in labels]
        for i, t in enumerate(order):
            lap, j = divmod(i, k)
            pools[j if lap % 2 == 0 else k - 1 - j].append(t)
    else:
        size = -(-len(teams) // k)
        pools = [teams[i * size:(i + 1) * size] for i in range(k)]
    for lab, members in zip(labels, pools):
        for pos, t in enumerate(members, start=1):
            t["pool"], t["position"] = lab, pos
    return teams


def _all_or_none(ev: CoreEvent, g: Group, r, typed: set[int]) -> None:
    """A roster layout's ``numbers_all_or_none``: the group's 序号 all typed, 1…n once each (the
    numbers are then the roster's, recorded with the seed 报名表序号), or all blank (by lot);
    else ``InputErrors`` at the first typed number."""
    n = len(r)
    rows = [row for row, rec in records(r) if rec["number"] is not None]
    if not rows or (len(rows) == n and typed == set(range(1, n + 1))):
        return
    raise InputErrors([InputError(
        f"{ev.gname(g)}的序号须全部填写且为 1–{n} 各一次，或全部留空由抽签决定",
        f"{g.name_en or g.id}: numbers must be all filled with 1–{n} once each, or all empty "
        f"for the lot", sheet=r.attrs.get("sheet"), cell=cell_of(r, rows[0], "number"))])


def numbers_problems(ev: CoreEvent, g: Group) -> list[InputError]:
    """What :func:`_all_or_none` refuses in the group's typed 序号 (for 检查名单), as a list."""
    r = ev.roster[ev.roster["group_id"] == g.id]
    typed = {int(rec["number"]) for _, rec in records(r) if rec["number"] is not None}
    try:
        _all_or_none(ev, g, r, typed)
    except InputErrors as exc:
        return list(exc.errors)
    return []


def _numbers_typed(ev: CoreEvent, g: Group) -> bool:
    """Every number of the group typed in 报名 where the roster layout takes them all or none
    (recorded with the seed :data:`~bianpai.workbooks.roster_layouts.TYPED_NUMBERS_SEED`)."""
    r = ev.roster[ev.roster["group_id"] == g.id]
    return roster_layout(ev.reg.roster_layout).numbers_all_or_none and len(r) > 0 and \
        all(rec["number"] is not None for _, rec in records(r))


def _pools_by_column(ev: CoreEvent, first: Stage, teams: list[dict], rng) -> list[dict]:
    """PoolSplit ``by_column``: the entrants with value v in the roster column ``by`` dealt by
    the seeded lot into the pools ``labels_by[v]`` (evenly, positions in dealing order); with
    ``entrants: unseeded`` the roster's seeded entrants get no pool (they skip the stage). A
    value with no pools is an error on its cell."""
    split = first.pools
    by, labels_by = split.by or "", split.labels_by or {}
    sheet = ev.roster.attrs.get("sheet", K.ROSTER.zh)
    errs = []
    playing = []
    for t in teams:
        t["pool"], t["position"] = None, None
        if first.entrants == "unseeded" and t["seed_rank"] is not None:
            continue
        v = t["_rec"].get(by)
        v = None if v is None else str(v).strip()
        if v not in labels_by:
            title = next((c for c in roster_layout(ev.reg.roster_layout).table.columns
                          if c.key == by), None)
            zh, en = (title.zh, title.en) if title is not None else (by, by)
            errs.append(InputError(
                f"“{t['name']}”的{zh}“{v or ''}”不能分入{ev.sname(first)}的小组（应为："
                + "、".join(labels_by) + "）",
                f"{t['name']}: {en} {v!r} has no pool (expected one of {', '.join(labels_by)})",
                sheet=sheet, cell=cell_of(ev.roster, t["roster_row"], by)))
            continue
        playing.append((v, t))
    if errs:
        raise InputErrors(errs)
    for v, labs in labels_by.items():
        members = [t for w, t in playing if w == v]
        rng.shuffle(members)
        for i, t in enumerate(members):
            t["pool"] = labs[i % len(labs)]
            t["position"] = i // len(labs) + 1
    return teams


def _sub_entrant_teams(g: Group, teams: list[dict]) -> list[dict]:
    """``g.sub_entrants``: each drawn entry ``t`` (of ``n``) plays as parts ``j`` = 0, 1 …,
    numbered ``t + j·n``, in pool ``labels[j]``, named ``队名（names_zh[j]）``."""
    sub = g.sub_entrants
    n = len(teams)
    out = []
    for j, lab in enumerate(sub.labels):
        for t in teams:
            out.append({**t, "number": t["number"] + j * n, "name": f"{t['name']}（{sub.name(j)}）",
                        "pool": lab, "position": t["number"]})
    return out


def seed_typed_groups(ev: CoreEvent, seed) -> None:
    """Groups drawn without a lot (every number typed: no seed on record) settle their ranking
    lots (十三 抽签) with this command's seed ``seed`` (given, or fresh and logged), in memory
    only: 抽签 keeps 报名表序号. A seed that is not one number (several groups' seeds) is left."""
    if not isinstance(seed, int):
        return
    for g in ev.reg.groups:
        gs = ev.groups[g.id]
        if gs.drawn and gs.seed is None:
            gs.seed = seed
