"""Errors raised across bianpai, each carrying a Chinese and an English message.

Engines raise :class:`RuleError` (a regulation setting or computation that cannot proceed) and
:class:`InputError` (bad data); readers in ``bianpai.workbooks`` attach the sheet and cell so the
user sees where to look. Nothing here touches a file.
"""

from __future__ import annotations


class BianpaiError(Exception):
    """Base error: ``zh`` is shown first, ``en`` after it."""

    def __init__(self, zh: str, en: str | None = None):
        self.zh = zh
        self.en = en or zh
        super().__init__(self.text)

    @property
    def text(self) -> str:
        return f"{self.zh} / {self.en}" if self.en != self.zh else self.zh


class RuleError(BianpaiError):
    """A regulation setting is missing, contradictory or cannot be applied."""


class InputError(BianpaiError):
    """Bad user data. ``sheet`` and ``cell`` (A1 address) name where it is, when known."""

    def __init__(self, zh: str, en: str | None = None, *, sheet: str | None = None,
                 cell: str | None = None):
        self.sheet = sheet
        self.cell = cell
        super().__init__(zh, en)

    @property
    def where(self) -> str:
        if self.sheet and self.cell:
            return f"{self.sheet}!{self.cell}"
        return self.sheet or self.cell or ""

    @property
    def text(self) -> str:
        base = super().text
        return f"[{self.where}] {base}" if self.where else base


class InputErrors(BianpaiError):
    """Several :class:`InputError` found in one pass; the command writes nothing."""

    def __init__(self, errors: list[InputError]):
        self.errors = list(errors)
        zh = f"发现 {len(self.errors)} 处输入错误，未写入任何内容：\n" + "\n".join(
            e.text for e in self.errors)
        en = f"{len(self.errors)} input error(s); nothing was written."
        super().__init__(zh, en)

    @property
    def text(self) -> str:
        return self.zh + "\n" + self.en
