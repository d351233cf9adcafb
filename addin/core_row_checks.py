"""Why a typed result or penalty row of a competition-core workbook names no drawn match: the one
message that says it, at the cell that is wrong.

The core keys a typed row by (组别, 阶段, 小组, 轮次, 桌号) and compares its two numbers with the
drawn match at that table (:mod:`bianpai.addin.core_read`). When they do not agree, the row is
looked at against the whole 对阵 of its stage, in this order:

1. the round is outside the drawn rounds → "轮次应为 1–N" at the round's cell;
2. a number is not in the group's draw → "序号 9 不在本组抽签中" at that number's cell (the word is
   the roster layout's ``number_word``: 队号, 序号 …);
3. a number has the bye in that round → "…轮空…无需录入成绩" at its cell;
4. the two numbers meet in that round with the seats the other way round → "…填反了" at the
   first number's cell;
5. they meet at another table → "在第 T 桌" at the table's cell;
6. else → "对阵表中第 R 轮没有 A 对 B 的比赛" at the first number's cell.

Generic for every format and workbook style: the sides' words are the headers of the sheet as
the style shows it (南北序号/东西序号, 队号A/队号B …). Source: the old Shenzhen pipeline's
checks of 成绩/轮成绩/罚分 (深圳市掼蛋双人赛规程 2023 九、十一).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

import pandas as pd

from bianpai.engines.errors import InputError
from bianpai.engines.typed_rows import is_na
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.workbooks.tables import cell_of

if TYPE_CHECKING:  # annotations only
    from bianpai.addin.competition import CoreEvent


def number_word(ev: CoreEvent) -> tuple[str, str]:
    """What an entrant's number is called in messages (队号/team, 序号/pair), by roster layout."""
    return roster_layout(ev.reg.roster_layout).number_word


def side_headers(ev: CoreEvent, layout) -> tuple[str, str]:
    """The headers (Chinese) under which the sheet of core layout ``layout`` shows a match's two
    sides (its view's renamed columns when the workbook style declares one)."""
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    v = style_of(ev.reg).view(ev.reg, layout.key)
    cols = layout.columns if v is None else v.layout.columns
    names = {}
    for side in ("side0", "side1"):
        key = side if v is None else next(
            (k for k, src in v.source.items() if src == side), side)
        names[side] = next((c.zh for c in cols if c.key == key), side)
    return names["side0"], names["side1"]


def _num(v) -> int | None:
    if v is None or (isinstance(v, float) and v != v):
        return None
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _span(numbers) -> str:
    ns = sorted(numbers)
    if not ns:
        return "无"
    return f"{ns[0]}–{ns[-1]}" if ns == list(range(ns[0], ns[-1] + 1)) else "、".join(map(str, ns))


def round_problem(ev: CoreEvent, key: tuple, drawn: dict[tuple, dict], df: pd.DataFrame,
                  row: int, sheet: str) -> InputError | None:
    """The round of ``key`` (group, stage, pool, round, table) outside its stage's drawn rounds
    → an error at the row's 轮次 cell; ``None`` when the round is drawn (or nothing is)."""
    rounds = {k[3] for k in drawn if k[:2] == key[:2] and k[3] is not None}
    if not rounds or key[3] in rounds:
        return None
    g = ev.reg.group(key[0])
    s = g.stage(key[1])
    last = max(rounds)
    got = "空" if key[3] is None else key[3]
    return InputError(f"轮次应为 1–{last}（{ev.gname(g)}{ev.sname(s)}已编排 {last} 轮），实际为 {got}",
                      f"round must be 1–{last} (rounds drawn); got {key[3]}",
                      sheet=sheet, cell=cell_of(df, row, "round"))


