"""xlwings Server (FastAPI TestClient, no Excel) with a project that imports bianpai's
Lite/Server module: metadata, a function call, and a script call that writes pairings.

xlwings Server needs a licence key; the tests use ``noncommercial`` (noncommercial use only).
Import order matters (research note: ``XLWINGS_ON_SERVER``): ``bianpai.addin.lite`` imports its
decorators from ``xlwings.server`` explicitly, so it registers whether or not ``xlwings`` was
imported first; the fixture still points the router at this project's modules in case another
test imported ``xlwings_server`` with a different project directory.
"""

from __future__ import annotations

import importlib.util
import types

import pytest

# Not importorskip: importing xlwings_server sets XLWINGS_ON_SERVER=true for the whole process,
# and a later first ``import xlwings`` without a licence key then fails. Import it in the fixture.
if importlib.util.find_spec("xlwings_server") is None:
    pytest.skip("xlwings-server is an optional extra ([server])", allow_module_level=True)

from bianpai.workbooks.payload import apply_actions, payload_from_xlsx  # noqa: E402
from tests.fronts_helpers import make_fixture, server_client, sheet_values  # noqa: E402



def stand_in_draw(port):
    """Round 1 by number: 1–2, 3–4, … (a stand-in for the real draw command; the real one is
    exercised in test_fronts_parity.py)."""
    roster = port.read_values("报名")
    numbers = [r[0] for r in roster[1:] if r and r[0] is not None]
    rows = [["桌号", "主队", "客队"]]
    for table, i in enumerate(range(0, len(numbers) - 1, 2), start=1):
        rows.append([table, numbers[i], numbers[i + 1]])
    port.write_sheet("对阵", rows)
    return "第1轮对阵已生成 / round 1 drawn"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    fake = types.ModuleType("bianpai.addin.commands")
    fake.draw = stand_in_draw
    yield from server_client(tmp_path_factory.mktemp("server_project"),
                             {"bianpai.addin.commands": fake})


def test_functions_meta_lists_ours(client):
    r = client.get("/xlwings/custom-functions-meta")
    assert r.status_code == 200
    ids = {f["id"] for f in r.json()["functions"]}
    assert {"BP_IMP", "BP_VP", "BP_CARRY", "BP_CHANGFEN", "BP_MATCHPOINTS"} <= ids


def test_scripts_meta_lists_commands(client):
    r = client.get("/xlwings/custom-scripts-meta")
    assert r.status_code == 200
    names = {s["function_name"]: s["name"] for s in r.json()}
    assert names["bp_draw"] == "抽签编排 draw" and "bp_undo" in names


def test_function_call_spills(client):
    pytest.importorskip("bianpai.engines.matchpoints",
                        reason="matchpoints engine is written on another branch")
    import xlwings as xw

    body = {"func_name": "BP_MATCHPOINTS", "args": [[[420], [450], [420], [-50]], None],
            "caller_address": "Sheet1!B1", "version": xw.__version__, "client": "Office.js",
            "runtime": "1.4", "formatted_args": [], "culture_info_name": "zh-CN",
            "date_format": "yyyy-mm-dd"}
    r = client.post("/xlwings/custom-functions-call", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["result"] == [[3], [6], [3], [0]]


@pytest.mark.parametrize("client_name", ["Office.js", "VBA"])
def test_script_call_writes_pairings(client, tmp_path, client_name):
    fixture = make_fixture(tmp_path / "event.xlsx")
    payload = payload_from_xlsx(fixture, client=client_name)
    r = client.post("/xlwings/custom-scripts-call/bp_draw", json=payload)
    assert r.status_code == 200, r.text
    actions = r.json()["actions"]
    funcs = [a["func"] for a in actions]
    assert funcs[0] == "addSheet" and funcs[-1] == "alert"
    values = [a for a in actions if a["func"] == "setValues"][0]["values"]
    assert values == [["'桌号", "'主队", "'客队"], [1, 1, 2], [2, 3, 4]]
    out = tmp_path / "out.xlsx"
    alerts = apply_actions(fixture, actions, out)
    assert sheet_values(out, "对阵") == [["桌号", "主队", "客队"], [1, 1, 2], [2, 3, 4]]
    assert alerts == ["第1轮对阵已生成 / round 1 drawn"]
