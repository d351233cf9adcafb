"""The Shenzhen pairs workbook's sheets read and written by the competition core, sheet by sheet
(the port of ``shenzhen-guandan-pairs-2023`` onto the core; ``docs/pairs-port.md`` lists what is
closed and what is left).

规程 六（一）"男子双人赛：男子2人组成1对"；七（三）3 参赛资格；九 "编号对阵在第一轮比赛前抽签确定"。
The pairs roster (报名: 选手1/性别1/出生日期1/…/选手2/…, one row per pair) is a declared roster
layout (:mod:`bianpai.workbooks.roster_layouts`): the core reads it into its entrants, checks
eligibility at the pairs sheet's own cells, and draws the numbers by the workbook's one lot, so
its 校验 and its numbers are the old pipeline's.
"""

from __future__ import annotations

import dataclasses

import pytest

from bianpai.addin import commands
from bianpai.addin.competition import is_core_regulation
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks import roster_layouts as RL
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.golden_build import PRESET, SEED, _fill, _pair, load_golden, with_bye_lines


def _roster(woman_in_men: bool = False) -> list[list]:
    rows = [_pair("男子双人赛", f"男甲{i}", f"男乙{i}", "男", "男", i) for i in range(1, 8)]
    rows += [_pair("女子双人赛", f"女甲{i}", f"女乙{i}", "女", "女", i) for i in range(1, 5)]
    if woman_in_men:
        rows[0][3] = "女"
    return rows


@pytest.fixture
def on_core(monkeypatch):
    """The pairs roster layout declared as running on the core (as it will once ported)."""
    monkeypatch.setitem(RL.ROSTER_LAYOUTS, "pairs",
                        dataclasses.replace(RL.ROSTER_LAYOUTS["pairs"], runs_on_core=True))


def _new(path, roster):
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), load_preset(PRESET),
                            lang="zh")
    _fill(path, "报名", roster)


def _sheet(path, name):
    from tests.helpers import sheet_rows  # one sheet read, not the whole workbook loaded
    return [list(r) for r in sheet_rows(path, name)]


def test_pairs_layout_declares_its_gate():
    """The pairs preset runs on the core by its roster layout's declaration
    (``RosterLayout.runs_on_core``, switched on by the port), not by a name compared in addin/
    (the gate ``roster_layout != "pairs"`` is gone)."""
    reg = load_preset(PRESET)
    assert reg.roster_layout == "pairs"
    assert RL.roster_layout("pairs").runs_on_core is True
    assert is_core_regulation(reg)
    off = dataclasses.replace(RL.ROSTER_LAYOUTS["pairs"], runs_on_core=False)
    RL.ROSTER_LAYOUTS["pairs"], old = off, RL.ROSTER_LAYOUTS["pairs"]
    try:
        assert not is_core_regulation(reg)
    finally:
        RL.ROSTER_LAYOUTS["pairs"] = old


def test_core_reads_the_pairs_roster_as_entrants():
    """六（一）: one row = one pair; its name is 选手1/选手2 and its players 选手1, 选手2."""
    import pandas as pd
    table = pd.DataFrame([{"group": "男子双人赛", "number": None, "name1": "甲", "gender1": "男",
                           "birth1": None, "id1": None, "name2": "乙", "gender2": "男",
                           "birth2": None, "id2": None, "unit": "单位1", "qualification": None,
                           "note": None}], index=pd.Index([2], name="row"))
    table.attrs = {"sheet": "报名", "columns": {"name1": "C", "name2": "G", "group": "A"}}
    e = RL.entrants_from_pairs(table)
    rec = e.loc[2]
    assert (rec["name"], rec["player1"], rec["player2"], rec["unit"]) == ("甲/乙", "甲", "乙", "单位1")
    assert e.attrs["columns"]["name"] == "C" and e.attrs["sheet"] == "报名"


