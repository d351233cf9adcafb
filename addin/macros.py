"""Desktop Excel entry points for the buttons of a bianpai .xlsm (classic xlwings ``RunPython``).

Each VBA Sub of the workbook's ``bianpai`` module runs, e.g.::

    RunPython "import bianpai.addin.macros as m; m.draw()"

and each function here takes the calling book (``xw.Book.caller()``), wraps it in
:class:`~bianpai.workbooks.xlwings_port.XlwingsPort` and runs the command of the same name
through :func:`bianpai.addin.fronts.run_command` — the same command functions the command line
runs, with an undo snapshot kept in the book and the 操作 status refreshed.

Errors never escape as a Python traceback dialog: a :class:`~bianpai.engines.errors.BianpaiError`
is shown with its Chinese and English text, anything else as "出错 / Error" plus the exception.
"""

from __future__ import annotations

import traceback
from typing import Any, Callable


def find_command(name: str) -> Callable[..., Any]:
    """The command function ``name`` (see :data:`bianpai.addin.fronts.COMMANDS`)."""
    from bianpai.addin.fronts import find_command as find  # noqa: PLC0415

    return find(name)


#: At most this many problems are listed in an error dialog (the 校验 sheet has them all).
MAX_LISTED = 15


def error_text(exc: BaseException) -> str:
    """What the user sees for ``exc``: Chinese first, then English. ``InputErrors`` are listed
    one per line as ``sheet!cell  中文`` with the English below."""
    from bianpai.engines.errors import BianpaiError, InputErrors  # noqa: PLC0415

    if isinstance(exc, InputErrors):
        lines = [f"未写入任何内容：发现 {len(exc.errors)} 处问题 / nothing written: "
                 f"{len(exc.errors)} problem(s)"]
        for e in exc.errors[:MAX_LISTED]:
            lines.append(f"{e.where or '-'}  {e.zh}")
            if e.en and e.en != e.zh:
                lines.append(f"    {e.en}")
        if len(exc.errors) > MAX_LISTED:
            lines.append(f"…另有 {len(exc.errors) - MAX_LISTED} 处 / {len(exc.errors) - MAX_LISTED} more")
        return "\n".join(lines)
    if isinstance(exc, BianpaiError):
        return exc.text
    if isinstance(exc, LookupError) and exc.args and isinstance(exc.args[0], str) \
            and " / " in exc.args[0]:
        return exc.args[0]
    tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return f"出错，未完成操作 / Error, the command did not complete:\n{tail}"


def run_on_book(name: str, book, **kwargs) -> Any:
    """Run command ``name`` on ``book`` (an ``xw.Book``) through an ``XlwingsPort``.

    The command runs via :func:`bianpai.addin.fronts.run_command` with an undo snapshot kept in
    the book (live books have no backup file) and the 操作 status refreshed. Shows the result
    (summary, state, next step) or the error; returns the command's result, or None after an
    error (then nothing was written). Used by the desktop macros below and by the Lite/Server
    scripts.
    """
    from bianpai.addin.fronts import result_message, run_command  # noqa: PLC0415
    from bianpai.workbooks.xlwings_port import XlwingsPort  # noqa: PLC0415

    port = XlwingsPort(book)
    try:
        result = run_command(port, name, snapshots=True, **kwargs)
    except Exception as exc:  # noqa: BLE001 - every error is shown to the user in Excel
        port.notify(error_text(exc))
        return None
    message = result if isinstance(result, str) else result_message(result)
    if message:
        port.notify(message)
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


def advance() -> Any:
    """进入下一阶段 / rank stage 1 and start the next stage (team events)."""
    return run("advance")


def withdraw() -> Any:
    """登记退赛 / check and log the withdrawals typed in 退赛."""
    return run("withdraw")


def undo() -> Any:
    """撤销 / restore the workbook as it was before the last command."""
    return run("undo")
