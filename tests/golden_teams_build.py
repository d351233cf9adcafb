"""Golden reference of the two bridge team presets: one fixed-seed event each, every sheet's
cell values dumped to ``tests/data/golden/<preset>/<sheet>.json``.

The flow (12 teams, fixed seeds): new → roster → check → draw round 1 → results (IMPs per
match in 成绩, one match per round from 逐副成绩 board scores) → a hand edit of a 对阵 pairing in
round 2 (the away teams of tables 1 and 2 swapped, in 对阵 and 成绩) → a VP fine in round 2 →
every round → advance → the later stages (Fujian: a tied quarter-final settled by a 加赛 row,
the quarter-final losers joining the consolation Swiss with their carry-over) → rank → awards.

Run ``python tests/golden_teams_build.py`` to rewrite the reference (only when a change of the
sheets is intended); :mod:`tests.test_teams_golden` runs the same flow through the current
commands and compares every cell.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

from bianpai.workbooks.lazy_edit import load_workbook

PRESETS = ("fujian-elder-bridge-teams", "otog-bridge-teams")
GOLDEN = Path(__file__).parent / "data" / "golden"
N_TEAMS = 12
#: 日志 columns whose values change from run to run (time, machine, version)
VOLATILE_LOG = ("时间", "Time", "版本", "Version", "文件", "File", "用户", "User", "耗时", "Seconds")


def _port(path: Path, command: str):
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    return OpenpyxlPort(path, command=command)


def _new(path: Path, preset: str) -> None:
    from bianpai.addin import commands
    from bianpai.templates.presets_io import load_preset
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), load_preset(preset))
    book = load_workbook(path)
    ws, people = book["报名"], book["队员"]
    for i in range(N_TEAMS):
        unit = f"单位{i // 2 + 1}" if i < 6 else f"单位X{i}"
        ws.append([None, f"第{i + 1}队", unit, *[f"选手{i}-{k}" for k in range(4)], None, None,
                   f"领队{i}", None])
        for k in range(4):
            people.append([f"第{i + 1}队", f"选手{i}-{k}", "男", dt.date(1960, 1, 1), None, None])
    book.save(path)


def _fill(path: Path, rng: random.Random, *, tie: str | None = None) -> int:
    """Type every blank 成绩 row of a drawn match: the first table of each (stage, round) from 16
    or 8 逐副成绩 board scores, the others as IMPs; ``tie``: the 场次 typed as a tie (30 : 30).
    The numbers go straight into the two sheets' XML (tests.helpers.type_cells)."""
    from tests.helpers import sheet_rows, type_cells
    res, boards = sheet_rows(path, "成绩"), sheet_rows(path, "逐副成绩")
    by_board = {}
    for r, row in enumerate(boards[1:], start=2):
        by_board.setdefault((row[0], row[1], row[3]), []).append((r, row))
    res_cells: dict = {}
    board_cells: dict = {}
    n = 0
    for r, row in enumerate(res[1:], start=2):
        stage, rnd, match, table, home, away, hi, ai = row[:8]
        if stage is None or hi is not None or (match and str(match).endswith("加赛")):
            continue
        brows = by_board.get((stage, rnd, table), [])
        if tie is not None and match == tie:
            res_cells[(r, 7)], res_cells[(r, 8)] = 30, 30
        elif table == 1 and brows:
            if brows[0][1][5] is not None:
                continue
            for br, _b in brows:
                board_cells[(br, 6)] = rng.choice([-1, 1]) * rng.choice([100, 420, 620, 50, 1430])
                board_cells[(br, 7)] = rng.choice([-1, 1]) * rng.choice([100, 420, 620, 50, 1430])
        else:
            res_cells[(r, 7)], res_cells[(r, 8)] = rng.randint(0, 45), rng.randint(0, 45)
        n += 1
    type_cells(path, "成绩", res_cells)
    type_cells(path, "逐副成绩", board_cells)
    return n


def _edit_pairing(path: Path, stage: str, rnd: int) -> None:
    """Swap the away teams of tables 1 and 2 of ``stage`` round ``rnd`` in 对阵 and 成绩 (an
    arbiter's hand edit, honoured by the next commands)."""
    book = load_workbook(path)
    for name, away_col, name_col in (("对阵", 6, 7), ("成绩", 5, None)):
        ws = book[name]
        rows = {r[3].value: r for r in ws.iter_rows(min_row=2)
                if r[0].value == stage and r[1].value == rnd and r[3].value in (1, 2)}
        a, b = rows[1], rows[2]
        a[away_col].value, b[away_col].value = b[away_col].value, a[away_col].value
        if name_col is not None:
            a[name_col].value, b[name_col].value = b[name_col].value, a[name_col].value
        if name == "对阵":  # the seat columns name the teams too
            for r in (a, b):
                r[9].value = r[away_col].value
                r[10].value = r[away_col].value
    book.save(path)


