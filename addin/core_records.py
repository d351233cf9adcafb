"""What a command wrote to a record sheet (抽签, 晋级), kept so that every later command can check
the sheet against it (:func:`check_record`): a deleted, duplicated or
changed value the event depends on is refused at its cell, never trusted or re-drawn.

Two stores, one record (the values of the record's keys, row by row, as text):

* a hidden copy sheet (``_bianpai_draw``, ``_bianpai_entries``), for the styles that keep one
  (``SheetSet.record_copies``);
* for a style whose sheet list is fixed (the Shenzhen pairs and bridge team workbooks keep no
  hidden copy, for fidelity with their golden workbooks), a custom document property of the
  same name, outside the sheets (:meth:`~bianpai.workbooks.openpyxl_port.OpenpyxlPort.
  write_property`; a port without properties — a live book — keeps and checks none).

A property is not undone with the sheets by a front that cannot write it (a live book's undo, a
command pressed in Excel that rewrote 抽签): it is trusted only while every 日志 row from the
command that wrote it on was written by the same front (the record notes the 日志 rows before
that command, and its front); else a difference is not reported — a record that may be stale
never refuses what bianpai itself wrote.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import TYPE_CHECKING, Callable

from bianpai.engines.errors import InputError
from bianpai.workbooks import layouts as L
from bianpai.workbooks.tables import find_sheet
from bianpai.workbooks.tables import records as _all_records

if TYPE_CHECKING:
    import pandas as pd

    from bianpai.addin.competition import CoreEvent
    from bianpai.workbooks.port import WorkbookPort

#: the name of each record's hidden copy sheet, and of its document property
RECORD_COPIES = {"draw": "_bianpai_draw", "entries": "_bianpai_entries"}
VERSION = 1


def record_values(layout, rows: list[list], keys: list[str]) -> list[list[str]]:
    """The record of ``rows`` (in ``layout``'s columns): the values of ``keys`` as text."""
    idx = [next(i for i, col in enumerate(layout.columns) if col.key == k) for k in keys]
    return [[("" if r[i] is None else str(r[i])) for i in idx] for r in rows]


def write_book_record(port: WorkbookPort, layout, rows: list[list], keys: list[str]) -> None:
    """Keep the record of ``rows`` as the document property of ``layout``'s record, with the
    日志 rows before this command and its front (nothing on a port without properties)."""
    from bianpai.addin.command_infra import FRONT  # noqa: PLC0415
    write = getattr(port, "write_property", None)
    if write is None:
        return
    text = json.dumps({"v": VERSION, "keys": keys, "rows": record_values(layout, rows, keys),
                       "log": len(_log_rows(port)), "front": FRONT["name"]},
                      ensure_ascii=False, separators=(",", ":"))
    write(RECORD_COPIES[layout.key], text)


def write_shown_record(ev: CoreEvent, layout, keys: list[str]) -> None:
    """Keep the record of generated core sheet ``layout`` as the sheet now shows it: read back
    through the style's view (a view that rewrites the rows in its own columns, 带分 for 晋级),
    so that the next command compares the values it shows (:func:`write_book_record`)."""
    from bianpai.addin.core_views import read_core_sheet  # noqa: PLC0415
    from bianpai.workbooks.tables import records  # noqa: PLC0415
    d = read_core_sheet(ev.port, ev.reg, layout, errors=[])
    rows = [[_shown(rec.get(col.key)) for col in layout.columns] for _row, rec in records(d)]
    write_book_record(ev.port, layout, rows, keys)


def _shown(v):
    """A number as the sheet shows it (16, not 16.0), for the messages that quote it."""
    if isinstance(v, (float, Decimal)) and not isinstance(v, bool):
        return format(Decimal(str(v)).normalize(), "f")
    return v


def saved_record(ev: CoreEvent, layout, keys: list[str]
                 ) -> tuple[list[list], Callable[[], bool]] | None:
    """(the saved rows, padded to ``keys``; whether a difference from them is to be reported)
    of ``layout``'s record — from its hidden copy sheet, else from its document property when
    the style keeps no copies; ``None`` when there is no record (or it cannot be read)."""
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    name = RECORD_COPIES[layout.key]
    if name in ev.port.sheet_names():
        grid = ev.port.read_values(name)
        return ([list(r) + [None] * (len(keys) - len(r)) for r in grid[1:]
                 if any(v is not None for v in r)], lambda: True)
    read = getattr(ev.port, "read_property", None)
    if style_of(ev.reg).record_copies or read is None:
        return None
    try:
        rec = json.loads(read(name) or "null")
    except ValueError:
        return None
    if not isinstance(rec, dict) or rec.get("v") != VERSION or rec.get("keys") != keys:
        return None
    return [list(r) for r in rec.get("rows", [])], lambda: _unchanged_since(ev.port, rec)


def _unchanged_since(port: WorkbookPort, rec: dict) -> bool:
    """Whether the record may be trusted: the 日志 still holds the row of the command that
    wrote it, and every row from there on came from the same front."""
    rows = _log_rows(port)
    since = int(rec.get("log", 0))
    if len(rows) <= since:  # the writing command's row is gone (undone in a live book?)
        return False
    return all(r.get("front") == rec.get("front") for r in rows[since:])


def _log_rows(port: WorkbookPort) -> list[dict]:
    """The 日志 rows (by column key, read by header), trailing empty rows left out."""
    name = find_sheet(port, L.LOG)
    if name is None:
        return []
    grid = port.read_values(name)
    header = [str(v).strip() if v is not None else "" for v in (grid[0] if grid else [])]
    at = {c.key: next((i for i, h in enumerate(header) if h in (c.zh, c.en, c.key)), None)
          for c in L.LOG.columns}
    rows = [{k: (r[i] if i is not None and i < len(r) else None) for k, i in at.items()}
            for r in grid[1:]]
    while rows and all(v in (None, "") for v in rows[-1].values()):
        rows.pop()
    return rows


def check_record(ev: CoreEvent, layout, df: pd.DataFrame, keys: list[str]) -> None:
    """Compare the record sheet ``df`` (columns ``keys``) with the record the generating
    command kept (its hidden copy, or the style's document property:
    :func:`~bianpai.addin.core_records.saved_record`); every changed, added or deleted cell is
    an error naming it — one row deleted or inserted is named alone, not the rows it moved. A
    sheet shown through a style's view is compared in the columns it shows."""
    record = saved_record(ev, layout, keys)
    if record is None:
        return
    saved, trusted = record
    sheet = df.attrs.get("sheet", layout.zh)
    cols = df.attrs.get("columns", {})
    shown = [k in cols or not df.attrs.get("view") for k in keys]
    now = [(row, [rec.get(k) for k in keys]) for row, rec in _all_records(df)]
    vals = [v for _row, v in now]

    def alike(a: list, b: list) -> bool:
        return all(not see or _same(x, y) for x, y, see in zip(a, b, shown))
    gone, added = _one_apart(saved, vals, alike), _one_apart(vals, saved, alike)
    found: list[InputError] = []
    if gone is not None:  # one row deleted: the rows below it moved up, unchanged
        found.append(_deleted(sheet, gone, [v for v, see in zip(saved[gone], shown) if see]))
    elif added is not None:
        found.append(_added(sheet, now[added][0]))
    for i in range(max(len(saved), len(now))) if not found else ():
        if i >= len(now):
            found.append(_deleted(sheet, i, [v for v, see in zip(saved[i], shown) if see]))
            break
        row, vals_i = now[i]
        if i >= len(saved):
            found.append(_added(sheet, row))
            continue
        for k, a, b, see in zip(keys, saved[i], vals_i, shown):
            if not see or type(a) is type(b) and a == b:  # as _same finds them, without the text
                continue
            if not _same(a, b):
                found.append(InputError(
                    f"“{sheet}”表的值被改动（原为“{_norm(a)}”，现为“{_norm(b)}”）：此表由命令生成，"
                    f"是编排的依据，不能手改；如需调整请撤销或重新抽签/进入下一阶段",
                    f"{sheet} was edited ({_norm(a)!r} → {_norm(b)!r}); it is generated, undo instead",
                    sheet=sheet, cell=f"{cols.get(k, '?')}{row}"))
    if found and trusted():
        ev.errors.extend(found)


def _norm(v) -> str:
    return "" if v is None else str(v).strip()


def _same(a, b) -> bool:
    """Two record values alike as text, numbers by value (a carry of 41.60 reads back as 41.6)."""
    if _norm(a) == _norm(b):
        return True
    try:
        return Decimal(_norm(a)) == Decimal(_norm(b))
    except ArithmeticError:
        return False


def _one_apart(longer: list, shorter: list, alike) -> int | None:
    """The index of the one row of ``longer`` whose removal leaves ``shorter`` (``None``: none)."""
    if len(longer) != len(shorter) + 1:
        return None
    i = next((j for j, (a, b) in enumerate(zip(longer, shorter)) if not alike(a, b)), len(shorter))
    return i if all(alike(longer[j + 1], shorter[j]) for j in range(i, len(shorter))) else None


def _deleted(sheet: str, i: int, was: list) -> InputError:
    row = i + 2
    return InputError(
        f"“{sheet}”表少了第{row}行（原为 {'、'.join(_norm(v) for v in was if _norm(v))}）："
        f"此表由命令生成，请勿删改；如需重抽请撤销或重新抽签",
        f"row {row} of {sheet} was deleted; this sheet is generated: undo instead",
        sheet=sheet, cell=f"{row}:{row}")


def _added(sheet: str, row: int) -> InputError:
    return InputError(f"“{sheet}”表多了第{row}行：此表由命令生成，请勿添加",
                      f"row {row} was added to {sheet}; it is generated",
                      sheet=sheet, cell=f"{row}:{row}")
