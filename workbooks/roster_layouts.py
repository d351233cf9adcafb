"""Roster layouts of a competition-core event: which 报名 sheet(s) a regulation's
``roster_layout`` writes and reads, and how a typed row becomes an entrant of the core.

The core (:func:`bianpai.addin.competition.load_core_event`, ``new``, ``check``) never branches
on the layout's name: it asks the :class:`RosterLayout` declared here.

- ``teams``: 报名 one row per team (队号, 队名, 队员1–6 …, :data:`core_layouts.ROSTER`) and 队员
  one row per person (eligibility).
- ``people``: 报名 one row per person (:data:`layouts.ROSTER_PEOPLE`); an individual, pair or team
  is built from its people (组别 + 队名/组合) by the core's reader.
- ``bridge-teams``: the bridge team workbook's 报名 (:data:`team_layouts.TEAM_ROSTER`: 队号, 队名,
  地市/单位, 队员1–6, 领队/教练, 备注 — no 组别: an event of one group, no 种子) and 队员.
- ``pairs``: 报名 one row per pair, 选手1/性别1/出生日期1/证件号1/选手2/… (:data:`layouts.ROSTER_PAIRS`,
  Shenzhen 规程 六、七): the entrant's name is 选手1/选手2, its players 选手1 and 选手2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pandas as pd

from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.demo_rosters import bridge_teams_demo_roster, pairs_demo_roster
from bianpai.workbooks.layouts import SheetLayout
from bianpai.workbooks.tables import SharedMap

#: columns of the core's entrant roster (one row per entrant), as :data:`core_layouts.ROSTER`
ENTRANT_COLUMNS = [c.key for c in K.ROSTER.columns]


def _blank(v) -> bool:
    return v is None or (isinstance(v, float) and v != v) or str(v).strip() == ""


def pair_name(rec) -> str:
    """The name of a pair: 选手1/选手2 (an empty player left out)."""
    names = [str(rec.get(k)).strip() for k in ("name1", "name2") if not _blank(rec.get(k))]
    return "/".join(names)


def entrants_from_pairs(table: pd.DataFrame) -> pd.DataFrame:
    """One entrant row per 报名 row of the pairs roster, in the core's entrant columns
    (:data:`ENTRANT_COLUMNS`): ``name`` 选手1/选手2, ``player1``/``player2`` the two players;
    the index (Excel row), ``attrs`` (sheet, column letters) and the typed cells kept so a
    finding names the pairs sheet's own cell. Columns ``gender1``/``birth1``/… stay readable."""
    out = table.copy()
    out["name"] = [pair_name(rec) or None for rec in table.to_dict("records")]
    out["player1"] = table["name1"]
    out["player2"] = table["name2"]
    for k in ENTRANT_COLUMNS:
        if k not in out.columns:
            out[k] = None
    cols = dict(table.attrs.get("columns", {}))
    cols.setdefault("name", cols.get("name1", "C"))  # a pair's name is read from 选手1
    out.attrs = {**table.attrs, "columns": SharedMap(cols)}
    return out.astype(object).where(pd.notna(out), None)


def entrants_from_team_rows(table: pd.DataFrame) -> pd.DataFrame:
    """One entrant row per 报名 row of a roster that shows no 组别/种子 (the bridge team
    workbook: an event of one group): the core's missing entrant columns added empty (组别
    ``None`` = the event's only group); index, ``attrs`` and the typed cells kept."""
    out = table.copy()
    for k in ENTRANT_COLUMNS:
        if k not in out.columns:
            out[k] = None
    out.attrs = dict(table.attrs)
    return out.astype(object).where(pd.notna(out), None)


#: the seed recorded in 抽签 for a group whose numbers were all typed in 报名 (no lot drawn;
#: ``RosterLayout.numbers_all_or_none``), as the Shenzhen workbook writes it
TYPED_NUMBERS_SEED = "报名表序号"


