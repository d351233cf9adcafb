"""递补 of withdrawn main-draw players, CBSA 十二（四）: "如遇男、女子排名前8的选手未报名参赛或不符合参赛条件，
空余名额将按照排名依次顺延递补。如已报名又临时退赛的，空余名额将在资格赛未出线的选手中依据资格赛的综合成绩择优递补。"

End to end on the reduced CBSA workbook of tests/test_core_cbsa.py (2 direct entrants, 14
qualifiers, 2 pools of 8), every withdrawal through the withdraw command (退赛 sheet + log).
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from bianpai.addin import commands
from bianpai.addin.competition import load_core_event
from bianpai.addin.core_demo import _fill_match_results, _people_roster
from bianpai.workbooks import layouts as L
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.tables import find_sheet
from tests.helpers import set_setting
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from tests.test_core_cbsa import GROUP, small_regulation
from bianpai.workbooks.lazy_edit import load_workbook

MAIN = "正赛第一阶段"


def _withdraw(path: Path, team: int, reason: str = "临时退赛"):
    res = run("withdraw", path, "--group", GROUP, "--team", team, "--after-round", 0, "--keep",
              "--reason", reason)
    assert res.exit_code == 0, res.output
    return res


def _withdrawal_rows(path: Path) -> dict[int, tuple]:
    return {r[1]: r for r in rows(path, "退赛")[1:]}


@pytest.fixture(scope="module")
def qualified(tmp_path_factory) -> tuple[Path, dict]:
    """Qualifiers drawn; direct entrant (seed 1) withdrawn at once; qualifiers played; stage 1
    entered (advance), not drawn."""
    path = tmp_path_factory.mktemp("cbsa-rep") / "e.xlsx"
    reg = small_regulation()
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    port = OpenpyxlPort(path, command="roster")
    port.append_rows(find_sheet(port, L.ROSTER_PEOPLE), _people_roster(reg, 5, {"open": 42}),
                     start_row=2)
    port.save()
    assert run("draw", path, "--seed", 9).exit_code == 0
    roster = rows(path, "报名")[1:]
    draw = {r[2]: r[1] for r in rows(path, "抽签")[1:]}  # name → number
    seed1 = next(r for r in roster if r[10] == 1)
    men = sorted((r for r in roster if r[4] == seed1[4] and r[10] is None and r[11]),
                 key=lambda r: -r[11])
    info = {"seed": draw[seed1[3]], "next_ranked": draw[men[0][3]]}
    info["withdraw_seed"] = _withdraw(path, info["seed"], "伤病").output
    rng = random.Random(1)
    for step in range(12):
        _fill_match_results(path, rng, {})
        res = run("draw", path, "--seed", 10 + step)
        if res.exit_code != 0:
            assert "advance" in res.output, res.output
            break
    assert run("advance", path, "--seed", 50).exit_code == 0
    return path, info


@pytest.fixture
def copy(qualified, tmp_path) -> Path:
    p = tmp_path / "e.xlsx"
    shutil.copy(qualified[0], p)
    return p


def test_a_seed_withdrawn_before_the_qualifiers_is_replaced_by_the_next_ranked(qualified):
    """十二（四） (CB-05) "未报名参赛或不符合参赛条件…按照排名依次顺延递补": seed 1 withdraws while the qualifiers have
    no result → the best-rated man without a seed takes seed 1's slot (pool A, 1号位); he
    leaves the qualifiers (his drawn match is a walkover for the opponent); all logged."""
    path, info = qualified
    seed, nxt = info["seed"], info["next_ranked"]
    assert _withdrawal_rows(path)[seed][6] == nxt  # 递补队号 written by the command
    assert f"由{nxt}号" in info["withdraw_seed"].replace("\n", "")
    q1 = next(r for r in rows(path, "对阵")[1:] if r[1] == "资格赛" and r[3] == 1
              and nxt in (r[6], r[8]))
    assert "弃权" in (q1[11] or "")
    ev = load_core_event(OpenpyxlPort(path, command="test"))
    g = ev.reg.groups[0]
    ents = {(e.pool, e.seed): e.number for e in ev.stage_entrants(g, g.stage("groups"))}
    assert ents[("A", 1)] == nxt and seed not in ents.values()
    entry = next(r for r in rows(path, "晋级")[1:] if r[1] == MAIN and r[2] == seed)
    assert f"由{nxt}号递补" in entry[12]  # the 晋级 row keeps the record
    assert any("递补" in str(c) for r in rows(path, "日志") for c in r)


def _wins(path: Path) -> dict[int, int]:
    """Qualifier matches won per player, read from 对阵 (a bye is not a match won)."""
    out: dict[int, int] = {}
    for r in rows(path, "对阵")[1:]:
        if r[1] != "资格赛":
            continue
        for x in (r[6], r[8]):
            if x is not None:
                out.setdefault(x, 0)
        if m := re.match(r"(\d+)号胜", r[11] or ""):
            out[int(m.group(1))] += 1
    return out


def test_a_withdrawal_before_the_draw_is_replaced_by_the_best_non_qualified(copy):
    """十二（四） (CB-05) "已报名又临时退赛的…在资格赛未出线的选手中依据资格赛的综合成绩择优递补": a qualified player
    withdraws after 晋级, before stage 1 is drawn → a non-qualified qualifier with the most
    matches won (综合成绩 reading: 胜场 → 胜率 → 胜局 → 抽签) takes his slot in the draw."""
    ev = load_core_event(OpenpyxlPort(copy, command="test"))
    g = ev.reg.groups[0]
    s = g.stage("groups")
    slot = {e.number: (e.pool, e.seed) for e in ev.stage_entrants(g, s)}
    gone = next(n for n, (p, pos) in slot.items() if (p, pos) == ("B", 3))
    _withdraw(copy, gone)
    rep = _withdrawal_rows(copy)[gone][6]
    assert rep is not None
    qualifiers = {e.number for e in ev.stage_entrants(g, g.stage("qualifier"))}
    wins = _wins(copy)
    promoted = {r[6] for r in rows(copy, "退赛")[1:] if r[6]}
    out = [n for n in qualifiers if n not in slot and n not in promoted | {rep}]
    assert rep in qualifiers and rep not in slot
    assert wins[rep] >= max(wins[n] for n in out)
    assert run("draw", copy, "--seed", 70).exit_code == 0
    ev = load_core_event(OpenpyxlPort(copy, command="test"))
    now = {(e.pool, e.seed): e.number for e in ev.stage_entrants(g, s)}
    assert now[("B", 3)] == rep
    drawn = [x for r in rows(copy, "对阵")[1:] if r[1] == MAIN for x in (r[6], r[8])]
    assert rep in drawn and gone not in drawn


def test_after_the_draw_the_default_is_a_walkover(copy):
    """十二（四） (CB-05) reading (setting ``after_draw: walkover``): once the notarized draw is made (十六（三）3), a
    withdrawn player is not replaced; his opponent goes on (十六（一）5 弃权)."""
    assert run("draw", copy, "--seed", 70).exit_code == 0
    r1 = next(r for r in rows(copy, "对阵")[1:] if r[1] == MAIN and r[8] is not None)
    gone, other = r1[6], r1[8]
    res = _withdraw(copy, gone)
    assert _withdrawal_rows(copy)[gone][6] is None and "递补" not in res.output.split("；")[-1]
    ev = load_core_event(OpenpyxlPort(copy, command="test"))
    g = ev.reg.groups[0]
    s = g.stage("groups")
    result = next(v for k, v in ev.results(g, s).items() if gone in v.match.sides)
    assert result.winner == other


_set = set_setting  # a 规程 value typed by the organizer


def test_after_the_draw_replace_unplayed_is_the_other_reading(copy):
    """``after_draw: replace_unplayed``: withdrawn after the draw but before playing, the best
    non-qualified takes his place in the drawn match."""
    _set(copy, "groups[0].stages[1].replacement.after_draw", "replace_unplayed")
    assert run("draw", copy, "--seed", 70).exit_code == 0
    r1 = next(r for r in rows(copy, "对阵")[1:] if r[1] == MAIN and r[8] is not None)
    gone, other = r1[6], r1[8]
    _withdraw(copy, gone)
    rep = _withdrawal_rows(copy)[gone][6]
    assert rep is not None
    ev = load_core_event(OpenpyxlPort(copy, command="test"))
    g = ev.reg.groups[0]
    m = next(m for m in ev.stage_matches(g, g.stage("groups")) if other in m.sides)
    assert m.sides == (rep, other)
    assert not ev.errors


def test_a_typed_withdrawal_gets_its_replacement_from_the_button(copy, tmp_path):
    """The 登记退赛 button (withdraw without a player) fills 递补队号 of a 退赛 row the arbiter typed,
    the same choice as the command's."""
    other = tmp_path / "cli.xlsx"
    shutil.copy(copy, other)
    ev = load_core_event(OpenpyxlPort(copy, command="test"))
    g = ev.reg.groups[0]
    gone = next(e.number for e in ev.stage_entrants(g, g.stage("groups"))
                if (e.pool, e.seed) == ("A", 2))
    wb = load_workbook(copy)
    wb["退赛"].append([GROUP, gone, 0, "保留", "临时退赛"])
    wb.save(copy)
    res = run("withdraw", copy)
    assert res.exit_code == 0, res.output
    _withdraw(other, gone)
    assert _withdrawal_rows(copy)[gone][6] == _withdrawal_rows(other)[gone][6] is not None
    assert "递补" in res.output


