"""Sheet XML: a generated sheet (its cells written as text, the rest by openpyxl), cells
appended to a kept sheet patched into its original XML, and its tables grown over them. Part
of :mod:`bianpai.workbooks.package`."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile

from lxml import etree

from bianpai.workbooks.package_parts import (MAIN, TABLE_REL_TYPE, PackageError, _q, _rels, _xml,
                                             resolve)
from bianpai.workbooks.package_styles import StyleMerger


def _serialise_sheet(ws, plan=None) -> tuple[bytes, object, "SheetCells"]:
    """A generated sheet's XML without its cells (openpyxl's ``WorksheetWriter`` for the sheet's
    properties, columns, merges, validations, print setup, tables…), its relationships, and its
    cells (:class:`SheetCells`), written into the ``sheetData`` by :func:`sheet_xml` once the
    cell formats have their indices in the original stylesheet."""
    from openpyxl.worksheet._writer import WorksheetWriter
    from openpyxl.worksheet.dimensions import SheetDimension

    class Skeleton(WorksheetWriter):
        def write_dimensions(self):  # the one computed with the cells
            self.xf.send(SheetDimension(cells.dimension).to_tree())

        def write_rows(self):  # an empty sheetData, filled by sheet_xml
            xf = self.xf.send(True)
            with xf.element("sheetData"):
                pass
            self.xf.send(None)

    if ws._images:
        raise PackageError(f"sheet {ws.title!r} has images to write")
    cells = SheetCells(ws, plan)  # before the writer: its table headers may make cells
    writer = Skeleton(ws, out=io.BytesIO())
    writer.write()
    if ws.legacy_drawing is not None:  # VBA's form buttons (a keep_vba load): as openpyxl does
        from openpyxl.packaging.relationship import Relationship
        writer._rels.append(Relationship(type="vmlDrawing", Id="anysvml",
                                         Target="/" + ws.legacy_drawing))
    if ws._comments or ws._hyperlinks:
        raise PackageError(f"sheet {ws.title!r} has comments or hyperlinks to write")
    return writer.read(), writer._rels, cells


_ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})


class SheetCells:
    """The cells of an openpyxl worksheet as openpyxl's own writer would put them in its
    ``sheetData`` (the same cells, values, types and formats), written as text: the writer's
    element-by-element serialisation was most of a command's save. Each cell format is
    registered in the workbook's style table now (as the writer does), so that the stylesheet
    written afterwards holds it; :meth:`xml` takes the final index of each."""

    def __init__(self, ws, plan=None):
        """The cells of ``ws``, or (``plan``) those a :class:`~bianpai.workbooks.cell_plan.
        CellPlan` of it holds without having made them."""
        from openpyxl.styles.cell_style import StyleArray
        from openpyxl.utils import get_column_letter
        wb = ws.parent
        styles = wb._cell_styles
        memo: dict[tuple, int] = {}
        rows: dict[int, list] = {}
        for r, c, style, data_type, value in (_cells_of(ws) if plan is None
                                               else plan.sorted_cells()):
            sid = None
            if style is not None and any(style):
                key = tuple(style)
                sid = memo.get(key)
                if sid is None:
                    sid = memo[key] = styles.add(style if plan is None else StyleArray(style))
            elif value is None:
                rows.setdefault(r, [])
                continue
            rows.setdefault(r, []).append((c, sid, data_type, value))
        dims = ws.row_dimensions
        for r in dims.keys() - rows.keys():
            rows[r] = []
        self.dimension = ws.calculate_dimension() if plan is None else plan.dimension()
        self.rows = sorted(rows.items())
        self.row_attrs = {r: dict(dims[r]) for r in dims.keys()}
        self.epoch = wb.epoch
        self.iso_dates = wb.iso_dates
        self.letters = {c: get_column_letter(c) for _, cs in self.rows for c, *_ in cs}
        self.title = ws.title

    def xml(self, xf) -> str:
        """The ``<sheetData>`` element; ``xf`` maps an openpyxl cell-format index to its index
        in the saved stylesheet."""
        out = ["<sheetData>"]
        add = out.append
        letters = self.letters
        xfs: dict[int, str] = {}
        for r, cells in self.rows:
            attrs = self.row_attrs.get(r)
            if attrs:
                if "s" in attrs:
                    attrs = dict(attrs, s=str(xf(int(attrs["s"]))))
                add(f'<row r="{r}"' + "".join(f' {k}="{v}"' for k, v in attrs.items()) + ">")
            else:
                add(f'<row r="{r}">')
            for c, sid, t, v in cells:
                head = f'<c r="{letters[c]}{r}"'
                if sid is not None:
                    s = xfs.get(sid)
                    if s is None:
                        s = xfs[sid] = str(xf(sid))
                    head += f' s="{s}"'
                add(_cell_text(head, t, v, self.iso_dates, self.epoch, self.title))
            add("</row>")
        add("</sheetData>")
        return "".join(out)


def _cells_of(ws):
    """``(row, column, style array, data type, stored value)`` of each of ``ws``'s cells, in
    row then column order; a comment or a hyperlink raises :class:`PackageError`."""
    by_pos = ws._cells
    order = list(by_pos)  # made row by row, usually: sorted only when not
    if any(a > b for a, b in zip(order, order[1:])):
        order.sort()
    for r, c in order:
        cell = by_pos[(r, c)]
        # (a merged range's other cells, openpyxl's MergedCell, have neither)
        if getattr(cell, "_comment", None) is not None or \
                getattr(cell, "_hyperlink", None) is not None:
            raise PackageError(f"sheet {ws.title!r} has comments or hyperlinks to write")
        yield r, c, cell._style, cell.data_type, cell._value


def _cell_text(head: str, t: str, v, iso_dates: bool, epoch, title: str) -> str:
    """One cell's XML as openpyxl's writer puts it: ``head`` is ``<c r=".." [s=".."]``, ``t``
    the cell's ``data_type``, ``v`` its value. Raises :class:`PackageError` for a type bianpai
    never writes (a formula)."""
    if t == "s":
        if v is None or v == "":
            return head + ' t="inlineStr"/>'
        if v != v.strip():
            return (f'{head} t="inlineStr"><is><t xml:space="preserve">'
                    f'{v.translate(_ESCAPE)}</t></is></c>')
        return f'{head} t="inlineStr"><is><t>{v.translate(_ESCAPE)}</t></is></c>'
    if t == "inlineStr" and v is None:  # read back from an empty inline string
        return head + ' t="inlineStr"/>'
    if t == "d":
        from openpyxl.utils.datetime import to_excel, to_ISO8601
        if getattr(v, "tzinfo", None) is not None:
            raise PackageError(f"sheet {title!r}: a date with a time zone to write")
        if iso_dates and not isinstance(v, dt.timedelta):
            v = to_ISO8601(v)
        else:
            t = "n"
            v = to_excel(v, epoch)
    elif t not in ("n", "b", "e"):
        raise PackageError(f"sheet {title!r}: a cell of type {t!r} to write")
    if v is None or v == "":
        return f'{head} t="{t}"/>'
    return f'{head} t="{t}"><v>{_text(v)}</v></c>'


def _text(v) -> str:
    """A cell value as openpyxl's writer puts it in ``<v>`` (``safe_string``), escaped."""
    from openpyxl.compat import safe_string
    return safe_string(v).translate(_ESCAPE)


