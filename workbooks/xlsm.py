"""Macro workbooks (.xlsm) for desktop Excel, built on Linux from PyPI libraries only.

The workbook holds:

* an ``操作`` (operations) sheet with one legacy (VML) form button per command of
  :data:`COMMANDS` (buttons carry only a macro name, so each command has its own Sub), a short
  explanation beside each button, and a status area (:data:`STATUS_CELL`) that commands may
  fill through the port (``append_rows``) without touching the buttons;
* a VBA project made from the one shipped with the installed xlwings
  (``xlwings/quickstart_standalone.xlsm``): its ``xlwings`` standalone module (``RunPython``,
  ``ImportPythonUDFs`` without the add-in) is replaced by the package's ``xlwings.bas`` of the
  same version, the sample ``Module1`` is removed, and a ``bianpai`` module gets one
  ``Sub`` per command: ``RunPython "import bianpai.addin.macros as m; m.draw()"``;
* a hidden ``xlwings.conf`` sheet that sets only ``UDF Modules`` = ``bianpai.addin.functions``
  (the interpreter etc. still come from the user's xlwings configuration);
* the event's sheets, either written by a callback into the XlsxWriter workbook or copied
  (values, styles, widths, validations, tables, print setup…) from an .xlsx built elsewhere
  (e.g. by the openpyxl template builder), after opening the shell with openpyxl
  ``keep_vba=True`` — which keeps ``vbaProject.bin`` and the VML buttons.

The standalone VBA module declares ``xlwings64-<version>.dll``: the workbook works only with
that exact xlwings version installed, so rebuild it whenever the pin changes.
Tools: XlsxWriter (sheets, buttons, VBA part), pyOpenVBA (VBA module sources).
"""

from __future__ import annotations

import copy
import io
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

OPS_SHEET = "操作"
CONF_SHEET = "xlwings.conf"
VBA_MODULE = "bianpai"
UDF_MODULES = "bianpai.addin.functions"
#: Where a command may write the workbook state and the next step (1-based row, column).
STATUS_ROW = 3
STATUS_CELL = "B3"
NEXT_CELL = "B4"  # the next step, under the status
#: Optional random seed typed by the organizer (draw/rank use it instead of a fresh one).
SEED_ROW = 2
SEED_CELL = "B2"
#: Label (column A) of the row whose column B holds the reason for accepting roster warnings;
#: the 抽签编排 button passes it as ``accept_warnings`` (it goes to 日志).
ACCEPT_LABEL = "接受名单警告的理由 / Reason to accept roster warnings"
FIRST_BUTTON_ROW = 5  # 1-based row of the first button
BUTTON_ROW_HEIGHT = 36  # points

#: (VBA Sub name, button label, Python statement run by RunPython). Extend freely: a new entry
#: gets a Sub and a button; the statement is usually ``…macros as m; m.<command>()``.
COMMANDS: list[tuple[str, str, str]] = [
    ("BpCheck", "检查名单", "import bianpai.addin.macros as m; m.check()"),
    ("BpDraw", "抽签编排", "import bianpai.addin.macros as m; m.draw()"),
    ("BpRank", "计算排名", "import bianpai.addin.macros as m; m.rank()"),
    ("BpAwards", "奖励分配", "import bianpai.addin.macros as m; m.awards()"),
    ("BpUndo", "撤销", "import bianpai.addin.macros as m; m.undo()"),
]

#: The extra button of a multi-stage (team) event, placed before 撤销.
ADVANCE_COMMAND = ("BpAdvance", "进入下一阶段", "import bianpai.addin.macros as m; m.advance()")


#: The withdrawal button of a competition-core event (checks and logs the 退赛 rows).
WITHDRAW_COMMAND = ("BpWithdraw", "登记退赛", "import bianpai.addin.macros as m; m.withdraw()")


def commands_for(advance: bool, withdraw: bool = False) -> list[tuple[str, str, str]]:
    """The buttons of an event workbook: :data:`COMMANDS`, plus 进入下一阶段 when ``advance``
    (an event of several stages) and 登记退赛 when ``withdraw`` (its workbook has a 退赛 sheet),
    both before 撤销."""
    extra = ([ADVANCE_COMMAND] if advance else []) + ([WITHDRAW_COMMAND] if withdraw else [])
    return COMMANDS[:-1] + extra + COMMANDS[-1:]


