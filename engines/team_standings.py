"""Team standings for a Swiss or round-robin stage scored in VP, on the common tie-break chain.

Total = carry-over + Σ match VP (bye VP included) − fines, all ``Decimal`` with 2 places.
The ranking is computed by :func:`bianpai.engines.standings.rank`; this module only registers
the team criteria in its registry (:data:`bianpai.engines.standings.CRITERIA`) and turns a frame
of matches into the per-entrant rows ``rank`` reads. Registered criteria:

1. ``vp``           total VP (carry-over + match VP − fines; the ranking itself);
2. ``h2h_vp``       VP among the tied teams in their direct matches (only when every pair of
                    them has met; a partial mini-table decides nothing);
3. ``imp_quotient`` IMPs won / IMPs lost over all matches of the stage (byes excluded;
                    won > 0 and lost = 0 is ∞; 0 / 0 is 1);
4. ``lots``         seeded lots (shared with every event).

``DEFAULT_TIE_CHAIN`` is the stand-in until 中国桥牌竞赛规则 (2018) Art. 44 clause 3 is
transcribed (research/scoring-anchors.md §6; Fujian 2024 桥牌 九（一）). Every rank gets a 说明
(Chinese) and an ``explanation`` (English), e.g. "与第5名VP相同，以相互间VP区分 (12.50 > 7.50)".
"""

from __future__ import annotations

from decimal import Decimal
from typing import Mapping, Sequence

import pandas as pd

from bianpai.engines.errors import InputError
from bianpai.engines.rounding import q2, to_decimal
from bianpai.engines.standings import CRITERIA, Criterion, head_to_head, rank, register

__all__ = ["DEFAULT_TIE_CHAIN", "TEAM_CRITERIA", "team_rows", "team_standings"]

INF = Decimal("Infinity")


def _played(results: pd.DataFrame) -> pd.DataFrame:
    if "complete" in results.columns:
        return results[results["complete"].astype(bool)]
    return results


def _vp_total(members, results, ctx):
    """carry-over + Σ vp − fines per member (ctx["carry_over"], ctx["fines"]: team → VP).

    Rows of the competition core count too: a ``fines`` column (VP deducted in that match) is
    subtracted, and a carry-over row (``outcome`` ``CARRY``) adds its ``match_points``."""
    r = _played(results)
    carry, fines = ctx.get("carry_over") or {}, ctx.get("fines") or {}
    sums = {e: Decimal(0) for e in members}
    n = len(r)
    col = (lambda c: r[c].tolist() if c in r.columns else [None] * n)
    # one pass over the rows (a mask per entrant costs a frame scan each)
    for e, o, mp, vp, fine in zip(r["entrant"].tolist(), col("outcome"), col("match_points"),
                                  col("vp"), col("fines")):
        if e not in sums:
            continue
        if o == "CARRY":
            parts = ((mp, 1),)
        else:
            parts = ((vp, 1), (fine, -1))
        for v, sign in parts:
            if v is not None and not pd.isna(v):
                sums[e] += sign * to_decimal(v)
    return {e: q2(to_decimal(carry.get(e, 0)) + sums[e] - to_decimal(fines.get(e, 0)))
            for e in members}


def _imp_quotient(members, results, ctx):
    r = _played(results)
    won_lost = {e: [0, 0] for e in members}
    n = len(r)
    cols = [r[c].tolist() if c in r.columns else [None] * n for c in ("imps_won", "imps_lost")]
    # no such column yet (no match played): nothing won or lost
    for e, w, lo in zip(r["entrant"].tolist(), *cols):
        if e in won_lost:
            for i, v in enumerate((w, lo)):
                if v is not None and not pd.isna(v):
                    won_lost[e][i] += int(v)
    out = {}
    for e, (won, lost) in won_lost.items():
        if lost == 0:
            out[e] = INF if won > 0 else Decimal(1)
        else:
            out[e] = Decimal(won) / Decimal(lost)
    return out


