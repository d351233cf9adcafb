"""The 规程 sheet: every setting of the regulation, one row each, with its clause.

:func:`settings_rows` flattens a :class:`~bianpai.templates.schema.Regulation` into rows
(设置项 path, 名称, 值, 条款, 说明). :func:`regulation_from_sheet` reads them back: the preset named
in the ``preset`` row is loaded and every row's value is set at its path, so an organizer who
changes a value in the sheet changes the rule (and a bad value is reported by cell).
"""

from __future__ import annotations

import copy
from collections import OrderedDict

import re
from decimal import Decimal
from typing import Any

from openpyxl.utils import get_column_letter

from pydantic import ValidationError

from bianpai.engines.pydantic_zh import zh_message

from bianpai.engines.errors import InputError, InputErrors, RuleError
from bianpai.templates.presets_io import load_preset
from bianpai.templates.schema import Regulation
from bianpai.workbooks.layouts import SETTINGS
from bianpai.workbooks.settings_labels import CORE_LABELS
from bianpai.workbooks.settings_values import BadMapping as _BadMapping
from bianpai.workbooks.settings_values import value_of as _value
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.tables import find_sheet, read_settings

LABELS = {
    # the competition core and its formats/scorings
    "boards": "牌数（VP换算，空=每轮牌数）", "pools": "小组", "count": "组数", "labels": "组名",
    "method": "分组方法", "fixtures": "对阵表", "pool_fixtures": "各组对阵表", "rounds": "轮次",
    "packing": "排轮方法", "seeding": "签位", "odd_bye": "单数轮空", "bye_limit": "轮空限制",
    "stop_when_remaining": "剩余几人结束", "third_place": "三四名决赛", "races": "各轮几局胜",
    "races_from_final": "几局胜（自决赛往前）", "third_place_race": "三四名几局胜",
    "bracket_size": "签表规模", "loser_order": "负者名次", "games_per_match": "每场局数",
    "playoff_places": "附加赛排定名次至", "playoff_race": "附加赛几局胜",
    "race_to": "几局胜（未按轮设定时）",
    "replacement": "递补", "order_by": "择优依据", "seeds": "种子退赛递补",
    "ranked_by": "排名依据", "same_as": "须相同的报名项", "after_draw": "抽签后退赛",
    "home_seats": "主队座位", "finish_points": "局分表", "sweep_points": "串三户得分",
    "sweep_scoring": "串三户计法", "win_points": "胜积分", "draw_points": "平积分",
    "loss_points": "负积分", "penalty_points": "每次扣局分", "penalty_affects_result": "扣分计入胜负",
    "misconduct_credit": "判负对手得分", "misconduct_reading": "判负得分读法",
    "lateness_forfeit_minutes": "迟到几分钟弃权", "forfeit_game_points": "对方弃权得局分",
    "forfeit_annuls_all": "弃权方成绩全部无效", "bye_points": "轮空积分", "tie_decider": "平局加赛",
    "withdrawal": "退赛", "results": "成绩处理", "per_pool": "各组分别取", "remaining": "淘汰赛剩余者",
    "positions": "新序号", "from_stage": "来源阶段", "join_round": "进入轮次", "entries": "报名数（规程）",
    "team_size": "每队上场人数", "restart_head_to_head": "直胜分组后再比较",
    "draw_match_points": "平局场分", "bye_counts_as_win": "轮空算胜轮", "first": "自第几名",
    "last": "至第几名", "rematch": "重复相遇", "round1": "首轮编排", "same_unit_first": "同单位先相遇",
    "bye_vp": "轮空VP", "numbers": "序号来源", "fraction": "比例", "plus": "另加",
    "groups": "组别", "stages": "阶段", "format": "赛制", "scoring": "计分", "bands": "场分档位",
    "tie_breaks": "排名依据", "criteria": "顺序", "kind": "类型", "cycles": "循环次数",
    "max_rounds": "最多轮数", "min_boards_per_round": "每轮最少牌数", "boards_per_round": "每轮牌数",
    "min_pct": "比赛分下限%", "inclusive": "含下限", "points": "场分", "bye": "轮空",
    "forfeit_winner": "弃权-未弃权方", "forfeit_loser": "弃权-弃权方", "score_pct": "比赛分%",
    "match_points": "场分", "overtime": "超时罚则", "lateness": "迟到罚则", "steps": "档",
    "over": "超过(分钟)", "up_to": "至(分钟,含)", "pct_of_top": "罚分(%顶分)",
    "each_further": "每增(分钟)", "each_pct": "每增罚分%", "action": "处理", "boards_off": "减打副数",
    "text": "文字", "rounds_forfeit": "迟到几轮判弃权", "rounds_disqualify": "迟到几轮取消资格",
    "artificial_plus_pct": "平均正分%", "artificial_minus_pct": "平均负分%", "entrants": "参赛者",
    "entrant": "参赛单位", "gender": "性别", "name_zh": "名称", "name_en": "英文名称", "id": "代码",
    "draw": "抽签", "numbers_by_lot": "抽签定序号", "title_zh": "赛事名称", "title_en": "英文名称",
    "sport": "项目", "source": "来源", "event_date": "比赛日期", "venue": "地点",
    "roster_layout": "报名表样式", "language": "语言", "awards": "奖励", "eligibility": "资格",
    "amounts": "奖金(元)", "prize_table": "奖金表", "announced_later": "奖金另行公布", "tax": "税",
    "rate": "税率", "exempt_up_to": "免税额(元)", "tie_split": "并列分配", "policy": "方式",
    "places": "录取名额", "places_by_entries": "按报名数录取", "min_entries": "报名数≥",
    "cancel_below": "少于此数取消", "place_awards": "奖杯/证书", "from_place": "自第几名",
    "to_place": "至第几名", "trophy": "奖杯", "medal": "奖牌", "certificate": "证书",
    "merit_split": "优胜/优秀奖", "winner_percent": "优胜奖比例%", "qualification": "资格",
    "birth_windows": "出生日期范围", "born_after": "须晚于", "born_before": "须早于",
    "age_ranges": "年龄范围", "min_age": "最小年龄", "max_age": "最大年龄", "team_sizes": "队伍人数",
    "min_players": "最少队员", "max_players": "最多队员", "one_prize_per_person": "每人限一奖",
    "reaward_vacated": "空缺名次递补",
    "round_minutes": "每轮时长(分钟)", "board_score_values": "成绩表允许的南北得分",
    "final_ranking": "最终名次", "applies_to": "适用项目", "severity": "级别(error/warning)",
    "whole_yuan": "取整到元", "rounding": "取整方式", "zheng": "整", "after_inclusive": "含下限日",
    "before_inclusive": "含上限日", "warn_on_boundary": "边界日提示", "gender": "性别",
    "genders": "性别构成", "basis": "年龄算法", "reference_date": "年龄基准日",
    "below_age": "年龄小于", "under_age": "未满年龄", "max_events": "限报项目数",
    "one_team_per_event": "每项只在一队", "one_unit": "只代表一个单位", "by_id": "按证件号查重",
    "by_name_birth": "按姓名+生日查重", "enabled": "启用", "required_fields": "必填项",
    "max_teams": "限报队数", "max_people": "限报人数", "unit_limits": "单位限额",
    "single_entry": "兼项限制", "duplicates": "重复报名", "id_numbers": "证件号校验",
    "accompaniment": "需监护人陪同", "age_groups": "年龄分组", "name": "名称", "match": "匹配组别",
    "steps": "档", "target": "资格名称", "qualify_places": "获得资格名次",
    "replacement_places": "替补名次", "discretionary": "酌情选派", "title": "称号",
    "winner_label": "优胜奖名称", "merit_label": "优秀奖名称",
}
LABELS = {**CORE_LABELS, **LABELS}  # (a name given above wins)
SKIP = {"clause", "note", "notes"}
#: Mapping-valued settings shown in one cell as "key: value, key: value" (e.g. a prize table).
MAPPING_FIELDS = {"amounts", "genders"}


