"""Prize engine: places ladder, money, tax, ties, 60 % split, qualification, 大写, presets."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
import yaml
from pydantic import ValidationError

from bianpai.engines.eligibility import EligibilityRules
from bianpai.engines.errors import InputError
from bianpai.engines.prizes import (
    AwardRules, GroupAwards, PlacesByEntries, PlacesStep, PrizeTable, TaxRule, TieSplit,
    allocate, place_label, split_equally, yuan_capital,
)

BLOCKS = Path(__file__).resolve().parents[1] / "templates" / "presets" / "_blocks"
STEMS = ["cbsa-chinese-eightball-open-2022", "fujian-elder-mind-games-2024",
         "otog-mind-games-2024", "qingdao-gouji-2015", "shenzhen-guandan-pairs-2023"]
D = Decimal


def load(stem: str) -> dict:
    return yaml.safe_load((BLOCKS / f"{stem}.awards.yaml").read_text(encoding="utf-8"))


def awards(stem: str) -> AwardRules:
    return AwardRules.model_validate(load(stem)["awards"])


def ranking(places, group="", names=None, **cols) -> pd.DataFrame:
    n = len(places)
    names = names or [f"选手{i + 1}" for i in range(n)]
    df = pd.DataFrame({"group": group, "place": places,
                       "entrant_id": [f"e{i + 1}" for i in range(n)], "name": names,
                       "unit": "某单位"})
    for k, v in cols.items():
        df[k] = v
    return df


def prized(t: pd.DataFrame) -> pd.DataFrame:
    """Rows with an award (otog also lists the top-8 selection candidates without one)."""
    return t[t["award"] != ""]


def money(a) -> list:
    return [None if v is None else D(str(v)) for v in a]


# ------------------------------------------------------------------ presets validate

@pytest.mark.parametrize("stem", STEMS)
def test_block_file_validates(stem):
    data = load(stem)
    assert set(data) == {"awards", "eligibility"}
    a = AwardRules.model_validate(data["awards"])
    e = EligibilityRules.model_validate(data["eligibility"])
    assert a.clause and e.clause
    assert a.groups and all(g.clause for g in a.groups)


def test_block_rejects_unknown_keys():
    data = load("otog-mind-games-2024")["awards"]
    data["groups"][0]["prize_tabel"] = {}
    with pytest.raises(ValidationError):
        AwardRules.model_validate(data)


# ------------------------------------------------------------------ ladder edges

LADDER = [(2, 0), (3, 1), (5, 1), (6, 1), (9, 1), (10, 3), (19, 3), (20, 6), (29, 6),
          (30, 8), (31, 8), (200, 8)]


@pytest.mark.parametrize("entries,places", LADDER)
def test_otog_ladder(entries, places):
    for g in awards("otog-mind-games-2024").groups:
        assert g.places_for(entries) == places
        assert g.is_cancelled(entries) == (entries < 3)


def test_ladder_3_to_5_is_flagged_in_log():
    a = allocate(ranking(list(range(1, 5)), group="围棋成年组"), awards("otog-mind-games-2024"))
    assert any("规程未规定" in line for line in a.log)
    assert prized(a.table)["name"].tolist() == ["选手1"]
    assert len(a.table) == 4   # all four are selection candidates (九（二）3)


def test_two_entries_cancel_the_event():
    a = allocate(ranking([1, 2], group="五子棋青少年组"), awards("otog-mind-games-2024"))
    assert a.cancelled == ["五子棋青少年组"]
    assert a.table.empty
    assert any("取消" in line for line in a.log)


@pytest.mark.parametrize("entries,paid", [(29, 6), (30, 8), (19, 3), (20, 6), (9, 1),
                                          (10, 3), (5, 1), (6, 1), (3, 1)])
def test_ladder_edges_in_allocation(entries, paid):
    a = allocate(ranking(list(range(1, entries + 1)), group="中国象棋成年组"),
                 awards("otog-mind-games-2024"))
    t = prized(a.table)
    assert len(t) == paid
    assert t["place"].tolist() == list(range(1, paid + 1))
    assert a.table["place"].tolist() == list(range(1, min(entries, 8) + 1))


def test_entries_argument_overrides_row_count():
    rules = awards("otog-mind-games-2024")
    st = ranking(list(range(1, 11)), group="掼蛋")
    assert len(prized(allocate(st, rules, 30).table)) == 8
    assert len(prized(allocate(st, rules, 10).table)) == 3
    assert len(prized(allocate(st, rules, {"掼蛋": 9}).table)) == 1
    with pytest.raises(InputError):
        allocate(st, rules, {"桥牌": 9})


# ------------------------------------------------------------------ regulation amounts

def test_otog_pairs_amounts_and_certificates():
    a = allocate(ranking(list(range(1, 31)), group="扑克掼蛋"), awards("otog-mind-games-2024"))
    t = a.table
    assert t["gross"].tolist() == money([2000, 1600, 1200, 1000, 800, 600, 400, 200])
    assert t["certificate"].tolist() == [True] * 3 + [False] * 5
    assert not t["medal"].any()
    assert t["award"].tolist()[:2] == ["第一名", "第二名"]
    assert t["tax_withheld"].tolist() == money([0] * 8)  # no tax in the otog 规程
    assert a.totals.iloc[-1]["gross"] == D("7800")
    assert t["qualification"].iloc[0] == "鄂尔多斯市第三届智力运动会选派候选"


def test_otog_adult_and_youth_amounts():
    rules = awards("otog-mind-games-2024")
    st = pd.concat([ranking(list(range(1, 31)), group="围棋成年组"),
                    ranking(list(range(1, 31)), group="围棋青少年组")], ignore_index=True)
    a = allocate(st, rules)
    adult = a.table[a.table["group"] == "围棋成年组"]
    youth = a.table[a.table["group"] == "围棋青少年组"]
    assert adult["gross"].tolist() == money([1000, 800, 600, 500, 400, 300, 200, 100])
    assert youth["gross"].tolist() == money([500, 300, 200, 100, 100, 100, 100, 100])
    assert adult["medal"].tolist() == [True] * 3 + [False] * 5
    tot = a.totals.set_index("group")
    assert tot.loc["围棋成年组", "gross"] == D("3900")
    assert tot.loc["围棋青少年组", "gross"] == D("1500")
    assert tot.loc["合计", "gross"] == D("5400")
    assert tot.loc["合计", "medals"] == 6


def test_ladder_caps_the_prize_table():
    a = allocate(ranking(list(range(1, 13)), group="桥牌"), awards("otog-mind-games-2024"))
    assert prized(a.table)["gross"].tolist() == money([2000, 1600, 1200])
    assert a.table["gross"].tolist()[3:] == [None] * 5
    assert a.totals.iloc[-1]["gross"] == D("4800")


def _fill(rules: AwardRules, amounts: dict) -> AwardRules:
    data = rules.model_dump()
    for g in data["groups"]:
        if g["prize_table"] is not None and g["name"] != "最佳运动员":
            g["prize_table"]["amounts"] = amounts
            g["prize_table"]["announced_later"] = False
    return AwardRules.model_validate(data)


def test_qingdao_tax_20_percent():
    rules = _fill(awards("qingdao-gouji-2015"), {1: 1600, 2: 1000, 3: 600})
    a = allocate(ranking([1, 2, 3, 4], group="各地市代表队"), rules)
    t = a.table
    assert t["gross"].tolist() == money([1600, 1000, 600])
    assert t["tax_withheld"].tolist() == money([320, 200, 120])
    assert t["net"].tolist() == money([1280, 800, 480])
    assert t["trophy"].all() and t["certificate"].all()
    tot = a.totals.iloc[-1]
    assert (tot["gross"], tot["tax_withheld"], tot["net"]) == (D(3200), D(640), D(2560))
    assert [yuan_capital(v) for v in t["net"]] == ["壹仟贰佰捌拾元整", "捌佰元整", "肆佰捌拾元整"]


def test_amounts_announced_later_give_no_money():
    a = allocate(ranking([1, 2, 3], group="业余组"), awards("qingdao-gouji-2015"))
    assert a.table["gross"].tolist() == [None, None, None]
    assert a.table["tax_withheld"].tolist() == [None, None, None]
    assert a.totals.iloc[-1]["gross"] == D(0)
    assert a.table["trophy"].all()


def test_cbsa_best_player_tie_split_and_tax():
    data = awards("cbsa-chinese-eightball-open-2022").model_dump()
    data["groups"][0]["prize_table"]["amounts"] = {1: 10000}
    rules = AwardRules.model_validate(data)
    a = allocate(ranking([1, 1, 1, 4], group="最佳运动员"), rules)
    t = a.table
    assert t["gross"].tolist() == money(["3333.33"] * 3)
    assert t["tax_withheld"].tolist() == money(["666.67"] * 3)
    assert t["net"].tolist() == money(["2666.66"] * 3)
    # 十七（三）: the award is 最佳运动员 (tied: all three, the money split); the place label says 并列
    assert t["award"].tolist() == ["最佳运动员"] * 3
    assert t["place_label"].tolist() == ["并列第一名"] * 3
    assert any("余额 0.01" in line for line in a.log)


def test_cbsa_quarterfinal_losers_share_places_5_to_8():
    rules = _fill(awards("cbsa-chinese-eightball-open-2022"),
                  {1: 100000, 2: 50000, 3: 30000, 4: 20000, "5-8": 10000})
    a = allocate(ranking([1, 2, 3, 4, 5, 5, 5, 5, 9], group="正赛"), rules)
    t = a.table
    assert len(t) == 8
    assert t["gross"].tolist()[4:] == money([10000] * 4)
    assert t["trophy"].tolist() == [True, True] + [False] * 6
    assert t["certificate"].all()
    assert a.totals.iloc[-1]["tax_withheld"] == D("48000")


def test_tax_threshold_and_half_up():
    rule = TaxRule(rate="0.15", exempt_up_to=800)
    assert rule.tax(D("800.00")) == D("0.00")
    assert rule.tax(D("800.01")) == D("120.00")   # 120.0015 → 120.00, whole amount taxed
    assert TaxRule(rate="0.15").tax(D("0.30")) == D("0.05")  # 0.045 half-up, not 0.04
    assert TaxRule(rate="0.2").tax(D("1234.56")) == D("246.91")


# ------------------------------------------------------------------ ties over a boundary

def _adult(policy: str, rounding: str = "down") -> AwardRules:
    data = awards("otog-mind-games-2024").model_dump()
    data["tie_split"] = {"policy": policy, "rounding": rounding}
    for g in data["groups"]:
        g["qualification"] = None   # only award rows in these tables
    return AwardRules.model_validate(data)


TIE = [1, 2, 2, 2, 5, 6, 7, 8, 9, 10, 11, 12]   # 12 entries → 3 places; tie over seats 2–4


def test_tie_over_boundary_equal():
    a = allocate(ranking(TIE, group="军棋成年组"), _adult("equal"))
    t = a.table
    assert t["gross"].tolist() == money([1000, "466.66", "466.66", "466.66"])
    assert t["place_label"].tolist() == ["第一名"] + ["并列第二名"] * 3
    assert t["medal"].all()
    assert any("800.00" not in line and "1400.00" in line and "余额 0.02" in line
               for line in a.log)
    assert a.totals.iloc[-1]["gross"] == D("2399.98")
    # 奖励's 备注 says why each tied entrant has 466.66 (a trial user: only the terminal said it)
    assert t["note"].tolist() == [""] + ["并列第2名：第2–4名奖金合计 1400.00 元，平分"] * 3


def test_tie_over_boundary_equal_half_up():
    a = allocate(ranking(TIE, group="军棋成年组"), _adult("equal", "half_up"))
    assert a.table["gross"].tolist()[1:] == money(["466.67"] * 3)
    assert any("余额 -0.01" in line for line in a.log)


def test_tie_over_boundary_no_split():
    a = allocate(ranking(TIE, group="军棋成年组"), _adult("none"))
    assert a.table["gross"].tolist() == money([1000, 800, 800, 800])
    assert any("超出奖金表 1000.00" in line for line in a.log)


def test_tie_over_boundary_hort():
    a = allocate(ranking(TIE, group="军棋成年组"), _adult("hort"))
    # keep 50 % of own seat (800, 600, 0 beyond the 3 places) + 700 / 3 each
    assert a.table["gross"].tolist() == money([1000, "633.33", "533.33", "233.33"])
    assert any("霍特制" in line and "余额 0.01" in line for line in a.log)
    assert set(a.table["note"].tolist()[1:]) == {"并列第2名：第2–4名奖金合计 1400.00 元，按霍特制分配"}


def test_hort_matches_published_example():
    rules = AwardRules(groups=[GroupAwards(name="x", prize_table=PrizeTable(
        amounts={1: 1000, 2: 500, 3: 350, 4: 200, 5: 150, 6: 100}))],
        tie_split=TieSplit(policy="hort"))
    a = allocate(ranking([1, 1, 3, 4, 4, 4]), rules)
    assert a.table["gross"].tolist() == money([875, 625, 350, 175, 150, 125])


def test_tie_inside_prizes_with_30_entries():
    a = allocate(ranking([1, 2, 2, 2] + list(range(5, 31)), group="军棋成年组"), _adult("equal"))
    assert a.table["gross"].tolist()[:4] == money([1000, "633.33", "633.33", "633.33"])


def test_split_equally():
    assert split_equally(D(100), 3) == (D("33.33"), D("0.01"))
    assert split_equally(D(200), 3, "half_up") == (D("66.67"), D("-0.01"))
    assert split_equally(D(1000), 4) == (D("250.00"), D("0.00"))
    assert split_equally(D(1400), 3, whole_yuan=True) == (D("466.00"), D("2.00"))
    assert split_equally(D(1400), 3, "half_up", whole_yuan=True) == (D("467.00"), D("-1.00"))
    with pytest.raises(ValueError):
        split_equally(D(1), 0)


def test_bad_ranking_raises():
    with pytest.raises(InputError):
        allocate(ranking([1, 2, 2, 3], group="围棋成年组"), awards("otog-mind-games-2024"))
    with pytest.raises(InputError):
        allocate(pd.DataFrame({"place": [1]}), awards("otog-mind-games-2024"))


def test_standings_engine_column_names_accepted():
    st = pd.DataFrame({"rank": [1, 2, 3], "entrant": [7, 3, 5]})
    a = allocate(st, AwardRules(groups=[GroupAwards(name="x", places=2)]))
    assert a.table["entrant_id"].tolist() == [7, 3]


# ------------------------------------------------------------------ vacated, one prize

def test_vacated_place_not_reawarded():
    a = allocate(ranking(list(range(1, 11)), group="围棋成年组",
                         eligible=[True, False] + [True] * 8), _adult("equal"))
    t = a.table
    assert t["gross"].tolist() == money([1000, None, 600])
    assert t["award"].tolist()[1] == "空缺"
    assert not t["medal"].iloc[1]
    assert any("空缺" in line for line in a.log)


def test_vacated_place_reawarded_when_the_regulation_says_so():
    data = _adult("equal").model_dump()
    data["reaward_vacated"] = True
    a = allocate(ranking(list(range(1, 11)), group="围棋成年组",
                         eligible=[True, False] + [True] * 8), AwardRules.model_validate(data))
    assert a.table["name"].tolist() == ["选手1", "选手3", "选手4"]
    assert a.table["gross"].tolist() == money([1000, 800, 600])


def test_one_prize_per_person_keeps_the_higher():
    st = pd.concat([ranking(list(range(1, 11)), group="围棋成年组",
                            person_id=[f"p{i}" for i in range(10)]),
                    ranking(list(range(1, 11)), group="象棋成年组",
                            person_id=["p9", "p0"] + [f"q{i}" for i in range(8)])],
                   ignore_index=True)
    # the engine's behaviour with the setting on (the otog 规程 itself does not limit prizes:
    # test_otog_pays_every_prize_of_a_person)
    on = awards("otog-mind-games-2024").model_dump()
    on["one_prize_per_person"] = True
    rules = AwardRules.model_validate(on)
    t = allocate(st, rules).table.set_index(["group", "place"])
    assert t.loc[("围棋成年组", 1), "gross"] == D(1000)
    assert t.loc[("象棋成年组", 2), "gross"] is None      # p0 already has 1000
    assert t.loc[("象棋成年组", 1), "gross"] == D(1000)   # p9 had nothing else
    data = rules.model_dump()
    data["one_prize_per_person"] = False
    t2 = allocate(st, AwardRules.model_validate(data)).table.set_index(["group", "place"])
    assert t2.loc[("象棋成年组", 2), "gross"] == D(800)


def test_otog_pays_every_prize_of_a_person():
    """otog 九（二）1、2 pay each event's places (“取前8名…颁发奖牌及奖金”) and limit neither 兼项
    nor combined prizes: a player 1st in 围棋成年组 and 2nd in 象棋成年组 gets 1000 and 800."""
    st = pd.concat([ranking(list(range(1, 11)), group="围棋成年组",
                            person_id=[f"p{i}" for i in range(10)]),
                    ranking(list(range(1, 11)), group="象棋成年组",
                            person_id=["p9", "p0"] + [f"q{i}" for i in range(8)])],
                   ignore_index=True)
    rules = awards("otog-mind-games-2024")
    assert rules.one_prize_per_person is False
    t = allocate(st, rules).table.set_index(["group", "place"])
    assert t.loc[("围棋成年组", 1), "gross"] == D(1000)
    assert t.loc[("象棋成年组", 2), "gross"] == D(800)
    assert t.loc[("象棋成年组", 1), "gross"] == D(1000)


# ------------------------------------------------------------------ fujian, shenzhen

@pytest.mark.parametrize("entries,cut", [(9, 5), (10, 6), (5, 3), (1, 0), (12, 7)])
def test_fujian_60_percent(entries, cut):
    a = allocate(ranking(list(range(1, entries + 1)), group="象棋团体"),
                 awards("fujian-elder-mind-games-2024"))
    t = a.table
    assert t["award"].tolist() == ["优胜奖"] * cut + ["优秀奖"] * (entries - cut)
    assert t["gross"].isna().all()


def test_fujian_60_percent_tie_across_the_line():
    a = allocate(ranking([1, 2, 3, 4, 4, 6, 7], group="围棋团体"),
                 awards("fujian-elder-mind-games-2024"))
    assert a.table["award"].tolist() == ["优胜奖"] * 5 + ["优秀奖"] * 2


def test_fujian_80_trophies_and_certificates():
    a = allocate(ranking(list(range(1, 21)), group="80分南北"),
                 awards("fujian-elder-mind-games-2024"))
    t = a.table
    assert len(t) == 8
    assert t["trophy"].tolist() == [True] * 3 + [False] * 5
    assert t["certificate"].tolist() == [False] * 3 + [True] * 5
    assert a.totals.iloc[-1][["trophies", "certificates"]].tolist() == [3, 5]


def test_a_field_smaller_than_the_places_says_all_are_placed():
    """福建 九（一） places 1–8 with 6 pairs: all six get their award (3 trophies, 3
    certificates) and the log says so instead of "参赛 6，录取前 8 名" alone."""
    a = allocate(ranking(list(range(1, 7)), group="80分南北"),
                 awards("fujian-elder-mind-games-2024"))
    assert a.table["trophy"].tolist() == [True] * 3 + [False] * 3
    assert a.table["certificate"].tolist() == [False] * 3 + [True] * 3
    line = next(x for x in a.log if "录取前" in x)
    assert "参赛 6，录取前 8 名（参赛不足 8，6 名全部录取）" in line
    assert "all 6 placed" in line
    full = allocate(ranking(list(range(1, 21)), group="80分南北"),
                    awards("fujian-elder-mind-games-2024"))
    assert not any("参赛不足" in x for x in full.log)


def test_shenzhen_qualification_in_order():
    rules = awards("shenzhen-guandan-pairs-2023")
    t = allocate(ranking([1, 2, 3, 4, 5], group="混合双人赛"), rules).table
    assert t["qualification"].tolist() == [
        "获得第五届全国智力运动会表演项目掼牌（掼蛋）资格", "第一替补", "第二替补"]
    assert t["trophy"].tolist() == [True, False, False]
    assert t["certificate"].all()
    t = allocate(ranking([1, 2, 3, 4], group="男子双人赛", declined=[True, True, False, False]),
                 rules).table
    assert t["qualification"].tolist() == [
        "放弃资格", "放弃替补", "递补获得第五届全国智力运动会表演项目掼牌（掼蛋）资格"]


# ------------------------------------------------------------------ 大写 and labels

@pytest.mark.parametrize("amount,text", [
    ("2000", "贰仟元整"), ("1600", "壹仟陆佰元整"), ("1200", "壹仟贰佰元整"),
    ("1000", "壹仟元整"), ("800", "捌佰元整"), ("600", "陆佰元整"), ("400", "肆佰元整"),
    ("200", "贰佰元整"), ("500", "伍佰元整"), ("300", "叁佰元整"), ("100", "壹佰元整"),
    ("1280", "壹仟贰佰捌拾元整"), ("466.66", "肆佰陆拾陆元陆角陆分"),
    ("3333.33", "叁仟叁佰叁拾叁元叁角叁分"), ("2666.66", "贰仟陆佰陆拾陆元陆角陆分"),
    ("1234.56", "壹仟贰佰叁拾肆元伍角陆分"), ("1005", "壹仟零伍元整"),
    ("100000.10", "壹拾万元零壹角"), ("0.05", "伍分"), ("0.5", "伍角"), ("0.55", "伍角伍分"),
    ("10", "壹拾元整"), ("15", "壹拾伍元整"), ("20", "贰拾元整"), ("110", "壹佰壹拾元整"),
    ("100010", "壹拾万零壹拾元整"), ("1000000", "壹佰万元整"), ("0", "零元整"),
    ("1409.50", "壹仟肆佰零玖元伍角"), ("6007.14", "陆仟零柒元壹角肆分"),
    ("1680.32", "壹仟陆佰捌拾元零叁角贰分"), ("107000.53", "壹拾万柒仟元零伍角叁分"),
    ("16409.02", "壹万陆仟肆佰零玖元零贰分"), ("325.04", "叁佰贰拾伍元零肆分"),
    ("10.01", "壹拾元零壹分"), ("100000000", "壹亿元整"), ("100000001", "壹亿零壹元整"),
    ("100010000", "壹亿零壹万元整"), ("110000", "壹拾壹万元整"), ("1001000", "壹佰万壹仟元整"),
    ("1234.565", "壹仟贰佰叁拾肆元伍角柒分"),   # half-up to the fen first
])
def test_yuan_capital(amount, text):
    assert yuan_capital(D(amount)) == text


def test_yuan_capital_options_and_errors():
    assert yuan_capital(1600, zheng="正") == "壹仟陆佰元正"
    assert yuan_capital("0.10", jiao_zheng=True) == "壹角整"
    assert yuan_capital("12.30", jiao_zheng=True) == "壹拾贰元叁角整"
    with pytest.raises(ValueError):
        yuan_capital(-1)


@pytest.mark.parametrize("place,tied,text", [(1, False, "第一名"), (3, True, "并列第三名"),
                                             (10, False, "第十名"), (12, False, "第十二名"),
                                             (20, False, "第二十名"), (105, False, "第一百零五名")])
def test_place_label(place, tied, text):
    assert place_label(place, tied) == text


def test_model_validation():
    with pytest.raises(ValidationError):
        PrizeTable(amounts={"4-2": 100})
    with pytest.raises(ValidationError):
        PrizeTable(amounts={1: 100, "1-3": 50})
    with pytest.raises(ValidationError):
        PrizeTable(amounts={1: -5})
    with pytest.raises(ValidationError):
        PlacesByEntries(steps=[PlacesStep(min_entries=3, places=1),
                               PlacesStep(min_entries=3, places=2)])
    assert PrizeTable(amounts={"4-8": 100}).amounts == {p: D("100.00") for p in range(4, 9)}


def test_a_final_ranking_shorter_than_the_paid_places_is_said():
    """Found by a trial user: a CBSA field re-set smaller ranked 4 players, and 奖励 paid 4 of
    the “前 8 名” without a word. The log says which places are empty and where to look."""
    a = allocate(ranking([1, 2, 3, 4], group="个人混合赛"), awards("cbsa-chinese-eightball-open-2022"),
                 entries=14)
    line = next(x for x in a.log if "空缺" in x)
    assert "只有 4 个名次" in line and "第 5–8 名空缺" in line and "final_ranking" in line
    full = allocate(ranking(list(range(1, 9)), group="个人混合赛"),
                    awards("cbsa-chinese-eightball-open-2022"), entries=14)
    assert not any("空缺" in x for x in full.log)


def test_receipt_id_numbers_reach_a_derived_groups_row():
    """Found by a trial user: the 最佳运动员 row of 领奖签收表 had no 身份证号 although the same
    player's 名次 row had it (最佳运动员 is ranked from another group's players)."""
    from types import SimpleNamespace
    from bianpai.addin.awards_writer import _id_numbers
    groups = [SimpleNamespace(id="best", name_zh="最佳运动员"), SimpleNamespace(id="open", name_zh="个人混合赛")]
    people = pd.DataFrame({"group": ["个人混合赛", "个人混合赛", "个人混合赛"],
                           "name": ["甲", "乙", "乙"], "id_number": ["110", "220", "330"]})
    ev = SimpleNamespace(people=people, roster=None, reg=SimpleNamespace(groups=groups),
                         group_of=lambda v: next((g for g in groups if g.name_zh == v), None))
    ids = _id_numbers(ev)
    assert ids[("个人混合赛", "甲")] == "110" and ids[("最佳运动员", "甲")] == "110"
    assert ("最佳运动员", "乙") not in ids and ("个人混合赛", "乙") not in ids  # two people


def test_amounts_beyond_a_fixed_number_of_places_are_said():
    """Found by a trial user: 最佳运动员 (1 place) took amounts for places 2–5 silently."""
    a = awards("cbsa-chinese-eightball-open-2022")
    best = a.groups[0].model_copy(update={"prize_table": PrizeTable(amounts={1: 500, 2: 300,
                                                                            3: 100})})
    a = a.model_copy(update={"groups": [best, *a.groups[1:]]})
    got = allocate(ranking([1, 2, 3], group="最佳运动员"), a, entries=3)
    line = next(x for x in got.log if "奖金表列有" in x)
    assert "第 2、3 名" in line and "只录取前 1 名" in line
