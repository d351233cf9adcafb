"""A regulation (规程) as data: the pydantic schema every preset validates against.

An event (赛事) has groups (组别: 男子/女子/混合 …); a group is a list of stages; a stage has a
format, a scoring rule, a tie-break chain and entrants. Every setting that comes from the
规程 carries the clause it comes from (``clause``, e.g. ``"八（二）"``) and, where the text is
ambiguous, a ``note`` saying which reading is taken. Awards and eligibility are blocks of their
own. Presets are YAML files in ``bianpai/templates/presets``; see :mod:`bianpai.templates.presets_io`.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bianpai.engines.eligibility import EligibilityRules
from bianpai.engines.board_scoring import BoardGameScoring
from bianpai.engines.bridge_knockout import Knockout8
from bianpai.engines.bridge_teams_scoring import BridgeKnockoutImps, BridgeTeamsVp
from bianpai.engines.bridge_teams_scoring import FineRule as _BridgeFineRule
from bianpai.engines.elimination import DoubleEliminationGroups, SingleElimination
from bianpai.engines.finish_order import GuandanKnockoutScoring, ZhengShangYouScoring
from bianpai.engines.formats_rr import FixtureListStage, RoundRobinStage
from bianpai.engines.gouji import GoujiScoring
from bianpai.engines.guandan import GuandanScoring
from bianpai.engines.knockout_scoring import FramesRace, SingleGame
from bianpai.engines.prizes import AwardRules
from bianpai.engines.board_scoring import TeamBoardGames
from bianpai.engines.mitchell import Mitchell
from bianpai.engines.swiss_individual import IndividualSwiss
from bianpai.engines.team_swiss import TeamSwiss
from bianpai.engines.upgrade80 import Upgrade80Scoring


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: 单循环 (or double, ``cycles=2``) from the FIDE Berger tables: the competition core's round
#: robin (:class:`bianpai.engines.formats_rr.RoundRobinStage`), one model for every pipeline.
RoundRobinFormat = RoundRobinStage


#: 积分编排 (team Swiss, 高分对高分) of a team stage: the competition core's team Swiss
#: (:class:`bianpai.engines.team_swiss.TeamSwiss`), one model for every pipeline.
SwissFormat = TeamSwiss


#: 淘汰赛 of the bridge teams from earlier stage places: the core-interface 8-team knockout
#: (:class:`bianpai.engines.bridge_knockout.Knockout8`), one model for every pipeline.
KnockoutFormat = Knockout8


StageFormat = Annotated[Union[RoundRobinFormat, SwissFormat, KnockoutFormat, FixtureListStage,
                              SingleElimination, DoubleEliminationGroups, IndividualSwiss,
                              Mitchell],
                        Field(discriminator="kind")]


#: a VP fine of the 规程 and the bridge team scorings: competition-core models
#: (:mod:`bianpai.engines.bridge_teams_scoring`), one model for every pipeline
FineRule = _BridgeFineRule
BridgeTeamsVpScoring = BridgeTeamsVp
BridgeKnockoutScoring = BridgeKnockoutImps


Scoring = Annotated[Union[GuandanScoring, BridgeTeamsVpScoring, BridgeKnockoutScoring,
                          GoujiScoring, FramesRace, SingleGame, BoardGameScoring,
                          GuandanKnockoutScoring, ZhengShangYouScoring, TeamBoardGames,
                          Upgrade80Scoring], Field(discriminator="kind")]


class CarryOver(Strict):
    """带分: ``fraction`` × the team's VP total of stage ``of_stage`` (default: the rule's
    ``from_stage``), half-up to 2 places, plus ``plus`` VP (Fujian 八（二）（三））."""

    fraction: Decimal = Decimal("0")
    plus: Decimal = Decimal("0")
    of_stage: str | None = None
    clause: str | None = None
    note: str | None = None


class PlaceRange(Strict):
    """Places ``first`` … ``last`` (inclusive; ``last`` None = to the end)."""

    first: int = 1
    last: int | None = None


class EntrantRule(Strict):
    """Who enters a stage from an earlier one: ``places`` of ``from_stage``'s ranking, or the
    ``losers_of`` a knockout round (``QF``/``SF``), entering at ``join_round`` with
    ``carry_over``.

    Competition-core stages also read: ``per_pool`` (``places`` counted within each pool of
    ``from_stage``, e.g. 各小组前三名 = places 1–3 per pool), ``remaining`` (the entrants still in
    a knockout that stopped when K remained) and ``positions`` (how the new stage's numbers 1…n
    are given: ``lot`` = seeded draw, ``place_order`` = by place, then pool order, ``seed_by`` =
    ordered by the ``seed_by`` keys).

    Several rules fill one stage in rule order: the first rule's entrants take the first
    numbers (seeds), the next rule's the following ones. ``from_roster: seeded``: the roster's
    entrants with a 种子 (in 种子 order) enter here directly (they skip the first stage when it
    takes ``entrants: unseeded``); ``places.last`` then caps how many. ``where``: keep only the
    source placings whose columns have these values (``{bracket_side: winners}`` = 胜部出线).
    ``seed_by``: keys tried in order to order the qualifiers, best first: a registered ranking
    criterion computed over the source stage's results (``frame_rate`` 胜率 …, higher first
    unless the criterion says otherwise), ``rating`` (报名 等级分, higher first, empty last),
    ``seed`` (报名 种子, smaller first, empty last), ``lots`` (seeded lot)."""

    from_stage: str | None = None
    from_roster: Literal["seeded"] | None = None
    where: dict[str, str] | None = None
    seed_by: list[str] | None = None
    places: PlaceRange | None = None
    losers_of: Literal["QF", "SF"] | None = None
    per_pool: bool = False
    remaining: bool = False
    positions: Literal["lot", "place_order", "seed_by"] = "lot"
    join_round: int = 1
    carry_over: CarryOver | None = None
    clause: str | None = None
    note: str | None = None


class PoolSplit(Strict):
    """小组: how a stage's entrants are split into ``count`` pools labelled ``labels`` (default
    A, B, C …). ``method``: ``blocks`` (by pairing number: 1…n/count → A, the next → B …; the
    numbers themselves come from the lot), ``snake`` (typed seeds snaked into the pools, the
    rest drawn; in a later stage: the first rule's seeded entrants snaked into position 1, 2 …
    of the pools, the rest drawn into the free positions), ``by_column`` (the entrants with
    value v in the roster column ``by`` (e.g. ``gender`` 性别) dealt by seeded lot into the
    pools ``labels_by[v]``, evenly). Positions in a pool (A1 … A6) follow the number order."""

    count: int = Field(ge=1)
    labels: list[str] | None = None
    method: Literal["blocks", "snake", "by_column"] = "blocks"
    by: str | None = None
    labels_by: dict[str, list[str]] | None = None
    clause: str | None = None
    note: str | None = None

    def pool_labels(self) -> list[str]:
        if self.labels:
            return list(self.labels)
        return [chr(ord("A") + i) for i in range(self.count)]


class FinalRankPart(Strict):
    """One block of the overall ranking: ``places`` of ``from_stage`` in order."""

    from_stage: str
    places: PlaceRange = Field(default_factory=PlaceRange)
    clause: str | None = None


class TieBreakChain(Strict):
    """Ordered names of ranking criteria (see ``bianpai.engines.standings.CRITERIA``); the first
    is the main score."""

    criteria: list[str]
    # after head-to-head splits a 3-way tie into 1 + 2, compare the remaining two on their own
    # mutual result again (FIDE C.07 practice) instead of going on to the next criterion
    restart_head_to_head: bool = False
    # readings the criteria need, passed to the ranking as its context (e.g. what a bye adds to
    # 对手分: ``bye_opp_score``; points of a win: ``win_points``; FIDE ``edition``)
    options: dict[str, Any] = Field(default_factory=dict)
    clause: str | None = None
    note: str | None = None

    @field_validator("criteria")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        from bianpai.engines import load_criteria  # registers every engine's criteria
        CRITERIA = load_criteria()
        by_label = {c.label_zh: c.name for c in CRITERIA.values()}
        v = [by_label.get(c, c) for c in v]  # Chinese names (场分, 平均得分率 …) are accepted too
        unknown = [c for c in v if c not in CRITERIA]
        if unknown:  # the nearest names, not all 60+ (a guandan event needs no chess ones)
            import difflib
            names = {**{k: k for k in CRITERIA}, **by_label}
            near = []
            for u in unknown:
                near += [names[m] for m in difflib.get_close_matches(u, list(names), n=6,
                                                                     cutoff=0.3)]
            near = list(dict.fromkeys(near)) or ["match_points", "lots"]
            raise ValueError(f"未知的排名依据 unknown criteria: {', '.join(unknown)}; 相近的 "
                             f"nearest: " + ", ".join(f"{k}（{CRITERIA[k].label_zh}）"
                                                      for k in near))
        if not v:
            raise ValueError("排名依据不能为空 / the chain must not be empty")
        return v


class Replacement(Strict):
    """递补: who takes the place of an entrant that withdraws from this stage before it is
    drawn (CBSA 十二（四）"如遇男、女子排名前8的选手未报名参赛或不符合参赛条件，空余名额将按照排名依次顺延递补。
    如已报名又临时退赛的，空余名额将在资格赛未出线的选手中依据资格赛的综合成绩择优递补").

    ``from_stage``: the stage whose non-qualified entrants replace, best first by ``order_by``
    (criteria over that stage's results: ``match_points`` = matches won, ``frame_rate`` …,
    ``rating``/``seed`` from 报名, ``lots``). ``seeds``: a roster seed (``from_roster: seeded``)
    withdrawn while ``from_stage`` has no result yet is replaced by ``ranking`` (the next ranked
    player: best ``ranked_by`` among the unseeded entrants with the same ``same_as`` 报名 value;
    he leaves ``from_stage`` — a drawn match of his there is a walkover) or by
    ``non_qualified`` like everyone else. The replacement takes the withdrawn entrant's slot
    (pool and position). ``after_draw``: a withdrawal registered after the stage is drawn gives
    ``walkover`` (the opponents go on, the drawn sheet stands) or ``replace_unplayed`` (the
    replacement takes the slot while the withdrawn entrant has no result in the stage)."""

    from_stage: str
    order_by: list[str] = Field(default_factory=lambda: ["match_points", "frame_rate",
                                                         "frames_won", "lots"])
    seeds: Literal["ranking", "non_qualified"] = "ranking"
    ranked_by: list[str] = Field(default_factory=lambda: ["rating", "lots"])
    same_as: str | None = None
    after_draw: Literal["walkover", "replace_unplayed"] = "walkover"
    clause: str | None = None
    note: str | None = None


class StageVariant(Strict):
    """A format chosen by the field size (视参赛人数多少采取积分循环制或淘汰制): the stage plays this
    ``format`` (and ``scoring`` when given) when the group has at most ``when_entries_at_most``
    entries (``None``: any number). The first matching variant wins; none → the stage's own."""
    when_entries_at_most: int | None = Field(None, ge=1)
    format: StageFormat
    scoring: Scoring | None = None
    clause: str | None = None
    note: str | None = None


class Stage(Strict):
    id: str
    name_zh: str
    name_en: str = ""
    format: StageFormat
    scoring: Scoring
    tie_breaks: TieBreakChain | None = None
    # "all" (the roster) or rules taking entrants from earlier stages
    entrants: str | list[EntrantRule] = "all"
    pools: PoolSplit | None = None
    # formats by field size, tried in order before ``format`` (see :class:`StageVariant`)
    variants: list[StageVariant] = Field(default_factory=list)
    # 递补 of entrants withdrawn before the stage is drawn (see :class:`Replacement`)
    replacement: Replacement | None = None

    @model_validator(mode="after")
    def _one_board_count(self):
        """One setting per fact: a VP scoring's own board count (the VP scale) must agree with
        the format's boards per round when both are given (case boards-per-round-ignored)."""
        b = getattr(self.scoring, "boards", None)
        per_round = getattr(self.format, "boards_per_round", None)
        if b is not None and per_round is not None and b != per_round:
            raise ValueError(f"计分的牌数 {b} 与赛制的每轮牌数 {per_round} 不一致：请只改“每轮牌数”，"
                             f"计分牌数留空即按每轮牌数 / scoring boards {b} differ from the "
                             f"format's boards per round {per_round}; leave the scoring's empty")
        # a scoring that reads settings of its format (boards per round, bye VP)
        bind = getattr(self.scoring, "bind_format", None)
        if bind is not None:
            bind(self.format)
        return self
    clause: str | None = None
    note: str | None = None

    def for_entries(self, n: int) -> "Stage":
        """This stage as played by a field of ``n`` entries: the first variant with
        ``when_entries_at_most`` ≥ ``n`` (or ``None``) gives format and scoring; else itself."""
        for v in self.variants:
            if v.when_entries_at_most is None or n <= v.when_entries_at_most:
                return self.model_copy(update={"format": v.format,
                                               "scoring": v.scoring or self.scoring})
        return self


class DerivedRanking(Strict):
    """A ranking computed from another group's results instead of played (e.g. 最佳运动员 =
    most consecutive clearances over the main draw): the entrants of ``from_group`` ordered by
    the sum of the result value ``value`` over the stages ``stages`` (higher first; equal sums
    share the place; entrants whose sum is ``min_value`` or less are not ranked)."""

    from_group: str
    value: str
    stages: list[str]
    min_value: int = 0
    clause: str | None = None
    note: str | None = None


class SubEntrants(Strict):
    """One roster entry plays as several stage entrants, one per pool label (e.g. a unit's team
    of 4 plays a Mitchell as its 南北 pair and its 东西 pair: ``labels: [NS, EW]``). Eligibility
    counts the roster entry (the team); the draw gives each part its own number (part ``j`` of
    entry ``t`` of ``n``: ``t + j·n``) and its pool ``labels[j]``, named ``队名（names_zh[j]）``.
    ``separate_rankings``: the group's final ranking and awards are per label (双冠军)."""

    labels: list[str] = Field(min_length=2)
    names_zh: list[str] | None = None
    separate_rankings: bool = True
    clause: str | None = None
    note: str | None = None

    def name(self, j: int) -> str:
        return (self.names_zh or self.labels)[j]


class Group(Strict):
    """A group (组别) of an event; ``entrant`` says what one entry is."""

    id: str
    name_zh: str
    name_en: str = ""
    entrant: Literal["individual", "pair", "team"] = "pair"
    gender: Literal["male", "female", "mixed", "any"] = "any"
    stages: list[Stage] = Field(default_factory=list)
    event_date: date | None = None  # first day of this group's play, when it differs
    # the field size the 规程 names (七（一）"18支队伍"); the demo plays it, check compares
    entries: int | None = Field(None, ge=2)
    # players of one entry at the table (够级: 3 per team); the demo fills this many
    team_size: int | None = Field(None, ge=1)
    # the fewest entries the stage structure can be played with (checked before the first draw)
    min_entries: int | None = Field(None, ge=2)
    min_entries_note: str | None = None
    # the most entries the 规程 admits to this group (深圳 七（一）3: 男子 8 对, 女子 4 对, 混合 4 对)
    max_entries: int | None = Field(None, ge=2)
    max_entries_note: str | None = None
    final_ranking: list[FinalRankPart] | None = None
    #: a ranking derived from another group's results (no stages of its own)
    derived: DerivedRanking | None = None
    # a roster entry plays as several stage entrants (a team's NS and EW pairs)
    sub_entrants: SubEntrants | None = None
    clause: str | None = None

    def stage(self, sid: str) -> Stage:
        """The stage with id or Chinese name ``sid``; raises ``KeyError``."""
        for s in self.stages:
            if sid in (s.id, s.name_zh):
                return s
        raise KeyError(sid)


class DrawRule(Strict):
    """How pairing numbers are given before round 1 (九: 编号对阵在第一轮比赛前抽签确定)."""

    numbers_by_lot: bool = True
    clause: str | None = None
    note: str | None = None


class WithdrawalRule(Strict):
    """退赛 / 取消资格: what happens to the results of an entrant that leaves after round k.
    ``results``: ``keep`` (played matches stand; its later matches are forfeits won by the
    opponents) or ``annul`` (every match it played is void for everyone)."""

    results: Literal["keep", "annul"] = "keep"
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
    roster_layout: Literal["pairs", "people", "teams", "bridge-teams"] = "pairs"
    # titles of the two sides on the shared 成绩/逐局成绩 sheets (Chinese, English) when the
    # stages' formats name their sides differently (南北/东西, 先手/后手); None: the first stage's
    side_titles: list[str] | None = None
    side_titles_en: list[str] | None = None
    withdrawal: WithdrawalRule = Field(default_factory=WithdrawalRule)
    language: Literal["zh", "en"] = "zh"
    notes: list[str] = Field(default_factory=list)

    def group(self, gid: str) -> Group:
        for g in self.groups:
            if gid in (g.id, g.name_zh, g.name_en):
                return g
        raise KeyError(gid)
