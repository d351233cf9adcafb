"""Knockout: standard seed positions (brackets corpus), the Fujian 8-team knockout, ties, places."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.knockout import (
    DEFAULT_KO_TIE_CHAIN, KO_TIE_BREAKS, bracket, decide_match, knockout8, knockout_places,
    register_ko_tie_break, seed_slots)

CASES = {c["id"]: c for c in json.loads(
    (Path(__file__).parent / "data" / "brackets" / "brackets_cases.json")
    .read_text(encoding="utf-8"))["cases"]}


def _pairs(df):
    return [[int(t), None if pd.isna(b) else int(b)] for t, b in zip(df["top"], df["bottom"])]


@pytest.mark.parametrize("cid", ["seed-positions-8", "seed-positions-16", "seed-positions-32"])
def test_seed_positions_against_corpus(cid):
    case = CASES[cid]
    size = case["input"]["bracket_size"]
    assert seed_slots(size) == case["expected"]["slot_order"]
    assert _pairs(bracket(case["input"]["entrants"], size)) == case["expected"]["pairs"]


@pytest.mark.parametrize("cid", ["byes-12-of-16", "byes-5-of-8"])
def test_byes_against_corpus(cid):
    case = CASES[cid]
    df = bracket(case["input"]["entrants"], case["input"]["bracket_size"])
    assert _pairs(df) == case["expected"]["pairs"]
    assert sorted(int(t) for t, b in zip(df["top"], df["bottom"]) if pd.isna(b)) == \
        case["expected"]["bye_seeds"]
    assert int(df["bottom"].notna().sum()) == case["expected"]["first_round_matches_played"]


def test_bracket_default_size_and_errors():
    assert len(bracket(5)) == 4 and len(bracket(9)) == 8
    assert list(bracket(8)["half"]) == ["上半区", "上半区", "下半区", "下半区"]
    with pytest.raises(InputError):
        bracket(1)
    with pytest.raises(InputError):
        seed_slots(12)
    with pytest.raises(InputError):
        bracket(9, 8)


TEAMS = [11, 12, 13, 14, 15, 16, 17, 18]  # stage-1 places 1..8


def test_knockout8_quarter_finals_and_halves():
    ko = knockout8(TEAMS)
    qf = ko[ko["match"].str.startswith("QF")]
    assert [(int(h), int(a)) for h, a in zip(qf["home"], qf["away"])] == \
        [(11, 18), (14, 15), (12, 17), (13, 16)]
    assert list(qf["half"]) == ["上半区", "上半区", "下半区", "下半区"]
    # seat choice per 六（五）2: session 1 the away team, session 2 the home team
    assert list(qf["seat_choice_s1"]) == list(qf["away"])
    assert list(qf["seat_choice_s2"]) == list(qf["home"])
    assert ko.loc[ko["match"] == "SF1", "home"].isna().all()


RESULTS = {"QF1": (40, 30), "QF2": (20, 20), "QF3": (10, 50), "QF4": (33, 34),
           "SF1": (5, 30), "SF2": (22, 22), "F": (50, 10), "3RD": (1, 0)}


def test_knockout8_full_run_and_places():
    ko = knockout8(TEAMS, RESULTS)
    row = {r["match"]: r for r in ko.to_dict("records")}
    assert row["QF2"]["winner"] == 14  # tie 20:20, stage place 4 beats 5, no extra boards
    assert "第一阶段名次在前者胜" in row["QF2"]["说明"]
    assert (row["SF1"]["home"], row["SF1"]["away"]) == (11, 14)
    # SF2 = W(QF3)=17 (place 7) v W(QF4)=16 (place 6): the better place is home
    assert (row["SF2"]["home"], row["SF2"]["away"]) == (16, 17)
    assert row["SF2"]["winner"] == 16
    assert (row["F"]["home"], row["F"]["away"]) == (14, 16)
    assert (row["3RD"]["home"], row["3RD"]["away"]) == (11, 17)
    places = knockout_places(ko)
    top4 = places[places["group"] == "1-4"]
    assert list(zip(top4["team"], top4["place"])) == [(14, 1), (16, 2), (11, 3), (17, 4)]
    assert set(places.loc[places["group"] == "QF负队", "team"]) == {18, 15, 12, 13}
    assert places.loc[places["group"] == "QF负队", "place"].isna().all()


def test_places_need_all_results():
    ko = knockout8(TEAMS, {k: v for k, v in RESULTS.items() if k != "F"})
    with pytest.raises(RuleError):
        knockout_places(ko)


def test_result_for_undetermined_match_is_rejected():
    with pytest.raises(InputError):
        knockout8(TEAMS, {"SF1": (10, 0)})
    with pytest.raises(InputError):
        knockout8(TEAMS[:7])


def test_decide_match_tie_chain_variants():
    places = {1: 3, 2: 6}
    d = decide_match(2, 1, 30, 30, stage_place=places)
    assert d.winner == 1 and d.criterion == "stage_place"
    # generic default: extra boards; undecided until they are entered
    d = decide_match(1, 2, 30, 30, tie_chain=DEFAULT_KO_TIE_CHAIN, stage_place=places)
    assert not d.decided and "加赛" in d.zh
    d = decide_match(1, 2, 30, 30, tie_chain=DEFAULT_KO_TIE_CHAIN, extra_imps=(3, 7))
    assert d.winner == 2 and d.criterion == "extra_boards"
    # extra boards tied too, then the stage place
    d = decide_match(1, 2, 30, 30, tie_chain=("extra_boards", "stage_place"),
                     extra_imps=(4, 4), stage_place=places)
    assert d.winner == 1
    with pytest.raises(RuleError):
        decide_match(1, 2, 0, 0, tie_chain=("nope",))


def test_custom_ko_tie_break_registry():
    def second_session(home, away, ctx):
        h, a = ctx["session2"]
        if h == a:
            return None, "", ""
        return (home if h > a else away), "第二节IMP多者胜", "more IMPs in session 2"
    register_ko_tie_break("second_session_test", second_session)
    try:
        d = decide_match(5, 6, 40, 40, tie_chain=("second_session_test", "stage_place"),
                         stage_place={5: 1, 6: 2}, session2=(10, 25))
        assert d.winner == 6 and d.criterion == "second_session_test"
    finally:
        KO_TIE_BREAKS.pop("second_session_test")


def test_final_ranking_combines_knockout_and_consolation():
    from bianpai.engines.knockout import final_ranking
    places = knockout_places(knockout8(TEAMS, RESULTS))
    consolation = pd.DataFrame({"team": [15, 21, 12, 18, 22, 13, 20]})
    fr = final_ranking(places, consolation)
    assert list(fr["team"]) == [14, 16, 11, 17, 15, 21, 12, 18, 22, 13, 20]
    assert list(fr["place"]) == list(range(1, 12))
    assert list(fr["source"][:4]) == ["淘汰赛"] * 4
    with pytest.raises(InputError):
        final_ranking(places, pd.DataFrame({"team": [15, 21, 12]}))  # 13 and 18 missing
    with pytest.raises(InputError):
        final_ranking(places, pd.DataFrame({"team": [14, 15, 12, 18, 13]}))
