"""Guandan (掼蛋) pairs scoring: 比赛分 per round, 场分 bands, byes, forfeits, penalties.

A round of a pairs round robin is a set of duplicate boards. A board result is the number of
levels North–South won on it (+1/+2/+3; negative when East–West won). Results are matchpointed
per board and direction among the tables of the round (:mod:`bianpai.engines.matchpoints`); a
pair's 比赛分 for the round is Σ MP / Σ top as a percentage, half-up to 2 places, after penalties
(given in % of one board's top) are taken from its own matchpoints. Its 场分 then follows from its
own percentage by the bands of the regulation.

Source: 深圳市掼蛋双人赛规程 2023 八（二）（三）, 十一（三）（四）; DESIGN.md "Guandan 场分".
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Literal

import pandas as pd
from pydantic import BaseModel, Field, field_validator

from bianpai.engines.core import register_scoring
from bianpai.engines.errors import RuleError
from bianpai.engines.guandan_pairs import GuandanPairsCore
from bianpai.engines.matchpoints import artificial_shares, score_boards
from bianpai.engines.rounding import q2, to_decimal

HUNDRED = Decimal(100)


class Band(BaseModel):
    """One 场分 band: a percentage at or above ``min_pct`` (strictly above when
    ``inclusive`` is False) gives ``points`` to the pair. ``min_pct=None`` is the catch-all."""

    min_pct: Decimal | None = None
    inclusive: bool = True
    points: Decimal


class MatchPointBands(BaseModel):
    """场分 bands, highest first. Each side's 场分 comes from its own percentage."""

    bands: list[Band]
    clause: str | None = None
    note: str | None = None

    @field_validator("bands")
    @classmethod
    def _ordered(cls, bands: list[Band]) -> list[Band]:
        """Bands run from the highest threshold down, points never rise, the last is catch-all."""
        if not bands or bands[-1].min_pct is not None:
            raise ValueError("场分档位的最后一档须不设下限（其余情况） / the last band must have no min_pct")
        mins = [b.min_pct for b in bands[:-1]]
        if any(m is None for m in mins) or any(a <= b for a, b in zip(mins, mins[1:])):
            raise ValueError("场分档位须按比赛分下限从高到低排列 / bands must go from the highest min_pct down")
        pts = [b.points for b in bands]
        if any(a < b for a, b in zip(pts, pts[1:])):
            raise ValueError("场分须随比赛分降低而不增 / points must not rise as the % falls")
        return bands

    def points(self, pct) -> Decimal:
        """场分 for a 比赛分 ``pct`` (in %, compared after half-up rounding to 2 places)."""
        p = q2(pct)
        for band in self.bands:
            if band.min_pct is None:
                return band.points
            if p > band.min_pct or (band.inclusive and p == band.min_pct):
                return band.points
        raise RuleError(f"场分档位未覆盖比赛分 {p}%", f"no 场分 band covers {p}%")


class FixedScore(BaseModel):
    """A fixed 比赛分 (%) and 场分 for a bye or a forfeit."""

    score_pct: Decimal
    match_points: Decimal


class LadderStep(BaseModel):
    """A penalty step for ``over`` < minutes ≤ ``up_to`` (``up_to=None``: no upper limit).

    ``pct_of_top``: penalty in % of one board's top. ``each_further``/``each_pct``: for every
    further ``each_further`` minutes begun beyond ``over``, add ``each_pct`` (the lateness rule
    "每5分钟加扣20%，不足5分钟按5分钟计算"). ``action``: what else happens, in words and as a code.
    """

    over: Decimal
    up_to: Decimal | None = None
    pct_of_top: Decimal
    each_further: Decimal | None = None
    each_pct: Decimal | None = None
    action: Literal["none", "stop", "boards_off"] = "none"
    boards_off: int = 0
    text: str = ""


class PenaltyLadder(BaseModel):
    """A ladder of penalties by minutes (overtime 超时 or lateness 迟到)."""

    steps: list[LadderStep]
    rounds_forfeit: int | None = None  # late this many whole rounds → forfeit of the round
    rounds_disqualify: int | None = None  # late this many whole rounds → disqualified
    clause: str | None = None
    note: str | None = None

    def apply(self, minutes) -> "Penalty":
        """The penalty for ``minutes`` over (> 0). Raises ``RuleError`` when not covered."""
        m = to_decimal(minutes)
        if m <= 0:
            return Penalty(pct_of_top=Decimal(0), text="未超时/未迟到")
        for step in self.steps:
            if m > step.over and (step.up_to is None or m <= step.up_to):
                pct = step.pct_of_top
                boards_off = step.boards_off
                if step.each_further and step.each_pct:
                    blocks = math.ceil((m - step.over) / step.each_further)
                    pct += step.each_pct * blocks
                    boards_off += blocks
                return Penalty(pct_of_top=pct, action=step.action, boards_off=boards_off,
                               text=step.text)
        raise RuleError(f"罚则未覆盖 {m} 分钟", f"no penalty step covers {m} minutes")


