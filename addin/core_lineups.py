"""The line-up a team plays when it hands in none for a round (出场名单 defaults).

A scoring whose 逐局成绩 columns name players (``EntryColumn.member`` with a side) may declare
``lineup_default = "last_round"`` (福建 象棋团体 四4 “若未能按时提交，将按该队上轮的具体出场名单
执行”): the draw then prepares each new match's rows with each team's line-up of its last match in
the stage, game by game (board by board); the arbiter overwrites them when a new list is handed in.
Nothing here knows the sport.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bianpai.engines.core import Match, is_blank

if TYPE_CHECKING:
    from bianpai.addin.competition import CoreEvent
    from bianpai.templates.schema import Group, Stage

__all__ = ["last_lineups"]


def last_lineups(ev: CoreEvent, g: Group, s: Stage, m: Match) -> dict[str, dict[int, str]]:
    """For the new match ``m``: member column key → {game number: player} of each side's team
    as typed in its latest earlier match of the stage that has a line-up (the side it sat on
    then may differ); ``{}`` when the scoring's ``lineup_default`` is not ``last_round``."""
    if getattr(s.scoring, "lineup_default", "none") != "last_round":
        return {}
    cols = [c for c in s.scoring.entry_game_columns() if c.member and c.side is not None]
    by_side = {c.side: c for c in cols}
    earlier = sorted((x for x in ev.stage_matches(g, s) if x.round < m.round),
                     key=lambda x: -x.round)
    out: dict[str, dict[int, str]] = {}
    for col in cols:
        team = m.sides[col.side] if col.side < len(m.sides) else None
        if team is None:
            continue
        for x in earlier:
            if team not in x.sides or x.sides.index(team) not in by_side:
                continue
            then = by_side[x.sides.index(team)]
            t = ev.typed.get((g.id, s.id, *x.key))
            if t is None:
                continue
            names = {int(r["game"]): str(r[then.key]).strip() for r in t.game_records()
                     if not is_blank(r.get("game")) and not is_blank(r.get(then.key))}
            if names:
                out[col.key] = names
                break
    return out
