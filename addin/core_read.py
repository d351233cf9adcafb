"""Reading a competition-core workbook's match sheets into a :class:`CoreEvent` (the roster side
— entrants, 组别, members, 退赛 — is :mod:`bianpai.addin.core_roster`).

Each reader validates its sheet (every bad cell an ``InputError`` with sheet!cell, collected in
``ev.errors``) and stores plain values on the event: 抽签 and 晋级 (checked against the hidden
copies their commands wrote), 对阵 (the record, hand edits included), and the typed 成绩 /
逐局成绩 / 罚分 as one ``TypedMatch`` per match.
Used by :func:`bianpai.addin.competition.load_core_event` only.
"""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from bianpai.engines.typed_rows import canonical_decision, is_na
from bianpai.engines.core import TypedMatch
from bianpai.addin.core_records import RECORD_COPIES, check_record, saved_record  # noqa: F401
from bianpai.addin.core_row_checks import match_row_problem, penalty_row_problem
from bianpai.addin.core_unused import UnusedCells
from bianpai.engines.penalty_check import penalty_amount
from bianpai.engines.errors import InputError
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.roster_layouts import TYPED_NUMBERS_SEED, roster_layout
from bianpai.addin.core_views import has_core_sheet, read_core_sheet, shown_layout
from bianpai.workbooks import layouts as L
from bianpai.workbooks.tables import RowCells, SharedRows, SheetsMemo, cell_of, find_sheet
from bianpai.workbooks.tables import records as _all_records

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the event type, for annotations only (the event module imports this one)
    from bianpai.addin.competition import CoreEvent


def records(df: pd.DataFrame):
    """Rows of a read sheet, without those whose cells were already reported as bad (their
    blanks would only cause follow-on errors)."""
    bad = df.attrs.get("bad_rows", set())
    for row, rec in _all_records(df):
        if row not in bad:
            yield row, rec




# RECORD_COPIES: the hidden copies of the record sheets a command generated (抽签, 晋级), or
# document properties of the same name (bianpai.addin.core_records): a hand edit of a fact the
# event depends on is refused with its cell instead of being trusted or re-drawn
DRAW_KEYS = ["group", "number", "name", "pool", "position", "roster_row", "seed", "join_round"]
ENTRY_KEYS = ["group", "stage", "number", "pool", "position", "from_stage", "from_pool",
              "from_place", "carry", "join_round", "seed"]


def _record_memo(ev: CoreEvent, layouts: list, name: str) -> SheetsMemo:
    """A memo for what the event read takes from the record sheets ``layouts`` (抽签, 晋级): kept
    while each sheet as the workbook shows it, its hidden copy and the 规程 are unchanged. A
    record kept as a document property (a style without copies; trusted by what 日志 says)
    is read every time."""
    sheets = [find_sheet(ev.port, L.SETTINGS)]
    names = ev.port.sheet_names()
    for layout in layouts:
        sheets.append(find_sheet(ev.port, shown_layout(ev.reg, layout)))
        copy = RECORD_COPIES.get(layout.key)  # (对阵 has no record)
        if copy is not None:
            sheets.append(copy if copy in names else None)
    return SheetsMemo(ev.port, sheets, name)


def _read_draw(ev: CoreEvent) -> None:
    """抽签 into each group's ``teams`` and ``seed`` (read once while 抽签, its record and the
    规程 are unchanged: :func:`_record_memo`)."""
    if not has_core_sheet(ev.port, ev.reg, K.DRAW):
        return
    memo = _record_memo(ev, [K.DRAW], "core_draw")
    hit = memo.get()
    if hit is not None:
        teams, seeds, found = hit
        for gid, drawn in teams.items():
            ev.groups[gid].teams.update({n: dict(t) for n, t in drawn.items()})
        for gid, seed in seeds.items():
            ev.groups[gid].seed = seed
        ev.errors.extend(found)
        return
    start = len(ev.errors)
    _read_draw_sheet(ev)
    memo.put(({gid: {n: dict(t) for n, t in gs.teams.items()} for gid, gs in ev.groups.items()},
              {gid: gs.seed for gid, gs in ev.groups.items() if gs.seed is not None},
              ev.errors[start:]))


