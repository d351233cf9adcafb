"""The places the awards are given by, as the workbook holds them (总排名, or 排名 for a style
without 总排名) and as the results give them now: ``rank`` keeps the award sheets while the
first are unchanged, ``awards`` refuses when they are not the second (a result changed after
the last ``rank``)."""

from __future__ import annotations

import pandas as pd

from bianpai.addin.core_sheets import _source_group, core_final_standings, ranking_name
from bianpai.addin.core_views import shown_layout, style_of
from bianpai.engines.errors import InputError
from bianpai.templates.schema import Group
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort


def final_sheet_rows(ev, g: Group, fs: pd.DataFrame) -> list[tuple[str, list[list]]]:
    """(the ranking's title, its 总排名 rows: 组别, 名次, 号, 名, 单位, 名次来源, 说明) of each of
    group ``g``'s final rankings (``fs``: :func:`core_final_standings`)."""
    og = _source_group(ev, g)
    out = []
    for label in dict.fromkeys(fs["ranking"]):
        title = ranking_name(ev, g, label)
        part = fs[fs["ranking"].isna()] if label is None else fs[fs["ranking"] == label]
        out.append((title, [[title, rec["place"], rec["number"], ev.name_of(og, rec["number"]),
                             ev.unit_of(og, rec["number"]), rec["source"], rec["explanation"]]
                            for rec in part.to_dict("records")]))
    return out


def stale_ranking(port: WorkbookPort, ev) -> InputError | None:
    """An error when the places the awards are given by, as the sheets hold them, are not
    those of the results as typed now: a result changed after the last ``rank`` (奖励 would
    then contradict 总排名/排名). ``None`` while nothing is ranked yet or the places hold.
    With 总排名 (read back through the style's view): each entrant's place there against the
    final standings now; a style without 总排名: its 排名 (:func:`_award_places`) against the
    排名 rows ``rank`` would write now (:func:`_standings_grid`)."""
    if not _award_places(port, ev):
        return None
    if style_of(ev.reg).final_sheet:
        from bianpai.addin.core_views import read_core_sheet  # noqa: PLC0415
        from bianpai.workbooks.tables import records  # noqa: PLC0415
        df = read_core_sheet(port, ev.reg, K.FINAL, errors=[], required=False)
        grouped = bool(df["group"].notna().any()) if len(df) else False
        shown = {(rec["group"] if grouped else None, _text(rec["number"])): _text(rec["place"])
                 for _row, rec in records(df) if rec["number"] is not None}
        now = {(r[0] if grouped else None, _text(r[2])): _text(r[1])
               for g in ev.reg.groups if ev.groups[_source_group(ev, g).id].drawn
               and (fs := core_final_standings(ev, g)) is not None
               for _t, rows in final_sheet_rows(ev, g, fs) for r in rows}
        sheet = ev.sheet(K.FINAL)
    else:
        lay = shown_layout(ev.reg, ev.lay.standings)
        rows, fresh = _award_places(port, ev), _places_in(_standings_grid(ev), lay)
        if rows == fresh:
            return None
        i = next((i for i, (a, b) in enumerate(zip(rows, fresh)) if a != b),
                 min(len(rows), len(fresh)))
        was = "、".join(v for v in rows[i] if v) if i < len(rows) else "（无）"
        should = "、".join(v for v in fresh[i] if v) if i < len(fresh) else "（无）"
        return _stale(ev.sheet(ev.lay.standings), f"第{i + 2}行", was, should, i + 2)
    if shown == now:
        return None
    key = next((k for k in now if shown.get(k) != now[k]), None) or next(iter(shown))
    return _stale(sheet, f"{key[0] or ''}{key[1]}号的名次", shown.get(key) or "无",
                  now.get(key) or "无")


def _stale(sheet: str, what: str, was: str, should: str, row: int | None = None) -> InputError:
    return InputError(
        f"“{sheet}”不是当前成绩的排名（{what}：表中为“{was}”，按现在的成绩应为“{should}”）："
        f"成绩在上次“计算排名”后有改动，请先点“计算排名”，再奖励分配",
        f"{sheet} is not the ranking of the results as typed now ({what}: {was!r} there, "
        f"{should!r} now): a result changed after the last rank; run rank, then awards",
        sheet=sheet, cell=None if row is None else f"{row}:{row}")


def _text(v) -> str:
    return "" if v is None else str(v).removesuffix(".0")


