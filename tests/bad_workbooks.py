"""Malformed mid-event workbooks of the competition-core presets (issue 12, "Bad input").

A seeded generator: :func:`mid_event` builds a valid workbook of a core preset as it stands in the
middle of its event (roster typed, checked, drawn, the first rounds' results typed, the next
round drawn); :func:`mutations` lists one-change mutations of it, one per kind of damage an
organizer can do in Excel (a sheet or header deleted or renamed, 抽签 numbers deleted, duplicated
or contradicting, 报名 rows re-sorted / merged / replaced after the draw, merged cells over typed
values, a column inserted in front, 规程 numbers out of range) or around it on disk (a directory,
a backups path that is a file, a symbolic link, a damaged backup before ``undo``, a leftover
temporary file).

Used by ``bench/bad_workbooks.py`` (every command on every mutation of every core preset, a
table of outcomes) and by ``tests/test_core_bad_workbooks.py`` (one representative per kind).
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from bianpai.workbooks.lazy_edit import load_workbook

PRESETS = {"gouji": "qingdao-gouji-2015", "otog": "otog-mind-games-2024",
           "fujian": "fujian-elder-mind-games-2024", "cbsa": "cbsa-chinese-eightball-open-2022",
           "pairs": "shenzhen-guandan-pairs-2023", "fjbridge": "fujian-elder-bridge-teams",
           "otbridge": "otog-bridge-teams"}
#: smaller fields where the 规程's would make every run slow (the structure is the same)
FIELDS = {"gouji": {"amateur": 12}, "cbsa": {"open": 42}, "fjbridge": {"teams": 12},
          "otbridge": {"teams": 8}}


def regulation(short: str):
    """The preset's regulation; the eight-ball open with the numbers its test uses (14
    qualifiers from 42 entries, 2 pools of 8) so a mid-event workbook stays small."""
    from bianpai.templates.presets_io import load_preset
    reg = load_preset(PRESETS[short])
    if short == "cbsa":
        q, groups, _ko = reg.groups[0].stages
        q.format.stop_when_remaining = {"男1": 4, "男2": 4, "男3": 2, "男4": 2, "女1": 1, "女2": 1}
        groups.pools.count = 2
        groups.entrants[0].places.last = 2
    return reg


def mid_event(short: str, out: Path, *, seed: int = 12, draws: int = 2) -> Path:
    """A workbook of preset ``short`` (gouji, otog, fujian, cbsa) in the middle of its event:
    roster typed, ``check``, then ``draws`` times ``draw`` + simulated results (the demo's own
    simulation), then one more ``draw`` whose round is left untyped. Written through the
    commands' own saves (backups included). Returns ``out``."""
    from bianpai.addin import commands
    from bianpai.addin import core_demo as D
    from bianpai.engines.errors import RuleError
    from bianpai.workbooks import core_layouts as K
    from bianpai.workbooks import layouts as L
    from bianpai.workbooks import team_layouts as T
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    from bianpai.workbooks.tables import find_sheet

    reg = regulation(short)
    out = Path(out)
    commands.build_workbook(OpenpyxlPort(out, create=True, command="new"), reg)
    port = OpenpyxlPort(out, command="roster")
    fields = FIELDS.get(short)
    from bianpai.workbooks.roster_layouts import roster_layout
    rl = roster_layout(reg.roster_layout)
    if rl.demo_roster is not None:  # the layout's own field (a row per pair, bridge teams)
        for lay, rows in zip(rl.sheets, rl.demo_roster(reg, seed, fields)):
            port.append_rows(find_sheet(port, lay), rows, start_row=2)
    elif reg.roster_layout == "people":
        port.append_rows(find_sheet(port, L.ROSTER_PEOPLE), D._people_roster(reg, seed, fields),
                         start_row=2)
    else:
        roster, people = D._roster(reg, seed, fields)
        port.append_rows(find_sheet(port, K.ROSTER), roster, start_row=2)
        port.append_rows(find_sheet(port, T.TEAM_PLAYERS), people, start_row=2)
    port.save()
    commands.check(OpenpyxlPort(out, command="check"))
    rng, strength = random.Random(seed), {}
    games = any(s.scoring.games_per_match for g in reg.groups for s in g.stages)
    for step in range(draws + 1):
        try:
            commands.draw(OpenpyxlPort(out, command="draw"), seed=seed + step)
        except RuleError:
            break
        if step == draws:
            break
        if games:
            D._fill_results(out, rng, strength)
        D._fill_match_results(out, rng, strength)
    return out


