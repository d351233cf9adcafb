"""Benchmark (on demand, not in the test suite): ``python bench/buttons.py`` (issue 13).

Every button (check, draw, rank, ``rank --json``, advance, awards, undo) of the competition-core
presets, each on the largest workbook of its preset where it has work to do, against the
**floor** of the same file measured side by side in the same run: a separate process doing
``import pandas, openpyxl; load_workbook(f).save(g)`` (issue 13's floor).

The workbooks are built first, in-process, by the demo's own simulation (a whole event of the
preset's field: gouji 66 teams, otog, fujian, the 528-entry eight-ball open whose 512
qualifier entries are played before its main draw):

* ``check``, ``rank``, ``rank --json``, ``awards``, ``undo``: the finished event;
* ``draw``: the last state at which ``draw`` still drew something (the biggest schedule);
* ``advance``: the last state at which a stage was over and ``advance`` was due.

Each button runs as a whole process (``python -m bianpai.addin.cli …``) on a fresh copy of its
workbook (and its backup folder, for undo), alternating with the floor: floor, button, floor,
button … ``--repeat`` times, bianpai's modules byte-compiled first (as an installed package's are), so
both sides start from ``.pyc`` files. The operating system's accounting of each finished child
(``os.wait4``, the child forked by a small launcher, :data:`LAUNCHER`: forked from this process,
which builds the workbooks, it would report this process's memory as its own peak) gives CPU
(user + sys) seconds and peak resident memory; the table shows the
medians and the median of the pairwise ratios button / floor (CPU and memory). Goals (issue 13):
CPU ratio ≤ 1.7, memory ratio ≤ 2.

Options: ``--presets a,b`` (ids or short names gouji, otog, fujian, shenzhen, cbsa), ``--repeat N``
(default 5), ``--buttons check,draw,…``, ``--keep DIR`` (build or reuse the workbooks there),
``--base DIR``: also run another checkout's button in each round (floor, base, button; ``DIR``
holds a ``bianpai/`` folder whose ``addin``, ``engines``, ``workbooks``, ``templates`` are that
checkout's, put first on ``PYTHONPATH``), its ratios to the same floor beside this one's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PRESETS = {"gouji": "qingdao-gouji-2015", "otog": "otog-mind-games-2024",
           "fujian": "fujian-elder-mind-games-2024", "cbsa": "cbsa-chinese-eightball-open-2022",
           "shenzhen": "shenzhen-guandan-pairs-2023"}
BUTTONS = ("check", "draw", "rank", "rank-json", "advance", "awards", "undo")
FLOOR = ("import sys, warnings, pandas, openpyxl; warnings.simplefilter('ignore'); "
         "openpyxl.load_workbook(sys.argv[1]).save(sys.argv[2])")


# ------------------------------------------------------------------------------ workbooks

def build(preset: str, folder: Path, seed: int = 2015) -> dict[str, Path]:
    """The states of one simulated event of ``preset`` in ``folder``: ``final`` (the finished
    event, with a backup to undo), ``draw`` (before the last draw that drew), ``advance``
    (before the last advance). Returns the state name → workbook."""
    from bianpai.addin import commands, core_demo as D
    from bianpai.engines.errors import RuleError
    from bianpai.templates.presets_io import load_preset
    from bianpai.workbooks import core_layouts as K
    from bianpai.workbooks import layouts as L
    from bianpai.workbooks import team_layouts as T
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    from bianpai.workbooks.tables import find_sheet

    folder.mkdir(parents=True, exist_ok=True)
    reg = load_preset(preset)
    out = folder / f"{preset}.xlsx"
    for p in folder.glob(f"{preset}*"):
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    port = OpenpyxlPort(out, create=True, command="new")
    commands.build_workbook(port, reg)
    port = OpenpyxlPort(out, command="roster")
    from bianpai.workbooks.roster_layouts import roster_layout
    rl = roster_layout(reg.roster_layout)
    if rl.demo_roster is not None:  # the layout's own demo field (e.g. one row per pair)
        for lay, rows in zip(rl.sheets, rl.demo_roster(reg, seed, None)):
            port.append_rows(find_sheet(port, lay), rows, start_row=2)
    elif reg.roster_layout == "people":
        port.append_rows(find_sheet(port, L.ROSTER_PEOPLE), D._people_roster(reg, seed), start_row=2)
    else:
        roster, people = D._roster(reg, seed)
        port.append_rows(find_sheet(port, K.ROSTER), roster, start_row=2)
        port.append_rows(find_sheet(port, T.TEAM_PLAYERS), people, start_row=2)
    port.save()
    commands.check(OpenpyxlPort(out, command="check"))
    states: dict[str, Path] = {}

    def keep(name: str) -> None:
        dest = folder / f"{preset}-{name}.xlsx"
        shutil.copy2(out, dest)
        states[name] = dest

    rng = random.Random(seed + 1)
    strength: dict = {}
    games = any(s.scoring.games_per_match for g in reg.groups for s in g.stages)
    for step in range(1, 200):
        shutil.copy2(out, folder / "before-draw.xlsx")
        try:
            commands.draw(OpenpyxlPort(out, command="draw"), seed=seed + step)
        except RuleError as exc:
            if "advance" not in exc.en:
                break
            keep("advance")
            commands.advance(OpenpyxlPort(out, command="advance"), seed=seed + step)
            continue
        shutil.copy2(folder / "before-draw.xlsx", folder / f"{preset}-draw.xlsx")
        states["draw"] = folder / f"{preset}-draw.xlsx"
        if games:
            D._fill_results(out, rng, strength)
        D._fill_match_results(out, rng, strength)
    (folder / "before-draw.xlsx").unlink(missing_ok=True)
    D._type_places(out, rng)
    commands.rank(OpenpyxlPort(out, command="rank"), seed=seed)
    keep("final")
    # undo needs a backup: the final workbook's own stack (rank's save pushed the one before)
    src = out.parent / f"{out.name}.bianpai-backups"
    shutil.copytree(src, folder / f"{preset}-final.xlsx.bianpai-backups")
    return states


# ------------------------------------------------------------------------------ timing

#: a small process that forks ``cmd`` and reports its accounting: a child forked from this
#: (large) benchmark process would count this process's resident memory at the fork as its
#: own peak (Linux keeps the high-water mark across ``exec``), so a 300 MiB parent made every
#: child read ≥ 300 MiB; forked from the launcher, the child starts from the launcher's few MiB
LAUNCHER = """import json, os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, ru = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    json.dump([ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status)], f)
"""


def run(cmd: list[str], env: dict | None = None) -> tuple[float, float, int, int]:
    """Run ``cmd`` to its end; (wall s, CPU user+sys s, peak RSS KiB, exit code) from the
    kernel's accounting of ``cmd`` alone, started through :data:`LAUNCHER`."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "rusage.json"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-S", "-c", LAUNCHER, str(out), *cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        wall = time.perf_counter() - t0
        cpu, rss, code = json.loads(out.read_text())
    return wall, cpu, rss, code


