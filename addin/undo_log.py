"""``undo`` and ``--force`` in 日志 (issue 12: "a change to a 规程 value, undo and --force are
written to 日志").

:func:`bianpai.workbooks.backups.undo` restores the newest backup byte for byte, so the restored
workbook's 日志 ends before the command that was undone and nothing in it says an undo happened
or that ``--force`` discarded typing done after that command. :func:`note_undo` keeps that fact
beside the backups (``<name>.bianpai-backups/pending-log.json``); the next command that writes
the workbook puts it in 日志 just before its own row (:func:`pending_rows`, called by
:func:`bianpai.addin.command_infra.log`) and :func:`clear_pending` drops it once that command
saved.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from bianpai.workbooks.backups import backup_dir

__all__ = ["note_undo", "pending_rows", "clear_pending"]

PENDING = "pending-log.json"


def _file(workbook: Path) -> Path:
    return backup_dir(Path(workbook)) / PENDING


def note_undo(workbook: Path, restored: Path, force: bool) -> str:
    """Remember an undo of ``workbook`` (``restored``: the backup put back, ``0007-rank.xlsx``
    → rank was undone); with ``force`` also where the discarded file was kept
    (``undone/…``). Returns the Chinese text that 日志 will show."""
    undone = restored.stem.split("-", 1)[-1]
    d = backup_dir(Path(workbook))
    kept = sorted((d / "undone").glob("*")) if (d / "undone").is_dir() else []
    zh = f"撤销“{undone}”：工作簿恢复到该操作之前"
    en = f"undid {undone}: the workbook is as it was before it"
    if force:
        where = f"{d.name}/undone/{kept[-1].name}" if kept else f"{d.name}/undone/"
        zh += f"（--force：撤销前的文件连同其后的改动另存为 {where}）"
        en += f" (--force: the file as it was, with any later typing, is kept as {where})"
    f = _file(workbook)
    notes = json.loads(f.read_text(encoding="utf-8")) if f.is_file() else []
    notes.append({"time": dt.datetime.now().replace(microsecond=0).isoformat(),
                  "args": "force=True" if force else "", "zh": zh, "en": en})
    if d.is_dir():
        f.write_text(json.dumps(notes, ensure_ascii=False), encoding="utf-8")
    return zh


def _out(port) -> Path | None:
    """The file a port (or a port wrapping one, ``inner``) writes; None for a live book."""
    while getattr(port, "out", None) is None and getattr(port, "inner", None) is not None:
        port = port.inner
    out = getattr(port, "out", None)
    return Path(out) if out is not None else None


def pending_rows(port, lang: str, front: str) -> list[list]:
    """日志 rows (时间, 命令, 参数, 随机种子, 摘要, 前端) of the undos noted for the file ``port``
    writes (``port.out``); ``[]`` for a port without a file or without notes."""
    out = _out(port)
    if out is None:
        return []
    f = _file(out)
    try:
        notes = json.loads(f.read_text(encoding="utf-8")) if f.is_file() else []
    except (OSError, ValueError):
        return []
    return [[dt.datetime.fromisoformat(n["time"]), "undo", n["args"], "",
             n["zh"] if lang == "zh" else n["en"], front] for n in notes]


def clear_pending(port) -> None:
    """Drop the noted undos once ``port``'s command has saved them into 日志."""
    out = _out(port)
    if out is not None:
        _file(out).unlink(missing_ok=True)
