"""A 退赛 that contradicts what was typed: a result played by the withdrawn entrant after its
last round (a trial tester registered "after round 1" on a finished Swiss and the ranking kept
the withdrawn player's later wins, silently)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bianpai.engines.core import MatchResult, TypedMatch
from bianpai.engines.errors import InputError
from bianpai.engines.typed_rows import is_na

if TYPE_CHECKING:  # annotations only
    from bianpai.addin.competition import CoreEvent
    from bianpai.templates.schema import Group, Stage

#: outcomes of a game that was played (a forfeit, a bye or a void result is none)
PLAYED = ("W", "D", "L")


def played_after_withdrawal(ev: CoreEvent, g: Group, s: Stage, results: list[MatchResult]
                            ) -> list[InputError]:
    """An error, at the typed result's cell, for each result of stage ``s`` that the withdrawn
    entrant played after the last round the 退赛 sheet gives it (README: 退出后的比赛判对手胜):
    either the result or the withdrawal's round is wrong, and the command writes nothing."""
    errs = []
    for r in results:
        for side, n in enumerate(r.match.sides):
            if n is None or (w := ev.withdrawn_after(g, s, n)) is None or r.match.round <= w:
                continue
            if side < len(r.outcome) and str(r.outcome[side]) in PLAYED:
                typed = ev.typed.get((g.id, s.id, *r.match.key))
                exc = InputError(
                    f"{ev.gname(g)}{n}号已登记第{w}轮后退赛（“退赛”表），但第{r.match.round}轮"
                    f"第{r.match.table}桌录有其对局成绩：请清除该成绩，或把退赛的最后参赛轮次改为"
                    f"实际最后一轮",
                    f"{n} is registered as withdrawn after round {w}, yet round "
                    f"{r.match.round} table {r.match.table} has a played result for it: clear "
                    f"the result or correct the withdrawal's last round")
                if typed is not None:
                    exc = at_typed(ev, exc, typed)
                errs.append(exc)
                break
    return errs


def untyped(typed: TypedMatch | None, scoring) -> bool:
    """Nothing typed for a match but what the draw prefilled (台次, 先手方, 牌号: the scoring's
    ``prefilled`` keys): a withdrawn side's such match is the opponent's forfeit win, as an
    empty one is (a trial tester found a 象棋 team match of a withdrawn team waiting for ever)."""
    if typed is None or typed.empty:
        return True
    pre = set(getattr(scoring, "prefilled", ()) or ())
    if not pre or typed.decision is not None or any(v is not None for v in typed.totals.values()):
        return False
    return not any(not is_na(v) for r in typed.game_records() for k, v in r.items()
                   if k != "game" and not str(k).startswith("_") and k not in pre)


def at_typed(ev: CoreEvent, exc: InputError, typed: TypedMatch) -> InputError:
    """``exc`` placed at the typed result: its 逐局成绩 rows when games were typed there, else the
    match row's first typed cell."""
    games = [x for x in typed.where if x.split("!")[0] == ev.sheet(ev.lay.games)]
    if games and any(not is_na(v) for rec in typed.game_records() for k, v in rec.items()
                     if k != "game" and not str(k).startswith("_")):
        exc.sheet, _, exc.cell = games[0].partition("!")
        return exc
    return ev._placed(exc, typed)
