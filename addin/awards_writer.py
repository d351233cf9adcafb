"""The awards writer: a final ranking → 奖励, 领奖签收表 and 证书 (shared by every event).

:func:`write_awards` allocates places, prizes, tax, trophies and certificates by the
regulation's ``awards`` block (:func:`bianpai.engines.prizes.allocate`) from a final standings
frame; :func:`typed_placings` gives that frame for groups whose places the organizer types
(名次录入), checked by :func:`placings_findings`.
"""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from bianpai.addin.command_infra import CommandResult, finish, write_generated
from bianpai.addin.core_eligibility import entrant_name
from bianpai.engines.errors import InputError, InputErrors
from bianpai.templates.schema import Regulation
from bianpai.workbooks import layouts as L
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.roster_layouts import roster_layout
from bianpai.workbooks.tables import cell_of, read_table, records

def _json(v):
    if isinstance(v, Decimal):
        return float(v) if v != v.to_integral_value() else int(v)
    return v


def typed_placings(port: WorkbookPort, ev, errs: list[InputError]
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The typed 名次录入 as a ranking (columns ``group``, ``place``, ``entrant_id``, ``name``,
    ``unit``, ``person_id``) and the sheet as read; problems
    (:func:`placings_findings`) are appended to ``errs``. Also read by the competition core
    for its groups without stages."""
    df = read_table(port, L.PLACINGS, errors=errs)
    errs += placings_findings(df, ev)
    out = pd.DataFrame({"group": df["group"], "place": df["rank"],
                        "entrant_id": [f"{g}#{n}" for g, n in zip(df["group"], df["name"])],
                        "name": df["name"], "unit": df["unit"],
                        "person_id": df["person_id"]})
    return out, df


def entrant_names(ev) -> dict[str, set[str]]:
    """Names a ranking may use per group name_zh: pair names (甲/乙) and their players (the
    roster layout's ``name_parts``), team names, and the names of individual players."""
    out: dict[str, set[str]] = {}
    parts = roster_layout(ev.reg.roster_layout).name_parts
    for _, rec in records(ev.roster):
        if not rec.get("group_id"):
            continue
        g = ev.reg.group(rec["group_id"]).name_zh
        names = out.setdefault(g, set())
        if parts:
            names.add(entrant_name(rec, ev.reg))
            names.update(rec.get(p) for p in parts if rec.get(p))
        names.update(n for n in (rec.get("team"), rec.get("name")) if n)
    return out


def entries_per_group(ev) -> dict[str, int]:
    """Number of entries (pairs, teams or individuals) per group name_zh, for places ladders:
    the roster's rows, or its teams when its rows are people with a 队名 and a 角色."""
    out: dict[str, int] = {}
    r = ev.roster
    for g in ev.reg.groups:
        sub = r[r["group_id"] == g.id]
        if "team" not in sub.columns or "role" not in sub.columns:
            n = len(sub)
        else:
            players = sub[~sub["role"].fillna("").astype(str).str.match(r"^(领队|教练|领队兼教练)$")]
            keys = [t if t else f"#{n}" for n, t in zip(players["name"], players["team"])]
            n = len(set(keys))
        out[g.name_zh] = n
    return out


def placings_findings(df: pd.DataFrame, ev) -> list[InputError]:
    """A typed 名次录入 must name each entrant once, entrants of the roster's group only, and
    rank no more entrants than the group has."""
    errs: list[InputError] = []
    sheet = df.attrs.get("sheet", L.PLACINGS.zh)
    known = entrant_names(ev)
    seen: dict = {}
    counts: dict = {}
    for row, rec in records(df):
        if not rec["group"] or not rec["name"]:
            continue
        try:
            g = ev.reg.group(str(rec["group"])).name_zh
        except KeyError:
            continue  # reported by the group check
        key = (g, rec["name"])
        if key in seen:
            errs.append(InputError(f"“{rec['name']}”在{g}中出现两次（另见第{seen[key]}行）",
                                   f"{rec['name']} is ranked twice in {g} (see row {seen[key]})",
                                   sheet=sheet, cell=cell_of(df, row, "name")))
            continue
        seen[key] = row
        counts[g] = counts.get(g, 0) + 1
        if known.get(g) and rec["name"] not in known[g]:
            errs.append(InputError(f"“{rec['name']}”不在{g}的报名表中；请核对姓名/队名",
                                   f"{rec['name']} is not on the roster of {g}",
                                   sheet=sheet, cell=cell_of(df, row, "name")))
    for g, n in counts.items():
        entries = entries_per_group(ev).get(g, 0)
        if entries and n > entries:
            errs.append(InputError(f"{g}录入了 {n} 个名次，但只有 {entries} 个报名",
                                   f"{g}: {n} places typed for {entries} entries", sheet=sheet))
    return errs


def _id_numbers(event) -> dict[tuple[str, str], str]:
    """(group name_zh, entrant name) → the 证件号 typed in 报名, for an entrant that is one
    person with one (the 领奖签收表's 身份证号: the tax withheld is declared per person); empty
    without an event or a 证件号 column, and for a name given twice in a group."""
    # the persons: 报名 rows of people (a people roster, read as ``people``), else its rows
    r = getattr(event, "people", None)
    if r is None or "id_number" not in r.columns:
        r = getattr(event, "roster", None)
    if r is None or "name" not in r.columns or "id_number" not in r.columns:
        return {}
    if "group_id" in r.columns:
        gids = list(r["group_id"])
    else:
        gids = [(g.id if (g := event.group_of(v)) is not None else None) for v in r["group"]]
    names = {g.id: g.name_zh for g in event.reg.groups}
    out: dict[tuple[str, str], str] = {}
    twice = set()
    for gid, name, v in zip(gids, r["name"], r["id_number"]):
        if gid not in names or name is None or v is None or v != v or not str(v).strip():
            continue
        key = (names[gid], str(name).strip())
        if key in out:
            twice.add(key)
        out[key] = str(v).strip()
    out = {k: v for k, v in out.items() if k not in twice}
    # a derived group (最佳运动员, ranked from another group's players): by the name alone when
    # one person bears it
    names: dict[str, set] = {}
    for (_g, name), v in out.items():
        names.setdefault(name, set()).add(v)
    for g in event.reg.groups:
        for name, vs in names.items():
            if len(vs) == 1:
                out.setdefault((g.name_zh, name), next(iter(vs)))
    return out


def _money(v):
    return None if v is None or (isinstance(v, float) and v != v) else v


def write_awards(port: WorkbookPort, reg: Regulation, standings: pd.DataFrame,
                 entries: dict[str, int], lang: str, *, args: dict | None = None,
                 event=None) -> CommandResult:
    """Allocate (:func:`bianpai.engines.prizes.allocate`) from a final ``standings`` frame
    (columns ``group, place, entrant_id, name, unit``) with ``entries`` per group, write 奖励,
    领奖签收表 and 证书, log and save. Shared by the pairs/individual and the team flows.
    ``event``: the core event the standings come from (the status line is computed from it)."""
    from bianpai.addin import award_papers
    from bianpai.engines.prizes import allocate, yuan_capital

    alloc = allocate(standings, reg.awards, entries)
    t = alloc.table
    award_rows, receipt_rows, cert_rows = [], [], []
    ids = _id_numbers(event)
    for rec in t.to_dict("records"):
        award_rows.append([rec["group"], rec["place_label"], rec["name"], rec["unit"],
                           rec["award"], _money(rec["gross"]), _money(rec["tax_withheld"]),
                           _money(rec["net"]), rec["note"]])
        net = _money(rec["net"])
        if net:
            receipt_rows.append([rec["group"], rec["place_label"], rec["name"], net,
                                 yuan_capital(net), ids.get((rec["group"], rec["name"]), ""),
                                 ""])
        titles = [x for x, flag in (("奖杯", rec["trophy"]), ("奖牌", rec["medal"]),
                                    ("证书", rec["certificate"])) if flag]
        if titles or rec["qualification"]:
            cert_rows.append([rec["group"], rec["place_label"], rec["name"], rec["unit"],
                              "、".join(titles) + (f"（{rec['award']}）" if rec["award"] else ""),
                              rec["qualification"]])
    totals = alloc.totals
    paid = any(_money(v) is not None for v in t["gross"]) if len(t) else False
    if len(totals) and paid:
        last = totals.iloc[-1]
        award_rows.append(["合计" if lang == "zh" else "Total", "", "", "", "",
                           _money(last["gross"]), _money(last["tax_withheld"]), _money(last["net"]),
                           ""])
        total_net = _money(last["net"])
        if total_net:
            receipt_rows.append(["合计" if lang == "zh" else "Total", "", "", total_net,
                                 yuan_capital(total_net), "", ""])
    if not paid:
        later = any(getattr(getattr(g, "prize_table", None), "announced_later", False)
                    for g in (reg.awards.groups if reg.awards is not None else []))
        if later:  # 十一: 具体奖金数额另行通知 — not "no money"
            receipt_rows = [["（规程规定奖金另行通知：请在“规程”表填入各名次金额后重新奖励分配）" if lang == "zh"
                             else "(prize money announced later: type the amounts in the "
                                  "Regulation sheet and run awards again)",
                             "", "", None, "", "", ""]]
        else:
            receipt_rows = [["（本规程未设奖金，无需签收）" if lang == "zh" else "(no prize money)",
                         "", "", None, "", "", ""]]
    write_generated(port, L.AWARDS, award_rows, lang)
    write_generated(port, L.AWARD_RECEIPTS, receipt_rows, lang)
    write_generated(port, L.CERTIFICATES, cert_rows, lang)
    award_papers.write_certificate_pages(port, t, standings, lang)  # 荣誉证书, one per person
    n_money = sum(1 for r in receipt_rows[:-1] if r[3]) if paid else 0
    result = CommandResult(
        "awards", f"奖励分配：{len(award_rows) - (1 if len(totals) and paid else 0)} 行，"
                  f"发奖金 {n_money} 人次；" + "；".join(x.split(" / ")[0] for x in alloc.log),
        f"awards: {len(t)} rows, {n_money} paid; " + "; ".join(
            x.split(" / ")[-1] for x in alloc.log),
        data={"awards": [{k: _json(v) if not isinstance(v, (bool, type(None))) else v
                          for k, v in r.items()} for r in t.to_dict("records")],
              "log": alloc.log, "cancelled": alloc.cancelled})
    result.status_event = event  # the awards sheets are no input of the event
    return finish(port, result, args or {}, lang)
