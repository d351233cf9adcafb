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

import os
import sys
import tempfile
import warnings
import zipfile
from pathlib import Path

import openpyxl

from bianpai.engines.errors import BianpaiError, InputError
from bianpai.workbooks import backups, package, package_props
from bianpai.workbooks.port import Grid, SheetFormat  # noqa: F401
# the pieces, one concept a module; their names stay importable from here
from bianpai.workbooks.file_lock import (TEMP_SUFFIX, FileLock, _write_target,  # noqa: F401
                                         refuse_if_open_elsewhere,
                                         remove_stale_temps)
from bianpai.workbooks.cell_plan import CellPlan, plannable
from bianpai.workbooks.held_writes import HeldWrites
from bianpai.workbooks.kept_appends import KeptAppends
from bianpai.workbooks.lazy_book import LazyBook
from bianpai.workbooks.sheet_writing import (FORMULA_START, _apply_format,  # noqa: F401
                                             _as_saved, _cell_value, _fill, _set, _style_of)

#: Zip parts openpyxl does not keep on a round trip (legacy VML buttons and vbaProject.bin are
#: kept with ``keep_vba=True``).
DROPPED_PARTS = ("xl/drawings/drawing", "xl/charts/", "xl/media/", "xl/webextensions/",
                 "xl/activeX/", "xl/ctrlProps/", "customXml/", "xl/diagrams/")


