"""The competition core's 新建 and 检查名单: the workbook of a core regulation, roster structure,
the stage structure the field can play, and eligibility.

Part of the one command path of every core event (see :mod:`bianpai.addin.competition_commands`).
"""

from __future__ import annotations

from bianpai.addin import commands as c
from bianpai.addin.command_infra import too_many_entries
from bianpai.addin.competition import CoreEvent, layouts_for, load_core_event
from bianpai.addin.core_eligibility import eligibility_findings
from bianpai.addin.core_members import duplicate_players, listed_players
from bianpai.addin.core_numbers import numbers_problems
from bianpai.addin.core_team_eligibility import team_eligibility_findings
from bianpai.engines.errors import InputError, InputErrors
from bianpai.templates.schema import Group, Regulation, Stage
from bianpai.workbooks import core_layouts as K
from bianpai.workbooks import layouts as L
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.addin.core_views import shown_for, shown_layout, style_of
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import write_settings_sheet
from bianpai.addin.competition import records
from bianpai.workbooks.tables import cell_of


# ------------------------------------------------------------------------------ new

def build_core_workbook(port: WorkbookPort, reg: Regulation, *, lang: str = "zh"):
    """The sheets of a new core workbook: 规程, 报名 (one row per team with its 组别), 队员 (one
    row per person, for eligibility), 成绩 / 逐局成绩 (entry columns from the scorings), 罚分, and
    the generated 校验, 对阵, 排名, 奖励 with their headers; logs ``new``."""
    lang = lang or reg.language
    reg = write_settings_sheet(port, reg, lang, quiet_unset=style_of(reg).quiet_unset)
    lay = layouts_for(reg)
    groups = [g.name_zh if lang == "zh" else (g.name_en or g.name_zh) for g in reg.groups]
    stages = sorted({s.name_zh if lang == "zh" else (s.name_en or s.name_zh)
                     for g in reg.groups for s in g.stages})
    choices = {"group": groups, "stage": stages}
    roster = roster_layout(reg.roster_layout).sheets
    # groups without stages (no engine for their format yet) get their places typed
    typed_places = [L.PLACINGS] if any(not g.stages for g in reg.groups) else []
    style = style_of(reg)
    by_key = {lay.results.key: lay.results, lay.games.key: lay.games}
    entry = [shown_layout(reg, by_key[k]) for k in style.entry_order] + [
        shown_layout(reg, K.PENALTIES)]
    withdrawals = [K.WITHDRAWALS] if style.withdrawals_sheet else []
    for layout in (*roster, *entry, *withdrawals, *typed_places):
        port.write_sheet(layout.name(lang), [layout.headers(lang)],
                         layout.sheet_format(choices=choices, lang=lang))
    if style.new_headers:  # else each is created when a command first writes it
        for layout in (L.CHECKS, shown_layout(reg, K.SCHEDULE), shown_for(reg, lay.standings)):
            c.write_generated(port, layout, [], lang)
        if reg.awards is not None:
            c.write_generated(port, L.AWARDS, [], lang)
    zh, en = style.new_title
    result = c.CommandResult("new", f"{zh}（规程：{reg.title_zh}）", f"{en} ({reg.title_en or reg.id})")
    return c.finish(port, result, {"preset": reg.id, "language": lang}, lang)


# ------------------------------------------------------------------------------ check

class _GroupView:
    """What :func:`team_eligibility_findings` reads, for one group of a core roster."""

    def __init__(self, ev: CoreEvent, g: Group):
        self.port, self.reg, self.group, self.lang = ev.port, ev.reg, g, ev.lang
        r = ev.roster
        self.roster = r[r["group_id"] == g.id].copy()
        self.roster.attrs = dict(r.attrs)
        mine = {str(x).strip() for x in self.roster["name"] if x is not None}
        self.other_teams = {str(x).strip() for x in r["name"] if x is not None} - mine


