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
    numbers were drawn by this press; ``kept_seeds``: the seeds of the earlier lots when not
    (``"报名表序号"`` for a group whose numbers were typed); ``edited``: ``(group name, round,
    table)`` of tables a hand edit of 对阵 gave other entrants or that differ from the format's
    whole schedule of the drawn positions (a Berger table);
    ``notes``: the core's other notes (a stage waiting, late entries), Chinese; ``parts``: per
    stage drawn, in order, ``(stage name, round, match labels of a knockout round or ())``;
    ``new_tables``: the tables drawn by this press (byes included)."""

    groups: int
    tables: int
    rows_added: int
    lots_drawn: bool
    kept_seeds: tuple[int | str, ...] = ()
    edited: tuple[tuple[str, int, int], ...] = ()
    notes: tuple[str, ...] = ()
    parts: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    new_tables: int = 0


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


def _stages_drawn(f: DrawFacts) -> str:
    return "；".join(f"{name}{'、'.join(labels)}" if labels else f"{name}第{rnd}轮"
                    for name, rnd, labels in f.parts)


def bridge_teams_draw_summary(f: DrawFacts) -> tuple[str, str]:
    """The bridge team workbook's 日志 sentence for a draw: "编排完成：排位赛第1轮（6 桌次）",
    a knockout round by its matches ("淘汰赛SF1、SF2")."""
    zh = f"编排完成：{_stages_drawn(f)}（{f.new_tables} 桌次）" + "".join(f"；{n}" for n in f.notes)
    return zh, f"drawn: {f.new_tables} tables"


def bridge_teams_advance_summary(ranked: tuple[str, ...], seed: int, f: DrawFacts
                                 ) -> tuple[str, str]:
    """The bridge team workbook's 日志 sentence for 进入下一阶段, which also pairs the new
    stages' first round: "排位赛排名已定（抽签种子 5），进入下一阶段：淘汰赛QF1、…；附加积分编排赛第1轮"."""
    return (f"{'、'.join(ranked)}排名已定（抽签种子 {seed}），进入下一阶段：{_stages_drawn(f)}",
            f"{', '.join(ranked)} ranked (lots seed {seed}); next stages drawn")


@dataclass(frozen=True)
class RankFacts:
    """The facts of one ``rank`` press: ``upto_round`` (``None``: every entered round);
    ``missing``: drawn matches still without a result; ``any_result``: at least one result is
    in; ``final``: a final ranking (总排名) was made; ``stages``: the stages now running that
    a table ranks (a knockout's placings left out): the later ones once one has started."""

    upto_round: int | None
    missing: int
    any_result: bool
    final: bool
    stages: tuple[str, ...] = ()


def pairs_rank_summary(f: RankFacts) -> tuple[str, str]:
    """The Shenzhen pairs workbook's 日志 sentence for a ranking (Chinese, English): its 排名 is
    the final ranking, so no 总排名 is named."""
    if not f.any_result:
        state = "尚未录入任何成绩，名次仅由抽签决定 / no result entered yet"
    else:
        state = f"缺 {f.missing} 桌成绩" if f.missing else "全部成绩已录入"
    upto = f"截至第{f.upto_round}轮" if f.upto_round else "已录入各轮"
    upto_en = f"up to round {f.upto_round}" if f.upto_round else "entered rounds"
    return (f"排名完成（{upto}）：{state}",
            f"standings done ({upto_en}); {f.missing} tables missing")


def bridge_teams_rank_summary(f: RankFacts) -> tuple[str, str]:
    """The bridge team workbook's 日志 sentence for a ranking: "排名完成（全部成绩已录入），总排名已生成",
    after a round "排名完成（附加积分编排赛截至第1轮；全部成绩已录入）"."""
    state = f"缺 {f.missing} 桌成绩" if f.missing else "全部成绩已录入"
    upto = f"{'、'.join(f.stages)}截至第{f.upto_round}轮；" if f.upto_round else ""
    return (f"排名完成（{upto}{state}）{'，总排名已生成' if f.final else ''}",
            f"standings done ({'up to round %d; ' % f.upto_round if f.upto_round else ''}"
            f"{f.missing} tables missing)")
