"""Dropdowns cover every roster row a preset can need (user case ``validation-rows-500``)."""

from __future__ import annotations

from openpyxl.utils.cell import range_boundaries

from bianpai.addin import commands
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.lazy_edit import load_workbook


def test_cbsa_roster_dropdowns_cover_528_players(tmp_path):
    """CBSA 规程 十三（一）“资格赛选手总计报名人数为512人” + 十二（三） 16 名种子: 528 roster rows
    (rows 2–529 of 报名), each with the 组别/性别 dropdowns — not only rows 2–501."""
    path = tmp_path / "t.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"),
                            load_preset("cbsa-chinese-eightball-open-2022"))
    ws = load_workbook(path)["报名"]
    dvs = ws.data_validations.dataValidation
    assert dvs
    for dv in dvs:
        for rng in str(dv.sqref).split():
            _c0, r0, _c1, r1 = range_boundaries(rng)
            assert r0 == 2 and r1 >= 1 + 528, rng
