"""The demo of a competition-core preset: every group and stage on a simulated field.

Builds the workbook, fills 报名/队员 with invented teams (the field size the 规程 names, else
16), checks, then repeats draw → simulated results → (advance when a stage ends) until every
stage is over, ranks, allocates the awards and prints each group's final table. Results are
simulated by the stage scoring's ``simulate(match, rng, strength)`` and typed by
:mod:`bianpai.addin.core_demo_results`; nothing here knows the sport.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bianpai.addin import commands
from bianpai.engines.errors import RuleError
from bianpai.templates.presets_io import load_preset
from bianpai.workbooks import layouts as L
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.tables import find_sheet
from bianpai.addin.core_demo_results import (_fill_match_results, _fill_results,  # noqa: F401
                                            _type_places)

__all__ = ["run_core_demo"]


class DemoPort(OpenpyxlPort):
    """One workbook held open for the whole demo: the commands' own ``save`` only marks it
    changed, :meth:`commit` writes it (once at the end), so a simulated event reads and
    writes every sheet in memory instead of loading and saving the file per step. The
    commands see exactly what they would see through files: a later command reads the
    sheets an earlier one wrote (in memory) or left untouched (from the file)."""

    dirty = False

    def save(self) -> None:
        self.dirty = True

    def commit(self) -> None:
        """Write everything (one package-preserving save)."""
        if self.dirty:
            OpenpyxlPort.save(self)
            self.dirty = False


CITIES = ["青岛", "济南", "烟台", "潍坊", "临沂", "淄博", "济宁", "泰安", "威海", "日照", "滨州",
          "德州", "聊城", "菏泽", "枣庄", "东营", "莱芜", "莱西", "胶州", "平度"]
#: the demo's units where the 规程 is a province's own event (its 设区市), else :data:`CITIES`
REGION_CITIES = {
    "fujian": ["福州", "厦门", "泉州", "漳州", "莆田", "三明", "南平", "龙岩", "宁德", "平潭",
               "福清", "晋江", "石狮", "南安", "长乐", "龙海", "永安", "邵武", "武夷山", "福安"],
    # 鄂托克旗 六（一） 户籍或工作单位在鄂托克旗: its 镇 and 苏木, and units working there
    "otog": ["乌兰镇", "棋盘井镇", "蒙西镇", "木凯淖尔镇", "阿尔巴斯苏木", "苏米图苏木", "旗直机关",
             "旗教育系统", "旗卫健系统", "乌兰镇社区", "棋盘井镇社区", "蒙西工业园区", "旗公安局",
             "旗税务局", "旗供电公司", "旗第一中学", "旗第二中学", "旗实验小学", "旗农牧局", "旗文旅局"],
}


def _cities(reg) -> list[str]:
    """The demo's unit names for ``reg``: its province's cities, or its banner's towns, when
    known (trial users found the 福建 and 鄂托克旗 demos' units to be Shandong cities), else
    :data:`CITIES`."""
    rid = str(getattr(reg, "id", "") or "")
    return next((v for k, v in REGION_CITIES.items() if rid.startswith(k)), CITIES)
SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华建国志红"


def _birth(reg, g, gender: str, day: dt.date, rng: random.Random) -> dt.date:
    """A birth date the regulation's age ranges accept (completed years at the group's first
    day, well inside the range), else an adult of 25–50."""
    lo, hi = 25, 50
    rules = getattr(reg.eligibility, "age_ranges", None) or []
    for r in rules:
        if r.gender in (None, {"男": "M", "女": "F"}[gender]):
            lo, hi = (r.min_age or 0) + 1, (r.max_age or (r.min_age or 0) + 30) - 2
            break
    # adults where the range allows (a minor may need 监护人陪同, a warning that stops the draw)
    if max(lo, 20) <= hi:
        lo = max(lo, 20)
    age = rng.randint(lo, max(lo, hi))
    return dt.date(day.year - age - 1, rng.randint(1, 12), rng.randint(1, 28))


def _age_ok(reg, gender: str, born: dt.date, day: dt.date) -> bool:
    """True when a person of ``gender`` born on ``born`` is inside every age range of the
    regulation that applies to that gender (completed years at ``day``)."""
    age = day.year - born.year - ((day.month, day.day) < (born.month, born.day))
    for r in getattr(reg.eligibility, "age_ranges", None) or []:
        if r.gender in (None, {"男": "M", "女": "F"}[gender]):
            if (r.min_age is not None and age < r.min_age) or \
                    (r.max_age is not None and age > r.max_age):
                return False
    return True


def _roster(reg, seed: int, fields: dict[str, int] | None = None
            ) -> tuple[list[list], list[list]]:
    """Roster rows (组别, 队号, 队名, 单位, 队员1–6, 领队, 种子, 备注) and 队员 rows; ``fields``
    overrides the number of entries of a group (by id), else the 规程's ``entries`` (or 16)."""
    rng = random.Random(seed)
    day = reg.event_date or dt.date.today()
    cities = _cities(reg)
    roster, people = [], []
    for g in reg.groups:
        if not g.stages:
            continue
        n = (fields or {}).get(g.id) or g.entries or 16
        size = g.team_size or _min_players(reg, g) or 3  # the 规程's fewest players a team
        for i in range(n):
            unit = cities[i % len(cities)]
            name = f"{unit}{g.name_zh[:2]}{i // len(cities) + 1}队"
            players = []
            for _ in range(size):
                p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                while p in players:
                    p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                players.append(p)
                born = dt.date(day.year - rng.randint(25, 50), rng.randint(1, 12), rng.randint(1, 28))
                gender = rng.choice(["男", "女"])
                if not _age_ok(reg, gender, born, day):  # e.g. an elders' event (58–72)
                    born = _birth(reg, g, gender, day, rng)
                people.append([name, p, gender, born, None, None])
            roster.append([g.name_zh, None, name, unit, *(players + [None] * 6)[:6], None, None, None])
    return roster, people


