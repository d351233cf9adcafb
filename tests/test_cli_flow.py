"""The Shenzhen flow through the CLI on a generated workbook, reopened with openpyxl."""

import json
import sys
import shutil
import subprocess
from decimal import Decimal

import pytest
from typer.testing import CliRunner

from bianpai.addin.cli import app
from tests.helpers import awards_wait_for_rank, digest, fill, four_pairs, new_event, sheet_rows
from bianpai.workbooks.lazy_edit import load_workbook

runner = CliRunner()


def run(*args):
    res = runner.invoke(app, [str(a) for a in args])
    return res


def test_new_writes_chinese_workbook(tmp_path):
    wb = tmp_path / "event.xlsx"
    res = run("new", "shenzhen-guandan-pairs-2023", "-o", wb)
    assert res.exit_code == 0, res.output
    book = load_workbook(wb)
    assert book.sheetnames[:2] == ["规程", "报名"]
    for s in ("成绩", "轮成绩", "罚分", "日志", "对阵", "排名", "奖励", "校验"):
        assert s in book.sheetnames
    header = [c.value for c in book["报名"][1]]
    assert header[:4] == ["组别", "序号", "选手1", "性别1"]
    assert "RosterTable" in book["报名"].tables or book["报名"].tables
    settings = {r[0]: r for r in book["规程"].iter_rows(values_only=True)}
    assert settings["groups[*].stages[0].format.max_rounds"][2] == 7
    assert settings["groups[*].stages[0].scoring.bye.score_pct"][2] == 51
    assert settings["groups[*].stages[0].scoring.bye.score_pct"][3] == "八（二）（三）"
    # dropdowns on the group column, frozen header, A4 print setup on generated sheets later
    dvs = book["报名"].data_validations.dataValidation
    assert any("男子双人赛" in (dv.formula1 or "") for dv in dvs)
    assert book["报名"].freeze_panes == "A2"
    # refuses to overwrite without --force
    assert run("new", "-o", wb).exit_code == 2


