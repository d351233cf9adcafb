"""80分（升级）stage scoring: 比赛分 per board compared across tables, penalties, the countback.

Results on a board are compared among all tables that played it, in the same direction, into
比赛分 (matchpoints: 2 per result beaten, 1 per tie; the Neuberg formula when a board was played
fewer times, :mod:`bianpai.engines.matchpoints`). A pair's total is Σ 比赛分 less the 比赛分
penalties; equal totals are split by the best single board, then the next best (countback).

Source: fujian-elder-mind-games-2024 扑克牌升级（80分）比赛规则 二3（比赛名次：首先比较比赛中所获比赛分
之和，高者列前；如比赛分相同，则比较最高分，多者列前；如仍相同，则比较次高分，多者列前，以此类推）, 三7, 四10,
四11, 五; Law 78A (matchpoints); research/scoring-anchors.md §3, §5.3.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

import pandas as pd

from bianpai.engines.core import Match, MatchResult, is_blank
from bianpai.engines.errors import InputError, InputErrors
from bianpai.engines.matchpoints import board_matchpoints, top
from bianpai.engines.mitchell import NS, boards_from_label, direction_of
from bianpai.engines.rounding import to_decimal
from bianpai.engines.standings import Criterion, register, sum_of
from bianpai.engines.typed_rows import row_dicts
from bianpai.engines.upgrade80_board import PENALTY_KINDS, _int, board_score

if TYPE_CHECKING:
    from bianpai.engines.upgrade80 import Upgrade80Scoring

__all__ = ["score_round", "score_stage"]


def _side(v, what="side") -> int:
    if isinstance(v, str):
        s = v.strip()
        if s in ("0", "1"):
            return int(s)
        return 0 if direction_of(s) == NS else 1
    i = int(v)
    if i not in (0, 1):
        raise InputError(f"方向 {v} 无效（0 南北、1 东西）", f"side {v} invalid (0 NS, 1 EW)")
    return i


def score_round(matches: list[Match], board_rows: pd.DataFrame,
                adjustments: pd.DataFrame | None = None, *,
                rules: Upgrade80Scoring | None = None) -> list[MatchResult]:
    """Score every match of a Mitchell stage so far (the name says "round": it is called once
    per draw/score cycle with ALL matches drawn so far, since a board travels through every round).

    ``matches``: the stage's matches (``sides = (NS, EW)``, ``label`` naming the boards, see
    :func:`bianpai.engines.mitchell.boards_from_label`). ``board_rows``: one row per table and
    board, columns ``round`` (int), ``table`` (int), ``board`` (int), ``points`` (int, the 得分 of
    the scored side), optional ``scored`` (``NS``/``EW``/南北/东西; default ``rules.scored_side``),
    ``kitty_points`` (int), ``kitty`` (str 抠底 code), ``adjust`` (int points, ±).
    ``adjustments`` (optional): columns ``round``, ``table``, ``side`` (0/1 or NS/EW), ``kind``
    (``board_misplaced``/插错牌套 三7 — needs ``board``; ``discipline``/违纪 五; ``mp`` any
    比赛分 deduction; ``late``/迟到 四11 — ``value`` = minutes late, over ``late_minutes``
    forfeits the round), optional ``board`` (int) and ``value`` (Decimal; 比赛分 deducted,
    default ``penalty_mp``).

    Returns one :class:`MatchResult` per match that is complete (all its boards typed, or
    forfeited, or a sit-out), in input order: ``points`` = (NS Σ比赛分 − penalties, EW …)
    (Decimal), ``outcome`` W/D/L (BYE for a sit-out, FW/FL for a lateness forfeit),
    ``values``: ``board_mps`` (per side a tuple of Decimal 比赛分, one per board, board order),
    ``board_points`` (per side a tuple of its own-perspective board scores; None where not
    played), ``top`` (Σ tops of its boards, Decimal), ``penalty_mp`` (Decimal deducted).

    Raises ``InputErrors`` (each ``InputError`` carries ``row`` = the index label of the bad
    row and ``table`` = ``"board_rows"`` or ``"adjustments"``) for: a row for a table/round not
    drawn, a board the table did not play, a duplicate board row, a bad value, a penalty on an
    unknown board or table, board rows for a forfeited round.
    """
    if rules is None:
        from bianpai.engines.upgrade80 import Upgrade80Scoring  # noqa: PLC0415
        rules = Upgrade80Scoring()
    errors: list[InputError] = []

    def err(e: InputError, row, table: str) -> None:
        e.row = row  # type: ignore[attr-defined]
        e.table = table  # type: ignore[attr-defined]
        e.zh = f"{'成绩' if table == 'board_rows' else '罚则'}第{row}行：{e.zh}"
        e.en = f"{table} row {row}: {e.en}"
        errors.append(e)

    by_key: dict[tuple[int, int], Match] = {}
    boards_of: dict[tuple[int, int], tuple[int, ...]] = {}
    for m in matches:
        k = (m.round, m.table)
        by_key[k] = m
        if all(s is None for s in m.sides):
            boards_of[k] = ()
            continue
        boards_of[k] = boards_from_label(m.label)

    # ---- adjustments
    adj = adjustments if adjustments is not None else pd.DataFrame()
    penalties: dict[tuple[int, int], list[Decimal]] = {k: [Decimal(0), Decimal(0)] for k in by_key}
    forfeits: dict[tuple[int, int], int] = {}
    #: 四10 board ended for illegal information: (round, table) → board → (offending side, points)
    ended: dict[tuple[int, int], dict[int, tuple[int, int]]] = {}
    for idx, a in zip(adj.index.tolist(), row_dicts(adj)):
        try:
            k = (_int(a.get("round"), "轮次", "round"), _int(a.get("table"), "桌号", "table"))
            if k not in by_key:
                raise InputError(f"第{k[0]}轮第{k[1]}桌没有对阵", f"no match at round {k[0]} "
                                 f"table {k[1]}")
            kind_raw = str(a.get("kind", "")).strip()
            kind = PENALTY_KINDS.get(kind_raw, PENALTY_KINDS.get(kind_raw.lower()))
            if kind is None:
                raise InputError(f"罚则类别「{kind_raw}」无效（插错牌套、违纪、比赛分、迟到、传递非法信息）",
                                 f"penalty kind {kind_raw!r} invalid (board_misplaced, "
                                 f"discipline, mp, late)")
            side = _side(a.get("side"))
            if by_key[k].sides[side] is None:
                raise InputError(f"第{k[0]}轮第{k[1]}桌该方向无人", f"no pair on that side at "
                                 f"round {k[0]} table {k[1]}")
            board = None if is_blank(a.get("board")) else _int(a.get("board"), "牌号", "board")
            if kind == "board_misplaced" and board is None:
                raise InputError("插错牌套的罚分须写明牌号（三7）",
                                 "a misplaced-board penalty needs the board number (三7)")
            if board is not None and board not in boards_of[k]:
                raise InputError(f"第{k[0]}轮第{k[1]}桌没有打第{board}副牌",
                                 f"round {k[0]} table {k[1]} did not play board {board}")
            val = a.get("value")
            if kind == "illegal_info":
                if board is None:
                    raise InputError("传递非法信息判该副结束须写明牌号（四10），如「传递非法信息 第5副」",
                                     "an illegal-information ruling needs the board (四10)")
                pts = rules.illegal_info_points if is_blank(val) else _int(val, "罚分", "points")
                if pts < 0 or pts > rules.total_points or pts % rules.point_step:
                    raise InputError(f"传递非法信息：非违规方得分 {pts} 无效（四10 为120分；须为 0–"
                                     f"{rules.total_points} 之间 {rules.point_step} 的倍数）",
                                     f"illegal information: points {pts} to the other side invalid")
                if board in ended.setdefault(k, {}):
                    raise InputError(f"第{k[0]}轮第{k[1]}桌第{board}副已判过传递非法信息",
                                     f"board {board} at round {k[0]} table {k[1]} ruled twice")
                ended[k][board] = (side, pts)
                continue
            if kind == "late":
                minutes = to_decimal(val) if not is_blank(val) else Decimal(rules.late_minutes + 1)
                if minutes > rules.late_minutes:
                    forfeits[k] = side
                continue
            mp = rules.penalty_mp if is_blank(val) else to_decimal(val)
            if mp < 0:
                raise InputError(f"罚比赛分 {mp} 须为正数", f"penalty {mp} must be positive")
            penalties[k][side] += mp
        except InputError as e:
            err(e, idx, "adjustments")
        except (ValueError, TypeError) as e:
            err(InputError(f"数值无效：{e}", f"invalid value: {e}"), idx, "adjustments")

    # ---- board rows
    scores: dict[tuple[int, int], dict[int, Decimal]] = {k: {} for k in by_key}
    for idx, b in zip(board_rows.index.tolist(), row_dicts(board_rows)):
        try:
            k = (_int(b.get("round"), "轮次", "round"), _int(b.get("table"), "桌号", "table"))
            if k not in by_key or not by_key[k].entrants:
                raise InputError(f"第{k[0]}轮第{k[1]}桌没有对阵", f"no match at round {k[0]} "
                                 f"table {k[1]}")
            m = by_key[k]
            if m.is_bye:
                raise InputError(f"第{k[0]}轮第{k[1]}桌轮空，不应有成绩",
                                 f"round {k[0]} table {k[1]} is a sit-out: no board results")
            if k in forfeits:
                raise InputError(f"第{k[0]}轮第{k[1]}桌已判迟到弃权（四11），不应有成绩",
                                 f"round {k[0]} table {k[1]} is forfeited for lateness: "
                                 f"no board results")
            board = _int(b.get("board"), "牌号", "board")
            if board not in boards_of[k]:
                raise InputError(f"第{k[0]}轮第{k[1]}桌本轮打第{_span(boards_of[k])}副，没有打第{board}副",
                                 f"round {k[0]} table {k[1]} played boards "
                                 f"{_span(boards_of[k])}, not board {board}")
            if board in ended.get(k, {}):
                raise InputError(f"第{k[0]}轮第{k[1]}桌第{board}副已判传递非法信息、该副结束（四10，"
                                 f"见罚分表），得分等请留空",
                                 f"board {board} of round {k[0]} table {k[1]} was ended for "
                                 f"illegal information (四10): leave its points empty")
            if board in scores[k]:
                raise InputError(f"第{k[0]}轮第{k[1]}桌第{board}副成绩重复",
                                 f"board {board} of round {k[0]} table {k[1]} is typed twice")
            scored = rules.scored_side if is_blank(b.get("scored")) else direction_of(b.get("scored"))
            s = board_score(b.get("points"), b.get("kitty_points"), b.get("kitty"),
                            b.get("adjust"), rules=rules)
            scores[k][board] = Decimal(s if scored == NS else -s)
        except InputError as e:
            err(e, idx, "board_rows")
    if errors:
        raise InputErrors(errors)
    # 四10: the board ends, the offender loses it, the other side is scored the points (120)
    notes: dict[tuple[int, int], list[str]] = {}
    offences: dict[int, int] = {}
    for k in sorted(ended):
        for bd, (off, pts) in sorted(ended[k].items()):
            scores[k][bd] = Decimal(-pts if off == 0 else pts)
            who = by_key[k].sides[off]
            offences[who] = offences.get(who, 0) + 1
            other = "东西" if off == 0 else "南北"
            text = (f"第{bd}副{'南北' if off == 0 else '东西'}{who}号传递非法信息，该副结束，{other}得"
                    f"{pts}分（四10）")
            if offences[who] >= rules.illegal_info_disqualify:
                text += f"；{who}号累计{offences[who]}次，按四10取消比赛资格（成绩取消）"
            notes.setdefault(k, []).append(text)

    # ---- which matches count
    complete = {k for k, m in by_key.items() if not m.is_bye and k not in forfeits
                and set(scores[k]) == set(boards_of[k])}
    counted = complete | {k for k in forfeits if not by_key[k].is_bye}
    played: dict[int, list[tuple[int, int]]] = {}
    for k in counted:
        for bd in boards_of[k]:
            played.setdefault(bd, []).append(k)

    # ---- matchpoint every board
    half = Decimal(1) if rules.scale == "2/1/0" else Decimal("0.5")
    mp: dict[tuple[int, int], dict[int, tuple[Decimal, Decimal]]] = {k: {} for k in by_key}
    board_top: dict[int, Decimal] = {}
    for bd, keys in played.items():
        keys = sorted(keys)
        expected = len(keys)
        ns_scores = [scores[k][bd] if k in complete else None for k in keys]
        real = sum(1 for s in ns_scores if s is not None)
        t = top(expected)
        board_top[bd] = t * half
        if real:
            ns_mps, ew_mps, _top = board_matchpoints(ns_scores,
                                                     expected=expected if rules.neuberg else real)
        for i, k in enumerate(keys):
            if k in complete:
                ns_v, ew_v = ns_mps[i], ew_mps[i]
            else:
                off = forfeits[k]
                shares = [rules.late_other_share, rules.late_other_share]
                shares[off] = rules.late_offender_share
                ns_v, ew_v = shares[0] * t, shares[1] * t
            mp[k][bd] = (Decimal(ns_v) * half, Decimal(ew_v) * half)

    # ---- results
    out: list[MatchResult] = []
    for m in matches:
        k = (m.round, m.table)
        if not m.entrants:
            continue
        bds = boards_of[k]
        if m.is_bye:
            present = 0 if m.sides[0] is not None else 1
            tops = [board_top.get(bd, Decimal(0)) for bd in bds]
            left = "退赛" in (m.label or "")  # the opponent withdrew (退赛): a setting's reading
            share = rules.bye_share if not left or rules.withdrawal_boards == "average" \
                else Decimal(0)
            own = tuple(share * t for t in tops)
            per_side = [(), ()]
            per_side[present] = own
            pen = penalties[k]
            pts = [Decimal(0), Decimal(0)]
            pts[present] = sum(own, Decimal(0)) - pen[present]
            outcome = ["BYE", "BYE"]
            out.append(MatchResult(m, tuple(pts), tuple(outcome), values={
                "board_mps": tuple(per_side), "board_points": ((), ()),
                "top": (sum(tops, Decimal(0)),) * 2, "penalty_mp": tuple(pen)},
                note_zh=("对手退赛，本轮各副" + ("按平均比赛分计" if share else "不计分")) if left
                else "轮空（本轮无对手）",
                note_en=("the opponent withdrew: " + ("average on each board" if share else
                                                      "the boards are not scored")) if left
                else "sit-out (no opponent this round)"))
            continue
        if k not in counted:
            continue
        ns_mps = tuple(mp[k][bd][0] for bd in bds)
        ew_mps = tuple(mp[k][bd][1] for bd in bds)
        pen = penalties[k]
        pts = (sum(ns_mps, Decimal(0)) - pen[0], sum(ew_mps, Decimal(0)) - pen[1])
        if k in forfeits:
            off = forfeits[k]
            outcome = ("FL", "FW") if off == 0 else ("FW", "FL")
            nz, ne = "迟到超过10分钟，该轮弃权（四11）", "late over 10 minutes: round forfeited (四11)"
            bp = ((None,) * len(bds), (None,) * len(bds))
        else:
            outcome = ("W", "L") if pts[0] > pts[1] else ("L", "W") if pts[0] < pts[1] else ("D", "D")
            nz = "；".join(notes.get(k, []))
            ne = "illegal information (四10)" if nz else ""
            bp = (tuple(scores[k][bd] for bd in bds), tuple(-scores[k][bd] for bd in bds))
        tot = sum((board_top[bd] for bd in bds), Decimal(0))
        out.append(MatchResult(m, pts, outcome, values={
            "board_mps": (ns_mps, ew_mps), "board_points": bp, "top": (tot, tot),
            "penalty_mp": tuple(pen)}, note_zh=nz, note_en=ne))
    return out


#: same function; the stage is what it scores
score_stage = score_round


def _span(bds: tuple[int, ...]) -> str:
    if not bds:
        return "—"
    return f"{bds[0]}-{bds[-1]}" if len(bds) > 1 else str(bds[0])


# ------------------------------------------------------------------------------ countback

def _countback(column: str):
    """Criterion function: the entrant's per-board values of ``column`` over all its rows,
    sorted best first, as a tuple (compared lexicographically: the best board, then the next
    best …). Source: 二3 如比赛分相同，则比较最高分，多者列前；如仍相同，则比较次高分。"""
    def compute(members, results, ctx):
        r = results
        if "complete" in r.columns:
            r = r[r["complete"].astype(bool)]
        vals: dict = {e: [] for e in members}
        if column in r.columns:
            for e, tup in zip(r["entrant"].tolist(), r[column].tolist()):
                if e in vals and isinstance(tup, tuple):
                    vals[e].extend(to_decimal(v) for v in tup if v is not None)
        return {e: tuple(sorted(v, reverse=True)) for e, v in vals.items()}
    return compute


def _show_tuple(v) -> str:
    if not v:
        return "—"
    head = "/".join(f"{x.normalize():f}" for x in list(v)[:5])
    return head + ("…" if len(v) > 5 else "")


#: 二3 首先比较比赛中所获比赛分之和: the per-board 比赛分 summed (the pipeline's match points),
#: named as the 规程 names it (a team event's 场分 is another thing)
register(Criterion("upgrade80_total", "比赛分之和", "total 比赛分", sum_of("match_points"), places=2))
register(Criterion("upgrade80_countback", "逐副比较最高比赛分", "best board 比赛分 countback",
                   _countback("board_mps"), fmt=_show_tuple))
register(Criterion("upgrade80_countback_points", "逐副比较最高得分", "best board points countback",
                   _countback("board_points"), fmt=_show_tuple))
