"""Values typed where the match's scoring does not read them are refused by cell (user cases
``otog-result-in-unused-column``, ``gouji-half-typed-game-points``), nothing written.

The entry sheets hold the union of every group's columns; the reader checks each row against
the match's own scoring declaration (``entry_game_columns`` / ``entry_match_columns`` and
``EntryColumn.together``), not per sport.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from bianpai.addin import commands
from bianpai.engines.errors import InputErrors
from bianpai.workbooks.openpyxl_port import OpenpyxlPort

CASES = Path(__file__).parent / "data" / "user-cases" / "cases"


def _draw_refused(tmp_path: Path, case: str) -> list:
    path = tmp_path / "case.xlsx"
    shutil.copy(CASES / case / "case.xlsx", path)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(InputErrors) as exc:
        commands.draw(OpenpyxlPort(path, command="draw"))
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # nothing written
    return exc.value.errors


def test_chess_result_in_a_place_column_is_refused_by_cell(tmp_path):
    """OTOG 规程 国际象棋/中国象棋 “胜一局得2分，和一局得1分，负一局得0分”: the game result goes in
    结果; a ``1-0`` typed in 甲方名次1 (a 掼蛋 column) must not be silently ignored."""
    errs = _draw_refused(tmp_path, "otog-result-in-unused-column")
    assert [e.where for e in errs] == ["逐局成绩!G6"]
    assert "中国象棋成年组不用“甲方名次1”列" in errs[0].zh and "“结果”列（K6）" in errs[0].zh
    assert "does not use column" in errs[0].en


def test_half_typed_game_points_are_refused_by_cell(tmp_path):
    """青岛够级 规程 七（一）2 “累计局得分多者获胜”: 名次 or 主队局分 + 客队局分 — half a 局分 pair
    beside the places is refused at the empty cell, not ignored."""
    errs = _draw_refused(tmp_path, "gouji-half-typed-game-points")
    assert [e.where for e in errs] == ["逐局成绩!M3"]
    assert "“客队局分”（N3）未填" in errs[0].zh and "half a pair" in errs[0].en
