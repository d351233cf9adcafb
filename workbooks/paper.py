"""Sheets laid out as paper: 桌卡 (table cards), 记分单 (result slips) and 成绩公告 (the round's
bulletin), each a block of rows per table / round printed one A4 page per block.

The builders here take plain values (no event, no workbook) and return the grid and its
:class:`~bianpai.workbooks.port.SheetFormat`; :mod:`bianpai.addin.core_paper` gathers the values
from a drawn or ranked event and writes the sheets. Printing (row heights, fonts, merges, page
breaks) is applied by the adapters (:mod:`bianpai.workbooks.print_setup`).

Shapes:

* a *card* is ``dict(heading=str, table=int, sides=[(side title, number, name, unit)],
  extra=[str])`` — ``heading`` the group, stage and round, ``extra`` lines such as 用牌 1-8;
* a *slip* is a card plus ``game_titles`` (the 逐局成绩 columns typed per game, titles with the
  side names filled in), ``games`` (blank game rows to print) and ``match_titles`` (the 成绩
  columns typed per match);
* a *bulletin* is ``dict(heading=str, results=[[table, side0, score, side1, note]],
  standings_header=[str], standings=[[...]])``.
"""

from __future__ import annotations

from bianpai.workbooks.layouts import C, SheetLayout
from bianpai.workbooks.port import ColumnFormat, Grid, PrintSetup, RowFormat, SheetFormat
from bianpai.workbooks.print_setup import TITLE

TABLE_CARDS = SheetLayout(key="table_cards", zh="桌卡", en="Table cards", landscape=True,
                          columns=[C(f"c{i}", "", "", width=w) for i, w in
                                   enumerate((18, 22, 40, 22))])
SCORE_SLIPS = SheetLayout(key="score_slips", zh="记分单", en="Score slips", columns=[
    C(f"c{i}", "", "", width=14) for i in range(6)])
SLIPS_PER_PAGE = 2
BULLETIN = SheetLayout(key="bulletin", zh="成绩公告", en="Results bulletin", columns=[
    C(f"c{i}", "", "", width=w) for i, w in enumerate((7, 7, 22, 10, 7, 22, 16))])

SIGN_ARBITER = ("裁判长签字：________________        日期：______年____月____日",
                "Chief arbiter: ________________        Date: ______________")
SIGN_SLIP = ("{s0}签字：__________    {s1}签字：__________    裁判签字：__________",
             "{s0}: __________    {s1}: __________    Arbiter: __________")


class _Sheet:
    """A grid under construction with its row formats and page breaks."""

    def __init__(self, width: int):
        self.width = width
        self.values: Grid = []
        self.rows: dict[int, RowFormat] = {}
        self.breaks: list[int] = []

    def add(self, cells: list, **fmt) -> None:
        # a bordered row is as wide as its cells (the box drawn around them only); the others
        # span the sheet (merged titles, signature lines)
        pad = 0 if fmt.get("border") else self.width - len(cells)
        self.values.append(list(cells) + [None] * max(pad, 0))
        if fmt:
            self.rows[len(self.values)] = RowFormat(**fmt)

    def page(self) -> None:
        if self.values:
            self.breaks.append(len(self.values))

    def format(self, layout: SheetLayout, *, landscape: bool,
               widths: list[float] | None = None) -> SheetFormat:
        widths = widths or [c.width for c in layout.columns]
        return SheetFormat(
            header_row=0, freeze=None, bold_header=False, header_fill=None,
            columns=[ColumnFormat(index=i, width=w) for i, w in enumerate(widths)],
            print_setup=PrintSetup(landscape=landscape, repeat_header=False, gridlines=False,
                                   title=TITLE.get("text")),
            page_breaks=self.breaks[:-1] if self.breaks and self.breaks[-1] == len(self.values)
            else self.breaks,
            rows=self.rows)


def _side_line(side, lang: str) -> str:
    title, number, name, unit = side
    if number is None:
        return f"{title}：轮空" if lang == "zh" else f"{title}: bye"
    who = f"{number}号  {name}" if lang == "zh" else f"No {number}  {name}"
    return f"{title}：{who}" + (f"（{unit}）" if unit else "") if lang == "zh" else \
        f"{title}: {who}" + (f" ({unit})" if unit else "")


def table_cards(cards: list[dict], lang: str = "zh") -> tuple[Grid, SheetFormat]:
    """桌卡: one landscape A4 page per card — the event title, the group/stage/round, the table
    number in large type, each side (南北/东西, 主/客 …) with number, name and unit, and the
    ``extra`` lines (boards, seats)."""
    sh = _Sheet(len(TABLE_CARDS.columns))
    for card in cards:
        sh.add([TITLE.get("text") or ""], merge=True, font_size=16, bold=True, height=30)
        sh.add([card["heading"]], merge=True, font_size=20, height=36)
        sh.add([f"第 {card['table']} 桌" if lang == "zh" else f"Table {card['table']}"],
               merge=True, font_size=72, bold=True, height=120)
        for side in card["sides"]:
            sh.add([_side_line(side, lang)], merge=True, font_size=24, height=48, align="left")
        for line in card.get("extra", []):
            sh.add([line], merge=True, font_size=18, height=32, align="left")
        sh.page()
    return sh.values, sh.format(TABLE_CARDS, landscape=True)


