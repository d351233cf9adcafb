"""The arrows point one way: addin → workbooks → templates → engines (DESIGN.md)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["engines", "templates", "workbooks", "addin"]
FORBIDDEN_IN_ENGINES = {"openpyxl", "xlwings", "xlsxwriter", "typer", "rich"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


@pytest.mark.parametrize("layer", LAYERS)
def test_no_arrow_points_up(layer):
    above = LAYERS[LAYERS.index(layer) + 1:]
    for f in (ROOT / layer).glob("*.py"):
        for mod in imports(f):
            for up in above:
                assert not mod.startswith(f"bianpai.{up}"), f"{f.name} imports {mod}"


def test_engines_touch_no_file_or_excel():
    for f in (ROOT / "engines").glob("*.py"):
        mods = {m.split(".")[0] for m in imports(f)}
        assert not mods & FORBIDDEN_IN_ENGINES, f"{f.name}: {mods & FORBIDDEN_IN_ENGINES}"
        text = f.read_text(encoding="utf-8")
        assert "open(" not in text.replace("isopen(", ""), f"{f.name} opens a file"


def test_no_module_over_500_lines():
    """Issue "One competition core": no module over ~500 lines (split by concept)."""
    long = {f"{f.parent.name}/{f.name}": n
            for layer in ("addin", "engines", "workbooks", "templates")
            for f in (ROOT / layer).glob("*.py")
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long
