"""FIDE C.07 tie-break values over per-player game records, with the rules for unplayed rounds.

:func:`c07_values` is a pure calculator over :class:`Game` records (player → rounds): BH, BH-C1/C2,
BH-M1/M2, SB, SB-C1, PS, PS-C1, ARO, ARO-C1, AOB, FB, WIN, WON, BPG, BWG, with the C.07 Art. 16
rules for unplayed rounds: categories 16.2, adjusted scores of opponents (16.3: category-5 rounds
count as draws), the virtual (dummy) opponent for one's own unplayed rounds (16.4: the player's own
score; ``edition="fide-2026"`` caps it at the scheduled opponent's adjusted score for forfeits,
16.4.1, or draw points × rounds otherwise, 16.4.2), and VUR-first cuts (16.5).

A late entrant's rounds before joining and a withdrawn player's rounds after leaving are
``requested_bye`` rounds (absences, VUR) like a 请假 bye.

Sources: FIDE C.07 (1 Aug 2024; March 2026 Art. 16.4 caps). The criteria reading the core's rows
are in :mod:`bianpai.engines.tiebreaks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["Game", "c07_values", "PLAYED", "PAB", "REQUESTED", "FWIN", "FLOSS", "FULL_BYE",
           "VUR_KINDS"]

PLAYED, PAB, REQUESTED, FWIN, FLOSS, FULL_BYE = (
    "played", "pairing_bye", "requested_bye", "forfeit_win", "forfeit_loss", "full_bye")
VUR_KINDS = (REQUESTED, FLOSS)


@dataclass(frozen=True)
class Game:
    """One round of one player. ``opponent``: None for a bye/absence. ``score``: own points
    (Decimal). ``colour``: ``"W"``/``"B"``/None. ``kind``: played, pairing_bye (PAB),
    requested_bye (half/zero-point bye, absence, rounds after a withdrawal), forfeit_win,
    forfeit_loss, full_bye. ``opp_rating``: the opponent's rating (ARO)."""

    round: int
    opponent: int | None
    score: Decimal
    colour: str | None = None
    kind: str = PLAYED
    opp_rating: Decimal | None = None


def _category(games: list[Game], i: int) -> int:
    """C.07 16.2 category of unplayed round ``i`` (0 for a played game)."""
    k = games[i].kind
    if k == PLAYED:
        return 0
    if k in (PAB, FULL_BYE):
        return 1
    if k == FWIN:
        return 2
    if k == FLOSS:
        return 4
    later = games[i + 1:]
    return 3 if any(g.kind not in VUR_KINDS for g in later) else 5


@dataclass
class _Item:
    round: int
    basis: Decimal   # the opponent's (adjusted) score: what the cut looks at
    value: Decimal   # the contribution
    vur: bool


