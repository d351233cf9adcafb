"""The 规程's eligibility rules (资格审查) as pydantic settings: birth-date windows, age ranges
and age groups, accompaniment, team size, unit limits, single entry, duplicate and ID-number
checks — each with the ``clause`` it reads and a ``note``. Used by
:func:`bianpai.engines.eligibility.check_roster`; importable from
:mod:`bianpai.engines.eligibility`.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["error", "warning"]

STAFF_ROLES = ("领队", "教练", "领队兼教练", "总领队", "队医", "工作人员")


class _Sourced(BaseModel):
    model_config = ConfigDict(extra="forbid")

    clause: str | None = None
    note: str | None = None


class _Scoped(_Sourced):
    """``applies_to``: substrings of the roster's ``event`` or ``group`` value that select the
    rows a rule applies to (empty: every row)."""

    applies_to: list[str] = Field(default_factory=list)

    def applies(self, event: str, group: str) -> bool:
        return not self.applies_to or any(s in event or s in group for s in self.applies_to)


# --------------------------------------------------------------------------------------------
# rule models
# --------------------------------------------------------------------------------------------

class BirthDateWindow(_Scoped):
    """Birth date between cut-off dates (shenzhen 2023 七（一）1).

    ``born_after`` / ``born_before``: the cut-offs; ``after_inclusive`` / ``before_inclusive``:
    whether a birth on the cut-off day itself is inside. ``warn_on_boundary``: a birth exactly on
    an included cut-off day gives a warning (the 资格审查 should confirm the reading).
    """

    born_after: dt.date | None = None
    born_before: dt.date | None = None
    after_inclusive: bool = False
    before_inclusive: bool = False
    warn_on_boundary: bool = False
    severity: Severity = "error"


class AgeRange(_Scoped):
    """Age range at a reference date, optionally for one gender (fujian 2024 七（一）).

    ``min_age`` ≤ age, and age ≤ ``max_age`` (or age < ``max_age`` when ``max_exclusive``).
    ``gender``: ``"M"``/``"F"`` or ``None`` for everyone. ``reference_date``: ``None`` means the
    event date given to :func:`check_roster`.
    """

    gender: Literal["M", "F"] | None = None
    min_age: int | None = Field(default=None, ge=0)
    max_age: int | None = Field(default=None, ge=0)
    max_exclusive: bool = False
    basis: Literal["completed_years", "calendar_year"] = "completed_years"
    reference_date: dt.date | None = None
    severity: Severity = "error"

    def contains(self, age: int) -> bool:
        if self.min_age is not None and age < self.min_age:
            return False
        if self.max_age is not None:
            if self.max_exclusive and age >= self.max_age:
                return False
            if not self.max_exclusive and age > self.max_age:
                return False
        return True


class AgeBand(_Sourced):
    """One age group: ``min_age`` ≤ age < ``below_age`` (``None``: no upper bound)."""

    name: str
    min_age: int = Field(ge=0)
    below_age: int | None = None


class AgeGroups(_Scoped):
    """Age groups assigned from birth dates (otog 2024 六（二）).

    A row whose age falls in no band is an error. When the roster's ``group`` (or ``event``)
    names one of the bands (contains its ``name``) and it is not the band of the entrant's age,
    that is an error too.
    """

    bands: list[AgeBand]
    basis: Literal["completed_years", "calendar_year"] = "completed_years"
    reference_date: dt.date | None = None

    def band_for(self, age: int) -> AgeBand | None:
        for b in self.bands:
            if age >= b.min_age and (b.below_age is None or age < b.below_age):
                return b
        return None


class Accompaniment(_Scoped):
    """Young entrants need an accompanying adult (cbsa 2022 十二（二）): a warning (or error)
    for ages below ``under_age`` (≤ when ``inclusive``)."""

    under_age: int = Field(ge=0)
    inclusive: bool = False
    basis: Literal["completed_years", "calendar_year"] = "completed_years"
    reference_date: dt.date | None = None
    severity: Severity = "warning"


class TeamSize(_Scoped):
    """Players per team (rows sharing ``event`` and ``team``); staff roles are not counted.

    ``genders``: exact numbers of players per gender (``{"M": 1, "F": 1}`` for a mixed pair).
    """

    min_players: int | None = Field(default=None, ge=0)
    max_players: int | None = Field(default=None, ge=0)
    genders: dict[Literal["M", "F"], int] | None = None
    severity: Severity = "error"


class UnitLimit(_Scoped):
    """Per unit (单位) over the rows in scope: at most ``max_teams`` teams, ``max_players``
    players, ``max_people`` persons (players and staff, each person once)."""

    max_teams: int | None = Field(default=None, ge=0)
    max_players: int | None = Field(default=None, ge=0)
    max_people: int | None = Field(default=None, ge=0)
    severity: Severity = "error"


class SingleEntry(_Sourced):
    """One player, limited entries: at most ``max_events`` events (fujian 2024 七（四）: one, 不得
    兼项), one team per event (otog 2024 桥牌/掼蛋 "一个运动员只能在一个队内参加比赛"), one unit
    (fujian 七（四） "只能代表一个单位"). ``None``/``False`` switches a part off. Staff rows
    (领队, 教练 …) are not counted. A person is the ``id_number`` when given, else name + birth
    date, else the name."""

    max_events: int | None = Field(default=1, ge=1)
    one_team_per_event: bool = True
    one_unit: bool = True
    severity: Severity = "error"


class DuplicateCheck(_Sourced):
    """The same player twice in one event: same ID number, or same name and birth date."""

    by_id: bool = True
    by_name_birth: bool = True
    severity: Severity = "error"


class IdNumberCheck(_Sourced):
    """Mainland 18-digit ID numbers (GB 11643): check digit (warning), birth date against the
    roster's ``birth_date`` (error) and gender digit against ``gender`` (warning). Other formats
    (passports, 港澳台 permits) are not checked."""

    enabled: bool = True


class EligibilityRules(_Sourced):
    """The ``eligibility`` block of a regulation."""

    birth_windows: list[BirthDateWindow] = Field(default_factory=list)
    age_ranges: list[AgeRange] = Field(default_factory=list)
    age_groups: AgeGroups | None = None
    accompaniment: Accompaniment | None = None
    team_sizes: list[TeamSize] = Field(default_factory=list)
    unit_limits: list[UnitLimit] = Field(default_factory=list)
    single_entry: SingleEntry | None = None
    duplicates: DuplicateCheck = Field(default_factory=DuplicateCheck)
    id_numbers: IdNumberCheck = Field(default_factory=IdNumberCheck)
    required_fields: list[str] = Field(default_factory=lambda: ["name"])

    @property
    def needs_birth_date(self) -> bool:
        return bool(self.birth_windows or self.age_ranges or self.age_groups
                    or self.accompaniment)
