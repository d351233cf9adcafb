"""One match's typed game rows kept as plain dicts, the DataFrame built only when asked for.

A command reads every typed match of the event (thousands of matches); a scoring that memoises
its results (:meth:`~bianpai.engines.core.TypedMatch.game_key`) or reads the rows as dicts
(:meth:`~bianpai.engines.core.TypedMatch.game_records`) never needs a per-match DataFrame. The
frame, when a scoring does ask ``typed.games``, is exactly the one the reader built before
(``pd.DataFrame(rows)`` in game order, index = the rows' positions as typed), and the dict rows
hold what that frame's columns would hold (pandas' inference: a number column with a blank is
float with NaN).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pandas as pd

__all__ = ["LazyGames", "from_rows", "game_order", "frame_of", "records_like_frame", "row_dicts"]


def _null(v) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def game_order(rows: list[dict]) -> list[int]:
    """Positions of ``rows`` in game order (``game`` ascending, an empty game number last;
    a stable sort: equal games keep their typed order)."""
    def order(i: int):
        g = rows[i]["game"]
        blank = g is None or g != g
        return (blank, 0 if blank else g)
    return sorted(range(len(rows)), key=order)


def frame_of(rows: list[dict], index: list[int] | None) -> pd.DataFrame:
    """The game rows as the reader's DataFrame: ``rows`` already in game order, ``index`` their
    typed positions (``None``: 0, 1, …); no rows → an empty frame with column ``game``."""
    if not rows:
        return pd.DataFrame(columns=["game"])
    return pd.DataFrame(rows) if index is None else pd.DataFrame(rows, index=index)


def _column(values: list) -> list | None:
    """One column's values as ``pd.DataFrame(rows)[col].tolist()`` gives them, when that is
    plain to know: all blank (``None``) stays blank; a number column (``int``/``float``, no
    ``bool``) is ``int`` when whole and unbroken, else ``float`` with NaN for a blank (pandas'
    float64); text, Decimal, booleans and ``date`` as typed, with ``None`` for a blank among
    values that are not all text (object). ``None`` (ask pandas) for a column holding NaN,
    ``datetime`` values, numbers mixed with other kinds, text with blanks or other types."""
    kinds = {type(v) for v in values}
    blank = type(None) in kinds
    kinds.discard(type(None))
    if not kinds:
        return values
    if kinds <= {int, float}:
        if any(v != v for v in values if v is not None):
            return None  # a NaN typed: pandas' own reading
        if not blank and kinds == {int}:
            return values
        return [float("nan") if v is None else float(v) for v in values]
    if kinds & {dt.datetime, float, int} or not kinds <= _OBJECT_KINDS or \
            (blank and kinds == {str}):
        # datetimes (Timestamps), numbers mixed with other kinds, text with blanks (a string
        # dtype's NaN or an object column's None, by the pandas version): pandas decides
        return None
    return values


#: kinds pandas keeps as typed in an object column (blanks stay ``None``)
_OBJECT_KINDS = {str, Decimal, bool, dt.date}


def records_like_frame(rows: list[dict]) -> list[dict[str, Any]] | None:
    """``frame_of(rows).to_dict("records")`` computed without the frame (see :func:`_column`),
    or ``None`` when only pandas' own inference can tell (a column mixing blanks and values,
    rows of different columns)."""
    if not rows:
        return []
    cols = list(rows[0])
    if any(len(r) != len(cols) or list(r) != cols for r in rows):
        return None  # rows of different columns: pandas fills the gaps
    data = {}
    for c in cols:
        col = _column([r.get(c) for r in rows])
        if col is None:
            return None
        data[c] = col
    return [dict(zip(data, vals)) for vals in zip(*data.values())]


def from_rows(cls, rows: list[dict], **fields):
    """``cls(games=…, **fields)`` (a ``TypedMatch``) holding ``rows`` (one dict per game, as
    typed) in game order; its ``games`` frame is ``frame_of`` them, built on first access."""
    idx = game_order(rows)
    obj = cls(games=None, **fields)
    ordered = [rows[i] for i in idx]
    obj.__dict__["_rows"] = (ordered, None if idx == list(range(len(rows))) else idx)
    return obj


class LazyGames:
    """The ``games`` field of :class:`~bianpai.engines.core.TypedMatch`: set like any field
    (a DataFrame), or left ``None`` with the rows stored by ``TypedMatch.from_rows``; the frame
    is then built on first access. A required field (no default)."""

    def __set_name__(self, owner, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:  # the class: no default value (the field stays required)
            raise AttributeError(self.slot)
        d = obj.__dict__
        v = d.get(self.slot)
        if v is None and "_rows" in d:
            rows, index = d["_rows"]
            v = d[self.slot] = frame_of(rows, index)
        return v

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.slot] = value


def row_dicts(df: pd.DataFrame) -> list[dict]:
    """``df.to_dict("records")``, column by column: each column read once (a numeric numpy
    or a text column by ``tolist``, any other by iterating it, as ``to_dict``'s ``itertuples`` does; an
    object or extension column's values boxed as ``to_dict`` boxes them). pandas' row-by-row
    path was most of writing the brackets and of reading a stage's results for its tie-breaks."""
    import numpy as np
    from pandas.api.extensions import ExtensionDtype
    from pandas.core.dtypes.cast import maybe_box_native
    cols = list(df.columns)
    if not cols:
        return [{} for _ in range(len(df))]
    data = []
    unique = df.columns.is_unique  # then a column by its label (iloc makes a slower Series)
    for i in range(len(cols)):
        col = df[cols[i]] if unique else df.iloc[:, i]
        dtype = col.dtype
        if isinstance(dtype, np.dtype) and dtype.kind in "biuf" or \
                isinstance(dtype, pd.StringDtype):  # the values iteration gives, 25 × faster
            vals = col.tolist()
        else:
            vals = list(col)
            if dtype == np.dtype(object) or isinstance(dtype, ExtensionDtype):
                vals = [v if type(v) in _NATIVE else maybe_box_native(v) for v in vals]
        data.append(vals)
    return [dict(zip(cols, row)) for row in zip(*data)]


_NATIVE = frozenset((str, int, float, bool, type(None), Decimal, dt.date, dt.datetime))


_NEVER_NA = frozenset({int, bool, str})


def is_na(v) -> bool:
    """``pd.isna`` of one cell value (``None``, NaN, ``pd.NA``, NaT, a NaN ``Decimal``), with
    the types a sheet's cells mostly hold (text, whole numbers, floats) answered without
    calling pandas."""
    if v is None:
        return True
    t = type(v)
    if t is float:
        return v != v
    if t in _NEVER_NA:
        return False
    return bool(pd.isna(v))


def place_of(v) -> int | None:
    """A standings ``rank`` cell as an ``int``; ``None`` for an entrant without a place (one
    the ranking leaves unranked: :func:`bianpai.engines.standings.rank`'s ``unranked``)."""
    return None if is_na(v) else int(v)


# ------------------------------------------------------------------------------ typed values

def is_blank(v) -> bool:
    """An empty cell as a scoring reads it: ``None``, blank text, NaN/NA."""
    if v is None:
        return True
    if isinstance(v, str):
        return v.strip() == ""
    try:
        return is_na(v)
    except (TypeError, ValueError):
        return False


#: the words a 判定 names a side by, side 0's first: the core 成绩 sheet's 甲方/乙方 (an event
#: whose side titles they are), a board game's 先手/后手, a team match's 主队/客队, a table's
#: 南北/东西
SIDE_WORDS = (("甲方", "先手", "主队", "南北"), ("乙方", "后手", "客队", "东西"))


def canonical_decision(codes, decision):
    """``decision`` as the scoring's own 判定 code (one of ``codes``) when it names the same side
    by another of :data:`SIDE_WORDS`: one workbook's 判定 dropdown offers every group's codes,
    so 甲方弃权 typed on a 象棋 game (whose codes say 先手弃权, the 甲方 column's side) is that
    player's forfeit. Anything else comes back as it was (the scoring names it if unknown)."""
    if decision is None:
        return None
    text = str(decision).strip()
    codes = list(codes)
    if text in codes:
        return text
    for words in SIDE_WORDS:
        for w in words:
            if text.startswith(w):
                for other in words:
                    if other + text[len(w):] in codes:
                        return other + text[len(w):]
    return decision


def decision_side(decisions: dict, decision) -> Any:
    """What a 判定 code means for a scoring (its ``DECISIONS`` mapping, e.g. the side that
    forfeits). Raises ``InputError`` naming the allowed codes for an unknown one."""
    from bianpai.engines.errors import InputError
    side = decisions.get(str(decision).strip())
    if side is None:
        raise InputError(f"未知的判定“{decision}”（应为：{'、'.join(decisions)}）",
                         f"unknown decision {decision!r}")
    return side
