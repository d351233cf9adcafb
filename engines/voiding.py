"""Annulling results (成绩无效) and withdrawals (退赛), for every format and scoring.

A voided match keeps its :class:`~bianpai.engines.core.Match` (the 对阵 record and the cross
table still show it) but every side's outcome becomes ``VOID`` with 0 match points, so
:func:`~bianpai.engines.core.entrant_rows` marks its rows ``complete=False`` and no criterion of
:mod:`bianpai.engines.standings` counts it, for either side. The typed values stay in
``values`` for display; the 说明 note says why.

Sources: Qingdao gouji 2015 九第一条2 (如遇对方弃赛，弃权方成绩为0，则该队所有成绩均为无效), 十（十）
(取消比赛资格及全部比赛成绩); DESIGN.md ("a team that forfeits in the gouji event has all its
matches annulled for everyone"); issue 8 §1 ``withdraw`` (results kept or annulled as the 规程
says).
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Iterable, Literal, Mapping

from bianpai.engines.core import MatchResult
from bianpai.engines.errors import RuleError

__all__ = ["void_result", "annul_entrant", "withdraw_results", "WITHDRAWAL_POLICIES"]

WITHDRAWAL_POLICIES = ("keep", "annul")


def _as_list(results: Iterable[MatchResult] | Mapping) -> list[MatchResult]:
    return list(results.values()) if isinstance(results, Mapping) else list(results)


def void_result(result: MatchResult, note_zh: str, note_en: str) -> MatchResult:
    """``result`` annulled: outcome ``VOID`` and 0 points for every side, ``values`` kept for
    display, the note appended (Chinese and English)."""
    n = len(result.match.sides)
    zh = "；".join(x for x in (result.note_zh, note_zh) if x)
    en = "; ".join(x for x in (result.note_en, note_en) if x)
    return replace(result, points=tuple(Decimal(0) for _ in range(n)),
                   outcome=tuple("VOID" for _ in range(n)), note_zh=zh, note_en=en)


def annul_entrant(results: Iterable[MatchResult] | Mapping, entrant: int, *,
                  from_round: int = 1, reason_zh: str = "", reason_en: str = "",
                  clause: str | None = None) -> list[MatchResult]:
    """Every result of ``entrant`` (rounds ≥ ``from_round``) turned ``VOID`` for both sides.

    ``results``: MatchResults (a list, or ``StageState.results`` dict); returns a new list in
    the same order, other results unchanged (pure). Byes of ``entrant`` are voided too. The note
    reads e.g. "因7号弃权，其全部成绩无效（九第一条2）" / "void: entrant 7 forfeited; all its
    results are annulled (九第一条2)"; ``reason_*`` replace the default reason.
    Already void results are left as they are (no second note).
    """
    e = int(entrant)
    src = f"（{clause}）" if clause else ""
    zh = (reason_zh or f"{e}号的全部成绩无效") + src
    en = f"void: {reason_en or f'all results of entrant {e} are annulled'}" + (
        f" ({clause})" if clause else "")
    out = []
    for r in _as_list(results):
        if e in r.match.sides and r.match.round >= from_round and \
                not all(o == "VOID" for o in r.outcome):
            out.append(void_result(r, zh, en))
        else:
            out.append(r)
    return out


def withdraw_results(results: Iterable[MatchResult] | Mapping, entrant: int,
                     policy: Literal["keep", "annul"] = "keep", *, clause: str | None = None
                     ) -> list[MatchResult]:
    """Results after ``entrant`` withdraws (退赛). ``keep``: played results stand (later rounds
    are simply not drawn: the format reads ``StageEntrant.withdrawn_after``); ``annul``: all its
    results are voided for everyone (:func:`annul_entrant`). Raises ``RuleError`` for an
    unknown policy."""
    if policy not in WITHDRAWAL_POLICIES:
        raise RuleError(f"未知的退赛处理方式：{policy}（应为 keep 或 annul）",
                        f"unknown withdrawal policy {policy!r} (keep or annul)")
    if policy == "keep":
        return _as_list(results)
    return annul_entrant(results, entrant, reason_zh=f"{int(entrant)}号退赛，其全部成绩无效",
                         reason_en=f"entrant {int(entrant)} withdrew; all its results are "
                                   f"annulled", clause=clause)