def test_whole_flow_typed_percentages(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert run("check", wb).exit_code == 0
    assert sheet_rows(wb, "校验")[1][0] == "通过"
    res = run("draw", wb, "--seed", 42)
    assert res.exit_code == 0, res.output
    sched = sheet_rows(wb, "对阵")
    assert sched[0] == ("组别", "轮次", "桌号", "南北序号", "南北选手", "东西序号", "东西选手", "牌号")
    assert len(sched) == 1 + 3 * 2
    boards = sheet_rows(wb, "成绩")
    assert len(boards) == 1 + 3 * 2 * 6  # a blank entry row per table and board
    # the same seed gives the same numbers
    draw1 = sheet_rows(wb, "抽签")
    wb2 = new_event(tmp_path / "e2.xlsx")
    four_pairs(wb2)
    run("draw", wb2, "--seed", 42)
    assert [r[:3] for r in sheet_rows(wb2, "抽签")] == [r[:3] for r in draw1]
    # type round percentages: pair 1 wins everything
    rows = []
    for r in sched[1:]:
        g, rnd, table, ns, _, ew, _, _ = r
        ns_pct = 60 if ns == 1 else 40 if ew == 1 else 50
        rows.append([g, rnd, table, ns, ew, ns_pct, 100 - ns_pct, None, None])
    fill(wb, "轮成绩", rows)
    res = run("rank", wb, "--json", "--seed", 1)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    men = data["男子双人赛"]
    assert men[0]["number"] == 1 and men[0]["match_points"] == 6
    st = sheet_rows(wb, "排名")
    assert st[0][-1] == "说明" and "场分" in st[0]
    assert st[1][1] == 1 and st[1][2] == 1
    cross = sheet_rows(wb, "交叉表")
    assert cross[0][:7] == ("组别", "序号", "选手", "1", "2", "3", "4")
    one = next(r for r in cross[1:] if r[1] == 1)
    assert one[3:7] == ("×", "2 (60.00)", "2 (60.00)", "2 (60.00)") and one[7] == 6 and one[9] == 1
    two = next(r for r in cross[1:] if r[1] == 2)
    assert two[3] == "0 (40.00)"
    log = sheet_rows(wb, "日志")
    assert [r[1] for r in log[1:]] == ["new", "check", "draw", "rank"]
    assert log[3][3] == "42"
    # rank as of round 1
    res = run("rank", wb, "--round", 1, "--json", "--seed", 1)
    men1 = json.loads(res.stdout)["男子双人赛"]
    assert men1[0]["match_points"] == 2


def test_board_results_and_undo(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 3)
    before = sheet_rows(wb, "成绩")
    filled = [list(r[:6]) + [1 if r[4] < r[5] else -1, None] for r in before[1:]]
    fill(wb, "成绩", filled)
    typed_state = sheet_rows(wb, "成绩")
    assert run("rank", wb, "--seed", 5).exit_code == 0
    # the typed sheet is untouched by rank
    assert sheet_rows(wb, "成绩") == typed_state
    rr = sheet_rows(wb, "成绩汇总")
    assert rr[0][:7] == ("组别", "序号", "选手", "轮次", "对手序号", "方位", "比赛分%")
    # pairs 1 and 4 never lose a board when they sit NS against a higher number...
    assert all(isinstance(r[6], (int, float)) for r in rr[1:])
    # undo restores the workbook before rank: no 排名 sheet
    assert run("undo", wb).exit_code == 0
    assert sheet_rows(wb, "排名")[1:] == []  # back to the header-only sheet of before rank
    assert sheet_rows(wb, "成绩") == typed_state


def test_redraw_refused_after_results(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 3)
    sched = sheet_rows(wb, "对阵")
    g, rnd, table, ns, _, ew, _, _ = sched[1]
    fill(wb, "轮成绩", [[g, rnd, table, ns, ew, 55, 45, None, None]])
    res = run("draw", wb, "--redraw", "--seed", 9)
    assert res.exit_code == 2
    assert "不能重新抽签" in res.output
    # a plain draw keeps the numbers
    assert run("draw", wb, "--seed", 9).exit_code == 0
    assert sheet_rows(wb, "对阵") == sched


def test_demo_workbook_converts_to_pdf(tmp_path):
    """README 第一条命令: the Shenzhen demo reports its one draw once (the second press, which
    only lists the whole-event 对阵 again, is not a step), and its workbook prints."""
    out = tmp_path / "demo.xlsx"
    res = run("demo", "--out", out)
    assert res.exit_code == 0, res.output
    assert res.output.count("抽签编排完成") == 1, res.output
    # the simulated entry is said (a trial user saw an empty line there: the progress bar's)
    lines = res.output.splitlines()
    at = next(i for i, t in enumerate(lines) if "抽签编排完成" in t)
    assert "模拟录入成绩：40 场" in lines[at + 1] and "" not in lines[:at + 3]
    # a result changed after the last rank: awards would contradict 排名, so it refuses (no
    # write) until rank is pressed again
    changed = tmp_path / "changed.xlsx"
    shutil.copy(out, changed)
    wb = load_workbook(changed)
    ws = wb["成绩"]
    head = [c.value for c in ws[1]]
    ns, ew, pts = (head.index(h) + 1 for h in ("南北序号", "东西序号", "南北得分"))
    for r in range(2, ws.max_row + 1):
        if ws.cell(r, 1).value == "男子双人赛" and 1 in (ws.cell(r, ns).value, ws.cell(r, ew).value):
            ws.cell(r, pts).value = 3 if ws.cell(r, ns).value == 1 else -3  # pair 1 on top
    wb.save(changed)
    awards_wait_for_rank(changed, run, "不是当前成绩的排名", "请先点“计算排名”")
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice not installed")
    subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path),
                    str(out)], check=True, capture_output=True, timeout=180)
    assert (tmp_path / "demo.pdf").stat().st_size > 10000
    from bianpai.workbooks.pdf_export import cjk_font_available
    from tests.test_paper import pdf_text
    text = pdf_text(tmp_path / "demo.pdf")
    if text is not None and cjk_font_available():  # every sheet's Chinese is on its pages
        pages = text.split("\f")
        for title in ("男子双人赛", "荣获第", "领奖签收表", "交叉表", "第 1 页 / 共"):
            assert title in text, title
        assert len(pages) > len(load_workbook(out).sheetnames)  # the long sheets on several


