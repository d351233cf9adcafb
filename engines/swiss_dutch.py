"""The Dutch mode (国际象棋) of :class:`~bianpai.engines.swiss_individual.IndividualSwiss`: the
stage written as a TRF-16 and paired by :func:`bianpai.engines.trf.dutch_pairings` (FIDE C.04.3,
2025 text, through py4swiss)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from bianpai.engines.core import Match, StageState
from bianpai.engines.swiss_pairing import (BYE_LABEL, LATE_ENTRY_LABELS, REQUESTED_BYE_LABEL,
                                           _seed_key, late_entry_credit)

if TYPE_CHECKING:  # the format's settings; for annotations only
    from bianpai.engines.swiss_individual import IndividualSwiss

__all__ = ["state_to_trf", "dutch_round"]


def state_to_trf(state: StageState, fmt: IndividualSwiss, rnd: int, total: int,
                 first_colour: str = "white"):
    """The stage as a TRF-16 (:class:`bianpai.engines.trf.Trf`) ready to pair round ``rnd``,
    and the map start number → entrant. Start numbers by seed/rating/number (C.04.2 initial
    order); results W/D/L → ``1 = 0``, FW/FL → ``+ -``, 轮空 → ``U``, 请假 → ``H`` (``Z`` when it
    scored nothing), not in the round (late entry, withdrawn) → ``Z``; round ``rnd``'s requested
    byes and absences are written in advance (``H``/``Z``). With ``fmt.forfeit_counts_as_met``
    every pair whose game was forfeited (one or both sides) is an ``XXP`` forbidden pair, so the
    Dutch engine does not pair them again; false follows FIDE C.04.1 (an unplayed game is no
    meeting)."""
    from bianpai.engines.trf import Trf, TrfPlayer, TrfRound

    ents = sorted(state.entrants, key=_seed_key)
    sno = {e.number: i + 1 for i, e in enumerate(ents)}
    by_round: dict[int, dict[int, TrfRound]] = {}
    pts = {e.number: Decimal(0) for e in ents}
    val = {"W": ("1", Decimal(1)), "D": ("=", Decimal("0.5")), "L": ("0", Decimal(0)),
           "FW": ("+", Decimal(1)), "FL": ("-", Decimal(0))}
    for m in state.matches:
        if m.round >= rnd:
            continue
        slot = by_round.setdefault(m.round, {})
        res = state.results.get(m.key)
        if m.is_bye:
            e = m.entrants[0]
            if m.label in LATE_ENTRY_LABELS.values():
                got = res.points[m.sides.index(e)] if res is not None else late_entry_credit(fmt)
                code = "H" if got > 0 else "Z"
                pts[e] += Decimal("0.5") if got > 0 else Decimal(0)
            elif m.label == REQUESTED_BYE_LABEL:
                got = res.points[m.sides.index(e)] if res is not None else fmt.requested_bye_points
                code = "H" if got > 0 else "Z"
                pts[e] += Decimal("0.5") if got > 0 else Decimal(0)
            else:
                code = "U"
                pts[e] += 1
            slot[e] = TrfRound(None, "-", code)
            continue
        for i, e in enumerate(m.sides):
            code, v = val[res.outcome[i]] if res is not None else (" ", Decimal(0))
            pts[e] += v
            slot[e] = TrfRound(sno[m.sides[1 - i]], "w" if i == 0 else "b", code)
    absent = set(fmt.requested_byes.get(rnd, []))
    players = []
    for e in ents:
        rounds = []
        for r in range(1, rnd):
            got = by_round.get(r, {}).get(e.number)
            if got is None:  # not in that round: before a late entry (0 or ½, a setting) or gone
                late = r < e.join_round and fmt.late_entry == "half_per_round"
                got = TrfRound(None, "-", "H" if late else "Z")
                pts[e.number] += Decimal("0.5") if late else Decimal(0)
            rounds.append(got)
        gone = e.join_round > rnd or (e.withdrawn_after is not None and e.withdrawn_after < rnd)
        if e.number in absent:  # the file's points include a pre-set H (as py4swiss checks)
            half = fmt.requested_bye_points > 0
            rounds.append(TrfRound(None, "-", "H" if half else "Z"))
            pts[e.number] += Decimal("0.5") if half else Decimal(0)
        elif gone:
            rounds.append(TrfRound(None, "-", "Z"))
        players.append(TrfPlayer(number=sno[e.number], name=str(e.number),
                                 rating=int(e.rating or 0), points=pts[e.number], rounds=rounds))
    other = [("012", "bianpai"), ("XXR", str(total)), ("XXC", f"{first_colour}1")]
    if fmt.forfeit_counts_as_met:
        # the 规程 reading "a forfeited game counts as a meeting": its two players are a
        # forbidden pair (JaVaFo/bbpPairings/py4swiss ``XXP``), so they are not paired again
        # (FIDE C.04.1 would let them meet: setting false)
        met = sorted({tuple(sorted((sno[m.sides[0]], sno[m.sides[1]])))
                      for m in state.matches if m.round < rnd and not m.is_bye
                      and (r := state.results.get(m.key)) is not None
                      and {"FW", "FL"} & set(r.outcome)})
        other += [("XXP", f"{a} {b}") for a, b in met]
    trf = Trf(players=players, other=other, total_rounds=total, first_colour=first_colour)
    return trf, {v: k for k, v in sno.items()}


def dutch_round(state, fmt, rnd, total, rng) -> list[Match]:
    from bianpai.engines.trf import dutch_pairings

    first = fmt.first_colour if fmt.first_colour != "lot" else rng.choice(["white", "black"])
    trf, back = state_to_trf(state, fmt, rnd, total, first)
    pairs = dutch_pairings(trf)
    ms = []
    bye = None
    for w, b in pairs:
        if b == 0:
            bye = back[w]
        else:
            ms.append(Match(round=rnd, table=len(ms) + 1, sides=(back[w], back[b])))
    t = len(ms)
    if bye is not None:
        t += 1
        ms.append(Match(round=rnd, table=t, sides=(bye, None), label=BYE_LABEL))
    for e in sorted(fmt.requested_byes.get(rnd, [])):
        t += 1
        ms.append(Match(round=rnd, table=t, sides=(e, None), label=REQUESTED_BYE_LABEL))
    return ms
