"""The Shenzhen guandan pairs rules run through the competition core's one command path.

规程 八（一）单循环；八（二）"比赛分为每副牌按同方向比较……"、场分档位；八（三）轮空 51%、1.5 场分；
十一（三）超时罚则、十一（四）迟到罚则（迟到一轮判该轮弃权）；十三 名次：场分→平均得分率→相互间胜负→
获胜轮数→平局轮数→级差. The preset, with a team roster (the core's 报名/队员 sheets), is drawn
round by round by ``draw``, the golden event's results are typed into the core's 成绩 /
逐局成绩 / 罚分 sheets (the same hand-edited round 3), and ``rank`` must give the golden 排名:
the same places, 场分, 平均得分率, 获胜轮数, 平局轮数, 级差 and 说明.
"""

import datetime as dt

import pytest

from bianpai.addin import commands
from bianpai.addin.competition import is_core_regulation
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.golden_build import PRESET, SEED, load_golden
from bianpai.workbooks.lazy_edit import load_workbook

B = 6  # boards a round


def _values(ws):
    return [list(r) for r in ws.iter_rows(values_only=True)]


def _put(ws, rows, start=2):
    for i, row in enumerate(rows, start=start):
        for j, v in enumerate(row, start=1):
            ws.cell(row=i, column=j).value = v


def _type_round(path, rnd, G):
    """Type round ``rnd`` of the golden event into the core sheets (one save)."""
    boards = {(r[0], r[1], r[4], r[5], r[3] - (r[1] - 1) * B): (r[6], r[7])
              for r in G["成绩"][1:] if r[6] is not None or r[7] is not None}
    typed = {(r[0], r[1], r[3], r[4]): r for r in G["轮成绩"][1:]}
    wb = load_workbook(path)
    sch = _values(wb["对阵"])
    if rnd == 3:  # the arbiter's swap of the golden event: EW of the men's tables 1 and 2
        idx = [i for i, r in enumerate(sch) if r[0] == "男子双人赛" and r[3] == 3 and r[8]]
        a, b = sch[idx[0]], sch[idx[1]]
        a[8:10], b[8:10] = b[8:10], a[8:10]
        a[5], b[5] = f"{a[6]}vs{a[8]}", f"{b[6]}vs{b[8]}"
        _put(wb["对阵"], [a], idx[0] + 1)
        _put(wb["对阵"], [b], idx[1] + 1)
    drawn = {(r[0], r[3], r[4]): r for r in sch[1:]}
    games = _values(wb["逐局成绩"])
    for row in games[1:]:
        if row[3] == rnd:
            m = drawn[(row[0], rnd, row[4])]
            row[6], row[7] = boards.get((row[0], rnd, m[6], m[8], row[5]), (None, None))
    _put(wb["逐局成绩"], games[1:])
    res = _values(wb["成绩"])
    for row in res[1:]:
        if row[3] == rnd:
            m = drawn[(row[0], rnd, row[4])]
            row[5], row[6] = m[6], m[8]
            t = typed.get((row[0], rnd, m[6], m[8]))
            if t:
                row[7], row[8], row[9], row[10] = t[5], t[6], t[8], t[7]
    _put(wb["成绩"], res[1:])
    pens = []
    for r in G["罚分"][1:]:
        if r[1] == rnd:
            m = next(m for k, m in drawn.items() if k[:2] == (r[0], rnd) and r[2] in (m[6], m[8]))
            value = r[4] if r[3] in ("超时", "迟到") else (r[5] or 0)
            pens.append([r[0], m[1], None, rnd, m[4], r[2], value, r[3], r[6]])
    ws = wb["罚分"]
    _put(ws, pens, start=len(_values(ws)) + 1)
    wb.save(path)


@pytest.fixture(scope="module")
def golden():
    return load_golden()


@pytest.fixture(scope="module")
def ranked(tmp_path_factory, golden):
    reg = load_preset(PRESET).model_copy(update={"roster_layout": "teams"})
    assert is_core_regulation(reg)
    path = tmp_path_factory.mktemp("core") / "pairs.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    wb = load_workbook(path)
    # the golden draw's numbers typed as 队号; the two players of each pair in 队员
    _put(wb["报名"], [[r[0], r[1], r[2], r[3], *r[2].split("/")] for r in golden["抽签"][1:]])
    _put(wb["队员"], [[f"{r[2]}/{r[6]}", r[2 + k], r[3 + k], dt.datetime.fromisoformat(r[4 + k])]
                     for r in golden["报名"][1:] for k in (0, 4)])
    wb.save(path)
    for rnd in range(1, 8):
        commands.draw(OpenpyxlPort(path, command="draw"), seed=SEED)
        _type_round(path, rnd, golden)
    commands.rank(OpenpyxlPort(path, command="rank"))
    return _values(load_workbook(path)["排名"])


def test_core_draw_is_the_golden_schedule(ranked, golden):
    """八（一）: the core's round robin (Berger tables) pairs as the Shenzhen workbook did:
    every golden 成绩汇总 opponent was met (checked through the standings' games played)."""
    played = {(r[0], r[4]): r[7] for r in ranked[1:]}
    for r in golden["排名"][1:]:
        byes = sum(1 for x in golden["成绩汇总"][1:] if x[0] == r[0] and x[1] == r[2]
                   and x[10] == "轮空")
        assert played[(r[0], r[2])] == r[5] - byes  # 场数 counts no bye; 已赛轮数 did


def test_core_rank_gives_the_golden_standings(ranked, golden):
    """十三: same places, 场分, 平均得分率, 相互间场分, 获胜轮数, 平局轮数, 级差 and 说明."""
    got = [[r[0], r[3], r[4], r[5], r[6], *r[11:18]] for r in ranked[1:]]
    want = [[r[0], r[1], r[2], r[3], r[4], *r[6:12], r[13]] for r in golden["排名"][1:]]
    assert got == want
