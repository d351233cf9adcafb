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
the lost match; :mod:`bianpai.engines.knockout_places`, re-exported) and
:class:`ZhengShangYouFormatChoice` (round robin or knockout by field size). The typed places are
read and checked in :mod:`bianpai.engines.finish_places` (:func:`game_places`, re-exported).
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from bianpai.engines.core import Match, MatchResult, is_blank, register_scoring
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.finish_places import (PLACE_ALIASES, FinishOrderEntry, _counts, _forfeit,
                                           game_places)
from bianpai.engines.knockout_places import KnockoutLoserOrder, order_knockout_losers
from bianpai.engines.standings import Criterion, register, sum_of

__all__ = ["GuandanKnockoutScoring", "ZhengShangYouScoring", "game_places",
           "order_knockout_losers", "KnockoutLoserOrder", "ZhengShangYouFormatChoice",
           "PLACE_ALIASES"]


class GuandanKnockoutScoring(FinishOrderEntry):
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

    def score(self, match: Match, games: pd.DataFrame | list[dict],
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


class ZhengShangYouScoring(FinishOrderEntry):
    """争上游 pairs match (kind ``zhengshangyou``; alias 争上游).

    Settings: ``place_points`` (4/3/2/1, 十（五）（2）), ``games_per_match`` (4 deals per group,
    十（二）), ``forfeit_points`` (the non-forfeiting pair's points; None: every deal 头游 +
    二游, 28), ``must_decide`` (a knockout match must have a winner: equal points → more 头游,
    二游, 三游, then an extra deal typed as game 5; in a round robin an equal match is a draw),
    ``ranking_playoff`` (round robin: two pairs still equal in the ranking after 三游 play one
    extra deal, typed as deal ``extra_game`` of their match; 十（五）（3）).

    ``score`` returns ``points`` = deal points over the 4 deals, ``outcome`` W/D/L, ``values``:
    ``deal_points``, ``firsts``/``seconds``/``thirds`` (counts of the pair's players' 头游/二游/
    三游), ``playoff_wins`` (1 for the 头游 pair of a ranking play-off deal, else 0; the play-off
    deal's places count nowhere else). Criteria: ``deal_points``, ``firsts``, ``seconds``,
    ``thirds``, ``playoff_wins`` (十（五）（3）).

    The ranking play-off in the workbook: :meth:`playoffs_needed` names the matches whose two
    pairs are level on every count once the stage is over (the rank command prepares their deal
    row in 逐局成绩), :meth:`stage_problems` refuses a play-off deal between pairs that are not
    level. :meth:`score_playoff` scores a play-off deal given on its own (engine use).
    """

    kind: Literal["zhengshangyou"] = "zhengshangyou"
    must_decide: bool = False
    extra_game: int = 5
    forfeit_points: Decimal | None = None
    ranking_playoff: bool = True
    clause: str | None = "单项规程 十（二）、十（五）"
    note: str | None = ("一对的积分为两名选手名次分之和（读法）；积分循环制的一场平分记为平局，"
                        "淘汰制按头游、二游、三游次数，再加赛一副（头游方胜）；弃权：对方得每副头游+二游"
                        "（4副共28分）、弃权方0分（规程未写明，读法）；积分循环制排名积分及头游、二游、三游次数"
                        "都相同的两对加赛一副，录为两对那场比赛的第5副，头游方列前；三对及以上相同时两两各加赛"
                        "一副，按加赛胜副数排列，仍相同抽签（规程只写两对，读法）")

    names: ClassVar[tuple[str, ...]] = ("头游", "二游", "三游", "四游")
    criteria: ClassVar[tuple[str, ...]] = ("deal_points", "firsts", "seconds", "thirds",
                                           "playoff_wins")
    game_columns: ClassVar[tuple[str, ...]] = ("game", "side", "place", "player")
    points_value: ClassVar[str] = "deal_points"

    def _extra_number(self) -> int:
        return self.extra_game

    def _needs_extra(self, keys) -> bool:
        return self.must_decide and keys[0] == keys[1]

    @property
    def _playoff_deal(self) -> bool:
        """True when deal ``extra_game`` of a match is a ranking play-off (round robin)."""
        return not self.must_decide and self.ranking_playoff

    def chain(self) -> list[str]:
        """Ranking chain of 十（五）（1）（3）: points, 头游, 二游, 三游, the extra deal."""
        return list(self.criteria)

    def score(self, match: Match, games: pd.DataFrame | list[dict],
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
        allowed = self.must_decide or self._playoff_deal
        extra = [g for g in places if g > n and not (allowed and g == self.extra_game)]
        if extra:
            raise InputError(f"第{extra[0]}副不存在（每组{n}副）",
                             f"deal {extra[0]} does not exist ({n} per group)")
        tot = [sum((self.pair_points(places[g][s]) for g in range(1, n + 1)), Decimal(0))
               for s in (0, 1)]
        cnt = [_counts(places[g][s] for g in range(1, n + 1)) for s in (0, 1)]
        key = [(tot[s], cnt[s][0], cnt[s][1], cnt[s][2]) for s in (0, 1)]
        note_zh = note_en = ""
        playoff = (0, 0)
        if not self.must_decide:
            outcome = ("D", "D") if key[0] == key[1] else \
                ("W", "L") if key[0] > key[1] else ("L", "W")
            if self.extra_game in places:
                win = 0 if 1 in places[self.extra_game][0] else 1
                playoff = (1, 0) if win == 0 else (0, 1)
                note_zh = (f"排名加赛一副（十（五）（3））：{match.sides[win]}号头游")
                note_en = f"ranking play-off deal: {match.sides[win]} took 头游"
        elif key[0] != key[1]:
            if self.extra_game in places:
                raise InputError("积分和名次次数已分出胜负，不应有加赛副",
                                 "points and place counts already decide: no extra deal allowed")
            outcome = ("W", "L") if key[0] > key[1] else ("L", "W")
        else:
            if self.extra_game not in places:
                raise InputError(f"积分及头游、二游、三游次数都相同，须录入第{self.extra_game}副加赛",
                                 f"equal on points and place counts: type the extra deal as "
                                 f"deal {self.extra_game}")
            outcome = ("W", "L") if 1 in places[self.extra_game][0] else ("L", "W")
            note_zh = "各项相同，加赛一副，头游方获胜（十（五）（3））"
            note_en = "level on everything: one extra deal, its 头游 wins"
        if outcome[0] != "D" and tot[0] == tot[1] and not note_zh:
            note_zh = "积分相同，按头游、二游、三游次数决定（十（五）（3））"
            note_en = "equal points: decided by 1st/2nd/3rd place counts"
        return MatchResult(match, (tot[0], tot[1]), outcome, values={
            "deal_points": (tot[0], tot[1]),
            "firsts": (cnt[0][0], cnt[1][0]), "seconds": (cnt[0][1], cnt[1][1]),
            "thirds": (cnt[0][2], cnt[1][2]), "playoff_wins": playoff},
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

    # ---------------------------------------------------------------- the ranking play-off
    def ranking_keys(self, results) -> dict[int, tuple]:
        """Entrant → (Σ deal points, Σ 头游, Σ 二游, Σ 三游) over ``results`` (void matches left
        out): the ranking of 十（五）（1）（3） before the play-off deal."""
        keys: dict[int, list] = {}
        for r in results:
            for i, e in enumerate(r.match.sides):
                if e is None or r.outcome[i] == "VOID":
                    continue
                k = keys.setdefault(e, [Decimal(0), 0, 0, 0])
                for j, name in enumerate(("deal_points", "firsts", "seconds", "thirds")):
                    v = r.values.get(name, (0,) * len(r.match.sides))[i]
                    k[j] += v if v is not None else 0
        return {e: tuple(k) for e, k in keys.items()}

    def playoffs_needed(self, results) -> list[tuple[Match, int]]:
        """Ranking play-offs still to play in a finished round robin: ``(match, deal number)``
        for every match whose two pairs are level on points, 头游, 二游 and 三游 and have no
        play-off deal yet (十（五）（3）三游数量相同，则加赛一副牌). Empty in a knockout or with
        ``ranking_playoff`` off."""
        if not self._playoff_deal:
            return []
        results = [r for r in results if "VOID" not in r.outcome]
        keys = self.ranking_keys(results)
        done = {frozenset(r.match.entrants) for r in results
                if any(r.values.get("playoff_wins") or ())}
        out: list[tuple[Match, int]] = []
        for r in sorted(results, key=lambda r: (r.match.round, r.match.table)):
            m = r.match
            if m.is_bye or len(m.entrants) != 2 or r.outcome[0] in ("FW", "FL"):
                continue
            pair = frozenset(m.entrants)
            if keys[m.sides[0]] == keys[m.sides[1]] and pair not in done:
                done.add(pair)
                out.append((m, self.extra_game))
        return out

    def stage_problems(self, results, typed: dict) -> list[tuple[tuple, InputError]]:
        """``(match key, error)`` for every ranking play-off deal typed between pairs that are
        not level on points, 头游, 二游 and 三游, or typed twice for the same two pairs; the
        error carries ``row``/``column`` of the deal's first place cell in 逐局成绩."""
        if not self._playoff_deal:
            return []
        results = [r for r in results if "VOID" not in r.outcome]
        keys = self.ranking_keys(results)
        seen: set = set()
        out = []
        for r in results:
            if not any(r.values.get("playoff_wins") or ()):
                continue
            a, b = r.match.sides
            pair = frozenset((a, b))
            if keys[a] != keys[b]:
                ka, kb = keys[a], keys[b]
                e = InputError(
                    f"{a}号（积分{ka[0]}，头游{ka[1]}、二游{ka[2]}、三游{ka[3]}）与{b}号（积分{kb[0]}，"
                    f"头游{kb[1]}、二游{kb[2]}、三游{kb[3]}）已分先后，不应加赛第{self.extra_game}副"
                    f"（十（五）（3）：三游数量相同才加赛一副）",
                    f"{a} and {b} are not level on points and place counts: no play-off deal")
            elif pair in seen:
                e = InputError(f"{a}号与{b}号的加赛副录入了两次", f"{a} v {b}: play-off typed twice")
            else:
                seen.add(pair)
                continue
            t = typed.get(r.match.key)
            if t is not None:
                row = next((x.get("_row") for x in t.game_records()
                            if not is_blank(x.get("game")) and int(x["game"]) == self.extra_game),
                           None)
                e.row, e.column = row, "place_0a"  # type: ignore[attr-defined]
            out.append((r.match.key, e))
        return out


register_scoring(GuandanKnockoutScoring, "掼蛋淘汰", "掼蛋单淘汰", "掼蛋淘汰赛")
register_scoring(ZhengShangYouScoring, "争上游")

register(Criterion("deal_points", "积分", "points", sum_of("deal_points"), places=None))
register(Criterion("game_points", "局分", "game points", sum_of("game_points"), places=None))
register(Criterion("firsts", "头游次数", "1st places", sum_of("firsts"), places=None))
register(Criterion("seconds", "二游次数", "2nd places", sum_of("seconds"), places=None))
register(Criterion("thirds", "三游次数", "3rd places", sum_of("thirds"), places=None))
register(Criterion("playoff_wins", "加赛", "play-off", sum_of("playoff_wins"), places=None))


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
