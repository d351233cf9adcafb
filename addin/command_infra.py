"""What every command shares: its result, generated-sheet writing, the 日志 row, saving.

A command reads everything, validates, computes, then writes generated sheets whole
(:func:`write_generated`), appends a 日志 row (:func:`log`: time, command, arguments, random
seed, summary, front) and saves once (:func:`finish`). ``FRONT`` names the front that pressed
the button (set by :mod:`bianpai.addin.fronts`); ``TITLE`` the event title printed in page
headers. Nothing here knows a sport or a format.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field
from typing import Any

from bianpai.engines.errors import InputError, InputErrors
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import find_sheet

FRONT = {"name": "cli"}
#: The event title printed in page headers; set by the commands when they read the 规程.
from bianpai.workbooks.print_setup import TITLE  # noqa: E402  (the event title, shared)


@dataclass
class CommandResult:
    """What a command did: ``summary_zh``/``summary_en`` for the user and the log, ``seed`` used,
    ``findings`` (校验 rows) and ``data`` (e.g. standings per group for ``--json``)."""

    command: str
    summary_zh: str
    summary_en: str
    seed: int | None = None
    findings: list[dict] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    #: (state, next step) when the command knows them (see :func:`bianpai.addin.status.write_status`)
    status_hint: tuple[str, str] | None = None
    #: the core event the status line is computed from after the command's writes (:func:`finish`)
    #: instead of reading the workbook again: the event as the command read it, when it changed
    #: nothing the event is read from (check, awards); or a function reading it then (draw)
    status_event: Any = None
    #: the core event as the workbook reads after the command (a function, read once when first
    #: called): a caller chaining commands on one open port (the demo) takes it instead of
    #: reading the workbook again; ``None`` when the command offers none
    event_after: Any = None


# --- helpers ---------------------------------------------------------------------------------

def _name(layout: L.SheetLayout, port: WorkbookPort, lang: str) -> str:
    return find_sheet(port, layout) or layout.name(lang)


def _position(layout: L.SheetLayout, port: WorkbookPort) -> int | None:
    """Where a new sheet goes: before the first existing sheet that comes later in
    :data:`bianpai.workbooks.layouts.ORDER` (end when none)."""
    later = L.ORDER[L.ORDER.index(layout.key) + 1:] if layout.key in L.ORDER else []
    names = port.sheet_names()
    for i, n in enumerate(names):
        key = L.KEY_OF_NAME.get(n)
        if key in later:
            return i
    return None


def write_generated(port: WorkbookPort, layout: L.SheetLayout, rows: list[list], lang: str,
                    *, extra_headers: list[tuple[str, str]] | None = None,
                    extra_formats: list[str] | None = None,
                    position: int | None = None, title: str | None = None,
                    break_on: tuple[int, ...] = ()) -> None:
    """Rebuild a generated sheet whole: header (plus extra columns) and rows. ``title`` (the
    event's name) heads every printed page."""
    header = layout.headers(lang)
    fmt = layout.sheet_format(lang=lang)
    if fmt.print_setup is not None:
        fmt.print_setup.title = title or TITLE.get("text")
        if break_on:  # a printed page per value of these columns (e.g. group and round)
            keys = [tuple(r[i] for i in break_on) for r in rows]
            fmt.page_breaks = [i + 1 for i in range(1, len(keys)) if keys[i] != keys[i - 1]]
    if extra_headers:
        # extra columns are inserted before the last layout column (说明 stays last)
        header = header[:-1] + [zh if lang == "zh" else en for zh, en in extra_headers] + header[-1:]
        last = fmt.columns[-1]
        from bianpai.workbooks.port import ColumnFormat
        for i, _ in enumerate(extra_headers):
            nf = extra_formats[i] if extra_formats and i < len(extra_formats) else "0.00"
            fmt.columns.insert(len(fmt.columns) - 1, ColumnFormat(index=len(layout.columns) - 1 + i,
                                                                  width=10, number_format=nf))
        last.index = len(header) - 1
        fmt.text_columns = [i for i in fmt.text_columns if i < len(layout.columns) - 1] + [
            len(header) - 1]
    if position is None and find_sheet(port, layout) is None:
        position = _position(layout, port)
    port.write_sheet(_name(layout, port, lang), [header] + rows, fmt, position=position)


SETTINGS_SNAPSHOT = "_bianpai_settings"


def settings_changes(port: WorkbookPort) -> list[tuple[str, Any, Any]]:
    """Values of the 规程 sheet changed since the last command, as ``(path, old, new)``, and
    the hidden snapshot sheet brought up to date (created on the first command). Rows added or
    removed are reported as changes from/to empty."""
    from bianpai.workbooks.port import SheetFormat
    from bianpai.workbooks.tables import read_settings
    if find_sheet(port, L.SETTINGS) is None:
        return []
    cur = {k: v for k, (v, _row) in read_settings(port, L.SETTINGS).items()}
    text = {k: "" if v is None else str(v).strip() for k, v in cur.items()}
    old: dict[str, str] | None = None
    if SETTINGS_SNAPSHOT in port.sheet_names():
        old = {str(r[0]): ("" if len(r) < 2 or r[1] is None else str(r[1]))
               for r in port.read_values(SETTINGS_SNAPSHOT)[1:] if r and r[0] is not None}
    changes = [] if old is None else [
        (k, old.get(k, ""), text.get(k, "")) for k in list(text) + [k for k in old if k not in text]
        if old.get(k, "") != text.get(k, "")]
    if old is None or changes:
        port.write_sheet(SETTINGS_SNAPSHOT, [["path", "value"]] + [[k, v] for k, v in text.items()],
                         SheetFormat(hidden=True, freeze=None, header_fill=None, bold_header=False,
                                     text_columns=[0, 1]))
    return changes


def _setting_names(port: WorkbookPort) -> dict[str, str]:
    """``{path: "名称（规程!C12）"}`` of the 规程 sheet: how the organizer finds a changed
    setting (its Chinese name and the cell of its value), shown before its path in the log."""
    name = find_sheet(port, L.SETTINGS)
    if name is None:
        return {}
    out = {}
    for r, row in enumerate(port.read_values(name)[1:], start=2):
        if row and row[0] not in (None, "") and len(row) > 1 and row[1] not in (None, ""):
            out[str(row[0]).strip()] = f"{row[1]}（{name}!C{r}）"
    return out


def log(port: WorkbookPort, result: CommandResult, args: dict, lang: str) -> None:
    """Append one row to 日志 (created when missing). A 规程 value changed since the last
    command is logged in the summary as ``设置项: old → new``."""
    changes = settings_changes(port)
    if changes:
        named = _setting_names(port)
        result.summary_zh += "；规程修改：" + "；".join(
            f"{named.get(k, '')}{k}：{a or '（空）'} → {b or '（空）'}" for k, a, b in changes)
        result.summary_en += "; regulation changed: " + "; ".join(f"{k}: {a!r} -> {b!r}"
                                                                   for k, a, b in changes)
    from bianpai.addin.undo_log import pending_rows  # noqa: PLC0415
    undos = pending_rows(port, lang, FRONT["name"])  # undo (--force) since the last command
    name = find_sheet(port, L.LOG)
    row = [dt.datetime.now().replace(microsecond=0), result.command,
           ", ".join(f"{k}={v}" for k, v in args.items() if v is not None),
           "" if result.seed is None else str(result.seed),
           result.summary_zh if lang == "zh" else result.summary_en, FRONT["name"]]
    if name is None:
        port.write_sheet(L.LOG.name(lang), [L.LOG.headers(lang), *undos, row],
                         L.LOG.sheet_format(lang=lang), position=_position(L.LOG, port))
        return
    existing = port.read_values(name)
    port.append_rows(name, [*undos, row], start_row=max(len(existing), 1) + 1)


def invalidate_awards(port: WorkbookPort, lang: str) -> bool:
    """After a new ranking, empty the award sheets (奖励, 领奖签收表, 证书) that were built from
    the old one, so nothing stale is printed; True when something was emptied."""
    emptied = False
    for layout in (L.AWARDS, L.AWARD_RECEIPTS, L.CERTIFICATES):
        name = find_sheet(port, layout)
        if name is not None and len(port.read_values(name)) > 1:
            write_generated(port, layout, [], lang)
            emptied = True
    return emptied


def finish(port: WorkbookPort, result: CommandResult, args: dict, lang: str) -> CommandResult:
    log(port, result, args, lang)
    hint = result.status_hint
    if hint is None and result.status_event is not None:  # the inputs as read: same status
        from bianpai.addin.status import core_status_of  # noqa: PLC0415
        try:
            ev = result.status_event
            hint = core_status_of(ev() if callable(ev) else ev, port)
        except Exception:  # noqa: BLE001 - the status line reads the workbook itself then
            hint = None
    if hint:  # the state the command computed: the status line need not re-read
        try:
            port.status_hint = hint
        except AttributeError:
            pass
    port.save()
    from bianpai.addin.undo_log import clear_pending  # noqa: PLC0415
    clear_pending(port)
    return result


def new_seed() -> int:
    """A fresh random seed for a draw; it is written to 日志 so the draw can be repeated."""
    return secrets.randbelow(10**9)


def gate_roster(errors: list[InputError], found: list[tuple[str, InputError]],
                accept_warnings: str | None) -> list[InputError]:
    """Refuse a draw (``InputErrors``) on any roster error, and on warnings not accepted with a
    reason; return the accepted warnings (for the 日志 summary)."""
    errs = list(errors) + [e for sev, e in found if sev == "error"]
    if errs:
        raise InputErrors(errs)
    warnings = [e for sev, e in found if sev == "warning"]
    if warnings and not accept_warnings:
        raise InputErrors([InputError(
            f"名单警告须说明理由后接受（--accept-warnings \"理由\"，或在“操作”表填写理由）：{e.zh}",
            f"roster warning; accept it with a reason (--accept-warnings): {e.en}",
            sheet=e.sheet, cell=e.cell) for e in warnings])
    return warnings


def _finding_rows(errors: list[tuple[str, InputError]], lang: str) -> list[list]:
    sev = {"error": ("错误", "error"), "warning": ("警告", "warning")}
    rows = []
    for s, e in errors:
        zh, en = sev.get(s, (s, s))
        rows.append([zh if lang == "zh" else en, e.where, e.zh, e.en])
    return rows


def too_many_entries(group, n: int, sheet: str, cell: str | None = None) -> InputError | None:
    """The error for a group with more entries than its ``max_entries`` (the 规程's ceiling, e.g.
    深圳 七（一）3 "男子组8对、女子组4对、混合组4对"), or None. ``n``: entries on the roster."""
    cap = group.max_entries
    if cap is None or n <= cap:
        return None
    why = f"（{group.max_entries_note}）" if group.max_entries_note else ""
    return InputError(f"{group.name_zh}报名 {n} 个，超过规程规定的 {cap} 个{why}",
                      f"{group.name_en or group.id}: {n} entries, more than the {cap} the "
                      f"regulation admits", sheet=sheet, cell=cell)
