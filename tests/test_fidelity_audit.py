"""docs/fidelity-audit.md is the living clause-by-clause checklist of the five 规程: this test keeps
it honest.

It parses every table row whose first cell is an id (SZ-, QD-, FJ-, OT-, CB- and two digits) and
fails when

* an id of the shared audit (``tests/data/fidelity/ids.txt``, see its PROVENANCE.md) is missing,
  or an id appears twice;
* a row's status is WRONG, or not one of IMPLEMENTED, AMBIGUOUS, MISSING-BY-DESIGN, MISSING;
* an IMPLEMENTED or AMBIGUOUS row names no setting or no test, or a named test
  (``tests/<file>.py::<function>`` or ``tests/<file>.py::<Class>::<method>``) does not exist;
* a named test's source (its function, docstring included, and the docstring of its test class)
  mentions neither the row id nor the row's clause number (see :func:`clause_keys`);
* an AMBIGUOUS or MISSING-BY-DESIGN row has no note saying the reading or why;
* a setting key of an IMPLEMENTED or AMBIGUOUS row is not a 设置项 of its preset's 规程 sheet;
* the summary counts disagree with the rows.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "fidelity-audit.md"
IDS = Path(__file__).parent / "data" / "fidelity" / "ids.txt"

ID = re.compile(r"^(SZ|QD|FJ|OT|CB)-\d{2}$")
TEST_REF = re.compile(r"tests/[\w/]+\.py(?:::\w+)+")
STATUSES = ("IMPLEMENTED", "AMBIGUOUS", "MISSING-BY-DESIGN", "MISSING")
NEEDS_TEST = ("IMPLEMENTED", "AMBIGUOUS")
NUMERAL = "一二三四五六七八九十百"


def rows() -> list[dict]:
    """The table rows of the doc: id, clause, rule, status, setting, test, notes (str)."""
    out = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not cells or not ID.match(cells[0]) or len(cells) < 7:
            continue
        keys = ("id", "clause", "rule", "status", "setting", "test", "notes")
        row = dict(zip(keys, cells[:6] + [" | ".join(cells[6:])]))
        row["status"] = row["status"].replace("*", "").strip()
        out.append(row)
    return out


def status_of(row: dict) -> str:
    """The status word: the cell may carry a bracketed kind after it (``MISSING-BY-DESIGN [doc]``)."""
    return row["status"].split()[0] if row["status"] else ""


def normalize(text: str) -> str:
    """Full-width brackets to ASCII, spaces and the soft separators dropped."""
    text = text.replace("（", "(").replace("）", ")").replace("，", ",")
    return re.sub(r"[\s`*]", "", text)


def _parts(clause: str) -> list[str]:
    """A clause cell split into its clause numbers: on ``;``/``；``/`` v ``/``、`` and words of
    document names dropped (``象棋 四9`` → ``四9``, ``单项 十（五）（3）`` → ``十(五)(3)``)."""
    out = []
    for part in re.split(r"[;；]| v |、|,", clause.replace("（", "(").replace("）", ")")):
        part = part.strip()
        if not part:
            continue
        out.append(part.split()[-1])
    return out


def _components(part: str) -> list[str]:
    return re.findall(rf"[{NUMERAL}]+|\([^)]*\)|\d+|第[^条]*条|[^{NUMERAL}()\d]+", part)


def clause_keys(clause: str) -> list[str]:
    """Strings any of which, found in a test's normalized source, counts as quoting the clause:
    each clause number of the cell, and its prefixes down to three components
    (``十六(二)2(1)(2)`` → also ``十六(二)2(1)``, ``十六(二)2``). A bare one- or two-character
    number (``四``, ``五``) is matched only as a whole clause token (see :func:`mentions`)."""
    keys = []
    for part in _parts(clause):
        comps = _components(normalize(part))
        if not comps:
            continue
        for k in range(len(comps), min(3, len(comps)) - 1, -1):
            key = "".join(comps[:k])
            if key not in keys:
                keys.append(key)
    return keys


def mentions(source: str, row: dict) -> bool:
    src = normalize(source)
    light = source.replace("（", "(").replace("）", ")")   # spaces kept: token boundaries
    if row["id"] in source:
        return True
    for key in clause_keys(row["clause"]):
        if len(key) >= 3 and key in src:
            return True
        if len(key) < 3 and re.fullmatch(rf"[{NUMERAL}]+", key):
            # a bare section number: only as a token of its own (``四:`` — not ``十四(三)``)
            if re.search(rf"(?<![{NUMERAL}\d(]){key}(?=[\s:：,，;；.。、)]|$)", light):
                return True
        elif len(key) < 3 and re.search(rf"(?<![{NUMERAL}\d(]){re.escape(key)}(?![\d(])", src):
            return True
    return False


@lru_cache(maxsize=None)
def _tree(path: str):
    p = ROOT / path
    return ast.parse(p.read_text(encoding="utf-8")), p.read_text(encoding="utf-8")


def source_of(ref: str) -> str | None:
    """Source of the test function ``ref`` names (None when it does not exist)."""
    path, *names = ref.split("::")
    if not (ROOT / path).is_file():
        return None
    tree, text = _tree(path)
    body = tree.body
    node = None
    context = []   # docstrings of the enclosing test classes (they quote for all their methods)
    for name in names:
        node = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                     and n.name == name), None)
        if node is None:
            return None
        if isinstance(node, ast.ClassDef):
            context.append(ast.get_docstring(node) or "")
        body = node.body
    if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
        return None
    return "\n".join(context + [ast.get_source_segment(text, node)])


ROWS = rows()


def test_every_id_of_the_shared_audit_is_kept_once():
    want = [x for x in IDS.read_text(encoding="utf-8").split() if x]
    have = [r["id"] for r in ROWS]
    assert len(want) == 173
    assert sorted(set(want) - set(have)) == []
    assert sorted({x for x in have if have.count(x) > 1}) == []
    assert sorted(set(have) - set(want)) == []


def test_no_row_is_wrong_and_every_status_is_known():
    bad = [(r["id"], r["status"]) for r in ROWS if status_of(r) not in STATUSES]
    assert bad == []
    assert not [r["id"] for r in ROWS if "WRONG" in r["status"]]


@pytest.mark.parametrize("row", [r for r in ROWS if status_of(r) in NEEDS_TEST],
                         ids=lambda r: r["id"])
def test_implemented_and_ambiguous_rows_have_a_setting_and_a_quoting_test(row):
    assert "`" in row["setting"], f"{row['id']}: no setting key"
    refs = TEST_REF.findall(row["test"])
    assert refs, f"{row['id']}: no test"
    for ref in refs:
        src = source_of(ref)
        assert src is not None, f"{row['id']}: {ref} does not exist"
        assert mentions(src, row), (
            f"{row['id']}: {ref} mentions neither {row['id']} nor clause {row['clause']!r}")


@pytest.mark.parametrize("row", [r for r in ROWS if status_of(r) in ("AMBIGUOUS",
                                                                      "MISSING-BY-DESIGN")],
                         ids=lambda r: r["id"])
def test_readings_and_reasons_are_written(row):
    assert len(row["notes"]) >= 10, f"{row['id']}: the reading / the reason is not written"


def test_summary_counts_follow_the_rows():
    text = DOC.read_text(encoding="utf-8")
    prefix = {"shenzhen-guandan-pairs-2023": "SZ", "qingdao-gouji-2015": "QD",
              "fujian-elder-mind-games-2024": "FJ", "otog-mind-games-2024": "OT",
              "cbsa-chinese-eightball-open-2022": "CB"}
    seen = 0
    for reg, p in prefix.items():
        m = re.search(rf"^\| {re.escape(reg)} \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|",
                      text, re.M)
        assert m, f"summary row of {reg} missing"
        mine = [status_of(r) for r in ROWS if r["id"].startswith(p)]
        want = [len(mine)] + [mine.count(s) for s in STATUSES]
        assert [int(x) for x in m.groups()] == want, reg
        seen += 1
    assert seen == 5


@pytest.mark.parametrize("clause,source,hit", [
    ("十六（二）2（1）（2）", "十六（二）2(2) …", True),
    ("九 第一条2", "九第一条2: 每轮比赛打三局", True),
    ("象棋 四9", "象棋 四9 / 围棋 四（七）", True),
    ("单项 十（二）、十（五）（2）", "十（五）（1）视参赛人数", False),
    ("四", "四: 性别不限、年龄不超过55周岁", True),
    ("四", "十四（三）", False),
    ("五", "九（二）60%", False),
])
def test_the_clause_matcher(clause, source, hit):
    assert mentions(source, {"id": "XX-00", "clause": clause}) is hit


# ---------------------------------------------------------------- setting keys exist

PRESET = {"SZ": "shenzhen-guandan-pairs-2023", "QD": "qingdao-gouji-2015",
          "FJ": "fujian-elder-mind-games-2024", "OT": "otog-mind-games-2024",
          "CB": "cbsa-chinese-eightball-open-2022"}
OTHER = {"*bridge*": "fujian-elder-bridge-teams", "*teams*": "otog-bridge-teams"}


@lru_cache(maxsize=None)
def sheet_paths(preset: str) -> tuple[str, ...]:
    """Column 设置项 of the 规程 sheet the preset's workbook gets."""
    from bianpai.templates.presets_io import load_preset
    from bianpai.workbooks.settings import settings_rows
    return tuple(str(r[0]) for r in settings_rows(load_preset(preset))[1:] if r[0])


