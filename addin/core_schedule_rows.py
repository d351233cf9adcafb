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
    pts = score_text(res)
    zh = ev.lang == "zh"
    parts = [game_points_text(res, ev.lang), res.note_zh if zh else (res.note_en or res.note_zh)]
    w = res.winner
    if w is not None and len(m.entrants) == 2:
        parts.insert(0, f"{w}号胜" if zh else f"{w} won")
    return pts, ("；" if zh else "; ").join(x for x in parts if x)


def score_text(res) -> str:
    """The score of the typed match ``res`` as 对阵 and 成绩公告 show it, ``"2:0"``: its match
    points (VP, 场分 …), but a frame race's frames (中式台球 7:4; its match points 1:0 say nothing
    the winner does not); whole numbers without decimals."""
    frames = res.values.get("frames_won")
    shown = frames if isinstance(frames, tuple) and len(frames) == len(res.points) \
        and None not in frames else res.points
    return ":".join(_num(p) for p in shown)


def game_points_text(res, lang: str = "zh") -> str:
    """``"局分 24:-24"`` for a match scored on 局分 (够级 九第一条2 "累计局得分多者获胜", a team
    board match of 象棋/围棋 五（二）), so 对阵 says by how much it was won; ``""`` for any
    other scoring, a match without 局分 (a forfeit, a bye) and one whose score is its 局分."""
    vals = res.values.get("game_points")
    if not isinstance(vals, tuple) or len(vals) != len(res.points) or None in vals \
            or not any(vals) or tuple(vals) == tuple(res.points):
        return ""
    return ("局分 " if lang == "zh" else "game points ") + ":".join(_num(v) for v in vals)


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
