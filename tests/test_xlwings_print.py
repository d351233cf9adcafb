"""The xlwings port prints like the openpyxl one (issue 12, "Paper and pictures"): page breaks per
group/round, paper rows (height, bold, merge, border), integers as integers and the native
rank-progression chart — applied on desktop Excel, and on the remote clients (xlwings' remote
engine, ``xw.Book(json=...)``) either applied (number formats, Office.js fonts) or named in
``port.degraded`` so the log says what the printed sheet lacks.
"""

from __future__ import annotations

from unittest import mock

import pytest

from bianpai.workbooks.payload import payload_from_xlsx, remote_book
from bianpai.workbooks.port import ChartSpec, ColumnFormat, PrintSetup, RowFormat, SheetFormat
from bianpai.workbooks.xlwings_port import XlwingsPort
from bianpai.workbooks.xlwings_print import apply_xlwings
from tests.fronts_helpers import make_fixture

VALUES = [["组别", "名次", "场分"], ["甲组", 1, 4.0], ["甲组", 2, 2.5], ["乙组", 1, 3.0]]
FMT = SheetFormat(columns=[ColumnFormat(index=2, number_format="0.00")], break_columns=[0],
                  data_row_height=30, print_setup=PrintSetup(gridlines=False),
                  rows={1: RowFormat(bold=True, merge=True, height=28, border=True)},
                  charts=[ChartSpec(title="排名走势", header_row=1, first_row=2, last_row=4,
                                    last_col=3, anchor="E2", y_reversed=True)])


@pytest.fixture(autouse=True)
def _license(monkeypatch):
    monkeypatch.setenv("XLWINGS_LICENSE_KEY", "noncommercial")


@pytest.mark.parametrize("client", ["VBA", "Office.js"])
def test_remote_clients_apply_what_they_can_and_name_the_rest(tmp_path, client):
    """排名 one page per group (issue 12): a remote client cannot add a page break, a row
    height, a merge, a border or a chart; each is named, the integers still print as 4 not 4.00."""
    port = XlwingsPort(remote_book(payload_from_xlsx(make_fixture(tmp_path / "e.xlsx"),
                                                     client=client)))
    port.write_sheet("排名", VALUES, FMT)
    named = {d.split(": ", 1)[1] for d in port.degraded if d.startswith("排名: ")}
    assert {"page_breaks", "row_height", "merge", "border", "chart", "gridlines"} <= named
    actions = port.book.json()["actions"]
    zero = [a for a in actions if a["func"] == "setNumberFormat" and a["args"] == ["0"]]
    assert len(zero) == 2  # 4.0 and 3.0 (whole) print as integers; 2.5 keeps 0.00
    fonts = [a for a in actions if a["func"] == "setFontProperty"]
    assert bool(fonts) == (client == "Office.js") and (("bold" in named) == (client == "VBA"))


def test_desktop_excel_gets_breaks_rows_and_the_chart():
    """On desktop Excel (COM) the same format adds a page break after each group's last row,
    the row heights, the merged bordered title row and one line chart."""
    port = XlwingsPort.__new__(XlwingsPort)
    port.engine, port.client, port.degraded = "excel", None, []
    s = mock.MagicMock()
    s.charts.add.return_value.api = (mock.MagicMock(), mock.MagicMock())
    apply_xlwings(port, s, "排名", VALUES, FMT)
    assert port.degraded == []
    s.api.Range.assert_any_call("A4")  # 甲组 ends on row 3: a new page before row 4
    assert s.api.HPageBreaks.Add.call_count == 1
    assert s.charts.add.call_count == 1
    s.range.return_value.merge.assert_called()
