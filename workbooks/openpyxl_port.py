"""The openpyxl adapter of :class:`~bianpai.workbooks.port.WorkbookPort`: a closed .xlsx/.xlsm.

Used by the command line (Linux, CI, WPS users). openpyxl reads the workbook; writes are buffered
in memory and committed by :meth:`OpenpyxlPort.save`, which writes a temporary file beside the
target and renames it over (atomic), after keeping the previous file in a backup stack
(:mod:`bianpai.workbooks.backups`).

The save is package-preserving (:mod:`bianpai.workbooks.package`): only the sheets the command
wrote are serialised by openpyxl, every other part of the file (typed sheets with their formula
results, x14 dropdowns, charts, images, comments, VBA…) is copied as the user's Excel wrote it.
A sheet the command regenerates or deletes that holds something by hand (a chart on 排名…) is
refused before anything is written, naming the sheet and what would be lost. Only when the
package cannot be edited (not a transitional SpreadsheetML package) does it fall back to a whole
openpyxl save, and then it still refuses to overwrite in place a workbook holding parts openpyxl
would drop (:data:`DROPPED_PARTS`), naming the file to write instead.

Files: a folder given as workbook, a backups path that is a file and a damaged backup are
named, never a traceback; a symbolic link is written through (the link stays a link); temporary
files left by a killed save are removed by the next command on the workbook.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sys
import tempfile
import warnings
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.table import Table, TableStyleInfo

from bianpai.engines.errors import BianpaiError, InputError
from bianpai.workbooks import backups, package, print_setup
from bianpai.workbooks.port import Grid, SheetFormat

#: Zip parts openpyxl does not keep on a round trip (legacy VML buttons and vbaProject.bin are
#: kept with ``keep_vba=True``).
DROPPED_PARTS = ("xl/drawings/drawing", "xl/charts/", "xl/media/", "xl/webextensions/",
                 "xl/activeX/", "xl/ctrlProps/", "customXml/", "xl/diagrams/")

FORMULA_START = ("=", "+", "-", "@")


def dropped_parts(path: Path) -> list[str]:
    """Parts of the workbook at ``path`` that openpyxl would drop on save."""
    try:
        with zipfile.ZipFile(path) as z:
            return sorted(n for n in z.namelist() if n.startswith(DROPPED_PARTS))
    except zipfile.BadZipFile as exc:
        raise InputError(f"{path.name} 不是有效的 Excel 文件（.xlsx/.xlsm）",
                         f"{path.name} is not a valid Excel file (.xlsx/.xlsm)") from exc


class LazyBook:
    """An openpyxl workbook whose worksheets are parsed on first use.

    Opening reads the package's workbook part, styles and shared strings, and puts an empty
    worksheet in place of each sheet; :meth:`sheet` parses one on demand with openpyxl's own
    reader (so a sheet that is parsed is exactly what ``load_workbook`` gives). A command reads
    a few sheets of a workbook that may hold many more (an archive of earlier results…), and the
    package-preserving save never needs the others. :meth:`load_all` parses the rest (for a
    whole-workbook save).
    """

    def __init__(self, path: Path, *, keep_vba: bool = False, data_only: bool = False):
        from openpyxl.reader.excel import ExcelReader

        book = self
        self.path = path
        self._pending: dict[str, tuple] = {}

        class _Reader(ExcelReader):
            def read_worksheets(self):  # placeholders only; parsed by LazyBook.sheet
                for sheet, rel in self.parser.find_sheets():
                    if rel.target not in self.valid_files:
                        continue
                    if "chartsheet" in rel.Type:
                        self.read_chartsheet(sheet, rel)
                        continue
                    ws = self.wb.create_sheet(sheet.name)
                    ws.sheet_state = sheet.state
                    book._pending[sheet.name] = (sheet, rel)

        self._reader = _Reader(str(path), read_only=False, keep_vba=keep_vba,
                               data_only=data_only, keep_links=True)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
            self._reader.read()
        self.wb = self._reader.wb

    def sheet(self, name: str):
        """The worksheet ``name``, parsed now if it was not yet."""
        ws = self.wb[name]
        pending = self._pending.pop(name, None)
        if pending is not None:
            self._parse(ws, *pending)
        return ws

    def forget(self, name: str) -> None:
        """``name`` is replaced or deleted: it will never be parsed."""
        self._pending.pop(name, None)

    def _parse(self, ws, sheet, rel) -> None:
        """openpyxl's own worksheet reader, run for this one sheet into its placeholder."""
        from openpyxl.reader.excel import ExcelReader
        r = self._reader
        r.archive = zipfile.ZipFile(self.path)
        wb = r.wb
        find = r.parser.find_sheets
        try:
            r.parser.find_sheets = lambda: iter([(sheet, rel)])
            wb.create_sheet = lambda title=None, index=None: ws
            with warnings.catch_warnings():  # see OpenpyxlPort.__init__: those parts are kept
                warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
                ExcelReader.read_worksheets(r)
        finally:
            del wb.create_sheet
            r.parser.find_sheets = find
            r.archive.close()

    def load_all(self):
        for name in list(self._pending):
            self.sheet(name)
        return self.wb


