"""A command's view of the workbook: reads see its own writes, and every write is journaled.

:class:`JournalPort` wraps any :class:`~bianpai.workbooks.port.WorkbookPort` for the length of
one command:

* **Reads see the command's own writes** (an overlay of the grids written), which the xlwings
  remote engine cannot do by itself — so code that runs after a command's writes (the status
  shown on the 操作 sheet) reads the workbook as it will be.
* **Undo for live books.** At the first write to a sheet the previous content is kept (the whole
  grid when the command rewrites or deletes the sheet; the overwritten rows when it only writes
  rows into a typed sheet). At :meth:`JournalPort.save` these previous contents go, as JSON
  chunks, into the hidden sheet :data:`UNDO_SHEET` — in the same single write pass as the
  command's own writes (the remote engine cannot read its own writes, so nothing is read back).
  :func:`undo_last` replays the newest entry and drops it; repeated undo walks back to the
  workbook's creation, when the snapshot sheet itself disappears.

Files on the command line keep their backup stack (:mod:`bianpai.workbooks.backups`); snapshots
are written there too when the workbook already carries them or has an 操作 sheet (a macro
workbook used both from Excel and from the command line), so the two histories never diverge.

Nothing here knows about commands: hooks given as ``before_save`` run just before the snapshot
is taken (e.g. the status refresh of :mod:`bianpai.addin.status`), and their writes are
journaled like any other.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from bianpai.engines.errors import BianpaiError, InputError
from bianpai.workbooks.port import Grid, SheetFormat, WorkbookPort

#: The hidden sheet holding the undo entries (one or more rows per entry).
UNDO_SHEET = "_bianpai_undo"
UNDO_HEADER = ["编号 entry", "命令 command", "段 part", "共 parts", "数据 data (JSON)"]
#: Characters of JSON per cell (Excel's limit is 32,767 per cell).
CHUNK = 30_000
SNAPSHOT_VERSION = 1
#: Sheets whose presence turns snapshots on for a file (see the module doc).
SNAPSHOT_MARKERS = (UNDO_SHEET, "操作")

_UNDO_FORMAT = SheetFormat(freeze=None, bold_header=False, header_fill=None, hidden=True,
                           text_columns=[4])


# -- values <-> JSON --------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A written port value as the workbook would give it back (Decimal as float, NaN empty)."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str) and value == "":
        return None
    if value is not None and not isinstance(value, (str, int, float, bool, dt.date, dt.datetime)):
        try:
            import pandas as pd  # noqa: PLC0415

            if pd.isna(value):
                return None
            if isinstance(value, pd.Timestamp):
                return value.to_pydatetime()
        except (TypeError, ValueError):
            pass
        if hasattr(value, "item"):
            return _plain(value.item())
        return str(value)
    return value


def _enc(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return {"$dt": value.isoformat()}
    if isinstance(value, dt.date):
        return {"$d": value.isoformat()}
    return _plain(value)


def _dec(value: Any) -> Any:
    if isinstance(value, dict):
        if "$dt" in value:
            return dt.datetime.fromisoformat(value["$dt"])
        if "$d" in value:
            return dt.date.fromisoformat(value["$d"])
    return value


def _trim(grid: Grid) -> Grid:
    rows = [list(r) for r in grid]
    while rows and all(v is None for v in rows[-1]):
        rows.pop()
    width = max((max((i + 1 for i, v in enumerate(r) if v is not None), default=0)
                 for r in rows), default=0)
    return [r[:width] + [None] * (width - len(r[:width])) for r in rows]


# -- the journal ------------------------------------------------------------------------------

@dataclass
class _Record:
    """The previous state of one sheet, taken at the command's first write to it."""

    name: str
    existed: bool
    position: int | None
    original: Grid
    whole: bool = False  # rewritten or deleted: restore the whole sheet
    fmt: SheetFormat | None = None  # format of the command's write (reused on restore)
    rows: tuple[int, int] | None = None  # 1-based first, last row written by append_rows
    width: int = 0

    def entry(self) -> dict:
        if not self.existed:
            return {"name": self.name, "mode": "absent"}
        if self.whole:
            return {"name": self.name, "mode": "sheet", "position": self.position,
                    "values": [[_enc(v) for v in r] for r in self.original],
                    "format": self.fmt.model_dump() if self.fmt else None}
        first, last = self.rows
        out = []
        for r in range(first, last + 1):
            src = self.original[r - 1] if r - 1 < len(self.original) else []
            out.append([_enc(src[c]) if c < len(src) else None for c in range(self.width)])
        return {"name": self.name, "mode": "cells", "start_row": first, "values": out}