def _span(ev: CoreEvent, g: Group, rows: list[int]) -> str:
    """The 报名 rows of group ``g`` as a range: its entries' rows and, on a roster of people, every
    member's row (a team's last members are below its first row)."""
    rows = list(rows)
    p = ev.people
    if p is not None and "group" in p.columns:
        rows += [int(i) for i, v in zip(p.index, p["group"])
                 if (x := ev.group_of(v)) is not None and x.id == g.id]
    return f"A{min(rows)}:A{max(rows)}"


def roster_problems(ev: CoreEvent) -> list[InputError]:
    """Structural roster problems: a team number typed twice in a group, a team name twice,
    a 种子 given twice, a group with fewer than two teams."""
    errs: list[InputError] = []
    r = ev.roster
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    seen_n: dict[tuple, int] = {}
    seen_name: dict[tuple, int] = {}
    seen_seed: dict[tuple, int] = {}  # 种子 orders the seeded entrants: one entrant per value
    for row, rec in records(r):
        gid = rec["group_id"]
        if gid is None:
            continue
        seed = rec.get("seed")
        if seed is not None and (gid, seed) in seen_seed:
            was = seen_seed[(gid, seed)]
            errs.append(InputError(f"种子 {seed} 在本组重复（另见第{was}行）：每个种子序号只能给一个参赛者",
                                   f"seed {seed} repeated in the group (see row {was})",
                                   sheet=sheet, cell=cell_of(r, row, "seed")))
        elif seed is not None:
            seen_seed[(gid, seed)] = row
        if rec["number"] is not None:
            k = (gid, rec["number"])
            if k in seen_n:
                errs.append(InputError(f"队号 {rec['number']} 在本组重复（另见第{seen_n[k]}行）",
                                       f"team number {rec['number']} repeated (see row {seen_n[k]})",
                                       sheet=sheet, cell=cell_of(r, row, "number")))
            seen_n[k] = row
        k = (gid, rec["name"])
        if k in seen_name:
            errs.append(InputError(f"队名“{rec['name']}”在本组重复（另见第{seen_name[k]}行）",
                                   f"team {rec['name']!r} repeated (see row {seen_name[k]})",
                                   sheet=sheet, cell=cell_of(r, row, "name")))
        seen_name[k] = row
    all_or_none = roster_layout(ev.reg.roster_layout).numbers_all_or_none
    for g in ev.reg.groups:
        n = int((r["group_id"] == g.id).sum())
        if 0 < n < 2 and g.stages:
            errs.append(InputError(f"{ev.gname(g)}只有 {n} 队报名，无法比赛",
                                   f"{g.name_en or g.id} has only {n} entry", sheet=sheet))
        if all_or_none and n and g.stages and not ev.groups[g.id].drawn:
            errs += numbers_problems(ev, g)  # typed 序号 all or none, at the first typed one
        errs += _too_many_seeds(ev, g, r, sheet)
    return errs


def _setting_cell(ev: CoreEvent, g: Group, s: Stage, text: str) -> str:
    """"，规程!C20" for the 规程 row of the stage's format setting ``text`` names
    (stop_when_remaining …), else ""."""
    from bianpai.workbooks.tables import find_sheet, read_settings  # noqa: PLC0415
    name = find_sheet(ev.port, L.SETTINGS)
    if name is None:
        return ""
    gi, si = ev.reg.groups.index(g), g.stages.index(s)
    heads = (f"groups[{gi}].stages[{si}].format.", f"groups[*].stages[{si}].format.")
    rows = [(k.rsplit(".", 1)[-1], r) for k, (_v, r) in read_settings(ev.port, L.SETTINGS).items()
            if k.startswith(heads)]
    at = next((r for key, r in rows if key in text), None)
    return f"，{name}!C{at}" if at else ""


