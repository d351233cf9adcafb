"""Shared builders for workbook tests."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import openpyxl

from bianpai.addin import commands
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort


#: where :func:`new_event` keeps the new workbook of each (preset, language, file name) it has
#: built (set per test run by tests/conftest.py; None: build every time)
NEW_CACHE: Path | None = None


def new_event(path: Path, preset: str = "shenzhen-guandan-pairs-2023", lang: str = "zh") -> Path:
    """``bianpai new`` of ``preset`` at ``path`` (through the command). The same new workbook is
    built once per run and copied (file and backups folder) into each test asking for it."""
    path = Path(path)
    if NEW_CACHE is None:
        _build_new(path, preset, lang)
        return path
    from tests.shared_state import copy_of
    src = NEW_CACHE / f"{preset}-{lang}" / path.name
    if not src.exists():
        src.parent.mkdir(parents=True, exist_ok=True)
        _build_new(src, preset, lang)
    dest = copy_of(src, path.parent)
    if dest != path:
        raise AssertionError((dest, path))
    return path


def _build_new(path: Path, preset: str, lang: str) -> None:
    port = OpenpyxlPort(path, create=True, command="new")
    commands.build_workbook(port, load_preset(preset), lang=lang)


def pair_row(group, n1, n2, g1="男", g2="男", b1=dt.date(1970, 1, 1), b2=dt.date(1980, 6, 1),
             unit="深圳", number=None):
    return [group, number, n1, g1, b1, None, n2, g2, b2, None, unit, None, None]


def fill(path: Path, sheet: str, rows: list[list], start_row: int = 2) -> None:
    """Type rows into a sheet the way a user would (no bianpai code): a blank (``None``) leaves
    its cell as it is. Numbers and texts go straight into the sheet's XML part
    (:func:`type_cells`); a row with anything else (a date, a boolean, a formula ``=…``) is
    typed through openpyxl into that sheet (:func:`bianpai.workbooks.lazy_edit.load_workbook`).
    :func:`openpyxl_fill` is the same typing through openpyxl's whole load and save."""
    cells = {(r, c): v for r, row in enumerate(rows, start=start_row)
             for c, v in enumerate(row, start=1) if v is not None}
    if all(_plain(v) for v in cells.values()):
        type_cells(path, sheet, cells)
        return
    from bianpai.workbooks.lazy_edit import load_workbook  # only that sheet parsed and saved
    type_through(load_workbook, path, sheet, rows, start_row)


def openpyxl_fill(path: Path, sheet: str, rows: list[list], start_row: int = 2) -> None:
    """:func:`fill` through openpyxl: the workbook loaded, the cells set, saved whole."""
    type_through(openpyxl.load_workbook, path, sheet, rows, start_row)


def type_through(load, path: Path, sheet: str, rows: list[list], start_row: int = 2, *,
                 clear: bool = False) -> None:
    """Set ``rows`` from ``start_row`` in ``sheet`` of the workbook ``load(path)`` opens, then
    save it in place; a ``None`` leaves its cell as it is (``clear``: empties it)."""
    wb = load(path)
    ws = wb[sheet]
    for r, row in enumerate(rows, start=start_row):
        for c, v in enumerate(row, start=1):
            if v is not None or clear:
                ws.cell(row=r, column=c).value = v
    wb.save(path)


def _plain(v) -> bool:
    """A value :func:`type_cells` types as openpyxl would store it: a number, or a text that
    openpyxl does not take for a formula."""
    return type(v) in (int, float) or (type(v) is str and not v.startswith("="))


def sheet_rows(path: Path, sheet: str) -> list[tuple]:
    """Every row of one sheet as openpyxl reads it in read-only mode (values, rows padded to the
    widest; formulas as their text, merged cells' other cells empty). Read with python-calamine
    (tens of times faster) when the sheet holds no formula nor error value, else by openpyxl
    parsing that sheet only (:func:`openpyxl_sheet_rows`)."""
    fast = _calamine_rows(path, sheet)
    return fast if fast is not None else openpyxl_sheet_rows(path, sheet)


def openpyxl_sheet_rows(path: Path, sheet: str) -> list[tuple]:
    """:func:`sheet_rows` through openpyxl's read-only mode."""
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        ws = wb[sheet]
        ws.reset_dimensions()  # the rows as stored, not a possibly stale <dimension>
        rows = [tuple(r) for r in ws.iter_rows(values_only=True)]
    finally:
        wb.close()
    width = max((len(r) for r in rows), default=0)
    return [r + (None,) * (width - len(r)) for r in rows]