@dataclass
class JournalPort:
    """A :class:`WorkbookPort` over ``inner`` whose reads see its writes and whose writes are
    journaled for undo (see the module doc).

    ``snapshots``: write the undo entry at :meth:`save` (None: when the workbook already has
    one of :data:`SNAPSHOT_MARKERS`). ``command``: the command's name, stored with the entry.
    ``before_save``: callables ``f(port)`` run at :meth:`save` before the snapshot.
    """

    inner: WorkbookPort
    command: str = ""
    snapshots: bool | None = None
    before_save: list[Callable[[JournalPort], None]] = field(default_factory=list)

    def __post_init__(self):
        self._names = list(self.inner.sheet_names())
        if self.snapshots is None:
            self.snapshots = any(m in self._names for m in SNAPSHOT_MARKERS)
        self._overlay: dict[str, Grid] = {}
        self._records: dict[str, _Record] = {}
        self.saved = False

    # -- reading ------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.inner.name

    def sheet_names(self) -> list[str]:
        return list(self._names)

    def _resolve(self, sheet: str) -> str | None:
        if sheet in self._names:
            return sheet
        for n in self._names:
            if n.casefold() == sheet.casefold():
                return n
        return None

    def read_values(self, sheet: str) -> Grid:
        name = self._resolve(sheet)
        if name is None:
            raise InputError(f"工作簿中没有“{sheet}”工作表", f"the workbook has no sheet {sheet!r}",
                             sheet=sheet)
        if name in self._overlay:
            return [list(r) for r in self._overlay[name]]
        return self.inner.read_values(name)

    # -- writing ------------------------------------------------------------------------------
    def _touch(self, name: str) -> _Record:
        rec = self._records.get(name)
        if rec is None:
            existed = name in self._names
            original = self.read_values(name) if existed else []
            rec = _Record(name=name, existed=existed,
                          position=self._names.index(name) if existed else None,
                          original=original)
            self._records[name] = rec
        return rec

    def write_sheet(self, sheet: str, values: Grid, fmt: SheetFormat | None = None,
                    *, position: int | None = None) -> None:
        name = self._resolve(sheet) or sheet
        rec = self._touch(name)
        rec.whole = True
        rec.fmt = fmt.model_copy(deep=True) if fmt is not None else None
        self.inner.write_sheet(name, values, fmt, position=position)
        if name not in self._names:
            if position is None or position >= len(self._names):
                self._names.append(name)
            else:
                self._names.insert(max(position, 0), name)
        self._overlay[name] = _trim([[_plain(v) for v in row] for row in values])

    def append_rows(self, sheet: str, rows: Grid, *, start_row: int) -> None:
        name = self._resolve(sheet) or sheet
        rec = self._touch(name)
        width = max((len(r) for r in rows), default=0)
        if rows:
            last = start_row + len(rows) - 1
            rec.rows = (start_row, last) if rec.rows is None else (
                min(rec.rows[0], start_row), max(rec.rows[1], last))
            rec.width = max(rec.width, width)
        current = self.read_values(name)
        self.inner.append_rows(name, rows, start_row=start_row)
        grid = [list(r) for r in current]
        for i, row in enumerate(rows):
            r = start_row - 1 + i
            while len(grid) <= r:
                grid.append([])
            line = grid[r]
            if len(line) < len(row):
                line.extend([None] * (len(row) - len(line)))
            for c, v in enumerate(row):
                line[c] = _plain(v)
        self._overlay[name] = _trim(grid)

    def delete_sheet(self, sheet: str) -> None:
        name = self._resolve(sheet)
        if name is None:
            return
        rec = self._touch(name)
        rec.whole = True
        self.inner.delete_sheet(name)
        self._names.remove(name)
        self._overlay.pop(name, None)

    def notify(self, message: str) -> None:
        self.inner.notify(message)

    def save(self) -> None:
        for hook in self.before_save:
            hook(self)
        if self.snapshots and self._records:
            push_snapshot(self.inner, self.command, [r.entry() for r in self._records.values()],
                          names=self._names)
        self.inner.save()
        self.saved = True

    # -- for callers ---------------------------------------------------------------------------
    def __getattr__(self, attr: str):
        # anything beyond the protocol (e.g. an adapter's close/lock) is the inner port's
        if attr.startswith("_") or attr == "inner":
            raise AttributeError(attr)
        return getattr(self.inner, attr)

    @property
    def touched(self) -> list[str]:
        """Sheets written by the command so far (in order of first write)."""
        return list(self._records)


