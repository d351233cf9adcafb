"""Structural checks of the generated .xlsm (not opened in Excel: see the report)."""

from __future__ import annotations

import re
import zipfile

import pytest
from openpyxl import Workbook, load_workbook

from bianpai.workbooks.xlsm import (
    COMMANDS,
    CONF_SHEET,
    OPS_SHEET,
    UDF_MODULES,
    build_xlsm,
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


def _check(path):
    import xlwings

    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert "xl/vbaProject.bin" in names
        ct = z.read("[Content_Types].xml").decode()
        assert "macroEnabled.main+xml" in ct
        vml = "".join(z.read(n).decode() for n in names if n.endswith(".vml"))
    macros = re.findall(r"<x:FmlaMacro>\[0\]!(\w+)</x:FmlaMacro>", vml)
    captions = re.findall(r'color="#000000">([^<]+)</font>', vml)
    assert macros == [sub for sub, _, _ in COMMANDS]
    assert captions == [label for _, label, _ in COMMANDS]

    xf = pyopenvba.ExcelFile(path)
    assert xf.validate() == []
    modules = xf.module_names()
    assert {"xlwings", "bianpai", "Dictionary", "ThisWorkbook"} <= set(modules)
    assert "Module1" not in modules
    bp = xf.get_module("bianpai")
    subs = set(re.findall(r"^Sub (\w+)\(\)", bp, re.M))
    for sub, _label, call in COMMANDS:
        assert sub in subs
        assert f'RunPython "{call}"' in bp
    assert set(macros) <= subs  # every button resolves to a Sub
    assert vba_module_version(xf.get_module("xlwings")) == xlwings.__version__
    assert "Function RunPython" in xf.get_module("xlwings")
    xf.close()

    wb = load_workbook(path, keep_vba=True)
    assert wb.sheetnames[0] == OPS_SHEET and wb.sheetnames[-1] == CONF_SHEET
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
