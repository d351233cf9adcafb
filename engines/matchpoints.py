"""Duplicate matchpointing (比赛分, Law 78A) with Neuberg and artificial scores.

Every result on a board is compared with the other results on the same board in the same
direction: 2 matchpoints per result beaten, 1 per equal result, 0 per better one (top = 2(n − 1)).
When a board was played fewer times than the others (or some results are artificial), the real
results are scaled by the Neuberg formula MP' = (MP + 1)·E/A − 1 (E results expected, A actual),
so that the top becomes 2(E − 1). Artificial adjusted scores (Law 12C2: average plus 60 %,
average 50 %, average minus 40 %) are given as a percentage of the top.

Sources: Laws of Duplicate Bridge 2017, Law 78A and 12C2; 中国桥牌竞赛规则 第78条A; EBU
"The Neuberg Formula".
"""

from __future__ import annotations

from decimal import Decimal
from typing import Iterable, Sequence

import pandas as pd

from bianpai.engines.errors import RuleError
from bianpai.engines.rounding import to_decimal

#: Artificial result codes (Law 12C2) and the share of the top they give the pair.
ARTIFICIAL = {"A+": Decimal("0.6"), "A": Decimal("0.5"), "A-": Decimal("0.4")}


def matchpoints(scores: Sequence, *, scale: str = "2/1/0") -> list[Decimal]:
    """Matchpoints of each score against the others on one board, one direction.

    ``scores``: raw results from this direction's point of view (higher is better), any numbers.
    ``scale``: ``"2/1/0"`` (Law 78A; top 2(n − 1)) or ``"acbl"`` (1 / ½ / 0; top n − 1).
    Returns Decimals in input order. Raises ``RuleError`` for an unknown scale.
    """
    vals = [to_decimal(s) for s in scores]
    out = []
    for i, v in enumerate(vals):
        mp = sum((2 if v > w else 1 if v == w else 0) for j, w in enumerate(vals) if j != i)
        out.append(Decimal(mp))
    if scale == "2/1/0":
        return out
    if scale == "acbl":
        return [m / 2 for m in out]
    raise RuleError(f"未知的比赛分记分制：{scale}", f"unknown matchpoint scale: {scale}")


def top(n_results: int, *, scale: str = "2/1/0") -> Decimal:
    """Top on a board played ``n_results`` times (2(n − 1) on the 2/1/0 scale)."""
    t = Decimal(2 * (n_results - 1))
    return t if scale == "2/1/0" else t / 2


def neuberg(mp, *, actual: int, expected: int) -> Decimal:
    """Neuberg-adjusted matchpoints (2/1/0 scale): (MP + 1)·E/A − 1, unrounded.

    ``actual``: comparable results on the board including this one; ``expected``: results the
    board should have had. Raises ``RuleError`` when ``actual`` is not in 1 … expected.
    """
    if not 1 <= actual <= expected:
        raise RuleError(f"Neuberg 计算参数错误：实际 {actual}、应有 {expected}",
                        f"Neuberg needs 1 <= actual ({actual}) <= expected ({expected})")
    return (to_decimal(mp) + 1) * Decimal(expected) / Decimal(actual) - 1


def artificial_shares(plus_pct=60, minus_pct=40) -> dict[str, Decimal]:
    """Shares of the board top for the artificial codes: ``A+`` = ``plus_pct`` %, ``A`` = 50 %,
    ``A-`` = ``minus_pct`` % (平均正分 / 平均负分; Law 12C2 gives 60/40, the default). Raises
    ``RuleError`` unless 0 ≤ minus ≤ 50 ≤ plus ≤ 100."""
    p, m = to_decimal(plus_pct), to_decimal(minus_pct)
    if not (0 <= m <= 50 <= p <= 100):
        raise RuleError(f"平均正分%应在 50–100、平均负分%应在 0–50 之间（实际 {p}、{m}）",
                        f"average-plus % must be 50–100 and average-minus % 0–50 (got {p}, {m})")
    return {"A+": p / 100, "A": Decimal("0.5"), "A-": m / 100}


def score_board(ns_scores: Sequence, *, codes: Sequence[str | None] | None = None,
                expected: int | None = None,
                artificial: dict[str, Decimal] | None = None) -> pd.DataFrame:
    """Matchpoint one board for both directions.

    ``ns_scores``: the NS result at each table (``None``/NaN where the table has an artificial
    score or did not play); ``codes``: per table ``None`` or an artificial code for NS (``A+``,
    ``A``, ``A-``; EW receives the complementary share, e.g. NS ``A-`` → EW ``A+``);
    ``expected``: results the board should have (defaults to the number of tables);
    ``artificial``: shares of the top per code (:func:`artificial_shares`; default 60/50/40 %).

    Returns a DataFrame indexed like the input with Decimal columns ``ns_mp``, ``ew_mp`` and ``top``
    (the board top, 2(expected − 1)). Real results are Neuberg-scaled when fewer than ``expected``
    real results exist. A table with neither a score nor a code gets ``NaN`` (not played, no score).
    """
    ns_mp, ew_mp, board_top = board_matchpoints(ns_scores, codes=codes, expected=expected,
                                                artificial=artificial)
    return pd.DataFrame({"ns_mp": ns_mp, "ew_mp": ew_mp, "top": [board_top] * len(ns_mp)})


