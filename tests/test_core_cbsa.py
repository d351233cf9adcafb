"""The 2022 CBSA Chinese eight-ball open on the competition core (issue 11): qualifier flights,
double-elimination pools with the direct entrants on 1号位, the stage-2 knockout seeded by 胜率,
no-shows, the best player and the awards.

The wide test runs the preset's demo once on a reduced field, set up the way 十六（二）1（3）
lets the organizer do it ("组委会有权根据实际报名情况调整晋级正赛的名额"): 2 pools of 8 instead of
16 (2 direct entrants, 14 qualifiers), so stage 2 is an 8-player knockout. The full 528-entry
demo is `bianpai demo cbsa-chinese-eightball-open-2022` (see the report). The narrow tests
start from copies of that workbook or from a new one.
"""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from rich.console import Console

from bianpai.addin import commands
from bianpai.addin.core_demo import run_core_demo
from bianpai.engines.core import Match, StageEntrant, StageState, TypedMatch
from bianpai.engines.elimination import SingleElimination
from bianpai.engines.errors import RuleError
from bianpai.engines.knockout_scoring import FramesRace
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import awards_wait_for_rank, digest
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "cbsa-chinese-eightball-open-2022"
GROUP = "个人混合赛"




def small_regulation():
    """The preset with the numbers 十六（二）1（3）lets the organizer change: flights stop at
    4/4/2/2 (men) and 1/1 (women) = 14 qualifiers, 2 direct entrants, 2 pools of 8."""
    reg = load_preset(PRESET)
    q, groups, _ko = reg.groups[0].stages
    q.format.stop_when_remaining = {"男1": 4, "男2": 4, "男3": 2, "男4": 2, "女1": 1, "女2": 1}
    groups.pools.count = 2
    groups.entrants[0].places.last = 2
    return reg


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("cbsa") / "demo.xlsx"
    data = run_core_demo(small_regulation(), out, seed=5, fields={"open": 42}, pictures=False,
                         console=Console(file=open("/dev/null", "w")))
    return out, data


@pytest.fixture
def done(demo, tmp_path) -> Path:
    p = tmp_path / "e.xlsx"
    shutil.copy(demo[0], p)
    return p


def _races(path: Path) -> dict[tuple, tuple]:
    """(stage, pool, round, table) → (label, 几局胜) from 对阵 and 成绩."""
    labels = {(r[1], r[2], r[3], r[4]): r[5] for r in rows(path, "对阵")[1:]}
    res = rows(path, "成绩")
    race = res[0].index("几局胜")
    return {(r[1], r[2], r[3], r[4]): (labels.get((r[1], r[2], r[3], r[4])), r[race])
            for r in res[1:]}


# ------------------------------------------------------------------------------ the wide test

