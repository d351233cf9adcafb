"""Structural checks of the generated .xlsm (not opened in Excel: see the report)."""

from __future__ import annotations

import re
import zipfile

import pytest
from openpyxl import Workbook, load_workbook

from bianpai.workbooks.xlsm import (
    ADVANCE_COMMAND,
    COMMANDS,
    CONF_SHEET,
    OPS_SHEET,
    UDF_MODULES,
    build_xlsm,
    commands_for,
    vba_module_version,
)

pyopenvba = pytest.importorskip("pyopenvba", reason="pyOpenVBA builds the VBA project")


def _source_xlsx(path):
    wb = Workbook()
    ws = wb.active
    ws.title = "报名"
    ws.append(["编号", "队名"])
    ws.append([1, "深圳一队"])
    ws.freeze_panes = "A2"
    ws.column_dimensions["B"].width = 20
    wb.create_sheet("成绩")["A1"] = "轮次"
    wb.save(path)
    return path


def _check(path, commands=COMMANDS):
    import xlwings

    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert "xl/vbaProject.bin" in names
        ct = z.read("[Content_Types].xml").decode()
        assert "macroEnabled.main+xml" in ct
        vml = "".join(z.read(n).decode() for n in names if n.endswith(".vml"))
    macros = re.findall(r"<x:FmlaMacro>\[0\]!(\w+)</x:FmlaMacro>", vml)
    captions = re.findall(r'color="#000000">([^<]+)</font>', vml)
    assert macros == [sub for sub, _, _ in commands]
    assert captions == [label for _, label, _ in commands]

    xf = pyopenvba.ExcelFile(path)
    assert xf.validate() == []
    modules = xf.module_names()
    assert {"xlwings", "bianpai", "Dictionary", "ThisWorkbook"} <= set(modules)
    assert "Module1" not in modules
    bp = xf.get_module("bianpai")
    subs = set(re.findall(r"^Sub (\w+)\(\)", bp, re.M))
    for sub, _label, call in commands:
        assert sub in subs
        assert f'RunPython "{call}"' in bp
    assert set(macros) <= subs  # every button resolves to a Sub
    assert vba_module_version(xf.get_module("xlwings")) == xlwings.__version__
    assert "Function RunPython" in xf.get_module("xlwings")
    xf.close()

    wb = load_workbook(path, keep_vba=True)
    names = [n for n in wb.sheetnames if n != "_bianpai_undo"]  # undo history comes last
    assert names[0] == OPS_SHEET and names[-1] == CONF_SHEET
    conf = wb[CONF_SHEET]
    assert conf.sheet_state == "hidden"
    assert (conf["A1"].value, conf["B1"].value) == ("UDF Modules", UDF_MODULES)
    return wb


def test_shell(tmp_path):
    wb = _check(build_xlsm(None, tmp_path / "shell.xlsm"))
    assert wb.sheetnames == [OPS_SHEET, CONF_SHEET]


def test_sheets_from_callback(tmp_path):
    def writer(book):
        ws = book.add_worksheet("报名")
        ws.write_row(0, 0, ["编号", "队名"])

    wb = _check(build_xlsm(writer, tmp_path / "cb.xlsm"))
    assert wb.sheetnames == [OPS_SHEET, "报名", CONF_SHEET]


def test_sheets_from_xlsx_and_keep_vba_round_trip(tmp_path):
    out = build_xlsm(_source_xlsx(tmp_path / "src.xlsx"), tmp_path / "event.xlsm")
    wb = _check(out)
    assert wb.sheetnames == [OPS_SHEET, "报名", "成绩", CONF_SHEET]
    assert wb["报名"]["B2"].value == "深圳一队" and wb["报名"].freeze_panes == "A2"
    assert wb["报名"].column_dimensions["B"].width == 20
    # what the CLI does to an .xlsm: openpyxl keep_vba, write a cell, save
    wb["成绩"]["A2"] = 1
    again = tmp_path / "again.xlsm"
    wb.save(again)
    with zipfile.ZipFile(out) as a, zipfile.ZipFile(again) as b:
        assert b.read("xl/vbaProject.bin") == a.read("xl/vbaProject.bin")
    _check(again)


def test_rejects_bad_sub_names(tmp_path):
    with pytest.raises(ValueError):
        build_xlsm(None, tmp_path / "x.xlsm", commands=[("Bad Name", "x", "pass")])
    with pytest.raises(ValueError):
        build_xlsm(None, tmp_path / "x.xlsx")


# -- the full event workbook of `bianpai new --macros` -------------------------------------------

def _cli(*args):
    from typer.testing import CliRunner

    from bianpai.addin.cli import app

    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code == 0, res.output
    return res


