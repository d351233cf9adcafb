"""One way to run a command, whichever front pressed the button.

:func:`run_command` is what the desktop macros (:mod:`bianpai.addin.macros`), the xlwings
Lite/Server scripts (:mod:`bianpai.addin.lite`) and the command line (:mod:`bianpai.addin.cli`)
call. It wraps the front's port in a :class:`~bianpai.workbooks.journal.JournalPort`, so that

* the command's reads see its own writes (the remote engine cannot),
* the status on the 操作 sheet is refreshed at the end of every command
  (:func:`bianpai.addin.status.write_status`), and
* live books keep an undo entry in the hidden ``_bianpai_undo`` sheet, written in the same
  single write pass; :func:`run_command` ``("undo")`` replays it.

The command functions themselves are the ones in :mod:`bianpai.addin.commands`, looked up
lazily by name (:data:`COMMANDS`).
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any, Callable

from bianpai.engines.errors import BianpaiError
from bianpai.workbooks.journal import JournalPort, undo_last
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.xlsm import OPS_SHEET, SEED_ROW

#: Command name -> (module, function). Every front offers these.
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("bianpai.addin.commands", "check"),
    "draw": ("bianpai.addin.commands", "draw"),
    "rank": ("bianpai.addin.commands", "rank"),
    "awards": ("bianpai.addin.commands", "awards"),
    "advance": ("bianpai.addin.commands", "advance"),
    "withdraw": ("bianpai.addin.commands", "withdraw"),
}
#: Commands taking a random seed (lots); the 操作 sheet's seed cell fills it when not given.
SEEDED = {"draw", "rank", "advance"}
NAMES_ZH = {"check": "检查名单", "draw": "抽签编排", "rank": "计算排名", "awards": "奖励分配",
            "advance": "进入下一阶段", "withdraw": "退赛", "undo": "撤销"}


def find_command(name: str) -> Callable[..., Any]:
    """The command function ``name`` (imported lazily). Raises ``LookupError``."""
    if name not in COMMANDS:
        raise LookupError(f"没有名为 {name} 的命令 / no command named {name!r}")
    module, attr = COMMANDS[name]
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise LookupError(f"命令模块 {module} 无法导入 / cannot import {module}: {exc}") from exc
    fn = getattr(mod, attr, None)
    if not callable(fn):
        raise LookupError(f"没有名为 {name} 的命令 / no command named {name!r}")
    return fn


def seed_from_ops(port: WorkbookPort) -> int | None:
    """The seed typed in the 操作 sheet's seed cell (B2), or None (empty, absent, not a number)."""
    if OPS_SHEET not in port.sheet_names():
        return None
    grid = port.read_values(OPS_SHEET)
    if len(grid) < SEED_ROW or len(grid[SEED_ROW - 1]) < 2:
        return None
    value = grid[SEED_ROW - 1][1]
    if isinstance(value, bool) or value is None:
        return None
    try:
        f = float(str(value).strip())
    except ValueError:
        return None
    return int(f) if f.is_integer() and f >= 0 else None


def accept_reason_from_ops(port: WorkbookPort) -> str | None:
    """The reason typed beside :data:`bianpai.workbooks.xlsm.ACCEPT_LABEL` in 操作, or None."""
    from bianpai.workbooks.xlsm import ACCEPT_LABEL  # noqa: PLC0415
    if OPS_SHEET not in port.sheet_names():
        return None
    for row in port.read_values(OPS_SHEET):
        if row and str(row[0] or "").strip() == ACCEPT_LABEL and len(row) > 1 and row[1]:
            text = str(row[1]).strip()
            return text or None
    return None


def front_name(port: WorkbookPort) -> str:
    """What the 日志 front column records for ``port``."""
    engine = getattr(port, "engine", None)
    if engine is None:
        return "cli"
    if engine == "excel":
        return "excel"
    client = getattr(port, "client", None) or engine
    return {"Office.js": "office.js", "VBA": "excel-remote"}.get(client, str(client).lower())


@contextlib.contextmanager
def _front(name: str):
    front = getattr(importlib.import_module("bianpai.addin.commands"), "FRONT", None)
    if not isinstance(front, dict):
        yield
        return
    saved = front.get("name")
    front["name"] = name
    try:
        yield
    finally:
        front["name"] = saved


class UndoResult:
    """What :func:`run_command` returns for ``undo`` (the shape of ``CommandResult``)."""

    def __init__(self, undone: str):
        self.command = "undo"
        zh = NAMES_ZH.get(undone, undone)
        self.summary_zh = f"已撤销“{zh}”，工作簿恢复到该操作之前"
        self.summary_en = f"undid {undone}; the workbook is as it was before it"
        self.seed = None
        self.findings: list = []
        self.data = {"undone": undone}


