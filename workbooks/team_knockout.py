"""The bridge team workbook style's 淘汰赛 sheet (:data:`team_layouts.KNOCKOUT`): one row per
knockout match from the format's bracket frame (``Knockout8.frame``,
:func:`bianpai.engines.knockout.knockout8`) — 场次, 轮次, 半区, the home and away team with their
previous-stage places (排位), each session's seat choice (选位, 福建 六（五）), the IMPs, winner,
loser and how the match was decided (说明, 九（二）).

Declared by the style (``SheetSet.bracket_sheet``); the core writes it with every ``draw`` and
``rank`` for each entered stage whose format has a bracket frame, never knowing its columns.
"""

from __future__ import annotations

from typing import Callable

import pandas as pd

from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.layouts import SheetLayout


def _int(v):
    return None if v is None or pd.isna(v) else int(v)


def knockout_rows(frame: pd.DataFrame, name_of: Callable[[int], str | None],
                  lang: str) -> list[list]:
    """Rows of 淘汰赛 (columns of :data:`team_layouts.KNOCKOUT`) from a bracket ``frame``;
    ``name_of``: a team's name by its number. 说明 keeps both languages ("中文 / English")."""
    rows = []
    for rec in frame.to_dict("records"):
        home, away = _int(rec["home"]), _int(rec["away"])
        s1, s2 = _int(rec["seat_choice_s1"]), _int(rec["seat_choice_s2"])
        rows.append([rec["match"], rec["round"], rec["half"], home,
                     name_of(home) if home else None, _int(rec["home_place"]),
                     away, name_of(away) if away else None, _int(rec["away_place"]),
                     f"{s1}号" if s1 else None, f"{s2}号" if s2 else None,
                     _int(rec["home_imps"]), _int(rec["away_imps"]), _int(rec["winner"]),
                     _int(rec["loser"]), rec.get("说明") or None])
    return rows


#: the style's bracket sheet: its layout and its rows from a format's bracket frame
BRACKET_SHEET: tuple[SheetLayout, Callable[[pd.DataFrame, Callable, str], list[list]]] = (
    T.KNOCKOUT, knockout_rows)
