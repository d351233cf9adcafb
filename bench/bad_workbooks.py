"""Bad workbooks on the competition-core presets (issue 12): ``python bench/bad_workbooks.py``.

For every core preset (gouji, otog, fujian, cbsa; pairs: the Shenzhen guandan pairs; fjbridge,
otbridge: the two bridge team presets) a mid-event workbook is built
(:func:`tests.bad_workbooks.mid_event`: drawn, results typed, the next round drawn); every
mutation of :func:`tests.bad_workbooks.mutations` (seeded) is applied to a fresh copy and every
command the mutation concerns is run on it through the command line (in-process, typer's
runner). Each run is classified:

* ``clear``     — refused (exit ≠ 0) with every message naming sheet!cell (or, for a missing sheet
  or a file, the sheet / the file), and the workbook unchanged;
* ``harmless``  — what the command does on the undamaged workbook (same exit code, same sheets
  written), or the right behaviour of a file case (link kept and target written, leftover
  temporary file removed, backups folder that is a file named);
* ``CRASH``     — a Python traceback;
* ``SILENT``    — exit 0 with sheets written that differ from the undamaged workbook's (wrong or
  lost data accepted), or a file case done wrong;
* ``no-address``— refused, but a message has no usable address (``成绩!?9``, none at all);
* ``written``   — refused but the workbook changed;
* ``refused-harmless`` — a harmless change (``expect == "same"``: rows re-sorted, a column in
  front, a header over an empty optional column) refused where the undamaged workbook is not:
  not a fault of trust, but a needless stop for the organizer; counted apart from ``clear``.

Prints a table (kind × outcome) and, with ``-v``, every run that is not clear or harmless.
Options: ``--presets gouji,otog``, ``--seed N``, ``--kinds 'sheet deleted,files'``, ``--keep DIR``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import hashlib
import io
import random
import re
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bad_workbooks import PRESETS, copy_event, mid_event, mutations  # noqa: E402

ARGS = {"check": [], "draw": ["--seed", "3"], "rank": ["--seed", "3"], "awards": [],
        "advance": ["--seed", "3"], "withdraw": [], "undo": ["--force"]}
#: sheets whose content changes on every run (time stamps), not compared
VOLATILE = {"日志", "操作", "_bianpai_log", "_bianpai_status"}
ADDRESS = re.compile(r"^\s{2}(\S+?)!(\$?[A-Z]{1,3}\$?\d+|\d+:\d+|[A-Z]{1,3}:[A-Z]{1,3}|[A-Z]{1,3}\d+:[A-Z]{1,3}\d+)\s",
                     re.M)
WHERE = re.compile(r"^\s{2}(\S+) ", re.M)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "-"


def sheets(path: Path, drop_first_col: str | None = None) -> dict[str, list]:
    import openpyxl
    try:
        wb = openpyxl.load_workbook(path, read_only=True)
    except Exception:  # noqa: BLE001
        return {"<unreadable>": []}
    out = {}
    for ws in wb.worksheets:
        if ws.title in VOLATILE:
            continue
        ws.reset_dimensions()
        rows = [list(r) for r in ws.iter_rows(values_only=True)]
        if ws.title == drop_first_col and rows and rows[0] and rows[0][0] is None:
            rows = [r[1:] for r in rows]  # the inserted column, still there
        while rows and all(v is None for v in rows[-1]):
            rows.pop()
        out[ws.title] = [tuple(v for v in r) for r in rows]
    wb.close()
    return out


def invoke(command: str, wb: Path):
    """(exit code, output, exception or None) of ``bianpai command wb …``."""
    from typer.testing import CliRunner
    from bianpai.addin.cli import app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = CliRunner().invoke(app, [command, str(wb), *ARGS[command]])
    exc = res.exception if res.exception and not isinstance(res.exception, SystemExit) else None
    return res.exit_code, res.output, exc


def classify(m, command, base: dict, path: Path, folder: Path) -> tuple[str, str]:
    """(outcome, detail) of one run of ``command`` on the mutated copy ``path``."""
    before = digest(path)
    before_sheets = sheets(path) if m.kind == "column in front" else None
    code, output, exc = invoke(command, path)
    if exc is not None:
        import traceback
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-3:])
        return "CRASH", f"{type(exc).__name__}: {exc}"[:300] + " | " + tb.replace("\n", " ")[-300:]
    text = " ".join(output.split())[:400]
    if m.expect == "link":
        real = path.parent / "real" / path.name
        ok = code == 0 and path.is_symlink() and digest(real) != base["digest"]
        return ("harmless" if ok else "SILENT"), text
    if m.expect == "tmp":
        left = list(path.parent.glob(f".{path.name}.*.bianpai-tmp"))
        return ("harmless" if code == 0 and not left else "SILENT"), text
    if m.expect == "write":
        if code == 0:
            return "harmless", text
        return ("clear" if "bianpai-backups" in output else "no-address"), text
    if command == "undo":
        import openpyxl
        try:
            openpyxl.load_workbook(path, read_only=True).close()
            opens = True
        except Exception:  # noqa: BLE001
            opens = False
        if code != 0:
            return ("clear" if digest(path) == before else "written"), text
        return ("harmless" if opens else "SILENT"), text
    if path.is_dir():
        return ("clear" if code != 0 else "SILENT"), text
    changed = digest(path) != before
    b_code, b_out, b_sheets = base[command]
    if code == 0 and m.name.endswith("appended for a drawn group") and "迟到报名" in output \
            and "后来报名" in output:  # a format that takes late entries admits the new row
        return "harmless", "late entry admitted at this draw (the format takes late entries)"
    if code == 0 and m.name == "报名 name replaced" and "报名更正" in output:
        # a row of several persons keeping one of them is the same entrant, renamed and logged
        # (RosterLayout.name_parts; docs/pairs-port.md), the correction named in the summary
        return "harmless", "name correction named (报名更正) and followed"
    if code == 0:
        after = sheets(path, "报名" if False else None)
        if m.kind == "column in front":
            mutated = m.name.split()[-1].split("!")[0]
            after = sheets(path, mutated)
        same = b_code == 0 and all(after.get(k) == v for k, v in b_sheets.items())
        if same:
            return "harmless", text
        diff = [k for k, v in b_sheets.items() if after.get(k) != v]
        return "SILENT", f"exit 0; sheets differ from the undamaged run: {diff[:6]} | {text}"
    if changed and not (command == "check" and code == 1):  # check writes its findings
        return "written", text
    if b_code == code and " ".join(b_out.split()) == " ".join(output.split()):
        return "harmless", "same refusal as the undamaged workbook"
    if m.expect == "same":  # a harmless change refused (with an address or not): not "clear"
        return "refused-harmless", text
    errs = [ln for ln in output.splitlines() if ln.startswith("  ") and not ln.startswith("      ")
            and not ln.strip().startswith(("本工作簿", "下一步", "当前状态", "… 另有"))]
    if code == 1 and command == "check":
        # check lists findings (exit 1): each needs an address
        pass
    if not errs:
        return "no-address", text
    for ln in errs:
        where = ln.split()[0] if ln.split() else ""
        if "?" in where or where in ("-", ""):
            return "no-address", text
    return "clear", text


def run_preset(short: str, folder: Path, seed: int, kinds: set[str] | None, verbose: bool,
               table: dict) -> None:
    base_dir = folder / short / "base"
    if not (base_dir / f"{short}.xlsx").exists():
        base_dir.mkdir(parents=True, exist_ok=True)
        mid_event(short, base_dir / f"{short}.xlsx", seed=seed)
    src = base_dir / f"{short}.xlsx"
    base = {"digest": digest(src)}
    for command in ARGS:
        if command == "undo":
            continue
        tmp = Path(tempfile.mkdtemp(dir=folder))
        p = copy_event(src, tmp)
        before = sheets(p)
        code, out, exc = invoke(command, p)
        assert exc is None, (short, command, exc)
        after = sheets(p)
        # what the command wrote: the sheets it changed or added
        base[command] = (code, out, {k: v for k, v in after.items() if before.get(k) != v})
        shutil.rmtree(tmp)
    rng = random.Random(seed)
    for m in mutations(src, rng):
        if kinds and m.kind not in kinds:
            continue
        for command in m.commands:
            tmp = Path(tempfile.mkdtemp(dir=folder))
            p = copy_event(src, tmp)
            try:
                m.apply(p)
            except Exception as exc:  # noqa: BLE001
                print(f"  (mutation {m.name} could not be applied: {exc})")
                shutil.rmtree(tmp, ignore_errors=True)
                break
            outcome, detail = classify(m, command, base, p, tmp)
            table[m.kind][outcome] += 1
            table["(all)"][outcome] += 1
            if verbose and outcome not in ("clear", "harmless"):  # refused-harmless shown too
                print(f"{outcome:10} {short:6} {command:8} {m.name}: {detail}")
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--kinds", default="")
    ap.add_argument("--keep", type=Path)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args(argv)
    folder = a.keep or Path(tempfile.mkdtemp(prefix="bad-wb-"))
    folder.mkdir(parents=True, exist_ok=True)
    kinds = {k.strip() for k in a.kinds.split(",") if k.strip()} or None
    table: dict = collections.defaultdict(collections.Counter)
    for short in a.presets.split(","):
        run_preset(short.strip(), folder, a.seed, kinds, a.v, table)
    outcomes = ["clear", "harmless", "refused-harmless", "CRASH", "SILENT", "no-address", "written"]
    print(f"\n{'kind':26}" + "".join(f"{o:>17}" for o in outcomes))
    for kind, c in sorted(table.items(), key=lambda kv: kv[0] == "(all)"):
        print(f"{kind:26}" + "".join(f"{c[o]:>17}" for o in outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
