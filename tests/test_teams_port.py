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

#: the core pieces of the bridge team presets: their ``runs_on_core`` is the switch
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
def first_stage(tmp_path_factory):
    """Per preset: the golden flow up to ``advance`` (first stage drawn, typed — a hand edit of
    round 2, a fine — and played out) run by the core; every sheet's values."""
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        switched_on(mp)
        for preset in G.PRESETS:
            path = tmp_path_factory.mktemp("teams") / f"{preset}.xlsx"
            G.run_flow(preset, path, until="advance")
            out[preset] = G.dump(path)
    return out


def _stage_rows(rows: list[list], stage: str) -> list[list]:
    return [rows[0]] + [r for r in rows[1:] if r and r[0] == stage]


def test_bridge_team_style_is_declared_and_switched_off():
    """The bridge presets name their workbook style (roster layout ``bridge-teams``): its 报名
    without 组别/种子 and its own sheets are declarations the core reads; the presets stay on
    their own commands until the pieces' ``runs_on_core`` switch."""
    for preset in G.PRESETS:
        reg = load_preset(preset)
        assert reg.roster_layout == "bridge-teams"
        assert not is_core_regulation(reg)
    rl = roster_layout("bridge-teams")
    assert [c.zh for c in rl.table.columns][:3] == ["队号", "队名", "地市/单位"]
    assert rl.lot == "event"
    style = sheet_set("bridge-teams")
    assert not style.record_copies and not style.round_papers and not style.withdrawals_sheet


def test_the_switch_puts_the_presets_on_the_core(on_core):
    assert all(is_core_regulation(load_preset(p)) for p in G.PRESETS)


@pytest.mark.parametrize("preset", G.PRESETS)
@pytest.mark.parametrize("sheet", ["报名", "队员", "校验", "抽签", "罚分"])
def test_core_writes_the_golden_sheet(first_stage, preset, sheet):
    """报名/队员 typed by the flow, 校验 from ``check``, 抽签 by the one seeded lot (六（一）), 罚分
    with the 规程's fine read back: cell for cell the pipeline's."""
    assert first_stage[preset][sheet] == G.load(preset)[sheet]


@pytest.mark.parametrize("preset", G.PRESETS)
@pytest.mark.parametrize("sheet", ["对阵", "成绩", "逐副成绩"])
def test_core_writes_the_golden_first_stage_rows(first_stage, preset, sheet):
    """Every round of the first stage — the Swiss pairing, the hand edit of round 2 kept, the
    seats and boards of 对阵, the typed IMPs and board scores — as the pipeline wrote them."""
    want = _stage_rows(G.load(preset)[sheet], FIRST[preset])
    assert _stage_rows(first_stage[preset][sheet], FIRST[preset]) == want


@pytest.mark.parametrize("preset", G.PRESETS)
def test_core_keeps_no_hidden_record_copies(first_stage, preset):
    """The style checks its 抽签 against the roster rows: no ``_bianpai_draw`` sheet, and no
    桌卡/记分单/退赛 the pipeline's workbook does not have."""
    names = set(first_stage[preset])
    assert not names & {"_bianpai_draw", "桌卡", "记分单", "退赛"}