# ------------------------------------------------------------------------------ mutations

@dataclass
class Mutation:
    """One change of a valid workbook. ``kind``: the family (the table's row); ``expect``:
    ``"refuse"`` (every command that reads the damaged part must refuse it, naming sheet!cell)
    or ``"same"`` (harmless: each command must do what it does on the undamaged workbook).
    ``apply(path)`` makes the change on disk (the workbook or around it)."""
    kind: str
    name: str
    expect: str
    apply: Callable[[Path], None]
    commands: tuple[str, ...] = ("draw", "rank")


def _edit(fn: Callable) -> Callable[[Path], None]:
    def apply(path: Path) -> None:
        wb = load_workbook(path)
        fn(wb)
        wb.save(path)
    return apply


def _data_rows(ws) -> list[int]:
    return [r for r in range(2, ws.max_row + 1)
            if any(ws.cell(r, c).value not in (None, "") for c in range(1, ws.max_column + 1))]


def _header_col(ws, title: str) -> int | None:
    for c in range(1, ws.max_column + 1):
        if ws.cell(1, c).value == title:
            return c
    return None


HEADER_SAMPLE, SETTING_SAMPLE = 12, 8
ROSTER_COMMANDS = ("check", "draw", "rank")
#: sheets the event depends on once drawn (typed by the organizer or generated by bianpai)
EVENT_SHEETS = ("报名", "队员", "规程", "抽签", "对阵", "成绩", "逐局成绩", "逐副成绩", "轮成绩", "带分",
                "罚分", "晋级", "退赛")


