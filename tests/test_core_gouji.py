"""The competition core on the Qingdao gouji event (issue 8 §2): every stage through the
generic commands, bad input named by sheet!cell with nothing written, hand edits honoured,
withdrawals.

The wide test runs the preset's demo once (18 city teams, 48 amateur teams) and checks the
workbook it leaves; the narrow tests start from one drawn workbook of the city group.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from bianpai.addin import commands
from bianpai.addin.core_demo import _roster, run_core_demo
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import digest
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "qingdao-gouji-2015"




def _typed_group(path: Path, group: str, fields: dict | None = None, seed: int = 5) -> None:
    """A new gouji workbook with one group's simulated teams typed in 报名 and 队员."""
    reg = load_preset(PRESET)
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    roster, people = _roster(reg, seed, fields)
    wb = load_workbook(path)
    mine = [r for r in roster if r[0] == group]
    for i, r in enumerate(mine, start=2):
        for j, v in enumerate(r, start=1):
            wb["报名"].cell(i, j, v)
    names = {r[2] for r in mine}
    for i, r in enumerate([p for p in people if p[0] in names], start=2):
        for j, v in enumerate(r, start=1):
            wb["队员"].cell(i, j, v)
    wb.save(path)


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("gouji") / "demo.xlsx"
    # the 规程's 18 city teams; 12 amateur teams (12 → 6 in one redraw round: the 48 → 24 → 12 → 6
    # structure itself is the engine's test, tests/test_elimination.py)
    data = run_core_demo(PRESET, out, seed=7, console=Console(file=open("/dev/null", "w")),
                         fields={"amateur": 12})
    return out, data


def test_every_stage_of_both_groups_runs_to_the_awards(demo):
    """七（一）1–3 and 七（二）: pools A/B/C play the listed cycle (2 rounds of 3), the top 3 of
    each pool (9) play the 36 listed fixtures, the top 4 the final; the amateur field is knocked
    out to 6 by redraw, the 6 play the 15 listed fixtures; 十一: top 3 of each group awarded."""
    path, data = demo
    sched = rows(path, "对阵")[1:]
    pools = [r for r in sched if r[0] == "各地市代表队" and r[1] == "分组赛"]
    assert len(pools) == 18 and {r[2] for r in pools} == {"A", "B", "C"}
    assert {r[5] for r in pools if r[2] == "A"} == {"A1vsA2", "A2vsA3", "A3vsA4", "A4vsA5",
                                                     "A5vsA6", "A6vsA1"}
    assert {r[3] for r in pools} == {1, 2}
    nine = [r for r in sched if r[1] == "四强循环赛" and r[8] is not None]
    assert len(nine) == 36
    final = [r for r in sched if r[0] == "各地市代表队" and r[1] == "决赛"]
    assert len(final) == 6
    ko = [r for r in sched if r[0] == "业余组" and r[1] == "淘汰赛"]
    assert [sum(1 for r in ko if r[3] == k) for k in (1, 2)] == [6, 0]
    # opponents by lot: not the 1-2, 3-4 … of the numbers
    assert any(abs(r[6] - r[8]) != 1 for r in ko)
    six = [r for r in sched if r[0] == "业余组" and r[1] == "决赛"]
    assert len(six) == 15
    entries = rows(path, "晋级")[1:]
    by_stage = {}
    for r in entries:
        by_stage.setdefault((r[0], r[1]), []).append(r)
    assert len(by_stage[("各地市代表队", "四强循环赛")]) == 9
    assert sorted(r[7] for r in by_stage[("各地市代表队", "四强循环赛")]) == list("AAABBBCCC")
    assert {r[8] for r in by_stage[("各地市代表队", "四强循环赛")]} == {1, 2, 3}
    assert len(by_stage[("各地市代表队", "决赛")]) == 4
    assert len(by_stage[("业余组", "决赛")]) == 6
    final_rows = rows(path, "总排名")[1:]
    assert sum(1 for r in final_rows if r[0] == "各地市代表队") == 18
    assert sum(1 for r in final_rows if r[0] == "业余组") == 12
    city = [r for r in final_rows if r[0] == "各地市代表队"]
    assert [r[1] for r in city[:9]] == list(range(1, 10))
    # the four finalists are the nine-team stage's top four
    finalists = {r[2] for r in by_stage[("各地市代表队", "决赛")]}
    assert {r[2] for r in city[:4]} == finalists
    awards = rows(path, "奖励")[1:]
    assert sum(1 for r in awards if r[0] == "各地市代表队") == 3
    assert sum(1 for r in awards if r[0] == "业余组") == 3
    assert "各地市代表队 总排名" in data and "业余组 总排名" in data