def _label(path: list, reg_data: dict) -> str:
    parts, node = [], reg_data
    for p in path:
        if isinstance(p, int):
            name = (node[p].get("name_zh") or node[p].get("name")) if isinstance(node[p], dict) else None
            parts.append(name or f"第{p + 1}项")
            node = node[p]
        else:
            if not (parts and path.index(p) > 0 and parts[-1] == LABELS.get(p, p)):
                parts.append(LABELS.get(p, p))
            node = node[p] if isinstance(node, dict) else node
    # drop container labels followed by an item name, e.g. 组别 › 男子双人赛 → 男子双人赛
    out = [x for i, x in enumerate(parts)
           if not (i + 1 < len(parts) and isinstance(path[i + 1], int) and path[i] in
                   ("groups", "stages"))]
    return " › ".join(out)


def _path_text(path: list) -> str:
    s = ""
    for p in path:
        s += f"[{p}]" if isinstance(p, int) else (f".{p}" if s else p)
    return s


def _cell(v: Any) -> Any:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, str):
        try:
            d = Decimal(v)
            return int(d) if d == d.to_integral_value() else float(d)
        except Exception:
            return v
    return v


#: optional settings shown on the 规程 sheet only when set (a blank row for every stage's 递补
#: and every group's 报名上限 was noise); an organizer who needs one adds its row
QUIET_WHEN_UNSET = {"replacement", "max_entries", "max_entries_note", "min_entries",
                    "min_entries_note", "variants", "derived", "sub_entrants"}
