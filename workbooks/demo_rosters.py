"""Demo rosters declared by a roster layout (:attr:`bianpai.workbooks.roster_layouts.RosterLayout.demo_roster`):
the rows ``bianpai demo`` types into the layout's sheets, so the core's demo
(:func:`bianpai.addin.core_demo.run_core_demo`) never knows the layout.

- :func:`pairs_demo_roster`: the pairs roster (报名 one row per pair, :data:`layouts.ROSTER_PAIRS`)
  of the field the Shenzhen 规程 names — 男子 8 pairs (the four ranked qualifiers of its appendix
  plus four association picks), 女子 4, 混合 4; invented names (选手01 …), contact details none.
"""

from __future__ import annotations

import datetime as dt
import random

__all__ = ["UNITS", "demo_roster", "pairs_demo_roster"]

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