def _calamine_rows(path: Path, sheet: str) -> list[tuple] | None:
    """:func:`sheet_rows` read by python-calamine, or ``None`` when only openpyxl can say (a
    formula or an error value in the sheet, a sheet calamine cannot find)."""
    import zipfile

    from python_calamine import CalamineWorkbook

    from bianpai.workbooks.lazy_book import _NOT_FAST, _as_openpyxl
    try:
        with zipfile.ZipFile(path) as z:
            part = _sheet_part(z, sheet)
            if part is None:
                return None
            xml = z.read(part)
        if _NOT_FAST.search(xml):
            return None
        rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python(
            skip_empty_area=False)
    except Exception:  # noqa: BLE001 - openpyxl reads it
        return None
    # openpyxl yields the rows and cells the sheet stores, also those without a value (a row
    # that only sets a height, an empty styled cell)
    from bianpai.workbooks.lazy_book import xml_extent
    extent = xml_extent(xml)
    if extent is None:
        return None
    last_row, last_col = max(extent[0], extent[1]), extent[2]
    out = [tuple(_as_openpyxl(v) for v in r) for r in rows]
    width = max(last_col, max((len(r) for r in out), default=0))
    out += [()] * (last_row - len(out))
    return [r + (None,) * (width - len(r)) for r in out]


def _sheet_part(z, sheet: str) -> str | None:
    """The zip part of worksheet ``sheet`` (by workbook.xml and its relationships)."""
    import re
    from xml.sax.saxutils import escape
    book = z.read("xl/workbook.xml").decode("utf-8")
    rels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    tag = next((t for t in re.findall(r"<(?:\w+:)?sheet\b[^>]*>", book)
                if re.search(r'\bname="%s"' % re.escape(escape(sheet, {'"': "&quot;"})), t)),
               None)
    rid = re.search(r'\br:id="([^"]+)"', tag or "")
    rel = rid and next((t for t in re.findall(r"<Relationship\b[^>]*>", rels)
                        if re.search(r'\bId="%s"' % re.escape(rid.group(1)), t)), None)
    target = rel and re.search(r'\bTarget="([^"]+)"', rel).group(1)
    if not target:
        return None
    return target.lstrip("/") if target.startswith("/") else f"xl/{target}"


def four_pairs(path: Path) -> None:
    fill(path, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 5)])


