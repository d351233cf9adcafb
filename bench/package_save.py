"""Benchmark (on demand, not in the test suite): ``python bench/package_save.py``.

The package-preserving save of :class:`~bianpai.workbooks.openpyxl_port.OpenpyxlPort` against a
plain openpyxl load + save of the same file, on a small event workbook (the shared case
``x14-dropdown-lost.xlsx``) and on a large one (the same with a typed sheet of 30,000 rows × 10
columns, as an organizer's archive of earlier results). Each line: best of 3 wall times.

* ``openpyxl load+save``: ``load_workbook`` then ``wb.save`` (what bianpai did before);
* ``bianpai load+save``: ``OpenpyxlPort`` load, one generated sheet written (校验), ``save``
  (package-preserving: only the written sheet is serialised, the rest copied);
* the save step alone for both;
* ``check button``: the whole ``check`` command on the file (lazy sheet parsing: a sheet the
  command does not read is never parsed).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "tests" / "data" / "cases" / "x14-dropdown-lost.xlsx"


def best(fn, repeat=3):
    times = []
    for _ in range(repeat):
        times.append(fn())
    return min(times)


def openpyxl_round_trip(path: Path, out: Path):
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(path)
    t1 = time.perf_counter()
    wb.save(out)
    t2 = time.perf_counter()
    return t2 - t0, t2 - t1


def bianpai_round_trip(path: Path, work: Path):
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    from bianpai.workbooks.port import SheetFormat
    shutil.copyfile(path, work)
    shutil.rmtree(work.parent / f"{work.name}.bianpai-backups", ignore_errors=True)
    t0 = time.perf_counter()
    port = OpenpyxlPort(work, command="bench")
    port.write_sheet("校验", [["级别", "位置", "问题"], ["通过", None, "未发现问题"]], SheetFormat())
    t1 = time.perf_counter()
    port.save()
    t2 = time.perf_counter()
    return t2 - t0, t2 - t1


def check_command(path: Path, work: Path):
    """The whole ``check`` button (read, compute, write 校验/日志, save)."""
    from bianpai.addin.fronts import run_command
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    shutil.copyfile(path, work)
    shutil.rmtree(work.parent / f"{work.name}.bianpai-backups", ignore_errors=True)
    t0 = time.perf_counter()
    port = OpenpyxlPort(work, command="check")
    try:
        run_command(port, "check")
    finally:
        port.close()
    return time.perf_counter() - t0


def large_copy(tmp: Path) -> Path:
    big = tmp / "large.xlsx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(CASE)
    ws = wb.create_sheet("历史成绩")
    ws.append([f"列{c}" for c in range(1, 11)])
    for r in range(30_000):
        ws.append([r, f"队{r % 97}", r * 0.5, f"=A{r + 2}*2", "福州", r % 20, None, r, "备注", 1.25])
    wb.save(big)
    return big


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        small = tmp / "small.xlsx"
        shutil.copyfile(CASE, small)
        large = large_copy(tmp)
        print(f"{'workbook':<10}{'size':>10}  {'openpyxl load+save':>20}{'bianpai load+save':>19}"
              f"{'openpyxl save':>15}{'bianpai save':>14}{'check button':>14}")
        for name, path in (("small", small), ("large", large)):
            o = [openpyxl_round_trip(path, tmp / "o.xlsx") for _ in range(3)]
            b = [bianpai_round_trip(path, tmp / "b.xlsx") for _ in range(3)]
            c = [check_command(path, tmp / "c.xlsx") for _ in range(3)]
            print(f"{name:<10}{path.stat().st_size // 1024:>8} kB  "
                  f"{min(x[0] for x in o):>18.3f} s{min(x[0] for x in b):>17.3f} s"
                  f"{min(x[1] for x in o):>13.3f} s{min(x[1] for x in b):>12.3f} s{min(c):>12.3f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
