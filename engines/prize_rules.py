"""Award rule models of the 规程 (places by entries, prize tables, place awards, 优胜奖/优秀奖
split, qualification, tax, tie splits, per-group and whole-event rules): pydantic settings, each
with the ``clause`` it reads and a ``note`` on the reading taken. Used by
:func:`bianpai.engines.prizes.allocate`; importable from :mod:`bianpai.engines.prizes`.
"""

from __future__ import annotations

import re
from decimal import Decimal
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bianpai.engines.rounding import TWO_PLACES, q2


FEN = TWO_PLACES


class _Sourced(BaseModel):
    """Base of every rule model: ``clause`` (where the 规程 says it) and ``note`` (reading taken)."""

    model_config = ConfigDict(extra="forbid")

    clause: str | None = None
    note: str | None = None


# --------------------------------------------------------------------------------------------
# rule models
# --------------------------------------------------------------------------------------------

class PlacesStep(_Sourced):
    """One rung of a places ladder: ``min_entries`` or more entries → ``places`` awarded."""

    min_entries: int = Field(ge=0)
    places: int = Field(ge=0)


class PlacesByEntries(_Sourced):
    """Places awarded as a function of the number of entries (persons, pairs or teams).

    ``steps`` are read from the highest ``min_entries`` down; the first one reached applies.
    With fewer than ``cancel_below`` entries the event is cancelled (取消该项目).
    """

    steps: list[PlacesStep]
    cancel_below: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _check(self) -> PlacesByEntries:
        mins = [s.min_entries for s in self.steps]
        if len(set(mins)) != len(mins):
            raise ValueError("places ladder: duplicate min_entries")
        return self

    def is_cancelled(self, entries: int) -> bool:
        return self.cancel_below is not None and entries < self.cancel_below

    def places_for(self, entries: int) -> int:
        """Places awarded with ``entries`` entries (0 when cancelled or below every step)."""
        if self.is_cancelled(entries):
            return 0
        for step in sorted(self.steps, key=lambda s: s.min_entries, reverse=True):
            if entries >= step.min_entries:
                return step.places
        return 0

    def step_for(self, entries: int) -> PlacesStep | None:
        if self.is_cancelled(entries):
            return None
        for step in sorted(self.steps, key=lambda s: s.min_entries, reverse=True):
            if entries >= step.min_entries:
                return step
        return None


_RANGE_KEY = re.compile(r"^\s*(\d+)\s*(?:[-–—~至]\s*(\d+))?\s*$")


class PrizeTable(_Sourced):
    """Prize money in yuan by place (per entrant: a person, a pair or a team).

    ``amounts`` keys are places (``1``) or place ranges (``"4-8"`` gives each of places 4…8 the
    same amount). ``announced_later``: the 规程 says the amounts are announced later
    (具体奖金数额另行通知); places without an amount then get no money figure (``None``).
    """

    amounts: dict[int, Decimal] = Field(default_factory=dict)
    announced_later: bool = False

    @field_validator("amounts", mode="before")
    @classmethod
    def _expand_ranges(cls, value):
        if value is None:
            return {}
        out: dict[int, object] = {}
        for key, amount in dict(value).items():
            m = _RANGE_KEY.match(str(key))
            if not m:
                raise ValueError(f"prize table: bad place key {key!r} (use 3 or '4-8')")
            lo = int(m.group(1))
            hi = int(m.group(2) or lo)
            if lo < 1 or hi < lo:
                raise ValueError(f"prize table: bad place range {key!r}")
            for p in range(lo, hi + 1):
                if p in out:
                    raise ValueError(f"prize table: place {p} given twice")
                out[p] = amount
        return out

    @field_validator("amounts", mode="after")
    @classmethod
    def _money(cls, value: dict[int, Decimal]) -> dict[int, Decimal]:
        for p, a in value.items():
            if a < 0:
                raise ValueError(f"prize table: negative amount for place {p}")
        return {p: q2(a) for p, a in sorted(value.items())}

    def amount(self, place: int) -> Decimal | None:
        return self.amounts.get(place)

    @property
    def last_place(self) -> int:
        return max(self.amounts, default=0)


class PlaceAward(_Sourced):
    """Non-money awards for places ``from_place … to_place`` (inclusive)."""

    from_place: int = Field(ge=1)
    to_place: int = Field(ge=1)
    trophy: bool = False        # 奖杯
    medal: bool = False         # 奖牌
    certificate: bool = False   # 证书 / 荣誉证书
    title: str | None = None    # overrides the award text, e.g. "冠军"

    @model_validator(mode="after")
    def _range(self) -> PlaceAward:
        if self.to_place < self.from_place:
            raise ValueError("place award: to_place < from_place")
        return self

    def covers(self, place: int) -> bool:
        return self.from_place <= place <= self.to_place


