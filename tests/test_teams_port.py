"""The bridge team workbooks' sheets written and read by the competition core, sheet by sheet
(the port of ``fujian-elder-bridge-teams`` and ``otog-bridge-teams`` onto the core;
``docs/teams-port.md`` lists what is closed and what is left).

Method (as ``tests/test_pairs_port.py``): the golden flow (``tests/golden_teams_build.py``) is
run by the core with the bridge pieces switched on (fixture ``on_core``), and each sheet is
compared with the golden workbook the bridge team pipeline wrote. 福建 六（一）"抽签确定队号";
六（四）3 "主队开室南北、闭室东西"; 十一（一）吸烟扣罚 VP.
"""

from __future__ import annotations

import pytest

from bianpai.addin.competition import is_core_regulation
from bianpai.engines import bridge_teams_scoring as B
from bianpai.engines.bridge_knockout import Knockout8
from bianpai.engines.team_swiss import TeamSwiss
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.workbooks.sheet_sets import sheet_set

from . import golden_teams_build as G

#: the core pieces of the bridge team presets (``runs_on_core``: True since issue 8; the
#: fixtures below still say so explicitly)
PIECES = (TeamSwiss, Knockout8, B.BridgeTeamsVp, B.BridgeKnockoutImps)
FIRST = {"fujian-elder-bridge-teams": "排位赛", "otog-bridge-teams": "积分排位赛"}


def switched_on(mp: pytest.MonkeyPatch) -> None:
    for cls in PIECES:
        mp.setattr(cls, "runs_on_core", True)


@pytest.fixture
def on_core(monkeypatch):
    """The bridge pieces declared as running on the core (as they will once ported)."""
    switched_on(monkeypatch)


@pytest.fixture(scope="module")
def whole_flow(golden_teams_book):
    """Per preset: the whole golden flow (first stage with a hand edit of round 2 and a fine,
    advance, the later stages with Fujian's tied QF1 and its 加赛 row, a ranking after a round
    in the middle of the bracket, rank, awards) run by the core; every sheet's values. The
    pieces run on the core as shipped (no switch needed), so the flow is the one
    test_teams_golden runs: built once for both (``golden_teams_book``)."""
    assert all(cls.runs_on_core for cls in PIECES)
    return {preset: G.dump(golden_teams_book(preset)) for preset in G.PRESETS}


def _stage_rows(rows: list[list], stage: str) -> list[list]:
    return [rows[0]] + [r for r in rows[1:] if r and r[0] == stage]


def test_bridge_team_style_is_declared_and_on_the_core():
    """The bridge presets name their workbook style (roster layout ``bridge-teams``): its 报名
    without 组别/种子 and its own sheets are declarations the core reads; the pieces declare
    ``runs_on_core`` (issue 8: the team pipeline is gone), so the presets run the core's
    commands."""
    for preset in G.PRESETS:
        reg = load_preset(preset)
        assert reg.roster_layout == "bridge-teams"
        assert is_core_regulation(reg)
        assert all(p.runs_on_core for p in PIECES)
    rl = roster_layout("bridge-teams")
    assert [c.zh for c in rl.table.columns][:3] == ["队号", "队名", "地市/单位"]
    assert rl.lot == "event"
    style = sheet_set("bridge-teams")
    assert not style.record_copies and not style.withdrawals_sheet
    assert style.round_papers and style.rank_papers  # issue 12: every event's paper
    assert style.advance_ranking_seed and style.stage_standings is not None


def test_the_switch_puts_the_presets_on_the_core(on_core):
    assert all(is_core_regulation(load_preset(p)) for p in G.PRESETS)


#: the sheets the core writes cell for cell as the pipeline did (docs/teams-port.md: CLOSED)
CLOSED = ["规程", "报名", "队员", "校验", "抽签", "罚分", "_bianpai_settings", "对阵", "成绩",
          "逐副成绩", "带分", "总排名", "奖励", "领奖签收表", "证书", "荣誉证书", "日志"]
#: the core's sheets still in place of the pipeline's (docs/teams-port.md: OPEN)
OPEN_CORE_SHEETS: set[str] = set()


@pytest.mark.parametrize("preset", G.PRESETS)
@pytest.mark.parametrize("sheet", CLOSED)
def test_core_writes_the_golden_sheet(whole_flow, preset, sheet):
    """报名/队员 typed by the flow, 校验 from ``check``, 抽签 by the one seeded lot (六（一）); 对阵
    with every stage's rounds as drawn (the stages beside each other round by round, the
    round-2 hand edit kept, seats and boards, 六（四）（五）), 成绩/逐副成绩 with the knockout's
    场次 and the 加赛 row, 罚分 with the 规程's fine, 总排名 and the award sheets, 日志 (every
    command's sentence, seed and parameters: the advance that also draws, a ranking after a
    round naming the running stages): cell for cell the pipeline's."""
    assert whole_flow[preset][sheet] == G.load(preset)[sheet]