def score_slips(slips: list[dict], lang: str = "zh") -> tuple[Grid, SheetFormat]:
    """记分单: :data:`SLIPS_PER_PAGE` tables per portrait A4 page — heading, the sides, a
    bordered grid of the per-game columns (one row per game, blank but for its prefilled cells
    ``game_values``: 牌号, 台次), the per-match columns, and
    the signature line of both sides and the arbiter. The sheet is as wide as the widest grid
    (at least 6 columns)."""
    width = max([len(SCORE_SLIPS.columns)] + [1 + len(x.get(k) or []) for x in slips
                                               for k in ("game_titles", "match_titles")])
    sh = _Sheet(width)
    for k, slip in enumerate(slips, start=1):
        sh.add([TITLE.get("text") or ""], merge=True, font_size=14, bold=True, height=26)
        head = (f"{slip['heading']}  第 {slip['table']} 桌  成绩单" if lang == "zh" else
                f"{slip['heading']}  table {slip['table']}  score slip")
        sh.add([head], merge=True, font_size=16, bold=True, height=30)
        for side in slip["sides"]:
            sh.add([_side_line(side, lang)], merge=True, font_size=13, height=24, align="left")
        for line in slip.get("extra", []):  # 牌号, 座位 as 对阵 shows them
            sh.add([line], merge=True, font_size=11, height=20, align="left")
        games = slip.get("games", 0)
        numbers = slip.get("game_numbers") or list(range(1, games + 1))
        values = slip.get("game_values") or []  # prefilled cells of each game row (牌号, 台次)
        for titles, rows, first, filled in (
                (slip.get("game_titles") or [], numbers,
                 slip.get("game_word") or ("局" if lang == "zh" else "Game"), values),
                (slip.get("match_titles") or [], [""], "", [])):
            if not titles:
                continue
            sh.add([first, *titles], bold=True, border=True, height=30)
            for j, i in enumerate(rows):
                cells = list(filled[j]) if j < len(filled) else []
                cells = (cells + [""] * len(titles))[:len(titles)]
                sh.add([i, *cells], border=True, height=28)
            sh.add([], height=10)
        s0 = slip["sides"][0][0] if slip["sides"] else ""
        s1 = slip["sides"][1][0] if len(slip["sides"]) > 1 else ""
        sign = SIGN_SLIP[0 if lang == "zh" else 1].format(s0=s0, s1=s1)
        sh.add([sign], merge=True, font_size=12, height=40, align="left")
        if k % SLIPS_PER_PAGE == 0:
            sh.page()
        else:
            sh.add(["✂ " + "- " * 60], merge=True, height=30)
    return sh.values, sh.format(SCORE_SLIPS, landscape=False,
                                widths=[8] + [max(8.0, 84 / (width - 1))] * (width - 1))


def bulletin(blocks: list[dict], lang: str = "zh") -> tuple[Grid, SheetFormat]:
    """成绩公告: one portrait A4 page per block (group, stage, pool and round) — the round's
    results (桌号, the sides, the score), the standings after the round, and the chief arbiter's
    signature line (裁判长签字) with the date."""
    width = len(BULLETIN.columns)
    sh = _Sheet(width)
    zh = lang == "zh"
    for b in blocks:
        sh.add([TITLE.get("text") or ""], merge=True, font_size=16, bold=True, height=30)
        sh.add([b["heading"]], merge=True, font_size=18, bold=True, height=32)
        sh.add(["本轮成绩" if zh else "Results of the round"], merge=True, font_size=13,
               bold=True, height=24, align="left")
        sh.add(["桌号" if zh else "Table", *b["results_header"]], bold=True, border=True,
               height=22)
        for row in b["results"]:
            sh.add(row, border=True, height=20)
        sh.add([], height=12)
        sh.add([b["standings_title"]], merge=True, font_size=13, bold=True, height=24,
               align="left")
        sh.add(b["standings_header"], bold=True, border=True, height=22)
        for row in b["standings"]:
            sh.add(row, border=True, height=20)
        sh.add([], height=24)
        sh.add([SIGN_ARBITER[0 if zh else 1]], merge=True, font_size=13, height=40,
               align="right")
        sh.page()
    return sh.values, sh.format(BULLETIN, landscape=False)


CERTIFICATE_PAGES = SheetLayout(key="certificate_pages", zh="荣誉证书", en="Certificate pages",
                                landscape=True, columns=[
    C(f"c{i}", "", "", width=w) for i, w in enumerate((10, 30, 30, 30, 10))])


