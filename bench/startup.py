"""Benchmark (on demand, not in the test suite): ``python bench/startup.py`` (issue 13).

Start-up: ``bianpai --help`` and a button (``check``) on a tiny workbook (a fresh ``bianpai
new`` of the fujian preset, nothing entered) against the floor ``import openpyxl`` + a load and
save of that workbook, each as a whole process, alternating floor, command, floor … (the first
pair not counted). CPU = user + sys from ``os.wait4``; the table shows medians and the median
of the pairwise ratios. Goal (issue 13): ≤ 1.2 × the floor. The command line runs numpy's
OpenBLAS on one thread (``bianpai.addin.cli``); the last column is the ratio to a floor run the
same way (``OPENBLAS_NUM_THREADS=1``), for what that setting alone takes off.
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
from buttons import compile_package, run  # noqa: E402

FLOOR = ("import sys, warnings, openpyxl; warnings.simplefilter('ignore'); "
         "openpyxl.load_workbook(sys.argv[1]).save(sys.argv[2])")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args(argv)
    compile_package()
    from rich.console import Console
    from rich.table import Table
    cli = [sys.executable, "-m", "bianpai.addin.cli"]
    table = Table(title="start-up vs import openpyxl + load/save of a tiny workbook (medians)")
    one = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    for col in ("command", "floor CPU s", "command CPU s", "CPU ×floor", "(min–max)", "ok",
                "×floor, 1 BLAS thread"):
        table.add_column(col, justify="left" if col == "command" else "right")
    with tempfile.TemporaryDirectory() as d:
        tiny = Path(d) / "tiny.xlsx"
        subprocess.run(cli + ["new", "fujian-elder-mind-games-2024", "-o", str(tiny)],
                       check=True, capture_output=True)
        for name, cmd in (("bianpai --help", cli + ["--help"]),
                          ("bianpai check (tiny)", cli + ["check", str(tiny)])):
            rows = []
            for _ in range(a.repeat + 1):
                f = run([sys.executable, "-c", FLOOR, str(tiny), str(Path(d) / "out.xlsx")])
                b = run(cmd)
                f1 = run([sys.executable, "-c", FLOOR, str(tiny), str(Path(d) / "out.xlsx")],
                         env=one)
                rows.append((f, b, f1))
            rows = rows[1:]
            ratios = [b[1] / f[1] for f, b, _ in rows]
            ratios1 = [b[1] / f1[1] for _, b, f1 in rows]
            med = statistics.median(ratios)
            table.add_row(name, f"{statistics.median(r[0][1] for r in rows):.3f}",
                          f"{statistics.median(r[1][1] for r in rows):.3f}", f"{med:.2f}",
                          f"{min(ratios):.2f}–{max(ratios):.2f}", "✓" if med <= 1.2 else "✗",
                          f"{statistics.median(ratios1):.2f}")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
