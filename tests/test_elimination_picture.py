"""Bracket picture (issue 11 "Pictures and print"): a 16- and a 64-entrant bracket render to a
non-empty PNG and PDF."""

from __future__ import annotations

import random

import pytest

from bianpai.engines.core import StageEntrant, StageState
from bianpai.engines.elimination import SingleElimination, bracket_table
from bianpai.workbooks.bracket_picture import render_bracket

from tests.test_elimination import won


@pytest.mark.parametrize("n", [16, 64])
def test_renders_png_and_pdf(tmp_path, n):
    fmt = SingleElimination(third_place=True, seeding="drawn")
    state = StageState([StageEntrant(i) for i in range(1, n + 1)], seed=3)
    rng = random.Random(n)
    r1 = fmt.next_round(state, None)
    state.matches.extend(r1)
    for m in r1:
        state.results[m.key] = won(m, rng.choice(m.entrants), None)
    table = bracket_table(state, fmt)
    assert len(table) == 2 * (n - 1 + 1)  # every node incl. the third-place match, two slots
    for suffix in ("png", "pdf"):
        out = render_bracket(table, tmp_path / f"b{n}.{suffix}", title=f"{n} 签",
                             names={1: "张三"}, dpi=40)
        assert out.exists() and out.stat().st_size > 1000
    assert (tmp_path / f"b{n}.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / f"b{n}.pdf").read_bytes()[:4] == b"%PDF"


def test_nothing_to_draw(tmp_path):
    import pandas as pd
    with pytest.raises(ValueError):
        render_bracket(pd.DataFrame(columns=["pool", "part"]), tmp_path / "x.png")


def test_chinese_text_gets_a_font_with_chinese_glyphs():
    """The picture's first font family shows Chinese whenever the machine has such a font
    (fontconfig lists one that matplotlib knows): WenQuanYi Zen Hei, the font README names,
    was once missed and every name came out as empty boxes."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    from bianpai.workbooks.bracket_picture import _fonts
    from bianpai.workbooks.pdf_export import cjk_families
    have = {f.name for f in font_manager.fontManager.ttflist}
    if not set(cjk_families() or []) & have:
        pytest.skip("no Chinese font on this machine that matplotlib knows")
    path = font_manager.findfont(font_manager.FontProperties(family=_fonts()[0]),
                                 fallback_to_default=False)
    font = FT2Font(path)
    assert all(font.get_char_index(ord(ch)) for ch in "签表决赛张三")


def test_png_boxes_where_the_layout_puts_them(tmp_path):
    """The PNG (drawn with Pillow) shows each box of the layout in its colour: the winner's
    highlighted, the loser's white, at the page size the layout gives."""
    from PIL import Image

    from bianpai.workbooks.bracket_picture import _FILL, _WIN_FILL, _layout

    fmt = SingleElimination(third_place=False, seeding="drawn")
    state = StageState([StageEntrant(i) for i in range(1, 9)], seed=5)
    r1 = fmt.next_round(state, None)
    state.matches.extend(r1)
    for m in r1:
        state.results[m.key] = won(m, m.entrants[0], None)
    table = bracket_table(state, fmt)
    pic = _layout(table, {}, "8 签", ...)
    img = Image.open(render_bracket(table, tmp_path / "b.png", title="8 签", dpi=60))
    assert img.size == tuple(round(v * 60) for v in pic.size)
    (x0, x1), (y0, y1) = pic.xlim, pic.ylim
    fills = set()
    for x, y, w, h, fill in pic.boxes:
        # inside the box near its bottom-left corner, clear of the text and the border
        px = (x + 0.03 * w - x0) / (x1 - x0) * img.size[0]
        py = (y + 0.85 * h - y0) / (y1 - y0) * img.size[1]
        got = "#%02x%02x%02x" % img.convert("RGB").getpixel((round(px), round(py)))
        assert got == fill, (x, y, fill, got)
        fills.add(fill)
    assert fills == {_FILL, _WIN_FILL}
