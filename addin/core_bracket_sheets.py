"""签表 and 签表图: every bracket stage's slots, round by round, and its single-elimination
bracket drawn in cells, rebuilt by each draw (and by rank, advance) from the brackets' tables
(:func:`bianpai.engines.bracket_sheet.bracket_table`). Part of the generated result sheets
(:mod:`bianpai.addin.core_sheets`).
"""

from __future__ import annotations

import pandas as pd

from bianpai.addin.competition import CoreEvent
from bianpai.engines.typed_rows import is_na
from bianpai.templates.schema import Group
from bianpai.workbooks.tables import find_sheet, row_dicts
from bianpai.workbooks.tables import number_cell as _score_cell


def bracket_stages(ev: CoreEvent):
    """``(group, stage, bracket_table)`` of every entered stage whose format draws a bracket."""
    for g in ev.reg.groups:
        if g.derived is not None or not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            table = getattr(s.format, "bracket_table", None)
            if table is not None and ev.entered(g, s):
                yield g, s, table(ev.state(g, s, with_standings=False))


def write_brackets(ev: CoreEvent, new: list | None = None) -> None:
    """Rebuild 签表 and 签表图 of every bracket stage (and the style's bracket sheet); ``new``: ``(group, stage, match)`` drawn
    by this press and not yet in ``ev``'s 对阵 (``draw`` refreshes the bracket with the round it
    drew, issue 12 "The knockout sheet is refreshed by draw"). A port that holds rewrites
    (``write_later``, :mod:`bianpai.workbooks.held_writes`) makes the two sheets' rewrite when
    they are next used or saved, from this event as it is now."""
    from bianpai.addin.core_frame_sheet import write_frame_sheet  # noqa: PLC0415
    from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
    hold = getattr(ev.port, "write_later", None)
    sheets = [find_sheet(ev.port, K.BRACKET), find_sheet(ev.port, K.bracket_grid_layout(1))]
    if hold is None or None in sheets or not hold(sheets, lambda: _with_drawn(
            ev, new, _write_bracket_sheets)):
        _with_drawn(ev, new, _write_bracket_sheets)
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    if style_of(ev.reg).bracket_sheet is not None:  # the style's own bracket sheet
        _with_drawn(ev, new, write_frame_sheet)


def _with_drawn(ev: CoreEvent, new: list | None, write) -> None:
    """``write(ev)`` with the matches ``new`` in ``ev``'s 对阵 for its duration."""
    kept = ev.schedule
    if new:
        added = pd.DataFrame([dict(group_id=g.id, stage_id=s.id, pool=m.pool, round=m.round,
                                   table=m.table, label=m.label, side0=m.sides[0],
                                   side1=m.sides[1] if len(m.sides) > 1 else None, row=None)
                              for g, s, m in new], dtype=object)
        both = added if kept is None or kept.empty else \
            pd.concat([kept.astype(object), added], ignore_index=True)
        ev.schedule = both.astype(object).where(both.notna(), None)
    try:
        write(ev)
    finally:
        ev.schedule = kept


def _write_bracket_sheets(ev: CoreEvent) -> None:
    """签表 and 签表图 from the event's brackets (each stage's bracket built once, its rows as
    dicts, for both sheets)."""
    from bianpai.addin import command_infra as c  # noqa: PLC0415
    from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
    stages = [(g, s, row_dicts(t)) for g, s, t in bracket_stages(ev)]
    score = K.FRAMES_LABEL if all(getattr(s.scoring, "kind", None) == "frames_race"
                                  for _, s, _ in stages) else K.SCORE_LABEL
    brackets = _bracket_rows(ev, stages)
    if brackets:
        c.write_generated(ev.port, K.bracket_layout(score), brackets, ev.lang,
                          break_on=(0, 1, 2))
    width, grid = _bracket_grid(ev, stages)
    if grid:
        c.write_generated(ev.port, K.bracket_grid_layout(width, score), grid, ev.lang,
                          break_on=(0, 1, 2))


