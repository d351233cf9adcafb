"""Round-robin formats of the competition core: Berger round robins and explicit fixture lists.

Two :class:`~bianpai.engines.core.Format` models, both per pool (小组):

* :class:`RoundRobinStage` (``round_robin``, 单循环/循环赛): every entrant of a pool meets every
  other, rounds from the FIDE Berger tables (Handbook C.05 Annex 1, :func:`berger_rounds`),
  ``cycles=2`` for a double round robin (second cycle with home/away reversed), a bye for odd
  pools.
* :class:`FixtureListStage` (``fixture_list``, 指定对阵): the fixtures exactly as a 规程 lists
  them, in pool-position terms (``"1vs2"``, ``"A1vsA2"``, ``"1-2"``). Example: Qingdao gouji 2015
  七（一）1 lists for each group the six matches A1vsA2、A2vsA3、A3vsA4、A4vsA5、A5vsA6、A6vsA1 (a
  cycle, not the 15 matches of a full round robin, although the heading says 单循环; both
  formats exist and the preset chooses, see :data:`QINGDAO_GROUP_CYCLE`).

Positions → entrants: within a pool, entrants are ordered by ``seed`` (unseeded last) then by
pairing number; position 1 is the first of that order (:func:`pool_order`).

A pool's next round is drawn only when every match of its previous round has a result; pools
go on independently (``next_round`` returns the next round of every pool that can go on). An
entrant that withdrew (``StageEntrant.withdrawn_after`` < round) keeps its place in the
schedule: the scoring makes those matches forfeits won by the opponents (and the regulation's
withdrawal setting may annul them all), as a round robin's crosstable shows them.
Placings are the pool's ``state.standings`` order (shared ranks stay shared).
"""

from __future__ import annotations

import random
import re
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bianpai.engines.core import (Match, NotReady, Reason, StageEntrant, StageState,
                                  register_format)
from bianpai.engines.errors import RuleError
from bianpai.engines.round_robin import berger_rounds
from bianpai.engines.typed_rows import place_of

__all__ = ["RoundRobinStage", "FixtureListStage", "pool_order", "parse_fixture",
           "parse_fixture_text", "pack_rounds", "QINGDAO_GROUP_CYCLE", "QINGDAO_NINE",
           "QINGDAO_FINAL_FOUR", "QINGDAO_AMATEUR_SIX"]

#: a round: (home position, away position or None for a bye), in table order
PosRound = list[tuple[int, int | None]]

HOME_AWAY = (("主队", "Home"), ("客队", "Away"))


def pool_order(state: StageState, pool: str | None) -> list[StageEntrant]:
    """The entrants of ``pool`` in position order: by ``seed`` (1 first, unseeded last), then by
    pairing ``number``. Position ``k`` (from 1) is element ``k − 1``."""
    return sorted(state.pool_entrants(pool),
                  key=lambda e: (e.seed is None, e.seed if e.seed is not None else 0, e.number))


def _pool_name(pool: str | None) -> str:
    return f"{pool}组" if pool is not None else "本阶段"


def _pool_en(pool: str | None) -> str:
    return f"pool {pool}" if pool is not None else "the stage"