def digest(path: Path) -> str:
    """sha256 of a file: a refused command must leave it byte-identical."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def set_setting(path: Path, key: str, value) -> None:
    """Type ``value`` into the 值 cell of 规程 row ``key`` (column 设置项), as an organizer edits a
    rule. Raises ``KeyError`` when the workbook has no such row."""
    if value is None or _plain(value):  # a number or a text: straight into the sheet's XML
        at = next((r for r, row in enumerate(sheet_rows(path, "规程"), start=1)
                   if r > 1 and row[0] == key), None)
        if at is None:
            raise KeyError(key)
        type_cells(path, "规程", {(at, "C"): value})
        return
    from bianpai.workbooks.lazy_edit import load_workbook
    wb = load_workbook(path)
    for row in wb["规程"].iter_rows(min_row=2):
        if row[0].value == key:
            row[2].value = value
            break
    else:
        raise KeyError(key)
    wb.save(path)


def decorate_like_excel(path: Path, *, unit_range: str, match_text: str, comment: str,
                        image_at: str, print_area: str, stats: tuple[str, str, str, object]) -> None:
    """Add to the 报名 sheet of ``path`` what an organizer's Excel adds (issue 12 "Nothing made in
    Excel is lost"): a defined name 参赛单位 over ``unit_range``, a conditional format on C2:C50
    matching ``match_text``, a comment on C2, an 8×8 PNG at ``image_at``, a print area, and a
    sheet 统计 (``stats`` = two headers, a label and a value) with a bar chart. Needs Pillow."""
    import io

    from openpyxl.chart import BarChart, Reference
    from openpyxl.comments import Comment
    from openpyxl.drawing.image import Image
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill
    from openpyxl.workbook.defined_name import DefinedName
    from PIL import Image as PILImage

    png = io.BytesIO()
    PILImage.new("RGB", (8, 8), (200, 30, 30)).save(png, format="PNG")
    book = openpyxl.load_workbook(path)
    ws = book["报名"]
    book.defined_names["参赛单位"] = DefinedName("参赛单位", attr_text=f"'报名'!{unit_range}")
    ws.conditional_formatting.add("C2:C50", CellIsRule(operator="equal", formula=[f'"{match_text}"'],
                                                       fill=PatternFill("solid", "FFC7CE")))
    ws["C2"].comment = Comment(comment, "裁判长")
    ws.add_image(Image(io.BytesIO(png.getvalue())), image_at)
    ws.print_area = print_area
    charts = book.create_sheet("统计")
    charts.append(list(stats[:2]))
    charts.append(list(stats[2:]))
    chart = BarChart()
    chart.add_data(Reference(charts, min_col=2, min_row=1, max_row=2), titles_from_data=True)
    charts.add_chart(chart, "D2")
    book.save(path)


def type_cells(path: Path, sheet: str, cells: dict[tuple[int, str | int], object]) -> None:
    """Type values into existing rows of one sheet, ``cells[(row, column)] = value`` (column
    a letter or a 1-based number; value a number, a text or None to clear the cell), the quick
    way: only that sheet's XML part is rewritten (the workbook is not loaded and saved whole
    through openpyxl). Cells keep their style; a cell the row does not have is inserted in
    column order, a row the sheet does not have in row order (and the sheet's dimension grows
    over it)."""
    import os
    import re
    import zipfile
    from xml.sax.saxutils import escape

    from openpyxl.utils import column_index_from_string, get_column_letter

    if not cells:
        return
    path = Path(path)
    with zipfile.ZipFile(path) as z:
        part = _sheet_part(z, sheet)
        if part is None:
            raise KeyError(sheet)
        xml = z.read(part).decode("utf-8")
        entries = [(i, z.read(i.filename)) for i in z.infolist()]

    by_row: dict[int, dict[str, object]] = {}
    for (r, col), v in cells.items():
        col = get_column_letter(col) if isinstance(col, int) else col
        by_row.setdefault(r, {})[col] = v

    def cell_xml(ref: str, attrs: str, v) -> str:
        if v is None:
            return f'<c r="{ref}"{attrs}/>'
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            raise TypeError(f"type_cells types numbers and texts, not {v!r}")
        if isinstance(v, str):
            space = ' xml:space="preserve"' if v != v.strip() else ""
            return f'<c r="{ref}"{attrs} t="inlineStr"><is><t{space}>{escape(v)}</t></is></c>'
        return f'<c r="{ref}"{attrs} t="n"><v>{v!r}</v></c>'

    def patch_row(m: re.Match) -> str:
        r = int(m.group(2))
        if r not in by_row:
            return m.group(0)
        body = m.group(3)
        for col, v in by_row.pop(r).items():
            ref = f"{col}{r}"
            cell = re.search(r'<c r="%s"(\s[^>]*?)?(/>|>.*?</c>)' % ref, body, re.S)
            attrs = re.sub(r'\s+t="[^"]*"', "", (cell.group(1) or "") if cell else "")
            new = cell_xml(ref, attrs, v)
            if cell:
                body = body[:cell.start()] + new + body[cell.end():]
                continue
            at = len(body)  # insert before the first cell of a later column
            for c in re.finditer(r'<c r="([A-Z]+)\d+"', body):
                if column_index_from_string(c.group(1)) > column_index_from_string(col):
                    at = c.start()
                    break
            body = body[:at] + new + body[at:]
        return m.group(1) + body + "</row>"

    # an empty row is written <row r="5"/>: made <row r="5"></row> first, so one pattern
    # reads every row
    xml = re.sub(r'(<row r="\d+"[^>]*?)/>', r"\1></row>", xml)
    xml = re.sub(r'(<row r="(\d+)"[^>]*>)(.*?)</row>', patch_row, xml, flags=re.S)
    if by_row:  # rows the sheet does not have yet, each before the first later row
        xml = re.sub(r"<sheetData\s*/>", "<sheetData></sheetData>", xml)
        for r in sorted(by_row):
            row = patch_row(re.match(r'(<row r="(\d+)">)()</row>', f'<row r="{r}"></row>'))
            later = next((m for m in re.finditer(r'<row r="(\d+)"', xml)
                          if int(m.group(1)) > r), None)
            at = later.start() if later else xml.index("</sheetData>")
            xml = xml[:at] + row + xml[at:]
        xml = _grown_dimension(xml)
    tmp = path.with_name(path.name + ".typing")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in entries:
            out.writestr(info, xml.encode("utf-8") if info.filename == part else data)
    os.replace(tmp, path)


def _grown_dimension(xml: str) -> str:
    """The sheet XML with its ``<dimension ref>`` covering every cell it holds."""
    import re

    from openpyxl.utils import column_index_from_string, get_column_letter
    refs = re.findall(r'<c r="([A-Z]+)(\d+)"', xml)
    if not refs:
        return xml
    last_col = max(column_index_from_string(c) for c, _ in refs)
    last_row = max(int(r) for _, r in refs)
    m = re.search(r'<dimension ref="([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?"\s*/>', xml)
    if m is None:
        return xml
    c1, r1 = m.group(1), int(m.group(2))
    c2 = column_index_from_string(m.group(3) or m.group(1))
    r2 = int(m.group(4) or m.group(2))
    ref = (f"{c1}{r1}:{get_column_letter(max(c2, last_col))}{max(r2, last_row)}")
    return xml[:m.start()] + f'<dimension ref="{ref}"/>' + xml[m.end():]


def type_numbers(path: Path, sheet: str, cells: dict[tuple[int, str], float]) -> None:
    """:func:`type_cells` of numbers."""
    type_cells(path, sheet, cells)


def awards_wait_for_rank(path: Path, run, *words: str) -> None:
    """``awards`` on ``path`` refuses (exit 2, every one of ``words`` in its message, the file
    unchanged); after ``rank`` it runs. ``run``: the CLI runner of the calling test module."""
    before = digest(path)
    res = run("awards", path)
    text = " ".join(res.output.split())
    assert res.exit_code == 2 and all(w in text for w in words), text
    assert digest(path) == before
    assert run("rank", path).exit_code == 0 and run("awards", path).exit_code == 0