def number_problem(ev: CoreEvent, gid: str, rec: dict, sides: tuple[str, ...], df: pd.DataFrame,
                   row: int, sheet: str) -> InputError | None:
    """A number of the row (columns ``sides``) that is not in the group's draw → an error at its
    cell, in the roster layout's word for a number."""
    g = ev.reg.group(gid)
    drawn = set(ev.groups[gid].teams)
    zh, en = number_word(ev)
    for k in sides:
        v = rec.get(k)
        if v is None or (isinstance(v, float) and v != v):
            continue
        if _num(v) not in drawn:
            return InputError(f"{zh} {v} 不在本组抽签中（{ev.gname(g)}为 {_span(drawn)}）",
                              f"{en} {v} is not in this group's draw ({g.name_en or g.id})",
                              sheet=sheet, cell=cell_of(df, row, k))
    return None


def match_row_problem(ev: CoreEvent, key: tuple, rec: dict, drawn: dict[tuple, dict],
                      layout, df: pd.DataFrame, row: int, sheet: str) -> InputError:
    """The error for a typed row of ``layout`` (成绩, 逐局成绩 …) whose ``key`` names no drawn
    match, or whose numbers (``side0``/``side1``) are not the drawn match's at that table:
    the first reason of the module's list, at its cell."""
    bad = round_problem(ev, key, drawn, df, row, sheet) or \
        number_problem(ev, key[0], rec, ("side0", "side1"), df, row, sheet)
    if bad is not None:
        return bad
    a, b = _num(rec.get("side0")), _num(rec.get("side1"))
    rnd, table = key[3], key[4]
    here = drawn.get(key)
    same_round = [m for k, m in drawn.items() if k[:2] == key[:2] and k[3] == rnd]
    zh, en = number_word(ev)
    h0, h1 = side_headers(ev, layout)
    for side, v in (("side0", a), ("side1", b)):
        bye = next((m for m in same_round if v is not None and m["side1"] is None
                    and m["side0"] == v), None)
        if bye is not None:
            return InputError(f"{zh} {v} 第{rnd}轮轮空（按规程自动给分），无需录入成绩",
                              f"{en} {v} has the bye in round {rnd}: nothing to enter",
                              sheet=sheet, cell=cell_of(df, row, side))
    if a is not None and b is not None:
        for m in same_round:
            if (m["side0"], m["side1"]) == (b, a):
                return InputError(
                    f"“{h0}”与“{h1}”填反了：第{rnd}轮的对阵是 {b}（{h0}）对 {a}（{h1}）",
                    f"the two sides are swapped: round {rnd} is {b} v {a}",
                    sheet=sheet, cell=cell_of(df, row, "side0"))
        for m in same_round:
            if (m["side0"], m["side1"]) == (a, b):
                where = f"{m['pool']}组第{m['table']}桌" if m["pool"] else f"第{m['table']}桌"
                if str(m["pool"] or "") != str(key[2] or ""):  # the 小组 typed is not its pool
                    typed = f"{key[2]}组" if key[2] else "不填小组"
                    return InputError(f"第{rnd}轮 {a} 对 {b} 在对阵表的{where}，不是{typed}",
                                      f"round {rnd}: {a} v {b} is in pool {m['pool'] or '-'} "
                                      f"(table {m['table']}), not pool {key[2] or '-'}",
                                      sheet=sheet, cell=cell_of(df, row, "pool"))
                return InputError(f"第{rnd}轮 {a} 对 {b} 在对阵表的{where}，不是第{table}桌",
                                  f"round {rnd}: {a} v {b} is at table {m['table']}, not {table}",
                                  sheet=sheet, cell=cell_of(df, row, "table"))
        at = f"（第{table}桌为 {here['side0']} 对 {here['side1']}）" if here is not None else ""
        return InputError(f"对阵表中第{rnd}轮没有 {a}（{h0}）对 {b}（{h1}）的比赛{at}，请核对“对阵”表",
                          f"round {rnd} has no match {a} v {b} in the pairings",
                          sheet=sheet, cell=cell_of(df, row, "side0"))
    if here is not None:
        return InputError(f"{zh}与对阵表不符：对阵表为 {here['side0']} 对 {here['side1']}",
                          f"the numbers differ from the pairings ({here['side0']} v {here['side1']})",
                          sheet=sheet, cell=cell_of(df, row, "side0"))
    return InputError("成绩行对应的比赛不在对阵表中（组别、阶段、小组、轮次、桌号）",
                      "no drawn match has this group/stage/pool/round/table",
                      sheet=sheet, cell=cell_of(df, row, "table"))