def _age_range(reg, g) -> tuple[int, int] | None:
    """Ages (completed years) a simulated player of group ``g`` may have: inside the age band
    the eligibility block names for the group (by its name); ``None`` when it names none."""
    el = getattr(reg, "eligibility", None)
    bands = el.age_groups.bands if el is not None and el.age_groups is not None else []
    for b in bands:
        if b.name and b.name in g.name_zh:
            lo = (b.min_age or 0) + 1
            hi = (b.below_age or 80) - 2
            if lo <= hi:
                return lo, hi
    return None


def _min_players(reg, g) -> int | None:
    """The fewest players the eligibility block allows a team of group ``g`` (its team-size
    rule that applies to the group), so a simulated team is admissible."""
    el = getattr(reg, "eligibility", None)
    for rule in (el.team_sizes if el is not None else []):
        if rule.applies(g.name_zh, g.name_zh) and rule.min_players:
            return rule.min_players
    return None


def _people_roster(reg, seed: int, fields: dict[str, int] | None = None) -> list[list]:
    """报名 rows of a people roster (one row per person: 组别, 队名/组合, 序号, 姓名, 性别, 出生日期,
    证件号, 单位, 角色, 备注, 种子, 等级分); pairs and teams share their 队名/组合; a derived group
    has no entries. ``fields``: entries per group id instead of the 规程's. The first stage's
    pool column (``PoolSplit.by``) gets its values in proportion to their pools; the first K
    entrants get 种子 1…K when a stage takes K seeded roster entrants
    (``EntrantRule.from_roster``); about half have a 等级分; ages fall in the group's age band."""
    rng = random.Random(seed)
    day = reg.event_date or dt.date.today()
    cities = _cities(reg)
    rows, used = [], set()
    for g in reg.groups:
        if g.derived is not None:
            continue
        n = (fields or {}).get(g.id) or g.entries or 16
        size = 1 if g.entrant == "individual" else (g.team_size or _min_players(reg, g)
                                                       or (2 if g.entrant == "pair" else 3))
        band = _age_range(reg, g)
        day = g.event_date or reg.event_date or dt.date.today()
        split = g.stages[0].pools if g.stages else None
        by = split.by if split is not None and split.method == "by_column" else None
        cycle = [v for v, labs in (split.labels_by or {}).items() for _ in labs] if by else []
        seeds = 0
        for s in g.stages:
            for rule in s.entrants if isinstance(s.entrants, list) else []:
                if rule.from_roster == "seeded":
                    seeds = max(seeds, (rule.places.last if rule.places and rule.places.last else 0))
        for i in range(n):
            unit = cities[i % len(cities)]
            team = None if size == 1 else f"{unit}{g.name_zh[:2]}{i // len(cities) + 1}队"
            for _ in range(size):
                p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                while p in used:
                    p = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                used.add(p)
                sex = rng.choice(["男", "女"])
                if band:
                    born = dt.date(day.year - rng.randint(*band) - 1, rng.randint(1, 12),
                                   rng.randint(1, 28))
                else:  # the age ranges of the eligibility block, by gender
                    born = _birth(reg, g, sex, day, rng)
                rec = {"group": g.name_zh, "team": team, "number": None, "name": p,
                       "gender": sex, "birth_date": born, "id_number": None,
                       "unit": unit, "role": "队员", "note": None,
                       "seed": i + 1 if i < seeds else None,
                       "rating": rng.randint(100, 5000) if rng.random() < 0.5 else None}
                if by:
                    rec[by] = cycle[i % len(cycle)]
                rows.append([rec.get(c.key) for c in L.ROSTER_PEOPLE.columns])
    return rows


