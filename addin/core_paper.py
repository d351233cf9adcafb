"""Printed paper of a core event: 桌卡 and 记分单 of the matches a `draw` made, the 成绩公告 of
the round a `rank` covers, and the standings after every round (for 排名走势).

Values come from the :class:`~bianpai.addin.competition.CoreEvent`; the page layout is
:mod:`bianpai.workbooks.paper`. Every format and scoring is handled the same way: the side titles
are the format's (主队/客队, 南北/东西, 先手/后手 …), the slip's columns the scoring's entry columns.
"""

from __future__ import annotations

from bianpai.workbooks.roster_layouts import roster_layout

import pandas as pd

from bianpai.addin.competition import CoreEvent
from bianpai.addin.core_standings import PoolStandings
from bianpai.addin.core_unplaced import place_of
from bianpai.engines.core import Match, StageState
from bianpai.engines.standings import CRITERIA
from bianpai.templates.schema import Group, Stage
from bianpai.workbooks import paper as P
from bianpai.workbooks.tables import find_sheet, number_cell

KNOCKOUT_KINDS = ("single_elimination", "double_elimination")
GAME_ROWS = 6  # blank game rows on a slip when the scoring does not fix the number of games


def _sides(ev: CoreEvent, s: Stage) -> list[tuple[str, str]]:
    """The stage's side titles: a format whose sides are seats (a Mitchell's 南北/东西, 80分规则
    一5), else the regulation's ``side_titles``, else the scoring's (a pairs scoring: 南北/东西),
    else the format's, else the event's."""
    if getattr(type(s.format), "sides_are_seats", False):  # a Mitchell's 南北/东西
        return list(type(s.format).side_labels)
    labels = getattr(type(s.scoring), "side_labels", None) or \
        getattr(type(s.format), "side_labels", None) or ev.lay.sides
    return list(ev.lay.sides if ev.reg.side_titles else labels)


def _side_title(ev: CoreEvent, sides, i: int) -> str:
    if i < len(sides):
        return sides[i][0] if ev.lang == "zh" else sides[i][1]
    return f"第{i + 1}方" if ev.lang == "zh" else f"Side {i + 1}"


def _heading(ev: CoreEvent, g: Group, s: Stage, m: Match) -> str:
    pool = "" if m.pool is None else (f" {m.pool}组" if ev.lang == "zh" else f" pool {m.pool}")
    rnd = f"第{m.round}轮" if ev.lang == "zh" else f"round {m.round}"
    return f"{ev.gname(g)} {ev.sname(s)}{pool} {rnd}"


def _titles(ev: CoreEvent, cols, sides) -> list[str]:
    out = []
    for c in cols:
        if getattr(c, "prefill", False):
            continue
        t = c.zh if ev.lang == "zh" else c.en
        if c.side is not None:
            t = t.replace("{side}", _side_title(ev, sides, c.side))
        out.append(t)
    return out


def _write(ev: CoreEvent, layout, grid, fmt, anchor: str) -> None:
    """Rebuild a paper sheet where it is, a new one after the sheet of ``anchor``."""
    name = find_sheet(ev.port, layout)
    if name is not None:
        ev.port.write_sheet(name, grid, fmt)
    else:
        ev.port.write_sheet(layout.name(ev.lang), grid, fmt,
                            position=P.position_after(ev.port.sheet_names(), anchor))


def _card_lines(ev: CoreEvent, new: list[tuple[Group, Stage, Match]]) -> dict[tuple, list[str]]:
    """The lines a card shows below the sides when the style's 对阵 declares them
    (``SheetView.card_columns``: 牌号, 座位 …): ``title：value`` of each non-empty one, as 对阵
    shows the match, by match key. Empty without such a declaration (the match label is shown)."""
    from bianpai.addin.core_draw import schedule_row  # noqa: PLC0415
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
    view = style_of(ev.reg).view(ev.reg, K.SCHEDULE.key)
    if view is None or not view.card_columns or not new:
        return {}
    cols = [(i, c) for i, c in enumerate(view.layout.columns) if c.key in view.card_columns]
    out = {}
    for g, s, m in new:
        row = view.rows(K.SCHEDULE, [schedule_row(ev, g, s, m)], ev.lang)[0]
        out[(g.id, s.id, m.pool, m.round, m.table)] = [
            f"{c.zh if ev.lang == 'zh' else c.en}{'：' if ev.lang == 'zh' else ': '}{row[i]}"
            for i, c in cols if row[i] not in (None, "")]
    return out


