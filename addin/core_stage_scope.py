"""A stage whose scoring scores it whole (``scope = "stage"``: results compared across tables,
e.g. the boards of a Mitchell movement), for :meth:`CoreEvent.results`."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

import pandas as pd

from bianpai.engines.core import Match, MatchResult, TypedMatch
from bianpai.engines.errors import InputError, InputErrors

if TYPE_CHECKING:  # annotations only (the event module imports this one when it scores)
    from bianpai.addin.competition import CoreEvent
    from bianpai.templates.schema import Group, Stage


def stage_scope_results(ev: CoreEvent, g: Group, s: Stage) -> dict[tuple, MatchResult]:
    """A scoring with ``scope = "stage"`` scores the whole stage at once (results compared
    across tables): ``score_stage(matches, typed by match key)``; its errors are placed like
    a match scoring's."""
    matches = ev.stage_matches(g, s)
    typed = {m.key: ev.typed[(g.id, s.id, *m.key)] for m in matches
             if (g.id, s.id, *m.key) in ev.typed}
    # a withdrawn entrant's seat is empty after its last round (the scoring scores the
    # others there by its own rule for a withdrawal, e.g. as a sit-out); a scoring naming its
    # forfeit decisions (``withdrawal_decisions``: side 0, side 1, both) has an untyped match
    # of a withdrawn side decided as that side's forfeit instead (深圳 十（三）2: 弃权)
    from bianpai.addin.core_withdrawn import at_typed, untyped  # noqa: PLC0415
    codes = getattr(s.scoring, "withdrawal_decisions", None)
    nobody: list[Match] = []  # every seat withdrawn (or a withdrawn entrant's bye): void
    for i, m in enumerate(matches):
        gone = [e for e in m.sides if e is not None and
                (w := ev.withdrawn_after(g, s, e)) is not None and m.round > w]
        if gone and all(e is None or e in gone for e in m.sides):
            nobody.append(m)
            continue
        if gone and codes and None not in m.sides:
            t = typed.get(m.key)
            if untyped(t, s.scoring):
                k = 2 if len(gone) > 1 else m.sides.index(gone[0])
                typed[m.key] = TypedMatch(games=pd.DataFrame(columns=["game"]), decision=codes[k])
            continue
        if gone:
            matches[i] = Match(m.round, m.table, tuple(None if e in gone else e for e in m.sides),
                               m.pool, f"{m.label or ''}（{'、'.join(f'{e}号' for e in gone)}退赛）")
    keys = {m.key for m in nobody}
    try:
        done = s.scoring.score_stage([m for m in matches if m.key not in keys], typed)
    except (InputErrors, InputError) as exc:
        empty = TypedMatch(games=pd.DataFrame(columns=["game"]))
        ev.errors += [ev._placed(e, empty) for e in getattr(exc, "errors", [exc])]
        return {}
    for m in nobody:  # results typed for a match no one plays contradict the 退赛 rows
        t = typed.get(m.key)
        if not untyped(t, s.scoring):
            ev.errors.append(at_typed(ev, InputError(
                f"第{m.round}轮第{m.table}桌双方都已登记退赛（“退赛”表），本桌不赛，却录有成绩：请清除，"
                f"或更正退赛的最后参赛轮次",
                f"round {m.round} table {m.table}: both sides are withdrawn, yet results are "
                f"typed: clear them or correct the withdrawals"), t))
    out = {r.match.key: r for r in done}
    for m in nobody:  # nothing to play: void, no points (a match of two withdrawn entrants)
        out[m.key] = MatchResult(m, tuple(Decimal(0) for _ in m.sides),
                                 tuple("VOID" if e is not None else "BYE" for e in m.sides),
                                 note_zh="退赛，本场不赛", note_en="withdrawn: not played")
    return out
