"""The bridge team workbook style's 排名-‹阶段› sheets: one per stage, declared as a view of the
core's 排名 (:class:`~bianpai.workbooks.sheet_views.SheetView`, named by
``SheetSet.stage_standings``; the port of the two bridge team presets, ``docs/teams-port.md``).

Columns (:data:`team_layouts.TEAM_STANDINGS`): 名次, 队号, 队名, 地市/单位, 已赛场数 (matches
played, a bye not counted), 带分 (the carry-over the team entered with, 八（二）（三）), 比赛VP
(VP of its matches before fines), 罚分 (十一), 总VP (the chain's first criterion: carry + VP −
fines), IMP得, IMP失, IMP商 (4 places, ∞ with nothing lost), one column per further criterion of
the stage's chain (相互间VP, 抽签 …: blank unless it decided), 说明 — headed "（截至第N轮）" for a
ranking taken after round N. 比赛VP, 罚分, IMP得, IMP失 are the sums of the scoring's per-side
result values (``MatchResult.values``: ``vp``, ``fines``, ``imps_won``, ``imps_lost``) the core
hands with each row (``v_<key>``), 带分 its ``carry``, the criteria ``c_<name>``.
"""

from __future__ import annotations

from decimal import Decimal

from bianpai.engines.rounding import quantize
from bianpai.engines.standings import CRITERIA
from bianpai.templates.schema import Regulation, Stage
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.layouts import C
from bianpai.workbooks.sheet_views import SheetView

#: criteria shown in a column of their own (not again among the chain's further columns)
OWN_COLUMN = {"imp_quotient": "imp_quotient"}


def _summed(key: str):
    """A sum of the rows' result values (0 for a team without a match yet)."""
    return lambda d, _l: d.get(key) if d.get(key) is not None else 0


def _quotient(d: dict, _lang: str):
    q = d.get("c_imp_quotient")
    if q is None or isinstance(q, str):  # ∞
        return q
    return quantize(Decimal(str(q)), 4)


def stage_standings_view(reg: Regulation, stage: Stage, upto_round: int | None) -> SheetView:
    """The 排名-‹阶段› sheet of ``stage`` as a view of the core's 排名 rows; ``upto_round``: the
    ranking after that round (the 说明 header says so)."""
    chain = list(stage.tie_breaks.criteria) if stage.tie_breaks else ["vp"]
    further = [n for n in chain[1:] if n not in OWN_COLUMN and n in CRITERIA]
    cols = []
    for col in T.TEAM_STANDINGS.columns:
        if col.key == "explanation":
            cols += [C(f"c_{n}", CRITERIA[n].label_zh, CRITERIA[n].label_en, width=10)
                     for n in further]
            if upto_round is not None:
                col = col.model_copy(update={"zh": f"{col.zh}（截至第{upto_round}轮）",
                                             "en": f"{col.en} (after round {upto_round})"})
        elif col.key == "imp_quotient":
            col = col.model_copy(update={"number_format": "0.0000"})
        cols.append(col)
    zh = T.stage_sheet(T.TEAM_STANDINGS, stage.name_zh, "zh")
    en = T.stage_sheet(T.TEAM_STANDINGS, stage.name_en or stage.name_zh, "en")
    layout = T.TEAM_STANDINGS.model_copy(update={"key": "stage_standings", "zh": zh, "en": en,
                                                 "columns": cols})
    return SheetView(layout, {
        "team": "number", "carry_over": _summed("carry"), "match_vp": _summed("v_vp"),
        "fines": _summed("v_fines"), "total": f"c_{chain[0]}",
        "imps_won": _summed("v_imps_won"), "imps_lost": _summed("v_imps_lost"),
        "imp_quotient": _quotient})
