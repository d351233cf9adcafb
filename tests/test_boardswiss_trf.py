"""TRF-16 read/write, FIDE Dutch through py4swiss against the bbpPairings and JaVaFo corpus.

规程 (全国智力运动会 2024 国际象棋): "采用2019年国际棋联审定的国际象棋竞赛规则 … 电脑编排";
FIDE C.04.3 (Dutch) and C.04.A (pairing-engine exchange format).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from bianpai.engines.errors import InputError
from bianpai.engines.trf import (Trf, TrfPlayer, TrfRound, dutch_pairings, format_pairings,
                                 next_round, parse_trf, trf_records, trf_standings, write_trf)

DUTCH = Path(__file__).parent / "data" / "boardswiss" / "dutch"
BBP = DUTCH / "bbppairings"
JAVAFO = DUTCH / "chesspairing-javafo"

py4swiss = pytest.importorskip("py4swiss")


def _read(p: Path) -> str:
    return p.read_bytes().decode("utf-8")


class TestTrfText:
    @pytest.mark.parametrize("case", ["issue_7", "dutch_2025_C5", "dutch_2025_C9"])
    def test_round_trip(self, case):
        t = parse_trf(_read(BBP / f"{case}.input"))
        assert parse_trf(write_trf(t)) == t
        assert parse_trf(write_trf(t, eol="\r\n")) == t

    def test_fields_and_bare_cr(self):
        t = parse_trf(_read(BBP / "issue_7.input"))  # bare CR line ends
        assert len(t.players) == 60 and t.total_rounds == 15 and t.rounds_played == 14
        p1 = t.player(1)
        assert p1.rating == 2720 and p1.points == Decimal("10.5")
        assert p1.rounds[0] == TrfRound(31, "b", "1")
        p4 = t.player(4)
        assert p4.rounds[0].result == "+" and p4.rounds[7].result == "-"
        c5 = parse_trf(_read(BBP / "dutch_2025_C5.input"))
        assert c5.player(4).rounds[2] == TrfRound(None, "-", "Z")
        assert c5.rounds_played == 2

    def test_bad_code_refused(self):
        line = "001    1      Test0001 Player0001               2720                             1.0    1     3 w Q"
        with pytest.raises(InputError):
            parse_trf(line)

    def test_records_and_standings(self):
        t = parse_trf(_read(BBP / "dutch_2025_C5.input"))
        recs = trf_records(t)
        assert [g.kind for g in recs[4]] == ["played", "played", "requested_bye"]
        rows = trf_standings(t, ["BH", "SB", "WIN"])
        assert rows[0]["points"] == 2 and {rows[0]["number"], rows[1]["number"]} == {1, 3}
        for r in rows:  # points equal the file's points column
            assert r["points"] == t.player(r["number"]).points


class TestDutchBbpPairings:
    """bbpPairings 6.0.0 regression cases (expected output byte for byte)."""

    def test_c9_pab_fewest_unplayed(self):
        t = parse_trf(_read(BBP / "dutch_2025_C9.input"))
        assert format_pairings(dutch_pairings(t)) == _read(BBP / "dutch_2025_C9.output.expected")

    def test_c5_pab_lowest_score_group(self):
        """C.04.3 (2025) C5: the PAB goes to the lowest score possible (player 6, 0 points),
        before the top bracket's pairs (2017 text: player 5 gets it, 1-3 pair)."""
        t = parse_trf(_read(BBP / "dutch_2025_C5.input"))
        assert format_pairings(dutch_pairings(t)) == _read(BBP / "dutch_2025_C5.output.expected")

    def test_issue_7(self):
        """C.04.3 (2025) Art. 1.4.3: a forfeit loss in round 14 (player 53) is no downfloat, so
        53 may float down in round 15 (all 30 boards as bbpPairings 6.0.0)."""
        t = parse_trf(_read(BBP / "issue_7.input"))
        assert format_pairings(dutch_pairings(t)) == _read(BBP / "issue_7.output.expected")

    @pytest.mark.parametrize("case, differs", [
        ("dutch_2025_C5", {"1 3", "6 2", "5 0"}),
        ("issue_7", {"27 50", "34 58", "47 48", "53 42"})])
    def test_2017_text_differs_where_2025_changed(self, case, differs):
        """The 2017 text (what py4swiss implements unadapted) pairs these two cases differently;
        the 2025 adaptation is what makes them equal to bbpPairings."""
        t = parse_trf(_read(BBP / f"{case}.input"))
        got = set(format_pairings(dutch_pairings(t, text="2017")).splitlines()[1:])
        want = set(_read(BBP / f"{case}.output.expected").replace("\r", "\n").splitlines()[1:])
        assert differs <= got and got != want

    def test_unknown_text_refused(self):
        from bianpai.engines.errors import RuleError
        t = parse_trf(_read(BBP / "dutch_2025_C9.input"))
        with pytest.raises(RuleError):
            dutch_pairings(t, text="2009")

    def test_issue_7_is_a_valid_round(self):
        t = parse_trf(_read(BBP / "issue_7.input"))
        pairs = dutch_pairings(t)
        seen = [x for p in pairs for x in p if x]
        assert len(seen) == len(set(seen)) == 60
        met = {frozenset((p.number, r.opponent)) for p in t.players for r in p.rounds
               if r.opponent and r.result in "10=WDL"}
        assert not any(frozenset(p) in met for p in pairs)


