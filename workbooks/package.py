"""Package-preserving save: rewrite only the sheets a command changed, keep every other part.

openpyxl reads a workbook into its own model and, on save, writes the whole package anew: what
it does not model is lost (x14 data validations, charts, images, shapes, comments' VML, slicers,
printer settings…), and every formula loses its cached result. bianpai's commands only ever
*generate* whole sheets (排名, 对阵, 校验…), *append* cells to a typed sheet (a new 成绩 row, the
status on 操作) or *delete* a generated sheet. So :func:`save_package` copies the original zip
package and replaces only:

* the XML of each regenerated or new sheet, serialised by openpyxl's own ``WorksheetWriter``
  (with its tables), its style indices moved into the original ``styles.xml``
  (:class:`StyleMerger` appends what is missing, never renumbers what is there);
* the cells appended to a kept sheet, patched into its original XML (every other cell, formula
  and cached value untouched), growing its table over the new rows;
* ``workbook.xml`` (sheet list, defined names re-indexed, print titles of regenerated sheets),
  its relationships and ``[Content_Types].xml``; ``calcChain.xml`` is dropped (Excel rebuilds it).

Every other part — untouched sheets, drawings, charts, media, VBA, custom XML, themes — is copied
byte for byte. Before writing, :func:`losses` names what a regenerated or deleted sheet holds
that its new version will not (a chart the user put on 排名…), so the caller can refuse.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Iterable
from copy import deepcopy
from dataclasses import dataclass, field

from lxml import etree

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
WS_REL_TYPE = REL + "/worksheet"
TABLE_REL_TYPE = REL + "/table"
CALC_CHAIN_TYPE = REL + "/calcChain"
WS_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
TABLE_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"
BUILTIN_NAMES = ("_xlnm.Print_Titles", "_xlnm.Print_Area", "_xlnm._FilterDatabase")


def _q(tag: str, ns: str = MAIN) -> str:
    return f"{{{ns}}}{tag}"


def _xml(root) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def rels_path(part: str) -> str:
    d, f = posixpath.split(part)
    return posixpath.join(d, "_rels", f + ".rels")


def resolve(base_part: str, target: str) -> str:
    """The part name a relationship target of ``base_part`` points to."""
    if target.startswith("/"):
        return target[1:]
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_part), target))


class PackageError(Exception):
    """The package is not one this module can edit (the caller falls back or refuses)."""


# -- what a regenerated or deleted sheet would lose ---------------------------------------------

#: (XML test on the sheet, Chinese, English) — features a regenerated sheet never carries.
_FEATURES = [
    ("conditionalFormatting", "条件格式", "conditional formats"),
    ("hyperlinks", "超链接", "hyperlinks"),
    ("picture", "背景图片", "background picture"),
    ("oleObjects", "嵌入对象", "embedded objects"),
    ("controls", "控件", "form controls"),
]


def _sheet_parts(z: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> part name of every worksheet in the package."""
    names = set(z.namelist())
    wb_part = _office_document(z)
    wbx = etree.fromstring(z.read(wb_part))
    rels = _rels(z, wb_part)
    out = {}
    sheets = wbx.find(_q("sheets"))
    for el in (sheets if sheets is not None else []):
        rid = el.get(_q("id", REL))
        rel = rels.get(rid)
        if rel is not None:
            part = resolve(wb_part, rel.get("Target"))
            if part in names:
                out[el.get("name")] = part
    return out


def _office_document(z: zipfile.ZipFile) -> str:
    root = etree.fromstring(z.read("_rels/.rels"))
    for r in root:
        if r.get("Type", "").endswith("/officeDocument"):
            return resolve("", r.get("Target"))
    raise PackageError("no officeDocument relationship")


def _rels(z: zipfile.ZipFile, part: str) -> dict[str, etree._Element]:
    name = rels_path(part)
    if name not in z.namelist():
        return {}
    return {r.get("Id"): r for r in etree.fromstring(z.read(name))}