def round_papers(ev: CoreEvent, new: list[tuple[Group, Stage, Match]]) -> tuple[list, list]:
    """``(cards, slips)`` (shapes of :mod:`bianpai.workbooks.paper`) of the non-bye matches in
    ``new`` (``(group, stage, match)`` as the draw made them), by group, stage, round, pool,
    table."""
    order = {g.id: i for i, g in enumerate(ev.reg.groups)}
    shown = _card_lines(ev, new)
    cards, slips = [], []
    for g, s, m in sorted(new, key=lambda t: (order.get(t[0].id, 0), t[0].stages.index(t[1])
                                              if t[1] in t[0].stages else 0, t[2].round,
                                              str(t[2].pool or ""), t[2].table)):
        if m.is_bye:
            continue
        sides = _sides(ev, s)
        who = [(_side_title(ev, sides, i), n, ev.name_of(g, n), ev.unit_of(g, n))
               for i, n in enumerate(m.sides)]
        extra = shown.get((g.id, s.id, m.pool, m.round, m.table))
        if extra is None:
            extra = [("场次/用牌：" if ev.lang == "zh" else "Match / boards: ") + str(m.label)] \
                if m.label else []
        card = dict(heading=_heading(ev, g, s, m), table=m.table, sides=who, extra=extra)
        cards.append(card)
        gcols, mcols = s.scoring.entry_game_columns(), s.scoring.entry_match_columns()
        n_games = getattr(s.scoring, "games_per_match", None)
        n_games = n_games if isinstance(n_games, int) and n_games > 0 else GAME_ROWS
        slip = dict(card, game_titles=_titles(ev, gcols, sides), games=n_games if gcols else 0,
                    match_titles=_titles(ev, mcols, sides),
                    **_game_rows(ev, g, m, n_games if gcols else 0))
        rows = _prepared_rows(s, m) if gcols else None
        if rows is not None:  # the rows the draw prepares (a Mitchell round's 12 boards)
            typed = [c for c in gcols if not getattr(c, "prefill", False)]
            slip.update(games=len(rows), game_values=[
                ["" if r.get(c.key) is None else r.get(c.key) for c in typed] for r in rows])
            slip.pop("game_numbers", None)
            slip.pop("game_word", None)  # rows 局 1, 2 …; the prepared columns show the rest
        slips.append(slip)
    return cards, slips


def _prepared_rows(s: Stage, m: Match) -> list[dict] | None:
    """The 逐局成绩 rows the draw prepares for ``m`` (the scoring's ``entry_rows``: boards and
    prefilled values), or None when the scoring prepares none."""
    fn = getattr(s.scoring, "entry_rows", None)
    if fn is None:
        return None
    try:
        return list(fn(m)) or None
    except Exception:  # noqa: BLE001 - a hand-edited match label: the plain rows
        return None


def _game_rows(ev: CoreEvent, g: Group, m: Match, n: int) -> dict:
    """How a slip names its game rows when the style shows 逐局成绩 in its own columns: the
    title of the view's column that shows the game (副号, 牌号) and, when that column is
    computed (牌号 counted across the event), the numbers it shows for this match's games."""
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    view = style_of(ev.reg).view(ev.reg, ev.lay.games.key)
    if view is None or not n:
        return {}
    col = next((c for c in view.layout.columns if view.source.get(c.key) == "game"
                or view.inverse.get("game", (None,))[0] == c.key), None)
    if col is None:
        return {}
    out = {"game_word": col.zh if ev.lang == "zh" else col.en}
    fn = view.source.get(col.key)
    if callable(fn):
        out["game_numbers"] = [fn({"game": i, "round": m.round, "group": ev.gname(g)}, ev.lang)
                               for i in range(1, n + 1)]
    return out


def write_round_papers(ev: CoreEvent, new: list[tuple[Group, Stage, Match]]) -> None:
    """Rebuild 桌卡 and 记分单 for the matches just drawn (nothing when only byes were drawn)."""
    cards, slips = round_papers(ev, new)
    if not cards:
        return
    for layout, (grid, fmt) in ((P.TABLE_CARDS, P.table_cards(cards, ev.lang)),
                                (P.SCORE_SLIPS, P.score_slips(slips, ev.lang))):
        _write(ev, layout, grid, fmt, "schedule")


# ------------------------------------------------------------------------------ standings by round

