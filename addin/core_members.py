"""One player, one team: a person listed in two teams' 报名 rows of one group.

Qingdao gouji 规程 六（一）“所有比赛人员组队参赛” (and every team 规程: a player plays for one team).
The duplicate is reported by cell, naming the first cell too; the follow-on findings about that
cell (a 队员 row found under the other team, so a "missing" birth date) are dropped, since the
duplicate is their cause. Two people of the same name (同名) are common: a name in two teams is
not a duplicate when the 队员 sheet lists a person of that name under each of the two teams.
"""

from __future__ import annotations

import pandas as pd

from bianpai.engines.errors import InputError
from bianpai.workbooks.tables import cell_of

__all__ = ["duplicate_players"]

PLAYER_COLUMNS = [f"player{i}" for i in range(1, 7)]


def listed_players(port) -> set[tuple[str, str]]:
    """``(队名, 姓名)`` of every row of the 队员 sheet (empty when the workbook has none; its own
    reading errors are reported by the eligibility check)."""
    from bianpai.workbooks import team_layouts as T  # noqa: PLC0415
    from bianpai.workbooks.tables import find_sheet, read_table  # noqa: PLC0415
    if find_sheet(port, T.TEAM_PLAYERS) is None:
        return set()
    df = read_table(port, T.TEAM_PLAYERS, errors=[])
    return {(str(t).strip(), str(n).strip()) for t, n in zip(df["team"], df["name"])
            if t is not None and n is not None and t == t and n == n}


def duplicate_players(roster: pd.DataFrame, sheet: str,
                      listed: set[tuple[str, str]] = frozenset()) -> tuple[list[InputError], set[str]]:
    """``roster``: one group's 报名 rows (index: sheet row; columns ``name`` = team name and
    ``player1``…``player6``, attrs as read); ``listed``: ``(队名, 姓名)`` of the 队员 sheet
    (:func:`listed_players`). Returns ``(errors, cells)``: one error per player cell naming a
    person already listed for another team — unless 队员 has a person of that name under both
    teams (namesakes) — and the ``"报名!E4"`` style ``cells`` of those duplicates, so callers
    can drop their follow-on findings."""
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
            elif seen[0] != team and not {(seen[0], name), (team, name)} <= listed:
                cells.add(f"{sheet}!{cell}")
                errs.append(InputError(
                    f"{name} 已在「{seen[0]}」（{sheet}!{seen[1]}）报名，一名队员只能在一个队",
                    f"{name} is already entered for {seen[0]} ({sheet}!{seen[1]}); "
                    "a player plays for one team only", sheet=sheet, cell=cell))
    return errs, cells
