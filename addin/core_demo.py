"""The demo of a competition-core preset: every group and stage on a simulated field.

Builds the workbook, fills 报名/队员 with invented teams (the field size the 规程 names, else
16), checks, then repeats draw → simulated results → (advance when a stage ends) until every
stage is over, ranks, allocates the awards and prints each group's final table. Results are
simulated by the stage scoring's ``simulate(match, rng, strength)``; nothing here knows the
sport.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bianpai.addin import commands
from bianpai.engines.errors import RuleError
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.tables import find_sheet

__all__ = ["run_core_demo"]

CITIES = ["青岛", "济南", "烟台", "潍坊", "临沂", "淄博", "济宁", "泰安", "威海", "日照", "滨州",
          "德州", "聊城", "菏泽", "枣庄", "东营", "莱芜", "莱西", "胶州", "平度"]
SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华建国志红"


def _birth(reg, g, gender: str, day: dt.date, rng: random.Random) -> dt.date:
    """A birth date the regulation's age ranges accept (completed years at the group's first
    day, well inside the range), else an adult of 25–50."""
    lo, hi = 25, 50
    rules = getattr(reg.eligibility, "age_ranges", None) or []
    for r in rules:
        if r.gender in (None, {"男": "M", "女": "F"}[gender]):
            lo, hi = (r.min_age or 0) + 1, (r.max_age or (r.min_age or 0) + 30) - 2
            break
    age = rng.randint(lo, max(lo, hi))
    return dt.date(day.year - age - 1, rng.randint(1, 12), rng.randint(1, 28))


def _people(reg, seed: int, fields: dict[str, int] | None = None) -> list[list]:
    """People-roster rows (组别, 队名/组合, 序号, 姓名, 性别, 出生日期, 证件号, 单位, 角色, 备注, 种子,
    等级分) of every group with stages: ``entries`` entrants (else 16) of ``team_size`` people."""
    rng = random.Random(seed)
    out = []
    for g in reg.groups:
        if not g.stages:
            continue
        day = g.event_date or reg.event_date or dt.date.today()
        size = 1 if g.entrant == "individual" else (g.team_size or (2 if g.entrant == "pair" else 3))
        used: set[str] = set()
        for i in range((fields or {}).get(g.id) or g.entries or 16):
            unit = CITIES[i % len(CITIES)]
            team = None if g.entrant == "individual" else f"{unit}{g.name_zh[:2]}{i // len(CITIES) + 1}队"
            for _ in range(size):
                p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                while p in used:
                    p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                used.add(p)
                sex = rng.choice(["男", "女"])
                out.append([g.name_zh, team, None, p, sex, _birth(reg, g, sex, day, rng), None, unit,
                            "队员", None, None, None])
    return out


def _roster(reg, seed: int, fields: dict[str, int] | None = None
            ) -> tuple[list[list], list[list]]:
    """Roster rows (组别, 队号, 队名, 单位, 队员1–6, 领队, 种子, 备注) and 队员 rows; ``fields``
    overrides the number of entries of a group (by id), else the 规程's ``entries`` (or 16)."""
    rng = random.Random(seed)
    day = reg.event_date or dt.date.today()
    roster, people = [], []
    for g in reg.groups:
        if not g.stages:
            continue
        n = (fields or {}).get(g.id) or g.entries or 16
        size = g.team_size or 3
        for i in range(n):
            unit = CITIES[i % len(CITIES)]
            name = f"{unit}{g.name_zh[:2]}{i // len(CITIES) + 1}队"
            players = []
            for _ in range(size):
                p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                while p in players:
                    p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                players.append(p)
                born = dt.date(day.year - rng.randint(25, 50), rng.randint(1, 12), rng.randint(1, 28))
                people.append([name, p, rng.choice(["男", "女"]), born, None, None])
            roster.append([g.name_zh, None, name, unit, *(players + [None] * 6)[:6], None, None, None])
    return roster, people


