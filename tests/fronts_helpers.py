"""Shared pieces of the fronts tests: a real .xlsx fixture and a stand-in command.

The stand-in command has the shape of the real ones in ``bianpai.addin.commands``: it reads a
typed sheet through the port, computes, and writes a generated sheet once (with formats), adds
a blank entry row to the typed sheet and notifies the user.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import random
from decimal import Decimal

from openpyxl import Workbook

from bianpai.workbooks.port import ColumnFormat, PrintSetup, SheetFormat

ROSTER = [
    ["编号", "队名", "单位", "报到日期", "积分"],
    [1, "深圳一队", "福田", dt.datetime(2026, 3, 1), 70.1],
    [2, "=HYPERLINK(\"http://x\")", "南山", dt.datetime(2026, 3, 2), 55],
    [3, "@evil", "", None, 61.25],
    [4, "-2+3", "+86 755", dt.datetime(2026, 3, 2, 9, 30), 40],
]


def make_fixture(path) -> str:
    """A roster workbook. Row 3 and 4 hold text that looks like formulas (typed as text)."""
    wb = Workbook()
    ws = wb.active
    ws.title = "报名"
    for r, row in enumerate(ROSTER, start=1):
        for c, v in enumerate(row, start=1):
            cell = ws.cell(r, c)
            cell.value = v
            if isinstance(v, str) and v[:1] in "=+-@":
                cell.data_type = "s"  # text typed by the user, not a formula
            if isinstance(v, dt.datetime):
                cell.number_format = "yyyy-mm-dd"
    info = wb.create_sheet("说明")
    info["A1"] = "规程 stand-in"
    wb.save(path)
    return os.fspath(path)


STANDINGS_FORMAT = SheetFormat(
    columns=[
        ColumnFormat(index=0, width=6, number_format="0"),
        ColumnFormat(index=1, width=18),
        ColumnFormat(index=3, width=12, number_format="yyyy-mm-dd"),
        ColumnFormat(index=4, width=10, number_format="0.00"),
        ColumnFormat(index=5, width=10, choices=["是", "否"]),
    ],
    text_columns=[2],
    print_setup=PrintSetup(landscape=True),
    table_name="排名表",
)


def standings_grid(roster: list[list]) -> list[list]:
    header = ["名次", "队名", "单位", "报到日期", "带分", "确认"]
    body = sorted(roster[1:], key=lambda r: -(r[4] or 0))
    rows = []
    for i, r in enumerate(body, start=1):
        carry = (Decimal(str(r[4])) * Decimal("0.25")).quantize(Decimal("0.01"))
        rows.append([i, r[1], r[2] or "001", r[3], carry, None])
    return [header] + rows


def stand_in_rank(port) -> str:
    """Read 报名, write 排名 (formatted, placed second), add an entry row, drop 旧表."""
    roster = port.read_values("报名")
    port.write_sheet("排名", standings_grid(roster), STANDINGS_FORMAT, position=1)
    port.append_rows("报名", [[len(roster), None, None, None, None]], start_row=len(roster) + 1)
    port.delete_sheet("旧表")
    port.save()
    return "排名已更新 / standings updated"


def expected_cell(value):
    """What a written port value reads back as from an .xlsx (openpyxl)."""
    if isinstance(value, Decimal):
        return float(value)
    return value


def sheet_values(path, sheet) -> list[list]:
    from tests.helpers import sheet_rows
    return [list(r) for r in sheet_rows(path, sheet)]


# -- the xlwings Server app under TestClient --------------------------------------------------

PROJECT_LINE = "from bianpai.addin.lite import *  # noqa: F403\n"


def server_client(project, extra_modules: dict | None = None):
    """A generator yielding ``TestClient(xlwings_server.main.main_app)`` whose
    ``custom_functions``/``custom_scripts`` are a project at ``project`` doing nothing but
    ``from bianpai.addin.lite import *`` (what the README tells a Server user to write).

    Sets ``XLWINGS_LICENSE_KEY=noncommercial`` (noncommercial use only) and the project dir for
    its lifetime; ``extra_modules`` are put in ``sys.modules`` meanwhile (stand-ins)."""
    import importlib
    import sys

    import pytest

    from bianpai.workbooks.payload import ensure_remote_engine

    for pkg in ("custom_functions", "custom_scripts"):
        (project / pkg).mkdir(exist_ok=True)
        (project / pkg / "__init__.py").write_text(PROJECT_LINE, encoding="utf-8")
    saved = {k: os.environ.get(k) for k in
             ("XLWINGS_LICENSE_KEY", "XLWINGS_PROJECT_DIR", "XLWINGS_ON_SERVER")}
    os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"
    os.environ["XLWINGS_PROJECT_DIR"] = str(project)
    ensure_remote_engine()
    # bianpai.addin.lite registers with xlwings.server only if that imported (licence key) when
    # it was first imported; another test may have imported it without a key: import it afresh.
    saved_modules = {k: sys.modules.pop(k, None)
                     for k in ("custom_functions", "custom_scripts", "bianpai.addin.lite")}
    sys.path.insert(0, str(project))
    mp = pytest.MonkeyPatch()
    try:
        from fastapi.testclient import TestClient
        from xlwings_server.main import main_app
        from xlwings_server.routers import xlwings as router

        cf = importlib.import_module("custom_functions")
        cs = importlib.import_module("custom_scripts")
        mp.setattr(router, "custom_functions", cf)
        mp.setattr(router, "custom_scripts", cs)
        for name, module in (extra_modules or {}).items():
            mp.setitem(sys.modules, name, module)
        yield TestClient(main_app)
    finally:
        mp.undo()
        sys.path.remove(str(project))
        for k, v in saved_modules.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def simulate_board(rng: random.Random, ns_strength: float, ew_strength: float) -> int:
    """Levels won by NS on one guandan board (+1/+2/+3, negative when EW wins): the seeded
    simulation the fronts' parity test types into 成绩."""
    p_ns = 1 / (1 + math.exp(-(ns_strength - ew_strength)))
    levels = rng.choices([1, 2, 3], weights=[45, 35, 20])[0]
    return levels if rng.random() < p_ns else -levels