@pytest.mark.parametrize("woman_in_men", [False, True])
def test_core_check_writes_the_pipelines_findings(tmp_path, monkeypatch, woman_in_men):
    """七（三）3 / 六（一）: the core's 校验 of a pairs roster names the same cells with the same
    words as the pairs pipeline's (a woman in the men's pairs: 报名!D2)."""
    old = tmp_path / "old.xlsx"
    _new(old, _roster(woman_in_men))
    commands.check(OpenpyxlPort(old, command="check"))
    monkeypatch.setitem(RL.ROSTER_LAYOUTS, "pairs",
                        dataclasses.replace(RL.ROSTER_LAYOUTS["pairs"], runs_on_core=True))
    core = tmp_path / "core.xlsx"
    _new(core, _roster(woman_in_men))
    commands.check(OpenpyxlPort(core, command="check"))
    want = _sheet(old, "校验")
    assert _sheet(core, "校验") == want
    assert ("报名!D2" in {r[1] for r in want}) is woman_in_men


def test_core_lot_gives_the_golden_numbers_and_draw_sheet(tmp_path, on_core):
    """九 编号对阵在第一轮比赛前抽签确定: with the golden event's seed, the core's lot (one stream
    through the groups, the roster's rows in order) gives every pair the golden number, and the
    style's view of the core's 抽签 (组别, 序号, 选手, 单位, 报名表行, 随机种子) is the golden sheet."""
    path = tmp_path / "core.xlsx"
    _new(path, _roster())
    commands.draw(OpenpyxlPort(path, command="draw"), seed=SEED)
    assert _sheet(path, "抽签") == [list(r) for r in _golden_rows("抽签")]
    assert "_bianpai_draw" not in load_workbook(path).sheetnames


def _golden_rows(name):
    return [tuple(r) for r in load_golden()[name]]


def test_core_draws_the_whole_golden_schedule_at_once(tmp_path, on_core):
    """九 "编号对阵在第一轮比赛前抽签确定"、八（一）单循环: the pairs workbook style declares that its
    对阵 lists the whole event (``SheetSet.schedule_whole``); one ``draw`` writes every round of
    the Berger round robin — the golden 对阵 (南北/东西, 牌号 numbered across the event) before the
    arbiter's swap — with a blank entry row per board (the golden 日志: 34 桌次, 162 rows). The
    arbiter's hand edit of 对阵 is then what the core plays."""
    from bianpai.addin.competition import load_core_event
    path = tmp_path / "core.xlsx"
    _new(path, _roster())
    commands.draw(OpenpyxlPort(path, command="draw"), seed=SEED)
    want = [list(r) for r in _golden_rows("对阵")]
    men3 = [i for i, r in enumerate(want) if r[0] == "男子双人赛" and r[1] == 3 and r[5]]
    a, b = men3[:2]  # the golden event's hand edit (EW of tables 1 and 2 swapped), undone
    want[a][5:7], want[b][5:7] = want[b][5:7], want[a][5:7]
    assert _sheet(path, "对阵") == want
    boards = [r for r in _sheet(path, "成绩")[1:] if r[0] is not None]
    assert len(boards) == 162
    # a second press with every round in 对阵 keeps it (the golden event's second draw,
    # "序号沿用原抽签"): nothing re-drawn, no row added
    commands.draw(OpenpyxlPort(path, command="draw"), seed=SEED)
    assert _sheet(path, "对阵") == want
    assert len([r for r in _sheet(path, "成绩")[1:] if r[0] is not None]) == 162
    want[a][5:7], want[b][5:7] = want[b][5:7], want[a][5:7]  # the arbiter swaps them
    _fill(path, "对阵", [want[a]], start_row=a + 1)
    _fill(path, "对阵", [want[b]], start_row=b + 1)
    ev = load_core_event(OpenpyxlPort(path, command="rank"))
    g = ev.reg.group("men")
    played = [(m.round, m.table, m.sides) for m in ev.stage_matches(g, g.stages[0])]
    assert played == [(r[1], r[2], (r[3], r[5])) for r in want[1:] if r[0] == "男子双人赛"]
    assert not ev.errors  # the rows of the earlier pairing are blank: left aside
    # the next draw gives the two edited tables their board rows (6 boards each)
    commands.draw(OpenpyxlPort(path, command="draw"), seed=SEED)
    assert len([r for r in _sheet(path, "成绩")[1:] if r[0] is not None]) == 162 + 12


