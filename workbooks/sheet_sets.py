"""What a workbook style declares about its generated and typed sheets, beyond its roster
(:mod:`bianpai.workbooks.roster_layouts`): the core's commands read these declarations instead
of branching on a sport or a preset.

A style is named by the regulation's ``roster_layout`` (the workbook's 报名 style carries the
rest of its sheets with it). Styles without an entry here take the core's own sheets
(:class:`SheetSet` defaults).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bianpai.templates.schema import Regulation, Stage
from bianpai.workbooks.log_summaries import (DrawFacts, RankFacts, bridge_teams_advance_summary,
                                             bridge_teams_draw_summary, bridge_teams_rank_summary,
                                             pairs_draw_summary,
                                             pairs_rank_summary)
from bianpai.workbooks.pairs_sheets import pairs_views
from bianpai.workbooks.team_sheets import bridge_team_views
from bianpai.workbooks.team_knockout import BRACKET_SHEET
from bianpai.workbooks.team_standings import stage_standings_view
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.layouts import C, SheetLayout
from bianpai.workbooks.sheet_views import SheetView
from bianpai.workbooks.status_words import BRIDGE_TEAMS_WORDS, CORE_WORDS, PAIRS_WORDS, StatusWords


@dataclass(frozen=True)
class SheetSet:
    """Declarations of one workbook style.

    ``schedule_whole``: ``draw`` writes every round of a stage whose format can fix them all at
    once (``whole_schedule(state)``, a position schedule such as a Berger round robin) into 对阵
    with their blank entry rows, instead of one round per ``draw`` (深圳掼牌 九
    "编号对阵在第一轮比赛前抽签确定": the Shenzhen 对阵 lists the whole event).
    ``views``: the regulation → its own form of core sheets, by core layout key
    (:class:`~bianpai.workbooks.sheet_views.SheetView`); ``record_copies``: the hidden copies
    of 抽签/晋级 that refuse a hand edit (a style without them, its sheet list fixed, keeps the
    record of 抽签 as a document property instead: :mod:`bianpai.addin.core_records`); ``round_papers``: ``draw`` writes 桌卡 and 记分单;
    ``withdrawals_sheet``: ``new`` writes the typed 退赛 sheet; ``final_sheet``: ``rank`` writes
    总排名 of a finished group (a single-stage style's 排名 is already its final ranking);
    ``rank_papers``: ``rank`` writes 成绩公告 and 排名走势; ``entry_order``: the order of the
    result-entry sheets in the workbook (core layout keys); ``crosstable_sep``: what joins two
    meetings of the same entrants in one 交叉表 cell; ``entrant_rounds``: ``rank`` writes one row
    per entrant and round (:data:`ENTRANT_ROUNDS`, shown through the style's view: 成绩汇总);
    ``quiet_unset``: the 规程 sheet leaves out unset optional settings (a note row says how to
    add one) instead of a blank row each; ``draw_summary``: the style's own 日志 sentence for a
    draw (:mod:`bianpai.workbooks.log_summaries`), with the seed logged only when numbers were
    drawn by that press; ``rank_summary``: the same for a ranking; ``plain_data``: ``rank``
    hands its rankings (``--json``) by group name alone (a single-stage workbook) instead of
    "group stage", the criteria as numbers (6, 1.5) instead of text; ``draw_on_advance``:
    ``advance`` also pairs the first round of the stages it enters (one press, one 日志 row);
    ``schedule_by_round``: 对阵 lists the stages that run beside each other round by round (as
    they were drawn) instead of stage by stage; ``status_words``: the
    wording of the status line (当前状态 / 下一步, :mod:`bianpai.workbooks.status_words`);
    ``awards_unfinished``: ``awards`` gives the places of the ranking as it stands, before
    every result is in (the Shenzhen workbook's 奖励分配 reads its 排名 at any time) instead of
    refusing until the event is over; ``seed_only_with_lots``: with a
    ``draw_summary``, the draw's seed is logged only when numbers were drawn; ``advance_summary``:
    the style's 日志 sentence for an advance that drew (:attr:`draw_on_advance`): the stages
    ranked, the seed, the draw's facts; ``new_title``: the 日志 words for ``new``;
    ``awards_logs_entries``: ``awards`` logs the number of entries as its parameter;
    ``crosstable``: ``rank`` writes 交叉表 of its round-robin stages; ``bracket_sheet``: the
    style's sheet of a bracket frame (its layout, and its rows from a format's
    ``frame(state)``, the entrant names and the language), rebuilt by ``draw`` and ``rank``
    (:mod:`bianpai.addin.core_frame_sheet`); ``new_headers``: ``new`` writes the generated
    校验, 对阵, 排名 (and 奖励) with their headers at once (else each when a command first
    writes it); ``as_written``: a generated core sheet is created at the end of the workbook
    (the sheets in the order the commands write them), 抽签 right after the roster sheet,
    instead of at its place in the canonical order; ``advance_ranking_seed``: ``advance`` ranks
    the stages it takes further with its own seed (recorded in 晋级 as their ranking seed)
    instead of the draw's; ``stage_standings``: the regulation, a stage and the round a ranking
    is taken after (``None``: the whole stage) → the view of 排名 for that stage's own sheet
    (its layout names the sheet, 排名-‹阶段›): ``rank`` writes one per stage not ranked by
    placings (a knockout has its bracket sheet), ``advance`` the stages it ranked, instead of
    one 排名 of every stage (a stage taken further is then ranked whole by ``rank --round``)."""

    key: str
    schedule_whole: bool = False
    views: Callable[[Regulation], dict[str, SheetView]] | None = None
    record_copies: bool = True
    round_papers: bool = True
    withdrawals_sheet: bool = True
    final_sheet: bool = True
    rank_papers: bool = True
    entry_order: tuple[str, ...] = ("results", "games")
    crosstable_sep: str = "、"
    entrant_rounds: bool = False
    quiet_unset: bool = True
    draw_summary: Callable[[DrawFacts], tuple[str, str]] | None = None
    rank_summary: Callable[[RankFacts], tuple[str, str]] | None = None
    plain_data: bool = False
    draw_on_advance: bool = False
    schedule_by_round: bool = False
    status_words: StatusWords = CORE_WORDS
    awards_unfinished: bool = False
    seed_only_with_lots: bool = True
    advance_summary: Callable[[tuple[str, ...], int, DrawFacts], tuple[str, str]] | None = None
    new_title: tuple[str, str] = ("新建工作簿", "new workbook")
    awards_logs_entries: bool = False
    crosstable: bool = True
    bracket_sheet: tuple[SheetLayout, Callable[..., list[list]]] | None = None
    new_headers: bool = True
    as_written: bool = False
    advance_ranking_seed: bool = False
    stage_standings: Callable[[Regulation, Stage, int | None], SheetView] | None = None

    def view(self, reg: Regulation, key: str) -> SheetView | None:
        """The style's view of core sheet ``key`` (``None``: the core's own columns). Without
        one of its own, 对阵 is shown in the event's side titles
        (:func:`~bianpai.workbooks.core_layouts.schedule_layout`: 甲方/乙方, 先手/后手 …)."""
        own = (self.views(reg) if self.views is not None else {}).get(key)
        if own is None and key == K.SCHEDULE.key:  # 对阵 in the event's side titles
            shown = K.schedule_layout(K.event_sides(reg))
            return None if shown is K.SCHEDULE else SheetView(shown)
        return own


#: one row per entrant and round of a stage (the entrant's side, opponent, match points,
#: outcome and the scoring's per-side values by their keys): generated by ``rank`` for a style
#: that declares ``entrant_rounds`` and shown through its view
ENTRANT_ROUNDS = SheetLayout(key="entrant_rounds", zh="逐轮成绩", en="Rounds by entrant", columns=[
    C("group", "组别", "Group"), C("stage", "阶段", "Stage"), C("pool", "小组", "Pool"),
    C("number", "序号", "No", "int"), C("name", "选手", "Entrant"), C("round", "轮次", "Round", "int"),
    C("opponent", "对手", "Opponent", "int"), C("side", "方位", "Side", "int"),
    C("match_points", "场分", "Match points", "decimal"), C("outcome", "结果", "Result")])

SHEET_SETS: dict[str, SheetSet] = {
    "pairs": SheetSet("pairs", schedule_whole=True, views=pairs_views, record_copies=False,
                      withdrawals_sheet=False, final_sheet=False, entry_order=("games", "results"), crosstable_sep="／",
                      entrant_rounds=True, quiet_unset=False,
                      draw_summary=pairs_draw_summary, rank_summary=pairs_rank_summary,
                      plain_data=True, status_words=PAIRS_WORDS, awards_unfinished=True),
    # the bridge team workbook (docs/teams-port.md): its own columns, no hidden record copies,
    # no 退赛 sheet; 桌卡/记分单/成绩公告/排名走势 as every core style (issue 12's paper)
    "bridge-teams": SheetSet("bridge-teams", views=bridge_team_views, record_copies=False,
                             withdrawals_sheet=False, quiet_unset=False,
                             draw_on_advance=True, schedule_by_round=True,
                             draw_summary=bridge_teams_draw_summary, seed_only_with_lots=False,
                             advance_summary=bridge_teams_advance_summary,
                             new_title=("新建团体赛工作簿", "new team workbook"),
                             rank_summary=bridge_teams_rank_summary, awards_logs_entries=True,
                             crosstable=False,
                             bracket_sheet=BRACKET_SHEET, new_headers=False,
                             as_written=True, advance_ranking_seed=True,
                             stage_standings=stage_standings_view,
                             status_words=BRIDGE_TEAMS_WORDS),
}


def sheet_set(key: str | None) -> SheetSet:
    """The declarations of workbook style ``key`` (the core's defaults when none)."""
    return SHEET_SETS.get(key or "teams", SheetSet(key or "teams"))
