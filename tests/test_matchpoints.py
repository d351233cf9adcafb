import json
from decimal import Decimal

import pandas as pd
import pytest

from bianpai.engines.matchpoints import matchpoints, neuberg, score_board, score_boards
from bianpai.engines.rounding import quantize
from tests.conftest import DATA

V = json.loads((DATA / "bridge" / "bridge_vectors.json").read_text())


@pytest.mark.parametrize("case", V["matchpoint_vectors"], ids=lambda c: c["id"])
def test_matchpoint_vectors(case):
    inp, exp = case["input"], case["expected"]
    if inp.get("side") == "EW":
        assert matchpoints(inp["ew_scores"], scale=inp["scale"]) == [Decimal(str(x)) for x in exp["ew_mp"]]
        return
    ns = matchpoints(inp["ns_scores"], scale=inp["scale"])
    assert ns == [Decimal(str(x)) for x in exp["ns_mp"]]
    if "ew_mp" in exp:
        ew = matchpoints([-s for s in inp["ns_scores"]], scale=inp["scale"])
        assert ew == [Decimal(str(x)) for x in exp["ew_mp"]]
    if "ns_pct" in exp:
        t = 2 * (len(inp["ns_scores"]) - 1)
        assert [float(quantize(m * 100 / t)) for m in ns] == exp["ns_pct"]


def test_neuberg_v24():
    case = next(c for c in V["neuberg_vectors"] if c["id"] == "V24")
    raw = matchpoints(case["input"]["ns_scores"])
    assert raw == [Decimal(x) for x in case["expected"]["raw_mp"]]
    adj = [neuberg(m, actual=10, expected=11) for m in raw]
    assert [float(quantize(a, 1)) for a in adj] == case["expected"]["neuberg_mp"]


def test_neuberg_v25():
    case = next(c for c in V["neuberg_vectors"] if c["id"] == "V25")
    adj = [neuberg(m, actual=3, expected=6) for m in case["input"]["raw_mp"]]
    assert adj == [Decimal(x) for x in case["expected"]["neuberg_mp"]]


def test_board_with_artificial_score_neubergs_the_rest():
    df = score_board([2, 1, None], codes=[None, None, "A-"])
    # two real results, expected three: raw 2/0 -> (2+1)*3/2-1 = 3.5, (0+1)*3/2-1 = 0.5; top 4
    assert list(df["ns_mp"]) == [Decimal("3.5"), Decimal("0.5"), Decimal("1.6")]
    assert list(df["ew_mp"]) == [Decimal("0.5"), Decimal("3.5"), Decimal("2.4")]
    assert df["top"].iloc[0] == 4


def test_score_boards_groups_by_deal():
    rows = pd.DataFrame({
        "round": [1, 1, 1, 1], "board": [1, 1, 2, 2], "ns": [1, 3, 1, 3], "ew": [2, 4, 2, 4],
        "ns_score": [2, -1, 1, 1]})
    out = score_boards(rows, board_keys=("round", "board"))
    assert list(out["ns_mp"]) == [2, 0, 1, 1]
    assert list(out["ew_mp"]) == [0, 2, 1, 1]
    assert list(out["top"]) == [2, 2, 2, 2]


def test_score_boards_neuberg_when_board_missing_at_one_table():
    rows = pd.DataFrame({
        "round": [1] * 5, "board": [1, 1, 1, 2, 2], "ns": [1, 3, 5, 1, 3], "ew": [2, 4, 6, 2, 4],
        "ns_score": [1, 2, 3, 1, 2]})
    out = score_boards(rows, board_keys=("round", "board"))
    # board 2 was played at 2 of the 3 tables: raw 0/2 -> (0+1)*3/2-1=0.5, (2+1)*3/2-1=3.5
    assert list(out["ns_mp"].iloc[3:]) == [Decimal("0.5"), Decimal("3.5")]
    assert out["top"].iloc[3] == 4
