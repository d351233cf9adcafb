"""Gouji (够级) result entry on the competition core: what the arbiter types per match and how
it is read (Qingdao 2015 gouji 规程 九第一条2, 十（六）（七）（十一）).

:class:`GoujiEntry` is the typed-entry half of :class:`bianpai.engines.gouji.GoujiScoring` (a mixin:
it holds no settings of its own and reads the scoring's). It gives the entry sheet columns
(逐局成绩: each seat's finish 头科…大落 or 1–6, or each team's 局分), the decisions (弃权, 判负),
turns a :class:`~bianpai.engines.core.TypedMatch` into the ``games`` / ``adjustments`` frames that
``GoujiScoring.score`` reads, decides completeness (with the optional extra game of a knockout,
``tie_decider``), lists the problems of a half-typed match, and simulates games for the demo.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pandas as pd

from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import EntryColumn, Match, MatchResult, TypedMatch, is_blank
from bianpai.engines.errors import InputError
from bianpai.engines.gouji_input import FINISHES, gouji_error, parse_finish

if TYPE_CHECKING:  # pragma: no cover
    from bianpai.engines.gouji import GoujiScoring

__all__ = ["GoujiEntry"]


#: scored matches by (scoring settings, match, typed values): a pure function, so the same
#: typed rows are scored once per process (is_complete then score_typed, and every later
#: command of a demo or a server reading the same workbook)
_SCORED: dict = {}


class GoujiEntry(ScoringDefaults):
    """Typed-entry protocol of the gouji scoring (mixed into ``GoujiScoring``)."""

    def entry_game_columns(self) -> list[EntryColumn]:
        """逐局成绩: each seat's finish (头科…大落, or 1–6), or each team's 局分 instead."""
        # the dropdown offers the names and 1–6 (both accepted: a stop-style list must not
        # refuse what the reader takes)
        seats = [EntryColumn(f"seat_{k}", f"{k}号位", f"Seat {k}", "text",
                             choices=FINISHES + tuple("123456"), width=6) for k in range(1, 7)]
        return seats + [EntryColumn("points_0", "{side}局分", "{side} game points", "decimal",
                                    side=0, width=8, together="points"),
                        EntryColumn("points_1", "{side}局分", "{side} game points", "decimal",
                                    side=1, width=8, together="points")]

    def entry_match_columns(self) -> list[EntryColumn]:
        return []

    def entry_decisions(self) -> list[str]:
        """弃权 (incl. 迟到15分钟, 十（十一）) and 判负 (十（六）（七）) of either side."""
        return list(self.DECISIONS)

    def _typed_frames(self, typed: TypedMatch) -> tuple[list[dict], list[dict] | None]:
        """``games`` and ``adjustments`` (``None`` when there are none) in the shapes
        :meth:`score` reads, as lists of row dicts (one match's few rows: building DataFrames
        for them cost more than scoring them). A game row keeps its sheet row as ``_row`` when
        known; the typed-points columns are dropped when empty."""
        recs = typed._records()
        have = typed.columns()
        cols = [c for c in have if c != "_row" and not (
            c in ("points_0", "points_1") and all(r[c] is None or r[c] != r[c] for r in recs))]
        keep = cols + ["_row"] if "_row" in have else cols
        g = [{k: r[k] for k in keep} for r in recs]
        adj = [{"side": side, "kind": "penalty", "value": value}
               for side, _kind, value in typed.penalties]
        if typed.decision in self.DECISIONS:
            side, kind = self.DECISIONS[typed.decision]
            adj.append({"side": side, "kind": kind, "value": None})
        return g, (adj or None)

    def stage_warnings(self, matches: list[Match], typed: dict) -> list[InputError]:
        """Said by rank, not refused: a match decided by 弃权/判负 (判定) whose 逐局成绩 were typed
        too — the decision stands (九第一条2, 十（六）（七）) and those games are not counted (a
        team may leave during a match, so it is no error)."""
        out = []
        for m in matches:
            t = typed.get(m.key)
            if t is None or not t.decision or t.decision not in self.DECISIONS:
                continue
            if any(self._game_typed(None, r) for r in t._records()):
                where = next((w for w in t.where if "逐局" in w.split("!")[0]), None)
                sheet, _, cell = (where or "").partition("!")
                out.append(InputError(
                    f"第{m.round}轮第{m.table}桌已判“{t.decision}”，录入的逐局成绩不计",
                    f"round {m.round} table {m.table} is decided ({t.decision}); its typed games "
                    f"are not counted", sheet=sheet or None, cell=cell or None))
        return out

    @staticmethod
    def _game_typed(g: pd.DataFrame, rec) -> bool:
        def has(c):
            v = rec.get(c) if hasattr(rec, "get") else None
            return v is not None and v == v and v != ""
        return all(has(f"seat_{k}") for k in range(1, 7)) or (has("points_0") and has("points_1"))

    def is_complete(self, typed: TypedMatch) -> bool:
        """A decision, or every game with all six finishes (or both teams' 局分); with
        ``tie_decider`` a tied match also needs its extra game."""
        if typed.decision:
            return True
        recs = typed._records()
        n = self.games_per_match
        if len(recs) < n or not all(self._game_typed(None, r) for r in recs[:n]):
            return False
        if self.tie_decider == "extra_game" and self.extra_games_needed(typed):
            return False
        return all(self._game_typed(None, r) for r in recs)

    def _decider(self) -> "GoujiScoring":
        """The same scoring for one game and no decider (an extra game, a game on its own)."""
        return type(self)(**{**self.model_dump(), "games_per_match": 1, "tie_decider": "none"})

    def _extra_results(self, match: Match, typed: TypedMatch) -> list[MatchResult]:
        """The typed extra games (after the regular ones), each scored on its own."""
        n = self.games_per_match
        d = self._decider()
        out = []
        for i in range(n, len(typed.games)):
            one = TypedMatch(games=typed.games.iloc[i:i + 1].assign(game=1))
            if not self._game_typed(one.games, one.games.iloc[0]):
                break
            out.append(d.score(match, d._typed_frames(one)[0]))
        return out

    def extra_games_needed(self, typed: TypedMatch) -> int:
        """1 when ``tie_decider`` is ``extra_game``, the regular games are typed and tied on
        局分, and every extra game typed so far is tied too (加赛 until one side wins); else 0."""
        if self.tie_decider != "extra_game" or typed.decision:
            return 0
        recs = typed._records()
        n = self.games_per_match
        if len(recs) < n or not all(self._game_typed(None, rec) for rec in recs[:n]):
            return 0
        m = Match(1, 1, (1, 2))
        try:
            if self._score_games(m, typed, n).outcome != ("D", "D"):
                return 0
            extras = self._extra_results(m, typed)
        except InputError:
            return 0
        return int(all(r.outcome == ("D", "D") for r in extras))

    def _score_games(self, match: Match, typed: TypedMatch, upto: int | None) -> MatchResult:
        # every command reads the regulation anew (a new scoring object): the memo is shared
        # by scorings of equal settings, so a match typed earlier is scored once per process
        if self._settings_key is None:
            self._settings_key = self.model_dump_json()
        key = (self._settings_key, match, upto, typed.decision, typed.penalties,
               typed.columns(), typed.game_key())
        hit = _SCORED.get(key)
        if hit is None:
            hit = _SCORED[key] = self._score_games_uncached(match, typed, upto)
            if len(_SCORED) > 50000:
                _SCORED.clear()
        return hit

    def _score_games_uncached(self, match: Match, typed: TypedMatch, upto: int | None
                              ) -> MatchResult:
        games, adj = self._typed_frames(typed)
        if upto is not None and len(games) > upto:
            games = [r for r in games if r.get("game") is not None and r["game"] <= upto]
        if typed.decision and all(pd.isna(v) for r in games
                                  for k, v in r.items() if k not in ("game", "_row")):
            games = None
        return self.score(match, games, adj)

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        """Score what the arbiter typed: 逐局成绩 rows, 罚分 (扣局分) and the 判定. With
        ``tie_decider`` ``extra_game``, a match tied on 局分 after the regular games is won by
        the first extra game (game ``games_per_match`` + 1, + 2 …) that is not itself tied."""
        if typed.decision and typed.decision not in self.DECISIONS:
            raise gouji_error(f"未知的判定“{typed.decision}”（应为：{'、'.join(self.DECISIONS)}）",
                              f"unknown decision {typed.decision!r}", column="decision")
        n = self.games_per_match
        if self.tie_decider != "extra_game" or len(typed._records()) <= n or typed.decision:
            return self._score_games(match, typed, None)
        base = self._score_games(match, typed, n)
        if base.outcome != ("D", "D"):
            raise gouji_error(f"本场前{n}局已分胜负，不需要加赛第{n + 1}局",
                              f"the match is decided after {n} games: no extra game",
                              row=typed.games.iloc[n].get("_row"), column="game")
        for k, d in enumerate(self._extra_results(match, typed), start=1):
            if d.outcome != ("D", "D"):
                w = match.sides[d.outcome.index("W")]
                return MatchResult(match, tuple(self._points_for(o) for o in d.outcome), d.outcome,
                                   base.values, f"局分相同，加赛第{k}局{w}号胜",
                                   f"tied on game points; {w} won extra game {k}")
        raise gouji_error("加赛局仍为平局，请再加赛一局", "the extra game is tied too: play another",
                          row=typed.games.iloc[-1].get("_row"), column="game")

    def problems(self, match: Match, typed: TypedMatch) -> list[InputError]:
        """Errors in what is typed so far of a match not complete yet: an unknown finish, a
        finish or seat typed twice in a game, a whole game (six finishes or both 局分) the
        table cannot give, and a game row typed in part (some seats' finishes but not all six,
        nor both 局分): the first blank seat is named. A game row left wholly empty is not an
        error (typing is in progress)."""
        errs: list[InputError] = []
        d = self._decider()
        for _, rec in typed.games.iterrows():
            row = rec.get("_row")
            if self._game_typed(None, rec):
                one = TypedMatch(games=pd.DataFrame([rec]).assign(game=1))
                for e in d.validate(match, d._typed_frames(one)[0]):
                    e.row = row if getattr(e, "row", None) is not None else row
                    e.zh = e.zh.replace("第1局", f"第{rec['game']}局")
                    errs.append(e)
                continue
            seen: dict[str, int] = {}
            for k in range(1, 7):
                try:
                    f = parse_finish(rec.get(f"seat_{k}"))
                except InputError as exc:
                    exc.row, exc.column = row, f"seat_{k}"
                    errs.append(exc)
                    continue
                if f is not None and f in seen:
                    errs.append(gouji_error(
                        f"第{rec['game']}局“{f}”填了两次（{seen[f]}号位与{k}号位）",
                        f"game {rec['game']}: {f} typed twice (seats {seen[f]} and {k})",
                        row=row, column=f"seat_{k}"))
                elif f is not None:
                    seen[f] = k
            blank = [k for k in range(1, 7) if is_blank(rec.get(f"seat_{k}"))]
            if 0 < len(blank) < 6:
                errs.append(gouji_error(
                    f"第{rec['game']}局只填了 {6 - len(blank)} 个号位的名次，{blank[0]}号位未填"
                    f"（每局须填满 6 个号位，或只填双方局分）",
                    f"game {rec['game']}: {6 - len(blank)} of 6 seats typed, seat {blank[0]} "
                    f"is empty (type all six finishes, or both teams' game points)",
                    row=row, column=f"seat_{blank[0]}"))
        return errs

    def bye(self, match: Match) -> MatchResult:
        return self.score(match, None)

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """Random finishes per game; each seat's draw is its team's strength plus noise."""
        out = []
        for _ in range(games):
            seats = list(range(1, 7))
            score = {k: strengths[self.side_of_seat(k)] + rng.gauss(0, 1.5) for k in seats}
            order = sorted(seats, key=lambda k: -score[k])
            out.append({f"seat_{k}": FINISHES[order.index(k)] for k in seats})
        return out
