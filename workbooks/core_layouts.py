"""Sheet layouts of a competition-core event, generated from its formats and scorings.

Fixed sheets (报名, 队员, 抽签, 对阵, 晋级, 排名, 总排名) have the same columns for every sport; the
result-entry sheets (成绩 per match, 逐局成绩 per game) take their value columns from the stage
scorings' :class:`~bianpai.engines.core.EntryColumn` declarations, and the side titles
(主队/客队, 南北/东西 …) from the formats. Chinese names by default, English with the workbook's
``language`` setting; readers accept either (see :mod:`bianpai.workbooks.tables`).

Typed sheets (报名, 队员, 成绩, 逐局成绩, 罚分) are never rewritten by a command, only given blank
entry rows; generated sheets are rebuilt whole. 对阵 and 晋级 are generated and also the record the
next command reads back (who met whom, who entered a stage from which place).
"""

from __future__ import annotations

from bianpai.engines.core import EntryColumn
from bianpai.workbooks.layouts import C, Column, SheetLayout

KEY_COLUMNS = [
    C("group", "组别", "Group", required=True, width=12),
    C("stage", "阶段", "Stage", required=True, width=12),
    C("pool", "小组", "Pool", width=5),
    C("round", "轮次", "Round", "int", required=True, width=5),
    C("table", "桌号", "Table", "int", required=True, width=5),
]

ROSTER = SheetLayout(key="roster", zh="报名", en="Roster", typed=True, landscape=True, table=True,
                     columns=[
    C("group", "组别", "Group", required=True, width=14),
    C("number", "队号", "Team No", "int", width=6),
    C("name", "队名", "Team", required=True, width=18),
    C("unit", "地市/单位", "City/Unit", width=14),
    *[C(f"player{i}", f"队员{i}", f"Player {i}", width=9) for i in range(1, 7)],
    C("captain", "领队/教练", "Captain/Coach", width=10),
    C("seed", "种子", "Seed", "int", width=6),
    C("note", "备注", "Note", width=14)])

DRAW = SheetLayout(key="draw", zh="抽签", en="Draw", columns=[
    C("group", "组别", "Group", width=12), C("number", "队号", "Team No", "int", width=6),
    C("name", "队名", "Team", width=18), C("unit", "地市/单位", "City/Unit", width=14),
    C("pool", "小组", "Pool", width=5), C("position", "小组序号", "Pool position", "int", width=7),
    C("roster_row", "报名表行", "Roster row", "int", width=8),
    C("seed", "随机种子", "Seed", width=12),
    # a late entry (迟到报名) joins the first stage at this round; empty = round 1
    C("join_round", "进入轮次", "Joins at round", "int", width=7)])

SCHEDULE = SheetLayout(key="schedule", zh="对阵", en="Pairings", landscape=True,
                       page_break_on=("group", "stage", "round"), columns=[
    *[c.model_copy() for c in KEY_COLUMNS],
    C("label", "场次", "Match", width=10),
    C("side0", "主队号", "Home No", "int", width=6, header_required=True),
    C("side0_name", "主队", "Home", width=16),
    C("side1", "客队号", "Away No", "int", width=6, header_required=True),
    C("side1_name", "客队", "Away", width=16),
    C("result", "结果", "Result", width=12),
    C("explanation", "说明", "Note", width=24)])

#: the sides a team event names when nothing else is declared
HOME_AWAY = (("主队", "Home"), ("客队", "Away"))


def event_sides(reg) -> tuple[tuple[str, str], ...]:
    """The side titles of regulation ``reg`` ((zh, en) in side order): its ``side_titles`` when
    set (an event whose formats name their sides differently), else the first stage's format's
    ``side_labels`` (主队/客队 for teams, 先手/后手, 南北/东西, 甲方/乙方 …), else 主队/客队."""
    stages = [s for g in reg.groups for s in g.stages]
    sides = tuple(getattr(type(stages[0].format), "side_labels", HOME_AWAY)) if stages \
        else HOME_AWAY
    if reg.side_titles:
        en = list(reg.side_titles_en or reg.side_titles)
        sides = tuple((zh, en[i] if i < len(en) else zh) for i, zh in enumerate(reg.side_titles))
    return sides


def schedule_layout(sides) -> SheetLayout:
    """对阵 with the event's side titles (甲方号/甲方, 先手号/先手 …) instead of 主队/客队; a
    workbook written with 主队号/主队 headers still reads (the old titles are aliases)."""
    s0, s1 = sides[0], sides[1]
    if (s0[0], s1[0]) == (HOME_AWAY[0][0], HOME_AWAY[1][0]):
        return SCHEDULE
    titles = {"side0": (f"{s0[0]}号", f"{s0[1]} No"), "side0_name": s0,
              "side1": (f"{s1[0]}号", f"{s1[1]} No"), "side1_name": s1}
    cols = []
    for col in SCHEDULE.columns:
        if col.key in titles:
            zh, en = titles[col.key]
            col = col.model_copy(update={"zh": zh, "en": en, "aliases": (col.zh, col.en)})
        cols.append(col)
    return SCHEDULE.model_copy(update={"columns": cols})


