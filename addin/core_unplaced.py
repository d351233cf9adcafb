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


def without_places(table: pd.DataFrame, gone: dict[int, tuple[int, str, str]],
                   last_round: int | None = None) -> pd.DataFrame:
    """``table`` (a pool's standings: ``rank``, ``entrant``, ``explanation_zh/_en`` …) with the
    entrants of ``gone`` — those unplaced from a round ≤ ``last_round`` (every one when
    ``None``) — moved to the end with ``rank`` None and the hook's explanation; the others'
    ranks closed up (1 + the number ranked strictly before them). Unchanged when none is in
    the table."""
    hit = {e: v for e, v in gone.items()
           if last_round is None or v[0] <= last_round}
    mask = table["entrant"].astype(int).isin(list(hit))
    if not mask.any():
        return table
    keep = table[~mask].copy()
    keep["rank"] = [1 + int((keep["rank"] < r).sum()) for r in keep["rank"]]
    tail = table[mask].copy()
    tail["rank"] = None
    tail["explanation_zh"] = [hit[int(e)][1] for e in tail["entrant"]]
    tail["explanation_en"] = [hit[int(e)][2] for e in tail["entrant"]]
    out = pd.concat([keep.astype({"rank": object}), tail.astype({"rank": object})],
                    ignore_index=True)
    return out


def place_of(v) -> int | None:
    """A standings ``rank`` cell as an int, ``None`` for an entrant without a place."""
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return None
    return int(v)