def _cli_refused(*args):
    """Run a command expected to be refused (exit 2, the input-error code)."""
    from typer.testing import CliRunner

    from bianpai.addin.cli import app

    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code == 2, res.output
    return res


def _parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()
                if n == "xl/vbaProject.bin" or n.endswith(".vml")}


def test_new_macros_builds_the_full_event_workbook(tmp_path):
    xlsx, xlsm = tmp_path / "event.xlsx", tmp_path / "event.xlsm"
    _cli("new", "shenzhen-guandan-pairs-2023", "-o", xlsx)
    _cli("new", "shenzhen-guandan-pairs-2023", "--macros", "-o", xlsm)
    wb = _check(xlsm)
    plain = load_workbook(xlsx)
    assert wb.sheetnames == [OPS_SHEET] + plain.sheetnames + [CONF_SHEET]
    for name in plain.sheetnames:  # same sheets, same cells (日志 time aside)
        a = [[c.value for c in r] for r in plain[name].iter_rows()]
        b = [[c.value for c in r] for r in wb[name].iter_rows()]
        if name == "日志":
            a, b = [r[1:] for r in a], [r[1:] for r in b]
        assert a == b, name
    assert wb["报名"].data_validations.dataValidation  # dropdowns kept
    ops = wb[OPS_SHEET]
    assert ops["A2"].value.startswith("随机种子") and ops["B2"].value is None
    assert (ops["A3"].value, ops["B3"].value) == ("当前状态 / Status", "报名表为空")
    assert (ops["A4"].value, ops["B4"].value) == ("下一步 / Next step",
                                                  "请填写报名表，然后点“检查名单”")
    assert wb.active.title == OPS_SHEET
    with pytest.raises(AssertionError):
        _cli("new", "shenzhen-guandan-pairs-2023", "--macros", "-o", tmp_path / "x.xlsx")


def test_team_preset_gets_the_advance_button(tmp_path):
    out = tmp_path / "teams.xlsm"
    _cli("new", "fujian-elder-bridge-teams", "--macros", "-o", out)
    team_commands = commands_for(True)
    assert ADVANCE_COMMAND in team_commands and team_commands[-1][1] == "撤销"
    wb = _check(out, team_commands)
    assert wb[OPS_SHEET]["B3"].value == "报名表为空"


def test_cli_commands_keep_vba_and_buttons_in_place(tmp_path):
    """bianpai check/draw/rank/awards/undo on the .xlsm in place: VBA project and VML buttons
    survive byte for byte; the status area follows every command."""
    from bianpai.addin.demo import demo_roster

    out = tmp_path / "event.xlsm"
    _cli("new", "shenzhen-guandan-pairs-2023", "--macros", "-o", out)
    original = _parts(out)
    assert set(original) == {"xl/vbaProject.bin", "xl/drawings/vmlDrawing1.vml"}
    wb = load_workbook(out, keep_vba=True)
    for r, row in enumerate(demo_roster(3), start=2):
        for c, v in enumerate(row, start=1):
            wb["报名"].cell(r, c, v)
    wb.save(out)
    states = []
    for args in (["check"], ["draw", "--seed", "9"], ["rank", "--seed", "1"], ["awards"],
                 ["undo"]):
        if args == ["awards"]:  # no result typed: refused in the style's words, nothing written
            before = out.read_bytes()
            res = _cli_refused("awards", out)
            assert "尚未录入任何成绩，不能分配奖励" in " ".join(res.output.split())
            assert out.read_bytes() == before
        else:
            _cli(args[0], out, *args[1:])
        assert _parts(out) == original, args
        wb = _check(out)
        states.append(wb[OPS_SHEET]["B3"].value)
        ops_legacy = wb[OPS_SHEET].legacy_drawing
        assert ops_legacy is not None, args
    assert states[0] == "已报名 16 对，尚未抽签"
    assert states[1].startswith("男子双人赛第1轮成绩未录完：缺 4 桌")
    assert states[3] == states[2] == states[1]  # no results typed yet
    assert "_bianpai_undo" in wb.sheetnames  # the live-book undo history follows the file


def test_every_button_and_script_reaches_a_command():
    """Each button's RunPython statement names a function of the macros module, and every
    command of the fronts registry has a macro and a Lite/Server script."""
    from bianpai.addin import fronts, lite, macros

    for _sub, _label, call in commands_for(True):
        fn = re.search(r"m\.(\w+)\(\)$", call).group(1)
        assert callable(getattr(macros, fn)), call
    for name in list(fronts.COMMANDS) + ["undo"]:
        assert callable(getattr(macros, name)), name
        assert callable(getattr(lite, f"bp_{name}")), name
        fronts.find_command(name) if name != "undo" else None
