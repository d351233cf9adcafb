"""Entrants a stage's scoring leaves without a place (the scoring's ``unplaced`` hook).

A scoring may declare ``unplaced(matches, typed) -> {entrant: (round, zh, en)}``: entrants whose
typed rulings take their place away from ``round`` on while their earlier results stand (e.g.
guandan pairs, 深圳规程 十一（四）5 "迟到两轮…取消比赛资格": round 2 on is forfeited, round 1
stays). The core then lists them after the others with no place (名次 empty, ``rank`` None in
``rank --json``), the explanation the hook gives in 说明, the places of the others closed up;
a format's placings skip them, so they get no award and never qualify.

This differs from an annulment (弃权 / 退赛 取消, :attr:`CoreEvent.annulled`): there every result
of the entrant is void and it shares the last place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from bianpai.engines.typed_rows import place_of  # noqa: F401 - the readers' name for it

#: 说明 of an entrant whose results are all annulled (弃权, 取消资格): listed, not ranked
VOID_NOTE = ("弃权或取消资格，全部成绩无效，不参加排名",
             "forfeited or disqualified: all results void, not ranked")

if TYPE_CHECKING:
    from bianpai.addin.competition import CoreEvent
    from bianpai.templates.schema import Group, Stage

__all__ = ["unplaced", "without_places", "place_of"]


def unplaced(ev: CoreEvent, g: Group, s: Stage) -> dict[int, tuple[int, str, str]]:
    """The scoring's ``unplaced`` hook over the stage's drawn matches and what is typed for
    them: entrant number → (first round without a place, Chinese, English explanation).
    Empty when the scoring declares no hook. Computed once per load."""
    hook = getattr(s.scoring, "unplaced", None)
    if hook is None:
        return {}
    key = ("unplaced", g.id, s.id)
    if key not in ev._results_cache:
        matches = ev.stage_matches(g, s)
        typed = {m.key: t for m in matches
                 if (t := ev.typed.get((g.id, s.id, *m.key))) is not None}
        ev._results_cache[key] = {int(e): v for e, v in hook(matches, typed).items()}
    return ev._results_cache[key]


def without_places(table: pd.DataFrame, gone: dict[int, tuple]) -> pd.DataFrame:
    """``table`` (a pool's standings from the ranking engine, where the entrants of ``gone``
    are unranked: ``rank`` None, ``explanation_zh/_en`` …) with those entrants moved to the
    end, each with its explanation (``gone``: entrant → (round, Chinese, English)). Unchanged
    when none is in the table."""
    mask = table["entrant"].astype(int).isin(list(gone))
    if not mask.any():
        return table
    tail = table[mask].copy()
    tail["explanation_zh"] = [gone[int(e)][1] for e in tail["entrant"]]
    tail["explanation_en"] = [gone[int(e)][2] for e in tail["entrant"]]
    return pd.concat([table[~mask], tail], ignore_index=True)
