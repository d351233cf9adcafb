"""Single elimination (单败淘汰) of any size as a format of the competition core (see
:mod:`bianpai.engines.elimination` for the sources)."""

from __future__ import annotations

import math
import random
from typing import Literal

import pandas as pd
from pydantic import Field, model_validator

from bianpai.engines.bracket_base import _Bracket, _placings_frame
from bianpai.engines.bracket_playoffs import playoff_block_of, playoff_nodes, playoff_places
from bianpai.engines.bracket_seeding import seed_positions
from bianpai.engines.bracket_structure import (UNKNOWN, Node, Resolution, Resolved, _rng_key,
                                               _winner_of, single_elimination_nodes)
from bianpai.engines.core import Match, NotReady, Reason, StageState, register_format
from bianpai.engines.errors import RuleError



# ============================================================================ single elimination

class SingleElimination(_Bracket):
    """Single elimination (单败淘汰) of any size 2–1024, per pool (a pool = a qualifier flight).

    Settings: ``seeding`` — ``standard`` (seeded entrants on the standard positions, the unseeded
    drawn by lot into the following seed numbers; byes are the seed numbers after the field, so
    the best seeds get them), ``drawn`` (混抽入位: every entrant's seed number by lot — CBSA
    十六（三）1(1) "资格赛不设种子，全部混抽入位"), ``redraw`` (opponents drawn by lot every round —
    Qingdao 够级 七（二） "抽签选择对手"; ``odd_bye`` says who gets the bye of an odd field).
    ``stop_when_remaining`` K: the stage ends when K remain (CBSA 十六（二）1: flights stop at 16 or
    32; Qingdao: stop at 6, those go to a round robin). ``third_place``: 三、四名决赛. ``races``
    (frames to win by round) or ``races_from_final`` (final first: CBSA stage 2 [41, 21, 13] =
    final 81局41胜, semi-final 41局21胜, the rest 25局13胜) and ``third_place_race`` (CBSA 21).
    ``bracket_size``: slots (default the next power of two).

    Placings: the K survivors share place 1 (出线) when the stage stops early; otherwise 1, 2,
    3/4 (the third-place match) or 3–4 shared, 5–8, … by the round lost (``loser_order``:
    ``shared``; ``frames``: by the frames won in the lost match; ``playoffs``: the losers of every
    round whose first place is ≤ ``playoff_places`` play for their places — the third-place
    match, a 5–8 block …, :mod:`bianpai.engines.bracket_playoffs` — ``playoff_race`` frames to
    win in those matches, default the race of their stage round).
    """

    kind: Literal["single_elimination"] = "single_elimination"
    seeding: Literal["standard", "drawn", "redraw"] = Field(
        "standard", description="签位：标准种子位 / 混抽入位 / 每轮抽签选择对手")
    odd_bye: Literal["lot", "best_seed"] = Field(
        "lot", description="每轮抽签时人数为奇数：轮空者抽签产生，或给种子最好者")
    #: K for every pool, or a mapping pool label → K (CBSA flights 1–2 stop at 16, 3–4 at 32)
    stop_when_remaining: int | dict[str, int] | None = Field(
        None, description="剩余人数达到此数即结束（晋级）；可按小组分别设定")
    third_place: bool = Field(False, description="设三、四名决赛")
    races_from_final: list[int] | None = Field(None, description="局数（几局胜），自决赛往前")
    third_place_race: int | None = None
    bracket_size: int | None = Field(None, ge=2, le=1024)
    playoff_places: int = Field(8, ge=3, le=1024,
                                description="排位附加赛决定的名次（loser_order: playoffs），如前8名")
    playoff_race: int | None = Field(None, ge=1, description="排位附加赛的局数（几局胜）")

    @model_validator(mode="after")
    def _check(self) -> "SingleElimination":
        stops = (self.stop_when_remaining.values() if isinstance(self.stop_when_remaining, dict)
                 else [self.stop_when_remaining])
        if any(k is not None and k < 1 for k in stops):
            raise RuleError("剩余人数须至少为 1", "the number remaining must be at least 1")
        if self.third_place and any(k not in (None, 1) for k in stops):
            raise RuleError("提前结束（剩余K人）的淘汰赛不设三、四名决赛",
                            "a stage that stops with K remaining has no third-place match")
        if self.loser_order == "playoffs" and (self.seeding == "redraw"
                                                or any(k not in (None, 1) for k in stops)):
            raise RuleError("排位附加赛只用于打到决赛的固定签表（不能与每轮抽签或剩余K人结束同用）",
                            "place play-offs need a fixed bracket played to the final")
        if self.bracket_size is not None and self.bracket_size & (self.bracket_size - 1):
            raise RuleError("签表规模必须是 2 的幂", "bracket size must be a power of two")
        return self

    # -- structure
    def _size(self, n: int) -> int:
        if n > 1024:
            raise RuleError(f"淘汰赛最多 1024 人（现 {n} 人）", f"at most 1024 entrants ({n})")
        size = self.bracket_size or max(2, 1 << max(n - 1, 1).bit_length())
        if n > size:
            raise RuleError(f"参赛 {n} 人多于签位 {size}", f"{n} entrants exceed {size} slots")
        return size

    def stop_at(self, pool: str | None = None) -> int:
        """K of ``pool``: the stage ends when K remain (1 = play to the final)."""
        k = self.stop_when_remaining
        if isinstance(k, dict):
            return int(k.get(str(pool), 1)) if pool is not None else 1
        return k or 1

    def _rounds_to_play(self, n: int, size: int, pool: str | None = None) -> int:
        total = int(math.log2(size))
        k = self.stop_at(pool)
        if not k or k == 1:
            return total
        # survivors after round r = non-empty subtrees of 2^r slots
        pos = seed_positions(size)
        can = []  # how many each round leaves (the numbers a stop can be set to)
        for r in range(0, total + 1):
            w = 2 ** r
            alive = sum(1 for i in range(0, size, w) if any(p <= n for p in pos[i:i + w]))
            if alive == k:
                return r
            if r > 0 and alive < n:
                can.append(alive)
        where = f"{pool}：" if pool is not None else ""
        options = "、".join(map(str, sorted(set(can), reverse=True)))
        raise RuleError(f"{where}{n} 人的标准签表不能恰好剩下 {k} 人；请在“规程”表把该阶段的"
                        f"“剩余几人结束”（stop_when_remaining）改为这张签表能恰好剩下的人数"
                        f"（{n} 人可选：{options}）",
                        f"{where}a standard bracket of {n} entrants never leaves exactly {k}; "
                        f"change the stage's stop_when_remaining on the 规程 sheet ({n} "
                        f"entrants can stop at {options.replace('、', ', ')})")

    def _pool_nodes(self, n: int, pool: str | None = None) -> list[Node]:
        size = self._size(n)
        rounds = self._rounds_to_play(n, size, pool)
        if self.loser_order != "playoffs":
            return single_elimination_nodes(size, rounds, self.third_place)
        main = single_elimination_nodes(size, rounds, False)
        places = max(self.playoff_places, 4 if self.third_place else 0)
        return sorted(main + playoff_nodes(main, places), key=lambda nd: nd.round)

    def total_rounds(self, state: StageState) -> int | None:
        """Rounds of the stage (the largest pool): log2(size), or fewer when it stops at K; in
        ``redraw`` mode n → ⌈n/2⌉ each round until K (or 1) remain."""
        if self.seeding != "redraw":
            return super().total_rounds(state)
        best = 0
        for p in state.pools():
            n, r = len(state.pool_entrants(p)), 0
            while n > self.stop_at(p):
                n, r = (n + 1) // 2, r + 1
            best = max(best, r)
        return best

    def field_problems(self, state: StageState) -> list[str]:
        """Field sizes this knockout cannot play as set (Chinese text per problem): in
        ``redraw`` mode with ``stop_when_remaining`` K, halving a pool (odd: one bye) must reach
        exactly K (Qingdao 七（二）: 48 → 24 → 12 → 6; 16 → 8 → 4 never leaves 6)."""
        out = []
        k = self.stop_when_remaining
        for p in state.pools():
            n = len(state.pool_entrants(p))
            if self.seeding == "redraw" and k and k > 1:
                path, m = [n], n
                while m > k:
                    m = (m + 1) // 2
                    path.append(m)
                if m != k:
                    where = f"{p}组" if p else ""
                    out.append(f"{where}{n} 队每轮淘汰一半（{'→'.join(map(str, path))}）无法恰好剩下 {k} 队")
            elif n < 2:
                out.append(f"{p or ''}只有 {n} 名参赛者，无法淘汰赛")
        return out

    def race_for(self, match: Match, state: StageState | None = None) -> int | None:
        """Frames to win in ``match``: ``third_place_race`` for ``3rd``; ``races_from_final``
        counted back from the final of the full bracket; else ``races`` by round."""
        if match.label == "3rd" and self.third_place_race:
            return self.third_place_race
        if self.playoff_race and match.label != "3rd" and playoff_block_of(match.label):
            return self.playoff_race
        if self.races_from_final and state is not None:
            total = self.total_rounds(state) if self.seeding == "redraw" else \
                int(math.log2(self._size(max(len(state.pool_entrants(match.pool)), 2))))
            i = total - match.round
            if match.label == "3rd":
                i = 1
            return self.races_from_final[min(max(i, 0), len(self.races_from_final) - 1)]
        return super().race_for(match, state)

    # -- redraw mode
    def _redraw_resolution(self, state: StageState, pool) -> tuple[Resolution, list[int], int]:
        """(resolution of the drawn rounds, survivors, last drawn round) in redraw mode; once
        per state and pool (:meth:`StageState.memo`): read it, do not change it."""
        return state.memo(("redraw_resolution", id(self), pool),
                          lambda: self._redraw_resolve(state, pool), keep=self)

    def _redraw_resolve(self, state: StageState, pool) -> tuple[Resolution, list[int], int]:
        ents = state.pool_entrants(pool)
        res = Resolution(losses={e.number: 0 for e in ents})
        alive = [e.number for e in ents]
        last = state.rounds_drawn(pool)
        for rnd in range(1, last + 1):
            ms = [m for m in state.matches if m.pool == pool and m.round == rnd]
            nxt: list[int] = []
            for m in ms:
                nd = Node(m.label or f"R{rnd}-{m.table}", rnd, (("seed", 0), ("seed", 0)),
                          "SE", m.table, rnd)
                for x in m.entrants:  # drawn on, though a result (changed since) put it out
                    lost = res.eliminated.get(x)
                    if lost is not None and lost.status == "done" and lost.winner is not None:
                        res.conflicts.append((nd, lost, x))  # x: in nd, though out
                if m.is_bye:
                    w = m.entrants[0] if m.entrants else None
                    r = Resolved(nd, m.sides, "bye" if w is not None else "vanished", w, None, m)
                else:
                    result = state.results.get(m.key)
                    if result is None:
                        r = Resolved(nd, m.sides, "ready", match=m)
                    else:
                        w, lo, ok = _winner_of(result)
                        if not ok:
                            res.problems.append(Reason(
                                "no_winner", f"{nd.id} 未决出胜负", f"{nd.id} has no winner"))
                            r = Resolved(nd, m.sides, "ready", match=m, result=result)
                        else:
                            losers = tuple(s for s in m.entrants if s != w)
                            r = Resolved(nd, m.sides, "done", w, lo, m, result, losers)
                            for x in losers:
                                res.losses[x] += 1
                                res.eliminated[x] = r
                res.nodes[nd.id] = r
                if r.winner not in (None, UNKNOWN):
                    nxt.append(r.winner)
            in_round = {e for m in ms for e in m.entrants}
            # entrants not in a drawn round (withdrawn before it) go out there
            for x in alive:
                if x not in in_round and x not in res.eliminated:
                    nd = Node(f"R{rnd}-退赛", rnd, (("seed", 0), ("seed", 0)), "SE", 0, rnd)
                    res.eliminated[x] = Resolved(nd, (x, None), "bye", None, None, gone=(x,))
            still = set(alive)
            alive = [x for x in nxt if x in still]
        # survivors withdrawn before the next round are out there (the stage would go on)
        if len(alive) > self.stop_at(pool):
            playing = set(self._redraw_players(state, pool, alive, last + 1))
            for x in alive:
                if x not in playing:
                    nd = Node(f"R{last + 1}-退赛", last + 1, (("seed", 0), ("seed", 0)), "SE", 0,
                              last + 1)
                    res.eliminated[x] = Resolved(nd, (x, None), "bye", None, None, gone=(x,))
            alive = [x for x in alive if x in playing]
        return res, alive, last

    def _redraw_players(self, state: StageState, pool, alive: list[int], rnd: int) -> list[int]:
        wd = {e.number: e.withdrawn_after for e in state.pool_entrants(pool)}
        return [x for x in alive if wd.get(x) is None or wd[x] >= rnd]

    def _redraw_next(self, state: StageState, pool, rng) -> tuple[list[Match], list[Reason]]:
        res, alive, last = self._redraw_resolution(state, pool)
        missing = [m for m in state.missing() if m.pool == pool]
        changed = [Reason("result_changed", f"{src.node.id} 的成绩与已编排的 {nd.id} 不符（{v}号已出局）",
                          f"the result of {src.node.id} disagrees with {nd.id} drawn after it "
                          f"({v} is out)") for nd, src, v in res.conflicts]
        if missing or res.problems or changed:
            return [], res.problems + changed + [
                Reason("missing_result", f"第{m.round}轮 {m.label} 尚无成绩",
                       f"round {m.round} {m.label} has no result") for m in missing]
        rnd = last + 1
        players = self._redraw_players(state, pool, alive, rnd)
        if len(players) <= self.stop_at(pool):
            return [], []
        lot = random.Random(_rng_key(state, pool, f"redraw{rnd}", rng))
        players = sorted(players)
        lot.shuffle(players)
        bye = None
        if len(players) % 2:
            had_bye = {m.entrants[0] for m in state.matches if m.pool == pool and m.is_bye
                       and m.entrants}
            cands = [x for x in players if x not in had_bye] or players
            if self.odd_bye == "best_seed":
                seed = {e.number: e.seed for e in state.pool_entrants(pool)}
                bye = min(cands, key=lambda x: (seed.get(x) is None, seed.get(x) or 0, x))
            else:
                bye = cands[-1]
            players.remove(bye)
        out = [Match(rnd, i + 1, (players[2 * i], players[2 * i + 1]), pool, f"R{rnd}-{i + 1}")
               for i in range(len(players) // 2)]
        if bye is not None:
            out.append(Match(rnd, len(out) + 1, (bye, None), pool, f"R{rnd}-BYE"))
        return out, []

    # -- Format protocol (overrides for redraw)
    def next_round(self, state: StageState, rng: random.Random) -> list[Match]:
        """The next round's matches (see :meth:`_Bracket.next_round`); in ``redraw`` mode the
        survivors are paired by lot (a bye for an odd field by ``odd_bye``, never twice to the
        same entrant while others have had none)."""
        if self.seeding != "redraw":
            for p in state.pools():
                n = len(state.pool_entrants(p))
                if n < 2:
                    raise RuleError(f"淘汰赛至少需要 2 人（{p or ''}仅 {n} 人）",
                                    f"a knockout needs at least 2 entrants ({n})")
            return super().next_round(state, rng)
        out: list[Match] = []
        reasons: list[Reason] = []
        for p in state.pools():
            ms, rs = self._redraw_next(state, p, rng)
            out.extend(ms)
            reasons.extend(rs)
        if reasons:
            raise NotReady(reasons)
        if not out:
            raise RuleError("本阶段已全部结束", "the stage is finished")
        return out

    def resolution(self, state: StageState, pool: str | None = None,
                   rng: random.Random | None = None) -> Resolution:
        if self.seeding == "redraw":
            return self._redraw_resolution(state, pool)[0]
        return super().resolution(state, pool, rng)

    def finished(self, state: StageState) -> bool:
        if self.seeding != "redraw":
            return super().finished(state)
        if state.missing():
            return False
        for p in state.pools():
            res, alive, last = self._redraw_resolution(state, p)
            if len(self._redraw_players(state, p, alive, last + 1)) > (
                    self.stop_at(p)):
                return False
        return True

    def placings(self, state: StageState) -> pd.DataFrame:
        """Places per pool. Columns: ``entrant`` (int), ``pool``, ``place`` (int, shared by
        the round lost unless ``loser_order="frames"``), ``decided_by`` (str), ``eliminated_round``
        (Int64, NA for survivors), ``bracket_side`` (None), ``losses`` (int). Survivors of an
        unfinished stage, and the K qualifiers of a stage that stops early, share place 1."""
        rows: list[dict] = []
        for pool in state.pools():
            res = self.resolution(state, pool)
            alive = [e.number for e in state.pool_entrants(pool) if e.number not in res.eliminated]
            top: list[dict] = []
            fin = self.finished(state)
            k = self.stop_at(pool)
            third = res.nodes.get("3rd")
            final = res.nodes.get("F")
            if fin and k == 1 and final is not None and final.winner not in (None, UNKNOWN):
                top.append(self._row(final.winner, pool, 1, "决赛胜", res))
                if final.loser not in (None, UNKNOWN):
                    top.append(self._row(final.loser, pool, 2, "决赛负", res))
                if third is not None and third.status == "done":
                    top.append(self._row(third.winner, pool, 3, "三、四名决赛胜", res))
                    top.append(self._row(third.loser, pool, 4, "三、四名决赛负", res))
                elif third is not None and third.status == "bye":
                    top.append(self._row(third.winner, pool, 3, "三、四名决赛轮空", res))
                if self.loser_order == "playoffs":
                    top.extend(self._playoff_rows(res, pool))
            else:
                why = "出线" if fin else "未出局"
                top.extend(self._row(x, pool, 1, why, res) for x in sorted(alive))
            # a finished knockout that nobody won (every finalist withdrew): the title stays
            # vacant (冠军空缺), the last ones out share the places after it
            vacant = 1 if fin and k == 1 and not top and not alive else 0
            rows.extend(self._place_eliminated(res, alive, top, pool, vacant=vacant))
        return _placings_frame(rows)

    def _playoff_rows(self, res: Resolution, pool) -> list[dict]:
        """Rows of the play-off blocks from place 5 on (decided blocks only; an undecided block
        keeps its shared place)."""
        out: list[dict] = []
        blocks = sorted({playoff_block_of(r.node.id) for r in res.nodes.values()
                         if r.node.part == "PO"})
        for first, last in blocks:
            if first < 5 or any(b != (first, last) and b[0] <= first and last <= b[1]
                                for b in blocks):
                continue  # the third-place match, or a sub-block placed with its block
            got = playoff_places(res, first, last - first + 1)
            out.extend(self._row(x, pool, place, why, res) for x, place, why in got or [])
        return out

    @staticmethod
    def _row(x, pool, place, why, res) -> dict:
        return {"entrant": x, "pool": pool, "place": place, "decided_by": why,
                "eliminated_round": pd.NA, "bracket_side": None, "losses": res.losses.get(x, 0)}


register_format(SingleElimination, "淘汰赛", "单败淘汰", "单淘汰", "knockout")
