import pytest

from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.templates.presets_io import load_preset, preset_names
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.settings import regulation_from_sheet, settings_rows
from tests.helpers import four_pairs, new_event
from bianpai.workbooks.lazy_edit import load_workbook

REGULATIONS = ["shenzhen-guandan-pairs-2023", "qingdao-gouji-2015", "cbsa-chinese-eightball-open-2022",
               "fujian-elder-mind-games-2024", "otog-mind-games-2024"]


def test_every_regulation_has_a_preset():
    assert set(REGULATIONS) <= set(preset_names())


@pytest.mark.parametrize("name", preset_names())
def test_presets_validate_and_round_trip(name):
    reg = load_preset(name)
    assert reg.awards is not None and reg.eligibility is not None
    rows = settings_rows(reg)
    assert rows[1][:3] == ["preset", "规程预设", name]


def test_broken_preset_names_field_path(tmp_path):
    text = (tmp_path / "x.yaml")
    src = load_preset.__globals__["preset_text"]("shenzhen-guandan-pairs-2023")
    text.write_text(src.replace("max_rounds: 7", "max_rounds: seven"), encoding="utf-8")
    with pytest.raises(RuleError) as exc:
        load_preset(text)
    assert "groups.0.stages.0.format" in exc.value.zh and "max_rounds" in exc.value.zh


def test_yaml_is_safe_loaded(tmp_path):
    bad = tmp_path / "evil.yaml"
    bad.write_text("!!python/object/apply:os.system ['echo hacked']\n", encoding="utf-8")
    with pytest.raises(RuleError):
        load_preset(bad)


def test_settings_sheet_changes_the_rule(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    book = load_workbook(wb)
    ws = book["规程"]
    keys = [row[0].value for row in ws.iter_rows(min_row=2)]
    # settings shared by the three groups appear once, as groups[*]
    assert "groups[*].stages[0].scoring.bye.score_pct" in keys
    assert "groups[0].stages[0].scoring.bye.score_pct" not in keys
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "groups[*].stages[0].scoring.bye.score_pct":
            row[2].value = 50
        if row[0].value == "groups[*].stages[0].tie_breaks.criteria":
            row[2].value = "match_points, level_diff, lots"
    # one group overridden by a row typed below
    ws.append(["groups[2].stages[0].scoring.bye.score_pct", "混合 轮空", 52, "", ""])
    book.save(wb)
    reg = regulation_from_sheet(OpenpyxlPort(wb))
    assert [g.stages[0].scoring.bye.score_pct for g in reg.groups] == [50, 50, 52]
    assert reg.groups[1].stages[0].tie_breaks.criteria == ["match_points", "level_diff", "lots"]


def test_unknown_setting_named(tmp_path):
    wb = new_event(tmp_path / "e.xlsx")
    book = load_workbook(wb)
    ws = book["规程"]
    ws.append(["groups[0].nonsense", "x", 1, "", ""])
    book.save(wb)
    with pytest.raises(InputError) as exc:
        regulation_from_sheet(OpenpyxlPort(wb))
    assert exc.value.where.startswith("规程!A")


def test_a_table_setting_typed_without_its_keys_names_the_form(tmp_path):
    """Found by a trial user: 奖金 typed “20000, 10000” said “amounts[20000] 的值无效：应为数字”
    (the value was a number). The cell is named and the form shown (1: 20000, 2: 10000)."""
    from bianpai.addin import commands
    from tests.helpers import set_setting
    wb = tmp_path / "e.xlsx"
    commands.build_workbook(OpenpyxlPort(wb, create=True, command="new"),
                            load_preset("otog-mind-games-2024"))
    key = "awards.groups[0].prize_table.amounts"
    set_setting(wb, key, "20000, 10000")
    with pytest.raises(InputError) as exc:
        regulation_from_sheet(OpenpyxlPort(wb))
    assert exc.value.where.startswith("规程!C") and "键: 值" in exc.value.zh
    assert "1: 2000" in exc.value.zh and "20000, 10000" in exc.value.zh
    set_setting(wb, key, "1: 20000, 2: 10000")
    reg = regulation_from_sheet(OpenpyxlPort(wb))
    assert reg.awards is not None


def test_a_bad_list_item_names_the_settings_cell_once(tmp_path):
    """Found by a trial tester: board_score_values “a,b,c” gave 9 errors that named only
    “规程” (one per item and group). One error, at the row's value cell."""
    from tests.helpers import set_setting
    wb = new_event(tmp_path / "e.xlsx")
    set_setting(wb, "groups[*].stages[0].scoring.board_score_values", "a,b,c")
    with pytest.raises(InputErrors) as exc:
        regulation_from_sheet(OpenpyxlPort(wb))
    errs = exc.value.errors
    assert len(errs) == 1 and errs[0].where.startswith("规程!C")
    assert "board_score_values" in errs[0].zh and "应为整数" in errs[0].zh


def test_an_unknown_tie_break_lists_the_nearest_names_only():
    """Found by a trial tester: a typo listed all 60+ criteria (chess ones for a guandan event)."""
    from pydantic import ValidationError
    from bianpai.templates.schema import TieBreakChain
    with pytest.raises(ValidationError) as exc:
        TieBreakChain(criteria=["match_pionts", "lots"])
    text = str(exc.value)
    assert "match_points（场分）" in text and "buchholz" not in text.lower()
    assert text.count("（") <= 8


def test_a_place_given_twice_in_a_prize_table_is_refused(tmp_path):
    """Found by a trial tester: “1: 2000, 1: 500” was taken and paid first place 500."""
    from bianpai.addin import commands
    from tests.helpers import set_setting
    wb = tmp_path / "e.xlsx"
    commands.build_workbook(OpenpyxlPort(wb, create=True, command="new"),
                            load_preset("otog-mind-games-2024"))
    set_setting(wb, "awards.groups[0].prize_table.amounts", "1: 2000, 1: 500")
    with pytest.raises(InputError) as exc:
        regulation_from_sheet(OpenpyxlPort(wb))
    assert exc.value.where.startswith("规程!C") and "1 写了两次" in exc.value.zh


def test_a_prize_table_row_takes_the_amounts_themselves(tmp_path):
    """Found by a trial tester: the Shenzhen 规程's only prize row (a preset without a table)
    refused “1: 2000, 2: 1000” with a library message; only “amounts: {1: 2000}” worked."""
    from tests.helpers import set_setting
    wb = new_event(tmp_path / "e.xlsx")
    set_setting(wb, "awards.groups[0].prize_table", "1: 2000, 2: 1000")
    reg = regulation_from_sheet(OpenpyxlPort(wb))
    assert {k: int(v) for k, v in reg.awards.groups[0].prize_table.amounts.items()} == \
        {1: 2000, 2: 1000}
    set_setting(wb, "awards.groups[0].prize_table", "amounts: {1: 3000}")
    reg = regulation_from_sheet(OpenpyxlPort(wb))
    assert int(reg.awards.groups[0].prize_table.amounts[1]) == 3000
