"""Results of a pairs round robin workbook: 成绩 (per board), 轮成绩 (per table, typed
percentages and forfeits) and 罚分 validated against the draw and scored per pair and round
(:func:`bianpai.engines.guandan.round_results`).

Every bad cell is collected as ``InputError`` with its sheet!cell; typed percentages that do not
add up are warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import pandas as pd

from bianpai.addin.event import Event, GroupEntries, read_draw
from bianpai.addin.pairs_draw import group_schedule
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.guandan import round_results
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import cell_of, read_table, records

@dataclass
class GroupResults:
    group_id: str
    entries: GroupEntries
    results: pd.DataFrame
    missing: list[str]
    rounds: int
    disqualified: dict = field(default_factory=dict)  # entrant -> round of disqualification
    warnings: list[str] = field(default_factory=list)  # typed results that look wrong (sheet!cell)


def collect_results(port: WorkbookPort, ev: Event, *, upto_round: int | None = None
                    ) -> dict[str, GroupResults]:
    """Validate 成绩/轮成绩/罚分 against the draw and compute every pair's rounds.

    Raises ``InputErrors`` for results naming an unknown pair or round, a pairing that is not in
    the schedule, a board entered twice, or a board outside the round's boards.
    """
    groups = read_draw(port, ev)
    if not groups:
        raise InputErrors([InputError("尚未抽签编排，请先运行“抽签编排”", "no draw yet; run draw first",
                                      sheet=L.DRAW.zh)])
    errs = ev.errors
    boards = read_table(port, L.BOARDS, required=False, errors=errs)
    typed = read_table(port, L.ROUND_SCORES, required=False, errors=errs)
    pens = read_table(port, L.PENALTIES, required=False, errors=errs)
    out: dict[str, GroupResults] = {}
    frames = {}
    for name, df in (("boards", boards), ("typed", typed), ("pens", pens)):
        sheet = df.attrs.get("sheet", "")
        gids = []
        for row, g in df["group"].items():
            grp = ev.group_of(g, sheet=sheet, cell=cell_of(df, row, "group")) if g else None
            gids.append(grp.id if grp else None)
        df = df.copy()
        df["group_id"] = gids
        frames[name] = df
    for gid, ge in groups.items():
        g = ge.group
        stage = g.stages[0]
        warnings: list[str] = []
        sched = group_schedule(port, ev, ge, errs)
        n_rounds = int(sched["round"].max())
        if upto_round is not None and not 1 <= upto_round <= n_rounds:
            errs.append(InputError(f"--round 应为 1–{n_rounds}（{g.name_zh}共 {n_rounds} 轮），实际为 {upto_round}",
                                   f"--round must be 1–{n_rounds} for {g.name_en or g.id}; got {upto_round}"))
            continue
        b = stage.format.boards_per_round
        real = sched.dropna(subset=["away"])
        pairings = {(int(m.round), int(m.home), int(m.away)) for m in real.itertuples()}
        byes = {(int(m.round), int(m.home)) for m in sched[sched["away"].isna()].itertuples()}
        ctx = _Ctx(numbers=set(ge.entries["number"]), pairings=pairings, byes=byes,
                   n_rounds=n_rounds)
        allowed = set(stage.scoring.board_score_values or [])
        # --- 成绩: one row per board --------------------------------------------------------
        bd = frames["boards"][frames["boards"]["group_id"] == gid]
        sheet_b = boards.attrs.get("sheet", L.BOARDS.zh)
        seen: dict = {}
        keep = []
        for row, rec in records(bd):
            if rec["ns_score"] is None and rec["code"] is None:
                continue  # a blank entry row (written by draw) not yet filled
            bad = _check_pairing(rec, row, bd, sheet_b, ctx)
            if bad:
                errs.append(bad)
                continue
            if rec["board"] is None:
                errs.append(InputError("“牌号”不能为空", "Board must not be empty", sheet=sheet_b,
                                       cell=cell_of(bd, row, "board")))
                continue
            lo, hi = (rec["round"] - 1) * b + 1, rec["round"] * b
            if not lo <= rec["board"] <= hi:
                errs.append(InputError(f"第{rec['round']}轮的牌号应为 {lo}–{hi}，实际为 {rec['board']}",
                                       f"boards of round {rec['round']} are {lo}–{hi}; got {rec['board']}",
                                       sheet=sheet_b, cell=cell_of(bd, row, "board")))
                continue
            if rec["ns_score"] is not None and rec["code"] is not None:
                errs.append(InputError("同一副牌不能既填“南北得分”又填人工成绩“代码”，请只保留一个",
                                       "a board has both a score and an artificial code; keep one",
                                       sheet=sheet_b, cell=cell_of(bd, row, "code")))
                continue
            if rec["ns_score"] is not None and allowed and rec["ns_score"] not in allowed:
                vals = "、".join(f"{v:+d}" for v in sorted(allowed))
                errs.append(InputError(f"“南北得分”应为 {vals} 之一（南北方本副升级数，东西赢为负），实际为 {rec['ns_score']}",
                                       f"NS score must be one of {sorted(allowed)}; got {rec['ns_score']}",
                                       sheet=sheet_b, cell=cell_of(bd, row, "ns_score")))
                continue
            key = (rec["round"], rec["board"], rec["ns"])
            if key in seen:
                errs.append(InputError(f"第{rec['round']}轮第{rec['board']}副 {rec['ns']}号对的成绩重复录入"
                                       f"（另见第{seen[key]}行）",
                                       f"board {rec['board']} of round {rec['round']} for pair {rec['ns']} "
                                       f"entered twice (see row {seen[key]})",
                                       sheet=sheet_b, cell=cell_of(bd, row, "ns_score")))
                continue
            seen[key] = row
            keep.append(row)
        board_df = bd.loc[keep, ["round", "table", "board", "ns", "ew", "ns_score", "code"]].copy()
        board_tables = {(r, n, e): row for row, (r, n, e) in
                        zip(board_df.index, zip(board_df["round"], board_df["ns"], board_df["ew"]))}
        # --- 轮成绩: a round's % typed directly (electronic scoring), forfeits ---------------
        tp = frames["typed"][frames["typed"]["group_id"] == gid]
        sheet_t = typed.attrs.get("sheet", L.ROUND_SCORES.zh)
        tkeep = []
        tseen: dict = {}
        for row, rec in records(tp):
            status = L.STATUS_CODES.get(str(rec["status"] or "").lower(), "")
            if rec["ns_pct"] is None and rec["ew_pct"] is None and not status:
                continue
            bad = _check_pairing(rec, row, tp, sheet_t, ctx)
            if bad:
                errs.append(bad)
                continue
            key = (rec["round"], rec["ns"], rec["ew"])
            if key in tseen:
                errs.append(InputError(f"第{rec['round']}轮 {rec['ns']}-{rec['ew']} 的比赛分重复录入（另见第{tseen[key]}行）",
                                       f"round {rec['round']} {rec['ns']}-{rec['ew']} entered twice (see row {tseen[key]})",
                                       sheet=sheet_t, cell=cell_of(tp, row, "ns_pct")))
                continue
            tseen[key] = row
            if key in board_tables:
                errs.append(InputError(f"第{rec['round']}轮 {rec['ns']}-{rec['ew']} 已在“成绩”表逐副录入（第{board_tables[key]}行起），"
                                       f"不能同时在此填写比赛分；请只保留一种",
                                       f"round {rec['round']} {rec['ns']}-{rec['ew']} has board results in Boards too; keep one",
                                       sheet=sheet_t, cell=cell_of(tp, row, "ns_pct")))
                continue
            if status and (rec["ns_pct"] is not None or rec["ew_pct"] is not None):
                errs.append(InputError("判定为弃权时不填比赛分（按规程给分），请清空比赛分或把判定改为“正常”",
                                       "a forfeit takes no percentages (the regulation scores it); clear them",
                                       sheet=sheet_t, cell=cell_of(tp, row, "ns_pct")))
                continue
            if not status:
                pcts = [rec["ns_pct"], rec["ew_pct"]]
                if None in pcts:
                    col = "ns_pct" if rec["ns_pct"] is None else "ew_pct"
                    errs.append(InputError("南北、东西比赛分须都填写", "both percentages are needed",
                                           sheet=sheet_t, cell=cell_of(tp, row, col)))
                    continue
                if sum(pcts) > 100 + Decimal("0.01"):
                    errs.append(InputError(f"双方比赛分之和 {sum(pcts)} 超过 100（罚分只会使和小于 100）",
                                           f"the two percentages add up to {sum(pcts)}, more than 100",
                                           sheet=sheet_t, cell=cell_of(tp, row, "ew_pct")))
                    continue
            tkeep.append(row)
        typed_df = tp.loc[tkeep].copy()
        typed_df["status"] = [L.STATUS_CODES.get(str(x or "").lower(), "") if x else ""
                              for x in typed_df["status"]]
        # --- 罚分 ---------------------------------------------------------------------------
        pn = frames["pens"][frames["pens"]["group_id"] == gid]
        sheet_p = pens.attrs.get("sheet", L.PENALTIES.zh)
        pen_rows = []
        dq: dict[int, int] = {}
        for row, rec in records(pn):
            if rec["entrant"] not in ctx.numbers:
                errs.append(InputError(f"序号 {rec['entrant']} 不在{g.name_zh}的抽签中",
                                       f"number {rec['entrant']} is not in the draw of {g.name_en or g.id}",
                                       sheet=sheet_p, cell=cell_of(pn, row, "entrant")))
                continue
            if not 1 <= rec["round"] <= n_rounds:
                errs.append(InputError(f"轮次应为 1–{n_rounds}，实际为 {rec['round']}",
                                       f"round must be 1–{n_rounds}; got {rec['round']}",
                                       sheet=sheet_p, cell=cell_of(pn, row, "round")))
                continue
            if (rec["round"], rec["entrant"]) in byes:
                errs.append(InputError(f"{rec['entrant']}号第{rec['round']}轮轮空，不能罚分",
                                       f"pair {rec['entrant']} has the bye in round {rec['round']}",
                                       sheet=sheet_p, cell=cell_of(pn, row, "round")))
                continue
            pct = _penalty_pct(rec, stage.scoring, sheet_p, pn, row, errs)
            if pct is None:
                continue
            pen_rows.append({"round": rec["round"], "entrant": rec["entrant"], "pct_of_top": pct})
            late = {"迟到一轮": 1, "迟到两轮": 2}.get(rec["kind"])
            if late:
                # 十一（四）4/5: whole rounds late → forfeit of the round / disqualification, by
                # the settings lateness.rounds_forfeit / rounds_disqualify (default 1 / 2)
                lat = stage.scoring.lateness
                rf = lat.rounds_forfeit if lat and lat.rounds_forfeit is not None else 1
                rd = lat.rounds_disqualify if lat and lat.rounds_disqualify is not None else 2
                if late >= rd:  # disqualified; forfeits from here on
                    dq[rec["entrant"]] = min(dq.get(rec["entrant"], rec["round"]), rec["round"])
                elif late >= rf:
                    typed_df = _forfeit_for_lateness(typed_df, sched, rec)
        for e, from_round in dq.items():
            for r in range(from_round, n_rounds + 1):
                if (r, e) not in byes:
                    typed_df = _forfeit_for_lateness(typed_df, sched, {"round": r, "entrant": e})
        pen_df = pd.DataFrame(pen_rows, columns=["round", "entrant", "pct_of_top"])
        warnings += _typed_pct_warnings(tp.loc[tkeep], pen_df, sheet_t, g.name_zh)
        # --- which board tables count: a round is scored once all its board tables are in ----
        complete_boards = []
        missing = []
        typed_keys = set(zip(typed_df["round"], typed_df["ns"], typed_df["ew"])) if len(typed_df) else set()
        for rnd, rsched in real.groupby("round"):
            tables = [(int(rnd), int(m.home), int(m.away)) for m in rsched.itertuples()]
            by_board = [t for t in tables if t not in typed_keys]
            if not by_board:
                continue
            got = {t: board_df[(board_df["round"] == t[0]) & (board_df["ns"] == t[1])] for t in by_board}
            if len(by_board) == 1 and len(got[by_board[0]]):
                t = by_board[0]
                errs.append(InputError(
                    f"第{rnd}轮只有一桌（{t[1]}-{t[2]}）按逐副成绩录入，无法与其他桌比较计算比赛分；"
                    f"请在“轮成绩”表直接填写该桌双方比赛分",
                    f"round {rnd} has a single table with board results ({t[1]}-{t[2]}); matchpoints need "
                    f"two or more tables: type that table's percentages in Round scores",
                    sheet=sheet_b, cell=cell_of(board_df, board_tables[t], "ns_score")))
                continue
            short = [(t, b - len(got[t])) for t in by_board if len(got[t]) < b]
            if short:
                if any(len(got[t]) for t in by_board):
                    missing += [f"第{rnd}轮 {t[1]}-{t[2]} 缺 {k} 副" for t, k in short]
                continue
            complete_boards += [got[t] for t in by_board]
        bdf = pd.concat(complete_boards) if complete_boards else pd.DataFrame(
            columns=["round", "table", "board", "ns", "ew", "ns_score", "code"])
        if len(bdf):
            bdf = bdf.astype({"round": int, "board": int, "ns": int, "ew": int})
            bdf["ns_score"] = [float(x) if x is not None else float("nan") for x in bdf["ns_score"]]
        sched_use = sched if upto_round is None else sched[sched["round"] <= upto_round]
        res = round_results(sched_use, bdf, stage.scoring,
                            typed=_typed_frame(typed_df), penalties=pen_df)
        # a round counts once something of it was entered: byes (and forfeits generated for a
        # disqualified pair) of rounds not yet played must not score in a mid-event standing
        entered = set(int(r) for r in bdf["round"]) | {int(r) for r in tp.loc[tkeep, "round"]} \
            | {int(r["round"]) for r in pen_rows if r["round"] is not None} | set(dq.values())
        if len(res):
            later = ~res["round"].isin(entered)
            res.loc[later, "complete"] = False
        done = res.groupby("round")["complete"].all() if len(res) else pd.Series(dtype=bool)
        for rnd, ok in done.items():
            if not ok:
                n_miss = int((~res[(res["round"] == rnd)]["complete"]).sum() // 2)
                missing.append(f"第{rnd}轮缺 {n_miss} 桌")
        out[gid] = GroupResults(gid, ge, res, missing, n_rounds, disqualified=dq,
                                warnings=warnings)
    if errs:
        raise InputErrors(errs)
    return out


def _typed_frame(df: pd.DataFrame) -> pd.DataFrame:
    cols = ["round", "ns", "ew", "ns_pct", "ew_pct", "status", "ns_level_diff"]
    return df[cols].reset_index(drop=True) if len(df) else pd.DataFrame(columns=cols)


def _typed_pct_warnings(tp: pd.DataFrame, pens: pd.DataFrame, sheet: str, gname: str) -> list[str]:
    """Typed round percentages that do not add up, where no 罚分 explains it: a table's NS + EW
    ≠ 100, and a round whose NS percentages do not average 50 (e.g. both tables of a two-table
    field at NS 52). Warnings, not errors (an electronic scorer may round); each names its cells."""
    out: list[str] = []
    penalised = {(int(r), int(e)) for r, e in zip(pens["round"], pens["entrant"])}
    cols = tp.attrs.get("columns", {})
    ok_rows = []
    for row, rec in records(tp):
        if rec["ns_pct"] is None or rec["ew_pct"] is None or rec["status"]:
            continue
        pen = (rec["round"], rec["ns"]) in penalised or (rec["round"], rec["ew"]) in penalised
        total = rec["ns_pct"] + rec["ew_pct"]
        if not pen and abs(total - 100) > Decimal("0.02"):
            out.append(f"{sheet}!{cols.get('ns_pct', '?')}{row}:{cols.get('ew_pct', '?')}{row} "
                       f"{gname}第{rec['round']}轮 {rec['ns']}-{rec['ew']} 比赛分之和 {total}（≠100，"
                       f"且无罚分记录）")
        if not pen:
            ok_rows.append((row, rec))
    by_round: dict = {}
    for row, rec in ok_rows:
        by_round.setdefault(rec["round"], []).append((row, rec))
    for rnd, items in by_round.items():
        if len(items) < 2:
            continue
        mean = sum(rec["ns_pct"] for _, rec in items) / len(items)
        if abs(mean - 50) > Decimal("0.05"):
            cells = "、".join(f"{cols.get('ns_pct', '?')}{row}" for row, _ in items)
            out.append(f"{sheet}!{cells} {gname}第{rnd}轮各桌南北比赛分平均为 {mean:.2f}（同一轮南北方"
                       f"互相比较，应平均 50）")
    return out


def _forfeit_for_lateness(typed_df, sched, rec):
    m = sched[(sched["round"] == rec["round"]) & ((sched["home"] == rec["entrant"]) |
                                                  (sched["away"] == rec["entrant"]))]
    if m.empty or pd.isna(m["away"].iloc[0]):
        return typed_df
    home, away = int(m["home"].iloc[0]), int(m["away"].iloc[0])
    status = "ns_forfeit" if home == rec["entrant"] else "ew_forfeit"
    if len(typed_df):
        same = (typed_df["round"] == rec["round"]) & (typed_df["ns"] == home)
        typed_df = typed_df[~same]
    row = pd.DataFrame([{"round": rec["round"], "ns": home, "ew": away, "ns_pct": None,
                         "ew_pct": None, "status": status, "ns_level_diff": None}])
    return pd.concat([typed_df, row], ignore_index=True) if len(typed_df) else row


def _penalty_pct(rec, scoring, sheet, df, row, errs) -> Decimal | None:
    kind = rec["kind"] or "直接"
    for col in ("minutes", "pct_of_top"):
        if rec[col] is not None and rec[col] < 0:
            errs.append(InputError("罚分与分钟数不能为负数", "penalties and minutes cannot be negative",
                                   sheet=sheet, cell=cell_of(df, row, col)))
            return None
    if kind in ("超时", "迟到") and rec["pct_of_top"] is not None:
        errs.append(InputError(f"“{kind}”按规程罚则由分钟数计算罚分；请清空“罚分(%顶分)”，或把类别改为“直接”",
                               f"{kind} penalties come from the minutes by the regulation's ladder; "
                               f"clear the % or use kind 直接", sheet=sheet, cell=cell_of(df, row, "pct_of_top")))
        return None
    if kind == "直接" and rec["minutes"] is not None:
        errs.append(InputError("“直接”罚分只填“罚分(%顶分)”，不填分钟", "a direct penalty takes no minutes",
                               sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None
    if kind == "直接" and rec["pct_of_top"] is not None and \
            rec["pct_of_top"] > 100 * scoring.boards_per_round:
        errs.append(InputError(f"罚分 {rec['pct_of_top']}% 顶分超过整轮 {scoring.boards_per_round} 副牌的顶分",
                               f"a penalty of {rec['pct_of_top']}% of a top exceeds the whole round",
                               sheet=sheet, cell=cell_of(df, row, "pct_of_top")))
        return None
    if kind == "直接":
        if rec["pct_of_top"] is None:
            errs.append(InputError("直接罚分须填写“罚分(%顶分)”", "a direct penalty needs its % of top",
                                   sheet=sheet, cell=cell_of(df, row, "pct_of_top")))
            return None
        return rec["pct_of_top"]
    if kind in ("迟到一轮", "迟到两轮"):
        return Decimal(0)
    ladder = scoring.overtime if kind == "超时" else scoring.lateness
    if kind == "迟到" and rec["minutes"] is not None and scoring.round_minutes and \
            rec["minutes"] >= scoring.round_minutes:
        errs.append(InputError(f"迟到 {rec['minutes']} 分钟已达一轮（{scoring.round_minutes} 分钟），"
                               f"请按类别“迟到一轮”录入（判该轮弃权）",
                               f"{rec['minutes']} minutes late is a whole round: use kind 迟到一轮 (forfeit)",
                               sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None
    if ladder is None or rec["minutes"] is None:
        errs.append(InputError(f"“{kind}”须填写分钟数", f"{kind} needs the minutes",
                               sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None
    try:
        return ladder.apply(rec["minutes"]).pct_of_top
    except RuleError as exc:
        errs.append(InputError(exc.zh, exc.en, sheet=sheet, cell=cell_of(df, row, "minutes")))
        return None


@dataclass
class _Ctx:
    numbers: set
    pairings: set
    byes: set
    n_rounds: int


def _check_pairing(rec, row, df, sheet, ctx: _Ctx) -> InputError | None:
    """The round, NS and EW of a result row name a scheduled match (sheet!cell if not)."""
    n_rounds, numbers = ctx.n_rounds, ctx.numbers
    if rec["round"] is None or not 1 <= rec["round"] <= n_rounds:
        return InputError(f"轮次应为 1–{n_rounds}，实际为 {rec['round'] if rec['round'] is not None else '空'}",
                          f"round must be 1–{n_rounds}; got {rec['round']}",
                          sheet=sheet, cell=cell_of(df, row, "round"))
    for side, other in (("ns", "ew"), ("ew", "ns")):
        if rec[side] is None:
            o = rec[other]
            if (rec["round"], o) in ctx.byes:
                return InputError(f"{o}号第{rec['round']}轮轮空（按规程自动给分），无需录入成绩",
                                  f"pair {o} has the bye in round {rec['round']}: nothing to enter",
                                  sheet=sheet, cell=cell_of(df, row, other))
            return InputError(f"“{'南北序号' if side == 'ns' else '东西序号'}”不能为空",
                              f"{side.upper()} number must not be empty", sheet=sheet,
                              cell=cell_of(df, row, side))
        if rec[side] not in numbers:
            return InputError(f"序号 {rec[side]} 不在本组抽签中（应为 {min(numbers)}–{max(numbers)}）",
                              f"pair {rec[side]} is not in this group's draw",
                              sheet=sheet, cell=cell_of(df, row, side))
    if (rec["round"], rec["ns"], rec["ew"]) not in ctx.pairings:
        if (rec["round"], rec["ew"], rec["ns"]) in ctx.pairings:
            return InputError(f"南北与东西填反了：第{rec['round']}轮的对阵是 {rec['ew']}（南北）对 {rec['ns']}（东西）",
                              f"NS and EW are swapped: round {rec['round']} is {rec['ew']} (NS) v {rec['ns']} (EW)",
                              sheet=sheet, cell=cell_of(df, row, "ns"))
        return InputError(f"第{rec['round']}轮没有 {rec['ns']}（南北）对 {rec['ew']}（东西）的对阵，请核对“对阵”表",
                          f"round {rec['round']} has no match {rec['ns']} (NS) v {rec['ew']} (EW); see Pairings",
                          sheet=sheet, cell=cell_of(df, row, "ns"))
    return None
