"""Issue 12 ("Trust and paper") checked on the competition-core presets, bullet by bullet, where
the bullet's own test runs on another preset (the shared cases were made on the bridge and
pairs presets): hand edits of 对阵 on a Swiss, the package save on a core workbook, formulas typed
in a core result sheet, 对阵 in the event's side titles.

One mid-event otog workbook (:func:`tests.bad_workbooks.mid_event`: round 1 typed, round 2
drawn) is built per module; each test works on a copy.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from bianpai.templates.presets_io import load_preset
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks.sheet_sets import sheet_set
from tests.bad_workbooks import PRESETS, mid_event
from tests.helpers import decorate_like_excel, sheet_rows as rows
from tests.test_cli_flow import run
from tests.test_package_save import load_quietly, members, sheet_part
from bianpai.workbooks.lazy_edit import load_workbook

SWISS = "中国象棋成年组"  # otog: 积分编排赛 (swiss_individual)
#: what Excel 2010+ writes for a list validation whose source is on another sheet
X14 = ('<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" '
       'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
       '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
       '<x14:dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1">'
       '<x14:formula1><xm:f>统计!$A$2:$A$2</xm:f></x14:formula1><xm:sqref>D2:D200</xm:sqref>'
       '</x14:dataValidation></x14:dataValidations></ext></extLst>')


@pytest.fixture(scope="module")
def otog_mid(tmp_path_factory) -> Path:
    return mid_event("otog", tmp_path_factory.mktemp("otog") / "otog.xlsx", draws=1)


@pytest.fixture
def otog(otog_mid, tmp_path) -> Path:
    p = tmp_path / "otog.xlsx"
    shutil.copy(otog_mid, p)
    return p


def _rows_of(path: Path, sheet: str, group: str, rnd: int) -> list[int]:
    """Excel rows of ``sheet`` for ``group`` round ``rnd``."""
    return [i for i, r in enumerate(rows(path, sheet), start=1) if i > 1 and r[0] == group and r[3] == rnd]


def _set_sides(path: Path, table_sides: dict[int, tuple[int, int]], group: str, rnd: int) -> None:
    """Hand edit of round ``rnd`` of ``group``: 对阵 (甲方号 G, 乙方号 I; names cleared) and the
    blank 成绩 rows (甲方号 F, 乙方号 G) get the given sides per table."""
    wb = load_workbook(path)
    for sheet, c0, c1 in (("对阵", 7, 9), ("成绩", 6, 7)):
        ws = wb[sheet]
        for r in range(2, ws.max_row + 1):
            if ws.cell(r, 1).value == group and ws.cell(r, 4).value == rnd \
                    and ws.cell(r, 5).value in table_sides:
                a, b = table_sides[ws.cell(r, 5).value]
                ws.cell(r, c0).value, ws.cell(r, c1).value = a, b
    wb.save(path)


def _round(path: Path, group: str, rnd: int) -> dict[int, tuple[int, int]]:
    return {r[4]: (r[6], r[8]) for r in rows(path, "对阵")[1:] if r[0] == group and r[3] == rnd}


# ------------------------------------------------------------------ hand edits of 对阵 (Swiss)

def test_a_hand_swap_in_a_swiss_round_is_what_is_scored(otog):
    """Issue 12 “A hand edit … in 对阵 … honoured … every format (the core's one path)”; otog 规程
    象棋 积分编排 (swiss_individual): the arbiter swaps two opponents of round 2; ``rank`` scores
    the swapped tables and ``draw`` keeps them."""
    r2 = _round(otog, SWISS, 2)
    r1 = {frozenset(v) for v in _round(otog, SWISS, 1).values()}
    (t1, (a1, b1)), (t2, (a2, b2)) = list(r2.items())[:2]
    assert frozenset((a1, b2)) not in r1 and frozenset((a2, b1)) not in r1
    _set_sides(otog, {t1: (a1, b2), t2: (a2, b1)}, SWISS, 2)
    wb = load_workbook(otog)
    ws = wb["逐局成绩"]
    for r in _rows_of(otog, "逐局成绩", SWISS, 2):
        ws.cell(r, 11).value = "1-0"  # 结果: 甲方 wins
    wb.save(otog)
    res = run("rank", otog)
    assert res.exit_code == 0, res.output
    assert _round(otog, SWISS, 2)[t1] == (a1, b2) and _round(otog, SWISS, 2)[t2] == (a2, b1)
    won = {r[4]: r[8] for r in rows(otog, "排名")[1:] if r[0] == SWISS}
    assert won[a1] >= 1 and won[a2] >= 1  # the swapped tables' 甲方 won round 2
    assert run("draw", otog, "--seed", "3").exit_code == 0
    assert _round(otog, SWISS, 2)[t1] == (a1, b2)  # not restored by the next draw


def test_a_hand_edited_rematch_in_a_swiss_is_refused_at_its_cell(otog):
    """FIDE C.04.1 b (两名棋手不能相遇两次), otog 规程 积分编排: a hand edit of 对阵 that pairs two
    players of round 1 again in round 2 is refused, naming the 对阵 cell; nothing written."""
    r1 = _round(otog, SWISS, 1)
    a, b = next(iter(r1.values()))
    r2 = _round(otog, SWISS, 2)
    ta = next(t for t, s in r2.items() if a in s)
    tb = next(t for t, s in r2.items() if b in s)
    assert ta != tb
    x = next(v for v in r2[ta] if v != a)
    y = next(v for v in r2[tb] if v != b)
    _set_sides(otog, {ta: (a, b), tb: (x, y)}, SWISS, 2)
    before = members(otog)
    res = run("rank", otog)
    assert res.exit_code == 2, res.output
    assert "重复对阵" in res.output
    row = next(i for i in _rows_of(otog, "对阵", SWISS, 2) if rows(otog, "对阵")[i - 1][4] == ta)
    assert f"对阵!I{row}" in res.output
    assert members(otog) == before


# ------------------------------------------------------------------ 对阵 side titles

@pytest.mark.parametrize("short, titles", [("gouji", ("主队号", "主队", "客队号", "客队")),
                                           ("fujian", ("甲方号", "甲方", "乙方号", "乙方")),
                                           ("cbsa", ("甲方号", "甲方", "乙方号", "乙方"))])
def test_pairings_take_the_event_side_titles(short, titles):
    """One setting per fact: 对阵 names the sides as 成绩 does (the format's ``side_labels`` or the
    规程's ``side_titles``); team events (青岛够级 七: 主队/客队) keep 主队/客队."""
    reg = load_preset(PRESETS[short])
    view = sheet_set(reg.roster_layout).view(reg, K.SCHEDULE.key)
    layout = K.SCHEDULE if view is None else view.layout
    assert tuple(layout.headers()[6:10]) == titles


def test_otog_pairings_say_side_a_and_b(otog):
    """otog: individual and pairs events on one sheet, sides 甲方/乙方 as its 成绩 names them."""
    assert rows(otog, "对阵")[0][6:10] == ("甲方号", "甲方", "乙方号", "乙方")
    assert rows(otog, "成绩")[0][5:7] == ("甲方号", "乙方号")


# ------------------------------------------------------------------ what the organizer made

def test_what_excel_users_add_survives_core_commands(otog):
    """Issue 12 “Nothing made in Excel is lost”: on a core workbook an x14 cross-sheet dropdown, a
    defined name, a conditional format, a comment, an image, a chart sheet and a print area
    survive ``rank`` and ``draw``."""
    pytest.importorskip("PIL")
    decorate_like_excel(otog, unit_range="$D$2:$D$9", match_text="济南", comment="领队 / captain",
                        image_at="T2", print_area="A1:M9", stats=("项目", "人数", "象棋", 10))
    # an Excel 2010+ cross-sheet dropdown (x14 data validation, which openpyxl cannot keep)
    part = sheet_part(otog, "报名")
    with zipfile.ZipFile(otog) as z:
        items = {n: z.read(n) for n in z.namelist()}
    items[part] = items[part].replace(b"</worksheet>", X14.encode() + b"</worksheet>")
    with zipfile.ZipFile(otog, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in items.items():
            z.writestr(n, data)
    before = members(otog)
    assert b"x14:dataValidation" in before[part]
    kept = [sheet_part(otog, s) for s in ("报名", "统计")] + [
        n for n in before if n.startswith(("xl/drawings/", "xl/charts/", "xl/media/", "xl/comments"))]
    for cmd in (["rank", otog], ["draw", otog, "--seed", "3"]):
        assert run(*cmd).exit_code in (0, 2)
    after = members(otog)
    assert all(after.get(n) == before[n] for n in kept)
    book = load_quietly(otog)
    assert "参赛单位" in book.defined_names and book["报名"]["C2"].comment
    assert book["报名"].print_area == "'报名'!$A$1:$M$9"


def test_formulas_typed_in_a_core_result_sheet_read_twice(otog):
    """Issue 12 “Formulas typed in result cells … A command must leave the workbook readable by
    the next command”: 逐局成绩 places typed as formulas with Excel's cached results (=1+2 → 3)
    rank the same as the plain numbers, twice in a row, and the formulas stay."""
    res = run("rank", otog, "--json")
    assert res.exit_code == 0, res.output
    plain = rows(otog, "排名")
    part = sheet_part(otog, "逐局成绩")
    with zipfile.ZipFile(otog) as z:
        items = {n: z.read(n) for n in z.namelist()}
    xml = items[part].decode()
    count = 0

    def formula(m):
        nonlocal count
        v = int(m.group(2))
        if v < 2 or count >= 6:
            return m.group(0)
        count += 1
        return f'{m.group(1)}><f>1+{v - 1}</f><v>{v}</v></c>'
    xml = re.sub(r'(<c r="G\d+"(?: s="\d+")?(?: t="n")?)><v>(\d+)</v></c>', formula, xml)
    assert count == 6
    items[part] = xml.encode()
    with zipfile.ZipFile(otog, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in items.items():
            z.writestr(n, data)
    for _ in range(2):
        res = run("rank", otog)
        assert res.exit_code == 0, res.output
        assert rows(otog, "排名") == plain
    assert b"<f>1+" in members(otog)[sheet_part(otog, "逐局成绩")]


def test_a_column_inserted_before_the_regulation_names_the_cause(otog):
    """Issue 12 “the first cause is named”: a column inserted in front of 规程 is refused as that
    (设置项 is now column B), not as a missing ``preset`` row; nothing written."""
    wb = load_workbook(otog)
    wb["规程"].insert_cols(1)
    wb.save(otog)
    before = members(otog)
    res = run("rank", otog)
    assert res.exit_code == 2
    assert "规程!B1" in res.output and "插入了列" in res.output and "preset" not in res.output
    assert members(otog) == before


def test_draw_refreshes_the_bracket_sheets(otog):
    """Issue 12 “The knockout sheet is refreshed by draw”: otog 跳棋 单淘汰赛 — after round 2 is
    typed, ``draw`` writes the final into 对阵 and into 签表 / 签表图 (not stale until ``rank``)."""
    group = "跳棋成年组"
    assert run("rank", otog).exit_code == 0  # 签表 as of round 2 (the final still 待定)
    final_before = [r for r in rows(otog, "签表")[1:] if r[0] == group and r[5] is not None
                    and r[3] == "决赛"]
    assert final_before == []
    winners = [s[0] for s in _round(otog, group, 2).values()]
    wb = load_workbook(otog)
    ws = wb["逐局成绩"]
    for r in _rows_of(otog, "逐局成绩", group, 2):
        ws.cell(r, 11).value = "1-0"  # 甲方 wins
    wb.save(otog)
    res = run("draw", otog, "--seed", "3")
    assert res.exit_code == 0, res.output
    assert sorted(_round(otog, group, 3)[1]) == sorted(winners)
    final = [r for r in rows(otog, "签表")[1:] if r[0] == group and r[3] == "决赛"]
    assert sorted(r[5] for r in final if r[5] is not None) == sorted(winners)
    grid = [v for r in rows(otog, "签表图") for v in r if isinstance(v, str)]
    assert any(str(winners[0]) in v for v in grid)
