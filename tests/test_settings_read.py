"""Every setting shown in 规程 is read (fidelity audit D2, D3): changing the value changes the
result."""

from __future__ import annotations

import json
from decimal import Decimal

import pandas as pd

from bianpai.engines.guandan import round_results
from bianpai.engines.matchpoints import artificial_shares, score_board
from bianpai.templates.presets_io import load_preset
from tests.helpers import fill, four_pairs, new_event, sheet_rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook


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
    wb = load_workbook(path)
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


def _pct_rows(rows):
    """round_results rows for hand-built typed percentages."""
    from bianpai.engines.guandan import round_results as rr
    reg = load_preset("shenzhen-guandan-pairs-2023")
    rules = reg.groups[0].stages[0].scoring
    return rr, rules


def test_equal_half_points_after_a_penalty_are_no_draw():
    """深圳 八（二）、十三（二）3: a draw is 1 : 1 (49–51 %). 54.99 % less a 40 %-of-top penalty is
    48.32 % → 0.5, and the opponent's 45.01 % → 0.5: an equal split that is neither a win nor a
    draw (audit D7), unless the setting says any equal split is a draw."""
    rr, rules = _pct_rows(None)
    sched = pd.DataFrame({"round": [1], "table": [1], "home": [1], "away": [2]})
    typed = pd.DataFrame({"round": [1], "ns": [1], "ew": [2], "ns_pct": [Decimal("54.99")],
                          "ew_pct": [Decimal("45.01")], "status": [""]})
    pens = pd.DataFrame({"round": [1], "entrant": [1], "pct_of_top": [Decimal(40)]})
    out = rr(sched, pd.DataFrame(), rules, typed=typed, penalties=pens)
    assert list(out["match_points"]) == [Decimal("0.5"), Decimal("0.5")]
    assert list(out["outcome"]) == ["L", "L"]
    anyeq = rr(sched, pd.DataFrame(), rules.model_copy(update={"draw_match_points": None}),
               typed=typed, penalties=pens)
    assert list(anyeq["outcome"]) == ["D", "D"]


def test_bye_counts_as_a_round_won_by_setting():
    """深圳 十三（二）2 获胜轮数: the text is silent on byes; the setting decides."""
    from bianpai.engines.standings import CRITERIA
    rr, rules = _pct_rows(None)
    sched = pd.DataFrame({"round": [1, 2], "table": [1, 1], "home": [1, 1],
                          "away": pd.array([pd.NA, 2], dtype="Int64")})
    typed = pd.DataFrame({"round": [2], "ns": [1], "ew": [2], "ns_pct": [Decimal(60)],
                          "ew_pct": [Decimal(40)], "status": [""]})
    won = CRITERIA["rounds_won"].compute
    no = rr(sched, pd.DataFrame(), rules, typed=typed)
    yes = rr(sched, pd.DataFrame(), rules.model_copy(update={"bye_counts_as_win": True}), typed=typed)
    assert won([1], no, {})[1] == 1 and won([1], yes, {})[1] == 2
    assert won([2], yes, {})[2] == 0


def test_head_to_head_restarts_inside_a_split_tie():
    """Three pairs equal on 场分. Among them: 1 beat 2 (2 : 0), 1 v 3 1 : 1, 2 beat 3
    (1.5 : 0.5) → mini-table 1: 3, 2: 1.5, 3: 1.5. Head-to-head puts 1 first and leaves 2 and 3
    tied; with restart_head_to_head (audit D6) their own game puts 2 ahead whatever the lots,
    without it the lots decide."""
    from bianpai.engines.standings import rank
    rows = []

    def game(r, a, b, pa, pb):
        for x, y, px, py in ((a, b, pa, pb), (b, a, pb, pa)):
            rows.append({"round": r, "entrant": x, "opponent": y, "match_points": Decimal(str(px)),
                         "outcome": "W" if px > py else "L" if px < py else "D", "complete": True})
    game(1, 1, 2, 2, 0)
    game(2, 1, 3, 1, 1)
    game(3, 2, 3, 1.5, 0.5)
    game(4, 2, 4, 1.5, 0.5)   # totals vs outsiders: 1: 0, 2: 1.5, 3: 1.5 → all three at 3
    game(5, 3, 4, 1.5, 0.5)
    game(6, 1, 4, 0, 2)
    df = pd.DataFrame(rows)
    df["opponent"] = df["opponent"].astype("Int64")
    chain = ["match_points", "h2h_match_points", "lots"]
    orders_plain, orders_restart = set(), set()
    for seed in range(12):
        plain = rank([1, 2, 3], df, chain, seed=seed).table
        again = rank([1, 2, 3], df, chain, seed=seed, ctx={"restart": True}).table
        assert list(plain["match_points"]) == [Decimal(3)] * 3
        orders_plain.add(tuple(plain["entrant"]))
        orders_restart.add(tuple(again["entrant"]))
    assert orders_restart == {(1, 2, 3)}
    assert orders_plain == {(1, 2, 3), (1, 3, 2)}