def _fine(path: Path, stage: str, rnd: int, team: int, vp, reason) -> None:
    book = load_workbook(path)
    book["罚分"].append([stage, rnd, team, vp, reason, "golden"])
    book.save(path)


def _playoff(path: Path, stage: str, match: str, imps: tuple[int, int]) -> None:
    """A 加赛 row after a tied knockout match (extra boards' IMPs)."""
    book = load_workbook(path)
    ws = book["成绩"]
    src = next(r for r in ws.iter_rows(min_row=2) if r[0].value == stage and r[2].value == match)
    ws.append([stage, src[1].value, f"{match}加赛", src[3].value, src[4].value, src[5].value,
               *imps, "加赛"])
    book.save(path)


def run_flow(preset: str, path: Path, *, until: str | None = None) -> None:
    """The whole fixed-seed event of ``preset`` written to ``path`` through the commands;
    ``until="advance"``: stop before ``advance`` (the first stage played out, same seeds)."""
    from bianpai.addin import commands
    rng = random.Random(20241)
    _new(path, preset)
    commands.check(_port(path, "check"))
    commands.draw(_port(path, "draw"), seed=11, accept_warnings="golden")
    fujian = preset.startswith("fujian")
    first = "排位赛" if fujian else "积分排位赛"
    rounds = 6 if preset.startswith("fujian") else 5
    for rnd in range(1, rounds + 1):
        if rnd == 2:
            _edit_pairing(path, first, 2)
            if fujian:  # the 规程's own fine, its VP from the rule
                _fine(path, first, 2, 3, None, "赛场内吸烟")
            else:
                _fine(path, first, 2, 3, Decimal("1.5"), None)
        _fill(path, rng)
        if rnd < rounds:
            commands.draw(_port(path, "draw"), seed=100 + rnd)
    if until == "advance":
        return
    commands.advance(_port(path, "advance"), seed=5)
    tie_done = False
    for step in range(12):
        tie = "QF1" if preset.startswith("fujian") and not tie_done else None
        _fill(path, rng, tie=tie)
        if tie:
            _playoff(path, "淘汰赛", "QF1", (7, 3))
            tie_done = True
        if step == 1:  # a mid-event partial ranking (rank --round)
            commands.rank(_port(path, "rank"), seed=3, upto_round=1)
        try:
            commands.draw(_port(path, "draw"), seed=200 + step)
        except Exception as e:  # every round drawn
            if "所有阶段的各轮均已编排" not in str(getattr(e, "zh", e)):
                raise
            break
    commands.rank(_port(path, "rank"), seed=3)
    commands.awards(_port(path, "awards"))


def _plain(v):
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, Decimal):
        return str(v)
    if isinstance(v, float) and v == int(v) and abs(v) < 1e15:
        return v
    return v


def dump(path: Path) -> dict[str, list[list]]:
    """Every sheet's cell values (rows as lists, trailing empty cells kept as None), JSON-ready;
    the volatile 日志 columns (time, version …) blanked."""
    book = load_workbook(path)
    out = {}
    for ws in book.worksheets:
        rows = [[_plain(v) for v in r] for r in ws.iter_rows(values_only=True)]
        if ws.title in ("日志", "Log") and rows:
            drop = [i for i, h in enumerate(rows[0]) if h in VOLATILE_LOG]
            rows = [[None if (i in drop and k) else v for i, v in enumerate(r)]
                    for k, r in enumerate(rows)]
        out[ws.title] = rows
    return out


def build(preset: str, tmp: Path) -> dict[str, list[list]]:
    path = tmp / f"{preset}.xlsx"
    run_flow(preset, path)
    return dump(path)


def write(preset: str, sheets: dict[str, list[list]]) -> None:
    d = GOLDEN / preset
    d.mkdir(parents=True, exist_ok=True)
    for old in d.glob("*.json"):
        old.unlink()
    (d / "_sheets.json").write_text(json.dumps(list(sheets), ensure_ascii=False, indent=0))
    for i, (name, rows) in enumerate(sheets.items()):
        (d / f"{i:02d}.json").write_text(json.dumps({"sheet": name, "rows": rows},
                                                    ensure_ascii=False, indent=0, default=str))


def load(preset: str) -> dict[str, list[list]]:
    d = GOLDEN / preset
    names = json.loads((d / "_sheets.json").read_text())
    out = {}
    for i, name in enumerate(names):
        out[name] = json.loads((d / f"{i:02d}.json").read_text())["rows"]
    return out


if __name__ == "__main__":
    for p in sys.argv[1:] or PRESETS:
        with tempfile.TemporaryDirectory() as t:
            write(p, build(p, Path(t)))
            print("wrote", GOLDEN / p)