def certificate_pages(certs: list[dict], lang: str = "zh") -> tuple[Grid, SheetFormat]:
    """荣誉证书: one landscape A4 page per person — ``certs`` items ``dict(person, group,
    place_label, award, team, unit)`` (``team`` the pair/team the person played in, or None):
    the title, the person's name, the event, group, place and award, and the date line."""
    zh = lang == "zh"
    sh = _Sheet(len(CERTIFICATE_PAGES.columns))
    event = TITLE.get("text") or ""
    for c in certs:
        sh.add(["荣 誉 证 书" if zh else "Certificate"], merge=True, font_size=40, bold=True,
               height=90)
        sh.add([], height=20)
        sh.add([f"{c['person']}：" if zh else f"{c['person']}:"], merge=True, font_size=24,
               bold=True, height=44, align="left")
        who = (f"（{c['team']}）" if c.get("team") else "") if zh else \
            (f" ({c['team']})" if c.get("team") else "")
        place, award = c.get("place_label") or "", c.get("award") or ""
        what = place + (("、" if zh else ", ") + award if award and award not in place else "")
        text = (f"    在{event}{c['group']}比赛中{who}荣获{what}。" if zh else
                f"    in {event}, {c['group']}{who}: {what}.")
        sh.add([text], merge=True, font_size=20, height=110, align="left")
        sh.add(["    特发此证，以资鼓励。" if zh else ""], merge=True, font_size=20, height=44,
               align="left")
        sh.add([], height=60)
        sh.add([(c.get("issuer") or "") + ("    ______年____月____日" if zh else "    Date: ________")],
               merge=True, font_size=18, height=40, align="right")
        sh.page()
    return sh.values, sh.format(CERTIFICATE_PAGES, landscape=True)


RANK_CHART = SheetLayout(key="rank_chart", zh="排名走势", en="Rank progression", landscape=True,
                         columns=[C("label", "", "", width=18)])
CHART_ROWS = 24  # rows a chart of the default height covers (12 cm at 15 pt a row)


def rank_progression(blocks: list[dict], lang: str = "zh") -> tuple[Grid, SheetFormat]:
    """排名走势: per block (a group, stage and pool) a table — one row per entrant (``label``),
    one column per complete round (the rank after it) — and beside it a native line chart of
    the same values, rank 1 at the top; one landscape A4 page per block. ``blocks`` items:
    ``dict(title=str, rounds=[int], rows=[(label, [rank | None per round])])``."""
    from bianpai.workbooks.port import ChartSpec
    zh = lang == "zh"
    width = 1 + max((len(b["rounds"]) for b in blocks), default=1)
    sh = _Sheet(width)
    charts = []
    for b in blocks:
        start = len(sh.values) + 1
        sh.add([b["title"]], merge=True, font_size=14, bold=True, height=24, align="left")
        head = start + 1
        sh.add(["" if zh else "", *[f"第{r}轮" if zh else f"R{r}" for r in b["rounds"]]],
               bold=True, border=True)
        for label, ranks in b["rows"]:
            sh.add([label, *ranks], border=True)
        last = len(sh.values)
        n = len(b["rows"])
        charts.append(ChartSpec(
            title=b["title"] + (" 排名走势" if zh else " rank by round"), header_row=head,
            first_row=head + 1, last_row=last, last_col=1 + len(b["rounds"]),
            anchor=f"{_letter(width + 2)}{start}", x_title="轮次" if zh else "Round",
            y_title="名次" if zh else "Rank", y_reversed=True, y_min=1, y_max=max(n, 1),
            height=max(10.0, 0.5 * n + 4)))
        pad = max(CHART_ROWS, int(charts[-1].height / 0.53) + 2) - (last - start + 1)
        for _ in range(max(pad, 1)):
            sh.add([])
        sh.page()
    fmt = sh.format(RANK_CHART, landscape=True,
                    widths=[18] + [7] * (width - 1))
    fmt.charts = charts
    fmt.print_setup.gridlines = False
    return sh.values, fmt


def _letter(i: int) -> str:
    from openpyxl.utils import get_column_letter
    return get_column_letter(i)


def position_after(names: list[str], anchor: str) -> int | None:
    """0-based place of a new paper sheet among the sheets ``names``: before the first sheet
    that :data:`bianpai.workbooks.layouts.ORDER` puts after the layout key ``anchor`` (桌卡 after
    对阵, 荣誉证书 after 证书 …), else before a macro workbook's ``xlwings.conf`` (which stays
    last), else at the end (None)."""
    from bianpai.workbooks.layouts import KEY_OF_NAME, ORDER
    later = ORDER[ORDER.index(anchor) + 1:] if anchor in ORDER else []
    for i, n in enumerate(names):
        if KEY_OF_NAME.get(n) in later:
            return i
    return names.index("xlwings.conf") if "xlwings.conf" in names else None
