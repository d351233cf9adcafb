"""Pure computation for bianpai: scheduling, pairing, scoring, standings, carry-over, prizes.

Engines take pandas/pydantic in and give pandas out; they never touch a file or Excel.
"""

from bianpai.engines.errors import BianpaiError, InputError, InputErrors, RuleError
from bianpai.engines.rounding import q2, to_decimal

__all__ = ["BianpaiError", "InputError", "InputErrors", "RuleError", "q2", "to_decimal"]
