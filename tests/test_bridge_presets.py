"""The bridge team presets carry the 规程's numbers with their clauses."""

from __future__ import annotations

from decimal import Decimal as D

from bianpai.templates.presets_io import load_preset, preset_names
from bianpai.templates.schema import KnockoutFormat, RoundRobinFormat, SwissFormat


def test_presets_are_listed():
    names = preset_names()
    assert {"fujian-elder-bridge-teams", "otog-bridge-teams",
            "shenzhen-guandan-pairs-2023"} <= set(names)


def test_fujian_stages():
    reg = load_preset("fujian-elder-bridge-teams")
    g = reg.groups[0]
    s1, ko, cons = g.stages
    assert isinstance(s1.format, SwissFormat)
    assert (s1.format.rounds, s1.format.boards_per_round, s1.format.round1,
            s1.format.same_unit_first) == (6, 8, "by_number", True)
    assert isinstance(ko.format, KnockoutFormat)
    assert (ko.format.boards, ko.format.sessions, ko.format.tie_breaks) == (16, 2, ["stage_place"])
    assert "九（二）" in ko.format.clause and "六（五）" in ko.format.clause
    assert ko.entrants[0].places.first == 1 and ko.entrants[0].places.last == 8
    assert isinstance(cons.format, SwissFormat) and cons.format.round1 == "by_score"
    nine, qf = cons.entrants
    assert nine.places.first == 9 and nine.places.last is None
    assert nine.carry_over.fraction == D("0.25") and nine.carry_over.plus == 0
    assert qf.losers_of == "QF" and qf.join_round == 3
    assert qf.carry_over.fraction == D("0.25") and qf.carry_over.plus == 24
    assert qf.carry_over.of_stage == "s1" and "八（二）" in qf.carry_over.clause
    assert [p.from_stage for p in g.final_ranking] == ["ko", "cons"]
    block = reg.awards.group_for("桥牌队式团体赛")
    assert block.merit_split.winner_percent == 60 and "九（二）" in block.clause
    fines = {f.name_zh: f for f in s1.scoring.fines}
    assert fines["赛场内吸烟"].vp == 2 and fines["大声讨论牌情"].vp_max == 3
    # every ambiguity carries a note
    assert "第四十四条" in s1.tie_breaks.note and "轮空" in s1.format.note


def test_otog_stages():
    reg = load_preset("otog-bridge-teams")
    s1, final, cons = reg.groups[0].stages
    assert (s1.format.rounds, s1.format.boards_per_round) == (5, 10)
    # one board count per stage: the VP scale follows 每轮牌数 (the scoring's own count is empty)
    assert s1.scoring.boards is None
    assert isinstance(final.format, RoundRobinFormat) and final.format.max_rounds == 3
    assert final.entrants[0].places.last == 4 and "带分" in final.entrants[0].note
    assert cons.entrants[0].places.first == 5 and cons.format.rounds == 3
    block = reg.awards.group_for("桥牌团体赛")
    assert block.prize_table.amounts[1] == 2000
    assert block.places_for(20) == 6 and block.places_for(19) == 3
    assert any("双人参赛项目" in n for n in reg.notes)