def sheet_xml(skeleton: bytes, cells: SheetCells, merger: StyleMerger) -> bytes:
    """The sheet part: ``skeleton`` (the sheet without cells, from :func:`_serialise_sheet`)
    with its formats moved into the original stylesheet, its dimension, and ``cells``."""
    from bianpai.workbooks.package_styles import _restyle
    root = etree.fromstring(skeleton)
    _restyle(root, merger)
    sd = root.find(_q("sheetData"))
    if sd is None or len(sd):
        raise PackageError(f"sheet {cells.title!r}: no empty sheetData to fill")
    marker = "__bianpai_sheet_data__"
    sd.text = marker
    head, tail = _xml(root).split(f"<sheetData>{marker}</sheetData>".encode())
    return head + cells.xml(merger.xf).encode("utf-8") + tail


_CELL = re.compile(r"([A-Z]+)(\d+)")


def _col_index(ref: str) -> int:
    from openpyxl.utils import column_index_from_string
    return column_index_from_string(_CELL.match(ref).group(1))


def _insert_in_order(parent, by_index: dict[int, object], index: int, element) -> None:
    """Put ``element`` (a row ``r`` or a cell's column ``index``) into ``parent`` before the
    first child of a higher index in ``by_index`` (else last), and record it there: rows and
    cells of a sheet's XML must stay in order."""
    later = [n for n in by_index if n > index]
    if later:
        by_index[min(later)].addprevious(element)
    else:
        parent.append(element)
    by_index[index] = element


