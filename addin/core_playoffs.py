"""Ranking play-offs a scoring asks for once a stage is over (the optional scoring hook
``playoffs_needed``): the rank command prepares their rows in 逐局成绩 and says so in 排名.

E.g. 争上游 (otog 单项 十（五）（3）): two pairs level on points, 头游, 二游 and 三游 play one extra
deal, typed as deal 5 of their match; the ranking then reads it. Nothing here knows the sport.
"""

from __future__ import annotations

from bianpai.addin.competition import CoreEvent
from bianpai.engines.core import Match, is_blank
from bianpai.engines.errors import InputError
from bianpai.templates.schema import Group, Stage

__all__ = ["playoff_offers", "prepare_playoff_rows", "explain_playoffs", "untyped_playoffs"]


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
    from bianpai.addin.core_views import append_core_rows  # noqa: PLC0415
    return append_core_rows(ev.port, ev.reg, ev.lay.games, rows, ev.lang)


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


def untyped_playoffs(ev: CoreEvent) -> list[InputError]:
    """One ``InputError`` per ranking play-off still untyped (:func:`playoff_offers`), naming
    its 逐局成绩 cell (the first place cell of the prepared row, else the sheet): the awards
    wait for it, since the places it decides are not known yet (e.g. otog 单项 十（五）（3）
    “三游数量相同，则加赛一副牌”)."""
    out = []
    for g, s, m, n in playoff_offers(ev):
        sheet = ev.sheet(ev.lay.games)
        cell = None
        typed = ev.typed.get((g.id, s.id, *m.key))
        if typed is not None and "_row" in typed.games.columns:
            for rec in typed.game_records():
                if not is_blank(rec.get("game")) and int(rec["game"]) == n:
                    keys = list(ev.game_cols)
                    after = keys[keys.index("game") + 1:] if "game" in keys else []
                    cell = f"{ev.game_cols[after[0]] if after else 'G'}{rec['_row']}"
        a, b = m.sides
        out.append(InputError(
            f"{ev.gname(g)}{ev.sname(s)} {a}号与{b}号排名各项相同，须加赛（第{m.round}轮第{m.table}桌第{n}局）"
            f"尚未录入，不能分配奖励",
            f"{g.name_en or g.id}: the ranking play-off of {a} and {b} (round {m.round} table "
            f"{m.table} game {n}) is not typed yet: no awards", sheet=sheet, cell=cell))
    return out
