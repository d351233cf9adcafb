"""The bridge team workbook style's own sheets (抽签/对阵/成绩/逐副成绩/罚分 of
:mod:`bianpai.workbooks.team_layouts`), declared as views of the core's sheets
(:class:`~bianpai.workbooks.sheet_views.SheetView`): the core writes and reads them without
knowing the style (the port of the two bridge team presets, ``docs/teams-port.md``).

- 抽签 (:data:`team_layouts.TEAM_DRAW`): 队号, 队名, 地市/单位, 报名表行, 随机种子 — the core's 抽签
  without 组别 (an event of one group), 小组, 小组序号, 进入轮次.
- 对阵 (:data:`team_layouts.TEAM_SCHEDULE`): 阶段, 轮次, 场次, 桌号, 主队号/主队, 客队号/客队, the
  seats of the two rooms (福建 六（四）3: 主队开室南北、闭室东西), 牌号 ``1-B`` (B the stage's
  boards per match) and the seating text (六（五）: a knockout's seat choice per session).
- 成绩 (:data:`team_layouts.TEAM_RESULTS`): 阶段, 轮次, 场次, 桌号, 主队, 客队, 主队IMP, 客队IMP, 备注.
- 逐副成绩 (:data:`team_layouts.TEAM_BOARDS`): the core's 逐局成绩, 局 shown as 副号.
- 罚分 (:data:`team_layouts.TEAM_FINES`): 阶段, 轮次, 队号, 扣罚VP (blank: the 规程's fine for the
  原因, 十一（一）), 原因, 说明 — the table found by (轮次, 队号).
- 带分 (:data:`team_layouts.CARRY`): the core's 晋级 without 组别, 小组, 序号, 来源小组, with the
  carry-over's parts (来源VP, 比例, 比例带分, 另加VP: 八（二）（三） "带入其第一阶段VP的25%再加24VP")
  handed by the command that wrote the row, 条款 the carry rule's clause when it names one.
"""

from __future__ import annotations

from bianpai.templates.schema import Regulation
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.sheet_views import SheetView


#: 总排名 of an event of one group: the core's without 组别
FINAL = K.FINAL.model_copy(update={"columns": [c for c in K.FINAL.columns if c.key != "group"],
                                   "page_break_on": ()})


def _stages(reg: Regulation) -> dict:
    """Each stage of the event by its names (Chinese, English, id)."""
    out = {}
    for g in reg.groups:
        for s in g.stages:
            for name in (s.name_zh, s.name_en, s.id):
                if name:
                    out[name] = s
    return out


def stage_boards(stage) -> int:
    """Boards of one match of ``stage`` (a knockout's ``boards``, else the scoring's or the
    format's boards per round)."""
    f = stage.format
    if f.kind == "knockout":
        return int(f.boards)
    return int(getattr(stage.scoring, "boards", None) or getattr(f, "boards_per_round", 1) or 1)


def seating(stage, home, away, lang: str) -> str:
    """The seating text of a match (福建 六（四）3 主队开室南北、闭室东西; 六（五） a knockout's seat
    choice: session 1 the away team, session 2 the home team)."""
    zh = lang == "zh"
    if away is None:
        return "轮空" if zh else "bye"
    if stage is not None and stage.format.kind == "knockout":
        if zh:
            return (f"主队开室南北/闭室东西，各节不变；第1节客队{int(away)}号、第2节主队{int(home)}号"
                    f"有座位选择权，无选择权的队先入座")
        return (f"home NS open / EW closed in every session; seat choice: session 1 away "
                f"({int(away)}), session 2 home ({int(home)}); the other team sits first")
    return "主队开室南北、闭室东西；无座位选择权，直接入座" if zh else \
        "home NS in the open room, EW in the closed room; no seat choice"


def bridge_team_views(reg: Regulation) -> dict[str, SheetView]:
    """The views of the bridge team style, by the core layout's key."""
    stages = _stages(reg)

    def played(d: dict, key: str):
        return d.get(key) if d.get("side1") is not None else None

    def boards(d: dict, _lang: str):
        st = stages.get(d.get("stage"))
        if d.get("side1") is None or st is None:
            return ""
        return f"1-{stage_boards(st)}"

    def seats(d: dict, lang: str):
        return seating(stages.get(d.get("stage")), d.get("side0"), d.get("side1"), lang)

    def match(d: dict, _lang: str):
        # 场次 names a knockout's match (QF1 …); a pool's position label (1vs4) is not shown
        st = stages.get(d.get("stage"))
        return d.get("label") or None if st is not None and st.format.kind == "knockout" \
            else None

    label = {"match": match}
    return {
        K.DRAW.key: SheetView(T.TEAM_DRAW),
        # 场次 read back: a knockout's next round follows its matches by label (QF1 …)
        K.SCHEDULE.key: SheetView(T.TEAM_SCHEDULE, {
            **label, "home": "side0", "home_name": "side0_name",
            "away": "side1", "away_name": "side1_name",
            "open_ns": lambda d, _l: played(d, "side0"), "open_ew": "side1",
            "closed_ns": "side1", "closed_ew": lambda d, _l: played(d, "side0"),
            "boards": boards, "seats": seats},
            inverse={"label": ("match", lambda rec: rec.get("match"))},
            card_columns=("match", "boards", "seats")),
        # a row whose 场次 ends in 加赛 holds the extra boards of a tied knockout match (九（二）)
        "results": SheetView(T.TEAM_RESULTS, {**label, "home": "side0", "away": "side1"},
                             inverse={"extra_row": ("match", lambda rec: str(
                                 rec.get("match") or "").endswith("加赛"))}),
        "games": SheetView(T.TEAM_BOARDS, {**label, "board": "game"}),
        K.PENALTIES.key: SheetView(T.TEAM_FINES, {"vp": "points"}),
        K.FINAL.key: SheetView(FINAL),
        K.ENTRIES.key: SheetView(T.CARRY, {
            "team": "number", **{k: _part(k) for k in ("from_vp", "fraction", "scaled", "plus")},
            "clause": lambda d, _l: d.get("carry_clause") or d.get("clause")}),
    }


def _part(key: str):
    """A carry-over part of a 带分 row (0 when nothing is carried)."""
    return lambda d, _l: d.get(key) if d.get(key) is not None else 0
