"""Commands of every competition-core event: new, check, draw, advance, rank, awards, withdraw.

One path for every format and scoring: each command reads the workbook once
(:func:`bianpai.addin.competition.load_core_event`), asks the stages' formats and scorings, writes
the generated sheets whole (typed sheets only get blank entry rows), appends a 日志 row with the
random seed, and saves once. Bad input raises ``InputErrors`` (every cell named, Chinese and
English) before anything is written.

The commands live one concept a module: :mod:`~bianpai.addin.core_check` (new, check),
:mod:`~bianpai.addin.core_draw`, :mod:`~bianpai.addin.core_advance`,
:mod:`~bianpai.addin.core_sheets` (the generated result sheets) and
:mod:`~bianpai.addin.core_results` (rank, awards, withdraw). This module is their one entry.
"""

from __future__ import annotations

from bianpai.addin.core_advance import _seed_by, core_advance
from bianpai.addin.core_check import build_core_workbook, core_check, structure_problems
from bianpai.addin.core_draw import core_draw, write_record
from bianpai.addin.core_results import core_awards, core_rank, core_withdraw
from bianpai.addin.core_sheets import bracket_stages, core_final_standings, ranking_name

__all__ = ["build_core_workbook", "core_check", "core_draw", "core_advance", "core_rank",
           "core_awards", "core_final_standings", "core_withdraw", "bracket_stages",
           "ranking_name", "structure_problems", "write_record", "_seed_by"]
