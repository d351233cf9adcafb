"""Scorings of knockout matches: a race to N frames (cue sports) and a single game with a
decider (跳棋).

Sources
-------
* CBSA 2022 规程 十六（二）: races "17局9胜", "13局7胜", "25局13胜", "41局21胜（分两个阶段）", "81局41胜
  （分两天四个阶段）" — a match is won by the first to reach the race; sessions are typed as rows and
  summed. 十六（一）5: "每轮比赛裁判长宣布比赛开始后，未到场的选手将被判负一局，15分钟后仍未到场视为弃权。"
* otog 2024 跳棋 七（一）: "比赛采取单淘汰，一局定胜负…每局用时：15分钟包干，若出现平局，加赛一局决胜
  负。加赛局用时：5分钟包干，超时3次判负。"

Both scorings take ``games`` (the typed rows of one match) and ``adjustments`` (columns ``side``
(int), ``kind`` (str code), ``value`` (Decimal or NA)) and return a
:class:`~bianpai.engines.core.MatchResult`.

The code lives in :mod:`~bianpai.engines.frames_race` and :mod:`~bianpai.engines.single_game`;
this module is their one import path.
"""

from __future__ import annotations

from bianpai.engines.frames_race import FramesRace, frame_rate
from bianpai.engines.single_game import SingleGame, parse_game_result

__all__ = ["FramesRace", "SingleGame", "parse_game_result", "frame_rate"]
