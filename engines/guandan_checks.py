"""Warnings on typed round percentages of guandan pairs (规程 八（二）比赛分): the numbers an
electronic scorer hands over are checked for adding up, without refusing them (a scorer may
round).

- a table's 南北 + 东西 比赛分 ≠ 100 where no 罚分 of that round explains it;
- a round whose tables' 南北 比赛分 do not average 50 (the NS pairs of one round are compared
  with each other, so their percentages average 50: e.g. both tables of a two-table field at 52).
"""

from __future__ import annotations

from decimal import Decimal

from bianpai.engines.core import Match, TypedMatch, is_blank
from bianpai.engines.errors import InputError


def typed_pct_warnings(matches: list[Match], typed: dict[tuple, TypedMatch]) -> list[InputError]:
    """Warnings (``InputError`` with ``sheet`` and ``cell``; ``zh``/``en`` without the group's
    name, which the caller puts first) for the typed round percentages of one stage.
    ``matches``: every drawn match of the stage; ``typed`` by :attr:`Match.key`, the percentages
    in ``totals["ns_pct"]``/``["ew_pct"]`` (Decimal, %), their cells in ``cells``
    (``"轮成绩!F2"``). A match with a decision or a penalty is left out."""
    out: list[InputError] = []
    by_round: dict[int, list[tuple[str, Decimal]]] = {}
    sheet = None
    for m in matches:
        t = typed.get(m.key)
        if t is None or m.is_bye or t.penalties or not is_blank(t.decision):
            continue
        ns, ew = t.totals.get("ns_pct"), t.totals.get("ew_pct")
        if is_blank(ns) or is_blank(ew):
            continue
        ns, ew = Decimal(str(ns)), Decimal(str(ew))
        sheet, _, ns_cell = t.cells.get("ns_pct", "!?").partition("!")
        ew_cell = t.cells.get("ew_pct", "!?").partition("!")[2]
        total = ns + ew
        if abs(total - 100) > Decimal("0.02"):
            exc = InputError(f"第{m.round}轮 {m.sides[0]}-{m.sides[1]} 比赛分之和 {total}（≠100，且无罚分记录）",
                             f"round {m.round} {m.sides[0]}-{m.sides[1]}: percentages add up to "
                             f"{total} (not 100, and no penalty)", sheet=sheet,
                             cell=f"{ns_cell}:{ew_cell}")
            out.append(exc)
        by_round.setdefault(m.round, []).append((ns_cell, ns))
    for rnd, items in by_round.items():
        if len(items) < 2:
            continue
        mean = sum(v for _, v in items) / len(items)
        if abs(mean - 50) > Decimal("0.05"):
            out.append(InputError(
                f"第{rnd}轮各桌南北比赛分平均为 {mean:.2f}（同一轮南北方互相比较，应平均 50）",
                f"round {rnd}: the NS percentages average {mean:.2f} (they should average 50)",
                sheet=sheet, cell="、".join(c for c, _ in items)))
    return out
