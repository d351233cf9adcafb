"""``draw --redraw`` on the competition core: the numbers drawn again, for every format, while
nothing depends on them yet.

A redraw is allowed while no result, 判定 or 罚分 is typed, no entrant has withdrawn and no
later stage has been entered (晋级): the drawn numbers, the 对阵 and the blank entry rows are
then forgotten and :func:`bianpai.addin.core_draw.core_draw` draws as for the first time (a new
seed, or the one given). Otherwise it is refused ("不能重新抽签"), naming the sheet holding what
was typed. The old Shenzhen pipeline's ``--redraw`` (深圳市掼蛋双人赛规程 2023 九：编号对阵在第一轮
比赛前抽签确定), made generic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from bianpai.addin.core_views import shown_layout
from bianpai.engines.errors import InputError, InputErrors
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.tables import find_sheet

if TYPE_CHECKING:  # annotations only
    from bianpai.addin.competition import CoreEvent


def _typed_somewhere(ev: CoreEvent) -> str | None:
    """The sheet (as shown) holding the first result, 判定 or 罚分 typed, else ``None``; values
    the draw itself writes (``prefill`` columns, e.g. 几局胜) do not count."""
    prefilled = {c.key for g in ev.reg.groups for s in g.stages
                 for c in s.scoring.entry_match_columns() if getattr(c, "prefill", False)}
    for t in ev.typed.values():
        if t.penalties:
            return ev.sheet(K.PENALTIES)
        if t.decision is not None or any(v is not None for k, v in t.totals.items()
                                         if k not in prefilled):
            return ev.sheet(ev.lay.results)
        if any(not pd.isna(v) for r in t.game_records() for k, v in r.items()
               if k != "game" and not str(k).startswith("_") and k not in prefilled
               and k not in ("side0", "side1")):
            return ev.sheet(ev.lay.games)
    return None


def refuse_or_forget(ev: CoreEvent) -> bool:
    """Check that the event may be drawn again and forget its draw: every group undrawn (no
    numbers, no seed), no match drawn, the entry sheets (成绩, 逐局成绩 as the style shows them)
    emptied to their header rows. Raises ``InputErrors`` ("不能重新抽签", naming the sheet)
    once a result, a 判定 or a 罚分 is typed, a withdrawal is recorded, or a later stage has
    entrants; nothing is changed then. True when a draw was forgotten (its entry rows are to
    be cleared, :func:`clear_entry_rows`), False when nothing was drawn yet."""
    why = None
    sheet = _typed_somewhere(ev)
    if sheet is not None:
        why = (f"“{sheet}”表已录入成绩", f"results are typed in {sheet}")
    elif ev.withdrawals:
        sheet, why = ev.sheet(K.WITHDRAWALS), ("已登记退赛", "a withdrawal is recorded")
    elif ev.entries is not None and not ev.entries.empty:
        sheet, why = ev.sheet(K.ENTRIES), ("已进入下一阶段", "a later stage has entrants")
    if why is not None:
        raise InputErrors([InputError(
            f"{why[0]}，不能重新抽签；如确需重抽，请先清空（或撤销到抽签后）",
            f"{why[1]}: the numbers cannot be drawn again; clear them first (or undo)",
            sheet=sheet)])
    if not any(ev.groups[g.id].drawn for g in ev.reg.groups):
        return False  # nothing drawn yet: an ordinary first draw
    for g in ev.reg.groups:
        gs = ev.groups[g.id]
        gs.teams.clear()
        gs.seed = None
    if ev.schedule is not None:
        ev.schedule = ev.schedule.iloc[0:0]
    ev.typed.clear()
    ev._results_cache.clear()
    return True


def clear_entry_rows(ev: CoreEvent) -> None:
    """Empty the entry sheets (成绩, 逐局成绩 as the style shows them) to their header rows: the
    blank rows of the draw :func:`refuse_or_forget` forgot (called as the redraw writes)."""
    port, lang = ev.port, ev.lang
    for layout in (ev.lay.results, ev.lay.games):
        shown = shown_layout(ev.reg, layout)
        name = find_sheet(port, shown)
        if name is not None:  # the blank entry rows of the earlier draw
            port.write_sheet(name, [shown.headers(lang)], shown.sheet_format(lang=lang))
