"""Standings with a named tie-break chain and an explanation of every rank.

A standing is computed from per-round results (one row per entrant and round) by an ordered
chain of named criteria, the first being the main score (场分, VP, points …). Entrants equal on
every criterion so far are separated by the next one; a group-dependent criterion such as
head-to-head is computed among the entrants still tied at that point (a mini-table of all of
them), the others over the whole event. The last criterion may be seeded lots (抽签), which
always separates.

Each entrant gets a 说明 text saying which criterion separated it from the next-ranked entrant,
with both values, so an organizer can read every rank off the sheet.

Criteria live in :data:`CRITERIA`, a registry other engines extend with :func:`register`.
Sources: 深圳掼蛋规程 十三; 《竞技掼蛋竞赛规则》第四十九条（一）; FIDE C.07 (direct encounter).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable, Iterable

import pandas as pd

from bianpai.engines.typed_rows import is_na
from bianpai.engines.errors import RuleError
from bianpai.engines.rounding import q2, quantize, to_decimal

Values = dict[int, Decimal | None]


@dataclass(frozen=True)
class Criterion:
    """A named ranking criterion. Higher values rank first unless ``descending`` is False.

    ``compute(members, results, ctx)`` returns a value per member (``None`` when it cannot be
    computed, e.g. head-to-head among entrants that have not all met; ``None`` separates nobody).
    ``group_dependent``: computed among the tied entrants only (shown only for them).
    """

    name: str
    label_zh: str
    label_en: str
    compute: Callable[[list[int], pd.DataFrame, dict], Values]
    group_dependent: bool = False
    descending: bool = True
    places: int | None = 2  # decimal places shown (None: integer)
    #: optional formatter of a value for 说明 and sheets (overrides ``places``)
    fmt: Callable[[Decimal], str] | None = None
    #: a sequence criterion (a tuple, compared item by item): how 说明 names item ``i``
    step_zh: str = "第{i}高"
    step_en: str = "{ord} best"

    def show(self, v) -> str:
        """``v`` as text for the sheet and the 说明 column ("—" when None)."""
        return _fmt(self, v)


CRITERIA: dict[str, Criterion] = {}


def register(criterion: Criterion) -> Criterion:
    """Add ``criterion`` to the registry (replacing one of the same name) and return it."""
    CRITERIA[criterion.name] = criterion
    return criterion


def _played(results: pd.DataFrame) -> pd.DataFrame:
    if "complete" in results.columns:
        return results[results["complete"].astype(bool)]
    return results


def sum_of(column: str) -> Callable:
    """Criterion function: the sum of ``column`` over an entrant's completed rounds."""
    def compute(members, results, ctx):
        r = _played(results)
        out: Values = {}
        if column not in r.columns:  # no result carries it yet (e.g. before round 1)
            return {e: Decimal(0) for e in members}
        # one pass over the rows (a mask per entrant costs a frame scan each)
        for e in members:
            out[e] = Decimal(0)
        for e, v in zip(r["entrant"].tolist(), r[column].tolist()):
            if e in out and not is_na(v):
                out[e] += to_decimal(v)
        return out
    return compute


def _by_entrant(r: pd.DataFrame, column: str, members) -> dict:
    """``column``'s values per entrant of ``members``, in row order (one pass)."""
    out: dict = {e: [] for e in members}
    for e, v in zip(r["entrant"].tolist(), r[column].tolist()):
        if e in out:
            out[e].append(v)
    return out


def mean_of(column: str) -> Callable:
    """Criterion function: the mean of ``column``, half-up to 2 places (None if no round)."""
    def compute(members, results, ctx):
        r = _played(results)
        out: Values = {}
        if column not in r.columns:
            return {e: None for e in members}
        per = _by_entrant(r, column, members)
        for e in members:
            vals = [to_decimal(v) for v in per[e] if not is_na(v)]
            out[e] = q2(sum(vals, Decimal(0)) / len(vals)) if vals else None
        return out
    return compute


def count_of(column: str, values: Iterable[str]) -> Callable:
    """Criterion function: how many completed rounds have ``column`` in ``values``."""
    wanted = set(values)

    def compute(members, results, ctx):
        r = _played(results)
        per = _by_entrant(r, column, members)
        return {e: Decimal(sum(1 for v in per[e] if v is not pd.NA and _hashable(v) and v in wanted))
                for e in members}
    return compute


