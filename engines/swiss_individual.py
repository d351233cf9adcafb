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
from decimal import Decimal
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import (Match, NotReady, Reason, StageState, register_format)
from bianpai.engines.errors import RuleError
from bianpai.engines.swiss_dutch import dutch_round as _dutch_round
from bianpai.engines.swiss_dutch import state_to_trf
from bianpai.engines.swiss_pairing import (BLACK, BYE_LABEL, LATE_ENTRY_LABELS,
                                           REQUESTED_BYE_LABEL, WHITE, PlayerInfo, allocate_colours, colour_need, edge_cost,
                                           pair_players, player_infos)
from bianpai.engines.typed_rows import place_of

__all__ = ["IndividualSwiss", "PlayerInfo", "default_rounds", "pair_players", "player_infos",
           "edge_cost", "allocate_colours", "colour_need", "state_to_trf", "BYE_LABEL",
           "REQUESTED_BYE_LABEL", "LATE_ENTRY_LABELS", "WHITE", "BLACK", "late_entry_matches"]


def default_rounds(n: int) -> int:
    """Rule-of-thumb rounds for ``n`` entrants: ⌈log2 n⌉ + 2, at least 5, at most the rounds a
    round robin would need (n − 1, or n when odd). Source: 全国智力运动会 2024 "轮次视参赛人数而定"
    (the rule of thumb is shown to the organizer, who may change it before round 1)."""
    if n < 2:
        return 0
    r = max(math.ceil(math.log2(n)) + 2, 5)
    return min(r, n - 1 if n % 2 == 0 else n)


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
    (round → entrant numbers with an advance half-point bye), ``forfeit_counts_as_met`` (true: a
    forfeited game counts as a meeting and is never paired again, in both modes — the Dutch mode
    passes the pairs to the engine as ``XXP`` forbidden pairs; false: FIDE C.04.1, a game not
    played may be paired again, what the chess groups set),
    ``bye_excludes_forfeit_win`` (FIDE C.04.1: a forfeit win also blocks the bye).
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["swiss_individual"] = "swiss_individual"
    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("先手", "White"), ("后手", "Black"))
    #: how often two entrants may meet in the stage (FIDE C.04.1 b: not twice): a hand edit of
    #: 对阵 that pairs them again is refused by the reader (the draw itself never does)
    max_meetings: ClassVar[int] = 1

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
        """``rounds`` or :func:`default_rounds` of the entrants of round 1 (a late entry does
        not change the rounds fixed before round 1)."""
        if self.rounds is not None:
            return self.rounds
        return default_rounds(sum(1 for e in state.entrants if e.join_round <= 1))

    def admit_late(self, state: StageState, numbers: list[int]) -> list[Match]:
        """Late entrants ``numbers`` (迟到报名 / 补报) join at round ``state.rounds_drawn() + 1``:
        one 迟报 row (label by ``late_entry``: 0 points, or half a win, per round missed) for
        each of them in every round already drawn, tables after the round's last. Raises
        ``RuleError`` when every round is drawn (nothing left to join)."""
        done = state.rounds_drawn()
        total = self.total_rounds(state) or 0
        if done >= total:
            raise RuleError(f"全部{total}轮已编排，不能再加入", f"all {total} rounds are drawn")
        label = LATE_ENTRY_LABELS[self.late_entry]
        out = []
        for r in range(1, done + 1):
            last = max((m.table for m in state.round_matches(r)), default=0)
            out += [Match(round=r, table=last + i, sides=(n, None), label=label)
                    for i, n in enumerate(numbers, start=1)]
        return out

    def rounds_explained(self, state: StageState) -> tuple[str, str]:
        """The rounds and why, Chinese and English, for the sheet (e.g. "7轮（30人：⌈log2 30⌉+2=7，
        至少5轮）")."""
        n = sum(1 for e in state.entrants if e.join_round <= 1)
        r = self.total_rounds(state)
        if self.rounds is not None:
            return f"{r}轮（规程设定）", f"{r} rounds (set)"
        raw = math.ceil(math.log2(n)) + 2 if n >= 2 else 0
        return (f"{r}轮（{n}人：⌈log2 {n}⌉+2={raw}，至少5轮，不超过循环赛轮数；第1轮前可修改）",
                f"{r} rounds ({n} entrants: ceil(log2 {n})+2={raw}, at least 5, at most a round "
                f"robin; editable before round 1)")

    def field_warnings(self, state: StageState) -> list[str]:
        """Before round 1: more rounds than ``n`` entrants can play without a rematch (a round
        robin: n−1 rounds, n when odd with one bye each, 象棋竞赛规则 14.3 “不重复相遇”); the
        draw would then stop at a round with no rematch-free pairing. Chinese texts."""
        n = sum(1 for e in state.entrants if e.join_round <= 1)
        total = self.total_rounds(state) or 0
        most = n if n % 2 else n - 1
        if n < 2 or total <= most:
            return []
        need = total if total % 2 else total + 1  # the fewest entrants that can play them
        return [f"{n} 队最多只能进行 {most} 轮不重复相遇的比赛（{'单数队每轮一队轮空，' if n % 2 else ''}"
                f"同一队不轮空两次），规程定为 {total} 轮：第 {most + 1} 轮将无法编排；"
                f"请把轮次减至 {most} 轮，或增至至少 {need} 队"]

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
                if place_of(rec["rank"]) is None:
                    continue  # an entrant left without a place (results annulled) has none
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
            ms = _dutch_round(state, self, rnd, total, rng)
            return ms + late_entry_matches(state, self, rnd, len(ms) + 1)
        if rnd == 1:
            # round 1 follows the seed/rating order (福建围棋 四（四）: 序号抽签后邻近编排 1-2、3-4):
            # a ranking of a field that has not played orders nobody (its ties are lots)
            state = dataclasses.replace(state, standings={})
        infos = player_infos(state, self, rnd)
        absent = set(self.requested_byes.get(rnd, []))
        if rnd == 1:
            pairs, bye = _first_round(infos, self, rng)
        else:
            pairs, bye = pair_players(infos, self, rounds_after=total - rnd)
            pairs = [allocate_colours(a, b, self, table=i)
                     for i, (a, b) in enumerate(pairs, start=1)]
        ms = _matches(rnd, pairs, bye, sorted(absent), infos)
        return ms + late_entry_matches(state, self, rnd, len(ms) + 1)


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


def late_entry_matches(state: StageState, fmt: "IndividualSwiss", rnd: int, first_table: int
                       ) -> list[Match]:
    """One 迟报 bye match per entrant who joins after round ``rnd`` (tables from
    ``first_table``), so the round missed is on the sheets, scores the ``late_entry`` credit in
    the standings (积分) and counts as an unplayed round for the tie-breaks (C.07 Art. 16)."""
    label = LATE_ENTRY_LABELS[fmt.late_entry]
    late = sorted(e.number for e in state.entrants if e.join_round > rnd)
    return [Match(round=rnd, table=first_table + i, sides=(n, None), label=label)
            for i, n in enumerate(late)]


register_format(IndividualSwiss, "积分编排", "瑞士制", "个人积分编排")
