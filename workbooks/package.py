"""Package-preserving save: rewrite only the sheets a command changed, keep every other part.

openpyxl reads a workbook into its own model and, on save, writes the whole package anew: what
it does not model is lost (x14 data validations, charts, images, shapes, comments' VML, slicers,
printer settings…), and every formula loses its cached result. bianpai's commands only ever
*generate* whole sheets (排名, 对阵, 校验…), *append* cells to a typed sheet (a new 成绩 row, the
status on 操作) or *delete* a generated sheet. So :func:`save_package` copies the original zip
package and replaces only:

* the XML of each regenerated or new sheet: its properties, columns, merges, validations, print
  setup and tables by openpyxl's own ``WorksheetWriter``, its cells written as text
  (:class:`~bianpai.workbooks.package_cells.SheetCells`, the same cells openpyxl's writer would
  write), its style indices moved into the original ``styles.xml`` (:class:`StyleMerger`
  appends what is missing, never renumbers what is there);
* the cells appended to a kept sheet, patched into its original XML (every other cell, formula
  and cached value untouched), growing its table over the new rows;
* ``workbook.xml`` (sheet list, defined names re-indexed, print titles of regenerated sheets),
  its relationships and ``[Content_Types].xml``; ``calcChain.xml`` is dropped (Excel rebuilds it);
* ``docProps/custom.xml`` when the command wrote a custom document property
  (:mod:`~bianpai.workbooks.package_props`: the record of 抽签 of a style without hidden copies).

Every other part — untouched sheets, drawings, charts, media, VBA, custom XML, themes — is copied
byte for byte. Before writing, :func:`losses` names what a regenerated or deleted sheet holds
that its new version will not (a chart the user put on 排名…), so the caller can refuse.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field

from lxml import etree

# the pieces, one concept a module; their names stay importable from here
from bianpai.workbooks.package_cells import (_col_index, _grow_tables,  # noqa: F401
                                             _patch_cells, _serialise_sheet)
from bianpai.workbooks.package_cells import sheet_xml as _sheet_part
from bianpai.workbooks.package_parts import (BUILTIN_NAMES, CALC_CHAIN_TYPE, CT,  # noqa: F401
                                             MAIN, PKG_REL, REL, TABLE_CT, TABLE_REL_TYPE, WS_CT,
                                             WS_REL_TYPE, PackageError, _office_document, _q,
                                             _rels, _sheet_parts, _xml, losses, rels_path,
                                             resolve)
from bianpai.workbooks.package_charts import write_charts
from bianpai.workbooks.package_props import write_custom_part
from bianpai.workbooks.package_styles import StyleMerger, _restyle  # noqa: F401


# -- the save -------------------------------------------------------------------------------------

@dataclass
class Changes:
    """What one command did to the workbook, as the port recorded it."""

    rewritten: list[str] = field(default_factory=list)  # regenerated or new sheets (titles)
    deleted: set[str] = field(default_factory=set)  # original sheets removed
    # kept sheets with cells written: {sheet: {(row, col): keep_original_style}}
    appended: dict[str, dict[tuple[int, int], bool]] = field(default_factory=dict)
    properties: bool = False  # custom document properties written (package_props)
    # the worksheet holding a kept sheet's appended cells when it is not the workbook's own
    # (a sheet never parsed: bianpai.workbooks.kept_appends)
    cells_of: dict[str, object] = field(default_factory=dict)
    # regenerated sheets whose cells were planned, not made (bianpai.workbooks.cell_plan)
    planned: dict[str, object] = field(default_factory=dict)

    def cells(self, wb, title: str):
        """The worksheet whose cells ``appended[title]`` names."""
        ws = self.cells_of.get(title)
        return wb[title] if ws is None else ws

    def __bool__(self) -> bool:
        return bool(self.rewritten or self.deleted or self.appended or self.properties)


def _quote(title: str) -> str:
    from openpyxl.utils import quote_sheetname
    return quote_sheetname(title)


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
        sheet_xml: dict[str, tuple[bytes, object, object]] = {}
        for t in rewritten:
            sheet_xml[t] = _serialise_sheet(wb[t], changes.planned.get(t))
        # appended cells: their style ids are taken now so that the stylesheet holds them
        for t, cells in changes.appended.items():
            if t in final and t not in rewritten and t in part_by_title:
                ws = changes.cells(wb, t)
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
            n = start  # not a removed part's name either: that part is left out of the zip
            while pattern.format(n) in used_parts or pattern.format(n) in removed:
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
            data, srels, cells = sheet_xml[t]
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
                write_charts(ws, srels, chart_taken, out, new_overrides)
            out[part] = _sheet_part(data, cells, merger)
            rp = rels_path(part)
            if len(srels):
                out[rp] = tostring(srels.to_tree())
                removed.discard(rp)

        for t, cells in changes.appended.items():
            if t in final and t not in rewritten and t in part_by_title and cells:
                part = part_by_title[t]
                ws = changes.cells(wb, t)
                out[part] = _patch_cells(z.read(part), ws, cells, merger)
                _grow_tables(z, part, ws, out)

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

        if changes.properties:  # a record bianpai keeps outside the sheets (package_props)
            write_custom_part(z, wb, out, new_overrides)

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
    """Copy one member unchanged: its bytes as stored (compressed), not decompressed and
    compressed again, which was a tenth of a save. A member the raw copy cannot take as it is
    (encrypted, a local header that does not match the directory, a damaged archive) is
    decompressed and written again instead."""
    raw = _raw_member(zin, info)
    if raw is None:
        zout.writestr(info, zin.read(info), compress_type=info.compress_type)
        return
    zi = zipfile.ZipInfo(info.filename, info.date_time)
    for attr in ("compress_type", "comment", "extra", "create_system", "create_version",
                 "extract_version", "external_attr", "internal_attr", "CRC", "compress_size",
                 "file_size"):
        setattr(zi, attr, getattr(info, attr))
    zi.flag_bits = info.flag_bits & ~0x08  # sizes in the local header, no data descriptor
    zi.extra = b""  # a zip64 extra is written again by FileHeader when the sizes need it
    with zout._lock:
        zi.header_offset = zout.fp.tell()
        zout._writecheck(zi)
        zout._didModify = True
        zout.fp.write(zi.FileHeader())
        zout.fp.write(raw)
        zout.start_dir = zout.fp.tell()
        zout.filelist.append(zi)
        zout.NameToInfo[zi.filename] = zi


def _raw_member(zin: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    """The stored (compressed) bytes of member ``info``, or ``None`` when they cannot be taken
    as they are."""
    import struct  # noqa: PLC0415
    if info.flag_bits & 0x01 or info.compress_type not in (zipfile.ZIP_STORED,
                                                           zipfile.ZIP_DEFLATED):
        return None
    try:
        fp = zin.fp
        fp.seek(info.header_offset)
        head = fp.read(zipfile.sizeFileHeader)
        if len(head) != zipfile.sizeFileHeader or head[:4] != zipfile.stringFileHeader:
            return None
        fh = struct.unpack(zipfile.structFileHeader, head)
        name = fp.read(fh[zipfile._FH_FILENAME_LENGTH])
        if name.decode("utf-8" if info.flag_bits & 0x800 else "cp437") != info.orig_filename:
            return None
        fp.seek(fh[zipfile._FH_EXTRA_FIELD_LENGTH], 1)
        raw = fp.read(info.compress_size)
    except (OSError, struct.error, UnicodeDecodeError, AttributeError):
        return None
    return raw if len(raw) == info.compress_size else None
