"""Bridge team events after the stages: awards from 总排名 (Fujian 60 % 优胜奖, Otog places by
entries and prize money), eligibility of the team roster (报名 + 队员) on both sides of the Fujian
age cut-offs, rank --round, knockout ties under both readings, no rematch across stages when the
规程 says so, and byes not counted as matches."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import pytest

from bianpai.addin.core_demo import run_core_demo
from bianpai.templates.presets_io import load_preset
from bianpai.engines.bridge import vp

from .test_bridge_teams_cli import (FUJIAN, HOME_BY_3, OTOG, cli, digest, fill_results,
                                    fujian20, new_event, random_imps, sheet_rows)
from bianpai.workbooks.lazy_edit import load_workbook

OTOG_MONEY = [2000, 1600, 1200, 1000, 800, 600, 400, 200]
CAPITAL = {2000: "贰仟元整", 1600: "壹仟陆佰元整", 1200: "壹仟贰佰元整", 1000: "壹仟元整",
           800: "捌佰元整", 600: "陆佰元整"}


def quiet_demo(preset, path, n):
    """The preset's demo (the core's) on ``n`` teams; returns the 奖励 rows (合计 left out)."""
    from rich.console import Console
    group = load_preset(preset).groups[0].id
    run_core_demo(preset, path, seed=11, fields={group: n}, pictures=False,
                  console=Console(quiet=True))
    return {"奖励": [r for r in sheet_rows(path, "奖励") if r["组别"] != "合计"]}


# ------------------------------------------------------------------------------ awards

def check_fujian_awards(wb: Path, n: int) -> None:
    final = sheet_rows(wb, "总排名")
    assert [r["名次"] for r in final] == list(range(1, n + 1))
    rows = [r for r in sheet_rows(wb, "奖励") if r["组别"] != "合计"]
    assert [r["姓名/队名"] for r in rows] == [r["队名"] for r in final]
    winners = [r for r in rows if r["奖项"] == "优胜奖"]
    assert len(winners) == math.floor(0.6 * n)  # 九（二）: 20 → 12, 13 → 7
    assert all(r["奖项"] == "优秀奖" for r in rows[len(winners):])
    assert len(rows) == n and {r["组别"] for r in rows} == {"桥牌队式团体赛"}
    assert [r["单位"] for r in rows] == [r["地市/单位"] for r in final]
    assert all(r["税前"] is None for r in rows)  # no prize money in the Fujian 规程
    assert {"奖励", "领奖签收表", "证书"} <= set(load_workbook(wb).sheetnames)
    assert sheet_rows(wb, "日志")[-1]["命令"] == "awards"


def check_otog_awards(wb: Path, n: int, places: int) -> None:
    final = sheet_rows(wb, "总排名")
    assert [r["名次"] for r in final] == list(range(1, n + 1))
    rows = sheet_rows(wb, "奖励")
    paid = [r for r in rows if r["组别"] != "合计" and r["实发"]]
    assert len(paid) == places  # 九（三）2: ≥ 20 teams → 6 places, ≥ 10 → 3
    assert [r["姓名/队名"] for r in paid] == [r["队名"] for r in final[:places]]
    assert [r["税前"] for r in paid] == OTOG_MONEY[:places]
    assert [r["实发"] for r in paid] == OTOG_MONEY[:places]  # no tax in the Otog 规程
    total = rows[-1]
    assert total["组别"] == "合计" and total["实发"] == sum(OTOG_MONEY[:places])
    receipts = sheet_rows(wb, "领奖签收表")
    assert [(r["实发金额"], r["大写"]) for r in receipts[:-1]] == [
        (m, CAPITAL[m]) for m in OTOG_MONEY[:places]]
    assert receipts[-1]["大写"] == {6: "柒仟贰佰元整", 3: "肆仟捌佰元整"}[places]
    assert all(r["签名"] is None for r in receipts)  # left for the signature
    certs = sheet_rows(wb, "证书")
    assert [r["姓名/队名"] for r in certs if "证书" in (r["证书/奖杯"] or "")] == \
        [r["队名"] for r in final[:3]]


@pytest.mark.parametrize("preset", [FUJIAN, OTOG])
def test_demo_runs_every_stage_and_ends_with_the_awards(tmp_path, preset):
    wb = tmp_path / "demo.xlsx"
    _code, out = cli("demo", preset, "-o", wb, "--seed", 5)
    assert "最终排名" in out and "奖励分配" in out
    if preset == FUJIAN:
        assert "优胜奖" in out and "优秀奖" in out
        check_fujian_awards(wb, 20)
    else:
        assert "¥2,000.00" in out and "¥600.00" in out
        check_otog_awards(wb, 20, 6)


def test_fujian_awards_60_percent_of_13_teams(tmp_path):
    wb = tmp_path / "fj.xlsx"
    data = quiet_demo(FUJIAN, wb, 13)
    check_fujian_awards(wb, 13)
    assert len(data["奖励"]) == 13


def test_otog_awards_places_by_entries_12_teams(tmp_path):
    wb = tmp_path / "otog.xlsx"
    quiet_demo(OTOG, wb, 12)
    check_otog_awards(wb, 12, 3)


def test_awards_refused_before_the_event_is_over(tmp_path, shared_book):
    wb = fujian20(shared_book, tmp_path)  # new_event(numbers=True, units=False), draw --seed 1
    fill_results(wb, random_imps(1))
    before = digest(wb)
    code, out = cli("awards", wb, ok=False)
    assert code == 2 and "比赛尚未结束" in out and "not over" in out
    assert digest(wb) == before


# --------------------------------------------------------------------------- eligibility

def roster_with_people(tmp_path, people: dict[int, list], preset=FUJIAN, units=None):
    """Teams 1..len(people): ``people[i]`` lists (name, gender, birth) of team i's players; a
    None entry means the player has no 队员 row."""
    wb = tmp_path / "elig.xlsx"
    cli("new", preset, "-o", wb)
    book = load_workbook(wb)
    for row in book["规程"].iter_rows(min_row=2):  # a small field tests the roster rules only
        if row[0].value == "groups[0].min_entries":
            row[2].value = 2
    ws, det = book["报名"], book["队员"]
    for i, ps in people.items():
        unit = (units or {}).get(i, f"单位{i}")
        names = [p[0] for p in ps]
        ws.append([i, f"第{i}队", unit, *names, *[None] * (6 - len(names)), f"领队{i}", None])
        for p in ps:
            if p[1] is not None:
                det.append([f"第{i}队", p[0], p[1], p[2], p[3] if len(p) > 3 else None, None])
    book.save(wb)
    return wb


def ok_team(i, birth=dt.date(1960, 1, 1)):
    return [(f"选手{i}-{k}", "男", birth) for k in range(4)]


FUJIAN_DAY = dt.date(2024, 5, 10)


@pytest.mark.parametrize("gender,birth,ok", [
    ("男", dt.date(1966, 5, 10), True),    # 58 on the event's first day
    ("男", dt.date(1966, 5, 11), False),   # 57, one day short
    ("男", dt.date(1951, 5, 11), True),    # 72
    ("男", dt.date(1951, 5, 10), False),   # 73 on the day
    ("女", dt.date(1971, 5, 10), True),    # 53
    ("女", dt.date(1971, 5, 11), False),   # 52
    ("女", dt.date(1951, 5, 11), True),    # 72
    ("女", dt.date(1951, 5, 10), False),   # 73
    ("男", dt.date(1970, 1, 1), False),    # a 54-year-old man: fine for a woman, not a man
])
def test_fujian_age_cut_offs_by_gender(tmp_path, gender, birth, ok):
    team1 = ok_team(1)
    team1[2] = ("张三", gender, birth)
    wb = roster_with_people(tmp_path, {1: team1, 2: ok_team(2)})
    code, out = cli("check", wb, ok=False)
    checks = sheet_rows(wb, "校验")
    errors = [r for r in checks if r["级别"] == "错误"]
    if ok:
        assert code == 0 and not errors, out
    else:
        assert code == 1
        assert len(errors) == 1
        e = errors[0]
        assert e["位置"] == "队员!D4"  # 张三's 出生日期 (third 队员 row)
        assert "张三" in e["问题"] and "第1队" in e["问题"] and "七（一）" in e["问题"]
        # and the draw refuses, writing nothing
        before = digest(wb)
        code, out = cli("draw", wb, "--seed", 1, ok=False)
        assert code == 2 and "队员!D4" in out and digest(wb) == before


def test_team_roster_findings_name_their_cells(tmp_path):
    t1 = ok_team(1)
    t2 = ok_team(2)[:3]                                   # 3 players: too few
    t3 = ok_team(3)
    t3[0] = ("选手1-0", "男", dt.date(1960, 1, 1))          # also in team 1 (same person)
    t4 = ok_team(4)
    t4[1] = ("李四", None, None)                            # no 队员 row
    t5 = ok_team(5)
    t5[0] = ("王五", "男", dt.date(1960, 2, 2), "350102196002020011")
    t5[1] = ("赵六", "男", dt.date(1960, 2, 2), "350102196002020011")  # the same ID twice
    wb = roster_with_people(tmp_path, {1: t1, 2: t2, 3: t3, 4: t4, 5: t5})
    code, _out = cli("check", wb, ok=False)
    assert code == 1
    found: dict[tuple, str] = {}
    for r in sheet_rows(wb, "校验"):
        key = (r["位置"], r["级别"])
        found[key] = found.get(key, "") + r["问题"] + "\n"
    text = "".join(found.values())
    assert "少于 4 人" in found[("报名!B3", "错误")]               # 第2队's 队名 cell
    assert "只能在一个队内" in found[("报名!D4", "错误")]            # 第3队 队员1
    assert "报名第2行队员1" in found[("报名!D4", "错误")]            # the other entry, by place
    assert "缺少性别" in found[("报名!E5", "错误")] and "李四" in text  # 第4队 队员2
    assert "身份证号与报名第6行队员1重复" in found[("队员!E17", "错误")]  # 赵六's ID
    assert found[("报名!E5", "错误")].count("缺少出生日期") == 1
    assert all("领队" not in v for v in found.values())          # staff not checked as players


def test_unit_limit_warning_accepted_with_a_logged_reason(tmp_path):
    # 省直老体协 enters 3 teams: over the 2 a unit may enter, allowed by 六（二）3（2） → warning
    units = {1: "省直老体协", 2: "省直老体协", 3: "省直老体协", 4: "福州市"}
    wb = roster_with_people(tmp_path, {i: ok_team(i) for i in range(1, 5)}, units=units)
    code, out = cli("check", wb)
    warn = [r for r in sheet_rows(wb, "校验") if r["级别"] == "警告"]
    assert warn and any("报 3 支队（第3支：" in r["问题"] and "限 2 支" in r["问题"] for r in warn)
    assert warn[0]["位置"].startswith("报名!")
    before = digest(wb)
    code, out = cli("draw", wb, "--seed", 1, ok=False)
    assert code == 2 and "--accept-warnings" in out and digest(wb) == before
    cli("draw", wb, "--seed", 1, "--accept-warnings", "省直老体协可增报3支桥牌队伍")
    log = sheet_rows(wb, "日志")[-1]
    assert log["命令"] == "draw" and "省直老体协可增报3支桥牌队伍" in (log["参数"] + log["摘要"])
    # later rounds do not ask again
    fill_results(wb, lambda *a: (10, 5))
    cli("draw", wb)


def test_otog_adult_ages_for_the_bridge_teams(tmp_path):
    t1 = ok_team(1)
    t1[0] = ("少年", "男", dt.date(2006, 6, 1))   # 17 on 2024-05-31
    t1[1] = ("成年", "男", dt.date(2006, 5, 31))  # 18 on the day
    t1[2] = ("老将", "男", dt.date(1959, 5, 31))  # 65: outside "65岁以下"
    wb = roster_with_people(tmp_path, {1: t1, 2: ok_team(2)}, preset=OTOG)
    code, _ = cli("check", wb, ok=False)
    errors = {r["位置"] for r in sheet_rows(wb, "校验") if r["级别"] == "错误"}
    assert code == 1 and errors == {"队员!D2", "队员!D4"}


# ---------------------------------------------------------------------------- rank --round

def test_rank_round_gives_the_standings_as_of_that_round(tmp_path, shared_book):
    wb = fujian20(shared_book, tmp_path)  # new_event(numbers=True, units=False), draw --seed 1
    fill = random_imps(5)
    for _ in range(3):
        fill_results(wb, fill)
        cli("draw", wb)
    imps = {}
    for r in sheet_rows(wb, "成绩"):
        if r["主队IMP"] is not None:
            imps[(r["轮次"], r["主队"])] = (r["主队IMP"], r["客队IMP"], r["客队"])
    _, out = cli("rank", wb, "--round", 2, "--seed", 1)
    st = {r["队号"]: r for r in sheet_rows(wb, "排名-排位赛")}
    expect = {t: 0 for t in range(1, 21)}
    for (rnd, h), (hi, ai, a) in imps.items():
        if rnd <= 2:
            hv, av = vp(hi - ai, 8)
            expect[h] += float(hv)
            expect[a] += float(av)
    assert all(st[t]["总VP"] == pytest.approx(v) for t, v in expect.items())
    assert all(r["已赛场数"] == 2 for r in st.values())
    header = list(sheet_rows(wb, "排名-排位赛")[0])
    assert "截至第2轮" in header[-1]
    log = sheet_rows(wb, "日志")[-1]
    assert "round=2" in log["参数"]
    # the status says the standings shown are a look back, not the current ones
    assert "当前状态：排名表为第2轮后的排名（查看用，非当前排名）" in out.replace("\n", "")
    assert "恢复当前排名" in out.replace("\n", "")
    # the whole stage again without --round: three rounds played
    _, out = cli("rank", wb, "--seed", 1)
    assert all(r["已赛场数"] == 3 for r in sheet_rows(wb, "排名-排位赛"))
    assert "非当前排名" not in out
    # a round not drawn yet
    before = digest(wb)
    code, out = cli("rank", wb, "--round", 5, ok=False)
    assert code == 2 and "1–4" in out and digest(wb) == before


def test_rank_round_in_the_consolation_stage_leaves_out_late_joiners(tmp_path, shared_book):
    # stage 1 played (random IMPs), advance: the state the knockout tests start from
    wb = fujian20(shared_book, tmp_path, "advanced")
    fill = random_imps(9)
    for _ in range(3):  # consolation rounds 1–3 (QF losers join at round 3)
        fill_results(wb, fill)
        cli("draw", wb)
    cli("rank", wb, "--round", 2, "--seed", 1)
    cons = sheet_rows(wb, "排名-附加积分编排赛")
    assert len(cons) == 12 and all(r["已赛场数"] == 2 for r in cons)
    cli("rank", wb, "--round", 3, "--seed", 1)
    cons = sheet_rows(wb, "排名-附加积分编排赛")
    assert len(cons) == 16
    # stage 1's sheet is the whole stage whatever the round
    assert all(r["已赛场数"] == 6 for r in sheet_rows(wb, "排名-排位赛"))


def test_a_bye_is_not_a_match_played(tmp_path):
    wb = new_event(tmp_path, FUJIAN, n=9, numbers=True, units=False)
    cli("draw", wb, "--seed", 1)
    fill_results(wb, lambda *a: (0, 0))
    cli("rank", wb, "--seed", 1)
    st = {r["队号"]: r for r in sheet_rows(wb, "排名-排位赛")}
    assert st[9]["已赛场数"] == 0 and st[9]["总VP"] == pytest.approx(12.00)
    assert all(st[t]["已赛场数"] == 1 for t in range(1, 9))


# ------------------------------------------------------------------- knockout tie readings

def to_knockout(tmp_path, shared_book, ko_tie_breaks: str | None = None) -> Path:
    """The 20-team event with its first stage played (random IMPs) and advanced (seed 3): the
    quarter-finals drawn, none played; ``ko_tie_breaks`` typed into the 规程 sheet before any
    of them is (the organizer's reading of a tied knockout match)."""
    wb = fujian20(shared_book, tmp_path, "advanced")
    if ko_tie_breaks is not None:
        book = load_workbook(wb)
        ws = book["规程"]
        row = next(r for r in ws.iter_rows(min_row=2)
                   if r[0].value == "groups[0].stages[1].format.tie_breaks")
        row[2].value = ko_tie_breaks
        book.save(wb)
    return wb


def ko_results(stage, rnd, match, table, home, away):
    if stage != "淘汰赛":
        return (20, 15)
    return (20, 20) if match == "QF2" else (30, 10)


def test_knockout_tie_fujian_reading_better_stage_place_wins(tmp_path, shared_book):
    wb = to_knockout(tmp_path, shared_book)
    fill_results(wb, ko_results)
    cli("draw", wb)
    cli("rank", wb, "--seed", 1)
    bracket = {r["场次"]: r for r in sheet_rows(wb, "淘汰赛")}
    qf2 = bracket["QF2"]
    assert (qf2["主队IMP"], qf2["客队IMP"]) == (20, 20)
    assert qf2["胜队"] == qf2["主队号"] and qf2["主队排位"] == 4  # place 4 beats place 5
    assert "第一阶段名次在前者胜" in qf2["说明"] and "不加赛" in qf2["说明"]
    sf1 = [r for r in sheet_rows(wb, "对阵") if r["场次"] == "SF1"]
    assert sf1 and qf2["主队号"] in (sf1[0]["主队号"], sf1[0]["客队号"])


def test_knockout_tie_extra_boards_reading(tmp_path, shared_book):
    wb = to_knockout(tmp_path, shared_book, "extra_boards")
    fill_results(wb, ko_results)
    _code, out = cli("draw", wb)  # the consolation goes on; the semi-finals wait
    assert "QF2加赛" in out
    assert not [r for r in sheet_rows(wb, "对阵") if r["场次"] == "SF1"]
    cli("rank", wb, "--seed", 1)
    assert "需按规程决定" in next(r for r in sheet_rows(wb, "淘汰赛") if r["场次"] == "QF2")["说明"]
    fill_results(wb, ko_results)  # consolation round 2
    code, out = cli("draw", wb, ok=False)  # nothing else can go on: refused, naming the tie
    assert code == 2 and "QF2加赛" in out and "extra boards" in out
    qf2 = next(r for r in sheet_rows(wb, "对阵") if r["场次"] == "QF2")
    book = load_workbook(wb)
    book["成绩"].append(["淘汰赛", 1, "QF2加赛", qf2["桌号"], qf2["主队号"], qf2["客队号"], 1, 6,
                        "加赛4副"])
    book.save(wb)
    cli("draw", wb)
    assert [r for r in sheet_rows(wb, "对阵") if r["场次"] == "SF1"]
    cli("rank", wb, "--seed", 1)
    bracket = {r["场次"]: r for r in sheet_rows(wb, "淘汰赛")}
    assert bracket["QF2"]["胜队"] == qf2["客队号"]  # the play-off decided it, not the place
    assert "加赛" in bracket["QF2"]["说明"]


# ------------------------------------------------------------ rematches across the stages

def _pairs(rows):
    return {frozenset((r["主队号"], r["客队号"])) for r in rows if r["客队号"] is not None}


@pytest.mark.parametrize("rematch", ["never", "not_within_stage"])
def test_teams_never_meet_again_across_stages_unless_allowed(tmp_path, shared_book, rematch):
    # the first stage played with HOME_BY_3 (shared by both readings); the reading of the
    # consolation stage typed before it starts
    wb = fujian20(shared_book, tmp_path, "stage1-home3")
    book = load_workbook(wb)
    ws = book["规程"]
    row = next(r for r in ws.iter_rows(min_row=2)
               if r[0].value == "groups[0].stages[2].format.rematch")
    row[2].value = rematch
    book.save(wb)
    fill = HOME_BY_3
    cli("advance", wb, "--seed", 3)
    for _ in range(6):
        fill_results(wb, fill)
        code, out = cli("draw", wb, ok=False)
        if code:
            assert "所有阶段的各轮均已编排" in out, out
            break
    sched = sheet_rows(wb, "对阵")
    s1 = _pairs(r for r in sched if r["阶段"] == "排位赛")
    cons_rows = [r for r in sched if r["阶段"] == "附加积分编排赛"]
    cons = [frozenset((r["主队号"], r["客队号"])) for r in cons_rows if r["客队号"] is not None]
    assert len(cons) == len(set(cons))  # never within the stage
    again = set(cons) & s1
    if rematch == "never":
        assert not again
    else:
        assert again  # this field does meet again: allowed by 六（三）2
