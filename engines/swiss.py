"""Swiss pairing for team events, "高分对高分" (high against high), as CBA-style 规程 write it.

Reading taken (DESIGN.md, research/rule-texts.md §1.4, Fujian 2024 桥牌 六（二）（三）（四）):

* Round 1 (by number): teams of the same 地市/单位 meet each other first (paired within their unit in
  number order, as far as the unit's size allows), the rest play 1–2, 3–4, … by number.
* Later rounds (by score): teams are ordered by current total (carry-over included; ties by the
  previous stage's rank, then by number). The highest unpaired team meets the highest-placed team it
  has not met in this stage, as long as the rest can still be paired without rematches; otherwise
  the next one is tried (depth-first backtracking).
* No rematch within a stage. Only this stage's history is passed in, so opponents from earlier
  stages may meet again (Fujian 六（三）2).
* Odd field: in round 1 the highest number sits out; later the lowest-placed team that has not yet
  had a bye (if the rest cannot then be paired, the next lowest); at most one bye per team. The bye's
  VP is a 规程 setting applied by the scorer, not here.
* Home team (主队, North-South in the open room) = the team listed first: the higher-placed team,
  or in round 1 the lower number (Fujian 六（四）1, 3).
* Late entrants (e.g. quarter-final losers joining the consolation Swiss at round 3 with their
  carry-over) are simply part of ``entrants`` from that round on.

Output: a DataFrame ``table:int, home:int, away:Int64`` (NA = bye), table 1 = top; the bye row, if
any, comes last with the next table number (it occupies no real table).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Iterable, Sequence

import networkx as nx
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
                raise InputError(f"参赛队数据有误：{row!r}（{exc}）",
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


def _perfect_matching_exists(teams: Sequence[int], met: set[frozenset[int]]) -> bool:
    if len(teams) % 2:
        return False
    if not teams:
        return True
    g = nx.Graph()
    g.add_nodes_from(teams)
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            if frozenset((a, b)) not in met:
                g.add_edge(a, b)
    m = nx.max_weight_matching(g, maxcardinality=True)
    return 2 * len(m) == len(teams)


class _Search:
    """Depth-first "highest meets highest available": each candidate opponent is accepted only
    if the remaining teams can still be paired without a rematch (checked as a perfect matching
    on the graph of allowed pairs); otherwise the next candidate is tried (a backtrack)."""

    def __init__(self, met: set[frozenset[int]]):
        self.met = met
        self.dead: set[tuple[int, ...]] = set()
        self.backtracks = 0

    def pair(self, order: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not order:
            return []
        if order in self.dead:
            return None
        top, rest = order[0], order[1:]
        for i, opp in enumerate(rest):
            if frozenset((top, opp)) in self.met:
                continue
            remaining = rest[:i] + rest[i + 1:]
            # Prune: a choice after which the rest has no rematch-free pairing at all is a dead
            # end found without descending (keeps the search polynomial).
            if not _perfect_matching_exists(remaining, self.met):
                self.backtracks += 1
                continue
            sub = self.pair(remaining)
            if sub is not None:
                return [(top, opp)] + sub
            self.backtracks += 1
        self.dead.add(order)
        return None


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
    bye: int | None = None
    if len(order) % 2:
        candidates = [t for t in reversed(order) if t not in had]
        if not candidates:
            raise RuleError(
                f"第{round_no}轮：参赛队为单数，但所有队都已轮空过一次（每队最多轮空1次）",
                f"round {round_no}: odd field but every team has already had its one bye")
        for cand in candidates:
            rest = [t for t in order if t != cand]
            if _perfect_matching_exists(rest, met):
                bye = cand
                break
        else:
            raise RuleError(
                f"第{round_no}轮：无论哪一队轮空，其余各队都无法避免与本阶段已相遇的队再次相遇",
                f"round {round_no}: whichever team has the bye, the rest cannot be paired "
                f"without a rematch within this stage")
        order = [t for t in order if t != bye]
    elif not _perfect_matching_exists(order, met):
        raise RuleError(
            f"第{round_no}轮：无法在不重复本阶段已有对阵的情况下完成编排",
            f"round {round_no}: no pairing without a rematch within this stage exists")
    search = _Search(met)
    pairs = search.pair(tuple(order))
    if pairs is None:  # pragma: no cover - excluded by the matching check above
        raise RuleError(f"第{round_no}轮：无法在不重复本阶段已有对阵的情况下完成编排",
                        f"round {round_no}: no pairing without a rematch within this stage exists")
    df = _frame(pairs, bye)
    df.attrs["backtracks"] = search.backtracks
    return df
