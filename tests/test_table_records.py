"""``tables.records``: each row of a read sheet's frame as a dict, a float NaN as ``None`` and
every other value as stored (pinned to the plain per-cell rule, on object and typed frames)."""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

from bianpai.workbooks.tables import records

CELLS = st.one_of(st.none(), st.just(float("nan")), st.just(np.float64("nan")),
                  st.floats(allow_nan=False, width=32), st.integers(-5, 5), st.text(max_size=3),
                  st.just(Decimal("NaN")), st.just(Decimal("1.50")), st.just(pd.NaT),
                  st.just(dt.date(2024, 5, 1)), st.booleans())


def plain(df: pd.DataFrame) -> list:
    """The rule, cell by cell."""
    out = []
    for i, idx in enumerate(df.index):
        rec = {}
        for k in df.columns:
            v = df[k].iloc[i]
            rec[k] = None if isinstance(v, float) and v != v else v
        out.append((idx, rec))
    return out


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, Decimal) and isinstance(b, Decimal) and a.is_nan() and b.is_nan():
        return True
    if a is pd.NaT or b is pd.NaT:
        return a is b
    return type(a) is type(b) and a == b


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(CELLS, min_size=3, max_size=3), max_size=6))
def test_object_frame_rows_as_the_rule_gives(rows):
    df = pd.DataFrame(rows, columns=["a", "b", "c"], dtype=object)
    df.index = [i + 2 for i in range(len(df))]  # Excel rows, as read_table gives
    got, want = list(records(df)), plain(df)
    assert [i for i, _ in got] == [i for i, _ in want]
    for (_, g), (_, w) in zip(got, want):
        assert list(g) == list(w)
        assert all(same(g[k], w[k]) for k in w), (g, w)


def test_typed_and_empty_frames():
    df = pd.DataFrame({"a": [1.0, float("nan")], "b": ["x", None]})
    assert [r for _, r in records(df)] == [{"a": 1.0, "b": "x"}, {"a": None, "b": None}]
    assert list(records(pd.DataFrame(columns=["a"], dtype=object))) == []
    assert [r for _, r in records(pd.DataFrame(index=[2, 3]))] == [{}, {}]


@settings(max_examples=100, deadline=None)
@given(st.one_of(CELLS, st.just(pd.NA), st.just(np.int64(3)), st.just(np.float64(2.5)),
                 st.just(np.datetime64("NaT")), st.just(dt.datetime(2024, 5, 1, 9))))
def test_is_na_is_pandas_isna(v):
    """``engines.core.is_na`` answers as ``pd.isna`` for every kind of cell value."""
    from bianpai.engines.core import is_blank, is_na
    assert is_na(v) is bool(pd.isna(v))
    assert is_blank(v) is (bool(pd.isna(v)) or (isinstance(v, str) and not v.strip()))
