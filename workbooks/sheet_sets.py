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

from bianpai.templates.schema import Regulation
from bianpai.workbooks.pairs_sheets import pairs_views
from bianpai.workbooks.sheet_views import SheetView


@dataclass(frozen=True)
class SheetSet:
    """Declarations of one workbook style.

    ``schedule_whole``: ``draw`` writes every round of a stage whose format can fix them all at
    once (``whole_schedule(state)``, a position schedule such as a Berger round robin) into 对阵
    with their blank entry rows, instead of one round per ``draw`` (深圳掼牌 九
    "编号对阵在第一轮比赛前抽签确定": the Shenzhen 对阵 lists the whole event).
    ``views``: the regulation → its own form of core sheets, by core layout key
    (:class:`~bianpai.workbooks.sheet_views.SheetView`); ``record_copies``: the hidden copies
    of 抽签/晋级 that refuse a hand edit (a style without them checks its 抽签 against the
    roster rows instead); ``round_papers``: ``draw`` writes 桌卡 and 记分单;
    ``withdrawals_sheet``: ``new`` writes the typed 退赛 sheet; ``final_sheet``: ``rank`` writes
    总排名 of a finished group (a single-stage style's 排名 is already its final ranking);
    ``rank_papers``: ``rank`` writes 成绩公告 and 排名走势; ``entry_order``: the order of the
    result-entry sheets in the workbook (core layout keys); ``crosstable_sep``: what joins two
    meetings of the same entrants in one 交叉表 cell."""

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

    def view(self, reg: Regulation, key: str) -> SheetView | None:
        """The style's view of core sheet ``key`` (``None``: the core's own columns)."""
        return (self.views(reg) if self.views is not None else {}).get(key)


SHEET_SETS: dict[str, SheetSet] = {
    "pairs": SheetSet("pairs", schedule_whole=True, views=pairs_views, record_copies=False,
                      round_papers=False, withdrawals_sheet=False, final_sheet=False,
                      rank_papers=False, entry_order=("games", "results"), crosstable_sep="／"),
}


def sheet_set(key: str | None) -> SheetSet:
    """The declarations of workbook style ``key`` (the core's defaults when none)."""
    return SHEET_SETS.get(key or "teams", SheetSet(key or "teams"))
