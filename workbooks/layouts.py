"""Sheet layouts: names, columns, types, dropdowns and print setup, in Chinese and English.

Every sheet has a stable ``key`` used in code, a Chinese name (default) and an English name
(workbook setting ``language: en``). Readers accept either language's sheet and header names.
Typed sheets (报名, 成绩, 轮成绩, 罚分, 规程) are never rewritten by a command; generated sheets
(抽签, 对阵, 排名, 成绩汇总, 奖励, 校验) are rebuilt whole; 日志 only grows.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bianpai.workbooks.port import ColumnFormat, PrintSetup, SheetFormat
from bianpai.workbooks.print_setup import TITLE

Kind = Literal["text", "int", "date", "decimal", "pct", "code"]


class Column(BaseModel):
    key: str
    zh: str
    en: str
    kind: Kind = "text"
    required: bool = False
    #: the header must be there though a cell may be empty (对阵's side numbers: a bye has no
    #: second side); a missing one is named at the header row, not as every row's consequence
    header_required: bool = False
    choices: list[str] | None = None
    width: float = 10
    number_format: str | None = None
    #: other titles a reader accepts for this column (a header an older version wrote)
    aliases: tuple[str, ...] = ()

    def title(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh


class SheetLayout(BaseModel):
    key: str
    zh: str
    en: str
    columns: list[Column]
    typed: bool = False
    landscape: bool = False
    paper: str = "A4"
    printable: bool = True
    table: bool = False
    hidden: bool = False
    #: column keys whose change starts a new printed page (对阵: a page per round), applied by
    #: every writer of the layout (see :mod:`bianpai.workbooks.print_setup`)
    page_break_on: tuple[str, ...] = ()
    #: height in points of every printed data row (None: Excel's default)
    row_height: float | None = None

    def name(self, lang: str = "zh") -> str:
        return self.en if lang == "en" else self.zh

    def headers(self, lang: str = "zh") -> list[str]:
        return [c.title(lang) for c in self.columns]

    def column(self, key: str) -> Column:
        return next(c for c in self.columns if c.key == key)

    def sheet_format(self, *, choices: dict[str, list[str]] | None = None,
                     lang: str = "zh") -> SheetFormat:
        choices = choices or {}
        cols = []
        for i, c in enumerate(self.columns):
            fmt = c.number_format or {"pct": "0.00", "decimal": "0.00", "date": "yyyy-mm-dd",
                                      "int": "0"}.get(c.kind)
            cols.append(ColumnFormat(index=i, width=c.width, number_format=fmt,
                                     choices=choices.get(c.key, c.choices) if self.typed else None,
                                     wrap=c.key in ("explanation", "message_zh", "message_en",
                                                    "note", "label", "summary")))
        keys = [c.key for c in self.columns]
        return SheetFormat(
            columns=cols, freeze="A2",
            print_setup=PrintSetup(landscape=self.landscape, paper=self.paper,
                                   title=TITLE.get("text"))
            if self.printable else None,
            break_columns=[keys.index(k) for k in self.page_break_on if k in keys],
            data_row_height=self.row_height,
            table_name=(self.en.replace(" ", "") if self.table else None), hidden=self.hidden,
            text_columns=[i for i, c in enumerate(self.columns) if c.kind in ("text", "code")])


def C(key, zh, en, kind: Kind = "text", width=10, **kw) -> Column:
    return Column(key=key, zh=zh, en=en, kind=kind, width=width, **kw)


SETTINGS = SheetLayout(key="settings", zh="规程", en="Regulation", typed=True, landscape=True, columns=[
    C("path", "设置项", "Setting", width=34), C("label", "名称", "Name", width=30),
    C("value", "值", "Value", width=24), C("clause", "条款", "Clause", width=12),
    C("note", "说明", "Note", width=60)])

ROSTER_PAIRS = SheetLayout(key="roster", zh="报名", en="Roster", typed=True, landscape=True,
                           table=True, columns=[
    C("group", "组别", "Group", required=True, width=14),
    C("number", "序号", "No", "int", width=6),
    C("name1", "选手1", "Player 1", required=True, width=12),
    C("gender1", "性别1", "Gender 1", choices=["男", "女"], width=7),
    C("birth1", "出生日期1", "Birth date 1", "date", width=12),
    C("id1", "证件号1", "ID 1", width=20),
    C("name2", "选手2", "Player 2", required=True, width=12),
    C("gender2", "性别2", "Gender 2", choices=["男", "女"], width=7),
    C("birth2", "出生日期2", "Birth date 2", "date", width=12),
    C("id2", "证件号2", "ID 2", width=20),
    C("unit", "单位", "Unit", width=16),
    C("qualification", "参赛资格", "Qualification", width=18),
    C("note", "备注", "Note", width=16)])

ROSTER_PEOPLE = SheetLayout(key="roster", zh="报名", en="Roster", typed=True, landscape=True,
                            table=True, columns=[
    C("group", "组别", "Group", required=True, width=18),
    C("team", "队名/组合", "Team / pair", width=16),
    C("number", "序号", "No", "int", width=6),
    C("name", "姓名", "Name", required=True, width=12),
    C("gender", "性别", "Gender", choices=["男", "女"], width=6),
    C("birth_date", "出生日期", "Birth date", "date", width=12),
    C("id_number", "证件号", "ID number", width=20),
    C("unit", "单位", "Unit", width=16),
    C("role", "角色", "Role", choices=["队员", "领队", "教练", "领队兼教练", "领队兼队员"], width=10),
    C("note", "备注", "Note", width=16),
    # optional: the seeding of an entrant (1 = best) and a rating/ranking score (等级分),
    # read by formats that seed (淘汰赛种子, 积分编排首轮顺序)
    C("seed", "种子", "Seed", "int", width=6),
    C("rating", "等级分", "Rating", "decimal", width=8)])

PLACINGS = SheetLayout(key="placings", zh="名次录入", en="Placings", typed=True, columns=[
    C("group", "组别", "Group", required=True, width=18),
    C("rank", "名次", "Place", "int", required=True, width=6),
    C("name", "姓名/队名", "Name / team", required=True, width=20),
    C("unit", "单位", "Unit", width=16),
    C("person_id", "证件号", "ID number", width=20),
    C("note", "备注", "Note", width=16)])

AWARDS = SheetLayout(key="awards", zh="奖励", en="Awards", landscape=True, columns=[
    C("group", "组别", "Group", width=16), C("place", "名次", "Place", width=10),
    C("name", "姓名/队名", "Name / team", width=20), C("unit", "单位", "Unit", width=16),
    C("award", "奖项", "Award", width=22),
    C("gross", "税前", "Gross", "decimal", width=11, number_format='"¥"#,##0.00'),
    C("tax_withheld", "代扣税额", "Tax withheld", "decimal", width=11, number_format='"¥"#,##0.00'),
    C("net", "实发", "Net", "decimal", width=11, number_format='"¥"#,##0.00'),
    C("note", "备注", "Note", width=30)])

#: 领奖签收表: rows tall enough to sign, with the recipient's ID number (身份证号) as prize money
#: paid to a person is recorded against it
AWARD_RECEIPTS = SheetLayout(key="award_receipts", zh="领奖签收表", en="Prize receipts",
                             landscape=True, row_height=36, page_break_on=("group",), columns=[
    C("group", "组别", "Group", width=14), C("place", "名次", "Place", width=9),
    C("name", "姓名/队名", "Name / team", width=16),
    C("net", "实发金额", "Amount", "decimal", width=12, number_format='"¥"#,##0.00'),
    C("capital", "大写", "In words (大写)", width=24),
    C("id_number", "身份证号", "ID number", width=22),
    C("signature", "签名", "Signature", width=16),
    C("date", "日期", "Date", width=12)])

CERTIFICATES = SheetLayout(key="certificates", zh="证书", en="Certificates", columns=[
    C("group", "组别", "Group", width=16), C("place", "名次", "Place", width=10),
    C("name", "姓名/队名", "Name / team", width=20), C("unit", "单位", "Unit", width=16),
    C("title", "证书/奖杯", "Certificate / trophy", width=24),
    C("qualification", "资格", "Qualification", width=30)])

DRAW = SheetLayout(key="draw", zh="抽签", en="Draw", columns=[
    C("group", "组别", "Group", width=14), C("number", "序号", "No", "int", width=6),
    C("entrant_name", "选手", "Entrant", width=22), C("unit", "单位", "Unit", width=16),
    C("roster_row", "报名表行", "Roster row", "int", width=9),
    C("seed", "随机种子", "Seed", width=22)])

SCHEDULE = SheetLayout(key="schedule", zh="对阵", en="Pairings", landscape=False,
                       page_break_on=("group", "round"), columns=[
    C("group", "组别", "Group", width=14), C("round", "轮次", "Round", "int", width=6),
    C("table", "桌号", "Table", "int", width=6),
    C("ns", "南北序号", "NS No", "int", width=8, header_required=True),
    C("ns_name", "南北选手", "NS pair", width=22),
    C("ew", "东西序号", "EW No", "int", width=8, header_required=True),
    C("ew_name", "东西选手", "EW pair", width=22), C("boards", "牌号", "Boards", width=10)])

BOARDS = SheetLayout(key="boards", zh="成绩", en="Boards", typed=True, columns=[
    C("group", "组别", "Group", required=True, width=14),
    C("round", "轮次", "Round", "int", required=True, width=6),
    C("table", "桌号", "Table", "int", width=6),
    C("board", "牌号", "Board", "int", required=True, width=6),
    C("ns", "南北序号", "NS No", "int", required=True, width=8),
    C("ew", "东西序号", "EW No", "int", required=True, width=8),
    C("ns_score", "南北得分", "NS score", "int", width=9),
    C("code", "代码", "Code", "code", choices=["A+", "A", "A-", "A+/A+", "A-/A-"], width=8)])

ROUND_SCORES = SheetLayout(key="round_scores", zh="轮成绩", en="Round scores", typed=True, columns=[
    C("group", "组别", "Group", required=True, width=14),
    C("round", "轮次", "Round", "int", required=True, width=6),
    C("table", "桌号", "Table", "int", width=6),
    C("ns", "南北序号", "NS No", "int", required=True, width=8),
    C("ew", "东西序号", "EW No", "int", required=True, width=8),
    C("ns_pct", "南北比赛分%", "NS %", "pct", width=11),
    C("ew_pct", "东西比赛分%", "EW %", "pct", width=11),
    C("status", "判定", "Status", "code", choices=["正常", "南北弃权", "东西弃权", "双方弃权"], width=10),
    C("ns_level_diff", "南北级差", "NS level diff", "int", width=9)])

PENALTIES = SheetLayout(key="penalties", zh="罚分", en="Penalties", typed=True, columns=[
    C("group", "组别", "Group", required=True, width=14),
    C("round", "轮次", "Round", "int", required=True, width=6),
    C("entrant", "序号", "No", "int", required=True, width=6),
    C("kind", "类别", "Kind", "code", choices=["超时", "迟到", "迟到一轮", "迟到两轮", "直接"], width=10),
    C("minutes", "分钟", "Minutes", "decimal", width=8),
    C("pct_of_top", "罚分(%顶分)", "Penalty (% of top)", "decimal", width=12),
    C("note", "说明", "Note", width=30)])

STANDINGS = SheetLayout(key="standings", zh="排名", en="Standings", landscape=True,
                        page_break_on=("group",), columns=[
    C("group", "组别", "Group", width=12), C("rank", "名次", "Rank", "int", width=6),
    C("entrant", "序号", "No", "int", width=6), C("entrant_name", "选手", "Entrant", width=20),
    C("unit", "单位", "Unit", width=14), C("played", "已赛轮数", "Rounds", "int", width=8),
    C("explanation", "说明", "Explanation", width=48)])

ROUND_RESULTS = SheetLayout(key="round_results", zh="成绩汇总", en="Round results", landscape=True,
                            columns=[
    C("group", "组别", "Group", width=12), C("entrant", "序号", "No", "int", width=6),
    C("entrant_name", "选手", "Entrant", width=20), C("round", "轮次", "Round", "int", width=6),
    C("opponent", "对手序号", "Opp No", "int", width=8), C("seat", "方位", "Seat", width=6),
    C("score_pct", "比赛分%", "Score %", "pct", width=9),
    C("match_points", "场分", "Match points", "decimal", width=7, number_format="0.0"),
    C("level_diff", "级差", "Level diff", "int", width=6),
    C("penalty_pct", "罚分(%顶分)", "Penalty", "decimal", width=10),
    C("outcome", "结果", "Result", width=8)])

def crosstable_layout(n: int) -> SheetLayout:
    """交叉表 of a round robin with up to ``n`` entrants: one column per opponent number, each
    cell "场分 (比赛分%)" of the row's entrant against that opponent."""
    return SheetLayout(key="crosstable", zh="交叉表", en="Crosstable", landscape=True, columns=[
        C("group", "组别", "Group", width=12), C("entrant", "序号", "No", "int", width=5),
        C("entrant_name", "选手", "Entrant", width=18),
        *[C(f"v{i}", str(i), str(i), width=11) for i in range(1, n + 1)],
        C("match_points", "场分", "Match points", "decimal", width=6, number_format="0.0"),
        C("avg", "平均得分率", "Average %", "pct", width=9),
        C("rank", "名次", "Rank", "int", width=5)])


