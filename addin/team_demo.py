"""``bianpai demo fujian-elder-bridge-teams`` / ``otog-bridge-teams``: a 20-team bridge event
through every stage on a real workbook, the demo playing the arbiter who types board scores.

Creates the workbook, fills the roster (Fujian: the 9 设区市 and 省直老体协, several with two teams,
so round 1 pairs same-unit teams first), draws team numbers and every round, fills every board
from a seeded simulation (open- and closed-room North-South scores, multiples of 10), advances
from stage 1 to stage 2 (knockout + consolation Swiss, or final round robin + consolation),
ranks, allocates the awards (奖励, 领奖签收表, 证书) and prints the final ranking, the carry-over
of the teams joining late and the awards.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from decimal import Decimal
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
            # Fujian 总规程六（二）3（1）: 8 bridge players a unit, so two teams have 4 each
            size = 4 if units is FUJIAN_UNITS and count > 1 else rng.choice([4, 4, 5, 6])
            for _ in range(size):
                k += 1
                players.append(f"队员{k:03d}")
            players += [None] * (6 - len(players))
            rows.append([None, f"{unit}{ORDINAL[i]}队" if count > 1 else f"{unit}队", unit,
                         *players, f"领队{len(rows) + 1:02d}", None])
    return rows


def player_rows(preset: str, roster: list[list], seed: int) -> list[list]:
    """队员 rows (columns of :data:`bianpai.workbooks.team_layouts.TEAM_PLAYERS`) for every
    player and captain of ``roster`` rows: gender and a birth date inside the regulation's age
    rules at its event date (Fujian 七（一）: men 58–72, women 53–72; Otog 六（二）: 18 to under
    65)."""
    rng = random.Random(seed + 7)
    fujian = preset.startswith("fujian")
    out = []
    for row in roster:
        team = row[1]
        names = [v for v in row[3:10] if v]  # 队员1–6 and 领队/教练
        for name in names:
            gender = rng.choice(["男", "女"])
            if fujian:
                year = rng.randint(1953, 1965) if gender == "男" else rng.randint(1953, 1970)
            else:
                year = rng.randint(1961, 2004)
            out.append([team, name, gender, dt.date(year, rng.randint(1, 12), rng.randint(1, 28)),
                        None, None])
    return out


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


def fill_boards(out: Path | OpenpyxlPort, rng: random.Random, strength: dict[int, float]) -> int:
    """Type every blank 逐副成绩 row of a scheduled match (in the workbook at ``out``, or in the
    demo's open port); returns the number of boards filled."""
    from bianpai.addin.core_demo import _port  # noqa: PLC0415
    port = _port(out, "demo-results")
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
    """Run a team event end to end; returns the data of the final ``rank`` command plus
    ``奖励`` (the awards rows)."""
    from bianpai.addin import commands
    console = console or Console()
    reg = load_preset(preset)
    out = Path(out)
    if out.exists():
        out.unlink()
    port = OpenpyxlPort(out, create=True, command="new")
    commands.build_workbook(port, reg)
    console.print(f"[green]✓[/] 新建工作簿 {out}（{reg.title_zh}）")
    from bianpai.addin.core_demo import DemoPort  # noqa: PLC0415
    # one open workbook for the whole event, written once at the end (as the core demo)
    port = DemoPort(out, command="demo")
    try:
        roster = team_roster(preset, seed, n_teams)
        port.append_rows(find_sheet(port, T.TEAM_ROSTER), roster, start_row=2)
        people = player_rows(preset, roster, seed)
        port.append_rows(find_sheet(port, T.TEAM_PLAYERS), people, start_row=2)
        console.print(f"[green]✓[/] 报名：{len(roster)} 队，队员表 {len(people)} 人")
        res = commands.check(port)
        console.print(f"[green]✓[/] {res.summary_zh}")
        for f in res.findings:
            console.print(f"  [yellow]{f['severity']} {f['where']}[/] {f['zh']}")
        # the 资格审查 accepts the warnings (e.g. 省直老体协's extra teams, 总规程六（二）3（2）)
        accept = "资格审查委员会已核准（演示）" if any(
            f["severity"] == "warning" for f in res.findings) else None
        rng = random.Random(seed + 1)
        strength = {t: rng.gauss(0, 0.5) for t in range(1, n_teams + 1)}
        step = 0
        while True:
            ev = teams.load_team_event(port)
            stages = ev.group.stages
            if all(ev.finished(s) for s in stages):
                break
            if ev.started(stages[0]) and ev.finished(stages[0]) and not all(
                    ev.started(s) for s in stages):
                r = teams.team_advance(port, seed=seed + 100)
                console.print(f"[green]✓[/] {r.summary_zh}")
            elif not ev.started(stages[0]) or not any(
                    ev.missing(s, ev.rounds_drawn(s)) for s in stages if ev.started(s)):
                r = teams.team_draw(port, seed=seed + step, accept_warnings=accept)
                console.print(f"[green]✓[/] {r.summary_zh}")
            n = fill_boards(port, rng, strength)
            if n:
                console.print(f"  [dim]模拟录入 {n} 副牌成绩[/]")
            step += 1
            if step > 60:  # pragma: no cover - guard against a loop that makes no progress
                raise RuntimeError("demo made no progress")
        res = commands.rank(port, seed=seed)
        console.print(f"[green]✓[/] {res.summary_zh}")
        _print(console, port, res.data, reg)
        aw = commands.awards(port)
        console.print(f"[green]✓[/] {aw.summary_zh}")
        _print_awards(console, aw.data, reg)
    finally:
        port.commit()
    console.print(f"[bold]已保存[/] {out.resolve()}")
    return {**res.data, "奖励": aw.data["awards"]}


def _print(console: Console, port: OpenpyxlPort, data: dict, reg) -> None:
    ev = teams.load_team_event(port)
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


def _print_awards(console: Console, data: dict, reg) -> None:
    t = Table(title=f"{reg.title_zh} 奖励")
    for c in ("名次", "队名", "单位", "奖项", "实发", "证书/奖杯"):
        t.add_column(c)
    for r in data["awards"]:
        things = "、".join(x for x, k in (("奖杯", "trophy"), ("奖牌", "medal"),
                                          ("证书", "certificate")) if r.get(k))
        net = r.get("net")
        t.add_row(str(r["place_label"]), str(r["name"]), str(r.get("unit") or ""),
                  str(r.get("award") or ""), "" if net is None else f"¥{Decimal(str(net)):,.2f}",
                  things)
    console.print(t)