def test_qualifiers_to_the_final_and_the_awards(demo):
    """十六（二）1, 十六（三）1: flights by lot within each gender, no seeds, stopped at the set
    numbers; 十六（三）2(1): "16名种子选手按蛇形排列定位至16个小组的1号位。从资格赛晋级的选手全部混抽
    入位"; 十六（二）2(2) 4 per pool (2 胜部, 2 败部); 十六（三）2(2) stage 2: the 胜部 qualifiers are
    seeds 1–4, the 败部 ones drawn into 5–8; 十六（二）2(3) third-place match; 十七 awards."""
    path, data = demo
    people = rows(path, "报名")
    gender = {i: r[4] for i, r in enumerate(people[1:], start=2)}
    seeded_rows = {i for i, r in enumerate(people[1:], start=2) if r[10] is not None}
    assert len(seeded_rows) == 2
    draw = rows(path, "抽签")[1:]
    for r in draw:
        row = r[6]
        if row in seeded_rows:
            assert r[4] is None  # direct entrants play no qualifier (十二（三）)
        else:
            assert r[4][0] == gender[row]  # 男1…男4 / 女1, 女2
    flights = pd.Series([r[4] for r in draw if r[4]]).value_counts()
    assert set(flights.index) == {"男1", "男2", "男3", "男4", "女1", "女2"}
    assert flights[["男1", "男2", "男3", "男4"]].max() - flights[["男1", "男2", "男3", "男4"]].min() <= 1

    entries = rows(path, "晋级")[1:]
    stage1 = [r for r in entries if r[1] == "正赛第一阶段"]
    assert len(stage1) == 16
    from_q = pd.Series([r[7] for r in stage1 if r[6] == "资格赛"]).value_counts().to_dict()
    assert from_q == {"男1": 4, "男2": 4, "男3": 2, "男4": 2, "女1": 1, "女2": 1}
    seeds = sorted((r[8], r[4], r[5]) for r in stage1 if r[6] == "报名")
    assert seeds == [(1, "A", 1), (2, "B", 1)]  # seed k on 1号位 of the k-th pool
    assert sorted(r[5] for r in stage1 if r[4] == "A") == list(range(1, 9))

    stage2 = sorted((r for r in entries if r[1] == "正赛第二阶段"), key=lambda r: r[5])
    assert [r[5] for r in stage2] == list(range(1, 9))
    assert [r[8] for r in stage2] == [1, 1, 1, 1, 3, 3, 3, 3]  # 胜部 first, then 败部
    # seeds 1–4 by 胜率 of stage 1 (排名 shows it), best first
    st = rows(path, "排名")
    rate_col = st[0].index("胜率")
    rate = {r[4]: Decimal(str(r[rate_col])) for r in st[1:] if r[1] == "正赛第一阶段"}
    top = [rate[r[2]] for r in stage2[:4]]
    assert top == sorted(top, reverse=True)

    races = _races(path)
    for (stage, pool, rnd, _t), (label, race) in races.items():
        if stage == "资格赛":
            assert race == (9 if pool.startswith("男") else 7)
        elif stage == "正赛第一阶段":
            assert race == 9
        else:
            assert race == {"F": 41, "SF1": 21, "SF2": 21, "3rd": 21}.get(label, 13), label
    assert any(lab == "3rd" for lab, _ in races.values())

    final = [r for r in rows(path, "总排名")[1:] if r[0] == GROUP]
    assert [r[1] for r in final[:8]] == [1, 2, 3, 4, 5, 5, 5, 5]
    assert len(final) == 16  # the main draw: 8 from the knockout, 8 out in the pools
    best = [r for r in rows(path, "总排名")[1:] if r[0] == "最佳运动员"]
    # 十七（三）: the most clearances over the main draw (both stages; the qualifiers do not count)
    res = rows(path, "成绩")
    c0, c1 = res[0].index("甲方连续清台"), res[0].index("乙方连续清台")
    total: dict[int, int] = {}
    for r in res[1:]:
        if r[1] in ("正赛第一阶段", "正赛第二阶段"):
            total[r[5]] = total.get(r[5], 0) + (r[c0] or 0)
            total[r[6]] = total.get(r[6], 0) + (r[c1] or 0)
    most = max(total.values())
    assert {r[2] for r in best if r[1] == 1} == {n for n, v in total.items() if v == most}
    awards = rows(path, "奖励")[1:]
    assert sum(1 for r in awards if r[0] == GROUP) == 8
    assert any(r[0] == "最佳运动员" for r in awards)
    bracket = rows(path, "签表")
    assert bracket[0][:7] == ("组别", "阶段", "小组", "轮次", "场次", "号", "姓名/队名")
    champion = next(r for r in bracket[1:] if r[1] == "正赛第二阶段" and r[4] == "F" and r[8] == "✓")
    assert champion[6] == final[0][3]
    # 签表图: the 8-player bracket in cells, round 3 (the final) in columns H/I, champion ✓
    grid = rows(path, "签表图")
    assert grid[0][3:5] == ("第1轮", "局数")
    ko = [r for r in grid[1:] if r[1] == "正赛第二阶段"]
    assert sum(1 for r in ko if r[3] and r[3][0] != "三") == 8 + 2  # 4 QFs + the 3rd-place match
    assert [r[7] for r in ko if r[7]] in ([f"✓ {final[0][2]} {final[0][3]}", f"{final[1][2]} {final[1][3]}"],
                                         [f"{final[1][2]} {final[1][3]}", f"✓ {final[0][2]} {final[0][3]}"])
    assert f"{GROUP} 总排名" in data and "最佳运动员 总排名" in data


