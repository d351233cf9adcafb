"""The competition core: one data model and one interface behind every format and scoring.

The model follows brackets-manager.js (research/core-anchors.md): event → group (组别) → stage
(阶段) → pool (小组) → round (轮) → match (场/桌) → game (局/副). Everything a command shows is a
function of a few plain tables: the stage's entrants, the matches drawn so far and the typed
results. A **format** answers "what is the next round", "is the stage finished" and "who is
placed where"; a **scoring** turns a match's typed game rows into match points and the values the
tie-break chain needs; **progression** rules (in the regulation) join stages.

Nothing here touches a file or Excel. Commands in ``bianpai.addin`` read the workbook once, build
a :class:`StageState` per stage, and ask the stage's format and scoring; they never branch on the
sport.

Conventions
-----------
* Entrants are pairing numbers (``int``, from 抽签) within one group (组别).
* A match has two sides (主/客, 南北/东西, 红/黑) or N seats (card games). ``sides[i]`` is the
  entrant in side/seat group ``i``; ``None`` there is a **bye** (轮空). A slot not known yet (a
  knockout winner still to come, 待定) is never a ``None`` side: such matches are not drawn yet.
* Match points and every carried value are ``Decimal``; rounding is half-up (Excel ROUND).
* Outcome codes per side: ``W`` won, ``D`` drawn, ``L`` lost, ``FW`` won by forfeit, ``FL`` lost by
  forfeit, ``BYE`` had a bye, ``VOID`` annulled (e.g. a forfeiting team's matches in gouji).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar, Iterable, Mapping, Protocol, runtime_checkable

import pandas as pd

from bianpai.engines.errors import BianpaiError
from bianpai.engines.typed_rows import (LazyGames, decision_side, from_rows,  # noqa: F401
                                        is_blank, is_na, records_like_frame)

__all__ = [
    "StageEntrant", "Match", "EntryColumn", "TypedMatch", "MatchResult", "StageState", "NotReady", "Reason",
    "Format", "Scoring", "FORMATS", "SCORINGS", "register_format", "register_scoring",
    "format_for", "scoring_for", "entrant_rows", "OUTCOMES",
]

OUTCOMES = ("W", "D", "L", "FW", "FL", "BYE", "VOID")


# ------------------------------------------------------------------------------ data model

@dataclass(frozen=True)
class StageEntrant:
    """One entrant of a stage.

    ``number``: pairing number in the group (int). ``pool``: 小组 label (``"A"``) or ``None``.
    ``seed``: seeding position, 1 = best (a previous stage's place, a typed seed, or the lot),
    ``None`` when unseeded. ``carry``: points carried in (Decimal, e.g. VP). ``join_round``: the
    stage round at which it enters (1 = from the start). ``unit``: 地市/单位 (for same-unit rules).
    ``rating``: a rating or ranking score when the format orders by it. ``withdrawn_after``: the
    last round it plays (退赛), ``None`` if it plays on.
    """

    number: int
    pool: str | None = None
    seed: int | None = None
    carry: Decimal = Decimal("0")
    join_round: int = 1
    unit: str | None = None
    rating: Decimal | None = None
    withdrawn_after: int | None = None


@dataclass(frozen=True)
class Match:
    """One match (场/桌) of a round.

    ``round``: stage round, from 1. ``table``: table/match number within (pool, round), from 1;
    byes get the numbers after the real tables. ``sides``: entrant numbers in side order (side 0 is
    主队/南北/先手/红方); ``None`` is a bye. ``pool``: 小组 or ``None``. ``label``: the format's name
    of the match (``"A1vsA2"``, ``"QF1"``, ``"第2轮第3场"``) or ``None``.
    """

    round: int
    table: int
    sides: tuple[int | None, ...]
    pool: str | None = None
    label: str | None = None

    @property
    def key(self) -> tuple[str | None, int, int]:
        """``(pool, round, table)``: the key results are typed against."""
        return (self.pool, self.round, self.table)

    @property
    def is_bye(self) -> bool:
        return any(s is None for s in self.sides)

    @property
    def entrants(self) -> list[int]:
        return [s for s in self.sides if s is not None]


@dataclass(frozen=True)
class MatchResult:
    """A scored match: what the scoring made of the typed rows of one :class:`Match`.

    ``points``: match points per side (场分, VP …; Decimal). ``outcome``: one code of
    :data:`OUTCOMES` per side. ``values``: further per-side values the tie-break chain reads,
    by criterion column name (e.g. ``{"game_points": (5, -5)}``); each tuple has one entry per
    side. ``note``: why the result is what it is when it is not a plain played match (forfeit,
    annulment …), Chinese and English.
    """

    match: Match
    points: tuple[Decimal, ...]
    outcome: tuple[str, ...]
    values: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    note_zh: str = ""
    note_en: str = ""

    @property
    def winner(self) -> int | None:
        """The side's entrant that won (``W``/``FW``/``BYE``), ``None`` for a draw/void."""
        for s, o in zip(self.match.sides, self.outcome):
            if o in ("W", "FW") or (o == "BYE" and s is not None):
                return s
        return None

    @property
    def loser(self) -> int | None:
        for s, o in zip(self.match.sides, self.outcome):
            if o in ("L", "FL") and s is not None:
                return s
        return None


@dataclass(frozen=True)
class Reason:
    """Why a round cannot be drawn (or a stage is not finished): a code, Chinese and English
    text, and the sheet cells involved when known (``"成绩!F12"``)."""

    code: str
    zh: str
    en: str
    cells: tuple[str, ...] = ()


class NotReady(BianpaiError):
    """``Format.next_round`` cannot draw yet; ``reasons`` say why (missing results …)."""

    def __init__(self, reasons: Iterable[Reason]):
        self.reasons = list(reasons)
        zh = "；".join(r.zh for r in self.reasons) or "尚不能编排下一轮"
        en = "; ".join(r.en for r in self.reasons) or "the next round cannot be drawn yet"
        super().__init__(zh, en)


@dataclass
class StageState:
    """Everything a format may look at: plain, already validated values.

    ``entrants``: the stage's entrants (all pools). ``matches``: every match drawn so far, in
    round order (the 对阵 record, including an arbiter's hand edits). ``results``: scored matches
    by :attr:`Match.key` (only complete ones). ``standings``: per pool (``None`` key when no pools)
    the current ranking as a DataFrame with at least ``rank`` (int) and ``entrant`` (int), ordered,
    computed by the command with the stage's tie-break chain (a mapping: the command may rank a
    pool when it is first read); the format reads it for 高分对高分 pairing and for placings. ``seed``: the stage's random seed (draws, lots).
    """

    entrants: list[StageEntrant]
    matches: list[Match] = field(default_factory=list)
    results: dict[tuple, MatchResult] = field(default_factory=dict)
    standings: Mapping[str | None, pd.DataFrame] = field(default_factory=dict)
    seed: int | None = None
    #: the group's other stages' matches, for a format whose rules reach across stages (no
    #: rematch ever, one bye per event); filled when the format's ``reads_prior_stages`` is True
    prior: list[Match] = field(default_factory=list)
    #: what a format computed from this state (:meth:`memo`); a caller may hand the same dict
    #: to several states of one stage (the values are checked against each state's own)
    memos: dict = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key: tuple, compute, keep: Any = None):
        """``compute()``, once per ``key`` while the state holds equal entrants, matches,
        results and seed (compared item by item, the same objects at once): a caller that
        extends the matches, as a draw does, or replaces a result gets a fresh value. For a
        format's pure values asked for several times per command (a bracket's resolution by
        ``finished``, ``next_round``, the bracket table, the placings). ``key`` (hashable)
        names the value and the format by its ``id``; ``keep`` (the format) is held with the
        value so that the id stays its own. Callers must not change what it returns."""
        token = (self.seed, tuple(self.entrants), tuple(self.matches),
                 tuple(self.results.items()))
        hit = self.memos.get(key)
        if hit is not None and hit[0] == token:
            return hit[2]
        value = compute()
        self.memos[key] = (token, keep, value)
        return value

    # -- convenience views
    def pools(self) -> list[str | None]:
        seen: list[str | None] = []
        for e in self.entrants:
            if e.pool not in seen:
                seen.append(e.pool)
        return seen

    def pool_entrants(self, pool: str | None) -> list[StageEntrant]:
        return [e for e in self.entrants if e.pool == pool]

    def rounds_drawn(self, pool: str | None = ...) -> int:  # type: ignore[assignment]
        ms = self.matches if pool is ... else [m for m in self.matches if m.pool == pool]
        return max((m.round for m in ms), default=0)

    def round_matches(self, rnd: int, pool: str | None = ...) -> list[Match]:  # type: ignore
        return [m for m in self.matches if m.round == rnd and (pool is ... or m.pool == pool)]

    def missing(self, rnd: int | None = None) -> list[Match]:
        """Drawn non-bye matches (of round ``rnd``, or all) without a complete result."""
        return [m for m in self.matches if not m.is_bye and m.key not in self.results
                and (rnd is None or m.round == rnd)]

    def met(self) -> set[frozenset[int]]:
        """Pairs of entrants that have met in a drawn match of this stage."""
        out: set[frozenset[int]] = set()
        for m in self.matches:
            es = m.entrants
            for i, a in enumerate(es):
                for b in es[i + 1:]:
                    out.add(frozenset((a, b)))
        return out


