"""Sheet XML: a generated sheet serialised by openpyxl, cells appended to a kept sheet patched
into its original XML, and its tables grown over them. Part of :mod:`bianpai.workbooks.package`."""

from __future__ import annotations

import io
import re
import zipfile

from lxml import etree

from bianpai.workbooks.package_parts import (TABLE_REL_TYPE, PackageError, _q, _rels, _xml,
                                             resolve)
from bianpai.workbooks.package_styles import StyleMerger

class _Collector:
    def __init__(self):
        self.items = []

    def write(self, el):
        self.items.append(el)


def _serialise_sheet(ws) -> tuple[bytes, object]:
    from openpyxl.worksheet._writer import WorksheetWriter
    if ws._images:
        raise PackageError(f"sheet {ws.title!r} has images to write")
    writer = WorksheetWriter(ws, out=io.BytesIO())
    writer.write()
    if ws._comments or ws._hyperlinks:
        raise PackageError(f"sheet {ws.title!r} has comments or hyperlinks to write")
    return writer.read(), writer._rels


_CELL = re.compile(r"([A-Z]+)(\d+)")


def _col_index(ref: str) -> int:
    from openpyxl.utils import column_index_from_string
    return column_index_from_string(_CELL.match(ref).group(1))


def _patch_cells(data: bytes, ws, cells: dict[tuple[int, int], bool], merger: StyleMerger
                 ) -> bytes:
    """Write the in-memory values of ``cells`` of ``ws`` into its original sheet XML."""
    from openpyxl.cell._writer import etree_write_cell
    from openpyxl.utils import get_column_letter
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
            later = [n for n in rows if n > r]
            if later:
                rows[min(later)].addprevious(row)
            else:
                sd.append(row)
            rows[r] = row
        row.attrib.pop("spans", None)
        existing = {}
        col = 0
        for ce in row.findall(_q("c")):
            col = _col_index(ce.get("r")) if ce.get("r") else col + 1
            ce.set("r", f"{get_column_letter(col)}{r}")
            existing[col] = ce
        for c in cols:
            cell = ws.cell(row=r, column=c)
            sink = _Collector()
            etree_write_cell(sink, ws, cell, cell.has_style)
            new = sink.items[0]
            new = etree.fromstring(etree.tostring(new))  # an lxml element whatever openpyxl used
            _rename_ns(new)
            old = existing.get(c)
            if cells[(r, c)]:  # the cell's format did not change: keep the original index
                new.attrib.pop("s", None)
                if old is not None and old.get("s") is not None:
                    new.set("s", old.get("s"))
            elif new.get("s") is not None:
                new.set("s", str(merger.xf(int(new.get("s")))))
            if old is not None:
                old.addprevious(new)
                row.remove(old)
            else:
                after = [n for n in existing if n > c]
                if after:
                    existing[min(after)].addprevious(new)
                else:
                    row.append(new)
            existing[c] = new
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


def _rename_ns(el) -> None:
    """Put an element built without a namespace into the spreadsheet namespace."""
    for e in el.iter():
        if isinstance(e.tag, str) and not e.tag.startswith("{"):
            e.tag = _q(e.tag)


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