def _fmt_quotient(v) -> str:
    return "∞" if v == INF else f"{v.quantize(Decimal('0.0001')):.4f}"


TEAM_CRITERIA = [
    Criterion("vp", "VP", "VP", _vp_total),
    Criterion("h2h_vp", "相互间VP", "head-to-head VP", head_to_head("vp"), group_dependent=True),
    Criterion("imp_quotient", "IMP商", "IMP quotient", _imp_quotient, fmt=_fmt_quotient),
]
for _c in TEAM_CRITERIA:
    register(_c)

DEFAULT_TIE_CHAIN: tuple[str, ...] = ("vp", "h2h_vp", "imp_quotient", "lots")


def _dec(v, what: str) -> Decimal:
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return Decimal("0.00")
    try:
        return to_decimal(v)
    except ValueError as exc:
        raise InputError(f"{what}不是数字：{v!r}", f"{what} is not a number: {v!r}") from exc


def _int(v) -> int:
    return 0 if (v is None or v is pd.NA or pd.isna(v)) else int(v)


def team_rows(matches: pd.DataFrame) -> pd.DataFrame:
    """Per-entrant rows for :func:`~bianpai.engines.standings.rank` from a frame of matches.

    ``matches``: ``home``, ``away`` (NA = bye), ``home_vp``, ``away_vp`` (VP before fines; a bye
    row carries the bye VP in ``home_vp``), optional ``home_imps``/``away_imps`` (IMPs each team
    scored) and ``round``. Returns ``entrant, opponent (Int64), round, complete, vp, imps_won,
    imps_lost``: two rows per match, one per bye. Raises :class:`InputError` for missing columns
    or values that are not numbers.
    """
    need = {"home", "away", "home_vp", "away_vp"}
    missing = need - set(matches.columns)
    if missing:
        raise InputError(f"成绩表缺少列：{sorted(missing)}", f"results lack columns: {sorted(missing)}")
    rows = []
    get = (lambda rec, k: rec.get(k))
    for rec in matches.to_dict("records"):
        h, a = int(rec["home"]), rec["away"]
        rnd = get(rec, "round")
        hv = _dec(rec["home_vp"], "主队VP")
        hi, ai = _int(get(rec, "home_imps")), _int(get(rec, "away_imps"))
        if a is None or a is pd.NA or pd.isna(a):
            rows.append(dict(entrant=h, opponent=pd.NA, round=rnd, complete=True, vp=hv,
                             imps_won=0, imps_lost=0))
            continue
        a = int(a)
        av = _dec(rec["away_vp"], "客队VP")
        rows.append(dict(entrant=h, opponent=a, round=rnd, complete=True, vp=hv, imps_won=hi,
                         imps_lost=ai))
        rows.append(dict(entrant=a, opponent=h, round=rnd, complete=True, vp=av, imps_won=ai,
                         imps_lost=hi))
    df = pd.DataFrame(rows, columns=["entrant", "opponent", "round", "complete", "vp",
                                     "imps_won", "imps_lost"])
    df["opponent"] = df["opponent"].astype("Int64")
    return df