def state_after(ev: CoreEvent, g: Group, s: Stage, rnd: int) -> StageState:
    """The stage as it stood after round ``rnd``: its entrants by then (one joining at a later
    round left out), matches and results of rounds ≤ ``rnd``, standings of every pool
    computed from them."""
    st = ev.state(g, s, with_standings=False)
    st = StageState(entrants=[e for e in st.entrants if (e.join_round or 1) <= rnd],
                    matches=[m for m in st.matches if m.round <= rnd],
                    results={k: r for k, r in st.results.items() if r.match.round <= rnd},
                    seed=st.seed)
    st.standings = PoolStandings(ev, g, s, st)
    return st


def rank_by_round(ev: CoreEvent, g: Group, s: Stage) -> dict:
    """``{pool: DataFrame}`` of ranks after each complete round: index the pool's entrant
    numbers, one int column per round ``1 … n`` (the round is complete when every non-bye
    match of it has a result). Empty when no round is complete."""
    st = ev.state(g, s, with_standings=False)
    out = {}
    for p in st.pools():
        done = [r for r in range(1, st.rounds_drawn(p) + 1)
                if st.round_matches(r, p) and not [m for m in st.missing(r) if m.pool == p]]
        cols = {}
        for r in done:
            tab = state_after(ev, g, s, r).standings[p]
            cols[r] = pd.Series([place_of(x) for x in tab["rank"]], index=[int(e) for e in tab["entrant"]])
        if cols:
            out[p] = pd.DataFrame(cols)
    return out


def _whole(text: str):
    """A criterion's shown value as a number for the sheet (4.0 → 4, 5.5 a number cell, not
    text); other text as it is."""
    return number_cell(text) if text not in (None, "") else text


def _bulletin_round(st: StageState, pool, upto: int | None) -> int | None:
    drawn = st.rounds_drawn(pool)
    if upto is not None:
        return min(int(upto), drawn) or None
    rounds = [r for r in range(1, drawn + 1) if st.round_matches(r, pool)]
    complete = [r for r in rounds if not [m for m in st.missing(r) if m.pool == pool]
                and any(not m.is_bye for m in st.round_matches(r, pool))]
    if complete:
        return complete[-1]
    scored = sorted({res.match.round for res in st.results.values() if res.match.pool == pool})
    return scored[-1] if scored else None


def bulletin_blocks(ev: CoreEvent, upto_round: int | None = None) -> list[dict]:
    """The blocks of 成绩公告 (see :func:`bianpai.workbooks.paper.bulletin`): per drawn group,
    entered stage and pool, the last complete round (or ``upto_round``) — its results and the
    standings after it (knockout stages: results only)."""
    from bianpai.addin.core_schedule_rows import _num, score_text
    zh = ev.lang == "zh"
    blocks = []
    for g in ev.reg.groups:
        if g.derived is not None or not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if not ev.entered(g, s):
                continue
            st0 = ev.state(g, s, with_standings=False)
            sides = _sides(ev, s)
            chain = s.tie_breaks.criteria if s.tie_breaks else ["match_points"]
            first = next((k for k in chain if k in CRITERIA and k != "lots"), None)
            for p in st0.pools():
                r = _bulletin_round(st0, p, upto_round)
                if r is None:
                    continue
                res = []
                for m in sorted(st0.round_matches(r, p), key=lambda m: m.table):
                    out = st0.results.get(m.key)
                    names = [f"{ev.name_of(g, n)}" if n is not None else ("轮空" if zh else "bye")
                             for n in m.sides]
                    if m.is_bye:  # not a score of 0:0 (a trial user read one): the bye, and
                        # what it is worth when it is worth something
                        got = out.points[0] if out is not None and out.points else 0
                        score = ("轮空" if zh else "bye") + (f"（{_num(got)}）" if got else "")
                    else:
                        score = score_text(out) if out is not None else ("未赛" if zh else "—")
                    note = "" if out is None else (out.note_zh if zh else (out.note_en or out.note_zh))
                    if len(m.sides) == 2:
                        res.append([m.table, m.sides[0], names[0], score, m.sides[1], names[1],
                                    note or None])
                    else:
                        res.append([m.table, None, " / ".join(names), score, None, None, note or None])
                pool = "" if p is None else (f" {p}组" if zh else f" pool {p}")
                head = f"{ev.gname(g)} {ev.sname(s)}{pool} 第{r}轮成绩公告" if zh else \
                    f"{ev.gname(g)} {ev.sname(s)}{pool}: results of round {r}"
                t0, t1 = _side_title(ev, sides, 0), _side_title(ev, sides, 1)
                block = dict(heading=head,
                             results_header=["号" if zh else "No", t0, "比分" if zh else "Score",
                                             "号" if zh else "No", t1, "说明" if zh else "Note"],
                             results=res, standings_title="", standings_header=[], standings=[])
                if s.format.kind not in KNOCKOUT_KINDS:
                    tab = state_after(ev, g, s, r).standings[p]
                    from bianpai.addin.core_sheets import standings_record  # noqa: PLC0415
                    record = standings_record(s)
                    crit = CRITERIA[first] if first else None
                    block["standings_title"] = f"第{r}轮后排名" if zh else f"Standings after round {r}"
                    block["standings_header"] = [
                        "名次" if zh else "Rank", "号" if zh else "No", "名称" if zh else "Name",
                        (crit.label_zh if zh else crit.label_en) if crit else "",
                        "胜-平-负" if zh else "W-D-L", "单位" if zh else "Unit", ""]
                    for rec in tab.to_dict("records"):
                        v = rec.get(first) if first else None
                        shown = _whole(crit.show(v)) if crit is not None and v is not None else None
                        n = int(rec["entrant"])
                        block["standings"].append([
                            place_of(rec["rank"]), n, ev.name_of(g, n), shown,
                            f"{rec['won']}-{rec['drawn']}-{rec['lost']}" if "won" in record else None,
                            ev.unit_of(g, n), None])
                blocks.append(block)
    return blocks


