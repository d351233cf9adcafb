"""Benchmark of the card-event engines, run on demand: ``python bench/cards.py``.

Prints one table: case, size, best of 3 wall time, and the target (one button press of the
organizer must feel instant: < 1 s). Not part of the test suite.
"""

from __future__ import annotations

import random
import time

import pandas as pd

from bianpai.engines.core import StageEntrant, StageState
from bianpai.engines.mitchell import Mitchell, boards_from_label, movement_table
from bianpai.engines.upgrade80 import score_round


def best(fn, repeat: int = 3) -> float:
    out = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def whole_stage(n: int, bpr: int):
    ents = ([StageEntrant(number=i, pool="NS") for i in range(1, n + 1)]
            + [StageEntrant(number=100 + i, pool="EW") for i in range(1, n + 1)])
    fmt = Mitchell(boards_per_round=bpr)
    state = StageState(entrants=ents, seed=1)
    rng = random.Random(1)
    for _ in range(fmt.total_rounds(state)):
        ms = fmt.next_round(state, rng)
        state.matches += ms
        for m in ms:
            state.results[m.key] = None  # type: ignore[assignment]
    rows = [{"round": m.round, "table": m.table, "board": b, "points": rng.randrange(41) * 5}
            for m in state.matches for b in boards_from_label(m.label)]
    return state.matches, pd.DataFrame(rows)


def main() -> None:
    print(f"{'case':<34}{'size':>14}{'best s':>10}{'target s':>10}")
    t = best(lambda: [movement_table(n, None, 3) for n in range(3, 41)])
    print(f"{'movement_table 3..40 tables':<34}{'38 sheets':>14}{t:>10.3f}{1:>10}")
    for n, bpr in ((10, 6), (20, 3), (30, 2)):
        ms, rows = whole_stage(n, bpr)
        t = best(lambda: score_round(ms, rows))
        print(f"{'score_round whole Mitchell':<34}{f'{n}t {len(rows)}r':>14}{t:>10.3f}{1:>10}")


if __name__ == "__main__":
    main()
