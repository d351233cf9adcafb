"""The bridge team pieces of the competition core agree with the bridge team pipeline: the team
Swiss format (:class:`bianpai.engines.team_swiss.TeamSwiss`) pairs every round of the golden
events exactly as the 对阵 sheet has it, and the IMP/VP scoring
(:class:`bianpai.engines.bridge_teams_scoring.BridgeTeamsVp`) with the core's ranking gives the
排名 sheets' totals and order. Data: ``tests/data/golden/<preset>`` (see golden_teams_build.py)."""

from __future__ import annotations

import random
from decimal import Decimal

import pandas as pd
import pytest

from bianpai.engines import core
from bianpai.engines.bridge_teams_scoring import BridgeKnockoutImps, BridgeTeamsVp
from bianpai.engines.core import Match, StageEntrant, StageState, TypedMatch
from bianpai.engines.errors import InputError
from bianpai.engines.standings import rank
from bianpai.templates.presets_io import load_preset

from . import golden_teams_build as G
from bianpai.workbooks.lazy_edit import load_workbook

FIRST = {"fujian-elder-bridge-teams": "排位赛", "otog-bridge-teams": "积分排位赛"}
CONS = {"fujian-elder-bridge-teams": "附加积分编排赛", "otog-bridge-teams": "附加积分赛"}


def table(sheets, name):
    rows = sheets[name]
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def stage_model(preset, name):
    reg = load_preset(preset)
    return next(s for s in reg.groups[0].stages if s.name_zh == name)


def typed_for(sheets, stage_name, fines_vp):
    """TypedMatch per (round, table) of a stage from 成绩, 逐副成绩 and 罚分 (a fine typed with
    no VP takes the 规程 rule's)."""
    games: dict[tuple, list] = {}
    for r in table(sheets, "逐副成绩"):
        if r["阶段"] == stage_name:
            games.setdefault((r["轮次"], r["桌号"]), []).append(
                {"game": r["副号"], "open_ns": r["开室南北得分"], "closed_ns": r["闭室南北得分"]})
    totals = {(r["轮次"], r["桌号"]): {"home_imps": r["主队IMP"], "away_imps": r["客队IMP"]}
              for r in table(sheets, "成绩") if r["阶段"] == stage_name
              and not str(r["场次"] or "").endswith("加赛")}
    fines = {}
    for r in table(sheets, "罚分"):
        if r["阶段"] == stage_name:
            vp = r["扣罚VP"] if r["扣罚VP"] is not None else fines_vp[r["原因"]]
            fines[(r["轮次"], r["队号"])] = Decimal(str(vp))
    return games, totals, fines


def scored_state(preset, sheets, stage_name, entrants):
    """The stage as the core sees it: entrants, the 对阵 matches and every result scored by the
    stage's scoring (fines as penalties of the team's match in that round)."""
    stage = stage_model(preset, stage_name)
    sc = stage.scoring
    fines_vp = {f.name_zh: f.vp for f in getattr(sc, "fines", [])}
    games, totals, fines = typed_for(sheets, stage_name, fines_vp)
    matches = [Match(round=r["轮次"], table=r["桌号"], sides=(r["主队号"], r["客队号"]))
               for r in table(sheets, "对阵") if r["阶段"] == stage_name]
    results = {}
    for m in matches:
        if m.is_bye:
            results[m.key] = sc.bye(m)
            continue
        pens = tuple((i, "罚分", fines[(m.round, t)]) for i, t in enumerate(m.sides)
                     if (m.round, t) in fines)
        typed = TypedMatch(games=pd.DataFrame(games.get((m.round, m.table), []),
                                              columns=["game", "open_ns", "closed_ns"]),
                           totals=totals.get((m.round, m.table), {}), penalties=pens)
        assert sc.is_complete(typed), m
        results[m.key] = sc.score_typed(m, typed)
    return stage, StageState(entrants=entrants, matches=matches, results=results)


def first_entrants(sheets):
    return [StageEntrant(number=r["队号"], unit=r["地市/单位"]) for r in table(sheets, "抽签")]


def cons_entrants(sheets, name):
    return [StageEntrant(number=r["队号"], carry=Decimal(str(r["带分"])), seed=r["来源名次"],
                         join_round=r["进入轮次"]) for r in table(sheets, "带分") if r["阶段"] == name]


def golden_round(sheets, stage_name, rnd):
    return [(r["桌号"], r["主队号"], r["客队号"]) for r in table(sheets, "对阵")
            if r["阶段"] == stage_name and r["轮次"] == rnd]