def test_standings_explain_every_rank(demo):
    """排名: 场数/胜/平/负, 场分, 净胜分 and a 说明 naming the criterion that separated."""
    path, _ = demo
    st = rows(path, "排名")
    header = st[0]
    assert "净胜分" in header and "场分" in header and header[-1] == "说明"
    pool_a = [r for r in st[1:] if r[1] == "分组赛" and r[2] == "A"]
    assert [r[3] for r in pool_a] == [1, 2, 3, 4, 5, 6]
    assert all(r[7] == 2 for r in pool_a)  # each team plays two matches of the cycle
    assert all(r[-1] for r in pool_a[:-1])


def test_gouji_scores_add_up_in_the_sheets(demo):
    """九第一条2: each match's 局分 are zero-sum and the winner has 2, a draw 1 each; 对阵's 说明
    says the 局分 (累计局得分多者获胜), the winner's the higher."""
    path, _ = demo
    shown = 0
    for r in rows(path, "对阵")[1:]:
        if r[8] is None or not r[10]:
            continue
        a, b = (int(x) for x in str(r[10]).split(":"))
        assert (a, b) in ((2, 0), (0, 2), (1, 1))
        games = re.search(r"局分 (-?\d+):(-?\d+)", r[11] or "")
        if games:
            ga, gb = int(games.group(1)), int(games.group(2))
            assert ga + gb == 0 and (ga > gb) == (a > b) and (ga == gb) == (a == b), r
            shown += 1
    assert shown > 10


def test_the_knockout_bracket_shows_the_game_points_that_decided_each_match(demo):
    """九第一条2 "累计局得分多者获胜": 签表 and 签表图 show each side's 局分 under 比分 (not the
    2/0 match points, not 局数, which is a frame race's word): zero-sum, the winner's higher."""
    path, _ = demo
    sheet = rows(path, "签表")
    assert sheet[0][7] == "比分"
    by_match: dict = {}
    for r in sheet[1:]:
        if r[0] == "业余组" and r[7] is not None:
            by_match.setdefault(r[4], []).append((int(r[7]), r[8] == "✓"))
    assert len(by_match) == 6  # 12 → 6: one round of six matches
    for sides in by_match.values():
        (a, won_a), (b, won_b) = sides
        assert a + b == 0 and won_a != won_b and (a > b) == won_a
    grid = rows(path, "签表图")
    assert grid[0][3:5] == ("第1轮", "比分")
    shown = sorted(int(v) for r in grid[1:] for v in r[4::2] if v is not None)
    assert shown == sorted(s for sides in by_match.values() for s, _ in sides)


# ------------------------------------------------------------------------------ narrow tests

@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> Path:
    """The city group (18 teams) checked and drawn; round 1 of the pools is on the sheets."""
    path = tmp_path_factory.mktemp("gouji-drawn") / "e.xlsx"
    _typed_group(path, "各地市代表队", seed=3)
    res = run("draw", path, "--seed", 11)
    assert res.exit_code == 0, res.output
    return path


@pytest.fixture
def event(drawn, tmp_path) -> Path:
    p = tmp_path / "e.xlsx"
    shutil.copy(drawn, p)
    return p


def _type_games(path: Path, table_rows: list[int], finishes: list[list[str]]) -> None:
    """Type the six finishes of every game row of the given 逐局成绩 rows."""
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    for r, f in zip(table_rows, finishes):
        for k, v in enumerate(f, start=7):
            ws.cell(r, k, v)
    wb.save(path)


HOME_WINS = ["头科", "四科", "二科", "小落", "三科", "大落"]   # home 头科+二科+三科: 串三户 8 : −8
AWAY_WINS = ["四科", "头科", "小落", "二科", "大落", "三科"]


def test_first_round_rows_are_prepared(event):
    sched = rows(event, "对阵")[1:]
    assert len(sched) == 9 and all(r[3] == 1 for r in sched)
    games = rows(event, "逐局成绩")
    assert games[0][:6] == ("组别", "阶段", "小组", "轮次", "桌号", "局")
    assert games[0][6:12] == tuple(f"{k}号位" for k in range(1, 7))
    assert len(games) - 1 == 27  # 9 matches × 3 games
    assert rows(event, "成绩")[0][5:7] == ("主队号", "客队号")


