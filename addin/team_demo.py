"""``bianpai demo fujian-elder-bridge-teams`` / ``otog-bridge-teams``: a 20-team bridge event
through every stage on a real workbook, the demo playing the arbiter who types board scores.

Creates the workbook, fills the roster (Fujian: the 9 设区市 and 省直老体协, several with two teams,
so round 1 pairs same-unit teams first), draws team numbers and every round, fills every board
from a seeded simulation (open- and closed-room North-South scores, multiples of 10), advances
from stage 1 to stage 2 (knockout + consolation Swiss, or final round robin + consolation),
ranks, and prints the final ranking and the carry-over of the teams joining late.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bianpai.addin import teams
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.tables import find_sheet

FUJIAN_UNITS = [("福州市", 2), ("厦门市", 2), ("泉州市", 2), ("漳州市", 2), ("莆田市", 1),
                ("三明市", 1), ("南平市", 2), ("龙岩市", 1), ("宁德市", 2), ("省直老体协", 5)]
OTOG_UNITS = [("乌兰镇", 3), ("棋盘井镇", 4), ("阿尔巴斯苏木", 2), ("苏米图苏木", 2),
              ("旗直机关", 5), ("蒙西镇", 4)]
ORDINAL = "一二三四五六七八九"
SCORES = [50, 90, 100, 110, 120, 130, 140, 150, 170, 180, 200, 300, 400, 420, 430, 450, 460,
          480, 490, 500, 510, 600, 620, 630, 650, 660, 680, 690, 710, 720, 790, 800, 920, 940,
          980, 990, 1010, 1100, 1370, 1430, 1440, 1460, 2210]
SWINGS = [30, 50, 100, 130, 200, 300, 500, 620, 800]


def team_roster(preset: str, seed: int, n: int = 20) -> list[list]:
    """Roster rows (columns of :data:`bianpai.workbooks.team_layouts.TEAM_ROSTER`) of ``n`` teams
    with 4–6 generated player names each; team numbers left empty for the lot."""
    rng = random.Random(seed)
    units = FUJIAN_UNITS if preset.startswith("fujian") else OTOG_UNITS
    rows, k = [], 0
    for unit, count in units:
        for i in range(count):
            if len(rows) == n:
                break
            players = []
            for _ in range(rng.choice([4, 4, 5, 6])):
                k += 1
                players.append(f"队员{k:03d}")
            players += [None] * (6 - len(players))
            rows.append([None, f"{unit}{ORDINAL[i]}队" if count > 1 else f"{unit}队", unit,
                         *players, f"领队{len(rows) + 1:02d}", None])
    return rows


def simulate_board(rng: random.Random, home: float, away: float) -> tuple[int, int]:
    """(open-room NS, closed-room NS) scores of one board: the home team sits NS in the open room
    and EW in the closed room; the stronger side gains more swings."""
    par = rng.choice([1, -1]) * rng.choice(SCORES)

    def room(ns: float, ew: float) -> int:
        if rng.random() < 0.45:
            return par
        delta = rng.choice(SWINGS)
        p = 1 / (1 + math.exp(-(ns - ew)))
        return par + delta if rng.random() < p else par - delta
    return room(home, away), room(away, home)


def fill_boards(out: Path, rng: random.Random, strength: dict[int, float]) -> int:
    """Type every blank 逐副成绩 row of a scheduled match; returns the number of boards filled."""
    port = OpenpyxlPort(out, command="demo-results")
    ev = teams.load_team_event(port)
    idx = {(r.stage_id, int(r.round), int(r.table)): r for r in ev.schedule.itertuples()}
    name = find_sheet(port, T.TEAM_BOARDS)
    grid = port.read_values(name)
    header = grid[0]
    col = {k: header.index(T.TEAM_BOARDS.column(k).title(ev.lang))
           for k in ("stage", "round", "table", "open_ns", "closed_ns")}
    filled = 0
    for row in grid[1:]:
        if row[col["open_ns"]] is not None:
            continue
        st = next(s for s in ev.group.stages if row[col["stage"]] in (s.name_zh, s.name_en, s.id))
        m = idx[(st.id, int(row[col["round"]]), int(row[col["table"]]))]
        o, c = simulate_board(rng, strength[int(m.home)], strength[int(m.away)])
        row[col["open_ns"]], row[col["closed_ns"]] = o, c
        filled += 1
    if filled:
        port.append_rows(name, grid[1:], start_row=2)
        port.save()
    return filled


def run_team_demo(preset: str, out: Path, *, seed: int = 2024, n_teams: int = 20,
                  console: Console | None = None) -> dict:
    """Run a team event end to end; returns the data of the final ``rank`` command."""
    from bianpai.addin import commands
    console = console or Console()
    reg = load_preset(preset)
    out = Path(out)
    if out.exists():
        out.unlink()
    port = OpenpyxlPort(out, create=True, command="new")
    commands.build_workbook(port, reg)
    console.print(f"[green]✓[/] 新建工作簿 {out}（{reg.title_zh}）")
    port = OpenpyxlPort(out, command="demo-roster")
    roster = team_roster(preset, seed, n_teams)
    port.append_rows(find_sheet(port, T.TEAM_ROSTER), roster, start_row=2)
    port.save()
    console.print(f"[green]✓[/] 报名：{len(roster)} 队")
    res = commands.check(OpenpyxlPort(out, command="check"))
    console.print(f"[green]✓[/] {res.summary_zh}")
    rng = random.Random(seed + 1)
    strength = {t: rng.gauss(0, 0.5) for t in range(1, n_teams + 1)}
    step = 0
    while True:
        ev = teams.load_team_event(OpenpyxlPort(out, command="peek"))
        stages = ev.group.stages
        if all(ev.finished(s) for s in stages):
            break
        if ev.started(stages[0]) and ev.finished(stages[0]) and not all(
                ev.started(s) for s in stages):
            r = teams.team_advance(OpenpyxlPort(out, command="advance"), seed=seed + 100)
            console.print(f"[green]✓[/] {r.summary_zh}")
        elif not ev.started(stages[0]) or not any(
                ev.missing(s, ev.rounds_drawn(s)) for s in stages if ev.started(s)):
            r = teams.team_draw(OpenpyxlPort(out, command="draw"), seed=seed + step)
            console.print(f"[green]✓[/] {r.summary_zh}")
        n = fill_boards(out, rng, strength)
        if n:
            console.print(f"  [dim]模拟录入 {n} 副牌成绩[/]")
        step += 1
        if step > 60:  # pragma: no cover - guard against a loop that makes no progress
            raise RuntimeError("demo made no progress")
    res = commands.rank(OpenpyxlPort(out, command="rank"), seed=seed)
    console.print(f"[green]✓[/] {res.summary_zh}")
    _print(console, out, res.data, reg)
    console.print(f"[bold]已保存[/] {out.resolve()}")
    return res.data


def _print(console: Console, out: Path, data: dict, reg) -> None:
    ev = teams.load_team_event(OpenpyxlPort(out, command="peek"))
    e = ev.entries
    late = e[e["join_round"].astype(int) > 1] if len(e) else e
    if len(late):
        t = Table(title="中途加入附加赛的队（带分）")
        for c in ("队号", "队名", "名次", "VP", "比例", "比例带分", "另加", "带分", "轮次"):
            t.add_column(c)
        for r in late.to_dict("records"):
            t.add_row(str(r["team"]), ev.name_of(r["team"]), str(r["from_place"]),
                      f"{r['from_vp']:.2f}", f"{r['fraction']:.0%}" if r["fraction"] is not None
                      else "", f"{r['scaled']:.2f}", f"{r['plus']:.2f}", f"{r['carry']:.2f}",
                      str(r["join_round"]))
        console.print(t)
    final = data.get("总排名", [])
    t = Table(title=f"{reg.title_zh} 最终排名")
    for c in ("名次", "队号", "队名", "名次来源"):
        t.add_column(c)
    for r in final:
        t.add_row(str(r["place"]), str(r["team"]), r["name"], r["source"])
    console.print(t)
