"""80分（升级）scoring: fujian 扑克牌升级（80分）比赛规则 一4、二3、三7、三8、四、五."""

import random
from decimal import Decimal

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bianpai.engines.core import Match, StageEntrant, StageState, entrant_rows, scoring_for
from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.engines.mitchell import Mitchell, boards_from_label
from bianpai.engines.standings import rank
from bianpai.engines.upgrade80 import (Upgrade80Scoring, board_score, foul_points,
                                       score_round)


def _stage(n: int, bpr: int = 2, mode: str = "skip", seed: int = 1, ew: int | None = None):
    ents = ([StageEntrant(number=i, pool="NS") for i in range(1, n + 1)]
            + [StageEntrant(number=100 + i, pool="EW") for i in range(1, (ew or n) + 1)])
    fmt = Mitchell(boards_per_round=bpr, even_tables=mode, draw="seed")
    state = StageState(entrants=ents, seed=seed)
    for r in range(fmt.total_rounds(state)):
        state.matches += fmt.next_round(state, random.Random(seed))
        for m in state.matches:  # mark drawn rounds as played for the format
            if m.round == r + 1 and not m.is_bye:
                state.results[m.key] = None  # type: ignore[assignment]
    return state.matches


def _rows(matches, rng: random.Random, step: int = 5) -> pd.DataFrame:
    rows = []
    for m in matches:
        if m.is_bye:
            continue
        for b in boards_from_label(m.label):
            rows.append({"round": m.round, "table": m.table, "board": b,
                         "points": rng.randrange(0, 41) * step})
    return pd.DataFrame(rows)


class TestBoardScore:
    def test_kitty_multipliers(self):
        """三8 抠底：当防家在最后一圈中为最大时即为抠底，单抠* 2，双抠 *4，拖拉机抠* 8。"""
        assert board_score(60, 20, "单抠") == 60 + 40
        assert board_score(60, 20, "双抠") == 60 + 80
        assert board_score(60, 20, "拖拉机抠") == 60 + 160
        assert board_score(60, 20, "tractor") == 220
        assert board_score(60, 20) == 60  # kitty not captured: does not count
        assert board_score(60, 20, "", -40) == 20  # 四1 扣40分

    def test_fouls(self):
        """四4 甩错牌：按所甩张数每张扣10分（每次最多不超过80分）; 四8 超时第一次警告，第二次扣10分."""
        assert foul_points("wrong_throw", cards=3) == 30
        assert foul_points("wrong_throw", cards=10) == 80
        assert foul_points("overtime", occurrence=1) == 0
        assert foul_points("overtime", occurrence=2) == 10
        assert foul_points("exposed_major") == 20 and foul_points("kitty_count") == 40
        assert foul_points("hidden_card", cards=3) == 80
        with pytest.raises(InputError):
            foul_points("nonsense")

    @pytest.mark.parametrize("args", [(63,), (205,), (-5,), ("abc",), (None,),
                                      (60, 20, "三抠"), (60, None, "单抠"), (190, 20, "单抠"),
                                      (60, 85, "单抠"), (60, 0, "", 3)])
    def test_bad_values(self, args):
        with pytest.raises(InputError):
            board_score(*args)


