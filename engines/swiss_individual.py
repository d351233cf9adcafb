"""Individual Swiss (积分编排制) for board games: xiangqi, go, gomoku, Mongolian chess, 军棋, chess.

Two modes:

* ``chinese`` (中国规则, default for 象棋/围棋/五子棋/蒙古象棋/军棋): round 1 by rating/seed order,
  the upper half paired with the lower half by lot (or in order, or adjacent 1-2, 3-4: a setting);
  later rounds by score groups top-down with no rematch, odd groups floating down, 先后手 balanced
  and alternated. Each round is ONE maximum-weight perfect matching (rustworkx's compiled blossom)
  whose integer edge weights encode these priorities lexicographically, most important first:

  1. completeness: every present entrant paired, no rematch (absent edges; max cardinality);
  2. the bye (轮空) to the lowest-placed entrant without one (a dummy node);
  3. the colour rule: no one gets the same colour more than ``max_same_colour_run`` times running
     or a colour difference beyond ``max_colour_diff`` (pairs of two entrants who both *must* get
     the same colour are avoided);
  4. score groups: Σ d² over pairs, d = score levels between the two (two short floats beat one
     long float), then top-down (a float across a higher boundary costs more than a lower one);
  5. colour preferences met (balance, then alternation);
  6. the pattern inside a group: upper half against lower half (S1[i] v S2[i]), the floater the
     lowest of its group meeting the highest of the next.

  Because a complete pairing is the first priority of a single matching, the engine finds a
  rematch-free pairing whenever one exists (the guarantee the 人工 "backtracking" of Chinese
  arbiters aims at). Large fields use a sparse candidate graph (neighbours in placement order,
  ideal partners and the score-group boundaries) and fall back to the complete graph when the
  sparse graph has no perfect matching, so completeness is kept.

* ``dutch`` (国际象棋): FIDE C.04.3 (2025 text) via the py4swiss library (optional extra ``chess``),
  adapted where py4swiss still follows the 2017 text (see :func:`bianpai.engines.trf.dutch_pairings`): the
  stage is written as a TRF (:func:`state_to_trf`) and paired by
  :func:`bianpai.engines.trf.dutch_pairings`.

Sources: 象棋竞赛规则 14.3–14.4 (Swiss, bye = win); Chinese arbiters' Swiss procedure (research/
pairing-anchors.md §3); FIDE C.04.1 (no rematch, one bye each, colour rules); 福建省老年人
智力运动会 2024 围棋 (round 1 adjacent 1-2, 3-4); 全国智力运动会 2024 ("轮次视参赛人数而定").
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import (Match, NotReady, Reason, StageState, register_format)
from bianpai.engines.errors import RuleError

__all__ = ["IndividualSwiss", "PlayerInfo", "default_rounds", "pair_players", "player_infos",
           "edge_cost", "allocate_colours", "BYE_LABEL", "REQUESTED_BYE_LABEL", "WHITE", "BLACK"]

WHITE, BLACK = "W", "B"
BYE_LABEL = "轮空"
REQUESTED_BYE_LABEL = "请假"
#: full graph below this many entrants (exact optimum of the weights); sparse above
FULL_GRAPH_MAX = 80
#: rustworkx's blossom is exact with integer weights up to 126 bits (tested); 1,000 entrants on
#: 25 score levels need 94
WEIGHT_BITS = 120


def default_rounds(n: int) -> int:
    """Rule-of-thumb rounds for ``n`` entrants: ⌈log2 n⌉ + 2, at least 5, at most the rounds a
    round robin would need (n − 1, or n when odd). Source: 全国智力运动会 2024 "轮次视参赛人数而定"
    (the rule of thumb is shown to the organizer, who may change it before round 1)."""
    if n < 2:
        return 0
    r = max(math.ceil(math.log2(n)) + 2, 5)
    return min(r, n - 1 if n % 2 == 0 else n)


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


class IndividualSwiss(BaseModel):
    """积分编排 for individual board games (kind ``swiss_individual``; aliases 积分编排, 瑞士制).

    Settings (each a 规程 reading with its clause/note where the text is silent):
    ``rounds`` (None: :func:`default_rounds`), ``mode`` (``chinese``/``dutch``), ``round1``
    (``halves_by_lot`` 上下半区抽签, ``halves_in_order`` 1 v n/2+1, ``adjacent`` 1-2, 3-4),
    ``first_colour`` (table 1's higher-placed entrant in round 1: ``lot``/``white``/``black``),
    ``colour_rule`` (``balance``: equalize then alternate; ``alternate``: only alternate;
    ``none``), ``max_same_colour_run`` (2 = never three in a row; None = no limit),
    ``max_colour_diff`` (2; None = no limit), ``colour_hard`` (False: a complete rematch-free
    pairing comes first and the colour rule is kept whenever some complete pairing keeps it;
    True: the colour rule is absolute like the rematch ban, FIDE C.04.3 C3, so a round may
    become unpairable), ``bye_points`` (points of a 轮空 for pairing
    scores; 2 in 2/1/0), ``requested_bye_points`` (请假 half-point bye, chess), ``late_entry``
    (``zero`` or ``half_per_round`` = half a win per round missed), ``requested_byes``
    (round → entrant numbers with an advance half-point bye), ``forfeit_counts_as_met``,
    ``bye_excludes_forfeit_win`` (FIDE C.04.1: a forfeit win also blocks the bye).
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["swiss_individual"] = "swiss_individual"
    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("先手", "White"), ("后手", "Black"))

    rounds: int | None = Field(None, ge=1)
    mode: Literal["chinese", "dutch"] = "chinese"
    round1: Literal["halves_by_lot", "halves_in_order", "adjacent"] = "halves_by_lot"
    first_colour: Literal["lot", "white", "black"] = "lot"
    colour_rule: Literal["balance", "alternate", "none"] = "balance"
    max_same_colour_run: int | None = Field(2, ge=1)
    max_colour_diff: int | None = Field(2, ge=1)
    colour_hard: bool = False
    bye_points: Decimal = Decimal(2)
    requested_bye_points: Decimal = Decimal(1)
    late_entry: Literal["zero", "half_per_round"] = "zero"
    requested_byes: dict[int, list[int]] = Field(default_factory=dict)
    forfeit_counts_as_met: bool = True
    bye_excludes_forfeit_win: bool = False
    clause: str | None = None
    note: str | None = (
        "轮次默认按⌈log2 人数⌉+2（至少5轮）计算，可在第1轮前修改；第1轮按等级分/种子排序后上下半区抽签对阵；"
        "此后按积分分组自上而下编排，不重复相遇，奇数组向下浮动；先后手力求平衡与交替，不连续三次同色。"
        " / rounds default to ⌈log2 N⌉+2 (min 5), editable before round 1; round 1 upper v lower half by"
        " lot; later rounds by score groups top-down, no rematch, colours balanced and alternated.")

    # ------------------------------------------------------------------ Format protocol
    def total_rounds(self, state: StageState) -> int | None:
        """``rounds`` or :func:`default_rounds` of the stage's entrant count."""
        return self.rounds if self.rounds is not None else default_rounds(len(state.entrants))

    def rounds_explained(self, state: StageState) -> tuple[str, str]:
        """The rounds and why, Chinese and English, for the sheet (e.g. "7轮（30人：⌈log2 30⌉+2=7，
        至少5轮）")."""
        n = len(state.entrants)
        r = self.total_rounds(state)
        if self.rounds is not None:
            return f"{r}轮（规程设定）", f"{r} rounds (set)"
        raw = math.ceil(math.log2(n)) + 2 if n >= 2 else 0
        return (f"{r}轮（{n}人：⌈log2 {n}⌉+2={raw}，至少5轮，不超过循环赛轮数；第1轮前可修改）",
                f"{r} rounds ({n} entrants: ceil(log2 {n})+2={raw}, at least 5, at most a round "
                f"robin; editable before round 1)")

    def finished(self, state: StageState) -> bool:
        """Every round drawn and every non-bye match has its result."""
        total = self.total_rounds(state) or 0
        return state.rounds_drawn() >= total and not state.missing()

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places from ``state.standings[None]`` (rank order), else by score then seed order.
        Columns ``entrant, pool, place, decided_by``."""
        st = state.standings.get(None)
        rows = []
        if st is not None and len(st):
            for rec in st.to_dict("records"):
                rows.append({"entrant": int(rec["entrant"]), "pool": None,
                             "place": int(rec["rank"]), "decided_by": "积分编排名次"})
        else:
            infos = player_infos(state, self, state.rounds_drawn() + 1, present_only=False)
            for i, p in enumerate(infos, start=1):
                rows.append({"entrant": p.number, "pool": None, "place": i,
                             "decided_by": "积分（未计对手分）"})
        return pd.DataFrame(rows, columns=["entrant", "pool", "place", "decided_by"])

    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """Draw the next round. Raises :class:`NotReady` when the last round lacks results,
        ``RuleError`` when the stage is finished or no rematch-free pairing exists (or mode
        ``dutch``: use :func:`bianpai.engines.trf.dutch_pairings` on a TRF)."""
        rnd = state.rounds_drawn() + 1
        missing = state.missing(rnd - 1) if rnd > 1 else []
        if missing:
            raise NotReady([Reason("missing_result", f"第{m.round}轮第{m.table}台尚无成绩",
                                   f"round {m.round} table {m.table} has no result")
                            for m in missing])
        total = self.total_rounds(state) or 0
        if rnd > total:
            raise RuleError(f"已编排全部{total}轮", f"all {total} rounds are drawn")
        if self.mode == "dutch":
            return _dutch_round(state, self, rnd, total, rng)
        if rnd == 1:
            # round 1 follows the seed/rating order (福建围棋 四（四）: 序号抽签后邻近编排 1-2、3-4):
            # a ranking of a field that has not played orders nobody (its ties are lots)
            state = dataclasses.replace(state, standings={})
        infos = player_infos(state, self, rnd)
        absent = set(self.requested_byes.get(rnd, []))
        if rnd == 1:
            pairs, bye = _first_round(infos, self, rng)
        else:
            pairs, bye = pair_players(infos, self)
            pairs = [allocate_colours(a, b, self, table=i)
                     for i, (a, b) in enumerate(pairs, start=1)]
        return _matches(rnd, pairs, bye, sorted(absent), infos)


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
    for m in state.matches:
        if m.round >= rnd:
            continue
        res = state.results.get(m.key)
        if m.is_bye:
            e = m.entrants[0] if m.entrants else None
            if e is None or e not in score:
                continue
            requested = m.label == REQUESTED_BYE_LABEL
            if res is not None:
                score[e] += res.points[m.sides.index(e)]
            else:
                score[e] += fmt.requested_bye_points if requested else fmt.bye_points
            if not requested:
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
    half = fmt.bye_points / 2
    for e in state.entrants:
        if fmt.late_entry == "half_per_round" and e.join_round > 1:
            score[e.number] += half * (min(e.join_round, rnd) - 1)
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


def pair_players(infos: list[PlayerInfo], fmt: IndividualSwiss, *, full: bool | None = None
                 ) -> tuple[list[tuple[PlayerInfo, PlayerInfo]], PlayerInfo | None]:
    """Pair ``infos`` (placement order) by one maximum-weight matching. Returns the pairs
    (higher-placed first, in table order) and the bye (or None). Raises ``RuleError`` when no
    rematch-free pairing (with an eligible bye) exists. ``full``: force the complete graph
    (default: complete up to :data:`FULL_GRAPH_MAX` entrants, sparse with fallback above)."""
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


def _first_round(infos: list[PlayerInfo], fmt: IndividualSwiss, rng: random.Random
                 ) -> tuple[list[tuple[int, int]], PlayerInfo | None]:
    """Round 1 (象棋 practice: order by rating/seed, upper half v lower half by lot; 围棋 Fujian
    2024: adjacent 1-2, 3-4). Odd field: the last-placed has the bye. Colours: table 1's
    higher-placed entrant by ``first_colour``, alternating down the tables."""
    order = list(infos)
    bye = order.pop() if len(order) % 2 else None
    half = len(order) // 2
    if fmt.round1 == "adjacent":
        raw = [(order[2 * i], order[2 * i + 1]) for i in range(half)]
    else:
        upper, lower = order[:half], order[half:]
        if fmt.round1 == "halves_by_lot":
            lower = list(lower)
            rng.shuffle(lower)
        raw = list(zip(upper, lower))
    first = fmt.first_colour if fmt.first_colour != "lot" else rng.choice(["white", "black"])
    out = []
    for t, (a, b) in enumerate(raw, start=1):
        top_white = (t % 2 == 1) == (first == "white")
        out.append((a.number, b.number) if top_white else (b.number, a.number))
    return out, bye


def _matches(rnd: int, pairs: list[tuple[int, int]], bye: PlayerInfo | None,
             requested: list[int], infos) -> list[Match]:
    ms = [Match(round=rnd, table=t, sides=(w, b)) for t, (w, b) in enumerate(pairs, start=1)]
    t = len(ms)
    if bye is not None:
        t += 1
        ms.append(Match(round=rnd, table=t, sides=(bye.number, None), label=BYE_LABEL))
    for e in requested:
        t += 1
        ms.append(Match(round=rnd, table=t, sides=(e, None), label=REQUESTED_BYE_LABEL))
    return ms


def state_to_trf(state: StageState, fmt: IndividualSwiss, rnd: int, total: int,
                 first_colour: str = "white"):
    """The stage as a TRF-16 (:class:`bianpai.engines.trf.Trf`) ready to pair round ``rnd``,
    and the map start number → entrant. Start numbers by seed/rating/number (C.04.2 initial
    order); results W/D/L → ``1 = 0``, FW/FL → ``+ -``, 轮空 → ``U``, 请假 → ``H`` (``Z`` when it
    scored nothing), not in the round (late entry, withdrawn) → ``Z``; round ``rnd``'s requested
    byes and absences are written in advance (``H``/``Z``)."""
    from bianpai.engines.trf import Trf, TrfPlayer, TrfRound

    ents = sorted(state.entrants, key=_seed_key)
    sno = {e.number: i + 1 for i, e in enumerate(ents)}
    by_round: dict[int, dict[int, TrfRound]] = {}
    pts = {e.number: Decimal(0) for e in ents}
    val = {"W": ("1", Decimal(1)), "D": ("=", Decimal("0.5")), "L": ("0", Decimal(0)),
           "FW": ("+", Decimal(1)), "FL": ("-", Decimal(0))}
    for m in state.matches:
        if m.round >= rnd:
            continue
        slot = by_round.setdefault(m.round, {})
        res = state.results.get(m.key)
        if m.is_bye:
            e = m.entrants[0]
            if m.label == REQUESTED_BYE_LABEL:
                got = res.points[m.sides.index(e)] if res is not None else fmt.requested_bye_points
                code = "H" if got > 0 else "Z"
                pts[e] += Decimal("0.5") if got > 0 else Decimal(0)
            else:
                code = "U"
                pts[e] += 1
            slot[e] = TrfRound(None, "-", code)
            continue
        for i, e in enumerate(m.sides):
            code, v = val[res.outcome[i]] if res is not None else (" ", Decimal(0))
            pts[e] += v
            slot[e] = TrfRound(sno[m.sides[1 - i]], "w" if i == 0 else "b", code)
    absent = set(fmt.requested_byes.get(rnd, []))
    players = []
    for e in ents:
        rounds = []
        for r in range(1, rnd):
            got = by_round.get(r, {}).get(e.number)
            if got is None:  # not in that round: before a late entry (0 or ½, a setting) or gone
                late = r < e.join_round and fmt.late_entry == "half_per_round"
                got = TrfRound(None, "-", "H" if late else "Z")
                pts[e.number] += Decimal("0.5") if late else Decimal(0)
            rounds.append(got)
        gone = e.join_round > rnd or (e.withdrawn_after is not None and e.withdrawn_after < rnd)
        if e.number in absent:  # the file's points include a pre-set H (as py4swiss checks)
            half = fmt.requested_bye_points > 0
            rounds.append(TrfRound(None, "-", "H" if half else "Z"))
            pts[e.number] += Decimal("0.5") if half else Decimal(0)
        elif gone:
            rounds.append(TrfRound(None, "-", "Z"))
        players.append(TrfPlayer(number=sno[e.number], name=str(e.number),
                                 rating=int(e.rating or 0), points=pts[e.number], rounds=rounds))
    other = [("012", "bianpai"), ("XXR", str(total)), ("XXC", f"{first_colour}1")]
    trf = Trf(players=players, other=other, total_rounds=total, first_colour=first_colour)
    return trf, {v: k for k, v in sno.items()}


def _dutch_round(state, fmt, rnd, total, rng) -> list[Match]:
    from bianpai.engines.trf import dutch_pairings

    first = fmt.first_colour if fmt.first_colour != "lot" else rng.choice(["white", "black"])
    trf, back = state_to_trf(state, fmt, rnd, total, first)
    pairs = dutch_pairings(trf)
    ms = []
    bye = None
    for w, b in pairs:
        if b == 0:
            bye = back[w]
        else:
            ms.append(Match(round=rnd, table=len(ms) + 1, sides=(back[w], back[b])))
    t = len(ms)
    if bye is not None:
        t += 1
        ms.append(Match(round=rnd, table=t, sides=(bye, None), label=BYE_LABEL))
    for e in sorted(fmt.requested_byes.get(rnd, [])):
        t += 1
        ms.append(Match(round=rnd, table=t, sides=(e, None), label=REQUESTED_BYE_LABEL))
    return ms


register_format(IndividualSwiss, "积分编排", "瑞士制", "个人积分编排")