def board_matchpoints(ns_scores: Sequence, *, codes: Sequence[str | None] | None = None,
                      expected: int | None = None, artificial: dict[str, Decimal] | None = None
                      ) -> tuple[list, list, Decimal]:
    """:func:`score_board` as plain lists: ``(ns_mp, ew_mp, top)``, one Decimal (or ``None``
    for a table not played) per table in input order, and the board top. For engines that
    matchpoint thousands of boards (a frame per board is most of their time)."""
    n = len(ns_scores)
    codes = [None if _missing(c) or str(c).strip() == "" else str(c)
             for c in (codes if codes is not None else [None] * n)]
    expected = expected or n
    board_top = top(expected)
    real_idx = [i for i, s in enumerate(ns_scores) if not _missing(s) and not codes[i]]
    real_scores = [ns_scores[i] for i in real_idx]
    ns_mp: list = [None] * n
    ew_mp: list = [None] * n
    if real_idx:
        raw_ns = matchpoints(real_scores)
        raw_ew = matchpoints([-to_decimal(s) for s in real_scores])
        actual = len(real_idx)
        for k, i in enumerate(real_idx):
            if actual < expected:
                ns_mp[i] = neuberg(raw_ns[k], actual=actual, expected=expected)
                ew_mp[i] = neuberg(raw_ew[k], actual=actual, expected=expected)
            else:
                ns_mp[i], ew_mp[i] = raw_ns[k], raw_ew[k]
    shares = artificial or ARTIFICIAL
    for i, code in enumerate(codes):
        if code:
            ns_code, ew_code = _split_code(code)
            ns_mp[i] = shares[ns_code] * board_top
            ew_mp[i] = shares[ew_code] * board_top
    return ns_mp, ew_mp, board_top


def _split_code(code: str) -> tuple[str, str]:
    """An artificial code is ``"A+"`` (NS +, EW −) or explicit ``"A+/A+"`` (NS/EW)."""
    code = code.strip().upper().replace("＋", "+").replace("－", "-")
    if "/" in code:
        a, b = (c.strip() for c in code.split("/", 1))
    else:
        a = code
        b = {"A+": "A-", "A-": "A+", "A": "A"}.get(code, "?")
    if a not in ARTIFICIAL or b not in ARTIFICIAL:
        raise RuleError(f"人工成绩代码无效：{code}（应为 A+、A、A- 或 A+/A+ 等）",
                        f"invalid artificial score code {code!r} (A+, A, A-, or NS/EW like A+/A+)")
    return a, b


def _missing(value) -> bool:
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def score_boards(results: pd.DataFrame, *, board_keys: Iterable[str] = ("board",),
                 expected: int | None = None,
                 artificial: dict[str, Decimal] | None = None) -> pd.DataFrame:
    """Matchpoint many boards at once.

    ``results`` columns: the ``board_keys`` (together they identify one deal compared across
    tables, e.g. ``group, round, board``), ``ns`` and ``ew`` (pair numbers), ``ns_score`` (number
    or NaN) and optionally ``code`` (artificial code for NS, see :func:`score_board`).
    ``expected``: results each board should have; default the most results of any board with the
    same keys except the last (i.e. the number of tables of that round), so a board missing at
    one table is Neuberg-scaled. ``artificial``: as in :func:`score_board`.

    Returns ``results`` with Decimal columns ``ns_mp``, ``ew_mp``, ``top`` added (same index).
    """
    keys = list(board_keys)
    out = results.copy()
    out["ns_mp"] = None
    out["ew_mp"] = None
    out["top"] = None
    if out.empty:
        return out
    codes_col = "code" if "code" in out.columns else None
    round_keys = keys[:-1]
    if expected is None and round_keys:
        tables = out.groupby(round_keys, dropna=False)[keys[-1]].transform("size")
        boards = out.groupby(round_keys, dropna=False)[keys[-1]].transform("nunique")
        exp_series = (tables / boards).apply(lambda x: int(-(-x // 1)))
    else:
        exp_series = None
    # each board's values kept by row label and set as whole columns at the end (a column
    # set per board was most of scoring a pairs round); a frame whose labels repeat is set
    # board by board, as the labels would address several rows
    unique = out.index.is_unique
    got: dict[str, dict] = {"ns_mp": {}, "ew_mp": {}, "top": {}}
    for _, idx in out.groupby(keys, dropna=False).groups.items():
        sub = out.loc[idx]
        exp = expected or (int(exp_series.loc[idx].max()) if exp_series is not None else len(sub))
        exp = max(exp, len(sub))
        scored = score_board(list(sub["ns_score"]),
                             codes=list(sub[codes_col]) if codes_col else None, expected=exp,
                             artificial=artificial)
        for col in ("ns_mp", "ew_mp", "top"):
            if unique:
                got[col].update(zip(idx, scored[col]))
            else:
                out.loc[idx, col] = list(scored[col])
    if unique:
        for col, by_label in got.items():
            out[col] = pd.Series([by_label.get(i) for i in out.index], index=out.index,
                                 dtype=object)
    return out
