"""The vectorised VP conversion (issue 13) gives exactly the scalar form's half-up values."""

from __future__ import annotations

from decimal import Decimal as D

import numpy as np
import pytest

from bianpai.engines.bridge import blitz_margin, vp, vp_array, vp_hundredths_array
from bianpai.engines.errors import InputError

BOARDS = range(1, 65)  # every board count of the anchors (8, 10, 12, 16, 20, 24 …) and more
MARGINS = np.arange(-150, 151)


def test_every_margin_and_board_count_equals_the_scalar_form():
    for b in BOARDS:
        assert blitz_margin(b) <= 150  # the margins run past the 20–0 point
        mine, theirs = vp_hundredths_array(MARGINS, b)
        fmine, ftheirs = vp_array(MARGINS, b)
        for m, h1, h2, f1, f2 in zip(MARGINS.tolist(), mine.tolist(), theirs.tolist(),
                                     fmine.tolist(), ftheirs.tolist()):
            s1, s2 = vp(m, b)
            assert (D(h1).scaleb(-2), D(h2).scaleb(-2)) == (s1, s2), (m, b)
            assert (f1, f2) == (float(s1), float(s2)), (m, b)


def test_board_count_per_row_and_float_columns():
    rng = np.random.default_rng(7)
    m = rng.integers(-70, 71, 2000)
    b = rng.choice([8, 10, 12, 16, 20, 24], 2000)
    mine, theirs = vp_array(m.astype(float), b.astype(float))  # a sheet column read as float
    want = [vp(int(x), int(y)) for x, y in zip(m, b)]
    assert mine.tolist() == [float(w[0]) for w in want]
    assert theirs.tolist() == [float(w[1]) for w in want]
    assert vp_array([5, -5, 40, 0], 8)[0].tolist() == [12.05, 7.95, 19.74, 10.0]


@pytest.mark.parametrize("margins,boards", [([1, 1.5], 8), ([1, float("nan")], 8), ([1, None], 8),
                                            ([1, 2], 0), ([1, 2], [8, 7.5]), (["x"], 8)])
def test_bad_values_are_input_errors(margins, boards):
    with pytest.raises(InputError):
        vp_array(margins, boards)


def test_udf_over_a_range_keeps_its_shape():
    from bianpai.addin.functions import BP_VP, vp_value
    assert BP_VP([[10]], [[16]]) == 12.8  # a single cell passed as a 1×1 range
    assert vp_value([[5], [None], [-5.0], [200]], 8) == [[12.05], [""], [7.95], [20]]
    assert vp_value([[5, 5]], [[8, 16]]) == [[12.05, float(vp(5, 16)[0])]]
    with pytest.raises(InputError):
        vp_value([[5], [6]], [[8, 8, 8]])
