"""Chinese text for pydantic validation errors, so a Chinese message never carries pydantic's
English (``Input should be greater than or equal to 0``).

:func:`zh_message` turns one item of ``ValidationError.errors()`` into a short Chinese phrase by
its ``type`` and ``ctx``; a validator of ours that raises ``ValueError`` with Chinese text keeps
its own words (after pydantic's ``Value error,`` prefix); an unknown type gets a neutral Chinese
phrase naming the expected kind, never the English text.
"""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u4e00-\u9fff]")

_BY_TYPE = {
    "missing": "不能为空",
    "extra_forbidden": "不是可用的设置项",
    "int_parsing": "应为整数", "int_type": "应为整数", "int_from_float": "应为整数",
    "float_parsing": "应为数字", "float_type": "应为数字",
    "decimal_parsing": "应为数字", "decimal_type": "应为数字",
    "decimal_max_places": "小数位数过多（最多 {decimal_places} 位）",
    "bool_parsing": "应为 是/否（true/false）", "bool_type": "应为 是/否（true/false）",
    "string_type": "应为文本", "list_type": "应为列表", "dict_type": "应为表（键值对）",
    "date_parsing": "应为日期（如 2024-05-01）", "date_from_datetime_parsing": "应为日期（如 2024-05-01）",
    "greater_than": "应大于 {gt}", "greater_than_equal": "应不小于 {ge}",
    "less_than": "应小于 {lt}", "less_than_equal": "应不大于 {le}",
    "multiple_of": "应为 {multiple_of} 的整数倍",
    "too_short": "至少应有 {min_length} 项", "too_long": "最多 {max_length} 项",
    "string_too_short": "至少 {min_length} 个字符", "string_too_long": "最多 {max_length} 个字符",
    "literal_error": "应为以下之一：{expected}", "enum": "应为以下之一：{expected}",
    "union_tag_invalid": "类型应为以下之一：{expected_tags}",
    "union_tag_not_found": "缺少类型（kind）",
}


def zh_message(err: dict) -> str:
    """A Chinese phrase for one pydantic error dict (``type``, ``msg``, ``ctx``)."""
    kind = err.get("type", "")
    msg = str(err.get("msg", ""))
    if kind in ("value_error", "assertion_error"):
        text = re.sub(r"^(Value error|Assertion failed),\s*", "", msg)
        if _CJK.search(text):
            return text.split(" / ")[0] if " / " in text else text
        return "值不符合规程的要求"
    tmpl = _BY_TYPE.get(kind)
    if tmpl is None:
        return "值的格式不正确"
    ctx = {k: (str(v).replace("'", "") if k in ("expected", "expected_tags") else v)
           for k, v in (err.get("ctx") or {}).items()}
    try:
        return tmpl.format(**ctx)
    except (KeyError, IndexError):
        return re.sub(r"[（(]?\{[^}]*\}[)）]?", "", tmpl).strip() or "值的格式不正确"
