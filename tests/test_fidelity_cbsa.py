"""Fidelity: cbsa-chinese-eightball-open-2022
(shared/regulations/cbsa-chinese-eightball-open-2022.txt).

Rows of docs/fidelity-audit.md section 5 that no other test quotes; each docstring quotes the
row id, the clause number and its Chinese text. Engine-level, on the preset's own settings.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pandas as pd
import pytest

from bianpai.engines.eligibility import check_roster, has_errors
from bianpai.engines.prizes import AwardRules, allocate
from bianpai.templates.presets_io import load_preset

REG = load_preset("cbsa-chinese-eightball-open-2022")
OPEN = REG.groups[0]
QUAL, GROUPS, KNOCKOUT = OPEN.stages
DAY = dt.date(2022, 12, 12)


def _one(birth):
    return pd.DataFrame({"name": ["甲"], "birth_date": [birth]}, index=[2])


def _ranking(places, group, names=None):
    n = len(places)
    return pd.DataFrame({"group": group, "place": places,
                         "entrant_id": [f"e{i}" for i in range(n)],
                         "name": names or [f"选手{i}" for i in range(n)], "unit": ""})


def _amounts(amounts: dict, best: dict | None = None) -> AwardRules:
    data = REG.awards.model_dump()
    for g in data["groups"]:
        g["prize_table"]["amounts"] = best if g["name"] == "最佳运动员" else amounts
        g["prize_table"]["announced_later"] = False
    return AwardRules.model_validate(data)


@pytest.mark.parametrize("birth,ok", [
    (dt.date(2010, 12, 12), True), (dt.date(2010, 12, 13), False),
    (dt.date(1957, 12, 12), True), (dt.date(1956, 12, 12), False)])
def test_cb02_age_12_to_65(birth, ok):
    """CB-02 十二（二）“年龄12周岁至65周岁，性别不限”: completed years at 2022-12-12, both ends included
    (``eligibility.age_ranges[0]``)."""
    f = check_roster(_one(birth), REG.eligibility, event_date=DAY)
    assert (not has_errors(f)) == ok
    assert (REG.eligibility.age_ranges[0].min_age, REG.eligibility.age_ranges[0].max_age) == (12, 65)


@pytest.mark.parametrize("birth,warned", [
    (dt.date(2006, 12, 12), False), (dt.date(2006, 12, 13), True), (dt.date(2010, 1, 1), True)])
def test_cb03_under_16_needs_an_adult_relative(birth, warned):
    """CB-03 十二（二）“16岁以下未成年人须有成年亲属陪同参赛”: read as under 16 (16 itself not included;
    ``eligibility.accompaniment.under_age`` = 16, inclusive false): a warning, not an error."""
    f = check_roster(_one(birth), REG.eligibility, event_date=DAY)
    assert ("needs_guardian" in set(f["code"])) == warned
    assert not has_errors(f)


def test_cb04_main_draw_of_128_16_direct_and_112_qualifiers():
    """CB-04 十二（三）“正赛限128人参加，其中根据中国台球协会最新中式台球男子排名前8和女子排名前8的选手可直接参加正赛，
    其余112人全部从资格赛中产生”: stage 1 takes seeds 1–16 from the roster and the qualifiers that
    remain; the six flights stop at 16 + 16 + 32 + 32 + 8 + 8 = 112."""
    direct, qualified = GROUPS.entrants
    assert direct.from_roster == "seeded"
    assert (direct.places.first, direct.places.last) == (1, 16)
    assert qualified.from_stage == "qualifier" and qualified.remaining is True
    stops = QUAL.format.stop_when_remaining
    assert sum(stops.values()) == 112
    assert 16 + sum(stops.values()) == 128 == GROUPS.pools.count * 8


def test_cb18_trophies_medals_certificates():
    """CB-18 十七（二）“冠、亚军获得赛事奖杯、奖牌，前8名选手均获得中国台球协会颁发的赛事获奖证书”."""
    t = allocate(_ranking(list(range(1, 11)), "正赛"), REG.awards).table
    assert len(t) == 8 and t["certificate"].all()
    assert t["trophy"].tolist() == t["medal"].tolist() == [True, True] + [False] * 6


def test_cb19_amounts_missing_from_the_text_are_typed():
    """CB-19 十七（三）“奖金分配：” (the table is absent from this copy): no money until the organizer
    types the amounts in 规程 (``prize_table.announced_later``); then they are paid."""
    t = allocate(_ranking([1, 2, 3], "正赛"), REG.awards).table
    assert t["gross"].tolist() == [None, None, None]
    t = allocate(_ranking([1, 2, 3], "正赛"), _amounts({1: 50000, 2: 20000, 3: 10000})).table
    assert [D(str(v)) for v in t["gross"]] == [D(50000), D(20000), D(10000)]


def test_cb20_cb21_best_player_split_equally_after_tax():
    """CB-21 十七（三）“最佳运动员是在正赛期间连续清台（包含炸清和接清）数量最多的选手，如多名选手连续清台数量相同，则奖金
    平分”; CB-20 “奖金均为人民币税前金额…代扣代缴20%税金”: two tied best players share 10000 →
    5000 each, 1000 withheld, 4000 paid."""
    rules = _amounts({1: 50000}, best={1: 10000})
    t = allocate(_ranking([1, 1, 3], "最佳运动员"), rules).table
    assert [D(str(v)) for v in t["gross"]] == [D(5000), D(5000)]
    assert [D(str(v)) for v in t["tax_withheld"]] == [D(1000), D(1000)]
    assert [D(str(v)) for v in t["net"]] == [D(4000), D(4000)]
    assert REG.awards.tax.rate == D("0.2") and REG.awards.tie_split.policy == "equal"