def buttons_of(reg, *, core: bool) -> list[tuple[str, str, str]]:
    """The buttons of ``reg``'s workbook, from its declarations: 进入下一阶段 when a group of a
    core event has more than one stage, 登记退赛 when a core event's workbook style writes the
    退赛 sheet (``SheetSet.withdrawals_sheet``)."""
    from bianpai.workbooks.sheet_sets import sheet_set  # noqa: PLC0415
    several = any(len(g.stages) > 1 for g in reg.groups)
    return commands_for(core and several,
                        core and sheet_set(reg.roster_layout).withdrawals_sheet)

#: English gloss written beside each button (by Sub name); unknown Subs get none.
BUTTON_NOTES = {
    "BpCheck": "检查报名与成绩 / check roster and results",
    "BpDraw": "抽签或编排下一轮 / draw the next round",
    "BpRank": "计算排名 / compute the standings",
    "BpAwards": "名次与奖金 / places and prizes",
    "BpUndo": "恢复到上一步之前 / undo the last command",
    "BpAdvance": "第一阶段排名，开始下一阶段 / rank stage 1, start the next stage",
    "BpWithdraw": "登记“退赛”表中的退赛 / log the withdrawals typed in 退赛",
}

_SUB_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,30}$")


def _xlwings_dir() -> Path:
    import xlwings  # noqa: PLC0415

    return Path(xlwings.__file__).parent


def xlwings_version() -> str:
    import xlwings  # noqa: PLC0415

    return xlwings.__version__


def xlwings_vba_source() -> str:
    """The standalone ``xlwings`` VBA module of the installed xlwings (its ``xlwings.bas``)."""
    return (_xlwings_dir() / "xlwings.bas").read_text(encoding="latin-1")


def vba_module_version(source: str) -> str | None:
    """The ``'Version: x.y.z`` stamped in an xlwings VBA module, or None."""
    m = re.search(r"^'Version:\s*(\S+)", source, re.MULTILINE)
    return m.group(1) if m else None


def bianpai_vba_source(commands: list[tuple[str, str, str]] = COMMANDS) -> str:
    """The ``bianpai`` VBA module: one Sub per command, plus ``BpImportFunctions``."""
    lines = [f'Attribute VB_Name = "{VBA_MODULE}"', "Option Explicit", "",
             "' Generated by bianpai; rebuild instead of editing.", ""]
    for sub, _label, call in commands:
        if not _SUB_NAME.match(sub):
            raise ValueError(f"invalid VBA Sub name: {sub!r}")
        if '"' in call or "\n" in call:
            raise ValueError(f"Python call for {sub} must not contain quotes or newlines")
        lines += [f"Sub {sub}()", f'    RunPython "{call}"', "End Sub", ""]
    lines += ["Sub BpImportFunctions()", "    ImportPythonUDFs", "End Sub", ""]
    return "\r\n".join(lines)


def build_vba_project(commands: list[tuple[str, str, str]] = COMMANDS) -> bytes:
    """``vbaProject.bin`` bytes: xlwings' standalone project with our modules (see module doc)."""
    import pyopenvba  # noqa: PLC0415

    src = _xlwings_dir() / "quickstart_standalone.xlsm"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "project.xlsm"
        shutil.copyfile(src, work)
        xf = pyopenvba.ExcelFile(work)
        xf.set_module("xlwings", xlwings_vba_source())
        project = xf.vba_project()
        if "Module1" in project.module_names():
            project.delete_module("Module1")
        project.add_module(VBA_MODULE, bianpai_vba_source(commands))
        out = Path(tmp) / "out.xlsm"
        xf.save(out)
        xf.close()
        built = pyopenvba.ExcelFile(out)
        problems = built.validate()
        if problems:
            raise RuntimeError(f"VBA project does not validate: {problems}")
        data = built.vba_project_bytes()
        built.close()
        return data