def team_standings(matches: pd.DataFrame, teams: Sequence[int] | None = None, *,
                   carry_over: Mapping[int, object] | None = None,
                   fines: Mapping[int, object] | None = None,
                   tie_chain: Sequence[str] = DEFAULT_TIE_CHAIN,
                   seed: int | None = None) -> pd.DataFrame:
    """Rank a VP stage through :func:`bianpai.engines.standings.rank` and return the VP table.

    ``matches``: see :func:`team_rows`. ``teams``: all entrants (defaults to those in
    ``matches``; a team with no match yet still appears). ``carry_over``/``fines``: team → VP
    (fines positive, subtracted; may take a total below 0). ``tie_chain``: criterion names of
    the registry, ``vp`` first (prepended when missing). ``seed``: integer seed for ``lots``.

    Returns one row per team, best first: ``rank`` (shared when the chain cannot separate),
    ``team``, ``carry_over``, ``match_vp``, ``fines``, ``total`` (VP, Decimal 2 places),
    ``imps_won``, ``imps_lost`` (IMP), ``imp_quotient`` ("∞" or Decimal 4 places), one
    ``tb_<name>`` column per further criterion (formatted value where computed, else ""),
    ``说明`` and ``explanation``.

    Raises ``RuleError`` for an unknown criterion or lots without a seed; ``InputError`` for
    missing columns or non-numbers. Source: Fujian 2024 桥牌 五、八、九（一）.
    """
    rows = team_rows(matches)
    carry = {int(k): q2(_dec(v, "带分")) for k, v in (carry_over or {}).items()}
    fine = {int(k): q2(_dec(v, "罚分")) for k, v in (fines or {}).items()}
    all_teams = set(int(t) for t in teams) if teams is not None else set()
    all_teams |= set(rows["entrant"].astype(int).tolist()) | set(carry) | set(fine)
    chain = list(tie_chain)
    if not chain or chain[0] != "vp":
        chain = ["vp", *[c for c in chain if c != "vp"]]
    st = rank(sorted(all_teams), rows, chain, seed=seed,
              ctx={"carry_over": carry, "fines": fine})
    won = rows.groupby("entrant")["imps_won"].sum().to_dict() if len(rows) else {}
    lost = rows.groupby("entrant")["imps_lost"].sum().to_dict() if len(rows) else {}
    mvp = rows.groupby("entrant")["vp"].apply(lambda s: q2(sum(s, Decimal(0)))).to_dict() \
        if len(rows) else {}
    quot = _imp_quotient(sorted(all_teams), rows, {})
    out = []
    for rec in st.table.to_dict("records"):
        t = int(rec["entrant"])
        row = {"rank": int(rec["rank"]), "team": t,
               "carry_over": carry.get(t, Decimal("0.00")),
               "match_vp": mvp.get(t, Decimal("0.00")), "fines": fine.get(t, Decimal("0.00")),
               "total": rec["vp"], "imps_won": int(won.get(t, 0)), "imps_lost": int(lost.get(t, 0)),
               "imp_quotient": "∞" if quot[t] == INF else quot[t].quantize(Decimal("0.0001"))}
        for c in st.chain[1:]:
            v = rec[c.name]
            row[f"tb_{c.name}"] = "" if v is None else c.show(v)
        row["说明"], row["explanation"] = rec["explanation_zh"], rec["explanation_en"]
        out.append(row)
    df = pd.DataFrame(out)
    if not df.empty:
        df["rank"] = df["rank"].astype("int64")
        df["team"] = df["team"].astype("int64")
    df.attrs["chain"] = [CRITERIA[c] for c in chain]
    return df


def combine_places(blocks: Sequence[tuple[str, Sequence[int]]]) -> pd.DataFrame:
    """Overall places from ordered blocks, e.g. ``[("淘汰赛", [ko 1st … 4th]), ("附加积分编排赛",
    consolation order)]`` (Fujian 2024 五: 1–4 from the knockout, 5+ from the consolation).

    Returns ``place`` (1 …), ``team``, ``source`` (the block's name), ``explanation``
    ("淘汰赛第2名"). Raises :class:`InputError` when a team appears in two blocks.
    """
    rows, seen = [], {}
    for source, teams in blocks:
        for i, t in enumerate(teams, start=1):
            t = int(t)
            if t in seen:
                raise InputError(f"{t}号队同时出现在“{seen[t]}”与“{source}”的名次中",
                                 f"team {t} is placed both in {seen[t]!r} and {source!r}")
            seen[t] = source
            rows.append({"place": len(rows) + 1, "team": t, "source": source,
                         "explanation": f"{source}第{i}名"})
    return pd.DataFrame(rows, columns=["place", "team", "source", "explanation"])