def test_lots_are_stable_across_presses_and_follow_the_draw_seed(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    orders = set()
    for _ in range(4):  # nothing entered: every place is decided by lot
        assert run("rank", wb).exit_code == 0
        orders.add(tuple(r[2] for r in sheet_rows(wb, "排名")[1:]))
    assert len(orders) == 1
    log = sheet_rows(wb, "日志")
    assert log[-1][1] == "rank" and log[-1][3] == "5"
    assert "尚未录入任何成绩" in log[-1][4]


def test_name_corrections_reach_the_standings(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    fill(wb, "报名", [["男子双人赛", None, "甲一改"]], start_row=2)
    assert run("rank", wb).exit_code == 0
    names = [r[3] for r in sheet_rows(wb, "排名")[1:]]
    assert "甲一改/乙1" in names and "甲1/乙1" not in names
    assert run("draw", wb).exit_code == 0  # numbers kept, the seed stays on record
    draw = sheet_rows(wb, "抽签")
    assert all(r[5] == "5" for r in draw[1:]) and any(r[2] == "甲一改/乙1" for r in draw[1:])


def test_undo_refuses_to_drop_typing_unless_forced(tmp_path):
    from bianpai.workbooks.backups import backup_dir
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    rows = sheet_rows(wb, "成绩")
    fill(wb, "成绩", [list(rows[1][:6]) + [2, None]])
    typed = sheet_rows(wb, "成绩")
    res = run("undo", wb)
    assert res.exit_code == 2 and "--force" in res.output
    assert sheet_rows(wb, "成绩") == typed
    assert run("undo", wb, "--force").exit_code == 0
    kept = list((backup_dir(wb) / "undone").iterdir())
    assert kept and load_workbook(kept[0])["成绩"]["G2"].value == 2


def test_undo_further_back_refuses_to_drop_typing_done_after_that_command(tmp_path):
    """Found by a trial tester: draw, type a result, rank, undo (rank), undo again (draw) threw
    the typed result away without a word — the first undo restored a file bianpai had not
    written as the draw left it. Each command's own end state is remembered: the second undo
    sees the typing after the draw and refuses unless --force (the file then kept in undone/)."""
    from bianpai.workbooks.backups import backup_dir
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    rows = sheet_rows(wb, "成绩")
    fill(wb, "成绩", [list(rows[1][:6]) + [2, None]])
    assert run("rank", wb).exit_code == 0
    assert run("undo", wb).exit_code == 0  # rank: nothing typed after it
    typed = sheet_rows(wb, "成绩")
    assert typed[1][6] == 2
    res = run("undo", wb)
    assert res.exit_code == 2 and "--force" in res.output, res.output
    assert sheet_rows(wb, "成绩") == typed
    assert run("undo", wb, "--force").exit_code == 0
    kept = sorted((backup_dir(wb) / "undone").iterdir())
    assert load_workbook(kept[-1])["成绩"]["G2"].value == 2
    # without typing between, undo goes back step by step as before
    wb2 = new_event(tmp_path / "f.xlsx")
    four_pairs(wb2)
    run("draw", wb2, "--seed", 5)
    assert run("rank", wb2).exit_code == 0
    assert run("undo", wb2).exit_code == 0 and run("undo", wb2).exit_code == 0


def test_undo_after_a_save_that_changed_nothing(tmp_path):
    """A trial user opened the workbook after rank, pressed Ctrl+S and closed it: undo refused
    ("changed after the last command") though nothing was typed — the file's bytes had changed.
    What typing changes is compared: the values of every sheet."""
    import openpyxl
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    before = digest(wb)
    openpyxl.load_workbook(wb).save(wb)  # a save as a spreadsheet program does: new bytes
    assert digest(wb) != before
    res = run("undo", wb)
    assert res.exit_code == 0, res.output
    # a value typed after a save still counts
    run("draw", wb, "--seed", 5)
    rows = sheet_rows(wb, "成绩")
    fill(wb, "成绩", [list(rows[1][:6]) + [2, None]])
    res = run("undo", wb)
    assert res.exit_code == 2 and "--force" in res.output


def test_two_commands_at_once_cannot_lose_a_write(tmp_path):
    from bianpai.addin import commands
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    import multiprocessing as mp
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    first = OpenpyxlPort(wb, command="draw")  # holds the workbook, as a running command does
    code = ("from bianpai.addin.cli import app; import sys; sys.argv=['bianpai','check',%r]; "
            "app()" % str(wb))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 2 and "另一个 bianpai 命令" in out.stderr + out.stdout
    commands.draw(first, seed=1)  # the first command still completes and releases
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_typed_placings_are_checked(tmp_path):
    import datetime as dt
    wb = new_event(tmp_path / "o.xlsx", "otog-mind-games-2024")
    group = "围棋成年组"
    fill(wb, "报名", [[group, None, None, f"棋手{i}", "男", dt.date(1980, 1, 1), None, "单位", "队员", None]
                     for i in range(1, 7)])
    fill(wb, "名次录入", [[group, 1, "棋手1", None, None, None], [group, 2, "棋手1", None, None, None],
                         [group, 3, "路人甲", None, None, None]])
    res = run("awards", wb)
    assert res.exit_code == 2
    out = " ".join(res.output.split())
    assert "名次录入!C3" in out and "出现两次" in out
    assert "名次录入!C4" in out and "不在" in out


def test_two_rounds_late_disqualifies(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    sched = sheet_rows(wb, "对阵")
    rows = [[r[0], r[1], r[2], r[3], r[5], 50, 50, None, None] for r in sched[1:] if r[1] == 1]
    fill(wb, "轮成绩", rows)
    fill(wb, "罚分", [["男子双人赛", 2, 3, "迟到两轮", None, None, None]])
    res = run("rank", wb, "--json")
    assert res.exit_code == 0, res.output
    men = json.loads(res.stdout)["男子双人赛"]
    assert men[-1]["number"] == 3 and men[-1]["rank"] is None
    assert "取消比赛资格" in men[-1]["explanation"]
    assert [m["rank"] for m in men[:3]] == [1, 2, 3]
    rr = {r[3]: r[10] for r in sheet_rows(wb, "成绩汇总")[1:] if r[1] == 3}
    # round 2 is a forfeit; round 3 is not yet played, so it does not score yet
    assert rr[2] == "弃权" and rr[3] == "未录"
    # and no award for the disqualified pair
    assert run("awards", wb).exit_code == 0
    assert all(r[2] != men[-1]["name"] for r in sheet_rows(wb, "奖励")[1:])


def test_lateness_of_a_whole_round_is_a_forfeit_kind(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    fill(wb, "罚分", [["男子双人赛", 1, 3, "迟到", 200, None, None]])
    res = run("rank", wb)
    assert res.exit_code == 2 and "迟到一轮" in res.output


def test_future_byes_do_not_score_mid_event(tmp_path):
    import datetime as dt
    from tests.helpers import pair_row
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("混合双人赛", f"甲{i}", f"乙{i}", g1="女", g2="男",
                              b1=dt.date(1970, 1, i)) for i in range(1, 4)])
    run("draw", wb, "--seed", 2)
    sched = sheet_rows(wb, "对阵")
    r1 = next(r for r in sched[1:] if r[1] == 1 and r[5] is not None)
    fill(wb, "轮成绩", [[r1[0], 1, r1[2], r1[3], r1[5], 60, 40, None, None]])
    res = run("rank", wb, "--json")
    rows = json.loads(res.stdout)["混合双人赛"]
    played = {r["number"]: r["match_points"] for r in rows}
    bye1 = next(r[3] for r in sched[1:] if r[1] == 1 and r[5] is None)
    # after round 1 only: the winner 2, the loser 0, the round-1 bye 1.5, nothing from later byes
    assert sorted(played.values()) == [0, 1.5, 2]
    assert played[bye1] == 1.5


def test_a_changed_ranking_empties_the_award_sheets(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    sched = sheet_rows(wb, "对阵")

    def typed(winner):
        return [[r[0], r[1], r[2], r[3], r[5], 60 if r[3] == winner else 40 if r[5] == winner else 50,
                 40 if r[3] == winner else 60 if r[5] == winner else 50, None, None] for r in sched[1:]]
    fill(wb, "轮成绩", typed(1))
    assert run("rank", wb).exit_code == 0 and run("awards", wb).exit_code == 0
    assert len(sheet_rows(wb, "奖励")) > 1
    assert run("rank", wb).exit_code == 0  # same ranking: the award sheets stay
    assert len(sheet_rows(wb, "奖励")) > 1
    fill(wb, "轮成绩", typed(2))
    res = run("rank", wb)
    assert "旧的奖励表已清空" in res.output
    assert sheet_rows(wb, "奖励")[1:] == [] and sheet_rows(wb, "证书")[1:] == []


def test_out_does_not_overwrite_another_file_unless_forced(tmp_path):
    """Found by a trial tester: ``rank x --out y`` replaced an unrelated existing y (``new``
    refused the same). Now refused unless --force; the same file as the workbook is fine."""
    wb = new_event(tmp_path / "e.xlsx")
    other = tmp_path / "precious.xlsx"
    other.write_bytes(b"not mine to overwrite")
    res = run("check", wb, "--out", other)
    assert res.exit_code == 2 and "--force" in res.output
    assert other.read_bytes() == b"not mine to overwrite"
    assert run("check", wb, "--out", other, "--force").exit_code == 0
    assert load_workbook(other)["校验"] is not None
    assert run("check", wb, "--out", wb).exit_code == 0


def test_new_refuses_an_unknown_language_and_a_non_workbook_name(tmp_path):
    """--lang fr made a workbook every later command refused (规程!C3); -o n.txt an .xlsx
    named .txt: both refused at once, nothing written."""
    res = run("new", "shenzhen-guandan-pairs-2023", "--lang", "fr", "-o", tmp_path / "a.xlsx")
    assert res.exit_code == 2 and "zh" in res.output and not (tmp_path / "a.xlsx").exists()
    res = run("new", "shenzhen-guandan-pairs-2023", "-o", tmp_path / "a.txt")
    assert res.exit_code == 2 and ".xlsx" in res.output and not (tmp_path / "a.txt").exists()
    assert run("new", "shenzhen-guandan-pairs-2023", "--lang", "en", "-o",
               tmp_path / "b.xlsx").exit_code == 0


def test_pairs_rank_counts_missing_results_in_tables_as_the_status_does(tmp_path):
    """Found by a trial user: rank said “缺 18 场成绩” where the status said “缺 3 桌”: one word."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    rows = sheet_rows(wb, "成绩")
    first = [r for r in rows[1:] if r[1] == 1]  # every board of round 1 (its 2 tables)
    fill(wb, "成绩", [list(r[:6]) + [2, None] for r in first])
    res = run("rank", wb)
    assert res.exit_code == 0
    flat = "".join(res.output.split())
    assert "缺4桌成绩" in flat and "场成绩" not in flat and "缺2桌" in flat


def test_demo_does_not_overwrite_another_file(tmp_path):
    """Found by a trial tester: ``demo --out notes.txt`` turned a text file into a workbook and
    then said nothing was written; ``demo --out live.xlsx`` replaced a live event silently."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    res = run("demo", "--out", notes)
    assert res.exit_code == 2 and ".xlsx" in res.output and notes.read_text() == "my notes"
    live = tmp_path / "live.xlsx"
    live.write_bytes(b"someone's event")
    res = run("demo", "--out", live)
    assert res.exit_code == 2 and "--force" in res.output
    assert live.read_bytes() == b"someone's event"