UNSET_NOTE = ("未设置的可选项（如各阶段的递补 replacement、各组的报名上限 max_entries / 下限 min_entries）"
              "不列出；需要时在本表加一行：第一列写设置项（如 groups[*].max_entries 或 "
              "groups[0].stages[0].replacement），第三列写值 / unset optional settings are not "
              "listed; add a row (setting, value) to set one")


def settings_rows(reg: Regulation, *, quiet_unset: bool = False) -> list[list[Any]]:
    """Rows of the 规程 sheet (header first): path, label, value, clause, note. ``quiet_unset``:
    leave out the unset optional settings of :data:`QUIET_WHEN_UNSET` (a note row says how to
    add one)."""
    data = reg.model_dump(mode="json")
    rows: list[list[Any]] = [SETTINGS.headers("zh")]
    rows.append(["preset", "规程预设", reg.id, "", "本工作簿所依据的规程预设；其余各行覆盖预设中的同名设置"])
    rows.append(["language", "语言 (zh/en)", reg.language, "",
                 "工作表与列名的语言 / language of sheet and column names"])

    hidden: list[str] = []

    def walk(node, path, clause, note_done):
        if isinstance(node, dict) and path and (path[-1] in MAPPING_FIELDS or any(
                not re.fullmatch(r"[A-Za-z_]\w*", str(k), re.ASCII) for k in node)):
            # a table keyed by Chinese names or numbers (局分表 头科: 4 …) is one cell
            text = ", ".join(f"{k}: {v}" for k, v in node.items())
            rows.append([_path_text(path), _label(path, data), text, clause or "", ""])
        elif isinstance(node, dict):
            c = node.get("clause") or clause
            note = node.get("note")
            start = len(rows)
            for k, v in node.items():
                if k in SKIP or k in ("name_en", "title_en"):
                    continue
                walk(v, path + [k], c, note_done)
            if note and len(rows) > start:
                rows[start][4] = note + ("；" + rows[start][4] if rows[start][4] else "")
        elif isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
            for i, x in enumerate(node):
                walk(x, path + [i], clause, note_done)
        elif quiet_unset and node is None and path[-1] in QUIET_WHEN_UNSET:
            hidden.append(_path_text(path))  # unset and rarely needed: not a blank row
        else:
            rows.append([_path_text(path), _label(path, data), _cell(node), clause or "", ""])

    for k, v in data.items():
        if k in SKIP or k in ("id", "title_en", "language"):
            continue
        start = len(rows)
        walk(v, [k], None, None)
        if k == "groups" and len(v) > 1:
            rows[start:] = _share_group_rows(rows[start:], len(v))
    for n in reg.notes:
        rows.append(["", "", "", "", n])
    if hidden:
        rows.append(["", "", "", "", UNSET_NOTE])
    return rows


GROUP_ROW = re.compile(r"^groups\[(\d+)\]\.(.*)$")


