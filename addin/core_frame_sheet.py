"""A workbook style's bracket sheet (``SheetSet.bracket_sheet``): one sheet rebuilt from the
bracket frame (``format.frame(state)``) of every entered stage whose format keeps one, written
by ``draw`` (with the round it drew, issue 12 "The knockout sheet is refreshed by draw") and by
``rank``. The style declares the sheet's layout and how a frame becomes its rows; the core
knows neither.

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

from bianpai.addin.competition import CoreEvent


def frame_stages(ev: CoreEvent):
    """``(group, stage)`` of every entered stage whose format keeps a bracket frame."""
    for g in ev.reg.groups:
        if g.derived is not None or not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if callable(getattr(s.format, "frame", None)) and ev.entered(g, s):
                yield g, s


def write_frame_sheet(ev: CoreEvent) -> None:
    """Rebuild the style's bracket sheet (nothing when the style declares none or no stage
    keeps a frame)."""
    from bianpai.addin import command_infra as c  # noqa: PLC0415
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    declared = style_of(ev.reg).bracket_sheet
    if declared is None:
        return
    layout, rows_of = declared
    rows: list[list] = []
    for g, s in frame_stages(ev):
        frame = s.format.frame(ev.state(g, s, with_standings=False))
        rows += rows_of(frame, lambda n, g=g: ev.name_of(g, n), ev.lang)
    if rows:
        c.write_generated(ev.port, layout, rows, ev.lang)