class Penalty(BaseModel):
    pct_of_top: Decimal
    action: Literal["none", "stop", "boards_off"] = "none"
    boards_off: int = 0
    text: str = ""


class GuandanScoring(GuandanPairsCore, BaseModel):
    """Everything needed to score a guandan pairs round (rules 八, 十一 of the Shenzhen 规程).

    Also the competition core's ``Scoring`` of guandan pairs (:class:`~bianpai.engines.
    guandan_pairs.GuandanPairsCore`: entry columns, ``score_stage``)."""

    kind: Literal["guandan_pairs"] = "guandan_pairs"
    bands: MatchPointBands
    bye: FixedScore
    forfeit_winner: FixedScore
    forfeit_loser: FixedScore
    overtime: PenaltyLadder | None = None
    lateness: PenaltyLadder | None = None
    artificial_plus_pct: Decimal = Decimal(60)
    artificial_minus_pct: Decimal = Decimal(40)
    boards_per_round: int = 6  # used to turn a penalty into % when the round % is typed
    round_minutes: int | None = 50  # a lateness this long is a whole round late (forfeit)
    # 十三（二）2/3: a round is drawn when both pairs get this 场分 (1 : 1); an equal split at
    # another value (0.5 : 0.5 after a penalty) is no draw and no win. None: any equal split.
    draw_match_points: Decimal | None = Decimal(1)
    # 十三（二）2 获胜轮数: whether a bye counts as a round won (the text is silent)
    bye_counts_as_win: bool = False
    # the board results a 成绩 cell may hold (levels won by NS; EW wins are negative)
    board_score_values: list[int] | None = Field(default_factory=lambda: [-3, -2, -1, 1, 2, 3])
    clause: str | None = None
    note: str | None = None


#: Outcome codes of a pair's round.
WIN, DRAW, LOSS, BYE, FORFEIT_WIN, FORFEIT_LOSS = "W", "D", "L", "BYE", "FW", "FL"


