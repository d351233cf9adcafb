"""Reading typed sheets into DataFrames, with every bad cell reported by sheet and cell.

:func:`read_table` maps a sheet's header row (Chinese or English titles) to the layout's column
keys and coerces each cell to the column's kind. Problems are collected, not raised one by one:
the caller gets all of them at once as ``InputErrors`` and the command writes nothing.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from decimal import Decimal
from collections.abc import Mapping
from typing import Any

import pandas as pd
from openpyxl.utils import get_column_letter

from bianpai.engines.errors import InputError, InputErrors
from bianpai.engines.rounding import to_decimal
from bianpai.engines.typed_rows import row_dicts  # noqa: F401  (read by the sheets' writers)
from bianpai.workbooks.layouts import SheetLayout
from bianpai.workbooks.port import WorkbookPort

FULLWIDTH = re.compile(r"[０-９．％－＋]")
DATE_TEXT = re.compile(r"^\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*$")


class SharedMap(dict):
    """A frame's ``attrs`` value (column letters) that pandas shares between the frames it
    derives instead of deep-copying it at every column read, slice and sort (``__finalize__``
    deep-copies ``attrs``: most of a command's pandas overhead on a wide sheet). Read-only
    by convention: a reader that changes it makes its own ``dict``."""

    def __deepcopy__(self, memo):
        return self


class SharedRows(frozenset):
    """A frame's ``attrs["bad_rows"]`` shared the same way (immutable)."""

    def __deepcopy__(self, memo):
        return self


class SheetsMemo:
    """What a reader computes from a few sheets, kept while none of them is written.

    A port that keeps a memo per sheet (``port.derived``: the openpyxl one) empties a sheet's
    memo, and makes a new one, whenever it writes, appends to or deletes that sheet. A value
    put here is taken again only while each of ``sheets``' memos is still the one it was put
    with: a command reads its event two or three times (before and after its writes), a chain
    of commands on one port (the demo) many more, and most of the sheets are the same each
    time. ``sheets``: the names of every sheet the value depends on (a ``None``, a sheet the
    workbook lacks, or a port without memos: nothing is kept). ``name``: the value's name.
    """

    def __init__(self, port: WorkbookPort, sheets: list[str | None], name: str):
        self.name = name
        self._deps = (tuple(port.derived(s) for s in sheets)
                      if hasattr(port, "derived") and sheets and None not in sheets else None)

    def get(self):
        """The value put with the sheets as they are now, else ``None``."""
        if self._deps is None:
            return None
        hit = self._deps[0].get(self.name)
        if hit is None or len(hit[0]) != len(self._deps) or any(
                a is not b for a, b in zip(hit[0], self._deps)):
            return None
        return hit[1]

    def put(self, value) -> None:
        if self._deps is not None:
            self._deps[0][self.name] = (self._deps, value)


def number_cell(text):
    """A shown value as a generated cell holds it: a number (7, 0, 5.5) when the text is one,
    an int when whole, so the sheet can sum and sort it; other text as it is; empty → None."""
    if text is None or text == "":
        return None
    try:
        d = Decimal(str(text))
    except (ArithmeticError, ValueError, TypeError):
        return text
    if not d.is_finite():
        return text
    return int(d) if d == d.to_integral_value() else d


def find_sheet(port: WorkbookPort, layout: SheetLayout) -> str | None:
    """The sheet name the workbook uses for ``layout`` (Chinese or English), or None."""
    names = port.sheet_names()
    for n in (layout.zh, layout.en):
        if n in names:
            return n
    return None


def _blank(v) -> bool:
    return v is None or (isinstance(v, str) and v.strip() == "") or (
        isinstance(v, float) and v != v)


def read_table(port: WorkbookPort, layout: SheetLayout, *, required: bool = True,
               errors: list[InputError] | None = None) -> pd.DataFrame:
    """Read the sheet of ``layout`` as a DataFrame.

    Columns are the layout's column keys (a column missing from the sheet is all-NA); the index
    is the 1-based Excel row number of each data row, so messages can name the cell. Values are
    coerced by kind: ``int`` → int, ``pct``/``decimal`` → Decimal, ``date`` → ``datetime.date``,
    ``text``/``code`` → stripped str; empty cells → ``None``. Blank rows are skipped.
    Problems are appended to ``errors`` when given, else raised together as ``InputErrors``.
    Raises ``InputError`` when the sheet is missing and ``required``.
    """
    own = errors is None
    errs: list[InputError] = [] if own else errors
    name = find_sheet(port, layout)
    cols = [c.key for c in layout.columns]
    if name is None:
        if required:
            raise InputError(f"缺少“{layout.zh}”工作表", f"sheet {layout.en!r} is missing",
                             sheet=layout.zh)
        return pd.DataFrame(columns=cols)
    # a port that keeps a memo per sheet (the openpyxl one) coerces each sheet once while it
    # is unchanged; every later reading gets a copy of the frame and the same errors
    memo = port.derived(name) if hasattr(port, "derived") else None
    sig = ("read_table", layout.zh, layout.en,
           tuple((c.key, c.zh, c.en, c.kind, tuple(c.choices or ()), c.required)
                 for c in layout.columns))
    hit = memo.get(sig) if memo is not None else None
    if hit is not None:
        df, found = hit
        errs.extend(found)
        if own and errs:
            raise InputErrors(errs)
        return df.copy()
    start = len(errs)
    grid = port.read_values(name)
    if not grid:
        return pd.DataFrame(columns=cols)
    header = [str(v).strip() if v is not None else "" for v in grid[0]]
    pos: dict[str, int] = {}
    for c in layout.columns:
        for title in (c.zh, c.en, c.key, *c.aliases):
            if title in header:
                pos[c.key] = header.index(title)
                break
        else:
            if c.required or c.header_required:
                errs.append(InputError(
                    f"“{name}”表缺少“{c.zh}”列（第1行应为表头）",
                    f"sheet {name!r} has no column {c.en!r} (row 1 must be the header)",
                    sheet=name, cell="1:1"))
    # column by column: each column's letter and kind looked up once, a cell's address made
    # only for a cell that is reported
    plan = [(c, pos.get(c.key), []) for c in layout.columns]
    at = list(pos.values())
    index: list[int] = []
    bad_rows: set[int] = set()
    for r, row in enumerate(grid[1:], start=2):
        n = len(row)
        if all(i >= n or _blank(row[i]) for i in at):
            continue
        for c, i, data in plan:
            if i is None:
                data.append(None)
                continue
            v = row[i] if i < n else None
            t = type(v)
            try:
                if t is str and c.kind == "text":  # the common cells, as coerce gives them
                    v = v.strip() or None
                elif not (t is int and c.kind == "int"):
                    v = coerce(v, c.kind, choices=c.choices)
            except ValueError as exc:
                zh, en = exc.args if len(exc.args) == 2 else (str(exc), str(exc))
                errs.append(InputError(f"“{c.zh}”{zh}", f"{c.en}: {en}", sheet=name,
                                       cell=f"{get_column_letter(i + 1)}{r}"))
                data.append(None)
                bad_rows.add(r)
                continue
            data.append(v)
            if c.required and v is None:
                errs.append(InputError(f"“{c.zh}”不能为空", f"{c.en} must not be empty",
                                       sheet=name, cell=f"{get_column_letter(i + 1)}{r}"))
                bad_rows.add(r)
        index.append(r)
    df = pd.DataFrame({c.key: data for c, _i, data in plan}, columns=cols,
                      index=pd.Index(index, name="row"), dtype=object)
    df.attrs["sheet"] = name
    df.attrs["columns"] = SharedMap({k: get_column_letter(i + 1) for k, i in pos.items()})
    # rows with a cell already reported: readers skip them instead of reasoning on the blanks
    df.attrs["bad_rows"] = SharedRows(bad_rows)
    if any(c.required and c.key not in pos for c in layout.columns):
        # a required column is missing (named once above): its rows would only cause
        # follow-on errors without a column letter
        df.attrs["bad_rows"] = SharedRows(bad_rows | set(index))
    if memo is not None:
        memo[sig] = (df.copy(), errs[start:])
    if own and errs:
        raise InputErrors(errs)
    return df


def records(df: pd.DataFrame):
    """``(index, dict)`` per row with missing values as ``None`` (pandas turns ``None`` into
    ``NaN`` in ``iterrows`` and in new object columns; commands compare with ``None``)."""
    if not df.index.is_unique:
        for idx, rec in df.to_dict("index").items():  # pandas' own (it refuses this index)
            yield idx, {k: (None if isinstance(v, float) and v != v else v) for k, v in rec.items()}
        return
    if any(t != object for t in df.dtypes):  # typed columns, boxed as to_dict("index") does
        for idx, rec in zip(df.index.tolist(), row_dicts(df)):
            yield idx, {k: (None if isinstance(v, float) and v != v else v) for k, v in rec.items()}
        return
    # the sheets' frames (object columns) column by column: ``to_dict("index")`` boxes every
    # cell through pandas, far slower on the thousands of rows a command reads
    cols = list(df.columns)
    # one 2-D object array of the frame's single block, its columns as lists (a Series per
    # column cost ~40 µs each, times every column of every read)
    data = df.to_numpy(dtype=object).T.tolist() if cols else []
    for j, col in enumerate(data):  # NaN made None only in a column holding a float at all
        if any(issubclass(t, float) for t in set(map(type, col))):
            data[j] = [None if isinstance(v, float) and v != v else v for v in col]
    for idx, vals in zip(df.index.tolist(), zip(*data) if cols else ((),) * len(df)):
        yield idx, dict(zip(cols, vals))


class RowCells(Mapping):
    """``sheet!A1`` of each column key ``keys`` in Excel row ``row`` of a frame from
    :func:`read_table` (as :func:`cell_of` gives it), made when asked: a typed result row's
    cells for the messages about it, read for the few rows that have one."""

    __slots__ = ("_sheet", "_row", "_keys", "_row_cols", "_cols")

    def __init__(self, sheet: str, df: pd.DataFrame, row: int, keys: list[str]) -> None:
        self._sheet, self._row, self._keys = sheet, row, keys
        self._row_cols = df.attrs.get("row_columns", {})
        self._cols = df.attrs.get("columns", {})

    def __getitem__(self, key: str) -> str:
        if key not in self._keys:
            raise KeyError(key)
        letter = self._row_cols.get((self._row, key)) or self._cols.get(key, "?")
        return f"{self._sheet}!{letter}{self._row}"

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return repr(dict(self))


def cell_of(df: pd.DataFrame, row: int, key: str) -> str:
    """A1 address of column ``key`` in Excel row ``row`` of a frame from :func:`read_table` (a
    view's row whose value was read from another column: that one, ``attrs["row_columns"]``)."""
    letter = df.attrs.get("row_columns", {}).get((row, key))
    return f"{letter or df.attrs.get('columns', {}).get(key, '?')}{row}"


#: Excel's error values as a cell holding one reads (a formula that failed, a lost reference)
EXCEL_ERRORS = {"#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!", "#SPILL!",
                "#CALC!", "#GETTING_DATA"}
_KIND_ZH = {"int": "整数", "number": "数字", "pct": "百分比数值", "date": "日期", "code": "下拉选项之一"}
_KIND_EN = {"int": "whole number", "number": "number", "pct": "percentage", "date": "date",
            "code": "listed choice"}


def coerce(v: Any, kind: str, *, choices: list[str] | None = None):
    """Coerce one cell value to ``kind``. Raises ``ValueError((zh, en))`` with what is expected;
    an Excel error value (#N/A …) is named as one, and a very long text is quoted by its start."""
    if isinstance(v, str) and kind != "text" and v.strip().upper() in EXCEL_ERRORS:
        want = _KIND_ZH.get(kind, kind)
        raise ValueError(f"单元格是错误值 {v.strip()}（公式出错或引用失效？），应为{want}",
                         f"the cell holds the error value {v.strip()} (a failed formula?); "
                         f"expected a {_KIND_EN.get(kind, kind)}")
    try:
        return _coerce(v, kind, choices=choices)
    except ValueError as exc:
        if isinstance(v, str) and len(v) > 60 and len(exc.args) == 2:
            zh, en = exc.args
            raise ValueError(zh.replace(v, f"{v[:40]}…（共 {len(v)} 字）"),
                             en.replace(repr(v), f"{v[:40]!r}… ({len(v)} characters)")) from None
        raise


def _coerce(v: Any, kind: str, *, choices: list[str] | None = None):
    if _blank(v):
        return None
    if kind == "text":
        if isinstance(v, float) and v.is_integer():
            # as Excel shows a number: 15 significant digits (an 18-digit 证件号 typed into a
            # General cell is stored as 150624198503010000, whose float is …009984)
            return str(int(Decimal(format(v, ".15g")))) if abs(v) >= 1e15 else str(int(v))
        if isinstance(v, (dt.datetime, dt.date)):
            return v.strftime("%Y-%m-%d")
        return str(v).strip()
    if kind == "code":
        s = unicodedata.normalize("NFKC", str(v)).strip()
        if choices:
            low = {c.lower(): c for c in choices}
            if s.lower() not in low:
                raise ValueError(f"应为以下之一：{'、'.join(choices)}，实际为“{v}”",
                                 f"must be one of {', '.join(choices)}; got {v!r}")
            return low[s.lower()]
        return s
    if kind == "date":
        if isinstance(v, dt.datetime):
            return v.date()
        if isinstance(v, dt.date):
            return v
        text = unicodedata.normalize("NFKC", str(v)).strip()
        if re.fullmatch(r"(19|20)\d{6}", text):  # 19700501
            text = f"{text[:4]}-{text[4:6]}-{text[6:]}"
        m = DATE_TEXT.match(text)
        if m:
            try:
                return dt.date(int(m[1]), int(m[2]), int(m[3]))
            except ValueError:
                pass
        raise ValueError(f"应为日期（如 1970-05-01），实际为“{v}”",
                         f"must be a date such as 1970-05-01; got {v!r}")
    # numbers
    if isinstance(v, bool):
        raise ValueError(f"应为数字，实际为“{v}”", f"must be a number; got {v!r}")
    if isinstance(v, str):
        s = v.strip()
        if FULLWIDTH.search(s):
            raise ValueError(f"含全角字符“{v}”，请用半角数字输入",
                             f"contains full-width characters ({v!r}); type half-width digits")
        if kind == "pct" and s.endswith("%"):
            raise ValueError(f"请只填数字（如 55 表示 55%），不要带“%”：“{v}”",
                             f"type the number only (55 for 55 %), without '%': {v!r}")
        raise ValueError(f"应为数字，单元格里是文本“{v}”",
                         f"must be a number; the cell holds text {v!r}")
    if isinstance(v, (dt.date, dt.datetime)):
        raise ValueError(f"应为数字，实际为日期“{v}”", f"must be a number; got a date {v}")
    d = to_decimal(v)
    if kind == "int":
        if d != d.to_integral_value():
            raise ValueError(f"应为整数，实际为“{v}”", f"must be a whole number; got {v}")
        return int(d)
    if kind == "pct":
        if d < 0 or d > 100:
            raise ValueError(f"百分比应在 0–100 之间，实际为 {v}",
                             f"a percentage must be within 0–100; got {v}")
        if 0 < d < 1:
            raise ValueError(f"“{v}”像是小数形式的百分比；请统一填百分数的数值（55 表示 55%）",
                             f"{v} looks like a fraction; type percentages as 0–100 (55 for 55 %)")
        return d
    return d if isinstance(d, Decimal) else to_decimal(d)


def read_settings(port: WorkbookPort, layout: SheetLayout) -> dict[str, Any]:
    """The 规程 sheet as ``{path: (value, excel_row)}``; raw values, not coerced."""
    name = find_sheet(port, layout)
    if name is None:
        raise InputError(f"缺少“{layout.zh}”工作表", f"sheet {layout.en!r} is missing",
                         sheet=layout.zh)
    grid = port.read_values(name)
    out = {}
    for r, row in enumerate(grid[1:], start=2):
        if row and row[0] not in (None, ""):
            out[str(row[0]).strip()] = (row[2] if len(row) > 2 else None, r)
    return out
