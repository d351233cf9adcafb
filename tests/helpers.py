"""Shared builders for workbook tests."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import openpyxl

from bianpai.addin import commands
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort


def new_event(path: Path, preset: str = "shenzhen-guandan-pairs-2023", lang: str = "zh") -> Path:
    port = OpenpyxlPort(path, create=True, command="new")
    commands.build_workbook(port, load_preset(preset), lang=lang)
    return path


def pair_row(group, n1, n2, g1="男", g2="男", b1=dt.date(1970, 1, 1), b2=dt.date(1980, 6, 1),
             unit="深圳", number=None):
    return [group, number, n1, g1, b1, None, n2, g2, b2, None, unit, None, None]


def fill(path: Path, sheet: str, rows: list[list], start_row: int = 2) -> None:
    """Type rows into a sheet the way a user would (openpyxl directly, no bianpai code)."""
    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    for r, row in enumerate(rows, start=start_row):
        for c, v in enumerate(row, start=1):
            ws.cell(row=r, column=c, value=v)
    wb.save(path)


def sheet_rows(path: Path, sheet: str) -> list[tuple]:
    """Every row of one sheet as openpyxl reads it (values, rows padded to the widest), parsing
    that sheet only (read-only mode) instead of the whole workbook."""
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        ws = wb[sheet]
        ws.reset_dimensions()  # the rows as stored, not a possibly stale <dimension>
        rows = [tuple(r) for r in ws.iter_rows(values_only=True)]
    finally:
        wb.close()
    width = max((len(r) for r in rows), default=0)
    return [r + (None,) * (width - len(r)) for r in rows]


def four_pairs(path: Path) -> None:
    fill(path, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 5)])


def digest(path: Path) -> str:
    """sha256 of a file: a refused command must leave it byte-identical."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def set_setting(path: Path, key: str, value) -> None:
    """Type ``value`` into the 值 cell of 规程 row ``key`` (column 设置项), as an organizer edits a
    rule. Raises ``KeyError`` when the workbook has no such row."""
    wb = openpyxl.load_workbook(path)
    for row in wb["规程"].iter_rows(min_row=2):
        if row[0].value == key:
            row[2].value = value
            break
    else:
        raise KeyError(key)
    wb.save(path)