def penalty_row_problem(ev: CoreEvent, key: tuple, rec: dict, m: dict | None,
                        drawn: dict[tuple, dict], df: pd.DataFrame, row: int,
                        sheet: str) -> InputError | None:
    """The error for a 罚分 row whose penalised number (``team``) did not play the match ``m``
    its key names (``None``: no such match): a round not drawn, a number not in the draw, a
    bye (nothing to penalise), or a number that is not at that table. ``None`` when it is."""
    team = _num(rec.get("team"))
    if m is not None and m["side1"] is not None and team in (m["side0"], m["side1"]):
        return None
    bad = round_problem(ev, key, drawn, df, row, sheet) or \
        number_problem(ev, key[0], rec, ("team",), df, row, sheet)
    if bad is not None:
        return bad
    zh, en = number_word(ev)
    if m is not None and m["side1"] is None and team == m["side0"]:
        return InputError(f"{zh} {team} 第{key[3]}轮轮空，不能罚分",
                          f"{en} {team} has the bye in round {key[3]}: nothing to penalise",
                          sheet=sheet, cell=cell_of(df, row, "round"))
    return InputError(f"罚分行的{zh} {'' if team is None else team} 不在该场比赛中（第{key[3]}轮第{key[4]}桌）",
                      f"the penalised {en} did not play this match", sheet=sheet,
                      cell=cell_of(df, row, "team"))


def scoring_typed_problems(ev: CoreEvent, g, s) -> list[InputError]:
    """The errors the stage's scoring finds in what was typed for it, before it scores
    (its declared hook ``typed_problems(matches, typed by match key)``, e.g. a guandan board's
    score outside the levels), each placed at its cell (a 逐局成绩 row's, else the match's)."""
    check = getattr(s.scoring, "typed_problems", None)
    if check is None:
        return []
    matches = ev.stage_matches(g, s)
    typed = {m.key: t for m in matches if (t := ev.typed.get((g.id, s.id, *m.key))) is not None}
    if not typed:
        return []
    from bianpai.engines.core import TypedMatch  # noqa: PLC0415
    empty = TypedMatch(games=pd.DataFrame(columns=["game"]))
    return [ev._placed(exc, empty) for exc in check(matches, typed)]


def prefilled_problems(ev: CoreEvent, m, typed, prefill) -> list[InputError]:
    """The per-match values of ``typed`` that the draw prefills (``prefill(m)``: the format's
    ``entry_prefill``, e.g. 几局胜 from the 规程's races, 十六（二）) against the drawn value: a
    cleared one is read as the drawn value (set in ``typed.totals``, the same each time);
    another value is an error at its cell (the match is then not scored)."""
    errs: list[InputError] = []
    for k, v in prefill(m).items():
        if k not in typed.totals or v is None:
            continue
        got = typed.totals.get(k)
        if is_na(got) or (isinstance(got, str) and not got.strip()):
            typed.totals[k] = v
            continue
        try:
            same = Decimal(str(got).strip()) == Decimal(str(v))
        except ArithmeticError:
            same = False
        if not same:
            sheet, _, cell = typed.cells.get(k, "").partition("!")
            col = next((c for c in ev.lay.results.columns if c.key == k), None)
            zh, en = (col.zh, col.en) if col is not None else (k, k)
            errs.append(InputError(
                f"第{m.round}轮{m.label or f'第{m.table}桌'}的“{zh}”应为 {v}（规程对本轮的规定，"
                f"抽签时已填入），实际为“{got}”：请改回 {v}；如规程有变，请修改“规程”表",
                f"round {m.round} {m.label or m.table}: {en} must be {v} (the regulation's "
                f"value for this round, written by the draw), not {got!r}",
                sheet=sheet or None, cell=cell or None))
    return errs