def write_bulletin(ev: CoreEvent, upto_round: int | None = None) -> int:
    """Rebuild 成绩公告 (one page per group, stage and pool); returns the number of pages."""
    blocks = bulletin_blocks(ev, upto_round)
    if not blocks:
        return 0
    grid, fmt = P.bulletin(blocks, ev.lang)
    _write(ev, P.BULLETIN, grid, fmt, "final_standings")
    return len(blocks)


def write_rank_papers(ev: CoreEvent, upto_round: int | None = None) -> None:
    """What `rank` prints beside 排名: 成绩公告 of the last complete round (or ``upto_round``)
    and 排名走势."""
    write_bulletin(ev, upto_round)
    write_rank_chart(ev)


def members_of(ev: CoreEvent, g: Group, number: int) -> list[str]:
    """The people of entrant ``number`` (队员1…6 of a team, 选手1/选手2 of a pair — the
    roster layout's ``name_parts`` —, the player of an individual entry): each gets a
    certificate (issue 12: one per person)."""
    keys = roster_layout(ev.reg.roster_layout).name_parts or \
        tuple(f"player{i}" for i in range(1, 7))
    people = [ev.roster_value(g, number, k) for k in keys]
    people = [str(p) for p in people if p is not None and str(p).strip()]
    return people or [ev.name_of(g, number)]


def rank_chart_blocks(ev: CoreEvent) -> list[dict]:
    """The blocks of 排名走势 (:func:`bianpai.workbooks.paper.rank_progression`): per drawn
    group, entered non-knockout stage and pool with a complete round, each entrant's rank after
    every complete round, in the order of the latest ranking."""
    blocks = []
    for g in ev.reg.groups:
        if g.derived is not None or not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            if not ev.entered(g, s) or s.format.kind in KNOCKOUT_KINDS:
                continue
            for p, df in rank_by_round(ev, g, s).items():
                rounds = [int(c) for c in df.columns]
                df = df.sort_values(rounds[-1], kind="stable")
                pool = "" if p is None else (f" {p}组" if ev.lang == "zh" else f" pool {p}")
                rows = [(f"{int(n)} {ev.name_of(g, int(n))}",
                         [None if pd.isna(v) else int(v) for v in df.loc[n]]) for n in df.index]
                blocks.append(dict(title=f"{ev.gname(g)} {ev.sname(s)}{pool}", rounds=rounds,
                                   rows=rows))
    return blocks


def write_rank_chart(ev: CoreEvent) -> int:
    """Rebuild 排名走势 (a table and a native line chart per group, stage and pool); returns
    the number of charts."""
    blocks = rank_chart_blocks(ev)
    if not blocks:
        return 0
    grid, fmt = P.rank_progression(blocks, ev.lang)
    _write(ev, P.RANK_CHART, grid, fmt, "final_standings")
    return len(blocks)
