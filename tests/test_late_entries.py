"""Late entries (迟到报名 / 补报) in the workbook: a roster row added after the draw joins the
individual Swiss at the next round drawn (issue 9).

otog 单项 一（二）“采用积分循环制（电脑编排），比赛轮次视参赛人数而定”: the 规程 does not say how a late
entrant is scored for the rounds it missed; the reading is the format's setting ``late_entry``
(``zero``: 0 points per round missed, ``half_per_round``: half a win = a draw per round), its
note in the 规程 sheet. The draw records the newcomer in 抽签 with its 进入轮次 (join round), the
rounds it missed as 迟报 rows of 对阵, and pairs it from its join round on; formats that take no
late entries (a knockout) refuse the row by its roster cell, nothing written.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from bianpai.addin import commands
from bianpai.addin.core_demo import _fill_results
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import digest, set_setting
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "otog-mind-games-2024"
XQ = "中国象棋成年组"


def _person(group, name, team=None):
    return [group, team, None, name, "男", dt.date(1985, 3, 3), None, "鄂托克旗", "队员", None,
            None, None]


def _add(path: Path, people: list[list]) -> None:
    wb = load_workbook(path)
    for r in people:
        wb["报名"].append(r)
    wb.save(path)


def _book(tmp_path: Path, people: list[list], **settings) -> Path:
    path = tmp_path / "late.xlsx"
    reg = load_preset(PRESET)
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    gi = next(i for i, g in enumerate(reg.groups) if g.name_zh == XQ)
    for k, v in settings.items():
        set_setting(path, f"groups[{gi}].stages[0].format.{k}", v)
    _add(path, people)
    return path


def test_a_late_entry_joins_at_the_next_round(tmp_path, late_entry="half_per_round", credit=1):
    """单项 一（二）“比赛轮次视参赛人数而定” (OT-17) with 7 players and 3 rounds: 棋手7 typed in 报名 after
    round 1 is drawn and played → the next draw numbers him 8, writes 进入轮次 2 in 抽签, a 迟报 row
    for round 1 in 对阵 (scored by ``late_entry`` half_per_round: a draw = 1 point in 2/1/0; the
    default ``zero`` gives 0, engine tests), and pairs him in rounds 2–3; nobody plays twice in a
    round, nobody meets twice, at most one 轮空 each."""
    path = _book(tmp_path, [_person(XQ, f"棋手{i}") for i in range(7)], rounds=3,
                 late_entry=late_entry)
    rng, strength = random.Random(2), {}
    assert run("draw", path, "--seed", 1).exit_code == 0
    _fill_results(path, rng, strength)
    _add(path, [_person(XQ, "棋手7")])
    res = run("draw", path, "--seed", 2)
    assert res.exit_code == 0, res.output
    assert "迟到报名" in res.output and "自第2轮起参赛" in res.output
    draw = [r for r in rows(path, "抽签")[1:] if r[0] == XQ]
    header = rows(path, "抽签")[0]
    late = next(r for r in draw if r[2] == "棋手7")
    assert late[1] == 8 and late[header.index("进入轮次")] == 2
    assert all(r[header.index("进入轮次")] is None for r in draw if r[2] != "棋手7")
    for _ in range(2):
        _fill_results(path, rng, strength)
        res = run("draw", path, "--seed", 3)
        if res.exit_code != 0:
            break
    _fill_results(path, rng, strength)
    sched = [r for r in rows(path, "对阵")[1:] if r[0] == XQ]
    assert max(r[3] for r in sched) == 3
    r1_late = [r for r in sched if r[3] == 1 and 8 in (r[6], r[8])]
    assert len(r1_late) == 1 and r1_late[0][8] is None and r1_late[0][5].startswith("迟报")
    met, byes = set(), {}
    for rnd in range(1, 4):
        ms = [r for r in sched if r[3] == rnd]
        seats = [x for r in ms for x in (r[6], r[8]) if x is not None]
        assert len(seats) == len(set(seats)) and sorted(seats) == list(range(1, 9))
        for r in ms:
            if r[8] is None:
                if not str(r[5] or "").startswith("迟报"):
                    byes[r[6]] = byes.get(r[6], 0) + 1
                continue
            pair = frozenset((r[6], r[8]))
            assert pair not in met
            met.add(pair)
    assert all(v <= 1 for v in byes.values())
    assert sum(1 for r in sched if r[3] >= 2 and 8 in (r[6], r[8]) and r[8] is not None) >= 1
    assert run("rank", path).exit_code == 0
    head = rows(path, "排名")[0]
    me = next(r for r in rows(path, "排名")[1:] if r[0] == XQ and r[4] == 8)
    sched = [r for r in rows(path, "对阵")[1:] if r[0] == XQ]  # with every result (rank)
    got = 0
    for r in sched:
        if r[3] >= 2 and 8 in (r[6], r[8]):
            if r[8] is None:
                got += 2                                   # 轮空 = a win (象棋竞赛规则 14.4)
            else:
                pts = [int(x) for x in str(r[10]).split(":")]
                got += pts[0] if r[6] == 8 else pts[1]
    # the round missed (迟报, round 1) adds ``late_entry``'s credit: 0, or a draw (1 in 2/1/0)
    assert me[head.index("积分")] == got + credit


def test_a_late_entry_into_a_knockout_is_refused_by_its_cell(tmp_path):
    """单项 七（一）跳棋“比赛采取单淘汰” (OT-28): a bracket drawn cannot take a late entrant; a roster
    row added after the draw is named (报名!cell), in Chinese and English, nothing written."""
    path = tmp_path / "ko.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), load_preset(PRESET))
    _add(path, [_person("跳棋成年组", f"棋手{i}") for i in range(4)])
    assert run("draw", path, "--seed", 1).exit_code == 0
    _add(path, [_person("跳棋成年组", "迟到者")])
    before = digest(path)
    res = run("draw", path, "--seed", 2)
    assert res.exit_code != 0
    assert "报名!" in res.output and "不接受迟到报名" in res.output
    assert digest(path) == before
