"""The competition core on the Fujian elder mind games 2024 (issues 9 and 10): 扑克牌升级（80分）
as a Mitchell of teams of 4 (南北 and 东西 pairs, two rankings), 象棋 and 围棋 team Swiss on 4
boards, 补双 accepted with a reason, bad input named by sheet!cell with nothing written.

The wide test runs the preset's demo once (6 units at 80分, 8 teams each at xiangqi and go); the
narrow tests work on copies of that workbook or on a freshly checked roster.
"""

from __future__ import annotations

import io
import re
import shutil
from decimal import Decimal
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from rich.console import Console

from bianpai.addin import commands
from bianpai.addin.core_demo import _people_roster as _people, run_core_demo
from bianpai.engines.board_scoring import GO_TEAM_CHAIN, TeamBoardGames
from bianpai.engines.core import Match, TypedMatch
from bianpai.engines.mitchell import boards_from_label
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import digest, type_cells
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "fujian-elder-mind-games-2024"
P80 = "扑克牌升级（80分）"
# 逐局成绩 columns (1-based): 轮次 4, 桌号 5, 局 6, 牌号 7, 得分 8, 计分方 9, 底牌分 10, 抠底 11,
# 罚分调整 12, 台次 13, 结果 14
POINTS, RESULT = 8, 14




#: what the demo printed (its final tables)
PRINTED = io.StringIO()


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("fujian") / "demo.xlsx"
    data = run_core_demo(PRESET, out, seed=5, console=Console(file=PRINTED, width=160))
    return out, data


@pytest.fixture
def event(demo, tmp_path) -> Path:
    p = tmp_path / "e.xlsx"
    shutil.copy(demo[0], p)
    return p


def standings(path: Path) -> dict[tuple, tuple]:
    """(组别, 小组, 队号) → the 排名 row."""
    return {(r[0], r[2], r[4]): r for r in rows(path, "排名")[1:]}


# ------------------------------------------------------------------------------ wide

def test_every_group_with_stages_runs_to_the_awards(demo):
    """80分 一2 计副制米切尔比赛方法（双冠军）; 象棋 四2 积分编排制，比七轮; 围棋 四（三）5-7轮;
    九（一）前三名颁发奖杯，第四名至第八名颁发证书; 九（二）60%优胜奖，40%优秀奖."""
    path, data = demo
    draw = rows(path, "抽签")[1:]
    p80 = [r for r in draw if r[0] == P80]
    assert len(p80) == 12 and sorted(r[4] for r in p80) == ["EW"] * 6 + ["NS"] * 6
    # each unit's team of 4 plays as its 南北 pair and its 东西 pair
    by_unit = {}
    for r in p80:
        by_unit.setdefault(r[3], []).append(r[2])
    assert all(sorted(n[-4:] for n in v) == ["（东西）", "（南北）"] for v in by_unit.values())
    sched = rows(path, "对阵")[1:]
    mitchell = [r for r in sched if r[0] == P80]
    assert len(mitchell) == 5 * 6  # 6 tables, skip Mitchell: 5 rounds
    xq = [r for r in sched if r[0] == "象棋"]
    assert sorted({r[3] for r in xq}) == list(range(1, 8)) and len(xq) == 7 * 4
    go = [r for r in sched if r[0] == "围棋"]
    assert sorted({r[3] for r in go}) == list(range(1, 6)) and len(go) == 5 * 4
    final = rows(path, "总排名")[1:]
    for g in (f"{P80}（南北）", f"{P80}（东西）"):
        assert [r[1] for r in final if r[0] == g] == [1, 2, 3, 4, 5, 6]
    assert sum(1 for r in final if r[0] == "象棋") == 8 and sum(1 for r in final if r[0] == "围棋") == 8
    assert f"{P80}（南北） 总排名" in data and "围棋 总排名" in data
    certs = rows(path, "证书")[1:]
    ns = [r[4] for r in certs if r[0] == f"{P80}（南北）"]
    assert ns[:3] == ["奖杯（第一名）", "奖杯（第二名）", "奖杯（第三名）"]
    assert all(x.startswith("证书") for x in ns[3:]) and len(ns) == 6
    awards = rows(path, "奖励")[1:]
    for g in ("象棋", "围棋"):
        got = [r[4] for r in awards if r[0] == g]
        assert got == ["优胜奖"] * 4 + ["优秀奖"] * 4  # floor(0.6 × 8) = 4


def test_the_demo_prints_the_final_tables_of_both_directions(demo):
    """``bianpai demo`` prints each ranking's final table (issue 10 Done means): 80分 双冠军 —
    the 南北 and the 东西 ranking, places 1–6 with the pairs' names."""
    _, data = demo
    text = PRINTED.getvalue()
    for d in ("南北", "东西"):
        title = f"{P80}（{d}） 总排名"
        assert title in text
        part = text.split(title, 1)[1]
        names = [r["name"] for r in data[title]]
        assert len(names) == 6 and all(n in part for n in names)


def test_80_board_result_for_a_board_not_played_is_named_and_nothing_written(event):
    """一5 所打的牌由南北方向选手往低号桌传: a table plays its set's boards only; a 牌号 of another
    set in its 逐局成绩 row → 逐局成绩!G{row}, nothing written."""
    row = _p80_row(event)
    sched = [r for r in rows(event, "对阵")[1:] if r[0] == P80 and r[3] == 1 and r[4] == 1][0]
    other = max(boards_from_label(sched[5])) + 1
    type_cells(event, "逐局成绩", {(row, 7): other})
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2 and f"逐局成绩!G{row}" in res.output
    assert f"没有打第{other}副" in res.output and digest(event) == before