def test_a_changed_setting_is_logged_old_to_new(tmp_path):
    """Issue 8: changing a 规程 value is written to 日志 (old → new) by the next command."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("check", wb)
    _set(wb, "lateness.rounds_disqualify", 3)
    assert run("check", wb).exit_code == 0
    log = sheet_rows(wb, "日志")
    assert "规程修改" in log[-1][4] and "rounds_disqualify：2 → 3" in log[-1][4]
    assert run("check", wb).exit_code == 0  # logged once, not again
    assert "规程修改" not in sheet_rows(wb, "日志")[-1][4]


def test_two_board_counts_that_disagree_are_refused_with_the_cell(tmp_path):
    """Case boards-per-round-ignored (issue 12, one setting per fact): 每轮牌数 10 with a second
    board count 8 left in the scoring used to score on the 8-board VP scale; now the two are
    refused together, naming the 规程 cell, and nothing is written."""
    import hashlib
    import shutil
    from pathlib import Path
    wb = tmp_path / "b.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "boards-per-round-ignored.xlsx", wb)
    before = hashlib.sha256(wb.read_bytes()).hexdigest()
    res = run("check", wb)
    assert res.exit_code == 2
    assert "规程!C" in res.output and "每轮牌数" in res.output
    assert hashlib.sha256(wb.read_bytes()).hexdigest() == before


def test_bridge_presets_have_one_board_count():
    """The VP scale follows 每轮牌数: the presets no longer carry a second count."""
    for name in ("fujian-elder-bridge-teams", "otog-bridge-teams"):
        for st in load_preset(name).groups[0].stages:
            assert getattr(st.scoring, "boards", None) is None


def test_a_hand_swap_in_pairs_pairings_is_honoured(tmp_path):
    """Case manual-swap-guandan (issue 12): the arbiter swaps two opponents of round 1 in 对阵 and
    in 成绩. rank scores the edited pairings (no refusal), and draw keeps them, says so, and adds
    no duplicate 成绩 rows."""
    import shutil
    from pathlib import Path
    wb = tmp_path / "m.xlsx"
    shutil.copyfile(Path(__file__).parent / "data" / "cases" / "manual-swap-guandan.xlsx", wb)
    res = run("rank", wb, "--seed", 1, "--json")
    assert res.exit_code == 0, res.output
    n_before = len(sheet_rows(wb, "成绩"))
    res = run("draw", wb)
    assert res.exit_code == 0, res.output
    assert "手工调整" in sheet_rows(wb, "日志")[-1][4]
    r1 = [(r[3], r[5]) for r in sheet_rows(wb, "对阵")[1:] if r[1] == 1]
    assert (1, 5) in r1 and (2, 6) in r1
    assert len(sheet_rows(wb, "成绩")) == n_before
    # a pair twice in a round is refused with its 对阵 cell
    book = load_workbook(wb)
    ws = book["对阵"]
    ws.cell(3, 6).value = ws.cell(2, 6).value
    book.save(wb)
    res = run("rank", wb)
    assert res.exit_code == 2 and "对阵!F3" in res.output


def test_typed_percentages_that_do_not_add_up_are_warned(tmp_path):
    """Issue 12: 轮成绩 NS 52 / EW 47 (99, no penalty on record), and both tables of a round at
    NS 52, are accepted but warned about in 日志, naming the cells."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    sched = sheet_rows(wb, "对阵")
    r1 = [r for r in sched[1:] if r[1] == 1]
    fill(wb, "轮成绩", [[r1[0][0], 1, r1[0][2], r1[0][3], r1[0][5], 52, 47, None, None],
                      [r1[1][0], 1, r1[1][2], r1[1][3], r1[1][5], 52, 48, None, None]])
    res = run("rank", wb)
    assert res.exit_code == 0, res.output
    summary = sheet_rows(wb, "日志")[-1][4]
    assert "轮成绩!F2:G2" in summary and "99" in summary
    assert "平均为 52.00" in summary and "F3" in summary


def test_standings_print_integers_as_integers(tmp_path):
    """Issue 12 (paper): 排名 prints rounds won as 3, not 3.00; 场分 with one place."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    run("draw", wb, "--seed", 5)
    assert run("rank", wb).exit_code == 0
    ws = load_workbook(wb)["排名"]
    header = [c.value for c in ws[1]]
    won = header.index("获胜轮数") + 1
    mp = header.index("场分") + 1
    assert ws.cell(2, won).number_format == "0"
    assert ws.cell(2, mp).number_format == "0.0"