def _place_key(row) -> tuple[str, ...]:
    """(组别, 名次, 号, 名, 单位) of one 总排名 row, as text (what an award is given by)."""
    return tuple("" if v is None else str(v).removesuffix(".0") for v in list(row)[:5])


#: the columns of a ranking sheet an award depends on (组别, 阶段, 小组, 名次, 号, 名, 单位)
PLACE_KEYS = ("group", "stage", "pool", "rank", "place", "number", "entrant", "name",
              "entrant_name", "unit")


def _award_places(port: WorkbookPort, ev) -> list[tuple[str, ...]]:
    """The places the awards are given by, as the workbook holds them now: the 总排名 rows
    (:func:`_place_key`), or — for a style that writes no 总排名 (``SheetSet.final_sheet``
    False) — the 排名 rows as the style shows them, in the columns of :data:`PLACE_KEYS`
    (组别, 名次, 序号, 选手, 单位 …). Empty when there is no such sheet. One rule for every
    style: ``rank`` keeps the award sheets while these are unchanged."""
    from bianpai.workbooks.tables import find_sheet  # noqa: PLC0415
    if style_of(ev.reg).final_sheet:
        name = find_sheet(port, K.FINAL)
        if name is None:
            return []
        return [_place_key(r) for r in port.read_values(name)[1:]
                if any(v not in (None, "") for v in r)]
    lay = shown_layout(ev.reg, ev.lay.standings)
    name = find_sheet(port, lay)
    if name is None:
        return []
    return _places_in(port.read_values(name), lay)


def _places_in(grid: list[list], lay) -> list[tuple[str, ...]]:
    """The :data:`PLACE_KEYS` columns of a ranking sheet's rows (header first) as text."""
    if not grid:
        return []
    titles = {t: c.key for c in lay.columns for t in (c.zh, c.en, c.key)}
    at = [i for i, h in enumerate(grid[0]) if titles.get(str(h or "").strip()) in PLACE_KEYS]
    return [tuple("" if r[i] is None else str(r[i]).removesuffix(".0")
                  for i in at if i < len(r)) for r in grid[1:]
            if any(v not in (None, "") for v in r)]


def _has_awards(port: WorkbookPort) -> bool:
    """Whether an award sheet (奖励, 领奖签收表, 证书) holds rows."""
    from bianpai.workbooks.tables import find_sheet  # noqa: PLC0415
    return any((n := find_sheet(port, lay)) is not None and len(port.read_values(n)) > 1
               for lay in (L.AWARDS, L.AWARD_RECEIPTS, L.CERTIFICATES))


def standing_rows_now(ev) -> tuple[list[list], list[dict]]:
    """(rows, extras) of 排名 for every entered stage of every drawn group, from the results as
    typed (:func:`bianpai.addin.core_sheets._standing_rows`, in the event's standings columns)."""
    from bianpai.addin.core_sheets import _standing_rows  # noqa: PLC0415
    crit_cols = [col.key[2:] for col in ev.lay.standings.columns if col.key.startswith("c_")]
    rows, extras = [], []
    for g in ev.reg.groups:
        if not ev.groups[_source_group(ev, g).id].drawn:
            continue
        for s in g.stages:
            if ev.entered(g, s):
                rows += _standing_rows(ev, g, s, crit_cols, None, extras)
    return rows, extras


def _standings_grid(ev) -> list[list]:
    """The 排名 sheet (header, then rows, as the style shows it) that ``rank`` would write from
    the results as typed now: every entered stage's standings (the lots of typed-number groups
    drawn with the seed ``rank`` logs by default)."""
    from bianpai.addin.core_numbers import seed_typed_groups  # noqa: PLC0415
    from bianpai.addin.core_results import _rank_seed  # noqa: PLC0415 - it imports this
    seed_typed_groups(ev, _rank_seed(ev, None))
    rows, extras = standing_rows_now(ev)
    v = style_of(ev.reg).view(ev.reg, ev.lay.standings.key)
    if v is None:
        return [ev.lay.standings.headers(ev.lang), *rows]
    extra = extras if len(extras) == len(rows) else None
    shown = v.shown(ev.lay.standings)
    return [shown.headers(ev.lang), *v.rows(ev.lay.standings, rows, ev.lang, extra),
            *v.below_rows(ev.lay.standings, rows, ev.lang, extra)]
