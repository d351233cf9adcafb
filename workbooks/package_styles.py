"""Cell formats of a generated sheet moved into the original ``styles.xml``
(:class:`StyleMerger`). Part of :mod:`bianpai.workbooks.package`."""

from __future__ import annotations

from copy import deepcopy

from lxml import etree

from bianpai.workbooks.package_parts import _q, _xml

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


def _restyle(root, merger: StyleMerger) -> None:
    for el in root.iter(_q("c"), _q("row")):
        s = el.get("s")
        if s is not None:
            el.set("s", str(merger.xf(int(s))))
    for el in root.iter(_q("col")):
        s = el.get("style")
        if s is not None:
            el.set("style", str(merger.xf(int(s))))
