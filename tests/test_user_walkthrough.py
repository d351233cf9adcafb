"""What a new organizer trips on (a walk through the README with every preset): terminal tables
that cut the 说明, messages whose brackets vanish, a draw that stops every group because one
cannot go on, a note that only the English half carries, help without words.

Each test names the 规程 clause the message or table serves.
"""

from __future__ import annotations

import datetime as dt
import io

import pandas as pd
import pytest
from rich.console import Console
from typer.testing import CliRunner

from bianpai.addin import cli
from bianpai.addin.cli import app
from bianpai.addin.terminal import print_standings
from bianpai.engines.eligibility import check_roster
from bianpai.engines.errors import RuleError
from bianpai.engines.prizes import allocate
from bianpai.engines.single_elimination import SingleElimination
from bianpai.templates.presets_io import load_preset
from tests.helpers import fill, four_pairs, new_event, pair_row, sheet_rows

runner = CliRunner()
D = dt.date


def _text(console: Console) -> str:
    return console.file.getvalue()


def _console(width: int = 80) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None)


# ------------------------------------------------------------------ terminal tables

def test_standings_explanation_is_folded_not_cut_and_pools_are_named():
    """深圳 十三（一）“比较场分相同对的平均得分率，高者列前”; 够级 七（一）1 “每个小组取前三名”:
    on an 80-column terminal the 说明 says which tie-break decided (no “…”), and a stage
    played in pools (A/B/C) shows the pool of each row."""
    why = "与第2名场分、净胜分相同，以抽签区分（抽签 2 > 1，大者列前）"
    rows = [dict(pool=p, rank=r, team=10 * i + r, name=f"{p}{r}队", match_points="4",
                 net_score="16", top_finishes=None, explanation=why if r == 1 else "")
            for i, p in enumerate("ABC") for r in (1, 2)]
    con = _console(80)
    print_standings(con, {"各地市代表队 分组赛": rows})
    out = _text(con)
    assert "…" not in out
    flat = "".join(ch for ch in out if ch not in " │\n")
    assert "以抽签区分（抽签2>1，大者列前）" in flat
    assert "小组" in out and "│ B " in out
    assert "头游次数" not in out   # a criterion without values in this table is not a column


def test_a_tie_broken_by_lot_names_both_lot_values_as_the_sheet_shows_them(tmp_path):
    """深圳 十三（三）“……抽签决定”: nothing entered, every place is the lot's. Each 说明 that says
    the lot decided names the two values of the 抽签 column — its own row's and the next row's
    — the higher one ahead, in Chinese and (English workbook) in English."""
    for lang, word in (("zh", "以抽签区分（抽签 {a} > {b}，大者列前）"),
                       ("en", "separated by lots ({a} > {b}, the higher first)")):
        wb = new_event(tmp_path / f"lots-{lang}.xlsx", lang=lang)
        fill(wb, "报名" if lang == "zh" else "Roster",
             [pair_row("男子双人赛", f"甲{i}", f"乙{i}") for i in range(1, 5)])
        assert runner.invoke(app, ["draw", str(wb), "--seed", "5"]).exit_code == 0
        assert runner.invoke(app, ["rank", str(wb)]).exit_code == 0
        rows = sheet_rows(wb, "排名" if lang == "zh" else "Standings")
        lot, why = rows[0].index("抽签" if lang == "zh" else "lots"), len(rows[0]) - 1
        body = rows[1:]
        assert len(body) == 4
        for row, nxt in zip(body, body[1:]):
            assert row[lot] > nxt[lot]
            assert row[why].endswith(word.format(a=row[lot], b=nxt[lot])), row[why]
        assert not body[-1][why]


def test_countback_strings_do_not_take_the_explanation_room():
    """福建 80分 比赛规则 二3（逐副比较）: the countback string (“4/4/4/…”) stays on the 排名
    sheet; the terminal keeps the main score and the 说明 readable."""
    rows = [dict(pool="NS", rank=r, team=r, name=f"{r}号", match_points=str(90 - r),
                 board_countback="4/4/4/4/4/4/4/4/4/4", explanation=f"场分多于第{r + 1}名")
            for r in (1, 2)]
    con = _console(80)
    print_standings(con, {"扑克牌升级（80分） 米切尔赛": rows})
    out = _text(con)
    assert "4/4/4" not in out
    assert "场分多于第2名" in out


