"""The 中国规则 pairing of one Swiss round as a single maximum-weight matching (积分编排).

Each round is ONE maximum-weight perfect matching (rustworkx's compiled blossom) whose integer
edge weights encode the priorities lexicographically, most important first:

1. completeness: every present entrant paired, no rematch (absent edges; max cardinality);
2. the bye (轮空) to the lowest-placed entrant without one (a dummy node);
3. the colour rule: no one gets the same colour more than ``max_same_colour_run`` times running or
   a colour difference beyond ``max_colour_diff``;
4. score groups: Σ d² over pairs (two short floats beat one long float), then top-down;
5. colour preferences met (balance, then alternation);
6. the pattern inside a group: upper half against lower half (S1[i] v S2[i]).

Also here: the state → :class:`PlayerInfo` reading (scores incl. byes, 请假, late-entry credit;
colours; opponents) and the colour allocation of a pair. The format using them is
:class:`bianpai.engines.swiss_individual.IndividualSwiss`.

Sources: 象棋竞赛规则 14.3–14.4; Chinese arbiters' Swiss procedure (research/pairing-anchors.md §3);
FIDE C.04.1 (no rematch, one bye each, colour rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from bianpai.engines.core import StageState
from bianpai.engines.errors import RuleError
from bianpai.engines.swiss_completion import COMPLETION_MAX, best_completable

if TYPE_CHECKING:  # the format's settings; imported for annotations only
    from bianpai.engines.swiss_individual import IndividualSwiss

__all__ = ["PlayerInfo", "pair_players", "player_infos", "edge_cost", "allocate_colours",
           "colour_need", "BYE_LABEL", "REQUESTED_BYE_LABEL", "LATE_ENTRY_LABELS", "WHITE",
           "BLACK", "late_entry_credit"]

WHITE, BLACK = "W", "B"
BYE_LABEL = "轮空"
REQUESTED_BYE_LABEL = "请假"
#: a round before a late entrant joins (迟报/补报), by the format's ``late_entry`` setting: no
#: points, or half a win (as a draw); an unplayed round (C.07 VUR) like a 请假 bye
LATE_ENTRY_LABELS = {"zero": "迟报未赛", "half_per_round": "迟报计和"}
#: full graph below this many entrants (exact optimum of the weights); sparse above
FULL_GRAPH_MAX = 80
#: rustworkx's blossom is exact with integer weights up to 126 bits (tested); 1,000 entrants on
#: 25 score levels need 94
WEIGHT_BITS = 120

@dataclass
class PlayerInfo:
    """One entrant as the pairing sees it before a round.

    ``score``: points so far (Decimal, incl. carry, byes, late-entry credit). ``pos``: placement
    index (0 = top) among the entrants to pair. ``colours``: played games' colours in round order
    (``"W"`` = side 0 = 先手/红/white). ``opponents``: entrants met. ``byes``: pairing byes had.
    ``level``: score level index (0 = top score). ``gpos``/``gsize``: place within its level.
    """

    number: int
    score: Decimal
    pos: int = 0
    colours: list[str] = field(default_factory=list)
    opponents: set[int] = field(default_factory=set)
    byes: int = 0
    bye_blocked: bool = False
    need: tuple | None = None  # cached colour_need during one pairing
    level: int = 0
    gpos: int = 0
    gsize: int = 1

    def colour_diff(self) -> int:
        return self.colours.count(WHITE) - self.colours.count(BLACK)


# ---------------------------------------------------------------------------------- state → infos

def _seed_key(e):
    return (e.seed if e.seed is not None else 10**9,
            -(e.rating if e.rating is not None else Decimal(-10**9)), e.number)


def player_infos(state: StageState, fmt: IndividualSwiss, rnd: int, *,
                 present_only: bool = True) -> list[PlayerInfo]:
    """The entrants to pair in round ``rnd``, placed (best first): by ``state.standings[None]``
    rank when given, else by score then seed/rating/number. Present = joined by ``rnd``, not
    withdrawn before it, no requested bye in it. Scores: carry + Σ result points + a drawn bye
    without a result (``bye_points``) + requested byes + late-entry credit."""
    by_num = {e.number: e for e in state.entrants}
    score = {e.number: Decimal(e.carry) for e in state.entrants}
    cols: dict[int, list[tuple[int, str]]] = {e.number: [] for e in state.entrants}
    opps: dict[int, set[int]] = {e.number: set() for e in state.entrants}
    byes = {e.number: 0 for e in state.entrants}
    blocked = {e.number: False for e in state.entrants}
    late_rounds: dict[int, set[int]] = {e.number: set() for e in state.entrants}
    for m in state.matches:
        if m.round >= rnd:
            continue
        res = state.results.get(m.key)
        if m.is_bye:
            e = m.entrants[0] if m.entrants else None
            if e is None or e not in score:
                continue
            requested = m.label == REQUESTED_BYE_LABEL
            late = m.label in LATE_ENTRY_LABELS.values()
            if late:
                late_rounds[e].add(m.round)
            if res is not None:
                score[e] += res.points[m.sides.index(e)]
            elif late:
                score[e] += late_entry_credit(fmt)
            else:
                score[e] += fmt.requested_bye_points if requested else fmt.bye_points
            if not (requested or late):
                byes[e] += 1
            continue
        played = True
        if res is not None:
            for i, e in enumerate(m.sides):
                if e in score:
                    score[e] += res.points[i]
            played = all(o in ("W", "D", "L") for o in res.outcome)
            if fmt.bye_excludes_forfeit_win:
                for i, e in enumerate(m.sides):
                    if res.outcome[i] == "FW":
                        blocked[e] = True
        if played or fmt.forfeit_counts_as_met:
            a, b = m.sides[0], m.sides[1]
            if a in opps and b is not None:
                opps[a].add(b)
            if b in opps and a is not None:
                opps[b].add(a)
        if played:
            for i, e in enumerate(m.sides):
                if e in cols:
                    cols[e].append((m.round, WHITE if i == 0 else BLACK))
    for e in state.entrants:  # rounds missed before joining that have no 迟报 match (yet)
        missed = set(range(1, min(e.join_round, rnd))) - late_rounds[e.number]
        score[e.number] += late_entry_credit(fmt) * len(missed)
    absent = set(fmt.requested_byes.get(rnd, []))

    def present(e) -> bool:
        return (e.join_round <= rnd and (e.withdrawn_after is None or e.withdrawn_after >= rnd)
                and e.number not in absent)

    ents = [e for e in state.entrants if present(e)] if present_only else list(state.entrants)
    order: dict[int, int] = {}
    st = state.standings.get(None)
    if st is not None and len(st):
        for i, en in enumerate(st["entrant"].astype(int).tolist()):
            order[en] = i
    ents.sort(key=lambda e: (-score[e.number], order.get(e.number, 10**9), _seed_key(e)))
    infos = [PlayerInfo(number=e.number, score=score[e.number], pos=i,
                        colours=[c for _, c in sorted(cols[e.number])],
                        opponents=opps[e.number], byes=byes[e.number],
                        bye_blocked=blocked[e.number])
             for i, e in enumerate(ents)]
    _set_levels(infos)
    _ = by_num
    return infos


def late_entry_credit(fmt: "IndividualSwiss") -> Decimal:
    """Points a late entrant gets for each round before joining: 0 (``late_entry: zero``) or half
    a win (``half_per_round``: ``bye_points`` / 2, a draw)."""
    return fmt.bye_points / 2 if fmt.late_entry == "half_per_round" else Decimal(0)


def _set_levels(infos: list[PlayerInfo]) -> None:
    levels = sorted({p.score for p in infos}, reverse=True)
    idx = {s: i for i, s in enumerate(levels)}
    groups: dict[int, list[PlayerInfo]] = {}
    for p in infos:
        p.level = idx[p.score]
        groups.setdefault(p.level, []).append(p)
    for g in groups.values():
        g.sort(key=lambda p: p.pos)
        for i, p in enumerate(g):
            p.gpos, p.gsize = i, len(g)


# ---------------------------------------------------------------------------------- colours

def colour_need(p: PlayerInfo, fmt: IndividualSwiss) -> tuple[str | None, bool, int]:
    """``(preferred colour or None, absolute?, strength)`` of ``p`` for its next game.

    Absolute: the last ``max_same_colour_run`` colours are the same, or the colour difference
    has reached ``max_colour_diff`` (FIDE C.04.1 f/g; 象棋 practice 先后手交替). Otherwise, rule
    ``balance``: the colour that evens the difference, else the opposite of the last one;
    ``alternate``: the opposite of the last one; ``none``: no preference."""
    hist = p.colours
    if not hist:
        return None, False, 0
    diff = p.colour_diff()
    last = hist[-1]
    other = BLACK if last == WHITE else WHITE
    run = fmt.max_same_colour_run
    if run is not None and len(hist) >= run and all(c == last for c in hist[-run:]):
        return other, True, 3
    if fmt.max_colour_diff is not None and abs(diff) >= fmt.max_colour_diff:
        return (BLACK if diff > 0 else WHITE), True, 3
    if fmt.colour_rule == "none":
        return None, False, 0
    if fmt.colour_rule == "balance" and diff != 0:
        return (BLACK if diff > 0 else WHITE), False, 2
    return other, False, 1


def allocate_colours(a: PlayerInfo, b: PlayerInfo, fmt: IndividualSwiss, table: int = 1
                     ) -> tuple[int, int]:
    """``(white, black)`` for a pair (``a`` placed higher): differing preferences are both met;
    the same preference goes to the absolute one, else the stronger one, else (FIDE E.4-like)
    the one whose history first differs alternates, else the higher-placed; no preference at all
    alternates by table (odd table: higher-placed 先手)."""
    if b.pos < a.pos:
        a, b = b, a
    pa, xa, sa = colour_need(a, fmt)
    pb, xb, sb = colour_need(b, fmt)
    if pa is not None and pb is not None and pa != pb:
        return (a.number, b.number) if pa == WHITE else (b.number, a.number)
    if pa is not None and pb is not None:  # same wish
        if sa != sb:
            winner = a if sa > sb else b
        else:
            winner = a
            for ca, cb in zip(reversed(a.colours), reversed(b.colours)):
                if ca != cb:  # the one who had this colour most recently yields
                    winner = b if ca == pa else a
                    break
        loser = b if winner is a else a
        return (winner.number, loser.number) if pa == WHITE else (loser.number, winner.number)
    if pa is not None:
        return (a.number, b.number) if pa == WHITE else (b.number, a.number)
    if pb is not None:
        return (b.number, a.number) if pb == WHITE else (a.number, b.number)
    return (a.number, b.number) if table % 2 == 1 else (b.number, a.number)


# ---------------------------------------------------------------------------------- costs

N_LAYERS = 6  # bye, colour conflict, float d², float top-down, colour pref, pattern


def edge_cost(a: PlayerInfo, b: PlayerInfo | None, fmt: IndividualSwiss, n: int, n_levels: int
              ) -> tuple[int, ...]:
    """Cost vector (lexicographic, most important first; smaller is better) of pairing ``a``
    with ``b`` (``None``: ``a`` gets the bye) among ``n`` entrants on ``n_levels`` score levels.
    Layers: (bye placement, colour conflict, Σd², top-down float, colour preference clash,
    pattern). The matching minimizes the layer sums lexicographically; the property tests check
    this against an exhaustive enumeration."""
    if b is None:
        return (n - 1 - a.pos, 0, 0, 0, 0, 0)
    if b.pos < a.pos:
        a, b = b, a
    pa, xa, _ = a.need if a.need is not None else colour_need(a, fmt)
    pb, xb, _ = b.need if b.need is not None else colour_need(b, fmt)
    conflict = int(xa and xb and pa == pb)
    clash = int(pa is not None and pa == pb)
    d = b.level - a.level
    # Σ over crossed boundaries lv = a.level … b.level-1 of (n_levels - lv)
    top_down = d * n_levels - (a.level + b.level - 1) * d // 2
    if d == 0:
        h = (a.gsize + 1) // 2 if a.gsize % 2 else a.gsize // 2
        pattern = abs(b.gpos - a.gpos - h)
    else:
        pattern = (a.gsize - 1 - a.gpos) + b.gpos
    return (0, conflict, d * d, top_down, clash, pattern)


def _layer_bounds(n: int, n_levels: int) -> list[int]:
    """Max per-edge value of each layer."""
    L = max(n_levels, 1)
    return [n, 1, L * L, L * L, 1, 2 * n]


def _encoder(n_nodes: int, n: int, n_levels: int):
    pairs = n_nodes // 2 + 1
    bounds = [b * pairs for b in _layer_bounds(n, n_levels)]
    mults = [1] * N_LAYERS
    for k in range(N_LAYERS - 2, -1, -1):
        mults[k] = mults[k + 1] * (bounds[k + 1] + 1)
    top = mults[0] * (bounds[0] + 1)
    if top.bit_length() > WEIGHT_BITS:
        raise RuleError("人数或积分档过多，超出编排权重范围",
                        f"field too large for the matching weights ({top.bit_length()} bits)")

    m0, m1, m2, m3, m4, m5 = mults

    def enc(cost: tuple[int, ...]) -> int:
        c0, c1, c2, c3, c4, c5 = cost
        return top - (c0 * m0 + c1 * m1 + c2 * m2 + c3 * m3 + c4 * m4 + c5 * m5)
    return enc


# ---------------------------------------------------------------------------------- matching

def _candidates(infos: list[PlayerInfo], k: int) -> set[tuple[int, int]]:
    """Sparse candidate pairs (indices into ``infos``, which is in placement order): ``k``
    neighbours each way in placement order, ``k`` around each one's ideal partner in its group
    (upper v lower half), and ``k`` across each score boundary."""
    n = len(infos)
    out: set[tuple[int, int]] = set()

    def add(i, j):
        if 0 <= i < n and 0 <= j < n and i != j:
            out.add((i, j) if i < j else (j, i))
    for i in range(n):
        for d in range(1, k + 1):
            add(i, i + d)
        p = infos[i]
        h = p.gsize // 2
        if p.gpos < h:
            ideal = i + h
        else:
            ideal = i - h
        for d in range(-k, k + 1):
            add(i, ideal + d)
    return out


def pair_players(infos: list[PlayerInfo], fmt: IndividualSwiss, *, full: bool | None = None,
                 rounds_after: int = 0
                 ) -> tuple[list[tuple[PlayerInfo, PlayerInfo]], PlayerInfo | None]:
    """Pair ``infos`` (placement order) by one maximum-weight matching. Returns the pairs
    (higher-placed first, in table order) and the bye (or None). Raises ``RuleError`` when no
    rematch-free pairing (with an eligible bye) exists. ``full``: force the complete graph
    (default: complete up to :data:`FULL_GRAPH_MAX` entrants, sparse with fallback above).
    ``rounds_after``: rounds of the stage still to come after this one; on a field of up to
    :data:`~bianpai.engines.swiss_completion.COMPLETION_MAX` nodes the round is the heaviest
    matching after which they can still be paired without a rematch (one bye each)
    (:func:`~bianpai.engines.swiss_completion.best_completable`): the plain optimum whenever
    that one leaves the stage playable."""
    import rustworkx as rx

    n = len(infos)
    if n == 0:
        return [], None
    odd = n % 2 == 1
    n_levels = max(p.level for p in infos) + 1
    for p in infos:
        p.need = colour_need(p, fmt)
    n_nodes = n + (1 if odd else 0)
    enc = _encoder(n_nodes, n, n_levels)
    use_full = (n <= FULL_GRAPH_MAX) if full is None else full
    tries = [None] if use_full else [6, 24, None]
    for k in tries:
        g = rx.PyGraph()
        g.add_nodes_from(range(n_nodes))
        cand = ((i, j) for i in range(n) for j in range(i + 1, n)) if k is None \
            else _candidates(infos, k)
        edges = []
        for i, j in cand:
            a, b = infos[i], infos[j]
            if b.number in a.opponents:
                continue
            c = edge_cost(a, b, fmt, n, n_levels)
            if c[1] and fmt.colour_hard:
                continue
            edges.append((i, j, enc(c)))
        if odd:
            for i, p in enumerate(infos):
                if p.byes == 0 and not p.bye_blocked:
                    edges.append((i, n, enc(edge_cost(p, None, fmt, n, n_levels))))
        g.add_edges_from(edges)
        m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
        if 2 * len(m) == n_nodes:
            break
    else:
        raise RuleError("无法编排：不存在不重复相遇的完整对阵（请检查退赛、轮空或轮次设置）",
                        "no rematch-free pairing of the whole field exists")
    if rounds_after > 0 and n_nodes <= COMPLETION_MAX:
        m = _looking_ahead(n_nodes, edges, m, rounds_after)
    pairs: list[tuple[PlayerInfo, PlayerInfo]] = []
    bye = None
    for i, j in m:
        i, j = min(i, j), max(i, j)
        if j == n:
            bye = infos[i]
        else:
            pairs.append((infos[i], infos[j]))
    pairs.sort(key=lambda ab: (-max(ab[0].score, ab[1].score), -(ab[0].score + ab[1].score),
                               min(ab[0].pos, ab[1].pos)))
    return pairs, bye


def _looking_ahead(n_nodes: int, edges: list[tuple[int, int, int]], m, rounds_after: int):
    """The matching ``m`` of the full graph ``edges`` ((i, j, weight)), or the heaviest one after
    which ``rounds_after`` more rounds can be paired (see :func:`pair_players`)."""
    import rustworkx as rx

    weights = {(min(i, j), max(i, j)): w for i, j, w in edges}

    def solve(part: dict, pairs: int):
        g = rx.PyGraph()
        g.add_nodes_from(range(n_nodes))
        g.add_edges_from([(i, j, w) for (i, j), w in part.items()])
        sub = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
        return [(min(a, b), max(a, b)) for a, b in sub] if len(sub) >= pairs else None

    return best_completable(n_nodes, weights, rounds_after, solve, list(m))
