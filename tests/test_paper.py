"""Paper (issue 12 “Trust and paper”): what the organizer prints on A4 — table cards, score
slips, the round's 成绩公告 with the chief arbiter's signature, 排名/对阵 a page per group/round,
certificates one per person, 领奖签收表 with room to sign and an ID column, and the PDF export.

The sheets' content and print setup are read back with openpyxl; one test prints through
LibreOffice and skips when ``soffice`` is absent.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from bianpai.addin import commands
from bianpai.addin.award_papers import certificate_people
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks import paper as P
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.pdf_export import export_pdf, soffice
from bianpai.workbooks.print_setup import TITLE, break_rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "otog-mind-games-2024"
GROUP = "中国象棋成年组"


def _person(name):
    return [GROUP, None, None, name, "男", dt.date(1985, 3, 3), None, "鄂托克旗", "队员", None,
            None, None]


def _fill_results(path: Path, rnd: int, result: str = "1-0") -> None:
    """Type 结果 on every 逐局成绩 row of round ``rnd``."""
    wb = load_workbook(path)
    ws = wb["逐局成绩"]
    head = [c.value for c in ws[1]]
    rc, res = head.index("轮次") + 1, head.index("结果") + 1
    for r in range(2, ws.max_row + 1):
        if ws.cell(r, rc).value == rnd:
            ws.cell(r, res, result)
    wb.save(path)


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    """中国象棋成年组 (Otog 规程) with 6 players: round 1 drawn, played (1-0 everywhere) and
    ranked."""
    path = tmp_path_factory.mktemp("paper") / "x.xlsx"
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), load_preset(PRESET))
    wb = load_workbook(path)
    for i in range(6):
        wb["报名"].append(_person(f"棋手{i}"))
    wb.save(path)
    res = run("draw", path, "--seed", 4)
    assert res.exit_code == 0, res.output
    _fill_results(path, 1)
    res = run("rank", path)
    assert res.exit_code == 0, res.output
    return path


def _values(ws) -> list[list]:
    return [list(r) for r in ws.iter_rows(values_only=True)]


def test_draw_prints_a_table_card_per_table(event):
    """A table card per table of the new round (桌号 in large type, both sides with number and
    name), one landscape A4 page each."""
    ws = load_workbook(event)["桌卡"]
    text = [r[0] for r in _values(ws)]
    tables = [t for t in text if isinstance(t, str) and t.startswith("第 ") and t.endswith(" 桌")]
    assert tables == ["第 1 桌", "第 2 桌", "第 3 桌"]
    assert sum(1 for t in text if isinstance(t, str) and t.startswith("先手：")) == 3
    assert sum(1 for t in text if isinstance(t, str) and t.startswith("后手：")) == 3
    assert len(ws.row_breaks.brk) == 2  # three pages
    assert ws.page_setup.orientation == "landscape" and int(ws.page_setup.paperSize) == 9
    big = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "第 1 桌")
    assert ws.cell(big, 1).font.sz >= 48 and ws.row_dimensions[big].height >= 100
    assert any(str(m).startswith(f"A{big}:") for m in ws.merged_cells.ranges)


def test_draw_prints_score_slips_with_the_scoring_columns(event):
    """记分单: per table the sides, a bordered grid of what the arbiter types (结果 per game),
    and the signature line of both players and the arbiter; two slips per A4 page."""
    ws = load_workbook(event)["记分单"]
    vals = _values(ws)
    heads = [r for r in vals if r[0] == "局"]
    assert len(heads) == 3 and all("结果" in r for r in heads)
    signs = [r[0] for r in vals if isinstance(r[0], str) and "裁判签字" in r[0]]
    assert len(signs) == 3 and signs[0].startswith("先手签字")
    head_row = next(i for i, r in enumerate(vals, start=1) if r[0] == "局")
    assert ws.cell(head_row, 2).border.left.style == "thin"
    assert len(ws.row_breaks.brk) == 1


def test_rank_prints_the_round_bulletin_with_the_arbiter_signature(event):
    """成绩公告: the round's results, the standings after it, and 裁判长签字 — one page per
    group and stage."""
    ws = load_workbook(event)["成绩公告"]
    vals = _values(ws)
    first = [r[0] for r in vals]
    assert f"{GROUP} 积分编排赛 第1轮成绩公告" in first or any(
        isinstance(t, str) and t.endswith("第1轮成绩公告") for t in first)
    assert "第1轮后排名" in first
    assert any(isinstance(t, str) and t.startswith("裁判长签字") for t in first)
    results = [r for r in vals if isinstance(r[0], int) and r[3] == "2:0"]  # 胜 2 分
    assert len(results) == 3
    ranked_from = first.index("第1轮后排名") + 2
    standings = vals[ranked_from:ranked_from + 6]
    assert [r[0] for r in standings] == [1, 2, 3, 4, 5, 6]
    assert [r[3] for r in standings] == [2, 2, 2, 0, 0, 0]  # 场分 as integers, not 2.0
    assert [r[4] for r in standings] == ["1-0-0"] * 3 + ["0-0-1"] * 3
    assert ws.page_setup.orientation == "portrait"
    assert ws.print_options.gridLines is False or ws.print_options.gridLines is None


def test_schedule_and_standings_print_a_page_per_round_and_group(event):
    """对阵 a page per round, 排名 a page per group, each with the event title in the header."""
    wb = load_workbook(event)
    title = load_preset(PRESET).title_zh
    for name in ("对阵", "排名"):
        ws = wb[name]
        assert ws.oddHeader.center.text.startswith(title), name
        assert ws.print_title_rows in ("1:1", "$1:$1")
    res = run("draw", event, "--out", event.with_name("r2.xlsx"))
    assert res.exit_code == 0, res.output
    assert "随机种子" in res.output and "None" not in res.output
    ws = load_workbook(event.with_name("r2.xlsx"))["对阵"]
    rounds = [r[3] for r in _values(ws)[1:]]
    change = next(i for i, r in enumerate(rounds) if r == 2) + 1  # sheet row of the last round-1
    assert [b.id for b in ws.row_breaks.brk] == [change]


def test_page_break_on_is_a_layout_attribute_every_writer_gets(tmp_path):
    """The team pipeline writes 对阵 with the layout's own format: it gets a page per round too."""
    rows = [["排位赛", r, None, t, 1, "A", 2, "B", 1, 2, 2, 1, "1-8", ""]
            for r in (1, 2) for t in (1, 2)]
    port = OpenpyxlPort(tmp_path / "t.xlsx", create=True, command="new")
    TITLE["text"] = "测试赛"
    try:
        port.write_sheet("对阵", [T.TEAM_SCHEDULE.headers()] + rows, T.TEAM_SCHEDULE.sheet_format())
    finally:
        TITLE["text"] = None
    port.save()
    ws = load_workbook(tmp_path / "t.xlsx")["对阵"]
    assert [b.id for b in ws.row_breaks.brk] == [3]
    assert ws.oddHeader.center.text.startswith("测试赛")
    assert break_rows([["h"], [1], [1], [2]], 1, [0]) == [3]