def test_mitchell_movement_in_the_sheets(demo):
    """一5: 南北1号对东西1号在第1桌 …; 南北方向不移动座位，所打的牌往低号桌传: every 东西 pair meets
    every 南北 pair at most once and plays every board set at most once; the 逐局成绩 rows of a
    table are exactly the boards of its set."""
    path, _ = demo
    sched = [r for r in rows(path, "对阵")[1:] if r[0] == P80]
    met, played = set(), set()
    for r in sched:
        ns, ew = r[6], r[8]
        assert (ns, ew) not in met
        met.add((ns, ew))
        s = boards_from_label(r[5])
        assert (ew, s) not in played and (ns, s) not in played
        played |= {(ew, s), (ns, s)}
    # NS pairs never move: the same table every round
    tables = {}
    for r in sched:
        tables.setdefault(r[6], set()).add(r[4])
    assert all(len(t) == 1 for t in tables.values())
    games = [r for r in rows(path, "逐局成绩")[1:] if r[0] == P80]
    label = {(r[3], r[4]): boards_from_label(r[5]) for r in sched}
    typed = {}
    for g in games:
        typed.setdefault((g[3], g[4]), []).append(g[6])
    assert typed == {k: list(v) for k, v in label.items()}
    # 移动表 (table cards): every table's rounds as the movement fixed them after round 1, equal to
    # what was drawn round by round
    mv = rows(path, "移动表")
    assert mv[0][:4] == ("组别", "阶段", "桌号", "轮次") and "南北号" in mv[0]
    planned = {(r[3], r[2]): (r[5], r[7], r[8]) for r in mv[1:] if r[0] == P80}
    assert planned == {(r[3], r[4]): (r[7], r[9], r[5]) for r in sched}
    assert [r[2] for r in mv[1:6]] == [1] * 5 and [r[3] for r in mv[1:6]] == [1, 2, 3, 4, 5]
    # its numbers are the directions' (一5 按南北1号对东西1号在第1桌…): NS k at table k every
    # round, EW k at table k in round 1 (a trial user read the pairs' entry numbers there)
    p80 = [r for r in mv[1:] if r[0] == P80]
    assert all(r[4] == r[2] for r in p80)
    assert all(r[6] == r[2] for r in p80 if r[3] == 1)


def test_80_ranking_is_matchpoints_then_countback(demo):
    """二3: 首先比较比赛中所获比赛分之和，高者列前；如比赛分相同，则比较最高分…以此类推. Each board's
    比赛分 over the tables sum to the top: n·(n−1) for n results (2 per table beaten)."""
    path, _ = demo
    st = [r for r in rows(path, "排名")[1:] if r[0] == P80]
    head = rows(path, "排名")[0]
    mp = head.index("比赛分之和")  # 二3's own word (a trial user saw 场分, the team events' word)
    assert all(r[head.index("场分")] in (None, "") for r in st)
    for pool in ("南北", "东西"):
        part = [r for r in st if r[2] == pool]
        assert [r[3] for r in part] == list(range(1, 7))
        vals = [Decimal(str(r[mp])) for r in part]
        assert vals == sorted(vals, reverse=True)
    # 6 sets of 12 boards, each set played at 5 of the 6 tables: per board the 5 results share
    # 5 × 4 比赛分 in each direction
    labels = [boards_from_label(r[5]) for r in rows(path, "对阵")[1:] if r[0] == P80]
    boards = {b for bs in labels for b in bs}
    assert len(boards) == 72 and all(sum(b in bs for bs in labels) == 5 for b in boards)
    for pool in ("南北", "东西"):
        assert sum(Decimal(str(r[mp])) for r in st if r[2] == pool) == 72 * 5 * 4


def test_go_round_one_adjacent_and_the_team_chain(demo):
    """围棋 四（四）运动队序号由电脑抽签决定，积分编排制第一轮邻近编排(1-2，3-4余类推); 五（三）场分 →
    全队总局分 → 团体对手分 → 胜场数 → 犯规次数 → 第一台胜局数（类推）→ 抽签."""
    path, _ = demo
    r1 = [frozenset((r[6], r[8])) for r in rows(path, "对阵")[1:] if r[0] == "围棋" and r[3] == 1]
    assert set(r1) == {frozenset(p) for p in ((1, 2), (3, 4), (5, 6), (7, 8))}
    reg = load_preset(PRESET)
    assert tuple(reg.group("go").stages[0].tie_breaks.criteria) == GO_TEAM_CHAIN
    met = set()
    for r in rows(path, "对阵")[1:]:
        if r[0] in ("象棋", "围棋"):
            k = (r[0], frozenset((r[6], r[8])))
            assert k not in met  # 积分编排: no rematch
            met.add(k)


def test_team_match_scores_add_up_in_the_sheets(demo):
    """围棋 五（一）每局棋结果，胜方2分，负方0分，和棋双方各记1分; 五（二）局分高者为胜，场分记2分…相等者为平，
    场分各记1分: every xiangqi/go result in 对阵 is 2:0, 0:2 or 1:1, and its 说明 says the 局分
    over the 4 boards (a + b = 8) the winner won by."""
    path, _ = demo
    seen = 0
    for r in rows(path, "对阵")[1:]:
        if r[0] in ("象棋", "围棋") and r[8] is not None and r[10]:
            assert r[10] in ("2:0", "0:2", "1:1")
            games = re.search(r"局分 (\d+):(\d+)", r[11] or "")
            a, b = int(games.group(1)), int(games.group(2))
            assert a + b == 8 and (a > b) == (r[10] == "2:0") and (a == b) == (r[10] == "1:1"), r
            seen += 1
    assert seen > 20


