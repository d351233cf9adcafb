"""XlwingsPort on the real xlwings remote engine (no Excel): payloads from a real .xlsx, the
actions it records, and the same cells after replaying them, compared across fronts.

The remote engine is xlwings PRO code; these tests set ``XLWINGS_LICENSE_KEY=noncommercial``
themselves (this project's tests are noncommercial use) and register the engine if xlwings was
imported before the key was set.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
import types
from decimal import Decimal
from pathlib import Path

import pytest
from bianpai.workbooks.lazy_edit import load_workbook

from bianpai.engines.errors import InputError
from bianpai.workbooks.payload import apply_actions, payload_from_xlsx, remote_book
from bianpai.workbooks.xlwings_port import (
    BASIC_CLIENT_ACTIONS,
    OFFICEJS_EXTRA_ACTIONS,
    XlwingsPort,
)
from tests.fronts_helpers import (
    ROSTER,
    expected_cell,
    make_fixture,
    sheet_values,
    stand_in_rank,
    standings_grid,
)

CLIENTS = ["VBA", "Office.js"]


@pytest.fixture(autouse=True)
def _license(monkeypatch):
    monkeypatch.setenv("XLWINGS_LICENSE_KEY", "noncommercial")


@pytest.fixture
def fixture_xlsx(tmp_path) -> str:
    return make_fixture(tmp_path / "event.xlsx")


def _port(path, client) -> XlwingsPort:
    return XlwingsPort(remote_book(payload_from_xlsx(path, client=client)))


def _funcs(port) -> list[str]:
    return [a["func"] for a in port.book.json()["actions"]]


def test_payload_shape(fixture_xlsx):
    import xlwings as xw

    p = payload_from_xlsx(fixture_xlsx)
    assert set(p) == {"client", "version", "book", "sheets", "names"}
    assert p["client"] == "VBA" and p["version"] == xw.__version__
    roster = p["sheets"][0]
    assert roster["name"] == "报名"
    assert roster["values"][1][3] == "2026-03-01T00:00:00.000Z"
    assert roster["values"][3][2] == "" and roster["values"][3][3] == ""
    assert p["sheets"][1]["values"] == [["规程 stand-in"]]


@pytest.mark.parametrize("client", CLIENTS)
def test_read_values(fixture_xlsx, client):
    port = _port(fixture_xlsx, client)
    assert port.sheet_names() == ["报名", "说明"]
    grid = port.read_values("报名")
    assert grid[0] == ROSTER[0]
    assert grid[1] == [1, "深圳一队", "福田", dt.datetime(2026, 3, 1), 70.1]
    assert grid[2][1] == '=HYPERLINK("http://x")'  # text stays text, never evaluated
    assert grid[3] == [3, "@evil", None, None, 61.25]
    assert grid[4][3] == dt.datetime(2026, 3, 2, 9, 30)
    with pytest.raises(InputError) as err:
        port.read_values("成绩")
    assert "成绩" in str(err.value)


@pytest.mark.parametrize("client", CLIENTS)
def test_stand_in_command_actions(fixture_xlsx, client):
    port = _port(fixture_xlsx, client)
    stand_in_rank(port)
    port.notify("排名已更新 / standings updated")
    actions = port.book.json()["actions"]
    funcs = [a["func"] for a in actions]
    assert funcs[0] == "addSheet" and actions[0]["args"] == [1, "排名"]
    # text format before values, then exactly one setValues for the generated sheet
    assert funcs.index("setNumberFormat") < funcs.index("setValues")
    values_actions = [a for a in actions if a["func"] == "setValues"]
    assert len(values_actions) == 2  # 排名 + the appended roster row
    grid = values_actions[0]["values"]
    assert grid[0] == ["'名次", "'队名", "'单位", "'报到日期", "'带分", "'确认"]
    iso = re.compile(r"^\d{4}-\d\d-\d\d( \d\d:\d\d:\d\d)?$")  # dates, as xlwings sends them
    assert all(v.startswith("'") or iso.match(v) for row in grid for v in row
               if isinstance(v, str) and v)
    assert any(v == "'=HYPERLINK(\"http://x\")" for row in grid for v in row)
    assert values_actions[1]["start_row"] == len(ROSTER) and values_actions[1]["sheet_position"] == 0
    assert funcs[-1] == "alert"
    allowed = BASIC_CLIENT_ACTIONS | (OFFICEJS_EXTRA_ACTIONS if client == "Office.js" else set())
    assert set(funcs) <= allowed, set(funcs) - allowed
    if client == "VBA":
        assert {"setFontProperty", "freezePaneAtRange", "setColumnWidth"}.isdisjoint(funcs)
        assert "setAutofit" in funcs
        assert any("freeze" in d for d in port.degraded)
    else:
        assert {"setFontProperty", "freezePaneAtRange", "setColumnWidth",
                "setDataValidationList", "addTable", "setPrintArea"} <= set(funcs)
        assert port.degraded == ["排名: page_setup"]


@pytest.mark.parametrize("client", CLIENTS)
def test_replayed_cells_match_the_command_output(fixture_xlsx, tmp_path, client):
    port = _port(fixture_xlsx, client)
    stand_in_rank(port)
    out = tmp_path / f"out-{client}.xlsx"
    apply_actions(fixture_xlsx, port.book.json()["actions"], out)

    wb = load_workbook(out)
    assert wb.sheetnames == ["报名", "排名", "说明"]
    roster_in = port.read_values("报名")  # the snapshot: the port never sees its own writes
    expected = [[expected_cell(v) for v in row] for row in standings_grid(roster_in)]
    got = sheet_values(out, "排名")
    assert [row[:len(expected[0])] for row in got] == expected
    ws = wb["排名"]
    # user text that looks like a formula is stored as text with a quote prefix
    texts = {c.value: c for row in ws.iter_rows() for c in row if isinstance(c.value, str)}
    hyper = texts['=HYPERLINK("http://x")']
    assert hyper.data_type == "s" and hyper.quotePrefix
    assert ws["C5"].value == "+86 755" and ws["C5"].quotePrefix
    assert ws["C2"].number_format == "@"
    assert ws["E2"].number_format == "0.00"
    assert ws["A1"].fill.fgColor.rgb.endswith("DDEBF7")
    if client == "Office.js":
        assert ws.freeze_panes == "A2"
        assert ws["A1"].font.b
        assert ws.column_dimensions["B"].width == 18
        assert "排名表" in ws.tables
        assert ws.data_validations.dataValidation[0].formula1 == '"是,否"'
    assert sheet_values(out, "报名")[len(ROSTER)][:1] == [len(ROSTER)]


@pytest.mark.parametrize("client", CLIENTS)
def test_rewrite_existing_sheet_and_delete(fixture_xlsx, tmp_path, client):
    port = _port(fixture_xlsx, client)
    port.write_sheet("说明", [["新", Decimal("1.25")]], None)
    port.delete_sheet("报名")
    port.delete_sheet("不存在")  # no-op
    funcs = _funcs(port)
    assert funcs[0] == "sheetClear" and "sheetDelete" in funcs and "addSheet" not in funcs
    out = tmp_path / "o.xlsx"
    apply_actions(fixture_xlsx, port.book.json()["actions"], out)
    wb = load_workbook(out)
    assert wb.sheetnames == ["说明"]
    assert sheet_values(out, "说明") == [["新", 1.25]]


def test_position_first_and_hidden(fixture_xlsx, tmp_path):
    from bianpai.workbooks.port import SheetFormat

    port = _port(fixture_xlsx, "Office.js")
    port.write_sheet("快照", [["a"]], SheetFormat(hidden=True, freeze=None), position=0)
    out = tmp_path / "o.xlsx"
    apply_actions(fixture_xlsx, port.book.json()["actions"], out)
    wb = load_workbook(out)
    assert wb.sheetnames[0] == "快照" and wb["快照"].sheet_state == "hidden"


def test_vba_action_set_matches_remote_bas():
    """BASIC_CLIENT_ACTIONS are exactly the action Subs of the pinned xlwings' Remote.bas."""
    import xlwings

    bas = (Path(xlwings.__file__).parent / "addin" / "Remote.bas").read_text(encoding="latin-1")
    subs = set(re.findall(r"^Sub (\w+)\(wb As Workbook, action As Dictionary\)", bas, re.M))
    assert BASIC_CLIENT_ACTIONS == subs