def test_integers_print_as_integers(tmp_path):
    """A 0.00 column shows 9, not 9.00; 9.5 keeps its places."""
    port = OpenpyxlPort(tmp_path / "s.xlsx", create=True, command="new")
    rows = [[1, 1, "A", None, 5, None, Decimal("9"), None, Decimal("9"), 20, 10, 2, ""],
            [2, 2, "B", None, 5, None, Decimal("9.5"), None, Decimal("9.5"), 10, 20, 0.5, ""]]
    port.write_sheet("排名", [T.TEAM_STANDINGS.headers()] + rows, T.TEAM_STANDINGS.sheet_format())
    port.save()
    ws = load_workbook(tmp_path / "s.xlsx")["排名"]
    col = [c.key for c in T.TEAM_STANDINGS.columns].index("match_vp") + 1
    assert ws.cell(2, col).number_format == "0" and ws.cell(3, col).number_format == "0.00"


def test_receipts_have_an_id_column_and_rows_tall_enough_to_sign():
    """领奖签收表: 身份证号 beside 签名, rows 36 pt (room for a signature), a page per group."""
    assert "身份证号" in L.AWARD_RECEIPTS.headers() and "签名" in L.AWARD_RECEIPTS.headers()
    fmt = L.AWARD_RECEIPTS.sheet_format()
    assert fmt.data_row_height >= 30 and fmt.break_columns == [0]