def test_presets_table_shows_whole_titles():
    """The 规程 title is how an organizer recognises the preset: not cut at 80 columns."""
    res = runner.invoke(app, ["presets"], env={"COLUMNS": "80"})
    assert res.exit_code == 0
    # (the title folds inside its column: the end of it is on a later line, not cut with "…")
    assert "2023年深圳市掼牌（…" not in res.output
    assert "双人赛" in res.output and "团体赛" in res.output


# ------------------------------------------------------------------ CLI words

def test_error_text_keeps_square_brackets(monkeypatch):
    """A message naming ``bianpai[chess]`` (the extra for 国际象棋荷兰制, otog 单项 国际象棋) is
    printed as written, not eaten as terminal markup."""
    con = _console(120)
    monkeypatch.setattr(cli, "err_console", con)

    def boom():
        raise RuleError("荷兰制编排需要安装 bianpai[chess]（py4swiss）", "needs bianpai[chess]")
    with pytest.raises(cli.typer.Exit):
        cli._run(boom)
    assert "bianpai[chess]（py4swiss）" in _text(con)


def test_help_explains_every_argument():
    """Every workbook command says what its file and --out are; demo says which presets."""
    for cmd in ("check", "draw", "rank", "awards", "advance", "withdraw", "undo"):
        res = runner.invoke(app, [cmd, "--help"], env={"COLUMNS": "200"})
        assert "赛事工作簿" in res.output, cmd
    res = runner.invoke(app, ["draw", "--help"], env={"COLUMNS": "200"})
    assert "写入另一个文件" in res.output and "下一轮" in res.output
    res = runner.invoke(app, ["demo", "--help"], env={"COLUMNS": "200"})
    assert "bianpai presets" in res.output


def test_undo_names_the_command_in_chinese(tmp_path):
    """撤销: the organizer pressed 检查名单, so the message says 检查名单, not ``check``."""
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert runner.invoke(app, ["check", str(wb)]).exit_code == 0
    res = runner.invoke(app, ["undo", str(wb)])
    assert res.exit_code == 0
    assert "检查名单（check）" in res.output


# ------------------------------------------------------------------ engine messages

def test_blank_birth_date_is_reported_once():
    """深圳 七（一）1 “年满20周岁…不得超过65周岁”: a blank 出生日期 is one finding on its cell,
    not two."""
    rules = load_preset("shenzhen-guandan-pairs-2023").eligibility
    df = pd.DataFrame({"name": ["张伟", "王强"], "gender": ["男", "男"],
                       "birth_date": [None, D(1980, 5, 1)], "group": ["男子双人赛"] * 2})
    df.index = [2, 3]
    f = check_roster(df, rules, event_date=D(2023, 9, 19))
    blank = f[(f["row"] == 2) & (f["field"] == "birth_date")]
    assert len(blank) == 1
    assert "birth_date" not in " ".join(f["message_en"])


def test_age_limit_reads_in_english():
    """够级 四 “年龄不超过55周岁”: the English line says "at most 55", not "-–55"."""
    rules = load_preset("qingdao-gouji-2015").eligibility
    df = pd.DataFrame({"name": ["范金凤"], "gender": ["男"], "birth_date": [D(1955, 3, 3)],
                       "group": ["各地市代表队"]})
    df.index = [5]
    f = check_roster(df, rules, event_date=D(2015, 9, 20))
    en = " ".join(f["message_en"])
    assert "at most 55" in en and "-–" not in en


def test_ladder_note_is_in_the_chinese_summary():
    """otog 九（三）1 “10人以上取前3名；6人（含6人）取前1名；不足3人取消”: 3–5 entries is not
    written, and the Chinese summary (before “ / ”) says so, not only the English half."""
    rk = pd.DataFrame({"group": "围棋成年组", "place": [1, 2, 3, 4],
                       "entrant_id": [f"e{i}" for i in range(4)],
                       "name": [f"选手{i}" for i in range(4)], "unit": "鄂托克旗"})
    a = allocate(rk, load_preset("otog-mind-games-2024").awards)
    zh = [line.split(" / ")[0] for line in a.log]
    assert any("规程未规定" in line for line in zh)


