"""Chinese names (规程 sheet, column 名称) of the settings of the competition core's formats and
scorings that :data:`bianpai.workbooks.settings.LABELS` does not name yet: without them the
organizer read "扑克牌升级（80分） › 米切尔赛 › 计分 › neuberg".

Only names here, no behaviour; a key already in ``LABELS`` keeps its name there.
"""

from __future__ import annotations

CORE_LABELS = {
    # pools and stage entrants
    "by": "分组依据列", "labels_by": "各值对应组名", "from_group": "来源组别", "min_value": "最小值",
    "pool_size": "每组签位数", "qualify": "每组晋级人数", "grand_final": "总决赛",
    "loser_orderings": "负者排序", "value": "值", "when_entries_at_most": "报名数不超过时",
    "names_zh": "中文名称", "separate_rankings": "分别排名",
    # Swiss
    "mode": "编排方式", "colour_rule": "先后手规则", "colour_hard": "先后手为硬性条件",
    "first_colour": "首轮先后手", "max_colour_diff": "先后手次数最大差",
    "max_same_colour_run": "同一先后手最多连续", "late_entry": "中途加入",
    "forfeit_counts_as_met": "弃权算已相遇", "bye_excludes_forfeit_win": "弃权胜者不再轮空",
    "requested_bye_points": "申请轮空得分", "forfeit_win_points": "对方弃权得分",
    "bye_opp_score": "轮空的对手分", "edition": "规则版本", "options": "选项",
    # team board games
    "first_move_boards": "先手台次", "lineup_rule": "出场名单规则", "lineups": "出场名单",
    "substitutes_per_round": "每轮可换人数", "bye_game_points": "轮空局分",
    "game_win": "局胜得分", "game_draw": "局和得分", "game_loss": "局负得分",
    "match_win": "场胜得分", "match_draw": "场平得分", "match_loss": "场负得分",
    # single games, knockouts, 争上游, 掼蛋
    "decider": "平局加赛", "decider_game": "决胜局", "extra_game": "加赛局",
    "must_decide": "须分胜负", "forfeit_points": "弃权得分", "ranking_playoff": "名次加赛",
    "place_points": "名次得分",
    # 80分 (升级) and the Mitchell movement
    "total_points": "每副总分", "point_step": "得分单位", "scored_side": "计分方",
    "neuberg": "纽伯格公式（桌数不等时）", "kitty": "抠底倍数", "single": "单抠",
    "double": "双抠", "tractor": "拖拉机抠", "max_kitty_points": "底牌分上限",
    "penalty_mp": "罚分（比赛分）", "late_minutes": "迟到判罚分钟",
    "late_offender_share": "迟到方得分比例", "late_other_share": "对方得分比例",
    "bye_share": "轮空得分比例", "countback": "同分比较",
    "illegal_info_points": "非法信息罚分", "illegal_info_disqualify": "非法信息几次取消资格",
    "withdrawal_boards": "退赛后的牌副", "minutes_per_board": "每副时长（分钟）",
    "session_minutes": "每节时长（分钟）", "even_tables": "桌数须为偶数",
    # 中式台球
    "forfeit_frames": "弃权场的局数", "no_show_frame_typed": "未到场判负局已含在所填局数",
}