# ------------------------------------------------------------------------------ narrow: scoring

def _typed(*codes) -> TypedMatch:
    return TypedMatch(games=pd.DataFrame([{"game": i, "board": i, "result": c, "_row": 10 + i}
                                          for i, c in enumerate(codes, start=1)]))


def test_team_board_games_game_points_to_match_points():
    """五（一）胜2、和1、负0 → 局分; 五（二）局分高者场分2，相等各1."""
    sc = TeamBoardGames()
    m = Match(1, 1, (1, 2))
    r = sc.score_typed(m, _typed("1-0", "1-0", "0-1", "和"))
    assert r.values["game_points"] == (Decimal(5), Decimal(3)) and r.points == (2, 0)
    r = sc.score_typed(m, _typed("1-0", "0-1", "1-0", "0-1"))
    assert r.points == (1, 1) and r.outcome == ("D", "D")
    assert r.values["board1_wins"] == (1, 0)
    assert not sc.is_complete(_typed("1-0", "0-1", "1-0"))
    errs = sc.problems(m, _typed("1-0", "2-3"))
    assert errs and errs[0].row == 12 and errs[0].column == "result"


def test_a_bad_team_result_is_named_and_nothing_written(event):
    row = next(i for i, r in enumerate(rows(event, "逐局成绩"), start=1) if r[0] == "象棋")
    type_cells(event, "逐局成绩", {(row, RESULT): "3-2"})
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2 and f"逐局成绩!N{row}" in res.output
    assert digest(event) == before


def _p80_row(path: Path, rnd: int = 1, table: int = 1) -> int:
    for i, r in enumerate(rows(path, "逐局成绩"), start=1):
        if r[0] == P80 and r[3] == rnd and r[4] == table:
            return i
    raise AssertionError


def test_80_points_not_a_multiple_of_5_are_named_and_nothing_written(event):
    """一4 以多得分为原则: 得分 is card points (5, 10, K), 0–200; 83 cannot happen."""
    row = _p80_row(event)
    type_cells(event, "逐局成绩", {(row, POINTS): 83})
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2 and f"逐局成绩!H{row}" in res.output and "得分" in res.output
    assert digest(event) == before


def test_80_board_row_errors_say_the_cell_and_the_english_names_no_internal_table(event):
    """A trial user: an emptied 牌号 read 「nan」, and the English said "board_rows row 5"."""
    row = _p80_row(event)
    type_cells(event, "逐局成绩", {(row, POINTS - 1): None, (row + 1, POINTS): 7})
    before = digest(event)
    res = run("rank", event)
    flat = " ".join(res.output.split())
    assert res.exit_code == 2 and digest(event) == before
    assert f"逐局成绩!G{row} 牌号未填（应为整数）" in flat and "nan" not in flat
    assert f"逐局成绩!H{row + 1} 得分 7 无效" in flat and "board_rows" not in flat
    assert "board is empty (an integer is expected)" in flat


def test_80_status_names_the_first_tables_without_results(event):
    row = _p80_row(event, rnd=2, table=3)
    type_cells(event, "逐局成绩", {(row, POINTS): None})
    res = run("rank", event)
    assert res.exit_code == 0, res.output
    flat = "".join(res.output.split())
    assert "米切尔赛缺1场成绩（第2轮第3桌）" in flat


def _penalise(path: Path, reason: str, points=0.5, rnd=1, table=1) -> int:
    sched = [r for r in rows(path, "对阵")[1:] if r[0] == P80 and r[3] == rnd and r[4] == table][0]
    wb = load_workbook(path)
    wb["罚分"].append([P80, "米切尔赛", None, rnd, table, sched[6], points, reason, None])
    wb.save(path)
    return sched[6]


def test_80_misplaced_board_costs_half_a_matchpoint(event):
    """三7 如果牌插错，影响比赛，裁判将判罚0.5比赛分; 五 每次将扣0.5个比赛分."""
    board = boards_from_label([r for r in rows(event, "对阵")[1:] if r[0] == P80][0][5])[0]
    pair = _penalise(event, f"插错牌套 第{board}副")
    before = standings(event)[(P80, "南北", pair)]
    head = rows(event, "排名")[0]
    assert run("rank", event).exit_code == 0
    after = standings(event)[(P80, "南北", pair)]
    mp = head.index("比赛分之和")
    assert Decimal(str(after[mp])) == Decimal(str(before[mp])) - Decimal("0.5")


def test_80_penalty_on_a_board_not_played_is_refused(event):
    """A penalty on a board the table did not play → named, nothing written (issue 10)."""
    _penalise(event, "插错牌套 第99副")
    before = digest(event)
    res = run("rank", event)
    assert res.exit_code == 2 and "没有打第99副" in res.output and "!" in res.output
    assert digest(event) == before


