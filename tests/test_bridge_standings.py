"""Team standings (VP + carry-over − fines) and the named tie-break chain with explanations."""

from __future__ import annotations

from decimal import Decimal as D

import pandas as pd
import pytest

from bianpai.engines.bridge import carry_over, vp
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.standings import CRITERIA, Criterion, register
from bianpai.engines.team_standings import team_standings


def frame(rows, boards=8):
    out = []
    for h, a, hi, ai in rows:
        if a is None:
            out.append(dict(home=h, away=pd.NA, home_imps=None, away_imps=None,
                            home_vp=D("12.00"), away_vp=None))
            continue
        hv, av = vp(hi - ai, boards)
        out.append(dict(home=h, away=a, home_imps=hi, away_imps=ai, home_vp=hv, away_vp=av))
    df = pd.DataFrame(out)
    df["away"] = df["away"].astype("Int64")
    return df


def by_team(df):
    return {int(r["team"]): r for r in df.to_dict("records")}


def test_totals_with_carry_over_and_fines():
    df = frame([(1, 2, 30, 20), (3, 4, 0, 0)])
    st = team_standings(df, carry_over={1: carry_over("70.10", "0.25", 24)}, fines={4: 2})
    t = by_team(st)
    assert t[1]["carry_over"] == D("41.53")
    assert t[1]["total"] == D("41.53") + vp(10, 8)[0]
    assert t[4]["total"] == D("8.00") and t[4]["fines"] == D("2.00")
    # 1: 41.53 + 13.78; 3: 10.00; 4: 10.00 − 2 = 8.00; 2: 6.22
    assert list(st["team"]) == [1, 3, 4, 2]
    assert list(st["rank"]) == [1, 2, 3, 4]


def test_fine_can_take_total_below_zero():
    df = frame([(1, 2, 60, 0)])
    st = team_standings(df, fines={2: 3})
    assert by_team(st)[2]["total"] == D("-3.00")


def test_h2h_vp_separates_and_explains():
    # 1 and 2 end level on VP; 1 beat 2 directly.
    df = frame([(1, 2, 25, 20), (1, 3, 0, 20), (2, 4, 40, 0), (3, 4, 0, 0)])
    # make totals equal by fines: compute then adjust
    raw = team_standings(df)
    t = by_team(raw)
    gap = t[2]["total"] - t[1]["total"]
    st = team_standings(df, fines={2: gap} if gap > 0 else {1: -gap})
    tt = by_team(st)
    assert tt[1]["total"] == tt[2]["total"]
    order = list(st["team"])
    assert order.index(1) < order.index(2)
    row1 = tt[1]
    h1, h2 = vp(5, 8)
    assert row1["说明"] == f"与第{tt[2]['rank']}名VP相同，以相互间VP区分 ({h1} > {h2})"
    assert "head-to-head VP" in row1["explanation"]
    assert tt[1]["tb_h2h_vp"] == f"{h1}"


def test_imp_quotient_after_equal_h2h():
    # 1 and 2 drew (h2h equal), equal totals; 1 has the better IMP quotient.
    df = frame([(1, 2, 10, 10), (1, 3, 30, 10), (2, 4, 50, 30)])
    # 1: won 40 lost 20 -> 2.0; 2: won 60 lost 40 -> 1.5; both 10 + vp(20) VP
    st = team_standings(df)
    t = by_team(st)
    assert t[1]["total"] == t[2]["total"]
    assert t[1]["rank"] < t[2]["rank"]
    assert "以IMP商区分 (2.0000 > 1.5000)" in t[1]["说明"]
    assert "VP、相互间VP相同" in t[1]["说明"]


def test_three_way_tie_uses_h2h_among_all_three():
    # VPs typed directly. Among 1, 2, 3: 1 v 2 15–5, 2 v 3 12–8, 3 v 1 11–9.
    # h2h: 1 = 24, 2 = 17, 3 = 19. Outside matches bring each to 30.00.
    rows = [(1, 2, "15", "5"), (2, 3, "12", "8"), (3, 1, "11", "9"),
            (1, 4, "6", "14"), (2, 5, "13", "7"), (3, 6, "11", "9")]
    df = pd.DataFrame([dict(home=h, away=a, home_vp=D(hv), away_vp=D(av))
                       for h, a, hv, av in rows])
    st = team_standings(df)
    t = by_team(st)
    assert t[1]["total"] == t[2]["total"] == t[3]["total"] == D("30.00")
    assert list(st["team"])[:3] == [1, 3, 2]
    assert t[1]["说明"] == "与第2名VP相同，以相互间VP区分 (24.00 > 19.00)"
    assert t[3]["说明"] == "与第3名VP相同，以相互间VP区分 (19.00 > 17.00)"
    assert t[2]["说明"].startswith("VP多于第4名 (30.00 > 14.00)")