#: sheets of the golden workbook the core already writes cell for cell (docs/pairs-port.md);
#: 荣誉证书 is the golden one split per person (issue 12), below
CLOSED = ["规程", "报名", "校验", "抽签", "对阵", "成绩", "轮成绩", "罚分", "成绩汇总", "排名", "交叉表", "奖励",
          "_bianpai_settings", "领奖签收表", "证书"]
from tests.golden_build import PAPER  # noqa: E402  (issue 12's paper, beyond the golden sheets)
from bianpai.workbooks.lazy_edit import load_workbook


@pytest.fixture(scope="module")
def golden_on_core(golden_pairs_book):
    """The whole golden flow (``tests.golden_build.build``: new, check, draw, a hand edit of
    对阵, draw, typed boards / round scores / a forfeit / penalties, rank, awards) run by the
    core's commands on the pairs workbook. The pairs layout runs on the core as shipped, so the
    flow is the one test_pairs_golden runs: built once for both (``golden_pairs_book``)."""
    from tests.golden_build import dump
    assert RL.ROSTER_LAYOUTS["pairs"].runs_on_core
    return dump(golden_pairs_book)


@pytest.mark.parametrize("name", CLOSED)
def test_core_writes_the_golden_sheet(golden_on_core, name):
    """八（二）比赛分、八（三）轮空与弃权、十一（三）（四）超时/迟到罚则、十二 录取名次: the sheets of the
    golden event the core already produces are the golden ones, cell for cell — the typed 成绩
    (牌号 across the event, the rows of the hand-edited tables appended), 轮成绩, 罚分 read back
    through the style's views, and the 奖励/证书 the core's standings give. 交叉表: the golden
    cells, and beneath them the line of the men's byes (issue 12, ``with_bye_lines``)."""
    golden = load_golden()
    want = golden[name] if name != "交叉表" else with_bye_lines(golden[name], golden["对阵"])
    assert golden_on_core[name] == want


def test_core_writes_the_golden_sheets_in_order(golden_on_core):
    """The workbook keeps its sheets: the golden ones in the golden order, and beyond the
    Shenzhen workbook's only the paper of issue 12 (桌卡, 记分单 by draw; 成绩公告, 排名走势 by
    rank) — no 退赛, 总排名 (declared by the style)."""
    assert [n for n in golden_on_core if n not in PAPER] == list(load_golden())
    assert [n for n in golden_on_core if n not in load_golden()] == PAPER


def test_core_writes_a_certificate_per_player_of_a_pair(golden_on_core):
    """Issue 12 (证书 one per person): the golden 荣誉证书 gave a pair one page (“选手01/选手02：”);
    each player now gets the golden page under their own name, the pair named in the sentence
    as a team member's team is."""
    from tests.golden_build import per_person
    want = per_person(load_golden()["荣誉证书"])
    got = golden_on_core["荣誉证书"]
    assert len([r for r in got if r and r[0] == "荣 誉 证 书"]) == \
        2 * len([r for r in load_golden()["荣誉证书"] if r and r[0] == "荣 誉 证 书"])
    assert got == want


def test_core_check_logs_the_golden_summary(golden_on_core):
    """The 日志 row of 检查名单 counts the pairs roster's rows as the Shenzhen workbook did
    (``RosterLayout.entrant_word``)."""
    want = load_golden()["日志"]
    assert [r for r in golden_on_core["日志"] if r[1] == "check"] == \
        [r for r in want if r[1] == "check"]


def test_core_draw_logs_the_golden_summary(golden_on_core):
    """九 "编号对阵在第一轮比赛前抽签确定": the 日志 rows of both draws are the Shenzhen workbook's
    ("抽签编排完成：2 个组别，34 桌次，成绩表新增 162 行"; the second keeps the numbers — no seed
    logged — and names the tables the arbiter changed), by the style's ``draw_summary``."""
    want = load_golden()["日志"]
    assert [r[1:] for r in golden_on_core["日志"] if r[1] == "draw"] == \
        [r[1:] for r in want if r[1] == "draw"]