def test_a_seat_finish_typed_twice_is_named_and_nothing_written(event):
    _type_games(event, [2], [["头科", "头科", "二科", "小落", "三科", "大落"]])
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2
    assert "逐局成绩!" in res.output and "头科" in res.output
    assert digest(event) == before


def test_game_points_the_table_cannot_give_are_refused(event):
    """九第一条2: the six finishes sum to 0 (串三户 ±8): 4 : −2 is impossible."""
    wb = load_workbook(event)
    ws = wb["逐局成绩"]
    ws.cell(2, 13, 4)
    ws.cell(2, 14, -2)
    wb.save(event)
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2 and "逐局成绩!" in res.output and "局分" in res.output
    assert digest(event) == before


def test_a_team_number_not_in_the_group_is_named(event):
    wb = load_workbook(event)
    wb["成绩"].cell(2, 6, 99)
    wb.save(event)
    res = run("rank", event)
    assert res.exit_code == 2 and "成绩!F2" in res.output


def test_next_round_waits_for_results_and_names_the_matches(event):
    res = run("draw", event)
    assert res.exit_code == 2 and "未录入成绩" in res.output and "A1vsA2" not in res.output \
        or "第1轮" in res.output


def _finish_round(path: Path, rnd: int, pattern=HOME_WINS) -> None:
    games = rows(path, "逐局成绩")
    todo = [i for i, r in enumerate(games[1:], start=2) if r[3] == rnd and r[6] is None]
    _type_games(path, todo, [pattern] * len(todo))


def test_a_pool_waiting_for_a_result_is_named_when_the_others_are_drawn(event):
    """七（一）1 pools play on independently: with one C组 table of round 1 untyped, draw makes
    round 2 of A and B and says that C waits for that table (not silently)."""
    games = rows(event, "逐局成绩")
    left = next(r for r in games[1:] if r[2] == "C" and r[3] == 1)
    todo = [i for i, r in enumerate(games[1:], start=2) if r[3] == 1 and r[6] is None
            and not (r[2] == "C" and r[4] == left[4])]
    _type_games(event, todo, [HOME_WINS] * len(todo))
    res = run("draw", event)
    out = " ".join(res.output.split())
    assert res.exit_code == 0, out
    assert {r[2] for r in rows(event, "对阵")[1:] if r[3] == 2} == {"A", "B"}
    assert f"C组第1轮第{left[4]}桌" in out and "未编排" in out, out


def test_a_hand_edited_pairing_is_honoured(event):
    """Issue 12 (and the core's one path): an arbiter swaps two opponents in 对阵 and the
    results sheets; the edit is what is scored, and a team twice in a round is refused."""
    wb = load_workbook(event)
    ws = wb["对阵"]
    r1, r2 = ws[2], ws[3]
    # swap the away teams of the first two tables (and in 成绩)
    a1, a2 = r1[8].value, r2[8].value
    ws.cell(2, 9, a2)
    ws.cell(3, 9, a1)
    res_ws = wb["成绩"]
    res_ws.cell(2, 7, a2)
    res_ws.cell(3, 7, a1)
    wb.save(event)
    _finish_round(event, 1)
    res = run("rank", event, "--json")
    assert res.exit_code == 0, res.output
    sched = rows(event, "对阵")
    assert sched[1][8] == a2 and sched[1][10] == "2:0"
    wb = load_workbook(event)
    wb["对阵"].cell(3, 9, wb["对阵"].cell(2, 9).value)  # now a team plays twice in round 1
    wb.save(event)
    res = run("rank", event)
    assert res.exit_code == 2 and "对阵!I3" in res.output