def test_a_certificate_per_person_of_a_pair_and_a_team():
    """证书: each player of a pair or team gets theirs; an individual gets one."""
    table = pd.DataFrame([
        dict(group="双人", place_label="第一名", entrant_id="g#1", name="组合甲", unit="A",
             award="", trophy=True, medal=False, certificate=False),
        dict(group="个人", place_label="第二名", entrant_id="h#3", name="张三", unit="B",
             award="优胜奖", trophy=False, medal=False, certificate=True),
        dict(group="个人", place_label="第九名", entrant_id="h#4", name="李四", unit="B",
             award="", trophy=False, medal=False, certificate=False)])
    standings = pd.DataFrame({"group": ["双人", "个人", "个人"],
                              "entrant_id": ["g#1", "h#3", "h#4"],
                              "members": [["甲一", "甲二"], ["张三"], ["李四"]]})
    people = certificate_people(table, standings)
    assert [(p["person"], p["team"]) for p in people] == [("甲一", "组合甲"), ("甲二", "组合甲"),
                                                         ("张三", None)]
    grid, fmt = P.certificate_pages(people)
    assert sum(1 for r in grid if r[0] == "荣 誉 证 书") == 3 and len(fmt.page_breaks) == 2
    assert any("第二名、优胜奖" in str(r[0]) for r in grid)


def test_pdf_export_prints_the_pages(event, tmp_path):
    """`bianpai pdf`: 排名 and the papers as one PDF through LibreOffice (skipped without it)."""
    if soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    out = tmp_path / "x.pdf"
    done = export_pdf(event, out, ["桌卡", "成绩公告"])
    assert done == ["桌卡", "成绩公告"]
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 5000
    text = pdf_text(out)
    if text is not None:  # the Chinese of the sheets is on the pages, not missing glyphs
        assert "成绩公告" in text and "棋手0" in text


def pdf_text(path: Path) -> str | None:
    """The text of a PDF (poppler's pdftotext), or None when pdftotext is not installed."""
    import shutil
    import subprocess
    exe = shutil.which("pdftotext")
    if exe is None:
        return None
    return subprocess.run([exe, str(path), "-"], capture_output=True, check=True,
                          timeout=120).stdout.decode("utf-8")


def test_pdf_export_refuses_when_no_font_can_show_the_chinese(event, tmp_path, monkeypatch):
    """Without a Chinese font LibreOffice writes a PDF with no Chinese on it (names, groups,
    headers all missing): `bianpai pdf` refuses, says which font package to install, and writes
    nothing (checked without LibreOffice: the refusal comes before it is started). When
    fontconfig cannot tell, the export goes on (here to a LibreOffice that cannot start, which
    is named, not a traceback)."""
    from bianpai.workbooks import pdf_export
    from tests.test_cli_flow import run
    monkeypatch.setattr(pdf_export, "cjk_font_available", lambda: False)
    monkeypatch.setattr(pdf_export, "soffice", lambda: "/nonexistent/soffice")
    out = tmp_path / "x.pdf"
    res = run("pdf", event, "-o", out, "--sheets", "排名")
    assert res.exit_code != 0 and not out.exists()
    assert "未找到中文字体" in res.output and "fonts-noto-cjk" in res.output
    assert "no Chinese font found" in res.output
    monkeypatch.setattr(pdf_export, "cjk_font_available", lambda: None)  # cannot tell: tries
    res = run("pdf", event, "-o", out, "--sheets", "排名")
    assert res.exit_code != 0 and (res.exception is None or isinstance(res.exception, SystemExit))
    assert "未找到中文字体" not in res.output and "无法启动" in res.output


def test_the_chinese_font_check_reads_fontconfig(monkeypatch):
    from bianpai.workbooks import pdf_export
    monkeypatch.setattr(pdf_export.shutil, "which", lambda name: None)
    assert pdf_export.cjk_font_available() is None  # no fontconfig: the system's own fonts
    if shutil.which("fc-list"):
        monkeypatch.undo()
        listed = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True).stdout
        assert pdf_export.cjk_font_available() is bool(listed.strip())