def unedit(pairs):
    """Round 2 of the golden first stage had the away teams of tables 1 and 2 swapped by hand."""
    p = {t: (h, a) for t, h, a in pairs}
    p[1], p[2] = (p[1][0], p[2][1]), (p[2][0], p[1][1])
    return sorted((t, h, a) for t, (h, a) in p.items())


def drawn(fmt, state, rnd):
    part = StageState(entrants=state.entrants,
                      matches=[m for m in state.matches if m.round < rnd],
                      results={k: v for k, v in state.results.items() if k[1] < rnd})
    got = fmt.next_round(part, random.Random(0))
    return [(m.table, m.sides[0], m.sides[1]) for m in got]


@pytest.mark.parametrize("preset", G.PRESETS)
def test_team_swiss_pairs_every_round_as_the_pipeline(preset):
    """福建 六（二）"第一轮同一地市…先相遇；第二轮起高分对高分"; 六（三）"同一阶段不重复相遇";
    八（二）1/4决赛负队第3轮加入附加积分编排赛: every round of both Swiss stages of the golden
    event, paired by the core format from the results before it, is the 对阵 sheet's round."""
    sheets = G.load(preset)
    for name, ents in ((FIRST[preset], first_entrants(sheets)),
                       (CONS[preset], cons_entrants(sheets, CONS[preset]))):
        stage, state = scored_state(preset, sheets, name, ents)
        fmt = stage.format
        assert core.format_for("swiss") is type(fmt)
        for rnd in range(1, fmt.rounds + 1):
            want = golden_round(sheets, name, rnd)
            if name == FIRST[preset] and rnd == 2:
                want = unedit(want)
            assert drawn(fmt, state, rnd) == want, (name, rnd)
        assert fmt.finished(state)


@pytest.mark.parametrize("preset", G.PRESETS)
def test_bridge_vp_scoring_and_core_ranking_give_the_standings_sheets(preset):
    """福建 八（一）"以累计VP积分排列名次"、九（一）同分比较; 十一（一）吸烟扣罚2VP; 八（三）带分25%:
    the core scoring's VP (fines deducted, byes at the bye VP, carry-over added) ranked by the
    stage's chain (vp, h2h_vp, imp_quotient, lots) gives each 排名 sheet's order and 总VP."""
    sheets = G.load(preset)
    seed = next(int(r["排名随机种子"]) for r in table(sheets, "带分") if r["排名随机种子"])
    for name, ents in ((FIRST[preset], first_entrants(sheets)),
                       (CONS[preset], cons_entrants(sheets, CONS[preset]))):
        stage, state = scored_state(preset, sheets, name, ents)
        rows = core.entrant_rows(state.results.values())
        carry = [{"round": 0, "entrant": e.number, "opponent": pd.NA, "complete": True,
                  "match_points": e.carry, "outcome": "CARRY"} for e in ents if e.carry]
        if carry:
            rows = pd.concat([rows, pd.DataFrame(carry)], ignore_index=True)
            rows["opponent"] = rows["opponent"].astype("Int64")
        st = rank([e.number for e in ents], rows, stage.tie_breaks.criteria,
                  seed=seed if name == FIRST[preset] else 3).table
        want = table(sheets, f"排名-{name}")
        assert [int(e) for e in st["entrant"]] == [r["队号"] for r in want]
        assert [int(r) for r in st["rank"]] == [r["名次"] for r in want]
        assert [float(v) for v in st["vp"]] == [r["总VP"] for r in want]
        tot = {e.number: e.carry for e in ents}
        for r in state.results.values():
            for s, p in zip(r.match.sides, r.points):
                if s is not None:
                    tot[s] += p
        assert {k: float(v) for k, v in tot.items()} == {r["队号"]: r["总VP"] for r in want}


def _typed(boards=(), home=None, away=None, pens=()):
    return TypedMatch(games=pd.DataFrame(list(boards), columns=["game", "open_ns", "closed_ns"]),
                      totals={"home_imps": home, "away_imps": away}, penalties=tuple(pens),
                      cells={"home_imps": "成绩!G5"})


