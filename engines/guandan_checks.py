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
    (``"轮成绩!F2"``). A match with a decision (other than 正常) or a penalty is left out."""
    out: list[InputError] = []
    by_round: dict[int, list[tuple[str, Decimal]]] = {}
    sheet = None
    for m in matches:
        t = typed.get(m.key)
        if t is None or m.is_bye or t.penalties:
            continue
        if not is_blank(t.decision) and str(t.decision).strip().lower() not in ("正常", "normal"):
            continue  # a forfeit: no percentages
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


def _placed(exc: InputError, typed: TypedMatch, column: str) -> InputError:
    """``exc`` at the typed match's cell of ``column`` (its first typed cell when unknown)."""
    where = typed.cells.get(column) or (typed.where[0] if typed.where else "")
    if "!" in where:
        exc.sheet, _, exc.cell = where.partition("!")
    return exc


def _at_row(exc: InputError, row, column: str) -> InputError:
    """``exc`` on a 逐副 row: the caller places it at ``column`` of Excel row ``row``."""
    exc.row, exc.column = row, column  # type: ignore[attr-defined]
    return exc


def typed_problems(matches: list[Match], typed: dict[tuple, TypedMatch], *,
                   boards_per_round: int, score_values: list[int] | None) -> list[InputError]:
    """Errors in what was typed for a guandan pairs stage (规程 八（二）), each at its cell:

    * a board (逐副 row: ``game`` 1…B, ``ns_score`` 南北得分 or ``code`` 代码, ``_row`` its Excel
      row) with both a score and a code; a score not in ``score_values`` (levels −3…+3, no 0);
      a board number outside the round's ``boards_per_round``; the same board typed twice;
    * a table's typed percentages (``totals`` ``ns_pct``/``ew_pct``, cells in ``cells``): typed
      with a forfeit (the 规程 scores it, 十一（四）), one of the two left empty, or the two adding
      up to more than 100 (a penalty only makes the sum smaller).

    ``matches``: every drawn match of the stage; ``typed`` by :attr:`Match.key`. Board errors
    carry ``row``/``column`` (the 逐副 row and column key) for the caller to place; table errors
    carry ``sheet``/``cell``."""
    out: list[InputError] = []
    allowed = set(score_values or [])
    b = int(boards_per_round)
    for m in matches:
        t = typed.get(m.key)
        if t is None or m.is_bye:
            continue
        seen: dict[int, object] = {}
        for g in t.game_records():
            score, code, row = g.get("ns_score"), g.get("code"), g.get("_row")
            if is_blank(score) and is_blank(code):
                continue
            game = None if is_blank(g.get("game")) else int(g["game"])
            board = None if game is None else (m.round - 1) * b + game
            if game is None or not 1 <= game <= b:
                lo, hi = (m.round - 1) * b + 1, m.round * b
                out.append(_at_row(InputError(
                    f"第{m.round}轮的牌号应为 {lo}–{hi}，实际为 {board if board is not None else '空'}",
                    f"boards of round {m.round} are {lo}–{hi}; got {board}"), row, "game"))
                continue
            if not is_blank(score) and not is_blank(code):
                out.append(_at_row(InputError(
                    "同一副牌不能既填“南北得分”又填人工成绩“代码”，请只保留一个",
                    "a board has both a score and an artificial code; keep one"), row, "code"))
                continue
            if not is_blank(score) and allowed and int(score) not in allowed:
                vals = "、".join(f"{v:+d}" for v in sorted(allowed))
                out.append(_at_row(InputError(
                    f"“南北得分”应为 {vals} 之一（南北方本副升级数，东西赢为负），实际为 {score}",
                    f"NS score must be one of {sorted(allowed)}; got {score}"), row, "ns_score"))
                continue
            if game in seen:
                out.append(_at_row(InputError(
                    f"第{m.round}轮第{board}副 {m.sides[0]}号对的成绩重复录入（另见第{seen[game]}行）",
                    f"board {board} of round {m.round} for pair {m.sides[0]} entered twice "
                    f"(see row {seen[game]})"), row, "ns_score"))
                continue
            seen[game] = row
        ns, ew = t.totals.get("ns_pct"), t.totals.get("ew_pct")
        if is_blank(ns) and is_blank(ew):
            continue
        if not is_blank(t.decision):
            if str(t.decision).strip() not in ("正常", "normal"):
                out.append(_placed(InputError(
                    "判定为弃权时不填比赛分（按规程给分），请清空比赛分或把判定改为“正常”",
                    "a forfeit takes no percentages (the regulation scores it); clear them"),
                    t, "ns_pct"))
                continue
        if is_blank(ns) or is_blank(ew):
            out.append(_placed(InputError("南北、东西比赛分须都填写", "both percentages are needed"),
                               t, "ns_pct" if is_blank(ns) else "ew_pct"))
            continue
        total = Decimal(str(ns)) + Decimal(str(ew))
        if total > 100 + Decimal("0.01"):
            out.append(_placed(InputError(
                f"第{m.round}轮 {m.sides[0]}-{m.sides[1]} 双方比赛分之和 {total} 超过 100（罚分只会使和小于 100）",
                f"round {m.round} {m.sides[0]}-{m.sides[1]}: the two percentages add up to "
                f"{total}, more than 100"), t, "ew_pct"))
    return out