class OpenpyxlPort:
    """A workbook file opened with openpyxl.

    ``path``: the file to read (created empty when ``create=True`` and it does not exist).
    ``out``: where :meth:`save` writes (default: ``path``, in place).
    Raises ``InputError`` when the file is missing or not a workbook, and ``BianpaiError`` on
    save when writing in place would drop parts.
    """

    def __init__(self, path: str | Path, *, out: str | Path | None = None, create: bool = False,
                 command: str = ""):
        self.path = Path(path)
        self.out = Path(out) if out else self.path
        self.command = command
        self.messages: list[str] = []
        for p in {self.path, self.out}:
            if p.is_dir():
                raise InputError(f"{p} 是一个文件夹，不是工作簿；请给出 .xlsx/.xlsm 文件的路径",
                                 f"{p} is a folder, not a workbook; give the path of an "
                                 f".xlsx/.xlsm file")
        self._lock = FileLock(self.out)
        self._changes = package.Changes()
        self._original: set[str] = set()
        self._book: LazyBook | None = None
        if create:
            self.wb = openpyxl.Workbook()
            self.wb.remove(self.wb.active)
            self._dropped: list[str] = []
        else:
            if not self.path.exists():
                raise InputError(f"找不到工作簿 {self.path}", f"workbook not found: {self.path}")
            if self.path.suffix.lower() not in (".xlsx", ".xlsm"):
                raise InputError(f"{self.path.name} 不是 .xlsx/.xlsm 工作簿；请在 Excel/WPS 中另存为 .xlsx",
                                 f"{self.path.name} is not an .xlsx/.xlsm workbook; save it as .xlsx")
            self._dropped = dropped_parts(self.path)
            self._lock.acquire()
            remove_stale_temps(self.out)
            try:
                with warnings.catch_warnings():
                    # "… extension is not supported and will be removed": the package-preserving
                    # save keeps those parts, so the library's warning would be wrong here
                    warnings.filterwarnings("ignore", category=UserWarning, module="openpyxl")
                    self._book = LazyBook(self.path,
                                          keep_vba=self.path.suffix.lower() == ".xlsm")
                    self.wb = self._book.wb
            except Exception as exc:  # openpyxl raises many kinds on a damaged file
                self._lock.release()
                raise InputError(f"无法打开 {self.path.name}：文件已损坏或不是 Excel 工作簿（{exc}）",
                                 f"cannot open {self.path.name}: damaged or not a workbook ({exc})"
                                 ) from exc
            self._original = set(self.wb.sheetnames)
        self._values_wb = None  # a data_only copy, loaded when a formula cell is read
        self._appends: dict[str, int] = {}

    def _sheet(self, name: str):
        """The worksheet ``name``, parsed on first use."""
        return self._book.sheet(name) if self._book is not None else self.wb[name]

    # --- reading -----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.path.name

    def sheet_names(self) -> list[str]:
        return list(self.wb.sheetnames)

    def read_values(self, sheet: str) -> Grid:
        if sheet not in self.wb.sheetnames:
            raise InputError(f"工作簿中没有“{sheet}”工作表", f"the workbook has no sheet {sheet!r}",
                             sheet=sheet)
        ws = self._sheet(sheet)
        rows = [[self._value(c) for c in r] for r in ws.iter_rows()]
        # a merged range (e.g. 组别 merged down a roster) reads as its top-left value everywhere
        for rng in ws.merged_cells.ranges:
            top = rows[rng.min_row - 1][rng.min_col - 1] if rng.min_row <= len(rows) else None
            for r in range(rng.min_row, min(rng.max_row, len(rows)) + 1):
                for c in range(rng.min_col, rng.max_col + 1):
                    if c - 1 < len(rows[r - 1]):
                        rows[r - 1][c - 1] = top
        while rows and all(v is None or v == "" for v in rows[-1]):
            rows.pop()
        width = max((max((i + 1 for i, v in enumerate(r) if v not in (None, "")), default=0)
                     for r in rows), default=0)
        return [r[:width] + [None] * (width - len(r[:width])) for r in rows]

    def _value(self, cell):
        """A cell's value; for a formula cell its cached result (Excel/WPS/LibreOffice save one).
        LibreOffice writes booleans as ``=TRUE()``/``=FALSE()``; those read as True/False."""
        v = cell.value
        if cell.data_type != "f" or not isinstance(v, str):
            return v
        text = v.replace(" ", "").upper()
        if text in ("=TRUE()", "=TRUE"):
            return True
        if text in ("=FALSE()", "=FALSE"):
            return False
        if self._values_wb is None:
            self._values_wb = LazyBook(self.path, data_only=True)
        cached = self._values_wb.sheet(cell.parent.title)[cell.coordinate].value
        if cached is None:
            raise InputError(
                f"单元格含公式 {v} 但没有计算结果；请在 Excel/WPS 中打开并保存一次，或改为直接填写数值",
                f"the cell holds formula {v} with no cached result; open and save it in Excel/WPS, "
                f"or type the value", sheet=cell.parent.title, cell=cell.coordinate)
        return cached

    # --- writing -----------------------------------------------------------------------------
    def write_sheet(self, sheet: str, values: Grid, fmt: SheetFormat | None = None, *,
                    position: int | None = None) -> None:
        if sheet in self.wb.sheetnames:
            position = self.wb.sheetnames.index(sheet)
            self.wb.remove(self.wb[sheet])
            if self._book is not None:
                self._book.forget(sheet)
        ws = self.wb.create_sheet(sheet, position)
        if sheet not in self._changes.rewritten:
            self._changes.rewritten.append(sheet)
        self._changes.deleted.discard(sheet)
        self._changes.appended.pop(sheet, None)
        for r, row in enumerate(values, start=1):
            for c, v in enumerate(row, start=1):
                _set(ws.cell(row=r, column=c), v)
        if fmt:
            _apply_format(ws, values, fmt)

    def append_rows(self, sheet: str, rows: Grid, *, start_row: int) -> None:
        ws = self._sheet(sheet)
        cells = (None if sheet in self._changes.rewritten
                 else self._changes.appended.setdefault(sheet, {}))
        for r, row in enumerate(rows, start=start_row):
            for c, v in enumerate(row, start=1):
                cell = ws.cell(row=r, column=c)
                before = _style_of(cell)
                _set(cell, v)
                if cells is not None:  # kept sheet: patched into its own XML on save
                    cells[(r, c)] = cells.get((r, c), True) and _style_of(cell) == before
        tbl = next(iter(ws.tables.values()), None) if ws.tables else None
        if tbl is not None:  # grow the Excel table over appended rows
            first, last = tbl.ref.split(":")
            end_row = max(start_row + len(rows) - 1, ws.max_row)
            col = "".join(ch for ch in last if ch.isalpha())
            tbl.ref = f"{first}:{col}{end_row}"

    def delete_sheet(self, sheet: str) -> None:
        if sheet in self.wb.sheetnames:
            self.wb.remove(self.wb[sheet])
            if self._book is not None:
                self._book.forget(sheet)
            if sheet in self._changes.rewritten:
                self._changes.rewritten.remove(sheet)
            self._changes.appended.pop(sheet, None)
            if sheet in self._original:
                self._changes.deleted.add(sheet)

    def notify(self, message: str) -> None:
        self.messages.append(message)
        print(message, file=sys.stderr)

    def save(self) -> None:
        """Write atomically to ``out``, keeping the previous file there in the backup stack.

        A workbook read from a file is saved package-preserving (:mod:`bianpai.workbooks.package`):
        only the sheets this port wrote are re-serialised, everything else is copied as it was.
        It refuses, before writing anything, when a sheet it regenerates or deletes holds
        something its new version would not (a chart, comments, conditional formats…).
        """
        target = _write_target(self.out)
        if target.exists() and not os.access(target, os.W_OK) or (
                target.exists() and not (target.stat().st_mode & 0o222)):
            raise BianpaiError(f"{self.out.name} 是只读文件，未写入；请取消只读或用 --out 另存",
                               f"{self.out.name} is read-only; nothing written (use --out)")
        if not self.wb.sheetnames:
            self.wb.create_sheet("Sheet1")
            self._changes.rewritten.append("Sheet1")
        use_package = bool(self._original) and self.path.exists()
        if use_package:
            self._refuse_losses()
        else:
            self._refuse_dropped()
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self._lock.acquire()
        remove_stale_temps(self.out)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.out.name}.", suffix=TEMP_SUFFIX,
                                   dir=target.parent)
        os.close(fd)
        try:
            if use_package:
                try:
                    package.save_package(self.path, self.wb, self._changes, tmp)
                except package.PackageError:
                    self._refuse_dropped()
                    self._book.load_all()
                    self.wb.save(tmp)
                except (KeyError, ValueError, StopIteration, zipfile.BadZipFile,
                        package.etree.XMLSyntaxError) as exc:
                    raise BianpaiError(
                        f"{self.path.name} 的文件结构无法按原样保留（{type(exc).__name__}: {exc}），"
                        f"未写入任何内容；请在 Excel/WPS 中打开并另存一次后再试",
                        f"{self.path.name} has a structure bianpai cannot keep as it is "
                        f"({type(exc).__name__}: {exc}); nothing written. Open and save it once "
                        f"in Excel/WPS, then try again") from exc
            else:
                self.wb.save(tmp)
            if target.exists():
                mode = target.stat().st_mode & 0o777
                backups.push(self.out, self.command or "save")
            else:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(tmp, mode)
            os.replace(tmp, target)  # a symbolic link keeps pointing at the updated workbook
            backups.mark_written(self.out)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
            self._lock.release()

    def _refuse_dropped(self) -> None:
        """A whole-workbook openpyxl save would drop parts: refuse to do it in place."""
        same = self.out.resolve() == self.path.resolve() if self.out.exists() else False
        if same and self._dropped:
            raise BianpaiError(
                f"{self.path.name} 含有 openpyxl 无法保留的内容（{', '.join(self._dropped[:3])}…），"
                f"不能原地覆盖；请用 --out 另存，例如 {self.path.stem}-bianpai{self.path.suffix}",
                f"{self.path.name} holds parts openpyxl would drop ({', '.join(self._dropped[:3])}…); "
                f"refusing to overwrite it in place; write with --out, e.g. "
                f"{self.path.stem}-bianpai{self.path.suffix}")

    def _refuse_losses(self) -> None:
        """Name what a regenerated or deleted sheet would lose, before anything is written."""
        ch = self._changes
        sheets = [t for t in ch.rewritten if t in self._original] + sorted(ch.deleted)
        if not sheets:
            return
        keep = {t: {(str(dv.sqref), dv.formula1) for dv in self.wb[t].data_validations.dataValidation}
                for t in ch.rewritten if t in self.wb.sheetnames}
        try:
            lost = package.losses(self.path, sheets, keep, keep_charts=[
                t for t in ch.rewritten if t in self.wb.sheetnames and self.wb[t]._charts])
        except (package.PackageError, KeyError, zipfile.BadZipFile):
            return  # the save falls back to the whole-workbook path and its own check
        if not lost:
            return
        zh = "；".join(f"“{t}”表的{'、'.join(z for z, _ in f)}" for t, f in lost.items())
        en = "; ".join(f"sheet {t}: {', '.join(e for _, e in f)}" for t, f in lost.items())
        verb_zh = "重新生成或删除"
        raise BianpaiError(
            f"未写入任何内容：此命令要{verb_zh}的工作表上有手工添加的内容，保存会丢失——{zh}。"
            f"请把它们移到其他工作表（或先另存一份副本）后再运行",
            f"nothing written: sheets this command regenerates or deletes hold content added by "
            f"hand that saving would lose — {en}. Move it to another sheet (or keep a copy) and "
            f"run again")

    def close(self) -> None:
        """Release the workbook without saving (commands that refuse call this)."""
        self._lock.release()

    def __del__(self):
        try:
            self._lock.release()
        except Exception:
            pass