def _bracket_rows(ev: CoreEvent, stages: list) -> list[list]:
    """Rows of 签表 for every entered stage whose format draws a bracket: one row per slot, in
    round and bracket order, names for numbers, 轮空 / 待定 placeholders. ``stages``:
    ``(group, stage, rows)``, the rows of each stage's ``bracket_table`` as dicts."""
    out = []
    for g, s, t in stages:
        # pool (as text), round, y, slot: a stable sort of the table's rows
        recs = sorted(t, key=lambda r: (str(r["pool"]), r["round"], r["y"], r["slot"]))
        for rec in recs:
            e = rec["entrant"]
            known = not is_na(e)
            out.append([ev.gname(g), ev.sname(s), rec["pool"],
                        rec["round_zh"] if ev.lang == "zh" else rec["round_en"], rec["label"],
                        int(e) if known else None,
                        ev.name_of(g, int(e)) if known else rec["text"], _score_cell(rec["score"]),
                        "✓" if rec["won"] else None, rec["next"] or None])
    return out


def _bracket_grid(ev: CoreEvent, stages: list) -> tuple[int, list[list]]:
    """(rounds, rows) of 签表图: every single-elimination bracket (parts SE, 3rd and PO of
    ``bracket_table``) drawn in cells, a block of rows per stage and pool (see
    :func:`bianpai.workbooks.core_layouts.bracket_grid_layout`). ``stages``: as
    :func:`_bracket_rows`."""
    blocks: list[list[list]] = []
    width = 0
    for g, s, t in stages:
        by_pool: dict[str, list[dict]] = {}
        for rec in t:
            if rec["part"] in ("SE", "3rd", "PO"):
                v = rec["pool"]
                by_pool.setdefault("" if v is None or v != v else str(v), []).append(rec)
        for pool in sorted(by_pool):
            sub = by_pool[pool]
            main = [r for r in sub if r["part"] == "SE"]
            rounds = sorted({r["bracket_round"] for r in main})
            col_of = {r: i for i, r in enumerate(rounds)}
            width = max(width, len(rounds))
            cells: dict[tuple[int, int], tuple[str, str]] = {}
            for rec in main:
                row = int(2 * rec["y"] - 1 + rec["slot"])
                cells[(row, col_of[rec["bracket_round"]])] = _grid_text(ev, g, rec)
            n_rows = max((r for r, _ in cells), default=-1) + 1
            # the third-place match and the place play-offs below the bracket, in order
            extra = sorted((r for r in sub if r["part"] in ("3rd", "PO")),
                           key=lambda r: (r["round"], r["part"], r["label"], r["slot"]))
            nodes: dict[str, list[dict]] = {}
            for rec in extra:
                nodes.setdefault(rec["label"], []).append(rec)
            for label, node in nodes.items():
                first = node[0]
                head = ("三、四名决赛" if ev.lang == "zh" else "Third place") \
                    if first["part"] == "3rd" else \
                    f"{first['round_zh'] if ev.lang == 'zh' else first['round_en']} {label}"
                cells[(n_rows + 1, 0)] = (head, "")
                for rec in node:
                    cells[(n_rows + 2 + rec["slot"], 0)] = _grid_text(ev, g, rec)
                n_rows += 4
            p = pool or None
            block = []
            for r in range(n_rows):
                row = [ev.gname(g), ev.sname(s), p]
                for c in range(len(rounds)):
                    name, score = cells.get((r, c), (None, None))
                    row += [name, score]
                block.append(row)
            blocks.append(block)
    return width, [[*r, *([None] * (3 + 2 * width - len(r)))] for b in blocks for r in b]


def _grid_text(ev: CoreEvent, g: Group, rec: dict) -> tuple[str, str | None]:
    e = rec["entrant"]
    known = not is_na(e)
    name = f"{int(e)} {ev.name_of(g, int(e))}" if known else rec["text"]
    return (("✓ " if rec["won"] else "") + name, _score_cell(rec["score"]))

