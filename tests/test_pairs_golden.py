"""The Shenzhen guandan pairs workbook, cell for cell, against its golden reference.

规程 八（二）："比赛分为每副牌按同方向比较……"；八（三）轮空 51%、1.5 场分；十一（三）（四）超时、迟到罚则；
十三 名次排列。The golden files (``tests/data/golden/shenzhen``, written by
``python -m tests.golden_build``) hold every sheet a whole event produces — draw, a hand-edited
对阵, board and typed round results, penalties, standings, 交叉表, awards — so any port of the
pipeline must give the same sheets, in the same order, with the same values.
"""

from tests.golden_build import PAPER, dump, load_golden, per_person, with_bye_lines


def test_whole_event_matches_golden(golden_pairs_book):
    """Same sheet names and order, same values in every cell (日志 times aside) — and issue
    12's paper: exactly the four paper sheets beyond the golden ones, 荣誉证书 a page per
    player (the golden page of the pair under each player's name), the byes of the 7 men's
    pairs on a line beneath the golden 交叉表 (its cells unchanged). The flow
    (``tests.golden_build.build``) runs once per test run (tests/conftest.py)."""
    got = dump(golden_pairs_book)
    want = load_golden()
    want["荣誉证书"] = per_person(want["荣誉证书"])
    want["交叉表"] = with_bye_lines(want["交叉表"], want["对阵"])
    assert [n for n in got if n not in PAPER] == list(want)
    assert [n for n in got if n not in want] == PAPER
    for name, rows in want.items():
        assert len(got[name]) == len(rows), name
        for i, (g, w) in enumerate(zip(got[name], rows)):
            assert g == w, f"{name} row {i + 1}: {g} != {w}"
