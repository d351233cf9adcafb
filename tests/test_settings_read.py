"""Every setting shown in 规程 is read (fidelity audit D2, D3): changing the value changes the
result."""

from __future__ import annotations

import json
from decimal import Decimal

import openpyxl
import pandas as pd

from bianpai.engines.guandan import round_results
from bianpai.engines.matchpoints import artificial_shares, score_board
from bianpai.templates.presets_io import load_preset
from tests.helpers import fill, four_pairs, new_event, sheet_rows
from tests.test_cli_flow import run


def test_artificial_shares_follow_the_settings():
    """深圳 十一（三）4、（四）2–3: 平均正分 / 平均负分 are the 规程 settings, not fixed 60/40."""
    default = score_board([None, 10, 20], codes=["A+", None, None])
    assert default.loc[0, "ns_mp"] == Decimal("0.6") * default.loc[0, "top"]
    seventy = score_board([None, 10, 20], codes=["A+", None, None],
                          artificial=artificial_shares(70, 30))
    assert seventy.loc[0, "ns_mp"] == Decimal("0.7") * seventy.loc[0, "top"]
    assert seventy.loc[0, "ew_mp"] == Decimal("0.3") * seventy.loc[0, "top"]


def test_round_results_read_the_artificial_setting():
    reg = load_preset("shenzhen-guandan-pairs-2023")
    rules = reg.groups[0].stages[0].scoring
    sched = pd.DataFrame({"round": [1, 1], "table": [1, 2], "home": [1, 3], "away": [2, 4]})
    boards = pd.DataFrame({"round": [1] * 4, "table": [1, 2, 1, 2], "board": [1, 1, 2, 2],
                           "ns": [1, 3, 1, 3], "ew": [2, 4, 2, 4],
                           "ns_score": [None, 1, 2, -1], "code": ["A+", None, None, None]})
    base = round_results(sched, boards, rules)
    changed = round_results(sched, boards, rules.model_copy(
        update={"artificial_plus_pct": Decimal(70), "artificial_minus_pct": Decimal(30)}))
    p1 = lambda df: df[df["entrant"] == 1]["score_pct"].iloc[0]  # noqa: E731
    assert p1(changed) > p1(base)


def _set(path, suffix: str, value) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb["规程"]
    hits = [r for r in range(2, ws.max_row + 1) if str(ws.cell(r, 1).value or "").endswith(suffix)]
    assert hits, suffix
    for r in hits:
        ws.cell(r, 3).value = value
    wb.save(path)


def test_rounds_late_to_disqualify_is_read(tmp_path):
    """深圳 十一（四）5 迟到两轮取消资格: with 迟到几轮取消资格 set to 3, two rounds late is only
    the forfeit of that round (十一（四）4) and the pair stays ranked."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    _set(wb, "lateness.rounds_disqualify", 3)
    run("draw", wb, "--seed", 5)
    sched = sheet_rows(wb, "对阵")
    rows = [[r[0], r[1], r[2], r[3], r[5], 50, 50, None, None] for r in sched[1:] if r[1] == 1]
    fill(wb, "轮成绩", rows)
    fill(wb, "罚分", [["男子双人赛", 2, 3, "迟到两轮", None, None, None]])
    res = run("rank", wb, "--json")
    assert res.exit_code == 0, res.output
    men = json.loads(res.stdout)["男子双人赛"]
    three = next(m for m in men if m["number"] == 3)
    assert three["rank"] is not None and "取消" not in three["explanation"]
    rr = {r[3]: r[10] for r in sheet_rows(wb, "成绩汇总")[1:] if r[1] == 3}
    assert rr[2] == "弃权"