def test_bridge_vp_scoring_rules():
    """福建 十一（一）"赛场内吸烟…扣罚2VP"（罚分在换算后扣除，可为负）; Law 78B IMPs from the board
    scores (10的倍数); 成绩 and 逐副成绩 must agree; a bye scores the format's bye VP."""
    stage = stage_model("fujian-elder-bridge-teams", "排位赛")
    sc = stage.scoring
    assert isinstance(sc, BridgeTeamsVp) and sc.stage_boards == 8 and sc.games_per_match == 8
    assert [c.zh for c in sc.entry_game_columns()] == ["开室南北得分", "闭室南北得分"]
    assert [c.zh.format(side=s) for c, s in zip(sc.entry_match_columns(), ("主队", "客队"))] \
        == ["主队IMP", "客队IMP"]
    m = Match(round=1, table=1, sides=(1, 2))
    r = sc.score_typed(m, _typed(home=0, away=40, pens=[(0, "罚分", Decimal(2))]))
    assert r.values["vp"][0] < Decimal(2) and r.points[0] == r.values["vp"][0] - 2
    assert r.points[0] < 0 and r.outcome == ("L", "W")
    boards = [{"game": g, "open_ns": 420, "closed_ns": -50} for g in range(1, 9)]
    r = sc.score_typed(m, _typed(boards))
    assert r.values["imps_won"] == (80, 0)  # 470 points → 10 IMPs a board (Law 78B)
    with pytest.raises(InputError) as e:
        sc.score_typed(m, _typed(boards, home=88, away=0))
    assert e.value.cell == "G5" and "不一致" in e.value.zh
    assert not sc.is_complete(_typed(boards[:7]))
    assert sc.problems(m, _typed([{"game": 1, "open_ns": 425, "closed_ns": 0}]))
    assert sc.problems(m, _typed(home=3))
    bye = sc.bye(Match(round=1, table=7, sides=(5, None)))
    assert bye.points[0] == Decimal("12.00") and bye.outcome[0] == "BYE"


def test_bridge_knockout_scoring_is_decided_on_imps():
    """福建 五、第二阶段1 "以IMP决定胜负": equal IMPs are left to the knockout's tie-breaks."""
    sc = stage_model("fujian-elder-bridge-teams", "淘汰赛").scoring
    assert isinstance(sc, BridgeKnockoutImps) and sc.stage_boards == 16
    m = Match(round=1, table=1, sides=(3, 2), label="QF1")
    assert sc.score_typed(m, _typed(home=30, away=30)).outcome == ("D", "D")
    assert sc.score_typed(m, _typed(home=31, away=30)).winner == 3


def _demo_on_core(monkeypatch, out, preset, pieces, entries):
    """Run ``preset``'s core demo with the bridge ``pieces`` let onto the core (teams of 4,
    ``entries`` teams); returns ``rows(sheet)``: the saved sheet as dicts by header."""
    from rich.console import Console

    from bianpai.addin.competition import is_core_regulation
    from bianpai.addin.core_demo import run_core_demo
    for cls in pieces:
        monkeypatch.setattr(cls, "runs_on_core", True)
    reg = load_preset(preset)
    reg.groups[0].team_size = 4
    assert is_core_regulation(reg)
    run_core_demo(reg, out, fields={reg.groups[0].id: entries}, pictures=False,
                  console=Console(quiet=True))
    book = load_workbook(out, read_only=True)

    def rows(name):
        it = list(book[name].iter_rows(values_only=True))
        return [dict(zip(it[0], r)) for r in it[1:]]
    return rows


def test_otog_bridge_runs_on_the_core_pipeline(tmp_path, monkeypatch):
    """鄂托克旗 四（二）"积分排位赛前4名进入决赛循环赛…其余队进入附加积分赛（带入排位赛全部VP）":
    with the bridge pieces let onto the core (``runs_on_core``), the generic commands run the
    whole Otog event on the core's own sheets: Swiss 高分对高分 without rematches, the final round
    robin and, beside it, the consolation Swiss with 100 % of the stage-1 VP carried, 总排名 of
    every team."""
    from bianpai.engines.team_swiss import TeamSwiss
    rows = _demo_on_core(monkeypatch, tmp_path / "otog.xlsx", "otog-bridge-teams",
                         (TeamSwiss, BridgeTeamsVp), 8)
    sched = [r for r in rows("对阵") if r["阶段"] == "积分排位赛"]
    pairs = [frozenset((r["主队号"], r["客队号"])) for r in sched if r["客队号"]]
    assert len(pairs) == 20 and len(set(pairs)) == 20  # 5 rounds of 4 tables, no rematch
    st1 = {r["队号"]: r["总VP"] for r in rows("排名-积分排位赛")}
    moved = [r for r in rows("带分") if r["阶段"] == "附加积分赛"]
    assert len(moved) == 4
    for r in moved:  # 100 % of the stage-1 VP, half-up to 2 places
        assert Decimal(str(r["带分"])) == Decimal(str(st1[r["队号"]])).quantize(Decimal("0.01"))
        assert Decimal(str(r["来源VP"])) == Decimal(str(st1[r["队号"]]))
    final = [r for r in rows("总排名")]
    assert [r["名次"] for r in final] == list(range(1, 9))
    # "其余队与决赛同时进行附加积分赛": one advance enters both, one draw pairs a round of each
    log = [r["摘要"] for r in rows("日志")]
    # (the bridge team workbook's own 日志 wording: advance pairs the new stages' first round)
    assert any("进入下一阶段：决赛循环赛第1轮；附加积分赛第1轮" in t for t in log
               if t.startswith("积分排位赛排名已定"))
    assert any("决赛循环赛第2轮；附加积分赛第2轮" in t for t in log if t.startswith("编排完成"))


