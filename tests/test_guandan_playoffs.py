"""掼蛋 places 5–8 by play-off (otog 单项 九（二）, 总规程 九（二）1): the preset's option
``loser_order: playoffs`` of the 掼蛋 knockout, run in a workbook.

总规程 九（二）1 “扑克掼蛋、争上游、桥牌等双人项目奖：取前8名…（第四名1000元、第五名800元、第六名600元、
第七名400元、第八名200元）” pays every place 1–8 its own amount, while 单项 九（二）“掼蛋比赛进行单淘汰制”
does not say how the losers of a round are placed: the default shares their place (money pooled),
the option plays them off — every play-off is a 4-game match like the others (“每轮四局制…
如打成平分，进行5分钟包干制，一局定胜负”).
"""

from __future__ import annotations

import datetime as dt
import random


from bianpai.addin import commands
from bianpai.addin.core_demo import _fill_results
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from tests.helpers import set_setting
from tests.helpers import sheet_rows as rows
from tests.test_cli_flow import run
from bianpai.workbooks.lazy_edit import load_workbook

PRESET = "otog-mind-games-2024"
GROUP = "扑克掼蛋双人成年组"


def test_guandan_places_5_to_8_played_off_and_paid_apart(tmp_path):
    """单项 九（二）“掼蛋比赛进行单淘汰制，每轮四局制” with the 规程 setting 负者名次 = playoffs
    (``groups[1].stages[0].format.loser_order``): 8 pairs play the quarter-finals, the losers play
    the 5–8 block (P5-8.1/2 with the semi-finals, P5-6 and P7-8 with the final), each a 4-game
    match typed in 逐局成绩; the eight places are distinct and paid 2000 … 200 (九（二）1)."""
    path = tmp_path / "g.xlsx"
    reg = load_preset(PRESET)
    gi = next(i for i, g in enumerate(reg.groups) if g.name_zh == GROUP)
    assert reg.groups[gi].stages[0].format.loser_order == "shared"  # the default reading
    assert "loser_order: playoffs" in reg.groups[gi].stages[0].format.note
    commands.build_workbook(OpenpyxlPort(path, create=True, command="new"), reg)
    set_setting(path, f"groups[{gi}].stages[0].format.loser_order", "playoffs")
    wb = load_workbook(path)
    ws = wb["报名"]
    for i in range(8):
        for who in "甲乙":
            ws.append([GROUP, f"组合{i}", None, f"{who}{i}", "男", dt.date(1985, 3, 3), None,
                       "鄂托克旗", "队员", None, None, None])
    wb.save(path)
    rng, strength = random.Random(5), {}
    for step in range(6):
        res = run("draw", path, "--seed", 30 + step)
        if res.exit_code != 0:
            assert "rank" in res.output, res.output
            break
        _fill_results(path, rng, strength)
    sched = [r for r in rows(path, "对阵")[1:] if r[0] == GROUP]
    by_label = {r[5]: r[3] for r in sched}
    assert by_label["P5-8.1"] == by_label["P5-8.2"] == by_label["SF1"] == 2
    assert by_label["P5-6"] == by_label["P7-8"] == by_label["F"] == 3
    games = [r for r in rows(path, "逐局成绩")[1:] if r[0] == GROUP]
    po_tables = {(r[3], r[4]) for r in sched if r[5] in ("P5-6", "P7-8")}
    assert all(sum(1 for g in games if (g[3], g[4]) == t and g[5] <= 4) == 4 for t in po_tables)
    assert run("rank", path).exit_code == 0
    final = [r for r in rows(path, "总排名")[1:] if r[0] == GROUP]
    assert sorted(r[1] for r in final) == list(range(1, 9))
    # 九（三）2 pays 1 place below 10 pairs: the test's 8 pairs get 8 paid places in 规程
    set_setting(path, "awards.groups[0].places_by_entries.steps[4].places", 8)
    set_setting(path, "awards.groups[0].places_by_entries.steps[3].places", 8)
    assert run("awards", path).exit_code == 0
    paid = [r[5] for r in rows(path, "奖励")[1:] if r[0] == GROUP]
    assert paid == [2000, 1600, 1200, 1000, 800, 600, 400, 200]
