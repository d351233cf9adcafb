"""Bracket benchmark, run on demand: ``python bench/brackets.py``.

A 512-entry CBSA-2022-like event through the engines only (no workbook): qualifier flights
(十六（二）1: 4 flights of 128 single elimination, race to 9, stopping at 16/16/32/32 → 96), main
event stage 1 (112 qualifiers + 16 direct seeds snaked into 16 double-elimination groups of 8,
4 qualify), stage 2 (64, seeded by 胜率, races 13/21/41, third-place match), plus one 512-entrant
single elimination played to the final. Every result is scored by ``FramesRace``. Prints one
table: step, matches, best-of-3 wall time. Target: each button (one round's draw, placings, a
bracket sheet) well under 1 s.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

from bianpai.engines.core import StageEntrant, StageState
from bianpai.engines.elimination import (DoubleEliminationGroups, SingleElimination,
                                         bracket_table, draw_into_pools, stage2_seeding)
from bianpai.engines.knockout_scoring import FramesRace


def play(fmt, state, rng, timings, name):
    """Draw and score every round; record the slowest single draw."""
    scoring = FramesRace()
    slowest, n = 0.0, 0
    while not fmt.finished(state):
        t0 = time.perf_counter()
        ms = fmt.next_round(state, rng)
        slowest = max(slowest, time.perf_counter() - t0)
        state.matches.extend(ms)
        for m in ms:
            if m.is_bye:
                continue
            race = fmt.race_for(m, state) or 9
            w = rng.randrange(2)
            fr = [0, 0]
            fr[w], fr[1 - w] = race, rng.randrange(race)
            games = pd.DataFrame([{"frames_0": fr[0], "frames_1": fr[1], "race": race}])
            state.results[m.key] = scoring.score(m, games)
            n += 1
    timings.append((f"{name}: slowest next_round", n, slowest))
    return state


def timed(fn, repeat=3):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def run_event(seed: int = 1) -> list[tuple[str, int, float]]:
    rng = random.Random(seed)
    timings: list[tuple[str, int, float]] = []
    # qualifiers
    qualified: list[int] = []
    t_all = time.perf_counter()
    for flight, stop in enumerate((16, 16, 32, 32)):
        ents = [StageEntrant(1000 + 128 * flight + i) for i in range(128)]
        fmt = SingleElimination(seeding="drawn", stop_when_remaining=stop, races=[9])
        st = play(fmt, StageState(ents, seed=seed + flight), rng, timings, f"资格赛第{flight + 1}场")
        pl = fmt.placings(st)
        qualified += pl[pl["decided_by"] == "出线"]["entrant"].tolist()
    qualified += list(range(2001, 2017))  # 16 women's qualifiers (not simulated)
    # stage 1: 16 seeds into slot 1 of 16 groups
    pools = [chr(65 + i) for i in range(16)]
    ents = draw_into_pools(list(range(1, 17)), qualified, pools, 8, random.Random(seed))
    de = DoubleEliminationGroups(races=[9])
    st1 = play(de, StageState(ents, seed=seed), rng, timings, "正赛第一阶段")
    t, pl1 = timed(lambda: de.placings(st1))
    timings.append(("第一阶段 placings", len(st1.matches), t))
    # stage 2
    wins = pl1[pl1["bracket_side"] == "winners"]["entrant"].tolist()
    loss = pl1[pl1["bracket_side"] == "losers"]["entrant"].tolist()
    t, ents2 = timed(lambda: stage2_seeding(wins, loss, st1.results.values(), random.Random(seed)))
    timings.append(("stage2_seeding (胜率)", 64, t))
    se = SingleElimination(third_place=True, races_from_final=[41, 21, 13], third_place_race=21)
    st2 = play(se, StageState(ents2, seed=seed), rng, timings, "正赛第二阶段")
    t, _ = timed(lambda: se.placings(st2))
    timings.append(("第二阶段 placings", len(st2.matches), t))
    t, table = timed(lambda: bracket_table(st2, se))
    timings.append(("第二阶段 bracket_table", len(table), t))
    from bianpai.workbooks.bracket_picture import render_bracket
    with tempfile.TemporaryDirectory() as d:
        t, _ = timed(lambda: render_bracket(table, Path(d) / "b.png"), repeat=1)
        timings.append(("第二阶段 PNG", len(table), t))
    timings.append(("whole event (engines)", 0, time.perf_counter() - t_all))
    # one 512 knockout to the final
    ents = [StageEntrant(i) for i in range(1, 513)]
    fmt = SingleElimination(seeding="drawn", races=[9])
    t0 = time.perf_counter()
    st = play(fmt, StageState(ents, seed=seed), rng, timings, "512 单败淘汰")
    timings.append(("512 单败淘汰 whole run", len(st.matches), time.perf_counter() - t0))
    t, _ = timed(lambda: fmt.placings(st))
    timings.append(("512 placings", 512, t))
    t, table = timed(lambda: bracket_table(st, fmt))
    timings.append(("512 bracket_table", len(table), t))
    return timings


def main() -> None:
    table = Table(title="Brackets (engines only)")
    for c in ("step", "matches/rows", "seconds"):
        table.add_column(c)
    for name, n, t in run_event():
        table.add_row(name, str(n), f"{t:.3f}")
    Console().print(table)


if __name__ == "__main__":
    main()