def test_bridge_knockout_format_draws_and_places_as_the_pipeline():
    """福建 五、第二阶段1 "前8名…按名次自动对位…1/4决赛、半决赛、决赛和3-4名附加赛…以IMP决定胜负";
    九（二）IMP相同时第一阶段名次在前者胜: the core-interface knockout draws each round of the
    golden event from the results before it (labels, tables, home = better place), decides the
    tied QF1 by the stage-1 place, and places 1–4 as 总排名 has them."""
    preset = "fujian-elder-bridge-teams"
    sheets = G.load(preset)
    ents = [StageEntrant(number=r["队号"], seed=r["来源名次"])
            for r in table(sheets, "带分") if r["阶段"] == "淘汰赛"]
    stage = stage_model(preset, "淘汰赛")
    fmt, sc = stage.format, stage.scoring
    rows = [r for r in table(sheets, "对阵") if r["阶段"] == "淘汰赛"]
    games, totals, _ = typed_for(sheets, "淘汰赛", {})
    state = StageState(entrants=ents)
    for rnd in (1, 2, 3):
        got = fmt.next_round(state, random.Random(0))
        want = [(r["场次"], r["桌号"], r["主队号"], r["客队号"]) for r in rows if r["轮次"] == rnd]
        assert [(m.label, m.table, *m.sides) for m in got] == want
        state.matches.extend(got)
        assert not fmt.finished(state)
        for m in got:  # IMPs typed in 成绩, or (table 1) from the 16 boards of 逐副成绩
            typed = TypedMatch(games=pd.DataFrame(games.get((m.round, m.table), []),
                                                  columns=["game", "open_ns", "closed_ns"]),
                               totals=totals[(m.round, m.table)])
            state.results[m.key] = sc.score_typed(m, typed)
    assert fmt.finished(state)
    ko = {r["场次"]: r for r in table(sheets, "淘汰赛")}
    frame = fmt.frame(state)
    assert {r["match"]: int(r["winner"]) for r in frame.to_dict("records")} == \
        {k: r["胜队"] for k, r in ko.items()}
    pl = fmt.placings(state)
    top = pl[pl["place"] <= 4].sort_values("place")
    assert [int(t) for t in top["entrant"]] == [r["队号"] for r in table(sheets, "总排名")[:4]]


