"""Finishing-order scorings of climbing card games: 掼蛋 knockout matches and 争上游.

In both games four players sit at a table, partners opposite, and finish a game (局/副) in an
order: 头游 (first out), 2游/二游, 3游/三游, 末游/四游. Each place scores 4 / 3 / 2 / 1 points;
a pair scores the sum of its two players. A match between two pairs is 4 games.

* 掼蛋 knockout (:class:`GuandanKnockoutScoring`, kind ``guandan_ko_games``): the higher 4-game
  total advances; equal totals → one 5-minute decider game (typed as game 5) whose winner
  (the pair with 头游) advances. Source: otog-mind-games-2024 单项规程 九（二）（掼蛋比赛进行单淘汰制，
  每轮四局制…每局第一名记4分，第二名记3分，第三名记2分，第四名记1分。四局总积分高者列前，少者淘汰。
  如打成平分，进行5分钟包干制，一局定胜负。）.
* 争上游 (:class:`ZhengShangYouScoring`, kind ``zhengshangyou``): each group (table) plays 4
  deals, 头游 4, 二游 3, 三游 2, 四游 1; ranked by points, ties by the number of 头游, then 二游,
  then 三游, then one extra deal (its 头游 wins; :meth:`ZhengShangYouScoring.score_playoff`).
  Source: otog 十（二）每组比赛打四副牌; 十（五）（2）头游记4分，二游记3分，三游记2分，四游记1分;
  十（五）（3）积分相同的获得头游次数多者胜出，头游数量相同则比较二游数量，二游数量再相同比较三游数量，
  三游数量相同，则加赛一副牌，加赛牌获得头游方获胜.

Typed rows (``games``), one per player and game: ``game`` (int, 1 …), ``side`` (int 0/1: the
match side of the player's pair), ``place`` (int 1–4, or the place name 头游/2游/二游/3游/三游/末游/
四游), optional ``player`` (int/str). Places of a game must be 1, 2, 3, 4 once each, two per side.

Also: :func:`order_knockout_losers` (places 1–8 of a knockout: shared, play-offs or points in
the lost match) and :class:`ZhengShangYouFormatChoice` (round robin or knockout by field size).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar, Iterable, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import (EntryColumn, Match, MatchResult, NotReady, Reason, TypedMatch,
                                  decision_side, is_blank, register_scoring)
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.rounding import to_decimal
from bianpai.engines.standings import Criterion, register, sum_of

__all__ = ["GuandanKnockoutScoring", "ZhengShangYouScoring", "game_places",
           "order_knockout_losers", "KnockoutLoserOrder", "ZhengShangYouFormatChoice",
           "PLACE_ALIASES"]

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


def game_places(games: pd.DataFrame, names: tuple[str, ...] = ("头游", "2游", "3游", "末游")
                ) -> dict[int, tuple[list[int], list[int]]]:
    """Validate typed finishing orders: game → (places of side 0, places of side 1).

    ``games``: columns ``game``, ``side``, ``place`` (see the module docstring). ``names``: the
    Chinese names of places 1–4 used in messages. Raises ``InputErrors`` listing every bad game:
    a place given twice (两个头游), a place missing, a side without exactly two players, a bad
    side or place value. Each ``InputError`` has ``game`` set."""
    errors: list[InputError] = []
    out: dict[int, tuple[list[int], list[int]]] = {}
    for col in ("game", "side", "place"):
        if col not in games.columns:
            raise InputErrors([InputError(f"成绩缺少「{col}」列", f"results lack the {col!r} column")])
    rows: dict[int, list[tuple[int, int]]] = {}
    for _, r in games.iterrows():
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


class _FinishOrder(BaseModel):
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
    def _long(cls, rows: list[dict]) -> pd.DataFrame:
        """The long form :func:`game_places` reads: one row per player."""
        return pd.DataFrame([{"game": r["game"], "side": side, "place": r.get(k)}
                             for r in rows for k, side in cls.SEATS],
                            columns=["game", "side", "place"])

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

    def forfeit(self, match: Match, side: int) -> MatchResult:
        return self.score(match, None, pd.DataFrame([{"side": side, "kind": "forfeit"}]))

    def finalize(self, results: list[MatchResult]) -> list[MatchResult]:
        return list(results)

    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """Finishing orders: each player's draw is the pair's strength plus noise."""
        out = []
        for _ in range(games):
            score = {k: strengths[side] + rng.gauss(0, 1.5) for k, side in self.SEATS}
            order = sorted(score, key=lambda k: -score[k])
            out.append({k: order.index(k) + 1 for k, _ in self.SEATS})
        return out


class GuandanKnockoutScoring(_FinishOrder):
    """掼蛋 knockout match (kind ``guandan_ko_games``; aliases 掼蛋淘汰, 掼蛋单淘汰).

    Settings: ``place_points`` (4/3/2/1, 九（二）), ``games_per_match`` (4), ``decider_game``
    (the number the 5-minute decider is typed under, 5). The decider's winner is the pair with
    the 头游 (in 掼蛋 the pair that goes out first wins the game; a pair-points comparison of one
    game can tie 5:5). ``games`` as in the module docstring; ``adjustments``: ``kind`` 弃权/
    forfeit with ``side`` (the forfeiting side) → FW/FL.

    ``score`` returns ``points`` = the 4-game totals (Decimal), ``outcome`` W/L, ``values``:
    ``game_points`` (the 4-game totals), ``firsts``/``seconds``/``thirds`` (the pair's 头游/2游/
    3游 count over the 4 games), ``decider`` (1 for the decider's winner, 0 otherwise).
    Raises ``InputError(s)`` for bad finishing orders, a missing game, a decider without a tie,
    a tie without a decider.
    """

    kind: Literal["guandan_ko_games"] = "guandan_ko_games"
    decider_game: int = 5
    clause: str | None = "单项规程 九（二）"
    note: str | None = ("每局名次分 4/3/2/1，一对的得分为两名选手之和（规程未写明，读法）；"
                        "平分加赛一局（5分钟包干），以头游方为胜")

    names: ClassVar[tuple[str, ...]] = ("头游", "2游", "3游", "末游")
    criteria: ClassVar[tuple[str, ...]] = ("game_points", "firsts", "seconds", "thirds")
    game_columns: ClassVar[tuple[str, ...]] = ("game", "side", "place", "player")
    points_value: ClassVar[str] = "game_points"

    def _extra_number(self) -> int:
        return self.decider_game

    def _needs_extra(self, keys) -> bool:
        return keys[0][0] == keys[1][0]

    def score(self, match: Match, games: pd.DataFrame,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score one knockout match (see the class docstring)."""
        f = _forfeit(match, adjustments, Decimal(0))
        if f is not None:
            return f
        places = game_places(games, self.names)
        n = self.games_per_match
        missing = [g for g in range(1, n + 1) if g not in places]
        extra = [g for g in places if g > n and g != self.decider_game]
        if missing:
            raise InputError(f"缺少第{'、'.join(map(str, missing))}局成绩（每场{n}局）",
                             f"game(s) {', '.join(map(str, missing))} missing ({n} per match)")
        if extra:
            raise InputError(f"第{extra[0]}局不存在（每场{n}局，加赛记为第{self.decider_game}局）",
                             f"game {extra[0]} does not exist ({n} per match, decider is game "
                             f"{self.decider_game})")
        tot = [sum((self.pair_points(places[g][s]) for g in range(1, n + 1)), Decimal(0))
               for s in (0, 1)]
        cnt = [_counts(places[g][s] for g in range(1, n + 1)) for s in (0, 1)]
        decider = (0, 0)
        note_zh = note_en = ""
        if tot[0] != tot[1]:
            if self.decider_game in places:
                raise InputError(f"四局总分 {tot[0]}:{tot[1]} 不相同，不应有加赛局",
                                 f"totals {tot[0]}:{tot[1]} differ: no decider game allowed")
            win = 0 if tot[0] > tot[1] else 1
        else:
            if self.decider_game not in places:
                raise InputError(f"四局总分相同（{tot[0]}:{tot[1]}），须录入第{self.decider_game}局加赛"
                                 f"（5分钟包干，一局定胜负）",
                                 f"equal totals ({tot[0]}:{tot[1]}): type the decider as game "
                                 f"{self.decider_game}")
            win = 0 if 1 in places[self.decider_game][0] else 1
            decider = (1, 0) if win == 0 else (0, 1)
            note_zh = f"四局平分 {tot[0]}:{tot[1]}，加赛一局定胜负（九（二））"
            note_en = f"level after {n} games ({tot[0]}:{tot[1]}); decided by one extra game"
        outcome = ("W", "L") if win == 0 else ("L", "W")
        return MatchResult(match, (tot[0], tot[1]), outcome, values={
            "game_points": (tot[0], tot[1]),
            "firsts": (cnt[0][0], cnt[1][0]), "seconds": (cnt[0][1], cnt[1][1]),
            "thirds": (cnt[0][2], cnt[1][2]), "decider": decider},
            note_zh=note_zh, note_en=note_en)


class ZhengShangYouScoring(_FinishOrder):
    """争上游 pairs match (kind ``zhengshangyou``; alias 争上游).

    Settings: ``place_points`` (4/3/2/1, 十（五）（2）), ``games_per_match`` (4 deals per group,
    十（二）), ``forfeit_points`` (the non-forfeiting pair's points; None: every deal 头游 +
    二游, 28), ``must_decide`` (a knockout match must have a winner: equal points → more 头游,
    二游, 三游, then an extra deal typed as game 5; in a round robin an equal match is a draw).

    ``score`` returns ``points`` = deal points over the 4 deals, ``outcome`` W/D/L, ``values``:
    ``deal_points``, ``firsts``/``seconds``/``thirds`` (counts of the pair's players' 头游/二游/
    三游), ``playoff_wins`` (0). Criteria: ``deal_points``, ``firsts``, ``seconds``, ``thirds``,
    ``playoff_wins`` (十（五）（3）). A ranking tie after 三游 is broken by an extra deal scored
    with :meth:`score_playoff` and added to the results.
    """

    kind: Literal["zhengshangyou"] = "zhengshangyou"
    must_decide: bool = False
    extra_game: int = 5
    forfeit_points: Decimal | None = None
    clause: str | None = "单项规程 十（二）、十（五）"
    note: str | None = ("一对的积分为两名选手名次分之和（读法）；积分循环制的一场平分记为平局，"
                        "淘汰制按头游、二游、三游次数，再加赛一副（头游方胜）；弃权：对方得每副头游+二游"
                        "（4副共28分）、弃权方0分（规程未写明，读法）")

    names: ClassVar[tuple[str, ...]] = ("头游", "二游", "三游", "四游")
    criteria: ClassVar[tuple[str, ...]] = ("deal_points", "firsts", "seconds", "thirds",
                                           "playoff_wins")
    game_columns: ClassVar[tuple[str, ...]] = ("game", "side", "place", "player")
    points_value: ClassVar[str] = "deal_points"

    def _extra_number(self) -> int:
        return self.extra_game

    def _needs_extra(self, keys) -> bool:
        return self.must_decide and keys[0] == keys[1]

    def chain(self) -> list[str]:
        """Ranking chain of 十（五）（1）（3）: points, 头游, 二游, 三游, the extra deal."""
        return list(self.criteria)

    def score(self, match: Match, games: pd.DataFrame,
              adjustments: pd.DataFrame | None = None) -> MatchResult:
        """Score one group's 4 deals (see the class docstring). Raises ``InputError(s)`` for
        bad finishing orders, a missing deal, an extra deal that is not needed or missing."""
        win_pts = (self.forfeit_points if self.forfeit_points is not None else
                   self.games_per_match * (self.place_points[0] + self.place_points[1]))
        f = _forfeit(match, adjustments, win_pts, "deal_points",
                     ("firsts", "seconds", "thirds", "playoff_wins"))
        if f is not None:
            return f
        places = game_places(games, self.names)
        n = self.games_per_match
        missing = [g for g in range(1, n + 1) if g not in places]
        if missing:
            raise InputError(f"缺少第{'、'.join(map(str, missing))}副成绩（每组{n}副）",
                             f"deal(s) {', '.join(map(str, missing))} missing ({n} per group)")
        extra = [g for g in places if g > n and not (self.must_decide and g == self.extra_game)]
        if extra:
            raise InputError(f"第{extra[0]}副不存在（每组{n}副）",
                             f"deal {extra[0]} does not exist ({n} per group)")
        tot = [sum((self.pair_points(places[g][s]) for g in range(1, n + 1)), Decimal(0))
               for s in (0, 1)]
        cnt = [_counts(places[g][s] for g in range(1, n + 1)) for s in (0, 1)]
        key = [(tot[s], cnt[s][0], cnt[s][1], cnt[s][2]) for s in (0, 1)]
        note_zh = note_en = ""
        if key[0] != key[1]:
            if self.extra_game in places:
                raise InputError("积分和名次次数已分出胜负，不应有加赛副",
                                 "points and place counts already decide: no extra deal allowed")
            outcome = ("W", "L") if key[0] > key[1] else ("L", "W")
            if tot[0] == tot[1]:
                note_zh = "积分相同，按头游、二游、三游次数决定（十（五）（3））"
                note_en = "equal points: decided by 1st/2nd/3rd place counts"
        elif not self.must_decide:
            outcome = ("D", "D")
        else:
            if self.extra_game not in places:
                raise InputError(f"积分及头游、二游、三游次数都相同，须录入第{self.extra_game}副加赛",
                                 f"equal on points and place counts: type the extra deal as "
                                 f"deal {self.extra_game}")
            outcome = ("W", "L") if 1 in places[self.extra_game][0] else ("L", "W")
            note_zh = "各项相同，加赛一副，头游方获胜（十（五）（3））"
            note_en = "level on everything: one extra deal, its 头游 wins"
        return MatchResult(match, (tot[0], tot[1]), outcome, values={
            "deal_points": (tot[0], tot[1]),
            "firsts": (cnt[0][0], cnt[1][0]), "seconds": (cnt[0][1], cnt[1][1]),
            "thirds": (cnt[0][2], cnt[1][2]), "playoff_wins": (0, 0)},
            note_zh=note_zh, note_en=note_en)

    def score_playoff(self, match: Match, games: pd.DataFrame) -> MatchResult:
        """The extra deal (加赛一副) between two pairs still tied after 三游 counts.

        ``games``: the one deal's 4 finishing rows (any ``game`` number). Returns a result with
        ``points`` (0, 0) and ``playoff_wins`` 1 for the pair with the 头游 (十（五）（3）加赛牌获得
        头游方获胜); its 头游/二游/三游 do not count in the ranking. Raises ``InputError(s)``."""
        places = game_places(games, self.names)
        if len(places) != 1:
            raise InputError(f"加赛只打一副，录入了 {len(places)} 副",
                             f"the extra deal is one deal, {len(places)} typed")
        (p0, _), = places.values()
        win = 0 if 1 in p0 else 1
        return MatchResult(match, (Decimal(0), Decimal(0)), ("W", "L") if win == 0 else ("L", "W"),
                           values={"deal_points": (Decimal(0), Decimal(0)), "firsts": (0, 0),
                                   "seconds": (0, 0), "thirds": (0, 0),
                                   "playoff_wins": (1, 0) if win == 0 else (0, 1)},
                           note_zh="加赛一副（十（五）（3））", note_en="extra deal (play-off)")


register_scoring(GuandanKnockoutScoring, "掼蛋淘汰", "掼蛋单淘汰", "掼蛋淘汰赛")
register_scoring(ZhengShangYouScoring, "争上游")

register(Criterion("deal_points", "积分", "points", sum_of("deal_points"), places=None))
register(Criterion("game_points", "局分", "game points", sum_of("game_points"), places=None))
register(Criterion("firsts", "头游次数", "1st places", sum_of("firsts"), places=None))
register(Criterion("seconds", "二游次数", "2nd places", sum_of("seconds"), places=None))
register(Criterion("thirds", "三游次数", "3rd places", sum_of("thirds"), places=None))
register(Criterion("playoff_wins", "加赛", "play-off", sum_of("playoff_wins"), places=None))


# ------------------------------------------------------------------------------ knockout places

def order_knockout_losers(results: Iterable[MatchResult], *,
                          method: Literal["shared", "playoffs", "points"] = "shared",
                          playoffs: Iterable[MatchResult] = (),
                          value: str = "game_points") -> pd.DataFrame:
    """Places of a single-elimination bracket, with an order for each round's losers.

    ``results``: the main-bracket results (byes allowed; no 3rd-place or play-off matches),
    rounds numbered from 1 with the final the last round. Places: the final's winner 1, its
    loser 2; the losers of the round before the final share the block 3–4, those of the round
    before 5–8, and so on. ``method`` orders each block (the 规程 pays places 1–8: otog 九（二）
    录取名次 1.; it does not say how losers are placed):

    * ``shared``: one shared place per block (3, 5, 9 …); the prize engine splits the pooled
      money equally;
    * ``points``: by ``values[value]`` of the loser in its lost match, higher first (equal
      values share the place);
    * ``playoffs``: by the play-off matches among the block (``playoffs``: their results; round
      numbers order them): the winners of a block's first play-off round take the upper half,
      the losers the lower half, recursively (a 3rd-place match, a 5–8 mini-bracket …).

    Returns columns ``entrant`` (int), ``place`` (int), ``decided_by`` (str, Chinese). Raises
    ``NotReady`` when the final or a needed play-off has no result, ``RuleError`` for an
    unknown method.
    """
    results = [r for r in results]
    if method not in ("shared", "playoffs", "points"):
        raise RuleError(f"未知的名次排序方法：{method}", f"unknown loser ordering method: {method}")
    if not results:
        raise NotReady([Reason("no_results", "淘汰赛尚无成绩", "no knockout results yet")])
    final_round = max(r.match.round for r in results)
    finals = [r for r in results if r.match.round == final_round and not r.match.is_bye]
    if len(finals) != 1 or finals[0].winner is None:
        raise NotReady([Reason("no_final", "决赛尚无结果", "the final has no result yet")])
    rows = [{"entrant": finals[0].winner, "place": 1, "decided_by": "冠军"},
            {"entrant": finals[0].loser, "place": 2, "decided_by": "决赛负"}]
    po = sorted(playoffs, key=lambda r: (r.match.round, r.match.table))
    place = 3
    for rnd in range(final_round - 1, 0, -1):
        losers = [(r.loser, r) for r in results if r.match.round == rnd and r.loser is not None]
        if not losers:
            continue
        label = f"第{rnd}轮负"
        block = [e for e, _ in losers]
        if method == "shared":
            rows += [{"entrant": e, "place": place, "decided_by": f"{label}，名次并列"} for e in block]
        elif method == "points":
            def val(r: MatchResult, e: int):
                i = r.match.sides.index(e)
                v = r.values.get(value, r.points)[i]
                return to_decimal(v) if v is not None else Decimal("-Infinity")
            vals = {e: val(r, e) for e, r in losers}
            ordered = sorted(block, key=lambda e: vals[e], reverse=True)
            for i, e in enumerate(ordered):
                first = next(j for j, x in enumerate(ordered) if vals[x] == vals[e])
                rows.append({"entrant": e, "place": place + first,
                             "decided_by": f"{label}，按负场得分 {vals[e]}"})
        else:
            for e, p in _ladder(block, po, place, label):
                rows.append({"entrant": e, "place": p, "decided_by": f"{label}，附加赛"})
        place += len(block)
    return pd.DataFrame(rows, columns=["entrant", "place", "decided_by"])


class KnockoutLoserOrder(BaseModel):
    """规程 setting: how the losers of one knockout round are placed (for the money table of
    places 1–8, otog 九（二） and 九 录取名次 1.). ``method``: ``shared`` (default; equal split of
    the pooled prizes), ``playoffs`` or ``points`` (``value`` of the lost match: ``game_points``
    for 掼蛋, ``deal_points`` for 争上游). See :func:`order_knockout_losers`."""

    model_config = ConfigDict(extra="forbid")

    method: Literal["shared", "playoffs", "points"] = "shared"
    value: str = "game_points"
    clause: str | None = "单项规程 九（二）；总规程 九（二）1."
    note: str | None = "规程只写单淘汰、取前8名，未写同轮负者如何排序：默认名次并列、奖金平分（读法）"

    def places(self, results: Iterable[MatchResult], playoffs: Iterable[MatchResult] = ()
               ) -> pd.DataFrame:
        """:func:`order_knockout_losers` with these settings."""
        return order_knockout_losers(results, method=self.method, playoffs=playoffs,
                                     value=self.value)


def _ladder(block: list[int], playoffs: list[MatchResult], first_place: int, label: str
            ) -> list[tuple[int, int]]:
    """Places of ``block`` from play-off results: the earliest play-off round with matches
    inside the block splits it into winners (upper) and losers (lower), recursively."""
    if len(block) == 1:
        return [(block[0], first_place)]
    bset = set(block)
    inside = [r for r in playoffs if set(r.match.entrants) <= bset and len(r.match.entrants) == 2]
    if not inside:
        raise NotReady([Reason("playoff_missing",
                               f"{label}的第{first_place}–{first_place + len(block) - 1}名附加赛尚无结果",
                               f"the play-off for places {first_place}-"
                               f"{first_place + len(block) - 1} has no result")])
    rnd = min(r.match.round for r in inside)
    ms = [r for r in inside if r.match.round == rnd]
    winners = [r.winner for r in ms if r.winner is not None]
    losers = [r.loser for r in ms if r.loser is not None]
    covered = set(winners) | set(losers)
    if covered != bset or len(winners) != len(losers):
        raise NotReady([Reason("playoff_incomplete",
                               f"{label}的附加赛未覆盖全部负者", f"the play-off round does not "
                               f"cover every loser of the block")])
    rest = [r for r in playoffs if r.match.round > rnd]
    return (_ladder(winners, rest, first_place, label)
            + _ladder(losers, rest, first_place + len(winners), label))


# ------------------------------------------------------------------------------ 争上游 format

class ZhengShangYouFormatChoice(BaseModel):
    """Which format a 争上游 field plays (十（五）（1）视参赛人数多少采取积分循环制或淘汰制).

    ``round_robin_max``: up to this many pairs a round robin (积分循环制), above it single
    elimination (淘汰制). The 规程 gives no number: 10 is the reading (9 rounds of 4 deals fit
    one day). ``choose(n)`` returns the core format kind.
    """

    model_config = ConfigDict(extra="forbid")

    round_robin_max: int = Field(10, ge=2)
    clause: str | None = "单项规程 十（五）（1）"
    note: str | None = "规程未给人数界限：10对及以下单循环（积分循环制），11对起单淘汰（读法）"

    def choose(self, pairs: int) -> str:
        """``"round_robin"`` or ``"single_elimination"`` for ``pairs`` entries; ``RuleError``
        under 2."""
        if pairs < 2:
            raise RuleError("争上游至少需要 2 对", "争上游 needs at least 2 pairs")
        return "round_robin" if pairs <= self.round_robin_max else "single_elimination"