def mutations(path: Path, rng: random.Random) -> list[Mutation]:
    """Every mutation of the mid-event workbook ``path`` (seeded choices by ``rng``)."""
    wb = load_workbook(path, read_only=False)
    out: list[Mutation] = []
    present = [s for s in EVENT_SHEETS if s in wb.sheetnames]
    typed = [s for s in ("成绩", "逐局成绩", "逐副成绩", "轮成绩") if s in wb.sheetnames and _data_rows(wb[s])]
    # --- a required sheet deleted or renamed
    for s in present:
        if s == "罚分" or s == "退赛":
            continue  # optional sheets: their absence means "none"
        out.append(Mutation("sheet deleted", f"delete {s}", "refuse",
                            _edit(lambda b, s=s: b.remove(b[s]))))
        out.append(Mutation("sheet renamed", f"rename {s}", "refuse",
                            _edit(lambda b, s=s: setattr(b[s], "title", s + "（旧）"))))
        out[-2].commands = out[-1].commands = ("check", "draw", "rank", "awards", "withdraw")
    # --- a header deleted or renamed (a seeded sample of the columns of the sheets the event reads)
    headers: list[Mutation] = []
    for s in present:
        ws = wb[s]
        if s == "规程":
            continue
        for c in range(1, ws.max_column + 1):
            title = ws.cell(1, c).value
            if not title:
                continue
            col = [ws.cell(r, c).value for r in _data_rows(ws)]
            # a header over an empty column on an optional sheet may well go unnoticed
            expect = "refuse" if any(v not in (None, "") for v in col) else "same"
            headers.append(Mutation("header deleted", f"{s}!{ws.cell(1, c).coordinate} '{title}' deleted",
                                expect, _edit(lambda b, s=s, c=c: setattr(b[s].cell(1, c), "value", None))))
            headers.append(Mutation("header renamed", f"{s}!{ws.cell(1, c).coordinate} '{title}' renamed",
                                expect, _edit(lambda b, s=s, c=c, t=title:
                                              setattr(b[s].cell(1, c), "value", f"{t}X"))))
    out += rng.sample(headers, min(len(headers), HEADER_SAMPLE))
    # --- 抽签 numbers deleted, duplicated, contradicting; a row deleted
    if "抽签" in wb.sheetnames:
        ws = wb["抽签"]
        rows = _data_rows(ws)
        nc = _header_col(ws, "队号") or _header_col(ws, "序号")
        if rows and nc:
            r1, r2 = rng.sample(rows, 2)
            out += [
                Mutation("draw numbers", "抽签 number deleted", "refuse",
                         _edit(lambda b: setattr(b["抽签"].cell(r1, nc), "value", None))),
                Mutation("draw numbers", "抽签 number duplicated", "refuse",
                         _edit(lambda b: setattr(b["抽签"].cell(r1, nc), "value",
                                                 b["抽签"].cell(r2, nc).value))),
                Mutation("draw numbers", "抽签 numbers swapped", "refuse",
                         _edit(lambda b: _swap(b["抽签"], r1, r2, nc))),
                Mutation("draw numbers", "抽签 number changed to a new one", "refuse",
                         _edit(lambda b: setattr(b["抽签"].cell(r1, nc), "value", 999))),
                Mutation("draw numbers", "抽签 row deleted", "refuse",
                         _edit(lambda b: b["抽签"].delete_rows(r1))),
                Mutation("draw numbers", "抽签 rows re-sorted", "refuse",
                         _edit(lambda b: _reverse(b["抽签"]))),
            ]
    # --- 报名 rows re-sorted, merged, replaced after the draw
    if "报名" in wb.sheetnames:
        ws = wb["报名"]
        rows = _data_rows(ws)
        name_col = _header_col(ws, "姓名") or _header_col(ws, "队名") or _header_col(ws, "选手1")
        if len(rows) > 2 and name_col:
            r1 = rng.choice(rows[:-1])
            out += [
                Mutation("roster after draw", "报名 rows re-sorted", "same", commands=ROSTER_COMMANDS,
                         apply=
                         _edit(lambda b: _reverse(b["报名"]))),
                Mutation("roster after draw", "报名 name replaced", "refuse", commands=ROSTER_COMMANDS, apply=
                         _edit(lambda b: setattr(b["报名"].cell(r1, name_col), "value", "新来的人"))),
                Mutation("roster after draw", "报名 row deleted", "refuse", commands=ROSTER_COMMANDS, apply=
                         _edit(lambda b: b["报名"].delete_rows(r1))),
                Mutation("roster after draw", "报名 two names merged", "refuse", commands=ROSTER_COMMANDS, apply=
                         _edit(lambda b: b["报名"].merge_cells(
                             start_row=r1, end_row=r1 + 1, start_column=name_col,
                             end_column=name_col))),
                Mutation("roster after draw", "报名 row appended for a drawn group", "refuse", commands=ROSTER_COMMANDS, apply=
                         _edit(lambda b: _dup_row(b["报名"], r1, name_col))),
            ]
    # --- merged cells over typed values
    for s in typed:
        ws = wb[s]
        rows = _data_rows(ws)
        cols = [c for c in range(7, ws.max_column + 1)
                if sum(ws.cell(r, c).value not in (None, "") for r in rows) >= 2]
        if len(rows) >= 2 and cols:
            c = rng.choice(cols)
            pair = [(a, b) for a, b in zip(rows, rows[1:]) if b == a + 1
                    and ws.cell(a, c).value not in (None, "") and ws.cell(b, c).value not in (None, "")
                    and ws.cell(a, c).value != ws.cell(b, c).value]
            if pair:
                a, b2 = rng.choice(pair)
                out.append(Mutation("merged over typed", f"{s} {ws.cell(a, c).coordinate}:"
                                    f"{ws.cell(b2, c).coordinate} merged", "refuse",
                                    _edit(lambda b, s=s, a=a, b2=b2, c=c: b[s].merge_cells(
                                        start_row=a, end_row=b2, start_column=c, end_column=c))))
    # --- an extra column inserted in front
    for s in present:
        out.append(Mutation("column in front", f"column inserted before {s}!A", "same",
                            _edit(lambda b, s=s: b[s].insert_cols(1))))
    # --- 规程 numbers out of range
    if "规程" in wb.sheetnames:
        ws = wb["规程"]
        nums = [r for r in range(2, ws.max_row + 1)
                if isinstance(ws.cell(r, 3).value, (int, float))
                and not isinstance(ws.cell(r, 3).value, bool)]
        for r in rng.sample(nums, min(len(nums), SETTING_SAMPLE)):
            key = ws.cell(r, 1).value
            for v in (-5, 10**6):
                out.append(Mutation("settings out of range", f"规程 {key} = {v}", "range",
                                    _edit(lambda b, r=r, v=v: setattr(b["规程"].cell(r, 3), "value", v)),
                                    commands=("draw",)))
    # --- files
    out += [
        Mutation("files", "path is a directory", "refuse", _as_directory),
        Mutation("files", "backups path is a file", "write", _backups_file,
                 commands=("draw", "rank")),
        Mutation("files", "path is a symbolic link", "link", _symlink, commands=("rank",)),
        Mutation("files", "damaged newest backup before undo", "refuse", _damaged_backup,
                 commands=("undo",)),
        Mutation("files", "empty newest backup before undo", "refuse", _empty_backup,
                 commands=("undo",)),
        Mutation("files", "leftover temporary file", "tmp", _leftover_tmp, commands=("rank",)),
    ]
    wb.close()
    return out


