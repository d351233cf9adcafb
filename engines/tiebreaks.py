"""Tie-break criteria for individual board-game Swiss events (Chinese names and FIDE C.07 codes).

Two layers:

* :func:`c07_values` (in :mod:`bianpai.engines.c07`, re-exported): a pure calculator over
  per-player game records (:class:`Game`), with the C.07 rules for unplayed rounds (Art. 16).
* Registered :data:`bianpai.engines.standings.CRITERIA` items reading
  :func:`bianpai.engines.core.entrant_rows` frames, so a 规程's chain is a list of names.

Registered names (label): ``opp_score`` 对手分 (Buchholz; 围棋 SOS; the bye's contribution by
``ctx["bye_opp_score"]``: ``lowest_scored`` 有得分者中的最低分 (象棋竞赛规则 14.4), ``zero``
(云比赛网), or ``c07`` = the virtual opponent), ``opp_score_cut1`` 中间对手分, ``progressive``
累进分, ``sonneborn_berger`` 小分, ``games_won`` 胜局数 (wins over the board + forfeit wins +
byes: C.07 WIN), ``black_games`` 后走局数, ``black_wins`` 后胜局, ``direct_encounter`` 直胜,
``fouls`` 犯规 (fewer first), ``sosos`` 对手对手分, ``backwards_by_round`` 逐轮倒序比较 (象棋
14.3.1's last step), and the FIDE codes ``BH``, ``BH-C1``, ``BH-C2``, ``BH-M1``, ``BH-M2``,
``SB``, ``SB-C1``, ``PS``, ``PS-C1``, ``ARO``, ``ARO-C1``, ``AOB``, ``FB``, ``DE``, ``WIN``,
``WON``, ``BPG``, ``BWG`` (FIDE codes use the C.07 Art. 16 rules; ``ctx["edition"]``).

Presets (:data:`PRESETS`): the chains as data with their clause.

Sources: FIDE C.07 (1 Aug 2024; March 2026 Art. 16.4 caps); 象棋竞赛规则 14.3, 14.4 (research/
pairing-anchors.md §3); 云比赛网 practice (积分 → 对手分 → 累进分, bye adds 0 to 对手分).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Callable, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.typed_rows import is_na
from bianpai.engines.c07 import (FLOSS, FULL_BYE, FWIN, PAB, PLAYED, REQUESTED,  # noqa: F401
                                 VUR_KINDS, Game, c07_values)
from bianpai.engines.standings import Criterion, register
from bianpai.engines.rounding import to_decimal
from bianpai.engines.typed_rows import row_dicts

__all__ = ["Game", "c07_values", "records_from_rows", "PRESETS", "FIDE_CODES", "C07_NAMES",
           "TieBreakSettings"]

# ------------------------------------------------------------------------------ entrant rows

_KIND_OF_OUTCOME = {"W": PLAYED, "D": PLAYED, "L": PLAYED, "FW": FWIN, "FL": FLOSS, "BYE": PAB}


def records_from_rows(results: pd.DataFrame) -> dict[int, list[Game]]:
    """Game records from an :func:`~bianpai.engines.core.entrant_rows` frame.

    Reads ``round``, ``entrant``, ``opponent``, ``side`` (0 = 先手/white), ``match_points``,
    ``outcome`` and, when present, ``unplayed`` (``"requested_bye"`` marks a 请假/absence bye
    row, ``"full_bye"`` a full-point bye) and ``opp_rating``. VOID rows are left out."""
    recs: dict[int, list[Game]] = {}
    if results is None or len(results) == 0:
        return recs
    has_unpl = "unplayed" in results.columns
    has_rt = "opp_rating" in results.columns
    for rec in row_dicts(results):
        if rec.get("outcome") == "VOID":
            continue
        e = int(rec["entrant"])
        opp = rec.get("opponent")
        opp = None if opp is None or pd.isna(opp) else int(opp)
        kind = _KIND_OF_OUTCOME.get(rec.get("outcome"), PLAYED)
        if has_unpl and isinstance(rec.get("unplayed"), str) and rec["unplayed"]:
            kind = rec["unplayed"]
        if opp is None and kind == PLAYED:
            kind = PAB
        colour = None
        if kind == PLAYED:
            colour = "W" if int(rec.get("side", 0)) == 0 else "B"
        rt = rec.get("opp_rating") if has_rt else None
        rt = None if rt is None or pd.isna(rt) else to_decimal(rt)
        recs.setdefault(e, []).append(Game(int(rec["round"]), opp,
                                           to_decimal(rec["match_points"]), colour, kind, rt))
    return recs


def _win_points(ctx) -> Decimal:
    return to_decimal(ctx.get("win_points", 2))


def _cached(results: pd.DataFrame, ctx: dict) -> dict[int, list[Game]]:
    key = ("_tb_records", id(results))
    if ctx.get("_tb_key") != key:
        ctx["_tb_key"] = key
        ctx["_tb_records"] = records_from_rows(results)
    return ctx["_tb_records"]


def _total_rounds(recs, ctx) -> int:
    return int(ctx.get("total_rounds") or max((g.round for gs in recs.values() for g in gs),
                                              default=0))


def _fide(code: str) -> Callable:
    def compute(members, results, ctx):
        recs = _cached(results, ctx)
        vals = c07_values(recs, _total_rounds(recs, ctx), [code],
                          edition=ctx.get("edition", "fide-2024"), win=_win_points(ctx),
                          ratings=ctx.get("ratings"))
        return {e: vals.get(e, {}).get(code, Decimal(0)) for e in members}
    return compute


# ------------------------------------------------------------------------------ Chinese criteria

def _scores(recs) -> dict[int, Decimal]:
    return {p: sum((g.score for g in gs), Decimal(0)) for p, gs in recs.items()}


def _bye_value(recs, scores, p, ctx) -> Decimal:
    """What an unplayed round adds to 对手分 (象棋竞赛规则 14.4: the lowest score among players
    who have scored; 云比赛网: 0; ``c07``: the player's own score)."""
    how = ctx.get("bye_opp_score", "lowest_scored")
    if how == "zero":
        return Decimal(0)
    if how == "c07":
        return scores.get(p, Decimal(0))
    positive = [s for s in scores.values() if s > 0]
    return min(positive) if positive else Decimal(0)


def opp_contributions(recs, p, ctx) -> list[Decimal]:
    """对手分 contributions of ``p``, one per round (played: the opponent's score; forfeits and
    byes: the bye rule of ``ctx["bye_opp_score"]``)."""
    scores = _scores(recs)
    out = []
    for g in recs.get(p, []):
        if g.kind == PLAYED and g.opponent is not None:
            out.append(scores.get(g.opponent, Decimal(0)))
        elif g.kind in (FWIN, FLOSS) and g.opponent is not None and \
                ctx.get("forfeit_opp_counts", True):
            out.append(scores.get(g.opponent, Decimal(0)))
        else:
            out.append(_bye_value(recs, scores, p, ctx))
    return out


def _opp_score(cut: int = 0) -> Callable:
    def compute(members, results, ctx):
        recs = _cached(results, ctx)
        out = {}
        for e in members:
            cs = sorted(opp_contributions(recs, e, ctx))
            out[e] = sum(cs[cut:], Decimal(0))
        return out
    return compute


def _sosos(members, results, ctx):
    recs = _cached(results, ctx)
    bh = {p: sum(opp_contributions(recs, p, ctx), Decimal(0)) for p in recs}
    return {e: sum((bh.get(g.opponent, Decimal(0)) for g in recs.get(e, [])
                    if g.opponent is not None and g.kind == PLAYED), Decimal(0))
            for e in members}


def _progressive(members, results, ctx):
    recs = _cached(results, ctx)
    out = {}
    for e in members:
        run = tot = Decimal(0)
        for g in recs.get(e, []):
            run += g.score
            tot += run
        out[e] = tot
    return out


def _small_points(members, results, ctx):
    """小分: Σ (beaten opponents' scores) + ½ Σ (drawn opponents' scores) (象棋 14.1)."""
    recs = _cached(results, ctx)
    scores = _scores(recs)
    win = _win_points(ctx)
    return {e: sum((scores.get(g.opponent, Decimal(0)) * g.score / win
                    for g in recs.get(e, []) if g.kind == PLAYED and g.opponent is not None),
                   Decimal(0)) for e in members}


def _count(pred) -> Callable:
    def compute(members, results, ctx):
        recs = _cached(results, ctx)
        win = _win_points(ctx)
        return {e: Decimal(sum(1 for g in recs.get(e, []) if pred(g, win))) for e in members}
    return compute


def _fouls(members, results, ctx):
    col = "fouls"
    out = {e: Decimal(0) for e in members}
    if col in results.columns:
        for e, v in zip(results["entrant"], results[col]):
            if int(e) in out and not is_na(v):
                out[int(e)] += to_decimal(v)
    extra = ctx.get("fouls") or {}
    for e in members:
        out[e] += to_decimal(extra.get(e, 0))
    return out


def _backwards(members, results, ctx):
    """象棋 14.3.1 last step: compare the last round's points, then the one before, …: each
    member's points per round from the last round back (a tuple, compared item by item; a
    round without a game counts 0), shown "2/0/2"."""
    recs = _cached(results, ctx)
    rounds = max((g.round for e in members for g in recs.get(e, [])), default=0)
    out = {}
    for e in members:
        per = {}
        for g in recs.get(e, []):
            per[g.round] = per.get(g.round, Decimal(0)) + g.score
        out[e] = tuple(per.get(r, Decimal(0)) for r in range(rounds, 0, -1))
    return out


def _show_rounds(v) -> str:
    if not v:
        return "—"
    return "/".join(f"{Decimal(x).normalize():f}" for x in v)


def _direct(members, results, ctx):
    """Direct encounter (FIDE C.07 §6; 直胜) among the tied ``members``: points scored in the
    games played among them (Swiss: forfeits excluded, §6.1). When every pair has met, those
    points; otherwise (§6.3) only a player alone at the top in every completion of the missing
    games is separated (value 1, the others 0); else ``None`` (not decisive)."""
    recs = _cached(results, ctx)
    win = _win_points(ctx)
    mset = set(members)
    mini = {e: Decimal(0) for e in members}
    met: set[frozenset] = set()
    for e in members:
        for g in recs.get(e, []):
            if g.kind == PLAYED and g.opponent in mset and g.opponent != e:
                mini[e] += g.score
                met.add(frozenset((e, g.opponent)))
    pairs = [frozenset((a, b)) for i, a in enumerate(members) for b in members[i + 1:]]
    missing = [p for p in pairs if p not in met]
    if not missing:
        return mini
    best = max(members, key=lambda e: mini[e])
    for e in members:
        if e == best:
            continue
        top = mini[e] + win * sum(1 for p in missing if e in p)
        if top >= mini[best]:
            return {x: None for x in members}
    return {x: Decimal(1 if x == best else 0) for x in members}


def _is_win(g, win):
    return g.score == win


_CN = [
    Criterion("opp_score", "对手分", "opponents' score (Buchholz/SOS)", _opp_score(0)),
    Criterion("opp_score_cut1", "中间对手分", "Buchholz cut 1", _opp_score(1)),
    Criterion("sosos", "对手对手分", "SOSOS", _sosos),
    Criterion("progressive", "累进分", "progressive score", _progressive),
    Criterion("sonneborn_berger", "小分", "Sonneborn-Berger", _small_points),
    Criterion("games_won", "胜局数", "wins", _count(_is_win), places=None),
    Criterion("black_games", "后走局数", "games as second player (black)",
              _count(lambda g, w: g.kind == PLAYED and g.colour == "B"), places=None),
    Criterion("black_wins", "后胜局", "wins as second player (black)",
              _count(lambda g, w: g.kind == PLAYED and g.colour == "B" and g.score == w),
              places=None),
    Criterion("direct_encounter", "直胜", "direct encounter", lambda m, r, c: _direct(m, r, c),
              group_dependent=True, places=1),
    Criterion("fouls", "犯规", "fouls (fewer first)", _fouls, descending=False, places=None),
    Criterion("backwards_by_round", "逐轮倒序比较", "results from the last round backwards",
              _backwards, places=None, fmt=_show_rounds, step_zh="倒数第{i}轮",
              step_en="round {i} from the end"),
]

C07_NAMES = {"BH": "对手分(BH)", "BH-C1": "中间对手分(BH-C1)", "BH-C2": "BH-C2",
             "BH-M1": "BH-M1", "BH-M2": "BH-M2", "SB": "小分(SB)", "SB-C1": "SB-C1",
             "PS": "累进分(PS)", "PS-C1": "PS-C1", "ARO": "对手平均等级分(ARO)",
             "ARO-C1": "ARO-C1", "AOB": "AOB", "FB": "FB", "WIN": "胜局(WIN)",
             "WON": "实胜局(WON)", "BPG": "执黑局数(BPG)", "BWG": "执黑胜局(BWG)"}
FIDE_CODES = tuple(C07_NAMES) + ("DE",)

for _c in _CN:
    register(_c)
for _code, _zh in C07_NAMES.items():
    register(Criterion(_code, _zh, _code, _fide(_code),
                       places=0 if _code.startswith("ARO") else 2,
                       fmt=None))
register(Criterion("DE", "直胜(DE)", "DE", _direct, group_dependent=True, places=1))

#: 规程 chains as data (name → clause, chain). The first item is the main score.
PRESETS: dict[str, dict] = {
    "xiangqi_14_3_1": {
        "clause": "象棋竞赛规则 14.3.1",
        "chain": ["score", "opp_score", "games_won", "fouls", "black_games",
                  "backwards_by_round", "lots"],
        "note": "积分 → 对手分 → 胜局 → 犯规 → 后走局数 → 逐轮倒序比较；轮空计入对手分为有得分者中最低分（14.4）"},
    "xiangqi_14_3_2": {
        "clause": "象棋竞赛规则 14.3.2",
        "chain": ["score", "progressive", "games_won", "fouls", "black_games", "lots"],
        "note": "积分 → 累进分 → 胜局 → 犯规 → 后走局数（去掉首轮比较未实现，以抽签代替）"},
    "go": {
        "clause": "云比赛网/中国围棋竞赛规则惯例",
        "chain": ["score", "opp_score", "progressive", "lots"],
        "note": "积分 → 对手分 → 累进分；轮空不计对手分（bye_opp_score=zero）"},
    "chess_fide": {
        "clause": "FIDE C.07 (2024) §4 individual Swiss recommendation",
        "chain": ["score", "BH-C1", "BH", "SB", "DE", "WIN", "BPG", "lots"],
        "note": "FIDE codes with the Art. 16 unplayed-round rules; edition in ctx"},
}


class TieBreakSettings(BaseModel):
    """A 规程's ranking for a board-game Swiss: the chain and the readings it needs.

    ``chain``: criterion names (first = main score); defaults to ``PRESETS[preset]``.
    ``bye_opp_score``: what a bye adds to 对手分 (``lowest_scored`` 象棋竞赛规则 14.4, ``zero``
    云比赛网, ``c07`` virtual opponent). ``edition``: FIDE C.07 text for the FIDE codes.
    ``win_points``: points of a win (2 or 1). :meth:`ctx` gives the ``rank`` context.
    """

    model_config = ConfigDict(extra="forbid")

    preset: Literal["xiangqi_14_3_1", "xiangqi_14_3_2", "go", "chess_fide"] = "xiangqi_14_3_1"
    chain: list[str] | None = None
    bye_opp_score: Literal["lowest_scored", "zero", "c07"] = "lowest_scored"
    edition: Literal["fide-2024", "fide-2026"] = "fide-2024"
    win_points: Decimal = Decimal(2)
    total_rounds: int | None = Field(None, ge=1)
    clause: str | None = "象棋竞赛规则 14.3、14.4"
    note: str | None = ("轮空计入对手分：有得分者中的最低分（14.4）；云比赛网惯例为0分，可改。"
                        " / a bye adds the lowest score among scorers to 对手分 (14.4); 0 on yunbisai")

    def resolved_chain(self) -> list[str]:
        """The chain (``chain`` or the preset's)."""
        return list(self.chain) if self.chain else list(PRESETS[self.preset]["chain"])

    def ctx(self) -> dict:
        """Context for :func:`bianpai.engines.standings.rank`."""
        return {"bye_opp_score": self.bye_opp_score, "edition": self.edition,
                "win_points": self.win_points, "total_rounds": self.total_rounds}
