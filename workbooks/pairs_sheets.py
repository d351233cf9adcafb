"""The Shenzhen pairs workbook style's own sheets (报名/抽签/对阵/成绩/轮成绩/罚分 of
:mod:`bianpai.workbooks.layouts`), declared as views of the core's sheets
(:class:`~bianpai.workbooks.sheet_views.SheetView`): the core writes and reads them without
knowing the style.

- 抽签 (:data:`layouts.DRAW`): 组别, 序号, 选手, 单位, 报名表行, 随机种子 — the core's 抽签 without
  小组 and 小组序号.
- 对阵 (:data:`layouts.SCHEDULE`): 组别, 轮次, 桌号, 南北序号/选手, 东西序号/选手, 牌号 — the pair
  named first sits North-South; 牌号 are the round's boards numbered across the event (round r
  plays boards (r−1)·B+1 … r·B, B = ``boards_per_round``, 规程 八（一）、十一（二）).
- 排名 (:func:`standings_layout`): 序号, 选手, 单位, 已赛轮数 (a bye counts), the criteria, 说明.
- 成绩汇总 (:data:`layouts.ROUND_RESULTS`): one row per pair and round: 对手序号, 方位 NS/EW,
  比赛分%, 场分, 级差, 罚分(%顶分), 结果.
- 交叉表 (:func:`layouts.crosstable_layout`): 序号, 选手, one column per opponent (the scoring's
  "场分 (比赛分%)"), 场分, 平均得分率, 名次; an odd field's byes on a line beneath the table
  (:func:`bye_lines`).
- 成绩 (:data:`layouts.BOARDS`): the core's 逐局成绩, one row per board: 牌号 across the event
  (局 = 牌号 − (r−1)·B), 南北序号/东西序号 on every row (a row of an earlier pairing is left
  aside), 南北得分, 代码.
- 轮成绩 (:data:`layouts.ROUND_SCORES`): the core's 成绩 per match (南北/东西比赛分%, 判定,
  南北级差), only the rows the organizer types.
- 罚分 (:data:`layouts.PENALTIES`): 序号 the penalised pair (its table found in 对阵), 类别 the
  reason, 分钟 for 超时/迟到 (the scoring's ladder, 十一（三）（四）) else 罚分(%顶分).
"""

from __future__ import annotations

from bianpai.engines.errors import InputError
from bianpai.engines.standings import CRITERIA
from bianpai.templates.schema import Regulation
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks.layouts import C, SheetLayout
from bianpai.workbooks.sheet_views import SheetView


def _refused(zh: str, en: str, column: str) -> InputError:
    """A 罚分 row refused as it is read, at its view column ``column``."""
    exc = InputError(zh, en)
    exc.column = column  # type: ignore[attr-defined]
    return exc


def boards_per_round(reg: Regulation) -> dict[str, int]:
    """Boards a round of each group's first stage (by group name, Chinese and English)."""
    out = {}
    for g in reg.groups:
        if g.stages:
            b = getattr(g.stages[0].format, "boards_per_round", None) or 1
            for name in (g.name_zh, g.name_en, g.id):
                if name:
                    out[name] = int(b)
    return out


def bye_lines(rows: list[dict], lang: str) -> list[list]:
    """Beneath 交叉表 (which has no 轮空 column, as the Shenzhen workbook), one line per group
    with byes: 组别 and "轮空：第1轮 7号 甲/乙；第3轮 …" (English "Byes: round 1 No 7 …"), the
    rounds in order; none for a group without byes (八（三）轮空 of an odd field)."""
    byes: dict = {}
    for d in rows:
        for r in d.get("bye_rounds") or ():
            byes.setdefault(d["group"], []).append((r, d["number"], d["name"]))
    if lang == "zh":
        return [[g, None, "轮空：" + "；".join(f"第{r}轮 {n}号 {name}" for r, n, name in sorted(b))]
                for g, b in byes.items()]
    return [[g, None, "Byes: " + "; ".join(f"round {r} No {n} {name}" for r, n, name in sorted(b))]
            for g, b in byes.items()]