def test_rank_draws_a_native_rank_progression_chart(event, tmp_path):
    """排名走势: each player's rank after every complete round, as a table and a native Excel
    line chart (rank 1 at the top); ranking again replaces the chart, never adds a second or
    loses it."""
    import zipfile
    wb = load_workbook(event)
    ws = wb["排名走势"]
    assert len(ws._charts) == 1
    vals = _values(ws)
    assert vals[1][:2] == [None, "第1轮"] or vals[1][1] == "第1轮"
    assert [r[1] for r in vals[2:8]] == [1, 2, 3, 4, 5, 6]
    chart = ws._charts[0]
    assert chart.y_axis.scaling.orientation == "maxMin" and len(chart.series) == 6
    again = tmp_path / "again.xlsx"
    res = run("rank", event, "--out", again)
    assert res.exit_code == 0, res.output
    with zipfile.ZipFile(again) as z:
        parts = [n for n in z.namelist() if n.startswith(("xl/charts/", "xl/drawings/drawing"))]
    assert len([n for n in parts if n.startswith("xl/charts/")]) == 1 and len(parts) == 2
    assert len(load_workbook(again)["排名走势"]._charts) == 1


def test_a_gouji_game_row_typed_in_part_is_named():
    """青岛够级规程 每局六个号位各有一个名次（头科…大落）: a game row with five of the six seats
    typed is an error naming the empty seat's cell, not a match silently left unscored."""
    from bianpai.engines.core import Match, TypedMatch
    from bianpai.engines.gouji import GoujiScoring
    sc = GoujiScoring()
    seats = {f"seat_{k}": v for k, v in zip(range(1, 7), ["头科", "二科", "三科", "四科", "二落"])}
    games = pd.DataFrame([{"game": 1, **seats, "seat_6": None, "points_0": None,
                           "points_1": None, "_row": 7}])
    typed = TypedMatch(games=games)
    assert not sc.is_complete(typed)
    errs = sc.problems(Match(1, 1, (1, 2)), typed)
    assert len(errs) == 1 and "6号位未填" in errs[0].zh
    assert errs[0].row == 7 and errs[0].column == "seat_6"
    empty = TypedMatch(games=games.assign(**{f"seat_{k}": None for k in range(1, 6)}))
    assert sc.problems(Match(1, 1, (1, 2)), empty) == []  # nothing typed yet: no error


def test_penalty_size_and_sign_follow_the_regulation():
    """青岛够级 九 第三条4：扣除当场比赛成绩（局分）两分; 福建80分 五：每次将扣0.5个比赛分 — a 罚分
    cell must be the positive amount deducted, a multiple of the 规程's size, else it is named."""
    from bianpai.engines.penalty_check import check_penalty
    from bianpai.engines.gouji import GoujiScoring
    from bianpai.engines.upgrade80 import Upgrade80Scoring
    g, u = GoujiScoring(), Upgrade80Scoring()
    assert check_penalty(g, Decimal(2), sheet="罚分", cell="G2") is None
    assert check_penalty(g, Decimal(4), sheet="罚分", cell="G2") is None
    e = check_penalty(g, Decimal(3), sheet="罚分", cell="G3")
    assert e is not None and e.where == "罚分!G3" and "2" in e.zh
    e = check_penalty(g, Decimal(-2), sheet="罚分", cell="G4")
    assert e is not None and "正数" in e.zh and e.where == "罚分!G4"
    assert check_penalty(u, Decimal("0.5"), sheet="罚分", cell="G2") is None
    assert check_penalty(u, Decimal("0.3"), sheet="罚分", cell="G2") is not None


def test_a_bad_regulation_value_is_explained_in_chinese():
    """Every message Chinese first: pydantic's English (“Input should be …”) never inside the
    Chinese text; the English line keeps it."""
    from pydantic import BaseModel, Field, ValidationError, field_validator

    from bianpai.engines.pydantic_zh import zh_message

    class M(BaseModel):
        pct: int = Field(ge=0, le=100)
        kind: str = "a"

        @field_validator("kind")
        @classmethod
        def _k(cls, v):
            if v != "a":
                raise ValueError("类型只能为 a / kind must be a")
            return v

    try:
        M(pct=150, kind="b")
    except ValidationError as exc:
        zh = [zh_message(e) for e in exc.errors()]
    assert zh == ["应不大于 100", "类型只能为 a"]
    assert zh_message({"type": "int_parsing", "msg": "Input should be a valid integer"}) == "应为整数"
    assert not any(c.isascii() and c.isalpha() for c in zh_message({"type": "whatever",
                                                                    "msg": "English"}))