def _patch_cells(data: bytes, ws, cells: dict[tuple[int, int], bool], merger: StyleMerger
                 ) -> bytes:
    """Write the in-memory values of ``cells`` of ``ws`` into its original sheet XML (each
    cell written as openpyxl's writer writes it, :func:`_cell_text`; a row's cells parsed at
    once)."""
    from openpyxl.utils import get_column_letter
    wb = ws.parent
    root = etree.fromstring(data)
    sd = root.find(_q("sheetData"))
    rows: dict[int, object] = {}
    last = 0
    for row in sd.findall(_q("row")):
        r = int(row.get("r")) if row.get("r") else last + 1
        row.set("r", str(r))
        rows[r] = row
        last = r
    by_row: dict[int, list[int]] = {}
    for (r, c) in sorted(cells):
        by_row.setdefault(r, []).append(c)
    for r, cols in by_row.items():  # each row's cells read once, whatever it gets patched
        row = rows.get(r)
        if row is None:
            row = etree.Element(_q("row"), r=str(r))
            _insert_in_order(sd, rows, r, row)
        row.attrib.pop("spans", None)
        existing = {}
        col = 0
        for ce in row.findall(_q("c")):
            col = _col_index(ce.get("r")) if ce.get("r") else col + 1
            ce.set("r", f"{get_column_letter(col)}{r}")
            existing[col] = ce
        heads = []
        for c in cols:
            cell = ws.cell(row=r, column=c)
            old = existing.get(c)
            if cells[(r, c)]:  # the cell's format did not change: keep the original index
                s = old.get("s") if old is not None else None
            else:
                s = str(merger.xf(cell.style_id)) if cell.has_style else None
            head = f'<c r="{get_column_letter(c)}{r}"' + ("" if s is None else f' s="{s}"')
            heads.append(_cell_text(head, cell.data_type, cell._value, wb.iso_dates, wb.epoch,
                                    ws.title))
        made = etree.fromstring(f'<row xmlns="{MAIN}">{"".join(heads)}</row>')
        for c, new in zip(cols, list(made)):
            old = existing.get(c)
            if old is not None:
                old.addprevious(new)
                row.remove(old)
                existing[c] = new
            else:
                _insert_in_order(row, existing, c, new)
    dim = root.find(_q("dimension"))
    if dim is not None and rows:
        from openpyxl.utils.cell import range_boundaries
        try:
            c1, r1, c2, r2 = range_boundaries(dim.get("ref"))
        except (TypeError, ValueError):
            c1 = r1 = 1
            c2 = r2 = 1
        c2 = max(c2 or 1, max(c for _, c in cells))
        r2 = max(r2 or 1, max(r for r, _ in cells))
        dim.set("ref", f"{get_column_letter(c1 or 1)}{r1 or 1}:{get_column_letter(c2)}{r2}")
    return _xml(root)


def _grow_tables(z: zipfile.ZipFile, part: str, ws, out: dict[str, bytes]) -> None:
    for rel in _rels(z, part).values():
        if rel.get("Type") != TABLE_REL_TYPE:
            continue
        tpart = resolve(part, rel.get("Target"))
        root = etree.fromstring(z.read(tpart))
        t = ws.tables.get(root.get("displayName")) or ws.tables.get(root.get("name"))
        if t is None or t.ref == root.get("ref"):
            continue
        root.set("ref", t.ref)
        af = root.find(_q("autoFilter"))
        if af is not None:
            af.set("ref", t.ref)
        out[tpart] = _xml(root)
