"""Pure computation for bianpai: scheduling, pairing, scoring, standings, carry-over, prizes.

Engines take pandas/pydantic in and give pandas out; they never touch a file or Excel.
"""

from bianpai.engines.bridge import apply_fine, carry_over, imp, imps_from_board_scores, vp, vp_table
from bianpai.engines.errors import BianpaiError, InputError, InputErrors, RuleError
from bianpai.engines.matchpoints import matchpoints, neuberg, score_board, score_boards
from bianpai.engines.prizes import allocate, yuan_capital
from bianpai.engines.round_robin import berger_rounds, round_robin_schedule
from bianpai.engines.rounding import q2, to_decimal
from bianpai.engines.standings import CRITERIA, Criterion, rank, register

# Importing the team module registers the VP criteria (vp, h2h_vp, imp_quotient) in
# bianpai.engines.standings.CRITERIA.
from bianpai.engines import team_standings as _team_standings  # noqa: E402,F401

__all__ = [
    "BianpaiError", "InputError", "InputErrors", "RuleError", "q2", "to_decimal",
    "imp", "vp", "vp_table", "carry_over", "apply_fine", "imps_from_board_scores",
    "matchpoints", "neuberg", "score_board", "score_boards",
    "berger_rounds", "round_robin_schedule", "rank", "register", "Criterion", "CRITERIA",
    "allocate", "yuan_capital",
]