def key_patterns(key: str) -> list[str]:
    """Regexes of the sheet paths a doc key stands for: ``[a..b]`` expands, ``[*]`` is any index
    (or the shared ``[*]`` row), ``x/y`` in the last segment are alternatives, ``*`` inside a
    name is any name part."""
    head, _, last = key.rpartition(".")
    alts = last.split("/")
    # alternatives in the last segment: a.b.kind/rounds → a.b.kind, a.b.rounds
    keys = [f"{head}.{a}" if head else a for a in alts] if "/" in last else [key]
    out = []
    for k in keys:
        ranges = re.findall(r"\[(\d+)\.\.(\d+)\]", k)
        variants = [k]
        for a, b in ranges:
            variants = [v.replace(f"[{a}..{b}]", f"[{i}]", 1) for v in variants
                        for i in range(int(a), int(b) + 1)]
        for v in variants:
            out.append("".join(
                r"\[(?:\d+|\*)\]" if t == "[*]" else
                rf"\[(?:{t[1:-1]}|\*)\]" if t.startswith("[") else
                r"\w*" if t == "*" else re.escape(t)
                for t in re.findall(r"\[\*\]|\[\d+\]|\*|[^[*]+|\[", v)))
    return out


def key_found(key: str, paths: tuple[str, ...]) -> bool:
    for rx in key_patterns(key):
        if any(re.fullmatch(rx + r"(?:[.\[].*)?", p) for p in paths):
            continue
        trimmed = re.sub(r"\\\[\(\?:\d+\|\\\*\)\\\]$", "", rx)   # a list value: criteria[1]
        if trimmed != rx and any(re.fullmatch(trimmed, p) for p in paths):
            continue
        return False
    return True


@pytest.mark.parametrize("row", [r for r in ROWS if status_of(r) in NEEDS_TEST],
                         ids=lambda r: r["id"])
def test_setting_keys_are_rows_of_the_regulation_sheet(row):
    """Every setting key of an IMPLEMENTED / AMBIGUOUS row is a 设置项 of the 规程 sheet of its
    preset (``*bridge*`` / ``*teams*``: the bridge team preset of the same 规程)."""
    missing = []
    for part in re.split(r"[;；]", row["setting"]):
        preset = next((p for mark, p in OTHER.items() if mark in part), PRESET[row["id"][:2]])
        for key in re.findall(r"`([^`]+)`", part):
            if not key_found(key, sheet_paths(preset)):
                missing.append(f"{preset}: {key}")
    assert missing == []
