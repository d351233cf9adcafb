"""The commands behind every button and CLI verb: new, check, draw, rank, awards, advance,
withdraw.

Each command is a function over a :class:`~bianpai.workbooks.port.WorkbookPort`: it reads
everything it needs, validates (collecting every problem with its sheet and cell), computes with
the engines, then writes generated sheets whole, appends a 日志 row (time, command, arguments,
random seed, summary) and saves once. On bad input it raises ``InputErrors`` before any write.
The same inputs give the same sheets whichever front pressed the button.

This module only dispatches: a regulation whose stages are competition-core pieces runs
:mod:`bianpai.addin.competition_commands` (a workbook style's own sheets are declared views of
the core's, ``docs/pairs-port.md``, ``docs/teams-port.md``); any other workbook the core's
command, which names what it cannot read. The shared
infrastructure lives in :mod:`bianpai.addin.command_infra` (result, sheet writing, 日志, save)
and :mod:`bianpai.addin.awards_writer` (奖励, 领奖签收表, 证书); its names are re-exported here.
"""

from __future__ import annotations

from bianpai.addin.awards_writer import (_json, _money, entrant_names,  # noqa: F401
                                         placings_findings, typed_placings, write_awards)
from bianpai.addin.command_infra import (FRONT, SETTINGS_SNAPSHOT, TITLE,  # noqa: F401
                                         CommandResult, _finding_rows, _name, _position,
                                         finish, gate_roster, invalidate_awards, log, new_seed,
                                         settings_changes, write_generated)
from bianpai.addin.core_eligibility import eligibility_findings  # noqa: F401
from bianpai.engines.errors import RuleError
from bianpai.templates.schema import Regulation
from bianpai.workbooks.port import WorkbookPort

#: the commands, and the shared names other modules (the core commands, fronts) import
#: from here
__all__ = ["build_workbook", "check", "draw", "rank", "awards", "advance", "withdraw",
           "FRONT", "TITLE", "SETTINGS_SNAPSHOT", "CommandResult", "write_generated", "log",
           "finish", "new_seed", "invalidate_awards", "settings_changes", "gate_roster",
           "_finding_rows", "_name", "_position", "write_awards",
           "typed_placings", "placings_findings", "entrant_names", "_json", "_money",
           "eligibility_findings"]


def build_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh") -> CommandResult:
    """Write the sheets of a new event workbook for ``reg``: 规程, 报名 and the typed entry
    sheets with headers, dropdowns and print setup, and 日志 (core events:
    :func:`bianpai.addin.competition_commands.build_core_workbook`)."""
    from bianpai.addin import competition
    if competition.is_core_regulation(reg):
        from bianpai.addin.competition_commands import build_core_workbook
        return build_core_workbook(port, reg, lang=lang)
    raise RuleError("本规程没有可运行的比赛阶段（请用预设新建赛事工作簿）",
                    "this regulation has no stage the commands can run")


def check(port: WorkbookPort) -> CommandResult:
    """Check the roster (types, duplicates, group rules, eligibility) and write 校验.

    Unlike the other commands, check writes its findings instead of refusing: 校验 lists every
    problem with its sheet!cell; errors block 抽签编排, warnings do not.
    """
    from bianpai.addin.competition_commands import core_check  # names a 规程 it cannot run
    return core_check(port)


def draw(port: WorkbookPort, *, seed: int | None = None, redraw: bool = False,
         accept_warnings: str | None = None) -> CommandResult:
    """抽签编排: numbers by seeded lot and the next round(s) (core events:
    :func:`~bianpai.addin.competition_commands.core_draw`). ``seed``: the lot's random seed (a fresh one
    when None), written to 日志. Refuses (``InputErrors``) while the roster has errors; roster
    warnings block until accepted with a reason (``accept_warnings``). ``redraw``: draw the
    numbers again (refused once a result is typed)."""
    from bianpai.addin.competition_commands import core_draw  # names a 规程 it cannot run
    return core_draw(port, seed=seed, accept_warnings=accept_warnings, redraw=redraw)


def rank(port: WorkbookPort, *, upto_round: int | None = None, seed: int | None = None
         ) -> CommandResult:
    """Rank every group as of ``upto_round`` (all entered rounds when None) and write 排名 and
    the result views. ``seed`` settles lots (logged). Raises ``InputErrors`` for bad results;
    writes nothing then."""
    from bianpai.addin.competition_commands import core_rank  # names a 规程 it cannot run
    return core_rank(port, seed=seed, upto_round=upto_round)


def awards(port: WorkbookPort) -> CommandResult:
    """Allocate places, prizes, tax, trophies and certificates by the regulation's ``awards``
    block (:func:`bianpai.engines.prizes.allocate`) and write 奖励 (flat, for mail merge, with
    totals), 领奖签收表 (amounts in 大写 and a signature column) and 证书. Money in yuan
    (Decimal, shown ¥ with 2 decimals). Raises ``InputErrors`` for a missing ranking."""
    from bianpai.addin.competition_commands import core_awards  # names a 规程 it cannot run
    return core_awards(port)


def advance(port: WorkbookPort, *, seed: int | None = None) -> CommandResult:
    """进入下一阶段: the stages whose sources are finished get their entrants (core events:
    :func:`bianpai.addin.competition_commands.core_advance`). Raises ``RuleError`` for a
    single-stage event."""
    from bianpai.addin import competition
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_advance
        return core_advance(port, seed=seed)
    raise RuleError("本赛事只有一个阶段，没有“下一阶段”",
                    "this event has a single stage; there is no next stage")


def withdraw(port: WorkbookPort, *, group: str | None = None, team: int | None = None,
             after_round: int | None = None,
             annul: bool | None = None, reason: str = "") -> CommandResult:
    """退赛 of one entrant (competition-core events:
    :func:`bianpai.addin.competition_commands.core_withdraw`). Raises ``RuleError`` for a
    workbook whose preset does not run on the core yet."""
    from bianpai.addin import competition
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_withdraw
        return core_withdraw(port, group=group, team=team, after_round=after_round, annul=annul,
                             reason=reason)
    raise RuleError("本工作簿的赛制尚不支持“退赛”命令（请在罚分/判定中按弃权处理）",
                    "withdraw is not supported for this workbook's format yet")