def losses(path, sheets: Iterable[str], keep_validations: dict[str, set] | None = None,
           keep_charts: Iterable[str] = ()) -> dict[str, list[tuple[str, str]]]:
    """What each of ``sheets`` (to be regenerated or deleted) holds in the file at ``path`` that
    bianpai's new version will not: {sheet: [(中文, English), …]}, empty when nothing.

    ``keep_validations``: per sheet, the (sqref, formula1) pairs the new version writes again —
    an older dropdown of the same range and list is not a loss. ``keep_charts``: sheets whose
    new version draws its charts again (排名走势) — their older charts are not a loss.
    """
    keep_charts = set(keep_charts)
    out: dict[str, list[tuple[str, str]]] = {}
    with zipfile.ZipFile(path) as z:
        parts = _sheet_parts(z)
        names = set(z.namelist())
        for sheet in sheets:
            part = parts.get(sheet)
            if part is None:
                continue
            root = etree.fromstring(z.read(part))
            found: list[tuple[str, str]] = []
            rels = _rels(z, part)
            types = {r.get("Type", "").rsplit("/", 1)[-1]: r for r in rels.values()}
            drawing = root.find(_q("drawing"))
            if drawing is not None:
                rel = rels.get(drawing.get(_q("id", REL)))
                inner = {}
                if rel is not None:
                    dpart = resolve(part, rel.get("Target"))
                    if dpart in names:
                        inner = {r.get("Type", "").rsplit("/", 1)[-1]
                                 for r in _rels(z, dpart).values()}
                if "chart" in inner and sheet not in keep_charts:
                    found.append(("图表", "charts"))
                if "image" in inner:
                    found.append(("图片", "images"))
                if not {"chart", "image"} & set(inner):
                    found.append(("图形", "shapes"))
            if "comments" in types or root.find(_q("legacyDrawing")) is not None:
                found.append(("批注或按钮", "comments or buttons"))
            for tag, zh, en in _FEATURES:
                if root.find(_q(tag)) is not None:
                    found.append((zh, en))
            if "pivotTable" in types:
                found.append(("数据透视表", "pivot tables"))
            ext = root.find(_q("extLst"))
            if ext is not None and len(ext):
                found.append(("扩展内容（如跨表下拉列表、迷你图）",
                              "extensions (e.g. cross-sheet dropdowns, sparklines)"))
            dvs = root.find(_q("dataValidations"))
            if dvs is not None:
                kept = (keep_validations or {}).get(sheet, set())
                for dv in dvs:
                    f1 = dv.find(_q("formula1"))
                    key = (dv.get("sqref"), f1.text if f1 is not None else None)
                    # bianpai writes literal lists ("a,b") only; a list from a range, a number
                    # rule or a custom formula was made by hand
                    ours = (dv.get("type") == "list" and key[1] is not None
                            and key[1].startswith('"'))
                    if key not in kept and not ours:
                        found.append(("数据验证（下拉列表）", "data validations (dropdowns)"))
                        break
            if found:
                out[sheet] = found
    return out


# -- styles ---------------------------------------------------------------------------------------

_STYLE_ORDER = ["numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles",
                "dxfs", "tableStyles", "colors", "extLst"]


def _key(el) -> tuple:
    """A comparable form of an element (namespace-prefix and attribute-order free)."""
    return (etree.QName(el).localname, tuple(sorted(el.attrib.items())), (el.text or "").strip(),
            tuple(_key(c) for c in el if isinstance(c.tag, str)))