def dropped_parts(path: Path) -> list[str]:
    """Parts of the workbook at ``path`` that openpyxl would drop on save."""
    try:
        with zipfile.ZipFile(path) as z:
            return sorted(n for n in z.namelist() if n.startswith(DROPPED_PARTS))
    except zipfile.BadZipFile as exc:
        raise InputError(f"{path.name} 不是有效的 Excel 文件（.xlsx/.xlsm）",
                         f"{path.name} is not a valid Excel file (.xlsx/.xlsm)") from exc


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
        #: sheet → its values as last read; dropped when this port writes the sheet (a
        #: command, and the demo's chain of commands on one port, reads a sheet many times)
        self._read_cache: dict[str, Grid] = {}
        self._derived: dict[str, dict] = {}
        #: sheet → (values, format) written but not yet made into cells (see _materialize)
        self._deferred: dict[str, tuple] = {}
        #: rows appended below kept sheets never parsed (patched into their XML on save)
        self._kept = KeptAppends(self.wb, self._book)
        #: rewrites of generated sheets made when their sheets are next used (held_writes)
        self._held = HeldWrites()

    def _sheet(self, name: str):
        """The worksheet ``name``, parsed on first use (its written cells made now when their
        writing was deferred)."""
        self._held.make(name)
        if name in self._deferred:
            self._materialize(name)
        plan = self._changes.planned.pop(name, None)
        if plan is not None:  # saved from a plan: its cells are made now
            plan.make_cells()
        if self._book is None:
            return self.wb[name]
        ws = self._book.sheet(name)
        for rows, start_row in self._kept.release(name):  # held unparsed until now
            self._append_cells(name, ws, rows, start_row)
        return ws

    def _materialize(self, name: str) -> None:
        """Make the openpyxl cells of a sheet :meth:`write_sheet` wrote (deferred until the
        sheet is read, appended to, or saved: a chain of commands on one port — the demo —
        rewrites its generated sheets many times and keeps only the last)."""
        values, fmt, appends = self._deferred.pop(name)
        ws = self.wb[name]
        _fill(ws, values)
        if fmt:
            _apply_format(ws, values, fmt)
        for rows, start_row in appends:  # appended after the write, in their order
            self._append_cells(name, ws, rows, start_row)

    def write_later(self, sheets: list[str], write) -> bool:
        """Hold ``write()``, a rewrite of the generated ``sheets``, until one of them is next
        used or the workbook saved (:mod:`bianpai.workbooks.held_writes`); ``False`` (nothing
        held: write now) when one of them does not exist yet."""
        if any(s not in self.wb.sheetnames for s in sheets):
            return False
        self._held.hold(sheets, write)
        return True

    def _plan(self, name: str) -> None:
        """As :meth:`_materialize`, the sheet's cells planned instead of made
        (:class:`~bianpai.workbooks.cell_plan.CellPlan`: the package save writes them)."""
        values, fmt, appends = self._deferred.pop(name)
        ws = self.wb[name]
        plan = CellPlan(ws, values)
        if fmt:
            _apply_format(ws, values, fmt, plan)
        for rows, start_row in appends:
            plan.append(rows, start_row)
        self._changes.planned[name] = plan

    def _deferred_values(self, name: str) -> Grid | None:
        """The values of a sheet written and not yet made into cells, as they would read back
        from its cells (:meth:`_parsed_values`), without making them; ``None`` when its format
        merges cells (read from the made cells then)."""
        values, fmt, appends = self._deferred[name]
        if fmt is not None and any(rf.merge for rf in fmt.rows.values()):
            return None
        rows = [list(r) for r in values]
        for grid, start_row in appends:
            for r, row in enumerate(grid, start=start_row):
                while len(rows) < r:
                    rows.append([])
                cur = rows[r - 1]
                if len(cur) < len(row):
                    cur.extend([None] * (len(row) - len(cur)))
                cur[:len(row)] = row
        return [[_as_saved(_cell_value(v)) for v in r] for r in rows]

    # --- reading -----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.path.name

    def sheet_names(self) -> list[str]:
        return list(self.wb.sheetnames)

    def read_values(self, sheet: str) -> Grid:
        """The sheet's values (rows of cells; see ``WorkbookPort.read_values``), read once
        while the sheet is unchanged: later calls get a copy of the first reading."""
        self._held.make(sheet)
        hit = self._read_cache.get(sheet)
        if hit is not None:
            return [list(r) for r in hit]
        grid = self._read_values(sheet)
        self._read_cache[sheet] = [list(r) for r in grid]
        return grid

    def derived(self, sheet: str) -> dict:
        """A memo for what a reader computes from ``sheet`` as it is now (a coerced table, the
        regulation): emptied whenever this port writes, appends to or deletes the sheet."""
        self._held.make(sheet)
        return self._derived.setdefault(sheet, {})

    def _forget(self, sheet: str) -> None:
        self._read_cache.pop(sheet, None)
        self._derived.pop(sheet, None)

    def _read_values(self, sheet: str) -> Grid:
        if sheet not in self.wb.sheetnames:
            raise InputError(f"工作簿中没有“{sheet}”工作表", f"the workbook has no sheet {sheet!r}",
                             sheet=sheet)
        # a sheet this command has not touched: its values straight from the file (calamine),
        # leaving the openpyxl parse to a sheet the command writes into
        rows = self._book.fast_values(sheet) if self._book is not None else None
        if rows is not None and sheet in self._kept.scratch:  # rows appended, held unparsed
            rows = self._kept.overlay(sheet, rows)
        if rows is None and sheet in self._deferred:
            rows = self._deferred_values(sheet)
        if rows is None:
            rows = self._parsed_values(sheet)
        while rows and all(v is None or v == "" for v in rows[-1]):
            rows.pop()
        width = max((max((i + 1 for i, v in enumerate(r) if v not in (None, "")), default=0)
                     for r in rows), default=0)
        return [r[:width] + [None] * (width - len(r[:width])) for r in rows]

    def _parsed_values(self, sheet: str) -> Grid:
        """The sheet's values from openpyxl's parse (formulas as their cached results)."""
        ws = self._sheet(sheet)
        rows = [[self._value(c) for c in r] for r in ws.iter_rows()]
        # what this port wrote reads as it will read back from the saved file (one command
        # after another on one open port sees what it would see through the file)
        if sheet in self._changes.rewritten:
            rows = [[_as_saved(v) for v in r] for r in rows]
        for (r, c) in self._changes.appended.get(sheet, ()):
            if r <= len(rows) and c <= len(rows[r - 1]):
                rows[r - 1][c - 1] = _as_saved(rows[r - 1][c - 1])
        # a merged range (e.g. 组别 merged down a roster) reads as its top-left value everywhere
        for rng in ws.merged_cells.ranges:
            top = rows[rng.min_row - 1][rng.min_col - 1] if rng.min_row <= len(rows) else None
            for r in range(rng.min_row, min(rng.max_row, len(rows)) + 1):
                for c in range(rng.min_col, rng.max_col + 1):
                    if c - 1 < len(rows[r - 1]):
                        rows[r - 1][c - 1] = top
        return rows

    def merged_ranges(self, sheet: str) -> list[tuple[int, int, int, int]]:
        """The merged ranges of ``sheet`` as (first row, first column, last row, last column),
        1-based; ``[]`` for a sheet that does not exist."""
        self._held.make(sheet)
        if sheet not in self.wb.sheetnames:
            return []
        fast = self._book.fast_merged(sheet) if self._book is not None else None
        if fast is not None:
            return fast
        merged = getattr(self._sheet(sheet), "merged_cells", None)
        return [] if merged is None else [(r.min_row, r.min_col, r.max_row, r.max_col)
                                          for r in merged.ranges]

    def read_property(self, name: str) -> str | None:
        """The text kept under custom document property ``name`` (``None``: none), e.g. the
        record of 抽签 (:mod:`bianpai.addin.core_records`); see
        :mod:`~bianpai.workbooks.package_props`."""
        return package_props.read_text(self.wb.custom_doc_props, name)

    def write_property(self, name: str, text: str | None) -> None:
        """Keep ``text`` under custom document property ``name`` (``None`` removes it),
        written by :meth:`save` with the sheets."""
        package_props.write_text(self.wb.custom_doc_props, name, text)
        self._changes.properties = True

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
        self._held.make(sheet)
        self._forget(sheet)
        self._kept.forget(sheet)
        self._deferred.pop(sheet, None)
        self._changes.planned.pop(sheet, None)
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
        self._deferred[sheet] = ([list(r) for r in values], fmt, [])
        del ws

    def append_rows(self, sheet: str, rows: Grid, *, start_row: int) -> None:
        self._held.make(sheet)
        self._forget(sheet)
        if sheet in self._deferred:  # written by this port, not made yet: made with it
            self._deferred[sheet][2].append(([list(r) for r in rows], start_row))
            return
        if sheet not in self._changes.rewritten and self._kept.take(
                sheet, rows, start_row, self._changes.appended.setdefault(sheet, {})):
            return  # below every row the sheet holds: it need not be parsed
        self._append_cells(sheet, self._sheet(sheet), rows, start_row)

    def _append_cells(self, sheet: str, ws, rows: Grid, start_row: int) -> None:
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
        self._held.make(sheet)
        self._forget(sheet)
        self._kept.forget(sheet)
        self._deferred.pop(sheet, None)
        self._changes.planned.pop(sheet, None)
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
        self._held.make()  # the rewrites held for later: made now
        use_package = bool(self._original) and self.path.exists()
        for name in list(self._deferred):  # in the order they were written
            if use_package and plannable(self._deferred[name][1]):
                self._plan(name)  # written into the package without openpyxl cells
            else:
                self._materialize(name)
        target = _write_target(self.out)
        refuse_if_open_elsewhere(self.out)  # an office program would save over it
        if target.exists() and not os.access(target, os.W_OK) or (
                target.exists() and not (target.stat().st_mode & 0o222)):
            raise BianpaiError(f"{self.out.name} 是只读文件，未写入；请取消只读或用 --out 另存",
                               f"{self.out.name} is read-only; nothing written (use --out)")
        if not self.wb.sheetnames:
            self.wb.create_sheet("Sheet1")
            self._changes.rewritten.append("Sheet1")
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
                    self._changes.cells_of = dict(self._kept.scratch)
                    package.save_package(self.path, self.wb, self._changes, tmp)
                except package.PackageError:
                    self._refuse_dropped()
                    for name in list(self._changes.planned):  # openpyxl saves made cells
                        self._sheet(name)
                    for name in list(self._kept.scratch):  # into the parsed sheets first
                        self._sheet(name)
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