def compile_package() -> None:
    """Byte-compile, once before anything is timed, bianpai's modules and those of every
    library a command imports (pandas, numpy, openpyxl, pydantic, typer, rich …): an install
    has its ``.pyc`` files (pip compiles them), but pip skips that where
    ``PYTHONDONTWRITEBYTECODE`` is set (as on these machines: a fresh venv's pandas then
    compiles from source in every process, 1.0 s of CPU per ``import pandas`` measured here,
    0.6 s compiled), and an editable checkout would compile bianpai in each timed run (0.2–0.3
    s). Floor and command then stand on the same footing as on a user's machine."""
    import compileall
    import importlib
    import os
    import sysconfig
    environ = dict(os.environ)  # importing bianpai.addin.cli sets OPENBLAS_NUM_THREADS, which
    # the floors (run as a user's own script would be) must not inherit
    for pkg in ("addin", "engines", "workbooks", "templates"):
        for d in importlib.import_module(f"bianpai.{pkg}").__path__:
            compileall.compile_dir(d, quiet=1)
    for mod in ("bianpai.addin.cli", "bianpai.addin.competition", "bianpai.addin.commands",
                "bianpai.workbooks.bracket_picture", "openpyxl", "pandas"):
        importlib.import_module(mod)
    os.environ.clear()
    os.environ.update(environ)
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    tops = {name.split(".")[0] for name, m in list(sys.modules.items())
            if getattr(m, "__file__", None) and site in Path(m.__file__).resolve().parents}
    for top in sorted(tops):
        path = site / top
        if path.is_dir():
            compileall.compile_dir(path, quiet=2, workers=0)
        elif (site / f"{top}.py").is_file():
            compileall.compile_file(site / f"{top}.py", quiet=2)


def button_cmd(button: str, wb: Path) -> list[str]:
    base = [sys.executable, "-m", "bianpai.addin.cli"]
    if button == "rank-json":
        return base + ["rank", str(wb), "--json", "--seed", "2015"]
    if button in ("draw", "advance", "rank"):
        return base + [button, str(wb), "--seed", "2015"]
    if button == "undo":
        return base + ["undo", str(wb), "--force"]
    return base + [button, str(wb)]


