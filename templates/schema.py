"""A regulation (规程) as data: the pydantic schema every preset validates against.

An event (赛事) has groups (组别: 男子/女子/混合 …); a group is a list of stages; a stage has a
format, a scoring rule, a tie-break chain and entrants. Every setting that comes from the
规程 carries the clause it comes from (``clause``, e.g. ``"八（二）"``) and, where the text is
ambiguous, a ``note`` saying which reading is taken. Awards and eligibility are blocks of their
own. Presets are YAML files in ``bianpai/templates/presets``; see :mod:`bianpai.templates.presets_io`.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bianpai.engines.eligibility import EligibilityRules
from bianpai.engines.guandan import GuandanScoring
from bianpai.engines.prizes import AwardRules


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RoundRobinFormat(Strict):
    """单循环 (or double, ``cycles=2``) from the FIDE Berger tables."""

    kind: Literal["round_robin"] = "round_robin"
    cycles: int = 1
    max_rounds: int | None = None
    min_boards_per_round: int | None = None
    boards_per_round: int = 6
    clause: str | None = None
    note: str | None = None


StageFormat = Annotated[Union[RoundRobinFormat], Field(discriminator="kind")]
Scoring = Annotated[Union[GuandanScoring], Field(discriminator="kind")]


class TieBreakChain(Strict):
    """Ordered names of ranking criteria (see ``bianpai.engines.standings.CRITERIA``); the first
    is the main score."""

    criteria: list[str]
    clause: str | None = None
    note: str | None = None

    @field_validator("criteria")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        import bianpai.engines  # noqa: F401  (registers every engine's criteria)
        from bianpai.engines.standings import CRITERIA
        unknown = [c for c in v if c not in CRITERIA]
        if unknown:
            raise ValueError(f"未知的排名依据 unknown criteria: {', '.join(unknown)}; "
                             f"可用 known: {', '.join(sorted(CRITERIA))}")
        if not v:
            raise ValueError("排名依据不能为空 / the chain must not be empty")
        return v


class Stage(Strict):
    id: str
    name_zh: str
    name_en: str = ""
    format: StageFormat
    scoring: Scoring
    tie_breaks: TieBreakChain
    entrants: str = "all"
    clause: str | None = None


class Group(Strict):
    """A group (组别) of an event; ``entrant`` says what one entry is."""

    id: str
    name_zh: str
    name_en: str = ""
    entrant: Literal["individual", "pair", "team"] = "pair"
    gender: Literal["male", "female", "mixed", "any"] = "any"
    stages: list[Stage] = Field(default_factory=list)
    event_date: date | None = None  # first day of this group's play, when it differs
    clause: str | None = None


class DrawRule(Strict):
    """How pairing numbers are given before round 1 (九: 编号对阵在第一轮比赛前抽签确定)."""

    numbers_by_lot: bool = True
    clause: str | None = None
    note: str | None = None


class Regulation(Strict):
    """One 规程. ``awards`` and ``eligibility`` hold their own blocks (engine models)."""

    id: str
    title_zh: str
    title_en: str = ""
    sport: str
    source: str | None = None
    event_date: date | None = None
    venue: str | None = None
    groups: list[Group]
    draw: DrawRule = Field(default_factory=DrawRule)
    awards: AwardRules | None = None
    eligibility: EligibilityRules | None = None
    roster_layout: Literal["pairs", "people", "teams"] = "pairs"
    language: Literal["zh", "en"] = "zh"
    notes: list[str] = Field(default_factory=list)

    def group(self, gid: str) -> Group:
        for g in self.groups:
            if gid in (g.id, g.name_zh, g.name_en):
                return g
        raise KeyError(gid)