def test_forfeit_annuls_all_results_of_that_team(event):
    """九第一条2: 如遇对方弃赛，弃权方成绩为0，则该队所有成绩均为无效 — its earlier win no longer
    counts for anybody (the opponent loses the loss too)."""
    _finish_round(event, 1)
    assert run("draw", event).exit_code == 0
    sched = rows(event, "对阵")[1:]
    r2 = next(r for r in sched if r[3] == 2)
    team = r2[6]
    r1 = next(r for r in sched if r[3] == 1 and team in (r[6], r[8]))
    wb = load_workbook(event)
    ws = wb["成绩"]
    for i in range(2, ws.max_row + 1):
        if ws.cell(i, 4).value == 2 and ws.cell(i, 6).value == team:
            ws.cell(i, 8, "主队弃权")
    wb.save(event)
    res = run("rank", event, "--json")
    assert res.exit_code == 0, res.output
    st = [r for r in rows(event, "排名")[1:] if r[1] == "分组赛"]
    mine = next(r for r in st if r[4] == team)
    other = r1[8] if r1[6] == team else r1[6]
    opp = next(r for r in st if r[4] == other)
    assert mine[7] == 0 and mine[11] == 0  # nothing counts: no match played, 0 场分
    pool = [r for r in st if r[2] == mine[2]]
    # not ranked (no 名次, as in 总排名), listed after the rest; the others ranked 1…n-1 among
    # themselves, each 说明 naming the place of the ranked team below it
    assert mine[3] is None and "无效" in mine[-1] and pool[-1] == mine
    placed = pool[:-1]
    assert [r[3] for r in placed] == sorted(r[3] for r in placed) and placed[0][3] == 1
    assert max(r[3] for r in placed) <= len(placed)
    named = [(a, b) for a, b in zip(placed, placed[1:]) if a[3] != b[3]]
    assert named and all(f"第{b[3]}名" in a[-1] for a, b in named), named
    said = next(r for r in rows(event, "对阵")[1:] if r[3] == 1 and team in (r[6], r[8]))[11]
    assert "无效" in said
    forfeit = next(r for r in rows(event, "对阵")[1:] if r[3] == 2 and team in (r[6], r[8]))[11]
    assert forfeit.count("无效") == 1, forfeit  # the annulment said once on the forfeit itself
    assert opp[7] <= 1  # the annulled round-1 match is gone from the opponent's record too


def test_withdrawal_after_round_1_forfeits_the_rest(event):
    """退赛 (issue 8 §1): the team leaves after round 1; its round-2 match is a forfeit won by
    the opponent; with 保留 its round-1 result stands."""
    _finish_round(event, 1)
    team = rows(event, "对阵")[1][6]
    res = run("withdraw", event, "--group", "各地市代表队", "--team", team, "--after-round", 1,
              "--keep", "--reason", "伤病")
    assert res.exit_code == 0, res.output
    assert "退赛" in rows(event, "日志")[-1][4]
    assert run("draw", event).exit_code == 0
    assert run("rank", event).exit_code == 0
    sched = rows(event, "对阵")[1:]
    r2 = next(r for r in sched if r[3] == 2 and team in (r[6], r[8]))
    assert r2[10] in ("0:2", "2:0") and "弃权" in (r2[11] or "")
    res = run("withdraw", event, "--group", "各地市代表队", "--team", team)
    assert res.exit_code == 2 and "已登记退赛" in res.output and "只登记一次" in "".join(res.output.split())


