"""Golden reference of the Shenzhen guandan pairs flow: every sheet's cell values.

``build(path)`` runs the whole flow on the ``shenzhen-guandan-pairs-2023`` preset through the
command functions (the buttons): new → check → draw → a hand-edited 对阵 (two opponents swapped)
→ draw again → simulated 成绩 (fixed seed, an artificial A+ code, a typed 轮成绩 round, a
forfeit) → 罚分 (超时, 迟到 by the ladder, 直接, 迟到一轮) → rank → awards. ``dump(path)`` reads
the saved workbook back with openpyxl (what a user sees) as ``{sheet: [[values]]}`` in sheet
order; the 日志 time column is blanked (it is the clock).

Run ``python -m tests.golden_build`` to (re)write ``tests/data/golden/shenzhen/*.json`` — only
when a change of the numbers is intended; ``tests/test_pairs_golden.py`` compares a fresh run
cell for cell with the stored files.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path


from bianpai.addin import commands
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "shenzhen-guandan-pairs-2023"
GOLDEN = Path(__file__).parent / "data" / "golden" / "shenzhen"
SEED = 2023


def _pair(group, n1, n2, g1, g2, k):
    return [group, None, n1, g1, dt.date(1970 + k, 1 + k % 12, 1), None, n2, g2,
            dt.date(1980 + k, 1 + (k * 5) % 12, 2), None, f"单位{k % 3 + 1}", None, None]


def _fill(path: Path, sheet: str, rows: list[list], start_row: int = 2) -> None:
    """Type ``rows`` from ``start_row``; ``None`` clears the cell. Numbers and texts straight
    into the sheet's XML (tests.helpers.type_cells), anything else (dates) through openpyxl."""
    from tests.helpers import _plain, type_cells, type_through
    cells = {(r, c): v for r, row in enumerate(rows, start=start_row)
             for c, v in enumerate(row, start=1)}
    if all(v is None or _plain(v) for v in cells.values()):
        type_cells(path, sheet, cells)
        return
    type_through(load_workbook, path, sheet, rows, start_row, clear=True)


def _rows(path: Path, sheet: str) -> list[tuple]:
    from tests.helpers import sheet_rows
    return sheet_rows(path, sheet)


def _port(path: Path, command: str) -> OpenpyxlPort:
    return OpenpyxlPort(path, command=command)


def build(path: Path) -> Path:
    """Run the golden flow into ``path`` (created) and return it."""
    port = OpenpyxlPort(path, create=True, command="new")
    commands.build_workbook(port, load_preset(PRESET), lang="zh")
    roster = [_pair("男子双人赛", f"男甲{i}", f"男乙{i}", "男", "男", i) for i in range(1, 8)]
    roster += [_pair("女子双人赛", f"女甲{i}", f"女乙{i}", "女", "女", i) for i in range(1, 5)]
    _fill(path, "报名", roster)
    commands.check(_port(path, "check"))
    commands.draw(_port(path, "draw"), seed=SEED)
    # the arbiter swaps the EW pairs of tables 1 and 2 of the men's round 3 in 对阵
    sched = _rows(path, "对阵")
    men3 = [i for i, r in enumerate(sched) if r[0] == "男子双人赛" and r[1] == 3 and r[5]]
    a, b = men3[0], men3[1]
    ra, rb = list(sched[a]), list(sched[b])
    ra[5:7], rb[5:7] = rb[5:7], ra[5:7]
    _fill(path, "对阵", [ra], start_row=a + 1)
    _fill(path, "对阵", [rb], start_row=b + 1)
    commands.draw(_port(path, "draw"), seed=SEED)
    # simulated board results for every scheduled board of the current 对阵
    sched = _rows(path, "对阵")
    current = {(r[0], r[1], r[3], r[5]) for r in sched[1:] if r[5] is not None}
    grid = _rows(path, "成绩")
    rng = random.Random(SEED + 1)
    strength: dict = {}
    filled = []
    women_typed_round = 1
    for i, r in enumerate(grid[1:]):
        row = list(r)
        g, rnd, ns, ew = row[0], row[1], row[4], row[5]
        if (g, rnd, ns, ew) not in current or (g == "女子双人赛" and rnd == women_typed_round):
            filled.append(row)
            continue
        for p in (ns, ew):
            strength.setdefault((g, p), rng.gauss(0, 0.6))
        lv = rng.choices([1, 2, 3], weights=[45, 35, 20])[0]
        p_ns = 0.5 + (strength[(g, ns)] - strength[(g, ew)]) / 4
        row[6] = lv if rng.random() < p_ns else -lv
        filled.append(row)
    # one board scored artificially (A+ to NS)
    first_men = next(i for i, r in enumerate(filled) if r[0] == "男子双人赛" and r[6] is not None)
    filled[first_men][6], filled[first_men][7] = None, "A+"
    _fill(path, "成绩", filled)
    # women's round 1 typed as round percentages (electronic scoring); a forfeit in round 3
    w = [r for r in sched[1:] if r[0] == "女子双人赛"]
    typed = []
    for r in w:
        if r[1] == women_typed_round:
            ns_pct = 56.25 if r[2] == 1 else 47.5
            typed.append([r[0], r[1], r[2], r[3], r[5], ns_pct, 100 - ns_pct, None, None])
    w3, w3b = [r for r in w if r[1] == 3][:2]
    typed.append([w3[0], 3, w3[2], w3[3], w3[5], None, None, "东西弃权", None])
    # the round's other table is then alone: its percentages are typed (with a level diff)
    typed.append([w3b[0], 3, w3b[2], w3b[3], w3b[5], 52.08, 47.92, "正常", 3])
    _fill(path, "轮成绩", typed)
    # the boards of the women's round 3 are not typed
    grid = _rows(path, "成绩")
    cleared = [list(r) for r in grid[1:]]
    for row in cleared:
        if row[0] == w3[0] and row[1] == 3:
            row[6] = row[7] = None
    _fill(path, "成绩", cleared)
    # penalties: overtime, lateness on the ladder, a direct penalty, a whole round late
    men = [r for r in sched[1:] if r[0] == "男子双人赛" and r[5] is not None]
    r2 = next(r for r in men if r[1] == 2)
    r4 = next(r for r in men if r[1] == 4)
    r5 = next(r for r in men if r[1] == 5)
    r6 = next(r for r in men if r[1] == 6)
    _fill(path, "罚分", [
        ["男子双人赛", 2, r2[3], "超时", 3, None, "超时3分钟"],
        ["男子双人赛", 4, r4[5], "迟到", 7, None, "迟到7分钟"],
        ["男子双人赛", 5, r5[3], "直接", None, 25, "手机响"],
        ["男子双人赛", 6, r6[5], "迟到一轮", None, None, "迟到一轮"],
    ])
    commands.rank(_port(path, "rank"))
    commands.awards(_port(path, "awards"))
    return path