def test_80_lateness_forfeits_the_round(event):
    """四11 比赛一方迟到超过10分钟，判违规方该轮弃权: the table's board rows stay empty and 判定
    南北迟到弃权 scores the round as a forfeit."""
    wb = load_workbook(event)
    ws = wb["逐局成绩"]
    for i, r in enumerate(ws.iter_rows(values_only=True), start=1):
        if r[0] == P80 and r[3] == 1 and r[4] == 1:
            for c in range(POINTS, 13):
                ws.cell(i, c).value = None
    res_ws = wb["成绩"]
    for i, r in enumerate(res_ws.iter_rows(values_only=True), start=1):
        if r[0] == P80 and r[3] == 1 and r[4] == 1:
            res_ws.cell(i, [c.value for c in res_ws[1]].index("判定") + 1, "南北迟到弃权")
    wb.save(event)
    assert run("rank", event).exit_code == 0
    r = [r for r in rows(event, "对阵")[1:] if r[0] == P80 and r[3] == 1 and r[4] == 1][0]
    assert "迟到" in (r[11] or "") and r[10].startswith("0:")


def test_80_illegal_information_ends_the_board_through_the_penalty_sheet(event):
    """四10 传递非法信息：…或该副牌立即结束，判违规方负，非违规方得120分 (FJ-21): 罚分 row with 原因
    “传递非法信息 第N副”, 队号 = the offending 东西 pair, 罚分 120; the board's 得分 left empty."""
    sched = [r for r in rows(event, "对阵")[1:] if r[0] == P80 and r[3] == 1 and r[4] == 1][0]
    board = boards_from_label(sched[5])[0]
    wb = load_workbook(event)
    ws = wb["逐局成绩"]
    for i, r in enumerate(ws.iter_rows(values_only=True), start=1):
        if r[0] == P80 and r[3] == 1 and r[4] == 1 and r[6] == board:
            for c in range(POINTS, 13):
                ws.cell(i, c).value = None
    wb["罚分"].append([P80, "米切尔赛", None, 1, 1, sched[8], 120, f"传递非法信息 第{board}副", None])
    wb.save(event)
    res = run("rank", event)
    assert res.exit_code == 0, res.output
    r = [r for r in rows(event, "对阵")[1:] if r[0] == P80 and r[3] == 1 and r[4] == 1][0]
    assert f"第{board}副东西{sched[8]}号传递非法信息，该副结束，南北得120分（四10）" in r[11]


# ------------------------------------------------------------------------------ narrow: roster

def _fresh(tmp_path: Path, people: list[list]) -> Path:
    path = tmp_path / "f.xlsx"
    reg = load_preset(PRESET)
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    wb = load_workbook(path)
    for r in people:
        wb["报名"].append(r)
    wb.save(path)
    return path


def test_80_team_of_4_is_one_entry_with_two_pairs(tmp_path):
    """六（一）3（1）每单位报1支队伍，每队…队员4人 (FJ-01): a team of 4 passes; a team of 3 is an
    error on its row; the draw gives the team its 南北 and 东西 pair."""
    people = [r for r in _people(load_preset(PRESET), 3) if r[0] == P80]
    # a bridge team on the same roster (七（四）checked together) is checked but not drawn here
    bridge = [["桥牌", "桥一队", None, f"桥{k}", "男", people[0][5], None, "福州", "队员", None, None,
               None] for k in range(1, 5)]
    path = _fresh(tmp_path, people + bridge)
    res = run("check", path)
    assert res.exit_code == 0, res.output
    assert run("draw", path, "--seed", 4).exit_code == 0
    draw = [r for r in rows(path, "抽签")[1:] if r[0] == P80]
    assert len(draw) == 12 and not any(r[0] == "桥牌" for r in rows(path, "抽签")[1:])
    short = tmp_path / "short"
    short.mkdir()
    path2 = _fresh(short, people[1:])
    res = run("check", path2)
    assert res.exit_code == 1
    checks = rows(path2, "校验")[1:]
    assert any(r[0] == "错误" and "4" in r[2] for r in checks)


def test_bushuang_second_team_is_a_warning_accepted_with_a_reason(tmp_path):
    """象棋 四9 / 围棋 四（七）组织单位拥有补双的权利…可在赛前指定相关参赛单位加派一支代表队参赛 (FJ-54,
    FJ-59): a unit's second team is a warning, not an error; the draw needs a reason and logs it."""
    people = [r for r in _people(load_preset(PRESET), 3) if r[0] == "围棋"]
    unit = people[0][7]
    extra = [["围棋", f"{unit}围棋补双队", None, f"补{k}号", "男", people[0][5], None, unit, "队员",
              None, None, None] for k in range(1, 5)]
    path = _fresh(tmp_path, people[:35] + extra)  # 7 teams + the 补双 team
    res = run("check", path)
    assert res.exit_code == 0, res.output
    checks = rows(path, "校验")[1:]
    assert any(r[0] == "警告" and unit in r[2] for r in checks)
    assert not any(r[0] == "错误" for r in checks)
    before = digest(path)
    res = run("draw", path, "--seed", 2)
    assert res.exit_code == 2 and "理由" in res.output
    assert digest(path) == before
    res = run("draw", path, "--seed", 2, "--accept-warnings", "补双：报名队数为单数")
    assert res.exit_code == 0, res.output
    log = rows(path, "日志")
    assert any("补双：报名队数为单数" in str(r) for r in log)
    assert len([r for r in rows(path, "抽签")[1:] if r[0] == "围棋"]) == 8


# ------------------------------------------------------------------------------ narrow: stage scope

def _board(rnd, table, points, kitty_points=None, kitty=None, row=2):
    return TypedMatch(games=pd.DataFrame([{"game": 1, "deal": 1, "points": points, "scored": None,
                                           "kitty_points": kitty_points, "kitty": kitty,
                                           "adjust": None, "_row": row}]))