@dataclass(frozen=True)
class RosterLayout:
    """How an event's roster is typed and read.

    ``sheets``: the typed sheets ``new`` writes (the first is the one read); ``per_person``: the
    read sheet holds one row per person (the core builds its entrants from the people);
    ``entrants``: a typed table (index = Excel row) → one row per entrant in
    :data:`ENTRANT_COLUMNS`, or ``None`` when the sheet already is in them; ``person_rows``:
    eligibility reads the roster sheet itself as people (a pair's row = two persons) rather than
    a 队员 sheet; ``runs_on_core``: whether an event of this layout runs the core's commands yet
    (an event not yet ported keeps its own commands); ``lot``: ``per_group`` (each group's
    numbers from its own stream derived from the seed) or ``event`` (one stream from the seed
    drawn through the groups in order, the free numbers of each group shuffled in roster
    order: the Shenzhen workbook's 抽签, 九); ``entrant_word``: what ``check``'s
    summary counts (Chinese, English); ``name_parts``: the roster columns an entrant's name is
    joined from (``name_sep`` between them, a pair 选手1/选手2): a drawn entrant whose 报名 row
    (抽签's 报名表行) keeps one of its parts while another is retyped after the draw is that
    entrant with its name corrected (a typo fixed), followed into every sheet and logged; a
    row with none of its parts left is another entrant (refused, as for any layout);
    ``number_word``: what an entrant's number is called in a message naming it (队号 9, 序号 9:
    the roster's own header word), Chinese and English; ``numbers_all_or_none``: typed numbers
    (序号) are either all typed, 1…n once each, or all blank for the lot (the Shenzhen 抽签: a
    mix is an error), and numbers typed that way are recorded with the seed 报名表序号 instead
    of the lot's seed;
    ``demo_roster``: ``(regulation, seed, fields) →`` rows per sheet of ``sheets`` that
    ``bianpai demo`` types (:mod:`bianpai.workbooks.demo_rosters`), ``None``: the core demo's
    own team / people roster."""

    key: str
    sheets: tuple[SheetLayout, ...]
    per_person: bool = False
    entrants: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    person_rows: bool = False
    runs_on_core: bool = True
    lot: str = "per_group"
    entrant_word: tuple[str, str] = ("个参赛单位", "entries")  # a team, a pair or a person
    check_title: tuple[str, str] = ("名单检查", "roster check")  # check's 日志 words
    name_parts: tuple[str, ...] = ()
    name_sep: str = "/"
    number_word: tuple[str, str] = ("队号", "team")
    numbers_all_or_none: bool = False
    demo_roster: Callable[..., tuple[list[list], ...]] | None = None

    @property
    def table(self) -> SheetLayout:
        return self.sheets[0]

    @property
    def typed_seed(self) -> str:
        """The seed 抽签 records for numbers all typed in 报名 (no lot): 报名表序号, 报名表队号."""
        return f"报名表{self.number_word[0]}"


ROSTER_LAYOUTS: dict[str, RosterLayout] = {
    "teams": RosterLayout("teams", (K.ROSTER, T.TEAM_PLAYERS)),
    "people": RosterLayout("people", (L.ROSTER_PEOPLE,), per_person=True, person_rows=True),
    # the bridge team workbook (docs/teams-port.md), run by the core's commands
    "bridge-teams": RosterLayout("bridge-teams", (T.TEAM_ROSTER, T.TEAM_PLAYERS),
                                 entrants=entrants_from_team_rows,
                                 lot="event",  # one Random(seed) shuffle of 1…n (六（一）)
                                 entrant_word=("队", "teams"), check_title=("检查", "check"),
                                 numbers_all_or_none=True,  # 队号 1…n typed, or all by lot
                                 demo_roster=bridge_teams_demo_roster),
    # the Shenzhen pairs workbook (docs/pairs-port.md): every sheet generated by the core
    "pairs": RosterLayout("pairs", (L.ROSTER_PAIRS,), entrants=entrants_from_pairs,
                          person_rows=True, lot="event",
                          name_parts=("name1", "name2"),
                          entrant_word=("行", "rows"),  # the Shenzhen check counts its 报名 rows
                          number_word=("序号", "pair"), numbers_all_or_none=True,
                          demo_roster=pairs_demo_roster),
}


def roster_layout(key: str | None) -> RosterLayout:
    """The declared roster layout ``key`` (``teams`` when unknown)."""
    return ROSTER_LAYOUTS.get(key or "teams", ROSTER_LAYOUTS["teams"])