def test_fujian_bridge_runs_on_the_core_pipeline(tmp_path, monkeypatch):
    """福建 五、第二阶段1 "排位赛前8名…按名次自动对位进行1/4决赛…"; 八（二）"淘汰赛1/4决赛负队…
    带入其第一阶段VP的25%再加24VP，进入附加积分编排赛第3轮"; 五、第二阶段2 第9名及以后带25%: with
    the bridge pieces let onto the core (``runs_on_core``), the generic commands run the whole
    Fujian event on the core's own sheets: quarter-finals 1v8, 4v5, 2v7, 3v6 by the stage-1
    place whatever the new numbers, the consolation Swiss beside the knockout, the quarter-final
    losers joining it at round 3 with 25 % of their stage-1 VP + 24."""
    from bianpai.engines.bridge_knockout import Knockout8
    from bianpai.engines.rounding import q2
    from bianpai.engines.team_swiss import TeamSwiss
    rows = _demo_on_core(monkeypatch, tmp_path / "fujian.xlsx", "fujian-elder-bridge-teams",
                         (TeamSwiss, BridgeTeamsVp, BridgeKnockoutImps, Knockout8), 12)
    st1 = {r["队号"]: (r["名次"], Decimal(str(r["总VP"]))) for r in rows("排名-排位赛")}
    place = {t: p for t, (p, _) in st1.items()}
    qf = [(r["场次"], place[r["主队号"]], place[r["客队号"]]) for r in rows("对阵")
          if r["阶段"] == "淘汰赛" and r["轮次"] == 1]
    assert qf == [("QF1", 1, 8), ("QF2", 4, 5), ("QF3", 2, 7), ("QF4", 3, 6)]
    ko_teams = {t for t, p in place.items() if p <= 8}
    cons = [r for r in rows("带分") if r["阶段"] == "附加积分编排赛"]
    first = [r for r in cons if r["进入轮次"] == 1]
    late = [r for r in cons if r["进入轮次"] == 3]
    assert {r["队号"] for r in first} == set(place) - ko_teams
    assert len(late) == 4 and {r["队号"] for r in late} < ko_teams
    for r in late:  # 25 % of the stage-1 VP (half-up to 2 places), plus 24
        assert Decimal(str(r["带分"])) == q2(q2(st1[r["队号"]][1] * Decimal("0.25")) + 24)
        assert Decimal(str(r["比例带分"])) == q2(st1[r["队号"]][1] * Decimal("0.25"))
        assert (r["比例"], r["另加VP"]) == (0.25, 24)
        assert r["来源名次"] == place[r["队号"]]
    sched = rows("对阵")
    r3 = {t for r in sched if r["阶段"] == "附加积分编排赛" and r["轮次"] == 3
          for t in (r["主队号"], r["客队号"])}
    assert {r["队号"] for r in late} <= r3
    r1 = {t for r in sched if r["阶段"] == "附加积分编排赛" and r["轮次"] < 3
          for t in (r["主队号"], r["客队号"])}
    assert not (r1 & ko_teams)
    # the bracket (淘汰赛): 1–4 from the final and the 3rd-place match, the quarter-final
    # losers are the teams that joined the consolation
    ko = {r["场次"]: r for r in rows("淘汰赛")}
    final = {r["名次"]: r["队号"] for r in rows("总排名")}
    assert [final[p] for p in (1, 2, 3, 4)] == [ko["F"]["胜队"], ko["F"]["负队"],
                                                ko["3RD"]["胜队"], ko["3RD"]["负队"]]
    assert {ko[f"QF{i}"]["负队"] for i in (1, 2, 3, 4)} == {r["队号"] for r in late}
    # the knockout and the consolation run side by side: one advance enters both, one draw
    # pairs a round of each
    log = [r["摘要"] for r in rows("日志")]
    assert any("进入下一阶段：淘汰赛QF1、QF2、QF3、QF4；附加积分编排赛第1轮" in t for t in log
               if t.startswith("排位赛排名已定"))
    assert any("淘汰赛SF1、SF2；附加积分编排赛第2轮" in t for t in log if t.startswith("编排完成"))


def test_a_fine_typed_by_its_offence_takes_the_regulations_vp():
    """福建 十一（一）"赛场内吸烟…扣罚2VP": on the core's 罚分 sheet a row naming the offence with
    the amount left blank deducts the 规程's 2 VP (the scoring declares ``penalty_for``); an
    offence the 规程 does not list, or a blank amount without one, is refused naming the cell;
    a scoring without the declaration still needs the amount."""
    from bianpai.engines.penalty_check import penalty_amount
    sc = stage_model("fujian-elder-bridge-teams", "排位赛").scoring
    cells = {"points": "G2", "reason": "H2"}
    assert penalty_amount(sc, "赛场内吸烟", None, sheet="罚分", cells=cells) == (Decimal(2), None)
    assert penalty_amount(sc, None, Decimal("1.5"), sheet="罚分", cells=cells) == \
        (Decimal("1.5"), None)
    amount, err = penalty_amount(sc, "迟到", None, sheet="罚分", cells=cells)
    assert amount is None and err.cell == "H2" and "原因应为以下之一" in err.zh
    amount, err = penalty_amount(sc, None, None, sheet="罚分", cells=cells)
    assert amount is None and err.cell == "G2" and "须填写罚分" in err.zh
    amount, err = penalty_amount(sc, None, Decimal(-2), sheet="罚分", cells=cells)
    assert amount is None and err.cell == "G2"
    gouji = load_preset("qingdao-gouji-2015").groups[0].stages[0].scoring
    amount, err = penalty_amount(gouji, "迟到", None, sheet="罚分", cells=cells)
    assert amount is None and err.cell == "G2" and "不能为空" in err.zh
