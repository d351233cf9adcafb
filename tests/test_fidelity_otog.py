"""Fidelity: otog-mind-games-2024 (shared/regulations/otog-mind-games-2024.txt), presets
``otog-mind-games-2024`` and ``otog-bridge-teams``.

Rows of docs/fidelity-audit.md section 4 that no other test quotes; each docstring quotes the
row id, the clause number and its Chinese text. Engine-level, on the presets' own settings.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pandas as pd
import pytest

from bianpai.engines.bridge import carry_over, vp
from bianpai.engines.core import StageEntrant, StageState
from bianpai.engines.eligibility import assign_age_group, check_roster, has_errors
from bianpai.engines.prizes import allocate
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.engines.swiss_individual import default_rounds
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.lazy_edit import load_workbook

REG = load_preset("otog-mind-games-2024")
TEAMS = load_preset("otog-bridge-teams")
GROUPS = {g.id: g for g in REG.groups}
DAY = dt.date(2024, 5, 31)


def _ranking(n, group, **cols):
    df = pd.DataFrame({"group": group, "place": list(range(1, n + 1)),
                       "entrant_id": [f"e{i}" for i in range(n)],
                       "name": [f"选手{i}" for i in range(n)], "unit": "鄂托克旗"})
    for k, v in cols.items():
        df[k] = v
    return df


def _paid(table):
    return table[table["award"] != ""]


def _money(values):
    return [None if v is None else D(str(v)) for v in values]


# ------------------------------------------------------------------ 五、六: events and ages

def test_ot01_seven_individual_events_youth_and_adult():
    """OT-01 五（二）1 “个人参赛项目…分青少年组和成年组” (五（一）围棋、中国象棋、国际象棋、蒙古象棋、五子棋、跳棋、
    军棋): 14 individual groups, each event in a 青少年组 and a 成年组."""
    indiv = [g for g in REG.groups if g.entrant == "individual"]
    assert len(indiv) == 14
    events = {g.id.rsplit("_", 1)[0] for g in indiv}
    assert events == {"xiangqi", "chess", "mongol_chess", "go", "gomoku", "checkers", "junqi"}
    assert all({f"{e}_youth", f"{e}_adult"} <= set(GROUPS) for e in events)


def test_ot02_ot24_pairs_events_adults_one_team():
    """OT-02 五（二）2 “桥牌、扑克掼蛋、扑克争上游为双人参赛项目，只设成年组”; OT-24 单项 九（五）“一个运动员只能在
    一个队内参加比赛”: a 16-year-old in 掼蛋 is refused; a player in two pairs of one event is
    refused; a pair is 2 players (``eligibility.team_sizes[0]``)."""
    r = pd.DataFrame({"birth_date": [dt.date(2008, 1, 1), dt.date(1990, 1, 1),
                                     dt.date(1990, 1, 1), dt.date(1991, 1, 1)],
                      "name": ["少年", "甲", "甲", "乙"], "event": ["扑克掼蛋"] * 4,
                      "team": ["T1", "T1", "T2", "T2"], "group": ["成年组"] * 4}, index=range(2, 6))
    f = check_roster(r, REG.eligibility, event_date=DAY)
    assert "age_below_min" in set(f.loc[f["row"] == 2, "code"])
    assert "multiple_teams" in set(f.loc[f["row"] == 4, "code"])
    ts = REG.eligibility.team_sizes[0]
    assert (ts.min_players, ts.max_players) == (2, 2)
    assert REG.eligibility.single_entry.one_team_per_event is True


def test_ot03_bridge_as_pairs_and_as_teams():
    """OT-03 五（二）2 “桥牌…为双人参赛项目” v 单项 四（二）“团体赛共分两个阶段”: both readings ship — the pairs
    group ``bridge_pairs`` (places typed) in otog-mind-games-2024 and the preset otog-bridge-teams
    (teams of 4–6)."""
    assert GROUPS["bridge_pairs"].entrant == "pair"
    assert TEAMS.groups[0].entrant == "team"
    ts = TEAMS.eligibility.team_sizes[-1]
    assert (ts.min_players, ts.max_players) == (4, 6)


@pytest.mark.parametrize("birth,group", [
    (dt.date(2018, 5, 31), "青少年组"), (dt.date(2006, 6, 1), "青少年组"),
    (dt.date(2006, 5, 31), "成年组"), (dt.date(1959, 6, 1), "成年组"), (dt.date(1959, 5, 31), None)])
def test_ot05_age_bands(birth, group):
    """OT-05 六（二）“青少年组运动员年龄为6岁—18岁以下；成年组运动员年龄为18岁以上—65岁以下”: 18 belongs to 成年组,
    65 to no group (``eligibility.age_groups.bands``: [6, 18), [18, 65))."""
    r = pd.DataFrame({"birth_date": [birth], "name": ["甲"]}, index=[2])
    assert assign_age_group(r, REG.eligibility.age_groups, event_date=DAY).tolist() == [group]


# ------------------------------------------------------------------ 九: places and prizes

def test_ot06_ot10_pairs_prizes_certificates_selection():
    """OT-06 九（二）1 “取前8名，前3名颁发荣誉证书和奖金（第一名2000元、第二名1600元、第三名1200元），4至8名颁发
    奖金（第四名1000元、第五名800元、第六名600元、第七名400元、第八名200元）”; OT-10 九（二）3 “各组别前八名根据
    具体情况选派运动员代表鄂托克旗参加鄂尔多斯市第三届智力运动会” (candidates, not automatic)."""
    t = allocate(_ranking(30, "扑克掼蛋"), REG.awards).table
    assert t["gross"].tolist() == _money([2000, 1600, 1200, 1000, 800, 600, 400, 200])
    assert t["certificate"].tolist() == [True] * 3 + [False] * 5
    assert t["qualification"].iloc[0] == "鄂尔多斯市第三届智力运动会选派候选"
    assert REG.awards.groups[0].qualification.discretionary is True


def test_ot07_ot08_individual_adult_and_youth_amounts():
    """OT-07 九（二）2 “成年组取前8名，前3名颁发奖牌及奖金（第一名1000元，第二名800元，第三名600元），4至8名只颁发
    奖金（第四名500元…第八名100元）”; OT-08 “青少年组取前8名，前3名颁发奖牌及奖金（第一名500元，第二名300元，第三名
    200元），4至8名只颁发奖金（第四名至第八名100元）”."""
    st = pd.concat([_ranking(30, "围棋成年组"), _ranking(30, "围棋青少年组")], ignore_index=True)
    t = allocate(st, REG.awards).table
    adult, youth = t[t["group"] == "围棋成年组"], t[t["group"] == "围棋青少年组"]
    assert adult["gross"].tolist() == _money([1000, 800, 600, 500, 400, 300, 200, 100])
    assert youth["gross"].tolist() == _money([500, 300, 200, 100, 100, 100, 100, 100])
    assert adult["medal"].tolist() == youth["medal"].tolist() == [True] * 3 + [False] * 5


@pytest.mark.parametrize("entries,paid", [(30, 8), (29, 6), (20, 6), (19, 3), (10, 3), (9, 1),
                                          (6, 1), (5, 1), (3, 1)])
def test_ot11_ot12_ot13_places_by_entries(entries, paid):
    """OT-11 九（三）1 “个人项目参赛者在30人以上（含30人）取前8名；20人以上（含20人）取前6名；10人（10人）以上取前
    3名”; OT-12 “6人（含6人）取前1名” (read as 6–9); OT-13 3–5 entries: not stated (one place,
    flagged in the log)."""
    a = allocate(_ranking(entries, "中国象棋成年组"), REG.awards)
    assert len(_paid(a.table)) == paid
    if entries < 6:
        assert any("规程未规定" in line for line in a.log)


def test_ot14_fewer_than_three_cancel_the_event():
    """OT-14 九（三）1 “不足3人取消该项目”; 2 “不足3队取消该项目”."""
    a = allocate(_ranking(2, "五子棋青少年组"), REG.awards)
    assert a.cancelled == ["五子棋青少年组"] and a.table.empty
    assert all(g.places_by_entries.cancel_below == 3 for g in REG.awards.groups
               if g.places_by_entries is not None)


def test_ot15_ladder_caps_the_prize_table():
    """OT-15 九（二）“取前8名” v 九（三）ladder: the ladder caps the places paid — 12 teams in 桥牌 are paid
    2000/1600/1200 only."""
    a = allocate(_ranking(12, "桥牌"), REG.awards)
    assert _paid(a.table)["gross"].tolist() == _money([2000, 1600, 1200])


def test_ot16_shared_places_pool_and_split():
    """OT-16 (silent) shared places (knockout events: 同轮负者名次并列): ``awards.tie_split.policy`` =
    equal — places 5–8 shared by four 跳棋 players pool 400+300+200+100 = 1000, 250 each."""
    assert REG.awards.tie_split.policy == "equal"
    st = _ranking(30, "跳棋成年组")   # 30 entries: 8 places paid (九（三）1)
    st["place"] = [1, 2, 3, 4, 5, 5, 5, 5] + list(range(9, 31))
    t = allocate(st, REG.awards).table
    assert _money(t["gross"].tolist()[4:8]) == _money([250] * 4)


# ------------------------------------------------------------------ 单项: formats

@pytest.mark.parametrize("gid,clause", [
    ("chess_adult", "二（二）"), ("mongol_chess_adult", "三（二）"), ("go_adult", "五（二）"),
    ("gomoku_adult", "六（一）"), ("junqi_adult", "八（一）"), ("xiangqi_adult", "一（二）")])
def test_ot17_ot18_ot19_ot25_ot26_ot30_swiss_rounds_by_entries(gid, clause):
    """OT-17 单项 一（二）“采用积分循环制（电脑编排），比赛轮次视参赛人数而定”; OT-18 二（二）、OT-19 三（二）同;
    OT-25 五（二）“比赛采用积分编排制”（三）“根据报名人数进行分组，按照分组确定比赛轮次”; OT-26 六（一）、OT-30 八（一）
    “根据报名人数确定比赛赛制”: read as a computer-paired Swiss (``format.kind`` swiss_individual)
    whose rounds follow the field: ⌈log2 n⌉ + 2, at least 5 (8 → 5, 30 → 7, 100 → 9)."""
    stage = GROUPS[gid].stages[0]
    assert stage.format.kind == "swiss_individual" and clause in stage.format.clause
    assert stage.format.rounds is None
    assert [default_rounds(n) for n in (8, 30, 100)] == [5, 7, 9]
    state = StageState(entrants=[StageEntrant(i) for i in range(1, 31)])
    assert stage.format.total_rounds(state) == 7


def test_ot32_guandan_pair_total_reading():
    """OT-32 单项 九（二）“每轮四局制…每局第一名记4分，第二名记3分，第三名记2分，第四名记1分。四局总积分高者列前”:
    4 games; a pair's points are both partners' places (reading in the scoring note)."""
    sc = GROUPS["guandan_pairs"].stages[0].scoring
    assert (sc.kind, sc.games_per_match) == ("guandan_ko_games", 4)
    assert "两名选手之和" in sc.note


# ------------------------------------------------------------------ 单项 四: bridge teams

def test_ot20_ot21_ot22_bridge_team_stages():
    """OT-20 单项 四（二）“第一阶段按积分排位赛5轮、每轮10副牌”; OT-21 “第二阶段：决赛循环赛3轮” (3 rounds →
    4 teams: top 4, no carry-over); OT-22 “（+附加积分赛）” (places 5+, 3-round Swiss, 100 % of
    their VP carried)."""
    s1, final, cons = TEAMS.groups[0].stages
    assert (s1.format.rounds, s1.format.boards_per_round) == (5, 10)
    assert (final.entrants[0].places.first, final.entrants[0].places.last) == (1, 4)
    assert final.entrants[0].carry_over is None
    rr = round_robin_schedule(4, cycles=final.format.cycles, max_rounds=final.format.max_rounds)
    assert rr["round"].max() == 3 and len(rr) == 6
    assert cons.entrants[0].places.first == 5 and cons.format.rounds == 3
    assert carry_over("57.31", cons.entrants[0].carry_over.fraction) == D("57.31")


def test_ot23_vp_scale_ties_and_bye_for_ten_boards():
    """OT-23 单项 四（一）“比赛执行2018年《中国桥牌竞赛规则》” (VP scale, ties, byes not stated): WBF 2013
    20-VP for 10 boards (blitz 48), chain vp → h2h_vp → imp_quotient → lots, a bye 12 VP."""
    s1 = TEAMS.groups[0].stages[0]
    assert s1.scoring.scale == "wbf2013_20vp" and s1.format.bye_vp == 12
    assert list(s1.tie_breaks.criteria) == ["vp", "h2h_vp", "imp_quotient", "lots"]
    assert vp(48, 10) == (D("20.00"), D("0.00")) and vp(47, 10)[0] < D("20.00")
    assert vp(0, 10) == (D("10.00"), D("10.00"))


# ------------------------------------------------------------------ the draw setting (audit D8)

def test_numbers_by_lot_setting_is_read(tmp_path):
    """Audit D8 (issue 8: a setting shown in 规程 must be read): 抽签定序号 (``draw.numbers_by_lot``)
    true = numbers by the seeded lot, false = the numbers follow the roster order (numbers typed
    in 报名 are kept either way)."""
    from typer.testing import CliRunner

    from bianpai.addin import commands
    from bianpai.addin.cli import app
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    from tests.helpers import sheet_rows

    def book(name, by_lot):
        path = tmp_path / name
        commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), REG)
        wb = load_workbook(path)
        for i in range(6):
            wb["报名"].append(["中国象棋成年组", None, None, f"棋手{i}", "男", dt.date(1985, 3, 3),
                              None, "鄂托克旗", "队员", None, None, None])
        ws = wb["规程"]
        row = next(r for r in range(2, ws.max_row + 1)
                   if ws.cell(r, 1).value == "draw.numbers_by_lot")
        ws.cell(row, 3).value = by_lot
        wb.save(path)
        res = CliRunner().invoke(app, ["draw", str(path), "--seed", "4"])
        assert res.exit_code == 0, res.output
        draw = [r for r in sheet_rows(path, "抽签")[1:] if r[0] == "中国象棋成年组"]
        return [name for _, name in sorted((r[1], r[2]) for r in draw)]

    roster_order = [f"棋手{i}" for i in range(6)]
    assert book("plain.xlsx", False) == roster_order
    drawn = book("lot.xlsx", True)
    assert sorted(drawn) == roster_order and drawn != roster_order
