"""Benchmarks, run on demand (not part of the test suite): ``python bench/run.py``.

Prints one table: case, size, best of N wall time, peak Python memory (tracemalloc), and the
target it is measured against. Targets are what an organizer at a laptop should feel as
"instant" (< 1 s per button) or "quick" (< 5 s for a whole event).

Then a Swiss table (issue 13): one by-score round of 100 / 300 / 1,000 teams after 4 and 8 played
rounds, the pre-issue-13 search (``bench/swiss_baseline.py``: a new networkx matching per
candidate) against today's engine on the same field, with the ratio and a check that both give
the same pairing. The baseline takes minutes at 1,000 teams, so it runs only up to
``--baseline-max`` teams (default 300). ``--only swiss`` / ``--only main`` runs one table.
"""

from __future__ import annotations

import argparse
import random
import sys
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


_VP_ROWS = None


def _vp_rows():
    """100,000 matches: IMP margins −80…80 on 8…24 boards (a season of sheet rows)."""
    global _VP_ROWS
    if _VP_ROWS is None:
        rng = random.Random(11)
        _VP_ROWS = ([rng.randint(-80, 80) for _ in range(100_000)],
                    [rng.choice([8, 10, 12, 16, 20, 24]) for _ in range(100_000)])
    return _VP_ROWS


def bench_vp_rows_scalar():
    from bianpai.engines.bridge import vp
    margins, boards = _vp_rows()
    for m, b in zip(margins, boards):
        vp(m, b)


def bench_vp_rows_vectorised():
    from bianpai.engines.bridge import vp_array
    margins, boards = _vp_rows()
    vp_array(margins, boards)


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
    ("VP per row, scalar vp()", "100,000 rows", bench_vp_rows_scalar, 0.1),
    ("VP column, vp_array()", "100,000 rows", bench_vp_rows_vectorised, 0.1),
    ("Swiss pairing", "100 teams × 9 rounds", bench_swiss, 5.0),
    ("bianpai demo", "Shenzhen, 16 pairs, whole event", bench_demo, 5.0),
]


def swiss_field(n: int, played: int, seed: int = 3):
    """A Swiss field of ``n`` teams after ``played`` rounds of random 8-board results:
    ``(entrants, history)`` ready for round ``played + 1``."""
    from bianpai.engines.bridge import vp
    from bianpai.engines.swiss import SwissEntrant, swiss_pairings
    rng = random.Random(seed)
    totals = {i: Decimal("0.00") for i in range(1, n + 1)}
    had: set[int] = set()
    history: set = set()
    for rnd in range(1, played + 1):
        es = [SwissEntrant(team=t, unit=f"U{t % 7}", total=v, had_bye=t in had)
              for t, v in totals.items()]
        df = swiss_pairings(es, history, rnd)
        for h, a in zip(df["home"], df["away"]):
            if pd.isna(a):
                had.add(int(h))
                totals[int(h)] += Decimal("12.00")
                continue
            history.add(frozenset((int(h), int(a))))
            hv, av = vp(rng.randint(-40, 40), 8)
            totals[int(h)] += hv
            totals[int(a)] += av
    es = [SwissEntrant(team=t, unit=f"U{t % 7}", total=v, had_bye=t in had)
          for t, v in totals.items()]
    return es, history


def swiss_table(baseline_max: int = 300):
    """Old search vs new engine, one round of 100/300/1,000(+1) teams (target ≤ 0.3 s)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from swiss_baseline import baseline_pairing

    from bianpai.engines.swiss import standing_order, swiss_pairings
    table = Table(title="Swiss pairing, one by-score round (issue 13: ≤ 0.3 s at 1,000 teams)")
    for col in ("teams", "round", "bottom met", "baseline (s)", "new (s)", "ratio", "backtracks", "same",
                "target (s)", "ok"):
        table.add_column(col)
    # (teams, rounds played, size of a bottom group that has met each other: forces backtracks)
    cases = [(100, 4, 0), (100, 8, 0), (300, 4, 0), (300, 8, 0), (1000, 4, 0), (1000, 8, 0),
             (1001, 4, 0), (1001, 8, 0), (300, 4, 8), (1000, 8, 12), (1001, 14, 15)]
    for n, played, clique in cases:
        es, history = swiss_field(n, played)
        if clique:
            bottom = standing_order(es)[-clique:]
            history = history | {frozenset((a, b)) for i, a in enumerate(bottom)
                                 for b in bottom[i + 1:]}
        rnd = played + 1
        new, _peak = measure(lambda: swiss_pairings(es, history, rnd), repeat=5)
        df = swiss_pairings(es, history, rnd)
        got = [(int(h), None if pd.isna(a) else int(a)) for h, a in zip(df["home"], df["away"])]
        base = same = ratio = "skipped"
        if n <= baseline_max and played == 4:  # the baseline takes minutes beyond this
            t0 = time.perf_counter()
            had = {e.team for e in es if e.had_bye}
            bye, pairs = baseline_pairing(standing_order(es), history, had)
            t_old = time.perf_counter() - t0
            old = list(pairs) + ([(bye, None)] if bye is not None else [])
            base, ratio = f"{t_old:.3f}", f"{t_old / new:.0f}×"
            same = "✓" if old == got else "✗ differs"
        table.add_row(str(n), str(rnd), str(clique or "–"), base, f"{new:.4f}", ratio,
                      str(df.attrs["backtracks"]), same, "0.3", "✓" if new <= 0.3 else "✗")
    Console(width=120).print(table)


def main_table():
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


def main(argv=None):
    parser = argparse.ArgumentParser(description="bianpai benchmarks")
    parser.add_argument("--only", choices=["main", "swiss"], default=None)
    parser.add_argument("--baseline-max", type=int, default=300,
                        help="largest field the old Swiss search is timed on (1000: ~10 min)")
    args = parser.parse_args(argv)
    if args.only in (None, "main"):
        main_table()
    if args.only in (None, "swiss"):
        swiss_table(args.baseline_max)


if __name__ == "__main__":
    main()
