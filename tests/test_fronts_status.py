"""The status line (state + next step) computed from the workbook, and the JournalPort under it:
reads that see the command's own writes, on the remote engine too."""

from __future__ import annotations

import random
import shutil

import pytest
from bianpai.workbooks.lazy_edit import load_workbook
from typer.testing import CliRunner

from bianpai.addin.cli import app
from bianpai.addin.status import status
from bianpai.workbooks.journal import JournalPort
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.payload import apply_actions, payload_from_xlsx, remote_book
from bianpai.workbooks.xlwings_port import XlwingsPort
from tests.fronts_helpers import make_fixture
from tests.helpers import fill, four_pairs, new_event, pair_row, sheet_rows


@pytest.fixture(autouse=True)
def _license(monkeypatch):
    monkeypatch.setenv("XLWINGS_LICENSE_KEY", "noncommercial")


def _cli(*args):
    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code in (0, 1), res.output
    return res


def test_pairs_status_follows_the_event(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    assert status(OpenpyxlPort(wb)) == ("报名表为空", "请填写报名表，然后点“检查名单”")
    four_pairs(wb)
    assert status(OpenpyxlPort(wb)) == ("已报名 4 对，尚未抽签", "可以抽签编排")
    res = _cli("draw", wb, "--seed", 3)
    assert "当前状态：第1轮成绩未录完：缺 2 桌" in res.output  # one group: no group name
    sched = sheet_rows(wb, "对阵")[1:]
    rows = [[g, rnd, t, ns, ew, 55, 45, None, None] for g, rnd, t, ns, _, ew, _, _ in sched
            if rnd < 3 or t == 1]  # round 3 table 2 left out
    fill(wb, "轮成绩", rows)
    assert status(OpenpyxlPort(wb)) == ("第3轮成绩未录完：缺 1 桌", "录入成绩后点“计算排名”")
    g, rnd, t, ns, _, ew, _, _ = [r for r in sched if r[1] == 3 and r[2] == 2][0]
    fill(wb, "轮成绩", [[g, rnd, t, ns, ew, 50, 50, None, None]], start_row=len(rows) + 2)
    assert status(OpenpyxlPort(wb)) == ("全部成绩已录入", "可以计算排名")
    _cli("rank", wb, "--seed", 1)
    assert status(OpenpyxlPort(wb)) == ("全部成绩已录入，排名已计算", "可以奖励分配")
    _cli("awards", wb)
    assert status(OpenpyxlPort(wb))[0] == "全部成绩已录入，排名与奖励已完成"
    # bad input: the state names the first cell
    fill(wb, "轮成绩", [[g, 9, t, ns, ew, 50, 50, None, None]], start_row=len(rows) + 3)
    state, nxt = status(OpenpyxlPort(wb))
    assert state.startswith("成绩有 1 处错误（首处：轮成绩!B") and "计算排名" in nxt


def test_roster_errors_and_missing_settings(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    fill(wb, "报名", [pair_row("男子双人赛", "甲9", "乙9", b1="不是日期")], start_row=6)
    state, nxt = status(OpenpyxlPort(wb))
    assert state.startswith("名单有") and "报名!E6" in state and "检查名单" in nxt
    plain = make_fixture(tmp_path / "plain.xlsx")
    assert status(OpenpyxlPort(plain))[0] == "缺少“规程”表"


def test_team_status_and_the_advance_button_front(tmp_path):
    from bianpai.addin.macros import run_on_book
    from bianpai.templates.presets_io import load_preset
    from bianpai.workbooks.demo_rosters import bridge_teams_demo_roster

    out = tmp_path / "teams.xlsm"
    _cli("new", "fujian-elder-bridge-teams", "--macros", "-o", out)
    wb = load_workbook(out, keep_vba=True)
    roster, people = bridge_teams_demo_roster(load_preset("fujian-elder-bridge-teams"), 3)
    for r, row in enumerate(roster, start=2):
        for c, v in enumerate(row, start=1):
            wb["报名"].cell(r, c, v)
    for r, row in enumerate(people, start=2):
        for c, v in enumerate(row, start=1):
            wb["队员"].cell(r, c, v)
    wb["操作"]["B2"] = 77
    from bianpai.workbooks.xlsm import ACCEPT_LABEL
    row = next(r for r in wb["操作"].iter_rows() if r[0].value == ACCEPT_LABEL)
    row[1].value = "省直老体协可增报3支队伍（总规程六（二）3）"
    wb.save(out)
    book = remote_book(payload_from_xlsx(out, client="Office.js"))
    run_on_book("draw", book)
    drawn = tmp_path / "drawn.xlsm"
    alerts = apply_actions(out, book.json()["actions"], drawn)
    assert "随机种子 77" in alerts[0]
    ops = load_workbook(drawn)["操作"]
    assert ops["B3"].value == "排位赛第1轮成绩未录完：缺 10 桌"
    assert ops["B4"].value == "录入成绩后点“抽签编排”编排第2轮"
    # 进入下一阶段 before the first stage is over: refused, nothing written
    book = remote_book(payload_from_xlsx(drawn, client="Office.js"))
    assert run_on_book("advance", book) is None
    actions = book.json()["actions"]
    assert [a["func"] for a in actions] == ["alert"]
    assert "排位赛共6轮，目前只编排了1轮" in actions[0]["args"][0]


# -- JournalPort -------------------------------------------------------------------------------------

@pytest.mark.parametrize("client", ["VBA", "Office.js"])
def test_journal_reads_see_own_writes_on_the_remote_engine(tmp_path, client):
    path = make_fixture(tmp_path / "e.xlsx")
    raw = XlwingsPort(remote_book(payload_from_xlsx(path, client=client)))
    jp = JournalPort(raw, command="t", snapshots=True)
    jp.write_sheet("新表", [["a", "b"], [1, None]], position=1)
    jp.append_rows("报名", [[9, "新队"]], start_row=7)
    jp.delete_sheet("说明")
    assert raw.read_values("报名")[-1][0] == 4  # the remote engine itself: the old values
    assert jp.read_values("新表") == [["a", "b"], [1, None]]
    assert jp.read_values("报名")[-1][:2] == [9, "新队"] and len(jp.read_values("报名")) == 7
    assert jp.sheet_names() == ["报名", "新表"]
    with pytest.raises(Exception):
        jp.read_values("说明")
    jp.save()
    out = tmp_path / "out.xlsx"
    apply_actions(path, raw.book.json()["actions"], out)
    wb = load_workbook(out)
    assert wb.sheetnames == ["报名", "新表", "_bianpai_undo"]
    # and undo brings back the fixture (说明 re-created, 新表 gone, the row cleared)
    from bianpai.workbooks.journal import undo_last

    port2 = XlwingsPort(remote_book(payload_from_xlsx(out, client=client)))
    assert undo_last(port2) == "t"
    back = tmp_path / "back.xlsx"
    apply_actions(out, port2.book.json()["actions"], back)
    a, b = load_workbook(path), load_workbook(back)
    assert a.sheetnames == b.sheetnames
    for ws in a.worksheets:
        assert [[c.value for c in r] for r in ws.iter_rows()] == \
            [[c.value for c in r] for r in b[ws.title].iter_rows()][:ws.max_row], ws.title


def test_snapshots_follow_markers_on_files(tmp_path):
    path = make_fixture(tmp_path / "e.xlsx")
    assert JournalPort(OpenpyxlPort(path)).snapshots is False
    shutil.copyfile(path, tmp_path / "m.xlsx")
    p = OpenpyxlPort(tmp_path / "m.xlsx")
    p.write_sheet("操作", [["x"]], position=0)
    assert JournalPort(p).snapshots is True


def test_large_snapshots_are_chunked(tmp_path):
    from bianpai.workbooks import journal

    path = make_fixture(tmp_path / "e.xlsx")
    port = OpenpyxlPort(path)
    jp = JournalPort(port, command="big", snapshots=True)
    rng = random.Random(1)
    big = [[f"{rng.random():.12f}" for _ in range(10)] for _ in range(600)]
    jp.write_sheet("大表", big)
    jp.save()
    jp2 = JournalPort(OpenpyxlPort(path), command="big2", snapshots=True)
    jp2.write_sheet("大表", [["小"]])
    jp2.save()
    rows = sheet_rows(path, journal.UNDO_SHEET)[1:]
    parts = [r for r in rows if r[1] == "big2"]
    assert len(parts) > 2 and all(len(r[4]) <= journal.CHUNK for r in parts)
    assert journal.undo_last(OpenpyxlPort(path)) == "big2"
    assert sheet_rows(path, "大表") == [tuple(r) for r in big]


def test_status_of_an_event_whose_places_are_typed(tmp_path):
    """A regulation without stages (every group's places typed in 名次录入) runs on the core's
    commands; the status says what to type (moved from the removed pairs pipeline's status)."""
    from tests.test_awards_flow import cbsa_typed_places_event, person
    import datetime as dt
    wb = cbsa_typed_places_event(tmp_path / "c.xlsx")
    fill(wb, "报名", [person("正赛", f"选手{i}", birth=dt.date(1995, 1, 1)) for i in range(1, 5)])
    assert status(OpenpyxlPort(wb)) == ("已报名 4 行，名次尚未录入",
                                        "请在“名次录入”表填写名次，然后点“奖励分配”")
    fill(wb, "名次录入", [["正赛", i, f"选手{i}", None, None, None] for i in range(1, 5)])
    assert status(OpenpyxlPort(wb)) == ("名次已录入", "可以奖励分配")


@pytest.mark.parametrize("state", ["pairs-new", "pairs-drawn", "golden-fujian", "gouji-mid"])
def test_status_of_check_and_awards_is_that_of_a_fresh_reading(tmp_path, shared_book,
                                                              golden_teams_book, mid_event_book,
                                                              state):
    """check and awards change nothing the event is read from, so the status line computed
    from the event they read (``CommandResult.status_event``) must be the one a fresh reading
    of the saved workbook gives, whatever the state: roster only, mid-event, finished."""
    from bianpai.addin.fronts import run_command
    from tests.shared_state import copy_of
    if state == "pairs-new":
        wb = new_event(tmp_path / "e.xlsx")
        four_pairs(wb)
        fill(wb, "报名", [pair_row("男子双人赛", "甲1", "丙1")], start_row=6)  # a duplicate player
    elif state == "pairs-drawn":
        wb = new_event(tmp_path / "e.xlsx")
        four_pairs(wb)
        _cli("draw", wb, "--seed", 3)
    elif state == "golden-fujian":
        wb = copy_of(golden_teams_book("fujian-elder-bridge-teams"), tmp_path)
    else:
        wb = copy_of(mid_event_book("gouji"), tmp_path)
    commands = ["check", "awards"]
    seen = []
    for command in commands:
        port = OpenpyxlPort(wb, command=command)
        try:
            result = run_command(port, command)
        except Exception:  # noqa: BLE001 - a refused command writes nothing: no status line
            continue
        fresh = status(OpenpyxlPort(wb))
        assert result.status == fresh, (command, state)
        seen.append(command)
    assert "check" in seen
    if state == "golden-fujian":
        assert seen == commands  # a finished event takes both


@pytest.mark.parametrize("short", ["fjbridge", "pairs"])
def test_status_after_a_draw_is_that_of_a_fresh_reading(tmp_path, mid_event_book, short):
    """A draw of a style whose status names the round lacking results reads the drawn event
    with the typed matches it read before its writes (``load_core_event(typed_from=…)``): the
    status line must be the one a fresh reading of the saved workbook gives — after a round is
    typed and the next drawn, and after a draw refused or with nothing to do."""
    from bianpai.addin import core_demo as D
    from bianpai.addin.fronts import run_command
    from tests.shared_state import copy_of
    wb = copy_of(mid_event_book(short), tmp_path)
    rng, strength = random.Random(4), {}
    drew = 0
    for _ in range(1 if short == "pairs" else 2):  # pairs: the whole schedule is drawn at once
        port = D.DemoPort(wb, command="demo-results")  # type the round left untyped
        D._fill_results(port, rng, strength)
        D._fill_match_results(port, rng, strength)
        port.commit()
        try:
            result = run_command(OpenpyxlPort(wb, command="draw"), "draw", seed=7)
        except Exception:  # noqa: BLE001 - nothing drawn, nothing written: no status line
            continue
        drew += 1
        assert result.status == status(OpenpyxlPort(wb)), short
        if short == "fjbridge":  # a Swiss round drawn: it lacks every result
            assert "未录完" in result.status[0]
    assert drew >= 1
