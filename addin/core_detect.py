"""Which workbooks run on the competition core, and the sheet layouts a regulation's stages
generate: :func:`is_core_regulation` (every stage's format and scoring a registered core piece)
and :func:`layouts_for` (the result-entry columns are the union of the stage scorings' entry
columns; the standings columns the union of the tie-break chains).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bianpai.engines import core
from bianpai.engines.standings import CRITERIA
from bianpai.templates.schema import Regulation, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.workbooks.settings import regulation_from_sheet

DEFAULT_SIDES = (("主队", "Home"), ("客队", "Away"))


# ------------------------------------------------------------------------------ detection

def _is_core_stage(stage: Stage) -> bool:
    # a registered piece may say its events' sheets are not generated here yet
    # (``runs_on_core = False``): such an event stays on its own commands
    return stage.scoring.kind in core.SCORINGS and stage.format.kind in core.FORMATS and all(
        getattr(piece, "runs_on_core", True) for piece in (stage.format, stage.scoring))


def is_core_regulation(reg: Regulation) -> bool:
    """True when the regulation's stages run on the competition core (every stage's format and
    scoring are registered core pieces; a regulation without stages — every group's places
    typed in 名次录入 — too)."""
    stages = [s for g in reg.groups for s in g.stages]
    # a roster layout declares whether its events run the core's commands yet
    # (workbooks.roster_layouts.RosterLayout.runs_on_core)
    return roster_layout(reg.roster_layout).runs_on_core \
        and all(_is_core_stage(s) for s in stages)


def is_core_workbook(port: WorkbookPort) -> bool:
    """True when the workbook's 规程 sheet names a core regulation (False when it cannot be
    read: the generic command then reports the problem)."""
    try:
        return is_core_regulation(regulation_from_sheet(port))
    except Exception:
        return False


# ------------------------------------------------------------------------------ layouts

@dataclass
class Layouts:
    results: Any
    games: Any
    standings: Any
    sides: tuple[tuple[str, str], ...]


def layouts_for(reg: Regulation) -> Layouts:
    """The result-entry and standings layouts of ``reg``: value columns are the union of the
    stage scorings' entry columns (first declaration of a key wins), criteria columns the union
    of the stage chains; side titles from the regulation's ``side_titles`` when set (an event
    whose formats name their sides differently: 南北/东西 and 先手/后手), else from the first
    stage's format."""
    stages = [s for g in reg.groups for s in g.stages]
    sides = K.event_sides(reg)
    mcols, gcols, decisions, crits = [], [], [], []
    seen_m, seen_g, seen_c = set(), set(), set()
    scorings = [(s, sc) for s in stages
                for sc in [s.scoring] + [v.scoring for v in s.variants if v.scoring is not None]]
    for s, sc in scorings:
        for c in sc.entry_match_columns():
            if c.key not in seen_m:
                seen_m.add(c.key)
                mcols.append(c)
        for c in sc.entry_game_columns():
            if c.key not in seen_g:
                seen_g.add(c.key)
                gcols.append(c)
        for d in sc.entry_decisions():
            if d not in decisions:
                decisions.append(d)
    for s in stages:
        for name in (s.tie_breaks.criteria if s.tie_breaks else []):
            if name not in seen_c and name in CRITERIA and name != "lots":
                seen_c.add(name)
                c = CRITERIA[name]
                crits.append((name, c.label_zh, c.label_en))
    return Layouts(results=K.results_layout(mcols, decisions, list(sides)),
                   games=K.games_layout(gcols, list(sides)),
                   standings=K.standings_layout(crits), sides=sides)