def test_stage_scope_compares_tables_and_counts_the_kitty():
    """三8 抠底：…单抠*2，双抠*4，拖拉机抠*8; 一4 打同样的牌，以多得分为原则: the pipeline hands the
    whole stage to ``score_stage``; table 1's 60 + 20 底牌 双抠 (×4) = 140 beats table 2's 120."""
    from bianpai.engines.upgrade80 import Upgrade80Scoring
    sc = Upgrade80Scoring()
    assert sc.scope == "stage"
    ms = [Match(1, 1, (1, 3), label="牌套1 第1副"), Match(1, 2, (2, 4), label="牌套1 第1副")]
    typed = {ms[0].key: _board(1, 1, 60, 20, "双抠"), ms[1].key: _board(1, 2, 120, row=3)}
    res = {r.match.table: r for r in sc.score_stage(ms, typed)}
    assert res[1].points == (2, 0) and res[2].points == (0, 2)
    typed[ms[0].key] = _board(1, 1, 60)
    res = {r.match.table: r for r in sc.score_stage(ms, typed)}
    assert res[1].points == (0, 2)


def test_discipline_costs_half_a_matchpoint_and_bad_rows_carry_their_cell():
    """五 如发现有比赛队员有违反以上规定，每次将扣0.5个比赛分处理; a bad 得分 row keeps its sheet row."""
    from bianpai.engines.errors import InputErrors
    from bianpai.engines.upgrade80 import Upgrade80Scoring
    sc = Upgrade80Scoring()
    ms = [Match(1, 1, (1, 3), label="牌套1 第1副"), Match(1, 2, (2, 4), label="牌套1 第1副")]
    t1 = _board(1, 1, 100)
    t1 = TypedMatch(games=t1.games, penalties=((1, "违纪：大声喧哗", Decimal("0.5")),))
    res = {r.match.table: r for r in sc.score_stage(ms, {ms[0].key: t1,
                                                         ms[1].key: _board(1, 2, 120, row=3)})}
    assert res[1].points == (0, Decimal("1.5"))
    with pytest.raises(InputErrors) as exc:
        sc.score_stage(ms, {ms[0].key: _board(1, 1, 205, row=7), ms[1].key: _board(1, 2, 120)})
    e = exc.value.errors[0]
    assert e.row == 7 and e.column == "points"


def test_lineup_names_must_be_registered_players(event):
    """象棋 四3、四4 / 围棋 四（四）每轮上场4名，替补队员可替换: the 出场名单 typed per board (逐局成绩
    甲方/乙方出场队员) names registered players of that team only; others are named by cell and
    nothing is written."""
    head = rows(event, "逐局成绩")[0]
    c0 = head.index("甲方出场队员") + 1
    sched = {(r[3], r[4]): r for r in rows(event, "对阵")[1:] if r[0] == "围棋"}
    people = {}
    for r in rows(event, "报名")[1:]:
        if r[0] == "围棋":
            people.setdefault(r[1], []).append(r[3])
    game_rows = [i for i, r in enumerate(rows(event, "逐局成绩"), start=1)
                 if r[0] == "围棋" and r[3] == 1 and r[4] == 1]
    home = people[sched[(1, 1)][7]]
    type_cells(event, "逐局成绩", {(i, c0): home[k] if k != 1 else "冒名顶替"
                                  for k, i in enumerate(game_rows)})
    before = digest(event)
    res = run("rank", event)
    col = openpyxl.utils.get_column_letter(c0)
    assert res.exit_code == 2 and f"逐局成绩!{col}{game_rows[1]}" in res.output
    assert "冒名顶替" in res.output and digest(event) == before
    # the registered players typed on the other boards are not errors
    assert all(f"逐局成绩!{col}{i}" not in res.output for i in game_rows if i != game_rows[1])
    assert all(home[k] not in res.output for k in (0, 2, 3))


def _go_match_one(event):
    """(worksheet rows of 围棋 round 1 table 1 on 逐局成绩, column of 甲方出场队员, home players in
    报名 order)."""
    head = rows(event, "逐局成绩")[0]
    c0 = head.index("甲方出场队员") + 1
    sched = {(r[3], r[4]): r for r in rows(event, "对阵")[1:] if r[0] == "围棋"}
    people: dict = {}
    for r in rows(event, "报名")[1:]:
        if r[0] == "围棋":
            people.setdefault(r[1], []).append(r[3])
    game_rows = [i for i, r in enumerate(rows(event, "逐局成绩"), start=1)
                 if r[0] == "围棋" and r[3] == 1 and r[4] == 1]
    return game_rows, c0, people[sched[(1, 1)][7]]


def test_lineup_fixed_boards_reserve_on_any_board(event):
    """围棋 四（四）"赛前确定队员台次，确定后上场台次不再变动。替补队员每轮可替换当轮上场的其中一名队员";
    象棋 四3 "另有一名替换队员可于每轮开赛前替换其中任意一台选手": the reserve (5th of the 台次名单)
    may play board 3 in place of the 3rd; the others keep their boards — accepted."""
    game_rows, c0, home = _go_match_one(event)
    assert len(home) == 5
    type_cells(event, "逐局成绩", {(i, c0): home[4] if k == 2 else home[k]
                                  for k, i in enumerate(game_rows)})
    res = run("rank", event)
    assert res.exit_code == 0, res.output