def run_command(port: WorkbookPort, name: str, *, snapshots: bool | None = None,
                seed: int | None = None, **kwargs) -> Any:
    """Run command ``name`` on ``port`` and return its result (``CommandResult``).

    ``snapshots``: keep an undo entry in the workbook (True for live books; None: when the
    workbook already has one or an 操作 sheet). ``seed``: for draw/rank/advance; when None the
    操作 sheet's seed cell is used, else a fresh seed. Errors propagate (``InputErrors`` etc.):
    nothing is written then.
    """
    if name == "undo":
        return UndoResult(undo_last(port))
    fn = find_command(name)
    if name in SEEDED:
        seed = seed if seed is not None else seed_from_ops(port)
        if seed is not None:
            kwargs["seed"] = seed
    if name == "draw" and not kwargs.get("accept_warnings"):
        reason = accept_reason_from_ops(port)
        if reason:
            kwargs["accept_warnings"] = reason
    from bianpai.addin.status import write_status  # noqa: PLC0415

    seen: dict[str, tuple[str, str]] = {}

    def refresh(p):
        seen["status"] = write_status(p)

    jp = JournalPort(port, command=name, snapshots=snapshots, before_save=[refresh])
    if name == "advance":
        from bianpai.addin.competition import is_core_workbook  # noqa: PLC0415

        if not is_core_workbook(jp):
            raise BianpaiError("本赛事只有一个阶段，没有“下一阶段”",
                               "this event has a single stage; there is no next stage")
    with _front(front_name(port)):
        result = fn(jp, **kwargs)
    if not jp.saved and jp.touched:
        jp.save()
    if "status" in seen and result is not None:
        try:
            result.status = seen["status"]
        except AttributeError:
            pass
    return result


def result_message(result: Any) -> str:
    """The dialog text after a command: summary in Chinese, the state and next step (when
    :func:`run_command` computed them), then English."""
    state = getattr(result, "status", None)
    zh = getattr(result, "summary_zh", None)
    en = getattr(result, "summary_en", None)
    if zh is None:
        return str(result) if result else ""
    seed = getattr(result, "seed", None)
    lines = [zh + (f"（随机种子 {seed}）" if seed is not None else "")]
    findings = getattr(result, "findings", None) or []
    for f in findings[:10]:
        lines.append(f"  {f.get('where') or '-'}  {f.get('zh')}")
    if len(findings) > 10:
        lines.append(f"  …另有 {len(findings) - 10} 处（见“校验”表）")
    if state is not None:
        lines.append(f"当前状态：{state[0]}\n下一步：{state[1]}")
    if en and en != zh:
        lines.append("")
        lines.append(en)
    return "\n".join(lines)


def new_macro_workbook(reg, out, *, lang: str = "zh") -> Any:
    """``bianpai new --macros``: the full event workbook of ``reg`` (the sheets
    :func:`bianpai.addin.commands.build_workbook` writes) inside a macro workbook whose first
    sheet, 操作, has one button per command (:func:`bianpai.workbooks.xlsm.buttons_of`), the seed cell
    and the status area, already filled ("请填写报名表"). An existing ``out`` is kept in its
    backup stack. Returns the ``CommandResult`` of ``new``."""
    import os  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import tempfile  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from bianpai.addin import commands  # noqa: PLC0415
    from bianpai.addin.status import write_status  # noqa: PLC0415
    from bianpai.addin.competition import is_core_regulation  # noqa: PLC0415
    from bianpai.workbooks import backups  # noqa: PLC0415
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort  # noqa: PLC0415
    from bianpai.workbooks.xlsm import build_xlsm, buttons_of  # noqa: PLC0415

    out = Path(out)
    if out.suffix.lower() != ".xlsm":
        raise BianpaiError(f"带按钮的工作簿须保存为 .xlsm（而不是 {out.name}）",
                           f"a macro workbook must be saved as .xlsm, not {out.name}")
    with tempfile.TemporaryDirectory() as tmp:
        sheets = Path(tmp) / "event.xlsx"
        port = OpenpyxlPort(sheets, create=True, command="new")
        port.write_sheet(OPS_SHEET, [], None, position=0)  # merged into the shell's 操作
        jp = JournalPort(port, command="new", snapshots=False, before_save=[write_status])
        result = commands.build_workbook(jp, reg, lang=lang)
        built = build_xlsm(sheets, Path(tmp) / "event.xlsm", buttons_of(reg, core=is_core_regulation(reg)))
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():
            backups.push(out, "new")
        tmp_out = out.parent / f".{out.name}.new"
        shutil.copyfile(built, tmp_out)
        os.replace(tmp_out, out)
    return result
