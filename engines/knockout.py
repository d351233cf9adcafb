"""Single-elimination knockouts: standard seed positions, the 8-team bridge knockout of the Fujian
2024 规程 (quarter-finals, semi-finals, final, 3rd-place match) and deciding a match on IMPs with a
configurable tie chain.

Fujian 2024 桥牌 五、第二阶段 1: stage-1 places 1–8 are placed in the upper and lower halves:
QF1 1v8 and QF2 4v5 (upper half), QF3 2v7 and QF4 3v6 (lower half); SF1 = W(QF1) v W(QF2),
SF2 = W(QF3) v W(QF4); final W(SF1) v W(SF2) and 3rd-place match L(SF1) v L(SF2); every match
16 boards in 2 sessions, decided on IMPs. QF losers go to the consolation Swiss (places 5+ are
decided there).

Home team and seats (六（四）2, 3 and 六（五）2): the team placed higher in stage 1 is the home team in
every knockout match and keeps its direction in both sessions; the home team sits North-South in
the open room. Seat choice (座位选择权): in session 1 the *away* team chooses, in session 2 the
*home* team; the team without the choice sits down first. The home team is listed first.

Ties (九（二）): "按规则第四十四条二款执行，如至规则第四十四条二款2比较相同时，不加赛，按第一阶段名次在前者胜".
The text of 中国桥牌竞赛规则 (2018) Art. 44 clause 2 is not transcribed yet, so its steps are
criteria the organizer inserts into the chain; the Fujian reading ends with ``stage_place``
(better stage-1 place wins, no extra boards). The generic default ends with ``extra_boards``
(a play-off whose IMPs are entered; undecided until they are).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import pandas as pd

from bianpai.engines.errors import InputError, RuleError

__all__ = [
    "seed_slots", "bracket", "KO_TIE_BREAKS", "register_ko_tie_break", "FUJIAN_KO_TIE_CHAIN",
    "DEFAULT_KO_TIE_CHAIN", "MatchDecision", "decide_match", "knockout8", "knockout_places",
    "final_ranking",
]


# -------------------------------------------------------------------------- generic bracket

def seed_slots(size: int) -> list[int]:
    """Standard seed order of a bracket of ``size`` slots (a power of two), top to bottom.

    Built by doubling from ``[1, 2]``: each seed ``p`` is followed by ``size' + 1 − p``
    (8 → 1, 8, 4, 5, 2, 7, 3, 6). Seeds 1 and 2 can only meet in the final.
    """
    if size < 2 or size & (size - 1):
        raise InputError(f"签位数必须是2的幂（≥2）：{size}", f"bracket size must be a power of 2: {size}")
    slots = [1, 2]
    while len(slots) < size:
        n = 2 * len(slots)
        slots = [x for p in slots for x in (p, n + 1 - p)]
    return slots


def bracket(n_seeds: int, size: int | None = None) -> pd.DataFrame:
    """First-round matches of a single-elimination bracket for ``n_seeds`` seeded entrants.

    ``size`` defaults to the smallest power of two ≥ ``n_seeds``; empty slots are seeds
    ``n_seeds+1 … size`` so the top seeds get the byes. Columns: ``match`` (1-based, top to
    bottom), ``half`` ("上半区"/"下半区"), ``top``, ``bottom`` (``Int64``, NA = bye): seed numbers,
    the better seed first. Raises :class:`InputError` for fewer than 2 seeds or a too small size.
    """
    if n_seeds < 2:
        raise InputError(f"淘汰赛至少需要2个种子：{n_seeds}", f"a knockout needs at least 2 seeds: {n_seeds}")
    if size is None:
        size = 1
        while size < n_seeds:
            size *= 2
    if size < n_seeds:
        raise InputError(f"签位数{size}少于参赛数{n_seeds}", f"bracket size {size} < entrants {n_seeds}")
    slots = seed_slots(size)
    rows = []
    for m in range(size // 2):
        a, b = slots[2 * m], slots[2 * m + 1]
        top, bottom = min(a, b), max(a, b)
        rows.append({
            "match": m + 1,
            "half": "上半区" if m < size // 4 or size == 2 else "下半区",
            "top": top,
            "bottom": bottom if bottom <= n_seeds else pd.NA,
        })
    df = pd.DataFrame(rows)
    df["top"] = df["top"].astype("Int64")
    df["bottom"] = df["bottom"].astype("Int64")
    return df


# ------------------------------------------------------------------------------ tie chain

@dataclass(frozen=True)
class MatchDecision:
    """Outcome of one knockout match. ``winner``/``loser`` are None while undecided."""

    winner: int | None
    loser: int | None
    criterion: str | None
    zh: str
    en: str

    @property
    def decided(self) -> bool:
        return self.winner is not None


#: A KO tie criterion: ``(home, away, ctx) -> (winner or None, zh, en)``; ``None`` passes on.
KoTieBreak = Callable[[int, int, Mapping], tuple[int | None, str, str]]


def _ko_stage_place(home: int, away: int, ctx: Mapping):
    place = ctx.get("stage_place") or {}
    ph, pa = place.get(home), place.get(away)
    if ph is None or pa is None or ph == pa:
        return None, "", ""
    w = home if ph < pa else away
    return (w, f"IMP相同，不加赛，第一阶段名次在前者胜（第{min(ph, pa)}名 vs 第{max(ph, pa)}名）",
            f"tied on IMPs; no extra boards, the better stage-1 place wins "
            f"({min(ph, pa)} vs {max(ph, pa)})")


def _ko_extra_boards(home: int, away: int, ctx: Mapping):
    extra = ctx.get("extra_imps")
    if extra is None:
        return None, "", ""
    eh, ea = int(extra[0]), int(extra[1])
    if eh == ea:
        return None, "", ""
    w = home if eh > ea else away
    return w, f"IMP相同，加赛IMP决定（{max(eh, ea)} : {min(eh, ea)}）", \
        f"tied on IMPs; decided by the extra boards ({max(eh, ea)} : {min(eh, ea)})"


#: Registry of knockout tie criteria by name; presets list names, events may register theirs.
KO_TIE_BREAKS: dict[str, KoTieBreak] = {
    "extra_boards": _ko_extra_boards,
    "stage_place": _ko_stage_place,
}

#: Fujian 2024 九（二）: Art. 44.2 steps (not transcribed; insert them first), then stage_place.
FUJIAN_KO_TIE_CHAIN: tuple[str, ...] = ("stage_place",)
#: Generic default: a play-off on extra boards.
DEFAULT_KO_TIE_CHAIN: tuple[str, ...] = ("extra_boards",)


def register_ko_tie_break(name: str, fn: KoTieBreak) -> None:
    """Add a knockout tie criterion (e.g. a step of Art. 44.2 once transcribed)."""
    KO_TIE_BREAKS[name] = fn


def decide_match(home: int, away: int, home_imps, away_imps, *,
                 tie_chain: Sequence[str] = FUJIAN_KO_TIE_CHAIN,
                 stage_place: Mapping[int, int] | None = None,
                 extra_imps: tuple[int, int] | None = None,
                 **ctx) -> MatchDecision:
    """Decide a knockout match on IMPs (more IMPs wins); a tie goes down ``tie_chain``.

    ``stage_place`` maps team → previous-stage place (for ``stage_place``); ``extra_imps`` are the
    play-off IMPs ``(home, away)`` (for ``extra_boards``); further keywords reach custom criteria.
    Returns an undecided :class:`MatchDecision` when the chain is exhausted (e.g. extra boards
    still to be played). Raises :class:`RuleError` for an unknown criterion name.
    """
    hi, ai = int(home_imps), int(away_imps)
    if hi != ai:
        w, l = (home, away) if hi > ai else (away, home)
        return MatchDecision(w, l, "imps", f"IMP {max(hi, ai)} : {min(hi, ai)}",
                             f"IMPs {max(hi, ai)} : {min(hi, ai)}")
    context = dict(ctx, stage_place=stage_place or {}, extra_imps=extra_imps)
    for name in tie_chain:
        fn = KO_TIE_BREAKS.get(name)
        if fn is None:
            raise RuleError(f"未知的淘汰赛同分决胜办法：{name}", f"unknown knockout tie-break: {name}")
        w, zh, en = fn(home, away, context)
        if w is not None:
            return MatchDecision(w, away if w == home else home, name, zh, en)
    return MatchDecision(None, None, None, f"IMP相同（{hi} : {ai}），需按规程决定（如加赛）",
                         f"tied on IMPs ({hi} : {ai}); to be decided per the regulation "
                         f"(e.g. extra boards)")


# ------------------------------------------------------------------------ 8-team knockout

_KO8 = (  # match id, round name (zh), half, feeder of the first slot, of the second slot
    ("QF1", "1/4决赛", "上半区", ("seed", 1), ("seed", 8)),
    ("QF2", "1/4决赛", "上半区", ("seed", 4), ("seed", 5)),
    ("QF3", "1/4决赛", "下半区", ("seed", 2), ("seed", 7)),
    ("QF4", "1/4决赛", "下半区", ("seed", 3), ("seed", 6)),
    ("SF1", "半决赛", "上半区", ("W", "QF1"), ("W", "QF2")),
    ("SF2", "半决赛", "下半区", ("W", "QF3"), ("W", "QF4")),
    ("F", "决赛", "", ("W", "SF1"), ("W", "SF2")),
    ("3RD", "3-4名附加赛", "", ("L", "SF1"), ("L", "SF2")),
)


def knockout8(stage_places: Sequence[int], results: Mapping[str, tuple] | None = None, *,
              tie_chain: Sequence[str] = FUJIAN_KO_TIE_CHAIN,
              extra_imps: Mapping[str, tuple[int, int]] | None = None) -> pd.DataFrame:
    """The 8-team knockout (QF 1v8, 4v5 | 2v7, 3v6; SF; final; 3rd place) filled as far as known.

    ``stage_places``: the 8 team numbers in stage-1 order (index 0 = 1st place). ``results``:
    match id (``QF1``…``QF4``, ``SF1``, ``SF2``, ``F``, ``3RD``) → ``(home_imps, away_imps)``,
    the home team being the better stage-1 place. ``extra_imps``: play-off IMPs per match.

    Columns: ``match, round, half, home, away`` (``Int64``, NA until the feeder is decided),
    ``home_place, away_place`` (stage-1 places), ``seat_choice_s1`` (= away team),
    ``seat_choice_s2`` (= home team), ``home_imps, away_imps, winner, loser`` (``Int64``),
    ``说明`` (how it was decided). Raises :class:`InputError` unless 8 distinct teams are given or
    when a result is given for a match whose teams are not known yet.
    """
    teams = [int(t) for t in stage_places]
    if len(teams) != 8 or len(set(teams)) != 8:
        raise InputError("淘汰赛需要8支不同的队（第一阶段第1–8名）",
                         "the knockout needs 8 distinct teams (stage-1 places 1–8)")
    place = {t: i + 1 for i, t in enumerate(teams)}
    results = dict(results or {})
    extra_imps = dict(extra_imps or {})
    unknown = set(results) - {m[0] for m in _KO8}
    if unknown:
        raise InputError(f"未知的比赛编号：{sorted(unknown)}", f"unknown match ids: {sorted(unknown)}")
    decided: dict[str, MatchDecision] = {}
    rows = []
    for mid, rnd, half, f1, f2 in _KO8:
        slot = []
        for kind, ref in (f1, f2):
            if kind == "seed":
                slot.append(teams[ref - 1])
            else:
                d = decided.get(ref)
                slot.append(None if d is None or not d.decided else
                            (d.winner if kind == "W" else d.loser))
        a, b = slot
        if a is not None and b is not None and place[b] < place[a]:
            a, b = b, a
        row = {"match": mid, "round": rnd, "half": half, "home": a, "away": b,
               "home_place": place.get(a), "away_place": place.get(b),
               "seat_choice_s1": b, "seat_choice_s2": a,
               "home_imps": None, "away_imps": None, "winner": None, "loser": None, "说明": ""}
        if mid in results:
            if a is None or b is None:
                raise InputError(f"{mid}的对阵尚未确定，不能录入成绩",
                                 f"{mid}: teams not known yet, a result cannot be entered")
            hi, ai = results[mid]
            d = decide_match(a, b, hi, ai, tie_chain=tie_chain, stage_place=place,
                             extra_imps=extra_imps.get(mid))
            decided[mid] = d
            row.update(home_imps=int(hi), away_imps=int(ai), winner=d.winner, loser=d.loser,
                       说明=f"{d.zh} / {d.en}")
        rows.append(row)
    df = pd.DataFrame(rows)
    for c in ("home", "away", "home_place", "away_place", "seat_choice_s1", "seat_choice_s2",
              "home_imps", "away_imps", "winner", "loser"):
        df[c] = pd.array([pd.NA if v is None else v for v in df[c]], dtype="Int64")
    return df


def knockout_places(ko: pd.DataFrame) -> pd.DataFrame:
    """Final places from a filled :func:`knockout8` frame.

    Columns ``team, place`` (``Int64``: 1–4 from the final and 3rd-place match, NA for the
    quarter-final losers), ``group`` ("1-4" or "QF负队" — places 5–8 are decided elsewhere, e.g. by
    the consolation standings). Raises :class:`RuleError` while a needed match is undecided.
    """
    by_id = {r["match"]: r for r in ko.to_dict("records")}

    def res(mid: str):
        r = by_id.get(mid)
        if r is None or r["winner"] is pd.NA or pd.isna(r["winner"]):
            raise RuleError(f"{mid}尚未决出胜负，无法确定名次",
                            f"{mid} is not decided yet; places cannot be given")
        return int(r["winner"]), int(r["loser"])

    f_w, f_l = res("F")
    t_w, t_l = res("3RD")
    rows = [{"team": f_w, "place": 1, "group": "1-4"}, {"team": f_l, "place": 2, "group": "1-4"},
            {"team": t_w, "place": 3, "group": "1-4"}, {"team": t_l, "place": 4, "group": "1-4"}]
    for q in ("QF1", "QF2", "QF3", "QF4"):
        rows.append({"team": res(q)[1], "place": pd.NA, "group": "QF负队"})
    df = pd.DataFrame(rows)
    df["place"] = df["place"].astype("Int64")
    return df


def final_ranking(ko_places: pd.DataFrame, consolation: pd.DataFrame) -> pd.DataFrame:
    """Overall places (Fujian 2024 五、第二阶段): 1–4 from the knockout, then every team of the
    consolation standings in their order (the quarter-final losers are in it) from 5 on.

    ``ko_places``: from :func:`knockout_places`; ``consolation``: standings with a ``team``
    column, best first (e.g. from ``team_standings``). Columns ``place, team, source``.
    Raises :class:`InputError` when a quarter-final loser is missing from the consolation
    standings or a team appears in both parts.
    """
    top = ko_places[ko_places["group"] == "1-4"].sort_values("place")
    top_teams = [int(t) for t in top["team"]]
    cons = [int(t) for t in consolation["team"]]
    both = set(top_teams) & set(cons)
    if both:
        raise InputError(f"队伍同时出现在淘汰赛前4名和附加赛排名中：{sorted(both)}",
                         f"teams both in the knockout top 4 and the consolation: {sorted(both)}")
    qf_losers = {int(t) for t in ko_places.loc[ko_places["group"] == "QF负队", "team"]}
    missing = qf_losers - set(cons)
    if missing:
        raise InputError(f"1/4决赛负队未出现在附加赛排名中：{sorted(missing)}",
                         f"quarter-final losers missing from the consolation standings: "
                         f"{sorted(missing)}")
    rows = [{"place": i + 1, "team": t, "source": "淘汰赛"} for i, t in enumerate(top_teams)]
    rows += [{"place": len(top_teams) + i + 1, "team": t, "source": "附加积分编排赛"}
             for i, t in enumerate(cons)]
    return pd.DataFrame(rows)
