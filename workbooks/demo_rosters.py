"""Demo rosters declared by a roster layout (:attr:`bianpai.workbooks.roster_layouts.RosterLayout.demo_roster`):
the rows ``bianpai demo`` types into the layout's sheets, so the core's demo
(:func:`bianpai.addin.core_demo.run_core_demo`) never knows the layout.

- :func:`pairs_demo_roster`: the pairs roster (报名 one row per pair, :data:`layouts.ROSTER_PAIRS`)
  of the field the Shenzhen 规程 names — 男子 8 pairs (the four ranked qualifiers of its appendix
  plus four association picks), 女子 4, 混合 4; invented names (选手01 …), contact details none.
- :func:`bridge_teams_demo_roster`: the bridge team roster (报名 + 队员, ``team_layouts``) of 20
  teams from the units of the 规程 (several units with two teams, so round 1 meets same-unit
  teams first), each team of the 规程's fewest players, ages inside its age ranges.
"""

from __future__ import annotations

import datetime as dt
import random

__all__ = ["UNITS", "bridge_teams_demo_roster", "demo_roster", "pairs_demo_roster"]

UNITS = ["深圳市掼蛋运动协会", "福田区掼蛋协会", "南山区棋牌协会", "罗湖区桥牌协会", "宝安区掼蛋俱乐部"]

#: (group, genders of 选手1/选手2, qualification of each pair) of the Shenzhen field
_PAIRS_FIELD = [
    ("男子双人赛", ("男", "男"), ["公开赛男子第一名", "公开赛男子第二名", "公开赛男子第三名",
                                "公开赛男子第四名"] + ["协会推荐"] * 4),
    ("女子双人赛", ("女", "女"), ["公开赛女子第一名", "公开赛女子第二名"] + ["协会推荐"] * 2),
    ("混合双人赛", ("女", "男"), ["公开赛混合第一名", "公开赛混合第二名"] + ["协会推荐"] * 2)]


def demo_roster(seed: int) -> list[list]:
    """报名 rows of the Shenzhen pairs field, columns as :data:`layouts.ROSTER_PAIRS` (组别, 序号,
    选手1, 性别1, 出生日期1, 证件号1, 选手2, …, 单位, 参赛资格, 备注): the appendix's ranked
    players first (选手01–08 men, 09–12 women, 13–16 mixed), then the association picks."""
    rng = random.Random(seed)
    rows = []
    n = 0

    def person(gender):
        nonlocal n
        n += 1
        birth = dt.date(rng.randint(1960, 2002), rng.randint(1, 12), rng.randint(1, 28))
        return f"选手{n:02d}", gender, birth

    ranked = [(g, gs, q) for g, gs, quals in _PAIRS_FIELD for q in quals if q != "协会推荐"]
    picks = [(g, gs, q) for g, gs, quals in _PAIRS_FIELD for q in quals if q == "协会推荐"]
    for group, genders, q in ranked + picks:
        a, b = person(genders[0]), person(genders[1])
        rows.append([group, None, a[0], a[1], a[2], None, b[0], b[1], b[2], None,
                     rng.choice(UNITS), q, None])
    return rows


def pairs_demo_roster(reg, seed: int, fields: dict[str, int] | None = None
                      ) -> tuple[list[list], ...]:
    """The pairs layout's demo: rows per sheet of the layout (报名 only), :func:`demo_roster`
    restricted to the regulation's groups with stages (``fields``, entries per group id, keeps
    the first N pairs of a group)."""
    keep = {g.name_zh: (fields or {}).get(g.id) for g in reg.groups if g.stages}
    rows, seen = [], {}
    for r in demo_roster(seed):
        if r[0] not in keep:
            continue
        seen[r[0]] = seen.get(r[0], 0) + 1
        if keep[r[0]] is None or seen[r[0]] <= keep[r[0]]:
            rows.append(r)
    return (rows,)


#: units (and how many teams each sends) of a bridge team event's demo field, by preset
_TEAM_UNITS = {
    "fujian-elder-bridge-teams": [("福州市", 2), ("厦门市", 2), ("泉州市", 2), ("漳州市", 2),
                                  ("莆田市", 1), ("三明市", 1), ("南平市", 2), ("龙岩市", 1),
                                  ("宁德市", 2), ("省直老体协", 5)],  # 总规程六（二）3（2）: +3 teams
    "otog-bridge-teams": [("乌兰镇", 3), ("棋盘井镇", 4), ("阿尔巴斯苏木", 2), ("苏米图苏木", 2),
                          ("旗直机关", 5), ("蒙西镇", 4)]}
_ORDINAL = "一二三四五六七八九"


def _age_band(reg, gender: str) -> tuple[int, int]:
    """Ages (completed years) well inside the 规程's age range for ``gender`` (else 25–50)."""
    el = getattr(reg, "eligibility", None)
    for r in (el.age_ranges if el is not None else None) or []:
        if r.gender in (None, {"男": "M", "女": "F"}[gender]):
            lo = (r.min_age or 18) + 1
            hi = (r.max_age or lo + 30) - 2
            return lo, max(lo, hi)
    return 25, 50


def bridge_teams_demo_roster(reg, seed: int, fields: dict[str, int] | None = None
                             ) -> tuple[list[list], list[list]]:
    """The bridge team layout's demo: (报名 rows, 队员 rows) of ``fields[group id]`` teams (else
    20) from the preset's units (else 单位1…), each of the 规程's fewest players (``team_sizes``,
    else 4) named 队员001 …, a 领队 per team; every player and 领队 in 队员 with a gender and a
    birth date inside the 规程's age ranges at its event date; team numbers left for the lot."""
    rng = random.Random(seed)
    g = next(g for g in reg.groups if g.stages)
    n = (fields or {}).get(g.id) or 20
    el = getattr(reg, "eligibility", None)
    size = next((t.min_players for t in (el.team_sizes if el is not None else [])
                 if t.applies(g.name_zh, g.name_zh) and t.min_players), None) or 4
    units = _TEAM_UNITS.get(reg.id) or [(f"单位{i}", 1) for i in range(1, n + 1)]
    slots = [(unit, i, count) for unit, count in units for i in range(count)][:n]
    day = reg.event_date or dt.date.today()
    roster, people, k = [], [], 0
    for unit, i, count in slots:
        name = f"{unit}{_ORDINAL[i]}队" if count > 1 else f"{unit}队"
        players = [f"队员{k + j:03d}" for j in range(1, size + 1)]
        k += size
        captain = f"领队{len(roster) + 1:02d}"
        roster.append([None, name, unit, *(players + [None] * 6)[:6], captain, None])
        for person in (*players, captain):
            gender = rng.choice(["男", "女"])
            age = rng.randint(*_age_band(reg, gender))
            people.append([name, person, gender, dt.date(day.year - age - 1, rng.randint(1, 12),
                                                           rng.randint(1, 28)), None, None])
    return roster, people
