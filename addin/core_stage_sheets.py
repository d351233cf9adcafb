"""One standings sheet per stage, for a workbook style that declares them
(``SheetSet.stage_standings``: 排名-‹阶段› instead of one 排名 of every stage).

``rank`` writes one per entered stage not ranked by placings (a knockout has its bracket
sheet); ``advance`` the stages it has just ranked and taken further (before its draw writes the
new stages' sheets). A ranking after round N (``rank --round N``) covers the stages still
running; a stage already taken further (its places recorded in 晋级) is ranked whole.

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

from bianpai.addin import command_infra as c
from bianpai.addin.competition import CoreEvent
from bianpai.addin.core_sheets import _is_knockout, _standing_rows
from bianpai.addin.core_views import placed, style_of
from bianpai.templates.schema import Group, Stage

__all__ = ["taken_further", "stage_cut", "stage_rows", "write_stage_standings"]


def taken_further(ev: CoreEvent, g: Group, s: Stage) -> bool:
    """True when a later stage's entrants were taken from ``s`` (晋级 rows name it)."""
    return any(r["group_id"] == g.id and r["from_stage_id"] == s.id for r in ev.entry_records())


def stage_cut(ev: CoreEvent, g: Group, s: Stage, upto_round: int | None) -> int | None:
    """The round ``s`` is ranked after: ``upto_round``, except for a style with one sheet per
    stage where a stage taken further is ranked whole (``None``)."""
    if upto_round is None or (style_of(ev.reg).stage_standings is not None
                              and taken_further(ev, g, s)):
        return None
    return int(upto_round)


def stage_rows(ev: CoreEvent, g: Group, s: Stage, upto_round: int | None
               ) -> tuple[list[list], list[dict]]:
    """排名 rows of stage ``s`` (the core's columns) and the values a view shows besides, as
    of round ``upto_round`` (``None``: every round)."""
    from bianpai.addin.core_paper import state_after  # noqa: PLC0415
    crit_cols = [col.key[2:] for col in ev.lay.standings.columns if col.key.startswith("c_")]
    extras: list[dict] = []
    st = None if upto_round is None else state_after(ev, g, s, int(upto_round))
    return _standing_rows(ev, g, s, crit_cols, st, extras), extras


def write_stage_standings(ev: CoreEvent, parts: list[tuple]) -> None:
    """Write the style's sheet of each stage in ``parts``: ``(group, stage, upto_round)``, or
    ``(group, stage, upto_round, rows, extras)`` with the rows already ranked."""
    declared = style_of(ev.reg).stage_standings
    for part in parts:
        g, s, upto = part[:3]
        if _is_knockout(s):  # ranked by its bracket (the style's bracket sheet)
            continue
        rows, extras = part[3:] if len(part) > 3 else stage_rows(ev, g, s, upto)
        view = declared(ev.reg, s, upto)
        shown = view.shown(ev.lay.standings)
        position = placed(ev.port, ev.reg, ev.lay.standings, shown)
        c.write_generated(ev.port, shown, view.rows(ev.lay.standings, rows, ev.lang, extras),
                          ev.lang, position=position)