def _share_group_rows(rows: list[list], n_groups: int) -> list[list]:
    """Settings equal in every group are shown once, as ``groups[*]…`` (各组); the rest stay
    per group. A row ``groups[2]…`` typed below a ``groups[*]`` row overrides that group only."""
    by_suffix: dict[str, dict[int, list]] = {}
    order: list[str] = []
    for r in rows:
        m = GROUP_ROW.match(str(r[0]))
        if not m:
            continue
        suffix = m[2]
        if suffix not in by_suffix:
            order.append(suffix)
        by_suffix.setdefault(suffix, {})[int(m[1])] = r
    shared = {sfx for sfx, per in by_suffix.items()
              if len(per) == n_groups and len({(repr(x[2]), x[3]) for x in per.values()}) == 1
              and not sfx.startswith(("id", "name_zh", "name_en", "gender", "entrant",
                                      "event_date", "clause"))}
    out = [r for r in rows if not (GROUP_ROW.match(str(r[0])) and
                                   GROUP_ROW.match(str(r[0]))[2] in shared)]
    first = True
    for sfx in order:
        if sfx not in shared:
            continue
        r = list(by_suffix[sfx][0])
        r[0] = f"groups[*].{sfx}"
        r[1] = "各组 › " + r[1].split(" › ", 1)[-1]
        if first:
            r[4] = ("以下为各组共用的设置（groups[*]）；如需单独修改某一组，可在下方另加一行，"
                    "把 * 换成组号（0 起），例如 groups[2]…" + ("；" + r[4] if r[4] else ""))
            first = False
        out.append(r)
    return out


PATH_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\*)\]")


def _parse_path(text: str) -> list:
    out = []
    for name, idx in PATH_RE.findall(text):
        out.append((idx if idx == "*" else int(idx)) if idx else name)
    return out


def _targets(data, path: list) -> list[list]:
    """Concrete paths of ``path`` (``*`` stands for every index of that list)."""
    if "*" not in path:
        return [path]
    i = path.index("*")
    node = data
    for p in path[:i]:
        node = node[p]
    return [t for k in range(len(node)) for t in _targets(data, path[:i] + [k] + path[i + 1:])]


#: 规程 values written by an earlier bianpai that the preset now names otherwise, read as the
#: preset's value now: (setting, value in the workbook, the preset's value). Workbooks made
#: before the bridge team presets ran on the competition core name their roster ``teams``;
#: their 报名 is the bridge-teams style's (队号, 队名, … without 组别).
LEGACY_VALUES = {("roster_layout", "teams", "bridge-teams")}


def regulation_from_sheet(port: WorkbookPort) -> Regulation:
    """The regulation of this workbook: its preset with the 规程 sheet's values applied.

    Raises ``InputError`` naming the cell for an unknown setting or a value the schema refuses.
    """
    sheet = find_sheet(port, SETTINGS) or SETTINGS.zh
    # read once per port while the 规程 sheet is unchanged (a command asks several times);
    # each caller gets its own copy (a command may adjust its regulation, e.g. a variant)
    memo = port.derived(sheet) if hasattr(port, "derived") and find_sheet(port, SETTINGS) else None
    if memo is not None and "regulation" in memo:
        return copy.deepcopy(memo["regulation"])
    # the same 规程 values give the same regulation (the presets are fixed for the process):
    # a process that runs many commands (a test run, the xlwings Server) reads each once
    key = None
    if find_sheet(port, SETTINGS) is not None:
        key = (sheet, tuple(tuple(r) for r in port.read_values(sheet)))
    reg = _BY_VALUES.get(key) if key is not None else None
    if reg is not None:
        _BY_VALUES.move_to_end(key)
        reg = copy.deepcopy(reg)
    else:
        reg = _regulation_from_sheet(port, sheet)
        if key is not None:
            _BY_VALUES[key] = copy.deepcopy(reg)
            while len(_BY_VALUES) > 32:
                _BY_VALUES.popitem(last=False)
    if memo is not None:
        memo["regulation"] = copy.deepcopy(reg)
    return reg


#: (sheet name, the 规程 sheet's values) → the regulation they give (errors are never kept:
#: a sheet that is refused is read, and refused, every time)
_BY_VALUES: "OrderedDict[tuple, Regulation]" = OrderedDict()


