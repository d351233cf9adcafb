"""Rewrites of generated sheets a port makes later: when one of their sheets is next used, or at
save.

A command rewrites its generated sheets from what it computed (签表 and 签表图 from every
bracket after each draw). On a port that several commands share before one save (the demo's
chain of 39 presses, each draw rewriting both sheets from all its brackets) only the last
rewrite is ever saved or seen. A command may hand such a rewrite to the port instead of making
it: the port makes it as soon as one of its sheets is read, written, appended to or deleted, and
before it saves; a newer rewrite of the same sheets replaces one not made yet. The sheets must
exist already (so the workbook's sheet list is the same either way), and the rewrite must write
each of them again: it computes from what the command read, never from the workbook at the time
it is made.
"""

from __future__ import annotations

from typing import Callable

__all__ = ["HeldWrites"]


class HeldWrites:
    """The rewrites a port holds, with the sheets each one writes."""

    def __init__(self) -> None:
        self._held: list[tuple[frozenset[str], Callable[[], None]]] = []

    def hold(self, sheets: list[str], write: Callable[[], None]) -> None:
        """Hold ``write`` (which rewrites ``sheets``). A held rewrite of some of the same sheets
        is dropped when ``write`` rewrites all of its sheets, else made now."""
        names = frozenset(sheets)
        for entry in list(self._held):
            if entry[0] <= names:
                self._held.remove(entry)
            elif entry[0] & names:
                self.make(next(iter(entry[0] & names)))
        self._held.append((names, write))

    def make(self, sheet: str | None = None) -> None:
        """Make the held rewrites that write ``sheet`` (every one: ``None``), oldest first."""
        while True:
            due = next((e for e in self._held if sheet is None or sheet in e[0]), None)
            if due is None:
                return
            self._held.remove(due)
            due[1]()