def _too_many_seeds(ev: CoreEvent, g: Group, r, sheet: str) -> list[InputError]:
    """More roster 种子 than the seeded places of the stage they enter directly
    (``from_roster: seeded`` capped by ``places.last``, CBSA 十二（一）: 1–16): the ones after the
    last place would enter nowhere (they skip the first stage). Named at the first such 种子."""
    out = []
    rows = [(rec["seed"], row) for row, rec in records(r)
            if rec["group_id"] == g.id and rec.get("seed") is not None]
    for s in g.stages:
        for rule in (s.entrants if isinstance(s.entrants, list) else []):
            cap = rule.places.last if getattr(rule, "from_roster", None) and rule.places else None
            if cap is None or len(rows) <= cap:
                continue
            order = sorted(rows, key=lambda x: (float(x[0]), x[1]))
            seed, row = order[cap]
            out.append(InputError(
                f"{ev.gname(g)}有 {len(rows)} 名种子，{ev.sname(s)}只设 {cap} 个种子位（规程）："
                f"种子 {seed} 及其后的选手将无处参赛；请删去多余的种子",
                f"{g.name_en or g.id}: {len(rows)} seeds for the {cap} seeded places of "
                f"{s.name_en or s.id}: seed {seed} and after would enter nowhere",
                sheet=sheet, cell=cell_of(r, row, "seed")))
    return out


class _PeopleView:
    """What :func:`bianpai.addin.core_eligibility.eligibility_findings` reads, for a roster whose rows
    are people (the people roster, or a pairs roster's rows of two persons)."""

    def __init__(self, ev: CoreEvent, table=None):
        self.reg, self.lang = ev.reg, ev.lang
        table = ev.people if table is None else table
        p = table.copy()
        p.attrs = dict(table.attrs)
        gids = []
        for v in p["group"]:
            g = ev.group_of(v)
            gids.append(g.id if g else None)
        p["group_id"] = gids
        self.roster = p


