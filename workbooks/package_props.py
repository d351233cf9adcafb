"""Texts a workbook carries outside its sheets: custom document properties (docProps/custom.xml,
what Excel shows under File → Properties → Custom), for
:meth:`~bianpai.workbooks.openpyxl_port.OpenpyxlPort.read_property` and ``write_property``.

A text is kept in parts of at most :data:`PART` characters, named ``name.1``, ``name.2`` …
(Excel keeps a text property of up to 255 characters), so that Excel, WPS and LibreOffice keep
it whole when they save the file. :func:`write_custom_part` puts the workbook's properties into
a package being saved by :func:`bianpai.workbooks.package.save_package` (which otherwise copies
docProps/custom.xml as it was); openpyxl's whole-workbook save writes them by itself.
"""

from __future__ import annotations

from lxml import etree
from openpyxl.packaging.custom import CustomPropertyList, StringProperty

from bianpai.workbooks.package_parts import CT, PKG_REL, _q, _xml, resolve

#: characters of one property's text
PART = 255
CUSTOM_PART = "docProps/custom.xml"
CUSTOM_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"
CUSTOM_CT = "application/vnd.openxmlformats-officedocument.custom-properties+xml"


def read_text(props: CustomPropertyList, name: str) -> str | None:
    """The text kept under ``name`` (its parts joined), ``None`` when there is none."""
    have = {p.name: p.value for p in props}
    parts, i = [], 1
    while f"{name}.{i}" in have:
        parts.append(str(have[f"{name}.{i}"] or ""))
        i += 1
    return "".join(parts) if parts else None


def write_text(props: CustomPropertyList, name: str, text: str | None) -> None:
    """Keep ``text`` under ``name`` (replacing what was there; ``None`` removes it)."""
    for p in [p for p in props if p.name.rpartition(".")[0] == name]:
        del props[p.name]
    for i in range(0, len(text or ""), PART):
        props.append(StringProperty(name=f"{name}.{i // PART + 1}", value=text[i:i + PART]))


def write_custom_part(z, wb, out: dict[str, bytes], new_overrides: dict[str, str]) -> None:
    """Put ``wb.custom_doc_props`` into the package ``z`` being saved: into the part the package
    relationships name (created with its relationship and content type when there is none)."""
    from openpyxl.xml.functions import tostring
    rels = etree.fromstring(out.get("_rels/.rels") or z.read("_rels/.rels"))
    rel = next((r for r in rels if r.get("Type") == CUSTOM_REL), None)
    if rel is not None:
        part = resolve("", rel.get("Target"))
    else:
        part = CUSTOM_PART
        ids = {r.get("Id") for r in rels}
        n = 1
        while f"rId{n}" in ids:
            n += 1
        etree.SubElement(rels, _q("Relationship", PKG_REL), Id=f"rId{n}", Type=CUSTOM_REL,
                         Target=part)
        out["_rels/.rels"] = _xml(rels)
        ctypes = etree.fromstring(z.read("[Content_Types].xml"))
        if not any(o.get("PartName") == "/" + part for o in ctypes.iter(_q("Override", CT))):
            new_overrides["/" + part] = CUSTOM_CT
    out[part] = tostring(wb.custom_doc_props.to_tree())
