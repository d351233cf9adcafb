"""Reading the typed rows of a gouji (够级) match: finishes, typed 局分 and adjustments.

Pure helpers of :mod:`bianpai.engines.gouji` (split out to keep modules short). Errors are
:class:`InputError` (Chinese, then English) carrying ``row`` (the DataFrame index label),
``column`` and ``game`` hints the caller maps to a sheet cell. Source: Qingdao gouji 2015 规程
九第一条2 (finishes), 九第三条4/第四条 (扣分), 十（六）（七） (判负), 十（十一） (迟到15分钟视为弃权).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pandas as pd

from bianpai.engines.core import Match
from bianpai.engines.errors import InputError
from bianpai.engines.rounding import to_decimal

__all__ = ["FINISHES", "FINISH_ALIASES", "ADJUSTMENT_KINDS", "gouji_error", "parse_finish",
           "read_games", "check_game", "read_adjustments"]

#: the six finishes of a game, best first (九第一条2)
FINISHES = ("头科", "二科", "三科", "四科", "小落", "大落")
#: other ways a finish is typed (numbers 1–6 = place; 二落 is 小落, 第四条8)
FINISH_ALIASES: dict[str, str] = {
    **{str(i + 1): f for i, f in enumerate(FINISHES)},
    "一科": "头科", "头": "头科", "五科": "小落", "六科": "大落", "二落": "小落", "末科": "大落",
}
#: adjustment codes (``adjustments.kind``) and their aliases
ADJUSTMENT_KINDS: dict[str, str] = {
    "penalty": "penalty", "扣分": "penalty", "罚分": "penalty", "扣局分": "penalty",
    "misconduct": "misconduct", "判负": "misconduct",
    "forfeit": "forfeit", "弃权": "forfeit", "弃赛": "forfeit",
    "late": "late", "迟到": "late",
}


def gouji_error(zh: str, en: str, *, row: Any = None, column: str | None = None,
                game: int | None = None) -> InputError:
    """An :class:`InputError` with hints the caller maps to a cell: ``row`` (the ``games`` or
    ``adjustments`` index label), ``column`` (column name), ``game`` (game number)."""
    err = InputError(zh, en)
    err.row, err.column, err.game = row, column, game  # type: ignore[attr-defined]
    return err


def parse_finish(value) -> str | None:
    """A typed finish → one of :data:`FINISHES`; ``None`` for an empty cell; ``InputError`` for
    anything else. Accepts the names, 1–6 (int, float 1.0 or text) and the aliases."""
    if value is None or (isinstance(value, float) and value != value) or value is pd.NA:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if not text:
        return None
    if text in FINISHES:
        return text
    if text in FINISH_ALIASES:
        return FINISH_ALIASES[text]
    raise gouji_error(f"无法识别的名次“{text}”（应为头科、二科、三科、四科、小落、大落或1–6）",
                      f"unknown finish {text!r} (头科/二科/三科/四科/小落/大落 or 1–6)")


def _empty(v) -> bool:
    if v is None or v is pd.NA:
        return True
    if isinstance(v, float) and v != v:
        return True
    return isinstance(v, str) and not v.strip()


def _rows(table) -> tuple[list[str], list[tuple[Any, dict]]]:
    """``(columns, [(index label, row dict)])`` of ``table``: a DataFrame (labels its index),
    or a list of row dicts (the one match's rows a command read: labels their ``_row`` — the
    sheet row — else their position; no DataFrame is built per match)."""
    if isinstance(table, pd.DataFrame):
        cols = list(table.columns)
        return cols, list(zip(table.index, table.to_dict("records")))
    cols = list(dict.fromkeys(k for r in table for k in r if k != "_row"))
    return cols, [(r.get("_row", i), r) for i, r in enumerate(table)]


def read_games(games: pd.DataFrame | list[dict] | None):
    """Read a match's game rows (wide, long or typed-局分 shape; see :class:`GoujiScoring`):
    a DataFrame or a list of row dicts (see :func:`_rows`).

    Returns ``(finishes, points, errors)``: finishes per game ``{game: {seat: (finish, row,
    column)}}``, typed 局分 per game ``{game: (p0, p1, row)}`` (Decimal) and the
    :class:`InputError` list (unreadable game numbers, seats, finishes, numbers; a seat or a
    game typed twice; one team's 局分 only)."""
    errors: list[InputError] = []
    fins: dict[int, dict[int, tuple[str, Any, str]]] = {}
    pts: dict[int, tuple[Decimal, Decimal, Any]] = {}
    if games is None or not len(games):
        return fins, pts, errors
    columns, rows = _rows(games)
    cols = set(map(str, columns))
    wide = {k: c for k in range(1, 7) for c in columns
            if str(c) in (f"seat_{k}", str(k), f"{k}号位")}
    long_form = {"seat", "finish"} <= cols
    typed = {"points_0", "points_1"} <= cols
    if "game" not in cols:
        errors.append(gouji_error("成绩缺少“局”列", "the rows lack the game column",
                                  column="game"))
        return fins, pts, errors
    seen_rows: dict[int, Any] = {}
    for idx, rec in rows:
        g = rec.get("game")
        if _empty(g):
            errors.append(gouji_error("局号为空", "game number is empty", row=idx,
                                      column="game"))
            continue
        try:
            g = int(g)
        except (TypeError, ValueError):
            errors.append(gouji_error(f"局号“{g}”不是整数", f"game number {g!r} is not an "
                                      "integer", row=idx, column="game"))
            continue
        if not long_form and g in seen_rows:
            first = seen_rows[g]  # the other row: either may be the one mistyped
            also = (f"（另见第{first}行：桌号、轮次是否填错？）", f" (see also row {first})") \
                if isinstance(first, int) else ("", "")
            errors.append(gouji_error(f"第{g}局录入了两次{also[0]}", f"game {g} is typed twice{also[1]}",
                                      row=idx, column="game", game=g))
            continue
        seen_rows.setdefault(g, idx)
        if wide or long_form:
            cells = ([(k, rec.get(c), c) for k, c in wide.items()] if wide else
                     [(rec.get("seat"), rec.get("finish"), "finish")])
            slot = fins.setdefault(g, {})
            for seat, val, col in cells:
                try:
                    seat = int(seat)
                except (TypeError, ValueError):
                    errors.append(gouji_error(f"第{g}局的号位“{seat}”无效",
                                              f"game {g}: seat {seat!r} is invalid",
                                              row=idx, column="seat", game=g))
                    continue
                if not 1 <= seat <= 6:
                    errors.append(gouji_error(f"第{g}局的号位 {seat} 不在1–6之间",
                                              f"game {g}: seat {seat} is not 1–6",
                                              row=idx, column="seat", game=g))
                    continue
                try:
                    f = parse_finish(val)
                except InputError as exc:
                    errors.append(gouji_error(f"第{g}局{seat}号位：{exc.zh}",
                                              f"game {g} seat {seat}: {exc.en}",
                                              row=idx, column=str(col), game=g))
                    continue
                if f is None:  # an empty cell: reported as a missing seat by check_game
                    continue
                if seat in slot:
                    errors.append(gouji_error(f"第{g}局{seat}号位录入了两次",
                                              f"game {g}: seat {seat} is typed twice",
                                              row=idx, column=str(col), game=g))
                    continue
                slot[seat] = (f, idx, str(col))
        if typed:
            p = []
            for c in ("points_0", "points_1"):
                v = rec.get(c)
                if _empty(v):
                    p.append(None)
                    continue
                try:
                    p.append(to_decimal(v))
                except ValueError:
                    errors.append(gouji_error(f"第{g}局的局分“{v}”不是数字",
                                              f"game {g}: game points {v!r} are not a number",
                                              row=idx, column=c, game=g))
                    p.append(None)
            if p[0] is not None and p[1] is not None:
                pts[g] = (p[0], p[1], idx)
            elif (p[0] is None) != (p[1] is None) and not errors:
                c = "points_1" if p[1] is None else "points_0"
                errors.append(gouji_error(f"第{g}局只录入了一方的局分",
                                          f"game {g}: only one team's game points are typed",
                                          row=idx, column=c, game=g))
    return fins, pts, errors


def check_game(g: int, slot: dict, errors: list[InputError]) -> dict[int, str] | None:
    """``{seat: finish}`` of game ``g`` when all six seats have distinct finishes, else
    ``None`` with the errors (missing seat, finish typed twice) appended to ``errors``."""
    if not slot:
        return None
    row = next(iter(slot.values()))[1]
    missing = [s for s in range(1, 7) if s not in slot]
    if missing:
        errors.append(gouji_error(
            f"第{g}局缺少{'、'.join(f'{s}号位' for s in missing)}的名次",
            f"game {g}: no finish for seat(s) {', '.join(map(str, missing))}",
            row=row, column=f"seat_{missing[0]}", game=g))
        return None
    by_finish: dict[str, list[int]] = {}
    for s, (f, _, _) in sorted(slot.items()):
        by_finish.setdefault(f, []).append(s)
    bad = False
    for f, ss in by_finish.items():
        if len(ss) > 1:
            errors.append(gouji_error(
                f"第{g}局的“{f}”录入了两次（{'、'.join(f'{s}号位' for s in ss)}）",
                f"game {g}: {f} is typed for more than one seat (seats "
                f"{', '.join(map(str, ss))})", row=slot[ss[1]][1], column=slot[ss[1]][2],
                game=g))
            bad = True
    return None if bad else {s: f for s, (f, _, _) in slot.items()}


def read_adjustments(match: Match, adjustments: pd.DataFrame | list[dict] | None,
                     penalty_points: Decimal, lateness_forfeit_minutes) -> tuple:
    """Per side (0, 1): 局分 deducted, misconduct flag, forfeit flag, minutes late; and the
    :class:`InputError` list. Columns: ``side`` (or ``entrant``), ``kind``, ``value`` (a
    DataFrame or a list of row dicts)."""
    pen = [Decimal(0), Decimal(0)]
    mis = [False, False]
    fft = [False, False]
    late_min = [None, None]
    errors: list[InputError] = []
    if adjustments is None or not len(adjustments):
        return pen, mis, fft, late_min, errors
    columns, rows = _rows(adjustments)
    for idx, rec in rows:
        side = rec.get("side") if "side" in columns else None
        if _empty(side) and "entrant" in columns and not _empty(rec.get("entrant")):
            e = int(rec["entrant"])
            side = match.sides.index(e) if e in match.sides else None
            if side is None:
                errors.append(gouji_error(f"{e}号不在本场比赛中",
                                          f"entrant {e} does not play this match",
                                          row=idx, column="entrant"))
                continue
        try:
            side = int(side)
            if side not in (0, 1):
                raise ValueError
        except (TypeError, ValueError):
            errors.append(gouji_error(f"处罚的一方“{side}”无效（应为0主队或1客队）",
                                      f"adjustment side {side!r} is invalid (0 or 1)",
                                      row=idx, column="side"))
            continue
        kind = ADJUSTMENT_KINDS.get(str(rec.get("kind", "")).strip())
        if kind is None:
            errors.append(gouji_error(
                f"未知的处罚类型“{rec.get('kind')}”（扣分、判负、弃权、迟到）",
                f"unknown adjustment {rec.get('kind')!r} (penalty, misconduct, forfeit, late)",
                row=idx, column="kind"))
            continue
        val = rec.get("value") if "value" in columns else None
        try:
            num = None if _empty(val) else to_decimal(val)
        except ValueError:
            errors.append(gouji_error(f"处罚数值“{val}”不是数字",
                                      f"adjustment value {val!r} is not a number",
                                      row=idx, column="value"))
            continue
        if kind == "penalty":
            pen[side] += abs(num) if num is not None else penalty_points
        elif kind == "misconduct":
            mis[side] = True
        elif kind == "forfeit":
            fft[side] = True
        else:
            if num is None:
                errors.append(gouji_error("迟到须填写分钟数", "lateness needs the minutes",
                                          row=idx, column="value"))
                continue
            late_min[side] = num
            if num >= lateness_forfeit_minutes:
                fft[side] = True
    return pen, mis, fft, late_min, errors

# ---------------------------------------------------------------- the match