def _stage_sizes(ev: CoreEvent, g: Group) -> list[tuple[Stage, dict]]:
    """(stage, {pool: entrants}) each stage of ``g`` will have with the roster as it stands: the
    first stage by its pool split, later ones from their entrant rules (places per pool, a
    knockout's survivors)."""
    n = int((ev.roster["group_id"] == g.id).sum())
    out: list[tuple[Stage, dict]] = []
    sizes: dict[str, dict] = {}
    for i, s in enumerate(g.stages):
        if i == 0 and g.sub_entrants is not None:  # each entry plays once in every label's pool
            split = {lab: n for lab in g.sub_entrants.labels}
            sizes[s.id] = split
            out.append((s, split))
            continue
        if i == 0 and s.pools is not None and s.pools.method == "by_column":
            split = _first_split(ev, g)  # the draw's own dealing (sizes do not depend on the lot)
            if split is None:
                break
            sizes[s.id] = split
            out.append((s, split))
            continue
        if s.entrants == "all":
            total = n
        elif not isinstance(s.entrants, list):
            break  # entrants chosen otherwise (e.g. the unseeded only): not modelled here
        else:
            total = 0
            for rule in s.entrants:
                src = sizes.get(rule.from_stage) or {}
                stop = getattr(g.stage(rule.from_stage).format, "stop_when_remaining", None) \
                    if rule.from_stage in sizes else None
                if getattr(rule, "from_roster", None) or getattr(rule, "where", None) \
                        or rule.from_stage not in sizes:
                    return out  # a rule this estimate does not model: stop checking here
                if rule.remaining:  # per pool (资格赛 flights) or for the stage
                    total += sum(stop.get(p, 0) for p in src) if isinstance(stop, dict) \
                        else (stop or 0)
                elif rule.places is not None:
                    span = (rule.places.last or 10**6) - rule.places.first + 1
                    per = [min(span, max(0, c - rule.places.first + 1)) for c in src.values()]
                    total += sum(per) if rule.per_pool else min(span, sum(src.values()))
        labels = s.pools.pool_labels() if s.pools else [None]
        size = -(-total // len(labels)) if total else 0
        split = {lab: max(0, min(size, total - i * size)) for i, lab in enumerate(labels)}
        sizes[s.id] = split
        out.append((s, split))
    return out


def _first_split(ev: CoreEvent, g: Group) -> dict | None:
    """{pool: entrants} of ``g``'s first stage as the draw deals the roster (``None`` when the
    roster cannot be dealt yet: its own errors are reported by the draw)."""
    from bianpai.addin.core_numbers import _number_teams  # noqa: PLC0415 - it imports the event
    try:
        teams = _number_teams(ev, g, 0)
    except Exception:  # noqa: BLE001 - a roster value with no pool: the draw names its cell
        return None
    split = {lab: 0 for lab in g.stages[0].pools.pool_labels()}
    for t in teams:
        if t.get("pool") is not None:
            split[t["pool"]] = split.get(t["pool"], 0) + 1
    return split


def _pool_problems(s: Stage, split: dict) -> list[str]:
    """A format whose per-pool settings (``stop_when_remaining`` by flight) each pool must meet:
    every pool checked alone, so each flight that cannot be played is named."""
    from bianpai.engines.core import StageEntrant, StageState  # noqa: PLC0415
    out = []
    for p, c in split.items():
        st = StageState(entrants=[StageEntrant(number=k, pool=p, seed=k) for k in range(1, c + 1)])
        try:
            s.format.total_rounds(st)
        except Exception as exc:  # noqa: BLE001 - a format's own refusal, shown as text
            out.append(getattr(exc, "zh", str(exc)))
    return out


def structure_problems(ev: CoreEvent) -> list[InputError]:
    """A field the regulation's stage structure cannot play (七（一）1: three pools of six; 七（二）:
    a knockout that must leave exactly six), found before the first draw and named at the
    group's 报名 rows, instead of a stage that cannot be drawn later."""
    from bianpai.engines.core import StageEntrant, StageState
    errs = []
    r = ev.roster
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    for gi, g in enumerate(ev.reg.groups):
        rows = list(r.index[r["group_id"] == g.id])
        if not rows or ev.groups[g.id].drawn:
            continue
        where = _span(ev, g, rows)
        if g.min_entries and len(rows) < g.min_entries and g.stages:  # the 规程's field minimum
            zh, en = roster_layout(ev.reg.roster_layout).entrant_word
            why = f"（{g.min_entries_note}）" if g.min_entries_note else ""
            from bianpai.addin.command_infra import _setting_names  # noqa: PLC0415
            path = f"groups[{gi}].min_entries"  # the 规程 row as the organizer sees it
            row = _setting_names(ev.port).get(path, path)
            errs.append(InputError(
                f"{ev.gname(g)}：本规程的赛制至少需要 {g.min_entries} {zh}{why}，现报名 {len(rows)} "
                f"{zh}；请在“规程”表修改赛制或{row}后再编排",
                f"{g.name_en or g.id}: this format needs at least {g.min_entries} {en}; "
                f"{len(rows)} entered", sheet=sheet, cell=where))
            continue
        if len(rows) < 2:
            continue
        first = g.stages[0] if g.stages else None
        if first is not None and first.pools is not None and first.pools.method == "by_column" \
                and g.sub_entrants is None:  # a roster value no pool takes: named at check
            from bianpai.addin.core_numbers import _number_teams  # noqa: PLC0415
            try:
                _number_teams(ev, g, 0)
            except InputErrors as exc:
                errs += exc.errors
                continue
        word = {"individual": "人", "pair": "对", "team": "队"}.get(g.entrant, "队")
        for s, split in _stage_sizes(ev, g):
            setting = (f"groups[{ev.reg.groups.index(g)}].stages[{g.stages.index(s)}].format"
                       f"（{ev.sname(s)} › 赛制）")
            st = StageState(entrants=[StageEntrant(number=100 * j + k, pool=p, seed=k)
                                      for j, (p, c) in enumerate(split.items())
                                      for k in range(1, c + 1)])
            problems = []
            if isinstance(getattr(s.format, "stop_when_remaining", None), dict):
                problems += _pool_problems(s, split)
            else:
                try:
                    s.format.total_rounds(st)
                except Exception as exc:  # noqa: BLE001 - a format's own refusal, shown as text
                    problems.append(getattr(exc, "zh", str(exc)))
            problems += getattr(s.format, "field_problems", lambda _st: [])(st)
            for text in problems:
                errs.append(InputError(
                    f"{ev.gname(g)}报名 {len(rows)} {word}，{ev.sname(s)}（{sum(split.values())} {word}）"
                    f"无法按规程进行："
                    f"{text}（规程设置 {setting}{_setting_cell(ev, g, s, text)}）",
                    f"{g.name_en or g.id}: {len(rows)} entries "
                    f"cannot play {s.name_en or s.id} as set ({setting}): {text}",
                    sheet=sheet, cell=where))
            if problems:
                break
    return errs


def structure_warnings(ev: CoreEvent) -> list[InputError]:
    """What a format foresees for the field before its first round (``field_warnings``: more
    rematch-free rounds than the entrants can play), named at the group's 报名 rows with the
    规程 setting to change."""
    from bianpai.engines.core import StageEntrant, StageState  # noqa: PLC0415
    out = []
    r = ev.roster
    sheet = r.attrs.get("sheet", K.ROSTER.zh)
    for gi, g in enumerate(ev.reg.groups):
        rows = list(r.index[r["group_id"] == g.id])
        if rows and not ev.groups[g.id].drawn:
            out += _cancelled_warning(ev, g, len(rows), sheet, _span(ev, g, rows))
        if len(rows) < 2 or ev.groups[g.id].drawn:
            continue
        for s, split in _stage_sizes(ev, g):
            hook = getattr(s.format, "field_warnings", None)
            if hook is None:
                continue
            st = StageState(entrants=[StageEntrant(number=100 * j + k, pool=p, seed=k)
                                      for j, (p, c) in enumerate(split.items())
                                      for k in range(1, c + 1)])
            setting = f"groups[{gi}].stages[{g.stages.index(s)}].format.rounds"
            for text in hook(st):
                out.append(InputError(
                    f"{ev.gname(g)}{ev.sname(s)}：{text}（规程设置 {setting}：{ev.sname(s)} › 赛制 › 轮次）",
                    f"{g.name_en or g.id} {s.name_en or s.id}: more rounds than the field can play "
                    f"without a rematch ({setting})", sheet=sheet, cell=_span(ev, g, rows)))
    return out


def roster_errors(ev: CoreEvent) -> list[InputError]:
    """The errors 检查名单 lists (the bad cells read and every roster finding that is an error),
    for the draw's refusal and the status line to name as many as 校验 does."""
    return [e for sev, e in _findings(ev) if sev == "error"]


def drawn_roster_errors(ev: CoreEvent) -> list[InputError]:
    """:func:`roster_errors` of an event whose groups are all drawn and whose cells read well
    (the gate of a later draw: the roster edited since the first), kept while 规程, the roster
    sheets and 抽签 are unchanged (a chain of draws on one port, the demo: one check, not one
    per round)."""
    from bianpai.workbooks import layouts as L  # noqa: PLC0415
    from bianpai.workbooks.tables import SheetsMemo, find_sheet  # noqa: PLC0415
    sheets = [find_sheet(ev.port, L.SETTINGS), find_sheet(ev.port, shown_layout(ev.reg, K.DRAW))]
    sheets += [find_sheet(ev.port, lay) for lay in roster_layout(ev.reg.roster_layout).sheets]
    memo = SheetsMemo(ev.port, sheets, "drawn_roster_errors")
    hit = memo.get()
    if hit is None:
        hit = roster_errors(ev)
        memo.put(hit)
    return list(hit)


def _findings(ev: CoreEvent) -> list[tuple[str, InputError]]:
    out = [("error", e) for e in ev.errors + roster_problems(ev) + structure_problems(ev)]
    out += [("warning", e) for e in structure_warnings(ev)]
    r = ev.roster
    for g in ev.reg.groups:
        rows = list(r.index[r["group_id"] == g.id])
        over = too_many_entries(g, len(rows), r.attrs.get("sheet", K.ROSTER.zh),
                                _span(ev, g, rows)) if rows else None
        if over is not None:
            out.append(("warning", over))
    unreadable = frozenset(e.where for e in ev.errors)
    if ev.people is not None:
        out += eligibility_findings(_PeopleView(ev), unreadable)
    elif roster_layout(ev.reg.roster_layout).person_rows:  # e.g. a pair's row: two persons
        out += eligibility_findings(_PeopleView(ev, ev.roster), unreadable)
    else:
        listed = listed_players(ev.port)
        for g in ev.reg.groups:
            view = _GroupView(ev, g)
            if not view.roster.empty:
                dups, cells = duplicate_players(view.roster,
                                                r.attrs.get("sheet", K.ROSTER.zh), listed)
                out += [("error", e) for e in dups]
                out += [f for f in team_eligibility_findings(view) if f[1].where not in cells]
    # a finding about a shared sheet (队员) is found once per group: list it once; one at a
    # cell without column letter (报名!?2) follows from a column the sheet lacks, already
    # named at its header row (“报名”表缺少“姓名”列): not repeated for every row
    seen: set[tuple] = set()
    unique = []
    headless = {e.sheet for _sev, e in out if e.cell == "1:1"}
    out = [(sev, e) for sev, e in out
           if not (str(e.cell or "").startswith("?") and e.sheet in headless)]
    for sev, e in out:
        key = (sev, e.where, e.zh)
        if key not in seen:
            seen.add(key)
            unique.append((sev, e))
    return unique


def core_check(port: WorkbookPort):
    """检查名单: roster structure and eligibility of every group → 校验 (sheet!cell per
    finding). Errors block the first draw; warnings need a reason."""
    ev = load_core_event(port)
    problems = _findings(ev)
    rows = c._finding_rows(problems, ev.lang)
    if not rows:
        rows = [["通过" if ev.lang == "zh" else "ok", "", "未发现问题", "no problems found"]]
    c.write_generated(port, L.CHECKS, rows, ev.lang)
    n_err = sum(1 for s, _ in problems if s == "error")
    zh, en = roster_layout(ev.reg.roster_layout).entrant_word
    tz, te = roster_layout(ev.reg.roster_layout).check_title
    result = c.CommandResult(
        "check", f"{tz}：{len(ev.roster)} {zh}，错误 {n_err} 处，警告 {len(problems) - n_err} 处",
        f"{te}: {len(ev.roster)} {en}, {n_err} errors, {len(problems) - n_err} warnings",
        findings=[{"severity": s, "where": e.where, "zh": e.zh, "en": e.en} for s, e in problems])
    # the status line from the event as read (校验 is no input of it), in the style's words:
    # the line a fresh reading of the saved workbook gives
    result.status_event = ev
    return c.finish(port, result, {}, ev.lang)


def _cancelled_warning(ev: CoreEvent, g: Group, n: int, sheet: str, where: str
                       ) -> list[InputError]:
    """A field smaller than the award rules' ``cancel_below`` (鄂托克旗 九（三）1 "不足3人（队）
    取消该项目"): said at check, before the event is drawn and played, not first by awards."""
    block = ev.reg.awards.group_for(g.name_zh) if ev.reg.awards is not None else None
    if block is None or not block.is_cancelled(n):
        return []
    least = block.places_by_entries.cancel_below
    zh, en = {"individual": ("人", "players"), "pair": ("对", "pairs")}.get(
        g.entrant, ("队", "teams"))
    clause = block.places_by_entries.clause
    return [InputError(
        f"{ev.gname(g)}报名 {n} {zh}，不足 {least} {zh}：按规程{f'（{clause}）' if clause else ''}"
        f"该项目取消，不录取名次、不发奖；如仍比赛，请说明理由后抽签",
        f"{g.name_en or g.id}: {n} {en}, fewer than {least}: the regulation cancels the event "
        f"(no places, no awards)", sheet=sheet, cell=where)]
