"""bianpai for xlwings Lite and xlwings Server: the worksheet functions as ``@func`` and the
commands as ``@script``.

* xlwings Lite: ``requirements.txt`` lists ``bianpai``; ``main.py`` is one line::

      from bianpai.addin.lite import *

* xlwings Server: ``custom_functions/__init__.py`` and ``custom_scripts/__init__.py`` each get
  that same line.

The decorators come from ``xlwings.server`` (which needs the xlwings PRO code to import, i.e. a
licence key on Server; Lite ships its own). Elsewhere they fall back to ``xlwings.func`` /
``xlwings.script`` (no-ops outside Windows), so this module always imports. Importing from
``xlwings.server`` explicitly avoids the ``XLWINGS_ON_SERVER`` import-order pitfall of
``from xlwings import func``.

Scripts take the book the client sent (``xw.Book``), wrap it in an ``XlwingsPort`` and run the
command of the same name (via :func:`bianpai.addin.macros.run_on_book` →
:func:`bianpai.addin.fronts.run_command`: the very functions the command line runs); their
writes, the 操作 status and the undo snapshot come back to the client as one list of actions.
A random seed typed in the 操作 sheet's seed cell (B2) is used by draw and rank.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from bianpai.addin import functions as _f
from bianpai.addin.macros import run_on_book

try:  # xlwings Server / Lite: registering decorators
    from xlwings.server import arg, func, script  # noqa: F401
    ON_SERVER_DECORATORS = True
except Exception:  # noqa: BLE001 - ImportError, or LicenseError without a key
    arg, func, script = xw.arg, xw.func, xw.script
    ON_SERVER_DECORATORS = False


# -- functions ------------------------------------------------------------------------------

@func
def BP_IMP(diff: float) -> int:  # noqa: N802 - the Excel-facing name
    """IMPs for a point difference (Law 78B), signed. Example: =BP_IMP(620) → 12."""
    return _f.imp_value(diff)


@func
def BP_VP(imps: float, boards: int) -> float:  # noqa: N802
    """VP of the side with IMP margin imps on boards boards (WBF 2013 20-VP scale).
    Example: =BP_VP(10, 16) → 12.8."""
    return _f.vp_value(imps, boards)


@func
def BP_CARRY(total: float, fraction: Any, plus: float = 0) -> float:  # noqa: N802
    """Carry-over: total × fraction, half-up to 2 places, plus a constant.
    Example: =BP_CARRY(70.10, "25%", 24) → 41.53."""
    return _f.carry_value(total, fraction, plus)


@func
@arg("bands", ndim=2)
def BP_CHANGFEN(pct: float, bands=None) -> float:  # noqa: N802
    """场分 from a 比赛分 percentage. bands: optional range of rows (min %, points[, inclusive]),
    highest first, an empty min % last. Example: =BP_CHANGFEN(52.3) → 1.5."""
    return _f.changfen_value(pct, bands)


@func
@arg("scores", ndim=2)
def BP_MATCHPOINTS(scores, scale: str = "2/1/0"):  # noqa: N802
    """Matchpoints of each score in a range against the others, spilled in the range's shape.
    Example: =BP_MATCHPOINTS(C2:C5) with 420, 450, 420, -50 → 3, 6, 3, 0."""
    return _f.matchpoints_grid(scores, scale)


# -- scripts (buttons in the Lite/Server task pane) -----------------------------------------

@script(name="检查名单 check")
def bp_check(book: xw.Book):
    """检查名单 / check the roster and results."""
    run_on_book("check", book)


@script(name="抽签编排 draw")
def bp_draw(book: xw.Book):
    """抽签编排 / draw the next round."""
    run_on_book("draw", book)


@script(name="计算排名 rank")
def bp_rank(book: xw.Book):
    """计算排名 / compute the standings."""
    run_on_book("rank", book)


@script(name="奖励分配 awards")
def bp_awards(book: xw.Book):
    """奖励分配 / allocate places and prizes."""
    run_on_book("awards", book)


@script(name="进入下一阶段 advance")
def bp_advance(book: xw.Book):
    """进入下一阶段 / rank stage 1 and start the next stage (team events)."""
    run_on_book("advance", book)


@script(name="登记退赛 withdraw")
def bp_withdraw(book: xw.Book):
    """登记退赛 / check and log the withdrawals typed in 退赛."""
    run_on_book("withdraw", book)


@script(name="撤销 undo")
def bp_undo(book: xw.Book):
    """撤销 / restore the workbook as it was before the last command."""
    run_on_book("undo", book)


__all__ = ["BP_IMP", "BP_VP", "BP_CARRY", "BP_CHANGFEN", "BP_MATCHPOINTS",
           "bp_check", "bp_draw", "bp_rank", "bp_awards", "bp_advance", "bp_withdraw", "bp_undo"]