def test_rank_round_n_ranks_after_that_round_and_says_so(event, tmp_path):
    """`rank --round 1` names the round in its summary and in 成绩公告."""
    out = tmp_path / "r1.xlsx"
    res = run("rank", event, "--round", "1", "--out", out)
    assert res.exit_code == 0, res.output
    assert "第1轮后排名完成" in res.output
    first = [r[0] for r in _values(load_workbook(out)["成绩公告"])]
    assert "第1轮后排名" in first


def test_terminal_prints_knockout_matches_and_final_places():
    """The rank tables in the terminal: a knockout stage shows 场次/主队/客队/胜队, 总排名 shows
    名次 and 队号 filled."""
    import io

    from rich.console import Console

    from bianpai.addin.terminal import print_standings, progress_bar
    buf = io.StringIO()
    con = Console(file=buf, width=120)
    print_standings(con, {
        "淘汰赛": [{"match": "QF1", "home": 3, "away": 6, "winner": 3, "explanation": "3号胜"}],
        "总排名": [{"place": 1, "team": 3, "name": "甲队", "source": "淘汰赛", "explanation": ""}]})
    text = buf.getvalue()
    assert "场次" in text and "QF1" in text and "胜队" in text
    row = next(line for line in text.splitlines() if "甲队" in line)
    assert "1" in row.split("甲队")[0] and "3" in row.split("甲队")[0]
    with progress_bar(con, "抽签编排", total=2) as step:
        step("第1轮")
        step("第2轮")


# ------------------------------------------------------------ the pairs and bridge team styles

CASES = Path(__file__).parent / "data" / "cases"


def _mid(name: str, tmp_path: Path) -> Path:
    import shutil
    path = tmp_path / f"{name}.xlsx"
    shutil.copyfile(CASES / f"{name}.xlsx", path)
    return path


def _round_papers(path: Path, rnd: int):
    from bianpai.addin.competition import load_core_event
    from bianpai.addin.core_paper import round_papers
    ev = load_core_event(OpenpyxlPort(path))
    g = ev.reg.groups[0]
    s = g.stages[0]
    return ev, round_papers(ev, [(g, s, m) for m in ev.stage_matches(g, s) if m.round == rnd])


def test_pairs_table_cards_and_slips_name_ns_ew_and_the_boards(tmp_path):
    """Issue 12 on the pairs style: a card per table with 南北/东西 (the pairs scoring's sides,
    not the round robin's 主队/客队) and the round's boards as 对阵 shows them (牌号 7-12 in
    round 2); the slip's rows are those boards, and its signature line names 南北 and 东西."""
    ev, (cards, slips) = _round_papers(_mid("mid-shenzhen-guandan-pairs", tmp_path), 2)
    assert len(cards) == 4 and [c["table"] for c in cards] == [1, 2, 3, 4]
    assert [s[0] for s in cards[0]["sides"]] == ["南北", "东西"]
    assert cards[0]["extra"] == ["牌号：7-12"]
    assert slips[0]["game_word"] == "牌号" and slips[0]["game_numbers"] == [7, 8, 9, 10, 11, 12]
    grid, _fmt = P.score_slips(slips[:1])
    flat = [str(v) for r in grid for v in r if v not in (None, "")]
    assert "南北签字：__________" in " ".join(flat) and "东西签字" in " ".join(flat)
    assert "12" in flat and "1" not in flat


def test_bridge_table_cards_show_boards_and_seating(tmp_path):
    """Issue 12 on the bridge team style: 主队/客队, the boards and the open/closed room seating
    of 对阵 on the card (not the position label 1vs8); the slip's rows are 副号 1–10."""
    ev, (cards, slips) = _round_papers(_mid("mid-otog-bridge-teams", tmp_path), 3)
    assert len(cards) == 4
    assert [s[0] for s in cards[0]["sides"]] == ["主队", "客队"]
    assert cards[0]["extra"][0] == "牌号：1-10" and cards[0]["extra"][1].startswith("座位：主队开室南北")
    assert not any("vs" in line for c in cards for line in c["extra"])
    assert slips[0]["game_word"] == "副号" and slips[0]["games"] == 10
    assert "game_numbers" not in slips[0]  # 副号 counted per match: 1 … 10


