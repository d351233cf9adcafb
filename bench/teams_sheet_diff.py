"""What separates the bridge team pipeline's workbook from the competition core's, run on
demand: ``python bench/teams_sheet_diff.py [preset …]``.

For each bridge team preset: the golden workbook the bridge team pipeline writes
(``tests/data/golden/<preset>``) against the workbook the core's generic commands write for the
same preset with the bridge pieces let onto the core (``runs_on_core``; the core demo on 12
teams). Prints one table per preset: each sheet of either workbook, its columns in the
pipeline's workbook, in the core's, and what differs (sheet missing, columns only in one).
This is the to-do list of the declarations (layouts, hooks) the core needs before the presets
switch (issue 8).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import openpyxl
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PRESETS = ("fujian-elder-bridge-teams", "otog-bridge-teams")
#: core sheet → the pipeline sheet holding the same record, where the names differ
SAME_RECORD = {"晋级": "带分", "逐局成绩": "逐副成绩"}


def core_workbook(preset: str, out: Path) -> dict[str, list]:
    """Header row of every sheet the core writes for ``preset`` (demo, 12 teams)."""
    from bianpai.addin.core_demo import run_core_demo
    from bianpai.engines import bridge_teams_scoring as B
    from bianpai.engines.bridge_knockout import Knockout8
    from bianpai.engines.team_swiss import TeamSwiss
    from bianpai.templates.presets_io import load_preset
    for cls in (TeamSwiss, Knockout8, B.BridgeTeamsVp, B.BridgeKnockoutImps):
        cls.runs_on_core = True
    reg = load_preset(preset)
    reg.groups[0].team_size = 4
    run_core_demo(reg, out, fields={reg.groups[0].id: 12}, pictures=False,
                  console=Console(quiet=True))
    book = openpyxl.load_workbook(out, read_only=True)
    return {ws.title: list(next(ws.iter_rows(values_only=True), ())) for ws in book.worksheets}


def pipeline_workbook(preset: str) -> dict[str, list]:
    from tests import golden_teams_build as G
    return {name: (rows[0] if rows else []) for name, rows in G.load(preset).items()}


def header(sheet: str, cols: list) -> list:
    if sheet in ("规程", "_bianpai_settings", "荣誉证书"):
        return []  # settings dump / printed certificates: no header row to compare
    return [c for c in cols if c is not None]


def main(presets) -> None:
    con = Console(width=200)
    for preset in presets:
        old = pipeline_workbook(preset)
        with tempfile.TemporaryDirectory() as t:
            new = core_workbook(preset, Path(t) / "core.xlsx")
        table = Table(title=f"{preset}: bridge team pipeline vs competition core", show_lines=True)
        for col in ("sheet", "pipeline columns", "core columns", "difference"):
            table.add_column(col, overflow="fold")
        rename = {v: k for k, v in SAME_RECORD.items()}
        for name in list(old) + [n for n in new if n not in old and n not in SAME_RECORD]:
            o = header(name, old.get(name, []))
            cname = rename.get(name, name)
            n = header(name, new.get(cname, [])) if cname in new else None
            if name in ("规程", "_bianpai_settings", "荣誉证书") and name in new:
                diff = "both (values not compared here: tests/test_teams_golden.py)"
            elif name not in old:
                diff = "core only"
            elif n is None:
                diff = "pipeline only" + ("" if not name.startswith("排名-") else
                                          " (core: one 排名 sheet, 阶段 column)")
            else:
                only_o = [c for c in o if c not in n]
                only_n = [c for c in n if c not in o]
                diff = "; ".join(x for x in (
                    f"core sheet {cname}" if cname != name else "",
                    f"pipeline only: {', '.join(map(str, only_o))}" if only_o else "",
                    f"core only: {', '.join(map(str, only_n))}" if only_n else "",
                    "same columns, other order" if not only_o and not only_n and o != n else "",
                ) if x) or "same columns"
            table.add_row(name, ", ".join(map(str, o)) if name in old else "—",
                          ", ".join(map(str, n)) if n is not None else "—", diff)
        con.print(table)


if __name__ == "__main__":
    main(sys.argv[1:] or PRESETS)