@pytest.mark.parametrize("preset", G.PRESETS)
def test_core_writes_the_golden_stage_standings(whole_flow, preset):
    """排名-‹阶段›, one sheet per stage not ranked by its bracket: 已赛场数, 带分, 比赛VP, 罚分
    (十一), 总VP, IMP得/失 summed from the results, IMP商 to 4 places, the chain's further
    criteria and 说明 — the first stage's written by ``advance`` with its seed, the others by
    ``rank`` after a ``rank --round`` in the middle: as the pipeline's."""
    golden = G.load(preset)
    names = [n for n in golden if n.startswith("排名-")]
    assert len(names) == (2 if preset.startswith("fujian") else 3)
    for name in names:
        assert whole_flow[preset][name] == golden[name], name


def test_core_writes_the_golden_knockout_sheet(whole_flow):
    """福建 淘汰赛: one row per match (半区, 排位, 选位 六（五）, IMPs, 胜/负队, 说明 九（二） with the
    tied QF1 decided by the stage place) from the knockout's bracket frame, as the pipeline's."""
    preset = G.PRESETS[0]
    assert whole_flow[preset]["淘汰赛"] == G.load(preset)["淘汰赛"]


@pytest.mark.parametrize("preset", G.PRESETS)
def test_core_sheet_order_is_the_golden_one(whole_flow, preset):
    """The sheets in the pipeline's order (规程, 报名, 抽签 after 报名, 队员 … 日志, then the
    generated sheets as the commands write them): ``new`` writes no generated sheet at once
    and every generated sheet goes to the end (``SheetSet.as_written``); the sheets still open
    are left out of the comparison."""
    golden = list(G.load(preset))
    got = [n for n in whole_flow[preset] if n in golden]
    assert got == [n for n in golden if n in whole_flow[preset]]


@pytest.mark.parametrize("preset", G.PRESETS)
def test_core_first_stage_rows_equal(whole_flow, preset):
    """The first stage's rows of 对阵 — the Swiss pairing of every round — as the pipeline's."""
    for sheet in ("对阵", "成绩", "逐副成绩"):
        want = _stage_rows(G.load(preset)[sheet], FIRST[preset])
        assert _stage_rows(whole_flow[preset][sheet], FIRST[preset]) == want, sheet


@pytest.mark.parametrize("preset", G.PRESETS)
def test_core_keeps_no_hidden_record_copies(whole_flow, preset):
    """The style keeps the record of its 抽签 outside the sheets (a document property,
    tests/test_draw_record.py): no ``_bianpai_draw`` sheet, and no
    退赛/交叉表 the pipeline's workbook does not have; the core's sheets beyond the pipeline's
    are the paper of issue 12 (桌卡, 记分单, 成绩公告, 排名走势) and those still open (none: 晋级
    is shown as 带分 and 排名 as one 排名-‹阶段› per stage, without ``_bianpai_entries``)."""
    names = set(whole_flow[preset])
    assert not names & {"_bianpai_draw", "退赛", "交叉表"}
    paper = {"桌卡", "记分单", "成绩公告", "排名走势"}
    assert paper <= names
    assert names - set(G.load(preset)) <= OPEN_CORE_SHEETS | paper


def test_a_knockout_extra_boards_row_is_read_as_the_match_extra_imps(on_core):
    """福建 九（二）: a tied knockout match's extra boards typed as a 成绩 row whose 场次 is
    ‹场次›加赛 are the match's extra IMPs (for an ``extra_boards`` tie-break), not the same match
    entered twice."""
    import pandas as pd
    from bianpai.engines.core import Match, TypedMatch
    from bianpai.workbooks.team_sheets import bridge_team_views
    view = bridge_team_views(load_preset(G.PRESETS[0]))["results"]
    df = pd.DataFrame([{"stage": "淘汰赛", "round": 1, "match": m, "table": 1, "home": 3,
                        "away": 2, "home_imps": h, "away_imps": a, "note": None}
                       for m, h, a in (("QF1", 30, 30), ("QF1加赛", 7, 3))], index=[2, 3])
    from bianpai.addin.core_detect import layouts_for
    core = view.to_core(df, layouts_for(load_preset(G.PRESETS[0])).results)
    assert list(core["extra_row"]) == [False, True]
    sc = B.BridgeKnockoutImps()
    res = sc.score_typed(Match(round=1, table=1, sides=(3, 2), label="QF1"), TypedMatch(
        games=pd.DataFrame(), totals={"home_imps": 30, "away_imps": 30, "extra_home_imps": 7,
                                      "extra_away_imps": 3}))
    assert res.outcome == ("D", "D") and res.values["extra_imps"] == (7, 3)
