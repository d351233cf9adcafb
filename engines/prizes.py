"""Prizes and awards: places by entries, prize money, tax, ties, 优胜奖/优秀奖, qualification.

Pure computation: a ranking (DataFrame) and the regulation's award rules (pydantic models) in, the
奖励 table (DataFrame), totals and log lines out. Money is ``Decimal`` yuan, rounded half-up to the
fen (0.01 yuan) as Excel ``ROUND`` does; tie splits are cut to the fen (never more than the pool)
with the undistributed remainder written to the log, unless ``TieSplit.rounding`` says otherwise.

Regulation readings (each a setting in the 规程 sheet):

- places by entries: the otog 2024 ladder (九（三）): ≥ 30 → 8, ≥ 20 → 6, ≥ 10 → 3, ≥ 6 → 1,
  3–5 → 1 (the 规程 is silent; flagged), < 3 → the event is cancelled;
- ties (equal ``place`` values in the ranking, standard competition ranking 1, 2, 2, 4): the tied
  entrants occupy the seats ``place … place + k − 1``; by default the prizes of those seats are
  pooled and split equally (``TieSplit.policy = "equal"``); see :class:`TieSplit` for ``none``
  and ``hort``;
- one prize per person unless the 规程 allows more (the higher prize is kept, the other vacated);
- a vacated place (ineligible or disqualified entrant) is not re-awarded unless the 规程 says so
  (``AwardRules.reaward_vacated``).

The rule models live in :mod:`bianpai.engines.prize_rules`, the money helpers in
:mod:`bianpai.engines.prize_money`; both are re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

import pandas as pd

from bianpai.engines.errors import InputError
from bianpai.engines.prize_money import (  # noqa: F401  (re-exported)
    _CN_DIGITS, _capital_integer, _cn_small, place_label, split_equally, yuan_capital)
from bianpai.engines.prize_rules import (  # noqa: F401  (re-exported)
    AwardRules, GroupAwards, MeritSplit, PlaceAward, PlacesByEntries, PlacesStep, PrizeTable,
    Qualification, TaxRule, TiePolicy, TieSplit, _Sourced)

from bianpai.engines.rounding import TWO_PLACES, q2

__all__ = [
    "AwardRules", "GroupAwards", "PlacesStep", "PlacesByEntries", "PrizeTable", "PlaceAward",
    "MeritSplit", "Qualification", "TaxRule", "TieSplit", "TiePolicy", "Allocation",
    "allocate", "split_equally", "yuan_capital", "place_label", "ALLOCATION_COLUMNS",
]

FEN = TWO_PLACES



# --------------------------------------------------------------------------------------------
# allocation
# --------------------------------------------------------------------------------------------

ALLOCATION_COLUMNS = [
    "group", "award_group", "place", "place_label", "tied", "entrant_id", "name", "unit",
    "award", "gross", "tax_withheld", "net", "trophy", "medal", "certificate", "qualification",
    "note",
]


@dataclass
class Allocation:
    """Result of :func:`allocate`.

    ``table``: the 奖励 rows, columns :data:`ALLOCATION_COLUMNS`:
    ``group`` (str, 组别), ``award_group`` (str, the :class:`GroupAwards` name), ``place`` (int,
    名次 as ranked), ``place_label`` (str, 第三名 / 并列第三名), ``tied`` (bool), ``entrant_id``,
    ``name``, ``unit`` (str), ``award`` (str, 奖项), ``gross`` / ``tax_withheld`` / ``net``
    (``Decimal`` yuan, 税前 / 代扣税额 / 实发; ``None`` where no amount is set), ``trophy`` /
    ``medal`` / ``certificate`` (bool), ``qualification`` (str or ``None``), ``note`` (str).
    ``totals``: one row per group and a last row ``合计``: ``group``, ``gross``,
    ``tax_withheld``, ``net`` (Decimal), ``trophies``, ``medals``, ``certificates`` (int).
    ``log``: lines (Chinese / English) on cancellations, ties, remainders, vacated places.
    ``cancelled``: groups cancelled for too few entries.
    """

    table: pd.DataFrame
    totals: pd.DataFrame
    log: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)


_ALIASES = {"rank": "place", "名次": "place", "entrant": "entrant_id", "组别": "group",
            "姓名": "name", "单位": "unit"}


def _prepare(standings: pd.DataFrame) -> pd.DataFrame:
    df = standings.rename(columns={k: v for k, v in _ALIASES.items()
                                   if k in standings.columns and v not in standings.columns})
    for col in ("place", "entrant_id"):
        if col not in df.columns:
            raise InputError(f"排名表缺少列 {col}", f"ranking lacks column {col!r}")
    df = df.copy()
    if "group" not in df.columns:
        df["group"] = ""
    if "name" not in df.columns:
        df["name"] = df["entrant_id"].astype(str)
    if "unit" not in df.columns:
        df["unit"] = ""
    for col, default in (("eligible", True), ("declined", False)):
        if col not in df.columns:
            df[col] = default
        df[col] = df[col].fillna(default).astype(bool)
    bad = df["place"].isna()
    if bad.any():
        raise InputError("排名表有空白名次", "ranking has blank places")
    df["place"] = df["place"].astype(int)
    df["group"] = df["group"].fillna("").astype(str)
    df["unit"] = df["unit"].fillna("").astype(str)
    df["_order"] = range(len(df))
    return df


def _entries_for(group: str, rows: int, entries) -> int:
    if entries is None:
        return rows
    if isinstance(entries, Mapping):
        if group in entries:
            return int(entries[group])
        raise InputError(f"未给出组别「{group}」的参赛数", f"no entry count for group {group!r}")
    return int(entries)


def _check_competition_ranking(g: pd.DataFrame, group: str) -> None:
    places = list(g["place"])
    for i, p in enumerate(places):
        expected = 1 + sum(1 for q in places if q < p)
        if p != expected:
            raise InputError(
                f"组别「{group}」名次 {p} 不符合并列排名规则（应为 {expected}，如 1、2、2、4）",
                f"group {group!r}: place {p} breaks standard competition ranking "
                f"(expected {expected}, e.g. 1, 2, 2, 4)")


def allocate(standings: pd.DataFrame, rules: AwardRules,
             entries: int | Mapping[str, int] | None = None) -> Allocation:
    """Allocate places, money, tax, trophies/medals/certificates and qualification.

    ``standings``: the final ranking, one row per entrant (person, pair or team), columns
    ``place`` (int, 名次; tied entrants share the best place, 1, 2, 2, 4; alias ``rank``),
    ``entrant_id`` (any hashable; alias ``entrant``), and optionally ``group`` (str, 组别; absent:
    one group ``""``), ``name`` (str), ``unit`` (str), ``eligible`` (bool, default True; False:
    disqualified or ineligible, the place is vacated), ``declined`` (bool: declines the
    qualification), ``person_id`` (the key of :attr:`AwardRules.one_prize_per_person`).
    Inside a tie, row order is the seat order used by the Hort system.

    ``entries``: number of entries for the places ladder and the 60 % split: one int for every
    group, a mapping group → int, or ``None`` (the number of ranked rows of the group).

    Returns an :class:`Allocation`. Raises :class:`InputError` for a missing column or places
    that break standard competition ranking.
    """
    df = _prepare(standings)
    log: list[str] = []
    cancelled: list[str] = []
    rows: list[dict] = []
    ts = rules.tie_split

    for group, g in df.groupby("group", sort=False):
        g = g.sort_values(["place", "_order"], kind="stable")
        block = rules.group_for(group)
        label = group or "（未分组）"
        if block is None:
            log.append(f"组别「{label}」没有奖励规则，未发奖 / group {label!r}: no award rule")
            continue
        n_entries = _entries_for(group, len(g), entries)
        if block.is_cancelled(n_entries):
            cancelled.append(group)
            log.append(f"组别「{label}」参赛 {n_entries}，不足 {block.places_by_entries.cancel_below}，"
                       f"取消该项目 / group {label!r}: {n_entries} entries, below "
                       f"{block.places_by_entries.cancel_below}, event cancelled")
            continue
        n_places = block.places_for(n_entries)
        step = block.places_by_entries.step_for(n_entries) if block.places_by_entries else None
        # the step's note (a reading the 规程 leaves open) belongs to the Chinese half: the
        # summary shows the part before " / " to Chinese readers, the part after to English ones
        note = f"（注：{step.note}）" if step is not None and step.note else ""
        if n_places == 0 and block.merit_split:
            msg = (f"组别「{label}」参赛 {n_entries}，不设名次奖，按比例评优胜奖/优秀奖{note} / group "
                   f"{label!r}: {n_entries} entries, no place prizes, merit split only")
        else:
            # a field smaller than the places: every entrant is within them (福建 80分 "前三名颁发
            # 奖杯，第四名至第八名颁发证书" with 6 pairs), said so rather than "前 8 名" of 6
            short = n_places > n_entries
            msg = (f"组别「{label}」参赛 {n_entries}，录取前 {n_places} 名"
                   + (f"（参赛不足 {n_places}，{n_entries} 名全部录取）" if short else "")
                   + f"{note} / group {label!r}: {n_entries} entries, {n_places} places"
                   + (f" (fewer entries than places: all {n_entries} placed)" if short else ""))
        log.append(msg)
        ranked = int(g["place"].notna().sum()) if "place" in g.columns else len(g)
        want = min(n_places, n_entries)
        if ranked < want:  # the final ranking places fewer than the awards pay: said, not hidden
            log.append(f"组别「{label}」总排名只有 {ranked} 个名次，录取的前 {want} 名中第 "
                       f"{ranked + 1}–{want} 名空缺：请核对规程的总排名设置（final_ranking）/ "
                       f"group {label!r}: the final ranking places {ranked}, places "
                       f"{ranked + 1}–{want} of the {want} paid are empty: check final_ranking")

        if rules.reaward_vacated and not g["eligible"].all():
            gone = g[~g["eligible"]]
            for _, r in gone.iterrows():
                log.append(f"组别「{label}」{r['name']} 不具备获奖资格，名次由后续递补 / "
                           f"{r['name']} ineligible, later entrants move up")
            g = g[g["eligible"]].copy()
            old = list(g["place"])
            g["place"] = [1 + sum(1 for q in old if q < p) for p in old]
        _check_competition_ranking(g, label)

        table = block.prize_table
        beyond = sorted(k for k in (table.amounts if table else {}) if k > n_places) \
            if block.places_by_entries is None and block.places is not None else []
        if beyond:  # a fixed number of places: an amount past them is never paid (a typo?)
            log.append(f"组别「{label}」奖金表列有第 {'、'.join(map(str, beyond))} 名，但只录取前 "
                       f"{n_places} 名：这些金额不发 / group {label!r}: amounts for places "
                       f"{', '.join(map(str, beyond))} beyond the {n_places} places are not paid")
        merit_cut = block.merit_split.cutoff(n_entries) if block.merit_split else None
        if block.merit_split:
            log.append(f"组别「{label}」{block.merit_split.winner_label}：前 {merit_cut} 名"
                       f"（{n_entries}×{block.merit_split.winner_percent}% 向下取整） / "
                       f"group {label!r}: winner award places 1–{merit_cut}")

        def seat_amount(seat: int) -> Decimal | None:
            if table is None or seat > n_places:
                return None if table is None else Decimal("0.00")
            a = table.amount(seat)
            return a if a is not None else (None if table.announced_later else Decimal("0.00"))

        qual_text = _qualification(block.qualification, g, log, label)

        for place, tie in g.groupby("place", sort=True):
            k = len(tie)
            tied = k > 1
            seats = list(range(place, place + k))
            in_places = place <= n_places
            shares: list[Decimal | None] = [None] * k
            tie_note = ""
            if table is not None and in_places:
                amounts = [seat_amount(s) for s in seats]
                if any(a is None for a in amounts[:1]):
                    shares = [None] * k
                else:
                    amounts = [a if a is not None else Decimal("0.00") for a in amounts]
                    shares = _tie_shares(amounts, ts, log, label, place, tied)
                    if tied:  # 奖励's 备注 says how the tied share (the log says it in full)
                        tie_note = _tie_note(ts, place, k, sum(amounts, Decimal("0.00")))
            for i, (_, r) in enumerate(tie.iterrows()):
                awards = [a for a in block.place_awards if a.covers(place)] if in_places else []
                merit = None
                if merit_cut is not None:
                    merit = (block.merit_split.winner_label if place <= merit_cut
                             else block.merit_split.merit_label)
                gross = shares[i]
                if gross is not None and gross == 0 and not awards and merit is None:
                    gross = None
                has_any = in_places or merit is not None or r["_order"] in qual_text
                if not has_any:
                    continue
                note = tie_note if gross is not None else ""
                if not r["eligible"]:
                    note = "名次空缺，不递补"
                    log.append(f"组别「{label}」第 {place} 名 {r['name']} 不具备获奖资格，"
                               f"名次空缺，不递补 / place {place} vacated, not re-awarded")
                    gross = None
                    awards = []
                    merit = None
                title = next((a.title for a in awards if a.title), None)
                pieces = []
                if in_places and r["eligible"]:
                    pieces.append(title or place_label(place, tied))
                if merit:
                    pieces.append(merit)
                rows.append({
                    "group": group, "award_group": block.name, "place": int(place),
                    "place_label": place_label(place, tied), "tied": tied,
                    "entrant_id": r["entrant_id"], "name": r["name"], "unit": r["unit"],
                    "award": "、".join(pieces) if pieces else ("空缺" if note else ""),
                    "gross": gross,
                    "trophy": any(a.trophy for a in awards),
                    "medal": any(a.medal for a in awards),
                    "certificate": any(a.certificate for a in awards),
                    "qualification": qual_text.get(r["_order"]),
                    "note": note,
                    "_person": r.get("person_id") if "person_id" in df.columns else None,
                })

    if rules.one_prize_per_person and "person_id" in df.columns:
        _one_prize(rows, log)

    for row in rows:
        row.pop("_person", None)
        gross = row["gross"]
        if gross is None:
            row["tax_withheld"] = None
            row["net"] = None
        else:
            tax = rules.tax.tax(gross) if rules.tax else Decimal("0.00")
            row["tax_withheld"] = tax
            row["net"] = gross - tax

    table = pd.DataFrame(rows, columns=ALLOCATION_COLUMNS)
    return Allocation(table=table, totals=_totals(table), log=log, cancelled=cancelled)


def _tie_note(ts: TieSplit, place: int, k: int, pool: Decimal) -> str:
    """The 备注 of a tied entrant's prize: which places' money was shared, and how."""
    seats = f"第{place}–{place + k - 1}名奖金合计 {pool} 元"
    if ts.policy is TiePolicy.none:
        return f"并列第{place}名，各得第{place}名奖金（不分摊）"
    if ts.policy is TiePolicy.equal:
        return f"并列第{place}名：{seats}，平分"
    return f"并列第{place}名：{seats}，按霍特制分配"


def _tie_shares(amounts: list[Decimal], ts: TieSplit, log: list[str], label: str, place: int,
                tied: bool) -> list[Decimal]:
    k = len(amounts)
    if not tied:
        return [amounts[0]]
    pool = sum(amounts, Decimal("0.00"))
    head = f"组别「{label}」并列第 {place} 名 {k} 人"
    if ts.policy is TiePolicy.none:
        shares = [amounts[0]] * k
        extra = amounts[0] * k - pool
        log.append(f"{head}：不分摊，各得第 {place} 名奖金 {amounts[0]} 元，超出奖金表 {extra} 元 / "
                   f"tie at {place}: no split, each {amounts[0]}, {extra} over the table")
        return shares
    if ts.policy is TiePolicy.equal:
        share, rem = split_equally(pool, k, ts.rounding, ts.whole_yuan)
        log.append(f"{head}：合并 {pool} 元平分，每人 {share} 元，余额 {rem} 元 / "
                   f"tie at {place}: pool {pool} split equally, {share} each, remainder {rem}")
        return [share] * k
    keep = [q2(a / 2) for a in amounts]
    pot = pool - sum(keep, Decimal("0"))
    share, rem = split_equally(pot, k, ts.rounding, ts.whole_yuan)
    log.append(f"{head}：霍特制，各留本名次奖金一半，其余 {pot} 元平分，每人 {share} 元，余额 {rem} 元 / "
               f"tie at {place}: Hort system, pot {pot}, {share} each, remainder {rem}")
    return [kp + share for kp in keep]


def _qualification(q: Qualification | None, g: pd.DataFrame, log: list[str],
                   label: str) -> dict[int, str]:
    """Row order → qualification text."""
    if q is None:
        return {}
    out: dict[int, str] = {}
    by_place: dict[int, list] = {}
    for _, r in g.iterrows():
        by_place.setdefault(int(r["place"]), []).append(r)
    if q.discretionary:
        for p in q.qualify_places:
            for r in by_place.get(p, []):
                if r["eligible"]:
                    out[r["_order"]] = f"{q.target}选派候选"
        return out
    slots = 0
    for p in q.qualify_places:
        for r in by_place.get(p, []):
            if r["declined"] or not r["eligible"]:
                out[r["_order"]] = "放弃资格" if r["declined"] else "不具备资格"
                slots += 1
            else:
                out[r["_order"]] = f"获得{q.target}资格"
    n = 0
    for p in q.replacement_places:
        for r in by_place.get(p, []):
            if r["declined"] or not r["eligible"]:
                out[r["_order"]] = "放弃替补" if r["declined"] else "不具备资格"
                continue
            if slots:
                out[r["_order"]] = f"递补获得{q.target}资格"
                slots -= 1
                log.append(f"组别「{label}」{r['name']} 递补获得{q.target}资格 / "
                           f"{r['name']} replaces a qualifier")
            else:
                n += 1
                out[r["_order"]] = f"第{_cn_small(n)}替补"
    if slots:
        log.append(f"组别「{label}」{q.target}资格有 {slots} 个名额无人递补 / "
                   f"{slots} qualification slot(s) left unfilled")
    return out


def _one_prize(rows: list[dict], log: list[str]) -> None:
    by_person: dict[object, list[dict]] = {}
    for row in rows:
        p = row.get("_person")
        if p is None or (isinstance(p, float) and math.isnan(p)) or p == "":
            continue
        if row["gross"] is not None and row["gross"] > 0:
            by_person.setdefault(p, []).append(row)
    for person, won in by_person.items():
        if len(won) < 2:
            continue
        best = max(won, key=lambda r: r["gross"])  # first of equal maxima
        for row in won:
            if row is best:
                continue
            log.append(f"{row['name']} 已获「{best['group']}」{best['award']}，"
                       f"「{row['group']}」{row['award']} 奖金不兼得，空缺不递补 / "
                       f"one prize per person: {row['group']} prize vacated")
            row["gross"] = None
            row["note"] = "奖金不兼得，空缺不递补"


def _totals(table: pd.DataFrame) -> pd.DataFrame:
    def dsum(values) -> Decimal:
        return sum((v for v in values if v is not None and not (isinstance(v, float)
                                                                 and math.isnan(v))),
                   Decimal("0.00"))

    out = []
    for group, g in table.groupby("group", sort=False):
        out.append({"group": group, "gross": dsum(g["gross"]),
                    "tax_withheld": dsum(g["tax_withheld"]), "net": dsum(g["net"]),
                    "trophies": int(g["trophy"].sum()), "medals": int(g["medal"].sum()),
                    "certificates": int(g["certificate"].sum())})
    out.append({"group": "合计", "gross": dsum(table["gross"]),
                "tax_withheld": dsum(table["tax_withheld"]), "net": dsum(table["net"]),
                "trophies": int(table["trophy"].sum()), "medals": int(table["medal"].sum()),
                "certificates": int(table["certificate"].sum())})
    return pd.DataFrame(out, columns=["group", "gross", "tax_withheld", "net", "trophies",
                                      "medals", "certificates"])
