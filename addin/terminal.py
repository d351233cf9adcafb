"""What the command line shows while and after a command runs: a progress bar for long work
(demo, big draws) and the standings / knockout / 总排名 tables of ``rank``.

Used by :mod:`bianpai.addin.cli` and the demos; nothing here reads or writes a workbook.
"""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table


@contextmanager
def progress_bar(console: Console, label: str, total: int | None = None):
    """A rich progress bar on ``console`` (a pulsing bar when ``total`` is None), removed when
    the work ends. Yields ``step(text=None, advance=1)``: moves the bar on and shows ``text``."""
    bar = Progress(SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
                   TextColumn("{task.completed}/{task.total}" if total else ""),
                   TimeElapsedColumn(), console=console, transient=True,
                   disable=not console.is_terminal)  # no stray blank line in a log or pipe
    with bar:
        task = bar.add_task(label, total=total)

        def step(text: str | None = None, advance: int = 1) -> None:
            bar.update(task, advance=advance,
                       description=f"{label}：{text}" if text else label)
        yield step


def _numeric(v) -> bool:
    """A value a terminal column can show in a few characters (a number, or a number as text)."""
    if isinstance(v, (int, float)):
        return True
    try:
        float(str(v))
    except (TypeError, ValueError):
        return False
    return True


def _is_match_rows(rows: list[dict]) -> bool:
    return bool(rows) and "home" in rows[0] and "away" in rows[0]


def _match_table(title: str, rows: list[dict]) -> Table:
    """A knockout stage: 场次, 主队, 客队, 胜队 (numbers and names when known), 说明."""
    t = Table(title=title)
    for col in ("场次", "主队", "客队", "胜队", "说明"):
        # Chinese text has no spaces: fold it, or rich cuts the 说明 with "…"
        t.add_column(col, no_wrap=col != "说明", ratio=1 if col == "说明" else None,
                     overflow="fold")

    def who(r, k):
        n = r.get(k)
        name = r.get(f"{k}_name")
        return "" if n is None else (f"{n} {name}" if name else str(n))
    for r in rows:
        t.add_row(str(r.get("match") or ""), who(r, "home"), who(r, "away"), who(r, "winner"),
                  str(r.get("explanation") or ""))
    return t


#: a table longer than LONG rows shows its first SHOWN rows and points at the sheet (a 512-entry
#: bracket or a 300-team ranking is read in the workbook, not scrolled past in a terminal)
LONG, SHOWN = 40, 32


def _rest(console: Console, rows: list[dict], sheet: str) -> None:
    """The pointer printed under a shortened table."""
    n = len(rows) - SHOWN
    console.print(f"… 另有 {n} 行，完整表格见工作簿的“{sheet}”表"
                  f" / {n} more rows: see sheet {sheet} in the workbook")


def print_standings(console: Console, data: dict) -> None:
    """Each group's standings in the terminal: 名次, 队号/序号, 队名/选手 (总排名 also 名次来源),
    the main score and first tie-break, 说明; a knockout stage as its matches. A table of more
    than :data:`LONG` rows shows its first :data:`SHOWN` and names the sheet with the rest."""
    from bianpai.engines import load_criteria
    CRITERIA = load_criteria()  # noqa: N806
    for group, all_rows in data.items():
        if not all_rows or not isinstance(all_rows, list) or not isinstance(all_rows[0], dict):
            continue
        long = len(all_rows) > LONG
        rows = all_rows[:SHOWN] if long else all_rows
        if _is_match_rows(rows):
            console.print(_match_table(str(group), rows))
            if long:
                _rest(console, all_rows, "签表")
            continue
        t = Table(title=str(group), show_lines=False)
        team = "team" in rows[0]
        place = "place" if "place" in rows[0] and "rank" not in rows[0] else "rank"
        fixed = [(place, "名次"), ("team" if team else "number", "队号" if team else "序号"),
                 ("name", "队名" if team else "选手")]
        if any(r.get("pool") not in (None, "") for r in rows):  # A组, 男1…: name each block
            fixed.insert(0, ("pool", "小组"))
        if "source" in rows[0]:  # a final ranking: where each place was decided
            fixed.append(("source", "名次来源"))
        # the main score and the first tie-break fit a terminal; the 排名 sheet has them all
        # (only criteria this table has numbers for: a countback string or an empty column
        # would leave no room for the 说明)
        crit = [k for k in rows[0] if k in CRITERIA and k != "lots"
                and any(r.get(k) is not None for r in rows)
                and all(r.get(k) is None or _numeric(r[k]) for r in rows)][:2]
        if team:
            fixed += [(k, title) for k, title in (("carry_over", "带分"), ("total", "总VP"))
                      if k in rows[0]]
        for _, title in fixed:
            t.add_column(title, no_wrap=True)
        for k in crit:
            t.add_column(CRITERIA[k].label_zh, justify="right", no_wrap=True)
        t.add_column("说明", ratio=1, overflow="fold")
        for r in rows:
            t.add_row(*["" if r.get(k) is None else str(r[k]) for k, _ in fixed],
                      *["" if r.get(k) is None else str(r[k]) for k in crit],
                      r.get("explanation") or "")
        console.print(t)
        if long:
            _rest(console, all_rows, "总排名" if "source" in rows[0] else "排名")


def next_step_of(workbook) -> tuple[str, str] | None:
    """``(state, next step)`` of the event in the file ``workbook``
    (:func:`bianpai.addin.status.status`), read without writing; None when unreadable."""
    from bianpai.addin.status import status
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    try:
        port = OpenpyxlPort(workbook, command="status")
    except Exception:  # noqa: BLE001 - a hint only
        return None
    try:
        return status(port)
    finally:
        port.close()
