"""奖励 of a bridge team event: the final ranking (总排名) into the regulation's awards block.

Fujian 2024 九（二）: 60 % 优胜奖 / 40 % 优秀奖 by final place over the number of entered teams
(报名队数); Otog 2024 九（二）1、九（三）2: places by the number of entered teams and prize money
2000/1600/1200/… with certificates for the top 3. The allocation is the engine's
(:func:`bianpai.engines.prizes.allocate`) and the three output sheets (奖励, 领奖签收表, 证书) are
written by the same code as every other event (:func:`bianpai.addin.commands.write_awards`).
"""

from __future__ import annotations

import pandas as pd

from bianpai.addin.award_papers import roster_members

from bianpai.addin import commands as c
from bianpai.addin.teams import load_team_event
from bianpai.engines.errors import InputError, InputErrors
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import cell_of, find_sheet, read_table

__all__ = ["team_final_standings", "team_awards"]


def team_final_standings(ev) -> pd.DataFrame:
    """The final ranking of a finished team event, read from 总排名 (as ``rank`` wrote it, or
    as the organizer corrected it). Columns ``group, place, entrant_id, name, unit, team``.

    Raises ``InputErrors`` (naming the sheet/cell) when the event is not over, 总排名 is missing
    or stale (not every drawn team once), or a row is bad."""
    name = find_sheet(ev.port, T.FINAL)
    unfinished = [ev.stage_name(s) for s in ev.group.stages if not ev.finished(s)]
    if unfinished:
        raise InputErrors([InputError(
            f"比赛尚未结束（{'、'.join(unfinished)}未完成），不能分配奖励",
            f"the event is not over ({', '.join(s.name_en or s.id for s in ev.group.stages if not ev.finished(s))}"
            f" unfinished): no awards yet", sheet=name or ev.sheet(T.TEAM_SCHEDULE))])
    if name is None:
        raise InputErrors([InputError("还没有总排名：请先运行“排名”（bianpai rank）",
                                      "no final ranking yet: run rank first", sheet=T.FINAL.zh)])
    errs: list[InputError] = []
    df = read_table(ev.port, T.FINAL, errors=errs)
    df = df[df["team"].notna() | df["place"].notna()]
    sheet = df.attrs.get("sheet", name)
    rows = []
    seen: dict[int, int] = {}
    for row, rec in zip(df.index, df.to_dict("records")):
        t, p = rec["team"], rec["place"]
        if p is None or p < 1:
            errs.append(InputError("名次应为正整数", "place must be a positive whole number",
                                   sheet=sheet, cell=cell_of(df, row, "place")))
            continue
        if t is None or int(t) not in ev.teams:
            errs.append(InputError(f"队号 {t} 不在抽签中", f"team number {t} is not in the draw",
                                   sheet=sheet, cell=cell_of(df, row, "team")))
            continue
        t = int(t)
        if t in seen:
            errs.append(InputError(f"队号 {t} 在总排名中重复（另见第{seen[t]}行）",
                                   f"team {t} appears twice (see row {seen[t]})",
                                   sheet=sheet, cell=cell_of(df, row, "team")))
            continue
        seen[t] = row
        rows.append(dict(group=ev.group.name_zh, place=int(p), entrant_id=f"{ev.group.id}#{t}",
                         name=ev.name_of(t), unit=ev.unit_of(t), team=t,
                         members=roster_members(ev.roster, ev.teams.get(t, {}).get("roster_row"))))
    missing = sorted(set(ev.teams) - set(seen))
    if missing and not errs:
        errs.append(InputError(
            f"总排名缺少 {len(missing)} 支队（{'、'.join(f'{t}号' for t in missing[:10])}）："
            f"请重新运行“排名”", f"{len(missing)} team(s) missing from the final ranking: run rank",
            sheet=sheet))
    if errs:
        raise InputErrors(errs)
    return pd.DataFrame(rows).sort_values("place", kind="stable").reset_index(drop=True)


def team_awards(port: WorkbookPort) -> c.CommandResult:
    """奖励 of a finished team event: 总排名 → ``allocate`` with the regulation's awards block
    (entries = the teams in 报名) → 奖励 (组别, 名次, 姓名/队名, 单位, 奖项, 税前, 代扣税额, 实发),
    领奖签收表 (实发 in 大写, 签名) and 证书. Raises ``InputErrors`` (nothing written) while the
    event is not over or 总排名 is missing/bad."""
    ev = load_team_event(port)
    if ev.errors:
        raise InputErrors(ev.errors)
    if ev.reg.awards is None:
        raise InputErrors([InputError("规程没有奖励设置", "the regulation has no awards block",
                                      sheet=find_sheet(port, L.SETTINGS) or L.SETTINGS.zh)])
    standings = team_final_standings(ev)
    entries = {ev.group.name_zh: len(ev.roster)}
    return c.write_awards(port, ev.reg, standings, entries, ev.lang,
                          args={"entries": len(ev.roster)})