def _replay(d: Path):
    """Replay a JaVaFo scenario (README of the corpus): pairing numbers by rating, XXC white1,
    history = the expected pairings, results by the scenario's strategy, PAB = 1 point."""
    sc = json.loads((d / "scenario.json").read_text(encoding="utf-8"))
    ps = sorted(enumerate(sc["players"]), key=lambda x: (-x[1]["Rating"], x[0]))
    num = {p["ID"]: i + 1 for i, (_, p) in enumerate(ps)}
    rating = {num[p["ID"]]: p["Rating"] for _, p in ps}
    n, total = len(ps), sc["totalRounds"]
    hist: dict[int, list[TrfRound]] = {k: [] for k in range(1, n + 1)}
    val = {"1": Decimal(1), "U": Decimal(1), "=": Decimal("0.5")}
    for r in range(1, total + 1):
        exp = json.loads((d / f"round-{r}.json").read_text(encoding="utf-8"))
        players = [TrfPlayer(number=k, name=f"P{k}", rating=rating[k],
                             points=sum((val.get(x.result, Decimal(0)) for x in hist[k]),
                                        Decimal(0)), rounds=list(hist[k]))
                   for k in range(1, n + 1)]
        trf = Trf(players=players, other=[("012", d.name), ("XXR", str(total)),
                                          ("XXC", "white1")], total_rounds=total,
                  first_colour="white")
        want = [(num[p["WhiteID"]], num[p["BlackID"]]) for p in exp["Pairings"]] + \
            [(num[b["PlayerID"]], 0) for b in (exp["Byes"] or [])]
        yield r, trf, want
        for p in exp["Pairings"]:
            w, b = num[p["WhiteID"]], num[p["BlackID"]]
            if sc["resultStrategy"] == "higher-rated-wins":
                rw = "1" if rating[w] > rating[b] else "0" if rating[w] < rating[b] else "="
            else:
                rw = "1" if p["WhiteID"] < p["BlackID"] else "0"
            hist[w].append(TrfRound(b, "w", rw))
            hist[b].append(TrfRound(w, "b", {"1": "0", "0": "1", "=": "="}[rw]))
        for b in exp["Byes"] or []:
            hist[num[b["PlayerID"]]].append(TrfRound(None, "-", "U"))


@pytest.mark.parametrize("scenario", sorted(p.name for p in JAVAFO.iterdir() if p.is_dir()))
def test_dutch_javafo_scenarios(scenario):
    """Every round of the four JaVaFo 2.2 scenarios: same pairs, colours, bye and board order."""
    rounds = 0
    for r, trf, want in _replay(JAVAFO / scenario):
        assert dutch_pairings(trf) == want, f"round {r}"
        rounds += 1
    assert rounds >= 3


def test_next_round_appends_pairs():
    t = parse_trf(_read(BBP / "dutch_2025_C9.input"))
    pairs = dutch_pairings(t)
    t2 = next_round(t, pairs)
    assert t2.player(4).rounds[-1] == TrfRound(None, "-", "U")
    assert t2.player(2).rounds[-1] == TrfRound(1, "w", " ")


def test_individual_swiss_dutch_mode_event():
    """IndividualSwiss(mode="dutch") pairs a whole chess event through the TRF bridge with
    withdrawals, a late entry and a requested half-point bye; the invariants hold."""
    import random

    from bianpai.engines.core import MatchResult, StageEntrant, StageState
    from bianpai.engines.swiss_individual import IndividualSwiss

    from tests.test_boardswiss_individual import check_invariants

    fmt = IndividualSwiss(mode="dutch", rounds=5, first_colour="white",
                          requested_byes={3: [2]}, bye_points=Decimal(1),
                          requested_bye_points=Decimal("0.5"))
    ents = [StageEntrant(i, rating=Decimal(2400 - 10 * i)) for i in range(1, 12)]
    ents[10] = StageEntrant(11, rating=Decimal(1500), join_round=2)
    ents[9] = StageEntrant(10, rating=Decimal(1600), withdrawn_after=3)
    state = StageState(entrants=ents)
    rng = random.Random(2)
    one, half, zero = Decimal(1), Decimal("0.5"), Decimal(0)
    for r in range(1, 6):
        ms = fmt.next_round(state, rng)
        state.matches.extend(ms)
        for m in ms:
            if m.is_bye:
                p = half if m.label == "请假" else zero if m.label == "迟报未赛" else one
                state.results[m.key] = MatchResult(m, (p, zero), ("BYE", "BYE"))
            else:
                x = rng.choice([(one, zero, "W", "L"), (zero, one, "L", "W"),
                                (half, half, "D", "D")])
                state.results[m.key] = MatchResult(m, x[:2], x[2:])
        who = {e for m in ms if m.label != "迟报未赛" for e in m.entrants}
        assert (11 in who) == (r >= 2) and (10 in who) == (r <= 3)
        late = [m.sides for m in ms if m.label == "迟报未赛"]
        assert late == ([(11, None)] if r == 1 else [])
    check_invariants(state, fmt)