class _PoolStage(BaseModel):
    """Shared engine of the position-schedule formats: subclasses give ``_schedule(pool, n)``
    (a list of rounds of position pairs); this drives rounds, readiness, byes and placings."""

    model_config = ConfigDict(extra="forbid")

    side_labels: ClassVar[tuple[tuple[str, str], ...]] = HOME_AWAY

    def _schedule(self, pool: str | None, n: int) -> list[PosRound]:  # pragma: no cover
        raise NotImplementedError

    def _label(self, pool: str | None, a: int, b: int | None) -> str:
        p = pool or ""
        return f"{p}{a}vs{p}{b}" if b is not None else f"{p}{a}轮空"

    # -- Format methods
    def total_rounds(self, state: StageState) -> int | None:
        """Rounds of the longest pool's schedule (0 without entrants)."""
        return max((len(self._schedule(p, len(state.pool_entrants(p)))) for p in state.pools()),
                   default=0)

    def _pool_status(self, state: StageState, pool: str | None):
        order = pool_order(state, pool)
        sched = self._schedule(pool, len(order))
        done = state.rounds_drawn(pool)
        return order, sched, done

    def next_round(self, state: StageState, rng: random.Random | None = None) -> list[Match]:
        """Matches of the next round of every pool that can go on, pool by pool in entrant order.

        Table numbers count within (pool, round), real matches first, then byes. ``label`` is the
        规程's name, e.g. ``"A1vsA2"``. Raises :class:`NotReady` when no pool can go on because
        results are missing, ``RuleError`` when every pool has played its whole schedule (or a
        schedule is invalid for the pool's size).
        """
        out: list[Match] = []
        reasons: list[Reason] = []
        for pool in state.pools():
            order, sched, done = self._pool_status(state, pool)
            if done >= len(sched):
                continue
            missing = state.missing(done) if done else []
            missing = [m for m in missing if m.pool == pool]
            if missing:
                labels = "、".join(m.label or f"第{m.table}场" for m in missing)
                reasons.append(Reason(
                    "missing_results",
                    f"{_pool_name(pool)}第{done}轮尚缺成绩：{labels}",
                    f"{_pool_en(pool)} round {done} lacks results: {labels}"))
                continue
            out += self._round_matches(pool, order, sched, done + 1)
        if not out:
            if reasons:
                raise NotReady(reasons)
            raise RuleError("本阶段各组的全部轮次均已编排", "every round of every pool is drawn")
        return out

    def _round_matches(self, pool: str | None, order: list[StageEntrant],
                       sched: list[PosRound], rnd: int) -> list[Match]:
        """The matches of round ``rnd`` of one pool: real matches first, then byes."""
        real, byes = [], []
        for a, b in sched[rnd - 1]:
            ea = order[a - 1] if a is not None else None
            eb = order[b - 1] if b is not None else None
            sa = ea.number if ea is not None else None
            sb = eb.number if eb is not None else None
            if sa is None and sb is None:
                continue
            if sa is None:  # keep the one who plays in side 0 for a bye
                sa, sb, a, b = sb, None, b, a
            (byes if sb is None else real).append((sa, sb, a, b if sb is not None else None))
        return [Match(round=rnd, table=t, sides=(sa, sb), pool=pool,
                      label=self._label(pool, a, b))
                for t, (sa, sb, a, b) in enumerate(real + byes, start=1)]

    def whole_schedule(self, state: StageState) -> list[Match]:
        """Every round not yet drawn of every pool, at once: a position schedule fixes all the
        pairings as soon as the positions are drawn (深圳掼牌 九 "编号对阵在第一轮比赛前抽签确定"; a
        workbook whose 对阵 lists the whole event draws them so). Results are not awaited.
        Raises ``RuleError`` when every round is drawn."""
        out: list[Match] = []
        for pool in state.pools():
            order, sched, done = self._pool_status(state, pool)
            for rnd in range(done + 1, len(sched) + 1):
                out += self._round_matches(pool, order, sched, rnd)
        if not out:
            raise RuleError("本阶段各组的全部轮次均已编排", "every round of every pool is drawn")
        return out

    def finished(self, state: StageState) -> bool:
        """Every pool's schedule is drawn and every drawn match has its result."""
        for pool in state.pools():
            _, sched, done = self._pool_status(state, pool)
            if done < len(sched):
                return False
        return not state.missing()

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places per pool from ``state.standings[pool]`` (``rank`` → ``place``, shared ranks
        stay shared). Columns ``entrant`` (int), ``pool``, ``place`` (int), ``decided_by``
        (``"小组排名"``, or ``"循环赛排名"`` without pools). Raises ``RuleError`` when a pool has no
        standings."""
        rows = []
        for pool in state.pools():
            table = state.standings.get(pool)
            if table is None:
                raise RuleError(f"{_pool_name(pool)}尚无排名，无法确定名次",
                                f"{_pool_en(pool)} has no standings; places cannot be given")
            how = "小组排名" if pool is not None else "循环赛排名"
            for r in table.itertuples(index=False):
                if place_of(r.rank) is None:
                    continue  # an entrant left without a place (e.g. disqualified) has none
                rows.append({"entrant": int(r.entrant), "pool": pool, "place": int(r.rank),
                             "decided_by": how})
        df = pd.DataFrame(rows, columns=["entrant", "pool", "place", "decided_by"])
        return df.astype({"entrant": int, "place": int}) if len(df) else df


# ------------------------------------------------------------------------------ round robin

class RoundRobinStage(_PoolStage):
    """单循环 per pool from the FIDE Berger tables (Handbook C.05 Annex 1, as
    :func:`bianpai.engines.round_robin.berger_rounds`).

    Settings: ``cycles`` (1 = single, 2 = double round robin; even cycles reverse home/away),
    ``clause``/``note``. An odd pool gets one bye per round (the Berger table of n + 1 with the
    last number as the bye). Position k of a pool = the k-th entrant of :func:`pool_order`.
    Sources: FIDE C.05 Annex 1; Qingdao gouji 2015 七（一）2/3, 七（二） ("循环赛").
    """

    kind: Literal["round_robin"] = "round_robin"
    cycles: int = Field(1, ge=1, le=4)
    # the most rounds the 规程 allows (深圳 八（一）: at most 7) and the boards a round has
    # (pairs events): settings of the same round robin in every pipeline
    max_rounds: int | None = Field(None, ge=1)
    min_boards_per_round: int | None = Field(None, ge=1)
    boards_per_round: int = Field(6, ge=1)
    clause: str | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _enough_boards(self):
        if self.min_boards_per_round and self.boards_per_round < self.min_boards_per_round:
            raise ValueError(f"每轮牌数 {self.boards_per_round} 少于规程要求的 {self.min_boards_per_round} 副 / "
                             f"boards per round below the minimum {self.min_boards_per_round}")
        return self

    def field_problems(self, state: StageState) -> list[str]:
        """Before the draw: a pool whose round robin needs more rounds than the 规程 allows
        (``max_rounds``, 深圳 八（一）: at most 7; n − 1 rounds per cycle, n when n is odd).
        Chinese texts, one per pool; empty without the setting."""
        out = []
        for pool in state.pools() if self.max_rounds else []:
            n = len(state.pool_entrants(pool))
            need = (n if n % 2 else n - 1) * self.cycles
            if n >= 2 and need > self.max_rounds:
                out.append(f"{_pool_name(pool)} {n} 个参赛单位单循环需 {need} 轮，"
                           f"超过规程允许的 {self.max_rounds} 轮")
        return out

    def _schedule(self, pool: str | None, n: int) -> list[PosRound]:
        if n < 2:
            raise RuleError(f"{_pool_name(pool)}只有 {n} 个参赛单位，无法循环",
                            f"{_pool_en(pool)} has {n} entrant(s); no round robin possible")
        base = berger_rounds(n)
        out: list[PosRound] = []
        for c in range(self.cycles):
            for boards in base:
                real = [(a, b) for a, b in boards if b is not None]
                byes = [(a, b) for a, b in boards if b is None]
                if c % 2 == 1:
                    real = [(b, a) for a, b in real]
                out.append(real + byes)
        return out


register_format(RoundRobinStage, "单循环", "循环赛", "双循环")


# ------------------------------------------------------------------------------ fixture list

_FIX = re.compile(r"^\s*([A-Za-z]*)\s*(\d+)\s*(?:vs|v|-|–|—|:|：|对)\s*([A-Za-z]*)\s*(\d+)\s*$",
                  re.IGNORECASE)
_SPLIT = re.compile(r"[/、,，;；\s]+")


def parse_fixture(text: str, pool: str | None = None) -> tuple[int, int]:
    """``"A1vsA2"``, ``"1vs2"``, ``"3Vs8"``, ``"1-2"``, ``"1对2"`` → ``(1, 2)`` (positions).

    A letter prefix must name ``pool`` when ``pool`` is given (``"B1vsB2"`` in pool A is an
    error). Raises ``RuleError`` for text that is not a fixture or a position playing itself.
    """
    m = _FIX.match(str(text))
    if not m:
        raise RuleError(f"无法识别的对阵“{text}”（应写作 1vs2 或 A1vsA2）",
                        f"cannot read fixture {text!r} (write 1vs2 or A1vsA2)")
    pa, a, pb, b = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
    for p in (pa, pb):
        if p and pool is not None and p.upper() != str(pool).upper():
            raise RuleError(f"对阵“{text}”写的是{p}组，不是{pool}组",
                            f"fixture {text!r} names pool {p}, not pool {pool}")
    if a == b or a < 1 or b < 1:
        raise RuleError(f"对阵“{text}”无效：位置须为不同的正整数",
                        f"fixture {text!r} is invalid: positions must be distinct and ≥ 1")
    return a, b


def parse_fixture_text(text: str) -> list[str]:
    """Split a 规程's fixture line (``"1vs2/1vs3/…"`` or ``"A1vsA2、A2vsA3、…"``) into items."""
    return [t for t in _SPLIT.split(text.strip()) if t]