def _fill_results(out: Path, rng: random.Random, strength: dict) -> int:
    """Simulated values in every empty 逐局成绩 row (by the stage scoring's ``simulate``)."""
    from bianpai.addin.competition import load_core_event  # noqa: PLC0415
    port = OpenpyxlPort(out, command="demo-results")
    ev = load_core_event(port)
    name = find_sheet(port, ev.lay.games)
    grid = port.read_values(name)
    header = grid[0]
    keys = [c.key for c in ev.lay.games.columns]
    filled = 0
    by_match: dict[tuple, list[int]] = {}
    # columns a scoring prefills when a match's rows are prepared (台次, 牌号) do not count
    prefilled = {k for g in ev.reg.groups for s in g.stages
                 for k in getattr(s.scoring, "prefilled", ())}
    for i, row in enumerate(grid[1:], start=1):
        row = list(row) + [None] * (len(header) - len(row))
        grid[i] = row
        if all(v in (None, "") for k, v in zip(keys[6:], row[6:]) if k not in prefilled):
            by_match.setdefault(tuple(row[:5]), []).append(i)
    sched = {(r["group_id"], r["stage_id"], r["pool"], r["round"], r["table"]): r
             for r in ev.schedule.to_dict("records")}
    for key, idxs in by_match.items():
        g = ev.group_of(key[0])
        s = ev.stage_of(g, key[1])
        m = sched[(g.id, s.id, key[2], key[3], key[4])]
        sides = (m["side0"], m["side1"])
        st = tuple(strength.setdefault((g.id, x), rng.gauss(0, 1)) for x in sides)
        games = s.scoring.simulate(rng, st, len(idxs))
        for i, vals in zip(idxs, games):
            for k, v in vals.items():
                grid[i][keys.index(k)] = v
        filled += 1
    # a knockout match tied after the regular games gets its extra game (加赛) row
    extra = []
    for key, idxs in by_match.items():
        g = ev.group_of(key[0])
        s = ev.stage_of(g, key[1])
        rows = [dict(zip(keys, grid[i])) for i in idxs]
        from bianpai.engines.core import TypedMatch  # noqa: PLC0415
        import pandas as pd  # noqa: PLC0415
        games = pd.DataFrame(rows)[[k for k in keys[5:]]]
        need = getattr(s.scoring, "extra_games_needed", lambda t: 0)(TypedMatch(games=games))
        while need:
            st = tuple(strength[(g.id, x)] for x in (sched[(g.id, s.id, key[2], key[3], key[4])][k]
                                                      for k in ("side0", "side1")))
            for vals in s.scoring.simulate(rng, st, need):
                row = list(key) + [len(rows) + 1] + [None] * (len(keys) - 6)
                for k, v in vals.items():
                    row[keys.index(k)] = v
                extra.append(row)
                rows.append(dict(zip(keys, row)))
            games = pd.DataFrame(rows)[[k for k in keys[5:]]]
            need = s.scoring.extra_games_needed(TypedMatch(games=games))
    port.append_rows(name, grid[1:] + extra, start_row=2)
    port.save()
    return filled


def run_core_demo(preset: str, out: Path, *, seed: int = 2015, console: Console | None = None,
                  fields: dict[str, int] | None = None) -> dict:
    """Run a core preset end to end; returns the ``rank`` data (standings per group/stage and
    the final ranking per group). ``fields``: entries per group id instead of the 规程's (a
    smaller field for tests). Raises ``BianpaiError`` when a step fails."""
    console = console or Console()
    reg = load_preset(preset)
    out = Path(out)
    if out.exists():
        from bianpai.workbooks.backups import push  # noqa: PLC0415
        push(out, "demo")
        out.unlink()
    port = OpenpyxlPort(out, create=True, command="new")
    commands.build_workbook(port, reg)
    console.print(f"[green]✓[/] 新建工作簿 {out}（{reg.title_zh}）")
    port = OpenpyxlPort(out, command="demo-roster")
    if reg.roster_layout == "people":
        from bianpai.workbooks import layouts as L  # noqa: PLC0415
        people = _people(reg, seed, fields)
        port.append_rows(find_sheet(port, L.ROSTER_PEOPLE), people, start_row=2)
        n_entries = len({(r[0], r[1] or r[3]) for r in people})
        port.save()
        console.print(f"[green]✓[/] 报名：{n_entries} 个参赛单位（队/组合/个人），{len(people)} 人")
    else:
        roster, people = _roster(reg, seed, fields)
        from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
        port.append_rows(find_sheet(port, K.ROSTER), roster, start_row=2)
        port.append_rows(find_sheet(port, T.TEAM_PLAYERS), people, start_row=2)
        port.save()
        console.print(f"[green]✓[/] 报名：{len(roster)} 队，{len(people)} 名队员")
    res = commands.check(OpenpyxlPort(out, command="check"))
    console.print(f"[green]✓[/] {res.summary_zh}")
    rng = random.Random(seed + 1)
    strength: dict = {}
    step = 0
    while step < 200:
        step += 1
        try:
            res = commands.draw(OpenpyxlPort(out, command="draw"), seed=seed + step)
        except RuleError as exc:
            if "advance" in exc.en:
                res = commands.advance(OpenpyxlPort(out, command="advance"), seed=seed + step)
                console.print(f"[green]✓[/] {res.summary_zh}")
                continue
            break
        console.print(f"[green]✓[/] {res.summary_zh}")
        _fill_results(out, rng, strength)
    res = commands.rank(OpenpyxlPort(out, command="rank"), seed=seed)
    console.print(f"[green]✓[/] {res.summary_zh}")
    if reg.awards is not None:
        ares = commands.awards(OpenpyxlPort(out, command="awards"))
        console.print(f"[green]✓[/] {ares.summary_zh}")
    for title, rows in res.data.items():
        if not title.endswith("总排名"):
            continue
        t = Table(title=f"{title} / final ranking")
        for col in ("名次", "队号", "队名", "名次来源"):
            t.add_column(col)
        for r in rows:
            t.add_row(str(r["place"]), str(r.get("team", r.get("number"))), str(r["name"]), str(r["source"]))
        console.print(t)
    console.print(f"[bold]已保存[/] {out.resolve()}")
    return res.data
