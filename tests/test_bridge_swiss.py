"""Swiss "高分对高分" pairing: round 1 by number with same-unit teams first, later rounds by score
with backtracking, byes, late entrants and invariants over many random events."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal

import pandas as pd
import pytest

from bianpai.engines.bridge import carry_over, vp
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.swiss import (
    SwissEntrant, byes_from_rounds, history_from_rounds, standing_order, swiss_pairings)


def pairs_of(df: pd.DataFrame) -> list[tuple[int, int | None]]:
    return [(int(h), None if pd.isna(a) else int(a)) for h, a in zip(df["home"], df["away"])]


def test_round_one_numbers_and_bye():
    df = swiss_pairings([{"team": i} for i in range(1, 8)], round_no=1)
    assert pairs_of(df) == [(1, 2), (3, 4), (5, 6), (7, None)]
    assert list(df["table"]) == [1, 2, 3, 4]
    assert str(df["away"].dtype) == "Int64" and str(df["table"].dtype) == "int64"


def test_round_one_same_unit_first():
    units = {1: "福州", 2: "厦门", 3: "福州", 4: "泉州", 5: "厦门", 6: None, 7: "福州", 8: None}
    df = swiss_pairings([{"team": t, "unit": u} for t, u in units.items()], round_no=1)
    # 福州 1-3 (7 left over), 厦门 2-5; rest 4, 6, 7, 8 by number: 4-6, 7-8
    assert pairs_of(df) == [(1, 3), (2, 5), (4, 6), (7, 8)]


def test_round_one_bye_taken_before_unit_pairing():
    units = {1: "A", 2: "B", 3: "A", 4: "B", 5: "A"}
    df = swiss_pairings([{"team": t, "unit": u} for t, u in units.items()], round_no=1)
    assert pairs_of(df) == [(1, 3), (2, 4), (5, None)]


def test_later_round_high_against_high_and_home_first():
    es = [SwissEntrant(team=t, total=Decimal(v)) for t, v in
          [(1, "10.00"), (2, "15.50"), (3, "4.50"), (4, "15.50"), (5, "12.00"), (6, "8.00")]]
    # tie 2/4 on total: by number without previous rank
    assert standing_order(es) == [2, 4, 5, 1, 6, 3]
    df = swiss_pairings(es, {frozenset((2, 4))}, round_no=2)
    assert pairs_of(df) == [(2, 5), (4, 1), (6, 3)]
    assert df.attrs["backtracks"] == 0


def test_previous_stage_rank_breaks_equal_totals():
    es = [SwissEntrant(team=1, total=Decimal("5"), prev_rank=12),
          SwissEntrant(team=2, total=Decimal("5"), prev_rank=9),
          SwissEntrant(team=3, total=Decimal("5")),
          SwissEntrant(team=4, total=Decimal("6"), prev_rank=20)]
    assert standing_order(es) == [4, 2, 1, 3]


def greedy(order, met):
    """Plain greedy (no look-ahead): returns None when it gets stuck."""
    rest = list(order)
    out = []
    while rest:
        top = rest.pop(0)
        for i, o in enumerate(rest):
            if frozenset((top, o)) not in met:
                out.append((top, rest.pop(i)))
                break
        else:
            return None
    return out


def test_backtracking_where_greedy_fails():
    # Order 1..6. Greedy: 1-2 then 3-4, which leaves 5-6 (already met) -> stuck.
    es = [SwissEntrant(team=t, total=Decimal(100 - t)) for t in range(1, 7)]
    met = {frozenset((5, 6)), frozenset((1, 3)), frozenset((2, 4))}
    assert greedy([1, 2, 3, 4, 5, 6], met) is None
    df = swiss_pairings(es, met, round_no=3)
    assert pairs_of(df) == [(1, 2), (3, 5), (4, 6)]
    assert df.attrs["backtracks"] >= 1


def test_backtracking_reaches_the_top_team():
    # Top team must give up its first choice: 3-4 already met, so 1-2 would strand 3 and 4.
    es = [SwissEntrant(team=t, total=Decimal(10 - t)) for t in range(1, 5)]
    met = {frozenset((3, 4))}
    assert greedy([1, 2, 3, 4], met) is None
    df = swiss_pairings(es, met, round_no=2)
    assert pairs_of(df) == [(1, 3), (2, 4)]


def test_no_rematch_free_pairing_raises_rule_error():
    es = [SwissEntrant(team=t) for t in range(1, 5)]
    met = {frozenset(p) for p in [(1, 2), (1, 3), (1, 4)]}
    with pytest.raises(RuleError) as ei:
        swiss_pairings(es, met, round_no=4)
    assert "无法" in ei.value.zh and "rematch" in ei.value.en


def test_bye_goes_to_lowest_without_bye_and_only_once():
    es = [SwissEntrant(team=t, total=Decimal(10 - t), had_bye=(t == 5)) for t in range(1, 6)]
    df = swiss_pairings(es, set(), round_no=2)
    assert pairs_of(df)[-1] == (4, None)  # 5 already had its bye
    es_all = [SwissEntrant(team=t, had_bye=True) for t in range(1, 4)]
    with pytest.raises(RuleError):
        swiss_pairings(es_all, set(), round_no=3)


def test_bye_moves_up_when_the_rest_cannot_be_paired():
    # 5 is lowest; without 5, teams 1-4 would need 1-? ... make 1 have met 2, 3 and 4.
    es = [SwissEntrant(team=t, total=Decimal(10 - t)) for t in range(1, 6)]
    met = {frozenset((1, 2)), frozenset((1, 3)), frozenset((1, 4))}
    df = swiss_pairings(es, met, round_no=4)
    pairs = pairs_of(df)
    assert (1, 5) in pairs and pairs[-1][1] is None and pairs[-1][0] != 5


def test_by_score_first_round_for_consolation_stage():
    es = [SwissEntrant(team=t, total=carry_over(v, "0.25"), unit="A")
          for t, v in [(9, "60.00"), (10, "70.10"), (11, "50.00"), (12, "55.00")]]
    df = swiss_pairings(es, round_no=1, by_number=False)
    assert pairs_of(df) == [(10, 9), (12, 11)]


def test_duplicate_team_is_input_error():
    with pytest.raises(InputError):
        swiss_pairings([{"team": 1}, {"team": 1}], round_no=1)


def test_dataframe_input_and_history_helpers():
    df_in = pd.DataFrame({"team": [1, 2, 3], "unit": ["x", None, float("nan")],
                          "total": ["1.5", 2, None], "had_bye": [None, True, False]})
    r1 = swiss_pairings(df_in, round_no=2)
    assert history_from_rounds([r1]) == {frozenset(p) for p in pairs_of(r1) if p[1] is not None}
    assert byes_from_rounds([r1]) == {3}


# ------------------------------------------------------------------ random-event invariants

def simulate(n_teams: int, rounds: int, rng: random.Random, *, late: dict | None = None):
    """Run a Swiss stage with random 8-board results; returns per-round frames and units."""
    units = {t: rng.choice(["A", "B", "C", "D", None, None]) for t in range(1, n_teams + 1)}
    totals = {t: Decimal("0.00") for t in units}
    late = late or {}
    had_bye: set[int] = set()
    met: set[frozenset[int]] = set()
    frames = []
    for r in range(1, rounds + 1):
        for t, (join_round, start) in late.items():
            if join_round == r:
                totals[t] = start
        active = [t for t in totals if not (t in late and late[t][0] > r)]
        es = [SwissEntrant(team=t, unit=units.get(t), total=totals[t], had_bye=t in had_bye)
              for t in active]
        df = swiss_pairings(es, met, r)
        frames.append((r, active, df))
        for h, a in pairs_of(df):
            if a is None:
                had_bye.add(h)
                totals[h] += Decimal("12.00")
                continue
            met.add(frozenset((h, a)))
            hv, av = vp(rng.randint(-45, 45), 8)
            totals[h] += hv
            totals[a] += av
    return frames, units


@pytest.mark.parametrize("seed", range(60))
def test_swiss_invariants_random_events(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 24)
    rounds = min(6, max(1, n // 2))
    frames, units = simulate(n, rounds, rng)
    seen: set[frozenset[int]] = set()
    byes: list[int] = []
    for r, active, df in frames:
        teams = [t for p in pairs_of(df) for t in p if t is not None]
        assert sorted(teams) == sorted(active)  # everyone exactly once
        assert list(df["table"]) == list(range(1, len(df) + 1))
        for h, a in pairs_of(df):
            if a is None:
                byes.append(h)
                continue
            assert frozenset((h, a)) not in seen  # no rematch within the stage
            seen.add(frozenset((h, a)))
        if r == 1:
            # same-unit teams meet in round 1 whenever the unit has a partner left
            ones = {t for t, u in units.items() if u is not None}
            bye1 = [h for h, a in pairs_of(df) if a is None]
            unit_pairs = sum(1 for h, a in pairs_of(df)
                             if a is not None and units[h] is not None and units[h] == units[a])
            counts: dict[str, int] = {}
            for t in ones - set(bye1):
                counts[units[t]] = counts.get(units[t], 0) + 1
            assert unit_pairs == sum(c // 2 for c in counts.values())
    assert len(byes) == len(set(byes))  # at most one bye per team
    if n % 2:
        assert byes and byes[0] == n  # round 1: highest number sits out


def test_late_entrants_join_at_round_three():
    rng = random.Random(5)
    # 12 consolation teams from round 1, 4 QF losers join at round 3 with 25 % + 24 VP
    qf_losers = {101: "70.10", 102: "80.00", 103: "75.55", 104: "66.66"}
    late = {t: (3, carry_over(v, "0.25", 24)) for t, v in qf_losers.items()}
    assert late[101][1] == Decimal("41.53")
    frames, _ = simulate(12, 6, rng, late=late)
    for r, active, df in frames:
        present = {t for p in pairs_of(df) for t in p if t is not None}
        if r < 3:
            assert not present & set(qf_losers)
        else:
            assert set(qf_losers) <= present
    # in round 3, the QF losers (41+ VP) are among the top placed teams
    _r, _a, df3 = frames[2]
    top_tables = {t for p in pairs_of(df3)[:3] for t in p if t is not None}
    assert len(top_tables & set(qf_losers)) >= 2


def test_odd_field_uses_brute_force_check_when_impossible():
    # 3 teams, all pairs met: whatever the bye, no pairing -> RuleError
    es = [SwissEntrant(team=t) for t in (1, 2, 3)]
    met = {frozenset(p) for p in itertools.combinations((1, 2, 3), 2)}
    with pytest.raises(RuleError):
        swiss_pairings(es, met, round_no=3)