class StyleMerger:
    """Moves cell formats of openpyxl's stylesheet (``generated``) into the original
    ``styles.xml`` by appending what is missing; existing indices never change."""

    def __init__(self, original: bytes | None, generated: bytes):
        self.root = etree.fromstring(original) if original else etree.fromstring(generated)
        self.gen = etree.fromstring(generated)
        self.fresh = original is None  # no styles.xml in the package: take openpyxl's whole
        self.changed = self.fresh
        self._memo: dict[int, int] = {}

    def _section(self, tree, tag, create=False):
        el = tree.find(_q(tag))
        if el is None and create:
            el = etree.Element(_q(tag))
            pos = _STYLE_ORDER.index(tag)
            later = [tree.find(_q(t)) for t in _STYLE_ORDER[pos + 1:]]
            nxt = next((e for e in later if e is not None), None)
            if nxt is not None:
                nxt.addprevious(el)
            else:
                tree.append(el)
        return el

    def _add(self, tag: str, el) -> int:
        """Index of an element equal to ``el`` in section ``tag``, appended when missing."""
        sec = self._section(self.root, tag, create=True)
        items = [c for c in sec if isinstance(c.tag, str)]
        k = _key(el)
        for i, c in enumerate(items):
            if _key(c) == k:
                return i
        sec.append(deepcopy(el))
        sec.set("count", str(len(items) + 1))
        self.changed = True
        return len(items)

    def _numfmt(self, fid: int) -> int:
        if fid < 164:
            return fid
        gen = self._section(self.gen, "numFmts")
        code = next(e.get("formatCode") for e in gen if int(e.get("numFmtId")) == fid)
        sec = self._section(self.root, "numFmts", create=True)
        ids = [int(e.get("numFmtId")) for e in sec]
        for e in sec:
            if e.get("formatCode") == code:
                return int(e.get("numFmtId"))
        new = max(ids + [163]) + 1
        etree.SubElement(sec, _q("numFmt"), numFmtId=str(new), formatCode=code)
        sec.set("count", str(len(ids) + 1))
        self.changed = True
        return new

    def xf(self, index: int) -> int:
        """The original-stylesheet index of openpyxl's cell format ``index``."""
        if self.fresh:
            return index
        if index in self._memo:
            return self._memo[index]
        gen_xfs = [c for c in self._section(self.gen, "cellXfs") if isinstance(c.tag, str)]
        xf = deepcopy(gen_xfs[index])
        for attr, tag in (("fontId", "fonts"), ("fillId", "fills"), ("borderId", "borders")):
            if xf.get(attr) is not None:
                items = [c for c in self._section(self.gen, tag) if isinstance(c.tag, str)]
                xf.set(attr, str(self._add(tag, items[int(xf.get(attr))])))
        if xf.get("numFmtId") is not None:
            xf.set("numFmtId", str(self._numfmt(int(xf.get("numFmtId")))))
        xf.set("xfId", "0")
        out = self._add("cellXfs", xf)
        self._memo[index] = out
        return out

    def data(self) -> bytes:
        return _xml(self.root)


# -- the save -------------------------------------------------------------------------------------

@dataclass
class Changes:
    """What one command did to the workbook, as the port recorded it."""

    rewritten: list[str] = field(default_factory=list)  # regenerated or new sheets (titles)
    deleted: set[str] = field(default_factory=set)  # original sheets removed
    # kept sheets with cells written: {sheet: {(row, col): keep_original_style}}
    appended: dict[str, dict[tuple[int, int], bool]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.rewritten or self.deleted or self.appended)


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


def _restyle(root, merger: StyleMerger) -> None:
    for el in root.iter(_q("c"), _q("row")):
        s = el.get("s")
        if s is not None:
            el.set("s", str(merger.xf(int(s))))
    for el in root.iter(_q("col")):
        s = el.get("style")
        if s is not None:
            el.set("style", str(merger.xf(int(s))))


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
    for (r, c) in sorted(cells):
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


def _quote(title: str) -> str:
    from openpyxl.utils import quote_sheetname
    return quote_sheetname(title)


CHART_CT = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
DRAWING_CT = "application/vnd.openxmlformats-officedocument.drawing+xml"


def _fresh(pattern: str, taken: set[str]) -> tuple[str, int]:
    """The first ``pattern.format(n)`` (n ≥ 1) not in ``taken`` — never a name of the original
    package, so the old version's parts can go without clashing."""
    n = 1
    while pattern.format(n) in taken:
        n += 1
    taken.add(pattern.format(n))
    return pattern.format(n), n


