"""The backup stack of a workbook file: every save keeps the previous file, and undo restores it.

Backups live beside the workbook in ``<name>.bianpai-backups/`` as ``NNNN-<command>.<suffix>``
(NNNN increasing). :func:`undo` moves the newest backup back over the workbook, so repeated undo
walks back to the workbook's creation.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bianpai.engines.errors import BianpaiError


def backup_dir(path: Path) -> Path:
    return path.parent / f"{path.name}.bianpai-backups"


def stack(path: Path) -> list[Path]:
    """Backups of ``path``, oldest first."""
    d = backup_dir(Path(path))
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.is_file() and p.name[:4].isdigit())


def push(path: Path, command: str) -> Path:
    """Copy the current ``path`` onto the stack before it is replaced; return the copy."""
    path = Path(path)
    d = backup_dir(path)
    d.mkdir(exist_ok=True)
    existing = stack(path)
    n = int(existing[-1].name[:4]) + 1 if existing else 1
    safe = "".join(ch for ch in command if ch.isalnum() or ch in "-_") or "save"
    dest = d / f"{n:04d}-{safe}{path.suffix}"
    shutil.copy2(path, dest)
    return dest


def undo(path: Path) -> Path:
    """Restore the newest backup over ``path`` (atomic rename) and drop it from the stack.

    Returns the backup that was restored. Raises ``BianpaiError`` when there is nothing to undo.
    """
    path = Path(path)
    items = stack(path)
    if not items:
        raise BianpaiError(f"{path.name} 没有可撤销的操作", f"nothing to undo for {path.name}")
    last = items[-1]
    tmp = path.parent / f".{path.name}.undo"
    shutil.copy2(last, tmp)
    os.replace(tmp, path)
    last.unlink()
    return last
