"""Issue 13 (speed): the faster paths give exactly what the slower ones gave.

No 规程 clause: these pin the workbook reading and the standings arithmetic the clause tests
rely on (one open workbook read after its own writes, game rows in order, per-entrant sums).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pandas as pd

from bianpai.addin.core_read import _games_frame
from bianpai.engines.core import TypedMatch
from bianpai.engines.standings import count_of, mean_of, sum_of
from bianpai.workbooks.openpyxl_port import OpenpyxlPort


def test_a_port_reads_its_own_writes_as_the_saved_file_reads_them(tmp_path):
    """One open workbook driven by several commands (the demo) must see what the file
    would give: a whole float as an int, a date as a datetime, an empty string as empty."""
    path = tmp_path / "w.xlsx"
    port = OpenpyxlPort(path, create=True)
    row = ["a", 3.0, 2.5, dt.date(2024, 5, 1), "", True, 7, Decimal("1.50")]
    port.write_sheet("S", [["h"] * len(row), row])
    port.write_sheet("T", [["h1", "h2"]])
    port.save()
    port = OpenpyxlPort(path)
    port.append_rows("T", [[0.0, dt.date(2024, 1, 2)]], start_row=2)
    in_memory = {s: port.read_values(s) for s in ("S", "T")}
    port.save()
    again = OpenpyxlPort(path)
    assert in_memory == {s: again.read_values(s) for s in ("S", "T")}
    assert in_memory["T"][1] == [0, dt.datetime(2024, 1, 2)]
    assert [type(v) for v in in_memory["S"][1]] == [type(v) for v in again.read_values("S")[1]]
    port2 = OpenpyxlPort(path)
    port2.write_sheet("S", [["h"] * len(row), row])
    assert port2.read_values("S") == again.read_values("S")


def test_game_rows_in_game_order_as_pandas_sorts_them():
    """A match's 逐局成绩 rows typed out of order come back in game order, index kept."""
    rows = [{"game": 3, "x": "c", "_row": 9}, {"game": 1, "x": "a", "_row": 7},
            {"game": None, "x": "z", "_row": 10}, {"game": 2, "x": None, "_row": 8}]
    got = _games_frame(rows)
    want = pd.DataFrame(rows).sort_values("game")
    assert list(got.index) == list(want.index)
    assert got["x"].tolist() == want["x"].tolist()
    assert _games_frame([]).columns.tolist() == ["game"]
    assert _games_frame(rows[:1]).equals(pd.DataFrame(rows[:1]))


def test_typed_match_rows_are_cached_but_handed_out_fresh():
    """TypedMatch.game_records: computed once, each caller gets its own dicts; blanks
    (NaN) compare equal in the memo key."""
    t = TypedMatch(games=pd.DataFrame({"game": [1, 2], "p": [1.0, float("nan")]}))
    a = t.game_records()
    a[0]["p"] = 99
    assert t.game_records()[0]["p"] == 1.0
    u = TypedMatch(games=pd.DataFrame({"game": [1, 2], "p": [1.0, float("nan")]}))
    assert t.game_key() == u.game_key()
    assert not t.empty
    assert TypedMatch(games=pd.DataFrame({"game": [1], "p": [None]})).empty


def _naive_sum(members, r, column):
    return {e: sum((Decimal(str(v)) for v in r.loc[r["entrant"] == e, column] if not pd.isna(v)),
                   Decimal(0)) for e in members}


def test_one_pass_criteria_equal_the_per_entrant_scan():
    """sum/mean/count over an entrant's completed rows, as the per-entrant mask gave them."""
    r = pd.DataFrame({"entrant": pd.array([1, 2, 1, 3, 2, 1], dtype="Int64"),
                      "pts": [2, 1, None, 3, 0.5, 1],
                      "outcome": ["W", "L", "D", None, "W", "FW"],
                      "complete": [True, True, True, True, False, True]})
    members = [1, 2, 3, 4]
    done = r[r["complete"]]
    assert sum_of("pts")(members, r, {}) == _naive_sum(members, done, "pts")
    means = mean_of("pts")(members, r, {})
    assert means[1] == Decimal("1.50") and means[2] == Decimal("1.00") and means[4] is None
    assert count_of("outcome", ["W", "FW"])(members, r, {}) == {
        1: Decimal(2), 2: Decimal(0), 3: Decimal(0), 4: Decimal(0)}