def test_lineup_out_of_board_order_is_named_and_nothing_written(event):
    """围棋 四（四）"确定后上场台次不再变动" (定台制, setting ``lineup_rule: fixed``): the 2nd of the
    台次名单 on board 1 and the 1st on board 2 are both named by cell; two reserves in one match
    break "替换…其中一名队员" (``substitutes_per_round: 1``); nothing is written."""
    game_rows, c0, home = _go_match_one(event)
    type_cells(event, "逐局成绩", {(i, c0): name for i, name in
                                  zip(game_rows, [home[1], home[0], home[2], home[3]])})
    before = digest(event)
    res = run("rank", event)
    col = openpyxl.utils.get_column_letter(c0)
    assert res.exit_code == 2 and digest(event) == before
    assert f"逐局成绩!{col}{game_rows[0]}" in res.output
    assert f"逐局成绩!{col}{game_rows[1]}" in res.output
    assert f"逐局成绩!{col}{game_rows[2]}" not in res.output and "定台制" in res.output


def test_first_move_alternates_board_by_board(demo):
    """象棋 (韩宽《象棋规则问答》团体赛): 先列队单数台执红 — the prepared 逐局成绩 rows say who moves
    first on each board, alternating (setting ``first_move_boards: odd``)."""
    path, _ = demo
    head = rows(path, "逐局成绩")[0]
    fm, bd = head.index("先手方"), head.index("台次")
    got = [(r[bd], r[fm]) for r in rows(path, "逐局成绩")[1:]
           if r[0] == "象棋" and r[3] == 1 and r[4] == 1]
    assert got == [(1, "甲方"), (2, "乙方"), (3, "甲方"), (4, "乙方")]


def _type_p80_round(path: Path, rnd: int, points: int = 90) -> None:
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    for i, r in enumerate(ws.iter_rows(values_only=True), start=1):
        if r[0] == P80 and r[3] == rnd and r[POINTS - 1] is None:
            ws.cell(i, POINTS, points + 5 * (r[4] % 3))
    wb.save(path)


def test_80_withdrawn_pair_leaves_an_empty_seat(tmp_path):
    """退赛 through the core's withdraw command (the 规程 is silent): a 南北 pair that leaves after
    round 1 has an empty seat from round 2 on; its round-1 result stays (成绩处理 保留); the 东西 pair
    that reaches its table scores those boards by ``withdrawal_boards`` (average: half the top)."""
    people = [r for r in _people(load_preset(PRESET), 3, {"p80": 4}) if r[0] == P80]
    path = _fresh(tmp_path, people)
    assert run("draw", path, "--seed", 4).exit_code == 0
    _type_p80_round(path, 1)
    r1 = [r for r in rows(path, "对阵")[1:] if r[0] == P80 and r[3] == 1]
    ns = r1[1][6]
    res = run("withdraw", path, "--group", P80, "--team", ns, "--keep", "--reason", "身体不适")
    assert res.exit_code == 0, res.output
    assert run("draw", path, "--seed", 4).exit_code == 0
    r2 = [r for r in rows(path, "对阵")[1:] if r[0] == P80 and r[3] == 2]
    empty = [r for r in r2 if r[6] is None]
    assert len(empty) == 1 and f"{ns}号退赛" in empty[0][5] and empty[0][8] is not None
    # no 逐局成绩 rows are prepared for the empty seat's table
    assert not [r for r in rows(path, "逐局成绩")[1:] if r[0] == P80 and r[3] == 2
                and r[4] == empty[0][4]]
    _type_p80_round(path, 2)
    assert run("draw", path, "--seed", 4).exit_code == 0
    _type_p80_round(path, 3)
    res = run("rank", path)
    assert res.exit_code == 0, res.output
    st = standings(path)
    assert st[(P80, "南北", ns)][7] == 1  # the round played before leaving counts
    # the 东西 pair at the empty seat in round 2: its 比赛分 of rounds 1 and 3 + half the top of
    # the round-2 boards (top = 2 × (tables that played the board − 1))
    ew = empty[0][8]
    sched = [r for r in rows(path, "对阵")[1:] if r[0] == P80]
    assert [r[10] for r in sched if r[6] is None] == ["轮空", "轮空"]   # rounds 2 and 3
    played = sum(Decimal(r[10].split(":")[1]) for r in sched if r[8] == ew and r[6] is not None)
    bset = boards_from_label(empty[0][5])
    tables = sum(1 for r in sched if r[6] is not None and boards_from_label(r[5]) == bset)
    mp = rows(path, "排名")[0].index("比赛分之和")
    assert Decimal(str(st[(P80, "东西", ew)][mp])) == played + len(bset) * (tables - 1)


def test_80_second_illegal_information_ruling_disqualifies_without_a_withdrawal_row(event):
    """四10 “累计二次以上传递非法信息的，取消违规方比赛资格” (FJ-21): the second 传递非法信息 ruling typed in
    罚分 against one pair disqualifies it by itself — registered as a 退赛 with 成绩处理 取消 after
    that round, with no 退赛 row typed: the pair is listed without a place (不参加排名) and its
    result notes say why; one ruling alone does not."""
    sched = [r for r in rows(event, "对阵")[1:] if r[0] == P80]
    r4 = next(r for r in sched if r[3] == 4 and r[4] == 1)
    pair = r4[8]                                     # the 东西 pair at table 1 in round 4
    r5 = next(r for r in sched if r[3] == 5 and pair in (r[6], r[8]))
    wb = load_workbook(event)
    ws = wb["逐局成绩"]
    for m in (r4, r5):
        board = boards_from_label(m[5])[0]
        for i, r in enumerate(ws.iter_rows(values_only=True), start=1):
            if r[0] == P80 and r[3] == m[3] and r[4] == m[4] and r[6] == board:
                for c in range(POINTS, 13):
                    ws.cell(i, c).value = None
        wb["罚分"].append([P80, "米切尔赛", None, m[3], m[4], pair, 120,
                          f"传递非法信息 第{board}副", None])
        wb.save(event)
        res = run("rank", event)
        assert res.exit_code == 0, res.output
        mine = [v for (g, _p, n), v in standings(event).items() if n == pair and P80 in g]
        if m is r4:  # one ruling: still ranked
            assert mine and not any("不参加排名" in str(v[-1]) for v in mine)
    assert not any(r[0] == P80 and r[1] == pair for r in rows(event, "退赛")[1:])
    mine = [v for (g, _p, n), v in standings(event).items() if n == pair and P80 in g]
    assert mine and all("不参加排名" in str(v[-1]) for v in mine)
    final = [r for r in rows(event, "总排名")[1:] if P80 in r[0] and r[2] == pair]
    assert final and final[0][1] is None
    note = next(r for r in rows(event, "对阵")[1:] if r[0] == P80 and r[3] == r5[3] and r[4] == r5[4])
    assert f"{pair}号" in note[11] and "四10 累计2次传递非法信息，取消比赛资格" in note[11]


