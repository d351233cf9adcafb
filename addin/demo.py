"""``bianpai demo``: the default event end to end on the real field of its 规程.

Shenzhen guandan pairs 2023: 男子 8 pairs (the four ranked qualifiers of the appendix plus four
association picks), 女子 4, 混合 4. Creates the workbook, fills the roster, checks, draws, fills
every board of every round from a seeded simulation of guandan board results (the demo plays the
arbiter typing results), ranks, allocates awards, saves, and prints each group's standings.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bianpai.addin import commands
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks import layouts as L
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.demo_rosters import UNITS, demo_roster  # noqa: F401  (the field)
from bianpai.workbooks.tables import find_sheet


def simulate_board(rng: random.Random, ns_strength: float, ew_strength: float) -> int:
    """Levels won by NS on one guandan board (+1/+2/+3, negative when EW wins)."""
    p_ns = 1 / (1 + math.exp(-(ns_strength - ew_strength)))
    levels = rng.choices([1, 2, 3], weights=[45, 35, 20])[0]
    return levels if rng.random() < p_ns else -levels


def run_demo(preset: str, out: Path, *, seed: int = 2023, console: Console | None = None) -> dict:
    """Run the demo; returns the standings data of :func:`bianpai.addin.commands.rank`.

    A team preset (bridge teams) runs :func:`bianpai.addin.team_demo.run_team_demo` instead."""
    console = console or Console()
    reg = load_preset(preset)
    from bianpai.addin.competition import is_core_regulation
    if is_core_regulation(reg):
        from bianpai.addin.core_demo import run_core_demo
        return run_core_demo(preset, out, seed=seed, console=console)
    from bianpai.addin.teams import is_team_regulation
    if is_team_regulation(reg):
        from bianpai.addin.team_demo import run_team_demo
        return run_team_demo(preset, out, seed=seed, console=console)
    out = Path(out)
    if out.exists():  # keep the previous demo workbook in its backup stack
        from bianpai.workbooks.backups import push
        push(out, "demo")
        out.unlink()
    with console.status("新建工作簿…") as status:
        port = OpenpyxlPort(out, create=True, command="new")
        commands.build_workbook(port, reg)
        console.print(f"[green]✓[/] 新建工作簿 {out}（{reg.title_zh}）")

        status.update("填写报名表…")
        port = OpenpyxlPort(out, command="demo-roster")
        roster = demo_roster(seed)
        port.append_rows(find_sheet(port, L.ROSTER_PAIRS), roster, start_row=2)
        port.save()
        console.print(f"[green]✓[/] 报名：{len(roster)} 对")

        status.update("检查名单…")
        res = commands.check(OpenpyxlPort(out, command="check"))
        console.print(f"[green]✓[/] {res.summary_zh}")

        status.update("抽签编排…")
        res = commands.draw(OpenpyxlPort(out, command="draw"), seed=seed)
        console.print(f"[green]✓[/] {res.summary_zh}（随机种子 {res.seed}）")

        status.update("模拟录入成绩…")
        port = OpenpyxlPort(out, command="demo-results")
        name = find_sheet(port, L.BOARDS)
        grid = port.read_values(name)
        rng = random.Random(seed + 1)
        strength: dict[tuple, float] = {}
        for row in grid[1:]:
            g, ns, ew = row[0], row[4], row[5]
            for p in (ns, ew):
                strength.setdefault((g, p), rng.gauss(0, 0.6))
            row[6] = simulate_board(rng, strength[(g, ns)], strength[(g, ew)])
        port.append_rows(name, grid[1:], start_row=2)
        port.save()
        console.print(f"[green]✓[/] 成绩：{len(grid) - 1} 副牌结果")

        status.update("计算排名…")
        res = commands.rank(OpenpyxlPort(out, command="rank"), seed=seed)
        console.print(f"[green]✓[/] {res.summary_zh}")
        if hasattr(commands, "awards"):
            status.update("奖励分配…")
            ares = commands.awards(OpenpyxlPort(out, command="awards"))
            console.print(f"[green]✓[/] {ares.summary_zh}")
    for group, rows in res.data.items():
        console.print(final_table(group, rows))
    console.print(f"[bold]已保存[/] {out.resolve()}")
    return res.data


def final_table(group: str, rows: list[dict]) -> Table:
    """The demo's final standings of one group (rows as :func:`bianpai.addin.commands.rank`
    gives them): :func:`bianpai.addin.core_demo_views.standings_table`."""
    from bianpai.addin.core_demo_views import standings_table  # noqa: PLC0415
    return standings_table(group, rows)
