"""Sheet layouts of a bridge team event (报名, 队员, 抽签, 对阵, 成绩, 逐副成绩, 罚分, 带分, 排名-<阶段>,
淘汰赛, 总排名), in the style of :mod:`bianpai.workbooks.layouts` (Chinese default, English by
the workbook's ``language`` setting; readers accept either).

Typed sheets (报名, 队员, 成绩, 逐副成绩, 罚分) are never rewritten by a command, only given blank entry
rows; generated sheets are rebuilt whole. 对阵 and 带分 are generated but also the record the
next command reads back (who met whom, who entered a stage with what carry-over).
"""

from __future__ import annotations

from bianpai.workbooks.layouts import C, SheetLayout

TEAM_ROSTER = SheetLayout(key="team_roster", zh="报名", en="Roster", typed=True, landscape=True,
                          table=True, columns=[
    C("number", "队号", "Team No", "int", width=6),
    C("name", "队名", "Team", required=True, width=18),
    C("unit", "地市/单位", "City/Unit", width=16),
    C("player1", "队员1", "Player 1", width=10), C("player2", "队员2", "Player 2", width=10),
    C("player3", "队员3", "Player 3", width=10), C("player4", "队员4", "Player 4", width=10),
    C("player5", "队员5", "Player 5", width=10), C("player6", "队员6", "Player 6", width=10),
    C("captain", "领队/教练", "Captain/Coach", width=12),
    C("note", "备注", "Note", width=16)])

#: Per-person details of the players and staff named in 报名 (one row each, matched on 队名 +
#: 姓名): what the eligibility rules need (gender, birth date, ID number).
TEAM_PLAYERS = SheetLayout(key="team_players", zh="队员", en="Players", typed=True, table=True,
                           columns=[
    C("team", "队名", "Team", required=True, width=18),
    C("name", "姓名", "Name", required=True, width=10),
    C("gender", "性别", "Gender", choices=["男", "女"], width=6),
    C("birth_date", "出生日期", "Birth date", "date", width=12),
    C("id_number", "身份证号", "ID number", width=20),
    C("note", "备注", "Note", width=16)])

TEAM_DRAW = SheetLayout(key="team_draw", zh="抽签", en="Draw", columns=[
    C("number", "队号", "Team No", "int", width=6), C("name", "队名", "Team", width=18),
    C("unit", "地市/单位", "City/Unit", width=16),
    C("roster_row", "报名表行", "Roster row", "int", width=9),
    C("seed", "随机种子", "Seed", width=14)])

TEAM_SCHEDULE = SheetLayout(key="team_schedule", zh="对阵", en="Pairings", landscape=True,
                            page_break_on=("stage", "round"), columns=[
    C("stage", "阶段", "Stage", width=14), C("round", "轮次", "Round", "int", width=6),
    C("match", "场次", "Match", width=6), C("table", "桌号", "Table", "int", width=6),
    C("home", "主队号", "Home No", "int", width=7, header_required=True),
    C("home_name", "主队", "Home", width=16),
    C("away", "客队号", "Away No", "int", width=7, header_required=True),
    C("away_name", "客队", "Away", width=16),
    C("open_ns", "开室南北", "Open NS", "int", width=8),
    C("open_ew", "开室东西", "Open EW", "int", width=8),
    C("closed_ns", "闭室南北", "Closed NS", "int", width=8),
    C("closed_ew", "闭室东西", "Closed EW", "int", width=8),
    C("boards", "牌号", "Boards", width=8),
    C("seats", "座位", "Seating", width=40)])

TEAM_RESULTS = SheetLayout(key="team_results", zh="成绩", en="Results", typed=True, columns=[
    C("stage", "阶段", "Stage", required=True, width=14),
    C("round", "轮次", "Round", "int", required=True, width=6),
    C("match", "场次", "Match", width=6),
    C("table", "桌号", "Table", "int", required=True, width=6),
    C("home", "主队", "Home", "int", required=True, width=6),
    C("away", "客队", "Away", "int", required=True, width=6),
    C("home_imps", "主队IMP", "Home IMPs", "int", width=9),
    C("away_imps", "客队IMP", "Away IMPs", "int", width=9),
    C("note", "备注", "Note", width=20)])

TEAM_BOARDS = SheetLayout(key="team_boards", zh="逐副成绩", en="Board results", typed=True,
                          columns=[
    C("stage", "阶段", "Stage", required=True, width=14),
    C("round", "轮次", "Round", "int", required=True, width=6),
    C("match", "场次", "Match", width=6),
    C("table", "桌号", "Table", "int", required=True, width=6),
    C("board", "副号", "Board", "int", required=True, width=6),
    C("open_ns", "开室南北得分", "Open NS score", "int", width=12),
    C("closed_ns", "闭室南北得分", "Closed NS score", "int", width=12)])

