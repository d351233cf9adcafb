"""Brackets: single elimination of any size and double-elimination groups, as formats of the
competition core (:mod:`bianpai.engines.core`).

Sources
-------
* CBSA 2022 中式台球国际公开赛 规程 (``cbsa-chinese-eightball-open-2022``): 十六（二）1 qualifiers
  "采用单败淘汰，全部采用17局9胜。第一场、第二场各晋级16名，第三场、第四场各晋级32名"; 十六（二）2(2)
  "第一阶段为分组双败淘汰赛，每8人一组，共分16个组，全部采用17局9胜，每组各晋级4人"; 十六（二）2(3)
  "第二阶段为单败淘汰赛，其中半决赛和三、四名决赛采用41局21胜…决赛采用81局41胜…其余全部为25局13胜";
  十六（三）1(1) "资格赛不设种子，全部混抽入位"; 十六（三）2(1) seeds snaked into slot 1 of 16 groups;
  十六（三）2(2) stage-2 seeding by 胜率, then ranking, then lots, 败部 qualifiers all drawn.
* Qingdao 2015 够级 规程 七（二）: "由前期海选出48支队伍进行业余组比赛，抽签选择对手第一轮淘汰24支队伍。
  第二轮、第三轮则继续延续淘汰赛。最后剩余的6支队伍进行循环赛" (opponents redrawn each round, stop at 6).
* otog 2024 跳棋 七（一）: "比赛采取单淘汰，一局定胜负…若出现平局，加赛一局决胜负".
* Standard seed positions, bye placement, double-elimination routing and loser-bracket orderings
  follow brackets-manager.js (MIT; research/pairing-anchors.md §5 and corpora/brackets, whose
  cases the tests reproduce). Code here is our own.

Model
-----
A bracket is a list of :class:`Node` (one per possible match) whose two sides are *feeders*:
``("seed", k)`` (the entrant at local seed number k), ``("W", id)`` / ``("L", id)`` (winner /
loser of node ``id``). :func:`resolve` walks the nodes in order and computes, from the entrants,
the drawn :class:`~bianpai.engines.core.Match` records (labels = node ids) and the typed results,
who sits in every node, who won and who is out. Nothing propagated is stored: every view
(next round, placings, bracket sheet) is recomputed from (entrants + seeds, seed, results).

A bye is ``None``: a bye never wins; BYE v BYE vanishes (no match, its winner and loser are
byes); a player meeting a bye advances at once (the bye match is drawn, needs no result).
An entrant withdrawn after round w (``StageEntrant.withdrawn_after``) is a bye in every node of a
later round (its opponent advances at once); it is placed as out in that node's round.
A drawn match keeps its drawn sides (an arbiter's hand edit wins over the computed ones).

Draws (lots) are seeded by ``StageState.seed`` (and pool and purpose), so a replay of the same
state gives the same sheet (十六（三）3: the draw is notarized); the ``rng`` handed to
``next_round`` is used only when the state has no seed.

Modules
-------
This module is the one import path of the bracket engines; the code lives by concept in
:mod:`~bianpai.engines.bracket_seeding` (seed positions, orderings, byes, pool placement, stage-2
seeding), :mod:`~bianpai.engines.bracket_structure` (nodes, :func:`resolve`),
:mod:`~bianpai.engines.bracket_base` (the formats' common base),
:mod:`~bianpai.engines.single_elimination`, :mod:`~bianpai.engines.double_elimination`,
and
:mod:`~bianpai.engines.bracket_sheet` (the bracket sheet's data).
"""

from __future__ import annotations

from bianpai.engines.bracket_base import _Bracket, _placings_frame  # noqa: F401
from bianpai.engines.bracket_seeding import (DEFAULT_LOSER_ORDERINGS, ORDERINGS, Feeder,  # noqa: F401
                                             balance_byes, bracket_optimized_seeding,
                                             draw_into_pools, effort_balanced_seeding, reorder,
                                             seed_positions, snake_seeding, stage2_seeding,
                                             win_rate)
from bianpai.engines.bracket_sheet import bracket_table  # noqa: F401
from bianpai.engines.bracket_structure import (UNKNOWN, Node, Resolution, Resolved,  # noqa: F401
                                               double_elimination_nodes, resolve, round_name,
                                               single_elimination_nodes)
from bianpai.engines.double_elimination import DoubleEliminationGroups  # noqa: F401
from bianpai.engines.single_elimination import SingleElimination  # noqa: F401

__all__ = [
    "seed_positions", "reorder", "ORDERINGS", "DEFAULT_LOSER_ORDERINGS", "balance_byes",
    "snake_seeding", "effort_balanced_seeding", "bracket_optimized_seeding", "draw_into_pools",
    "win_rate",
    "stage2_seeding", "Node", "Resolved", "Resolution", "single_elimination_nodes",
    "double_elimination_nodes", "resolve", "SingleElimination", "DoubleEliminationGroups",
    "bracket_table", "round_name",
]