TEMP_SUFFIX = ".bianpai-tmp"


def _write_target(path: Path) -> Path:
    """Where a save of ``path`` writes: the file a symbolic link points to (the link is kept)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove temporary files a killed save left beside ``path`` (call it holding the lock).
    Returns the files removed."""
    path = Path(path)
    gone = []
    for d in {path.parent, _write_target(path).parent}:
        if not d.is_dir():
            continue
        legacy = re.compile(re.escape(f".{path.stem}.") + r"[a-z0-9_]{8}" + re.escape(path.suffix))
        for p in d.iterdir():
            n = p.name
            if (n.startswith(f".{path.name}.") and n.endswith(TEMP_SUFFIX)) or legacy.fullmatch(n) \
                    or n == f".{path.name}.undo":
                try:
                    p.unlink()
                    gone.append(p)
                except OSError:
                    pass
    return gone


class FileLock:
    """An exclusive advisory lock on ``<workbook>.bianpai-backups/lock`` held from reading a workbook
    until it is saved, so two commands (processes) on one file cannot lose each other's writes.
    Within one process the lock is shared (counted), so nested ports of one command never
    block each other."""

    _held: dict[str, list] = {}  # lock path -> [file handle, count]

    def __init__(self, path: Path):
        self.workbook = Path(path)
        self.path = backups.backup_dir(path) / "lock"
        self.key = str(self.path.resolve()) if self.path.parent.exists() else str(self.path)
        self.mine = False

    def acquire(self) -> None:
        if self.mine:
            return
        try:
            import fcntl
        except ImportError:  # Windows: the desktop front runs inside Excel, one command at a time
            return
        held = self._held.get(self.key)
        if held is not None:
            held[1] += 1
            self.mine = True
            return
        backups.ensure_dir(self.workbook)
        fh = open(self.path, "a+")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise BianpaiError("另一个 bianpai 命令正在处理此工作簿，请稍后再试",
                               "another bianpai command is working on this workbook; try again")
        self._held[self.key] = [fh, 1]
        self.mine = True

    def release(self) -> None:
        if not self.mine:
            return
        self.mine = False
        held = self._held.get(self.key)
        if held is None:
            return
        held[1] -= 1
        if held[1] <= 0:
            held[0].close()
            del self._held[self.key]


