"""Swiss pairing for team events, "高分对高分" (high against high), as CBA-style 规程 write it.

Reading taken (DESIGN.md, research/rule-texts.md §1.4, Fujian 2024 桥牌 六（二）（三）（四）):

* Round 1 (by number): teams of the same 地市/单位 meet each other first (paired within their unit in
  number order, as far as the unit's size allows), the rest play 1–2, 3–4, … by number.
* Later rounds (by score): teams are ordered by current total (carry-over included; ties by the
  previous stage's rank, then by number). The highest unpaired team meets the highest-placed team it
  has not met in this stage, as long as the rest can still be paired without rematches; otherwise
  the next one is tried (what a depth-first backtracking search over all pairings gives).
* No rematch within a stage. Only this stage's history is passed in, so opponents from earlier
  stages may meet again (Fujian 六（三）2).
* Odd field: in round 1 the highest number sits out; later the lowest-placed team that has not yet
  had a bye (if the rest cannot then be paired, the next lowest); at most one bye per team. The bye's
  VP is a 规程 setting applied by the scorer, not here.
* Home team (主队, North-South in the open room) = the team listed first: the higher-placed team,
  or in round 1 the lower number (Fujian 六（四）1, 3).
* Late entrants (e.g. quarter-final losers joining the consolation Swiss at round 3 with their
  carry-over) are simply part of ``entrants`` from that round on.

How (issue 13, "Speed"): "can the rest still be paired?" is a perfect-matching question on the
graph of pairs that have not met. One maximum matching is built per round (greedy, then repaired by
augmenting paths, Edmonds' blossom search) and kept while the round is paired top-down; accepting a
candidate that is not the kept partner is one partner swap or one augmenting-path search, so a
late round of 1,000 teams takes milliseconds, not minutes. The result is exactly the top-down rule
above (tests/test_swiss_topdown.py compares it with an exhaustive reference), and the engine is
complete: it raises only when no rematch-free pairing exists.

Output: a DataFrame ``table:int, home:int, away:Int64`` (NA = bye), table 1 = top; the bye row, if
any, comes last with the next table number (it occupies no real table).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Iterable, Sequence

import pandas as pd
from pydantic import BaseModel, ConfigDict, field_validator

from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.rounding import to_decimal

__all__ = ["SwissEntrant", "swiss_pairings", "standing_order", "history_from_rounds",
           "byes_from_rounds"]


class SwissEntrant(BaseModel):
    """One team in a Swiss round: number (队号), unit (地市/单位), current total VP."""

    model_config = ConfigDict(frozen=True)

    team: int
    unit: str | None = None
    total: Decimal = Decimal("0")
    prev_rank: int | None = None
    had_bye: bool = False

    @field_validator("total", mode="before")
    @classmethod
    def _total_decimal(cls, v):
        if v is None or (isinstance(v, float) and v != v):
            return Decimal("0")
        return to_decimal(v)

    @field_validator("unit", mode="before")
    @classmethod
    def _unit_blank(cls, v):
        if v is None or (isinstance(v, float) and v != v):
            return None
        s = str(v).strip()
        return s or None

    @field_validator("prev_rank", mode="before")
    @classmethod
    def _rank_blank(cls, v):
        if v is None or v is pd.NA or (isinstance(v, float) and v != v):
            return None
        return int(v)

    @field_validator("had_bye", mode="before")
    @classmethod
    def _bye_blank(cls, v):
        if v is None or v is pd.NA or (isinstance(v, float) and v != v):
            return False
        return bool(v)


def _coerce_entrants(entrants) -> list[SwissEntrant]:
    if isinstance(entrants, pd.DataFrame):
        rows = entrants.to_dict("records")
    else:
        rows = list(entrants)
    out: list[SwissEntrant] = []
    for row in rows:
        if isinstance(row, SwissEntrant):
            out.append(row)
        else:
            try:
                out.append(SwissEntrant.model_validate(dict(row)))
            except Exception as exc:  # pydantic ValidationError or bad numbers
                from bianpai.engines.pydantic_zh import zh_message
                why = "；".join(f"{'.'.join(map(str, e['loc']))}{zh_message(e)}"
                               for e in exc.errors()) if hasattr(exc, "errors") else "数值无效"
                raise InputError(f"参赛队数据有误：{row!r}（{why}）",
                                 f"bad entrant row: {row!r} ({exc})") from exc
    seen: set[int] = set()
    for e in out:
        if e.team in seen:
            raise InputError(f"队号重复：{e.team}", f"duplicate team number: {e.team}")
        seen.add(e.team)
    if len(out) < 2:
        raise RuleError("参赛队少于2支，无法编排", "fewer than 2 teams: nothing to pair")
    return out


def _coerce_history(history) -> set[frozenset[int]]:
    out: set[frozenset[int]] = set()
    for pair in history or ():
        fs = frozenset(int(t) for t in pair)
        if len(fs) == 2:
            out.add(fs)
    return out


def standing_order(entrants) -> list[int]:
    """Team numbers ordered for a by-score round: total ↓, previous-stage rank ↑ (none last),
    number ↑."""
    es = _coerce_entrants(entrants)
    es.sort(key=lambda e: (-e.total, e.prev_rank is None, e.prev_rank or 0, e.team))
    return [e.team for e in es]


def history_from_rounds(frames: Iterable[pd.DataFrame]) -> set[frozenset[int]]:
    """The set of pairs that met, from pairing frames (``home``/``away``; bye rows skipped)."""
    out: set[frozenset[int]] = set()
    for df in frames:
        for h, a in zip(df["home"], df["away"]):
            if a is not pd.NA and not pd.isna(a):
                out.add(frozenset((int(h), int(a))))
    return out


def byes_from_rounds(frames: Iterable[pd.DataFrame]) -> set[int]:
    """Teams that had a bye in the given pairing frames."""
    out: set[int] = set()
    for df in frames:
        for h, a in zip(df["home"], df["away"]):
            if a is pd.NA or pd.isna(a):
                out.add(int(h))
    return out


class _Matching:
    """A matching on the graph of allowed pairs (every two teams that have not met), kept while
    the round is paired top-down, so each "can the rest still be paired?" question costs one
    augmenting-path search instead of a new maximum matching.

    Vertices are positions ``0 … n−1`` in the standing order; ``met[v]`` holds the positions
    ``v`` may not meet. The graph is dense (a team has met only a few others), so it is stored as
    its complement. Augmenting paths are found with Edmonds' blossom search (one root, BFS,
    blossoms contracted through a ``base`` array).
    """

    def __init__(self, n: int, met: list[set[int]]):
        self.n = n
        self.met = met
        self.mate = [-1] * n
        self.alive = [True] * n
        self.members = list(range(n))  # positions still in play, in standing order

    def augment(self, root: int) -> bool:
        """Search an augmenting path from the exposed vertex ``root`` among the alive vertices;
        flip it and return True if there is one, else leave the matching as it was."""
        n, mate, alive, met, members = self.n, self.mate, self.alive, self.met, self.members
        targets = [w for w in members if mate[w] == -1 and alive[w] and w != root]
        if not targets:
            return False
        base = list(range(n))
        parent = [-1] * n
        outer = [False] * n
        outer[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            met_v = met[v]
            # An exposed neighbour ends the search at once; trying those edges of an outer vertex
            # first (here and where it is labelled) keeps a dense graph from contracting blossom
            # after blossom (every matched pair next to the root is one) before it gets there.
            for w in targets:
                if w != v and w not in met_v:
                    parent[w] = v
                    self._flip(w, parent)
                    return True
            for w in members:
                if w == v or not alive[w] or w in met_v:
                    continue
                if base[v] == base[w] or mate[v] == w:
                    continue
                if w == root or (mate[w] != -1 and parent[mate[w]] != -1):
                    # w is outer too: an odd cycle, contracted into a blossom
                    b = self._common_base(v, w, base, parent)
                    in_blossom = [False] * n
                    self._mark_path(v, b, w, base, parent, in_blossom)
                    self._mark_path(w, b, v, base, parent, in_blossom)
                    for i in members:
                        if alive[i] and in_blossom[base[i]]:
                            base[i] = b
                            if not outer[i]:
                                outer[i] = True
                                queue.append(i)
                elif parent[w] == -1:
                    parent[w] = v
                    if mate[w] == -1:  # reached an exposed vertex: flip the path
                        self._flip(w, parent)
                        return True
                    m = mate[w]
                    outer[m] = True
                    met_m = met[m]
                    for y in targets:  # the new outer vertex may end the search at once
                        if y != m and y not in met_m:
                            parent[y] = m
                            self._flip(y, parent)
                            return True
                    queue.append(m)
        return False

    def _flip(self, w: int, parent: list[int]) -> None:
        """Flip the augmenting path ending at the exposed vertex ``w`` (traced by ``parent``)."""
        mate = self.mate
        while w != -1:
            pv = parent[w]
            nxt = mate[pv]
            mate[w] = pv
            mate[pv] = w
            w = nxt

    def _common_base(self, a: int, b: int, base: list[int], parent: list[int]) -> int:
        mate = self.mate
        seen = set()
        while True:
            a = base[a]
            seen.add(a)
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if b in seen:
                return b
            b = parent[mate[b]]

    def _mark_path(self, v: int, b: int, child: int, base: list[int], parent: list[int],
                   in_blossom: list[bool]) -> None:
        mate = self.mate
        while base[v] != b:
            in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def maximise(self) -> list[int]:
        """Make the matching maximum: a greedy top-down start, then one augmenting search from
        each exposed vertex (a vertex without an augmenting path never gets one later, so one
        pass suffices; a vertex already matched by an earlier path is skipped). Returns the
        vertices left exposed."""
        mate, met = self.mate, self.met
        rest = list(self.members)
        while rest:
            top = rest.pop(0)
            for i, w in enumerate(rest):
                if w not in met[top]:
                    mate[top], mate[w] = w, top
                    del rest[i]
                    break
        exposed = [v for v in self.members if mate[v] == -1]
        left = len(exposed)
        for v in exposed:
            if left < 2:  # a path needs two exposed ends; a lone one would search in vain
                break
            if mate[v] == -1 and self.augment(v):
                left -= 2
        return [v for v in self.members if mate[v] == -1]

    def drop(self, v: int) -> bool:
        """Take ``v`` out of a matching that leaves exactly one other vertex exposed (or, if
        ``v`` is that vertex, none), keeping the rest perfectly matched. Returns False (and
        changes nothing) when the rest has no perfect matching."""
        mate, alive = self.mate, self.alive
        w = mate[v]
        alive[v] = False
        if w != -1:
            mate[v] = mate[w] = -1
            if not self.augment(w):
                alive[v] = True
                mate[v], mate[w] = w, v
                return False
        self.members.remove(v)
        return True

    def try_pair(self, t: int, c: int) -> bool:
        """With the matching perfect on the alive vertices: can ``t``–``c`` be a pair while the
        rest is still paired perfectly? If so, take both out (the matching stays perfect on the
        rest) and return True; otherwise change nothing and return False."""
        mate, alive, met = self.mate, self.alive, self.met
        if mate[t] != c:
            a, b = mate[t], mate[c]
            alive[t] = alive[c] = False
            if b not in met[a]:  # swap partners: t–c, a–b
                mate[a], mate[b] = b, a
            else:
                mate[a] = mate[b] = -1
                if not self.augment(a):
                    alive[t] = alive[c] = True
                    mate[a], mate[t], mate[b], mate[c] = t, a, c, b
                    return False
        alive[t] = alive[c] = False
        mate[t], mate[c] = c, t
        return True


def _top_down(order: Sequence[int], met: set[frozenset[int]], had_bye: set[int], round_no: int,
              ) -> tuple[int | None, list[tuple[int, int]], int]:
    """The 高分对高分 pairing of ``order`` (highest first): ``(bye, pairs, backtracks)``.

    The bye is the lowest-placed team without a bye after which the rest can be paired; then the
    highest unpaired team meets the highest-placed team it has not met after which the rest can
    still be paired without a rematch. Each "can the rest be paired" test is an augmenting-path
    search on a perfect matching kept from step to step, so the result is exactly that of the
    depth-first search over all pairings, in about linear time on a late-round field.
    ``backtracks`` counts candidates refused because the rest could not be paired.
    """
    n = len(order)
    pos = {t: i for i, t in enumerate(order)}
    met_pos: list[set[int]] = [set() for _ in range(n)]
    for pair in met:
        a, b = tuple(pair)
        if a in pos and b in pos:
            met_pos[pos[a]].add(pos[b])
            met_pos[pos[b]].add(pos[a])
    g = _Matching(n, met_pos)
    exposed = g.maximise()
    bye: int | None = None
    if n % 2:
        candidates = [i for i in reversed(range(n)) if order[i] not in had_bye]
        if not candidates:
            raise RuleError(
                f"第{round_no}轮：参赛队为单数，但所有队都已轮空过一次（每队最多轮空1次）",
                f"round {round_no}: odd field but every team has already had its one bye")
        if len(exposed) == 1:
            bye = next((i for i in candidates if g.drop(i)), None)
        if bye is None:
            raise RuleError(
                f"第{round_no}轮：无论哪一队轮空，其余各队都无法避免与本阶段已相遇的队再次相遇",
                f"round {round_no}: whichever team has the bye, the rest cannot be paired "
                f"without a rematch within this stage")
    elif exposed:
        raise RuleError(
            f"第{round_no}轮：无法在不重复本阶段已有对阵的情况下完成编排",
            f"round {round_no}: no pairing without a rematch within this stage exists")
    members = g.members
    pairs: list[tuple[int, int]] = []
    backtracks = 0
    while members:
        t = members[0]
        met_t = met_pos[t]
        for j in range(1, len(members)):
            c = members[j]
            if c in met_t:
                continue
            if g.try_pair(t, c):
                pairs.append((order[t], order[c]))
                del members[j]
                del members[0]
                break
            backtracks += 1
        else:  # pragma: no cover - the matching is perfect, so some candidate always fits
            raise AssertionError("top-down pairing lost its perfect matching")
    return (None if bye is None else order[bye]), pairs, backtracks


def _frame(pairs: list[tuple[int, int]], bye: int | None) -> pd.DataFrame:
    homes = [h for h, _ in pairs]
    aways: list = [a for _, a in pairs]
    if bye is not None:
        homes.append(bye)
        aways.append(pd.NA)
    return pd.DataFrame({
        "table": pd.Series(range(1, len(homes) + 1), dtype="int64"),
        "home": pd.Series(homes, dtype="int64"),
        "away": pd.Series(aways, dtype="Int64"),
    })


def _round_one(es: list[SwissEntrant], same_unit_first: bool) -> pd.DataFrame:
    teams = sorted(es, key=lambda e: e.team)
    bye = None
    if len(teams) % 2:
        bye = teams.pop().team  # highest number sits out
    pairs: list[tuple[int, int]] = []
    rest: list[int] = []
    if same_unit_first:
        by_unit: dict[str, list[int]] = {}
        for e in teams:
            if e.unit is None:
                rest.append(e.team)
            else:
                by_unit.setdefault(e.unit, []).append(e.team)
        for members in by_unit.values():
            for i in range(0, len(members) - 1, 2):
                pairs.append((members[i], members[i + 1]))
            if len(members) % 2:
                rest.append(members[-1])
        rest.sort()
    else:
        rest = [e.team for e in teams]
    pairs += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    pairs.sort()
    return _frame(pairs, bye)


def swiss_pairings(entrants, history=(), round_no: int = 1, *, by_number: bool | None = None,
                   same_unit_first: bool = True) -> pd.DataFrame:
    """Pair one round of a Swiss stage ("高分对高分").

    ``entrants``: :class:`SwissEntrant` items, dicts or a DataFrame with columns ``team``,
    ``unit`` (optional), ``total`` (Decimal VP incl. carry-over), ``prev_rank`` (optional),
    ``had_bye`` (optional; bye already had in this stage). ``history``: pairs (any 2-item iterable,
    usually ``frozenset``) that already met in *this stage*. ``round_no``: the round being drawn.
    ``by_number``: pair 1–2, 3–4 by number with same-unit teams first (default: round 1 only;
    pass ``False`` for a stage whose every round is by score, such as the Fujian consolation Swiss).

    Returns ``table:int, home:int, away:Int64`` (away NA = bye; the bye row last). The DataFrame's
    ``attrs["backtracks"]`` counts rejected greedy choices (0 when the greedy pairing worked).

    Raises :class:`RuleError` (zh+en) when no pairing without a rematch exists, or when an odd
    field has no team left without a bye; :class:`InputError` for duplicate or malformed teams.
    """
    es = _coerce_entrants(entrants)
    met = _coerce_history(history)
    if round_no < 1:
        raise InputError(f"轮次必须从1开始：{round_no}", f"round numbers start at 1: {round_no}")
    if by_number is None:
        by_number = round_no == 1
    if by_number:
        df = _round_one(es, same_unit_first)
        clash = [(h, a) for h, a in zip(df["home"], df["away"])
                 if a is not pd.NA and frozenset((int(h), int(a))) in met]
        if not clash:
            df.attrs["backtracks"] = 0
            return df
        # A by-number round that would repeat a pairing falls back to the by-score search.

    order = standing_order(es)
    had = {e.team for e in es if e.had_bye}
    bye, pairs, backtracks = _top_down(order, met, had, round_no)
    df = _frame(pairs, bye)
    df.attrs["backtracks"] = backtracks
    return df
