"""Guandan pairs on the competition core: :class:`GuandanScoring` as a core ``Scoring``.

A pairs round is matchpointed across the tables of the round (every table plays the same
boards), so the scoring has ``scope = "stage"``: the pipeline hands it every drawn match of the
stage and everything typed, by match key, and it returns the scored matches. The numbers come
from :func:`bianpai.engines.guandan.round_results` — the same engine the Shenzhen workbook has
always used — so the core and the old pipeline agree to the cent.

What is typed, as the entry columns declare (the headers of the Shenzhen 成绩/轮成绩/罚分 sheets):

* per board (逐副, a :class:`~bianpai.engines.core.TypedMatch` game row: ``game`` = the board's
  number within the round, from 1): ``ns_score`` 南北得分 (levels won by NS, −3…+3 without 0)
  or ``code`` 代码 (A+, A, A-, A+/A+, A-/A-: 平均正分/平均负分, 规程 八（二）);
* per table (轮成绩, ``totals``): ``ns_pct``/``ew_pct`` 南北/东西比赛分% typed from an electronic
  scorer, ``ns_level_diff`` 南北级差; a typed table replaces its boards;
* ``decision`` 判定: 正常, 南北弃权, 东西弃权, 双方弃权 (规程 十一（四）: a forfeit scores 55 %/2 : 0);
* ``penalties`` ``(side, kind, value)``: kind 超时/迟到 with ``value`` in minutes (the 规程's
  ladders 十一（三）（四） give the % of a board's top), 直接 with ``value`` in % of a board's
  top, 迟到一轮/迟到两轮 (whole rounds late: the round is forfeited / the pair is disqualified
  from that round on, by ``lateness.rounds_forfeit``/``rounds_disqualify``).

A round counts in a standing once something of it was entered (a result, a forfeit, a penalty),
so byes of rounds not yet played do not score mid-event. A round with board results at one
table only cannot be matchpointed (one table has nothing to compare with): ``InputError``.

Source: 深圳市掼蛋双人赛规程 2023 八（二）（三）, 十一（三）（四）, 十三.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, ClassVar

import pandas as pd

from bianpai.engines.core import ScoringDefaults
from bianpai.engines.core import EntryColumn, Match, MatchResult, TypedMatch, is_blank
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.guandan_checks import typed_pct_warnings, typed_problems
from bianpai.engines.rounding import to_decimal

__all__ = ["GuandanPairsCore", "DECISIONS", "PENALTY_KINDS", "LATE_ROUNDS"]

#: 判定 codes of a table → the round_results status
DECISIONS = {"正常": "", "南北弃权": "ns_forfeit", "东西弃权": "ew_forfeit",
             "双方弃权": "both_forfeit", "normal": "", "ns forfeit": "ns_forfeit",
             "ew forfeit": "ew_forfeit", "both forfeit": "both_forfeit"}
#: 罚分 kinds (类别) and the unit of their value
PENALTY_KINDS = {"超时": "minutes", "迟到": "minutes", "直接": "pct_of_top", "迟到一轮": "rounds",
                 "迟到两轮": "rounds"}
#: whole rounds late per kind
LATE_ROUNDS = {"迟到一轮": 1, "迟到两轮": 2}
CODES = ("A+", "A", "A-", "A+/A+", "A-/A-")


class GuandanPairsCore(ScoringDefaults):
    """The core ``Scoring`` interface of guandan pairs (mixed into
    :class:`bianpai.engines.guandan.GuandanScoring`; the settings are its fields)."""

    scope: ClassVar[str] = "stage"
    #: a pair sits 南北 or 东西 (its matchpoints are compared with the same direction's): the
    #: side titles of the printed papers, whatever the format names its sides
    side_labels: ClassVar[tuple[tuple[str, str], ...]] = (("南北", "NS"), ("东西", "EW"))
    #: a 罚分 value means minutes or % of a top by its kind (0 for 迟到一轮): checked by
    #: :meth:`penalty_pct`, not by the generic size check
    checks_own_penalties: ClassVar[bool] = True
    #: a board is matchpointed against the other tables of its round (八（二）): a round of one
    #: table gets no 逐副 rows at the draw (its result is typed in 轮成绩)
    games_need_tables: ClassVar[int] = 2
    #: a withdrawn pair's later tables are its forfeits (十（三）2: the other pair 55 % and 2 场分,
    #: the withdrawn one 0): the decisions for side 0 (南北), side 1 (东西), both
    withdrawal_decisions: ClassVar[tuple[str, str, str]] = ("南北弃权", "东西弃权", "双方弃权")

    @property
    def games_per_match(self) -> int:
        """Boards per round (每轮牌数): one 逐副 row per board."""
        return int(self.boards_per_round)  # type: ignore[attr-defined]

    # -- what is typed
    def entry_game_columns(self) -> list[EntryColumn]:
        return [EntryColumn("ns_score", "南北得分", "NS score", "int", width=9),
                EntryColumn("code", "代码", "Code", "code", choices=CODES, width=8)]

    def entry_match_columns(self) -> list[EntryColumn]:
        return [EntryColumn("ns_pct", "南北比赛分%", "NS %", "pct", width=11),
                EntryColumn("ew_pct", "东西比赛分%", "EW %", "pct", width=11),
                EntryColumn("ns_level_diff", "南北级差", "NS level diff", "int", width=9)]

    def entry_decisions(self) -> list[str]:
        return ["正常", "南北弃权", "东西弃权", "双方弃权"]

    # -- penalties
    def penalty_pct(self, kind: str, value) -> Decimal:
        """A 罚分 row as % of one board's top: 超时/迟到 ``value`` minutes on the ladders
        (十一（三）（四）), 直接 ``value`` itself, 迟到一轮/两轮 0 (they forfeit instead).
        Raises ``InputError`` for an unknown kind, a missing or negative value, a ladder that
        does not cover the minutes, or a lateness of a whole round typed as minutes."""
        kind = (kind or "直接").strip()
        if kind not in PENALTY_KINDS:
            raise InputError(f"未知的罚分类别“{kind}”（应为：{'、'.join(PENALTY_KINDS)}）",
                             f"unknown penalty kind {kind!r}")
        if kind in LATE_ROUNDS:
            return Decimal(0)
        if is_blank(value):
            raise InputError(f"“{kind}”须填写{'分钟数' if kind != '直接' else '罚分(%顶分)'}",
                             f"{kind} needs its value")
        v = to_decimal(value)
        if v < 0:
            raise InputError("罚分与分钟数不能为负数", "penalties and minutes cannot be negative")
        if kind == "直接":
            if v > 100 * self.boards_per_round:  # type: ignore[attr-defined]
                raise InputError(f"罚分 {v}% 顶分超过整轮 {self.boards_per_round} 副牌的顶分",  # type: ignore[attr-defined]
                                 f"a penalty of {v}% of a top exceeds the whole round")
            return v
        rm = self.round_minutes  # type: ignore[attr-defined]
        if kind == "迟到" and rm and v >= rm:
            raise InputError(f"迟到 {v} 分钟已达一轮（{rm} 分钟），请按类别“迟到一轮”录入（判该轮弃权）",
                             f"{v} minutes late is a whole round: use kind 迟到一轮 (forfeit)")
        ladder = self.overtime if kind == "超时" else self.lateness  # type: ignore[attr-defined]
        if ladder is None:
            raise InputError(f"规程没有“{kind}”罚则", f"the regulation has no {kind} ladder")
        try:
            return ladder.apply(v).pct_of_top
        except RuleError as exc:
            raise InputError(exc.zh, exc.en) from exc

    # -- one match (not called by the pipeline for a stage-scope scoring)
    def is_complete(self, typed: TypedMatch) -> bool:
        return typed.decision is not None or all(
            not is_blank(typed.totals.get(k)) for k in ("ns_pct", "ew_pct"))

    def problems(self, match: Match, typed: TypedMatch) -> list:
        return []

    def crosstable_text(self, result: MatchResult, side: int, lang: str = "zh") -> str:
        """A 交叉表 cell of side ``side``: its 场分 and, in brackets, its 比赛分% to 2 decimals
        (八（二）), e.g. ``"1.5 (51.67)"``; a bye or a fixed score shows its own values."""
        pts = Decimal(str(result.points[side]))
        shown = str(int(pts)) if pts == pts.to_integral_value() else f"{pts.normalize()}"
        pct = (result.values.get("score_pct") or (None,) * (side + 1))[side]
        return shown if pct is None else f"{shown} ({Decimal(str(pct)):.2f})"

    def score_typed(self, match: Match, typed: TypedMatch) -> MatchResult:
        return self.score_stage([match], {match.key: typed})[0]

    # ``bye`` is the settings field (FixedScore) of GuandanScoring: a stage-scope scoring's byes
    # are scored by ``score_stage``, so the pipeline never calls ``bye(match)``.

    def forfeit(self, match: Match, side: int) -> MatchResult:
        """``side`` forfeits: the other side gets ``forfeit_winner`` (十一（四）: 55 %, 2)."""
        loser, winner = self.forfeit_loser, self.forfeit_winner  # type: ignore[attr-defined]
        return self._fixed_result(match, [(loser, "FL") if i == side else (winner, "FW")
                                          for i in range(len(match.sides))])

    def _fixed_result(self, match: Match, fixed: list) -> MatchResult:
        pts = tuple(f.match_points for f, _ in fixed) + (Decimal(0),) * (len(match.sides) - len(fixed))
        outs = tuple(o for _, o in fixed) + ("BYE",) * (len(match.sides) - len(fixed))
        pct = tuple(to_decimal(f.score_pct) for f, _ in fixed) + (None,) * (len(match.sides) - len(fixed))
        n = len(match.sides)
        values = {"score_pct": pct, "level_diff": (0,) * n, "penalty_pct": (Decimal(0),) * n}
        if outs[0] == "BYE":
            values["won"] = (self.bye_counts_as_win,) + (None,) * (n - 1)  # type: ignore[attr-defined]
        return MatchResult(match=match, points=pts, outcome=outs, values=values)

    def typed_problems(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                       ) -> list[InputError]:
        """Errors in what was typed (八（二）): a board's score outside the levels, a score and a
        code for one board, a board typed twice, a table's percentages incomplete or over 100;
        see :func:`bianpai.engines.guandan_checks.typed_problems`. The core refuses the stage
        with them, each at its cell, before scoring it."""
        return typed_problems(matches, typed, boards_per_round=self.boards_per_round,  # type: ignore[attr-defined]
                              score_values=self.board_score_values)  # type: ignore[attr-defined]

    def penalty_for(self, reason: str | None, value: Decimal | None) -> Decimal | None:
        """A 罚分 row checked as it is read (十一（三）（四））: ``value`` (minutes for 超时/迟到,
        else % of a top; 0 for 迟到一轮/两轮) returned as typed once :meth:`penalty_pct` accepts
        it. Raises ``InputError`` (column ``points``) otherwise."""
        kind = (reason or "直接").strip()
        if kind in LATE_ROUNDS and value is None:
            value = Decimal(0)
        try:
            self.penalty_pct(kind, value)
        except InputError as exc:
            exc.column = "reason" if kind not in PENALTY_KINDS else "points"  # type: ignore[attr-defined]
            raise
        return value

    def stage_warnings(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                       ) -> list[InputError]:
        """Typed round percentages that do not add up (八（二）): warnings that ``rank``
        shows, see :func:`bianpai.engines.guandan_checks.typed_pct_warnings`."""
        return typed_pct_warnings(matches, typed)

    # -- the stage
    def score_stage(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                    ) -> list[MatchResult]:
        """Score every table of the stage: ``matches`` every drawn match (byes as a ``None``
        side, side 0 sits North–South), ``typed`` by :attr:`Match.key`. Returns the complete
        matches (byes of entered rounds included) as :class:`MatchResult` with ``points`` 场分
        and ``values`` ``score_pct`` (比赛分 %, 2 places), ``level_diff`` (级差), ``penalty_pct``
        (% of a board's top) and, for a bye, ``won``. Raises ``InputErrors`` (each error names
        the typed row in ``where`` when known)."""
        frames = self.typed_frames(matches, typed)
        sched, boards, tables, pens, dq, errs = frames
        if errs:
            raise InputErrors(errs)
        res = self.round_frame(sched, boards, tables, pens, dq)
        return self.match_results(matches, res)

    def typed_frames(self, matches: list[Match], typed: dict[tuple, TypedMatch]):
        """The typed matches as the frames of :func:`bianpai.engines.guandan.round_results`:
        ``(schedule, boards, typed rounds, penalties, disqualified, errors)``;
        ``disqualified`` maps an entrant to the round it was disqualified from."""
        sched = pd.DataFrame([{"round": m.round, "table": m.table, "home": m.sides[0],
                               "away": m.sides[1] if len(m.sides) > 1 else None}
                              for m in matches], columns=["round", "table", "home", "away"])
        if len(sched):
            sched["away"] = sched["away"].astype("Int64")
        errs: list[InputError] = []
        brows, trows, prows = [], [], []
        late: list[tuple[int, int, int]] = []  # (round, entrant, rounds late)
        for m in matches:
            t = typed.get(m.key)
            if t is None or m.is_bye:
                continue
            ns, ew = m.sides[0], m.sides[1]
            where = t.where[0] if t.where else None
            for side, kind, value in t.penalties:
                entrant = m.sides[side]
                try:
                    pct = self.penalty_pct(kind, value)
                except InputError as exc:
                    # the typed match carries no 罚分 cell: the message names round, table, pair
                    errs.append(InputError(f"第{m.round}轮第{m.table}桌 {entrant}号罚分：{exc.zh}",
                                           f"round {m.round} table {m.table} pair {entrant} "
                                           f"penalty: {exc.en}"))
                    continue
                prows.append({"round": m.round, "entrant": entrant, "pct_of_top": pct})
                if kind in LATE_ROUNDS:
                    late.append((m.round, entrant, LATE_ROUNDS[kind]))
            status = ""
            if t.decision is not None and not is_blank(t.decision):
                status = DECISIONS.get(str(t.decision).strip().lower())
                if status is None:
                    errs.append(_at(InputError(
                        f"未知的判定“{t.decision}”（应为：{'、'.join(self.entry_decisions())}）",
                        f"unknown decision {t.decision!r}"), t, "decision"))
                    continue
            tot = {k: t.totals.get(k) for k in ("ns_pct", "ew_pct", "ns_level_diff")}
            has_pct = any(not is_blank(tot[k]) for k in ("ns_pct", "ew_pct"))
            if status or has_pct:
                if status and has_pct:
                    errs.append(_at(InputError("判定为弃权时不填比赛分（按规程给分），请清空比赛分或把判定改为“正常”",
                                               "a forfeit takes no percentages; clear them"),
                                    t, "ns_pct"))
                    continue
                trows.append({"round": m.round, "ns": ns, "ew": ew,
                              "ns_pct": None if is_blank(tot["ns_pct"]) else tot["ns_pct"],
                              "ew_pct": None if is_blank(tot["ew_pct"]) else tot["ew_pct"],
                              "status": status,
                              "ns_level_diff": None if is_blank(tot["ns_level_diff"])
                              else tot["ns_level_diff"], "_typed": True})
                continue
            for g in t.game_records():
                score, code = g.get("ns_score"), g.get("code")
                if is_blank(score) and is_blank(code):
                    continue
                brows.append({"round": m.round, "table": m.table, "board": int(g["game"]),
                              "ns": ns, "ew": ew,
                              "ns_score": float("nan") if is_blank(score) else float(score),
                              "code": None if is_blank(code) else str(code), "_where": where})
        # whole rounds late (十一（四）4/5): forfeit of the round, or disqualified from it on
        dq, forfeit_at = self._late_rulings(late)
        last = int(sched["round"].max()) if len(sched) else 0
        for e, r0 in dq.items():
            forfeit_at += [(r, e) for r in range(r0, last + 1)]
        for rnd, e in forfeit_at:
            m = next((m for m in matches if m.round == rnd and e in m.sides and not m.is_bye),
                     None)
            if m is None:
                continue
            trows = [r for r in trows if not (r["round"] == rnd and r["ns"] == m.sides[0])]
            trows.append({"round": rnd, "ns": m.sides[0], "ew": m.sides[1], "ns_pct": None,
                          "ew_pct": None, "ns_level_diff": None,
                          "status": "ns_forfeit" if m.sides[0] == e else "ew_forfeit",
                          "_typed": False})
        boards = pd.DataFrame(brows, columns=["round", "table", "board", "ns", "ew", "ns_score",
                                              "code", "_where"])
        tables = pd.DataFrame(trows, columns=["round", "ns", "ew", "ns_pct", "ew_pct", "status",
                                              "ns_level_diff", "_typed"])
        pens = pd.DataFrame(prows, columns=["round", "entrant", "pct_of_top"])
        return sched, boards, tables, pens, dq, errs

    def _late_rulings(self, late: list[tuple[int, int, int]]
                      ) -> tuple[dict[int, int], list[tuple[int, int]]]:
        """Whole rounds late ``(round, entrant, rounds)`` → (entrant → the round it is
        disqualified from, [(round, entrant) forfeited]) by ``lateness.rounds_disqualify`` /
        ``rounds_forfeit`` (十一（四）4/5; 2 and 1 when unset). The rounds are counted over the
        event: 迟到两轮 is two rounds late in all (one 迟到两轮 row, or 迟到一轮 in two rounds,
        which the text does not tell apart); the pair is disqualified from the round where
        the count reaches ``rounds_disqualify``, each round before it forfeited."""
        lat = self.lateness  # type: ignore[attr-defined]
        rf = lat.rounds_forfeit if lat and lat.rounds_forfeit is not None else 1
        rd = lat.rounds_disqualify if lat and lat.rounds_disqualify is not None else 2
        dq: dict[int, int] = {}
        forfeit_at: list[tuple[int, int]] = []
        count: dict[int, int] = {}
        for rnd, e, n in sorted(late):
            count[e] = count.get(e, 0) + n
            if count[e] >= rd:
                dq[e] = min(dq.get(e, rnd), rnd)
            elif n >= rf:
                forfeit_at.append((rnd, e))
        return dq, forfeit_at

    def unplaced(self, matches: list[Match], typed: dict[tuple, TypedMatch]
                 ) -> dict[int, tuple[int, str, str]]:
        """The core's ``unplaced`` hook: pairs disqualified for lateness of whole rounds
        (十一（四）5 "迟到两轮…取消比赛资格"), entrant → (the round it is disqualified from,
        Chinese and English explanation). Their results before that round stand; the core
        lists them after the others without a place (and gives them no award)."""
        late = [(m.round, m.sides[side], LATE_ROUNDS[str(kind).strip()])
                for m in matches if not m.is_bye and (t := typed.get(m.key)) is not None
                for side, kind, _v in t.penalties if str(kind or "").strip() in LATE_ROUNDS]
        dq, _ = self._late_rulings(late)
        return {e: (r, f"第{r}轮起取消比赛资格（迟到两轮，规程十一（四）5）",
                    f"disqualified from round {r} (two rounds late)") for e, r in dq.items()}

    def round_frame(self, sched: pd.DataFrame, boards: pd.DataFrame, tables: pd.DataFrame,
                    pens: pd.DataFrame, dq: dict[int, int]) -> pd.DataFrame:
        """:func:`~bianpai.engines.guandan.round_results` over the boards of complete tables
        (a table whose boards are all in; a round's board tables count together), with the
        rounds nothing was entered for marked incomplete. Raises ``InputErrors`` for a round
        whose only board-typed table cannot be matchpointed."""
        from bianpai.engines.guandan import round_results
        b = self.boards_per_round  # type: ignore[attr-defined]
        errs: list[InputError] = []
        typed_keys = set(zip(tables["round"], tables["ns"], tables["ew"]))
        keep = []
        real = sched.dropna(subset=["away"])
        for rnd, rs in real.groupby("round"):
            by_board = [(int(rnd), int(h), int(a)) for h, a in zip(rs["home"], rs["away"])
                        if (int(rnd), int(h), int(a)) not in typed_keys]
            got = {t: boards[(boards["round"] == t[0]) & (boards["ns"] == t[1])] for t in by_board}
            if len(by_board) == 1 and len(got[by_board[0]]):
                t = by_board[0]
                where = got[t]["_where"].iloc[0]
                errs.append(_where_error(InputError(
                    f"第{rnd}轮只有一桌（{t[1]}-{t[2]}）按逐副成绩录入，无法与其他桌比较计算比赛分；"
                    f"请在“轮成绩”表直接填写该桌双方比赛分",
                    f"round {rnd} has a single table with board results ({t[1]}-{t[2]}): type "
                    f"that table's percentages instead"), where))
                continue
            if any(len(got[t]) < b for t in by_board):
                continue
            keep += [got[t] for t in by_board]
        if errs:
            raise InputErrors(errs)
        bdf = pd.concat(keep) if keep else boards.iloc[0:0]
        bdf = bdf.drop(columns=["_where"])
        if len(bdf):
            bdf = bdf.astype({"round": int, "board": int, "ns": int, "ew": int})
        res = round_results(sched, bdf, self, typed=tables.reset_index(drop=True),  # type: ignore[arg-type]
                            penalties=pens)
        # a round counts once something of it was entered (complete board tables, a typed
        # table, a penalty, a disqualification): byes of later rounds do not score yet
        entered = set(int(r) for r in bdf["round"]) | set(int(r) for r in tables.loc[tables["_typed"].astype(bool), "round"]) \
            | set(int(r) for r in pens["round"]) | set(dq.values())
        if len(res):
            res.loc[~res["round"].isin(entered), "complete"] = False
        return res

    def match_results(self, matches: list[Match], res: pd.DataFrame) -> list[MatchResult]:
        """Per-pair rows of :func:`round_results` back into :class:`MatchResult` per match
        (complete matches only)."""
        rows = {(int(r["round"]), int(r["entrant"])): r for r in res.to_dict("records")}
        out = []
        for m in matches:
            mine = [rows.get((m.round, e)) if e is not None else None for e in m.sides]
            if mine[0] is None or not mine[0]["complete"] or (
                    not m.is_bye and (mine[1] is None or not mine[1]["complete"])):
                continue
            n = len(m.sides)
            pick = lambda k, d=None: tuple(d if r is None else r[k] for r in mine)  # noqa: E731
            values: dict[str, tuple[Any, ...]] = {
                "score_pct": pick("score_pct"), "level_diff": pick("level_diff", 0),
                "penalty_pct": pick("penalty_pct", Decimal(0))}
            if m.is_bye:
                values["won"] = (mine[0].get("won"),) + (None,) * (n - 1)
            out.append(MatchResult(match=m, points=pick("match_points", Decimal(0)),
                                   outcome=pick("outcome", "BYE"), values=values))
        return out

    # -- demo
    def simulate(self, rng: random.Random, strengths: tuple[float, ...], games: int
                 ) -> list[dict[str, Any]]:
        """Board rows (``ns_score`` levels, EW wins negative) with the stronger pair winning
        more boards."""
        import math
        p_ns = 1 / (1 + math.exp(-(strengths[0] - strengths[1])))
        out = []
        for _ in range(games):
            lv = rng.choices([1, 2, 3], weights=[45, 35, 20])[0]
            out.append({"ns_score": lv if rng.random() < p_ns else -lv, "code": None})
        return out


def _at(exc: InputError, typed: TypedMatch, column: str) -> InputError:
    """``exc`` placed on the typed match's cell for ``column`` (or its first row)."""
    cell = typed.cells.get(column) or (typed.where[0] if typed.where else None)
    return _where_error(exc, cell)


def _where_error(exc: InputError, where: str | None) -> InputError:
    if where and exc.sheet is None and "!" in where:
        exc.sheet, _, exc.cell = where.partition("!")
    return exc
