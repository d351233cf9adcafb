"""对阵 rows as the core writes them: each match's row (:func:`schedule_row`) with its result
text, and the whole sheet stage by stage (:func:`_schedule_rows`). Part of the draw
(:mod:`bianpai.addin.core_draw`), which ``rank`` and the papers call too."""

from __future__ import annotations

from decimal import Decimal

from bianpai.addin.competition import CoreEvent
from bianpai.addin.core_joiners import runs_beside_next
from bianpai.addin.core_views import style_of
from bianpai.engines.core import Match
from bianpai.templates.schema import Group, Stage


def _result_text(ev: CoreEvent, g: Group, s: Stage, m: Match) -> tuple[str, str]:
    if m.is_bye:
        return ("轮空" if ev.lang == "zh" else "bye"), ""
    res = ev.results(g, s).get(m.key)
    if res is None:
        return "", ""
    # a frame race shows its frames (7:4; its match points 1:0 say nothing the winner does not)
    frames = res.values.get("frames_won")
    shown = frames if isinstance(frames, tuple) and len(frames) == 2 and None not in frames \
        else res.points
    pts = ":".join(_num(p) for p in shown)
    note = res.note_zh if ev.lang == "zh" else (res.note_en or res.note_zh)
    w = res.winner
    if w is not None and len(m.entrants) == 2:
        note = (f"{w}号胜" + (f"；{note}" if note else "")) if ev.lang == "zh" else \
            (f"{w} won" + (f"; {note}" if note else ""))
    return pts, note


def _num(v) -> str:
    d = Decimal(str(v))
    return str(int(d)) if d == d.to_integral_value() else f"{d.normalize()}"


def _schedule_rows(ev: CoreEvent, extra: list[tuple[Group, Stage, Match]]) -> list[list]:
    """对阵 rows: stage by stage, or (``SheetSet.schedule_by_round``) the stages that run beside
    each other round by round, as they were drawn."""
    rows = []
    by_round = style_of(ev.reg).schedule_by_round
    for g in ev.reg.groups:
        keyed, wave = [], 0
        for si, s in enumerate(g.stages):
            if si and not runs_beside_next(g, g.stages[si - 1]):
                wave = si
            ms = ev.stage_matches(g, s) + [m for gg, ss, m in extra if gg is g and ss is s]
            for m in ms:
                key = (wave, m.round, si) if by_round else (si, m.round)
                keyed.append((key + (str(m.pool or ""), m.table), schedule_row(ev, g, s, m)))
        rows += [r for _k, r in sorted(keyed, key=lambda kr: kr[0])]
    return rows


def schedule_row(ev: CoreEvent, g: Group, s: Stage, m: Match) -> list:
    """The 对阵 row of match ``m`` in the core's columns (:data:`core_layouts.SCHEDULE`)."""
    a, b = (m.sides + (None,))[:2]
    res, note = _result_text(ev, g, s, m)
    return [ev.gname(g), ev.sname(s), m.pool, m.round, m.table, m.label,
            a, ev.name_of(g, a), b, ev.name_of(g, b) if b is not None else
            ("轮空" if ev.lang == "zh" else "bye"), res, note]
