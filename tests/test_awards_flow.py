"""new / check / awards on the five regulations' presets with a typed ranking (issue 5)."""

import datetime as dt
from decimal import Decimal

import pytest
from typer.testing import CliRunner

from bianpai.addin.cli import app
from tests.helpers import fill, new_event, set_setting, sheet_rows
from bianpai.workbooks.lazy_edit import load_workbook

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def person(group, name, team=None, gender="男", birth=dt.date(1980, 5, 5), unit="某单位",
           role="队员", id_number=None):
    return [group, team, None, name, gender, birth, id_number, unit, role, None]




@pytest.mark.parametrize("preset", ["qingdao-gouji-2015", "cbsa-chinese-eightball-open-2022",
                                    "fujian-elder-mind-games-2024", "otog-mind-games-2024",
                                    "shenzhen-guandan-pairs-2023"])
def test_new_check_on_every_regulation(tmp_path, preset):
    wb = tmp_path / "e.xlsx"
    assert run("new", preset, "-o", wb).exit_code == 0
    names = load_workbook(wb).sheetnames
    assert "报名" in names and "规程" in names
    res = run("check", wb)
    assert res.exit_code == 0, res.output  # an empty roster has no problem


def test_otog_pairs_prizes_by_entries(tmp_path):
    wb = new_event(tmp_path / "o.xlsx", "otog-mind-games-2024")
    group = "扑克掼蛋双人成年组"
    roster = []
    for i in range(10):
        roster += [person(group, f"甲{i}", team=f"组合{i}"), person(group, f"乙{i}", team=f"组合{i}")]
    fill(wb, "报名", roster)
    assert run("check", wb).exit_code == 0
    fill(wb, "名次录入", [[group, p, f"组合{p - 1}", "某单位", None, None] for p in range(1, 11)])
    res = run("awards", wb)
    assert res.exit_code == 0, res.output
    rows = sheet_rows(wb, "奖励")
    assert rows[0] == ("组别", "名次", "姓名/队名", "单位", "奖项", "税前", "代扣税额", "实发", "备注")
    money = [r for r in rows[1:] if r[0] == group and r[5]]
    # 10 pairs → 3 places (九（三）2): 2000 / 1600 / 1200, no tax
    assert [(r[2], r[5], r[6], r[7]) for r in money] == [
        ("组合0", 2000, 0, 2000), ("组合1", 1600, 0, 1600), ("组合2", 1200, 0, 1200)]
    receipts = sheet_rows(wb, "领奖签收表")
    assert receipts[1][4] == "贰仟元整" and receipts[2][4] == "壹仟陆佰元整"
    assert receipts[-1][0] == "合计" and receipts[-1][4] == "肆仟捌佰元整"
    assert "签名" in receipts[0]


def test_otog_nine_pairs_one_place(tmp_path):
    wb = new_event(tmp_path / "o.xlsx", "otog-mind-games-2024")
    group = "桥牌双人成年组"
    roster = [person(group, f"{x}{i}", team=f"组合{i}") for i in range(9) for x in "甲乙"]
    fill(wb, "报名", roster)
    fill(wb, "名次录入", [[group, p, f"组合{p - 1}", None, None, None] for p in range(1, 10)])
    assert run("awards", wb).exit_code == 0
    paid = [r for r in sheet_rows(wb, "奖励")[1:] if r[0] == group and r[5]]
    assert [(r[2], r[5]) for r in paid] == [("组合0", 2000)]


def cbsa_typed_places_event(path):
    """The CBSA awards block on a workbook whose places are typed (名次录入): the preset's groups
    without stages (the preset itself now plays its brackets on the competition core,
    tests/test_core_cbsa.py)."""
    from bianpai.addin import commands
    from bianpai.templates.presets_io import load_preset
    from bianpai.templates.schema import Group
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    reg = load_preset("cbsa-chinese-eightball-open-2022")
    reg = reg.model_copy(update={"groups": [
        Group(id="main", name_zh="正赛", entrant="individual"),
        Group(id="best", name_zh="最佳运动员", entrant="individual")]})
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    return path


def test_cbsa_amounts_typed_in_settings_with_tax_and_tie(tmp_path):
    wb = cbsa_typed_places_event(tmp_path / "c.xlsx")
    fill(wb, "报名", [person("正赛", f"选手{i}", birth=dt.date(1995, 1, 1)) for i in range(1, 9)])
    set_setting(wb, "awards.groups[1].prize_table.amounts", "1: 100000, 2: 50000, 3-4: 25000, 5-8: 10000")
    set_setting(wb, "awards.groups[1].prize_table.announced_later", False)
    # 3rd/4th and 5th–8th shared (knockout losers)
    fill(wb, "名次录入", [["正赛", p, f"选手{i}", None, None, None]
                         for i, p in zip(range(1, 9), [1, 2, 3, 3, 5, 5, 5, 5])])
    res = run("awards", wb)
    assert res.exit_code == 0, res.output
    rows = {r[2]: r for r in sheet_rows(wb, "奖励")[1:] if r[2]}
    assert rows["选手1"][5:8] == (100000, 20000, 80000)
    assert rows["选手3"][5] == 25000 and rows["选手3"][1].startswith("并列")
    assert rows["选手5"][5:8] == (10000, 2000, 8000)
    receipts = sheet_rows(wb, "领奖签收表")
    assert receipts[1][4] == "捌万元整"
    total = receipts[-1]
    assert total[3] == 80000 + 40000 + 2 * 20000 + 4 * 8000


def test_fujian_age_ranges_block_draw_and_show_in_checks(tmp_path):
    wb = new_event(tmp_path / "f.xlsx", "fujian-elder-mind-games-2024")
    fill(wb, "报名", [
        person("桥牌", "老甲", team="一队", birth=dt.date(1966, 5, 10)),   # 58 on 2024-05-10
        person("桥牌", "老乙", team="一队", birth=dt.date(1966, 5, 11)),   # 57: too young
        person("桥牌", "老丙", team="一队", gender="女", birth=dt.date(1971, 5, 10)),
        person("桥牌", "老丁", team="一队", gender="女", birth=dt.date(1951, 5, 10)),  # 73
    ])
    res = run("check", wb)
    assert res.exit_code == 1
    checks = sheet_rows(wb, "校验")
    where = {r[1] for r in checks[1:] if r[0] == "错误"}
    assert "报名!F3" in where and "报名!F5" in where
    assert "报名!F2" not in where and "报名!F4" not in where