class TestScoreRound:
    def test_registered_and_per_match_refused(self):
        assert scoring_for("80分") is Upgrade80Scoring
        with pytest.raises(RuleError):
            Upgrade80Scoring().score(Match(1, 1, (1, 2), label="牌套1 第1-2副"), pd.DataFrame())

    @pytest.mark.parametrize("n,mode", [(3, "skip"), (4, "skip"), (5, "skip"), (6, "relay"),
                                        (7, "skip"), (8, "relay"), (13, "skip"), (20, "skip"),
                                        (20, "relay")])
    def test_matchpoint_sums_equal_top(self, n, mode):
        """Matchpoints (2 per table beaten, 1 per tie): NS + EW at a table = the top on every
        board, and a board's NS matchpoints add up to top · results / 2."""
        rng = random.Random(n)
        ms = _stage(n, 2, mode)
        res = score_round(ms, _rows(ms, rng))
        assert len(res) == len(ms)
        per_board: dict[int, list] = {}
        for r in res:
            bds = boards_from_label(r.match.label)
            ns, ew = r.values["board_mps"]
            for b, a, c in zip(bds, ns, ew):
                per_board.setdefault(b, []).append(a)
                assert a + c == r.values["top"][0] / len(bds)
            assert r.points[0] + r.points[1] == r.values["top"][0]
        for b, mps in per_board.items():
            t = 2 * (len(mps) - 1)
            assert sum(mps) == Decimal(t * len(mps)) / 2
            assert max(mps) <= t and min(mps) >= 0

    def test_known_board(self):
        """一4 以多得分为原则: higher points is better for the scored side (NS by default)."""
        ms = _stage(3, 1)
        # board 1 is played once a round: NS scores 80, 80, 40 → MP 3, 3, 0 (top 4)
        rows = _rows(ms, random.Random(0))
        b1 = rows[rows["board"] == 1].index
        rows.loc[b1, "points"] = [80, 80, 40]
        res = score_round(ms, rows)
        mp1 = [r.values["board_mps"][0][boards_from_label(r.match.label).index(1)]
               for r in res if 1 in boards_from_label(r.match.label)]
        assert sorted(mp1) == [0, 3, 3]
        # typed as the EW side's 得分 instead: the comparison turns round
        rows["scored"] = "东西"
        res = score_round(ms, rows)
        mp1 = [r.values["board_mps"][0][boards_from_label(r.match.label).index(1)]
               for r in res if 1 in boards_from_label(r.match.label)]
        assert sorted(mp1) == [1, 1, 4]

    def test_acbl_scale(self):
        ms = _stage(3, 1)
        rows = _rows(ms, random.Random(2))
        a = score_round(ms, rows)
        b = score_round(ms, rows, rules=Upgrade80Scoring(scale="acbl"))
        assert [x.points[0] / 2 for x in a] == [x.points[0] for x in b]

    def test_penalty_half_mp(self):
        """三7 如果牌插错，影响比赛，裁判将判罚0.5比赛分; 五 每次将扣0.5个比赛分处理."""
        ms = _stage(3, 2)
        rows = _rows(ms, random.Random(3))
        base = score_round(ms, rows)
        m = ms[0]
        adj = pd.DataFrame([{"round": m.round, "table": m.table, "side": "NS",
                             "kind": "插错牌套", "board": boards_from_label(m.label)[0]},
                            {"round": m.round, "table": m.table, "side": 1, "kind": "违纪"}])
        pen = score_round(ms, rows, adj)
        assert pen[0].points[0] == base[0].points[0] - Decimal("0.5")
        assert pen[0].points[1] == base[0].points[1] - Decimal("0.5")
        assert pen[0].values["board_mps"] == base[0].values["board_mps"]
        assert [r.points for r in pen[1:]] == [r.points for r in base[1:]]

    def test_lateness_forfeit(self):
        """四11 比赛一方迟到超过10分钟，判违规方该轮弃权."""
        ms = _stage(5, 2)
        rows = _rows(ms, random.Random(4))
        m = ms[0]
        drop = rows[(rows["round"] == m.round) & (rows["table"] == m.table)].index
        rows2 = rows.drop(drop)
        late = pd.DataFrame([{"round": m.round, "table": m.table, "side": 1, "kind": "迟到",
                              "value": 11}])
        res = score_round(ms, rows2, late)
        r0 = res[0]
        assert r0.outcome == ("FW", "FL")
        top = Decimal(8)  # 5 results per board
        assert r0.points == (Decimal("0.6") * top * 2, Decimal(0))
        # exactly 10 minutes is not "超过10分钟": no forfeit, so the rows are needed
        ten = late.assign(value=10)
        res = score_round(ms, rows, ten)
        assert res[0].outcome in (("W", "L"), ("L", "W"), ("D", "D"))
        with pytest.raises(InputErrors):
            score_round(ms, rows, late)  # rows typed for a forfeited round

    def test_illegal_information_ends_the_board_with_120(self):
        """四10 传递非法信息：…判罚40分、或该副牌立即结束，判违规方负，非违规方得120分。累计二次以上
        传递非法信息的，取消违规方比赛资格. The 40-point option is a table penalty (罚分调整); the
        board-ending option is a ruling on the board: the other side is scored 120 there."""
        ms = _stage(3, 2)
        rows = _rows(ms, random.Random(8))
        m = ms[0]
        bd = boards_from_label(m.label)[0]
        rows = rows.drop(rows[(rows["round"] == m.round) & (rows["table"] == m.table)
                              & (rows["board"] == bd)].index)
        rule = pd.DataFrame([{"round": m.round, "table": m.table, "side": "EW",
                              "kind": "传递非法信息", "board": bd}])
        res = score_round(ms, rows, rule)
        r0 = res[0]
        i = boards_from_label(m.label).index(bd)
        assert r0.values["board_points"][0][i] == 120 and r0.values["board_points"][1][i] == -120
        assert "四10" in r0.note_zh and "南北得120分" in r0.note_zh and "取消" not in r0.note_zh
        # the board is compared across tables like any result: NS 120 against the others
        others = [r.values["board_points"][0][boards_from_label(r.match.label).index(bd)]
                  for r in res if bd in boards_from_label(r.match.label) and r is not r0]
        beaten = sum(1 for o in others if o < 120) * 2 + sum(1 for o in others if o == 120)
        assert r0.values["board_mps"][0][i] == beaten
        # an NS offender: EW is scored 120 (−120 from NS's side); a second ruling for the same
        # pair says it is to be disqualified
        m2 = next(x for x in ms if x.round == 2 and x.sides[0] == m.sides[0])
        bd2 = boards_from_label(m2.label)[0]
        rows2 = rows.drop(rows[(rows["round"] == m2.round) & (rows["table"] == m2.table)
                               & (rows["board"] == bd2)].index)
        two = pd.DataFrame([{"round": m.round, "table": m.table, "side": "NS",
                             "kind": "非法信息", "board": bd},
                            {"round": m2.round, "table": m2.table, "side": "NS",
                             "kind": "非法信息", "board": bd2}])
        res = score_round(ms, rows2, two)
        first = next(r for r in res if r.match == m)
        second = next(r for r in res if r.match == m2)
        assert first.values["board_points"][0][i] == -120 and "取消" not in first.note_zh
        assert "累计2次" in second.note_zh and "取消比赛资格" in second.note_zh
        # a setting: another number of points
        res = score_round(ms, rows, rule, rules=Upgrade80Scoring(illegal_info_points=100))
        assert res[0].values["board_points"][0][i] == 100

    def test_illegal_information_bad_input(self):
        """四10 needs the board; the ended board's points stay empty; a board not played there is
        named."""
        ms = _stage(3, 2)
        rows = _rows(ms, random.Random(9))
        m = ms[0]
        bd = boards_from_label(m.label)[0]
        for board, typed, what in ((None, rows, "须写明牌号"), (bd, rows, "请留空"),
                                   (99, rows, "没有打第99副")):
            adj = pd.DataFrame([{"round": m.round, "table": m.table, "side": 1,
                                 "kind": "传递非法信息", "board": board}])
            with pytest.raises(InputErrors) as exc:
                score_round(ms, typed, adj)
            assert what in " ".join(e.zh for e in exc.value.errors)

    def test_neuberg_for_sit_out_field(self):
        ms = _stage(4, 2, ew=3)
        res = score_round(ms, _rows(ms, random.Random(5)))
        byes = [r for r in res if r.outcome == ("BYE", "BYE")]
        assert byes and all(r.points[0] == r.values["top"][0] / 2 for r in byes)

    def test_incomplete_match_left_out(self):
        ms = _stage(3, 2)
        rows = _rows(ms, random.Random(6)).iloc[:-1]
        res = score_round(ms, rows)
        assert len(res) == len(ms) - 1

    def test_bad_input(self):
        """A result for a table that did not play that board, a penalty on an unknown board,
        a row for an undrawn table, a duplicate: all reported, nothing scored."""
        ms = _stage(3, 2)
        rows = _rows(ms, random.Random(7))
        bad = pd.concat([rows, pd.DataFrame([
            {"round": 1, "table": 1, "board": 3, "points": 40},   # table 1 plays 1-2
            {"round": 9, "table": 1, "board": 1, "points": 40},   # no round 9
            {"round": 1, "table": 2, "board": 3, "points": 40},   # duplicate
            {"round": 1, "table": 3, "board": 5, "points": 42},   # not a multiple of 5
        ])], ignore_index=True)
        adj = pd.DataFrame([{"round": 1, "table": 1, "side": 0, "kind": "插错牌套", "board": 6},
                            {"round": 1, "table": 1, "side": 0, "kind": "罚款"}])
        with pytest.raises(InputErrors) as ei:
            score_round(ms, bad, adj)
        errs = ei.value.errors
        assert len(errs) == 6
        assert "没有打第3副" in errs[2].zh or any("没有打第3副" in e.zh for e in errs)
        assert any("没有打第6副" in e.zh and e.table == "adjustments" for e in errs)
        assert {e.row for e in errs if e.table == "board_rows"} == set(range(len(rows), len(bad)))


