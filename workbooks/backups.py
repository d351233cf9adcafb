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


def ensure_dir(path: Path) -> Path:
    """The backup folder of ``path``, created when missing; refused when a file has its name."""
    d = backup_dir(Path(path))
    if d.exists() and not d.is_dir():
        raise BianpaiError(
            f"“{d.name}”应是存放备份的文件夹，现在却是一个文件；未写入任何内容。请把它改名或移走后再试",
            f"{d.name} should be the folder of backups but is a file; nothing written. Rename or "
            f"move it, then try again")
    d.mkdir(parents=True, exist_ok=True)
    return d


def stack(path: Path) -> list[Path]:
    """Backups of ``path``, oldest first."""
    d = backup_dir(Path(path))
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.is_file() and p.name[:4].isdigit())


def push(path: Path, command: str) -> Path:
    """Copy the current ``path`` onto the stack before it is replaced; return the copy."""
    path = Path(path)
    d = ensure_dir(path)
    existing = stack(path)
    n = int(existing[-1].name[:4]) + 1 if existing else 1
    safe = "".join(ch for ch in command if ch.isalnum() or ch in "-_") or "save"
    dest = d / f"{n:04d}-{safe}{path.suffix}"
    shutil.copy2(path, dest)
    return dest


def _digest(path: Path) -> str:
    """The fingerprint of the workbook at ``path`` as typing would change it: every sheet's name
    and cell values in place (python-calamine), so a save that changes nothing (Excel's or WPS's
    Ctrl+S rewrites the whole package) is not taken for typing; ``"bytes:…"`` of the file when
    calamine cannot read it. A change of formats only is not seen (undo keeps the current file
    in ``undone/`` anyway)."""
    import hashlib
    try:
        from python_calamine import CalamineWorkbook
        book = CalamineWorkbook.from_path(str(path))
        h = hashlib.sha256()
        for name in book.sheet_names:
            h.update(repr(name).encode())
            for row in book.get_sheet_by_name(name).to_python(skip_empty_area=False):
                h.update(repr(row).encode())
            h.update(b"\x00")
        return "values:" + h.hexdigest()
    except Exception:  # noqa: BLE001 - unreadable by calamine: the file itself
        return "bytes:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _same(mark: Path, path: Path) -> bool:
    """Whether ``path`` is still what the fingerprint ``mark`` recorded (a mark of an earlier
    release holds the bare digest of the file's bytes)."""
    import hashlib
    text = mark.read_text().strip()
    if ":" not in text:
        return text == hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return text == _digest(path)


def _after_mark(backup: Path) -> Path:
    """Where the fingerprint of the file the command of ``backup`` left is kept."""
    return backup.parent / "after" / f"{backup.name}.sha256"


def mark_written(path: Path, *, after_command: bool = True) -> None:
    """Remember the fingerprint of the file bianpai just wrote (to notice later typing); after a
    command (not an undo) also as the state that command left, beside its backup, so an undo
    further back still notices typing done after it (see :func:`undo`)."""
    d = ensure_dir(Path(path))
    digest = _digest(path)
    (d / "last-written.sha256").write_text(digest)
    items = stack(path) if after_command else []
    if items:
        mark = _after_mark(items[-1])
        mark.parent.mkdir(exist_ok=True)
        mark.write_text(digest)


def changed_since_written(path: Path) -> bool:
    """True when the values in ``path`` differ from what bianpai last wrote (the user typed since;
    a save that changed no value is not typing)."""
    mark = backup_dir(Path(path)) / "last-written.sha256"
    return mark.exists() and not _same(mark, path)


def changed_since_command(path: Path, backup: Path) -> bool:
    """True when ``path`` differs from the file the command of ``backup`` left: undoing that
    command would discard what was typed after it (an undo of a later command restored that
    typing). False when that state was not recorded (a backup of an older version)."""
    mark = _after_mark(backup)
    return mark.exists() and not _same(mark, path)


def damaged(path: Path) -> str | None:
    """Why the workbook file at ``path`` would not open (None when it opens)."""
    import zipfile

    try:
        if Path(path).stat().st_size == 0:
            return "文件为空 / empty file"
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            if "[Content_Types].xml" not in names or not any(
                    n.endswith("workbook.xml") for n in names):
                return "不是 Excel 工作簿 / not an Excel workbook"
            bad = z.testzip()
            if bad:
                return f"压缩内容损坏 / corrupt part {bad}"
        import openpyxl

        wb = openpyxl.load_workbook(path, read_only=True)
        wb.close()
    except Exception as exc:  # noqa: BLE001 - any failure to open is the answer
        return f"无法打开 / cannot open: {type(exc).__name__}"
    return None


def undo(path: Path, *, force: bool = False) -> Path:
    """Restore the newest backup over ``path`` (atomic rename) and drop it from the stack.

    The current file is first kept in ``undone/`` beside the backups, so nothing is ever lost.
    When the user has typed into the workbook since bianpai last wrote it, undo would throw that
    typing away: it refuses unless ``force`` (the current file is kept in ``undone/`` anyway).
    Returns the backup that was restored. Raises ``BianpaiError`` when there is nothing to undo.
    """
    path = Path(path)
    if path.is_dir():
        raise BianpaiError(f"{path} 是一个文件夹，不是工作簿", f"{path} is a folder, not a workbook")
    items = stack(path)
    if not items:
        raise BianpaiError(f"{path.name} 没有可撤销的操作", f"nothing to undo for {path.name}")
    if not force and path.exists() and (changed_since_written(path)
                                        or changed_since_command(path, items[-1])):
        raise BianpaiError(
            f"{path.name} 在上次操作之后有改动（例如新录入的成绩）；撤销会丢弃这些改动。"
            f"如确需撤销请加 --force（当前文件会另存在 {backup_dir(path).name}/undone/）",
            f"{path.name} was changed after the last command (e.g. results typed); undo would "
            f"discard that. Use --force to undo anyway (the current file is kept in undone/)")
    last = items[-1]
    problem = damaged(last)
    if problem:
        raise BianpaiError(
            f"最近的备份 {backup_dir(path).name}/{last.name} 已损坏（{problem}），未恢复；"
            f"{path.name} 未改动。可把该备份移走后再撤销到更早的版本",
            f"the newest backup {last.name} is damaged ({problem}); nothing restored and "
            f"{path.name} is unchanged. Move that backup away to undo to an older version")
    undone = backup_dir(path) / "undone"
    undone.mkdir(exist_ok=True)
    n = len(list(undone.iterdir())) + 1
    if path.exists():
        shutil.copy2(path, undone / f"{n:04d}-before-undo{path.suffix}")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path  # keep a link a link
    tmp = target.parent / f".{path.name}.undo"
    shutil.copy2(last, tmp)
    os.replace(tmp, target)
    last.unlink()
    _after_mark(last).unlink(missing_ok=True)
    mark_written(path, after_command=False)
    return last