def round_results(schedule: pd.DataFrame, boards: pd.DataFrame, rules: GuandanScoring, *,
                  typed: pd.DataFrame | None = None,
                  penalties: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per pair and round: 比赛分, 场分, 级差 and outcome.

    ``schedule``: columns ``round, table, home, away`` (home sits NS; ``away`` NA = bye).
    ``boards``: columns ``round, table, board, ns, ew, ns_score`` (levels won by NS, NaN if an
    artificial ``code`` is given) and optional ``code`` (``A+``/``A``/``A-`` for NS, or ``NS/EW``).
    ``typed``: round percentages typed directly, columns ``round, ns, ew, ns_pct, ew_pct``
    (either may be NaN when only forfeits are typed), ``status`` (``""``, ``ns_forfeit``,
    ``ew_forfeit``, ``both_forfeit``) and optional ``ns_level_diff``; a typed row replaces the
    board results of that table. ``penalties``: columns ``round, entrant, pct_of_top`` (% of one
    board's top, taken from the entrant's own matchpoints).

    Returns one row per entrant and scheduled round, columns: ``round`` (int), ``entrant`` (int),
    ``opponent`` (Int64, NA for a bye), ``seat`` ("NS"/"EW"/""), ``mp`` and ``top`` (Decimal, board
    matchpoints, 0 when typed), ``penalty_pct`` (Decimal), ``score_pct`` (Decimal %, 2 places),
    ``match_points`` (Decimal 场分), ``level_diff`` (int), ``outcome`` (W/D/L/BYE/FW/FL),
    ``complete`` (bool: a result exists). Rounds without any result are ``complete=False`` with
    NaN scores.
    """
    typed = typed if typed is not None else pd.DataFrame(columns=["round", "ns", "ew"])
    penalties = penalties if penalties is not None else pd.DataFrame(
        columns=["round", "entrant", "pct_of_top"])
    shares = artificial_shares(rules.artificial_plus_pct, rules.artificial_minus_pct)
    scored = score_boards(boards, board_keys=("round", "board"), artificial=shares) \
        if len(boards) else boards
    pen = {}
    for r in penalties.itertuples(index=False):
        key = (int(r.round), int(r.entrant))
        pen[key] = pen.get(key, Decimal(0)) + to_decimal(r.pct_of_top)
    rows = []
    for m in schedule.itertuples(index=False):
        rnd, ns = int(m.round), int(m.home)
        if pd.isna(m.away):
            rows.append(_fixed(rnd, ns, None, "", rules.bye, BYE))
            rows[-1]["won"] = rules.bye_counts_as_win
            continue
        ew = int(m.away)
        t = typed[(typed["round"] == rnd) & (typed["ns"] == ns) & (typed["ew"] == ew)] \
            if len(typed) else typed
        if len(t):
            rows.extend(_from_typed(rnd, ns, ew, t.iloc[-1], rules, pen))
            continue
        b = scored[(scored["round"] == rnd) & (scored["ns"] == ns) & (scored["ew"] == ew)] \
            if len(scored) else scored
        if not len(b):
            for e, o, seat in ((ns, ew, "NS"), (ew, ns, "EW")):
                rows.append({"round": rnd, "entrant": e, "opponent": o, "seat": seat,
                             "mp": None, "top": None, "penalty_pct": Decimal(0),
                             "score_pct": None, "match_points": None, "level_diff": 0,
                             "outcome": "", "complete": False})
            continue
        tops = sum(b["top"], Decimal(0))
        ns_levels = int(sum(int(x) for x in b["ns_score"] if not pd.isna(x)))
        for e, o, seat, col, levels in ((ns, ew, "NS", "ns_mp", ns_levels),
                                        (ew, ns, "EW", "ew_mp", -ns_levels)):
            mp = sum(b[col], Decimal(0))
            p = pen.get((rnd, e), Decimal(0))
            board_top = b["top"].iloc[0]
            pct = q2((mp - p * board_top / HUNDRED) * HUNDRED / tops) if tops else Decimal(0)
            rows.append({"round": rnd, "entrant": e, "opponent": o, "seat": seat, "mp": mp,
                         "top": tops, "penalty_pct": p, "score_pct": pct,
                         "match_points": rules.bands.points(pct), "level_diff": levels,
                         "outcome": "", "complete": True})
        _set_outcome(rows[-2], rows[-1], rules)
    out = pd.DataFrame(rows)
    if len(out):
        out["opponent"] = out["opponent"].astype("Int64")
    return out


def _fixed(rnd, entrant, opponent, seat, fixed: FixedScore, outcome: str) -> dict:
    return {"round": rnd, "entrant": entrant, "opponent": opponent, "seat": seat,
            "mp": Decimal(0), "top": Decimal(0), "penalty_pct": Decimal(0),
            "score_pct": q2(fixed.score_pct), "match_points": fixed.match_points,
            "level_diff": 0, "outcome": outcome, "complete": True}


def _from_typed(rnd, ns, ew, row, rules: GuandanScoring, pen) -> list[dict]:
    status = (row.get("status") or "") if hasattr(row, "get") else ""
    status = "" if pd.isna(status) else str(status)
    if status == "ns_forfeit":
        return [_fixed(rnd, ns, ew, "NS", rules.forfeit_loser, FORFEIT_LOSS),
                _fixed(rnd, ew, ns, "EW", rules.forfeit_winner, FORFEIT_WIN)]
    if status == "ew_forfeit":
        return [_fixed(rnd, ns, ew, "NS", rules.forfeit_winner, FORFEIT_WIN),
                _fixed(rnd, ew, ns, "EW", rules.forfeit_loser, FORFEIT_LOSS)]
    if status == "both_forfeit":
        return [_fixed(rnd, ns, ew, "NS", rules.forfeit_loser, FORFEIT_LOSS),
                _fixed(rnd, ew, ns, "EW", rules.forfeit_loser, FORFEIT_LOSS)]
    levels = row.get("ns_level_diff")
    levels = 0 if levels is None or pd.isna(levels) else int(levels)
    out = []
    for e, o, seat, col, lv in ((ns, ew, "NS", "ns_pct", levels), (ew, ns, "EW", "ew_pct", -levels)):
        raw = row.get(col)
        if raw is None or pd.isna(raw):
            other = row.get("ew_pct" if col == "ns_pct" else "ns_pct")
            raw = HUNDRED - to_decimal(other)
        # a typed percentage already includes matchpoint penalties recorded by the device;
        # penalties typed in the 罚分 sheet are taken off as % of a round of boards' top
        p = pen.get((rnd, e), Decimal(0))
        pct = q2(to_decimal(raw) - p / max(rules.boards_per_round, 1))
        out.append({"round": rnd, "entrant": e, "opponent": o, "seat": seat, "mp": Decimal(0),
                    "top": Decimal(0), "penalty_pct": p, "score_pct": pct,
                    "match_points": rules.bands.points(pct), "level_diff": lv, "outcome": "",
                    "complete": True})
    _set_outcome(out[0], out[1], rules)
    return out


def _set_outcome(a: dict, b: dict, rules: "GuandanScoring | None" = None) -> None:
    if a["match_points"] > b["match_points"]:
        a["outcome"], b["outcome"] = WIN, LOSS
    elif a["match_points"] < b["match_points"]:
        a["outcome"], b["outcome"] = LOSS, WIN
    elif rules is None or rules.draw_match_points is None or \
            a["match_points"] == rules.draw_match_points:
        a["outcome"] = b["outcome"] = DRAW
    else:  # e.g. 0.5 : 0.5 after a penalty: neither pair won nor drew (audit D7)
        a["outcome"] = b["outcome"] = LOSS


register_scoring(GuandanScoring, "掼蛋双人", "掼蛋双人赛")
