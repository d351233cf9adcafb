"""Desktop Excel entry points for the buttons of a bianpai .xlsm (classic xlwings ``RunPython``).

Each VBA Sub of the workbook's ``bianpai`` module runs, e.g.::

    RunPython "import bianpai.addin.macros as m; m.draw()"

and each function here takes the calling book (``xw.Book.caller()``), wraps it in
:class:`~bianpai.workbooks.xlwings_port.XlwingsPort` and runs the command of the same name from
:mod:`bianpai.addin.commands` (looked up lazily, in its ``COMMANDS`` mapping when it has one,
else as an attribute). A command takes the port and may return a message to show.

Errors never escape as a Python traceback dialog: a :class:`~bianpai.engines.errors.BianpaiError`
is shown with its Chinese and English text, anything else as "出错 / Error" plus the exception.
"""

from __future__ import annotations

import importlib
import traceback
from typing import Any, Callable

COMMANDS_MODULE = "bianpai.addin.commands"


def find_command(name: str) -> Callable[..., Any]:
    """The command function ``name`` of :mod:`bianpai.addin.commands` (imported lazily)."""
    try:
        mod = importlib.import_module(COMMANDS_MODULE)
    except ImportError as exc:
        raise LookupError(f"命令模块 {COMMANDS_MODULE} 无法导入 / cannot import "
                          f"{COMMANDS_MODULE}: {exc}") from exc
    registry = getattr(mod, "COMMANDS", None)
    fn = None
    if isinstance(registry, dict):
        fn = registry.get(name)
    if fn is None:
        fn = getattr(mod, name, None)
    if not callable(fn):
        raise LookupError(f"没有名为 {name} 的命令 / no command named {name!r}")
    return fn


def error_text(exc: BaseException) -> str:
    """What the user sees for ``exc``: Chinese first, then English."""
    from bianpai.engines.errors import BianpaiError  # noqa: PLC0415

    if isinstance(exc, BianpaiError):
        return exc.text
    if isinstance(exc, LookupError) and exc.args and isinstance(exc.args[0], str) \
            and " / " in exc.args[0]:
        return exc.args[0]
    tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return f"出错，未完成操作 / Error, the command did not complete:\n{tail}"


def run_on_book(name: str, book, **kwargs) -> Any:
    """Run command ``name`` on ``book`` (an ``xw.Book``) through an ``XlwingsPort``.

    Shows the command's returned message (if any) or the error; returns the command's result,
    or None after an error. Used by the desktop macros below and by the Lite/Server scripts.
    """
    from bianpai.workbooks.xlwings_port import XlwingsPort  # noqa: PLC0415

    port = XlwingsPort(book)
    try:
        fn = find_command(name)
        result = fn(port, **kwargs)
        port.save()
    except Exception as exc:  # noqa: BLE001 - every error is shown to the user in Excel
        port.notify(error_text(exc))
        return None
    if isinstance(result, str) and result:
        port.notify(result)
    return result


def run(name: str, **kwargs) -> Any:
    """Run command ``name`` on the workbook that called Python (``RunPython``)."""
    import xlwings as xw  # noqa: PLC0415

    return run_on_book(name, xw.Book.caller(), **kwargs)


# One function per button. The names match bianpai.workbooks.xlsm.COMMANDS.
def check() -> Any:
    """检查名单 / check the roster and results."""
    return run("check")


def draw() -> Any:
    """抽签编排 / draw the next round."""
    return run("draw")


def rank() -> Any:
    """计算排名 / compute the standings."""
    return run("rank")


def awards() -> Any:
    """奖励分配 / allocate places and prizes."""
    return run("awards")


def undo() -> Any:
    """撤销 / restore the workbook as it was before the last command."""
    return run("undo")
