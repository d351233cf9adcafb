"""The Fujian 2024 bridge team flow on engines only: 20 teams, 6-round Swiss, 8-team knockout,
6-round consolation Swiss with 25 % carry-over and the QF losers entering at round 3 with +24 VP."""

from __future__ import annotations

import random
from decimal import Decimal

import pandas as pd

from bianpai.engines.bridge import carry_over, vp
from bianpai.engines.knockout import final_ranking, knockout8, knockout_places
from bianpai.engines.swiss import SwissEntrant, swiss_pairings
from bianpai.engines.team_standings import team_standings

BYE_VP = Decimal("12.00")


def play_swiss(teams, units, rounds, rng, *, carry=None, late=None, by_number_first=True):
    carry = dict(carry or {})
    late = dict(late or {})  # team -> (join round, carry-over)
    results = []
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for r in range(1, rounds + 1):
        for t, (jr, c) in late.items():
            if jr == r:
                carry[t] = c
        active = list(teams) + [t for t, (jr, _) in late.items() if jr <= r]
        current = team_standings(pd.DataFrame(results) if results else
                                 pd.DataFrame(columns=["home", "away", "home_vp", "away_vp"]),
                                 teams=active, carry_over=carry, tie_chain=["vp"])
        total = dict(zip(current["team"], current["total"]))
        es = [SwissEntrant(team=t, unit=units.get(t), total=total[t], had_bye=t in byes)
              for t in active]
        df = swiss_pairings(es, met, r, by_number=(r == 1 and by_number_first))
        for h, a in zip(df["home"], df["away"]):
            if pd.isna(a):
                byes.add(int(h))
                results.append(dict(home=int(h), away=pd.NA, home_imps=0, away_imps=0,
                                    home_vp=BYE_VP, away_vp=None))
                continue
            hi, ai = rng.randint(0, 50), rng.randint(0, 50)
            hv, av = vp(hi - ai, 8)
            met.add(frozenset((int(h), int(a))))
            results.append(dict(home=int(h), away=int(a), home_imps=hi, away_imps=ai,
                                home_vp=hv, away_vp=av))
    res = pd.DataFrame(results)
    res["away"] = res["away"].astype("Int64")
    all_teams = list(teams) + list(late)
    return res, team_standings(res, teams=all_teams, carry_over=carry, seed=2024)


def test_fujian_flow_20_teams():
    rng = random.Random(20240509)
    teams = list(range(1, 21))
    units = {t: f"U{(t - 1) // 2 % 7}" if t <= 14 else None for t in teams}
    _res1, st1 = play_swiss(teams, units, 6, rng)
    order1 = [int(t) for t in st1["team"]]
    stage1_vp = dict(zip(st1["team"], st1["total"]))
    assert len(order1) == 20

    ko_results = {m: (rng.randint(20, 60), rng.randint(20, 60))
                  for m in ("QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "3RD")}
    ko = knockout8(order1[:8], ko_results)
    places = knockout_places(ko)
    qf_losers = [int(t) for t in places.loc[places["group"] == "QF负队", "team"]]

    rest = order1[8:]
    carry = {t: carry_over(stage1_vp[t], "0.25") for t in rest}
    late = {t: (3, carry_over(stage1_vp[t], "0.25", 24)) for t in qf_losers}
    res2, st2 = play_swiss(rest, {}, 6, rng, carry=carry, late=late, by_number_first=False)
    # QF losers play rounds 3-6 only: 4 matches each
    for t in qf_losers:
        played = ((res2["home"] == t) | (res2["away"] == t)).sum()
        assert played == 4
        row = st2[st2["team"] == t].iloc[0]
        assert row["carry_over"] == carry_over(stage1_vp[t], "0.25", 24)
    final = final_ranking(places, st2)
    assert list(final["place"]) == list(range(1, 21))
    assert sorted(final["team"]) == teams
    assert set(final["team"][:4]) <= set(order1[:8])