def test_bracket_that_cannot_stop_names_the_flight_and_the_setting():
    """台球 十六（二）1（3） “组委会有权根据实际报名情况调整晋级名额”: a flight whose bracket cannot
    leave the set number says which flight and which 规程 setting to change."""
    fmt = SingleElimination(kind="single_elimination", stop_when_remaining={"男1": 16})
    with pytest.raises(RuleError) as e:
        fmt._rounds_to_play(12, 16, "男1")
    assert "男1" in e.value.zh and "stop_when_remaining" in e.value.zh


# ------------------------------------------------------------------ draw: groups go on alone

def _otog_book(tmp_path):
    wb = new_event(tmp_path / "o.xlsx", "otog-mind-games-2024")
    rows = []
    for i in range(6):
        rows.append(["中国象棋成年组", None, None, f"棋手{i}", "男", D(1980, 1, i + 1), None, "乌兰镇"])
    for i in range(4):
        for k in range(2):
            rows.append(["扑克掼蛋双人成年组", f"掼蛋{i}队", None, f"牌手{i}{k}", "男",
                         D(1975, 2, 2 * i + k + 1), None, "棋牌协会"])
    fill(wb, "报名", rows)
    return wb


def test_groups_go_on_alone_and_say_what_holds_them(tmp_path, monkeypatch):
    """福建 象棋 四2 “比七轮” with too few teams: the Swiss cannot pair, but 各组别互不等待 — the
    other groups are drawn and the message names the group, stage and round. otog 九 掼蛋
    “单淘汰制，每轮四局制”: a group still waiting for results names the tables it waits for.
    The check counts 参赛单位 (an individual event, otog 五（二）1, has no 队)."""
    from bianpai.engines import swiss_individual
    wb = _otog_book(tmp_path)
    res = runner.invoke(app, ["check", str(wb)])
    assert "10 个参赛单位" in res.output.replace("\n", "")

    def cannot(self, state, rng):
        raise RuleError("无法编排：不存在不重复相遇的完整对阵", "no rematch-free pairing")
    monkeypatch.setattr(swiss_individual.IndividualSwiss, "next_round", cannot)
    res = runner.invoke(app, ["draw", str(wb), "--seed", "1"])
    assert res.exit_code == 0, res.output
    flat = res.output.replace("\n", "")
    assert "中国象棋成年组积分编排赛第1轮无法编排：不存在不重复相遇的完整对阵" in flat
    assert "无法编排：无法编排" not in flat
    assert any(r[0] == "扑克掼蛋双人成年组" for r in sheet_rows(wb, "对阵")[1:])
    assert "在“成绩”或“逐局成绩”表录入" in flat

    monkeypatch.undo()
    res = runner.invoke(app, ["draw", str(wb), "--seed", "2"])
    assert res.exit_code == 0, res.output
    flat = res.output.replace("\n", "")
    assert "中国象棋成年组积分编排赛第1轮" in flat
    assert "扑克掼蛋双人成年组单淘汰赛尚有 2 场未录入成绩" in flat
    assert "第1轮第1桌" in flat and "（未编排）" in flat


def test_demo_says_why_nothing_could_be_drawn(tmp_path, monkeypatch):
    """A demo whose first draw fails (a missing optional package) stops with the reason instead
    of an empty event."""
    from bianpai.addin import commands
    from bianpai.addin.core_demo import run_core_demo

    def draw(port, **kw):
        raise RuleError("荷兰制编排需要安装 bianpai[chess]（py4swiss）", "needs bianpai[chess]")
    monkeypatch.setattr(commands, "draw", draw)
    with pytest.raises(RuleError, match="py4swiss"):
        run_core_demo("qingdao-gouji-2015", tmp_path / "d.xlsx", seed=1, console=_console(),
                      fields={"city": 6, "amateur": 6}, pictures=False)


