"""The package's parts: namespaces, relationships, sheet parts, and what a regenerated or
deleted sheet would lose (:func:`losses`). Part of :mod:`bianpai.workbooks.package`."""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Iterable

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