def test_xiangqi_lineup_not_handed_in_is_last_rounds(tmp_path):
    """象棋 四4 “每轮具体出场名单可于该轮编排对阵公布前…交由裁判长。若未能按时提交，将按该队上轮的具体出场名单执行”
    (FJ-52, setting ``lineup_default: last_round``): round 1 played with every team's 出场名单
    typed (a reserve on board 3 for one team); drawing round 2 prepares each team's 逐局成绩 rows
    with its round-1 line-up board by board, on whichever side it now sits; 围棋 (no such
    clause) keeps ``none``."""
    reg = load_preset(PRESET)
    xq = next(g for g in reg.groups if g.name_zh == "象棋")
    go = next(g for g in reg.groups if g.name_zh == "围棋")
    assert xq.stages[0].scoring.lineup_default == "last_round"
    assert go.stages[0].scoring.lineup_default == "none"
    people = [r for r in _people(reg, 3) if r[0] == "象棋"]
    path = _fresh(tmp_path, people)
    assert run("draw", path, "--seed", 1).exit_code == 0
    team_players: dict = {}
    for r in rows(path, "报名")[1:]:
        if r[0] == "象棋" and r[8] != "领队":
            team_players.setdefault(r[1], []).append(r[3])
    names = {r[1]: r[2] for r in rows(path, "抽签")[1:] if r[0] == "象棋"}
    head = rows(path, "逐局成绩")[0]
    c0, c1 = head.index("甲方出场队员"), head.index("乙方出场队员")
    sched = {(r[3], r[4]): (r[6], r[8]) for r in rows(path, "对阵")[1:] if r[0] == "象棋"}
    lineup = {}   # team number → players on boards 1–4 in round 1
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    for i, r in enumerate(ws.iter_rows(values_only=True), start=1):
        if r[0] != "象棋" or r[3] != 1:
            continue
        board = r[5]
        for side, col in ((0, c0), (1, c1)):
            team = sched[(1, r[4])][side]
            pl = team_players[names[team]]
            name = pl[4] if (team == 1 and board == 3) else pl[board - 1]
            lineup.setdefault(team, {})[board] = name
            ws.cell(i, col + 1, name)
        ws.cell(i, RESULT, "和")
    wb.save(path)
    res = run("draw", path, "--seed", 2)
    assert res.exit_code == 0, res.output
    sched2 = {(r[3], r[4]): (r[6], r[8]) for r in rows(path, "对阵")[1:] if r[0] == "象棋"}
    got = 0
    for r in rows(path, "逐局成绩")[1:]:
        if r[0] != "象棋" or r[3] != 2:
            continue
        for side, col in ((0, c0), (1, c1)):
            team = sched2[(2, r[4])][side]
            assert r[col] == lineup[team][r[5]]
            got += 1
    assert got == 8 * 4 and lineup[1][3] == team_players[names[1]][4]
    assert run("rank", path).exit_code == 0   # a carried line-up alone is no result


def test_a_look_at_an_earlier_round_keeps_the_awards(event):
    """规程 九 (录取名次与奖励) gives awards by the final ranking; ``rank --round 1`` on a finished
    event is a look at the standings after round 1 (issue 12): 排名 shows that round, the final
    ranking (总排名) and the award sheets (奖励, 领奖签收表, 证书) stay as they were."""
    awards = {s: rows(event, s) for s in ("奖励", "领奖签收表", "证书", "总排名")}
    final = rows(event, "排名")
    assert all(len(v) > 1 for v in awards.values())
    res = run("rank", event, "--round", 1)
    assert res.exit_code == 0, res.output
    assert "第1轮后排名" in res.output and "奖励表保留" in res.output
    assert {s: rows(event, s) for s in awards} == awards
    assert rows(event, "排名") != final  # the standings after round 1, not the final ones
    # the full ranking again: the same final ranking keeps the awards too
    assert run("rank", event).exit_code == 0
    assert {s: rows(event, s) for s in awards} == awards and rows(event, "排名") == final


def test_a_changed_final_ranking_still_empties_the_awards(event):
    """规程 九: awards follow the final ranking, so one built from an older ranking is emptied by
    ``rank`` (even ``--round 1``) when a result changed the final ranking, and it says so."""
    # what the awards were given by differs from the ranking
    type_cells(event, "总排名", {(2, 4): "改过的队名"})
    res = run("rank", event, "--round", 1)
    assert res.exit_code == 0, res.output
    assert "旧的奖励表已清空" in res.output
    assert rows(event, "奖励")[1:] == []


