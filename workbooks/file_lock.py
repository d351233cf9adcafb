"""The file side of a save: its target through a symbolic link, temporary files left by a
killed save, and the lock one command holds on a workbook (:class:`FileLock`). For
:class:`~bianpai.workbooks.openpyxl_port.OpenpyxlPort`."""

from __future__ import annotations

import os
import re
from pathlib import Path

from bianpai.engines.errors import BianpaiError
from bianpai.workbooks import backups

TEMP_SUFFIX = ".bianpai-tmp"


def _write_target(path: Path) -> Path:
    """Where a save of ``path`` writes: the file a symbolic link points to (the link is kept)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove temporary files a killed save left beside ``path`` (call it holding the lock).
    Returns the files removed."""
    path = Path(path)
    gone = []
    for d in {path.parent, _write_target(path).parent}:
        if not d.is_dir():
            continue
        legacy = re.compile(re.escape(f".{path.stem}.") + r"[a-z0-9_]{8}" + re.escape(path.suffix))
        for p in d.iterdir():
            n = p.name
            if (n.startswith(f".{path.name}.") and n.endswith(TEMP_SUFFIX)) or legacy.fullmatch(n) \
                    or n == f".{path.name}.undo":
                try:
                    p.unlink()
                    gone.append(p)
                except OSError:
                    pass
    return gone


def open_elsewhere(path: Path) -> Path | None:
    """The lock file an office program keeps beside ``path`` while it has the workbook open
    (Excel and WPS ``~$name``, WPS ``.~name``, LibreOffice ``.~lock.name#``), or ``None``. A
    save in place then would be overwritten when that program saves, or would write under
    what the user sees."""
    path = _write_target(Path(path))
    for cand in (f"~${path.name}", f".~{path.name}", f".~lock.{path.name}#"):
        lock = path.parent / cand
        if lock.is_file():
            return lock
    return None


def refuse_if_open_elsewhere(path: Path) -> None:
    """Raise :class:`BianpaiError` (nothing written) while :func:`open_elsewhere` finds a lock."""
    lock = open_elsewhere(path)
    if lock is not None:
        raise BianpaiError(
            f"{Path(path).name} 正在被 Excel/WPS 打开（发现锁文件 {lock.name}），未写入：请先在 Excel/WPS 中"
            f"保存并关闭它再运行，或用 --out 另存；如确已关闭，请删除该锁文件",
            f"{Path(path).name} is open in Excel/WPS (lock file {lock.name}); nothing written: "
            f"save and close it first, or write with --out; if it is closed, delete the lock file")


class FileLock:
    """An exclusive advisory lock on ``<workbook>.bianpai-backups/lock`` held from reading a workbook
    until it is saved, so two commands (processes) on one file cannot lose each other's writes.
    Within one process the lock is shared (counted), so nested ports of one command never
    block each other."""

    _held: dict[str, list] = {}  # lock path -> [file handle, count]

    def __init__(self, path: Path):
        self.workbook = Path(path)
        self.path = backups.backup_dir(path) / "lock"
        self.key = str(self.path.resolve()) if self.path.parent.exists() else str(self.path)
        self.mine = False

    def acquire(self) -> None:
        if self.mine:
            return
        try:
            import fcntl
        except ImportError:  # Windows: the desktop front runs inside Excel, one command at a time
            return
        held = self._held.get(self.key)
        if held is not None:
            held[1] += 1
            self.mine = True
            return
        backups.ensure_dir(self.workbook)
        fh = open(self.path, "a+")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise BianpaiError("另一个 bianpai 命令正在处理此工作簿，请稍后再试",
                               "another bianpai command is working on this workbook; try again")
        self._held[self.key] = [fh, 1]
        self.mine = True

    def release(self) -> None:
        if not self.mine:
            return
        self.mine = False
        held = self._held.get(self.key)
        if held is None:
            return
        held[1] -= 1
        if held[1] <= 0:
            held[0].close()
            del self._held[self.key]
