import itertools
import json

import pytest

from bianpai.engines.errors import RuleError
from bianpai.engines.round_robin import berger_rounds, round_robin_schedule
from tests.conftest import DATA

CORPUS = json.loads((DATA / "berger" / "berger_fide_3_16.json").read_text())


@pytest.mark.parametrize("n", range(3, 17))
def test_berger_matches_fide_tables(n):
    expected = [[(a, b) for a, b in rnd] for rnd in CORPUS[str(n)]]
    assert berger_rounds(n) == expected


@pytest.mark.parametrize("n", range(2, 21))
def test_every_pair_meets_once(n):
    sched = round_robin_schedule(n)
    real = sched.dropna(subset=["away"])
    pairs = [frozenset((int(a), int(b))) for a, b in zip(real.home, real.away)]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for _, rnd in sched.groupby("round"):
        players = list(rnd.home) + [int(x) for x in rnd.away.dropna()]
        assert sorted(players) == list(range(1, n + 1))


def test_spot_rows_eight():
    sched = round_robin_schedule(8)
    r2 = sched[sched["round"] == 2]
    assert list(zip(r2.home, r2.away)) == [(8, 5), (6, 4), (7, 3), (1, 2)]


def test_odd_bye_listed_last_in_schedule():
    sched = round_robin_schedule(5)
    for _, rnd in sched.groupby("round"):
        assert rnd.away.isna().sum() == 1
        assert rnd.iloc[-1]["away"] is pd_na()


def pd_na():
    import pandas as pd
    return pd.NA


def test_double_round_robin_reverses():
    sched = round_robin_schedule(4, cycles=2)
    first = {(h, int(a)) for h, a in zip(sched[sched["round"] <= 3].home, sched[sched["round"] <= 3].away)}
    second = {(int(a), h) for h, a in zip(sched[sched["round"] > 3].home, sched[sched["round"] > 3].away)}
    assert first == second


def test_too_many_rounds_refused():
    with pytest.raises(RuleError):
        round_robin_schedule(9, max_rounds=7)
    assert round_robin_schedule(8, max_rounds=7)["round"].max() == 7