ENTRIES = SheetLayout(key="entries", zh="晋级", en="Qualifiers", landscape=True, columns=[
    C("group", "组别", "Group", width=12), C("stage", "阶段", "Stage", width=12),
    C("number", "队号", "Team No", "int", width=6), C("name", "队名", "Team", width=16),
    C("pool", "小组", "Pool", width=5), C("position", "序号", "Position", "int", width=6),
    C("from_stage", "来源阶段", "From stage", width=12),
    C("from_pool", "来源小组", "From pool", width=6),
    C("from_place", "来源名次", "From place", "int", width=7),
    C("carry", "带分", "Carry-over", "decimal", width=7),
    C("join_round", "进入轮次", "Joins at round", "int", width=7),
    C("seed", "排名随机种子", "Ranking seed", width=12), C("clause", "条款", "Clause", width=12)])

WITHDRAWALS = SheetLayout(key="withdrawals", zh="退赛", en="Withdrawals", typed=True, columns=[
    C("group", "组别", "Group", required=True, width=12),
    C("number", "队号", "Team No", "int", required=True, width=6),
    C("after_round", "最后参赛轮次", "Last round played", "int", required=True, width=8),
    C("results", "成绩处理", "Results", "code", choices=["保留", "取消"], width=10),
    C("reason", "原因", "Reason", width=24), C("note", "备注", "Note", width=16),
    # 递补: who takes the slot (Stage.replacement; written by the withdraw command, or typed)
    C("replacement", "递补队号", "Replacement No", "int", width=8)])

def movement_layout(side_titles) -> SheetLayout:
    """移动表: every round of a stage whose format fixes them in advance (a Mitchell movement),
    one block per table (printed one page per table: the table cards)."""
    s0, s1 = side_titles[0], side_titles[1]
    return SheetLayout(key="movement", zh="移动表", en="Movement", landscape=True, columns=[
        C("group", "组别", "Group", width=12), C("stage", "阶段", "Stage", width=12),
        C("table", "桌号", "Table", "int", width=5), C("round", "轮次", "Round", "int", width=5),
        C("side0", f"{s0[0]}号", f"{s0[1]} No", "int", width=6),
        C("side0_name", s0[0], s0[1], width=18),
        C("side1", f"{s1[0]}号", f"{s1[1]} No", "int", width=6),
        C("side1_name", s1[0], s1[1], width=18),
        C("label", "用牌", "Boards", width=18)])


PENALTIES = SheetLayout(key="penalties", zh="罚分", en="Penalties", typed=True, columns=[
    *[c.model_copy() for c in KEY_COLUMNS],
    C("team", "队号", "Team No", "int", required=True, width=6),
    # blank: the amount the 规程 fixes for the offence named in 原因 (a scoring's penalty_for)
    C("points", "罚分", "Penalty", "decimal", width=7),
    C("reason", "原因", "Reason", width=16), C("note", "说明", "Note", width=24)])

STANDINGS_BASE = [
    C("group", "组别", "Group", width=12), C("stage", "阶段", "Stage", width=12),
    C("pool", "小组", "Pool", width=5), C("rank", "名次", "Rank", "int", width=5),
    C("number", "队号", "Team No", "int", width=6), C("name", "队名", "Team", width=16),
    C("unit", "地市/单位", "City/Unit", width=12),
    C("played", "场数", "Played", "int", width=5), C("won", "胜", "W", "int", width=4),
    C("drawn", "平", "D", "int", width=4), C("lost", "负", "L", "int", width=4)]

FINAL = SheetLayout(key="final_standings", zh="总排名", en="Final ranking",
                    page_break_on=("group",), columns=[
    C("group", "组别", "Group", width=12), C("place", "名次", "Place", "int", width=6),
    C("number", "队号", "Team No", "int", width=6), C("name", "队名", "Team", width=18),
    C("unit", "地市/单位", "City/Unit", width=14), C("source", "名次来源", "Decided in", width=16),
    C("explanation", "说明", "Explanation", width=40)])


def _col(e: EntryColumn, side_titles: list[tuple[str, str]]) -> Column:
    zh, en = e.zh, e.en
    if e.side is not None and e.side < len(side_titles):
        zh = zh.replace("{side}", side_titles[e.side][0])
        en = en.replace("{side}", side_titles[e.side][1])
    return C(e.key, zh, en, e.kind, width=e.width,
             choices=list(e.choices) if e.choices else None)


