"""Finishing orders of climbing card games (掼蛋, 争上游): reading and checking the typed places.

Four players sit at a table, partners opposite, and finish a game (局/副) in an order: 头游
(first out), 2游/二游, 3游/三游, 末游/四游. This module reads what the arbiter types for one match
(one 逐局成绩 row per game with the four players' places) and checks it: each place 1–4 once
per game, two players per side. The scorings built on it are in
:mod:`bianpai.engines.finish_order`.

Source: otog-mind-games-2024 单项规程 九（四）（根据出完牌的顺序分为头游、2游、3游和末游）, 十（争头游、
二游、三游和四游）.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Iterable

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import (EntryColumn, Match, MatchResult, TypedMatch, decision_side,
                                  is_blank)
from bianpai.engines.errors import InputError, InputErrors
from bianpai.engines.rounding import to_decimal
from bianpai.engines.typed_rows import row_dicts

__all__ = ["PLACE_ALIASES", "game_places", "FinishOrderEntry"]

#: Place names as typed → place number.
PLACE_ALIASES: dict[str, int] = {
    "头游": 1, "上游": 1, "一游": 1, "1游": 1, "第一": 1,
    "2游": 2, "二游": 2, "第二": 2,
    "3游": 3, "三游": 3, "第三": 3,
    "末游": 4, "四游": 4, "4游": 4, "下游": 4, "第四": 4,
}

def _place(v) -> int:
    if isinstance(v, str) and v.strip() in PLACE_ALIASES:
        return PLACE_ALIASES[v.strip()]
    try:
        d = to_decimal(v)
    except ValueError:
        raise InputError(f"名次「{v}」无效（应为 1–4 或 头游/二游/三游/末游）",
                         f"place {v!r} invalid (1-4 or 头游/二游/三游/末游)") from None
    if d != d.to_integral_value() or not 1 <= int(d) <= 4:
        raise InputError(f"名次「{v}」无效（应为 1–4）", f"place {v!r} invalid (1-4)")
    return int(d)


def game_places(games: pd.DataFrame | list[dict],
                names: tuple[str, ...] = ("头游", "2游", "3游", "末游")
                ) -> dict[int, tuple[list[int], list[int]]]:
    """Validate typed finishing orders: game → (places of side 0, places of side 1).

    ``games``: columns ``game``, ``side``, ``place`` (see the module docstring), a DataFrame or
    its rows as dicts (one per player, as the scoring reads a match). ``names``: the
    Chinese names of places 1–4 used in messages. Raises ``InputErrors`` listing every bad game:
    a place given twice (两个头游), a place missing, a side without exactly two players, a bad
    side or place value. Each ``InputError`` has ``game`` set."""
    errors: list[InputError] = []
    out: dict[int, tuple[list[int], list[int]]] = {}
    frame = isinstance(games, pd.DataFrame)
    have = set(games.columns) if frame else set().union(*(r.keys() for r in games))
    for col in ("game", "side", "place"):
        if col not in have and (frame or games):
            raise InputErrors([InputError(f"成绩缺少「{col}」列", f"results lack the {col!r} column")])
    rows: dict[int, list[tuple[int, int]]] = {}
    for r in (row_dicts(games) if frame else games):
        try:
            g = int(to_decimal(r["game"]))
            s = r["side"]
            s = int(to_decimal(s)) if not is_blank(s) else -1
            if s not in (0, 1):
                raise InputError(f"第{g}局：方 {r['side']} 无效（0 或 1）",
                                 f"game {g}: side {r['side']!r} invalid (0 or 1)")
            if is_blank(r["place"]):
                raise InputError(f"第{g}局：缺少名次", f"game {g}: a place is missing")
            p = _place(r["place"])
        except InputError as e:
            errors.append(e)
            continue
        except ValueError:
            errors.append(InputError(f"局号「{r['game']}」无效", f"game number {r['game']!r} invalid"))
            continue
        rows.setdefault(g, []).append((s, p))
    for g in sorted(rows):
        rs = rows[g]
        places = [p for _, p in rs]
        dup = sorted({p for p in places if places.count(p) > 1})
        miss = [p for p in (1, 2, 3, 4) if p not in places]
        if dup:
            k = places.count(dup[0])
            e = InputError(f"第{g}局有{'两' if k == 2 else k}个{names[dup[0] - 1]}",
                           f"game {g} has place {dup[0]} ({names[dup[0] - 1]}) "
                           f"{k} times")
        elif miss:
            e = InputError(f"第{g}局缺少{'、'.join(names[p - 1] for p in miss)}",
                           f"game {g} lacks place(s) {', '.join(map(str, miss))}")
        elif [s for s, _ in rs].count(0) != 2:
            e = InputError(f"第{g}局每方须有2名选手的名次", f"game {g}: each side needs two players' places")
        else:
            out[g] = ([p for s, p in rs if s == 0], [p for s, p in rs if s == 1])
            continue
        e.game = g  # type: ignore[attr-defined]
        errors.append(e)
    if errors:
        raise InputErrors(errors)
    return out


def _counts(side_places: Iterable[list[int]]) -> tuple[int, int, int, int]:
    flat = [p for ps in side_places for p in ps]
    return tuple(flat.count(k) for k in (1, 2, 3, 4))  # type: ignore[return-value]


def _forfeit(match: Match, adjustments: pd.DataFrame | None, points_win: Decimal,
             points_key: str = "game_points",
             zero_keys: tuple[str, ...] = ("firsts", "seconds", "thirds")) -> MatchResult | None:
    """A ``forfeit`` adjustment (kind 弃权/forfeit, side = the forfeiting side) → FW/FL."""
    if adjustments is None or adjustments.empty:
        return None
    for _, a in adjustments.iterrows():
        kind = str(a.get("kind", "")).strip().lower()
        if kind not in ("forfeit", "弃权"):
            raise InputError(f"调整类别「{a.get('kind')}」无效（仅弃权）",
                             f"adjustment kind {a.get('kind')!r} invalid (forfeit only)")
        side = int(to_decimal(a.get("side")))
        if side not in (0, 1):
            raise InputError(f"弃权方 {side} 无效", f"forfeiting side {side} invalid")
        pts = [points_win, points_win]
        pts[side] = Decimal(0)
        outcome = ["FW", "FW"]
        outcome[side] = "FL"
        values = {points_key: tuple(pts), **{k: (0, 0) for k in zero_keys}}
        return MatchResult(match, tuple(pts), tuple(outcome), values=values,
                           note_zh="弃权", note_en="forfeit")
    return None


class FinishOrderEntry(BaseModel, ScoringDefaults):
    """The common part of the finishing-order scorings: place points, the 逐局成绩 entry columns
    (four places per game), completeness, problems, byes, forfeits and simulation."""

    model_config = ConfigDict(extra="forbid")

    place_points: tuple[Decimal, Decimal, Decimal, Decimal] = (
        Decimal(4), Decimal(3), Decimal(2), Decimal(1))
    games_per_match: int = Field(4, ge=1)

    def pair_points(self, places: list[int]) -> Decimal:
        """A pair's points in one game: the sum of its two players' place points."""
        return sum((self.place_points[p - 1] for p in places), Decimal(0))

    # ---------------------------------------------------------------- the workbook's entry
    # 逐局成绩: one row per game (局/副) with the places of the four players, two per side
    # (``place_0a``/``place_0b`` side 0's players, ``place_1a``/``place_1b`` side 1's), typed as
    # 1–4 or the place names; 判定: a side's 弃权.
    SEATS: ClassVar[tuple[tuple[str, int], ...]] = (("place_0a", 0), ("place_0b", 0),
                                                   ("place_1a", 1), ("place_1b", 1))
    DECISIONS: ClassVar[dict[str, int]] = {"甲方弃权": 0, "乙方弃权": 1}

    def entry_game_columns(self) -> list[EntryColumn]:
        """The four players' places of a game (1–4 or 头游/二游/三游/末游)."""
        return [EntryColumn(k, "{side}名次" + ("1" if k.endswith("a") else "2"),
                            "{side} place " + ("1" if k.endswith("a") else "2"), "text",
                            side=side, width=7) for k, side in self.SEATS]

    def entry_match_columns(self) -> list[EntryColumn]:
        return []

    def entry_decisions(self) -> list[str]:
        return list(self.DECISIONS)

    @classmethod
    def _game_rows(cls, typed: TypedMatch, whole_only: bool = True) -> list[dict]:
        """Typed game rows (``game``, the four places, ``_row``) in game order; with
        ``whole_only`` only games whose four places are all typed."""
        out = []
        for r in typed.game_records():
            filled = [not is_blank(r.get(k)) for k, _ in cls.SEATS]
            if all(filled) or (not whole_only and any(filled)):
                out.append(r)
        return out

    @classmethod
    def _long(cls, rows: list[dict]) -> list[dict]:
        """The long form :func:`game_places` reads: one row per player."""
        return [{"game": r["game"], "side": side, "place": r.get(k)}
                for r in rows for k, side in cls.SEATS]

    def _regular_typed(self, typed: TypedMatch) -> bool:
        games = {int(r["game"]) for r in self._game_rows(typed) if not is_blank(r["game"])}
        return all(g in games for g in range(1, self.games_per_match + 1))

    def _extra_number(self) -> int:  # pragma: no cover - per subclass
        raise NotImplementedError

    def _needs_extra(self, totals_key) -> bool:  # pragma: no cover - per subclass
        raise NotImplementedError

    def extra_games_needed(self, typed: TypedMatch) -> int:
        """1 when the regular games are typed, level, and the extra game is not typed yet."""
        if typed.decision or not self._regular_typed(typed):
            return 0
        rows = self._game_rows(typed)
        if any(int(r["game"]) == self._extra_number() for r in rows
               if not is_blank(r["game"])):
            return 0
        regular = [r for r in rows if not is_blank(r["game"])
                   and int(r["game"]) <= self.games_per_match]
        try:
            places = game_places(self._long(regular), self.names)
        except (InputError, InputErrors):
            return 0
        n = self.games_per_match
        keys = []
        for side in (0, 1):
            cnt = _counts(places[g][side] for g in range(1, n + 1))
            keys.append((sum((self.pair_points(places[g][side]) for g in range(1, n + 1)),
                             Decimal(0)), cnt[0], cnt[1], cnt[2]))
        return int(self._needs_extra(keys))

    def is_complete(self, typed: TypedMatch) -> bool:
        """A 判定, or every regular game (and the extra game when level)."""
        if typed.decision:
            return True
        return self._regular_typed(typed) and not self.extra_games_needed(typed)

    @staticmethod
    def _locate(exc: InputError, rows: list[dict]) -> InputError:
        g = getattr(exc, "game", None)
        hit = next((r for r in rows if not is_blank(r["game"]) and int(r["game"]) == g),
                   rows[0] if rows else None)
        if hit is not None:
            exc.row, exc.column = hit.get("_row"), "place_0a"  # type: ignore[attr-defined]
        return exc

    def problems(self, match: Match, typed: TypedMatch) -> list[InputError]:
        """Errors of the games typed so far: a bad place, two 头游 in one game …"""
        out: list[InputError] = []
        for r in self._game_rows(typed, whole_only=False):
            try:
                if all(not is_blank(r.get(k)) for k, _ in self.SEATS):
                    game_places(self._long([r]), self.names)
                else:
                    for k, _ in self.SEATS:
                        if not is_blank(r.get(k)):
                            _place(r.get(k))
            except InputErrors as excs:
                out += [self._locate(e, [r]) for e in excs.errors]
            except InputError as exc:
                out.append(self._locate(exc, [r]))
        return out

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        """Score the typed games (or the 判定 弃权); errors name the game's first place cell."""
        if typed.decision:
            return self.forfeit(match, decision_side(self.DECISIONS, typed.decision))
        for r in self._game_rows(typed, whole_only=False):
            if any(is_blank(r.get(k)) for k, _ in self.SEATS):
                e = InputError(f"第{r['game']}局的四个名次未填全", f"game {r['game']}: not all four "
                               f"places are typed")
                e.game = None if is_blank(r["game"]) else int(r["game"])  # type: ignore
                raise self._locate(e, [r])
        rows = self._game_rows(typed)
        try:
            return self.score(match, self._long(rows))
        except InputErrors as excs:
            raise self._locate(excs.errors[0], rows) from None
        except InputError as exc:
            raise self._locate(exc, rows[-1:]) from None

    def bye(self, match: Match) -> MatchResult:
        """A bye goes through (no points)."""
        z = tuple(Decimal(0) for _ in match.sides)
        zero = tuple(0 for _ in match.sides)
        return MatchResult(match, z, ("BYE",) * len(match.sides),
                           {self.points_value: z, "firsts": zero, "seconds": zero,
                            "thirds": zero, "playoff_wins": zero}, "轮空", "bye")

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """Finishing orders: each player's draw is the pair's strength plus noise."""
        out = []
        for _ in range(games):
            score = {k: strengths[side] + rng.gauss(0, 1.5) for k, side in self.SEATS}
            order = sorted(score, key=lambda k: -score[k])
            out.append({k: order.index(k) + 1 for k, _ in self.SEATS})
        return out