# ------------------------------------------------------------------------------ interfaces

@runtime_checkable
class Format(Protocol):
    """A stage format: data (a pydantic settings model) plus this small engine.

    Implementations are pydantic models with ``kind`` as discriminator (the glossary code name:
    ``round_robin``, ``fixture_list``, ``swiss``, ``single_elimination``,
    ``double_elimination``, ``mitchell``) and these methods. They must be pure and deterministic
    given ``state.seed``/``rng``.
    """

    kind: str
    #: side labels, Chinese and English, in side order, e.g. (("主队", "Home"), ("客队", "Away"))
    side_labels: ClassVar[tuple[tuple[str, str], ...]]

    def total_rounds(self, state: StageState) -> int | None:
        """Rounds the stage will have (``None`` if it depends on results, e.g. a knockout
        whose length is known only from its size — return it when it is known)."""

    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The matches of the next round (of every pool that can go on). Raises
        :class:`NotReady` with reasons when the previous round lacks results, and
        ``RuleError`` when the stage is finished or the field cannot be paired."""

    def finished(self, state: StageState) -> bool:
        """True when every round is drawn and every match has its result."""

    def placings(self, state: StageState) -> pd.DataFrame:
        """Final (or current) places of the stage.

        Columns: ``entrant`` (int), ``pool`` (object, None without pools), ``place`` (int, within
        the pool; equal for shared places), ``decided_by`` (str, Chinese: e.g. "小组排名",
        "第2轮负"). Round-robin-like formats take ``state.standings`` order; knockouts place by
        the round lost.
        """


@dataclass(frozen=True)
class EntryColumn:
    """A column the arbiter types, declared by a scoring so sheets are generated from it.

    ``key``: the name ``score`` reads; ``zh``/``en``: header titles; ``kind``: a
    ``bianpai.workbooks.layouts`` column kind (``text``, ``int``, ``decimal``, ``code``);
    ``choices``: dropdown values for ``code`` columns; ``side``: the side index the column
    belongs to (``{side}`` in titles is replaced by the format's side label), or ``None``;
    ``prefill``: the draw writes it (see below); ``member``: the cell names a person who must
    be a registered player of that side's entrant (出场名单: a line-up typed per board); the
    pipeline checks it against the roster. ``together``: see below.
    """

    key: str
    zh: str
    en: str
    kind: str = "text"
    choices: tuple[str, ...] | None = None
    width: float = 8
    side: int | None = None
    #: written by the draw (the format's ``entry_prefill``, e.g. 几局胜), so a row holding only
    #: prefilled values counts as not typed yet
    prefill: bool = False
    member: bool = False
    #: columns sharing a tag are read only together (主队局分 with 客队局分): the reader refuses
    #: a row where some of them are typed and others left empty
    together: str | None = None


@dataclass(frozen=True)
class TypedMatch:
    """What the arbiter typed for one match, as the command hands it to a scoring.

    ``games``: one row per game (局/副), column ``game`` (int, from 1) plus the scoring's
    ``game_columns`` keys (values already coerced; ``None`` when empty), in game order; empty
    when the result was typed per match. ``totals``: the scoring's ``match_columns`` values when
    typed per match (else empty). ``decision``: a decision code (``判定``) or ``None``.
    ``penalties``: ``(side, kind, value)`` triples (value in the scoring's unit, positive = a
    deduction). ``where``: row labels of the typed cells (``"成绩!G9"``) for messages.
    :meth:`from_rows` keeps the game rows as dicts and builds ``games`` only when read.
    """

    games: pd.DataFrame = LazyGames()
    totals: dict[str, Any] = field(default_factory=dict)
    decision: str | None = None
    penalties: tuple[tuple[int, str, Decimal], ...] = ()
    where: tuple[str, ...] = ()
    #: per-match value key → its cell (``"成绩!H12"``), for errors naming the exact cell
    cells: dict[str, str] = field(default_factory=dict)

    def game_records(self) -> list[dict[str, Any]]:
        """The game rows as dicts (column → value), in order; much cheaper than
        ``games.to_dict("records")`` on the small frames of one match. Computed once per
        match (the frame is never changed in place) and handed out as fresh dicts."""
        return [dict(r) for r in self._records()]

    def _records(self) -> list[dict[str, Any]]:
        """The cached game rows (shared: callers copy before changing one)."""
        cached = self.__dict__.get("_game_records")
        if cached is None and self.__dict__.get("_games") is None and "_rows" in self.__dict__:
            cached = records_like_frame(self.__dict__["_rows"][0])
        if cached is None:
            g = self.games
            cols = list(g.columns)
            cached = [dict(zip(cols, row)) for row in zip(*(g[c].tolist() for c in cols))] \
                if cols else []
        if "_game_records" not in self.__dict__:
            object.__setattr__(self, "_game_records", cached)
        return cached

    from_rows = classmethod(from_rows)

    def columns(self) -> tuple[str, ...]:
        """The columns of ``games`` (without building the frame when the rows tell them)."""
        recs = None if self.__dict__.get("_games") is not None else self._records()
        return tuple(recs[0]) if recs else tuple(self.games.columns)

    def game_key(self) -> tuple:
        """The typed game rows as a hashable tuple of tuples (for a scoring's memo)."""
        cached = self.__dict__.get("_game_key")
        if cached is None:
            cached = tuple(tuple(None if isinstance(v, float) and v != v else v
                                 for v in r.values()) for r in self._records())
            object.__setattr__(self, "_game_key", cached)
        return cached

    def rows_with(self, column: str) -> list[dict[str, Any]]:
        """The game rows whose ``column`` holds a value (not empty, not blank text)."""
        if column not in self.columns():
            return []
        return [r for r in self.game_records()
                if r.get(column) is not None and r[column] == r[column] and str(r[column]).strip()]

    @property
    def empty(self) -> bool:
        """Nothing typed: no game value, no total, no decision."""
        has_games = any(not is_na(v) for r in self._records()
                        for k, v in r.items() if k != "game" and not str(k).startswith("_"))
        return not has_games and not any(v is not None for v in self.totals.values()) \
            and self.decision is None


@runtime_checkable
class Scoring(Protocol):
    """A scoring rule: what is typed for a match → :class:`MatchResult`.

    ``kind`` is its discriminator (``gouji_games``, ``bridge_teams_vp`` …). The workbook's
    entry sheets are generated from it: ``entry_game_columns()`` (逐局成绩, one row per game;
    ``games_per_match`` rows are prepared per match), ``entry_match_columns()`` (成绩, one row per
    match, for results typed as totals) and ``entry_decisions()`` (the 判定 dropdown: forfeits,
    awarded losses). The command builds a :class:`TypedMatch` per drawn match and asks
    ``is_complete`` then ``score_typed``; byes and the later matches of a withdrawn entrant are
    ``bye(match)`` and ``forfeit(match, side)``; ``finalize(results)`` applies stage-wide rules
    (e.g. annulling a forfeiting team's matches) and returns the list to rank. ``simulate``
    gives game rows for the demo.

    Optional hooks (read with ``getattr``; a scoring without them works as above):

    * ``scope = "stage"`` (class attribute; default ``"match"``): the scoring compares results
      across tables (e.g. 80分 matchpoints: every table that played a board is compared), so the
      pipeline never scores one match alone: it calls ``score_stage(matches, typed)`` once per
      stage with every drawn match (byes/sit-outs included) and a dict ``Match.key →
      TypedMatch`` of everything typed (逐局成绩 rows, 罚分, 判定), and takes the returned
      MatchResults (complete matches only, sit-outs included) as the stage's results; then
      ``finalize`` and withdrawals apply as usual. Errors are raised as ``InputErrors`` whose
      items carry ``row``/``column`` (a 逐局成绩 cell) or ``sheet``/``cell``. ``is_complete``,
      ``score_typed``, ``bye`` and ``forfeit`` are then not called by the pipeline.
    * ``entry_rows(match) -> list[dict]``: the 逐局成绩 rows prepared for a new match, with
      prefilled values by entry-column key (台次 1–4, the boards of a Mitchell round); default
      ``games_per_match`` empty rows. ``prefilled``: the keys it fills (the demo does not count
      them as typed).
    * ``stage_problems(results, typed)`` → ``[(Match.key, InputError)]`` (checks across results);
      ``playoffs_needed(results)`` → ``[(Match, game no.)]`` (play-offs the rank command offers).
    """

    kind: str
    games_per_match: int

    def entry_game_columns(self) -> list[EntryColumn]: ...

    def entry_match_columns(self) -> list[EntryColumn]: ...

    def entry_decisions(self) -> list[str]: ...

    def is_complete(self, typed: TypedMatch) -> bool:
        """True when ``typed`` holds a whole result (every game, or the totals, or a
        decision); a partly typed match is incomplete, not an error."""

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        """Score one complete match. Raises ``InputError`` (naming ``typed.where`` cells when
        it can) for a result the rules do not allow."""

    def problems(self, match: Match, typed: TypedMatch) -> list:
        """Errors (``InputError``) in a match typed only in part: bad values already typed;
        empty cells are not errors."""

    def bye(self, match: Match) -> MatchResult: ...

    def forfeit(self, match: Match, side: int) -> MatchResult:
        """The match lost by forfeit by ``side`` (e.g. a withdrawn entrant's later match)."""

    def finalize(self, results: list[MatchResult]) -> list[MatchResult]: ...

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """Plausible game rows (entry column key → value) for a demo, stronger side winning
        more often."""


class ScoringDefaults:
    """What most scorings share (mix into a scoring model): :meth:`forfeit` scores the match
    with one forfeit adjustment row (:func:`forfeit_adjustment`), :meth:`finalize` keeps the
    results as they are. A scoring with its own rules overrides either."""

    def forfeit(self, match: Match, side: int) -> MatchResult:
        """``side`` forfeits (e.g. a withdrawn entrant's later match)."""
        return self.score(match, None, forfeit_adjustment(side))  # type: ignore[attr-defined]

    def finalize(self, results: list[MatchResult]) -> list[MatchResult]:
        return list(results)


def forfeit_adjustment(side: int) -> pd.DataFrame:
    """The ``adjustments`` frame of a match ``side`` forfeits: columns ``side`` (int),
    ``kind`` ("forfeit"), ``value`` (None)."""
    return pd.DataFrame([{"side": side, "kind": "forfeit", "value": None}])


# ------------------------------------------------------------------------------ registries

FORMATS: dict[str, type] = {}
SCORINGS: dict[str, type] = {}
#: Chinese and other aliases of the kinds (淘汰赛 → single_elimination …)
ALIASES: dict[str, str] = {}


def register_format(cls: type, *aliases: str) -> type:
    """Register a format model class under its ``kind`` default (and ``aliases``)."""
    kind = cls.model_fields["kind"].default  # type: ignore[attr-defined]
    FORMATS[kind] = cls
    for a in aliases:
        ALIASES[a] = kind
    return cls


def register_scoring(cls: type, *aliases: str) -> type:
    """Register a scoring model class under its ``kind`` default (and ``aliases``)."""
    kind = cls.model_fields["kind"].default  # type: ignore[attr-defined]
    SCORINGS[kind] = cls
    for a in aliases:
        ALIASES[a] = kind
    return cls


def format_for(kind: str) -> type:
    """The format class for ``kind`` or a Chinese alias; ``KeyError`` when unknown."""
    return FORMATS[ALIASES.get(kind, kind)]


def scoring_for(kind: str) -> type:
    """The scoring class for ``kind`` or an alias; ``KeyError`` when unknown."""
    return SCORINGS[ALIASES.get(kind, kind)]


# the match results as standings rows, and annulment (:mod:`bianpai.engines.core_rows`)
from bianpai.engines.core_rows import annul_entrant, entrant_rows  # noqa: E402,F401
