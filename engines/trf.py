"""FIDE TRF-16 (tournament report file) as pure text ↔ data, FIDE Dutch pairing and C.07 values.

Layout of a player line (``001``, 1-based columns, FIDE TRF-16): 1–3 ``001``, 5–8 start number,
10 sex, 11–13 title, 15–47 name, 49–52 rating, 54–56 federation, 58–68 FIDE id, 70–79 birth date,
81–84 points, 86–89 rank, then one 10-character block per round from column 92: 92–95 opponent
(``0000`` = none), 97 colour (``w``/``b``/``-``), 99 result (``1 0 =`` played; ``+ -`` forfeit;
``W D L`` played but unrated; ``H`` half-point bye, ``F`` full-point bye, ``U`` pairing-allocated
bye, ``Z`` zero-point bye/absence; blank = not paired). Other lines are kept as ``(code, text)``;
JaVaFo's ``XXR n`` (total rounds) and ``XXC white1/black1`` are read into fields.
Line ends CR, LF and CRLF are all accepted.

:func:`dutch_pairings` pairs the next round by FIDE C.04.3 (2025 text) through py4swiss (optional
extra ``bianpai[chess]``, which implements the 2017 text: the two 2025 changes it lacks — the float
of an unplayed round, Art. 1.4.3, and the PAB choice, C5/C9 — are adapted here); :func:`trf_standings` gives each player's points and C.07 tie-breaks.
Sources: FIDE TRF-16 description; JaVaFo TRF(x) extensions; bbpPairings exchange format.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from decimal import Decimal

from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.tiebreaks import (FLOSS, FULL_BYE, FWIN, PAB, PLAYED, REQUESTED, Game,
                                       c07_values)

__all__ = ["TrfRound", "TrfPlayer", "Trf", "parse_trf", "write_trf", "dutch_pairings",
           "format_pairings", "trf_records", "trf_standings", "next_round"]


@dataclass(frozen=True)
class TrfRound:
    """One round block: ``opponent`` (start number or None), ``colour`` (``w``/``b``/``-``),
    ``result`` (one character, ``" "`` when not played yet)."""

    opponent: int | None
    colour: str
    result: str


@dataclass
class TrfPlayer:
    """One ``001`` line. ``rating`` 0 = unrated; ``points`` Decimal as written."""

    number: int
    name: str = ""
    sex: str = ""
    title: str = ""
    rating: int = 0
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    points: Decimal = Decimal(0)
    rank: int = 0
    rounds: list[TrfRound] = field(default_factory=list)


@dataclass
class Trf:
    """A parsed TRF: ``players`` in file order, ``other`` lines as (code, rest) in file order,
    ``total_rounds`` from ``XXR`` (None when absent), ``first_colour`` from ``XXC``."""

    players: list[TrfPlayer]
    other: list[tuple[str, str]] = field(default_factory=list)
    total_rounds: int | None = None
    first_colour: str | None = None

    def player(self, number: int) -> TrfPlayer:
        for p in self.players:
            if p.number == number:
                return p
        raise KeyError(number)

    @property
    def rounds_played(self) -> int:
        """Rounds with a result for every player (the round to pair is this + 1)."""
        if not self.players:
            return 0
        return min(sum(1 for r in p.rounds if r.result.strip() or r.opponent) for p in
                   self.players)


def _col(line: str, a: int, b: int) -> str:
    return line[a - 1:b].strip()


def _int(text: str, what: str, lineno: int) -> int:
    try:
        return int(text) if text else 0
    except ValueError as exc:
        raise InputError(f"TRF第{lineno}行{what}不是整数：{text!r}",
                         f"TRF line {lineno}: {what} is not an integer: {text!r}") from exc


def parse_trf(text: str) -> Trf:
    """Parse TRF-16 ``text`` (CR, LF or CRLF line ends). Raises ``InputError`` for a malformed
    player line (non-numeric start number, points or opponent; an unknown result code)."""
    players: list[TrfPlayer] = []
    other: list[tuple[str, str]] = []
    total = None
    first = None
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        code = line[:3]
        if code == "001":
            num = _int(_col(line, 5, 8), "起始号", i)
            pts_txt = _col(line, 81, 84) or "0"
            try:
                pts = Decimal(pts_txt.replace(",", "."))
            except Exception as exc:
                raise InputError(f"TRF第{i}行积分不是数字：{pts_txt!r}",
                                 f"TRF line {i}: points not a number: {pts_txt!r}") from exc
            rounds = []
            pos = 92
            while pos <= len(line.rstrip()):
                block = line[pos - 1:pos + 7].ljust(8)
                opp_txt, colour, result = block[0:4].strip(), block[5:6], block[7:8]
                opp = _int(opp_txt, "对手号", i) if opp_txt else 0
                if result not in "10=+-WDLHFUZ ½":
                    raise InputError(f"TRF第{i}行第{len(rounds) + 1}轮结果代码无效：{result!r}",
                                     f"TRF line {i} round {len(rounds) + 1}: bad result "
                                     f"{result!r}")
                rounds.append(TrfRound(opp or None, colour if colour.strip() else "-",
                                       "=" if result == "½" else result))
                pos += 10
            # a trailing all-blank block is no round
            while rounds and rounds[-1].opponent is None and not rounds[-1].result.strip():
                rounds.pop()
            players.append(TrfPlayer(
                number=num, sex=_col(line, 10, 10), title=_col(line, 11, 13),
                name=_col(line, 15, 47), rating=_int(_col(line, 49, 52), "等级分", i),
                federation=_col(line, 54, 56), fide_id=_col(line, 58, 68),
                birth=_col(line, 70, 79), points=pts, rank=_int(_col(line, 86, 89), "名次", i),
                rounds=rounds))
        else:
            head = line.split(None, 1)
            code = head[0]
            rest = head[1] if len(head) > 1 else ""
            other.append((code, rest))
            if code == "XXR":
                total = _int(rest.strip(), "XXR", i)
            elif code == "XXC":
                first = "white" if "white" in rest else "black" if "black" in rest else None
    return Trf(players=players, other=other, total_rounds=total, first_colour=first)


def _fmt_points(p: Decimal) -> str:
    return f"{p:.1f}"


def write_trf(trf: Trf, eol: str = "\n") -> str:
    """TRF-16 text of ``trf`` (other lines first, in their order, then the players).
    ``parse_trf(write_trf(t))`` gives ``t`` back."""
    out = []
    for code, rest in trf.other:
        out.append(f"{code} {rest}".rstrip())
    for p in trf.players:
        line = (f"001 {p.number:>4} {p.sex:1}{p.title:>3} {p.name[:33]:<33} "
                f"{(str(p.rating) if p.rating else ''):>4} {p.federation:>3} {p.fide_id:>11} "
                f"{p.birth:>10} {_fmt_points(p.points):>4} {(str(p.rank) if p.rank else ''):>4}")
        for r in p.rounds:
            opp = f"{r.opponent:>4}" if r.opponent else "0000"
            line += f"  {opp} {r.colour or '-'} {r.result}"
        out.append(line.rstrip())
    return eol.join(out) + eol


# ------------------------------------------------------------------------------ Dutch via py4swiss

#: C.04.3 texts :func:`dutch_pairings` can follow
DUTCH_TEXTS = ("2025", "2017")
_PY4SWISS_LOCK = threading.Lock()
_POINTS_WITHOUT_PLAYING = frozenset("+FUH")  # more than a loss scored in an unplayed round


def _py4swiss_pair(trf: Trf, text: str) -> list[tuple[int, int]]:
    """One call of py4swiss's Dutch engine on ``trf``; under ``text="2025"`` with the float rule
    of the 2025 text (Art. 1.4.3) in place of the 2017 one (A.4.b). Raises ``RuleError``."""
    try:
        import py4swiss.engines.dutch.player as p4_player
        from py4swiss.engines import DutchEngine
        from py4swiss.engines.common.float import Float
        from py4swiss.trf.codes import PlayerCode, TeamCode, TournamentCode, XCode
        from py4swiss.trf.parsed_trf import ParsedTrf
        from py4swiss.trf.sections import PlayerSection, TeamSection, TournamentSection, XSection
        from py4swiss.trf.trf_line import TrfLine
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise RuleError("荷兰制编排需要安装 bianpai[chess]（py4swiss）",
                        "Dutch pairing needs the optional extra bianpai[chess] (py4swiss)") from exc
    from collections import defaultdict

    # py4swiss reads the rank column; an unranked file (round 1) gets the start numbers
    body = write_trf(replace(trf, players=[replace(p, rank=p.rank or p.number)
                                           for p in trf.players]))
    lines = defaultdict(list)
    for i, raw in enumerate(body.splitlines()):
        s = raw.strip()
        if not s:
            continue
        try:
            tl = TrfLine(i, s)
        except Exception:
            continue
        lines[tl.code_type].append(tl)
    floats_2017 = p4_player._get_floats

    def floats_2025(section, round_number, points):
        # C.04.3 (2025) 1.4.3: only a player who scores MORE than a loss without playing gets a
        # downfloat for that round; the 2017 A.4.b gave one for any unplayed round
        if round_number >= 0:
            rr = section.results[round_number]
            if not rr.result.is_played() and rr.result.value not in _POINTS_WITHOUT_PLAYING:
                return Float.NONE
        return floats_2017(section, round_number, points)

    with _PY4SWISS_LOCK:
        if text == "2025":
            p4_player._get_floats = floats_2025
        try:
            parsed = ParsedTrf(
                player_sections=[PlayerSection.from_string(str(x)) for x in lines[PlayerCode]],
                team_sections=[TeamSection.from_string(str(x)) for x in lines[TeamCode]],
                tournament_section=TournamentSection.from_lines(lines[TournamentCode]),
                x_section=XSection.from_lines(lines[XCode]))
            parsed.validate_contents()
            pairs = DutchEngine.generate_pairings(parsed)
        except Exception as exc:
            raise RuleError(f"荷兰制无法编排下一轮：{exc}", f"Dutch pairing failed: {exc}") from exc
        finally:
            p4_player._get_floats = floats_2017
    return [(int(p.white), int(p.black)) for p in pairs]


def _pab_candidates(trf: Trf):
    """Players to pair who may receive the PAB (no earlier PAB ``U`` nor forfeit win ``+``,
    C.04.1), in the 2025 order of preference: lowest score first (C5), then fewest unplayed
    rounds (C9), then the lowest in the pairing order (higher pairing number). Returns
    ``(players, unplayed)`` where ``unplayed(player)`` counts the rounds not played."""
    rnd = trf.rounds_played
    out = []
    for p in trf.players:
        if len(p.rounds) > rnd and (p.rounds[rnd].result.strip() or p.rounds[rnd].opponent):
            continue  # pre-set for the round to pair (H, Z …)
        done = p.rounds[:rnd]
        if any(r.result in "U+" for r in done):
            continue
        out.append(p)
    def unplayed(p):
        return sum(1 for r in p.rounds[:rnd] if r.result not in "10=WDL" or not r.opponent)
    return sorted(out, key=lambda p: (p.points, unplayed(p), -(p.rank or p.number))), unplayed


def dutch_pairings(trf: Trf, *, text: str = "2025") -> list[tuple[int, int]]:
    """Next round of ``trf`` by FIDE C.04.3 (Dutch), via py4swiss (MIT, ``bianpai[chess]``).

    Returns ``(white, black)`` start numbers in board order; a pairing-allocated bye is
    ``(n, 0)``. Players whose column of the round to pair already holds a code (``H``, ``Z`` …)
    are not paired. Raises ``RuleError`` when py4swiss is not installed or the round cannot be
    paired.

    ``text``: ``"2025"`` (default; C.04.3 applied from 1 July 2025, what bbpPairings 6 and FIDE
    endorse now) or ``"2017"`` (the text py4swiss 0.3.1 — the newest release — implements).
    py4swiss follows the 2017 text in two places where the 2025 text changed, and this function
    adapts it (checked against every case of the bbpPairings/JaVaFo corpus):

    * floats (2025 Art. 1.4.3 v 2017 A.4.b): a round not played gives a downfloat only when the
      player scored more than a loss in it (``+ F U H``), no longer for ``- Z`` — py4swiss's float
      function is swapped for the 2025 rule during the call (pinned py4swiss==0.3.1);
    * the PAB (2025 criteria C5 "lowest score of the PAB assignee" and C9 "fewest unplayed
      rounds", both above the bracket-by-bracket choice of 2017): when py4swiss gives the bye to
      a player while a lower-scored (or equally scored with fewer unplayed rounds) eligible player
      could take it with the rest still pairable, that player gets the PAB and py4swiss pairs the
      rest. Among equal candidates the lowest in the pairing order is tried first (a reading of
      the 2025 text where C6–C8 and the colour criteria would also weigh in)."""
    if text not in DUTCH_TEXTS:
        raise RuleError(f"未知的荷兰制版本：{text}", f"unknown Dutch text: {text}")
    pairs = _py4swiss_pair(trf, text)
    bye = next((w for w, b in pairs if not b), None)
    if text == "2017" or bye is None:
        return pairs
    cands, unplayed = _pab_candidates(trf)
    chosen = trf.player(bye)
    rank = (chosen.points, unplayed(chosen))
    rnd = trf.rounds_played
    for c in cands:
        if (c.points, unplayed(c)) >= rank:
            break
        rounds = list(c.rounds[:rnd]) + [TrfRound(None, "-", "Z")]  # set aside
        rest = replace(trf, players=[replace(p, rounds=rounds) if p is c else p
                                     for p in trf.players])
        try:
            others = _py4swiss_pair(rest, text)
        except RuleError:
            continue
        if all(b for _, b in others):
            return others + [(c.number, 0)]
    return pairs


def format_pairings(pairs: list[tuple[int, int]]) -> str:
    """The pairing-engine exchange format (JaVaFo/bbpPairings ``-p``): the number of pairs, then
    ``white black`` per line, a bye as ``n 0``."""
    return "\n".join([str(len(pairs)), *[f"{w} {b}" for w, b in pairs]]) + "\n"


def next_round(trf: Trf, pairs: list[tuple[int, int]]) -> Trf:
    """``trf`` with the round ``pairs`` appended (result blank; a bye as ``0000 - U``, which
    scores the PAB's points only once its result is known: FIDE ``U``)."""
    players = []
    where = {}
    for w, b in pairs:
        where[w] = TrfRound(b or None, "w" if b else "-", " " if b else "U")
        if b:
            where[b] = TrfRound(w, "b", " ")
    for p in trf.players:
        rounds = list(p.rounds)
        if len(rounds) <= trf.rounds_played and p.number in where:
            rounds.append(where[p.number])
        players.append(replace(p, rounds=rounds))
    return replace(trf, players=players)


# ------------------------------------------------------------------------------ standings

_RESULT_POINTS = {"1": 1, "+": 1, "W": 1, "F": 1, "U": 1, "=": Decimal("0.5"),
                  "D": Decimal("0.5"), "H": Decimal("0.5"), "0": 0, "-": 0, "L": 0, "Z": 0,
                  " ": 0}


def trf_records(trf: Trf, *, win: Decimal = Decimal(1)) -> dict[int, list[Game]]:
    """Per-player :class:`~bianpai.engines.tiebreaks.Game` records from a TRF (rounds with a
    result only). ``win``: points of a win (draw = win/2)."""
    rating = {p.number: p.rating for p in trf.players}
    out: dict[int, list[Game]] = {}
    for p in trf.players:
        gs = []
        for i, r in enumerate(p.rounds, start=1):
            code = r.result
            if not code.strip():
                continue
            pts = Decimal(_RESULT_POINTS[code]) * win
            if code in "10=WDL":
                kind = PLAYED if r.opponent else PAB
            elif code == "+":
                kind = FWIN
            elif code == "-":
                kind = FLOSS
            elif code == "U":
                kind = PAB
            elif code == "F":
                kind = FULL_BYE
            else:  # H, Z
                kind = REQUESTED
            colour = {"w": "W", "b": "B"}.get(r.colour) if kind == PLAYED else None
            gs.append(Game(i, r.opponent, pts, colour, kind,
                           Decimal(rating.get(r.opponent, 0)) if r.opponent and
                           rating.get(r.opponent) else None))
        out[p.number] = gs
    return out


def trf_standings(trf: Trf, codes: list[str], *, edition: str = "fide-2024") -> list[dict]:
    """Each player's ``number``, ``name``, ``points`` and the C.07 values of ``codes``
    (``DE`` is not computed here: it needs the tie groups), best first by points then the codes
    in order. Values are Decimal. Raises ``KeyError`` for an unknown code."""
    recs = trf_records(trf)
    total = trf.total_rounds or max((len(g) for g in recs.values()), default=0)
    use = [c for c in codes if c != "DE"]
    vals = c07_values(recs, total, use, edition=edition)
    rows = []
    for p in trf.players:
        pts = sum((g.score for g in recs[p.number]), Decimal(0))
        row = {"number": p.number, "name": p.name, "points": pts}
        row.update({c: vals[p.number][c] for c in use})
        rows.append(row)
    rows.sort(key=lambda r: (-r["points"], *[-r[c] for c in use], r["number"]))
    for i, r in enumerate(rows, start=1):
        r["rank"] = i
    return rows