TEAM_FINES = SheetLayout(key="team_fines", zh="罚分", en="Fines", typed=True, columns=[
    C("stage", "阶段", "Stage", required=True, width=14),
    C("round", "轮次", "Round", "int", width=6),
    C("team", "队号", "Team No", "int", required=True, width=6),
    C("vp", "扣罚VP", "VP fine", "decimal", width=8),
    C("reason", "原因", "Reason", "code", width=16),
    C("note", "说明", "Note", width=30)])

CARRY = SheetLayout(key="carry", zh="带分", en="Carry-over", landscape=True, columns=[
    C("stage", "阶段", "Stage", width=14), C("team", "队号", "Team No", "int", width=6),
    C("name", "队名", "Team", width=16), C("from_stage", "来源阶段", "From stage", width=14),
    C("from_place", "来源名次", "From place", "int", width=8),
    C("from_vp", "来源VP", "From VP", "decimal", width=9),
    C("fraction", "比例", "Fraction", "decimal", width=7),
    C("scaled", "比例带分", "Scaled", "decimal", width=9),
    C("plus", "另加VP", "Plus VP", "decimal", width=8),
    C("carry", "带分", "Carry-over", "decimal", width=9),
    C("join_round", "进入轮次", "Joins at round", "int", width=8),
    C("seed", "排名随机种子", "Ranking seed", width=12),
    C("clause", "条款", "Clause", width=16)])

TEAM_STANDINGS = SheetLayout(key="team_standings", zh="排名", en="Standings", landscape=True,
                             columns=[
    C("rank", "名次", "Rank", "int", width=6), C("team", "队号", "Team No", "int", width=6),
    C("name", "队名", "Team", width=16), C("unit", "地市/单位", "City/Unit", width=14),
    C("played", "已赛场数", "Matches", "int", width=8),
    C("carry_over", "带分", "Carry-over", "decimal", width=8),
    C("match_vp", "比赛VP", "Match VP", "decimal", width=8),
    C("fines", "罚分", "Fines", "decimal", width=7),
    C("total", "总VP", "Total VP", "decimal", width=8),
    C("imps_won", "IMP得", "IMPs won", "int", width=7),
    C("imps_lost", "IMP失", "IMPs lost", "int", width=7),
    C("imp_quotient", "IMP商", "IMP quotient", width=8),
    C("explanation", "说明", "Explanation", width=48)])

KNOCKOUT = SheetLayout(key="knockout", zh="淘汰赛", en="Knockout", landscape=True, columns=[
    C("match", "场次", "Match", width=6), C("round", "轮次", "Round", width=10),
    C("half", "半区", "Half", width=7),
    C("home", "主队号", "Home No", "int", width=7), C("home_name", "主队", "Home", width=16),
    C("home_place", "主队排位", "Home place", "int", width=8),
    C("away", "客队号", "Away No", "int", width=7), C("away_name", "客队", "Away", width=16),
    C("away_place", "客队排位", "Away place", "int", width=8),
    C("seat_s1", "第1节选位", "Seats S1", width=9), C("seat_s2", "第2节选位", "Seats S2", width=9),
    C("home_imps", "主队IMP", "Home IMPs", "int", width=8),
    C("away_imps", "客队IMP", "Away IMPs", "int", width=8),
    C("winner", "胜队", "Winner", "int", width=6), C("loser", "负队", "Loser", "int", width=6),
    C("explanation", "说明", "Explanation", width=40)])

FINAL = SheetLayout(key="final", zh="总排名", en="Final ranking", landscape=False, columns=[
    C("place", "名次", "Place", "int", width=6), C("team", "队号", "Team No", "int", width=6),
    C("name", "队名", "Team", width=18), C("unit", "地市/单位", "City/Unit", width=16),
    C("source", "名次来源", "Decided in", width=16), C("award", "奖项", "Award", width=10),
    C("explanation", "说明", "Explanation", width=40)])


def stage_sheet(prefix: SheetLayout, stage_name: str, lang: str = "zh") -> str:
    """Sheet name of a per-stage sheet, e.g. ``排名-排位赛`` (Excel's 31-character limit)."""
    bad = '[]:*?/\\'
    name = "".join(ch for ch in stage_name if ch not in bad)
    return f"{prefix.name(lang)}-{name}"[:31]


ALL_TEAM = [TEAM_ROSTER, TEAM_PLAYERS, TEAM_DRAW, TEAM_SCHEDULE, TEAM_RESULTS, TEAM_BOARDS, TEAM_FINES, CARRY,
            TEAM_STANDINGS, KNOCKOUT, FINAL]