def pack_rounds(pairs: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Greedy first-fit packing in listed order: each fixture goes into the earliest round in
    which neither position plays yet (a new round when none). Deterministic; keeps the listed
    order inside each round. Example: the cycle 1-2, 2-3, 3-4, 4-5, 5-6, 6-1 gives
    [[1-2, 3-4, 5-6], [2-3, 4-5, 6-1]]."""
    rounds: list[list[tuple[int, int]]] = []
    busy: list[set[int]] = []
    for a, b in pairs:
        for i, used in enumerate(busy):
            if a not in used and b not in used:
                rounds[i].append((a, b))
                used.update((a, b))
                break
        else:
            rounds.append([(a, b)])
            busy.append({a, b})
    return rounds


class FixtureListStage(_PoolStage):
    """指定对阵: the 规程's explicit fixture list per pool, in pool positions.

    Settings:

    * ``fixtures``: the list used by every pool (items like ``"1vs2"``/``"A1vsA2"``/``"1-2"``;
      a whole 规程 line ``"1vs2/1vs3/…"`` is split too). Listed first = home (side 0).
    * ``pool_fixtures``: a pool's own list (pool label → list), overriding ``fixtures``. A pool
      letter written in an item (``"A1vsA2"``) must name that pool; in ``fixtures`` (shared by
      every pool) letters are ignored.
    * ``rounds``: an explicit split into rounds, each a list of fixtures (every listed fixture
      exactly once; applies to every pool). ``None`` (default): split by ``packing``.
    * ``packing``: ``"auto"`` (default) = a list that is a complete round robin of the pool is
      played in the FIDE Berger rounds (the minimum number of rounds, n − 1 or n), each match
      with home/away as listed; any other list by ``"first_fit"`` = greedy packing in listed
      order (:func:`pack_rounds`: nobody plays twice in a round, each fixture in the earliest
      round where both are free). ``"berger"`` forces Berger rounds (a RuleError unless the
      list is complete).
    * ``clause``/``note``.

    The 规程 lists fixtures but not rounds (Qingdao 七（一）1/2/3, 七（二）). With ``auto``: the
    6-team cycle of 七（一）1 → 2 rounds of 3 (A1–A2, A3–A4, A5–A6 | A2–A3, A4–A5, A6–A1); the
    9-team list of 七（一）2 → 9 Berger rounds of 4 (one bye each); 七（一）3 → 3 rounds; the
    6-team list of 七（二） → 5 rounds. (Plain first-fit in listed order would take 15 and 7
    rounds for the last two: the reason for ``auto``.)

    Validation (``RuleError``, Chinese and English): unreadable fixture, a position playing itself,
    a pair listed twice (either order), a position beyond the pool's size, a pool entrant listed
    in no fixture, a position twice in an explicit round, explicit rounds not matching the list.
    In Berger rounds an odd pool's idle entrant has a bye match each round, as in a round robin
    (scored by the scoring's ``bye``); packed otherwise, idle entrants get none (the list has
    none, and a round may leave several idle); a withdrawn entrant's later
    fixtures stay and are scored as forfeits (see the module text).
    """

    kind: Literal["fixture_list"] = "fixture_list"
    fixtures: list[str] = Field(default_factory=list)
    pool_fixtures: dict[str, list[str]] = Field(default_factory=dict)
    rounds: list[list[str]] | None = None
    packing: Literal["auto", "first_fit", "berger"] = "auto"
    clause: str | None = None
    note: str | None = None

    @field_validator("fixtures", mode="before")
    @classmethod
    def _split_text(cls, v):
        return parse_fixture_text(v) if isinstance(v, str) else v

    @field_validator("pool_fixtures", mode="before")
    @classmethod
    def _split_pool_text(cls, v):
        if isinstance(v, dict):
            return {k: parse_fixture_text(x) if isinstance(x, str) else x for k, x in v.items()}
        return v

    @model_validator(mode="after")
    def _static_check(self):
        try:
            if not self.fixtures and not self.pool_fixtures:
                raise RuleError("指定对阵表为空", "the fixture list is empty")
            if self.fixtures:
                self.pairs(None)
            for p in self.pool_fixtures:
                self.pairs(p)
        except RuleError as exc:
            raise ValueError(exc.text) from exc
        return self

    def pairs(self, pool: str | None) -> list[tuple[int, int]]:
        """The listed fixtures of ``pool`` as position pairs, validated (``RuleError``)."""
        items = self.pool_fixtures.get(pool, self.fixtures) if pool is not None else self.fixtures
        out: list[tuple[int, int]] = []
        seen: dict[frozenset, str] = {}
        for it in items:
            a, b = parse_fixture(it, pool if pool in self.pool_fixtures else None)
            key = frozenset((a, b))
            if key in seen:
                raise RuleError(f"{_pool_name(pool)}对阵“{it}”与“{seen[key]}”重复",
                                f"{_pool_en(pool)}: fixture {it!r} repeats {seen[key]!r}")
            seen[key] = it
            out.append((a, b))
        return out

    def _schedule(self, pool: str | None, n: int) -> list[PosRound]:
        pairs = self.pairs(pool)
        listed = {p for ab in pairs for p in ab}
        too_big = sorted(p for p in listed if p > n)
        if too_big:
            raise RuleError(
                f"{_pool_name(pool)}只有 {n} 个参赛单位，对阵表中的位置 {too_big} 不存在（规程的对阵表"
                f"按 {max(listed)} 个位置编排）：请补足报名，或在“规程”表把该阶段赛制的 kind 改为 "
                f"round_robin（单循环）",
                f"{_pool_en(pool)} has {n} entrants; positions {too_big} of the list do not exist "
                f"(the list is for {max(listed)}): complete the field, or set the stage's format "
                f"kind to round_robin on the 规程 sheet")
        idle = [k for k in range(1, n + 1) if k not in listed]
        if idle:
            raise RuleError(f"{_pool_name(pool)}的位置 {idle} 未出现在对阵表中",
                            f"{_pool_en(pool)}: positions {idle} have no fixture in the list")
        if self.rounds is not None:
            return self._explicit(pool, pairs)
        complete = len(pairs) == n * (n - 1) // 2  # no pair repeats, all positions ≤ n
        if self.packing == "berger" or (self.packing == "auto" and complete):
            if not complete:
                raise RuleError(f"{_pool_name(pool)}的对阵表不是完整的单循环，不能按贝格尔表分轮",
                                f"{_pool_en(pool)}: the list is not a full round robin; "
                                f"Berger rounds impossible")
            listed = {frozenset(p): p for p in pairs}
            # an odd pool's Berger bye sits out as in a round robin (轮空 on 对阵, 桌卡 …)
            return [[listed[frozenset((a, b))] for a, b in rnd if b is not None]
                    + [(a, b) for a, b in rnd if b is None] for rnd in berger_rounds(n)]
        return [list(r) for r in pack_rounds(pairs)]

    def _explicit(self, pool, pairs) -> list[PosRound]:
        index = {frozenset(p): p for p in pairs}
        used: set[frozenset] = set()
        out: list[PosRound] = []
        for k, rnd in enumerate(self.rounds or [], start=1):
            busy: set[int] = set()
            this: PosRound = []
            for it in rnd:
                a, b = parse_fixture(it, None)
                key = frozenset((a, b))
                if key not in index:
                    raise RuleError(f"第{k}轮的“{it}”不在对阵表中",
                                    f"round {k}: {it!r} is not in the fixture list")
                if key in used:
                    raise RuleError(f"第{k}轮的“{it}”已在前面的轮次中出现",
                                    f"round {k}: {it!r} was already scheduled")
                if a in busy or b in busy:
                    raise RuleError(f"第{k}轮中位置 {a if a in busy else b} 出场两次",
                                    f"round {k}: position {a if a in busy else b} plays twice")
                busy.update((a, b))
                used.add(key)
                this.append(index[key])  # home/away as listed in the fixture list
            out.append(this)
        left = [f"{a}vs{b}" for a, b in pairs if frozenset((a, b)) not in used]
        if left:
            raise RuleError(f"对阵 {left} 未排入任何一轮", f"fixtures {left} are in no round")
        return out


register_format(FixtureListStage, "指定对阵", "对阵表")


# ------------------------------------------------------------------------------ the 规程's lists

#: 七（一）1 A组：A1vsA2、A2vsA3、A3vsA4、A4vsA5、A5vsA6、A6vsA1 (B, C the same with B/C)
QINGDAO_GROUP_CYCLE = ["1vs2", "2vs3", "3vs4", "4vs5", "5vs6", "6vs1"]
#: 七（一）2 四强循环赛, the 36 fixtures as written (including "3Vs8")
QINGDAO_NINE = parse_fixture_text(
    "1vs2/1vs3/1vs4/1vs5/1vs6/1vs7/1vs8/1vs9/2vs3/2vs4/2vs5/2vs6/2vs7/2vs8/2vs9/3vs4/3vs5/3vs6/"
    "3vs7/3Vs8/3vs9/4vs5/4vs6/4vs7/4vs8/4vs9/5vs6/5vs7/5vs8/5vs9/6vs7/6vs8/6vs9/7vs8/7vs9/8vs9")
#: 七（一）3 决赛
QINGDAO_FINAL_FOUR = parse_fixture_text("1vs2/1vs3/1vs4/2vs3/2vs4/3vs4")
#: 七（二） 业余组 last six
QINGDAO_AMATEUR_SIX = parse_fixture_text(
    "1vs2/1vs3/1vs4/1vs5/1vs6/2vs3/2vs4/2vs5/2vs6/3vs4/3vs5/3vs6/4vs5/4vs6/5vs6")