def _cell(v):
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    return v


def dump(path: Path) -> dict[str, list[list]]:
    """Every sheet's values in sheet order (trailing empty rows dropped); 日志 times blanked."""
    wb = load_workbook(path)
    out: dict[str, list[list]] = {}
    for ws in wb.worksheets:
        rows = [[_cell(v) for v in r] for r in ws.iter_rows(values_only=True)]
        while rows and all(v is None for v in rows[-1]):
            rows.pop()
        if ws.title in ("日志", "Log"):
            for r in rows[1:]:
                r[0] = None
        out[ws.title] = rows
    return out


def write_golden(path: Path) -> None:
    """Write ``sheets.json`` (sheet order) and one ``<sheet>.json`` per sheet."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    sheets = dump(path)
    (GOLDEN / "sheets.json").write_text(json.dumps(list(sheets), ensure_ascii=False, indent=0),
                                        encoding="utf-8")
    for i, (name, rows) in enumerate(sheets.items()):
        (GOLDEN / f"{i:02d}_{name.lstrip('_')}.json").write_text(
            json.dumps(rows, ensure_ascii=False, indent=0), encoding="utf-8")


#: the paper issue 12 asks of every event (桌卡, 记分单 by draw; 成绩公告, 排名走势 by rank): the
#: golden workbooks, made before, have none of it
PAPER = ["桌卡", "记分单", "成绩公告", "排名走势"]


def per_person(certificates: list[list]) -> list[list]:
    """A golden 荣誉证书 of one page per pair (“甲/乙：”) as issue 12 wants it: the same page for
    each player under their own name, the pair named in the sentence (as a team member's team
    is)."""
    out, page = [], []
    for row in list(certificates) + [["荣 誉 证 书"]]:
        if row and row[0] == "荣 誉 证 书" and page:
            i = next(k for k, r in enumerate(page) if str(r[0] or "").endswith("："))
            pair = page[i][0].rstrip("：")
            for person in pair.split("/"):
                out += [*page[:i], [f"{person}：", *page[i][1:]],
                        [page[i + 1][0].replace("比赛中荣获", f"比赛中（{pair}）荣获"),
                         *page[i + 1][1:]], *page[i + 2:]]
            page = []
        page.append(row)
    return out


def with_bye_lines(crosstable: list[list], schedule: list[list]) -> list[list]:
    """A golden 交叉表 (no 轮空 column, as the Shenzhen workbook) as issue 12 wants it: its
    cells as they are, then — beneath, after a blank row — one line per group with byes naming
    each round's bye as the golden 对阵 shows it (东西 "轮空": 第r轮, 南北序号号, 南北选手)."""
    byes: dict = {}
    for g, rnd, _table, ns, ns_name, _ew, ew_name, *_ in schedule[1:]:
        if ew_name == "轮空":
            byes.setdefault(g, []).append(f"第{rnd}轮 {ns}号 {ns_name}")
    if not byes:
        return crosstable
    width = len(crosstable[0])
    pad = [None] * (width - 3)
    return [*crosstable, [None] * width,
            *([g, None, "轮空：" + "；".join(b), *pad] for g, b in byes.items())]


def load_golden() -> dict[str, list[list]]:
    """The stored golden sheets, in sheet order."""
    names = json.loads((GOLDEN / "sheets.json").read_text(encoding="utf-8"))
    out = {}
    for i, name in enumerate(names):
        out[name] = json.loads((GOLDEN / f"{i:02d}_{name.lstrip('_')}.json").read_text(
            encoding="utf-8"))
    return out


if __name__ == "__main__":  # pragma: no cover
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = build(Path(d) / "golden.xlsx")
        write_golden(p)
        for name, rows in dump(p).items():
            print(f"{name}: {len(rows)} rows")