def test_the_pairings_show_each_matchs_frames(demo):
    """对阵 结果 of a frame race is its frames as typed (7:4), not the match points (1:0)."""
    typed = {tuple(r[1:5]): f"{r[7]}:{r[8]}" for r in rows(demo[0], "成绩")[1:]
             if r[7] is not None and r[8] is not None}
    shown = {tuple(r[1:5]): r[10] for r in rows(demo[0], "对阵")[1:] if r[8] is not None}
    both = [k for k in typed if k in shown]
    assert len(both) > 20 and all(shown[k] == typed[k] for k in both)


def test_place_prize_and_best_player_prize_are_both_paid(done):
    """十七（三）limits nobody to one prize (fidelity CB-22): with amounts typed in 规程, the
    best player who also finished in the top 8 gets both, 20 % withheld ("代扣代缴20%税金")."""
    wb = load_workbook(done)
    ws = wb["规程"]
    values = {"awards.groups[0].prize_table.amounts": "1: 5000",
              "awards.groups[0].prize_table.announced_later": False,
              "awards.groups[1].prize_table.amounts": "1: 100000, 2: 50000, 3: 30000, 4: 20000, 5-8: 10000",
              "awards.groups[1].prize_table.announced_later": False}
    for row in ws.iter_rows(min_row=2):
        if row[0].value in values:
            row[2].value = values.pop(row[0].value)
    assert not values
    wb.save(done)
    res = run("awards", done)
    assert res.exit_code == 0, res.output
    awards = rows(done, "奖励")[1:]
    best = [r for r in awards if r[0] == "最佳运动员" and r[5]]
    placed = {r[2]: r for r in awards if r[0] == GROUP and r[5]}
    assert best and all(r[5] == Decimal(5000) / len(best) for r in best)
    both = [r for r in best if r[2] in placed]
    assert both, "the seed-5 demo's best player is in the top 8"
    for r in both:
        assert r[6] == r[5] * Decimal("0.2") and r[7] == r[5] - r[6]
        assert placed[r[2]][7] == placed[r[2]][5] * Decimal("0.8")
    receipts = rows(done, "领奖签收表")
    assert any(r[4] and r[4].endswith("元整") for r in receipts[1:])


# ------------------------------------------------------------------------------ narrow tests

def test_frames_above_the_race_are_named_and_nothing_written(done):
    """十六（二）1 "17局9胜": 10 frames in a race to 9 is refused on its 成绩 cell."""
    wb = load_workbook(done)
    ws = wb["成绩"]
    header = [c.value for c in ws[1]]
    col = header.index("甲方局数") + 1
    row = next(i for i, r in enumerate(ws.iter_rows(min_row=2, values_only=True), start=2)
               if r[1] == "资格赛" and r[2].startswith("男"))
    ws.cell(row, col, 10)
    wb.save(done)
    before = digest(done)
    res = run("rank", done)
    assert res.exit_code == 2
    assert f"成绩!{openpyxl.utils.get_column_letter(col)}{row}" in res.output
    assert "9局胜" in res.output
    assert digest(done) == before


def test_more_clearances_than_frames_won_are_named(done):
    """十七（三） counts 连续清台 (炸清、接清), each of which wins its frame: more clearances than
    the frames that side won is refused at the clearance cell, nothing written."""
    wb = load_workbook(done)
    ws = wb["成绩"]
    header = [c.value for c in ws[1]]
    a, clear = header.index("甲方局数") + 1, header.index("甲方连续清台") + 1
    row = next(i for i, r in enumerate(ws.iter_rows(min_row=2, values_only=True), start=2)
               if r[1] == "正赛第一阶段" and r[a - 1])
    ws.cell(row, clear).value = ws.cell(row, a).value + 3
    wb.save(done)
    before = digest(done)
    res = run("rank", done)
    out = " ".join(res.output.split())
    assert res.exit_code == 2 and f"成绩!{openpyxl.utils.get_column_letter(clear)}{row}" in out
    assert "多于该方所胜局数" in out and digest(done) == before