class TestCountback:
    def test_criterion_order(self):
        """二3 首先比较比赛中所获比赛分之和，高者列前；如比赛分相同，则比较最高分，多者列前；
        如仍相同，则比较次高分，多者列前，以此类推。"""
        df = pd.DataFrame({
            "entrant": [1, 2, 3, 4], "opponent": pd.array([pd.NA] * 4, dtype="Int64"),
            "complete": [True] * 4,
            "match_points": [Decimal(6), Decimal(6), Decimal(6), Decimal(7)],
            "board_mps": [(Decimal(2), Decimal(4), Decimal(0)),
                          (Decimal(3), Decimal(3), Decimal(0)),
                          (Decimal(4), Decimal(1), Decimal(1)),
                          (Decimal(0), Decimal(3), Decimal(4))]})
        st = rank([1, 2, 3, 4], df, Upgrade80Scoring().chain())
        # 4 has the most 比赛分; 1 and 3 share the best board (4) and 1's second best (2) beats 3's (1)
        assert list(st.table["entrant"]) == [4, 1, 3, 2]
        assert "逐副比较最高比赛分" in st.table["explanation_zh"].iloc[1]
        # the 说明 shows where the sequences differ (a trial user saw "2/2/2/2/2… > 2/2/2/2/2…")
        assert st.table["explanation_zh"].iloc[1].endswith("(第2高 2 > 1)")
        assert st.table["explanation_en"].iloc[1].endswith("(2nd best 2 > 1)")

    def test_countback_beyond_the_fifth_board_is_explained_at_its_place(self):
        same = [Decimal(2)] * 6
        df = pd.DataFrame({
            "entrant": [1, 2], "opponent": pd.array([pd.NA] * 2, dtype="Int64"),
            "complete": [True] * 2, "match_points": [Decimal(13), Decimal(13)],
            "board_mps": [tuple(same + [Decimal(1)]), tuple(same[:5] + [Decimal(1), Decimal(1)])]})
        st = rank([1, 2], df, Upgrade80Scoring().chain())
        assert list(st.table["entrant"]) == [1, 2]
        assert st.table["explanation_zh"].iloc[0].endswith("(第6高 2 > 1)")

    def test_full_stage_ranking_per_direction(self):
        ms = _stage(5, 2)
        res = score_round(ms, _rows(ms, random.Random(8)))
        rows = entrant_rows(res)
        ns = rank(range(1, 6), entrant_rows(res, range(1, 6)), Upgrade80Scoring().chain())
        ew = rank(range(101, 106), entrant_rows(res, range(101, 106)),
                  Upgrade80Scoring().chain())
        total = sum(ns.table["upgrade80_total"]) + sum(ew.table["upgrade80_total"])
        assert total == sum(rows["top"]) / 2  # every board's top shared between NS and EW
        assert list(ns.table["rank"]) == sorted(ns.table["rank"])


