"""Benchmark (on demand, not in the test suite): ``python bench/demos.py`` (issue 13).

The whole simulated event of each competition-core preset, ``bianpai demo <preset>``, run as a
whole process (``python -m bianpai.addin.cli demo …``) into a fresh folder, ``--repeat`` times
(default 3); the operating system's accounting of each finished child (``os.wait4``, through
``buttons.LAUNCHER`` so the figure is the child's own) gives CPU
(user + sys) seconds and peak resident memory. The table shows the best CPU (the least disturbed
run on a shared machine), the median and the wall time of the best run. Goal (issue 13): ≤ 5 s CPU
per preset.

Options: ``--presets a,b`` (ids or short names gouji, otog, fujian, shenzhen, cbsa), ``--repeat N``,
``--base DIR``: also run another checkout, alternating base, this, base, this … (``DIR`` holds a
``bianpai/`` folder whose ``addin``, ``engines``, ``workbooks``, ``templates`` are that
checkout's, put first on ``PYTHONPATH``); the table then shows both and the median ratio
this / base, which stays meaningful when a shared machine's load inflates the seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# the same .pyc footing as an install; each demo's own CPU and peak memory (buttons.LAUNCHER)
from buttons import compile_package, run  # noqa: E402

PRESETS = {"gouji": "qingdao-gouji-2015", "otog": "otog-mind-games-2024",
           "fujian": "fujian-elder-mind-games-2024", "cbsa": "cbsa-chinese-eightball-open-2022",
           "shenzhen": "shenzhen-guandan-pairs-2023"}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presets", default="gouji,otog,fujian,shenzhen,cbsa")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base", type=Path, default=None)
    a = ap.parse_args(argv)
    compile_package()
    from rich.console import Console
    from rich.table import Table
    table = Table(title="bianpai demo <preset>: whole simulated event (issue 13 goal ≤ 5 s CPU)")
    cols = ["preset", "best CPU s", "median CPU s", "wall s (best)", "peak MiB", "ok"]
    if a.base:
        cols[1:1] = ["base best CPU s", "base median CPU s"]
        cols.insert(-1, "median ratio")
    for col in cols:
        table.add_column(col, justify="left" if col == "preset" else "right")
    base_env = None
    if a.base:
        base_env = dict(os.environ, PYTHONPATH=str(a.base))
        subprocess.run([sys.executable, "-c", "import compileall, importlib; [compileall.compile_dir("
                        "d, quiet=1) for p in ('addin', 'engines', 'workbooks', 'templates') for d in "
                        "importlib.import_module('bianpai.' + p).__path__]"], env=base_env, check=True)
    med = statistics.median
    for short in a.presets.split(","):
        preset = PRESETS.get(short, short)
        runs, base = [], []
        with tempfile.TemporaryDirectory() as d:
            for i in range(a.repeat):
                cmd = [sys.executable, "-m", "bianpai.addin.cli", "demo", preset, "-o"]
                if base_env is not None:
                    base.append(run(cmd + [str(Path(d) / f"base-{i}.xlsx")], base_env))
                runs.append(run(cmd + [str(Path(d) / f"demo-{i}.xlsx")]))
        best = min(runs, key=lambda r: r[1])
        rc = max(r[3] for r in runs + base)
        row = [short + (f" (exit {rc})" if rc else ""), f"{best[1]:.2f}",
               f"{med(r[1] for r in runs):.2f}", f"{best[0]:.2f}",
               f"{max(r[2] for r in runs) / 1024:.0f}", "✓" if best[1] <= 5 else "✗"]
        if base:
            row[1:1] = [f"{min(r[1] for r in base):.2f}", f"{med(r[1] for r in base):.2f}"]
            row.insert(-1, f"{med(n[1] / b[1] for n, b in zip(runs, base)):.2f}")
        table.add_row(*row)
        print(f"{short}: {best[1]:.2f} s CPU" + (f" (base {min(r[1] for r in base):.2f})"
                                                  if base else ""), file=sys.stderr)
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