def test_the_race_the_draw_wrote_is_the_regulations_even_when_cleared_or_edited(done):
    """十六（二）1 "17局9胜": the draw writes 几局胜 9 on a qualifier row. Cleared, the row is still
    a race to 9 (7:3 is refused, not read as a race to 7); edited to 99, it is refused at its
    cell; nothing written either time."""
    wb = load_workbook(done)
    ws = wb["成绩"]
    header = [c.value for c in ws[1]]
    a, b, race = (header.index(h) + 1 for h in ("甲方局数", "乙方局数", "几局胜"))
    row = next(i for i, r in enumerate(ws.iter_rows(min_row=2, values_only=True), start=2)
               if r[1] == "资格赛" and r[2].startswith("男") and r[race - 1] == 9)
    letter = openpyxl.utils.get_column_letter
    before = digest(done)
    for value, frames, cell, words in ((None, (7, 3), a, "9局胜"), (99, (99, 3), race, "应为 9")):
        ws.cell(row, race).value = value
        ws.cell(row, a).value, ws.cell(row, b).value = frames
        wb.save(done)
        before = digest(done)
        res = run("rank", done)
        out = " ".join(res.output.split())
        assert res.exit_code == 2 and f"成绩!{letter(cell)}{row}" in out and words in out, out
        assert digest(done) == before


def test_a_knockout_result_changed_after_the_next_round_is_refused_at_its_cell(done):
    """A 正赛第二阶段 quarter-final result flipped after the semi-finals were drawn from it: the
    places, awards and next draw would follow a winner who never played the semi-final, so
    rank refuses at the changed cell (undo the later draw first), nothing written."""
    wb = load_workbook(done)
    ws = wb["成绩"]
    header = [c.value for c in ws[1]]
    a, b = header.index("甲方局数") + 1, header.index("乙方局数") + 1
    row = next(i for i, r in enumerate(ws.iter_rows(min_row=2, values_only=True), start=2)
               if r[1] == "正赛第二阶段" and r[3] == 1 and r[7] is not None)
    ws.cell(row, a).value, ws.cell(row, b).value = ws.cell(row, b).value, ws.cell(row, a).value
    wb.save(done)
    before = digest(done)
    res = run("rank", done)
    assert res.exit_code == 2, res.output
    out = " ".join(res.output.split())
    assert f"成绩!{openpyxl.utils.get_column_letter(a)}{row}" in out and "撤销" in out
    assert "第2轮" in out and "undo the later draw" in out.replace("\n", " ")
    assert digest(done) == before
    # restored: accepted again
    ws.cell(row, a).value, ws.cell(row, b).value = ws.cell(row, b).value, ws.cell(row, a).value
    wb.save(done)
    assert run("rank", done).exit_code == 0


def test_awards_refuse_a_final_ranking_older_than_the_results(done):
    """The final's result corrected after rank: 总排名 no longer gives the places the results
    give, so awards refuses (nothing written) until rank is pressed again."""
    wb = load_workbook(done)
    ws = wb["成绩"]
    header = [c.value for c in ws[1]]
    a, b = header.index("甲方局数") + 1, header.index("乙方局数") + 1
    last = max(r[3] for r in ws.iter_rows(min_row=2, values_only=True) if r[1] == "正赛第二阶段")
    row = next(i for i, r in enumerate(ws.iter_rows(min_row=2, values_only=True), start=2)
               if r[1] == "正赛第二阶段" and r[3] == last and r[4] == 1)
    ws.cell(row, a).value, ws.cell(row, b).value = ws.cell(row, b).value, ws.cell(row, a).value
    wb.save(done)
    awards_wait_for_rank(done, run, "总排名", "不是当前成绩的排名")


def test_no_show_loses_a_frame_and_absence_after_15_minutes_forfeits():
    """十六（一）5 "未到场的选手将被判负一局，15分钟后仍未到场视为弃权"."""
    sc = FramesRace()
    m = Match(1, 1, (1, 2))
    late = TypedMatch(games=pd.DataFrame(), totals={"frames_0": 5, "frames_1": 9, "race": 9},
                      decision="甲方未到场")
    r = sc.score_typed(m, late)
    assert r.winner == 2 and "未到场" in r.note_zh and r.values["frames_won"] == (5, 9)
    gone = TypedMatch(games=pd.DataFrame(), totals={"race": 9}, decision="甲方弃权")
    assert sc.is_complete(gone)
    r = sc.score_typed(m, gone)
    assert r.outcome == ("FL", "FW") and r.values["frames_won"] == (0, 0)  # no frames for 胜率
    # a row holding only the race the draw wrote is not typed yet
    assert not sc.is_complete(TypedMatch(games=pd.DataFrame(), totals={"race": 9}))
    with pytest.raises(Exception) as exc:
        sc.score_typed(m, TypedMatch(games=pd.DataFrame(), totals={"frames_0": 9, "frames_1": 9,
                                                                   "race": 9},
                                     cells={"frames_0": "成绩!H7"}))
    assert exc.value.where == "成绩!H7"


