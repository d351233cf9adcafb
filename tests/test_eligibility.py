"""Eligibility engine: each regulation's rule on both sides of its cut-off, teams, duplicates."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest
import yaml

from bianpai.engines.eligibility import (
    AgeGroups, AgeRange, BirthDateWindow, EligibilityRules, FINDING_COLUMNS, age_on,
    assign_age_group, check_roster, has_errors,
)

BLOCKS = Path(__file__).resolve().parents[1] / "templates" / "presets" / "_blocks"
D = dt.date


def rules(stem: str) -> EligibilityRules:
    data = yaml.safe_load((BLOCKS / f"{stem}.awards.yaml").read_text(encoding="utf-8"))
    return EligibilityRules.model_validate(data["eligibility"])


def roster(**cols) -> pd.DataFrame:
    n = max(len(v) for v in cols.values() if isinstance(v, list))
    cols.setdefault("name", [f"选手{i}" for i in range(n)])
    df = pd.DataFrame(cols)
    df.index = range(2, 2 + n)   # worksheet rows
    return df


def codes(findings: pd.DataFrame, row) -> set[str]:
    return set(findings.loc[findings["row"] == row, "code"])


def sev(findings: pd.DataFrame, row) -> set[str]:
    return set(findings.loc[findings["row"] == row, "severity"])


def one(birth: D, **extra) -> pd.DataFrame:
    cols = {"birth_date": [birth]}
    cols.update({k: [v] for k, v in extra.items()})
    return roster(**cols)


# ------------------------------------------------------------------ ages

def test_age_on():
    assert age_on(D(2006, 5, 31), D(2024, 5, 31)) == 18
    assert age_on(D(2006, 6, 1), D(2024, 5, 31)) == 17
    assert age_on(D(2008, 2, 29), D(2026, 2, 28)) == 17
    assert age_on(D(2008, 2, 29), D(2026, 3, 1)) == 18
    assert age_on(D(1966, 12, 31), D(2024, 5, 10), "calendar_year") == 58


# ------------------------------------------------------------------ shenzhen window

SZ_DAY = D(2023, 9, 19)


@pytest.mark.parametrize("birth,expected", [
    # the preset reads 七（一）1 literally, as the issue states it: born strictly after
    # 1958-10-01 and strictly before 2003-10-01; the cut-off days themselves are refused
    (D(1958, 9, 30), {"born_too_early"}), (D(1958, 10, 1), {"born_too_early"}),
    (D(1958, 10, 2), set()),
    (D(2003, 9, 30), set()), (D(2003, 10, 1), {"born_too_late"}),
    (D(2003, 10, 2), {"born_too_late"}),
])
def test_shenzhen_birth_window(birth, expected):
    f = check_roster(one(birth), rules("shenzhen-guandan-pairs-2023"), event_date=SZ_DAY)
    assert codes(f, 2) == expected
    if expected == {"boundary_day"}:
        assert sev(f, 2) == {"warning"}
    if expected & {"born_too_early", "born_too_late"}:
        assert sev(f, 2) == {"error"}


@pytest.mark.parametrize("birth,blocked", [(D(1958, 10, 1), True), (D(2003, 10, 1), True),
                                           (D(1958, 10, 2), False), (D(2003, 9, 30), False)])
def test_shenzhen_strict_reading(birth, blocked):
    w = BirthDateWindow(born_after=D(1958, 10, 1), born_before=D(2003, 10, 1))
    f = check_roster(one(birth), EligibilityRules(birth_windows=[w]), event_date=SZ_DAY)
    assert has_errors(f) == blocked


def test_shenzhen_pairs_gender_composition():
    r = roster(gender=["男", "女", "男", "男", "女", "女", "男", "男"],
               birth_date=[D(1980, 1, 1)] * 8,
               event=["混合双人赛"] * 2 + ["混合双人赛"] * 2 + ["女子双人赛"] * 2 + ["男子双人赛"] * 2,
               team=["A", "A", "B", "B", "C", "C", "D", "D"])
    f = check_roster(r, rules("shenzhen-guandan-pairs-2023"), event_date=SZ_DAY)
    assert list(f.loc[f["code"] == "team_gender", "row"]) == [4]
    assert not has_errors(f.drop(f.index[f["code"] == "team_gender"]))


# ------------------------------------------------------------------ fujian ages by gender

FJ_DAY = D(2024, 5, 10)


@pytest.mark.parametrize("gender,birth,ok", [
    ("男", D(1966, 5, 9), True), ("男", D(1966, 5, 10), True), ("男", D(1966, 5, 11), False),
    ("男", D(1951, 5, 9), False), ("男", D(1951, 5, 10), False), ("男", D(1951, 5, 11), True),
    ("女", D(1971, 5, 9), True), ("女", D(1971, 5, 10), True), ("女", D(1971, 5, 11), False),
    ("女", D(1951, 5, 9), False), ("女", D(1951, 5, 10), False), ("女", D(1951, 5, 11), True),
    ("男", D(1969, 1, 1), False), ("女", D(1969, 1, 1), True),      # 55: woman yes, man no
])
def test_fujian_age_by_gender(gender, birth, ok):
    f = check_roster(one(birth, gender=gender), rules("fujian-elder-mind-games-2024"),
                     event_date=FJ_DAY)
    assert (not has_errors(f)) == ok
    if not ok:
        assert codes(f, 2) <= {"age_below_min", "age_above_max"}


def test_fujian_calendar_year_reading():
    r = AgeRange(gender="M", min_age=58, max_age=72, basis="calendar_year")
    e = EligibilityRules(age_ranges=[r])
    assert not has_errors(check_roster(one(D(1966, 12, 31), gender="男"), e, event_date=FJ_DAY))
    assert has_errors(check_roster(one(D(1967, 1, 1), gender="男"), e, event_date=FJ_DAY))


def test_fujian_gender_blank_is_an_error_and_required():
    f = check_roster(one(D(1960, 1, 1), gender=None), rules("fujian-elder-mind-games-2024"),
                     event_date=FJ_DAY)
    assert "missing_value" in codes(f, 2)


def test_fujian_one_event_one_unit_staff_exempt():
    r = roster(name=["甲", "甲", "乙", "乙", "丙", "丙"],
               gender=["男"] * 6, birth_date=[D(1960, 1, 1)] * 6,
               id_number=[None, None, None, None, None, None],
               unit=["福州", "福州", "厦门", "泉州", "福州", "福州"],
               event=["象棋", "围棋", "桥牌", "桥牌", "象棋", "围棋"],
               team=["福州象棋", "福州围棋", "厦门1队", "泉州1队", "福州象棋", "福州围棋"],
               role=["队员", "队员", "队员", "队员", "领队", "领队"])
    f = check_roster(r, rules("fujian-elder-mind-games-2024"), event_date=FJ_DAY)
    assert "multiple_events" in codes(f, 3)
    assert "multiple_units" in codes(f, 5)
    assert not (codes(f, 6) | codes(f, 7)) & {"multiple_events", "multiple_units"}


def _team(event, team, n, unit="福州", roles=None, start=0):
    roles = roles or ["队员"] * n
    return pd.DataFrame({"name": [f"{team}{i}" for i in range(start, start + n)],
                         "gender": "男", "birth_date": D(1960, 1, 1), "unit": unit,
                         "event": event, "team": team, "role": roles})


def test_fujian_team_sizes_and_unit_limits():
    df = pd.concat([
        _team("扑克牌80分", "A", 5, roles=["领队兼教练"] + ["队员"] * 4),   # leader not counted: ok
        _team("扑克牌80分", "B", 4, unit="厦门", roles=["领队兼队员"] + ["队员"] * 3),  # ok
        _team("象棋", "C", 3, unit="泉州"),                                  # too small
        _team("围棋", "D", 6, unit="漳州"),                                  # too large
        _team("象棋", "E", 4, unit="泉州", start=10),                        # 泉州 2 象棋 teams
    ], ignore_index=True)
    f = check_roster(df, rules("fujian-elder-mind-games-2024"), event_date=FJ_DAY)
    by_code = f.groupby("code")["row"].apply(list).to_dict()
    assert by_code.get("team_too_small") == [9]
    assert by_code.get("team_too_large") == [12]
    # named at the team over the limit (E, row 18), not at 泉州's first team
    assert by_code.get("unit_too_many_teams") == [18]
    assert set(f["code"]) == {"team_too_small", "team_too_large", "unit_too_many_teams"}


def test_fujian_unit_20_people():
    df = pd.concat([_team("桥牌", "A", 8), _team("象棋", "B", 5, start=20),
                    _team("围棋", "C", 5, start=40),
                    _team("围棋", "C", 2, roles=["总领队", "教练"], start=60)],
                   ignore_index=True)
    r = rules("fujian-elder-mind-games-2024")
    assert "unit_too_many_people" not in set(check_roster(df, r, event_date=FJ_DAY)["code"])
    df2 = pd.concat([df, _team("象棋", "B", 1, roles=["教练"], start=80)], ignore_index=True)
    assert "unit_too_many_people" in set(check_roster(df2, r, event_date=FJ_DAY)["code"])


# ------------------------------------------------------------------ otog age groups

OT_DAY = D(2024, 5, 31)


@pytest.mark.parametrize("birth,group,expected", [
    (D(2018, 5, 30), "围棋青少年组", set()), (D(2018, 5, 31), "围棋青少年组", set()),
    (D(2018, 6, 1), "围棋青少年组", {"age_outside_groups"}),
    (D(2006, 6, 1), "围棋青少年组", set()), (D(2006, 5, 31), "围棋青少年组", {"age_group_mismatch"}),
    (D(2006, 5, 30), "围棋成年组", set()), (D(2006, 6, 1), "围棋成年组", {"age_group_mismatch"}),
    (D(1959, 6, 1), "围棋成年组", set()), (D(1959, 5, 31), "围棋成年组", {"age_outside_groups"}),
    (D(1959, 5, 30), "围棋成年组", {"age_outside_groups"}),
])
def test_otog_age_groups(birth, group, expected):
    f = check_roster(one(birth, group=group), rules("otog-mind-games-2024"), event_date=OT_DAY)
    assert codes(f, 2) == expected


def test_otog_assign_age_group():
    r = roster(birth_date=[D(2018, 5, 31), D(2006, 6, 1), D(2006, 5, 31), D(1959, 5, 31),
                           "不详"])
    ag = rules("otog-mind-games-2024").age_groups
    s = assign_age_group(r, ag, event_date=OT_DAY)
    assert s.tolist() == ["青少年组", "青少年组", "成年组", None, None]
    assert list(s.index) == list(r.index)


def test_otog_pairs_adult_only_and_one_team():
    r = roster(birth_date=[D(2008, 1, 1), D(1990, 1, 1), D(1990, 1, 1), D(1991, 1, 1)],
               name=["少年", "甲", "甲", "乙"], event=["扑克掼蛋"] * 4,
               team=["T1", "T1", "T2", "T2"], group=["成年组"] * 4)
    f = check_roster(r, rules("otog-mind-games-2024"), event_date=OT_DAY)
    assert "age_below_min" in codes(f, 2) and "age_group_mismatch" in codes(f, 2)
    assert "multiple_teams" in codes(f, 4)


# ------------------------------------------------------------------ cbsa, qingdao

CB_DAY = D(2022, 12, 12)


@pytest.mark.parametrize("birth,expected", [
    (D(2010, 12, 11), {"needs_guardian"}), (D(2010, 12, 12), {"needs_guardian"}),
    (D(2010, 12, 13), {"age_below_min"}),
    (D(2006, 12, 11), set()), (D(2006, 12, 12), set()), (D(2006, 12, 13), {"needs_guardian"}),
    (D(1956, 12, 11), {"age_above_max"}), (D(1956, 12, 12), {"age_above_max"}),
    (D(1956, 12, 13), set()),
])
def test_cbsa_age_and_guardian(birth, expected):
    f = check_roster(one(birth), rules("cbsa-chinese-eightball-open-2022"), event_date=CB_DAY)
    got = codes(f, 2)
    assert got - {"needs_guardian"} == expected - {"needs_guardian"}
    assert ("needs_guardian" in got) == ("needs_guardian" in expected or birth > D(2006, 12, 12))
    if got == {"needs_guardian"}:
        assert sev(f, 2) == {"warning"} and not has_errors(f)


QD_DAY = D(2015, 9, 20)


@pytest.mark.parametrize("birth,ok", [(D(1959, 9, 20), False), (D(1959, 9, 19), False),
                                      (D(1959, 9, 21), True), (D(1960, 9, 20), True),
                                      (D(1960, 9, 21), True)])
def test_qingdao_max_55(birth, ok):
    f = check_roster(one(birth), rules("qingdao-gouji-2015"), event_date=QD_DAY)
    assert (not has_errors(f)) == ok


def test_qingdao_team_of_two_is_a_warning():
    r = roster(birth_date=[D(1980, 1, 1)] * 2, team=["青岛队"] * 2, event=["够级"] * 2)
    f = check_roster(r, rules("qingdao-gouji-2015"), event_date=QD_DAY)
    assert list(f["code"]) == ["team_too_small"] and not has_errors(f)


# ------------------------------------------------------------------ duplicates, IDs, input

def make_id(birth: D, male: bool, area="350102", seq="12") -> str:
    body = f"{area}{birth:%Y%m%d}{seq}{1 if male else 2}"
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(c) * k for c, k in zip(body, w)) % 11]


def test_id_number_checks():
    good = make_id(D(1960, 3, 4), True)
    bad_check = good[:-1] + ("0" if good[-1] != "0" else "1")
    r = roster(name=["甲", "乙", "丙", "丁"], gender=["男", "男", "女", "男"],
               birth_date=[D(1960, 3, 4), D(1960, 3, 4), D(1960, 3, 4), D(1960, 3, 5)],
               id_number=[good, bad_check, make_id(D(1960, 3, 4), True, seq="34"),
                          make_id(D(1960, 3, 4), True, seq="56")])
    f = check_roster(r, EligibilityRules(), event_date=FJ_DAY)
    assert codes(f, 2) == set()
    assert codes(f, 3) == {"id_checksum"}
    assert codes(f, 4) == {"id_gender_mismatch"}
    assert codes(f, 5) == {"id_birth_mismatch"}


def test_id_numbers_of_the_wrong_length_and_those_excel_stored_as_numbers():
    """Trial users: a 17-digit 证件号 passed without a word; an ID typed into a General cell is a
    number Excel keeps 15 digits of (…000), which read as a mere bad check digit."""
    good = make_id(D(1960, 3, 4), True)
    as_number = str(int(float(good)))[:15] + "000"
    r = roster(name=["甲", "乙", "丙", "丁", "戊"], gender=["男"] * 5,
               birth_date=[D(1960, 3, 4)] * 5,
               id_number=[good[:17], as_number, "E12345678", "350102600304123", good + "1"])
    f = check_roster(r, EligibilityRules(), event_date=FJ_DAY)
    assert codes(f, 2) == {"id_length"} and codes(f, 6) == {"id_length"}
    assert codes(f, 4) == set() and codes(f, 5) == set()  # a passport; a 15-digit old ID
    msg = f[(f["row"] == 3) & (f["code"] == "id_checksum")]["message_zh"].iloc[0]
    assert "Excel 把它存成了数字" in msg
    assert "17 位" in f[f["row"] == 2]["message_zh"].iloc[0]


def test_duplicates_by_id_and_by_name_birth():
    i = make_id(D(1970, 1, 1), False)
    r = roster(name=["甲", "甲", "乙", "丙", "乙"], birth_date=[D(1970, 1, 1)] * 5,
               id_number=[i, i, None, None, None], event=["围棋"] * 4 + ["象棋"])
    f = check_roster(r, EligibilityRules(), event_date=OT_DAY)
    assert "duplicate_id" in codes(f, 3)
    assert codes(f, 4) == set() and codes(f, 6) == set()   # 乙 in another event: no duplicate
    r2 = roster(name=["乙", "乙"], birth_date=["1970-01-01", "1970/1/1"])
    f2 = check_roster(r2, EligibilityRules(), event_date=OT_DAY)
    assert codes(f2, 3) == {"duplicate_name_birth"}


def test_bad_and_missing_values_are_findings():
    r = roster(name=["甲", None, "丙"], birth_date=["1970-13-01", "1970-01-01", 25569],
               gender=["男", "X", "女"])
    f = check_roster(r, rules("qingdao-gouji-2015"), event_date=QD_DAY)
    assert list(f.columns) == FINDING_COLUMNS
    assert "bad_date" in codes(f, 2)
    assert {"missing_value", "bad_gender"} <= codes(f, 3)
    assert codes(f, 4) == set()     # Excel serial 25569 = 1970-01-01, aged 45


def test_missing_optional_columns_skip_checks():
    r = pd.DataFrame({"name": ["甲", "乙"], "birth_date": [D(1960, 1, 1), D(1950, 1, 1)]})
    f = check_roster(r, rules("fujian-elder-mind-games-2024"), event_date=FJ_DAY)
    # no gender column: the gender-specific ages cannot be checked, the required column is missing
    assert list(f["code"]) == ["missing_column"]
    f = check_roster(pd.DataFrame({"name": ["甲"]}), rules("otog-mind-games-2024"),
                     event_date=OT_DAY)
    assert "missing_column" in set(f["code"])


def test_age_groups_model_band_for():
    ag = AgeGroups(bands=[{"name": "少儿", "min_age": 6, "below_age": 12},
                          {"name": "公开", "min_age": 12}])
    assert ag.band_for(5) is None and ag.band_for(11).name == "少儿"
    assert ag.band_for(99).name == "公开"


def test_a_birth_date_after_the_event_is_an_error_under_a_max_age_only_rule():
    """Found by a trial tester: gouji's ≤55 rule took 2090-01-01 (a negative age). A birth date
    after the event (today when the event has no date) is an error whatever the rules; the
    day of the event itself is not."""
    e = EligibilityRules(age_ranges=[AgeRange(max_age=55)])
    f = check_roster(one(D(2090, 1, 1)), e, event_date=D(2015, 9, 1))
    assert has_errors(f) and codes(f, 2) == {"born_after_event"}
    assert not has_errors(check_roster(one(D(1990, 1, 1)), e, event_date=D(2015, 9, 1)))
    assert codes(check_roster(one(D(2015, 9, 2)), EligibilityRules(),
                              event_date=D(2015, 9, 1)), 2) == {"born_after_event"}
    assert not has_errors(check_roster(one(D(2015, 9, 1)), EligibilityRules(),
                                       event_date=D(2015, 9, 1)))
    assert has_errors(check_roster(one(dt.date.today() + dt.timedelta(days=1)),
                                   EligibilityRules(), event_date=None))