def test_replace_unplayed_is_written_into_the_pairings_and_played(copy):
    """十二（四）“如已报名又临时退赛的，空余名额将在资格赛未出线的选手中依据资格赛的综合成绩择优递补” (CB-05), reading
    ``after_draw: replace_unplayed``: once the withdrawal is recorded the 对阵 sheet shows the
    replacement in the withdrawn player's place (not the withdrawn player), the 成绩 row of the
    match names him, and his match is typed, scored and ranked like any other."""
    _set(copy, "groups[0].stages[1].replacement.after_draw", "replace_unplayed")
    assert run("draw", copy, "--seed", 70).exit_code == 0
    r1 = next(r for r in rows(copy, "对阵")[1:] if r[1] == MAIN and r[8] is not None)
    gone, other = r1[6], r1[8]
    _withdraw(copy, gone)
    rep = _withdrawal_rows(copy)[gone][6]
    sched = [r for r in rows(copy, "对阵")[1:] if r[1] == MAIN]
    assert not any(gone in (r[6], r[8]) for r in sched)
    mine = next(r for r in sched if other in (r[6], r[8]))
    assert {mine[6], mine[8]} == {rep, other}
    res_rows = [r for r in rows(copy, "成绩")[1:] if r[1] == MAIN and other in (r[5], r[6])]
    assert res_rows and {res_rows[0][5], res_rows[0][6]} == {rep, other}
    _fill_match_results(copy, random.Random(3), {})
    res = run("rank", copy)
    assert res.exit_code == 0, res.output
    st = {r[4] for r in rows(copy, "排名")[1:] if r[1] == MAIN}
    assert rep in st and gone not in st
