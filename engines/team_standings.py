"""Team standings for a Swiss or round-robin stage scored in VP, with a named tie-break chain.

Total = carry-over + Σ match VP (bye VP included) − fines, all ``Decimal`` with 2 places.
Ties are broken by an ordered chain of named criteria from :data:`TIE_BREAKS`; the default
(``DEFAULT_TIE_CHAIN``) is the stand-in until 中国桥牌竞赛规则 (2018) Art. 44 clause 3 is
transcribed (research/scoring-anchors.md §6):

1. ``vp``           total VP (the ranking itself);
2. ``h2h_vp``       VP among the tied teams in their direct matches;
3. ``imp_quotient`` IMPs won / IMPs lost over all matches of the stage (byes excluded);
4. ``lots``         seeded lots (``random.Random(seed)``).

Each criterion is applied to a group of teams still tied; its sub-groups that stay tied go on to
the next criterion (head-to-head is computed among the teams of the group being split). Every
rank gets a 说明 (Chinese) and an ``explanation`` (English) saying what separated it from the next
entrant, e.g. "与第5名VP相同，以相互间VP区分 (12.50 > 7.50)".
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable, Mapping, Sequence

import pandas as pd

from bianpai.engines.errors import InputError, RuleError
from bianpai.engines.rounding import q2, to_decimal

__all__ = ["TieBreak", "TIE_BREAKS", "DEFAULT_TIE_CHAIN", "register_tie_break", "team_standings"]

INF = Decimal("Infinity")


@dataclass(frozen=True)
class TieBreak:
    """A named criterion: ``values(group, ctx) -> {team: comparable}``, higher is better.

    ``zh``/``en`` name it in explanations; ``fmt`` shows a value.
    """

    name: str
    zh: str
    en: str
    values: Callable[[list[int], "StandingsContext"], Mapping[int, object]]
    fmt: Callable[[object], str] = str


@dataclass
class StandingsContext:
    matches: pd.DataFrame  # normalised: home, away (Int64), home_imps, away_imps, home_vp, away_vp
    totals: dict[int, Decimal]
    imps_won: dict[int, int]
    imps_lost: dict[int, int]
    seed: int | None
    params: dict


def _fmt_dec(v) -> str:
    return f"{v:.2f}" if isinstance(v, Decimal) and v.is_finite() else ("∞" if v == INF else str(v))


def _fmt_quot(v) -> str:
    if isinstance(v, Decimal):
        return "∞" if v == INF else f"{v:.4f}"
    return str(v)


def _tb_vp(group, ctx):
    return {t: ctx.totals[t] for t in group}


def _tb_h2h_vp(group, ctx):
    members = set(group)
    out = {t: Decimal("0.00") for t in group}
    m = ctx.matches
    for h, a, hv, av in zip(m["home"], m["away"], m["home_vp"], m["away_vp"]):
        if a is pd.NA or pd.isna(a):
            continue
        h, a = int(h), int(a)
        if h in members and a in members:
            out[h] += hv
            out[a] += av
    return out


def _tb_imp_quotient(group, ctx):
    out = {}
    for t in group:
        won, lost = ctx.imps_won.get(t, 0), ctx.imps_lost.get(t, 0)
        if lost == 0:
            out[t] = INF if won > 0 else Decimal("1")  # 0/0: neutral
        else:
            out[t] = Decimal(won) / Decimal(lost)
    return out


def _tb_lots(group, ctx):
    if ctx.seed is None:
        raise RuleError("同分需抽签决定，但未提供抽签种子（seed）",
                        "a tie needs drawing lots but no seed was given")
    rng = random.Random(f"{ctx.seed}:{','.join(map(str, sorted(group)))}")
    order = sorted(group)
    rng.shuffle(order)
    # First drawn ranks best: value = −(draw position), so higher is better.
    return {t: -(i + 1) for i, t in enumerate(order)}


#: Registry of tie-break criteria by name (other events register theirs).
TIE_BREAKS: dict[str, TieBreak] = {
    "vp": TieBreak("vp", "VP", "VP", _tb_vp, _fmt_dec),
    "h2h_vp": TieBreak("h2h_vp", "相互间VP", "head-to-head VP", _tb_h2h_vp, _fmt_dec),
    "imp_quotient": TieBreak("imp_quotient", "IMP商", "IMP quotient", _tb_imp_quotient,
                             _fmt_quot),
    "lots": TieBreak("lots", "抽签", "lots", _tb_lots, lambda v: f"第{-v}签"),
}

DEFAULT_TIE_CHAIN: tuple[str, ...] = ("vp", "h2h_vp", "imp_quotient", "lots")


def register_tie_break(tb: TieBreak) -> None:
    """Add or replace a criterion in :data:`TIE_BREAKS`."""
    TIE_BREAKS[tb.name] = tb


def _dec(v, what: str) -> Decimal:
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return Decimal("0.00")
    try:
        return to_decimal(v)
    except ValueError as exc:
        raise InputError(f"{what}不是数字：{v!r}", f"{what} is not a number: {v!r}") from exc


def _normalise(matches: pd.DataFrame) -> pd.DataFrame:
    need = {"home", "away", "home_vp", "away_vp"}
    missing = need - set(matches.columns)
    if missing:
        raise InputError(f"成绩表缺少列：{sorted(missing)}", f"results lack columns: {sorted(missing)}")
    m = pd.DataFrame({
        "home": matches["home"].astype("int64"),
        "away": matches["away"].astype("Int64"),
    })
    m["home_vp"] = [_dec(v, "主队VP") for v in matches["home_vp"]]
    m["away_vp"] = [_dec(v, "客队VP") for v in matches["away_vp"]]
    for c in ("home_imps", "away_imps"):
        m[c] = [0 if (v is None or v is pd.NA or pd.isna(v)) else int(v)
                for v in (matches[c] if c in matches.columns else [None] * len(matches))]
    return m


def team_standings(matches: pd.DataFrame, teams: Sequence[int] | None = None, *,
                   carry_over: Mapping[int, object] | None = None,
                   fines: Mapping[int, object] | None = None,
                   tie_chain: Sequence[str] = DEFAULT_TIE_CHAIN,
                   seed: int | None = None, **params) -> pd.DataFrame:
    """Rank a VP stage.

    ``matches``: one row per match of the stage: ``home``, ``away`` (NA = bye), ``home_vp``,
    ``away_vp`` (VP after conversion, before fines; a bye row carries the bye VP in ``home_vp``),
    and optionally ``home_imps``, ``away_imps`` (IMPs each team scored in the match, for the IMP
    quotient). ``teams``: all entrants (defaults to those in ``matches``; a team with no match yet
    still appears). ``carry_over``/``fines``: team → VP (fines positive, subtracted; may take a
    total below 0). ``tie_chain``: names from :data:`TIE_BREAKS`, the first being the ranking
    total (normally ``"vp"``). ``seed``: integer seed for ``lots``.

    Returns one row per team, best first: ``rank`` (equal ranks share the number when the chain
    cannot separate them), ``team``, ``carry_over``, ``match_vp``, ``fines``, ``total``,
    ``imps_won``, ``imps_lost``, ``imp_quotient``, one ``tb_<name>`` column per further criterion
    (value where it was used, else empty), ``说明`` and ``explanation``.

    Raises :class:`RuleError` for an unknown criterion or lots without a seed; :class:`InputError`
    for missing columns or non-numbers.
    """
    m = _normalise(matches)
    carry = {int(k): q2(_dec(v, "带分")) for k, v in (carry_over or {}).items()}
    fine = {int(k): q2(_dec(v, "罚分")) for k, v in (fines or {}).items()}
    all_teams = set(int(t) for t in teams) if teams is not None else set()
    all_teams |= set(m["home"].tolist()) | {int(a) for a in m["away"].dropna()}
    all_teams |= set(carry) | set(fine)
    for name in tie_chain:
        if name not in TIE_BREAKS:
            raise RuleError(f"未知的同分名次确定办法：{name}", f"unknown tie-break: {name}")

    match_vp = {t: Decimal("0.00") for t in all_teams}
    won = {t: 0 for t in all_teams}
    lost = {t: 0 for t in all_teams}
    for h, a, hv, av, hi, ai in m[["home", "away", "home_vp", "away_vp", "home_imps",
                                    "away_imps"]].itertuples(index=False):
        match_vp[int(h)] += hv
        if a is pd.NA or pd.isna(a):
            continue
        a = int(a)
        match_vp[a] += av
        won[int(h)] += hi
        lost[int(h)] += ai
        won[a] += ai
        lost[a] += hi
    totals = {t: q2(carry.get(t, 0) + match_vp[t] - fine.get(t, 0)) for t in all_teams}
    ctx = StandingsContext(m, totals, won, lost, seed, dict(params))

    # values[t][criterion] where the criterion was evaluated for t
    values: dict[int, dict[str, object]] = {t: {} for t in all_teams}

    def split(group: list[int], depth: int) -> list[list[int]]:
        if len(group) == 1 or depth >= len(tie_chain):
            return [sorted(group)]
        tb = TIE_BREAKS[tie_chain[depth]]
        vals = tb.values(group, ctx)
        for t in group:
            values[t][tb.name] = vals[t]
        out: list[list[int]] = []
        for v in sorted({vals[t] for t in group}, reverse=True):
            sub = [t for t in group if vals[t] == v]
            out.extend(split(sub, depth + 1))
        return out

    if tie_chain and tie_chain[0] == "vp":
        blocks = split(sorted(all_teams), 0)
    else:  # total always ranks first
        vals = _tb_vp(sorted(all_teams), ctx)
        for t in all_teams:
            values[t]["vp"] = vals[t]
        blocks = []
        for v in sorted(set(vals.values()), reverse=True):
            blocks.extend(split([t for t in all_teams if vals[t] == v], 0))

    rows = []
    rank = 0
    for block in blocks:
        rank_of_block = rank + 1
        for t in block:
            rank += 1
            q = _tb_imp_quotient([t], ctx)[t]
            row = {"rank": rank_of_block, "team": t, "carry_over": carry.get(t, Decimal("0.00")),
                   "match_vp": q2(match_vp[t]), "fines": fine.get(t, Decimal("0.00")),
                   "total": totals[t], "imps_won": won[t], "imps_lost": lost[t],
                   "imp_quotient": "∞" if q == INF else q.quantize(Decimal("0.0001"))}
            for name in tie_chain:
                if name != "vp":
                    v = values[t].get(name)
                    row[f"tb_{name}"] = "" if v is None else TIE_BREAKS[name].fmt(v)
            rows.append(row)

    # explanations against the next entrant
    order = [r["team"] for r in rows]
    for i, r in enumerate(rows):
        if i + 1 == len(rows):
            r["说明"], r["explanation"] = "", ""
            continue
        t, n = order[i], order[i + 1]
        next_rank = rows[i + 1]["rank"]
        chain = list(tie_chain) if tie_chain and tie_chain[0] == "vp" else ["vp", *tie_chain]
        zh = en = None
        tied_on: list[str] = []
        for name in chain:
            if name not in values[t] or name not in values[n]:
                break
            vt, vn = values[t][name], values[n][name]
            tb = TIE_BREAKS[name]
            if vt != vn:
                if not tied_on:
                    zh = f"VP多于第{next_rank}名 ({tb.fmt(vt)} > {tb.fmt(vn)})"
                    en = f"more VP than #{next_rank} ({tb.fmt(vt)} > {tb.fmt(vn)})"
                else:
                    same_zh = "、".join(TIE_BREAKS[x].zh for x in tied_on)
                    same_en = ", ".join(TIE_BREAKS[x].en for x in tied_on)
                    zh = (f"与第{next_rank}名{same_zh}相同，以{tb.zh}区分 "
                          f"({tb.fmt(vt)} > {tb.fmt(vn)})")
                    en = (f"tied with #{next_rank} on {same_en}; separated by {tb.en} "
                          f"({tb.fmt(vt)} > {tb.fmt(vn)})")
                break
            tied_on.append(name)
        if zh is None:
            zh = f"与下一名各项同分办法均相同，名次并列（第{r['rank']}名）"
            en = f"equal with the next entrant on every criterion; shared rank {r['rank']}"
        r["说明"], r["explanation"] = zh, en

    df = pd.DataFrame(rows)
    if not df.empty:
        df["rank"] = df["rank"].astype("int64")
        df["team"] = df["team"].astype("int64")
    return df
