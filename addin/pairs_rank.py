"""Rank of a pairs round robin workbook: 排名 (the tie-break chain's columns and 说明),
成绩汇总 (every pair's rounds) and 交叉表.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pandas as pd

from bianpai.addin.awards_writer import _json
from bianpai.addin.command_infra import (CommandResult, finish, invalidate_awards, new_seed,
                                         write_generated)
from bianpai.addin.event import Event, load_event
from bianpai.addin.pairs_results import GroupResults, collect_results
from bianpai.engines.standings import rank as rank_engine
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import find_sheet

def standings_for(gr: GroupResults, ev: Event, *, seed: int) -> pd.DataFrame:
    """Standings table of one group (see :func:`bianpai.engines.standings.rank`)."""
    stage = gr.entries.group.stages[0]
    st = rank_engine(list(gr.entries.entries["number"]), gr.results, stage.tie_breaks.criteria,
                     seed=seed if seed is not None else gr.entries.lot_seed,
                     ctx={"restart": stage.tie_breaks.restart_head_to_head})
    return st


def pairs_rank(port: WorkbookPort, *, upto_round: int | None = None, seed: int | None = None
         ) -> CommandResult:
    """Rank every group as of ``upto_round`` (all entered rounds when None); write 排名 (one
    column per tie-break value and 说明) and 成绩汇总 (every pair's rounds). ``seed`` settles
    lots (logged). Raises ``InputErrors`` for bad results; writes nothing then."""
    ev = load_event(port)
    groups = collect_results(port, ev, upto_round=upto_round)
    lang = ev.lang
    # lots reuse each group's draw seed (stable across presses) unless a seed is given
    seed = int(seed) if seed is not None else None
    used_seeds = {gid: seed if seed is not None else gr.entries.lot_seed
                  for gid, gr in groups.items()}
    if any(v is None for v in used_seeds.values()):
        fresh = new_seed()
        used_seeds = {k: (fresh if v is None else v) for k, v in used_seeds.items()}
    chain_labels: list[tuple[str, str]] = []
    chain: list = []
    stand_rows, rr_rows, cross_rows = [], [], []
    cross_n = max((len(gr.entries.entries) for gr in groups.values()), default=0)
    data: dict[str, Any] = {}
    missing_all = []
    for gid, gr in groups.items():
        g = gr.entries.group
        gname = g.name_zh if lang == "zh" else (g.name_en or g.name_zh)
        st = standings_for(gr, ev, seed=used_seeds[gid])
        crits = st.chain
        if not chain_labels:
            chain_labels = [(c.label_zh, c.label_en) for c in crits]
            chain = list(crits)
        played = gr.results[gr.results["complete"]].groupby("entrant").size() if len(gr.results) else {}
        group_data = []
        table = st.table.to_dict("records")
        if gr.disqualified:  # 十一（四）5: disqualified pairs are listed last, without a place
            kept = [r for r in table if r["entrant"] not in gr.disqualified]
            gone = [r for r in table if r["entrant"] in gr.disqualified]
            for r in gone:
                r["rank"] = None
                r["explanation_zh"] = f"第{gr.disqualified[r['entrant']]}轮起取消比赛资格（迟到两轮，规程十一（四）5）"
                r["explanation_en"] = f"disqualified from round {gr.disqualified[r['entrant']]} (two rounds late)"
            for i, r in enumerate(kept):  # places close up over the disqualified
                r["rank"] = 1 + sum(1 for q in kept if q["rank"] < r["rank"])
            table = kept + gone
        for rec in table:
            e = rec["entrant"]
            ent = gr.entries.entries[gr.entries.entries["number"] == e].iloc[0]
            vals = [rec[c.name] for c in crits]
            stand_rows.append([gname, rec["rank"], e, ent["entrant_name"], ent["unit"],
                               int(played.get(e, 0)) if hasattr(played, "get") else 0,
                               *vals, rec["explanation_zh"] if lang == "zh" else rec["explanation_en"]])
            group_data.append({"rank": None if rec["rank"] is None else int(rec["rank"]), "number": int(e), "name": ent["entrant_name"],
                               "unit": ent["unit"], **{c.name: _json(rec[c.name]) for c in crits},
                               "explanation": rec["explanation_zh"]})
        data[g.name_zh] = group_data
        cross_rows += crosstable_rows(gr, table, gname, cross_n)
        for rec in gr.results.sort_values(["entrant", "round"]).to_dict("records"):
            rr_rows.append([gname, rec["entrant"], gr.entries.name_of(rec["entrant"]), rec["round"],
                            None if pd.isna(rec["opponent"]) else int(rec["opponent"]), rec["seat"],
                            rec["score_pct"], rec["match_points"], rec["level_diff"],
                            rec["penalty_pct"] or None,
                            L.OUTCOME_ZH.get(rec["outcome"], rec["outcome"]) if rec["complete"] else "未录"])
        missing_all += [f"{g.name_zh}{m}" for m in gr.missing
                        if upto_round is None or _round_of(m) is None or _round_of(m) <= upto_round]
    # the chain's columns replace the layout's: header + one column per criterion before 说明
    old = find_sheet(port, L.STANDINGS)
    before = _places(port.read_values(old)[1:]) if old else None
    # integers print as integers (rounds won 3, not 3.00); 场分 with one place (1.5)
    formats = [("0" if c.places is None else "0." + "0" * c.places) for c in chain]
    write_generated(port, L.STANDINGS, stand_rows, lang, extra_headers=chain_labels,
                    extra_formats=formats)
    write_generated(port, L.ROUND_RESULTS, rr_rows, lang)
    if cross_rows:
        write_generated(port, L.crosstable_layout(cross_n), cross_rows, lang)
    # award sheets built from another ranking are emptied (an unchanged ranking keeps them)
    stale = before != _places(stand_rows) and invalidate_awards(port, lang)
    any_result = any(gr.results["complete"].any() for gr in groups.values() if len(gr.results))
    if not any_result:
        state = "尚未录入任何成绩，名次仅由抽签决定 / no result entered yet"
    else:
        state = "；".join(missing_all) if missing_all else "全部成绩已录入"
    distinct = sorted(set(used_seeds.values()))
    seed_text = str(distinct[0]) if len(distinct) == 1 else ", ".join(
        f"{groups[k].entries.group.name_zh}={v}" for k, v in used_seeds.items())
    result = CommandResult(
        "rank", f"排名完成（{'截至第%d轮' % upto_round if upto_round else '已录入各轮'}）：{state}",
        f"standings done ({'up to round %d' % upto_round if upto_round else 'entered rounds'}); "
        f"{len(missing_all)} missing items", seed=seed_text, data=data)
    if stale:
        result.summary_zh += "；排名已变，旧的奖励表已清空，请重新奖励分配"
        result.summary_en += "; the ranking changed: award sheets emptied, run awards again"
    warned = [w for gr in groups.values() for w in gr.warnings]
    if warned:
        result.summary_zh += "；请核对（警告）：" + "；".join(warned)
        result.summary_en += f"; {len(warned)} typed percentage(s) do not add up: check them"
        result.findings = [{"severity": "warning", "where": w.split(" ")[0], "zh": w, "en": ""}
                           for w in warned]
    return finish(port, result, {"round": upto_round, "seed": seed}, lang)


def crosstable_rows(gr: GroupResults, table: list[dict], gname: str, width: int) -> list[list]:
    """Rows of the 交叉表 for one group, by pairing number: "场分 (比赛分%)" against each
    opponent (several cycles joined by "／"), "×" on the diagonal, then 场分, 平均得分率, 名次."""
    res = gr.results[gr.results["complete"]] if len(gr.results) else gr.results
    by_entrant = {r["entrant"]: r for r in table}
    rows = []
    for e in sorted(gr.entries.entries["number"]):
        cells = []
        for o in range(1, width + 1):
            if o == e:
                cells.append("×")
                continue
            games = res[(res["entrant"] == e) & (res["opponent"] == o)] if len(res) else res
            cells.append("／".join(f"{_num(g.match_points)} ({g.score_pct:.2f})"
                                   for g in games.itertuples()) or None)
        st = by_entrant.get(e, {})
        rows.append([gname, e, gr.entries.name_of(e), *cells, st.get("match_points"),
                     st.get("avg_score_pct"), st.get("rank")])
    return rows


def _num(v) -> str:
    d = Decimal(str(v))
    return str(int(d)) if d == d.to_integral_value() else str(d.normalize())


def _places(rows) -> list[tuple]:
    """(group, place, entrant name, unit) of standings rows: what the award sheets depend on."""
    return [(r[0], None if r[1] is None else int(r[1]), r[3], r[4]) for r in rows if r and r[0]]


def _round_of(text: str) -> int | None:
    m = re.match(r"第(\d+)轮", text)
    return int(m[1]) if m else None