def standings_layout(reg: Regulation) -> SheetLayout:
    """排名 of the pairs style: 组别, 名次, 序号, 选手, 单位, 已赛轮数 (a bye counts), one column per
    criterion of the chains (抽签 included, 十三), 说明."""
    names: list[str] = []
    for g in reg.groups:
        for s in g.stages:
            for n in (s.tie_breaks.criteria if s.tie_breaks else []):
                if n in CRITERIA and n not in names:
                    names.append(n)
    base = L.STANDINGS.columns
    return SheetLayout(key="standings", zh=L.STANDINGS.zh, en=L.STANDINGS.en, landscape=True,
                       page_break_on=("group",), columns=[
        *[c.model_copy() for c in base[:-1]],
        # integers print as integers (获胜轮数 3), 场分 with one place (the criterion's places)
        *[C(f"c_{n}", CRITERIA[n].label_zh, CRITERIA[n].label_en, width=10,
            number_format="0" if CRITERIA[n].places is None
            else "0." + "0" * CRITERIA[n].places) for n in names],
        base[-1].model_copy()])


def pairs_views(reg: Regulation) -> dict[str, SheetView]:
    """The views of the pairs style, by the core layout's key."""
    per = boards_per_round(reg)

    def boards(d: dict, _lang: str):
        if d.get("side1") is None or d.get("round") is None:
            return None
        b = per.get(d.get("group"), 1)
        r = int(d["round"])
        return f"{(r - 1) * b + 1}-{r * b}"

    def board(d: dict, _lang: str):
        if d.get("game") is None or d.get("round") is None:
            return None
        return (int(d["round"]) - 1) * per.get(d.get("group"), 1) + int(d["game"])

    def game(rec: dict):
        if rec.get("board") is None or rec.get("round") is None:
            return None
        return int(rec["board"]) - (int(rec["round"]) - 1) * per.get(rec.get("group"), 1)

    def points(rec: dict):
        # 十一（三）（四）: 超时/迟到 by the minutes (the scoring's ladder); the others as typed
        kind = rec.get("kind") or "直接"
        if kind in ("超时", "迟到"):
            if rec.get("pct_of_top") is not None:
                raise _refused(f"“{kind}”按规程罚则由分钟数计算罚分；请清空“罚分(%顶分)”，或把类别改为“直接”",
                               f"{kind} penalties come from the minutes by the regulation's "
                               f"ladder; clear the % or use kind 直接", "pct_of_top")
            return rec.get("minutes")
        if kind == "直接" and rec.get("minutes") is not None:
            raise _refused("“直接”罚分只填“罚分(%顶分)”，不填分钟", "a direct penalty takes no minutes",
                           "minutes")
        return rec.get("pct_of_top") if rec.get("pct_of_top") is not None else 0

    def read_from(rec: dict) -> str:  # where a 罚分 row's value is typed (its problem named)
        return "minutes" if (rec.get("kind") or "直接") in ("超时", "迟到") else "pct_of_top"

    return {
        "standings": SheetView(standings_layout(reg), {"entrant": "number", "entrant_name": "name",
                                                       "played": lambda d, _l: d.get("rounds")}),
        "crosstable": SheetView(L.crosstable_layout(0), {
            "entrant": "number", "entrant_name": "name",
            "avg": lambda d, _l: d.get("c_avg_score_pct")},
            layout_of=lambda core: L.crosstable_layout(
                sum(1 for c in core.columns if c.key[1:].isdigit())), below=bye_lines),
        "entrant_rounds": SheetView(L.ROUND_RESULTS, {
            "entrant": "number", "entrant_name": "name",
            "seat": lambda d, _l: None if d.get("opponent") is None else ("NS", "EW")[d["side"]],
            "penalty_pct": lambda d, _l: d.get("penalty_pct") or None,
            "outcome": lambda d, _l: (L.OUTCOME_ZH.get(d["outcome"], d["outcome"])
                                      if d.get("complete", True) else "未录")}),
        K.DRAW.key: SheetView(L.DRAW, {"entrant_name": "name"}),
        "games": SheetView(L.BOARDS, {"board": board, "ns": "side0", "ew": "side1"},
                           inverse={"game": ("board", game)}, sides=("ns", "ew")),
        "results": SheetView(L.ROUND_SCORES, {"ns": "side0", "ew": "side1",
                                              "status": "decision"}, blank_rows=False),
        K.PENALTIES.key: SheetView(L.PENALTIES, {"entrant": "team", "kind": "reason"},
                                   inverse={"points": ("pct_of_top", points, read_from)}),
        K.SCHEDULE.key: SheetView(L.SCHEDULE, {"ns": "side0", "ns_name": "side0_name",
                                               "ew": "side1", "ew_name": "side1_name",
                                               "boards": boards},
                                   card_columns=("boards",)),
    }