def test_the_typed_results_are_read_again_once_a_result_sheet_changes(tmp_path):
    """The event read keeps the typed results while 成绩 (and what they depend on) are
    unchanged: a second read on the same port takes them as they were (the same objects), and
    a result typed through the port since is read (a memo that outlived its sheet would drop
    it and let the next round be drawn without it)."""
    from bianpai.addin.competition import load_core_event
    from bianpai.addin.core_draw import drawn
    from tests.test_core_cbsa import _small_event
    port = OpenpyxlPort(_small_event(tmp_path / "e.xlsx"), command="test")
    drawn(port, seed=1)
    first = load_core_event(port)
    assert first.typed and all(t.empty for t in first.typed.values()) and not first.errors
    again = load_core_event(port)
    assert all(again.typed[k] is t for k, t in first.typed.items())  # unchanged: kept
    grid = port.read_values("成绩")
    head = grid[0]
    row = list(grid[1]) + [None] * (len(head) - len(grid[1]))
    row[head.index("甲方局数")], row[head.index("乙方局数")] = 9, 4
    port.append_rows("成绩", [row], start_row=2)
    typed = load_core_event(port)
    key = next(k for k, t in typed.typed.items() if not t.empty)
    match = typed.typed[key]
    assert [k for k, t in typed.typed.items() if not t.empty] == [key] and key[4] == grid[1][4]
    assert (match.totals["frames_0"], match.totals["frames_1"]) == (9, 4)
    assert load_core_event(port).typed[key] is match


def test_a_stage_s_entrants_follow_a_withdrawal_and_a_late_number(tmp_path):
    """CoreEvent.stage_entrants is made once per event while what it reads is the same: a
    withdrawal or a number added to the group afterwards (as a draw's late entry does) is in
    the next answer, and each answer is a list of its own."""
    from bianpai.addin.competition import load_core_event
    from bianpai.addin.core_draw import drawn
    from tests.test_core_cbsa import _small_event
    port = OpenpyxlPort(_small_event(tmp_path / "e.xlsx"), command="test")
    drawn(port, seed=1)
    ev = load_core_event(port)
    g = ev.reg.groups[0]
    s = g.stages[0]
    first = ev.stage_entrants(g, s)
    n = first[0].number
    assert first[0].withdrawn_after is None
    first.clear()  # the caller's own list
    assert ev.stage_entrants(g, s) and ev.stage_entrants(g, s)[0] is ev.stage_entrants(g, s)[0]
    ev.withdrawals[(g.id, s.id, n)] = (0, True, "test")
    assert next(e for e in ev.stage_entrants(g, s) if e.number == n).withdrawn_after == 0
    gs = ev.groups[g.id]
    late = max(gs.teams) + 1
    gs.teams[late] = dict(gs.teams[n], position=99, roster_row=None)
    assert late in {e.number for e in ev.stage_entrants(g, s)}


def test_held_writes_are_made_when_used_and_superseded_whole():
    """bianpai.workbooks.held_writes: a held rewrite is made when one of its sheets is used
    (or all at save), oldest first; a newer rewrite of all of its sheets drops it unmade; a
    newer one of only some of them makes it first."""
    from bianpai.workbooks.held_writes import HeldWrites
    made = []
    held = HeldWrites()
    held.hold(["A", "B"], lambda: made.append("ab1"))
    held.hold(["A", "B"], lambda: made.append("ab2"))  # supersedes ab1
    held.hold(["C"], lambda: made.append("c"))
    held.make("X")
    assert made == []
    held.make("B")
    assert made == ["ab2"]
    held.hold(["C", "D"], lambda: made.append("cd"))  # supersedes c
    held.hold(["D"], lambda: made.append("d"))  # only part of cd's sheets: cd made first
    assert made == ["ab2", "cd"]
    held.make()
    assert made == ["ab2", "cd", "d"]


