"""Ranking play-offs a scoring asks for once a stage is over (the optional scoring hook
``playoffs_needed``): the rank command prepares their rows in 逐局成绩 and says so in 排名.

E.g. 争上游 (otog 单项 十（五）（3）): two pairs level on points, 头游, 二游 and 三游 play one extra
deal, typed as deal 5 of their match; the ranking then reads it. Nothing here knows the sport.
"""

from __future__ import annotations

from bianpai.addin.competition import CoreEvent
from bianpai.engines.core import Match, is_blank
from bianpai.templates.schema import Group, Stage

__all__ = ["playoff_offers", "prepare_playoff_rows", "explain_playoffs"]


def playoff_offers(ev: CoreEvent) -> list[tuple[Group, Stage, Match, int]]:
    """``(group, stage, match, game number)`` of every ranking play-off still to type, in the
    finished stages whose scoring has ``playoffs_needed``."""
    out = []
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            need = getattr(s.scoring, "playoffs_needed", None)
            if need is None or not ev.entered(g, s) or not ev.finished(g, s):
                continue
            out += [(g, s, m, n) for m, n in need(list(ev.results(g, s).values()))]
    return out


def prepare_playoff_rows(ev: CoreEvent, offers) -> int:
    """Append a blank 逐局成绩 row (keys + game number) for every offer that has none yet;
    returns the number of rows added. Typed rows are never changed."""
    rows = []
    for g, s, m, n in offers:
        typed = ev.typed.get((g.id, s.id, *m.key))
        if typed is not None and "game" in typed.games.columns and any(
                not is_blank(v) and int(v) == n for v in typed.games["game"]):
            continue
        rows.append([ev.gname(g), ev.sname(s), m.pool, m.round, m.table, n]
                    + [None] * (len(ev.lay.games.columns) - 6))
    if not rows:
        return 0
    port = ev.port
    name = ev.sheet(ev.lay.games)
    existing = port.read_values(name)
    last = len(existing)
    while last > 1 and all(v in (None, "") for v in existing[last - 1]):
        last -= 1
    port.append_rows(name, rows, start_row=max(last, 1) + 1)
    return len(rows)


def explain_playoffs(ev: CoreEvent, offers, rows: list[list]) -> None:
    """Add to the 说明 (last cell) of the 排名 rows of the entrants of each offer where the
    play-off is typed (group name, stage name and number in cells 0, 1, 4)."""
    todo: dict[tuple, list[str]] = {}
    for g, s, m, n in offers:
        a, b = m.sides
        for me, other in ((a, b), (b, a)):
            todo.setdefault((ev.gname(g), ev.sname(s), me), []).append(
                f"与{other}号各项相同，须加赛：在“逐局成绩”第{m.round}轮第{m.table}桌录入第{n}局"
                if ev.lang == "zh" else f"level with {other}: type the play-off as game {n} of "
                f"round {m.round} table {m.table}")
    for r in rows:
        extra = todo.get((r[0], r[1], r[4]))
        if extra:
            r[-1] = "；".join([x for x in [r[-1]] if x] + extra)