def _style_of(cell) -> tuple:
    """A cell's format as comparable numbers (no style = all zero)."""
    style = tuple(cell._style) if cell._style is not None else ()
    return style if any(style) else ()


def _set(cell, v: Any) -> None:
    if isinstance(v, Decimal):
        v = float(v)
    elif isinstance(v, bool) or v is None or isinstance(v, (int, float, dt.date, dt.datetime)):
        pass
    else:
        v = str(v)
    cell.value = v
    if isinstance(v, str) and v.startswith(FORMULA_START):
        # never a formula: store as a string with Excel's quote prefix
        cell.data_type = "s"
        cell.quotePrefix = True


def _apply_format(ws, values: Grid, fmt: SheetFormat) -> None:
    hr = fmt.header_row
    ncols = max((len(r) for r in values), default=0)
    nrows = len(values)
    if fmt.bold_header and nrows >= hr:
        fill = PatternFill("solid", fgColor=fmt.header_fill.lstrip("#")) if fmt.header_fill else None
        for c in range(1, ncols + 1):
            cell = ws.cell(row=hr, column=c)
            cell.font = Font(bold=True)
            cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
            if fill:
                cell.fill = fill
    for col in fmt.columns:
        letter = get_column_letter(col.index + 1)
        if col.width:
            ws.column_dimensions[letter].width = col.width
        body = range(hr + 1, max(nrows, hr) + 1)
        if col.number_format:
            for r in body:
                ws.cell(row=r, column=col.index + 1).number_format = col.number_format
        if col.wrap:
            for r in body:
                ws.cell(row=r, column=col.index + 1).alignment = Alignment(wrap_text=True,
                                                                          vertical="top")
        if col.choices:
            dv = DataValidation(type="list", formula1='"' + ",".join(col.choices) + '"',
                                allow_blank=True, showErrorMessage=True,
                                errorTitle="输入无效 / Invalid",
                                error="请从下拉列表中选择 / choose from the list")
            ws.add_data_validation(dv)
            dv.add(f"{letter}{hr + 1}:{letter}{hr + col.validation_rows}")
    for i in fmt.text_columns:
        for r in range(hr + 1, nrows + 1):
            cell = ws.cell(row=r, column=i + 1)
            if isinstance(cell.value, str) or cell.value is None:
                cell.number_format = "@"
    if fmt.freeze:
        ws.freeze_panes = fmt.freeze
    if fmt.print_setup:
        ws.page_setup.paperSize = (ws.PAPERSIZE_A3 if fmt.print_setup.paper == "A3"
                                   else ws.PAPERSIZE_A4)
        ws.page_setup.orientation = "landscape" if fmt.print_setup.landscape else "portrait"
        if fmt.print_setup.fit_width:
            ws.sheet_properties.pageSetUpPr.fitToPage = True
            ws.page_setup.fitToWidth = 1
            ws.page_setup.fitToHeight = 0
        if fmt.print_setup.repeat_header:
            ws.print_title_rows = f"{hr}:{hr}"
        ws.oddHeader.center.text = (fmt.print_setup.title + " — &A") if fmt.print_setup.title else "&A"
        ws.oddFooter.center.text = "第 &P 页 / 共 &N 页"
        ws.oddFooter.right.text = "&D"
        ws.print_options.gridLines = True
    if fmt.table_name and ncols:
        ref = f"A{hr}:{get_column_letter(ncols)}{max(nrows, hr + 1)}"
        t = Table(displayName=fmt.table_name, ref=ref)
        t.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2", showRowStripes=True)
        ws.add_table(t)
    if fmt.hidden:
        ws.sheet_state = "hidden"
    if fmt.page_breaks:
        from openpyxl.worksheet.pagebreak import Break
        for r in fmt.page_breaks:
            ws.row_breaks.append(Break(id=r))
    print_setup.apply_openpyxl(ws, values, fmt)  # breaks by column, paper rows, integers