def _write_charts(ws, srels, free_part, out: dict[str, bytes], overrides: dict[str, str]) -> None:
    """The drawing of a regenerated sheet's charts and the charts themselves, under part names
    ``free_part(pattern)`` gives; the sheet's drawing relationship pointed at the new drawing."""
    from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
    from openpyxl.xml.functions import tostring

    drawing = SpreadsheetDrawing()
    drawing.charts = list(ws._charts)
    dpart, drawing._id = free_part("xl/drawings/drawing{0}.xml")
    for chart in drawing.charts:
        cpart, chart._id = free_part("xl/charts/chart{0}.xml")
        out[cpart] = tostring(chart._write())
        overrides["/" + cpart] = CHART_CT
    out[dpart] = tostring(drawing._write())
    out[rels_path(dpart)] = tostring(drawing._write_rels())
    overrides["/" + dpart] = DRAWING_CT
    for r in srels:
        if "drawing" in r.Type:
            r.Target = "/" + dpart


def save_package(src, wb, changes: Changes, dest) -> None:
    """Write ``wb``'s changed sheets into a copy of the package at ``src``, saved at ``dest``
    (a path or a binary file). Raises :class:`PackageError` for a package it cannot edit."""
    from openpyxl.styles.stylesheet import write_stylesheet
    from openpyxl.xml.functions import tostring

    with zipfile.ZipFile(src) as z:
        names = z.namelist()
        nameset = set(names)
        wb_part = _office_document(z)
        wbx = etree.fromstring(z.read(wb_part))
        if etree.QName(wbx).namespace != MAIN:
            raise PackageError("not a transitional SpreadsheetML workbook")
        wrels_part = rels_path(wb_part)
        wrels = etree.fromstring(z.read(wrels_part))
        rel_by_id = {r.get("Id"): r for r in wrels}
        ctypes = etree.fromstring(z.read("[Content_Types].xml"))
        sheets_el = wbx.find(_q("sheets"))
        orig_els = list(sheets_el)
        orig_titles = [e.get("name") for e in orig_els]
        el_by_title = dict(zip(orig_titles, orig_els))
        part_by_title = {}
        for t, e in el_by_title.items():
            rel = rel_by_id.get(e.get(_q("id", REL)))
            if rel is not None:
                part_by_title[t] = resolve(wb_part, rel.get("Target"))

        out: dict[str, bytes] = {}  # replaced or new parts
        removed: set[str] = set()
        candidates: set[str] = set()  # parts owned by removed sheet versions

        def owned(part: str, seen: set[str]) -> None:
            rp = rels_path(part)
            if rp not in nameset or rp in seen:
                return
            seen.add(rp)
            removed.add(rp)
            for r in etree.fromstring(z.read(rp)):
                if r.get("TargetMode") == "External":
                    continue
                p = resolve(part, r.get("Target"))
                if p in nameset and p not in seen:
                    seen.add(p)
                    candidates.add(p)
                    owned(p, seen)

        # final sheet order: openpyxl's, with any sheet it did not load kept in place
        final = [s.title for s in wb._sheets]
        for i, t in enumerate(orig_titles):
            if t in final or t in changes.deleted:
                continue
            prev = next((p for p in reversed(orig_titles[:i]) if p in final), None)
            final.insert(final.index(prev) + 1 if prev else 0, t)
        rewritten = [t for t in changes.rewritten if t in final]
        deleted = [t for t in orig_titles if t not in final]

        # the active tab stays on the sheet it was on
        views = wbx.find(_q("bookViews"))
        view = views[0] if views is not None and len(views) else None
        old_active = int(view.get("activeTab", 0)) if view is not None else 0
        active_title = orig_titles[old_active] if old_active < len(orig_titles) else None

        def visible(t):
            if t in rewritten:
                return wb[t].sheet_state == "visible"
            return el_by_title[t].get("state", "visible") == "visible"

        if active_title not in final or not visible(active_title):
            active_title = next((t for t in final if visible(t)), final[0])
        for t in rewritten:
            wb[t].sheet_view.tabSelected = t == active_title

        # serialise regenerated sheets with openpyxl, tables numbered after the kept ones
        sheet_xml: dict[str, tuple[bytes, object]] = {}
        for t in rewritten:
            sheet_xml[t] = _serialise_sheet(wb[t])
        # appended cells: their style ids are taken now so that the stylesheet holds them
        for t, cells in changes.appended.items():
            if t in final and t not in rewritten and t in part_by_title:
                ws = wb[t]
                for (r, c), keep in cells.items():
                    if not keep and ws.cell(row=r, column=c).has_style:
                        ws.cell(row=r, column=c).style_id  # noqa: B018
        styles_rel = next((r for r in wrels if r.get("Type", "").endswith("/styles")), None)
        styles_part = resolve(wb_part, styles_rel.get("Target")) if styles_rel is not None else None
        merger = StyleMerger(z.read(styles_part) if styles_part in nameset else None,
                             tostring(write_stylesheet(wb)))

        # parts of the old versions of regenerated and deleted sheets go (unless shared)
        for t in rewritten + deleted:
            if t in part_by_title:
                owned(part_by_title[t], set())
        for t in deleted:
            if t in part_by_title:
                removed.add(part_by_title[t])

        used_parts = (nameset - removed - candidates) | set(out)
        table_ids = []
        for n in used_parts:
            if n.startswith("xl/tables/") and n.endswith(".xml"):
                try:
                    table_ids.append(int(etree.fromstring(z.read(n)).get("id")))
                except (TypeError, ValueError, etree.XMLSyntaxError):
                    pass
        next_table = max(table_ids + [0]) + 1

        def free_part(pattern: str, start: int) -> tuple[str, int]:
            n = start
            while pattern.format(n) in used_parts:
                n += 1
            used_parts.add(pattern.format(n))
            return pattern.format(n), n

        new_overrides: dict[str, str] = {}
        rel_ids = {r.get("Id") for r in wrels}
        sheet_ids = [int(e.get("sheetId")) for e in orig_els if e.get("sheetId", "").isdigit()]
        next_sheet_id = max(sheet_ids + [0]) + 1

        chart_taken = set(nameset) | used_parts  # part names a new chart/drawing may not take
        for t in rewritten:
            ws = wb[t]
            data, srels = sheet_xml[t]
            if t in part_by_title and t in el_by_title:
                part = part_by_title[t]
                el = el_by_title[t]
                removed.discard(part)
            else:
                part, _ = free_part("xl/worksheets/sheet{0}.xml", 1)
                n = 1
                while f"rId{n}" in rel_ids:
                    n += 1
                rid = f"rId{n}"
                rel_ids.add(rid)
                etree.SubElement(wrels, _q("Relationship", PKG_REL), Id=rid, Type=WS_REL_TYPE,
                                 Target=posixpath.relpath(part, posixpath.dirname(wb_part)))
                # made inside <sheets> so that r:id takes the workbook's own prefix
                el = etree.SubElement(sheets_el, _q("sheet"), name=t, sheetId=str(next_sheet_id))
                el.set(_q("id", REL), rid)
                next_sheet_id += 1
                el_by_title[t] = el
                new_overrides["/" + part] = WS_CT
            if ws.sheet_state == "visible":
                el.attrib.pop("state", None)
            else:
                el.set("state", ws.sheet_state)
            for table in ws.tables.values():
                tpart, _ = free_part("xl/tables/table{0}.xml", next_table)
                table.id = next_table
                next_table += 1
                out[tpart] = tostring(table.to_tree())
                srels.get(table._rel_id).Target = "/" + tpart
                new_overrides["/" + tpart] = TABLE_CT
            if ws._charts:  # bianpai's own charts (排名走势): a new drawing and chart parts
                _write_charts(ws, srels, lambda pat: _fresh(pat, chart_taken), out,
                              new_overrides)
            root = etree.fromstring(data)
            _restyle(root, merger)
            out[part] = _xml(root)
            rp = rels_path(part)
            if len(srels):
                out[rp] = tostring(srels.to_tree())
                removed.discard(rp)

        for t, cells in changes.appended.items():
            if t in final and t not in rewritten and t in part_by_title and cells:
                part = part_by_title[t]
                out[part] = _patch_cells(z.read(part), wb[t], cells, merger)
                _grow_tables(z, part, wb[t], out)

        # workbook.xml: sheets, defined names, views, calculation
        for t in deleted:
            sheets_el.remove(el_by_title[t])
        for i, t in enumerate(final):  # moved within <sheets>, never detached
            if sheets_el.index(el_by_title[t]) != i:
                sheets_el.insert(i, el_by_title[t])
        for t in deleted:
            rel = rel_by_id.get(el_by_title[t].get(_q("id", REL)))
            if rel is not None:
                wrels.remove(rel)
        names_el = wbx.find(_q("definedNames"))
        if names_el is None:
            names_el = etree.Element(_q("definedNames"))
            anchor = sheets_el
            for tag in ("functionGroups", "externalReferences"):
                if wbx.find(_q(tag)) is not None:
                    anchor = wbx.find(_q(tag))
            anchor.addnext(names_el)
        gone = re.compile("|".join(re.escape(_quote(t)) + "!" for t in deleted)) if deleted else None
        for d in list(names_el):
            lsid = d.get("localSheetId")
            if lsid is not None and lsid.isdigit():
                i = int(lsid)
                title = orig_titles[i] if i < len(orig_titles) else None
                if title is None or title in deleted:
                    names_el.remove(d)
                    continue
                if title in rewritten and d.get("name") in BUILTIN_NAMES:
                    names_el.remove(d)
                    continue
                d.set("localSheetId", str(final.index(title)))
            elif gone is not None and d.text:
                d.text = gone.sub("#REF!", d.text)
        for t in rewritten:
            ws = wb[t]
            i = str(final.index(t))
            for name, value, hidden in (("_xlnm._FilterDatabase",
                                         f"{_quote(t)}!{ws.auto_filter.ref}"
                                         if ws.auto_filter.ref else None, True),
                                        ("_xlnm.Print_Titles", ws.print_titles, False),
                                        ("_xlnm.Print_Area", ws.print_area, False)):
                if value:
                    d = etree.SubElement(names_el, _q("definedName"), name=name, localSheetId=i)
                    if hidden:
                        d.set("hidden", "1")
                    d.text = value
        if not len(names_el):
            names_el.getparent().remove(names_el)
        if view is not None:
            view.set("activeTab", str(final.index(active_title)))
            if view.get("firstSheet") is not None:
                first = int(view.get("firstSheet"))
                ft = orig_titles[first] if first < len(orig_titles) else None
                view.set("firstSheet", str(final.index(ft) if ft in final else 0))
        calc = wbx.find(_q("calcPr"))
        if calc is not None:
            calc.set("fullCalcOnLoad", "1")
        for r in list(wrels):
            if r.get("Type") == CALC_CHAIN_TYPE:
                removed.add(resolve(wb_part, r.get("Target")))
                wrels.remove(r)
        out[wb_part] = _xml(wbx)
        out[wrels_part] = _xml(wrels)
        if merger.changed and styles_part:
            out[styles_part] = merger.data()

        # parts owned only by removed sheet versions
        kept_rels = [n for n in (nameset | set(out)) - removed if n.endswith(".rels")]
        referenced = set()
        for n in kept_rels:
            base = n.replace("_rels/", "")[:-5] if n != "_rels/.rels" else ""
            root = etree.fromstring(out[n] if n in out else z.read(n))
            for r in root:
                if r.get("TargetMode") != "External" and r.get("Target"):
                    referenced.add(resolve(base, r.get("Target")))
        removed |= {p for p in candidates if p not in referenced and p not in out}

        for o in list(ctypes):
            if o.get("PartName") and o.get("PartName")[1:] in removed:
                ctypes.remove(o)
        for pn, ct in new_overrides.items():
            etree.SubElement(ctypes, _q("Override", CT), PartName=pn, ContentType=ct)
        out["[Content_Types].xml"] = _xml(ctypes)

        with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as zout:
            for info in z.infolist():
                n = info.filename
                if n in removed:
                    continue
                if n in out:
                    zi = zipfile.ZipInfo(n, date_time=info.date_time)
                    zi.compress_type = zipfile.ZIP_DEFLATED
                    zout.writestr(zi, out.pop(n))
                else:
                    _copy_raw(z, info, zout)
            for n, data in out.items():
                if n not in removed:
                    zout.writestr(n, data)


def _copy_raw(zin: zipfile.ZipFile, info: zipfile.ZipInfo, zout: zipfile.ZipFile) -> None:
    """Copy one member unchanged (its bytes as stored)."""
    zout.writestr(info, zin.read(info), compress_type=info.compress_type)
