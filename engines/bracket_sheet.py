"""The bracket sheet's data: every slot of a bracket with placeholders, for drawing it in
cells or as a picture (pure)."""

from __future__ import annotations

import math
from decimal import Decimal

import pandas as pd

from bianpai.engines.bracket_base import _Bracket
from bianpai.engines.bracket_playoffs import playoff_block_of
from bianpai.engines.bracket_seeding import Feeder
from bianpai.engines.bracket_structure import UNKNOWN, Node, Resolved, round_name
from bianpai.engines.core import StageState
from bianpai.engines.single_elimination import SingleElimination



# ============================================================================ bracket sheet

def bracket_table(state: StageState, fmt: _Bracket) -> pd.DataFrame:
    """Every slot of the whole bracket, for drawing a bracket sheet (pure).

    One row per node and side. Columns: ``pool`` (object), ``part`` (str: SE/3rd/PO/WB/LB/GF;
    PO = a play-off for places, :mod:`bianpai.engines.bracket_playoffs`),
    ``round`` (int, stage round), ``bracket_round`` (int), ``round_zh``/``round_en`` (str),
    ``label`` (str), ``pos`` (int, top to bottom within its round), ``y`` (float: vertical centre
    of the node in first-round match units, for drawing), ``slot`` (0/1), ``entrant`` (Int64, NA
    when unknown or a bye), ``text`` (entrant number, or a placeholder: ``轮空`` for a bye,
    ``QF1胜者`` / ``SF2负者`` for a side still to come, ``抽签`` in redraw mode), ``score``
    (str, when a result is typed: :func:`match_score` — frames, 局分, IMPs or match points), ``won`` (bool), ``status`` (str, see
    :class:`Resolved`), ``next`` (str: label of the node its winner goes to, "" if none).
    """
    rows: list[dict] = []
    for pool in state.pools():
        n = len(state.pool_entrants(pool))
        if isinstance(fmt, SingleElimination) and fmt.seeding == "redraw":
            res = fmt.resolution(state, pool)
            total = fmt.total_rounds(StageState(state.pool_entrants(pool)))
            # a stage that ends with K > 1 left has no final: its rounds are 第1轮, 第2轮 …
            # (48 → 24 → 12 → 6 has no 1/4决赛), not named back from a final it does not play
            total = total if fmt.stop_at(pool) <= 1 else None
            nodes = list(res.nodes.values())
            counts = {}
            for r in nodes:
                counts[r.node.round] = counts.get(r.node.round, 0) + 1
            for r in nodes:
                rows.extend(_slot_rows(pool, r, total, "", float(r.node.pos), fmt))
            left = len(fmt._redraw_resolution(state, pool)[1])
            rnd = state.rounds_drawn(pool) + 1
            while left > fmt.stop_at(pool):
                for m in range(1, left // 2 + left % 2 + 1):
                    nd = Node(f"R{rnd}-{m}", rnd, (("seed", 0), ("seed", 0)), "SE", m, rnd)
                    rows.extend(_slot_rows(pool, Resolved(nd, (UNKNOWN, UNKNOWN), "pending"),
                                           total, "", float(m), fmt, placeholder="抽签"))
                left, rnd = (left + 1) // 2, rnd + 1
            continue
        res = fmt.resolution(state, pool)
        nodes = [r.node for r in res.nodes.values()]
        feeds: dict[str, str] = {}
        for nd in nodes:
            for kind, ref in nd.sides:
                if kind == "W":
                    feeds[ref] = nd.id
        total = max((nd.bracket_round for nd in nodes if nd.part in ("SE", "WB")), default=1)
        full = int(math.log2(fmt._size(n))) if isinstance(fmt, SingleElimination) else total
        if isinstance(fmt, SingleElimination) and fmt.stop_at(pool) > 1:
            full = None  # ends with K > 1 left (a qualifier flight): 第1轮 …, no 1/4决赛
        for r in res.nodes.values():
            nd = r.node
            if nd.part in ("SE", "WB"):
                y = (nd.pos - 0.5) * 2 ** (nd.bracket_round - 1)
            elif nd.part == "3rd":
                y = -1.0
            else:
                y = float(nd.pos)
            rows.extend(_slot_rows(pool, r, full, feeds.get(nd.id, ""), y, fmt))
    cols = ["pool", "part", "round", "bracket_round", "round_zh", "round_en", "label", "pos", "y",
            "slot", "entrant", "text", "score", "won", "status", "next"]
    df = pd.DataFrame(rows, columns=cols)
    df["entrant"] = df["entrant"].astype("Int64")
    return df


#: the value a bracket shows as a side's score, first found wins: the frames of a frame race
#: (中式台球 局数), the 局分 of a match decided on them (够级 九第一条2 "累计局得分多者获胜", 掼蛋
#: knockout 九（二）), the IMPs of a bridge knockout match; else the match points
SCORE_VALUES = ("frames_won", "game_points", "imps_won")


def match_score(res, side: int) -> str:
    """The score of side ``side`` of the scored match ``res`` as a bracket shows it (签表
    比分/局数, 签表图, the bracket picture): the first of :data:`SCORE_VALUES` the scoring
    gives, else its match points. A whole number shows without decimals (``Decimal("12.0")``
    → ``"12"``)."""
    for key in SCORE_VALUES:
        vals = res.values.get(key)
        if vals is not None and side < len(vals) and vals[side] is not None:
            return _plain(vals[side])
    return _plain(res.points[side])


def _plain(v) -> str:
    try:
        d = Decimal(str(v))
    except (ArithmeticError, ValueError):
        return str(v)
    return str(int(d)) if d == d.to_integral_value() else str(d.normalize())


def _source_text(feeder: Feeder) -> str:
    kind, ref = feeder
    if kind == "seed":
        return f"{ref}号签位"
    return f"{ref}{'胜者' if kind == 'W' else '负者'}"


def _slot_rows(pool, r: Resolved, full_rounds: int | None, nxt: str, y: float, fmt,
               placeholder: str | None = None) -> list[dict]:
    nd = r.node
    if nd.part in ("SE",) and full_rounds is None:  # rounds without a final (see above)
        zh, en = f"第{nd.bracket_round}轮", f"Round {nd.bracket_round}"
    elif nd.part in ("SE",):
        _, zh, en = round_name(full_rounds, nd.bracket_round)
    elif nd.part == "3rd":
        zh, en = "三、四名决赛", "Third-place match"
    elif nd.part == "PO":
        a, b = playoff_block_of(nd.id)
        zh, en = f"第{a}–{b}名附加赛", f"Play-off for places {a}–{b}"
    elif nd.part == "WB":
        zh, en = f"胜部第{nd.bracket_round}轮", f"Winners' round {nd.bracket_round}"
    elif nd.part == "LB":
        zh, en = f"败部第{nd.bracket_round}轮", f"Losers' round {nd.bracket_round}"
    else:
        zh, en = "总决赛", "Grand final"
    out = []
    res = r.result
    for i in range(2):
        v = r.sides[i] if i < len(r.sides) else None
        if placeholder:
            text, ent = placeholder, pd.NA
        elif v is UNKNOWN:
            text, ent = _source_text(nd.sides[i]), pd.NA
        elif v is None:
            text, ent = "轮空", pd.NA
        else:
            text, ent = str(v), v
        score = ""
        if res is not None and v not in (None, UNKNOWN) and v in res.match.sides:
            score = match_score(res, list(res.match.sides).index(v))
        won = v not in (None, UNKNOWN) and r.winner == v and r.status in ("done", "bye")
        out.append({"pool": pool, "part": nd.part, "round": nd.round,
                    "bracket_round": nd.bracket_round, "round_zh": zh, "round_en": en,
                    "label": nd.id, "pos": nd.pos, "y": y, "slot": i, "entrant": ent,
                    "text": text, "score": score, "won": bool(won), "status": r.status,
                    "next": nxt})
    return out