def test_rank_json_and_status(event):
    _finish_round(event, 1)
    res = run("rank", event, "--json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert "各地市代表队 分组赛" in data and len(data["各地市代表队 分组赛"]) == 18


def test_every_preset_runs_new_check_and_draw_without_a_traceback(tmp_path):
    """Issue 8 §3: presets whose formats are not on the core yet stop with a clear message,
    never a traceback."""
    from bianpai.templates.presets_io import preset_names
    for name in preset_names():
        wb = tmp_path / f"{name}.xlsx"
        res = run("new", name, "-o", wb)
        assert res.exit_code == 0, (name, res.output)
        for cmd in ("check", "draw", "rank", "awards"):
            res = run(cmd, wb)
            assert res.exit_code in (0, 2), (name, cmd, res.output)
            assert res.exception is None or isinstance(res.exception, SystemExit), (name, cmd)


def test_crosstable_of_every_round_robin_stage(demo):
    """交叉表 (issue 8 §1: generated from the format): each pool's entrants against each other,
    × on the diagonal, the pool's rank; the nine-team stage's full list fills every cell."""
    path, _ = demo
    ct = rows(path, "交叉表")
    head = ct[0]
    assert head[:6] == ("组别", "阶段", "小组", "序号", "队号", "队名")
    pool_a = [r for r in ct[1:] if r[1] == "分组赛" and r[2] == "A"]
    assert len(pool_a) == 6 and [r[3] for r in pool_a] == [1, 2, 3, 4, 5, 6]
    assert all(r[5 + r[3]] == "×" for r in pool_a)
    # A1 met A2 and A6 only (the listed cycle)
    a1 = pool_a[0]
    assert a1[7] and a1[11] and not any(a1[8:11])
    nine = [r for r in ct[1:] if r[1] == "四强循环赛"]
    assert len(nine) == 9 and "轮空" in head
    assert all(all(r[5 + k] for k in range(1, 10)) for r in nine)
    assert sorted(r[head.index("名次")] for r in nine) == list(range(1, 10))


def test_penalty_of_two_game_points_can_turn_the_match(event):
    """九 第三条4、第四条: each repeat offence “扣除当场比赛成绩（局分）两分” — typed in 罚分, it comes off
    the team's 局分 of that match; three 串三户 games (24 : −24) stay a win, the deduction shows
    in 净胜分: (24 − 4) − (−24) = 44."""
    _finish_round(event, 1)
    sched = rows(event, "对阵")[1:]
    m = sched[0]
    wb = load_workbook(event)
    ws = wb["罚分"]
    ws.append([m[0], m[1], m[2], m[3], m[4], m[6], 2, "坐错座位再犯", None])
    ws.append([m[0], m[1], m[2], m[3], m[4], m[6], 2, "错牌再犯", None])
    wb.save(event)
    res = run("rank", event)
    assert res.exit_code == 0, res.output
    st = {r[4]: r for r in rows(event, "排名")[1:] if r[1] == "分组赛"}
    head = rows(event, "排名")[0]
    net = head.index("净胜分")
    assert st[m[6]][net] == (24 - 4) - (-24)
    assert st[m[8]][net] == -24 - 20


def test_misconduct_is_a_loss_with_eight_to_the_opponent(event):
    """十（六）（七）: 立即判负，对手得8分 — default reading: the offender loses, the opponent's
    局分 for the match are 8, the offender's 0 (a setting; see the 规程 sheet note)."""
    sched = rows(event, "对阵")[1:]
    m = sched[0]
    wb = load_workbook(event)
    ws = wb["成绩"]
    for i in range(2, ws.max_row + 1):
        if ws.cell(i, 4).value == 1 and ws.cell(i, 6).value == m[6]:
            ws.cell(i, 8, "主队判负")
    wb.save(event)
    _finish_round(event, 1)
    res = run("rank", event)
    assert res.exit_code == 0, res.output
    sched = rows(event, "对阵")[1:]
    assert sched[0][10] == "0:2"
    st = {r[4]: r for r in rows(event, "排名")[1:] if r[1] == "分组赛"}
    head = rows(event, "排名")[0]
    assert st[m[8]][head.index("净胜分")] == 8 and st[m[6]][head.index("净胜分")] == -8


def test_a_player_over_55_is_named_at_check(tmp_path):
    """四: 性别不限、年龄不超过55周岁 — a player born 1959-09-19 is 56 on 2015-09-20: error at the
    队员 cell; the draw is refused."""
    import datetime as dt
    path = tmp_path / "e.xlsx"
    reg = load_preset(PRESET)
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    wb = load_workbook(path)
    wb["报名"].append(["各地市代表队", None, "青岛队", "青岛", "甲", "乙", "丙"])
    wb["报名"].append(["各地市代表队", None, "烟台队", "烟台", "丁", "戊", "己"])
    for i, (team, name) in enumerate([("青岛队", "甲"), ("青岛队", "乙"), ("青岛队", "丙"),
                                      ("烟台队", "丁"), ("烟台队", "戊"), ("烟台队", "己")]):
        born = dt.date(1959, 9, 19) if name == "乙" else dt.date(1980, 1, 1)
        wb["队员"].append([team, name, "男", born, None, None])
    wb.save(path)
    res = run("check", path)
    assert res.exit_code == 1  # findings written, check reports them
    # the next step is to correct them, not to draw (the draw refuses them)
    assert "下一步：可以抽签编排" not in res.output and "当前状态：有 2 处错误" in res.output
    assert "下一步：请按“校验”表修改" in res.output
    found = rows(path, "校验")[1:]
    assert any(r[0] == "错误" and r[1] == "队员!D3" and "55" in r[2] for r in found)
    res = run("draw", path)
    assert res.exit_code == 2 and "队员!D3" in res.output


@pytest.fixture(scope="module")
def amateur(tmp_path_factory) -> Path:
    """The 业余组 with 12 teams, drawn: round 1 of the knockout (6 matches by lot)."""
    path = tmp_path_factory.mktemp("gouji-ko") / "e.xlsx"
    _typed_group(path, "业余组", {"amateur": 12})
    assert run("draw", path, "--seed", 4).exit_code == 0
    return path


def test_a_knockout_forfeit_is_a_walkover_for_the_opponent(amateur, tmp_path):
    """七（二） knockout + 九第一条2: a team that forfeits its knockout match is out; its opponent
    goes through (the annulment of the forfeiting team's results does not take the walkover)."""
    p = tmp_path / "e.xlsx"
    shutil.copy(amateur, p)
    m = rows(p, "对阵")[1]
    wb = load_workbook(p)
    ws = wb["成绩"]
    ws.cell(2, 8, "主队弃权")
    wb.save(p)
    _finish_round(p, 1)
    res = run("rank", p)
    assert res.exit_code == 0, res.output
    st = {r[4]: r for r in rows(p, "排名")[1:] if r[1] == "淘汰赛"}
    assert st[m[8]][3] == 1 and st[m[6]][3] != 1
    res = run("advance", p, "--seed", 2)
    assert res.exit_code == 0, res.output
    assert m[8] in {r[2] for r in rows(p, "晋级")[1:]}


def test_a_field_the_stages_cannot_play_is_refused_at_check(tmp_path):
    """七（二）: 48 → 24 → 12 → 6. With 16 amateur teams the knockout goes 16 → 8 → 4 and never
    leaves 6: check names the group's 报名 rows, the draw is refused, nothing is written."""
    path = tmp_path / "e.xlsx"
    _typed_group(path, "业余组", {"amateur": 16})
    run("check", path)
    found = rows(path, "校验")[1:]
    assert any(r[1] == "报名!A2:A17" and "16→8→4" in r[2] for r in found), found
    before = digest(path)
    res = run("draw", path)
    assert res.exit_code == 2 and "16→8→4" in res.output
    assert digest(path) == before


def test_draw_numbers_edited_after_the_draw_are_refused(event):
    """Issue 12: generated facts the event depends on (抽签 numbers) are checked against what
    bianpai wrote: swapping two numbers in 抽签 would move results to other teams — refused with
    the cell, nothing written."""
    _finish_round(event, 1)
    wb = load_workbook(event)
    ws = wb["抽签"]
    ws["B2"], ws["B3"] = ws["B3"].value, ws["B2"].value
    wb.save(event)
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2 and "抽签!B2" in res.output and "不能手改" in res.output
    assert digest(event) == before


def test_qualifier_rows_edited_after_advance_are_refused(demo, tmp_path):
    p = tmp_path / "d.xlsx"
    shutil.copy(demo[0], p)
    wb = load_workbook(p)
    wb["晋级"]["F3"] = 12
    wb.save(p)
    res = run("rank", p)
    assert res.exit_code == 2 and "晋级!F3" in res.output


def test_pools_as_a_full_round_robin_is_one_setting(tmp_path):
    """七（一）1 heading says 单循环 while its list is a 6-match cycle: the other reading is the
    setting format.kind = round_robin (15 matches per pool), changed in the 规程 sheet alone."""
    path = tmp_path / "e.xlsx"
    _typed_group(path, "各地市代表队", seed=3)
    wb = load_workbook(path)
    ws = wb["规程"]
    row = next(r for r in range(2, ws.max_row + 1)
               if ws.cell(r, 1).value == "groups[0].stages[0].format.kind")
    ws.cell(row, 3, "round_robin")
    wb.save(path)
    res = run("draw", path, "--seed", 2)
    assert res.exit_code == 0, res.output
    pool_a = [r for r in rows(path, "对阵")[1:] if r[2] == "A"]
    assert len(pool_a) == 3  # round 1 of a 6-team round robin (5 rounds in all)
    assert "groups[0].stages[0].format.kind：fixture_list → round_robin" in rows(path, "日志")[-1][4]


def test_rank_before_any_draw_is_refused_and_writes_nothing(tmp_path):
    path = tmp_path / "e.xlsx"
    _typed_group(path, "各地市代表队")
    before = digest(path)
    res = run("rank", path)
    assert res.exit_code == 2 and "抽签编排" in res.output
    assert digest(path) == before


def test_receipts_say_the_money_is_announced_later(demo):
    """十一: 具体奖金数额另行通知 — the receipt sheet says the amounts are to be typed, not that the
    event has no prize money."""
    path, _ = demo
    receipts = rows(path, "领奖签收表")[1:]
    assert receipts and "另行通知" in receipts[0][0]


def test_a_finding_on_the_shared_players_sheet_is_listed_once(tmp_path):
    """Both groups read the one 队员 sheet: a person listed twice there is one finding, not one
    per group."""
    path = tmp_path / "e.xlsx"
    _typed_group(path, "各地市代表队")
    wb = load_workbook(path)
    wb["报名"].append(["业余组", None, "业余甲队", "青岛", "赵一", "赵二", "赵三"])
    wb["报名"].append(["业余组", None, "业余乙队", "青岛", "钱一", "钱二", "钱三"])
    first = [c.value for c in wb["队员"][2]]
    wb["队员"].append(first)
    wb.save(path)
    run("check", path)
    found = [r for r in rows(path, "校验")[1:] if "重复" in (r[2] or "")]
    assert len(found) == 1, found


def test_a_wrong_game_number_is_named_at_its_cell(event):
    """Found by a trial tester: a 局 typed 99 was reported at 成绩!H2 (判定, another sheet)."""
    _type_games(event, [2, 3, 4], [HOME_WINS, HOME_WINS, AWAY_WINS])
    wb = load_workbook(event)
    wb["逐局成绩"]["F2"] = 99
    wb.save(event)
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2
    flat = " ".join(res.output.split())
    assert "逐局成绩!F2 本场应打3局" in flat and "成绩!H2" not in flat
    assert digest(event) == before


def test_a_result_row_in_the_wrong_pool_is_named_at_its_pool(event):
    """Found by a trial tester: 小组 typed Z for a pool-A match said "在对阵表的A组第1桌，不是第1桌"
    at the 桌号 cell; it names the pool, at the 小组 cell."""
    wb = load_workbook(event)
    ws = wb["成绩"]
    pool = ws["C2"].value
    ws["C2"] = "Z"
    wb.save(event)
    res = run("rank", event)
    assert res.exit_code == 2
    flat = " ".join(res.output.split())
    assert f"成绩!C2 第1轮" in flat and f"在对阵表的{pool}组第1桌，不是Z组" in flat


def test_advance_rewrites_the_ranking_the_qualifiers_came_from(tmp_path):
    """Found by a trial user: after the last pool round was typed, advance took the qualifiers
    from the final pool standings but left 排名 showing the round before: a printed 排名
    disagreed with 晋级 until rank was pressed. advance now writes 排名 as rank would."""
    import shutil as _sh
    from tests.bad_workbooks import mid_event
    base = tmp_path / "m.xlsx"
    mid_event("gouji", base, draws=3)
    a, b = tmp_path / "a.xlsx", tmp_path / "b.xlsx"
    _sh.copy(base, a)
    assert run("advance", a).exit_code == 0
    _sh.copy(a, b)
    assert run("rank", b).exit_code == 0
    stage1 = [r for r in rows(a, "排名")[1:] if r[1] == "分组赛"]
    assert stage1 and stage1 == [r for r in rows(b, "排名")[1:] if r[1] == "分组赛"]


def test_a_decided_match_with_typed_games_is_warned(tmp_path):
    """Found by a trial user: 判定 主队弃权 was taken while the match's 逐局成绩 were filled, with no
    word that those games are not counted. rank says so (a warning, not a refusal: a team may
    leave during a match)."""
    from tests.bad_workbooks import mid_event
    path = tmp_path / "m.xlsx"
    mid_event("gouji", path, draws=1)
    wb = load_workbook(path)
    ws = wb["成绩"]
    head = [c.value for c in ws[1]]
    ws.cell(2, head.index("判定") + 1, "主队弃权")
    wb.save(path)
    res = run("rank", path)
    assert res.exit_code == 0, res.output
    flat = "".join(res.output.split())
    assert "已判“主队弃权”，录入的逐局成绩不计" in flat and "逐局成绩!" in flat


def _sweep_for(path: Path, team: int, stage: str = "分组赛") -> None:
    """Every game of ``team``'s matches in ``stage``: its three seats 头科, 二科, 三科."""
    wb = load_workbook(path)
    drawn = {(r[2], r[3], r[4]): (r[6], r[8]) for r in rows(path, "对阵")[1:] if r[1] == stage}
    ws = wb["逐局成绩"]
    for i in range(2, ws.max_row + 1):
        key = (ws.cell(i, 3).value, ws.cell(i, 4).value, ws.cell(i, 5).value)
        if ws.cell(i, 2).value != stage or team not in drawn.get(key, ()):
            continue
        home = drawn[key][0] == team
        finish = ["头科", "四科", "二科", "小落", "三科", "大落"]
        if not home:
            finish = [finish[k ^ 1] for k in range(6)]
        for c, v in zip(range(7, 13), finish):
            ws.cell(i, c, v)
    wb.save(path)


def test_a_pool_result_changed_after_the_advance_is_refused_at_the_qualifiers_row(demo, tmp_path):
    """A trial user corrected a 分组赛 result after 进入下一阶段: the pool's places changed, 晋级
    still listed the team the old result put through, and rank and draw went on. Now every
    command names the 晋级 row of the team that no longer qualifies (七（一）2 每组取前三名) and
    who does, and writes nothing."""
    path = tmp_path / "e.xlsx"
    shutil.copy(demo[0], path)
    last = max((r for r in rows(path, "排名")[1:] if r[1] == "分组赛" and r[2] == "A"),
               key=lambda r: r[3])
    team = last[4]
    _sweep_for(path, team)
    before = digest(path)
    for cmd in ("rank", "draw", "advance"):
        res = run(cmd, path)
        flat = "".join(res.output.split())
        assert res.exit_code == 2 and "分组赛的成绩在“进入下一阶段”之后改动过" in flat, (cmd, res.output)
        assert f"应为{team}号" in flat and "晋级!C" in flat
    res = run("awards", path)  # the same refusal as rank's, not "rank first"
    assert res.exit_code == 2 and "进入下一阶段”之后改动过" in "".join(res.output.split())
    assert digest(path) == before


def test_a_player_put_in_a_second_team_after_the_draw_stops_the_next_draw(event):
    """A trial user: after the draw, a team's 队员 cell got a player of another team; check named
    it, but the next draw (and the rounds after) went on. Roster errors block every draw."""
    wb = load_workbook(event)
    ws = wb["报名"]
    ws["E3"] = ws["E2"].value
    wb.save(event)
    before = digest(event)
    res = run("draw", event)
    flat = "".join(res.output.split())
    assert res.exit_code == 2 and "报名!E3" in flat, res.output
    assert digest(event) == before


def test_a_game_typed_twice_names_the_other_row_too(demo, tmp_path):
    """A trial user typed table 1's game under table 2 (逐局成绩!E2 = 2): the error named only
    table 2's own row; the mistyped row is the other one, so both are said."""
    path = tmp_path / "e.xlsx"
    shutil.copy(demo[0], path)
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    assert ws["E2"].value == 1 and ws["E5"].value == 2 and ws["F5"].value == 1
    ws["E2"] = 2
    wb.save(path)
    res = run("rank", path)
    flat = "".join(res.output.split())
    assert res.exit_code == 2 and "逐局成绩!F5第1局录入了两次（另见第2行" in flat, res.output


def test_the_later_draws_roster_check_is_kept_only_while_the_roster_is_the_same(event):
    """drawn_roster_errors: one roster check per chain of draws on one port (the demo), made
    again once 报名 is written."""
    from bianpai.addin.competition import load_core_event
    from bianpai.addin.core_check import drawn_roster_errors
    port = OpenpyxlPort(event)
    first = drawn_roster_errors(load_core_event(port))
    assert first == [] and drawn_roster_errors(load_core_event(port)) == []
    grid = port.read_values("报名")
    grid[2][4] = grid[1][4]  # a player of the first team put in the second
    port.write_sheet("报名", grid)
    errs = drawn_roster_errors(load_core_event(port))
    assert errs and any(e.where == "报名!E3" for e in errs)


def test_a_pairings_header_changed_is_named_at_the_header(demo, tmp_path):
    """对阵!G1 主队号 renamed: one error at 对阵's header row, not 117 at 成绩's rows."""
    path = tmp_path / "e.xlsx"
    shutil.copy(demo[0], path)
    wb = load_workbook(path)
    wb["对阵"]["G1"] = "主"
    wb.save(path)
    before = digest(path)
    res = run("rank", path)
    flat = " ".join(res.output.split())
    assert res.exit_code == 2 and "1 处问题" in flat and "对阵!1:1 “对阵”表缺少“主队号”列" in flat
    assert digest(path) == before
