"""Round robin (单循环) schedules from the FIDE Berger tables (Handbook C.05, Annex 1).

For an even field of n, round r = 1 … n−1, with m = n − 1 and s = (r − 1)·n/2:

* board 1: player (s mod m) + 1 against n; the former is listed first (home / White / NS) in odd
  rounds, n in even rounds;
* board b = 2 … n/2: first (s + b − 1) mod m + 1, second (s − b + 1) mod m + 1.

An odd field uses the table of n + 1 with player n + 1 replaced by a bye; the bye board keeps its
place in the round. A double round robin repeats the cycle with the order of each pair reversed.
"""

from __future__ import annotations

import pandas as pd

from bianpai.engines.errors import RuleError

Pairing = tuple[int, int | None]


def berger_rounds(n: int) -> list[list[Pairing]]:
    """The FIDE Berger table for ``n`` entrants (pairing numbers 1 … n).

    Returns one list per round of ``(first, second)`` pairs in board order; ``second`` is ``None``
    for the bye of an odd field. Raises ``RuleError`` when ``n < 2``.
    """
    if n < 2:
        raise RuleError(f"单循环至少需要 2 个参赛单位，现有 {n} 个",
                        f"a round robin needs at least 2 entrants, got {n}")
    size = n if n % 2 == 0 else n + 1
    m = size - 1
    rounds: list[list[Pairing]] = []
    for r in range(1, size):
        s = (r - 1) * size // 2
        p = s % m + 1
        board1 = (p, size) if r % 2 == 1 else (size, p)
        boards = [board1]
        for b in range(2, size // 2 + 1):
            boards.append(((s + b - 1) % m + 1, (s - b + 1) % m + 1))
        if size != n:  # odd field: entrant n + 1 is the bye
            boards = [(a, None) if b_ == size else (b_, None) if a == size else (a, b_)
                      for a, b_ in boards]
        rounds.append(boards)
    return rounds


def round_robin_schedule(n: int, *, cycles: int = 1, max_rounds: int | None = None) -> pd.DataFrame:
    """Schedule of a round robin of ``n`` entrants as a DataFrame.

    Columns: ``round`` (int, from 1), ``table`` (int, from 1, byes numbered after the real tables),
    ``home`` (int, the entrant listed first: home / NS / White / red), ``away`` (``Int64``, ``<NA>``
    for a bye). ``cycles=2`` gives a double round robin (second cycle reversed). ``max_rounds``
    refuses a field that needs more rounds than the 规程 allows (RuleError).
    """
    base = berger_rounds(n)
    if max_rounds is not None and len(base) * cycles > max_rounds:
        raise RuleError(
            f"{n} 个参赛单位单循环需 {len(base) * cycles} 轮，超过规程允许的 {max_rounds} 轮",
            f"{n} entrants need {len(base) * cycles} rounds, more than the {max_rounds} allowed")
    rows = []
    for c in range(cycles):
        for i, boards in enumerate(base):
            rnd = c * len(base) + i + 1
            real = [(a, b) for a, b in boards if b is not None]
            byes = [(a, b) for a, b in boards if b is None]
            for t, (a, b) in enumerate(real + byes, start=1):
                if c % 2 == 1 and b is not None:
                    a, b = b, a
                rows.append({"round": rnd, "table": t, "home": a, "away": b})
    df = pd.DataFrame(rows, columns=["round", "table", "home", "away"])
    df["away"] = df["away"].astype("Int64")
    return df
