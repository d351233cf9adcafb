"""Play-offs for the places of a single-elimination bracket's losers (排位附加赛).

A knockout shares the places of each round's losers (3–4, 5–8, …) unless the 规程 has them
played off. otog 2024 pays places 1–8 of every individual event (总规程 九（二）2 "取前8名…第五名
400元、第六名300元、第七名200元、第八名100元") while 跳棋 is single elimination (单项 七（一）"比赛采取单淘汰");
the 规程 does not say how the losers are placed, so ``loser_order`` is a setting: ``shared`` (the
default: a shared place, the prize engine splits the pooled money) or ``playoffs`` (the losers of
each paid round play for their places, as the 掼蛋 knockout's
:class:`~bianpai.engines.finish_order.KnockoutLoserOrder` ``playoffs``).

Structure (pure): the losers of main round r (2^(R−r) of them, places a = 2^(R−r)+1 … 2a−2 in a
bracket of R rounds) form a block. Its first play-off round, in stage round r+1, pairs the losers
of main matches 1 v 2, 3 v 4, …; the winners play on for the upper half of the block's places,
the losers for the lower half, recursively, so every block ends in the final's round. Labels:
``P5-8.1``, ``P5-8.2`` (block 5–8, first round), ``P5-6`` and ``P7-8`` (the matches for places
5 and 7); the semi-final losers' block is the third-place match ``3rd``. Byes and withdrawals
behave as in the main bracket (:func:`bianpai.engines.bracket_structure.resolve`).
"""

from __future__ import annotations

import re

from bianpai.engines.bracket_seeding import Feeder
from bianpai.engines.bracket_structure import UNKNOWN, Node, Resolution

__all__ = ["playoff_label", "playoff_nodes", "playoff_places", "playoff_block_of"]

_LABEL = re.compile(r"^P(\d+)-(\d+)(?:\.(\d+))?$")


def playoff_label(first: int, size: int, match: int | None = None) -> str:
    """Label of a play-off match of the block of places ``first`` … ``first + size − 1``:
    the single match of a block of 2 (``"P5-6"``; ``"3rd"`` for places 3–4), else match
    ``match`` of the block's first round (``"P5-8.1"``)."""
    if size == 2:
        return "3rd" if first == 3 else f"P{first}-{first + 1}"
    return f"P{first}-{first + size - 1}.{match}"


def playoff_block_of(label: str) -> tuple[int, int] | None:
    """``(first, last)`` place of the block a play-off label belongs to (``"P5-8.1"`` → (5, 8),
    ``"3rd"`` → (3, 4)); ``None`` for a main-bracket label."""
    if label == "3rd":
        return 3, 4
    m = _LABEL.match(label or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def _block(feeders: list[Feeder], first: int, rnd: int) -> list[Node]:
    n = len(feeders)
    if n < 2:
        return []
    if n == 2:
        part = "3rd" if first == 3 else "PO"
        return [Node(playoff_label(first, 2), rnd, (feeders[0], feeders[1]), part, 1, rnd)]
    out: list[Node] = []
    for m in range(1, n // 2 + 1):
        out.append(Node(playoff_label(first, n, m), rnd, (feeders[2 * m - 2], feeders[2 * m - 1]),
                        "PO", m, rnd))
    labels = [nd.id for nd in out]
    out += _block([("W", x) for x in labels], first, rnd + 1)
    out += _block([("L", x) for x in labels], first + n // 2, rnd + 1)
    return out


def playoff_nodes(main: list[Node], places: int) -> list[Node]:
    """The play-off nodes of a full single-elimination bracket ``main`` (its ``SE`` nodes) for
    every block of losers whose first place is ≤ ``places`` (8: the third-place match and the
    5–8 block). Returns nodes in stage-round order (the last ones in the final's round)."""
    se = [nd for nd in main if nd.part == "SE"]
    if not se:
        return []
    total = max(nd.bracket_round for nd in se)
    out: list[Node] = []
    for r in range(total - 1, 0, -1):
        first = 2 ** (total - r) + 1
        if first > places:
            break
        losers = [("L", nd.id) for nd in sorted((x for x in se if x.bracket_round == r),
                                                key=lambda x: x.pos)]
        out += _block(losers, first, r + 1)
    return sorted(out, key=lambda nd: nd.round)


def playoff_places(res: Resolution, first: int, size: int
                   ) -> list[tuple[int, int, str]] | None:
    """Places of one block decided by its play-offs: ``(entrant, place, decided_by)`` rows, or
    ``None`` while a match of the block is undecided (the block's places stay shared)."""
    if size < 2:
        return []
    if size == 2:
        r = res.nodes.get(playoff_label(first, 2))
        if r is None or r.status in ("pending", "ready"):
            return None
        name = f"第{first}、{first + 1}名附加赛"
        rows = []
        if r.winner not in (None, UNKNOWN):
            rows.append((r.winner, first, name + ("胜" if r.status == "done" else "轮空")))
        if r.loser not in (None, UNKNOWN):
            rows.append((r.loser, first + 1, name + "负"))
        return rows
    upper = playoff_places(res, first, size // 2)
    lower = playoff_places(res, first + size // 2, size // 2)
    if upper is None or lower is None:
        return None
    return upper + lower
