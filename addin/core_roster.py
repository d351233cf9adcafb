"""Reading a competition-core workbook's roster side into a :class:`CoreEvent`: the people
roster's entrants (one per individual, or per 队名/组合), 组别 of roster rows, the team members
checked against the line-ups a scoring requires, and 退赛 (who leaves after which round, and
the 递补 that takes the place). Each reader collects bad cells in ``ev.errors`` (sheet!cell).
Used by :func:`bianpai.addin.competition.load_core_event`; the match sheets are read by
:mod:`bianpai.addin.core_read`.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from bianpai.engines.core import is_blank
from bianpai.engines.eligibility_rules import STAFF_ROLES
from bianpai.engines.errors import InputError
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.engines.typed_rows import is_na
from bianpai.workbooks.tables import cell_of, find_sheet, read_table

from bianpai.addin.core_read import records

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the event type, for annotations only (the event module imports this one)
    from bianpai.addin.competition import CoreEvent

#: roster roles that are not players (a 领队/教练 row of the people roster enters no one)
STAFF = re.compile(r"^(" + "|".join(STAFF_ROLES) + r")$")
#: 角色 values the reader knows: the 报名 dropdown's, plus the staff roles of the eligibility
#: rules (总领队, 队医 …); anything else (a typo such as 队长) is refused by cell
ROLES = tuple(dict.fromkeys([*next(c.choices for c in L.ROSTER_PEOPLE.columns
                                   if c.key == "role"), *STAFF_ROLES]))


def _read_withdrawals(ev: CoreEvent) -> None:
    """退赛 (typed by the arbiter, or appended by ``bianpai withdraw``): the team leaves the stage
    it is playing after round 最后参赛轮次 (counted in that stage); 成绩处理 保留/取消, empty = the
    regulation's ``withdrawal.results``."""
    if not find_sheet(ev.port, K.WITHDRAWALS):
        return
    d = read_table(ev.port, K.WITHDRAWALS, errors=ev.errors)
    sheet = d.attrs.get("sheet", K.WITHDRAWALS.zh)
    for row, rec in records(d):
        g = ev.group_of(rec["group"])
        if g is None:
            ev.errors.append(InputError(f"未知组别“{rec['group']}”", f"unknown group {rec['group']!r}",
                                        sheet=sheet, cell=cell_of(d, row, "group")))
            continue
        n = rec["number"]
        if n is None or int(n) not in ev.groups[g.id].teams:
            ev.errors.append(InputError(f"{ev.gname(g)}的抽签中没有 {n} 号队", f"no team {n} in the draw",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        current = withdrawal_stage(ev, g, int(n))
        if current is None:
            ev.errors.append(InputError(f"{n} 号队不在任何已开始的阶段中", f"team {n} is in no running stage",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        key = (g.id, current.id, int(n))
        if key in ev.withdrawals:
            ev.errors.append(InputError(f"{n} 号队的退赛登记了两次", f"team {n} withdrawn twice",
                                        sheet=sheet, cell=cell_of(d, row, "number")))
            continue
        k = int(rec["after_round"])
        drawn = max((m.round for m in ev.raw_matches(g, current)), default=0)
        if not 0 <= k <= drawn:
            ev.errors.append(InputError(
                f"最后参赛轮次应为 0–{drawn}（{ev.sname(current)}已编排 {drawn} 轮），实际为 {k}",
                f"the last round played must be 0–{drawn}; got {k}",
                sheet=sheet, cell=cell_of(d, row, "after_round")))
            continue
        res = rec["results"]
        annul = (res == "取消") if res else ev.reg.withdrawal.results == "annul"
        ev.withdrawals[key] = (k, annul, rec["reason"] or "")
        r = rec.get("replacement")
        if r is not None and (int(r) not in ev.groups[g.id].teams or int(r) == int(n)
                              or current.replacement is None):
            ev.errors.append(InputError(
                f"递补队号 {r} 不是本组别的另一名参赛者，或{ev.sname(current)}不设递补",
                f"replacement {r} is not another entrant of the group, or the stage has no "
                f"replacement rule", sheet=sheet, cell=cell_of(d, row, "replacement")))
            continue
        ev.replacements[key] = None if r is None else int(r)


def withdrawal_stage(ev: CoreEvent, g, number: int):
    """The stage a withdrawal of ``number`` is from: the last entered stage it is in; a roster
    seed not in any yet: the stage it enters directly (十二（四）: a seed withdrawn before the
    main draw). ``None`` when neither."""
    current = None
    for s in g.stages:
        # the written entrants (晋级) and recorded replacements: no 递补 is computed while the
        # withdrawals are being read
        first = s is g.stages[0] or s.entrants in ("all", "unseeded")
        ents = {e.number for e in (ev.stage_entrants(g, s) if first else ev.entries_of(g, s))}
        ents |= {r for (gid, sid, _n), r in ev.replacements.items()
                 if gid == g.id and sid == s.id and r is not None}
        if number in ents:
            current = s
    if current is None:
        from bianpai.addin.core_replace import seed_stage  # noqa: PLC0415
        current = seed_stage(ev, g, number)
    return current


def _entrants_from_people(ev: CoreEvent) -> None:
    """One entrant row per individual (individual groups) or per 队名/组合 (pair and team
    groups) from the people roster; the first person's row is the entrant's row. A pair or team
    member without 队名/组合, or two different 序号 for one entrant, is an error with its cell."""
    p = ev.people
    sheet = p.attrs.get("sheet", L.ROSTER_PEOPLE.zh)
    rows: dict[tuple, dict] = {}
    index: list[int] = []
    for row, rec in records(p):
        g = ev.group_of(rec["group"])
        role = None if is_blank(rec["role"]) else str(rec["role"]).strip()
        if role is not None and role not in ROLES:
            ev.errors.append(InputError(f"角色“{role}”无法识别（应为 {'/'.join(ROLES)}）",
                                        f"unknown role {role!r} (one of {', '.join(ROLES)})",
                                        sheet=sheet, cell=cell_of(p, row, "role")))
            continue
        if g is None or (role and STAFF.match(role)):
            if g is None and rec["group"] is not None:
                ev.errors.append(InputError(f"未知组别“{rec['group']}”", f"unknown group {rec['group']!r}",
                                            sheet=sheet, cell=cell_of(p, row, "group")))
            continue
        if g.entrant == "individual":
            key = (g.id, "#", row)
            name = rec["name"]
        else:
            if not rec["team"]:
                ev.errors.append(InputError(f"{ev.gname(g)}是{'双人' if g.entrant == 'pair' else '团体'}项目，"
                                            "请填写“队名/组合”", f"{g.name_en or g.id} needs the team / pair name",
                                            sheet=sheet, cell=cell_of(p, row, "team")))
                continue
            key = (g.id, rec["team"])
            name = rec["team"]
        e = rows.get(key)
        if e is None:
            e = rows[key] = dict(group=g.name_zh, number=rec["number"], name=name, unit=rec["unit"],
                                 seed=rec.get("seed"), note=None, players=[],
                                 gender=rec.get("gender"), rating=rec.get("rating"))
            index.append(row)
        elif rec["number"] is not None and e["number"] is not None and rec["number"] != e["number"]:
            ev.errors.append(InputError(f"“{name}”的序号与其队友不同（{e['number']}）",
                                        f"{name}: a different number from the partner's ({e['number']})",
                                        sheet=sheet, cell=cell_of(p, row, "number")))
        e["number"] = e["number"] if e["number"] is not None else rec["number"]
        e["unit"] = e["unit"] or rec["unit"]
        e["seed"] = e["seed"] if e["seed"] is not None else rec.get("seed")
        e["players"].append(rec["name"])
    out = []
    for e in rows.values():
        pl = (e.pop("players") + [None] * 6)[:6]
        out.append({**e, **{f"player{i}": v for i, v in enumerate(pl, start=1)}, "captain": None})
    # 性别 and 等级分 of the people roster stay readable (pool split by column, seeding by rating)
    # every column object, made so (no float inference beside an empty cell, no NaN to undo;
    # a column no row names is None throughout)
    cols = [c.key for c in K.ROSTER.columns] + ["gender", "rating"]
    df = pd.DataFrame([[r.get(c) for c in cols] for r in out], index=pd.Index(index, name="row"),
                      columns=cols, dtype=object)
    if any(v is not None and is_na(v) for r in out for v in r.values()):
        df = df.where(pd.notna(df), None)
    df.attrs = dict(p.attrs)
    ev.roster = df


def _read_roster_groups(ev: CoreEvent) -> None:
    r = ev.roster
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    gids = []
    names = "、".join(g.name_zh for g in ev.reg.groups)
    bad = r.attrs.get("bad_rows", set())
    # every row gets its group (a row with a bad cell too: it is still the group's entry)
    for row, group in zip(r.index.tolist(), r["group"].tolist() if "group" in r.columns
                          else [None] * len(r)):
        rec = {"group": None if isinstance(group, float) and group != group else group}
        g = ev.group_of(rec["group"])
        if g is None and rec["group"] is not None and row not in bad:
            ev.errors.append(InputError(f"未知组别“{rec['group']}”，应为：{names}",
                                        f"unknown group {rec['group']!r}; expected one of "
                                        + ", ".join(x.name_en or x.id for x in ev.reg.groups),
                                        sheet=sheet, cell=cell_of(r, row, "group")))
        gids.append(g.id if g else None)
    r["group_id"] = gids


def _check_members(ev: CoreEvent) -> None:
    """出场名单: every typed cell of an entry column with ``member`` names a registered player of
    that side's entrant (报名), and nobody plays two boards of one match."""
    if ev.schedule is None or ev.schedule.empty:
        return
    sides = {(r["group_id"], r["stage_id"], r["pool"], r["round"], r["table"]): (r["side0"], r["side1"])
             for r in ev.schedule_records()}
    sheet = ev.sheet(ev.lay.games)
    registered: dict[Any, list[str]] = {}  # roster row → its players (looked up once)
    cols_of: dict[tuple, list] = {}
    for key, typed in ev.typed.items():
        g = ev.reg.group(key[0])
        s = g.stage(key[1])
        if key[:2] not in cols_of:
            cols_of[key[:2]] = [c for c in s.scoring.entry_game_columns()
                                if c.member and c.side is not None]
        cols = cols_of[key[:2]]
        if not cols or not typed.game_records() or key not in sides:
            continue
        teams = ev.groups[g.id].teams
        for col in cols:
            number = sides[key][col.side]
            t = teams.get(int(number)) if number is not None else None
            listed: list[str] = []  # the team's players in registration (台次名单) order
            if t is not None and t.get("roster_row") is not None and t["roster_row"] in ev.roster.index:
                if t["roster_row"] not in registered:
                    rec = ev.roster.loc[t["roster_row"]]
                    names = (rec.get(f"player{i}") for i in range(1, 7))
                    registered[t["roster_row"]] = [str(v).strip() for v in names
                                                   if not is_blank(v)]
                listed = list(registered[t["roster_row"]])
            players = set(listed)
            seen: dict[str, Any] = {}
            by_board: dict[int, tuple[str, str]] = {}
            for r in typed.game_records():
                v = r.get(col.key)
                if v is None or v != v or str(v).strip() == "":
                    continue
                name = str(v).strip()
                cell = f"{ev.game_cols.get(col.key, '')}{r.get('_row')}"
                if name not in players:
                    ev.errors.append(InputError(
                        f"“{name}”不是{number}号{t['name'] if t else ''}的报名队员（出场名单只能填写本队报名队员）",
                        f"{name!r} is not a registered player of entrant {number}",
                        sheet=sheet, cell=cell))
                elif name in seen:
                    ev.errors.append(InputError(f"“{name}”在同一场比赛中出场两次",
                                                f"{name!r} plays twice in one match",
                                                sheet=sheet, cell=cell))
                else:
                    try:
                        by_board[int(r.get("board"))] = (name, cell)
                    except (TypeError, ValueError):
                        pass
                seen[name] = r.get("_row")
            # the scoring's board-order rule (定台制, order kept …), when it has one
            rule = getattr(s.scoring, "lineup_problems", None)
            if rule is not None and by_board:
                for board, zh, en in rule({b: n for b, (n, _) in by_board.items()}, listed):
                    ev.errors.append(InputError(zh, en, sheet=sheet, cell=by_board[board][1]))


def _ruled_disqualifications(ev: CoreEvent) -> None:
    """A stage scoring's optional hook ``disqualified(matches, typed)`` names entrants whose
    typed rulings disqualify them (e.g. 80分 四10 “累计二次以上传递非法信息的，取消违规方比赛资格”):
    each is registered as a 退赛 after the round of the ruling with 成绩处理 取消 (its reason
    the hook's), unless the arbiter registered one for it already."""
    for g in ev.reg.groups:
        if not ev.groups[g.id].drawn:
            continue
        for s in g.stages:
            hook = getattr(s.scoring, "disqualified", None)
            if hook is None:
                continue
            matches = ev.raw_matches(g, s)
            typed = {m.key: t for m in matches
                     if (t := ev.typed.get((g.id, s.id, *m.key))) is not None}
            for number, (rnd, zh, _en) in hook(matches, typed).items():
                if not any(k[0] == g.id and k[2] == number for k in ev.withdrawals):
                    ev.withdrawals[(g.id, s.id, number)] = (rnd, True, zh)


def _choose_variants(ev: CoreEvent) -> None:
    """Stages whose format depends on the field size (``Stage.variants``) take the variant of
    the group's entry count: the drawn teams, else the roster's entries of the group."""
    for g in ev.reg.groups:
        if not any(s.variants for s in g.stages):
            continue
        gs = ev.groups[g.id]
        n = len(gs.teams) if gs.drawn else int((ev.roster["group_id"] == g.id).sum())
        g.stages[:] = [s.for_entries(n) if s.variants else s for s in g.stages]
