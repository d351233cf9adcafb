"""The wording of the status line (当前状态 / 下一步 on the 操作 sheet and after every command) a
workbook style declares (:attr:`bianpai.workbooks.sheet_sets.SheetSet.status_words`).

The core's status (:func:`bianpai.addin.status.core_status_of`) computes where the event stands
the same way for every style and says it in these words. Each entry is a (state, next step)
pair of ``str.format`` templates; ``None`` means the core's own sentence is used.

Fields the templates may use: ``n`` (a count), ``where`` (``（首处：报名!E6）``), ``first``
(``（首处：轮成绩!B9 <the first error's first line>）``), ``group``, ``stage``, ``round``,
``k`` (warnings), ``note`` (:attr:`StatusWords.partial_note` when some tables are partly typed).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StatusWords:
    """A style's status sentences.

    ``errors``: any bad cell (the core's wording); ``roster_errors`` / ``result_errors``: the
    first bad cell is on the roster sheet / elsewhere (results, 对阵 …); ``check_roster``: while
    nothing is drawn, the status runs the draw's roster check (eligibility, field size) and
    reports its errors and warnings (``roster_warnings``); ``undrawn``: per group not drawn;
    ``undrawn_event``: instead, one sentence when no group is drawn (``n`` roster rows);
    ``missing``: a stage lacking results (``n`` matches; ``where``: the first ones, 第1轮第2场…);
    ``missing_round``: instead, the first
    round lacking results (``n`` tables), with the next step after a complete round and the one
    before any; ``group_when_several``: ``group`` is filled only when several groups are drawn;
    ``partial_note``: ``note`` when ``k`` tables of that round are partly typed (the next steps
    may name ``next``, the round after it); ``missing_last``: the next step instead when that
    round is the stage's last; ``round_done``:
    a stage's last drawn round (``round``; ``next``: the one to draw) has every result;
    ``stage_done``: a stage is over and the next waits for 进入下一阶段; ``tied``: how
    to type the extra games of matches tied (``first``: the first one's label, ``labels``), said
    instead of the format's own reason (code ``tied``) when a draw waits for them;
    ``unfinished``: why ``awards`` refuses a group not over (``group``/``group_en``, ``stages``/
    ``stages_en``: the stages not finished)."""

    errors: tuple[str, str] = ("有 {n} 处错误{where}", "请按“校验”表修改后再操作（点“检查名单”刷新）")
    roster_errors: tuple[str, str] | None = None
    result_errors: tuple[str, str] | None = None
    check_roster: bool = False
    roster_warnings: tuple[str, str] | None = None
    undrawn: tuple[str, str] = ("{group}尚未抽签", "可以抽签编排")
    undrawn_event: tuple[str, str] | None = None
    missing: tuple[str, str] = ("{group}{stage}缺 {n} 场成绩{where}", "录入成绩后点“抽签编排”编排下一轮")
    #: what one match is called when results are counted (rank's “缺 n 桌成绩”, as the status)
    match_word: str = "场"
    missing_round: tuple[str, str, str] | None = None
    group_when_several: bool = False
    partial_note: str = ""
    missing_last: str | None = None
    round_done: tuple[str, str] = ("{group}{stage}本轮成绩已录完", "可以抽签编排下一轮")
    stage_done: tuple[str, str] = ("{group}{stage}已结束", "可以进入下一阶段")
    tied: tuple[str, str] | None = None
    unfinished: tuple[str, str] = ("{group}尚未结束（{stages}未完成），不能分配奖励",
                                   "{group_en} is not over: no awards yet")


#: the competition core's own sentences; before the first draw the status line names the
#: roster errors the draw would refuse (eligibility, field size), not "可以抽签编排"
CORE_WORDS = StatusWords(check_roster=True)

#: the Shenzhen pairs workbook's sentences (its 操作 sheet since the first release): 已报名 4 对，
#: 尚未抽签; 第1轮成绩未录完：缺 2 桌; 成绩有 1 处错误（首处：…）
PAIRS_WORDS = StatusWords(
    roster_errors=("名单有 {n} 处错误{where}", "请修改报名表，再点“检查名单”（“校验”表列出每处问题）"),
    result_errors=("成绩有 {n} 处错误{first}", "请修改成绩表后点“计算排名”（错误会逐格列出）"),
    check_roster=True,
    roster_warnings=("已报名 {n} 对，名单有 {k} 条警告",
                     "核实后抽签编排（命令行：bianpai draw --accept-warnings \"理由\"）"),
    undrawn_event=("已报名 {n} 对，尚未抽签", "可以抽签编排"),
    missing_round=("{group}第{round}轮成绩未录完：缺 {n} 桌{note}", "录入成绩后点“计算排名”",
                   "请录入成绩（“成绩”表每副一行，或“轮成绩”表每桌一行）"),
    group_when_several=True,
    match_word="桌",
    partial_note="（其中 {k} 桌缺部分牌）",
    # awards go by 排名 at any time (SheetSet.awards_unfinished), once a result is entered
    unfinished=("{group}尚未录入任何成绩，不能分配奖励：请先在“成绩”表（或“轮成绩”表）录入成绩",
                "{group_en}: no result entered yet, no awards: type results first"))

#: the bridge team workbook's sentences (the team commands' since the first release)
BRIDGE_TEAMS_WORDS = StatusWords(
    roster_errors=("名单有 {n} 处错误{where}", "请按“校验”表修改报名/队员表后再点“检查名单”"),
    result_errors=("有 {n} 处错误{where}", "请按“校验”表修改后再操作（点“检查名单”刷新）"),
    check_roster=True,
    roster_warnings=("报名表已填 {n} 行，名单有 {k} 条警告",
                     "核实后填写“接受名单警告的理由”再抽签编排（命令行：bianpai draw --accept-warnings \"理由\"）"),
    undrawn_event=("报名表已填 {n} 行，尚未编排", "可以抽签编排"),
    missing_round=("{stage}第{round}轮成绩未录完：缺 {n} 桌{note}", "录入成绩后点“抽签编排”编排第{next}轮",
                   "录入成绩后点“抽签编排”编排第{next}轮"),
    missing_last="录入成绩后点“计算排名”",
    match_word="桌",
    round_done=("{stage}第{round}轮成绩已录完", "可以抽签编排第{next}轮"),
    stage_done=("{stage}已全部结束", "可以进入下一阶段"),
    tied=("其中 {labels} IMP相同，须按规程加赛：在“成绩”表另起一行，场次填“{first}加赛”，录入加赛双方IMP",
          "{labels_en} tied on IMPs: add a Results row with match '{first}加赛' and the extra "
          "boards' IMPs"),
    unfinished=("比赛尚未结束（{stages}未完成），不能分配奖励",
                "the event is not over ({stages_en} unfinished): no awards yet"))


def not_ready_words(words: StatusWords, reasons) -> tuple[str, str]:
    """(Chinese, English) of why a round cannot be drawn yet (a format's ``NotReady``
    reasons), a reason of code ``tied`` in the style's :attr:`StatusWords.tied` words."""
    zh, en = [], []
    for r in reasons:
        if r.code == "tied" and words.tied is not None and r.cells:
            facts = dict(labels="、".join(r.cells), labels_en=", ".join(r.cells), first=r.cells[0])
            zh.append(words.tied[0].format(**facts))
            en.append(words.tied[1].format(**facts))
        else:
            zh.append(r.zh)
            en.append(r.en)
    return "；".join(zh) or "尚不能编排下一轮", "; ".join(en) or "the next round cannot be drawn yet"