def test_officejs_actions_exist_in_server_client():
    import importlib.util

    # find_spec, not import: importing xlwings_server sets XLWINGS_ON_SERVER for the process
    spec = importlib.util.find_spec("xlwings_server")
    if spec is None:
        pytest.skip("xlwings-server not installed")
    js = (Path(spec.origin).parent / "static" / "js" / "custom-scripts" / "index.js")
    text = js.read_text(encoding="utf-8")
    for func in OFFICEJS_EXTRA_ACTIONS:
        assert re.search(rf"\b{func}: {func}\b", text), func


def test_same_cells_as_openpyxl_adapter(fixture_xlsx, tmp_path):
    """The cross-front check: remote book + replay == the openpyxl adapter on the same file."""
    mod = pytest.importorskip("bianpai.workbooks.openpyxl_port",
                              reason="OpenpyxlPort is written on the lead's branch")
    import shutil

    direct = tmp_path / "direct.xlsx"
    shutil.copyfile(fixture_xlsx, direct)
    oport = mod.OpenpyxlPort(direct)
    stand_in_rank(oport)
    for client in CLIENTS:
        port = _port(fixture_xlsx, client)
        stand_in_rank(port)
        out = tmp_path / f"remote-{client}.xlsx"
        apply_actions(fixture_xlsx, port.book.json()["actions"], out)
        for sheet in ("排名", "报名"):
            assert sheet_values(out, sheet) == sheet_values(direct, sheet), (client, sheet)


def test_macro_runner_shows_errors_in_chinese_and_english(fixture_xlsx, monkeypatch):
    from bianpai.addin.macros import run_on_book

    fake = types.ModuleType("bianpai.addin.commands")

    def rank(port):
        return stand_in_rank(port)

    def draw(port):
        raise InputError("第3轮成绩未录完：缺 2 桌", "round 3 results incomplete: 2 tables missing",
                         sheet="成绩", cell="B7")

    def check(port):
        raise ZeroDivisionError("boom")

    fake.rank, fake.draw, fake.check = rank, draw, check
    monkeypatch.setitem(sys.modules, "bianpai.addin.commands", fake)

    book = remote_book(payload_from_xlsx(fixture_xlsx))
    assert run_on_book("rank", book) == "排名已更新 / standings updated"
    alerts = [a["args"][0] for a in book.json()["actions"] if a["func"] == "alert"]
    assert alerts == ["排名已更新 / standings updated"]

    for name, needle in [("draw", "[成绩!B7] 第3轮成绩未录完"), ("check", "出错"),
                         ("nope", "没有名为 nope 的命令")]:
        book = remote_book(payload_from_xlsx(fixture_xlsx))
        assert run_on_book(name, book) is None
        alerts = [a["args"][0] for a in book.json()["actions"] if a["func"] == "alert"]
        assert len(alerts) == 1 and needle in alerts[0], alerts