def test_a_draw_s_bracket_sheets_held_by_the_port_read_and_save_as_written_at_once(
        tmp_path, monkeypatch):
    """Two draws on one port (the demo's chain): 签表 and 签表图 rewritten by each draw are held
    by the port and made when read or saved; what is read after the first draw and what is
    saved after the second are what a port writing them at once gives."""
    import random
    import shutil
    from bianpai.addin.core_demo_results import _fill_match_results
    from bianpai.addin.core_draw import drawn
    from tests.test_core_cbsa import _small_event
    from tests.test_package_save import members
    src = _small_event(tmp_path / "src.xlsx")
    seen, saved = {}, {}
    for how in ("held", "at once"):
        path = tmp_path / f"{how}.xlsx"
        shutil.copyfile(src, path)
        if how == "at once":
            monkeypatch.setattr(OpenpyxlPort, "write_later", lambda self, sheets, write: False)
        port = OpenpyxlPort(path, command="test")
        drawn(port, seed=1)
        first = port.read_values("签表")  # read (and kept by the port) before the next draw
        _fill_match_results(port, random.Random(3), {})
        drawn(port, seed=2)
        seen[how] = (first, port.read_values("签表"))  # the held rewrite made now
        _fill_match_results(port, random.Random(4), {})
        drawn(port, seed=3)
        port.save()
        saved[how] = members(path)
    assert seen["held"] == seen["at once"] and seen["held"][0] != seen["held"][1]
    a, b = saved["held"], saved["at once"]
    assert [n for n in a if a[n] != b.get(n) and n != "docProps/core.xml"] == []


def test_rows_held_below_a_kept_sheet_read_the_same_read_after_each_append(tmp_path):
    """Rows appended below a sheet the port never parses are read back through an overlay made
    on from the previous reading (only the cells held since applied): read after each append,
    or once after all of them, or from the saved file, the sheet reads the same — a cell
    written twice keeps its last value."""
    from tests.helpers import new_event
    path = tmp_path / "e.xlsx"
    new_event(path)
    writes = [([["a", 1, None], ["b", 2.0, "x"]], 2), ([["c", 3]], 4), ([["B", 2.5]], 3)]
    each = OpenpyxlPort(path, command="test")
    readings = []
    for rows, start in writes:
        each.append_rows("罚分", rows, start_row=start)
        assert "罚分" in each._kept.scratch  # held below the sheet, not parsed
        readings.append(each.read_values("罚分"))
    once = OpenpyxlPort(path, command="test")
    for rows, start in writes:
        once.append_rows("罚分", rows, start_row=start)
    assert readings[-1] == once.read_values("罚分")
    assert readings[0][1:] != readings[-1][1:] and readings[-1][2][:3] == ["B", 2.5, "x"]
    each.save()
    assert OpenpyxlPort(path).read_values("罚分") == readings[-1]


def test_a_typed_row_s_cells_are_named_as_cell_of_names_them():
    """RowCells (a typed row's sheet!cell per column, made when asked) gives what cell_of
    gives, for a column read from another letter on that row too, and knows only its keys."""
    from bianpai.workbooks.tables import RowCells, cell_of
    df = pd.DataFrame({"a": [1, 2], "b": [3, 4]}, index=[2, 3])
    df.attrs["columns"] = {"a": "C", "b": "D"}
    df.attrs["row_columns"] = {(3, "b"): "F"}
    cells = RowCells("成绩", df, 3, ["a", "b"])
    assert dict(cells) == {k: f"成绩!{cell_of(df, 3, k)}" for k in ("a", "b")} \
        == {"a": "成绩!C3", "b": "成绩!F3"}
    assert cells.get("x", "") == "" and len(cells) == 2
