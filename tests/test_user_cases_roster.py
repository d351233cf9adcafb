"""Roster faults of the new-user trial (user cases ``gouji-player-on-two-teams``,
``fujian-role-typo-accepted``): each is reported by its cell as the cause, not as a follow-on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bianpai.addin import commands
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.lazy_edit import load_workbook

CASES = Path(__file__).parent / "data" / "user-cases" / "cases"


def _check(tmp_path: Path, case: str) -> list[dict]:
    path = tmp_path / "case.xlsx"
    shutil.copy(CASES / case / "case.xlsx", path)
    return commands.check(OpenpyxlPort(path, command="check")).findings


def test_player_on_two_teams_is_a_duplicate_not_a_missing_birth_date(tmp_path):
    """青岛够级 规程 六（一）“所有比赛人员组队参赛”: one player, one team. 程金凤 typed in 烟台队
    (报名!E4) while on 青岛队 (报名!E2) is reported as the duplicate, naming both cells."""
    f = _check(tmp_path, "gouji-player-on-two-teams")
    errs = {x["where"]: x["zh"] for x in f if x["severity"] == "error"}
    assert errs["报名!E4"] == "程金凤 已在「青岛队」（报名!E2）报名，一名队员只能在一个队"
    assert not any("出生日期" in z for z in errs.values())
    assert "队员!B10" in errs  # 烟台队's real 队员1 still has no 报名 cell


def test_unknown_role_is_refused_by_cell(tmp_path):
    """福建老年 规程 六（一）3（1） 80分 “每队领队兼教练1人、队员4人（领队兼教练可兼队员）”: who plays
    decides the team size, so a 角色 outside the list (``队长``) is refused at 报名!I9 with the
    allowed values, not counted as a player."""
    f = _check(tmp_path, "fujian-role-typo-accepted")
    errs = [x for x in f if x["severity"] == "error"]
    assert [x["where"] for x in errs] == ["报名!I9"]
    assert "角色“队长”无法识别" in errs[0]["zh"]
    assert "队员/领队/教练/领队兼教练/领队兼队员" in errs[0]["zh"]


def test_check_foresees_a_flight_that_cannot_stop_at_its_number(tmp_path):
    """CBSA 规程 十六（二）1 男子“第一场、第二场各晋级16名，第三场、第四场各晋级32名”; 十六（二）1（3）
    “组委会有权根据实际报名情况调整晋级名额”: with 12 players a flight cannot leave 16, so ``check``
    (not only the draw) names the flight and the 规程 setting to change."""
    f = _check(tmp_path, "cbsa-small-field-flight-stop")
    errs = [x["zh"] for x in f if x["severity"] == "error"]
    assert any("男1：12 人的标准签表不能恰好剩下 16 人" in z for z in errs)
    assert any("男3：12 人的标准签表不能恰好剩下 32 人" in z for z in errs)
    assert all("stop_when_remaining" in z and "groups[0].stages[0].format" in z for z in errs)
    # and the 规程 row to change (a trial tester found only the setting's name)
    assert all("规程!C" in z for z in errs if "stop_when_remaining" in z)
    # players are counted as 人, not 队 (a trial user read “报名 14 队” for individuals)
    assert all("人，" in z.split("无法按规程进行")[0] and " 队" not in z.split("无法按规程进行")[0]
               for z in errs if "无法按规程进行" in z)


def test_check_warns_when_the_rounds_exceed_a_rematch_free_field(tmp_path):
    """福建老年 象棋项目竞赛规程 四2 “比七轮”; 四9 “若出现参赛队伍为单数的，可在赛前指定相关参赛单位加派一支
    象棋代表队参赛（补双）”: before round 1, 5 teams (one bye a round, none twice) can play at most
    5 rematch-free rounds, so ``check`` warns (fewer rounds, or the teams 7 rounds need: 补双 to 6
    would not do; naming the 规程 setting); the other groups are not refused. The warning's range
    covers every member row of the group (a trial user saw it stop at the last team's first row)."""

    from bianpai.engines.core import StageEntrant, StageState
    from bianpai.engines.swiss_individual import IndividualSwiss

    st = StageState(entrants=[StageEntrant(number=k, pool=None, seed=k) for k in range(1, 6)])
    assert IndividualSwiss(rounds=5).field_warnings(st) == []
    assert "5 队最多只能进行 5 轮" in IndividualSwiss(rounds=7).field_warnings(st)[0]
    # the trial's workbook before its first draw
    wb = load_workbook(CASES / "fujian-xiangqi-five-teams-seven-rounds" / "case.xlsx")
    for name in ("抽签", "_bianpai_draw", "对阵", "桌卡", "记分单", "成绩", "逐局成绩", "罚分",
                 "排名", "名次录入", "奖励", "移动表", "退赛"):
        del wb[name]
    wb.save(tmp_path / "case.xlsx")
    f = commands.check(OpenpyxlPort(tmp_path / "case.xlsx", command="check")).findings
    warn = [x["zh"] for x in f if x["severity"] == "warning"]
    assert len(warn) == 1 and warn[0].startswith("象棋团体积分编排赛：5 队最多只能进行 5 轮")
    where = next(x["where"] for x in f if x["severity"] == "warning")
    rows = [r for r, row in enumerate(load_workbook(tmp_path / "case.xlsx")["报名"].iter_rows(
        values_only=True), start=1) if row[0] and str(row[0]).startswith("象棋")]
    assert where == f"报名!A{rows[0]}:A{rows[-1]}"
    # 补双 (a 6th team) would not help: 6 teams play 5 rounds too; 7 rounds need 7 teams
    assert "请把轮次减至 5 轮，或增至至少 7 队" in warn[0] and "format.rounds" in warn[0]


def test_namesakes_listed_under_both_teams_are_two_people():
    """青岛够级 规程 六（一）“所有比赛人员组队参赛”: one player, one team — but two people may share a
    name (同名). A name on two teams is a duplicate unless 队员 lists a person of that name under
    each team; with one 队员 row it is the same person typed twice."""
    import pandas as pd

    from bianpai.addin.core_members import duplicate_players
    roster = pd.DataFrame({"name": ["青岛队", "烟台队"], "player1": ["王伟", "王伟"],
                           "player2": ["李娜", "张敏"]}, index=pd.Index([2, 3], name="row"))
    roster.attrs["columns"] = {"name": "B", "player1": "E", "player2": "F"}
    both = {("青岛队", "王伟"), ("烟台队", "王伟")}
    assert duplicate_players(roster, "报名", both) == ([], set())
    errs, cells = duplicate_players(roster, "报名", {("青岛队", "王伟")})
    assert cells == {"报名!E3"} and "已在「青岛队」（报名!E2）报名" in errs[0].zh


@pytest.mark.parametrize("preset", ["qingdao-gouji-2015", "otog-mind-games-2024",
                                    "fujian-elder-mind-games-2024",
                                    "cbsa-chinese-eightball-open-2022"])
def test_the_default_demo_roster_passes_check(preset, tmp_path, monkeypatch):
    """README 第一条命令 ``bianpai demo <preset>`` (its default seed): the simulated roster passes 检查名单
    (青岛够级 六（一）“所有比赛人员组队参赛”: its namesakes on two teams each have their own 队员
    row), so the demo reaches the draw; the draw is stopped here (the whole walk is tested on
    smaller fields elsewhere)."""
    import io

    from rich.console import Console

    from bianpai.addin import core_demo, demo

    class Drawn(Exception):
        pass

    def stop(*_a, **_k):
        raise Drawn

    checked = []
    real_check = core_demo.commands.check

    def check(port):
        checked.append(real_check(port))
        return checked[-1]

    monkeypatch.setattr(core_demo.commands, "check", check)
    monkeypatch.setattr(core_demo.commands, "draw", stop)
    with pytest.raises(Drawn):
        demo.run_demo(preset, tmp_path / "d.xlsx", console=Console(file=io.StringIO()))
    assert len(checked) == 1
    assert [f["where"] for f in checked[0].findings if f["severity"] == "error"] == []


def test_more_roster_seeds_than_seeded_places_is_an_error(tmp_path):
    """Found by a trial tester: a 17th 种子 (CBSA seeds 1–16 enter the main draw directly and skip
    the qualifier) passed check; that player would have entered no stage at all."""
    import openpyxl
    from bianpai.addin.core_demo import _people_roster
    from bianpai.templates.presets_io import load_preset
    reg = load_preset("cbsa-chinese-eightball-open-2022")
    path = tmp_path / "cs.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    rows = _people_roster(reg, 3)
    wb = openpyxl.load_workbook(path)
    ws = wb["报名"]
    k = [c.value for c in ws[1]].index("种子")
    assert sum(r[k] is not None for r in rows) == 16
    at = next(i for i, r in enumerate(rows) if r[k] is None)
    for i, r in enumerate(rows):
        ws.append([17 if (i == at and j == k) else v for j, v in enumerate(r)])
    wb.save(path)
    f = commands.check(OpenpyxlPort(path, command="check")).findings
    errs = [x for x in f if x["severity"] == "error"]
    assert len(errs) == 1 and "17 名种子" in errs[0]["zh"] and "16 个种子位" in errs[0]["zh"]
    assert errs[0]["where"] == f"报名!K{at + 2}"


def test_the_stop_that_cannot_happen_lists_the_ones_that_can():
    """Found by a trial user: “7 人的标准签表不能恰好剩下 16 人” did not say what to type instead."""
    from bianpai.engines.errors import RuleError
    from bianpai.engines.single_elimination import SingleElimination
    with pytest.raises(RuleError) as exc:
        SingleElimination(stop_when_remaining=16)._rounds_to_play(7, 8)
    assert "7 人可选：4、2、1" in exc.value.zh and "4, 2, 1" in exc.value.en


def test_a_fixture_list_too_big_for_the_pool_says_what_to_change():
    """Found by a trial user: “A组只有 3 个参赛单位，对阵表中的位置 [4, 5, 6] 不存在” offered no way
    on; it names the list's size and the round_robin setting."""
    from bianpai.engines.errors import RuleError
    from bianpai.templates.presets_io import load_preset
    reg = load_preset("qingdao-gouji-2015")
    fmt = reg.groups[0].stages[0].format
    with pytest.raises(RuleError) as exc:
        fmt._schedule("A", 3)
    assert "round_robin" in exc.value.zh and "请补足报名" in exc.value.zh