def test_pairs_and_bridge_rank_print_the_bulletin_and_the_rank_chart(tmp_path):
    """Issue 12 on the ported styles: rank writes 成绩公告 (the round's results, the standings,
    the chief arbiter's signature) and 排名走势 with a native chart per group."""
    for name, groups in (("mid-shenzhen-guandan-pairs", 3), ("mid-otog-bridge-teams", 1)):
        path = _mid(name, tmp_path)
        res = run("rank", path)
        assert res.exit_code == 0, res.output
        wb = load_workbook(path)
        text = [str(v) for r in _values(wb["成绩公告"]) for v in r if v]
        assert sum("裁判长签字" in t for t in text) == groups, name
        assert len(wb["排名走势"]._charts) == groups, name


def test_a_pair_gets_a_certificate_per_player(tmp_path):
    """Issue 12 (证书 one per person): each player of a pair (选手1, 选手2 of its 报名 row)."""
    from bianpai.addin.competition import load_core_event
    from bianpai.addin.core_paper import members_of
    ev = load_core_event(OpenpyxlPort(_mid("mid-shenzhen-guandan-pairs", tmp_path)))
    g = ev.reg.groups[0]
    for n in (1, 2):
        assert members_of(ev, g, n) == ev.name_of(g, n).split("/") and len(members_of(ev, g, n)) == 2


def test_pairs_awards_before_any_result_say_what_to_do(tmp_path):
    """Issue 12 (awards before rank says what to do) on the pairs style, which awards by its
    排名 at any time: with every round drawn and no result typed, awards placed the pairs by the
    draw alone. Now refused per group, naming the sheets to type results in, nothing written."""
    path = _mid("mid-shenzhen-guandan-pairs", tmp_path)
    wb = load_workbook(path)
    ws = wb["成绩"]
    for r in range(2, ws.max_row + 1):
        ws.cell(r, 7).value = ws.cell(r, 8).value = None  # 南北得分, 代码
    wb.save(path)
    res = run("awards", path)
    out = " ".join(res.output.split())
    assert res.exit_code == 2, out
    assert out.count("尚未录入任何成绩，不能分配奖励：请先在“成绩”表（或“轮成绩”表）录入成绩") == 3
    assert "下一步" in out


def test_pairs_crosstable_shows_the_byes_of_an_odd_field(tmp_path):
    """Issue 12 (交叉表 shows byes) on the pairs style, whose 交叉表 has no 轮空 column (as the
    Shenzhen workbook): 5 men's pairs, every round one bye (八（三）). Beneath the table, after a
    blank row, one line names the bye of each round played so far as 对阵 shows it (rounds 1–3
    typed, then all five), as the table's cells show the rounds played — in Chinese, and in
    English in an English workbook; the table's own rows are the pairs alone. 4 women's pairs,
    no bye: no line for them."""
    from tests.helpers import fill, new_event, pair_row, sheet_rows
    for lang, sheets, word, say in (
            ("zh", ("报名", "对阵", "轮成绩", "交叉表"), "轮空：", "第{r}轮 {n}号 {name}"),
            ("en", ("Roster", "Pairings", "Round scores", "Crosstable"), "Byes: ",
             "round {r} No {n} {name}")):
        wb = new_event(tmp_path / f"odd-{lang}.xlsx", lang=lang)
        fill(wb, sheets[0], [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 6)]
             + [pair_row("女子双人赛", f"丙{i}", f"丁{i}", "女", "女") for i in range(1, 5)])
        assert run("draw", wb, "--seed", 7).exit_code == 0
        sched = sheet_rows(wb, sheets[1])
        men = sched[1][0]
        byes = sorted((r[1], r[3], r[4]) for r in sched[1:] if r[0] == men and r[5] is None)
        assert [b[0] for b in byes] == [1, 2, 3, 4, 5]  # a bye every round, one each
        for played in (3, 5):
            fill(wb, sheets[2], [[g, rnd, t, ns, ew, 55, 45, None, None]
                                 for g, rnd, t, ns, _n, ew, *_ in sched[1:]
                                 if ew is not None and rnd <= played])
            assert run("rank", wb).exit_code == 0
            cross = sheet_rows(wb, sheets[3])
            width = len(cross[0])
            table = [r for r in cross[1:] if isinstance(r[1], int)]
            assert len(table) == 9 and cross[1 + len(table)] == (None,) * width
            line = word + ("；" if lang == "zh" else "; ").join(
                say.format(r=r, n=n, name=name) for r, n, name in byes[:played])
            assert cross[2 + len(table):] == [(men, None, line, *[None] * (width - 3))], lang


