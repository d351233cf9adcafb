"""Brackets: single elimination of any size and double-elimination groups, as formats of the
competition core (:mod:`bianpai.engines.core`).

Sources
-------
* CBSA 2022 中式台球国际公开赛 规程 (``cbsa-chinese-eightball-open-2022``): 十六（二）1 qualifiers
  "采用单败淘汰，全部采用17局9胜。第一场、第二场各晋级16名，第三场、第四场各晋级32名"; 十六（二）2(2)
  "第一阶段为分组双败淘汰赛，每8人一组，共分16个组，全部采用17局9胜，每组各晋级4人"; 十六（二）2(3)
  "第二阶段为单败淘汰赛，其中半决赛和三、四名决赛采用41局21胜…决赛采用81局41胜…其余全部为25局13胜";
  十六（三）1(1) "资格赛不设种子，全部混抽入位"; 十六（三）2(1) seeds snaked into slot 1 of 16 groups;
  十六（三）2(2) stage-2 seeding by 胜率, then ranking, then lots, 败部 qualifiers all drawn.
* Qingdao 2015 够级 规程 七（二）: "由前期海选出48支队伍进行业余组比赛，抽签选择对手第一轮淘汰24支队伍。
  第二轮、第三轮则继续延续淘汰赛。最后剩余的6支队伍进行循环赛" (opponents redrawn each round, stop at 6).
* otog 2024 跳棋 七（一）: "比赛采取单淘汰，一局定胜负…若出现平局，加赛一局决胜负".
* Standard seed positions, bye placement, double-elimination routing and loser-bracket orderings
  follow brackets-manager.js (MIT; research/pairing-anchors.md §5 and corpora/brackets, whose
  cases the tests reproduce). Code here is our own.

Model
-----
A bracket is a list of :class:`Node` (one per possible match) whose two sides are *feeders*:
``("seed", k)`` (the entrant at local seed number k), ``("W", id)`` / ``("L", id)`` (winner /
loser of node ``id``). :func:`resolve` walks the nodes in order and computes, from the entrants,
the drawn :class:`~bianpai.engines.core.Match` records (labels = node ids) and the typed results,
who sits in every node, who won and who is out. Nothing propagated is stored: every view
(next round, placings, bracket sheet) is recomputed from (entrants + seeds, seed, results).

A bye is ``None``: a bye never wins; BYE v BYE vanishes (no match, its winner and loser are
byes); a player meeting a bye advances at once (the bye match is drawn, needs no result).
An entrant withdrawn after round w (``StageEntrant.withdrawn_after``) is a bye in every node of a
later round (its opponent advances at once); it is placed as out in that node's round.
A drawn match keeps its drawn sides (an arbiter's hand edit wins over the computed ones).

Draws (lots) are seeded by ``StageState.seed`` (and pool and purpose), so a replay of the same
state gives the same sheet (十六（三）3: the draw is notarized); the ``rng`` handed to
``next_round`` is used only when the state has no seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar, Iterable, Literal, Mapping, Sequence

import pandas as pd
from pydantic import BaseModel, Field, model_validator

from bianpai.engines.core import (Match, MatchResult, NotReady, Reason, StageEntrant, StageState,
                                  register_format)
from bianpai.engines.errors import RuleError

__all__ = [
    "seed_positions", "reorder", "ORDERINGS", "DEFAULT_LOSER_ORDERINGS", "balance_byes",
    "snake_seeding", "effort_balanced_seeding", "bracket_optimized_seeding", "draw_into_pools",
    "win_rate",
    "stage2_seeding", "Node", "Resolved", "Resolution", "single_elimination_nodes",
    "double_elimination_nodes", "resolve", "SingleElimination", "DoubleEliminationGroups",
    "bracket_table", "round_name",
]

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


# ============================================================================ bracket structure

@dataclass(frozen=True)
class Node:
    """One possible match of a bracket. ``id``: its label (``"QF1"``, ``"WB2.1"``, ``"GF1"``).
    ``round``: the stage round it is played in. ``sides``: two feeders. ``part``: ``"SE"``,
    ``"3rd"``, ``"WB"``, ``"LB"``, ``"GF"``. ``pos``: position within its bracket round (1-based,
    top to bottom). ``bracket_round``: round within its part (WB/LB/SE round number)."""

    id: str
    round: int
    sides: tuple[Feeder, Feeder]
    part: str = "SE"
    pos: int = 1
    bracket_round: int = 1
    conditional: bool = False  # GF2: only when the loser-bracket winner won GF1


def round_name(rounds_total: int, r: int) -> tuple[str, str, str]:
    """Names of single-elimination round ``r`` of a full bracket of ``rounds_total`` rounds:
    ``(short label prefix, Chinese, English)``: final F 决赛, SF 半决赛, QF 1/4决赛, then
    R16 1/8决赛 …"""
    left = rounds_total - r  # 0 = final
    if left == 0:
        return "F", "决赛", "Final"
    if left == 1:
        return "SF", "半决赛", "Semi-final"
    if left == 2:
        return "QF", "1/4决赛", "Quarter-final"
    n = 2 ** (left + 1)
    return f"R{n}-", f"1/{n // 2}决赛", f"Round of {n}"


def single_elimination_nodes(size: int, rounds: int | None = None,
                             third_place: bool = False) -> list[Node]:
    """Nodes of a standard single-elimination bracket of ``size`` slots (power of two), played
    for ``rounds`` rounds (default all: log2 size). Round 1 node m takes the seeds at slots
    2m−1, 2m of :func:`seed_positions`; round r node m the winners of round r−1 nodes 2m−1, 2m.
    ``third_place`` adds ``"3rd"`` (loser SF1 v loser SF2) in the final's round."""
    total = int(math.log2(size))
    rounds = total if rounds is None else rounds
    pos = seed_positions(size)
    nodes: list[Node] = []
    ids: dict[tuple[int, int], str] = {}
    for r in range(1, rounds + 1):
        prefix = round_name(total, r)[0]
        for m in range(1, size // 2 ** r + 1):
            nid = prefix if prefix == "F" else f"{prefix}{m}"
            ids[(r, m)] = nid
            if r == 1:
                sides: tuple[Feeder, Feeder] = (("seed", pos[2 * m - 2]), ("seed", pos[2 * m - 1]))
            else:
                sides = (("W", ids[(r - 1, 2 * m - 1)]), ("W", ids[(r - 1, 2 * m)]))
            nodes.append(Node(nid, r, sides, "SE", m, r))
    if third_place and rounds == total and total >= 2:
        nodes.append(Node("3rd", total, (("L", ids[(total - 1, 1)]), ("L", ids[(total - 1, 2)])),
                          "3rd", 1, total))
    return nodes


def double_elimination_nodes(size: int, *, qualify: int | None = None,
                             grand_final: Literal["none", "simple", "double"] = "none",
                             loser_orderings: Sequence[str] | None = None) -> list[Node]:
    """Nodes of a double-elimination bracket of ``size`` (power of two ≥ 4).

    Winners' bracket (WB) as single elimination on the standard positions. Loser bracket (LB),
    k = log2 size: LB1 pairs the WB1 losers (ordered by ``loser_orderings[0]``); LB 2j ("minor")
    puts the WB round j+1 losers (ordered by ``loser_orderings[j]``) as side 0 against the
    LB 2j−1 winners; LB 2j+1 ("major") pairs LB 2j winners. Stage rounds: WB r in round r, LB i in
    round i+1, GF1 in round 2k, GF2 (reset, conditional) in 2k+1. Corpus
    ``double-elim-8-routing`` / ``-inner-outer-losers`` / ``-16-counts``.

    ``qualify`` = K (even, K/2 a power of two, 2 ≤ K ≤ size/2): the bracket stops when K/2
    remain on each side (WB rounds k − log2(K/2), LB rounds 2(k − 1 − log2(K/2))); no grand
    final. CBSA groups of 8, 4 qualify: WB1, WB2, LB1, LB2 — 10 matches (corpus
    ``double-elim-8-group-4-qualify``).
    """
    k = int(math.log2(size))
    if size < 4 or 2 ** k != size:
        raise RuleError(f"双败淘汰签表规模 {size} 必须是不小于 4 的 2 的幂",
                        f"double-elimination size {size} must be a power of two ≥ 4")
    orderings = list(loser_orderings or DEFAULT_LOSER_ORDERINGS.get(size, ["natural"] * k))
    orderings += ["natural"] * (k - len(orderings))
    if qualify is not None:
        half = qualify // 2
        if qualify % 2 or half < 1 or half & (half - 1) or qualify > size // 2:
            raise RuleError(f"每组晋级人数 {qualify} 须为偶数、其一半为 2 的幂且不超过组规模的一半",
                            f"qualifiers per pool {qualify} must be even, half a power of two, "
                            f"and at most half the pool size")
        h = int(math.log2(half))
        wb_rounds, lb_rounds = k - h, 2 * (k - 1 - h)
        grand_final = "none"
    else:
        wb_rounds, lb_rounds = k, 2 * (k - 1)
    pos = seed_positions(size)
    nodes: list[Node] = []
    for r in range(1, wb_rounds + 1):
        for m in range(1, size // 2 ** r + 1):
            if r == 1:
                sides: tuple[Feeder, Feeder] = (("seed", pos[2 * m - 2]), ("seed", pos[2 * m - 1]))
            else:
                sides = (("W", f"WB{r - 1}.{2 * m - 1}"), ("W", f"WB{r - 1}.{2 * m}"))
            nodes.append(Node(f"WB{r}.{m}", r, sides, "WB", m, r))
    for i in range(1, lb_rounds + 1):
        if i == 1:
            losers = reorder([("L", f"WB1.{m}") for m in range(1, size // 2 + 1)], orderings[0])
            pairs = [(losers[2 * m], losers[2 * m + 1]) for m in range(len(losers) // 2)]
        elif i % 2 == 0:
            j = i // 2
            drop = reorder([("L", f"WB{j + 1}.{m}") for m in range(1, size // 2 ** (j + 1) + 1)],
                           orderings[j])
            pairs = [(drop[m], ("W", f"LB{i - 1}.{m + 1}")) for m in range(len(drop))]
        else:
            n_prev = sum(1 for nd in nodes if nd.part == "LB" and nd.bracket_round == i - 1)
            pairs = [(("W", f"LB{i - 1}.{2 * m + 1}"), ("W", f"LB{i - 1}.{2 * m + 2}"))
                     for m in range(n_prev // 2)]
        for m, sides in enumerate(pairs, start=1):
            nodes.append(Node(f"LB{i}.{m}", i + 1, sides, "LB", m, i))
    if grand_final != "none":
        sides = (("W", f"WB{k}.1"), ("W", f"LB{lb_rounds}.1"))
        nodes.append(Node("GF1", 2 * k, sides, "GF", 1, 1))
        if grand_final == "double":
            nodes.append(Node("GF2", 2 * k + 1, sides, "GF", 1, 2, conditional=True))
    nodes.sort(key=lambda n: n.round)  # feeders always come from earlier stage rounds
    return nodes


# ============================================================================ resolution

UNKNOWN = "?"  # a side not known yet (its feeder is undecided)


@dataclass
class Resolved:
    """What the state says about one node. ``sides``: entrant, ``None`` (bye) or ``UNKNOWN``.
    ``status``: ``pending`` (a side unknown), ``ready`` (two entrants, no result yet — drawable),
    ``done`` (result typed), ``bye`` (one entrant, advances at once), ``vanished`` (BYE v BYE),
    ``skipped`` (GF2 not needed). ``winner``/``loser``: entrant, ``None`` (bye) or ``UNKNOWN``.
    ``match``: the drawn match, if drawn; ``result``: its result, if any."""

    node: Node
    sides: tuple
    status: str
    winner: Any = UNKNOWN
    loser: Any = UNKNOWN
    match: Match | None = None
    result: MatchResult | None = None
    out: tuple[int, ...] = ()  # entrants that lost this node
    gone: tuple[int, ...] = ()  # withdrawn entrants replaced by a bye in this node


@dataclass
class Resolution:
    """:func:`resolve` output for one pool: ``nodes`` by id (in bracket order) and
    ``eliminated``: entrant → the node it went out at; ``problems``: reasons (a drawn match
    decided without a winner …)."""

    nodes: dict[str, Resolved] = field(default_factory=dict)
    eliminated: dict[int, Resolved] = field(default_factory=dict)
    losses: dict[int, int] = field(default_factory=dict)
    problems: list[Reason] = field(default_factory=list)


def _layout(entrants: list[StageEntrant], mode: str, seed_key: str) -> dict[int, int]:
    """Local seed number → entrant number. ``standard``: seeded entrants by seed (then number),
    the unseeded drawn by lot into the following numbers; ``drawn``: all by lot."""
    rng = random.Random(seed_key)
    if mode == "drawn":
        seeded: list[StageEntrant] = []
        rest = sorted(entrants, key=lambda e: e.number)
    else:
        seeded = sorted((e for e in entrants if e.seed is not None),
                        key=lambda e: (e.seed, e.number))
        rest = sorted((e for e in entrants if e.seed is None), key=lambda e: e.number)
    rng.shuffle(rest)
    return {i + 1: e.number for i, e in enumerate(seeded + rest)}


def _winner_of(res: MatchResult) -> tuple[Any, Any, bool]:
    """(winner, loser, decided) of a typed result: both sides forfeited/void → (None, None)."""
    w = res.winner
    if w is not None:
        others = [s for s in res.match.sides if s is not None and s != w]
        return w, (others[0] if others else None), True
    if all(o in ("FL", "VOID", "L") for o in res.outcome) and "L" not in res.outcome:
        return None, None, True
    return UNKNOWN, UNKNOWN, False


def resolve(nodes: Sequence[Node], entrants: list[StageEntrant], matches: Iterable[Match],
            results: Mapping[tuple, MatchResult], *, seat_of: Mapping[int, int],
            pool: str | None = None) -> Resolution:
    """Who is where in every node of one pool's bracket.

    ``seat_of``: local seed number → entrant (see :func:`_layout`). ``matches``: the drawn
    matches of this pool (matched to nodes by ``label``). ``results`` by match key. Pure.
    """
    out = Resolution()
    withdrawn = {e.number: e.withdrawn_after for e in entrants if e.withdrawn_after is not None}
    drawn = {m.label: m for m in matches if m.pool == pool and m.label}
    for e in entrants:
        out.losses[e.number] = 0
    for nd in nodes:
        m = drawn.get(nd.id)
        vals = []
        for kind, ref in nd.sides:
            if kind == "seed":
                v = seat_of.get(ref)
            else:
                src = out.nodes.get(ref)
                v = UNKNOWN if src is None else (src.winner if kind == "W" else src.loser)
            vals.append(v)
        wd_out: list[int] = []
        clean = []
        for v in vals:
            if v not in (None, UNKNOWN) and withdrawn.get(v) is not None \
                    and withdrawn[v] < nd.round:
                wd_out.append(v)
                v = None
            clean.append(v)
        # a drawn match keeps its drawn sides (hand edits win)
        sides = tuple(m.sides) if m is not None else tuple(clean)
        wd_out = [v for v in wd_out if v not in sides]
        if nd.conditional:
            gf1 = out.nodes.get("GF1")
            if gf1 is None or gf1.status not in ("done", "bye", "vanished"):
                out.nodes[nd.id] = Resolved(nd, sides, "pending")
                continue
            if gf1.status != "done" or gf1.winner != gf1.sides[1] or gf1.sides[1] is None:
                out.nodes[nd.id] = Resolved(nd, sides, "skipped", None, None)
                continue
        if UNKNOWN in sides:
            r = Resolved(nd, sides, "pending", match=m)
        elif all(s is None for s in sides):
            r = Resolved(nd, sides, "vanished", None, None, match=m)
        elif any(s is None for s in sides):
            w = next(s for s in sides if s is not None)
            r = Resolved(nd, sides, "bye", w, None, match=m)
        else:
            res = results.get(m.key) if m is not None else None
            if res is None:
                r = Resolved(nd, sides, "ready", match=m)
            else:
                w, lo, ok = _winner_of(res)
                if not ok:
                    out.problems.append(Reason(
                        "no_winner", f"{nd.id} 未决出胜负（淘汰赛必须有胜者）",
                        f"{nd.id} has no winner (a knockout match must have one)"))
                    r = Resolved(nd, sides, "ready", match=m, result=res)
                else:
                    losers = tuple(s for s in sides if s is not None and s != w)
                    r = Resolved(nd, sides, "done", w, lo, m, res, losers)
                    for x in losers:
                        out.losses[x] = out.losses.get(x, 0) + 1
        r.gone = tuple(wd_out)
        out.nodes[nd.id] = r
    # elimination: SE any loss; WB losers drop to the LB; LB/GF losers are out; the WB winner
    # losing GF1 plays the reset GF2; a withdrawn entrant is out where it is replaced by a bye
    gf2 = out.nodes.get("GF2")
    for r in out.nodes.values():
        for x in r.gone:
            out.eliminated.setdefault(x, r)
        for x in r.out:
            if r.node.part == "WB":
                continue
            if r.node.id == "GF1" and x == r.sides[0] and gf2 is not None \
                    and gf2.status != "skipped":
                continue
            out.eliminated.setdefault(x, r)
    return out


def _rng_key(state: StageState, pool: str | None, purpose: str, rng: random.Random | None
             ) -> str:
    """The lot's seed string: ``state.seed``, the pool and the purpose (the passed ``rng`` is not
    used, so every recomputation gives the same draw; a state without seed draws as seed None)."""
    return f"{state.seed}|{pool}|{purpose}"


# ============================================================================ common base

class _Bracket(BaseModel):
    """Shared settings and machinery of the bracket formats."""

    #: frames to win per stage round (index 0 = round 1; the last value repeats)
    races: list[int] | None = Field(default=None, description="每轮局数（几局胜），按轮次")
    loser_order: Literal["shared", "frames"] = Field(
        "shared", description="同轮出局者名次：并列，或按所负场次的得局数排序")
    clause: str | None = None
    note: str | None = None

    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("甲方", "Player A"),
                                                          ("乙方", "Player B"))
    #: a bracket's results decide who goes on: annulling a forfeiting entrant's results (a
    #: scoring's stage rule, a withdrawal's 取消) must not take the walkover from its opponent
    annul_results: ClassVar[bool] = False

    # -- to be provided by subclasses
    def _pool_nodes(self, n: int) -> list[Node]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _seat_of(self, state: StageState, pool, rng=None) -> dict[int, int]:
        ents = state.pool_entrants(pool)
        mode = getattr(self, "seeding", "standard")
        return _layout(ents, mode, _rng_key(state, pool, "layout", rng))

    def resolution(self, state: StageState, pool: str | None = None,
                   rng: random.Random | None = None) -> Resolution:
        """The :class:`Resolution` of ``pool`` (pure)."""
        ents = state.pool_entrants(pool)
        return resolve(self._pool_nodes(len(ents)), ents, state.matches, state.results,
                       seat_of=self._seat_of(state, pool, rng), pool=pool)

    def _emit(self, res: Resolution, rnd: int, pool) -> list[Match]:
        real, byes = [], []
        for r in res.nodes.values():
            if r.node.round != rnd or r.match is not None:
                continue
            if r.status == "ready":
                real.append((r.node.id, tuple(r.sides)))
            elif r.status == "bye":
                byes.append((r.node.id, tuple(r.sides)))
        return [Match(rnd, t, sides, pool, label)
                for t, (label, sides) in enumerate(real + byes, start=1)]

    def _next_round_of(self, res: Resolution) -> int | None:
        """The smallest round with a node still to draw (ready/bye/pending, not drawn)."""
        todo = [r.node.round for r in res.nodes.values()
                if r.match is None and r.status in ("ready", "bye", "pending")]
        return min(todo) if todo else None

    # -- Format protocol
    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The next round's matches of every pool (drawn only when their feeders are decided).
        Raises :class:`NotReady` (missing results, a match without a winner) or ``RuleError``
        when every pool is finished."""
        reasons: list[Reason] = []
        plans = []
        for pool in state.pools():
            res = self.resolution(state, pool, rng)
            reasons.extend(res.problems)
            missing = [m for m in state.missing() if m.pool == pool]
            nxt = self._next_round_of(res)
            if nxt is None:
                continue
            pending = [r for r in res.nodes.values() if r.node.round == nxt and r.match is None
                       and r.status == "pending"]
            if missing or pending:
                for m in missing:
                    reasons.append(Reason(
                        "missing_result",
                        f"{'' if pool is None else f'{pool}组'}第{m.round}轮 {m.label or m.table} "
                        f"尚无成绩", f"{'' if pool is None else f'pool {pool} '}round {m.round} "
                        f"{m.label or m.table} has no result"))
                if not missing:
                    reasons.append(Reason("pending", "上一轮尚未决出全部胜者",
                                          "the previous round is not decided"))
                continue
            plans.append((pool, res, nxt))
        if reasons:
            raise NotReady(reasons)
        if not plans:
            raise RuleError("本阶段已全部结束", "the stage is finished")
        out: list[Match] = []
        for pool, res, nxt in plans:
            out.extend(self._emit(res, nxt, pool))
        return out

    def finished(self, state: StageState) -> bool:
        """True when every node of every pool is decided (done, bye, vanished or skipped; a bye
        needs no result, drawn or not)."""
        for pool in state.pools():
            res = self.resolution(state, pool)
            if any(r.status in ("ready", "pending") for r in res.nodes.values()):
                return False
        return True

    def total_rounds(self, state: StageState) -> int | None:
        """The last stage round of the largest pool's bracket."""
        rounds = [max((n.round for n in self._pool_nodes(len(state.pool_entrants(p)))),
                      default=0) for p in state.pools()]
        return max(rounds, default=0)

    def race_for(self, match: Match, state: StageState | None = None) -> int | None:
        """Frames to win in ``match`` (from ``races`` by round; ``None`` when not set)."""
        if not self.races:
            return None
        return self.races[min(match.round, len(self.races)) - 1]

    def bracket_table(self, state: StageState) -> pd.DataFrame:
        """Every slot of the bracket with placeholders: see :func:`bracket_table`."""
        return bracket_table(state, self)

    # -- placings
    def _loser_key(self, r: Resolved, x: int):
        if self.loser_order == "shared" or r.result is None:
            return 0
        res = r.result
        i = list(res.match.sides).index(x)
        fw = res.values.get("frames_won")
        v = fw[i] if fw is not None else res.points[i]
        return -Decimal(str(v))

    def _place_eliminated(self, res: Resolution, alive: list[int], top: list[dict],
                          pool) -> list[dict]:
        """Rows for the eliminated, after the ``top`` rows: later elimination ranks higher;
        within one stage round shared (or by frames in the lost match)."""
        rows = list(top)
        placed = len(rows)
        by_round: dict[int, list[tuple[int, Resolved]]] = {}
        for x, r in res.eliminated.items():
            if any(row["entrant"] == x for row in top):
                continue
            by_round.setdefault(r.node.round, []).append((x, r))
        for rnd in sorted(by_round, reverse=True):
            group = sorted(by_round[rnd], key=lambda t: (self._loser_key(t[1], t[0]), t[0]))
            prev_key, prev_place = None, None
            for i, (x, r) in enumerate(group):
                key = self._loser_key(r, x)
                place = prev_place if key == prev_key else placed + i + 1
                prev_key, prev_place = key, place
                why = (f"第{rnd}轮退赛" if x in r.gone else f"第{rnd}轮负（{r.node.id}）")
                rows.append({"entrant": x, "pool": pool, "place": place, "decided_by": why,
                             "eliminated_round": rnd, "bracket_side": None,
                             "losses": res.losses.get(x, 0)})
            placed += len(group)
        return rows


def _placings_frame(rows: list[dict]) -> pd.DataFrame:
    cols = ["entrant", "pool", "place", "decided_by", "eliminated_round", "bracket_side", "losses"]
    df = pd.DataFrame(rows, columns=cols)
    df["entrant"] = df["entrant"].astype(int)
    df["place"] = df["place"].astype(int)
    df["eliminated_round"] = df["eliminated_round"].astype("Int64")
    df["losses"] = df["losses"].astype(int)
    df["bracket_side"] = df["bracket_side"].astype(object)
    df.loc[df["bracket_side"].isna(), "bracket_side"] = None
    return df.sort_values(["pool", "place", "entrant"], key=lambda s: s.astype(str)
                          if s.name == "pool" else s, kind="stable").reset_index(drop=True)


# ============================================================================ single elimination

class SingleElimination(_Bracket):
    """Single elimination (单败淘汰) of any size 2–1024, per pool (a pool = a qualifier flight).

    Settings: ``seeding`` — ``standard`` (seeded entrants on the standard positions, the unseeded
    drawn by lot into the following seed numbers; byes are the seed numbers after the field, so
    the best seeds get them), ``drawn`` (混抽入位: every entrant's seed number by lot — CBSA
    十六（三）1(1) "资格赛不设种子，全部混抽入位"), ``redraw`` (opponents drawn by lot every round —
    Qingdao 够级 七（二） "抽签选择对手"; ``odd_bye`` says who gets the bye of an odd field).
    ``stop_when_remaining`` K: the stage ends when K remain (CBSA 十六（二）1: flights stop at 16 or
    32; Qingdao: stop at 6, those go to a round robin). ``third_place``: 三、四名决赛. ``races``
    (frames to win by round) or ``races_from_final`` (final first: CBSA stage 2 [41, 21, 13] =
    final 81局41胜, semi-final 41局21胜, the rest 25局13胜) and ``third_place_race`` (CBSA 21).
    ``bracket_size``: slots (default the next power of two).

    Placings: the K survivors share place 1 (出线) when the stage stops early; otherwise 1, 2,
    3/4 (the third-place match) or 3–4 shared, 5–8, … by the round lost (``loser_order``).
    """

    kind: Literal["single_elimination"] = "single_elimination"
    seeding: Literal["standard", "drawn", "redraw"] = Field(
        "standard", description="签位：标准种子位 / 混抽入位 / 每轮抽签选择对手")
    odd_bye: Literal["lot", "best_seed"] = Field(
        "lot", description="每轮抽签时人数为奇数：轮空者抽签产生，或给种子最好者")
    stop_when_remaining: int | None = Field(None, ge=1, description="剩余人数达到此数即结束（晋级）")
    third_place: bool = Field(False, description="设三、四名决赛")
    races_from_final: list[int] | None = Field(None, description="局数（几局胜），自决赛往前")
    third_place_race: int | None = None
    bracket_size: int | None = Field(None, ge=2, le=1024)

    @model_validator(mode="after")
    def _check(self) -> "SingleElimination":
        if self.third_place and self.stop_when_remaining not in (None, 1):
            raise RuleError("提前结束（剩余K人）的淘汰赛不设三、四名决赛",
                            "a stage that stops with K remaining has no third-place match")
        if self.bracket_size is not None and self.bracket_size & (self.bracket_size - 1):
            raise RuleError("签表规模必须是 2 的幂", "bracket size must be a power of two")
        return self

    # -- structure
    def _size(self, n: int) -> int:
        if n > 1024:
            raise RuleError(f"淘汰赛最多 1024 人（现 {n} 人）", f"at most 1024 entrants ({n})")
        size = self.bracket_size or max(2, 1 << max(n - 1, 1).bit_length())
        if n > size:
            raise RuleError(f"参赛 {n} 人多于签位 {size}", f"{n} entrants exceed {size} slots")
        return size

    def _rounds_to_play(self, n: int, size: int) -> int:
        total = int(math.log2(size))
        k = self.stop_when_remaining
        if not k or k == 1:
            return total
        # survivors after round r = non-empty subtrees of 2^r slots
        pos = seed_positions(size)
        for r in range(0, total + 1):
            w = 2 ** r
            alive = sum(1 for i in range(0, size, w) if any(p <= n for p in pos[i:i + w]))
            if alive == k:
                return r
            if alive < k:
                break
        raise RuleError(f"{n} 人的标准签表不能恰好剩下 {k} 人", f"a standard bracket of {n} "
                        f"entrants never leaves exactly {k}")

    def _pool_nodes(self, n: int) -> list[Node]:
        size = self._size(n)
        return single_elimination_nodes(size, self._rounds_to_play(n, size), self.third_place)

    def total_rounds(self, state: StageState) -> int | None:
        """Rounds of the stage (the largest pool): log2(size), or fewer when it stops at K; in
        ``redraw`` mode n → ⌈n/2⌉ each round until K (or 1) remain."""
        if self.seeding != "redraw":
            return super().total_rounds(state)
        best = 0
        for p in state.pools():
            n, r = len(state.pool_entrants(p)), 0
            while n > (self.stop_when_remaining or 1):
                n, r = (n + 1) // 2, r + 1
            best = max(best, r)
        return best

    def field_problems(self, state: StageState) -> list[str]:
        """Field sizes this knockout cannot play as set (Chinese text per problem): in
        ``redraw`` mode with ``stop_when_remaining`` K, halving a pool (odd: one bye) must reach
        exactly K (Qingdao 七（二）: 48 → 24 → 12 → 6; 16 → 8 → 4 never leaves 6)."""
        out = []
        k = self.stop_when_remaining
        for p in state.pools():
            n = len(state.pool_entrants(p))
            if self.seeding == "redraw" and k and k > 1:
                path, m = [n], n
                while m > k:
                    m = (m + 1) // 2
                    path.append(m)
                if m != k:
                    where = f"{p}组" if p else ""
                    out.append(f"{where}{n} 队每轮淘汰一半（{'→'.join(map(str, path))}）无法恰好剩下 {k} 队")
            elif n < 2:
                out.append(f"{p or ''}只有 {n} 名参赛者，无法淘汰赛")
        return out

    def race_for(self, match: Match, state: StageState | None = None) -> int | None:
        """Frames to win in ``match``: ``third_place_race`` for ``3rd``; ``races_from_final``
        counted back from the final of the full bracket; else ``races`` by round."""
        if match.label == "3rd" and self.third_place_race:
            return self.third_place_race
        if self.races_from_final and state is not None:
            total = self.total_rounds(state) if self.seeding == "redraw" else \
                int(math.log2(self._size(max(len(state.pool_entrants(match.pool)), 2))))
            i = total - match.round
            if match.label == "3rd":
                i = 1
            return self.races_from_final[min(max(i, 0), len(self.races_from_final) - 1)]
        return super().race_for(match, state)

    # -- redraw mode
    def _redraw_resolution(self, state: StageState, pool) -> tuple[Resolution, list[int], int]:
        """(resolution of the drawn rounds, survivors, last drawn round) in redraw mode."""
        ents = state.pool_entrants(pool)
        res = Resolution(losses={e.number: 0 for e in ents})
        alive = [e.number for e in ents]
        last = state.rounds_drawn(pool)
        for rnd in range(1, last + 1):
            ms = [m for m in state.matches if m.pool == pool and m.round == rnd]
            nxt: list[int] = []
            for m in ms:
                nd = Node(m.label or f"R{rnd}-{m.table}", rnd, (("seed", 0), ("seed", 0)),
                          "SE", m.table, rnd)
                if m.is_bye:
                    w = m.entrants[0] if m.entrants else None
                    r = Resolved(nd, m.sides, "bye" if w is not None else "vanished", w, None, m)
                else:
                    result = state.results.get(m.key)
                    if result is None:
                        r = Resolved(nd, m.sides, "ready", match=m)
                    else:
                        w, lo, ok = _winner_of(result)
                        if not ok:
                            res.problems.append(Reason(
                                "no_winner", f"{nd.id} 未决出胜负", f"{nd.id} has no winner"))
                            r = Resolved(nd, m.sides, "ready", match=m, result=result)
                        else:
                            losers = tuple(s for s in m.entrants if s != w)
                            r = Resolved(nd, m.sides, "done", w, lo, m, result, losers)
                            for x in losers:
                                res.losses[x] += 1
                                res.eliminated[x] = r
                res.nodes[nd.id] = r
                if r.winner not in (None, UNKNOWN):
                    nxt.append(r.winner)
            in_round = {e for m in ms for e in m.entrants}
            # entrants not in a drawn round (withdrawn before it) go out there
            for x in alive:
                if x not in in_round and x not in res.eliminated:
                    nd = Node(f"R{rnd}-退赛", rnd, (("seed", 0), ("seed", 0)), "SE", 0, rnd)
                    res.eliminated[x] = Resolved(nd, (x, None), "bye", None, None, gone=(x,))
            alive = [x for x in nxt if x in alive]
        # survivors withdrawn before the next round are out there (the stage would go on)
        if len(alive) > (self.stop_when_remaining or 1):
            playing = set(self._redraw_players(state, pool, alive, last + 1))
            for x in alive:
                if x not in playing:
                    nd = Node(f"R{last + 1}-退赛", last + 1, (("seed", 0), ("seed", 0)), "SE", 0,
                              last + 1)
                    res.eliminated[x] = Resolved(nd, (x, None), "bye", None, None, gone=(x,))
            alive = [x for x in alive if x in playing]
        return res, alive, last

    def _redraw_players(self, state: StageState, pool, alive: list[int], rnd: int) -> list[int]:
        wd = {e.number: e.withdrawn_after for e in state.pool_entrants(pool)}
        return [x for x in alive if wd.get(x) is None or wd[x] >= rnd]

    def _redraw_next(self, state: StageState, pool, rng) -> tuple[list[Match], list[Reason]]:
        res, alive, last = self._redraw_resolution(state, pool)
        missing = [m for m in state.missing() if m.pool == pool]
        if missing or res.problems:
            return [], res.problems + [Reason("missing_result", f"第{m.round}轮 {m.label} 尚无成绩",
                                              f"round {m.round} {m.label} has no result")
                                       for m in missing]
        rnd = last + 1
        players = self._redraw_players(state, pool, alive, rnd)
        if len(players) <= (self.stop_when_remaining or 1):
            return [], []
        lot = random.Random(_rng_key(state, pool, f"redraw{rnd}", rng))
        players = sorted(players)
        lot.shuffle(players)
        bye = None
        if len(players) % 2:
            had_bye = {m.entrants[0] for m in state.matches if m.pool == pool and m.is_bye
                       and m.entrants}
            cands = [x for x in players if x not in had_bye] or players
            if self.odd_bye == "best_seed":
                seed = {e.number: e.seed for e in state.pool_entrants(pool)}
                bye = min(cands, key=lambda x: (seed.get(x) is None, seed.get(x) or 0, x))
            else:
                bye = cands[-1]
            players.remove(bye)
        out = [Match(rnd, i + 1, (players[2 * i], players[2 * i + 1]), pool, f"R{rnd}-{i + 1}")
               for i in range(len(players) // 2)]
        if bye is not None:
            out.append(Match(rnd, len(out) + 1, (bye, None), pool, f"R{rnd}-BYE"))
        return out, []

    # -- Format protocol (overrides for redraw)
    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The next round's matches (see :meth:`_Bracket.next_round`); in ``redraw`` mode the
        survivors are paired by lot (a bye for an odd field by ``odd_bye``, never twice to the
        same entrant while others have had none)."""
        if self.seeding != "redraw":
            for p in state.pools():
                n = len(state.pool_entrants(p))
                if n < 2:
                    raise RuleError(f"淘汰赛至少需要 2 人（{p or ''}仅 {n} 人）",
                                    f"a knockout needs at least 2 entrants ({n})")
            return super().next_round(state, rng)
        out: list[Match] = []
        reasons: list[Reason] = []
        for p in state.pools():
            ms, rs = self._redraw_next(state, p, rng)
            out.extend(ms)
            reasons.extend(rs)
        if reasons:
            raise NotReady(reasons)
        if not out:
            raise RuleError("本阶段已全部结束", "the stage is finished")
        return out

    def resolution(self, state: StageState, pool: str | None = None,
                   rng: random.Random | None = None) -> Resolution:
        if self.seeding == "redraw":
            return self._redraw_resolution(state, pool)[0]
        return super().resolution(state, pool, rng)

    def finished(self, state: StageState) -> bool:
        if self.seeding != "redraw":
            return super().finished(state)
        if state.missing():
            return False
        for p in state.pools():
            res, alive, last = self._redraw_resolution(state, p)
            if len(self._redraw_players(state, p, alive, last + 1)) > (
                    self.stop_when_remaining or 1):
                return False
        return True

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places per pool. Columns: ``entrant`` (int), ``pool``, ``place`` (int, shared by
        the round lost unless ``loser_order="frames"``), ``decided_by`` (str), ``eliminated_round``
        (Int64, NA for survivors), ``bracket_side`` (None), ``losses`` (int). Survivors of an
        unfinished stage, and the K qualifiers of a stage that stops early, share place 1."""
        rows: list[dict] = []
        for pool in state.pools():
            res = self.resolution(state, pool)
            alive = [e.number for e in state.pool_entrants(pool) if e.number not in res.eliminated]
            top: list[dict] = []
            fin = self.finished(state)
            k = self.stop_when_remaining or 1
            third = res.nodes.get("3rd")
            final = res.nodes.get("F")
            if fin and k == 1 and final is not None and final.winner not in (None, UNKNOWN):
                top.append(self._row(final.winner, pool, 1, "决赛胜", res))
                if final.loser not in (None, UNKNOWN):
                    top.append(self._row(final.loser, pool, 2, "决赛负", res))
                if third is not None and third.status == "done":
                    top.append(self._row(third.winner, pool, 3, "三、四名决赛胜", res))
                    top.append(self._row(third.loser, pool, 4, "三、四名决赛负", res))
                elif third is not None and third.status == "bye":
                    top.append(self._row(third.winner, pool, 3, "三、四名决赛轮空", res))
            else:
                why = "出线" if fin else "未出局"
                top.extend(self._row(x, pool, 1, why, res) for x in sorted(alive))
            rows.extend(self._place_eliminated(res, alive, top, pool))
        return _placings_frame(rows)

    @staticmethod
    def _row(x, pool, place, why, res) -> dict:
        return {"entrant": x, "pool": pool, "place": place, "decided_by": why,
                "eliminated_round": pd.NA, "bracket_side": None, "losses": res.losses.get(x, 0)}


register_format(SingleElimination, "淘汰赛", "单败淘汰", "单淘汰", "knockout")


# ============================================================================ double elimination

class DoubleEliminationGroups(_Bracket):
    """Double-elimination pools (分组双败淘汰) of ``pool_size`` (8) with winners' side (胜部) and
    losers' side (败部); a pool may be short (empty slots are byes). A player is out after
    exactly two losses.

    ``qualify`` K per pool (CBSA 十六（二）2(2) "每8人一组…每组各晋级4人": K/2 from each side —
    WB1, WB2 → the two 2–0 players; LB1 (the WB1 losers), LB2 (LB1 winners v WB2 losers) → the
    two 2–1 players; corpus ``double-elim-8-group-4-qualify``). ``qualify=None`` plays the whole
    bracket with ``grand_final`` ``none``/``simple``/``double`` (reset only when the LB winner
    wins GF1). Entrants with a ``seed`` take local seed numbers 1, 2 … of their pool (CBSA: the
    pool's seed on 1号位), the rest are drawn (``seeding="standard"``) or all drawn
    (``"drawn"``). ``loser_orderings``: WB-loser orderings into the LB (default brackets-manager).

    Placings: qualifiers with ``bracket_side`` ``"winners"`` (place 1 shared) or ``"losers"``
    (place K/2+1 shared); the rest by the stage round of their second loss.
    """

    kind: Literal["double_elimination"] = "double_elimination"
    pool_size: int = Field(8, ge=4, le=1024, description="每组签位数")
    qualify: int | None = Field(4, description="每组晋级人数（胜部、败部各半）")
    grand_final: Literal["none", "simple", "double"] = "none"
    seeding: Literal["standard", "drawn"] = "standard"
    loser_orderings: list[str] | None = None

    @model_validator(mode="after")
    def _check(self) -> "DoubleEliminationGroups":
        double_elimination_nodes(self.pool_size, qualify=self.qualify,
                                 grand_final=self.grand_final,
                                 loser_orderings=self.loser_orderings)
        return self

    def _pool_nodes(self, n: int) -> list[Node]:
        if n > self.pool_size:
            raise RuleError(f"小组 {n} 人多于签位 {self.pool_size}",
                            f"a pool of {n} exceeds {self.pool_size} slots")
        return double_elimination_nodes(self.pool_size, qualify=self.qualify,
                                        grand_final=self.grand_final,
                                        loser_orderings=self.loser_orderings)

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places per pool. Columns as :meth:`SingleElimination.placings`; ``bracket_side`` is
        ``"winners"`` (胜部) or ``"losers"`` (败部) for the qualifiers (the next stage seeds them
        differently: CBSA 十六（三）2(2)), ``None`` for the others."""
        rows: list[dict] = []
        for pool in state.pools():
            res = self.resolution(state, pool)
            top: list[dict] = []
            nodes = res.nodes
            wb_last = max(r.node.bracket_round for r in nodes.values() if r.node.part == "WB")
            lb_last = max((r.node.bracket_round for r in nodes.values() if r.node.part == "LB"),
                          default=0)
            fin = all(r.status not in ("ready", "pending") for r in nodes.values())

            def side_row(x, place, why, side):
                return {"entrant": x, "pool": pool, "place": place, "decided_by": why,
                        "eliminated_round": pd.NA, "bracket_side": side,
                        "losses": res.losses.get(x, 0)}
            if "GF1" in nodes:
                gf = nodes["GF2"] if "GF2" in nodes and nodes["GF2"].status != "skipped" \
                    else nodes["GF1"]
                if gf.status in ("done", "bye") and fin:
                    top.append(side_row(gf.winner, 1, "总决赛胜", None))
                    if gf.loser not in (None, UNKNOWN):
                        top.append(side_row(gf.loser, 2, "总决赛负", None))
            else:
                half = (self.qualify or 2) // 2
                for r in nodes.values():
                    if r.node.part == "WB" and r.node.bracket_round == wb_last \
                            and r.winner not in (None, UNKNOWN):
                        top.append(side_row(r.winner, 1, "胜部出线" if self.qualify else "胜部冠军",
                                            "winners"))
                    if r.node.part == "LB" and r.node.bracket_round == lb_last \
                            and r.winner not in (None, UNKNOWN):
                        top.append(side_row(r.winner, half + 1,
                                            "败部出线" if self.qualify else "败部冠军", "losers"))
            placed = {row["entrant"] for row in top}
            alive = [e.number for e in state.pool_entrants(pool)
                     if e.number not in res.eliminated and e.number not in placed]
            for x in sorted(alive):
                top.append(side_row(x, 1, "未出局", None))
            rows.extend(self._place_eliminated(res, alive, top, pool))
        return _placings_frame(rows)


register_format(DoubleEliminationGroups, "双败淘汰", "分组双败淘汰", "double elimination")


# ============================================================================ bracket sheet

def bracket_table(state: StageState, fmt: _Bracket) -> pd.DataFrame:
    """Every slot of the whole bracket, for drawing a bracket sheet (pure).

    One row per node and side. Columns: ``pool`` (object), ``part`` (str: SE/3rd/WB/LB/GF),
    ``round`` (int, stage round), ``bracket_round`` (int), ``round_zh``/``round_en`` (str),
    ``label`` (str), ``pos`` (int, top to bottom within its round), ``y`` (float: vertical centre
    of the node in first-round match units, for drawing), ``slot`` (0/1), ``entrant`` (Int64, NA
    when unknown or a bye), ``text`` (entrant number, or a placeholder: ``轮空`` for a bye,
    ``QF1胜者`` / ``SF2负者`` for a side still to come, ``抽签`` in redraw mode), ``score``
    (str: frames won, or points, when a result is typed), ``won`` (bool), ``status`` (str, see
    :class:`Resolved`), ``next`` (str: label of the node its winner goes to, "" if none).
    """
    rows: list[dict] = []
    for pool in state.pools():
        n = len(state.pool_entrants(pool))
        if isinstance(fmt, SingleElimination) and fmt.seeding == "redraw":
            res = fmt.resolution(state, pool)
            total = fmt.total_rounds(StageState(state.pool_entrants(pool)))
            nodes = list(res.nodes.values())
            counts = {}
            for r in nodes:
                counts[r.node.round] = counts.get(r.node.round, 0) + 1
            for r in nodes:
                rows.extend(_slot_rows(pool, r, total, "", float(r.node.pos), fmt))
            left = len(fmt._redraw_resolution(state, pool)[1])
            rnd = state.rounds_drawn(pool) + 1
            while left > (fmt.stop_when_remaining or 1):
                for m in range(1, left // 2 + left % 2 + 1):
                    nd = Node(f"R{rnd}-{m}", rnd, (("seed", 0), ("seed", 0)), "SE", m, rnd)
                    rows.extend(_slot_rows(pool, Resolved(nd, (UNKNOWN, UNKNOWN), "pending"),
                                           total, "", float(m), fmt, placeholder="抽签"))
                left, rnd = (left + 1) // 2, rnd + 1
            continue
        res = fmt.resolution(state, pool)
        nodes = [r.node for r in res.nodes.values()]
        feeds: dict[str, str] = {}
        for nd in nodes:
            for kind, ref in nd.sides:
                if kind == "W":
                    feeds[ref] = nd.id
        total = max((nd.bracket_round for nd in nodes if nd.part in ("SE", "WB")), default=1)
        full = int(math.log2(fmt._size(n))) if isinstance(fmt, SingleElimination) else total
        for r in res.nodes.values():
            nd = r.node
            if nd.part in ("SE", "WB"):
                y = (nd.pos - 0.5) * 2 ** (nd.bracket_round - 1)
            elif nd.part == "3rd":
                y = -1.0
            else:
                y = float(nd.pos)
            rows.extend(_slot_rows(pool, r, full, feeds.get(nd.id, ""), y, fmt))
    cols = ["pool", "part", "round", "bracket_round", "round_zh", "round_en", "label", "pos", "y",
            "slot", "entrant", "text", "score", "won", "status", "next"]
    df = pd.DataFrame(rows, columns=cols)
    df["entrant"] = df["entrant"].astype("Int64")
    return df


def _source_text(feeder: Feeder) -> str:
    kind, ref = feeder
    if kind == "seed":
        return f"{ref}号签位"
    return f"{ref}{'胜者' if kind == 'W' else '负者'}"


def _slot_rows(pool, r: Resolved, full_rounds: int, nxt: str, y: float, fmt,
               placeholder: str | None = None) -> list[dict]:
    nd = r.node
    if nd.part in ("SE",):
        _, zh, en = round_name(full_rounds, nd.bracket_round)
    elif nd.part == "3rd":
        zh, en = "三、四名决赛", "Third-place match"
    elif nd.part == "WB":
        zh, en = f"胜部第{nd.bracket_round}轮", f"Winners' round {nd.bracket_round}"
    elif nd.part == "LB":
        zh, en = f"败部第{nd.bracket_round}轮", f"Losers' round {nd.bracket_round}"
    else:
        zh, en = "总决赛", "Grand final"
    out = []
    res = r.result
    for i in range(2):
        v = r.sides[i] if i < len(r.sides) else None
        if placeholder:
            text, ent = placeholder, pd.NA
        elif v is UNKNOWN:
            text, ent = _source_text(nd.sides[i]), pd.NA
        elif v is None:
            text, ent = "轮空", pd.NA
        else:
            text, ent = str(v), v
        score = ""
        if res is not None and v not in (None, UNKNOWN) and v in res.match.sides:
            j = list(res.match.sides).index(v)
            fw = res.values.get("frames_won")
            score = str(fw[j]) if fw is not None else str(res.points[j])
        won = v not in (None, UNKNOWN) and r.winner == v and r.status in ("done", "bye")
        out.append({"pool": pool, "part": nd.part, "round": nd.round,
                    "bracket_round": nd.bracket_round, "round_zh": zh, "round_en": en,
                    "label": nd.id, "pos": nd.pos, "y": y, "slot": i, "entrant": ent,
                    "text": text, "score": score, "won": bool(won), "status": r.status,
                    "next": nxt})
    return out