def _swap(ws, r1: int, r2: int, c: int) -> None:
    a, b = ws.cell(r1, c).value, ws.cell(r2, c).value
    ws.cell(r1, c).value, ws.cell(r2, c).value = b, a


def _reverse(ws) -> None:
    rows = _data_rows(ws)
    vals = [[ws.cell(r, c).value for c in range(1, ws.max_column + 1)] for r in rows]
    for r, v in zip(rows, reversed(vals)):
        for c, x in enumerate(v, start=1):
            ws.cell(r, c).value = x


def _dup_row(ws, r: int, name_col: int) -> None:
    new = ws.max_row + 1
    for c in range(1, ws.max_column + 1):
        ws.cell(new, c).value = ws.cell(r, c).value
    ws.cell(new, name_col).value = "后来报名"


def _as_directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _backups_file(path: Path) -> None:
    d = path.parent / f"{path.name}.bianpai-backups"
    if d.exists():
        shutil.rmtree(d)
    d.write_text("not a folder")


def _symlink(path: Path) -> None:
    real = path.parent / "real" / path.name
    real.parent.mkdir(exist_ok=True)
    shutil.move(path, real)
    path.symlink_to(real)


def _newest_backup(path: Path) -> Path | None:
    d = path.parent / f"{path.name}.bianpai-backups"
    files = sorted((p for p in d.glob("*") if p.is_file()), key=lambda p: p.stat().st_mtime)
    return files[-1] if files else None


def _damaged_backup(path: Path) -> None:
    b = _newest_backup(path)
    if b is not None:
        b.write_bytes(b.read_bytes()[:300])


def _empty_backup(path: Path) -> None:
    b = _newest_backup(path)
    if b is not None:
        b.write_bytes(b"")


def _leftover_tmp(path: Path) -> None:
    (path.parent / f".{path.name}.k1ll3d00.bianpai-tmp").write_bytes(path.read_bytes()[:1000])


def copy_event(src: Path, dest_dir: Path) -> Path:
    """A fresh copy of the workbook ``src`` and its backups folder in ``dest_dir``."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    dest = dest_dir / src.name
    shutil.copy2(src, dest)
    b = src.parent / f"{src.name}.bianpai-backups"
    if b.is_dir():
        shutil.copytree(b, dest_dir / b.name)
    return dest
