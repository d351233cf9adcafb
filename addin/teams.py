"""Commands of a bridge team event across stages: new, draw (next round), advance, rank.

The regulation's group is a list of stages (``swiss``, ``knockout``, ``round_robin``) whose
entrants come from the roster or from earlier stages (places, knockout losers, with carry-over).
Every command reads the whole workbook through a :class:`~bianpai.workbooks.port.WorkbookPort`,
validates (every bad cell named by sheet!cell, in Chinese and English), computes with the
engines, writes the generated sheets whole, appends a 日志 row with the random seed, and saves
once. Nothing is written when the input is bad.

The workbook is the state: 抽签 (team numbers), 对阵 (every round drawn, all stages), 带分 (who
entered a later stage, from which place, with what carry-over and the ranking seed used),
成绩/逐副成绩/罚分 (typed by the arbiter).

The pieces, one concept a module: :mod:`~bianpai.addin.team_event` (detection, the event and
its derived views), :mod:`~bianpai.addin.team_read` (reading the workbook),
:mod:`~bianpai.addin.team_draw` (抽签编排), :mod:`~bianpai.addin.team_rank` (进入下一阶段, 排名);
this module holds ``new`` and ``check`` and is the one entry the commands call.

Sources: Fujian 2024 桥牌项目竞赛规程 五、六、八、九; Otog 2024 单项竞赛规则 四、桥牌.
"""

from __future__ import annotations

from bianpai.addin.team_draw import _ko_round_decided, team_draw
from bianpai.addin.team_eligibility import team_eligibility_findings
from bianpai.addin.team_event import (KO_LAST_ROUND, TeamEvent, _cmd, field_size_errors,
                                      is_team_regulation, is_team_workbook)
from bianpai.addin.team_rank import current_stages, team_advance, team_rank
from bianpai.addin.team_read import load_team_event
from bianpai.templates.schema import KnockoutFormat, Regulation
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import write_settings_sheet

__all__ = ["is_team_regulation", "is_team_workbook", "build_team_workbook", "team_check",
           "team_draw", "team_advance", "team_rank", "load_team_event", "TeamEvent", "current_stages",
           "field_size_errors",
           # read by the status panel (addin.status)
           "KO_LAST_ROUND", "KnockoutFormat", "_ko_round_decided"]


# ------------------------------------------------------------------------------ check
def team_check(port: WorkbookPort):
    """Check the team roster (structure, and the regulation's eligibility rules on every person of
    报名/队员) and every typed sheet; write 校验 (severity, sheet!cell, zh, en). Errors block the
    first draw; warnings block it until accepted with a reason (``accept_warnings``)."""
    c = _cmd()
    ev = load_team_event(port)
    problems = [("error", e) for e in ev.errors + field_size_errors(ev)] + \
        team_eligibility_findings(ev)
    rows = c._finding_rows(problems, ev.lang)
    if not rows:
        rows = [["通过" if ev.lang == "zh" else "ok", "", "未发现问题", "no problems found"]]
    c.write_generated(port, L.CHECKS, rows, ev.lang)
    n_err = sum(1 for sev, _ in problems if sev == "error")
    n_warn = len(problems) - n_err
    result = c.CommandResult("check", f"检查：{len(ev.roster)} 队，错误 {n_err} 处，警告 {n_warn} 处",
                             f"check: {len(ev.roster)} teams, {n_err} errors, {n_warn} warnings",
                             findings=[{"severity": sev, "where": e.where, "zh": e.zh, "en": e.en}
                                       for sev, e in problems])
    return c.finish(port, result, {}, ev.lang)


# ------------------------------------------------------------------------------ new

def build_team_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh"):
    """Write the sheets of a new team event workbook: 规程, 报名, 队员, 成绩, 逐副成绩, 罚分, 日志.

    Returns the ``CommandResult`` of the ``new`` command."""
    c = _cmd()
    lang = lang or reg.language
    reg = write_settings_sheet(port, reg, lang)
    g = reg.groups[0]
    stages = [s.name_zh if lang == "zh" else (s.name_en or s.name_zh) for s in g.stages]
    reasons = [f.name_zh for s in g.stages for f in getattr(s.scoring, "fines", [])]
    for layout in (T.TEAM_ROSTER, T.TEAM_PLAYERS, T.TEAM_RESULTS, T.TEAM_BOARDS, T.TEAM_FINES):
        choices = {"stage": stages, "reason": sorted(set(reasons))}
        port.write_sheet(layout.name(lang), [layout.headers(lang)],
                         layout.sheet_format(choices=choices, lang=lang))
    result = c.CommandResult("new", f"新建团体赛工作簿（规程：{reg.title_zh}）",
                             f"new team workbook ({reg.title_en or reg.id})")
    return c.finish(port, result, {"preset": reg.id, "language": lang}, lang)
