"""IMP (Law 78B), VP (WBF 2013 continuous), carry-over and fines."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bianpai.engines.bridge import (
    IMP_TABLE, apply_fine, blitz_margin, carry_over, imp, imps_from_board_scores, match_imps,
    vp, vp_table)
from bianpai.engines.errors import InputError

DATA = Path(__file__).parent / "data" / "bridge" / "bridge_vectors.json"
VECTORS = json.loads(DATA.read_text(encoding="utf-8"))


def D(s: str) -> Decimal:
    return Decimal(s)


# ------------------------------------------------------------------------------------- IMPs

def test_imp_table_constant_matches_corpus():
    assert [list(b) for b in IMP_TABLE] == VECTORS["imp_table"]["bands"]


@pytest.mark.parametrize("band", VECTORS["imp_table"]["bands"])
def test_imp_band_edges(band):
    lo, hi, imps = band
    assert imp(lo) == imps
    assert imp(-lo) == -imps
    if hi is not None:
        assert imp(hi) == imps
        assert imp(hi + 10) == imps + 1
    if lo > 0:
        assert imp(lo - 10) == imps - 1


@pytest.mark.parametrize("case", VECTORS["imp_vectors"], ids=lambda c: c["id"])
def test_imp_vectors(case):
    assert [imp(d) for d in case["input"]["diff"]] == case["expected"]["imps"]


def test_imp_agrees_with_midpoint_cutoffs_for_multiples_of_10():
    from bisect import bisect_right
    cut = VECTORS["imp_table"]["midpoint_cutoffs"]
    for diff in range(0, 6010, 10):
        assert imp(diff) == bisect_right(cut, diff)


def test_imp_rejects_non_integer():
    with pytest.raises(InputError):
        imp(12.5)
    with pytest.raises(InputError):
        imp("abc")


def test_imps_from_board_scores_home_is_open_ns():
    # Home NS in open room makes 4S= (+620); away NS in closed room goes down 1 (−100 for NS).
    assert imps_from_board_scores(620, -100) == 12
    # Both rooms +420: push.
    assert imps_from_board_scores(420, 420) == 0
    # Home EW in closed room conceded +1430 to away's NS.
    assert imps_from_board_scores(650, 1430) == -13
    assert match_imps([(620, -100), (650, 1430), (420, 420)]) == (12, 13)


# --------------------------------------------------------------------------------------- VP

VP8 = """10.00 10.44 10.86 11.27 11.67 12.05 12.42 12.77 13.12 13.45
13.78 14.09 14.39 14.68 14.96 15.23 15.50 15.75 16.00 16.23
16.46 16.68 16.90 17.11 17.31 17.50 17.69 17.87 18.04 18.21
18.37 18.53 18.68 18.83 18.97 19.11 19.24 19.37 19.50 19.62
19.74 19.85 19.95 20.00"""
VP10 = """10.00 10.39 10.77 11.14 11.50 11.85 12.18 12.51 12.83 13.14
13.43 13.72 14.00 14.28 14.54 14.80 15.05 15.29 15.52 15.75
15.97 16.18 16.39 16.59 16.78 16.97 17.16 17.34 17.51 17.68
17.84 18.00 18.15 18.30 18.44 18.58 18.71 18.84 18.97 19.10
19.22 19.33 19.44 19.55 19.66 19.76 19.86 19.96 20.00"""
VP16 = """10.00 10.31 10.61 10.91 11.20 11.48 11.76 12.03 12.29 12.55
12.80 13.04 13.28 13.52 13.75 13.97 14.18 14.39 14.60 14.80
15.00 15.19 15.38 15.56 15.74 15.92 16.09 16.26 16.42 16.58
16.73 16.88 17.03 17.17 17.31 17.45 17.59 17.72 17.85 17.97
18.09 18.21 18.33 18.44 18.55 18.66 18.77 18.87 18.97 19.07
19.16 19.25 19.34 19.43 19.52 19.61 19.69 19.77 19.85 19.93
20.00"""


@pytest.mark.parametrize("boards,text", [(8, VP8), (10, VP10), (16, VP16)])
def test_vp_tables_match_scoring_anchors(boards, text):
    expected = [D(x) for x in text.split()]
    assert vp_table(boards) == expected
    assert len(expected) == blitz_margin(boards) + 1


@pytest.mark.parametrize("boards,blitz", [(8, 43), (10, 48), (12, 52), (16, 60), (20, 68),
                                          (24, 74)])
def test_blitz_margins(boards, blitz):
    assert blitz_margin(boards) == blitz
    assert vp(blitz, boards) == (D("20.00"), D("0.00"))
    assert vp(blitz - 1, boards)[0] < D("20.00")


# 2014 European Championships (Seniors), 16-board matches: (IMPs for, IMPs against, VP for).
EC2014 = [(8, 47, "2.03"), (35, 30, "11.48"), (59, 28, "16.88"), (63, 10, "19.43"),
          (60, 10, "19.16")]


@pytest.mark.parametrize("a,b,expected", EC2014)
def test_vp_real_2014_results(a, b, expected):
    mine, theirs = vp(a - b, 16)
    assert mine == D(expected)
    assert mine + theirs == D("20.00")


def test_vp_2014_fine_below_zero():
    _winner, loser = vp(63 - 10, 16)
    assert apply_fine(loser, 3) == D("-2.43")


def test_vp_given_side_first_and_concavity_vectors():
    assert vp(0, 8) == (D("10.00"), D("10.00"))
    assert vp(5, 8) == (D("12.05"), D("7.95"))
    assert vp(-5, 8) == (D("7.95"), D("12.05"))
    assert vp(40, 8)[0] == D("19.74")  # plain rounding would give 19.73
    assert vp(14, 16)[0] == D("13.75")  # plain rounding would give 13.74
    assert vp(60, 8) == (D("20.00"), D("0.00"))
    assert vp(-200, 8) == (D("0.00"), D("20.00"))
    assert vp(51, 12)[0] == D("19.92")
    assert vp(1, 10)[0] == D("10.39") and vp(27, 10)[0] == D("17.34")


def test_vp_results_have_two_places():
    for m in range(-50, 51):
        a, b = vp(m, 8)
        assert a.as_tuple().exponent == -2 and b.as_tuple().exponent == -2


def test_vp_bad_boards():
    with pytest.raises(InputError):
        vp(3, 0)
    with pytest.raises(InputError):
        vp_table(-1)


@settings(max_examples=300, deadline=None)
@given(boards=st.integers(1, 64), margin=st.integers(-300, 300))
def test_vp_symmetry(boards, margin):
    a, b = vp(margin, boards)
    assert a + b == D("20.00")
    assert vp(-margin, boards) == (b, a)
    assert D("0") <= a <= D("20")


@pytest.mark.parametrize("boards", range(1, 65))
def test_vp_table_monotone_and_concave(boards):
    t = vp_table(boards)
    assert t[0] == D("10.00") and t[-1] == D("20.00")
    gains = [t[i + 1] - t[i] for i in range(len(t) - 1)]
    assert all(g >= 0 for g in gains)
    assert all(gains[i + 1] <= gains[i] for i in range(len(gains) - 1))
    assert all(g > 0 for g in gains[:-1])  # strictly increasing before the blitz


# -------------------------------------------------------------------------------- carry-over

def test_carry_over_half_up():
    assert carry_over(D("70.10"), D("0.25")) == D("17.53")
    assert carry_over("70.10", "25%") == D("17.53")
    assert carry_over(70.10, 0.25) == D("17.53")  # floats go through their repr, not binary
    assert carry_over("71.37", "0.25") == D("17.84")
    assert carry_over(D("70.10"), D("0.25"), 24) == D("41.53")
    assert carry_over(D("0"), D("0.25"), 24) == D("24.00")


def test_carry_over_rounds_before_adding_plus():
    # 0.02 × 25 % = 0.005 → 0.01; with +0.004 added afterwards the sum stays 0.01 (0.014 → 0.01)
    assert carry_over("0.02", "0.25", "0.004") == D("0.01")


def test_carry_over_errors():
    with pytest.raises(InputError):
        carry_over("x", "0.25")
    with pytest.raises(InputError):
        carry_over("10", "-0.25")


def test_apply_fine():
    assert apply_fine(D("12.05"), 2) == D("10.05")
    assert apply_fine(D("1.00"), D("2")) == D("-1.00")
    with pytest.raises(InputError):
        apply_fine(D("1.00"), -2)


def test_carry_over_parts_show_the_scaled_value():
    from bianpai.engines import carry_over as top_level_carry_over
    from bianpai.engines.bridge import carry_over_parts
    assert carry_over_parts("70.10", "0.25", 24) == (Decimal("17.53"), Decimal("41.53"))
    assert top_level_carry_over("70.10", "25%") == Decimal("17.53")