def test_core_rank_logs_the_golden_summary(golden_on_core):
    """八（二）比赛分: the 日志 row of 计算排名 is the Shenzhen workbook's — the draw's seed (the one
    its lots use), and the warning that the women's typed round-1 NS percentages (轮成绩!F2、F3)
    average 51.88, not 50 (the scoring's ``stage_warnings``, shown by the core's rank)."""
    want = load_golden()["日志"]
    assert [r for r in golden_on_core["日志"] if r[1] == "rank"] == \
        [r for r in want if r[1] == "rank"]


def test_core_refuses_advance_for_a_single_stage_event(tmp_path, on_core):
    """九 单循环 (one stage): 进入下一阶段 is refused as the Shenzhen workbook refused it —
    the event has a single stage — not as a stage still waiting."""
    from bianpai.engines.errors import RuleError
    wb = tmp_path / "e.xlsx"
    _new(wb, _roster())
    commands.draw(OpenpyxlPort(wb, command="draw"), seed=SEED)
    with pytest.raises(RuleError, match="本赛事只有一个阶段"):
        commands.advance(OpenpyxlPort(wb, command="advance"))


def test_core_status_of_a_ranked_and_awarded_pairs_event(tmp_path, on_core, golden_pairs_book):
    """十二 录取名次: the Shenzhen workbook's 排名 is its final ranking (no 总排名 sheet): once ranked
    and awarded, the fronts' status says so (on a copy of the golden flow's workbook)."""
    from bianpai.addin.status import status
    from tests.shared_state import copy_of
    wb = copy_of(golden_pairs_book, tmp_path)
    assert status(OpenpyxlPort(wb))[0] == "全部成绩已录入，排名与奖励已完成"


def test_core_rank_data_by_group_with_numbers(tmp_path, on_core):
    """十二 录取名次 / 八（二）: ``rank --json`` of the Shenzhen workbook names each ranking by its
    group (a single stage) and gives the criteria as numbers (场分 6, 1.5), as the workbook did."""
    wb = tmp_path / "e.xlsx"
    _new(wb, _roster())
    commands.draw(OpenpyxlPort(wb, command="draw"), seed=SEED)
    res = commands.rank(OpenpyxlPort(wb, command="rank"), seed=1)
    assert set(res.data) == {"男子双人赛", "女子双人赛"}
    assert all(not isinstance(v, str) for r in res.data["男子双人赛"] for k, v in r.items()
               if k not in ("pool", "name", "explanation") and v is not None)


def test_core_second_draw_keeps_the_whole_schedule(tmp_path, on_core):
    """九 "编号对阵在第一轮比赛前抽签确定": pressing 抽签编排 again on the Shenzhen workbook (every
    round already in 对阵) is not refused: the numbers and 对阵 are kept, no 成绩 row is added,
    and 日志 says the numbers were kept (no seed logged)."""
    wb = tmp_path / "e.xlsx"
    _new(wb, _roster())
    commands.draw(OpenpyxlPort(wb, command="draw"), seed=SEED)
    before = {k: _sheet(wb, k) for k in ("抽签", "对阵", "成绩")}
    commands.draw(OpenpyxlPort(wb, command="draw"))
    assert {k: _sheet(wb, k) for k in before} == before
    last = _sheet(wb, "日志")[-1]
    assert last[3] is None and "成绩表新增 0 行；序号沿用原抽签（随机种子 2023）" in last[4]


def test_core_standings_print_integers_as_integers(tmp_path, on_core):
    """十三 名次排列 (paper): the core's 排名 of the Shenzhen workbook prints 获胜轮数 as 3, not
    3.00, and 场分 with one place, as the workbook did."""
    wb = tmp_path / "e.xlsx"
    _new(wb, _roster())
    commands.draw(OpenpyxlPort(wb, command="draw"), seed=SEED)
    commands.rank(OpenpyxlPort(wb, command="rank"), seed=1)
    ws = load_workbook(wb)["排名"]
    header = [c.value for c in ws[1]]
    assert ws.cell(2, header.index("获胜轮数") + 1).number_format == "0"
    assert ws.cell(2, header.index("场分") + 1).number_format == "0.0"