def test_late_back_from_the_time_out_loses_a_frame():
    """十六（一）4 “每位选手每场比赛可在局间使用一次暂停…时间为5分钟，任何一方超时未返回比赛场地将被判负一局”
    (CB-08): 判定 甲方/乙方暂停超时 records it; the frame lost is in the typed score by default
    (``timeout_frame_typed``), or credited to the other side when the setting is false; the
    result's note names the clause. The one-time-out count itself is the referee's (at the table)."""
    m = Match(1, 1, (1, 2))
    typed = TypedMatch(games=pd.DataFrame(), totals={"frames_0": 9, "frames_1": 7, "race": 9},
                       decision="乙方暂停超时")
    r = FramesRace().score_typed(m, typed)
    assert r.winner == 1 and r.values["frames_won"] == (9, 7)
    assert "暂停超时未返回，判负一局（十六（一）4）" in r.note_zh
    typed = TypedMatch(games=pd.DataFrame(), totals={"frames_0": 8, "frames_1": 7, "race": 9},
                       decision="乙方暂停超时")
    r = FramesRace(timeout_frame_typed=False).score_typed(m, typed)
    assert r.winner == 1 and r.values["frames_won"] == (9, 7)
    assert "甲方暂停超时" in FramesRace().entry_decisions()


def test_flight_stop_values_per_pool():
    """十六（二）1(1) "第一场、第二场各晋级16名，第三场、第四场各晋级32名": K per flight; a K the
    flight's bracket cannot leave is refused."""
    fmt = SingleElimination(seeding="drawn", stop_when_remaining={"男1": 16, "男3": 32})
    ents = [StageEntrant(n, pool="男1") for n in range(1, 65)] + \
        [StageEntrant(n, pool="男3") for n in range(65, 129)] + \
        [StageEntrant(n, pool="女1") for n in range(129, 137)]
    st = StageState(entrants=ents, seed=1)
    first = fmt.next_round(st, None)
    assert {m.pool for m in first} == {"男1", "男3", "女1"}
    assert fmt.stop_at("男1") == 16 and fmt.stop_at("男3") == 32 and fmt.stop_at("女1") == 1
    rounds = {p: max(n.round for n in fmt._pool_nodes(len(st.pool_entrants(p)), p))
              for p in st.pools()}
    assert rounds == {"男1": 2, "男3": 1, "女1": 3}
    with pytest.raises(RuleError):
        SingleElimination(stop_when_remaining={"男1": 3})._pool_nodes(8, "男1")


def test_a_player_without_flight_is_named_on_the_roster(tmp_path):
    """十（一）men play four flights, women two: an entrant whose 性别 names no flight is refused
    on its 报名 cell before anything is drawn."""
    import datetime as dt
    path = tmp_path / "e.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), small_regulation())
    wb = load_workbook(path)
    ws = wb["报名"]
    for i, g in enumerate(["男", "女", None, "男"], start=2):
        for j, v in enumerate([GROUP, None, None, f"选手{i}", g, dt.date(1990, 1, i), None, "上饶"],
                              start=1):
            ws.cell(i, j, v)
    wb.save(path)
    before = digest(path)
    res = run("draw", path, "--seed", 3)
    assert res.exit_code == 2
    assert "报名!E4" in res.output
    assert digest(path) == before


def test_awards_default_follows_the_regulation():
    """Fidelity CB-22: 十七（三）does not limit a player to one prize."""
    assert load_preset(PRESET).awards.one_prize_per_person is False


