"""One player, one team: a person listed in two teams' 报名 rows of one group.

Qingdao gouji 规程 六（一）“所有比赛人员组队参赛” (and every team 规程: a player plays for one team).
The duplicate is reported by cell, naming the first cell too; the follow-on findings about that
cell (a 队员 row found under the other team, so a "missing" birth date) are dropped, since the
duplicate is their cause.
"""

from __future__ import annotations

import pandas as pd

from bianpai.engines.errors import InputError
from bianpai.workbooks.tables import cell_of

__all__ = ["duplicate_players"]

PLAYER_COLUMNS = [f"player{i}" for i in range(1, 7)]


def duplicate_players(roster: pd.DataFrame, sheet: str) -> tuple[list[InputError], set[str]]:
    """``roster``: one group's 报名 rows (index: sheet row; columns ``name`` = team name and
    ``player1``…``player6``, attrs as read). Returns ``(errors, cells)``: one error per player
    cell naming a person already listed for another team (``"报名!E4"`` style ``cells`` of
    those duplicates, so callers can drop their follow-on findings)."""
    first: dict[str, tuple[str, str]] = {}
    errs: list[InputError] = []
    cells: set[str] = set()
    for row, rec in zip(roster.index, roster.to_dict("records")):
        team = str(rec.get("name") or "").strip()
        for col in PLAYER_COLUMNS:
            if col not in roster.columns:
                continue
            v = rec.get(col)
            name = "" if v is None or v != v else str(v).strip()
            if not name:
                continue
            cell = cell_of(roster, row, col)
            seen = first.get(name)
            if seen is None:
                first[name] = (team, cell)
            elif seen[0] != team:
                cells.add(f"{sheet}!{cell}")
                errs.append(InputError(
                    f"{name} 已在「{seen[0]}」（{sheet}!{seen[1]}）报名，一名队员只能在一个队",
                    f"{name} is already entered for {seen[0]} ({sheet}!{seen[1]}); "
                    "a player plays for one team only", sheet=sheet, cell=cell))
    return errs, cells
