"""What a workbook style declares about its generated and typed sheets, beyond its roster
(:mod:`bianpai.workbooks.roster_layouts`): the core's commands read these declarations instead
of branching on a sport or a preset.

A style is named by the regulation's ``roster_layout`` (the workbook's 报名 style carries the
rest of its sheets with it). Styles without an entry here take the core's own sheets
(:class:`SheetSet` defaults).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SheetSet:
    """Declarations of one workbook style.

    ``schedule_whole``: ``draw`` writes every round of a stage whose format can fix them all at
    once (``whole_schedule(state)``, a position schedule such as a Berger round robin) into 对阵
    with their blank entry rows, instead of one round per ``draw`` (深圳掼牌 九
    "编号对阵在第一轮比赛前抽签确定": the Shenzhen 对阵 lists the whole event)."""

    key: str
    schedule_whole: bool = False


SHEET_SETS: dict[str, SheetSet] = {
    "pairs": SheetSet("pairs", schedule_whole=True),
}


def sheet_set(key: str | None) -> SheetSet:
    """The declarations of workbook style ``key`` (the core's defaults when none)."""
    return SHEET_SETS.get(key or "teams", SheetSet(key or "teams"))
