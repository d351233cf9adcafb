"""Play-offs for the places of a knockout's losers (loser_order: playoffs), for the money table of
otog 跳棋: 总规程 九（二）2 "个人参赛项目成年组取前8名…第五名400元、第六名300元、第七名200元、第八名100元",
单项 七（一）"比赛采取单淘汰，一局定胜负". The 规程 does not say how the losers of one round are
placed: the setting reads it as shared (default) or played off.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bianpai.addin import commands
from bianpai.addin.core_demo import _fill_results
from bianpai.engines.bracket_playoffs import playoff_block_of, playoff_label
from bianpai.engines.core import StageEntrant, StageState
from bianpai.engines.elimination import DoubleEliminationGroups, SingleElimination
from bianpai.engines.errors import RuleError
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import set_setting
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from tests.test_elimination import play
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "otog-mind-games-2024"
GROUP = "跳棋成年组"


def _state(n: int) -> StageState:
    return StageState(entrants=[StageEntrant(number=i, seed=i) for i in range(1, n + 1)], seed=1)


def _best_wins(m):
    return min(x for x in m.sides if x is not None)


def test_labels():
    """Play-off labels name the block of places they decide (第5–8名 → P5-8.1 …)."""
    assert playoff_label(5, 4, 1) == "P5-8.1" and playoff_label(5, 2) == "P5-6"
    assert playoff_label(3, 2) == "3rd"
    assert playoff_block_of("P9-16.3") == (9, 16) and playoff_block_of("3rd") == (3, 4)
    assert playoff_block_of("QF1") is None


def test_eight_players_play_for_every_place_1_to_8():
    """总规程 九（二）2 pays "第五名400元、第六名300元、第七名200元、第八名100元"; 单项 七（一）"比赛采取单淘汰".
    Places 5–8 by play-off: the QF losers meet in two matches (drawn with the semi-finals),
    the winners play for 5th, the losers for 7th (in the final's round)."""
    fmt = SingleElimination(loser_order="playoffs")
    st = play(fmt, _state(8), _best_wins)
    po = {m.label: (m.round, m.sides) for m in st.matches if playoff_block_of(m.label)}
    assert po == {"P5-8.1": (2, (8, 5)), "P5-8.2": (2, (7, 6)), "3rd": (3, (4, 3)),
                  "P5-6": (3, (5, 6)), "P7-8": (3, (8, 7))}
    pl = fmt.placings(st)
    assert list(zip(pl["entrant"], pl["place"])) == [(i, i) for i in range(1, 9)]
    assert pl.set_index("entrant").loc[7, "decided_by"] == "第7、8名附加赛胜"


def test_shared_is_the_default_and_the_shared_places_stay():
    """Default reading: the QF losers share place 5 (the prize engine pools and splits)."""
    fmt = SingleElimination()
    st = play(fmt, _state(8), _best_wins)
    pl = fmt.placings(st)
    assert sorted(pl["place"]) == [1, 2, 3, 3, 5, 5, 5, 5]
    assert not any(playoff_block_of(m.label) for m in st.matches)


def test_byes_in_the_play_offs():
    """6 players: two QFs are byes, so the 5–8 block has two real players: they meet for 5th;
    5 players: one real QF loser takes 5th by bye (no BYE v BYE match is played)."""
    fmt = SingleElimination(loser_order="playoffs")
    st = play(fmt, _state(6), _best_wins)
    assert sorted(fmt.placings(st)["place"]) == [1, 2, 3, 4, 5, 6]
    real = [m for m in st.matches if m.label == "P5-6"]
    assert len(real) == 1 and None not in real[0].sides
    st = play(fmt, _state(5), _best_wins)
    pl = fmt.placings(st).set_index("entrant")
    assert sorted(pl["place"]) == [1, 2, 3, 4, 5] and pl.loc[5, "place"] == 5


def test_sixteen_players_places_9_to_16_stay_shared():
    """``playoff_places`` 8: the R16 losers share 9th; with 16 the block 9–16 is played off too."""
    st = play(SingleElimination(loser_order="playoffs"), _state(16), _best_wins)
    pl = SingleElimination(loser_order="playoffs").placings(st)
    assert sorted(pl["place"]) == list(range(1, 9)) + [9] * 8
    fmt = SingleElimination(loser_order="playoffs", playoff_places=16)
    st = play(fmt, _state(16), _best_wins)
    assert sorted(fmt.placings(st)["place"]) == list(range(1, 17))
    # every player plays exactly once in every stage round (the play-offs end with the final)
    for rnd in range(1, 5):
        seen = [x for m in st.matches if m.round == rnd for x in m.sides if x is not None]
        assert sorted(seen) == list(range(1, 17)), rnd


def test_a_withdrawn_loser_gives_a_walkover_in_the_play_off():
    """A QF loser who withdraws after round 1 loses his play-off by walkover (退赛: his later
    matches are won by the opponents) and takes the last place of the block."""
    fmt = SingleElimination(loser_order="playoffs")
    st = _state(8)
    st.entrants[4] = StageEntrant(number=5, seed=5, withdrawn_after=1)
    st = play(fmt, st, _best_wins)
    pl = fmt.placings(st).set_index("entrant")
    assert pl.loc[5, "place"] == 8 and pl.loc[6, "place"] == 5


def test_playoff_race():
    """CBSA 十六（二）2(3) races ("半决赛和三、四名决赛采用41局21胜…决赛采用81局41胜…其余全部为25局13胜") stay
    as set when play-offs are added; the play-offs take ``playoff_race``."""
    fmt = SingleElimination(loser_order="playoffs", races_from_final=[41, 21, 13],
                            third_place_race=21, playoff_race=13)
    st = play(fmt, _state(8), _best_wins)
    race = {m.label: fmt.race_for(m, st) for m in st.matches}
    assert race["F"] == 41 and race["3rd"] == 21 and race["SF1"] == 21
    assert race["P5-6"] == 13 and race["P5-8.1"] == 13


def test_play_offs_refused_where_they_cannot_be():
    """Play-offs need a bracket played to the final (not a flight stopped at K, not a redraw,
    not double elimination): refused with a RuleError (Chinese + English)."""
    with pytest.raises(RuleError):
        SingleElimination(loser_order="playoffs", stop_when_remaining=4)
    with pytest.raises(RuleError):
        SingleElimination(loser_order="playoffs", seeding="redraw")
    with pytest.raises(RuleError):
        DoubleEliminationGroups(loser_order="playoffs")


_set = set_setting  # a 规程 value typed by the organizer


def test_checkers_play_offs_drawn_typed_ranked_and_paid(tmp_path):
    """otog 跳棋 (OT-28, 单项 七（一）“比赛采取单淘汰”) with 负者名次 = playoffs set in 规程: the 5–8 play-offs are drawn with the
    semi-finals and the final, typed in 逐局成绩 like any game (a drawn game → a decider row),
    and the eight places are paid 1000/800/600/500/400/300/200/100 (九（二）2), not pooled."""
    path = tmp_path / "c.xlsx"
    reg = load_preset(PRESET)
    gi = next(i for i, g in enumerate(reg.groups) if g.name_zh == GROUP)
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    _set(path, f"groups[{gi}].stages[0].format.loser_order", "playoffs")
    wb = load_workbook(path)
    ws = wb["报名"]
    for i in range(8):
        ws.append([GROUP, None, None, f"棋手{i}", "男", dt.date(1985, 3, 3), None, "鄂托克旗",
                   "队员", None, None, None])
    wb.save(path)
    rng, strength = random.Random(3), {}
    for step in range(6):
        res = run("draw", path, "--seed", 20 + step)
        if res.exit_code != 0:
            assert "rank" in res.output, res.output
            break
        _fill_results(path, rng, strength)
    sched = [r for r in rows(path, "对阵")[1:] if r[0] == GROUP]
    by_label = {r[5]: r[3] for r in sched}
    assert by_label["P5-8.1"] == by_label["P5-8.2"] == by_label["SF1"] == 2
    assert by_label["P5-6"] == by_label["P7-8"] == by_label["3rd"] == by_label["F"] == 3
    typed = {r[4] for r in rows(path, "逐局成绩")[1:] if r[0] == GROUP}
    assert len(typed) >= 4  # the play-off games were typed on their own 桌号 rows
    assert run("rank", path).exit_code == 0
    final = [r for r in rows(path, "总排名")[1:] if r[0] == GROUP]
    assert sorted(r[1] for r in final) == list(range(1, 9))
    assert run("awards", path).exit_code == 0
    awards = [r for r in rows(path, "奖励")[1:] if r[0] == GROUP]
    assert [r[1] for r in awards] == ["第一名", "第二名", "第三名", "第四名", "第五名", "第六名",
                                      "第七名", "第八名"]  # no 并列 place
    # the money of places 5–8 (九（三）1 pays 8 places from 30 entries: the test's 8 entries
    # are given 8 paid places in 规程 so the whole table is seen)
    _set(path, "awards.groups[1].places_by_entries.steps[3].places", 8)
    assert run("awards", path).exit_code == 0
    paid = [r[5] for r in rows(path, "奖励")[1:] if r[0] == GROUP]
    assert paid == [1000, 800, 600, 500, 400, 300, 200, 100]
    grid = [r for r in rows(path, "签表图")[1:] if r[0] == GROUP]
    heads = [r[3] for r in grid if r[3] and "附加赛" in str(r[3])]
    assert heads == ["第5–8名附加赛 P5-8.1", "第5–8名附加赛 P5-8.2", "第5–6名附加赛 P5-6",
                     "第7–8名附加赛 P7-8"]


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(n=st.integers(2, 64), seed=st.integers(0, 10 ** 6), withdraw=st.integers(0, 2))
def test_play_off_invariants(n, seed, withdraw):
    """With play-offs, nobody plays twice in a stage round, a withdrawn player never plays after
    his last round, every entrant is placed, and places 1…min(n, 8) go to one player each when
    nobody withdrew."""
    rng = random.Random(seed)
    ents = [StageEntrant(i, seed=i) for i in range(1, n + 1)]
    for _ in range(withdraw):
        i = rng.randrange(n)
        ents[i] = StageEntrant(i + 1, seed=i + 1, withdrawn_after=rng.randint(0, 3))
    fmt = SingleElimination(loser_order="playoffs")
    state = play(fmt, StageState(ents, seed=seed), lambda m: rng.choice(m.entrants))
    wd = {e.number: e.withdrawn_after for e in ents}
    for r in range(1, state.rounds_drawn() + 1):
        es = [e for m in state.round_matches(r) for e in m.entrants]
        assert len(es) == len(set(es))
        assert all(wd[e] is None or wd[e] >= r for e in es)
    pl = fmt.placings(state)
    assert sorted(pl["entrant"]) == list(range(1, n + 1))
    if not withdraw:
        top = sorted(p for p in pl["place"] if p <= 8)
        assert top == list(range(1, min(n, 8) + 1))


def test_play_offs_in_the_bracket_table_and_picture(tmp_path):
    """The bracket sheet data names the play-offs (第5–8名附加赛 …) and the PNG/PDF draws them
    below the bracket (the picture grows to hold them)."""
    from bianpai.engines.elimination import bracket_table
    from bianpai.workbooks.bracket_picture import render_bracket
    fmt = SingleElimination(loser_order="playoffs")
    st = play(fmt, _state(8), _best_wins)
    table = bracket_table(st, fmt)
    po = table[table["part"] == "PO"]
    assert set(po["label"]) == {"P5-8.1", "P5-8.2", "P5-6", "P7-8"}
    assert set(po["round_zh"]) == {"第5–8名附加赛", "第5–6名附加赛", "第7–8名附加赛"}
    assert po[po["label"] == "P5-6"]["won"].sum() == 1
    plain = render_bracket(bracket_table(st, SingleElimination()), tmp_path / "a.png", dpi=40)
    full = render_bracket(table, tmp_path / "b.png", dpi=40)
    from PIL import Image
    assert Image.open(full).size[1] > Image.open(plain).size[1]
    assert render_bracket(table, tmp_path / "b.pdf").read_bytes()[:4] == b"%PDF"
