"""Mitchell movement (米切尔/米歇尔) for duplicate pairs events: NS stationary, EW up, boards down.

Every table has a North–South (南北) pair that never moves and an East–West (东西) pair that moves
up one table each round (N → 1), while the board sets (牌套) move down one table (1 → N). The NS
pairs form one ranking and the EW pairs another (双冠军). With an **odd** number of tables this
gives ``n`` rounds in which every EW pair meets every NS pair once and plays every board set
once. With an **even** number of tables the plain rotation would repeat board sets after
``n/2`` rounds; the 规程 setting ``even_tables`` chooses the standard fix:

* ``skip`` (default): after round ``n/2`` the EW pairs skip one table (move up two); at most
  ``n − 1`` rounds, each EW pair misses one NS pair;
* ``relay``: share-and-relay — tables 1 and ``n`` share a board set and a relay (bye) stand
  between tables ``n/2`` and ``n/2 + 1`` holds the idle set; ``n`` rounds, everyone meets.

Sources: fujian-elder-mind-games-2024 扑克牌升级（80分）比赛规则 一2（计副制米切尔比赛方法（双冠军）),
一3（比赛轮数及副数将根据报名人数确定。每副牌比赛时间12分钟）, 一5（第一轮对阵赛前由电脑抽签后…
南北1号对东西1号在第1桌…南北方向不移动座位，所打的牌由南北方向选手往低号桌传，东西选手按裁判要求进行移位）;
research/scoring-anchors.md §4 (bridgecentral.com Mitchell organisation, relay Mitchell).

Entrants: a stage entrant is one **pair** whose direction is its ``pool`` (``"NS"``/``"EW"``, also
``南北``/``东西``); the unit's team of 4 is its NS pair plus its EW pair (:class:`MitchellPair`,
:func:`team_pairs`). Matches have ``pool=None`` (they mix the two rankings), ``sides = (NS, EW)``
(``None`` for a missing pair: that pair sits out) and a ``label`` naming the board set and the
board numbers (``"牌套3 第9-12副"``; :func:`boards_from_label` reads it back).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import (Match, NotReady, Reason, StageEntrant, StageState,
                                  register_format)
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.typed_rows import place_of

__all__ = ["Mitchell", "MitchellPair", "team_pairs", "movement_table", "max_rounds",
           "boards_from_label", "direction_of", "NS", "EW"]

NS, EW = "NS", "EW"
_DIRECTIONS = {"NS": NS, "南北": NS, "N/S": NS, "EW": EW, "东西": EW, "E/W": EW}
DIRECTION_ZH = {NS: "南北", EW: "东西"}


def direction_of(pool: str | None) -> str:
    """``"NS"`` or ``"EW"`` for a pool/direction label (``NS``, ``南北``, ``EW``, ``东西``).

    Raises ``InputError`` for anything else."""
    key = "" if pool is None else str(pool).strip()
    key = key if key in _DIRECTIONS else key.upper()
    if key not in _DIRECTIONS:
        raise InputError(f"米切尔赛的方向须为 南北 或 东西，而不是「{pool}」",
                         f"a Mitchell pair's direction must be NS or EW, not {pool!r}")
    return _DIRECTIONS[key]


@dataclass(frozen=True)
class MitchellPair:
    """One pair of a Mitchell field: its stage ``number`` (int), ``direction`` (``NS``/``EW``),
    the ``team`` (参赛队, a unit's team of 4 = its NS pair + its EW pair) and ``unit`` (单位)
    it belongs to, and its two ``players``. Source: fujian 总规程 六（一）3（1）(each unit one team
    of 4), 80分 规则 一2 (双冠军)."""

    number: int
    direction: str
    team: str | None = None
    unit: str | None = None
    players: tuple[str, ...] = ()

    def entrant(self, seed: int | None = None) -> StageEntrant:
        """The :class:`StageEntrant` (``pool`` = direction, ``unit`` = unit)."""
        return StageEntrant(number=self.number, pool=direction_of(self.direction), seed=seed,
                            unit=self.unit)


def team_pairs(team: str, ns_number: int, ew_number: int, players: tuple[str, ...] | list[str],
               unit: str | None = None) -> tuple[MitchellPair, MitchellPair]:
    """Split a team of 4 ``players`` (order: NS, NS, EW, EW) into its NS and EW pairs.

    Raises ``InputError`` unless exactly 4 players are given (六（一）3（1）: 每单位限报1队，运动员4名)."""
    players = tuple(p for p in players if p and str(p).strip())
    if len(players) != 4:
        raise InputError(f"参赛队「{team}」须有 4 名运动员（南北、东西各一对），现有 {len(players)} 名",
                         f"team {team!r} needs 4 players (an NS pair and an EW pair), "
                         f"has {len(players)}")
    return (MitchellPair(ns_number, NS, team, unit, players[:2]),
            MitchellPair(ew_number, EW, team, unit, players[2:]))


def max_rounds(tables: int, even_tables: str = "skip") -> int:
    """Most rounds a Mitchell of ``tables`` tables can have without a repeat: ``tables`` when
    odd (or with a relay), ``tables − 1`` with the skip."""
    if tables < 1:
        raise RuleError("米切尔赛至少需要 1 张桌", "a Mitchell needs at least one table")
    return tables - 1 if tables % 2 == 0 and even_tables == "skip" and tables > 1 else tables


def _relay_positions(n: int) -> list:
    """Board-travel order of the share-and-relay positions: shared 1/n, n−1 … n/2+1, relay,
    n/2 … 2 (each round every set moves one place on)."""
    return ["S", *range(n - 1, n // 2, -1), "R", *range(n // 2, 1, -1)]


def movement_table(tables: int, rounds: int | None = None, boards_per_round: int = 1, *,
                   even_tables: Literal["skip", "relay"] = "skip") -> pd.DataFrame:
    """The Mitchell movement sheet (and the table cards, read per table).

    ``tables``: number of tables (≥ 1); ``rounds``: default :func:`max_rounds`; raises
    ``RuleError`` when more rounds are asked than the movement allows without a repeat.
    ``boards_per_round``: boards in one set (set ``s`` holds boards
    ``(s−1)·bpr + 1 … s·bpr``). ``even_tables``: ``skip`` or ``relay`` (ignored for odd tables).

    Returns one row per round and table, columns ``round`` (int), ``table`` (int), ``ns`` (int:
    NS pair number = its table), ``ew`` (int: EW pair number = its round-1 table), ``board_set``
    (int), ``first_board``, ``last_board`` (int), ``boards`` (str, ``"9-12"``), ``shared_with``
    (Int64: the other table playing the same set this round, relay only), ``relay_set`` (Int64:
    the set on the relay stand this round, relay only).
    """
    if boards_per_round < 1:
        raise RuleError("每轮副数须至少为 1", "boards per round must be at least 1")
    n = tables
    limit = max_rounds(n, even_tables)
    rounds = limit if rounds is None else rounds
    if not 1 <= rounds <= limit:
        raise RuleError(f"{n} 张桌的米切尔赛最多 {limit} 轮（不重复对手和牌套），不能排 {rounds} 轮",
                        f"a {n}-table Mitchell has at most {limit} rounds without repeats, "
                        f"not {rounds}")
    relay = n % 2 == 0 and even_tables == "relay" and n >= 4
    rows = []
    if relay:
        q = _relay_positions(n)
        # label sets so that in round 1 table t plays set t (t < n) and the relay holds set n
        label = {i: (n if p == "R" else 1 if p == "S" else p) for i, p in enumerate(q)}
        index = {p: i for i, p in enumerate(q)}
    for r in range(1, rounds + 1):
        skip = 1 if (n % 2 == 0 and not relay and r > n // 2) else 0
        relay_set = None
        if relay:
            relay_set = label[(index["R"] - (r - 1)) % n]
        for t in range(1, n + 1):
            ew = ((t - 1) - (r - 1) - skip) % n + 1
            if relay:
                pos = "S" if t in (1, n) else t
                s = label[(index[pos] - (r - 1)) % n]
                shared = (n if t == 1 else 1) if t in (1, n) else None
            else:
                s = ((t - 1) + (r - 1)) % n + 1
                shared = None
            first = (s - 1) * boards_per_round + 1
            last = s * boards_per_round
            rows.append({"round": r, "table": t, "ns": t, "ew": ew, "board_set": s,
                         "first_board": first, "last_board": last,
                         "boards": f"{first}-{last}" if last > first else f"{first}",
                         "shared_with": shared, "relay_set": relay_set})
    df = pd.DataFrame(rows)
    df["shared_with"] = df["shared_with"].astype("Int64")
    df["relay_set"] = df["relay_set"].astype("Int64")
    return df


_LABEL = re.compile(r"牌套\s*(\d+)\s*第\s*(\d+)(?:\s*[-–~至]\s*(\d+))?\s*副")


def boards_from_label(label: str | None) -> tuple[int, ...]:
    """The board numbers named in a Mitchell match label (``"牌套3 第9-12副"`` → 9 … 12).

    Raises ``InputError`` when the label names no boards (a hand-edited 对阵 row)."""
    m = _LABEL.search(label or "")
    if not m:
        raise InputError(f"对阵标签「{label}」中没有牌套和副数（应如「牌套3 第9-12副」）",
                         f"match label {label!r} names no board set (expected like "
                         f"'牌套3 第9-12副')")
    a = int(m.group(2))
    b = int(m.group(3) or a)
    return tuple(range(a, b + 1))


class Mitchell(BaseModel):
    """Mitchell pairs movement (kind ``mitchell``; aliases 米切尔, 米歇尔, 米切尔赛).

    Settings: ``rounds`` (None: the most the field allows, :func:`max_rounds`, capped by the
    session time), ``boards_per_round`` (None: from the session time: ⌊sessions ·
    session_minutes / (minutes_per_board · rounds)⌋, at least ``min_boards_per_round``),
    ``minutes_per_board`` (12: 一3 每副牌比赛时间12分钟), ``sessions``/``session_minutes``
    (2 days × morning and afternoon: 一3), ``even_tables`` (``skip`` | ``relay``),
    ``draw`` (``lot``: round-1 pair numbers by computer lot, 一5, with a unit's two pairs kept
    apart where the movement lets them miss each other; ``seed``: by typed seeds / entrant
    order). Tables = the larger direction; a pair without an opponent sits out
    (its side in the match is ``None``).

    The direction number of a pair (NS k sits at table k; EW k starts at table k) is drawn in
    round 1 and read back from the round-1 matches afterwards, so the format stays stateless.
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["mitchell"] = "mitchell"
    rounds: int | None = Field(None, ge=1)
    boards_per_round: int | None = Field(None, ge=1)
    min_boards_per_round: int = Field(2, ge=1)
    minutes_per_board: int = Field(12, ge=1)
    sessions: int = Field(4, ge=1)
    session_minutes: int = Field(180, ge=1)
    even_tables: Literal["skip", "relay"] = "skip"
    draw: Literal["lot", "seed"] = "lot"
    clause: str | None = "扑克牌升级（80分）比赛规则 一2、一3、一5"
    note: str | None = ("轮数、每轮副数由报名人数和比赛时间确定（一3 未给公式）：默认轮数取不重复对手的最多轮，"
                        "每轮副数=⌊场次×每场分钟÷（12分钟×轮数）⌋；每场分钟数为读法（上午九点、下午二点开赛，"
                        "按每场180分钟计）。偶数桌默认第 n/2 轮后东西跳一桌（skip），可改为共用牌套+接力台（relay）。")

    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("南北", "NS"), ("东西", "EW"))
    #: the sides are the table's seats (NS stationary, EW moving): printed paper names them so
    #: whatever the event calls the sides of its other stages
    sides_are_seats: ClassVar[bool] = True
    #: the record columns its 排名 shows: 场数 alone (80分规则 二3 ranks by 比赛分之和, then the
    #: highest scores; a table's win, draw or loss decides nothing)
    standings_record: ClassVar[tuple[str, ...]] = ("played",)

    # ---------------------------------------------------------------- field
    def pairs(self, state: StageState) -> tuple[list[StageEntrant], list[StageEntrant]]:
        """(NS entrants, EW entrants) in stage order. Raises ``InputError`` for a bad direction
        and ``RuleError`` when a direction is empty."""
        ns = [e for e in state.entrants if direction_of(e.pool) == NS]
        ew = [e for e in state.entrants if direction_of(e.pool) == EW]
        if not ns or not ew:
            raise RuleError("米切尔赛南北、东西两个方向都须有参赛对",
                            "a Mitchell needs pairs in both directions (NS and EW)")
        return ns, ew

    def tables(self, state: StageState) -> int:
        ns, ew = self.pairs(state)
        return max(len(ns), len(ew))

    def total_rounds(self, state: StageState) -> int:
        """Rounds of the stage: ``rounds`` or the most the movement allows."""
        n = self.tables(state)
        limit = max_rounds(n, self.even_tables)
        if self.rounds is not None and self.rounds > limit:
            raise RuleError(f"{n} 张桌的米切尔赛最多 {limit} 轮，规程设定 {self.rounds} 轮",
                            f"a {n}-table Mitchell allows at most {limit} rounds, "
                            f"not {self.rounds}")
        return self.rounds or limit

    def board_count(self, state: StageState) -> int:
        """Boards per round (setting, or from the session time; see the class docstring)."""
        if self.boards_per_round:
            return self.boards_per_round
        total = self.sessions * self.session_minutes // self.minutes_per_board
        return max(self.min_boards_per_round, total // self.total_rounds(state))

    def movement(self, state: StageState) -> pd.DataFrame:
        """:func:`movement_table` for this field and these settings."""
        return movement_table(self.tables(state), self.total_rounds(state),
                              self.board_count(state), even_tables=self.even_tables)

    def numbering(self, state: StageState, rng: random.Random | None = None
                  ) -> tuple[dict[int, int | None], dict[int, int | None]]:
        """Direction number → entrant for NS and EW (``None`` for an empty seat).

        From the round-1 matches when drawn; otherwise drawn: ``lot`` shuffles each direction
        with ``rng`` (一5 第一轮对阵赛前由电脑抽签), ``seed`` orders by seed then number."""
        n = self.tables(state)
        first = [m for m in state.matches if m.round == 1]
        if first:
            ns_map = {m.table: m.sides[0] for m in first}
            ew_map = {m.table: m.sides[1] for m in first}
            return ({t: ns_map.get(t) for t in range(1, n + 1)},
                    {t: ew_map.get(t) for t in range(1, n + 1)})
        ns, ew = self.pairs(state)
        rng = rng or random.Random(state.seed)
        out = []
        for group in (ns, ew):
            nums = [e.number for e in sorted(group, key=lambda e: (e.seed is None, e.seed or 0,
                                                                   e.number))]
            if self.draw == "lot":
                rng.shuffle(nums)
            padded: list[int | None] = list(nums) + [None] * (n - len(nums))
            out.append({t: padded[t - 1] for t in range(1, n + 1)})
        if self.draw == "lot":
            out[1] = self._apart(state, out[0], out[1], rng)
        return out[0], out[1]

    def _apart(self, state: StageState, ns_no: dict, ew_no: dict, rng: random.Random) -> dict:
        """The lot's EW numbers, redrawn so that a unit's EW pair meets none of its own NS
        pairs (the unit's team of 4 does not play itself) as far as the movement allows: each EW
        pair gets the number whose NS opponents over the rounds hold the fewest pairs of its
        unit, ties by lot. The drawn numbers stand when no one meets its own unit."""
        unit = {e.number: e.unit for e in state.entrants}
        meets: dict[int, set[int]] = {}
        for row in self.movement(state).itertuples():
            meets.setdefault(int(row.ew), set()).add(int(row.ns))

        def clashes(pair: int | None, k: int) -> int:
            u = unit.get(pair) if pair is not None else None
            return 0 if u is None else sum(
                1 for t in meets.get(k, ()) if ns_no.get(t) is not None and unit[ns_no[t]] == u)

        if not any(clashes(p, k) for k, p in ew_no.items()):
            return ew_no
        import rustworkx as rx

        n = len(ew_no)
        pairs = [p for p in ew_no.values() if p is not None]
        g = rx.PyGraph()
        g.add_nodes_from(range(len(pairs) + n))
        spread = 1 << 20
        for i, p in enumerate(pairs):
            for k in range(1, n + 1):
                w = (n + 1 - clashes(p, k)) * spread * (n + 1) + rng.randrange(spread)
                g.add_edge(i, len(pairs) + k - 1, w)
        m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
        got: dict[int, int | None] = {k: None for k in range(1, n + 1)}
        for a, b in m:
            i, k = min(a, b), max(a, b) - len(pairs) + 1
            got[k] = pairs[i]
        return got

    @staticmethod
    def _seat(state: StageState, rnd: int, number: int | None, label: str
              ) -> tuple[int | None, str]:
        """A pair's seat in round ``rnd``: empty (``None``) after its last round when it withdrew
        (退赛), the label then saying so (the scoring reads it)."""
        if number is None:
            return None, label
        for e in state.entrants:
            if e.number == number and e.withdrawn_after is not None and rnd > e.withdrawn_after:
                return None, f"{label}（{number}号退赛）"
        return number, label

    def _match(self, state: StageState, row, ns_no: dict, ew_no: dict) -> Match:
        label = f"牌套{row.board_set} 第{row.boards}副"
        if not pd.isna(row.shared_with):
            label += f"，与第{int(row.shared_with)}桌共用"
        rnd = int(row.round)
        ns, label = self._seat(state, rnd, ns_no[int(row.ns)], label)
        ew, label = self._seat(state, rnd, ew_no[int(row.ew)], label)
        return Match(round=rnd, table=int(row.table), sides=(ns, ew), label=label)

    def plan(self, state: StageState) -> list[Match]:
        """Every round's matches as the movement fixes them once round 1 is drawn (the pair
        numbers are read back from round 1): the movement sheet and the table cards (一5 南北方向
        不移动座位，所打的牌由南北方向选手往低号桌传，东西选手按裁判要求进行移位). Empty before round 1."""
        if not any(m.round == 1 for m in state.matches):
            return []
        ns_no, ew_no = self.numbering(state)
        drawn = {m.key: m for m in state.matches}
        return [drawn.get((None, int(row.round), int(row.table)))
                or self._match(state, row, ns_no, ew_no)
                for row in self.movement(state).itertuples()]

    # ---------------------------------------------------------------- Format protocol
    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The matches of the next round, one per table: ``sides = (NS pair, EW pair)``,
        ``table`` = table number, ``label`` = ``"牌套s 第a-b副"`` (plus ``，与第k桌共用`` when
        shared). Raises ``NotReady`` while the previous round lacks results and ``RuleError``
        when every round is drawn."""
        done = state.rounds_drawn()
        total = self.total_rounds(state)
        if done >= total:
            raise RuleError(f"米切尔赛共 {total} 轮，已全部编排",
                            f"all {total} rounds of the Mitchell are drawn")
        missing = state.missing(done) if done else []
        if missing:
            raise NotReady([Reason("missing_results",
                                   f"第{done}轮第{m.table}桌尚未录入成绩",
                                   f"round {done} table {m.table} has no result yet")
                            for m in missing])
        ns_no, ew_no = self.numbering(state, rng)
        mv = self.movement(state)
        return [self._match(state, row, ns_no, ew_no)
                for row in mv[mv["round"] == done + 1].itertuples()]

    def finished(self, state: StageState) -> bool:
        """Every round drawn and every table with a pair on both sides has its result."""
        return state.rounds_drawn() >= self.total_rounds(state) and not state.missing()

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places per direction (两个排名：南北、东西): ``state.standings`` keyed by ``"NS"`` and
        ``"EW"`` (or 南北/东西), each with ``rank`` and ``entrant``. Columns ``entrant``, ``pool``
        (``NS``/``EW``), ``place``, ``decided_by``. Raises ``RuleError`` when a direction's
        standings are missing."""
        rows = []
        for d in (NS, EW):
            table = None
            for key, df in state.standings.items():
                if key is not None and direction_of(key) == d:
                    table = df
            if table is None:
                raise RuleError(f"缺少{DIRECTION_ZH[d]}方向的排名", f"no {d} standings given")
            for r in table.itertuples():
                if place_of(r.rank) is None:
                    continue  # an entrant left without a place (results annulled) has none
                rows.append({"entrant": int(r.entrant), "pool": d, "place": int(r.rank),
                             "decided_by": f"{DIRECTION_ZH[d]}排名"})
        return pd.DataFrame(rows, columns=["entrant", "pool", "place", "decided_by"])


register_format(Mitchell, "米切尔", "米歇尔", "米切尔赛", "米歇尔赛")