def test_a_changed_setting_is_logged_with_its_chinese_name_and_cell(tmp_path):
    """台球 十六（二）1（3） “组委会有权根据实际报名情况调整晋级名额”: the organizer changed a value on
    the 规程 sheet; the log names it as the sheet does (名称 and the cell), not only by its path."""
    from tests.helpers import set_setting
    wb = new_event(tmp_path / "e.xlsx")
    four_pairs(wb)
    assert runner.invoke(app, ["check", str(wb)]).exit_code == 0
    rows = sheet_rows(wb, "规程")
    row, path = next((i, r[0]) for i, r in enumerate(rows, start=1)
                     if str(r[0]).endswith("lateness.rounds_disqualify"))
    set_setting(wb, path, 3)
    assert runner.invoke(app, ["check", str(wb)]).exit_code == 0
    logged = sheet_rows(wb, "日志")[-1][4]
    assert f"{rows[row - 1][1]}（规程!C{row}）{path}：2 → 3" in logged


@pytest.mark.parametrize("preset", ["qingdao-gouji-2015", "otog-mind-games-2024",
                                    "fujian-elder-mind-games-2024",
                                    "cbsa-chinese-eightball-open-2022"])
def test_settings_of_the_core_formats_have_chinese_names(preset):
    """每个读法都是设置（规程表）: the organizer reads each setting by its 名称; the core's format
    and scoring settings (80分 计分 三8 抠底, 积分编排 先后手, 台球 十六（二）弃权…) are named in
    Chinese, not by their field names."""
    from bianpai.workbooks.settings import settings_rows
    from bianpai.workbooks.settings_labels import CORE_LABELS
    rows = settings_rows(load_preset(preset))
    left = [r[1] for r in rows if str(r[0]).rsplit(".", 1)[-1] in CORE_LABELS
            and str(r[1]).rsplit(" › ", 1)[-1] in CORE_LABELS]
    assert left == []
    assert any(str(r[0]).rsplit(".", 1)[-1] in CORE_LABELS for r in rows)


def test_an_over_age_pair_player_is_refused_once():
    """otog 五（二）2 “双人项目只设成年组”, 六（二）“成年组…65岁以下”: a 68-year-old in 桥牌双人 breaks
    one rule and gets one finding (the age range), not a second “不属于任何年龄组”."""
    rules = load_preset("otog-mind-games-2024").eligibility
    df = pd.DataFrame({"name": ["李水清"], "gender": ["男"], "birth_date": [D(1956, 1, 1)],
                       "group": ["桥牌双人成年组"], "event": ["桥牌"]})
    df.index = [2]
    f = check_roster(df, rules, event_date=D(2024, 5, 31))
    assert list(f.loc[f["row"] == 2, "code"]) == ["age_above_max"]


def test_refused_awards_do_not_say_awards_is_the_next_step(tmp_path):
    """otog 九（二） places typed in 名次录入 (桥牌双人): a name not on the roster is refused at its
    cell; the refusal adds no “当前状态 / 下一步” (after 排名 it read “下一步：可以奖励分配”, the
    step just refused): the cell says what to do."""
    wb = new_event(tmp_path / "o.xlsx", "otog-mind-games-2024")
    rows = [["桥牌双人成年组", f"桥牌{i}组", None, f"牌手{i}{k}", "女", D(1970, 2, 2 * i + k + 1),
             None, "桥牌协会"] for i in range(1, 5) for k in range(2)]
    fill(wb, "报名", rows)
    fill(wb, "名次录入", [["桥牌双人成年组", p, n] for p, n in
                        ((1, "桥牌3组"), (2, "桥牌1组"), (3, "桥牌4组"), (4, "桥牌二组"))])
    res = runner.invoke(app, ["awards", str(wb)])
    assert res.exit_code == 2
    assert "名次录入!C5" in res.output
    assert "本工作簿当前状态" not in res.output and "可以奖励分配" not in res.output


def test_the_first_readme_command_prints_whole_explanations():
    """README “两条命令”: ``bianpai demo`` ends with the Shenzhen standings; 十三（一）“比较场分相同对
    的平均得分率” must be readable at 80 columns (it was cut to “以平均得…”)."""
    from bianpai.addin.demo import final_table
    why = "与第5名场分相同，以平均得分率区分 (53.17 > 50.00)"
    rows = [dict(rank=4, number=2, name="选手03/选手04", match_points=7, avg_score_pct=53.17,
                 explanation=why)]
    con = _console(80)
    con.print(final_table("男子双人赛", rows))
    out = _text(con)
    assert "…" not in out
    assert "以平均得分率区分" in "".join(ch for ch in out if ch not in " │\n")
