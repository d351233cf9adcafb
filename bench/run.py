"""Benchmarks, run on demand (not part of the test suite): ``python bench/run.py``.

Prints one table: case, size, best of N wall time, peak Python memory (tracemalloc), and the
target it is measured against. Targets are what an organizer at a laptop should feel as
"instant" (< 1 s per button) or "quick" (< 5 s for a whole event).
"""

from __future__ import annotations

import random
import tempfile
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table


def measure(fn, repeat=3):
    """Best wall time of ``repeat`` plain runs, then one traced run for peak memory (tracing
    slows Python down several times, so it is never timed)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak


def bench_berger():
    from bianpai.engines.round_robin import round_robin_schedule
    for n in range(3, 41):
        round_robin_schedule(n)


def bench_matchpoints():
    from bianpai.engines.matchpoints import score_boards
    rng = random.Random(1)
    rows = []
    for rnd in range(1, 8):
        for table in range(1, 21):
            for b in range(1, 7):
                rows.append({"round": rnd, "board": (rnd - 1) * 6 + b, "ns": table, "ew": 40 - table,
                             "ns_score": rng.choice([1, 2, 3, -1, -2, -3])})
    score_boards(pd.DataFrame(rows), board_keys=("round", "board"))


def bench_vp():
    from bianpai.engines.bridge import vp
    from bianpai.engines.bridge import vp_table
    vp_table.cache_clear() if hasattr(vp_table, "cache_clear") else None
    for boards in range(1, 65):
        for m in range(0, 130):
            vp(m, boards)


def bench_swiss():
    from bianpai.engines.swiss import SwissEntrant, swiss_pairings
    rng = random.Random(3)
    teams = [SwissEntrant(team=i, unit=f"U{i % 7}", total=Decimal(0)) for i in range(1, 101)]
    history: set = set()
    for rnd in range(1, 10):
        df = swiss_pairings(teams, history, rnd)
        for m in df.dropna(subset=["away"]).itertuples():
            history.add(frozenset((int(m.home), int(m.away))))
        totals = {t.team: t.total + Decimal(rng.randint(0, 20)) for t in teams}
        teams = [t.model_copy(update={"total": totals[t.team]}) for t in teams]


def bench_demo():
    from rich.console import Console as C
    from bianpai.addin.demo import run_demo
    with tempfile.TemporaryDirectory() as d:
        run_demo("shenzhen-guandan-pairs-2023", Path(d) / "demo.xlsx", console=C(quiet=True))


CASES = [
    ("Berger schedules", "n = 3…40", bench_berger, 0.5),
    ("Matchpoints", "40 pairs × 7 rounds × 6 boards", bench_matchpoints, 1.0),
    ("VP tables + lookups", "1…64 boards × 130 margins", bench_vp, 1.0),
    ("Swiss pairing", "100 teams × 9 rounds", bench_swiss, 5.0),
    ("bianpai demo", "Shenzhen, 16 pairs, whole event", bench_demo, 5.0),
]


def main():
    table = Table(title="bianpai benchmarks")
    for col in ("case", "size", "best (s)", "peak MiB", "target (s)", "ok"):
        table.add_column(col)
    for name, size, fn, target in CASES:
        try:
            t, peak = measure(fn)
            table.add_row(name, size, f"{t:.3f}", f"{peak / 2**20:.1f}", f"{target}",
                          "✓" if t <= target else "✗")
        except Exception as exc:  # a benchmark must not hide a broken engine
            table.add_row(name, size, "error", "", f"{target}", f"✗ {exc!r}"[:60])
    Console().print(table)


if __name__ == "__main__":
    main()
