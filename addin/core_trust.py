"""Checks of a core workbook that protect what the event already depends on (issue 12, "Bad
input"): run by :func:`bianpai.addin.competition.load_core_event` after its readers, each adding
``InputError`` (sheet!cell) to ``ev.errors``; nothing here changes what the readers read.

* :func:`check_record_sheets` — once the event is drawn (bianpai's hidden copy of 抽签 exists),
  the sheets it depends on (抽签, 对阵) must be there: a deleted or renamed one is named as the
  first cause, and the follow-on errors it would cause on other sheets are dropped;
* :func:`check_roster_against_draw` — 报名 edited after the draw is matched to 抽签 by name (a
  re-sorted roster is fine: each drawn entrant reads its 报名 values from the row that now
  holds its name); an entrant of 抽签 missing from 报名, or an entrant of a drawn group
  that 抽签 does not know, is named with its cell;
* :func:`collapse_missing_columns` — messages without a column letter (a header deleted or
  renamed) become one error at the header row naming the missing columns;
* :func:`check_merged_cells` — a range merged over several rows of a typed sheet shows only its
  first value in every row (Excel keeps the top-left cell): refused with its range, except in
  the columns an organizer naturally merges down a list (组别, 阶段, 小组, 轮次, 桌号, 队名, 单位).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openpyxl.utils import get_column_letter

from bianpai.addin.core_records import RECORD_COPIES
from bianpai.engines.errors import InputError
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.tables import find_sheet
from bianpai.addin.core_views import shown_layout

if TYPE_CHECKING:
    from bianpai.addin.competition import CoreEvent

#: the hidden copy of 抽签 the draw writes (:data:`bianpai.addin.core_records.RECORD_COPIES`)
DRAW_COPY = RECORD_COPIES["draw"]
#: columns whose value repeats down a list, so a merged range over them loses nothing
MERGEABLE = {"group", "stage", "pool", "round", "table", "team", "unit", "role", "note", "label"}


def check_record_sheets(ev: CoreEvent) -> None:
    """After the draw (the hidden copy of 抽签, or for a style without record copies the other
    of the two sheets with rows), 抽签 and 对阵 must exist (Chinese or English names) with
    their required columns. A missing one is one error naming the sheet, a missing column one
    error at its header row (the first cause); the errors about 对阵, 成绩, 逐局成绩 and 罚分 it
    causes (every team "not in the draw") are dropped."""
    names = ev.port.sheet_names()
    shown = [shown_layout(ev.reg, lay) for lay in (K.DRAW, K.SCHEDULE)]
    missing = [lay for lay in shown if find_sheet(ev.port, lay) is None]
    # a sheet there whose header lost a required column (named at its header row) is not read
    # either: its rows would make every match or team "not in the draw"
    headless = [e for e in ev.errors if getattr(e, "cell", None) == "1:1"
                and e.sheet in {find_sheet(ev.port, lay) for lay in shown if lay not in missing}]
    if not missing and not headless:
        return
    # drawn: the hidden copy, or (a style without record copies) the other sheet has rows
    kept = [find_sheet(ev.port, lay) for lay in shown if lay not in missing]
    if DRAW_COPY not in names and not any(len(ev.port.read_values(n) or []) > 1 for n in kept):
        return
    follow = {find_sheet(ev.port, lay) or lay.zh for lay in (
        shown_layout(ev.reg, k) for k in (K.SCHEDULE, ev.lay.results, ev.lay.games, K.PENALTIES,
                                          K.ENTRIES))}
    ev.errors[:] = [e for e in ev.errors
                    if getattr(e, "sheet", None) not in follow or e in headless]
    for lay in missing:
        ev.errors.insert(0, InputError(
            f"缺少“{lay.zh}”工作表：本赛事已抽签，此表由命令生成，是编排和成绩的依据（被删除或改名？"
            f"请撤销 bianpai undo，或把工作表名改回“{lay.zh}”）",
            f"sheet {lay.en!r} ({lay.zh}) is missing: the event is drawn and depends on it "
            f"(deleted or renamed? undo, or rename it back)", sheet=lay.zh))


def check_roster_against_draw(ev: CoreEvent) -> None:
    """Every drawn entrant of a group is still in 报名 under the name it was drawn with (any
    row: a re-sorted roster is fine), and every 报名 entrant of a drawn group was drawn.
    Errors name the 报名 cell (the row the entrant was drawn from, or the new row)."""
    r = ev.roster
    if r is None or "group_id" not in r.columns or not len(r):
        return
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    col = r.attrs.get("columns", {}).get("team" if ev.people is not None else "name") \
        or r.attrs.get("columns", {}).get("name", "?")
    for g in ev.reg.groups:
        gs = ev.groups.get(g.id)
        if gs is None or not gs.drawn or not g.stages:
            continue
        mine = r[r["group_id"] == g.id]
        names = {str(v).strip(): row for row, v in mine["name"].items() if v is not None}
        drawn: dict[str, tuple] = {}
        for n, t in sorted(gs.teams.items()):
            if t["name"] is not None:
                drawn.setdefault(_entry_name(g, str(t["name"]).strip()), []).append((n, t))
        for name, parts in list(drawn.items()):
            if name in names:
                # a re-sorted roster: the entrant's 报名 values (种子, 等级分 …) are read from
                # the row that now holds the drawn name
                for _n, t in parts:
                    t["roster_row"] = names[name]
                continue
            fixed = _corrected(ev, g, mine, name, parts, names, drawn)
            if fixed is not None:  # a typo fixed in its row: the entrant keeps its number
                new, row = fixed
                for n, t in parts:
                    t["name"] = new
                    if "unit" in r.columns:
                        t["unit"] = r.at[row, "unit"]
                    ev.corrections.append((
                        f"报名更正：{ev.gname(g)} {n} 号“{name}”改为“{new}”（报名表第{row}行）",
                        f"roster correction: {g.name_en or g.id} {n} {name!r} is now {new!r} (row {row})"))
                drawn[new] = drawn.pop(name)
                continue
            n, t = parts[0]
            row = t.get("roster_row")
            name_col = r.attrs.get("columns", {}).get("name", col) if g.entrant == "individual" \
                else col
            ev.errors.append(InputError(
                f"{ev.gname(g)}抽签中的 {n} 号“{name}”在报名表中找不到（报名表在抽签后被改名、删除或合并）："
                "改正笔误只改本行的一个字即可（记入日志）；换人请用退赛与递补，或撤销并重新抽签",
                f"{g.name_en or g.id}: drawn entrant {n} {name!r} is no longer on the roster "
                "(renamed, deleted or merged after the draw); a typo is fixed by one character "
                "in its row; another person is a withdrawal and its replacement, or undo and redraw",
                sheet=sheet, cell=f"{name_col}{row}" if row else None))
        # a format taking late entries (``admit_late``, addin.core_late) numbers a new 报名 row
        # at the next draw, while its first stage runs: not a contradiction of the draw
        late_ok = (getattr(g.stages[0].format, "admit_late", None) is not None
                   and g.sub_entrants is None
                   and not (len(g.stages) > 1 and ev.entered(g, g.stages[1])))
        for name, row in names.items():
            if name not in drawn and not late_ok:
                name_col = r.attrs.get("columns", {}).get("name", col) \
                    if g.entrant == "individual" else col
                ev.errors.append(InputError(
                    f"{ev.gname(g)}已抽签，但报名表中的“{name}”不在抽签中（抽签后新增或改名）："
                    f"{ev.sname(g.stages[0])}的赛制不接受迟到报名（补报）；如需加入请撤销并重新抽签，否则删除此行",
                    f"{g.name_en or g.id} is drawn but {name!r} is not in the draw (added or renamed "
                    "after the draw) and its format takes no late entries; undo and redraw, or delete the row",
                    sheet=sheet, cell=f"{name_col}{row}"))


def _corrected(ev: CoreEvent, g, mine, name: str, parts, names: dict, drawn: dict
               ) -> tuple[str, int] | None:
    """(the corrected name, its 报名 row) when the drawn entrant ``name``'s own roster row
    (抽签's 报名表行) now holds another name that is no other drawn entrant's and keeps one of
    its parts (``RosterLayout.name_parts``: 选手1/选手2 with one player retyped) or, for a
    name of one part (a player, a team), is a typo fixed: one character changed, added or
    dropped (徐勇 → 徐永; a trial user could not correct it after the draw). Else ``None``
    (the entrant is missing: refused; another person is a 退赛 and its 递补)."""
    from bianpai.workbooks.roster_layouts import roster_layout  # noqa: PLC0415
    rl = roster_layout(ev.reg.roster_layout)
    if len(parts) != 1:
        return None
    row = parts[0][1].get("roster_row")
    try:
        row = int(row)
    except (TypeError, ValueError):
        return None
    if row not in mine.index:
        return None
    new = mine.at[row, "name"]
    new = None if new is None else str(new).strip()
    if not new or new in drawn or names.get(new) != row:
        return None
    if not rl.name_parts:
        return (new, row) if len(name) >= 2 and _one_edit(name, new) else None
    typed = {str(mine.at[row, k]).strip() for k in rl.name_parts
             if k in mine.columns and mine.at[row, k] is not None}
    if not typed & set(name.split(rl.name_sep)):
        return None
    return new, row


def _one_edit(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one character changed, added or dropped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _entry_name(g, name: str) -> str:
    """The 报名 entry of a drawn name: with ``sub_entrants`` the draw names each part
    ``队名（南北）``; the entry is ``队名``."""
    sub = g.sub_entrants
    if sub is not None:
        for j in range(len(sub.labels)):
            suffix = f"（{sub.name(j)}）"
            if name.endswith(suffix):
                return name[:-len(suffix)]
    return name


def check_merged_cells(ev: CoreEvent, layouts=None) -> None:
    """A range merged over two or more rows of a typed sheet (报名, 队员, 成绩, 逐局成绩, 罚分)
    in a column that is not a list key (:data:`MERGEABLE`) is an error naming the range: Excel
    kept only its first value, which would be read for every row. Ports without merged-range
    information (a live workbook) are not checked here."""
    merged = getattr(ev.port, "merged_ranges", None)
    if merged is None:
        return
    from bianpai.workbooks.roster_layouts import roster_layout
    lays = layouts or [*(shown_layout(ev.reg, lay) for lay in (ev.lay.results, ev.lay.games,
                                                               K.PENALTIES)),
                       *roster_layout(ev.reg.roster_layout).sheets]  # as the style shows them
    for lay in lays:
        name = find_sheet(ev.port, lay)
        if name is None:
            continue
        ranges = merged(name)
        if not ranges:
            continue
        header = [str(v).strip() if v is not None else "" for v in (ev.port.read_values(name) or [[]])[0]]
        key_at = {}
        for c in lay.columns:
            for title in (c.zh, c.en, c.key):
                if title in header:
                    key_at[header.index(title) + 1] = c
                    break
        for (r0, c0, r1, c1) in ranges:
            if r1 <= r0 or r0 < 2:
                continue
            cols = [key_at.get(c) for c in range(c0, c1 + 1)]
            bad = [c for c in cols if c is not None and c.key not in MERGEABLE]
            if not bad:
                continue
            addr = f"{get_column_letter(c0)}{r0}:{get_column_letter(c1)}{r1}"
            ev.errors.append(InputError(
                f"“{name}”表 {addr} 合并了单元格（{bad[0].zh}）：合并后只保留第一个值，其余各行的"
                "值已丢失；请取消合并并逐行填写",
                f"{addr} of {name} is merged over several rows ({bad[0].en}): only its first value "
                "is kept; unmerge and type each row", sheet=name, cell=addr))


def collapse_missing_columns(ev: CoreEvent) -> None:
    """A message whose cell has no column letter (``抽签!?2``) comes from a column missing on
    its sheet (a header deleted or renamed). All such messages of one sheet become one error at
    its header row naming the missing headers: the first cause, with a usable address."""
    from bianpai.workbooks import layouts as L
    from bianpai.workbooks import team_layouts as T
    blind = [e for e in ev.errors if str(getattr(e, "cell", "") or "").startswith("?")]
    if not blind:
        return
    lays = [L.ROSTER_PEOPLE if ev.people is not None else K.ROSTER, T.TEAM_PLAYERS,
            *(shown_layout(ev.reg, lay) for lay in (K.DRAW, K.SCHEDULE, K.ENTRIES, K.WITHDRAWALS,
                                                    K.PENALTIES, ev.lay.results, ev.lay.games))]
    by_sheet = {find_sheet(ev.port, lay): lay for lay in lays if find_sheet(ev.port, lay)}
    done: set[str] = set()
    first = []
    for e in blind:
        if e.sheet in done:
            continue
        done.add(e.sheet)
        lay = by_sheet.get(e.sheet)
        header = [str(v).strip() if v is not None else ""
                  for v in ((ev.port.read_values(e.sheet) or [[]])[0] if lay else [])]
        missing = [c for c in (lay.columns if lay else [])
                   if not any(t in header for t in (c.zh, c.en, c.key, *c.aliases))]
        zh = "、".join(f"“{c.zh}”" for c in missing) or "某一列"
        en = ", ".join(repr(c.en) for c in missing) or "a column"
        first.append(InputError(
            f"“{e.sheet}”表缺少{zh}列（第1行应为表头；表头被删除或改名？）——例如：{e.zh}",
            f"sheet {e.sheet!r} has no column {en} (row 1 must be the header) — e.g. {e.en}",
            sheet=e.sheet, cell="1:1"))
    ev.errors[:] = first + [e for e in ev.errors if e not in blind]


def check_what_the_event_depends_on(ev: CoreEvent) -> None:
    """The checks of a loaded event (issue 12), into ``ev.errors``: 报名 against 抽签, merged
    cells over typed values, the record sheets, one error per missing column."""
    check_roster_against_draw(ev)
    check_merged_cells(ev)
    check_record_sheets(ev)
    collapse_missing_columns(ev)


def bracket_conflicts(ev: CoreEvent, stages: list | None = None) -> list[InputError]:
    """A knockout match drawn from an earlier match's result (the winner goes on, in a double
    elimination the loser too) whose sides no longer hold that result's winner or loser: the
    earlier result was changed after the draw. Places, awards and the next draw would follow
    the new result through a match that was played by others, so each is an error at the
    changed result's cell: undo the later draw first (or restore the result). A hand edit of
    a drawn match that no result contradicts stays the arbiter's (engines.elimination).
    ``stages``: (group, stage) pairs to look at (default: every one)."""
    errs: list[InputError] = []
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if stages is not None and (g, s) not in stages:
                continue
            if not hasattr(s.format, "resolution") or not ev.entered(g, s):
                continue
            st = ev.state(g, s, with_standings=False)
            for pool in st.pools():
                for nd, src, v in s.format.resolution(st, pool).conflicts:
                    m, won = src.match, src.winner
                    drawn = next(x for x in st.matches if x.pool == pool and x.label == nd.id)
                    typed = ev.typed.get((g.id, s.id, *m.key))
                    # the typed cell of the result: its 逐局成绩 row when typed game by game
                    where = "" if typed is None or not typed.where else (
                        typed.where[-1] if typed.game_records() else typed.where[0])
                    sheet, _, cell = where.partition("!")
                    a, b = (f"{x}号" if x is not None else "轮空" for x in drawn.sides)
                    goes = "晋级" if v == won else "负者进入该场"
                    pool_zh = "" if pool is None else f"{pool}组"
                    should = (f"按此成绩{v}号{ev.name_of(g, v)}已在第{m.round}轮出局，不应在该场"
                              if v in drawn.sides else  # a redrawn round: drawn on though out
                              f"按此成绩应由{v}号{ev.name_of(g, v)}{goes}")
                    errs.append(InputError(
                        f"{ev.sname(s)}{pool_zh}第{m.round}轮{m.label or m.table}的成绩（{won}号胜）"
                        f"与已编排的第{nd.round}轮{nd.id}（{a} 对 {b}）不符：{should}。若是改正成绩，"
                        f"请先撤销第{nd.round}轮的编排（撤销/undo）再改；否则请改回原成绩",
                        f"the result of {m.label or m.table} (round {m.round}: {won} won) "
                        f"disagrees with {nd.id} drawn from it ({' v '.join(map(str, drawn.sides))}):"
                        f" by this result {v} {'is out' if v in drawn.sides else 'plays there'}. "
                        f"To correct the result, undo the later draw first; else restore the result",
                        sheet=sheet or None, cell=cell or None))
    return errs


def stale_qualifiers(ev: CoreEvent) -> list[InputError]:
    """A later stage's entrants (晋级, taken by 进入下一阶段) that the source stage's results no
    longer give: a result of the finished stage was changed after the advance (a trial user
    corrected a pool result; 晋级 still listed the team it had put through, and the draws went
    on). Each entrant that no longer qualifies is an error at its 晋级 row, naming who the
    places give now: undo the advance (and what followed) to correct the result, or restore
    it. A source stage that is no longer finished (a result emptied) is not compared, nor a
    stage taking entrants while its source runs (the losers of a knockout round), from the
    roster (seeded players) or with replacements (their own checks hold those)."""
    from bianpai.addin.core_advance import _qualifiers  # noqa: PLC0415
    df = ev.entries
    if df is None or df.empty:
        return []
    errs: list[InputError] = []
    sheet = ev.sheet(K.ENTRIES)
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages[1:]:
            mine = df[(df["group_id"] == g.id) & (df["stage_id"] == s.id)
                      & df["from_stage_id"].notna()]
            rules = s.entrants if isinstance(s.entrants, list) else []
            if mine.empty or any(r.losers_of is not None or not r.from_stage for r in rules) \
                    or any(k[:2] == (g.id, s.id) for k in ev.replacements):
                continue  # entrants taken while a stage runs, from the roster, or replaced
            rows, waiting = _qualifiers(ev, g, s, 0)
            if waiting:
                continue
            now = {r["number"] for r in rows if r["from_stage"] is not None}
            taken = {int(n) for n in mine["number"]}
            instead = sorted(now - taken)
            for idx, n in zip(mine.index, mine["number"]):
                if int(n) in now:
                    continue
                cell = _entry_cell(ev, g, s, int(n))
                src = g.stage(mine.at[idx, "from_stage_id"])
                who = "、".join(f"{x}号{ev.name_of(g, x)}" for x in instead) or "其他参赛者"
                errs.append(InputError(
                    f"{ev.sname(src)}的成绩在“进入下一阶段”之后改动过：按现在的名次，{int(n)}号"
                    f"{ev.name_of(g, int(n))}不再进入{ev.sname(s)}，应为{who}。若是改正成绩，请先撤销"
                    f"“进入下一阶段”及其后的编排（撤销/undo）再改；否则请改回原成绩",
                    f"a result of {src.name_en or src.name_zh} changed after the advance: by the "
                    f"places now, {int(n)} no longer enters {s.name_en or s.name_zh} "
                    f"({', '.join(map(str, instead)) or 'another entrant'} does). To correct the "
                    f"result, undo the advance (and what followed) first; else restore it",
                    sheet=sheet, cell=cell))
    return errs


def _entry_cell(ev: CoreEvent, g, s, number: int) -> str | None:
    """The 队号 cell of ``number``'s 晋级 row in stage ``s`` (read again: only when said)."""
    from bianpai.addin.core_views import read_core_sheet  # noqa: PLC0415
    from bianpai.workbooks.tables import cell_of, records  # noqa: PLC0415
    d = read_core_sheet(ev.port, ev.reg, K.ENTRIES, errors=[])
    for row, rec in records(d):
        if rec["number"] is not None and int(rec["number"]) == number \
                and ev.group_of(rec["group"]) is g and ev.stage_of(g, rec["stage"]) is s:
            return cell_of(d, row, "number")
    return None