def test_lots_are_seeded_and_reproducible():
    df = frame([(1, 2, 10, 10), (3, 4, 10, 10)])
    a = team_standings(df, seed=2024)
    b = team_standings(df, seed=2024)
    assert list(a["team"]) == list(b["team"])
    assert list(a["rank"]) == [1, 2, 3, 4]
    orders = {tuple(team_standings(df, seed=s)["team"]) for s in range(30)}
    assert len(orders) > 1  # the seed matters
    # the words name the two lot values (tb_lots, the higher ahead), as every other criterion
    for (_, row), (_, nxt) in zip(a.iterrows(), list(a.iterrows())[1:]):
        assert row["tb_lots"] > nxt["tb_lots"]
        assert row["说明"].endswith(f"以抽签区分（抽签 {row['tb_lots']} > {nxt['tb_lots']}，大者列前）")
        assert row["explanation"].endswith(
            f"separated by lots ({row['tb_lots']} > {nxt['tb_lots']}, the higher first)")
    with pytest.raises(RuleError):
        team_standings(df)  # lots needed, no seed


def test_shared_rank_without_lots():
    df = frame([(1, 2, 10, 10)])
    st = team_standings(df, tie_chain=["vp", "h2h_vp"])
    assert list(st["rank"]) == [1, 1]
    assert "名次并列" in st.iloc[0]["说明"]


def test_team_without_matches_and_bye():
    df = frame([(1, 2, 30, 0), (3, None, 0, 0)])
    st = team_standings(df, teams=[1, 2, 3, 4])
    t = by_team(st)
    assert t[3]["total"] == D("12.00") and t[3]["imps_won"] == 0
    assert t[4]["total"] == D("0.00")
    assert list(st["team"])[-1] == 4


def test_more_vp_explanation():
    df = frame([(1, 2, 30, 0)])
    st = team_standings(df)
    w, l = vp(30, 8)
    assert st.iloc[0]["说明"] == f"VP多于第2名 ({w} > {l})"
    assert st.iloc[1]["说明"] == ""


def test_custom_criterion_registry():
    register(Criterion("low_number_test", "队号小", "lower number",
                       lambda g, results, ctx: {t: D(-t) for t in g}, fmt=lambda v: str(-v)))
    try:
        df = frame([(7, 3, 10, 10)])
        st = team_standings(df, tie_chain=["vp", "low_number_test"])
        assert list(st["team"]) == [3, 7]
        assert "以队号小区分 (3 > 7)" in st.iloc[0]["说明"]
    finally:
        CRITERIA.pop("low_number_test")


def test_errors():
    with pytest.raises(RuleError):
        team_standings(frame([(1, 2, 1, 0)]), tie_chain=["vp", "unknown"])
    with pytest.raises(InputError):
        team_standings(pd.DataFrame({"home": [1], "away": [2]}))
    bad = frame([(1, 2, 1, 0)])
    bad["home_vp"] = ["x"]
    with pytest.raises(InputError):
        team_standings(bad)


def test_team_criteria_live_in_the_common_registry():
    import bianpai.engines.team_standings as ts
    for name in ("vp", "h2h_vp", "imp_quotient", "lots"):
        assert name in CRITERIA
    assert not hasattr(ts, "TIE_BREAKS")  # one mechanism only
    # the generic rank reads the team rows directly
    from bianpai.engines.standings import rank
    rows = ts.team_rows(frame([(1, 2, 30, 0)]))
    st = rank([1, 2], rows, ["vp", "imp_quotient"], ctx={})
    assert list(st.table["entrant"]) == [1, 2]
    assert st.table["explanation_zh"][0].startswith("VP多于第2名")
