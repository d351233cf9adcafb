"""The commands behind every button and CLI verb: new, check, draw, rank, awards, advance,
withdraw.

Each command is a function over a :class:`~bianpai.workbooks.port.WorkbookPort`: it reads
everything it needs, validates (collecting every problem with its sheet and cell), computes with
the engines, then writes generated sheets whole, appends a 日志 row (time, command, arguments,
random seed, summary) and saves once. On bad input it raises ``InputErrors`` before any write.
The same inputs give the same sheets whichever front pressed the button.

This module only dispatches: a regulation whose stages are competition-core pieces runs
:mod:`bianpai.addin.competition_commands`; a team regulation :mod:`bianpai.addin.teams`; the
pairs round robin workbook (报名/成绩/轮成绩/罚分 sheets of :mod:`bianpai.workbooks.layouts`)
:mod:`bianpai.addin.pairs_check`, :mod:`~bianpai.addin.pairs_draw` and
:mod:`~bianpai.addin.pairs_rank`. The shared infrastructure lives in
:mod:`bianpai.addin.command_infra` (result, sheet writing, 日志, save) and
:mod:`bianpai.addin.awards_writer` (奖励, 领奖签收表, 证书); its names are re-exported here.
"""

from __future__ import annotations

from bianpai.addin.awards_writer import (_json, _money, entrant_names,  # noqa: F401
                                         final_standings, placings_findings, typed_placings,
                                         write_awards)
from bianpai.addin.command_infra import (FRONT, SETTINGS_SNAPSHOT, TITLE,  # noqa: F401
                                         CommandResult, _finding_rows, _name, _position,
                                         finish, gate_roster, invalidate_awards, log, new_seed,
                                         settings_changes, write_generated)
from bianpai.addin.event import entries_per_group, load_event
from bianpai.addin.pairs_check import (eligibility_findings, roster_findings)  # noqa: F401
from bianpai.addin.pairs_draw import edited_note, group_schedule  # noqa: F401
from bianpai.addin.pairs_rank import crosstable_rows, standings_for  # noqa: F401
from bianpai.addin.pairs_results import GroupResults, collect_results  # noqa: F401
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.templates.schema import Regulation
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort

#: the commands, and the shared names other modules (teams, the core commands, fronts) import
#: from here
__all__ = ["build_workbook", "check", "draw", "rank", "awards", "advance", "withdraw",
           "FRONT", "TITLE", "SETTINGS_SNAPSHOT", "CommandResult", "write_generated", "log",
           "finish", "new_seed", "invalidate_awards", "settings_changes", "gate_roster",
           "_finding_rows", "_name", "_position", "write_awards", "final_standings",
           "typed_placings", "placings_findings", "entrant_names", "_json", "_money",
           "eligibility_findings", "roster_findings", "group_schedule", "edited_note",
           "collect_results", "GroupResults", "standings_for", "crosstable_rows"]


def build_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh") -> CommandResult:
    """Write the sheets of a new event workbook for ``reg``: 规程, 报名 and the typed entry
    sheets with headers, dropdowns and print setup, and 日志 (core events:
    :func:`bianpai.addin.competition_commands.build_core_workbook`; team events:
    :func:`bianpai.addin.teams.build_team_workbook`; pairs round robin:
    :func:`bianpai.addin.pairs_check.build_pairs_workbook`)."""
    from bianpai.addin import competition, teams
    if competition.is_core_regulation(reg):
        from bianpai.addin.competition_commands import build_core_workbook
        return build_core_workbook(port, reg, lang=lang)
    if teams.is_team_regulation(reg):
        return teams.build_team_workbook(port, reg, lang=lang)
    from bianpai.addin.pairs_check import build_pairs_workbook
    return build_pairs_workbook(port, reg, lang=lang)


def check(port: WorkbookPort) -> CommandResult:
    """Check the roster (types, duplicates, group rules, eligibility) and write 校验.

    Unlike the other commands, check writes its findings instead of refusing: 校验 lists every
    problem with its sheet!cell; errors block 抽签编排, warnings do not.
    """
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_check
        return core_check(port)
    if teams.is_team_workbook(port):
        return teams.team_check(port)
    from bianpai.addin.pairs_check import pairs_check
    return pairs_check(port)


def draw(port: WorkbookPort, *, seed: int | None = None, redraw: bool = False,
         accept_warnings: str | None = None) -> CommandResult:
    """抽签编排: numbers by seeded lot and the next round(s) (core events:
    :func:`~bianpai.addin.competition_commands.core_draw`; team events: the next round,
    :func:`bianpai.addin.teams.team_draw`; pairs round robin: the whole schedule,
    :func:`bianpai.addin.pairs_draw.pairs_draw`). ``seed``: the lot's random seed (a fresh one
    when None), written to 日志. Refuses (``InputErrors``) while the roster has errors; roster
    warnings block until accepted with a reason (``accept_warnings``). ``redraw``: draw the
    numbers again (refused once a result is typed)."""
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_draw
        return core_draw(port, seed=seed, accept_warnings=accept_warnings, redraw=redraw)
    if teams.is_team_workbook(port):
        return teams.team_draw(port, seed=seed, accept_warnings=accept_warnings)
    from bianpai.addin.pairs_draw import pairs_draw
    return pairs_draw(port, seed=seed, redraw=redraw, accept_warnings=accept_warnings)


def rank(port: WorkbookPort, *, upto_round: int | None = None, seed: int | None = None
         ) -> CommandResult:
    """Rank every group as of ``upto_round`` (all entered rounds when None) and write 排名 and
    the result views. ``seed`` settles lots (logged). Raises ``InputErrors`` for bad results;
    writes nothing then."""
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_rank
        return core_rank(port, seed=seed, upto_round=upto_round)
    if teams.is_team_workbook(port):
        return teams.team_rank(port, seed=seed, upto_round=upto_round)
    from bianpai.addin.pairs_rank import pairs_rank
    return pairs_rank(port, upto_round=upto_round, seed=seed)

def awards(port: WorkbookPort) -> CommandResult:
    """Allocate places, prizes, tax, trophies and certificates by the regulation's ``awards``
    block (:func:`bianpai.engines.prizes.allocate`) and write 奖励 (flat, for mail merge, with
    totals), 领奖签收表 (amounts in 大写 and a signature column) and 证书. Money in yuan
    (Decimal, shown ¥ with 2 decimals). Raises ``InputErrors`` for a missing ranking."""
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_awards
        return core_awards(port)
    if teams.is_team_workbook(port):
        from bianpai.addin.team_awards import team_awards
        return team_awards(port)
    ev = load_event(port)
    lang = ev.lang
    if ev.reg.awards is None:
        raise InputErrors([InputError("规程没有奖励设置", "the regulation has no awards block",
                                      sheet=_name(L.SETTINGS, port, lang))])
    standings = final_standings(port, ev)
    entries = entries_per_group(ev)
    entries = {g: (n or int((standings["group"] == g).sum())) for g, n in entries.items()}
    return write_awards(port, ev.reg, standings, entries, lang)

def advance(port: WorkbookPort, *, seed: int | None = None) -> CommandResult:
    """进入下一阶段: the stages whose sources are finished get their entrants (core events:
    :func:`bianpai.addin.competition_commands.core_advance`; bridge team events:
    :func:`bianpai.addin.teams.team_advance`). Raises ``RuleError`` for a single-stage event."""
    from bianpai.addin import competition, teams
    if competition.is_core_workbook(port):
        from bianpai.addin.competition_commands import core_advance
        return core_advance(port, seed=seed)
    if teams.is_team_workbook(port):
        return teams.team_advance(port, seed=seed)
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