def _bracket_pictures(out: Path, port: OpenpyxlPort | None = None) -> list[Path]:
    """A PNG beside the workbook for every bracket stage played as one bracket (no pools):
    :func:`bianpai.workbooks.bracket_picture.render_bracket` of its ``bracket_table``."""
    from bianpai.addin.competition import load_core_event  # noqa: PLC0415
    from bianpai.workbooks.bracket_picture import render_bracket  # noqa: PLC0415
    ev = load_core_event(port or OpenpyxlPort(out, command="demo-pictures"))
    from bianpai.addin.competition_commands import bracket_stages  # noqa: PLC0415
    paths = []
    for g, s, table in bracket_stages(ev):
        if ev.state(g, s, with_standings=False).pools() != [None]:
            continue
        names = {n: t["name"] for n, t in ev.groups[g.id].teams.items()}
        path = out.with_name(f"{out.stem}-{g.id}-{s.id}.png")
        paths.append(render_bracket(table, path, names=names,
                                    title=f"{ev.reg.title_zh} {ev.gname(g)}{ev.sname(s)}"))
    return paths


def run_core_demo(preset, out: Path, *, seed: int = 2015, console: Console | None = None,
                  fields: dict[str, int] | None = None, pictures: bool = True) -> dict:
    """Run a core preset end to end; returns the ``rank`` data (standings per group/stage and
    the final ranking per group). ``preset``: a preset id or a ``Regulation`` (e.g. a preset
    with reduced settings for a test). ``fields``: entries per group id instead of the 规程's (a
    smaller field for tests). ``pictures``: a bracket PNG beside the workbook per single-bracket
    stage. Raises ``BianpaiError`` when a step fails."""
    console = console or Console()
    reg = load_preset(preset) if isinstance(preset, str) else preset
    out = Path(out)
    if out.exists():
        from bianpai.workbooks.backups import push  # noqa: PLC0415
        push(out, "demo")
        out.unlink()
    port = OpenpyxlPort(out, create=True, command="new")
    commands.build_workbook(port, reg)
    console.print(f"[green]✓[/] 新建工作簿 {out}（{reg.title_zh}）")
    # one open workbook for the whole event: every command reads and writes it in memory and
    # it is written once at the end (each step through files cost a load and a save)
    port = DemoPort(out, command="demo")
    from bianpai.workbooks.roster_layouts import roster_layout  # noqa: PLC0415
    rl = roster_layout(reg.roster_layout)
    if rl.demo_roster is not None:  # the layout's own demo field (e.g. one row per pair)
        sheets = rl.demo_roster(reg, seed, fields)
        for lay, rows in zip(rl.sheets, sheets):
            port.append_rows(find_sheet(port, lay), rows, start_row=2)
        people = []
        console.print(f"[green]✓[/] 报名：{len(sheets[0])} {rl.entrant_word[0]}")
    elif reg.roster_layout == "people":
        people = _people_roster(reg, seed, fields)
        port.append_rows(find_sheet(port, L.ROSTER_PEOPLE), people, start_row=2)
        n_entries = len({(r[0], r[1] or r[3]) for r in people})
    else:
        roster, people = _roster(reg, seed, fields)
        from bianpai.workbooks import core_layouts as K  # noqa: PLC0415
        from bianpai.workbooks.roster_layouts import roster_layout  # noqa: PLC0415
        # in the columns of the style's 报名 (a roster without 组别 for an event of one group)
        shown = roster_layout(reg.roster_layout).table
        keys = [col.key for col in K.ROSTER.columns]
        rows = [[dict(zip(keys, r)).get(col.key) for col in shown.columns] for r in roster]
        port.append_rows(find_sheet(port, shown), rows, start_row=2)
        port.append_rows(find_sheet(port, T.TEAM_PLAYERS), people, start_row=2)
        n_entries = len(roster)
    if rl.demo_roster is None:
        console.print(f"[green]✓[/] 报名：{n_entries} 个参赛单位（队/组合/个人），{len(people)} 人")
    from bianpai.addin.terminal import progress_bar  # noqa: PLC0415
    try:
        res = commands.check(port)
        console.print(f"[green]✓[/] {res.summary_zh}")
        for f in res.findings:
            console.print(f"  [yellow]{f['severity']} {escape(str(f['where']))}[/] {escape(f['zh'])}")
        # the 资格审查 accepts the warnings (a unit over its limit by the 规程's leave)
        accept = "资格审查委员会已核准（演示）" if any(
            f["severity"] == "warning" for f in res.findings) else None
        rng = random.Random(seed + 1)
        strength: dict = {}
        step = 0
        typed_rows = 0  # what the simulation typed, said once it is over
        with progress_bar(console, "模拟比赛（抽签编排 → 录入成绩）") as tick:
            while step < 200:
                step += 1
                tick(f"第 {step} 步")
                try:
                    res = commands.draw(port, seed=seed + step, accept_warnings=accept)
                except RuleError as exc:
                    if getattr(exc, "next_command", None) == "advance":
                        res = commands.advance(port, seed=seed + step)
                        from bianpai.addin.core_views import style_of  # noqa: PLC0415
                        console.print(f"[green]✓[/] {res.summary_zh}")
                        if not style_of(reg).draw_on_advance:  # else: its round is drawn
                            continue
                    elif step == 1:  # nothing could be drawn (e.g. a missing optional package)
                        raise
                    else:
                        if getattr(exc, "next_command", None) != "rank":  # not the normal end
                            console.print(f"[yellow]![/] {escape(exc.zh)}")
                        break
                else:
                    if res.data.get("relisted_only"):
                        break  # the whole event was listed by the first press: nothing new
                    console.print(f"[green]✓[/] {res.summary_zh}")
                # one reading of the drawn event for both entry sheets (each fill writes only
                # its own sheet and reads its rows afresh): the draw's own, after its writes
                from bianpai.addin.competition import load_core_event  # noqa: PLC0415
                after = getattr(res, "event_after", None)
                ev = after() if after is not None else load_core_event(port)
                filled = 0
                if any(s.scoring.games_per_match for g in reg.groups for s in g.stages):
                    filled += _fill_results(port, rng, strength, ev)
                filled += _fill_match_results(port, rng, strength, ev)
                typed_rows += filled
                if not filled and step > 1:
                    break  # a draw that lists what was drawn already (the whole event at once)
        console.print(f"[green]✓[/] 模拟录入成绩：{typed_rows} 场（随机种子 {seed + 1}）")
        typed = _type_places(port, rng)
        if typed:
            console.print(f"[green]✓[/] 名次录入（无编排阶段的组别）：{'、'.join(typed)}")
        res = commands.rank(port, seed=seed)
        console.print(f"[green]✓[/] {res.summary_zh}")
        # ranking play-offs the rank command prepared (争上游's extra deal): typed, ranked again
        for _ in range(5):
            if not _fill_results(port, rng, strength):
                break
            res = commands.rank(port, seed=seed)
            console.print(f"[green]✓[/] 加赛已录入：{res.summary_zh}")
        if pictures:
            for path in _bracket_pictures(out, port):
                console.print(f"[green]✓[/] 签表图 {path}")
        ares = None
        if reg.awards is not None:
            ares = commands.awards(port)
            console.print(f"[green]✓[/] {ares.summary_zh}")
    finally:
        port.commit()
    from bianpai.addin.core_views import style_of  # noqa: PLC0415
    final_sheet = style_of(reg).final_sheet
    for title, rows in res.data.items():
        if not final_sheet:  # a style whose 排名 is the final ranking (one stage, no 总排名)
            if not title.endswith("总排名"):
                from bianpai.addin.core_demo_views import standings_table  # noqa: PLC0415
                console.print(standings_table(title, rows))
            continue
        if not title.endswith("总排名"):
            continue
        t = Table(title=f"{title}（最终排名 / final ranking）")
        team = bool(rows) and "team" in rows[0]
        for col in (("名次", "队号", "队名", "名次来源") if team else ("名次", "序号", "姓名/组合", "名次来源")):
            t.add_column(col)
        # a large field shows its top (the podium and the prize places); the sheet has them all
        shown = rows if len(rows) <= 40 else [r for r in rows if (r["place"] or 99) <= 8]
        for r in shown:
            place = "—" if r["place"] is None else str(r["place"])  # 不参加排名 (results annulled)
            t.add_row(place, str(r.get("team", r.get("number"))), str(r["name"]),
                      str(r["source"]))
        if len(shown) < len(rows):
            t.add_row("…", "", f"（共 {len(rows)} 名，见“总排名”表）", "")
        console.print(t)
    if ares is not None:
        from bianpai.addin.core_demo_views import awards_table  # noqa: PLC0415
        console.print(awards_table(f"{reg.title_zh} 奖励", ares.data["awards"]))
    console.print(f"[bold]已保存[/] {out.resolve()}")
    return res.data
