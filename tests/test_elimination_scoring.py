"""Knockout scorings: a race to N frames (CBSA 2022) and one game with a decider (otog 跳棋)."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import pytest

from bianpai.engines.core import Match, SCORINGS, scoring_for
from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.knockout_scoring import FramesRace, SingleGame, parse_game_result

M = Match(1, 1, (11, 22), None, "R16-1")


def frames(*rows, race=None):
    df = pd.DataFrame(rows, columns=["frames_0", "frames_1"])
    if race is not None:
        df["race"] = race
    return df


def adj(*rows):
    return pd.DataFrame(rows, columns=["side", "kind", "value"])


class TestFramesRace:
    """CBSA 十六（二）1 "全部采用17局9胜"; 2(3) "半决赛和三、四名决赛采用41局21胜（分两个阶段），决赛采用81局
    41胜（分两天四个阶段），其余全部为25局13胜"; 十六（一）5 "未到场的选手将被判负一局，15分钟后仍未到场视为弃权"."""

    def test_registered(self):
        assert SCORINGS["frames_race"] is FramesRace and scoring_for("局数") is FramesRace

    def test_race_to_9(self):
        r = FramesRace(race_to=9).score(M, frames((5, 9)))
        assert r.winner == 22 and r.outcome == ("L", "W")
        assert r.points == (Decimal(0), Decimal(1))
        assert r.values == {"frames_won": (5, 9), "frames_lost": (9, 5)}

    @pytest.mark.parametrize("a,b", [(9, 9), (10, 3), (8, 7), (0, 0)])
    def test_invalid_scores(self, a, b):
        with pytest.raises(InputError) as ei:
            FramesRace(race_to=9).score(M, frames((a, b)))
        assert "局" in ei.value.zh and "race" in ei.value.en

    def test_sessions_are_summed_and_race_column_wins(self):
        """41局21胜（分两个阶段）: two session rows."""
        r = FramesRace(race_to=13).score(M, frames((11, 9), (10, 8), race=21))
        assert r.winner == 11 and r.values["frames_won"] == (21, 17)

    def test_no_race_is_a_rule_error(self):
        with pytest.raises(RuleError):
            FramesRace().score(M, frames((9, 1)))

    def test_no_show_frame(self):
        # typed score already holds the awarded frame (default reading)
        r = FramesRace(race_to=9).score(M, frames((9, 2)), adj((1, "no_show", None)))
        assert r.values["frames_won"] == (9, 2)
        # the other reading: the frame is added to the opponent
        r = FramesRace(race_to=9, no_show_frame_typed=False).score(
            M, frames((8, 2)), adj((1, "no_show", None)))
        assert r.values["frames_won"] == (9, 2) and r.winner == 11

    def test_forfeit_after_15_minutes(self):
        r = FramesRace(race_to=9).score(M, frames(), adj((0, "forfeit", None)))
        assert r.outcome == ("FL", "FW") and r.winner == 22
        assert r.values["frames_won"] == (0, 0)  # no frames into 胜率 by default
        r = FramesRace(race_to=9, forfeit_frames="race").score(M, frames((1, 0)),
                                                               adj((0, "forfeit", None)))
        assert r.values["frames_won"] == (1, 9)
        r = FramesRace(race_to=9).score(M, frames(), adj((0, "forfeit", None),
                                                         (1, "forfeit", None)))
        assert r.outcome == ("FL", "FL") and r.winner is None

    def test_unknown_adjustment(self):
        with pytest.raises(InputError):
            FramesRace(race_to=9).score(M, frames((9, 0)), adj((0, "penalty", 1)))


class TestSingleGame:
    """跳棋 七（一） "比赛采取单淘汰，一局定胜负…若出现平局，加赛一局决胜负。加赛局用时：5分钟包干，超时3次判负"."""

    def g(self, *results):
        return pd.DataFrame({"result": list(results)})

    def test_registered(self):
        assert SCORINGS["single_game"] is SingleGame

    def test_one_game(self):
        r = SingleGame().score(M, self.g("1-0"))
        assert r.winner == 11 and r.values["games_won"] == (1, 0)

    def test_draw_then_decider(self):
        r = SingleGame().score(M, self.g("½-½", "0-1"))
        assert r.winner == 22 and r.outcome == ("L", "W")

    @pytest.mark.parametrize("rows", [("½-½",), ("½-½", "½-½"), ("1-0", "0-1"), ("2-0",), ()])
    def test_invalid(self, rows):
        with pytest.raises(InputError):
            SingleGame().score(M, self.g(*rows))

    def test_no_decider_setting(self):
        with pytest.raises(InputError):
            SingleGame(decider=False).score(M, self.g("½-½", "1-0"))

    def test_forfeit(self):
        r = SingleGame().score(M, self.g(), adj((1, "forfeit", None)))
        assert r.outcome == ("FW", "FL") and r.winner == 11

    def test_parse(self):
        assert parse_game_result("胜") == (1, 0) and parse_game_result("=") is None


class TestFrameRateCriterion:
    """胜率 for the standings chain: CBSA 十六（三）2(2) "依据胜率排序"."""

    def test_from_entrant_rows(self):
        from bianpai.engines.core import entrant_rows
        from bianpai.engines.standings import CRITERIA
        fr = FramesRace(race_to=9)
        rs = [fr.score(Match(1, 1, (1, 2)), frames((9, 5))),
              fr.score(Match(2, 1, (1, 3)), frames((7, 9)))]
        rows = entrant_rows(rs)
        v = CRITERIA["frame_rate"].compute([1, 2], rows, {})
        assert v[1] == Decimal("0.5333") and v[2] == Decimal("0.3571")
        assert CRITERIA["frames_won"].compute([1], rows, {})[1] == 16
