"""What a workbook style writes in 日志 for a command, when it declares its own wording
(:attr:`bianpai.workbooks.sheet_sets.SheetSet.draw_summary`): the core's ``draw`` hands the
facts of the draw (:class:`DrawFacts`) and logs the style's sentence instead of its own.

The Shenzhen pairs style logs the workbook's whole draw in one sentence ("抽签编排完成：2 个组别，
34 桌次，成绩表新增 162 行"), as its 对阵 lists every round at once (规程 九 "编号对阵在第一轮比赛前
抽签确定"), and says when the numbers were kept and which tables an arbiter changed by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DrawFacts:
    """The facts of one ``draw`` press.

    ``groups``: groups with a drawn schedule; ``tables``: rows of 对阵 (byes included);
    ``rows_added``: result-entry rows added (the 成绩 rows of the new tables); ``lots_drawn``:
    numbers were drawn by this press; ``kept_seeds``: the seeds of the earlier lots when not;
    ``edited``: ``(group name, round, table)`` of tables a hand edit of 对阵 gave other entrants;
    ``notes``: the core's other notes (a stage waiting, late entries), Chinese."""

    groups: int
    tables: int
    rows_added: int
    lots_drawn: bool
    kept_seeds: tuple[int, ...] = ()
    edited: tuple[tuple[str, int, int], ...] = ()
    notes: tuple[str, ...] = ()


def pairs_draw_summary(f: DrawFacts) -> tuple[str, str]:
    """The Shenzhen pairs workbook's 日志 sentence for a draw (Chinese, English)."""
    zh = f"抽签编排完成：{f.groups} 个组别，{f.tables} 桌次，成绩表新增 {f.rows_added} 行"
    en = f"draw done: {f.groups} groups, {f.tables} tables, {f.rows_added} result rows added"
    if not f.lots_drawn:
        zh += f"；序号沿用原抽签（随机种子 {', '.join(map(str, f.kept_seeds)) or '无'}），未重新抽签"
        en += "; numbers kept from the earlier draw"
    by_group: dict[str, list[str]] = {}
    for gname, rnd, table in f.edited:
        by_group.setdefault(gname, []).append(f"第{rnd}轮第{table}桌")
    for gname, where in by_group.items():
        zh += f"；{gname}对阵已手工调整（与伯格表不同）：{'、'.join(where)}"
    if by_group:
        en += "; hand-edited pairings kept"
    zh += "".join(f"；{n}" for n in f.notes)
    return zh, en


@dataclass(frozen=True)
class RankFacts:
    """The facts of one ``rank`` press: ``upto_round`` (``None``: every entered round);
    ``missing``: drawn matches still without a result; ``any_result``: at least one result is
    in; ``final``: a final ranking (总排名) was made."""

    upto_round: int | None
    missing: int
    any_result: bool
    final: bool


def pairs_rank_summary(f: RankFacts) -> tuple[str, str]:
    """The Shenzhen pairs workbook's 日志 sentence for a ranking (Chinese, English): its 排名 is
    the final ranking, so no 总排名 is named."""
    if not f.any_result:
        state = "尚未录入任何成绩，名次仅由抽签决定 / no result entered yet"
    else:
        state = f"缺 {f.missing} 场成绩" if f.missing else "全部成绩已录入"
    upto = f"截至第{f.upto_round}轮" if f.upto_round else "已录入各轮"
    upto_en = f"up to round {f.upto_round}" if f.upto_round else "entered rounds"
    return (f"排名完成（{upto}）：{state}",
            f"standings done ({upto_en}); {f.missing} matches missing")