def _write_ops_sheet(workbook, commands) -> None:
    ws = workbook.add_worksheet(OPS_SHEET)
    ws.set_vba_name("Sheet1")
    title = workbook.add_format({"bold": True, "font_size": 16})
    label = workbook.add_format({"bold": True})
    note = workbook.add_format({"font_color": "#595959", "valign": "vcenter"})
    ws.set_column(0, 0, 16)
    ws.set_column(1, 1, 22)
    ws.set_column(2, 2, 48)
    ws.write(0, 0, "编排 bianpai — 操作 / Operations", title)
    ws.write(SEED_ROW - 1, 0, "随机种子 / Seed", label)
    ws.write(SEED_ROW - 1, 2, "可选：填写后抽签与排名抽签用此种子 / optional: lots use this seed",
             note)
    ws.write(STATUS_ROW - 1, 0, "当前状态 / Status", label)
    ws.write(STATUS_ROW - 1, 1, "")
    ws.write(STATUS_ROW, 0, "下一步 / Next step", label)
    for i, (sub, caption, _call) in enumerate(commands):
        row = FIRST_BUTTON_ROW - 1 + i
        ws.set_row(row, BUTTON_ROW_HEIGHT)
        ws.insert_button(row, 1, {"macro": sub, "caption": caption, "width": 150,
                                  "height": BUTTON_ROW_HEIGHT - 6, "x_offset": 2,
                                  "y_offset": 3})
        ws.write(row, 2, BUTTON_NOTES.get(sub, ""), note)
    last = FIRST_BUTTON_ROW + len(commands) + 1
    ws.write(last - 1, 0, ACCEPT_LABEL, label)
    ws.write(last - 1, 2, "名单有警告时（见“校验”表）填写理由后再点“抽签编排”；理由写入日志 / "
             "fill in to accept the warnings in Checks, then press 抽签编排", note)
    last += 2
    ws.write(last - 1, 0,
             "按钮需要 Excel 桌面版并安装 Python 与 xlwings "
             f"{xlwings_version()} / buttons need desktop Excel with Python and xlwings "
             f"{xlwings_version()}")
    ws.activate()


def _write_conf_sheet(workbook) -> None:
    ws = workbook.add_worksheet(CONF_SHEET)
    ws.set_vba_name("Sheet2")
    ws.write(0, 0, "UDF Modules")
    ws.write(0, 1, UDF_MODULES)
    ws.hide()


def build_shell(out_path: str | os.PathLike,
                sheets_writer: Callable | None = None,
                commands: list[tuple[str, str, str]] = COMMANDS) -> Path:
    """Write the macro workbook with XlsxWriter: 操作 sheet, the sheets ``sheets_writer``
    adds (called with the ``xlsxwriter.Workbook``), the hidden xlwings.conf sheet, and the VBA
    project."""
    import xlsxwriter  # noqa: PLC0415

    out_path = Path(out_path)
    if out_path.suffix.lower() != ".xlsm":
        raise ValueError("a macro workbook must be saved as .xlsm")
    wb = xlsxwriter.Workbook(str(out_path))
    wb.set_vba_name("ThisWorkbook")
    _write_ops_sheet(wb, commands)
    if sheets_writer is not None:
        sheets_writer(wb)
    _write_conf_sheet(wb)
    wb.add_vba_project(io.BytesIO(build_vba_project(commands)), is_stream=True)
    wb.close()
    return out_path


def build_xlsm(source: Callable | str | os.PathLike | None, out_path: str | os.PathLike,
               commands: list[tuple[str, str, str]] = COMMANDS) -> Path:
    """Build the event's macro workbook at ``out_path`` (.xlsm).

    ``source`` is either a callback ``f(xlsxwriter.Workbook)`` that adds the event's sheets,
    or the path of an .xlsx whose sheets are copied in after 操作 (with openpyxl, on the shell
    opened with ``keep_vba=True``; a source sheet named 操作 is merged into ours, cells only),
    or None for the shell alone.
    """
    out_path = Path(out_path)
    if source is None or callable(source):
        return build_shell(out_path, source, commands)
    from openpyxl import load_workbook  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        shell = build_shell(Path(tmp) / "shell.xlsm", None, commands)
        dst = load_workbook(shell, keep_vba=True)
        src = load_workbook(source)
        conf = dst[CONF_SHEET]
        memo: dict = {}  # src format -> dst style, across the sheets (one pair of workbooks)
        for ws in src.worksheets:
            if ws.title == OPS_SHEET:
                _copy_cells(ws, dst[OPS_SHEET], memo)
                continue
            if ws.title == CONF_SHEET:
                continue
            target = dst.create_sheet(ws.title, index=dst.sheetnames.index(CONF_SHEET))
            copy_worksheet(ws, target, memo)
        for name, dn in src.defined_names.items():
            if name not in dst.defined_names:
                dst.defined_names[name] = copy.copy(dn)
        dst.move_sheet(conf, len(dst.sheetnames) - 1 - dst.sheetnames.index(CONF_SHEET))
        dst.active = 0
        tmp_out = Path(tmp) / "final.xlsm"
        dst.save(tmp_out)
        shutil.move(tmp_out, out_path)
    return out_path