CHECKS = SheetLayout(key="checks", zh="校验", en="Checks", landscape=True, columns=[
    C("severity", "级别", "Severity", width=8), C("where", "位置", "Where", width=16),
    C("message_zh", "问题", "Problem", width=60), C("message_en", "Problem (English)", "Message", width=60)])

LOG = SheetLayout(key="log", zh="日志", en="Log", landscape=True, columns=[
    C("time", "时间", "Time", width=20), C("command", "命令", "Command", width=10),
    C("args", "参数", "Arguments", width=30), C("seed", "随机种子", "Seed", width=22),
    C("summary", "摘要", "Summary", width=60), C("front", "前端", "Front", width=10)])

ALL = [SETTINGS, ROSTER_PAIRS, PLACINGS, AWARDS, AWARD_RECEIPTS, CERTIFICATES, DRAW, SCHEDULE, BOARDS, ROUND_SCORES, PENALTIES, ROUND_RESULTS,
       STANDINGS, CHECKS, LOG]
BY_KEY = {s.key: s for s in ALL}
ROSTERS = {"pairs": ROSTER_PAIRS, "people": ROSTER_PEOPLE}
#: Canonical sheet order of an event workbook (keys); layouts added by other events may extend it.
ORDER = ["operations", "settings", "roster", "checks", "draw", "schedule", "boards", "round_scores",
         "penalties", "round_results", "standings", "crosstable", "final_standings", "awards", "award_receipts",
         "certificates", "log"]
KEY_OF_NAME = {n: s.key for s in ALL for n in (s.zh, s.en)}
KEY_OF_NAME.update({"交叉表": "crosstable", "Crosstable": "crosstable"})
ORDER.insert(ORDER.index("standings") + 1, "placings")

OUTCOME_ZH = {"W": "胜", "D": "平", "L": "负", "BYE": "轮空", "FW": "对方弃权", "FL": "弃权"}
STATUS_CODES = {"正常": "", "normal": "", "南北弃权": "ns_forfeit", "ns forfeit": "ns_forfeit",
                "东西弃权": "ew_forfeit", "ew forfeit": "ew_forfeit", "双方弃权": "both_forfeit",
                "both forfeit": "both_forfeit"}