def test_the_mitchell_standings_show_no_wins_draws_or_losses(demo):
    """扑克牌升级（80分）比赛规则 二3 “首先比较比赛中所获比赛分之和，高者列前；如比赛分相同，则比较最高分”:
    a pair is ranked against its whole direction, so the 80分 排名 shows 场数 and
    the 比赛分 but no 胜/平/负; the team events (象棋, 围棋) keep them."""
    path = demo[0]
    head = rows(path, "排名")[0]
    won, played = head.index("胜"), head.index("场数")
    p80 = [r for r in rows(path, "排名")[1:] if r[0] == P80]
    assert p80 and all(r[won] is None and r[won + 1] is None and r[won + 2] is None for r in p80)
    assert all(isinstance(r[played], int) and r[played] > 0 for r in p80)
    xq = [r for r in rows(path, "排名")[1:] if r[0] == "象棋"]
    assert xq and all(isinstance(r[won], int) for r in xq)


def test_pairings_name_the_sides_as_the_regulation_does(event):
    """规程 sets 对阵双方 as 甲方/乙方 (preset ``side_titles``, one setting): 对阵 shows 甲方号/甲方/
    乙方号/乙方 as 成绩 does; a workbook whose 对阵 still has the older 主队号/主队 headers reads
    as before and is rewritten in the regulation's titles."""
    assert run("rank", event).exit_code == 0
    head = rows(event, "对阵")[0]
    assert head[6:10] == ("甲方号", "甲方", "乙方号", "乙方")
    assert rows(event, "成绩")[0][5:7] == ("甲方号", "乙方号")
    type_cells(event, "对阵", {(1, c): t for c, t in
                             zip(range(7, 11), ("主队号", "主队", "客队号", "客队"))})
    before = rows(event, "排名")
    res = run("rank", event)
    assert res.exit_code == 0, res.output
    assert rows(event, "对阵")[0][6:10] == ("甲方号", "甲方", "乙方号", "乙方")
    assert rows(event, "排名") == before


def test_rank_json_gives_numbers_as_numbers(event):
    """Found by a trial user: ``rank --json`` gave 比赛分 "262.25" and 场分 "7" as text here while
    the pairs style gave numbers. Every criterion that is a number is a JSON number; a countback
    sequence stays text."""
    import json as _json
    from tests.test_cli_flow import run as _run
    res = _run("rank", event, "--json")
    assert res.exit_code == 0, res.output
    data = _json.loads(res.output[res.output.index("{"):])
    seen_number = False
    for title, recs in data.items():
        for r in recs:
            for k, v in r.items():
                if k in ("name", "explanation", "pool", "source") or v is None:
                    continue
                if k == "upgrade80_countback":  # the whole sequence (the sheet shows 5 values)
                    assert isinstance(v, list) and len(v) > 5 and all(
                        isinstance(x, (int, float)) for x in v), (title, v)
                    continue
                if isinstance(v, str):
                    try:
                        float(v)
                    except ValueError:
                        continue
                    raise AssertionError(f"{title} {k} = {v!r} is a number given as text")
                seen_number = seen_number or (k in ("match_points", "upgrade80_total")
                                              and isinstance(v, (int, float)))
    assert seen_number


def test_final_ranking_names_the_directions_in_chinese(demo):
    """Found by a trial user: 总排名's 说明 read “米切尔赛NS组第1名” (a code, and NS is no 组)."""
    path, _ = demo
    notes = [r[-1] for r in rows(path, "总排名")[1:] if r[0] and str(r[0]).startswith(P80)]
    assert notes and all("NS" not in str(n) and "EW" not in str(n) for n in notes)
    assert any(str(n).startswith("米切尔赛南北第") for n in notes)
    assert any(str(n).startswith("米切尔赛东西第") for n in notes)


def test_awards_english_summary_is_english(event):
    """Found by a trial user: the English half of the awards message repeated the Chinese of the
    60 % 优胜奖 line (its “ / ” separator lacked a space)."""
    res = run("awards", event)
    assert res.exit_code == 0, res.output
    en = " ".join(res.output.split("awards:", 1)[1].split())
    assert "winner award places 1–" in en and "向下取整" not in en and "优胜奖" not in en


def test_the_demo_field_is_made_of_fujian_units(demo):
    """Found by a trial user: the 福建 demo's units were Shandong cities (烟台, 临沂 …)."""
    from bianpai.addin.core_demo import REGION_CITIES
    path, _ = demo
    head = rows(path, "报名")[0]
    units = {r[head.index("单位")] for r in rows(path, "报名")[1:] if r[head.index("单位")]}
    assert units and all(any(str(u).startswith(c) for c in REGION_CITIES["fujian"]) for u in units)


def test_rank_after_the_first_mitchell_round_says_why_every_score_is_zero(mid_event_book,
                                                                          tmp_path):
    """Found by a trial user: after round 1 every 80分 pair had 0 and the order was the lots',
    with no word why (each board set has been played at one table: nothing to compare)."""
    from tests.shared_state import copy_of
    path = copy_of(mid_event_book("fujian", draws=1), tmp_path)
    res = run("rank", path)
    assert res.exit_code == 0, res.output
    flat = "".join(res.output.split())
    assert "各副牌目前都只在一桌打过" in flat and "名次暂由抽签决定" in flat


def test_no_such_word_once_boards_are_compared(event):
    res = run("rank", event)
    assert res.exit_code == 0 and "只在一桌打过" not in "".join(res.output.split())
