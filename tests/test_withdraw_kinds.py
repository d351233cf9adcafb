"""退赛 on formats a trial tester found broken: the guandan pairs round robin (its later
tables crashed every command with a NaN seat) and the board-game Swiss (the withdrawal was
ignored: the withdrawn player kept being paired and scored)."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook
from bianpai.workbooks.openpyxl_port import OpenpyxlPort

CASES = Path(__file__).parent / "data" / "cases"


def test_a_withdrawn_pairs_later_tables_are_its_forfeits(tmp_path):
    """深圳 十（三）2: the pair that did not forfeit gets 55 % and 2 场分, the withdrawn pair 0;
    its tables typed before the withdrawal stand; every command still runs."""
    from bianpai.addin.competition import load_core_event
    path = tmp_path / "m.xlsx"
    shutil.copyfile(CASES / "mid-shenzhen-guandan-pairs.xlsx", path)
    wb = load_workbook(path)
    ws = wb["成绩"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "男子双人赛" and row[1].value >= 3 and 1 in (row[4].value,
                                                                       row[5].value):
            row[6].value = row[7].value = None  # its tables from round 3 on: not played
    wb.save(path)
    res = run("withdraw", path, "--group", "男子双人赛", "--team", "1", "--after-round", "2")
    assert res.exit_code == 0, res.output
    assert "ValueError" not in res.output and "无法判断状态" not in res.output
    for cmd in (("rank", "--round", "1"), ("rank",), ("awards",)):
        res = run(*cmd, path)
        assert res.exit_code == 0, (cmd, res.output)
    ev = load_core_event(OpenpyxlPort(path))
    g = next(g for g in ev.reg.groups if g.name_zh == "男子双人赛")
    res = ev.results(g, g.stages[0])
    mine = [r for r in res.values() if 1 in r.match.sides]
    assert {r.match.round for r in mine} == set(range(1, 8))
    for r in mine:
        i = r.match.sides.index(1)
        if r.match.round >= 3:
            assert r.points[i] == 0 and r.points[1 - i] == 2, r
            assert Decimal(str(r.values["score_pct"][1 - i])) == Decimal("55")
        else:  # typed before the withdrawal: stands as typed
            assert r.outcome[i] in ("W", "L", "D")


def test_a_withdrawal_contradicting_a_played_result_is_refused(mid_event_book, tmp_path):
    """Found by a trial tester: 退赛 "after round 1" of a Swiss player whose round-2 game was
    played and typed was taken, and the ranking kept the withdrawn player's later wins. Now the
    withdraw (and rank) refuse it at the typed result's cell and write nothing; after the round
    the player really last played, it is taken and the unplayed match is the opponent's
    forfeit win."""
    from tests.shared_state import copy_of
    from bianpai.addin.competition import load_core_event
    path = copy_of(mid_event_book("otog", draws=2), tmp_path)
    ev = load_core_event(OpenpyxlPort(path))
    g = next(g for g in ev.reg.groups if g.name_zh == "中国象棋青少年组")
    s = g.stages[0]
    r2 = [m for m in ev.stage_matches(g, s) if m.round == 2 and not m.is_bye]
    n = r2[0].sides[0]
    before = path.read_bytes()
    res = run("withdraw", path, "--group", g.name_zh, "--team", n, "--after-round", 1)
    assert res.exit_code == 2, res.output
    flat = " ".join(res.output.split())
    # named at the typed game rows (逐局成绩), not at the match row's empty 判定 cell
    assert "未写入任何内容" in flat and f"{n}号已登记第1轮后退赛" in flat and "逐局成绩!" in flat
    assert path.read_bytes() == before
    res = run("withdraw", path, "--group", g.name_zh, "--team", n, "--after-round", 2)
    assert res.exit_code == 0, res.output
    ev = load_core_event(OpenpyxlPort(path))
    got = [r for r in ev.results(g, s).values() if r.match.round == 3 and n in r.match.sides]
    assert got and got[0].outcome[got[0].match.sides.index(n)] == "FL"
    assert not ev.errors


def test_withdraw_names_what_is_missing(tmp_path):
    """Found by a trial tester: without --team it said “没有 None 号队”; before the draw “no team
    3 in group”. Each case now says what to give or do."""
    path = tmp_path / "m.xlsx"
    shutil.copyfile(CASES / "mid-shenzhen-guandan-pairs.xlsx", path)
    res = run("withdraw", path, "--group", "男子双人赛")
    assert res.exit_code == 2 and "None" not in res.output and "--team" in res.output
    res = run("withdraw", path, "--group", "无此组", "--team", 1)
    assert res.exit_code == 2 and "没有组别“无此组”" in "".join(res.output.split())
    res = run("withdraw", path, "--group", "男子双人赛", "--team", 99)
    assert res.exit_code == 2 and "没有99号" in "".join(res.output.split())
    from tests.helpers import new_event, four_pairs
    fresh = new_event(tmp_path / "n.xlsx")
    four_pairs(fresh)
    res = run("withdraw", fresh, "--group", "男子双人赛", "--team", 1)
    assert res.exit_code == 2 and "尚未抽签编排" in "".join(res.output.split())


def test_withdraw_writes_the_results_rule_that_applies(mid_event_book, tmp_path):
    """Found by a trial user: withdraw said “成绩全部取消” (the 规程's default) but left the 退赛
    row's 成绩处理 blank; the row now says what applies."""
    from tests.shared_state import copy_of
    from tests.helpers import sheet_rows
    from bianpai.addin.competition import load_core_event
    path = copy_of(mid_event_book("gouji", draws=2), tmp_path)
    ev = load_core_event(OpenpyxlPort(path))
    g = ev.reg.groups[0]
    n = sorted(ev.groups[g.id].teams)[0]
    last = ev.state(g, g.stages[0], with_standings=False).rounds_drawn()
    res = run("withdraw", path, "--group", g.name_zh, "--team", n, "--after-round", last)
    assert res.exit_code == 0, res.output
    rows = sheet_rows(path, "退赛")
    head = rows[0]
    want = "取消" if ev.reg.withdrawal.results == "annul" else "保留"
    assert rows[-1][head.index("成绩处理")] == want
    assert ("成绩全部取消" if want == "取消" else "已赛成绩保留") in "".join(res.output.split())


def test_withdrawn_sides_of_drawn_matches_do_not_block_the_stage(mid_event_book, tmp_path):
    """Found by a trial tester: (a) a withdrawn 象棋 team's drawn, unplayed match waited for a
    result for ever (the draw had prefilled 台次/先手方, read as typing); (b) two withdrawn 80分
    pairs meeting in a drawn round left a table no one could ever score. Now (a) is the
    opponent's forfeit win and (b) is void."""
    from tests.shared_state import copy_of
    from bianpai.addin.competition import load_core_event
    path = copy_of(mid_event_book("fujian", draws=2), tmp_path)
    ev = load_core_event(OpenpyxlPort(path))
    xq = next(g for g in ev.reg.groups if g.name_zh == "象棋")
    p80 = next(g for g in ev.reg.groups if g.name_zh.startswith("扑克牌升级"))
    last = ev.state(xq, xq.stages[0], with_standings=False).rounds_drawn()
    m = next(m for m in ev.stage_matches(xq, xq.stages[0]) if m.round == last and not m.is_bye)
    a, b = next(x.sides for x in ev.stage_matches(p80, p80.stages[0]) if x.round == last)
    for g, n in ((xq, m.sides[0]), (p80, a), (p80, b)):
        res = run("withdraw", path, "--group", g.name_zh, "--team", n, "--after-round", last - 1)
        assert res.exit_code == 0, res.output
    ev = load_core_event(OpenpyxlPort(path))
    r = ev.results(xq, xq.stages[0])[m.key]
    assert r.outcome == ("FL", "FW")
    void = [x for x in ev.results(p80, p80.stages[0]).values()
            if x.match.round == last and set(x.match.sides) == {a, b}]
    assert void and void[0].outcome == ("VOID", "VOID")
    assert not [k for k in ev.missing(xq, xq.stages[0]) if k.key == m.key]
    assert not [k for k in ev.missing(p80, p80.stages[0]) if set(k.sides) == {a, b}]
    # a score typed at that void table contradicts the 退赛 rows: refused, at its row
    from bianpai.workbooks.lazy_edit import load_workbook
    void_key = void[0].match
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    head = [c.value for c in ws[1]]
    col = head.index("得分") + 1
    r = next(r for r in range(2, ws.max_row + 1) if str(ws.cell(r, 1).value).startswith("扑克")
             and ws.cell(r, 4).value == void_key.round and ws.cell(r, 5).value == void_key.table)
    ws.cell(r, col, 100)
    wb.save(path)
    res = run("rank", path)
    assert res.exit_code == 2 and "双方都已登记退赛" in "".join(res.output.split())


def test_a_withdrawn_pairs_bye_in_an_odd_group_is_void(tmp_path):
    """Found by a trial tester: 退赛 in a 3-pair Shenzhen group (a bye each round) crashed every
    command (NaN seat)."""
    from tests.helpers import fill, new_event, pair_row
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 4)])
    assert run("draw", wb, "--seed", 3).exit_code == 0
    for team in (1, 2, 3):
        path = tmp_path / f"w{team}.xlsx"
        shutil.copyfile(wb, path)
        res = run("withdraw", path, "--group", "男子双人赛", "--team", team, "--after-round", 0)
        assert res.exit_code == 0 and "ValueError" not in res.output, res.output
        assert run("rank", path).exit_code == 0


def test_a_second_withdraw_names_the_row_already_there(tmp_path):
    """Found by a trial tester: a second withdraw of one team said “退赛!B3 … 登记了两次”, an
    empty row of the file (the one it would have added); it names the existing row."""
    path = tmp_path / "m.xlsx"
    shutil.copyfile(CASES / "mid-shenzhen-guandan-pairs.xlsx", path)
    assert run("withdraw", path, "--group", "男子双人赛", "--team", 1, "--after-round", 7).exit_code == 0
    res = run("withdraw", path, "--group", "男子双人赛", "--team", 1, "--after-round", 7)
    flat = "".join(res.output.split())
    assert res.exit_code == 2 and "退赛!A2" in flat and "已登记退赛" in flat
