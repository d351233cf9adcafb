"""Bracket structure and resolution: the nodes of single- and double-elimination brackets and
:func:`resolve`, who sits where, who won, who is out (see :mod:`bianpai.engines.elimination`
for the model and the sources)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping, Sequence

from bianpai.engines.bracket_seeding import (DEFAULT_LOSER_ORDERINGS, Feeder, reorder,
                                             seed_positions)
from bianpai.engines.core import Match, MatchResult, Reason, StageEntrant, StageState
from bianpai.engines.errors import RuleError



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
    #: drawn matches whose sides are not who their decided feeders give: (the node, the
    #: feeder node whose winner or loser is missing from its drawn sides, that entrant) —
    #: a feeder's result changed after the match was drawn from it
    conflicts: list[tuple[Node, "Resolved", int]] = field(default_factory=list)


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
        # a drawn match keeps its drawn sides (hand edits win); a side that a decided
        # feeder's result gives and the drawn match lacks is a result changed since the draw
        sides = tuple(m.sides) if m is not None else tuple(clean)
        if m is not None:
            for (kind, ref), v in zip(nd.sides, clean):
                src = out.nodes.get(ref) if kind in ("W", "L") else None
                if src is not None and src.status == "done" and v not in (None, UNKNOWN) \
                        and v not in sides:
                    out.conflicts.append((nd, src, v))
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