def _hashable(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def head_to_head(column: str) -> Callable:
    """Criterion function: ``column`` summed over the games among the tied entrants only.

    Applied only when every pair of them has met (otherwise ``None`` for all: not decisive),
    so that a partial mini-table never decides (FIDE C.07 direct encounter, 掼蛋规则 49条).
    """
    def compute(members, results, ctx):
        r = _played(results)
        mset = set(members)
        sub = r[r["entrant"].isin(mset) & r["opponent"].isin(mset)]
        met = {frozenset((int(a), int(b))) for a, b in zip(sub["entrant"], sub["opponent"])}
        needed = {frozenset((a, b)) for a in members for b in members if a < b}
        if not needed <= met:
            return {e: None for e in members}
        per = _by_entrant(sub, column, members)
        return {e: sum((to_decimal(v) for v in per[e] if not is_na(v)), Decimal(0))
                for e in members}
    return compute


def _lots(members, results, ctx):
    if ctx.get("seed") is None:
        raise RuleError("同分需抽签决定，但未提供抽签种子（seed）",
                        "a tie needs drawing lots but no seed was given")
    rng = random.Random(ctx.get("seed"))
    order = list(members)
    rng.shuffle(order)
    # the entrant drawn first gets the highest value
    return {e: Decimal(len(order) - i) for i, e in enumerate(order)}


register(Criterion("match_points", "场分", "match points", sum_of("match_points"), places=1))
#: the same sum where the 规程 calls it 积分 (individual events: 象棋竞赛规则 14.3 积分, 掼蛋
#: 四局总积分, 争上游 按积分高低决定名次): a team's 场分 is another thing to a reader
register(Criterion("score", "积分", "score", sum_of("match_points"), places=1))
register(Criterion("avg_score_pct", "平均得分率", "average score %", mean_of("score_pct")))
register(Criterion("h2h_match_points", "相互间场分", "head-to-head match points",
                   head_to_head("match_points"), group_dependent=True, places=1))
def _rounds_won(members, results, ctx):
    """Rounds won: outcome W or FW, unless the row's ``won`` column (bool, when present and not
    empty) decides, e.g. a bye counted as a round won by the scoring's setting."""
    r = _played(results)
    flags = r["won"].tolist() if "won" in r.columns else [None] * len(r)
    won = {e: 0 for e in members}
    for e, o, w in zip(r["entrant"].tolist(), r["outcome"].tolist(), flags):
        if e in won:
            won[e] += int(o in ("W", "FW")) if w is None or pd.isna(w) else int(bool(w))
    return {e: Decimal(n) for e, n in won.items()}


register(Criterion("rounds_won", "获胜轮数", "rounds won", _rounds_won, places=None))
register(Criterion("rounds_drawn", "平局轮数", "rounds drawn", count_of("outcome", ["D"]),
                   places=None))
register(Criterion("level_diff", "级差", "level difference", sum_of("level_diff"), places=None))
register(Criterion("lots", "抽签", "lots", _lots, group_dependent=True, places=None))


@dataclass
class Standings:
    """Result of :func:`rank`.

    ``table``: one row per entrant in rank order, columns ``rank`` (int; equal for entrants
    still tied after the whole chain), ``entrant`` (int), one column per criterion name (Decimal
    or None), ``explanation_zh`` and ``explanation_en`` (str). ``chain``: the criteria used.
    """

    table: pd.DataFrame
    chain: list[Criterion] = field(default_factory=list)
    seed: int | None = None


def _fmt(c: Criterion, v) -> str:
    if v is None:
        return "—"
    if c.fmt is not None:
        return c.fmt(v)
    if isinstance(v, Decimal) and not v.is_finite():
        return "∞" if v > 0 else "-∞"
    if c.places is None:
        return str(int(v)) if v == v.to_integral_value() else str(v)
    return f"{quantize(v, c.places):.{c.places}f}"


def rank(entrants: Iterable[int], results: pd.DataFrame, chain: list[str], *,
         seed: int | None = None, ctx: dict | None = None,
         unranked: Iterable[int] = ()) -> Standings:
    """Rank ``entrants`` from per-round ``results`` by the criteria named in ``chain``.

    ``results``: one row per entrant and round with at least ``entrant`` (int), ``opponent``
    (Int64, NA for a bye), ``complete`` (bool) and the columns the criteria read (e.g.
    ``match_points``, ``score_pct``, ``outcome``, ``level_diff``). ``seed``: for ``lots``.
    ``ctx["restart"]`` (the chain's ``restart_head_to_head`` setting): a head-to-head that
    splits a tie into smaller tied groups is applied again inside each of them.
    ``unranked``: entrants listed after all the others with ``rank`` ``None`` and no
    explanation, compared with nobody (a team whose results are all void, 够级规程 九第一条2
    "弃权方……所有成绩均为无效"; one the scoring leaves without a place): the others are ranked
    among themselves, each 说明 naming the ranked neighbour below it by its own place.
    Raises ``RuleError`` for an unknown criterion name.
    """
    unknown = [c for c in chain if c not in CRITERIA]
    if unknown:  # criteria of engines not imported yet (bianpai.engines loads them lazily)
        from bianpai.engines import load_criteria  # noqa: PLC0415
        load_criteria()
        unknown = [c for c in chain if c not in CRITERIA]
    if unknown:
        raise RuleError(f"未知的排名依据：{', '.join(unknown)}",
                        f"unknown tie-break criteria: {', '.join(unknown)}")
    crits = [CRITERIA[c] for c in chain]
    ctx = dict(ctx or {})
    ctx["seed"] = seed
    entrants = [int(e) for e in entrants]
    values: dict[str, Values] = {}
    # whole-field criteria are shown for everyone
    for c in crits:
        if not c.group_dependent:
            values[c.name] = c.compute(entrants, results, ctx)
        else:
            values[c.name] = {e: None for e in entrants}
    out = set(int(e) for e in unranked)
    ranked = [e for e in entrants if e not in out]
    groups: list[list[int]] = [ranked] if ranked else []
    path: dict[int, list[int]] = {e: [] for e in ranked}
    for level, c in enumerate(crits):
        new_groups: list[list[int]] = []
        for g in groups:
            if len(g) == 1:
                new_groups.append(g)
                path[g[0]].append(0)
                continue
            vals = c.compute(g, results, ctx) if c.group_dependent else values[c.name]
            if c.group_dependent:
                if ctx.get("restart") and c.name != "lots":
                    vals = _restarted(c, g, results, ctx, vals)
                for e in g:
                    values[c.name][e] = vals[e]
            if any(vals[e] is None for e in g):
                # not decisive for this group
                new_groups.append(g)
                for e in g:
                    path[e].append(0)
                continue
            ordered = sorted(g, key=lambda e: (vals[e] if c.descending else -vals[e]),
                             reverse=True)
            i = 0
            sub_id = 0
            while i < len(ordered):
                j = i
                while j + 1 < len(ordered) and vals[ordered[j + 1]] == vals[ordered[i]]:
                    j += 1
                sub = ordered[i:j + 1]
                new_groups.append(sub)
                for e in sub:
                    path[e].append(sub_id)
                sub_id += 1
                i = j + 1
        groups = new_groups
    order = [e for g in groups for e in g]
    ranks: dict[int, int] = {}
    pos = 1
    for g in groups:
        for e in g:
            ranks[e] = pos
        pos += len(g)
    rows = []
    for i, e in enumerate(order):
        row = {"rank": ranks[e], "entrant": e}
        for c in crits:
            row[c.name] = values[c.name][e]
        zh, en = _explain(e, order[i + 1] if i + 1 < len(order) else None, crits, values, path,
                          ranks)
        row["explanation_zh"], row["explanation_en"] = zh, en
        rows.append(row)
    for e in (e for e in entrants if e in out):
        rows.append({"rank": None, "entrant": e, **{c.name: values[c.name][e] for c in crits},
                     "explanation_zh": "", "explanation_en": ""})
    table = pd.DataFrame(rows, columns=["rank", "entrant", *[c.name for c in crits],
                                        "explanation_zh", "explanation_en"])
    if out:  # the places stay integers next to the empty ones (no float column beside None)
        table["rank"] = pd.Series([r["rank"] for r in rows], index=table.index, dtype=object)
    return Standings(table=table, chain=crits, seed=seed)


def _restarted(c: Criterion, g: list[int], results, ctx, vals: Values) -> Values:
    """Re-apply a group-dependent criterion (head-to-head) inside every sub-group it left tied
    (a 3-way tie split 1 + 2: the two are compared on their own mutual result), as deep as it
    keeps splitting. Values are returned as sort keys: tuples are not Decimals, so the first
    level's value is kept and the deeper levels are added as fractions below its precision."""
    if any(vals[e] is None for e in g):
        return vals
    out = dict(vals)
    by_val: dict = {}
    for e in g:
        by_val.setdefault(vals[e], []).append(e)
    for v, sub in by_val.items():
        if 1 < len(sub) < len(g):
            inner = _restarted(c, sub, results, ctx, c.compute(sub, results, ctx))
            if any(inner[e] is None for e in sub):
                continue
            ordered = sorted(set(inner[e] for e in sub))
            for e in sub:
                # below the shown precision: keeps the outer order, splits the inner tie
                out[e] = v + Decimal(ordered.index(inner[e]) + 1) / Decimal(10**6 * (len(ordered) + 1))
    return out


def _explain(e, nxt, crits, values, path, ranks) -> tuple[str, str]:
    """说明 of ``e`` against the next-ranked entrant ``nxt``: the criterion that separated them
    and both values, e.g. "与第5名VP相同，以相互间VP区分 (12.50 > 7.50)"."""
    if nxt is None:
        return "", ""
    n = ranks[nxt]
    if ranks[e] == n:
        return (f"与第{n}名的{_entr(nxt)}在全部排名依据上相同，名次并列",
                f"tied with {_entr(nxt)} on every criterion; place shared")
    level = next(k for k, (a, b) in enumerate(zip(path[e], path[nxt])) if a != b)
    c = crits[level]
    a, b = _fmt(c, values[c.name][e]), _fmt(c, values[c.name][nxt])
    seq = _sequence_step(values[c.name][e], values[c.name][nxt])
    if seq is not None:  # a countback (best board, next best …): the place where they differ
        i, x, y = seq
        ord_ = f"{i}{'st' if i == 1 else 'nd' if i == 2 else 'rd' if i == 3 else 'th'}"
        zh_ab = f"{c.step_zh.format(i=i)} {x} > {y}"
        en_ab = f"{c.step_en.format(i=i, ord=ord_)} {x} > {y}"
        if level == 0:
            return (f"{c.label_zh}多于第{n}名 ({zh_ab})", f"more {c.label_en} than #{n} ({en_ab})")
    if level == 0:
        return (f"{c.label_zh}多于第{n}名 ({a} > {b})",
                f"more {c.label_en} than #{n} ({a} > {b})")
    # criteria that could not be applied (e.g. head-to-head among entrants that have not all
    # met) are named as such, not as "equal"
    applied = [x for x in crits[:level] if values[x.name].get(e) is not None
               and values[x.name].get(nxt) is not None]
    skipped = [x for x in crits[:level] if x not in applied]
    same_zh = "、".join(x.label_zh for x in applied)
    same_en = ", ".join(x.label_en for x in applied)
    if skipped:
        same_zh += f"（{'、'.join(x.label_zh for x in skipped)}不适用：尚未全部相遇）"
        same_en += f" ({', '.join(x.label_en for x in skipped)} not applicable: not all have met)"
    if c.name == "lots":  # the entrant drawn first holds the higher lot value (``_lots``)
        return (f"与第{n}名{same_zh}相同，以抽签区分（抽签 {a} > {b}，大者列前）",
                f"tied with #{n} on {same_en}; separated by lots ({a} > {b}, the higher first)")
    if seq is not None:
        return (f"与第{n}名{same_zh}相同，以{c.label_zh}区分 ({zh_ab})",
                f"tied with #{n} on {same_en}; separated by {c.label_en} ({en_ab})")
    return (f"与第{n}名{same_zh}相同，以{c.label_zh}区分 ({a} > {b})",
            f"tied with #{n} on {same_en}; separated by {c.label_en} ({a} > {b})")


def _sequence_step(va, vb) -> tuple[int, str, str] | None:
    """For two countback sequences (tuples, best first): (1-based position of the first
    difference, the two values there as text, "—" past the shorter one); None otherwise."""
    if not (isinstance(va, tuple) and isinstance(vb, tuple)):
        return None
    i = next((k for k, (x, y) in enumerate(zip(va, vb)) if x != y), min(len(va), len(vb)))

    def text(v, k):
        if k >= len(v):
            return "—"
        x = v[k]
        return f"{x.normalize():f}" if isinstance(x, Decimal) else str(x)
    return i + 1, text(va, i), text(vb, i)


def _entr(e) -> str:
    return f"{e}号"