# -- the snapshot sheet -----------------------------------------------------------------------

def _entries(port: WorkbookPort, names: list[str] | None = None) -> dict[int, dict]:
    """Undo entries of the workbook: entry number -> {"command", "chunks"} (file order)."""
    names = port.sheet_names() if names is None else names
    if UNDO_SHEET not in names:
        return {}
    grid = port.read_values(UNDO_SHEET)
    out: dict[int, dict] = {}
    for row in grid[1:]:
        row = list(row) + [None] * (5 - len(row))
        if row[0] is None or row[4] is None:
            continue
        try:
            n = int(row[0])
        except (TypeError, ValueError):
            continue
        e = out.setdefault(n, {"command": row[1], "chunks": {}})
        e["chunks"][int(row[2] or 1)] = str(row[4])
    return out


def undo_depth(port: WorkbookPort) -> int:
    """How many commands :func:`undo_last` can still undo."""
    return len(_entries(port))


def push_snapshot(port: WorkbookPort, command: str, sheets: list[dict], *,
                  names: list[str] | None = None) -> int:
    """Add one undo entry (the previous state of ``sheets``) to :data:`UNDO_SHEET` of ``port``,
    reading only what the command has not written (the snapshot sheet itself). Returns the
    entry number."""
    names = port.sheet_names() if names is None else names
    existing = _entries(port, names) if UNDO_SHEET in names else {}
    n = max(existing, default=0) + 1
    text = json.dumps({"v": SNAPSHOT_VERSION, "command": command, "sheets": sheets},
                      ensure_ascii=False, separators=(",", ":"))
    chunks = [text[i:i + CHUNK] for i in range(0, len(text), CHUNK)] or ["{}"]
    rows = [[n, command, i + 1, len(chunks), c] for i, c in enumerate(chunks)]
    if UNDO_SHEET not in names:
        port.write_sheet(UNDO_SHEET, [UNDO_HEADER] + rows, _UNDO_FORMAT)
    else:
        used = len(port.read_values(UNDO_SHEET))
        port.append_rows(UNDO_SHEET, rows, start_row=max(used, 1) + 1)
    return n


def undo_last(port: WorkbookPort) -> str:
    """Restore the sheets of the newest undo entry and drop the entry (one write pass, then
    ``port.save()``). Returns the undone command's name. Raises ``BianpaiError`` when there is
    nothing to undo."""
    entries = _entries(port)
    if not entries:
        raise BianpaiError("没有可撤销的操作（已回到工作簿创建时的状态）",
                           "nothing to undo (the workbook is as it was created)")
    last = max(entries)
    e = entries[last]
    chunks = e["chunks"]
    text = "".join(chunks[k] for k in sorted(chunks))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BianpaiError(f"撤销记录 {last} 已损坏，无法撤销", f"undo entry {last} is damaged") from exc
    sheets = data.get("sheets", [])
    names = port.sheet_names()
    for s in sheets:  # sheets the command created
        if s["mode"] == "absent" and s["name"] in names:
            port.delete_sheet(s["name"])
    for s in sorted((s for s in sheets if s["mode"] == "sheet"),
                    key=lambda s: (s.get("position") is None, s.get("position") or 0)):
        fmt = SheetFormat.model_validate(s["format"]) if s.get("format") else None
        values = [[_dec(v) for v in r] for r in s["values"]]
        position = None if s["name"] in names else s.get("position")
        port.write_sheet(s["name"], values, fmt, position=position)
    for s in sheets:
        if s["mode"] == "cells" and s["values"]:
            port.append_rows(s["name"], [[_dec(v) for v in r] for r in s["values"]],
                             start_row=s["start_row"])
    remaining = [[k, entries[k]["command"], p, len(entries[k]["chunks"]), entries[k]["chunks"][p]]
                 for k in sorted(entries) if k != last for p in sorted(entries[k]["chunks"])]
    if remaining:
        port.write_sheet(UNDO_SHEET, [UNDO_HEADER] + remaining, _UNDO_FORMAT)
    else:
        port.delete_sheet(UNDO_SHEET)
    port.save()
    return data.get("command") or str(e["command"] or "")