def _regulation_from_sheet(port: WorkbookPort, sheet: str) -> Regulation:
    values = read_settings(port, SETTINGS)
    if "preset" not in values:
        head = [str(v).strip() if v is not None else "" for v in (port.read_values(sheet) or [[]])[0]]
        at = next((i for i, v in enumerate(head) if v in ("设置项", "Setting")), 0)
        if at > 0:  # columns inserted in front: the settings are read from fixed columns A–C
            letter = get_column_letter(at + 1)
            raise InputError(f"规程表的“设置项”列应在A列，现在在{letter}列（在A列前插入了列？请删去插入的列）",
                             f"the Regulation sheet's 'Setting' column must be column A, not "
                             f"{letter} (a column inserted in front? delete it)",
                             sheet=sheet, cell=f"{letter}1")
        raise InputError("规程表缺少“preset”行（规程预设名称）",
                         "the Regulation sheet has no 'preset' row", sheet=sheet, cell="A:A")
    preset, prow = values.pop("preset")
    try:
        base = load_preset(str(preset).strip())
    except RuleError as exc:
        raise InputError(exc.zh, exc.en, sheet=sheet, cell=f"C{prow}") from exc
    data = base.model_dump(mode="json")
    changed: dict[int, str] = {}  # 规程 rows whose value differs from the preset's
    # rows apply in sheet order: a groups[2]… row below groups[*]… overrides that group
    for key, (raw, row) in sorted(values.items(), key=lambda kv: kv[1][1]):
        try:
            targets = _targets(data, _parse_path(key))
            for path in targets:
                node = data
                for p in path[:-1]:
                    node = node[p]
                old = node[path[-1]]
                if isinstance(old, dict) and (raw is None or str(raw).strip() == "") \
                        and path[-1] not in MAPPING_FIELDS:
                    # an optional block written empty (None) in this workbook: keep it empty
                    # even when the preset has one (a mapping field stays an empty table)
                    node[path[-1]] = None
                    continue
                if isinstance(old, str) and (key, str(raw).strip(), old) in LEGACY_VALUES:
                    continue  # an earlier bianpai's name of what the preset names ``old``
                if path[-1] == "prize_table" and old is None and raw is not None \
                        and str(raw).strip() and "amounts" not in str(raw):
                    # a preset without a prize table: its row takes the amounts themselves
                    # (1: 2000, 2: 1000), as the amounts row of a preset with one does
                    node[path[-1]] = {"amounts": _value(raw, {})}
                    changed.setdefault(row, key)
                    continue
                node[path[-1]] = _value(raw, old)
                if node[path[-1]] != old:
                    changed.setdefault(row, key)
        except _BadMapping as bad:
            if len(bad.args) > 1:
                keys = "、".join(map(str, bad.args[1]))
                raise InputError(f"设置项“{key}”中 {keys} 写了两次（现为“{raw}”）：每个键只能写一次",
                                 f"setting {key!r} gives {keys} twice ({raw!r}): once each",
                                 sheet=sheet, cell=f"C{row}") from None
            old = node[path[-1]] if isinstance(node, dict) else {}
            sample = ", ".join(f"{k}: {v}" for k, v in list((old or {}).items())[:2]) \
                or "1: 20000, 2: 10000"
            raise InputError(f"设置项“{key}”应写成“键: 值”并用逗号分隔，例如 {sample}"
                             f"（现为“{raw}”）",
                             f"setting {key!r} takes 'key: value' pairs separated by commas, "
                             f"e.g. {sample} (not {raw!r})", sheet=sheet, cell=f"C{row}") from None
        except (KeyError, IndexError, TypeError):
            raise InputError(f"未知的设置项“{key}”", f"unknown setting {key!r}", sheet=sheet,
                             cell=f"A{row}") from None
    _fit_kinds(data, base.model_dump(mode="json"))
    try:
        reg = Regulation.model_validate(data)
    except ValidationError as exc:
        errors, seen = [], set()
        for err in exc.errors():
            path = _data_path(data, err["loc"])
            key = _path_text(path)
            key, row = _setting_row(values, key)
            if row is None:  # a rule across several settings: the row the message names
                row = _row_named(values, key, err["msg"])
            if (key, row, zh_message(err)) in seen:  # one row for every group: said once
                continue
            seen.add((key, row, zh_message(err)))
            errors.append(InputError(
                f"设置项“{key}”的值无效：{zh_message(err)}", f"setting {key!r} is invalid: {err['msg']}",
                sheet=sheet, cell=f"C{row}" if row else None))
        raise InputErrors(errors) from exc
    except RuleError as exc:  # a rule across settings (a format's own check): the edited rows
        if not changed:
            raise
        rows = sorted(changed)
        raise InputError(f"{exc.zh}（本工作簿改动过的设置：" + "、".join(
            f"{changed[r]}（{sheet}!C{r}）" for r in rows[:5]) + "）",
            f"{exc.en} (settings changed in this workbook: "
            + ", ".join(f"{changed[r]} ({sheet}!C{r})" for r in rows[:5]) + ")",
            sheet=sheet, cell=f"C{rows[-1]}") from exc
    _check_ranges(reg, values, sheet)
    return reg


