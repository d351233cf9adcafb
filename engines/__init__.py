"""Pure computation for bianpai: scheduling, pairing, scoring, standings, carry-over, prizes.

Engines take pandas/pydantic in and give pandas out; they never touch a file or Excel.

The names below are exported lazily (PEP 562 module ``__getattr__``): ``import bianpai.engines``
or ``from bianpai.engines.errors import …`` loads no engine and no pandas, so the command line
starts quickly; ``from bianpai.engines import vp`` imports :mod:`bianpai.engines.bridge` on first
use. :func:`load_criteria` imports every engine that registers ranking criteria.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module

#: exported name → module (under ``bianpai.engines``) that defines it
_EXPORTS: dict[str, str] = {
    "BianpaiError": "errors", "InputError": "errors", "InputErrors": "errors",
    "RuleError": "errors",
    "q2": "rounding", "to_decimal": "rounding",
    "imp": "bridge", "vp": "bridge", "vp_table": "bridge", "carry_over": "bridge",
    "apply_fine": "bridge", "imps_from_board_scores": "bridge",
    "matchpoints": "matchpoints", "neuberg": "matchpoints", "score_board": "matchpoints",
    "score_boards": "matchpoints",
    "berger_rounds": "round_robin", "round_robin_schedule": "round_robin",
    "rank": "standings", "register": "standings", "Criterion": "standings",
    "CRITERIA": "standings",
    "allocate": "prizes", "yuan_capital": "prizes",
}

#: engines whose import registers criteria in ``standings.CRITERIA`` (beyond standings itself)
_CRITERIA_MODULES = ("team_standings", "gouji", "elimination", "finish_order", "upgrade80",
                     "tiebreaks", "board_scoring")

__all__ = [
    "BianpaiError", "InputError", "InputErrors", "RuleError", "q2", "to_decimal",
    "imp", "vp", "vp_table", "carry_over", "apply_fine", "imps_from_board_scores",
    "matchpoints", "neuberg", "score_board", "score_boards",
    "berger_rounds", "round_robin_schedule", "rank", "register", "Criterion", "CRITERIA",
    "allocate", "yuan_capital", "load_criteria",
]


def load_criteria() -> dict:
    """Import every engine that registers ranking criteria and return the registry
    (:data:`bianpai.engines.standings.CRITERIA`, name → :class:`Criterion`). Idempotent."""
    for name in _CRITERIA_MODULES:
        import_module(f"{__name__}.{name}")
    return import_module(f"{__name__}.standings").CRITERIA


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if module == "standings":
        load_criteria()  # the registry is complete whenever it is reached through the package
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """The package module: importing a submodule binds it as a package attribute, except where
    an exported name is that of a submodule (``matchpoints``, the function, not its module), so
    the name means the same whichever was imported first, as with the former eager imports."""

    def __setattr__(self, name, value):
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