def _copy_cells(src, dst, memo: dict | None = None) -> None:
    """Copy the cells of ``src`` into ``dst`` (another workbook's sheet) with their formats.
    A format is copied attribute by attribute the first time it is met; the cells that share
    it take the resulting style of the first (the same style tables either way: openpyxl's
    setters are most of a copy's time). ``memo``: shared by the sheets of one copy."""
    from openpyxl.styles.cell_style import StyleArray  # noqa: PLC0415
    memo = {} if memo is None else memo
    for row in src.iter_rows():
        for c in row:
            if c.value is None and not c.has_style:
                continue
            d = dst.cell(row=c.row, column=c.column, value=c.value)
            if c.has_style:
                key = tuple(c._style)
                done = memo.get(key)
                if done is not None and not d.has_style:
                    d._style = StyleArray(done)
                else:
                    fresh = not d.has_style
                    d.font = copy.copy(c.font)
                    d.fill = copy.copy(c.fill)
                    d.border = copy.copy(c.border)
                    d.alignment = copy.copy(c.alignment)
                    d.number_format = c.number_format
                    d.protection = copy.copy(c.protection)
                    d.quotePrefix = c.quotePrefix
                    if fresh:
                        memo[key] = copy.copy(d._style)
            if c.hyperlink:
                d.hyperlink = copy.copy(c.hyperlink)
            if c.comment:
                d.comment = copy.copy(c.comment)


def copy_worksheet(src, dst, memo: dict | None = None) -> None:
    """Copy an openpyxl worksheet into another workbook's sheet: cells and styles, merged
    cells, column widths, row heights, freeze panes, data validations, conditional formats,
    tables, auto filter, print setup and visibility. ``memo``: see :func:`_copy_cells`."""
    from openpyxl.worksheet.table import Table  # noqa: PLC0415

    _copy_cells(src, dst, memo)
    for rng in src.merged_cells.ranges:
        dst.merge_cells(str(rng))
    for key, dim in src.column_dimensions.items():
        d = dst.column_dimensions[key]
        d.width, d.hidden, d.min, d.max = dim.width, dim.hidden, dim.min, dim.max
        if dim.customWidth:
            d.width = dim.width
    for key, dim in src.row_dimensions.items():
        d = dst.row_dimensions[key]
        d.height, d.hidden = dim.height, dim.hidden
    dst.freeze_panes = src.freeze_panes
    for dv in src.data_validations.dataValidation:
        dst.add_data_validation(copy.copy(dv))
    for cf in src.conditional_formatting:
        for rule in cf.rules:
            dst.conditional_formatting.add(str(cf.sqref), copy.copy(rule))
    for t in src.tables.values():
        nt = Table(displayName=t.displayName, ref=t.ref)
        nt.tableStyleInfo = copy.copy(t.tableStyleInfo)
        if t.autoFilter is None:
            nt.autoFilter = None
        dst.add_table(nt)
    if src.auto_filter.ref:
        dst.auto_filter.ref = src.auto_filter.ref
    dst.sheet_state = src.sheet_state
    dst.sheet_properties.tabColor = copy.copy(src.sheet_properties.tabColor)
    dst.sheet_properties.pageSetUpPr = copy.copy(src.sheet_properties.pageSetUpPr)
    dst.page_setup.orientation = src.page_setup.orientation
    dst.page_setup.paperSize = src.page_setup.paperSize
    dst.page_setup.fitToWidth = src.page_setup.fitToWidth
    dst.page_setup.fitToHeight = src.page_setup.fitToHeight
    dst.print_options.horizontalCentered = src.print_options.horizontalCentered
    dst.page_margins = copy.copy(src.page_margins)
    if src.print_title_rows:
        dst.print_title_rows = src.print_title_rows
    if src.print_title_cols:
        dst.print_title_cols = src.print_title_cols
    if src.print_area:
        dst.print_area = src.print_area
    dst.sheet_view.showGridLines = src.sheet_view.showGridLines