def results_layout(match_cols: list[EntryColumn], decisions: list[str],
                   side_titles: list[tuple[str, str]]) -> SheetLayout:
    """成绩: one row per match, keys + the two sides' numbers + the scorings' per-match columns
    + 判定 (decision code dropdown) + 备注."""
    s0, s1 = side_titles[0], side_titles[1]
    return SheetLayout(key="results", zh="成绩", en="Results", typed=True, columns=[
        *[c.model_copy() for c in KEY_COLUMNS],
        C("side0", f"{s0[0]}号", f"{s0[1]} No", "int", required=True, width=6),
        C("side1", f"{s1[0]}号", f"{s1[1]} No", "int", width=6),
        *[_col(e, side_titles) for e in match_cols],
        C("decision", "判定", "Decision", "code", choices=list(decisions) or None, width=10),
        C("note", "备注", "Note", width=16)])


def games_layout(game_cols: list[EntryColumn], side_titles: list[tuple[str, str]]) -> SheetLayout:
    """逐局成绩: one row per game of a match, keys + 局 + the scorings' per-game columns."""
    return SheetLayout(key="games", zh="逐局成绩", en="Games", typed=True, columns=[
        *[c.model_copy() for c in KEY_COLUMNS],
        C("game", "局", "Game", "int", required=True, width=4),
        *[_col(e, side_titles) for e in game_cols]])


def standings_layout(criteria: list[tuple[str, str, str]]) -> SheetLayout:
    """排名 with one column per criterion ``(name, zh, en)`` of the union of the chains, then
    说明."""
    return SheetLayout(key="standings", zh="排名", en="Standings", landscape=True,
                       page_break_on=("group", "stage", "pool"), columns=[
        *[c.model_copy() for c in STANDINGS_BASE],
        *[C(f"c_{n}", zh, en, width=8) for n, zh, en in criteria],
        C("explanation", "说明", "Explanation", width=40)])


def crosstable_layout(width: int, points: tuple[str, str] = ("场分", "Match points")
                      ) -> SheetLayout:
    """交叉表 of round-robin-like stages: one row per entrant of a pool, one column per pool
    position 1…``width`` (the row entrant's 场分 : the opponent's, with the match's 局分/得分
    difference), then 轮空 (rounds with a bye), the main score (``points``: 场分, or 积分 where
    the 规程 says so) and 名次."""
    return SheetLayout(key="crosstable", zh="交叉表", en="Crosstable", landscape=True, columns=[
        C("group", "组别", "Group", width=12), C("stage", "阶段", "Stage", width=12),
        C("pool", "小组", "Pool", width=5), C("position", "序号", "Pos", "int", width=5),
        C("number", "队号", "Team No", "int", width=6), C("name", "队名", "Team", width=14),
        *[C(f"v{i}", str(i), str(i), width=9) for i in range(1, width + 1)],
        C("byes", "轮空", "Byes", width=8),
        C("match_points", points[0], points[1], width=6),
        C("rank", "名次", "Rank", "int", width=5)])


#: the score column's header of 签表/签表图: 局数 when every bracket stage is a frame race (中式
#: 台球), else 比分 (够级/掼蛋 局分, bridge IMPs, match points)
FRAMES_LABEL = ("局数", "Frames")
SCORE_LABEL = ("比分", "Score")


def bracket_layout(score: tuple[str, str] = FRAMES_LABEL) -> SheetLayout:
    """签表: every slot of every bracket stage (a format with ``bracket_table``), round by
    round, in bracket order — the names, the score (``score``: its header, zh and en; see
    :func:`bianpai.engines.bracket_sheet.match_score`) and the winner (✓); printed landscape,
    a page per stage and pool (A4/A3 by the printer's fit-to-width)."""
    return SheetLayout(key="bracket", zh="签表", en="Bracket", landscape=True, columns=[
        C("group", "组别", "Group", width=12), C("stage", "阶段", "Stage", width=12),
        C("pool", "小组", "Pool", width=5), C("round", "轮次", "Round", width=12),
        C("label", "场次", "Match", width=8), C("number", "号", "No", "int", width=5),
        C("name", "姓名/队名", "Name", width=16), C("score", *score, width=6),
        C("won", "胜", "Won", width=4), C("next", "胜者进入", "Winner to", width=9)])


BRACKET = bracket_layout()


def bracket_grid_layout(rounds: int, score: tuple[str, str] = FRAMES_LABEL) -> SheetLayout:
    """签表图: a single-elimination bracket drawn in cells — one pair of columns per round
    (姓名 with its number, the score headed ``score``), each match's two sides on two rows, a
    later round's match between its feeders' rows; the winner is marked ✓; the third-place
    match below the bracket. Landscape, fit to width: A4, or A3 for a bracket of 6 rounds or
    more (64 players and up: 128 rows and 15 columns and more)."""
    cols = [C("group", "组别", "Group", width=10), C("stage", "阶段", "Stage", width=10),
            C("pool", "小组", "Pool", width=5)]
    for r in range(1, rounds + 1):
        cols += [C(f"r{r}", f"第{r}轮", f"Round {r}", width=16),
                 C(f"s{r}", *score, width=5)]
    return SheetLayout(key="bracket_grid", zh="签表图", en="Bracket chart", landscape=True,
                       paper="A3" if rounds >= 6 else "A4", columns=cols)