def fresh(src: Path, tmp: Path, with_backups: bool) -> Path:
    dest = tmp / src.name
    shutil.copy2(src, dest)
    bdir = src.parent / f"{src.name}.bianpai-backups"
    tdir = tmp / f"{src.name}.bianpai-backups"
    if tdir.exists():
        shutil.rmtree(tdir)
    if with_backups and bdir.exists():
        shutil.copytree(bdir, tdir)
    return dest


def measure(button: str, wb: Path, repeat: int, base_env: dict | None = None) -> dict:
    """``repeat`` pairs (floor, button) on fresh copies of ``wb``; medians and pairwise ratios.
    ``base_env``: also the base checkout's button in each round (floor, base, button), its
    ratios to the same round's floor under ``base_*``."""
    rows, base = [], []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for _ in range(repeat + 1):  # the first round warms the caches and is not counted
            f = fresh(wb, tmp, False)
            floor = run([sys.executable, "-c", FLOOR, str(f), str(tmp / "floor-out.xlsx")])
            if base_env is not None:
                f = fresh(wb, tmp, button == "undo")
                base.append((floor, run(button_cmd(button, f), base_env)))
            f = fresh(wb, tmp, button == "undo")
            b = run(button_cmd(button, f))
            rows.append((floor, b))
    rows, base = rows[1:], base[1:]
    med = statistics.median
    out = {"floor_cpu": med(f[1] for f, _ in rows), "cpu": med(b[1] for _, b in rows),
           "cpu_ratio": med(b[1] / f[1] for f, b in rows),
           "wall_ratio": med(b[0] / f[0] for f, b in rows),
           "floor_mem": med(f[2] for f, _ in rows) / 1024, "mem": med(b[2] for _, b in rows) / 1024,
           "mem_ratio": med(b[2] / f[2] for f, b in rows),
           "rc": max(b[3] for _, b in rows),
           "spread": (min(b[1] / f[1] for f, b in rows), max(b[1] / f[1] for f, b in rows))}
    if base:
        out.update(base_cpu_ratio=med(b[1] / f[1] for f, b in base),
                   base_mem_ratio=med(b[2] / f[2] for f, b in base),
                   base_rc=max(b[3] for _, b in base))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presets", default="gouji,otog,fujian,shenzhen,cbsa")
    ap.add_argument("--buttons", default=",".join(BUTTONS))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", type=Path, default=None)
    ap.add_argument("--base", type=Path, default=None)
    a = ap.parse_args(argv)
    base_env = dict(os.environ, PYTHONPATH=str(a.base)) if a.base else None
    folder = a.keep or Path(tempfile.mkdtemp(prefix="bianpai-buttons-"))
    compile_package()
    where = {"check": "final", "rank": "final", "rank-json": "final", "awards": "final",
             "undo": "final", "draw": "draw", "advance": "advance"}
    from rich.console import Console
    from rich.table import Table
    table = Table(title="buttons vs the load+save floor of the same file (medians; CPU = user+sys)")
    cols = ["preset", "button", "file KiB", "floor CPU s", "button CPU s", "CPU ×floor",
            "(min–max)", "wall ×floor", "floor MiB", "button MiB", "mem ×floor"]
    if base_env is not None:
        cols[5:5] = ["base CPU ×floor"]
        cols.insert(-1, "base mem ×floor")
    for col in cols:
        table.add_column(col, justify="right" if col not in ("preset", "button") else "left")
    for short in a.presets.split(","):
        preset = PRESETS.get(short, short)
        states = {n: folder / f"{preset}-{n}.xlsx" for n in ("final", "draw", "advance")}
        if not states["final"].exists():
            t0 = time.perf_counter()
            states = build(preset, folder)
            print(f"built {preset} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        for button in a.buttons.split(","):
            wb = states.get(where[button])
            if wb is None or not wb.exists():
                continue
            m = measure(button, wb, a.repeat, base_env)
            row = [short, button + (f" (exit {m['rc']})" if m["rc"] else ""),
                   f"{wb.stat().st_size // 1024}", f"{m['floor_cpu']:.2f}", f"{m['cpu']:.2f}",
                   f"{m['cpu_ratio']:.2f}", f"{m['spread'][0]:.2f}–{m['spread'][1]:.2f}",
                   f"{m['wall_ratio']:.2f}", f"{m['floor_mem']:.0f}", f"{m['mem']:.0f}",
                   f"{m['mem_ratio']:.2f}"]
            if base_env is not None:
                row[5:5] = [f"{m['base_cpu_ratio']:.2f}"
                            + (f" (exit {m['base_rc']})" if m["base_rc"] else "")]
                row.insert(-1, f"{m['base_mem_ratio']:.2f}")
            table.add_row(*row)
            print(f"{short} {button}: {m['cpu_ratio']:.2f}"
                  + (f" (base {m['base_cpu_ratio']:.2f})" if base_env is not None else ""),
                  file=sys.stderr)
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
