"""A 规程 sheet cell read as the value of its setting (:func:`value_of`): tables (名次 → 金额 …)
from ``key: value`` pairs, lists from commas, 是/否 as booleans, numbers and dates as typed."""

from __future__ import annotations

import re
from typing import Any

import yaml

__all__ = ["value_of", "BadMapping"]


class BadMapping(ValueError):
    """A table-valued setting (名次 → 金额 …) typed without its ``key: value`` pairs (args:
    the text), or with a key given twice (args: the text, the keys)."""


def value_of(raw: Any, old: Any) -> Any:
    """The typed ``raw`` as a value of the kind of the preset's ``old`` (dict, list, bool, number,
    text). Raises :class:`BadMapping` for a table typed without its ``key: value`` pairs."""
    if isinstance(old, dict):
        if raw is None or str(raw).strip() == "":
            return {}
        text = str(raw).replace("，", ",").replace("：", ":")
        try:
            got = yaml.safe_load("{" + text + "}")
        except yaml.YAMLError:
            got = None
        if not isinstance(got, dict) or any(v is None for v in got.values()):
            raise BadMapping(raw)
        keys = [k.strip() for k in re.findall(r"(?:^|,)\s*([^,:{}]+?)\s*:", text)]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:  # YAML keeps the last silently: 1: 2000, 1: 500 would pay 500
            raise BadMapping(raw, twice)
        return got
    if isinstance(old, list):
        if raw is None:
            return []
        return [s.strip() for s in str(raw).replace("，", ",").split(",") if s.strip()]
    if isinstance(old, bool) and isinstance(raw, str):
        t = raw.strip().lower()
        if t in ("是", "对", "真", "yes", "y", "true", "1", "√", "✓"):
            return True
        if t in ("否", "不", "假", "no", "n", "false", "0", "×", "✗"):
            return False
    if isinstance(raw, str) and not isinstance(old, str):
        try:
            return yaml.safe_load(raw)
        except yaml.YAMLError:
            return raw
    if isinstance(raw, float) and raw.is_integer() and not isinstance(old, float):
        return int(raw)
    if hasattr(raw, "isoformat") and isinstance(old, str):
        return raw.date().isoformat() if hasattr(raw, "date") else raw.isoformat()
    return raw


