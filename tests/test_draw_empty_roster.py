"""``draw`` on a new workbook whose roster is still empty says so, at the roster sheet, and
writes nothing (it once answered "every round is drawn; run rank", and rank answered "run
draw first")."""

from __future__ import annotations

import hashlib

from typer.testing import CliRunner

from bianpai.addin.cli import app
from tests.helpers import new_event


def test_draw_on_an_empty_roster_names_the_roster(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    before = hashlib.sha256(wb.read_bytes()).hexdigest()
    res = CliRunner().invoke(app, ["draw", str(wb)])
    assert res.exit_code == 2, res.output
    assert "报名表为空" in res.output and "报名!A2" in res.output.replace(" ", "")
    assert "所有阶段的各轮均已编排" not in res.output
    assert hashlib.sha256(wb.read_bytes()).hexdigest() == before
