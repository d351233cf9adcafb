"""Expensive workbooks built once per test session and copied into each test that starts from
them (the suite runs on two xdist workers: the first worker to ask builds the file under a lock
in the session's shared temporary folder, the other one waits and copies it; the pattern of the
pytest-xdist documentation, "Making session-scoped fixtures execute only once").

A builder must be deterministic (fixed seeds): whichever worker runs it, the file is the same
a test would have made for itself. Tests never write to the shared file: :func:`copy_of` gives
each its own copy (the workbook and nothing else; backups are not copied).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

try:  # POSIX; elsewhere each worker builds its own copy (still once per worker)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None


def _shared_root(factory: pytest.TempPathFactory) -> Path:
    base = factory.getbasetemp()
    # under xdist each worker's basetemp is <session temp>/popen-gwN: the parent is this run's
    # own folder, shared by the workers; without xdist it is the user's folder of all runs, so
    # the cache stays inside this run's basetemp
    if os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None:
        root = base.parent / "bianpai-shared"
    else:
        root = base / "bianpai-shared"
    root.mkdir(exist_ok=True)
    return root


def shared_file(factory: pytest.TempPathFactory, key: str, build: Callable[[Path], None],
                name: str = "event.xlsx") -> Path:
    """The workbook ``name`` made by ``build(path)`` once for the whole session, in its own
    folder ``key`` (with the backups the commands left beside it). Read-only: copy it with
    :func:`copy_of` before changing it."""
    root = _shared_root(factory)
    folder = root / key
    done = root / f"{key}.done"
    if not done.exists():
        with open(root / f"{key}.lock", "w") as lock:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if not done.exists():
                    work = root / f"{key}.building"
                    if work.exists():
                        shutil.rmtree(work)
                    work.mkdir()
                    build(work / name)
                    os.replace(work, folder)
                    done.write_text("ok")
            finally:
                if fcntl is not None:
                    fcntl.flock(lock, fcntl.LOCK_UN)
    return folder / name


def copy_of(src: Path, folder: Path) -> Path:
    """A private copy of a shared workbook in ``folder`` (the test's tmp_path), under the same
    name, with the backups beside it (so ``undo`` finds what the commands before it saved)."""
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / src.name
    shutil.copyfile(src, dest)
    backups = src.parent / f"{src.name}.bianpai-backups"
    if backups.is_dir():
        shutil.copytree(backups, folder / backups.name, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("lock"))
    return dest