def _check_ranges(reg: Regulation, values: dict, sheet: str) -> None:
    """Every 规程 number inside its range (:mod:`bianpai.templates.setting_ranges`); raises
    ``InputErrors`` naming the 值 cell of each number outside it."""
    from bianpai.templates.setting_ranges import range_problems  # noqa: PLC0415
    errors = []
    for path, zh, en in range_problems(reg):
        key = _path_text(path)
        row = values.get(key, (None, None))[1] or values.get(
            re.sub(r"^groups\[\d+\]", "groups[*]", key), (None, None))[1]
        errors.append(InputError(f"设置项“{key}”{zh}", f"setting {key!r} {en}",
                                 sheet=sheet, cell=f"C{row}" if row else None))
    if errors:
        raise InputErrors(errors)


def _kind_models() -> dict[str, type]:
    """kind → model class of every format and scoring the schema accepts."""
    import typing
    from bianpai.templates import schema
    out: dict[str, type] = {}
    for union in (schema.StageFormat, schema.Scoring):
        inner = typing.get_args(union)[0]
        for cls in typing.get_args(inner):
            kind = cls.model_fields["kind"].default
            out[kind] = cls
    return out


def _fit_kinds(data, base) -> None:
    """Where the 规程 sheet changed a format's or scoring's ``kind`` (e.g. the gouji pools from
    ``fixture_list`` to ``round_robin``), drop the settings the new kind does not have (the
    preset's fixture list …) so the change is accepted; the new kind's defaults apply."""
    models = None
    if isinstance(data, dict):
        if "kind" in data and isinstance(base, dict) and base.get("kind") not in (None, data["kind"]):
            models = models or _kind_models()
            cls = models.get(data["kind"])
            if cls is not None:
                for k in [k for k in data if k not in cls.model_fields]:
                    del data[k]
        for k, v in data.items():
            _fit_kinds(v, base.get(k) if isinstance(base, dict) else None)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _fit_kinds(v, base[i] if isinstance(base, list) and i < len(base) else None)


def _setting_row(values: dict, key: str) -> tuple[str, int | None]:
    """(the 规程 setting, its row) a schema error at ``key`` is about: the row of ``key``, or of
    the same setting for every group (``groups[*]…``), or of the list ``key`` is an item of
    (``board_score_values[2]`` → ``board_score_values``); ``(key, None)`` when none."""
    k = key
    while True:
        for name in (k, re.sub(r"^groups\[\d+\]", "groups[*]", k)):
            if name in values:
                return name, values[name][1]
        if not re.search(r"\[\d+\]$", k):
            return key, None
        k = re.sub(r"\[\d+\]$", "", k)


def _row_named(values: dict, key: str, msg: str) -> int | None:
    """The 规程 row below ``key`` that a model-level message is about: the last one whose
    setting name (``boards_per_round``…) or Chinese label the message mentions, else the first
    row below ``key``."""
    shared = re.sub(r"^groups\[\d+\]", "groups[*]", key)
    rows = [(k, r) for k, (_v, r) in values.items()
            if k.startswith(key + ".") or k.startswith(shared + ".")]
    named = [r for k, r in rows if k.rsplit(".", 1)[-1] in msg
             or LABELS.get(k.rsplit(".", 1)[-1], "\0") in msg]
    if named:
        return named[-1]
    return rows[0][1] if rows else None


def _data_path(data, loc) -> list:
    """A pydantic error location without discriminator tags, as a path into ``data``."""
    path, node = [], data
    for part in loc:
        if isinstance(node, dict) and part not in node:
            continue  # a union tag such as 'round_robin'
        if isinstance(node, list) and not isinstance(part, int):
            continue
        path.append(part)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    return path


def write_settings_sheet(port: WorkbookPort, reg: Regulation, lang: str, *,
                         quiet_unset: bool = False) -> Regulation:
    """Write the 规程 sheet of a new workbook in ``lang`` and return the regulation with that
    language (its own ``language`` row carries it, so commands read it back)."""
    from bianpai.workbooks.layouts import SETTINGS  # noqa: PLC0415

    reg = reg.model_copy(update={"language": lang})
    rows = settings_rows(reg, quiet_unset=quiet_unset)
    if lang == "en":
        rows[0] = SETTINGS.headers("en")
    port.write_sheet(SETTINGS.name(lang), rows, SETTINGS.sheet_format(lang=lang))
    return reg