@pytest.mark.parametrize("rnd", [0, 8])
def test_core_rank_round_out_of_range_is_refused(tmp_path, on_core, rnd):
    """十三 名次排列 after a round: ``rank --round`` outside the drawn rounds (the women's three,
    the men's seven: 1–7) is refused, naming the range, and nothing is written."""
    from bianpai.engines.errors import InputErrors
    wb = tmp_path / "e.xlsx"
    _new(wb, _roster())
    commands.draw(OpenpyxlPort(wb, command="draw"), seed=SEED)
    before = wb.read_bytes()
    with pytest.raises(InputErrors, match="1–7"):
        commands.rank(OpenpyxlPort(wb, command="rank"), upto_round=rnd)
    assert wb.read_bytes() == before


def test_core_names_a_hand_swap_retyped_in_the_entry_rows(tmp_path, on_core):
    """Case manual-swap-guandan: the arbiter swaps two opponents of round 1 in 对阵 and retypes
    the 成绩 rows for them (no table is re-listed). The core's second draw keeps the edit, adds
    no row, and names the tables that differ from the Berger table of the drawn positions (the
    format's ``whole_schedule``), with the typed numbers' seed "报名表序号"."""
    import shutil
    from pathlib import Path
    wb = tmp_path / "m.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "manual-swap-guandan.xlsx", wb)
    n_before = len(_sheet(wb, "成绩"))
    commands.rank(OpenpyxlPort(wb, command="rank"), seed=1)
    commands.draw(OpenpyxlPort(wb, command="draw"))
    last = _sheet(wb, "日志")[-1]
    assert last[3] is None
    assert last[4] == ("抽签编排完成：1 个组别，15 桌次，成绩表新增 0 行；序号沿用原抽签（随机种子 报名表序号），"
                       "未重新抽签；男子双人赛对阵已手工调整（与伯格表不同）：第1轮第1桌、第1轮第2桌")
    r1 = [(r[3], r[5]) for r in _sheet(wb, "对阵")[1:] if r[1] == 1]
    assert r1 == [(1, 5), (2, 6), (3, 4)]
    assert len(_sheet(wb, "成绩")) == n_before


def test_core_logs_the_lots_seed_on_every_draw_that_draws_numbers(tmp_path):
    """九 抽签: every draw that draws numbers by lot logs its seed in 日志 (the first group's, a
    group typed later, a redraw); a press that draws none logs no seed and says the numbers were
    kept, naming every earlier seed."""
    from tests.helpers import four_pairs, pair_row
    from tests.test_cli_flow import run
    wb = tmp_path / "e.xlsx"
    _new(wb, [])
    four_pairs(wb)
    assert run("draw", wb, "--seed", 5).exit_code == 0
    _fill(wb, "报名", [pair_row("女子双人赛", f"女甲{i}", f"女乙{i}", "女", "女") for i in range(1, 4)],
          start_row=6)
    assert run("draw", wb, "--seed", 7).exit_code == 0
    res = run("draw", wb)
    assert res.exit_code == 0 and "（未重新抽签，沿用原种子）" not in res.output
    log = [r for r in _sheet(wb, "日志") if r[1] == "draw"]
    assert [r[3] for r in log] == ["5", "7", None]
    assert "序号沿用原抽签（随机种子 5, 7），未重新抽签" in log[-1][4]


def test_a_new_workbooks_ranking_header_is_the_one_rank_writes(tmp_path):
    """Found by a trial user: a new Shenzhen workbook's 排名 header was the generic one (阶段,
    小组, 队号 …); after rank it became the pairs one (序号, 选手, 已赛轮数 …)."""
    from tests.helpers import four_pairs, new_event, sheet_rows
    from tests.test_cli_flow import run as _run
    wb = new_event(tmp_path / "e.xlsx")
    head = sheet_rows(wb, "排名")[0]
    four_pairs(wb)
    assert _run("draw", wb, "--seed", 2).exit_code == 0
    assert _run("rank", wb).exit_code == 0
    assert sheet_rows(wb, "排名")[0] == head