class MeritSplit(_Sourced):
    """优胜奖 / 优秀奖 by final place: places 1 … floor(winner_percent % × entries) get
    ``winner_label``, every other ranked entrant ``merit_label`` (fujian 2024, 象棋/围棋 五/六).

    A tie across the cut-off: the tied entrants share the better award when their shared place
    is within the cut-off (reading taken; the 规程 is silent).
    """

    winner_percent: int = Field(default=60, ge=0, le=100)
    winner_label: str = "优胜奖"
    merit_label: str = "优秀奖"

    def cutoff(self, entries: int) -> int:
        return (entries * self.winner_percent) // 100


class Qualification(_Sourced):
    """Places that qualify for a later event, with replacements in order.

    ``qualify_places`` qualify (shenzhen 2023 十二（二）: the champion); when a qualifier cannot go
    (``declined`` in the ranking) the entrants in ``replacement_places`` replace them in that
    order (2nd, then 3rd). ``discretionary``: the 规程 only says the places are candidates
    (otog 2024 九（二）3 "根据具体情况选派"), nobody qualifies automatically.
    """

    target: str
    qualify_places: list[int] = Field(default_factory=lambda: [1])
    replacement_places: list[int] = Field(default_factory=list)
    discretionary: bool = False


class TaxRule(_Sourced):
    """Tax withheld from prize money (代扣代缴个人所得税).

    ``rate``: fraction (0.20 for 20 %). ``exempt_up_to``: when set, a prize of at most this many
    yuan is not taxed and a larger one is taxed on its whole amount (none of the five 规程 sets a
    threshold). Tax = ROUND_HALF_UP(gross × rate, 0.01); net = gross − tax.
    """

    rate: Decimal = Field(ge=0, le=1)
    exempt_up_to: Decimal | None = Field(default=None, ge=0)

    def tax(self, gross: Decimal) -> Decimal:
        if self.exempt_up_to is not None and gross <= self.exempt_up_to:
            return Decimal("0.00")
        return q2(gross * self.rate)


class TiePolicy(str, Enum):
    equal = "equal"
    none = "none"
    hort = "hort"


class TieSplit(_Sourced):
    """How entrants left tied over prize places share the money.

    k entrants tied at place p occupy the seats p … p+k−1 (row order of the ranking inside the
    tie is its seat order); seats beyond the awarded places carry no money.

    - ``equal`` (default): the prizes of the k seats are pooled and split equally.
    - ``none``: no split; each tied entrant gets the full prize of the shared place p (the best
      seat), so the total paid exceeds the table; the excess is logged.
    - ``hort`` (Hort system, after V. Hort): each tied entrant keeps 50 % of the prize of its own
      seat; the other 50 % of all k seats is pooled and split equally among the k.

    ``rounding``: ``down`` cuts each equal share to the fen so the pool is never exceeded, and the
    remainder (less than k fen) is logged; ``half_up`` rounds each share half-up (the total may
    then differ from the pool by a few fen, also logged). ``whole_yuan``: shares are rounded to
    whole yuan instead of the fen (a practice some organizers follow), same ``rounding`` mode.
    """

    policy: TiePolicy = TiePolicy.equal
    rounding: Literal["down", "half_up"] = "down"
    whole_yuan: bool = False


class GroupAwards(_Sourced):
    """Awards of one group (组别) or class of groups.

    ``name``: shown in the log. ``match``: substrings of the ranking's ``group`` value that select
    this block (empty: every group not matched by an earlier block). Places awarded:
    ``places_by_entries`` when given, else ``places``, else the extent of ``prize_table`` and
    ``place_awards``.
    """

    name: str
    match: list[str] = Field(default_factory=list)
    places_by_entries: PlacesByEntries | None = None
    places: int | None = Field(default=None, ge=0)
    prize_table: PrizeTable | None = None
    place_awards: list[PlaceAward] = Field(default_factory=list)
    merit_split: MeritSplit | None = None
    qualification: Qualification | None = None

    def matches(self, group: str) -> bool:
        return not self.match or any(m in group for m in self.match)

    def places_for(self, entries: int) -> int:
        if self.places_by_entries is not None:
            return self.places_by_entries.places_for(entries)
        if self.places is not None:
            return self.places
        ext = [self.prize_table.last_place] if self.prize_table else []
        ext += [a.to_place for a in self.place_awards]
        return max(ext, default=0)

    def is_cancelled(self, entries: int) -> bool:
        return self.places_by_entries is not None and self.places_by_entries.is_cancelled(entries)


class AwardRules(_Sourced):
    """The ``awards`` block of a regulation.

    ``groups``: one :class:`GroupAwards` per class of groups, first match wins.
    ``tax``: withheld tax, or ``None`` (no tax line in the 规程).
    ``tie_split``: see :class:`TieSplit`.
    ``one_prize_per_person``: one money prize per person (key ``person_id`` of the ranking) over
    all groups of one allocation; the higher prize is kept and the other place vacated.
    ``reaward_vacated``: a place left by an ineligible entrant passes to the next ones.
    """

    groups: list[GroupAwards]
    tax: TaxRule | None = None
    tie_split: TieSplit = Field(default_factory=TieSplit)
    one_prize_per_person: bool = True
    reaward_vacated: bool = False

    def group_for(self, group: str) -> GroupAwards | None:
        for g in self.groups:
            if g.matches(group):
                return g
        return None