def c07_values(records: dict[int, list[Game]], total_rounds: int, codes: list[str], *,
               edition: str = "fide-2024", win: Decimal = Decimal(1),
               ratings: dict[int, Decimal] | None = None,
               points: dict[int, Decimal] | None = None) -> dict[int, dict[str, Decimal]]:
    """C.07 tie-break values of every player in ``records`` (player → games in round order).

    ``codes``: C.07 codes (``BH``, ``BH-C1``, ``BH-C2``, ``BH-M1``, ``BH-M2``, ``SB``, ``SB-C1``,
    ``PS``, ``PS-C1``, ``ARO``, ``ARO-C1``, ``AOB``, ``FB``, ``WIN``, ``WON``, ``BPG``, ``BWG``).
    ``win``: points of a win (1, or 2 for 2/1/0: SB then weighs by score/win). Returns
    Decimal values (ARO half-up to an integer; AOB exact). Raises ``KeyError`` for an unknown
    code. ``points``: final scores when records are incomplete (context players). A cut that
    would remove every contribution (e.g. BH-M2 with 3 opponents) falls back to the uncut sum.
    Source: FIDE C.07 Arts. 7–9, 10.1, 14, 16."""
    draw = win / 2
    recs = {p: sorted(gs, key=lambda g: g.round) for p, gs in records.items()}
    raw = {p: sum((g.score for g in gs), Decimal(0)) for p, gs in recs.items()}
    for p, v in (points or {}).items():
        raw[p] = Decimal(v)

    def adjusted(p, gs=None, base=None):
        gs = recs.get(p, []) if gs is None else gs
        total = raw.get(p, Decimal(0)) if base is None else base
        for i, g in enumerate(gs):
            if _category(gs, i) == 5:
                total += draw - g.score
        return total

    adj = {p: adjusted(p) for p in recs}
    rec_adj = {p: adjusted(p, base=sum((g.score for g in gs), Decimal(0)))
               for p, gs in recs.items()}

    def items(p, scores: dict[int, Decimal], own_override: Decimal | None = None) -> list[_Item]:
        gs = recs[p]
        own = raw[p] if own_override is None else own_override
        out = []
        for i, g in enumerate(gs):
            if g.kind == PLAYED and g.opponent is not None:
                s = scores.get(g.opponent, Decimal(0))
                out.append(_Item(g.round, s, s, False))
            else:
                v = own
                if edition == "fide-2026":
                    if g.kind in (FWIN, FLOSS) and g.opponent is not None:
                        # the scheduled opponent's adjusted score over its recorded rounds
                        v = min(v, rec_adj.get(g.opponent, Decimal(0)))
                    else:
                        v = min(v, draw * total_rounds)
                out.append(_Item(g.round, v, v, _category(gs, i) in (3, 4, 5)))
        return out

    def sb_items(p) -> list[_Item]:
        return [_Item(it.round, it.basis, it.basis * g.score / win, it.vur)
                for it, g in zip(items(p, adj), recs[p])]

    def cut(its: list[_Item], low: int, high: int = 0) -> Decimal:
        its = list(its)
        if low + high >= len(its):
            low = high = 0
        for _ in range(low):
            if not its:
                break
            std = min(its, key=lambda x: (x.basis, x.value))
            vurs = [x for x in its if x.vur]
            pick = std
            if vurs:
                v = min(vurs, key=lambda x: x.value)
                if v.value > std.value:
                    pick = v
            its.remove(pick)
        for _ in range(high):
            if not its:
                break
            its.remove(max(its, key=lambda x: (x.basis, x.value)))
        return sum((x.value for x in its), Decimal(0))

    bh_cache: dict[int, Decimal] = {}

    def bh(p):
        if p not in bh_cache:
            bh_cache[p] = cut(items(p, adj), 0)
        return bh_cache[p]

    last = total_rounds
    out: dict[int, dict[str, Decimal]] = {}
    for p, gs in recs.items():
        vals: dict[str, Decimal] = {}
        for code in codes:
            if code == "BH":
                v = bh(p)
            elif code.startswith("BH-C"):
                v = cut(items(p, adj), int(code[4:]))
            elif code.startswith("BH-M"):
                n = int(code[4:])
                v = cut(items(p, adj), n, n)
            elif code == "SB":
                v = cut(sb_items(p), 0)
            elif code == "SB-C1":
                v = cut(sb_items(p), 1)
            elif code in ("PS", "PS-C1"):
                run, tot = Decimal(0), Decimal(0)
                for g in gs:
                    run += g.score
                    if code == "PS" or g.round > 1:
                        tot += run
                v = tot
            elif code == "WIN":
                v = Decimal(sum(1 for g in gs if g.score == win))
            elif code == "WON":
                v = Decimal(sum(1 for g in gs if g.kind == PLAYED and g.score == win))
            elif code == "BPG":
                v = Decimal(sum(1 for g in gs if g.kind == PLAYED and g.colour == "B"))
            elif code == "BWG":
                v = Decimal(sum(1 for g in gs if g.kind == PLAYED and g.colour == "B"
                                and g.score == win))
            elif code in ("ARO", "ARO-C1"):
                rs = [g.opp_rating if g.opp_rating is not None else (ratings or {}).get(g.opponent)
                      for g in gs if g.kind == PLAYED and g.opponent is not None]
                rs = sorted(Decimal(r) for r in rs if r is not None)
                if code == "ARO-C1" and rs:
                    rs = rs[1:]
                v = (sum(rs, Decimal(0)) / len(rs)).quantize(Decimal(1), ROUND_HALF_UP) \
                    if rs else Decimal(0)
            elif code == "AOB":
                opps = [g.opponent for g in gs if g.kind == PLAYED and g.opponent in recs]
                v = sum((bh(o) for o in opps), Decimal(0)) / len(opps) if opps else Decimal(0)
            elif code == "FB":
                def fore_raw(q):
                    return raw[q] + sum((draw - g.score for g in recs[q]
                                         if g.round == last and g.kind == PLAYED), Decimal(0))

                fscores = {q: adjusted(q, base=fore_raw(q)) for q in recs}
                v = cut(items(p, fscores, own_override=fore_raw(p)), 0)
            else:
                raise KeyError(code)
            vals[code] = v
        out[p] = vals
    return out
