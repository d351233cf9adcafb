"""Races per round read from 规程 (CBSA 十六（二）): "男子组…全部采用17局9胜", "女子组…全部采用13局7胜",
"第一阶段…全部采用17局9胜", "第二阶段…其中半决赛和三、四名决赛采用41局21胜（分两个阶段），决赛采用81局41胜
（分两天四个阶段），其余全部为25局13胜". The numbers are settings in the 规程 sheet (十六（二）1（3）: the
organizer may change the event); a change there reaches every match's 几局胜.
"""

from __future__ import annotations

from pathlib import Path


from bianpai.addin import commands
from bianpai.engines.core import Match, StageEntrant, StageState
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.settings import regulation_from_sheet
from tests.test_elimination import play
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "cbsa-chinese-eightball-open-2022"


def _set(path: Path, values: dict) -> None:
    wb = load_workbook(path)
    for row in wb["规程"].iter_rows(min_row=2):
        if row[0].value in values:
            row[2].value = values[row[0].value]
    wb.save(path)


def _stage2_races(fmt) -> dict[str, int]:
    state = play(fmt, StageState([StageEntrant(i, seed=i) for i in range(1, 65)], seed=1),
                 lambda m: min(m.sides))
    return {m.label: fmt.race_for(m, state) for m in state.matches}


def test_the_preset_gives_the_regulation_races():
    q, groups, ko = load_preset(PRESET).groups[0].stages
    assert q.format.race_for(Match(1, 1, (1, 2), "男3")) == 9
    assert q.format.race_for(Match(3, 1, (1, 2), "女2")) == 7
    assert groups.format.race_for(Match(4, 1, (1, 2), "A")) == 9
    race = _stage2_races(ko.format)
    assert race["F"] == 41 and race["SF1"] == race["SF2"] == race["3rd"] == 21
    assert {race[k] for k in race if k not in ("F", "SF1", "SF2", "3rd")} == {13}


def test_races_typed_in_the_regulation_sheet_are_the_ones_used(tmp_path):
    """A race per round typed in 规程 (a list: round 1, round 2 …, the last one repeats; or
    counted back from the final) is the race of that round's matches."""
    path = tmp_path / "e.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), load_preset(PRESET))
    _set(path, {"groups[0].stages[0].format.races":
                "男1: [5, 7], 男2: [9], 男3: [9], 男4: [9], 女1: [7], 女2: [7]",
                "groups[0].stages[2].format.races_from_final": "11, 9, 7",
                "groups[0].stages[2].format.third_place_race": 5})
    q, _groups, ko = regulation_from_sheet(OpenpyxlPort(path, command="test")).groups[0].stages
    assert q.format.race_for(Match(1, 1, (1, 2), "男1")) == 5
    assert q.format.race_for(Match(2, 1, (1, 2), "男1")) == 7
    assert q.format.race_for(Match(4, 1, (1, 2), "男1")) == 7
    race = _stage2_races(ko.format)
    assert race["F"] == 11 and race["SF1"] == 9 and race["3rd"] == 5 and race["QF1"] == 7
    assert race["R64-1"] == 7
