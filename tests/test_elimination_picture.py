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