class TestProperties:
    """Seeded random fields: the invariants hold for any field and any typed points."""

    @settings(max_examples=25, deadline=None, derandomize=True)
    @given(st.integers(3, 9), st.sampled_from(["skip", "relay"]), st.integers(0, 10_000),
           st.integers(0, 2))
    def test_random_fields(self, n, mode, seed, missing_ew):
        ew = max(2, n - missing_ew)
        ms = _stage(n, 2, mode, seed=seed, ew=ew)
        rng = random.Random(seed)
        rows = _rows(ms, rng)
        rows["kitty"] = [rng.choice(["", "单抠", "双抠", "拖拉机抠"]) for _ in range(len(rows))]
        rows["kitty_points"] = [rng.randrange(0, 5) * 5 for _ in range(len(rows))]
        rows["points"] = [min(p, 150) for p in rows["points"]]  # the kitty is part of the 200
        res = score_round(ms, rows)
        assert len(res) == len(ms)
        for r in res:
            if r.outcome == ("BYE", "BYE"):
                continue
            # NS + EW at a table = the sum of the tops of its boards
            assert r.points[0] + r.points[1] == r.values["top"][0]
            assert all(x >= 0 for x in r.values["board_mps"][0] + r.values["board_mps"][1])


class TestWithdrawal:
    """退赛 of a pair in a Mitchell (fujian 80分; the 规程 is silent on a pair that leaves): from
    the round after its last one its seat is empty (the movement goes on, nobody else moves
    differently); the pair it would have met scores those boards by the setting
    ``withdrawal_boards`` — ``average`` (as a sit-out: half the top) or ``not_scored``."""

    def _withdrawn_stage(self, who: int, after: int, n: int = 4):
        ents = [StageEntrant(number=k, pool=pool, withdrawn_after=after if k == who else None)
                for pool, base in (("NS", 0), ("EW", 100)) for k in range(base + 1, base + n + 1)]
        fmt = Mitchell(boards_per_round=2, draw="seed")
        state = StageState(entrants=ents, seed=1)
        while not fmt.finished(state):
            ms = fmt.next_round(state, random.Random(1))
            state.matches += ms
            for m in ms:
                if not m.is_bye:
                    state.results[m.key] = None  # type: ignore[assignment]
        return fmt, state

    @pytest.mark.parametrize("who", [2, 103])   # an NS pair, an EW pair
    def test_seat_empty_after_the_last_round(self, who):
        fmt, state = self._withdrawn_stage(who, after=1)
        assert fmt.total_rounds(state) == 3                     # 4 tables, skip: still 3 rounds
        assert [r for r in (1, 2, 3) if any(who in m.sides for m in state.matches
                                            if m.round == r)] == [1]
        later = [m for m in state.matches if m.round > 1 and m.is_bye]
        assert len(later) == 2 and all(f"{who}号退赛" in m.label for m in later)
        # the other pairs keep the movement: nobody meets an opponent or a board set twice
        seen = set()
        for m in state.matches:
            for e in m.entrants:
                key = (e, boards_from_label(m.label))
                assert key not in seen
                seen.add(key)
        assert fmt.plan(state) == state.matches

    @pytest.mark.parametrize("mode,share", [("average", Decimal("0.5")), ("not_scored", 0)])
    def test_opponents_of_a_withdrawn_pair(self, mode, share):
        fmt, state = self._withdrawn_stage(2, after=1)
        rows = _rows(state.matches, random.Random(3))
        res = score_round(state.matches, rows, rules=Upgrade80Scoring(withdrawal_boards=mode))
        left = [r for r in res if r.match.is_bye]
        assert len(left) == 2
        for r in left:
            present = 0 if r.match.sides[0] is not None else 1
            assert r.points[present] == share * r.values["top"][0]
            assert "对手退赛" in r.note_zh
        # the tables that played a board are the ones compared: Σ 比赛分 per board = the top
        for bd in {b for m in state.matches for b in boards_from_label(m.label)}:
            played = [(r, boards_from_label(r.match.label).index(bd)) for r in res
                      if not r.match.is_bye and bd in boards_from_label(r.match.label)]
            ns = sum(r.values["board_mps"][0][i] for r, i in played)
            assert ns == len(played) * (len(played) - 1)

    def test_annulled_pair_only_loses_its_own_side(self):
        """成绩处理 取消 (or 四10 累计二次 取消比赛资格): the pair's own 比赛分 are void; its
        opponents' boards were compared with every table and stand (reading)."""
        fmt, state = self._withdrawn_stage(2, after=1)
        res = score_round(state.matches, _rows(state.matches, random.Random(4)))
        done = Upgrade80Scoring().annul_entrant(res, 2)
        for a, b in zip(res, done):
            if 2 in a.match.sides:
                i = a.match.sides.index(2)
                assert b.outcome[i] == "VOID" and b.points[i] == 0
                assert b.points[1 - i] == a.points[1 - i] and b.outcome[1 - i] == a.outcome[1 - i]
            else:
                assert b is a
        rows = entrant_rows(done)
        assert not rows[rows["entrant"] == 2]["complete"].any()
