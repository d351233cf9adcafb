"""Pure computation for bianpai: scheduling, pairing, scoring, standings, carry-over, prizes.

Engines take pandas/pydantic in and give pandas out; they never touch a file or Excel.
"""

from bianpai.engines.errors import BianpaiError, InputError, InputErrors, RuleError
from bianpai.engines.rounding import q2, to_decimal

# Importing the team module registers the VP criteria (vp, h2h_vp, imp_quotient) in
# bianpai.engines.standings.CRITERIA.
from bianpai.engines import team_standings as _team_standings  # noqa: E402,F401
from bianpai.engines.bridge import carry_over, imp, vp  # noqa: E402

__all__ = ["BianpaiError", "InputError", "InputErrors", "RuleError", "q2", "to_decimal",
           "imp", "vp", "carry_over"]