def test_mitchell_slip_has_a_row_per_board_and_names_the_seats(mid_event_book, tmp_path):
    """Found by a trial user: the 80分 记分单 had one entry row for a table's 12 boards and
    called the sides 甲方/乙方. The slip of a Mitchell table lists the boards of its set (牌号
    prefilled, as the draw prepares 逐局成绩) and names 南北/东西 (80分规则 一5), while the
    event's other stages keep its 甲方/乙方."""
    from tests.shared_state import copy_of
    from bianpai.addin.competition import load_core_event
    from bianpai.addin.core_paper import round_papers
    from bianpai.engines.mitchell import boards_from_label
    path = copy_of(mid_event_book("fujian", draws=1), tmp_path)
    ev = load_core_event(OpenpyxlPort(path))
    g = next(g for g in ev.reg.groups if g.stages and g.stages[0].format.kind == "mitchell")
    s = g.stages[0]
    new = [(g, s, m) for m in ev.stage_matches(g, s) if m.round == 1]
    _cards, slips = round_papers(ev, new)
    m = new[0][2]
    boards = boards_from_label(m.label)
    assert len(boards) > 1
    slip = slips[0]
    assert [x[0] for x in slip["sides"]] == ["南北", "东西"]
    assert slip["games"] == len(boards)
    assert slip["game_titles"][0] == "牌号"
    assert [row[0] for row in slip["game_values"]] == list(boards)
    grid, _fmt = P.score_slips(slips[:1])
    flat = " ".join(str(v) for r in grid for v in r if v not in (None, ""))
    assert "南北签字" in flat and "甲方" not in flat
    other = next(g2 for g2 in ev.reg.groups if g2.stages and g2 is not g
                 and ev.stage_matches(g2, g2.stages[0]))
    s2 = other.stages[0]
    _c, slips2 = round_papers(ev, [(other, s2, m2) for m2 in ev.stage_matches(other, s2)
                                   if m2.round == 1])
    assert slips2 and slips2[0]["sides"][0][0] == "甲方"


def test_bulletin_scores_are_number_cells(tmp_path):
    """Found by a trial user: 成绩公告 stored a 场分 of 5.5 as the text '5.5' (6 as a number)."""
    import re
    path = _mid("mid-shenzhen-guandan-pairs", tmp_path)
    assert run("rank", path).exit_code == 0
    ws = load_workbook(path)["成绩公告"]
    texts = [c.value for r in ws.iter_rows() for c in r
             if isinstance(c.value, str) and re.fullmatch(r"-?\d+\.\d+", c.value)]
    assert texts == []
    assert any(isinstance(c.value, float) and not c.value.is_integer()
               for r in ws.iter_rows() for c in r)


def test_a_bye_in_the_bulletin_says_bye_not_a_score(tmp_path):
    """Found by a trial user: 成绩公告 showed a 够级 bye as 比分 “0:0”. A bye reads 轮空, with
    what it is worth when it is worth something (深圳 十（三）1: 1.5 场分)."""
    from tests.helpers import fill, new_event, pair_row, sheet_rows
    from bianpai.addin.competition import load_core_event
    from bianpai.addin.core_paper import bulletin_blocks
    wb = new_event(tmp_path / "e.xlsx")
    fill(wb, "报名", [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 4)])
    assert run("draw", wb, "--seed", 3).exit_code == 0
    g, rnd, table, ns, ew = sheet_rows(wb, "轮成绩")[1][:5]
    fill(wb, "轮成绩", [[g, rnd, table, ns, ew, 55, 45, None, 2]])
    ev = load_core_event(OpenpyxlPort(wb))
    rows = [r for b in bulletin_blocks(ev, None) for r in b["results"]]
    byes = [r for r in rows if "轮空" in str(r[5])]
    assert byes and all(r[3] == "轮空（1.5）" for r in byes), byes
