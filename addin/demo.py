"""``bianpai demo``: a preset's event end to end on a field of its 规程 — the competition core's
demo (:func:`bianpai.addin.core_demo.run_core_demo`: workbook, roster typed, check, draw,
seeded simulated results, rank, awards, the standings printed; the Shenzhen guandan pairs
default and the bridge team presets included).
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.demo_rosters import UNITS, demo_roster  # noqa: F401  (the field)


def run_demo(preset: str, out: Path, *, seed: int = 2023, console: Console | None = None) -> dict:
    """Run the demo; returns the standings data of :func:`bianpai.addin.commands.rank`. A core
    preset runs :func:`bianpai.addin.core_demo.run_core_demo` instead."""
    console = console or Console()
    reg = load_preset(preset)
    from bianpai.addin.competition import is_core_regulation
    if is_core_regulation(reg):
        from bianpai.addin.core_demo import run_core_demo
        return run_core_demo(preset, out, seed=seed, console=console)
    from bianpai.engines.errors import RuleError
    raise RuleError(f"预设 {preset} 没有可演示的比赛阶段", f"preset {preset} has no stage to demo")


def final_table(group: str, rows: list[dict]) -> Table:
    """The demo's final standings of one group (rows as :func:`bianpai.addin.commands.rank`
    gives them): :func:`bianpai.addin.core_demo_views.standings_table`."""
    from bianpai.addin.core_demo_views import standings_table  # noqa: PLC0415
    return standings_table(group, rows)