def test_stage2_seeds_by_frame_rate_then_ranking_then_lots():
    """十六（三）2(2) "依据胜率排序设为种子，胜率相同者依据排名进行排序，如排名相同或都无排名则抽签决定":
    胜率 = frames won ÷ frames played in stage 1; the ranking is the roster's 等级分."""
    from types import SimpleNamespace

    from bianpai.addin.competition_commands import _seed_by
    from bianpai.engines.core import MatchResult
    from bianpai.templates.schema import EntrantRule

    def res(t, a, b, fa, fb):
        m = Match(1, t, (a, b), "A")
        w = (1, 0) if fa > fb else (0, 1)
        return MatchResult(m, tuple(Decimal(x) for x in w), tuple("W" if x else "L" for x in w),
                           {"frames_won": (fa, fb), "frames_lost": (fb, fa)})
    # 1: 18/27 = 2/3, 2: 18/27 = 2/3 (equal), 3: 18/18 = 1, 4 and 5: 9/18 each, both unranked
    results = [res(1, 1, 9, 9, 0), res(2, 1, 8, 9, 9), res(3, 2, 7, 9, 0), res(4, 2, 6, 9, 9),
               res(5, 3, 5, 9, 0), res(6, 3, 10, 9, 0), res(7, 4, 11, 9, 9), res(8, 5, 12, 9, 9)]
    st = StageState(entrants=[], results={r.match.key: r for r in results})
    ratings = {1: Decimal(100), 2: Decimal(900)}
    ev = SimpleNamespace(roster_value=lambda g, n, key: ratings.get(n) if key == "rating" else None,
                         sname=lambda s: "x")
    rule = EntrantRule(from_stage="groups", positions="seed_by",
                       seed_by=["frame_rate", "rating", "lots"])
    blk = [{"number": n} for n in (1, 2, 3, 4, 5)]
    g, s = SimpleNamespace(id="open"), SimpleNamespace(id="knockout")
    order = [r["number"] for r in _seed_by(ev, g, s, None, st, rule, blk, 7, 0)]
    assert order[:3] == [3, 2, 1] and set(order[3:]) == {4, 5}
    # the last two are tied on 胜率 and unranked: lots, replayable from the seed
    assert order == [r["number"] for r in _seed_by(ev, g, s, None, st, rule, blk, 7, 0)]


def _small_event(path: Path) -> Path:
    """A new workbook of :func:`small_regulation` with the demo's 42 players typed in 报名."""
    from bianpai.addin.core_demo import _people_roster
    from bianpai.workbooks import layouts as L
    from bianpai.workbooks.tables import find_sheet
    reg = small_regulation()
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    port = OpenpyxlPort(path, command="roster")
    port.append_rows(find_sheet(port, L.ROSTER_PEOPLE), _people_roster(reg, 5, {"open": 42}),
                     start_row=2)
    port.save()
    return path


def _checked_after(tmp_path: Path, header: str, row: int, value):
    """:func:`_small_event` with its 报名 cell at ``row`` of the column headed ``header`` set to
    ``value``, then checked: (the workbook, the result, its output on one line, the column)."""
    path = _small_event(tmp_path / "e.xlsx")
    wb = load_workbook(path)
    ws = wb["报名"]
    col = next(c.column for c in ws[1] if c.value == header)
    ws.cell(row, col).value = value
    wb.save(path)
    res = run("check", path)
    return path, res, " ".join(res.output.split()), col


def test_a_gender_no_flight_takes_is_named_at_check(tmp_path):
    """十六（二）1 flights by 性别: a player whose 性别 is "M" (or empty) has no flight; check names
    the cell (the draw would refuse it), in the sheet's own word for the column."""
    path, res, out, col = _checked_after(tmp_path, "性别", 5, "M")
    cell = f"报名!{openpyxl.utils.get_column_letter(col)}5"
    assert res.exit_code == 1 and cell in out and "性别“M”不能分入" in out, out
    assert run("draw", path).exit_code == 2


