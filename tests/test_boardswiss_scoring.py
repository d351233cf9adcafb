"""Board-game scoring (individual and team) and the ``bianpai trf`` typer app.

象棋竞赛规则 13.1 (2015 起): "胜一局得2分，和一局得1分，负一局得0分"; 福建 2024 围棋团体 五:
"(一)每局棋结果，胜方2分，负方0分，和棋双方各记1分。(二)每场棋(团体)结果：局分高者为胜，场分记2分、
局分少者为负，场分记0分，局分相等者为平，场分各记1分。(三)…全队总局分、团体对手分、胜场数、犯规次数、
第一台胜局数（类推）、抽签。"
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from bianpai.addin.trf_cli import trf_app
from bianpai.engines.board_scoring import (GO_TEAM_CHAIN, BoardGameScoring, TeamBoardGames,
                                           parse_result)
from bianpai.engines.core import Match, entrant_rows, scoring_for
from bianpai.engines.errors import InputError
from bianpai.engines.standings import rank

BBP = Path(__file__).parent / "data" / "boardswiss" / "dutch" / "bbppairings"


def _g(code):
    return pd.DataFrame({"result": [code]})


class TestBoardGameScoring:
    def test_codes_2_1_0(self):
        sc = BoardGameScoring()
        m = Match(1, 1, (1, 2))
        assert sc.score(m, _g("1-0")).points == (2, 0)
        assert sc.score(m, _g("0-1")).outcome == ("L", "W")
        assert sc.score(m, _g("和")).points == (1, 1)
        assert sc.score(m, _g("½-½")).points == (1, 1)
        r = sc.score(m, _g("+/-"))
        assert r.outcome == ("FW", "FL") and r.points == (2, 0)
        assert r.values["unplayed"] == ("forfeit_win", "forfeit_loss")
        r = sc.score(m, _g("0:0"))
        assert r.outcome == ("FL", "FL") and r.points == (0, 0) and r.note_zh == "双方弃权"

    def test_chess_1_half_0_and_byes(self):
        sc = BoardGameScoring(win_points=Decimal(1), draw_points=Decimal("0.5"))
        assert sc.score(Match(1, 1, (1, 2)), _g("=")).points == (Decimal("0.5"),) * 2
        bye = sc.score(Match(1, 2, (3, None), label="轮空"))
        assert bye.points[0] == 1 and bye.values["unplayed"][0] == "pairing_bye"
        req = sc.score(Match(1, 3, (4, None), label="请假"))
        assert req.points[0] == Decimal("0.5") and req.values["unplayed"][0] == "requested_bye"

    def test_fouls_and_errors(self):
        sc = BoardGameScoring()
        r = sc.score(Match(1, 1, (1, 2)), _g("1-0"),
                     pd.DataFrame({"side": [1, 1], "kind": ["犯规", "foul"], "value": [1, 1]}))
        assert r.values["fouls"] == (0, 2)
        with pytest.raises(InputError):
            parse_result("3-0")
        with pytest.raises(InputError):
            sc.score(Match(1, 1, (1, 2)), pd.DataFrame({"result": ["1-0", "0-1"]}))

    def test_registered(self):
        assert scoring_for("board_game") is BoardGameScoring
        assert scoring_for("棋类团体") is TeamBoardGames


def _team(codes):
    return pd.DataFrame({"board": [1, 2, 3, 4], "result": codes})


class TestTeamBoardGames:
    def test_game_points_to_match_points(self):
        sc = TeamBoardGames()
        m = Match(1, 1, (1, 2))
        r = sc.score(m, _team(["1-0", "和", "0-1", "1-0"]))
        assert r.values["game_points"] == (5, 3) and r.points == (2, 0)
        r = sc.score(m, _team(["1-0", "0-1", "1-0", "0-1"]))
        assert r.points == (1, 1) and r.outcome == ("D", "D")
        r = sc.score(m, None, pd.DataFrame({"side": [0], "kind": ["弃权"], "value": [1]}))
        assert r.outcome == ("FL", "FW") and r.values["game_points"] == (0, 8)
        with pytest.raises(InputError):
            sc.score(m, pd.DataFrame({"board": [1, 1, 3, 4], "result": ["1-0"] * 4}))

    def test_first_mover_odd_boards(self):
        sc = TeamBoardGames()
        assert [sc.first_mover(b) for b in (1, 2, 3, 4)] == [0, 1, 0, 1]
        assert TeamBoardGames(first_move_boards="even").first_mover(1) == 1

    def test_go_team_chain(self):
        # 场分 → 全队总局分 → 团体对手分 → 胜场数 → 犯规次数 → 第一台胜局数 …
        sc = TeamBoardGames()
        res = [sc.score(Match(1, 1, (1, 2)), _team(["1-0", "1-0", "0-1", "和"])),   # 1: 5, 2: 3
               sc.score(Match(1, 2, (3, 4)), _team(["0-1", "1-0", "1-0", "1-0"])),   # 3: 6, 4: 2
               sc.score(Match(2, 1, (1, 3)), _team(["0-1", "0-1", "1-0", "1-0"])),   # 4 : 4
               sc.score(Match(2, 2, (2, 4)), _team(["1-0", "和", "和", "0-1"]))]     # 2: 4, 4: 4
        rows = entrant_rows(res)
        st = rank([1, 2, 3, 4], rows, list(GO_TEAM_CHAIN), seed=7).table.set_index("entrant")
        # 1 and 3 both 3 场分, 9 vs 10 局分: 3 first
        assert st.loc[3, "match_points"] == 3 and st.loc[1, "match_points"] == 3
        assert st.loc[3, "team_game_points"] == 10 and st.loc[1, "team_game_points"] == 9
        assert st.loc[3, "rank"] == 1 and st.loc[1, "rank"] == 2
        assert "全队总局分" in st.loc[3, "explanation_zh"]
        # 团体对手分 of 1: opponents 2 (1 场分) + 3 (3) = 4
        assert st.loc[1, "team_opp_score"] == 4
        assert st.loc[1, "board1_wins"] == 1


class TestTrfCli:
    def test_pair_dutch_exchange_format(self):
        r = CliRunner().invoke(trf_app, ["pair", "--dutch", str(BBP / "dutch_2025_C9.input")])
        assert r.exit_code == 0, r.output
        assert r.output == (BBP / "dutch_2025_C9.output.expected").read_text()

    def test_standings_json(self):
        r = CliRunner().invoke(trf_app, ["standings", str(BBP / "dutch_2025_C5.input"),
                                         "--tiebreaks", "BH,BH-C1,SB,PS,DE,WIN,BPG,ARO",
                                         "--json"])
        assert r.exit_code == 0, r.output
        rows = json.loads(r.output)
        assert [x["number"] for x in rows][:2] in ([1, 3], [3, 1])
        assert set(rows[0]) >= {"points", "BH", "BH-C1", "SB", "PS", "DE", "WIN", "BPG", "ARO"}
        p1 = next(x for x in rows if x["number"] == 1)
        assert p1["points"] == 2 and p1["WIN"] == 2

    def test_unknown_code(self):
        r = CliRunner().invoke(trf_app, ["standings", str(BBP / "dutch_2025_C5.input"),
                                         "--tiebreaks", "XYZ"])
        assert r.exit_code == 2


class TestEndToEnd:
    def test_fujian_go_team_swiss(self):
        """福建 2024 围棋: "视报名队数采用定台制积分编排5-7轮 … 第一轮邻近编排(1-2，3-4余类推)";
        the team Swiss is the same engine over teams (colours are per board, so none per team),
        scored by TeamBoardGames and ranked by the 四(五)/五(三) chain."""
        import random

        from bianpai.engines.core import MatchResult, StageEntrant, StageState
        from bianpai.engines.swiss_individual import IndividualSwiss

        fmt = IndividualSwiss(rounds=5, round1="adjacent", colour_rule="none",
                              max_same_colour_run=None, max_colour_diff=None)
        sc = TeamBoardGames()
        state = StageState(entrants=[StageEntrant(i, seed=i) for i in range(1, 10)], seed=3)
        rng = random.Random(3)
        results: list[MatchResult] = []
        for r in range(1, 6):
            ms = fmt.next_round(state, rng)
            if r == 1:
                assert [set(m.entrants) for m in ms[:4]] == [{1, 2}, {3, 4}, {5, 6}, {7, 8}]
            state.matches.extend(ms)
            for m in ms:
                res = sc.score(m) if m.is_bye else sc.score(
                    m, _team([rng.choice(["1-0", "0-1", "和"]) for _ in range(4)]))
                state.results[m.key] = res
                results.append(res)
        assert fmt.finished(state)
        st = rank(range(1, 10), entrant_rows(results), list(GO_TEAM_CHAIN), seed=3).table
        assert sorted(st["entrant"]) == list(range(1, 10))
        mp = st["match_points"].tolist()
        assert mp == sorted(mp, reverse=True)
        assert st["rank"].is_unique  # lots at the end always separate

    def test_xiangqi_individual_with_14_3_1_chain(self):
        """象棋竞赛规则 14.3.1 chain over a 积分编排 event scored 2/1/0."""
        import random

        from bianpai.engines.core import StageEntrant, StageState
        from bianpai.engines.swiss_individual import IndividualSwiss
        from bianpai.engines.tiebreaks import PRESETS

        fmt = IndividualSwiss()
        sc = BoardGameScoring()
        state = StageState(entrants=[StageEntrant(i, rating=Decimal(2000 - i))
                                     for i in range(1, 16)], seed=5)
        rng = random.Random(5)
        results = []
        while not fmt.finished(state):
            ms = fmt.next_round(state, rng)
            state.matches.extend(ms)
            for m in ms:
                res = sc.score(m) if m.is_bye else sc.score(
                    m, _g(rng.choice(["1-0", "0-1", "和"])))
                state.results[m.key] = res
                results.append(res)
        assert state.rounds_drawn() == 6  # ⌈log2 15⌉ + 2
        st = rank(range(1, 16), entrant_rows(results), PRESETS["xiangqi_14_3_1"]["chain"],
                  seed=5, ctx={"win_points": 2}).table
        assert st["rank"].tolist() == list(range(1, 16))
        state.standings[None] = st
        pl = fmt.placings(state)
        assert pl["entrant"].tolist() == st["entrant"].tolist()


class TestLineupRules:
    """出场名单 board-order rules (``TeamBoardGames.lineup_rule``)."""

    LISTED = ["甲1", "甲2", "甲3", "甲4", "替补"]

    def test_fixed_boards_reserve_replaces_any_one(self):
        """象棋 四3 "分台换人制…另有一名替换队员可于每轮开赛前替换其中任意一台选手"; 四4 "台次名单…会议结束后
        不予更改"."""
        sc = TeamBoardGames()
        assert sc.lineup_rule == "fixed" and sc.substitutes_per_round == 1
        assert sc.lineup_problems({1: "甲1", 2: "甲2", 3: "甲3", 4: "甲4"}, self.LISTED) == []
        for b in (1, 2, 3, 4):
            lu = {k: f"甲{k}" for k in (1, 2, 3, 4)}
            lu[b] = "替补"
            assert sc.lineup_problems(lu, self.LISTED) == []
        bad = sc.lineup_problems({1: "甲2", 2: "甲1", 3: "甲3", 4: "替补"}, self.LISTED)
        assert [b for b, *_ in bad] == [1, 2] and "定台制" in bad[0][1]

    def test_one_substitute_per_round(self):
        """围棋 四（四） "替补队员每轮可替换当轮上场的其中一名队员"."""
        listed = self.LISTED + ["替补2"]
        sc = TeamBoardGames()
        bad = sc.lineup_problems({1: "甲1", 2: "替补", 3: "替补2", 4: "甲4"}, listed)
        assert [b for b, *_ in bad] == [3]
        assert TeamBoardGames(substitutes_per_round=None).lineup_problems(
            {1: "甲1", 2: "替补", 3: "替补2", 4: "甲4"}, listed) == []

    def test_order_kept_players_move_up(self):
        """Reading ``order``: the boards follow the 台次名单 order; with the 2nd absent, 3rd and 4th
        move up and the reserve plays board 4."""
        sc = TeamBoardGames(lineup_rule="order")
        assert sc.lineup_problems({1: "甲1", 2: "甲3", 3: "甲4", 4: "替补"}, self.LISTED) == []
        bad = sc.lineup_problems({1: "甲1", 2: "甲4", 3: "甲3", 4: "替补"}, self.LISTED)
        assert [b for b, *_ in bad] == [3]
        assert TeamBoardGames(lineup_rule="free").lineup_problems(
            {1: "甲4", 2: "甲1", 3: "甲3", 4: "甲2"}, self.LISTED) == []