def _read_draw_sheet(ev: CoreEvent) -> None:
    d = read_core_sheet(ev.port, ev.reg, K.DRAW, errors=ev.errors)
    check_record(ev, K.DRAW, d, DRAW_KEYS)
    sheet = d.attrs.get("sheet", K.DRAW.zh)
    typed_seed = roster_layout(ev.reg.roster_layout).typed_seed  # numbers typed, no lot
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        if g is None or rec["number"] is None:
            continue
        gs = ev.groups[g.id]
        n = int(rec["number"])
        if n in gs.teams:
            ev.errors.append(InputError(f"抽签表中{ev.gname(g)}队号 {n} 重复",
                                        f"team number {n} repeated in the draw",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        gs.teams[n] = dict(name=rec["name"], unit=rec["unit"], roster_row=rec["roster_row"],
                           pool=rec["pool"], position=rec["position"],
                           join_round=rec.get("join_round"))
        if gs.seed is None and rec["seed"] not in (None, "", TYPED_NUMBERS_SEED, typed_seed):
            try:
                gs.seed = int(str(rec["seed"]).strip())
            except ValueError:
                ev.errors.append(InputError(f"随机种子应为整数：“{rec['seed']}”",
                                            f"the seed must be a whole number: {rec['seed']!r}",
                                            sheet=sheet, cell=cell_of(d, row, "seed")))


def _read_schedule(ev: CoreEvent) -> pd.DataFrame:
    cols = ["group_id", "stage_id", "pool", "round", "table", "label", "side0", "side1", "row"]
    if not has_core_sheet(ev.port, ev.reg, K.SCHEDULE):
        return pd.DataFrame(columns=cols)
    # 对阵 is checked against the draw: read once while both (and the 规程) are unchanged
    memo = _record_memo(ev, [K.SCHEDULE, K.DRAW], "core_schedule")
    return _memoized_frame(ev, memo, "schedule_records", lambda: _schedule_frame(ev, cols))


def _memoized_frame(ev: CoreEvent, memo: SheetsMemo, records_name: str, read) -> pd.DataFrame:
    """``read()``'s frame and the errors it found, from ``memo`` while its sheets are
    unchanged (a copy of the frame; its records, which are shared read-only, with it)."""
    hit = memo.get()
    if hit is None:
        start = len(ev.errors)
        df = read()
        built = ev._results_cache.get(records_name)
        rows = built[1] if built is not None and built[0] is df else df.to_dict("records")
        memo.put((df, rows, ev.errors[start:]))
        return df
    df, rows, found = hit
    ev.errors.extend(found)
    df = df.copy()
    ev._results_cache[records_name] = (df, rows)
    return df


def _schedule_frame(ev: CoreEvent, cols: list[str]) -> pd.DataFrame:
    d = read_core_sheet(ev.port, ev.reg, K.SCHEDULE, errors=ev.errors)
    sheet = d.attrs.get("sheet", K.SCHEDULE.zh)
    out = []
    seen: dict[tuple, int] = {}
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        if g is None:
            ev.errors.append(InputError(f"对阵表组别“{rec['group']}”未知", f"unknown group {rec['group']!r}",
                                        sheet=sheet, cell=cell_of(d, row, "group")))
            continue
        s = ev.stage_of(g, rec["stage"])
        if s is None:
            ev.errors.append(InputError(f"对阵表阶段“{rec['stage']}”未知", f"unknown stage {rec['stage']!r}",
                                        sheet=sheet, cell=cell_of(d, row, "stage")))
            continue
        teams = ev.groups[g.id].teams
        for k in ("side0", "side1"):
            v = rec[k]
            if v is not None and int(v) not in teams:
                ev.errors.append(InputError(f"队号 {v} 不在{ev.gname(g)}的抽签中",
                                            f"team {v} is not in the draw of {g.name_en or g.id}",
                                            sheet=sheet, cell=cell_of(d, row, k)))
        key = (g.id, s.id, rec["pool"], rec["round"], rec["table"])
        if key in seen:
            ev.errors.append(InputError(f"对阵表中同一桌出现两次（另见第{seen[key]}行）",
                                        f"the same table appears twice (see row {seen[key]})",
                                        sheet=sheet, cell=cell_of(d, row, "table")))
            continue
        seen[key] = row
        out.append(dict(group_id=g.id, stage_id=s.id, pool=rec["pool"], round=rec["round"],
                        table=rec["table"], label=rec["label"], side0=rec["side0"],
                        side1=rec["side1"], row=row))
    _check_rounds(ev, out, sheet, d)
    return _frame(out, cols, ev, "schedule_records")


def _check_rounds(ev: CoreEvent, rows: list[dict], sheet: str, d: pd.DataFrame) -> None:
    """An arbiter may edit 对阵 by hand; every entrant still plays at most once per round."""
    seen: dict[tuple, int] = {}
    for r in rows:
        for k in ("side0", "side1"):
            if r[k] is None:
                continue
            key = (r["group_id"], r["stage_id"], r["round"], int(r[k]))
            if key in seen:
                ev.errors.append(InputError(
                    f"第{r['round']}轮 {r[k]}号 出现两次（另见第{seen[key]}行）：每轮每队只能出场一次",
                    f"team {r[k]} appears twice in round {r['round']} (see row {seen[key]})",
                    sheet=sheet, cell=cell_of(d, r["row"], k)))
            else:
                seen[key] = r["row"]
    _check_rematches(ev, rows, sheet, d)


def _check_rematches(ev: CoreEvent, rows: list[dict], sheet: str, d: pd.DataFrame) -> None:
    """A hand edit of 对阵 may not pair two entrants more often than the stage's format allows
    (its ``max_meetings`` declaration, e.g. a Swiss: once, FIDE C.04.1 b); the later meeting
    is refused at its cell. Formats without the declaration are not checked."""
    limit = {(g.id, s.id): getattr(s.format, "max_meetings", None)
             for g in ev.reg.groups for s in g.stages}
    met: dict[tuple, list[dict]] = {}
    for r in sorted(rows, key=lambda r: (r["round"] or 0, r["row"])):
        most = limit.get((r["group_id"], r["stage_id"]))
        if most is None or r["side0"] is None or r["side1"] is None:
            continue
        a, b = sorted((int(r["side0"]), int(r["side1"])))
        before = met.setdefault((r["group_id"], r["stage_id"], a, b), [])
        if len(before) >= most:
            first = before[0]
            ev.errors.append(InputError(
                f"第{r['round']}轮 {a}号 对 {b}号 是重复对阵（第{first['round']}轮已相遇，见第{first['row']}行）："
                f"本阶段赛制不允许双方再次相遇",
                f"round {r['round']}: {a} v {b} is a rematch (they met in round {first['round']}, "
                f"row {first['row']}); this stage's format pairs them once",
                sheet=sheet, cell=cell_of(d, r["row"], "side1")))
        before.append(r)


def _read_entries(ev: CoreEvent) -> pd.DataFrame:
    cols = ["group_id", "stage_id", "number", "pool", "position", "from_stage_id", "from_pool",
            "from_place", "carry", "join_round", "seed"]
    if not has_core_sheet(ev.port, ev.reg, K.ENTRIES):
        return pd.DataFrame(columns=cols)
    memo = _record_memo(ev, [K.ENTRIES], "core_entries")
    return _memoized_frame(ev, memo, "entry_records", lambda: _entries_frame(ev, cols))


def _entries_frame(ev: CoreEvent, cols: list[str]) -> pd.DataFrame:
    d = read_core_sheet(ev.port, ev.reg, K.ENTRIES, errors=ev.errors)
    check_record(ev, K.ENTRIES, d, ENTRY_KEYS)
    sheet = d.attrs.get("sheet", K.ENTRIES.zh)
    out = []
    count: dict[tuple, int] = {}  # a view without 序号: the rows' order in their stage and pool
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        s = ev.stage_of(g, rec["stage"]) if g else None
        if g is None or s is None or rec["number"] is None:
            ev.errors.append(InputError("晋级表的组别、阶段或队号无法识别（此表由“进入下一阶段”生成，请勿改动）",
                                        "unreadable qualifier row (written by advance; do not edit)",
                                        sheet=sheet, cell=cell_of(d, row, "stage")))
            continue
        src = ev.stage_of(g, rec["from_stage"])
        at = count[(g.id, s.id, rec["pool"])] = count.get((g.id, s.id, rec["pool"]), 0) + 1
        out.append(dict(group_id=g.id, stage_id=s.id, number=int(rec["number"]), pool=rec["pool"],
                        position=at if rec["position"] is None else rec["position"],
                        from_stage_id=src.id if src else None,
                        from_pool=rec["from_pool"], from_place=rec["from_place"],
                        carry=rec["carry"], join_round=rec["join_round"], seed=rec["seed"]))
    return _frame(out, cols, ev, "entry_records")


def _frame(rows: list[dict], cols: list[str], ev: CoreEvent | None = None,
           memo: str | None = None) -> pd.DataFrame:
    """A DataFrame of record dicts, every column ``object``: the values as read (a whole number
    stays an ``int`` beside an empty cell instead of becoming a float beside NaN) and an
    empty cell ``None`` (keys such as an empty pool must compare equal). ``memo``: the name
    under which ``ev``'s readers look for the frame's ``to_dict("records")``
    (:meth:`CoreEvent.schedule_records`, :meth:`CoreEvent.entry_records`): the rows it was
    made from, which are those records."""
    df = pd.DataFrame(rows, columns=cols, dtype=object)
    if any(v is not None and is_na(v) for r in rows for v in r.values()):  # None instead
        df = df.where(pd.notna(df), None)
        rows = df.to_dict("records")
    if memo is not None:
        ev._results_cache[memo] = (df, rows)
    return df


def _match_key(ev: CoreEvent, rec: dict, df: pd.DataFrame, row: int, sheet: str):
    g = ev.group_of(rec["group"])
    if g is None:
        ev.errors.append(InputError(f"未知组别“{rec['group']}”", f"unknown group {rec['group']!r}",
                                    sheet=sheet, cell=cell_of(df, row, "group")))
        return None
    s = ev.stage_of(g, rec["stage"])
    if s is None:
        ev.errors.append(InputError(f"未知阶段“{rec['stage']}”，应为："
                                    + "、".join(x.name_zh for x in g.stages),
                                    f"unknown stage {rec['stage']!r}",
                                    sheet=sheet, cell=cell_of(df, row, "stage")))
        return None
    return (g.id, s.id, rec["pool"], rec["round"], rec["table"])


def _all_columns(ev: CoreEvent, layout, df: pd.DataFrame) -> None:
    """A typed sheet that exists must have every column of its layout: a renamed or deleted
    header would silently drop what is typed under it (a result, a 判定). A sheet shown
    through a style's view must have the view's columns that are read back (its required ones
    are checked on reading, the others listed by the view as ``attrs["absent"]``)."""
    if "sheet" not in df.attrs:
        return
    if df.attrs.get("view"):
        missing = list(df.attrs.get("absent", ()))
    else:
        have = df.attrs.get("columns", {})
        missing = [(c.zh, c.en) for c in layout.columns if c.key not in have and not c.required]
    if missing:  # rows read without that column only cause follow-on errors (成绩!?9)
        df.attrs["bad_rows"] = SharedRows(set(df.attrs.get("bad_rows", set())) | set(df.index))
    for zh, en in missing:
        ev.errors.append(InputError(
            f"“{df.attrs['sheet']}”表缺少“{zh}”列（第1行应为表头；表头被改名或删除）",
            f"sheet {df.attrs['sheet']!r} has no column {en!r} (row 1 must be the header)",
            sheet=df.attrs["sheet"], cell="1:1"))


def _unused(ev: CoreEvent, key, rec: dict, keys: list[str], layout, df, row: int, sheet: str,
            game: bool) -> bool:
    """Report values of this row that the match's scoring does not read (another group's
    column, half a pair); True when any was reported (the row is then not used)."""
    g = ev.reg.group(key[0])
    # the scoring's declared columns against this sheet's, prepared once per stage and sheet
    memo = ev._results_cache.setdefault("declared_columns", {})
    check = memo.get((key[0], key[1], game, layout.key))
    if check is None:
        sc = g.stage(key[1]).scoring
        check = memo[(key[0], key[1], game, layout.key)] = UnusedCells(
            sc.entry_game_columns() if game else sc.entry_match_columns(), layout.columns)
    errs = check({k: rec.get(k) for k in keys}, lambda k: cell_of(df, row, k), sheet,
                 ev.gname(g))
    ev.errors.extend(errs)
    return bool(errs)


def _read_typed(ev: CoreEvent) -> None:
    """成绩 (per match), 逐局成绩 (per game) and 罚分 into :class:`TypedMatch` per match key;
    every row must name a drawn match, and each match is typed at one level only. Read once
    while those sheets, 对阵, 抽签 (and its copy), 报名 and the 规程 are unchanged: a command
    reads its event before and after writing its generated sheets."""
    names = ev.port.sheet_names()
    deps = [find_sheet(ev.port, L.SETTINGS),
            find_sheet(ev.port, roster_layout(ev.reg.roster_layout).table)]
    for layout in (ev.lay.results, ev.lay.games, K.PENALTIES, K.SCHEDULE, K.DRAW):
        deps.append(find_sheet(ev.port, shown_layout(ev.reg, layout)))
    if RECORD_COPIES.get(K.DRAW.key) in names:
        deps.append(RECORD_COPIES[K.DRAW.key])
    # a sheet the workbook lacks is left out: one added later changes the list, so no hit
    memo = SheetsMemo(ev.port, [d for d in deps if d is not None] if deps[0] else [None],
                      "core_typed")
    hit = memo.get()
    if hit is not None:
        typed, game_cols, found = hit
        ev.typed.update(typed)
        ev.game_cols = dict(game_cols)
        ev.errors.extend(found)
        return
    start = len(ev.errors)
    _read_typed_sheets(ev)
    memo.put((dict(ev.typed), dict(ev.game_cols), ev.errors[start:]))


def _read_typed_sheets(ev: CoreEvent) -> None:
    drawn: dict[tuple, dict] = {}
    if ev.schedule is not None:
        for r in ev.schedule_records():
            drawn[(r["group_id"], r["stage_id"], r["pool"], r["round"], r["table"])] = r
    needed = bool(drawn)  # once matches are drawn, the entry sheets and all their columns
    # through the workbook style's views when it shows these sheets in its own columns
    res_df = read_core_sheet(ev.port, ev.reg, ev.lay.results, required=needed, errors=ev.errors)
    games_df = read_core_sheet(ev.port, ev.reg, ev.lay.games, required=needed, errors=ev.errors)
    pen_df = read_core_sheet(ev.port, ev.reg, K.PENALTIES, required=False, errors=ev.errors)
    for layout, df in ((ev.lay.results, res_df), (ev.lay.games, games_df), (K.PENALTIES, pen_df)):
        _all_columns(ev, layout, df)
    ev.game_cols = dict(games_df.attrs.get("columns", {}))
    rsheet = res_df.attrs.get("sheet", ev.lay.results.zh)
    gsheet = games_df.attrs.get("sheet", ev.lay.games.zh)
    psheet = pen_df.attrs.get("sheet", K.PENALTIES.zh)
    value_keys = [c.key for c in ev.lay.results.columns
                  if c.key not in {k.key for k in K.KEY_COLUMNS} | {"side0", "side1", "decision",
                                                                       "note"}]
    cell_keys = [*value_keys, "decision"]  # a typed row's cells, named when asked
    game_keys = [c.key for c in ev.lay.games.columns if c.key not in
                 {k.key for k in K.KEY_COLUMNS} | {"game"}]
    totals: dict[tuple, tuple[dict, str | None, str]] = {}
    extras: dict[tuple, dict] = {}  # 加赛 rows by match key: extra_<value key> → value
    cells: dict[tuple, dict[str, str]] = {}
    # values the draw writes (几局胜 …) do not make a row "typed"
    prefilled = {c.key for g in ev.reg.groups for s in g.stages
                 for c in s.scoring.entry_match_columns() if getattr(c, "prefill", False)}
    for row, rec in records(res_df):
        key = _match_key(ev, rec, res_df, row, rsheet)
        if key is None:
            continue
        m = drawn.get(key)
        if m is None or (rec["side0"], rec["side1"]) != (m["side0"], m["side1"]):
            ev.errors.append(match_row_problem(ev, key, rec, drawn, ev.lay.results, res_df, row,
                                               rsheet))
            continue
        if rec.get("extra_row"):  # a style's 加赛 row: the extra boards of a tied match
            extras[key] = {f"extra_{k}": rec.get(k) for k in value_keys}
            continue
        if key in totals:
            first = totals[key][2].partition("!")[2]
            ev.errors.append(InputError(
                f"同一场比赛的成绩重复录入（另见 {first}）",
                f"the same match is entered twice (see {first})", sheet=rsheet,
                cell=cell_of(res_df, row, value_keys[0] if value_keys else "table")))
            continue
        bad = _unused(ev, key, rec, value_keys, ev.lay.results, res_df, row, rsheet, game=False)
        if bad:
            continue
        totals[key] = ({k: rec.get(k) for k in value_keys}, rec["decision"],
                       f"{rsheet}!{cell_of(res_df, row, value_keys[0] if value_keys else 'decision')}")
        cells[key] = RowCells(rsheet, res_df, row, cell_keys)
    games: dict[tuple, list[dict]] = {}
    where_g: dict[tuple, str] = {}
    for row, rec in records(games_df):
        key = _match_key(ev, rec, games_df, row, gsheet)
        if key is None:
            continue
        if key not in drawn:
            ev.errors.append(match_row_problem(ev, key, rec, drawn, ev.lay.games, games_df, row,
                                               gsheet))
            continue
        if _earlier_pairing(ev, rec, drawn[key], games_df, row, gsheet, game_keys) or \
                _unused(ev, key, rec, game_keys, ev.lay.games, games_df, row, gsheet, game=True):
            continue
        games.setdefault(key, []).append({"game": rec["game"], **{k: rec.get(k) for k in game_keys},
                                          "_row": row})
        where_g.setdefault(key, f"{gsheet}!{cell_of(games_df, row, game_keys[0] if game_keys else 'game')}")
    pens: dict[tuple, list[tuple[int, str, Decimal]]] = {}
    for row, rec in records(pen_df):
        key = _match_key(ev, rec, pen_df, row, psheet)
        if key is None:
            continue
        if rec["table"] is None:  # a sheet naming the penalised entrant only: where it played
            key = next((k for k, m in drawn.items() if k[:2] == key[:2] and k[3] == key[3]
                        and rec["team"] is not None and rec["team"] in (m["side0"], m["side1"])),
                       key)
        m = drawn.get(key)
        bad = penalty_row_problem(ev, key, rec, m, drawn, pen_df, row, psheet)
        if bad is not None:
            ev.errors.append(bad)
            continue
        side = 0 if rec["team"] == m["side0"] else 1
        amount, bad = penalty_amount(  # 规程's size; a blank amount from the named offence
            ev.reg.group(key[0]).stage(key[1]).scoring, rec["reason"], rec["points"],
            sheet=psheet, cells={k: cell_of(pen_df, row, k) for k in ("points", "reason")})
        if bad is not None:
            ev.errors.append(bad)
            continue
        pens.setdefault(key, []).append((side, rec["reason"] or "", amount))
    for key in set(totals) | set(games) | set(pens):
        vals, decision, where_t = totals.get(key, ({}, None, ""))
        rows = games.get(key, [])
        has_totals = any(v is not None for k, v in vals.items() if k not in prefilled)
        has_games = any(not is_na(v) for r in rows for k, v in r.items()
                        if k not in ("game", "_row"))
        # a scoring that reads both checks they agree (bridge IMPs typed and from the boards)
        if has_totals and has_games and not getattr(
                ev.reg.group(key[0]).stage(key[1]).scoring, "totals_with_games", False):
            head = ev.port.read_values(gsheet)[:1] if gsheet else []
            per = "逐副" if any(h in ("牌号", "副号") for h in (head[0] if head else [])) else "逐局"
            ev.errors.append(InputError(
                f"同一场比赛既在“{rsheet}”表录入了总成绩，又在“{gsheet}”表{per}录入（{where_g.get(key, '')}）："
                f"只能二选一，请只保留一种",
                f"a match is entered both in {rsheet} and game by game in {gsheet}; keep one",
                sheet=rsheet, cell=where_t.split("!")[-1]))
            continue
        if decision is not None:  # 甲方弃权 on a game whose codes say 先手弃权
            decision = canonical_decision(
                ev.reg.group(key[0]).stage(key[1]).scoring.entry_decisions(), decision)
        # the rows as dicts: the per-match frame is built only if a scoring reads ``games``
        ev.typed[key] = TypedMatch.from_rows(
            rows, totals={**vals, **extras.get(key, {})} if has_totals else {}, decision=decision,
            penalties=tuple(pens.get(key, ())), cells=cells.get(key, {}),
            where=tuple(w for w in (where_t, where_g.get(key, "")) if w))


def _earlier_pairing(ev: CoreEvent, rec: dict, m: dict, df: pd.DataFrame, row: int, sheet: str,
                     value_keys: list[str]) -> bool:
    """True when a game row that names its sides (a style's view shows them on every row) names
    other sides than the drawn match at its table: a row of an earlier pairing, left aside when
    blank, an error when typed (the hand edit of 对阵 came after results were typed)."""
    if rec.get("side0") is None and rec.get("side1") is None:
        return False
    if (rec.get("side0"), rec.get("side1")) == (m["side0"], m["side1"]):
        return False
    if any(rec.get(k) is not None for k in value_keys):
        ev.errors.append(InputError(
            f"此行的队号与对阵表不符：对阵表第{m['round']}轮第{m['table']}桌为 {m['side0']} 对 {m['side1']}",
            f"the numbers differ from the pairings ({m['side0']} v {m['side1']})",
            sheet=sheet, cell=cell_of(df, row, "side0")))
    return True


def _games_frame(rows: list[dict]) -> pd.DataFrame:
    """One match's game rows as a frame in game order (what ``pd.DataFrame(rows)
    .sort_values("game")`` gives, index included: the rows' positions as typed); an empty game
    number sorts last. The reader keeps the rows (:meth:`TypedMatch.from_rows`) and builds this
    frame only when a scoring asks for ``games``."""
    return TypedMatch.from_rows(rows).games