def test_a_seed_given_twice_is_named_at_check(tmp_path):
    """十六（三）2 seeds the draw by 种子: two players given one 种子 would leave the order to chance;
    check names the second one's cell."""
    path = _small_event(tmp_path / "e.xlsx")
    wb = load_workbook(path)
    ws = wb["报名"]
    col = next(c.column for c in ws[1] if c.value == "种子")
    ws.cell(3, col).value = ws.cell(4, col).value = 77  # a 种子 nobody else has
    wb.save(path)
    res = run("check", path)
    out = " ".join(res.output.split())
    cell = f"报名!{openpyxl.utils.get_column_letter(col)}4"
    assert res.exit_code == 1 and cell in out and "种子 77 在本组重复（另见第3行）" in out, out
    assert out.count("在本组重复") == 1


def test_a_renamed_roster_header_is_one_error_at_the_header(tmp_path):
    """报名's 姓名 header renamed: check names the missing column once, at row 1, not "姓名不能为空"
    at a cell without column letter for every one of the 42 rows; the status says so too."""
    path, res, out, _col = _checked_after(tmp_path, "姓名", 1, "名字")
    assert res.exit_code == 1 and "错误 1 处" in out and "报名!1:1" in out and "姓名" in out, out
    assert "!?" not in out and "报名表为空" not in out
    assert [r[1] for r in rows(path, "校验")[1:]] == ["报名!1:1"]


def test_withdrawn_qualifier_forfeits_and_the_opponent_goes_on(tmp_path):
    """十六（一）5 / 退赛: a player withdrawn before round 1 loses that match by forfeit (no frames,
    so 胜率 is untouched) and the opponent is drawn into round 2; played results stay."""
    import random

    from bianpai.addin.core_demo import _fill_match_results
    path = _small_event(tmp_path / "e.xlsx")
    res = run("draw", path, "--seed", 9)
    assert res.exit_code == 0
    # the summary counts the matches to play, the byes apart (as 对阵 lists them)
    drawn = [r for r in rows(path, "对阵")[1:] if r[1] == "资格赛"]
    played, byes = (sum(1 for r in drawn if (r[8] is None) == bye) for bye in (False, True))
    assert byes and f"资格赛第1轮（{played} 场，轮空 {byes}）" in " ".join(res.output.split())
    # a women's flight (played to its winner here, so it has a round 2)
    first = next(r for r in rows(path, "对阵")[1:] if r[1] == "资格赛" and r[8] is not None
                 and r[2].startswith("女"))
    gone, other = first[6], first[8]
    res = run("withdraw", path, "--group", GROUP, "--team", gone, "--after-round", 0,
              "--keep", "--reason", "临时退赛")
    assert res.exit_code == 0, res.output
    _fill_match_results(path, random.Random(1), {})
    assert run("draw", path, "--seed", 10).exit_code == 0
    r2 = [r for r in rows(path, "对阵")[1:] if r[1] == "资格赛" and r[3] == 2]
    assert any(other in (r[6], r[8]) for r in r2)
    assert not any(gone in (r[6], r[8]) for r in r2)
    r1 = next(r for r in rows(path, "对阵")[1:] if r[:5] == first[:5])
    assert "弃权" in (r1[11] or "")


def test_bracket_chart_prints_landscape_a_page_per_bracket(demo, tmp_path):
    """Issue 11 "a bracket sheet … that prints on A4/A3 landscape": 签表图 is landscape, one page
    wide, a page break before every stage/pool block; A4 up to 5 rounds, A3 from 6 (64 players)."""
    wb = load_workbook(demo[0])
    ws = wb["签表图"]
    assert ws.page_setup.orientation == "landscape"
    assert int(ws.page_setup.paperSize) == 9  # A4
    assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToWidth == 1
    blocks = [(r[0], r[1], r[2]) for r in ws.iter_rows(min_row=2, values_only=True)]
    starts = [i + 2 for i in range(1, len(blocks)) if blocks[i] != blocks[i - 1]]
    assert starts and [b.id for b in ws.row_breaks.brk] == [s - 1 for s in starts]
    from bianpai.workbooks import core_layouts as K
    path = tmp_path / "a3.xlsx"
    port = OpenpyxlPort(path, create=True, command="test")
    layout = K.bracket_grid_layout(6)
    port.write_sheet(layout.zh, [layout.headers()], layout.sheet_format())
    port.save()
    a3 = load_workbook(path)[layout.zh]
    assert int(a3.page_setup.paperSize) == 8  # A3
    assert a3.page_setup.orientation == "landscape"
