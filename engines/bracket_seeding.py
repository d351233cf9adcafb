"""Seeding of brackets and pools: standard seed positions, orderings, byes, snake and other
group placements, the CBSA stage-2 seeding by 胜率 (see :mod:`bianpai.engines.elimination`
for the sources)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Iterable, Literal, Mapping, Sequence

from bianpai.engines.core import MatchResult, StageEntrant
from bianpai.engines.errors import RuleError



Feeder = tuple[str, Any]   # ("seed", int) | ("W", node id) | ("L", node id)


# ============================================================================ seeding helpers

def seed_positions(size: int) -> list[int]:
    """Standard seed positions of a bracket of ``size`` (a power of two ≥ 2): the seed number at
    each slot, top to bottom; slots ``2i`` and ``2i+1`` meet in round 1.

    Start ``[1, 2]``; each doubling maps a seed p to the pair ``(p, size + 1 − p)``. 16 gives
    1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11 (brackets-manager ``inner_outer``;
    corpora/brackets ``seed-positions-*``). Raises ``RuleError`` when ``size`` is not a power
    of two.
    """
    if size < 2 or size & (size - 1):
        raise RuleError(f"签表规模 {size} 不是 2 的幂", f"bracket size {size} is not a power of two")
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for p in order for x in (p, n + 1 - p)]
    return order


def _inner_outer(items: list) -> list:
    """``items`` (length a power of two) placed on the standard positions: item i (0-based) goes
    where seed i+1 goes."""
    if len(items) <= 2:
        return list(items)
    return [items[p - 1] for p in seed_positions(len(items))]


def _pair_flip(items: list) -> list:
    out = []
    for i in range(0, len(items), 2):
        out.extend(items[i:i + 2][::-1])
    return out


#: Loser-bracket / seed orderings by name (brackets-manager names): each maps a list to a list.
ORDERINGS: dict[str, Any] = {
    "natural": lambda a: list(a),
    "reverse": lambda a: list(a)[::-1],
    "half_shift": lambda a: list(a)[len(a) // 2:] + list(a)[:len(a) // 2],
    "reverse_half_shift": lambda a: list(a)[:len(a) // 2][::-1] + list(a)[len(a) // 2:][::-1],
    "pair_flip": _pair_flip,
    "inner_outer": _inner_outer,
}

#: Default orderings of the WB losers dropping into the loser bracket, per bracket size: entry j
#: orders the losers of WB round j+1 (brackets-manager ``defaultMinorOrdering``; corpus cases
#: ``double-elim-8-routing``, ``double-elim-16-counts``). Other sizes use ``natural``.
DEFAULT_LOSER_ORDERINGS: dict[int, list[str]] = {
    4: ["natural", "reverse"],
    8: ["natural", "reverse", "natural"],
    16: ["natural", "reverse_half_shift", "reverse", "natural"],
    32: ["natural", "reverse", "half_shift", "natural", "natural"],
    64: ["natural", "reverse", "half_shift", "reverse", "natural", "natural"],
    128: ["natural", "reverse", "half_shift", "pair_flip", "pair_flip", "pair_flip", "natural"],
}


def reorder(items: Sequence, ordering: str) -> list:
    """``items`` reordered by the named ordering of :data:`ORDERINGS`; ``RuleError`` if unknown."""
    try:
        return ORDERINGS[ordering](list(items))
    except KeyError:
        raise RuleError(f"未知的排序方式：{ordering}", f"unknown ordering: {ordering}") from None


def balance_byes(seeds: Sequence[int], size: int) -> list[int | None]:
    """The optional "balanced byes" slot list (brackets-manager ``balanceByes``; corpus case
    ``balance-byes-helper``): NOT standard seeding. With b = size − len(seeds) byes, the first
    len(seeds) − b seeds fill consecutive slots, every later seed is followed by a bye, so no
    match is BYE v BYE while there are enough entrants; extra byes pad the end. Returns a list of
    length ``size`` (``None`` = bye).
    """
    seeds = list(seeds)
    b = size - len(seeds)
    if b < 0:
        raise RuleError("参赛者多于签位", "more entrants than slots")
    head = max(len(seeds) - b, 0)
    out: list[int | None] = list(seeds[:head])
    for s in seeds[head:]:
        out.extend([s, None])
    out.extend([None] * (size - len(out)))
    return out


def snake_seeding(seeds: Sequence, pools: int) -> list[list]:
    """Serpentine (snake, 蛇形) placement of ordered ``seeds`` (best first) into ``pools`` groups:
    row 1 puts seeds 1…G into groups 1…G, row 2 goes back G…1, and so on.

    Returns one list per group (group order), each in placement order. brackets-manager
    ``groups.seed_optimized``; corpus ``groups-orderings`` (8 into 4 → [1,8] [2,7] [3,6] [4,5]).
    CBSA 十六（三）2(1): the 16 seeds "按蛇形排列定位至16个小组的1号位" — with 16 seeds and 16 groups
    this is seed k → group k, slot 1. Raises ``RuleError`` when ``pools`` < 1.
    """
    if pools < 1:
        raise RuleError("小组数必须至少为 1", "there must be at least one pool")
    out: list[list] = [[] for _ in range(pools)]
    for i, s in enumerate(seeds):
        row, col = divmod(i, pools)
        out[col if row % 2 == 0 else pools - 1 - col].append(s)
    return out


def effort_balanced_seeding(seeds: Sequence, pools: int) -> list[list]:
    """Dealing placement (brackets-manager default ``groups.effort_balanced``, NOT snake): seed i
    goes to group ``i mod G``. Returns one list per group. Corpus ``groups-orderings``."""
    if pools < 1:
        raise RuleError("小组数必须至少为 1", "there must be at least one pool")
    out: list[list] = [[] for _ in range(pools)]
    for i, s in enumerate(seeds):
        out[i % pools].append(s)
    return out


def bracket_optimized_seeding(seeds: Sequence, pools: int) -> list[list]:
    """Row-by-row placement where each row of G seeds is reordered so that seeds that would meet
    early in a bracket land in different groups: row 1 ``natural``, row 2 ``half_shift``, row 3
    ``reverse``, row 4 ``reverse_half_shift``, then the cycle repeats (:data:`ORDERINGS`).

    This reproduces the brackets-manager ``groups.bracket_optimized`` reference layout for 16
    seeds into 4 groups (corpus ``groups-orderings``: [1,7,12,14] [2,8,11,13] [3,5,10,16]
    [4,6,9,15]); the library's general rule was not available, so other sizes are our reading.
    Returns one list per group.
    """
    if pools < 1:
        raise RuleError("小组数必须至少为 1", "there must be at least one pool")
    cycle = ["natural", "half_shift", "reverse", "reverse_half_shift"]
    out: list[list] = [[] for _ in range(pools)]
    seeds = list(seeds)
    for row in range(0, math.ceil(len(seeds) / pools)):
        chunk = seeds[row * pools:(row + 1) * pools]
        if len(chunk) == pools:
            chunk = reorder(chunk, cycle[row % 4])
        for g, s in enumerate(chunk):
            out[g].append(s)
    return out


def draw_into_pools(seeded: Sequence[int], unseeded: Sequence[int], pools: Sequence[str],
                    pool_size: int, rng: random.Random) -> list[StageEntrant]:
    """Stage entrants of a grouped stage: ``seeded`` (entrant numbers, best first) snaked into
    slot 1, 2 … of the pools (:func:`snake_seeding`), then ``unseeded`` shuffled by ``rng`` and
    dealt into the free places (pools in order, filling each to ``pool_size`` round by round).

    Returns :class:`StageEntrant` with ``pool`` set and ``seed`` = the seeded entrant's place in
    ``seeded`` (1-based) or ``None``. CBSA 十六（三）2(1) "16名种子选手按蛇形排列定位至16个小组的1号位。
    从资格赛晋级的选手全部混抽入位". Raises ``RuleError`` when the entrants do not fit.
    """
    pools = list(pools)
    if len(seeded) + len(unseeded) > pool_size * len(pools):
        raise RuleError("参赛者多于小组位置", "more entrants than pool places")
    groups = snake_seeding(list(seeded), len(pools))
    seed_of = {e: i + 1 for i, e in enumerate(seeded)}
    members: list[list[int]] = [list(g) for g in groups]
    if any(len(g) > pool_size for g in members):
        raise RuleError("种子多于小组位置", "more seeds than pool places")
    rest = list(unseeded)
    rng.shuffle(rest)
    i = 0
    while rest:
        # deal to the pools with the fewest members first (ties in pool order)
        target = min(range(len(pools)), key=lambda g: (len(members[g]), g))
        members[target].append(rest.pop(0))
        i += 1
    out: list[StageEntrant] = []
    for p, ms in zip(pools, members):
        for e in ms:
            out.append(StageEntrant(number=int(e), pool=p, seed=seed_of.get(e)))
    return out


def win_rate(results: Iterable[MatchResult], entrant: int) -> Fraction | None:
    """胜率 of ``entrant``: frames won ÷ frames played over ``results`` (values ``frames_won`` and
    ``frames_lost`` of the :class:`~bianpai.engines.knockout_scoring.FramesRace` scoring).
    Returns an exact :class:`~fractions.Fraction` (``None`` when no frame was played). CBSA
    十六（三）2(2) "依据胜率排序"; the frames reading is the natural one (pairing-anchors.md §5).
    """
    won = lost = 0
    for r in results:
        sides = r.match.sides
        if entrant not in sides:
            continue
        i = sides.index(entrant)
        fw = r.values.get("frames_won")
        fl = r.values.get("frames_lost")
        if fw is None or fl is None:
            continue
        won += int(fw[i])
        lost += int(fl[i])
    if won + lost == 0:
        return None
    return Fraction(won, won + lost)


def stage2_seeding(winners_side: Sequence[int], losers_side: Sequence[int],
                   results: Iterable[MatchResult], rng: random.Random, *,
                   ranking: Mapping[int, int] | None = None,
                   by: Literal["frames", "matches"] = "frames") -> list[StageEntrant]:
    """CBSA 十六（三）2(2) stage-2 entrants: "将第一阶段胜部晋级的32名选手依据胜率排序设为种子，胜率
    相同者依据排名进行排序，如排名相同或都无排名则抽签决定。败部晋级的32名选手全部混抽入位。"

    ``winners_side`` qualifiers are ordered by 胜率 (``by="frames"``: frames won ÷ frames played
    in ``results``; ``by="matches"``: matches won ÷ played), higher first; then by ``ranking``
    (entrant → CBSA ranking position, smaller is better, missing = unranked, after the ranked);
    then by lot (``rng``). They get seeds 1…W. ``losers_side`` qualifiers are drawn by lot into
    seeds W+1…W+L, i.e. into the remaining standard positions of the bracket. Returns
    :class:`StageEntrant` (``pool=None``) in seed order.
    """
    results = list(results)
    ranking = dict(ranking or {})

    def rate(e: int) -> Fraction:
        if by == "frames":
            r = win_rate(results, e)
        else:
            played = [r for r in results if e in r.match.sides and not r.match.is_bye]
            won = sum(1 for r in played if r.winner == e)
            r = Fraction(won, len(played)) if played else None
        return r if r is not None else Fraction(-1)

    lots = {e: rng.random() for e in winners_side}
    order = sorted(winners_side, key=lambda e: (
        -rate(e), ranking.get(e) is None, ranking.get(e) or 0, lots[e]))
    rest = list(losers_side)
    rng.shuffle(rest)
    out = [StageEntrant(number=int(e), seed=i + 1) for i, e in enumerate(order)]
    out += [StageEntrant(number=int(e), seed=len(order) + i + 1) for i, e in enumerate(rest)]
    return out
