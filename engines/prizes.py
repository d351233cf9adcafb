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
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from enum import Enum
from typing import Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bianpai.engines.errors import InputError
from bianpai.engines.rounding import TWO_PLACES, q2, to_decimal

__all__ = [
    "AwardRules", "GroupAwards", "PlacesStep", "PlacesByEntries", "PrizeTable", "PlaceAward",
    "MeritSplit", "Qualification", "TaxRule", "TieSplit", "TiePolicy", "Allocation",
    "allocate", "split_equally", "yuan_capital", "place_label", "ALLOCATION_COLUMNS",
]

FEN = TWO_PLACES


class _Sourced(BaseModel):
    """Base of every rule model: ``clause`` (where the 规程 says it) and ``note`` (reading taken)."""

    model_config = ConfigDict(extra="forbid")

    clause: str | None = None
    note: str | None = None


# --------------------------------------------------------------------------------------------
# rule models
# --------------------------------------------------------------------------------------------

class PlacesStep(_Sourced):
    """One rung of a places ladder: ``min_entries`` or more entries → ``places`` awarded."""

    min_entries: int = Field(ge=0)
    places: int = Field(ge=0)


class PlacesByEntries(_Sourced):
    """Places awarded as a function of the number of entries (persons, pairs or teams).

    ``steps`` are read from the highest ``min_entries`` down; the first one reached applies.
    With fewer than ``cancel_below`` entries the event is cancelled (取消该项目).
    """

    steps: list[PlacesStep]
    cancel_below: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _check(self) -> PlacesByEntries:
        mins = [s.min_entries for s in self.steps]
        if len(set(mins)) != len(mins):
            raise ValueError("places ladder: duplicate min_entries")
        return self

    def is_cancelled(self, entries: int) -> bool:
        return self.cancel_below is not None and entries < self.cancel_below

    def places_for(self, entries: int) -> int:
        """Places awarded with ``entries`` entries (0 when cancelled or below every step)."""
        if self.is_cancelled(entries):
            return 0
        for step in sorted(self.steps, key=lambda s: s.min_entries, reverse=True):
            if entries >= step.min_entries:
                return step.places
        return 0

    def step_for(self, entries: int) -> PlacesStep | None:
        if self.is_cancelled(entries):
            return None
        for step in sorted(self.steps, key=lambda s: s.min_entries, reverse=True):
            if entries >= step.min_entries:
                return step
        return None


_RANGE_KEY = re.compile(r"^\s*(\d+)\s*(?:[-–—~至]\s*(\d+))?\s*$")


class PrizeTable(_Sourced):
    """Prize money in yuan by place (per entrant: a person, a pair or a team).

    ``amounts`` keys are places (``1``) or place ranges (``"4-8"`` gives each of places 4…8 the
    same amount). ``announced_later``: the 规程 says the amounts are announced later
    (具体奖金数额另行通知); places without an amount then get no money figure (``None``).
    """

    amounts: dict[int, Decimal] = Field(default_factory=dict)
    announced_later: bool = False

    @field_validator("amounts", mode="before")
    @classmethod
    def _expand_ranges(cls, value):
        if value is None:
            return {}
        out: dict[int, object] = {}
        for key, amount in dict(value).items():
            m = _RANGE_KEY.match(str(key))
            if not m:
                raise ValueError(f"prize table: bad place key {key!r} (use 3 or '4-8')")
            lo = int(m.group(1))
            hi = int(m.group(2) or lo)
            if lo < 1 or hi < lo:
                raise ValueError(f"prize table: bad place range {key!r}")
            for p in range(lo, hi + 1):
                if p in out:
                    raise ValueError(f"prize table: place {p} given twice")
                out[p] = amount
        return out

    @field_validator("amounts", mode="after")
    @classmethod
    def _money(cls, value: dict[int, Decimal]) -> dict[int, Decimal]:
        for p, a in value.items():
            if a < 0:
                raise ValueError(f"prize table: negative amount for place {p}")
        return {p: q2(a) for p, a in sorted(value.items())}

    def amount(self, place: int) -> Decimal | None:
        return self.amounts.get(place)

    @property
    def last_place(self) -> int:
        return max(self.amounts, default=0)


class PlaceAward(_Sourced):
    """Non-money awards for places ``from_place … to_place`` (inclusive)."""

    from_place: int = Field(ge=1)
    to_place: int = Field(ge=1)
    trophy: bool = False        # 奖杯
    medal: bool = False         # 奖牌
    certificate: bool = False   # 证书 / 荣誉证书
    title: str | None = None    # overrides the award text, e.g. "冠军"

    @model_validator(mode="after")
    def _range(self) -> PlaceAward:
        if self.to_place < self.from_place:
            raise ValueError("place award: to_place < from_place")
        return self

    def covers(self, place: int) -> bool:
        return self.from_place <= place <= self.to_place


class MeritSplit(_Sourced):
    """优胜奖 / 优秀奖 by final place: places 1 … floor(winner_percent % × entries) get
    ``winner_label``, every other ranked entrant ``merit_label`` (fujian 2024, 象棋/围棋 五/六).

    A tie across the cut-off: the tied entrants share the better award when their shared place
    is within the cut-off (reading taken; the 规程 is silent).
    """

    winner_percent: int = Field(default=60, ge=0, le=100)
    winner_label: str = "优胜奖"
    merit_label: str = "优秀奖"

    def cutoff(self, entries: int) -> int:
        return (entries * self.winner_percent) // 100


class Qualification(_Sourced):
    """Places that qualify for a later event, with replacements in order.

    ``qualify_places`` qualify (shenzhen 2023 十二（二）: the champion); when a qualifier cannot go
    (``declined`` in the ranking) the entrants in ``replacement_places`` replace them in that
    order (2nd, then 3rd). ``discretionary``: the 规程 only says the places are candidates
    (otog 2024 九（二）3 "根据具体情况选派"), nobody qualifies automatically.
    """

    target: str
    qualify_places: list[int] = Field(default_factory=lambda: [1])
    replacement_places: list[int] = Field(default_factory=list)
    discretionary: bool = False


class TaxRule(_Sourced):
    """Tax withheld from prize money (代扣代缴个人所得税).

    ``rate``: fraction (0.20 for 20 %). ``exempt_up_to``: when set, a prize of at most this many
    yuan is not taxed and a larger one is taxed on its whole amount (none of the five 规程 sets a
    threshold). Tax = ROUND_HALF_UP(gross × rate, 0.01); net = gross − tax.
    """

    rate: Decimal = Field(ge=0, le=1)
    exempt_up_to: Decimal | None = Field(default=None, ge=0)

    def tax(self, gross: Decimal) -> Decimal:
        if self.exempt_up_to is not None and gross <= self.exempt_up_to:
            return Decimal("0.00")
        return q2(gross * self.rate)


class TiePolicy(str, Enum):
    equal = "equal"
    none = "none"
    hort = "hort"


class TieSplit(_Sourced):
    """How entrants left tied over prize places share the money.

    k entrants tied at place p occupy the seats p … p+k−1 (row order of the ranking inside the
    tie is its seat order); seats beyond the awarded places carry no money.

    - ``equal`` (default): the prizes of the k seats are pooled and split equally.
    - ``none``: no split; each tied entrant gets the full prize of the shared place p (the best
      seat), so the total paid exceeds the table; the excess is logged.
    - ``hort`` (Hort system, after V. Hort): each tied entrant keeps 50 % of the prize of its own
      seat; the other 50 % of all k seats is pooled and split equally among the k.

    ``rounding``: ``down`` cuts each equal share to the fen so the pool is never exceeded, and the
    remainder (less than k fen) is logged; ``half_up`` rounds each share half-up (the total may
    then differ from the pool by a few fen, also logged). ``whole_yuan``: shares are rounded to
    whole yuan instead of the fen (a practice some organizers follow), same ``rounding`` mode.
    """

    policy: TiePolicy = TiePolicy.equal
    rounding: Literal["down", "half_up"] = "down"
    whole_yuan: bool = False


class GroupAwards(_Sourced):
    """Awards of one group (组别) or class of groups.

    ``name``: shown in the log. ``match``: substrings of the ranking's ``group`` value that select
    this block (empty: every group not matched by an earlier block). Places awarded:
    ``places_by_entries`` when given, else ``places``, else the extent of ``prize_table`` and
    ``place_awards``.
    """

    name: str
    match: list[str] = Field(default_factory=list)
    places_by_entries: PlacesByEntries | None = None
    places: int | None = Field(default=None, ge=0)
    prize_table: PrizeTable | None = None
    place_awards: list[PlaceAward] = Field(default_factory=list)
    merit_split: MeritSplit | None = None
    qualification: Qualification | None = None

    def matches(self, group: str) -> bool:
        return not self.match or any(m in group for m in self.match)

    def places_for(self, entries: int) -> int:
        if self.places_by_entries is not None:
            return self.places_by_entries.places_for(entries)
        if self.places is not None:
            return self.places
        ext = [self.prize_table.last_place] if self.prize_table else []
        ext += [a.to_place for a in self.place_awards]
        return max(ext, default=0)

    def is_cancelled(self, entries: int) -> bool:
        return self.places_by_entries is not None and self.places_by_entries.is_cancelled(entries)


class AwardRules(_Sourced):
    """The ``awards`` block of a regulation.

    ``groups``: one :class:`GroupAwards` per class of groups, first match wins.
    ``tax``: withheld tax, or ``None`` (no tax line in the 规程).
    ``tie_split``: see :class:`TieSplit`.
    ``one_prize_per_person``: one money prize per person (key ``person_id`` of the ranking) over
    all groups of one allocation; the higher prize is kept and the other place vacated.
    ``reaward_vacated``: a place left by an ineligible entrant passes to the next ones.
    """

    groups: list[GroupAwards]
    tax: TaxRule | None = None
    tie_split: TieSplit = Field(default_factory=TieSplit)
    one_prize_per_person: bool = True
    reaward_vacated: bool = False

    def group_for(self, group: str) -> GroupAwards | None:
        for g in self.groups:
            if g.matches(group):
                return g
        return None


# --------------------------------------------------------------------------------------------
# money helpers
# --------------------------------------------------------------------------------------------

def split_equally(pool: Decimal, k: int, rounding: str = "down",
                  whole_yuan: bool = False) -> tuple[Decimal, Decimal]:
    """``(share, remainder)``: ``pool`` yuan split among ``k``, each share rounded to the fen
    (or to whole yuan), ``down`` or ``half_up``; the share keeps 2 decimal places.

    ``remainder = pool − k × share`` (≥ 0 with ``down``; may be negative with ``half_up``).
    Raises ``ValueError`` when ``k < 1``.
    """
    if k < 1:
        raise ValueError("split among fewer than one entrant")
    pool = to_decimal(pool)
    mode = ROUND_DOWN if rounding == "down" else ROUND_HALF_UP
    share = (pool / k).quantize(Decimal(1) if whole_yuan else FEN, rounding=mode).quantize(FEN)
    return share, pool - share * k


_CN_DIGITS = "零一二三四五六七八九"


def _cn_small(n: int) -> str:
    """Ordinary (not financial) Chinese numeral for 1…999: 1 → 一, 12 → 十二, 105 → 一百零五."""
    if not 0 < n < 1000:
        return str(n)
    if n < 10:
        return _CN_DIGITS[n]
    if n < 20:
        return "十" + (_CN_DIGITS[n % 10] if n % 10 else "")
    if n < 100:
        return _CN_DIGITS[n // 10] + "十" + (_CN_DIGITS[n % 10] if n % 10 else "")
    rest = n % 100
    head = _CN_DIGITS[n // 100] + "百"
    if rest == 0:
        return head
    if rest < 10:
        return head + "零" + _CN_DIGITS[rest]
    return head + _CN_DIGITS[rest // 10] + "十" + (_CN_DIGITS[rest % 10] if rest % 10 else "")


def place_label(place: int, tied: bool = False) -> str:
    """``第三名`` or ``并列第三名``."""
    return ("并列" if tied else "") + f"第{_cn_small(int(place))}名"


_CAP_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_CAP_SMALL_UNITS = ["", "拾", "佰", "仟"]
_CAP_SECTION_UNITS = ["", "万", "亿", "万亿"]


def _capital_integer(n: int) -> str:
    """Financial capitals of a whole number > 0 (壹拾 always written with its 壹)."""
    sections: list[int] = []
    while n:
        sections.append(n % 10000)
        n //= 10000
    out: list[str] = []
    pending_zero = False
    for idx in range(len(sections) - 1, -1, -1):
        sec = sections[idx]
        if sec == 0:
            if out:
                pending_zero = True
            continue
        if out and (pending_zero or sec < 1000):
            out.append("零")
        pending_zero = False
        digits = [sec // 1000, sec // 100 % 10, sec // 10 % 10, sec % 10]
        started = False
        inner_zero = False
        for pos, d in enumerate(digits):
            unit = _CAP_SMALL_UNITS[3 - pos]
            if d == 0:
                if started:
                    inner_zero = True
                continue
            if inner_zero:
                out.append("零")
                inner_zero = False
            out.append(_CAP_DIGITS[d] + unit)
            started = True
        out.append(_CAP_SECTION_UNITS[idx])
    return "".join(out)


def yuan_capital(amount, *, zheng: str = "整", jiao_zheng: bool = False) -> str:
    """An amount of yuan in Chinese financial capitals (大写金额), as 票据 are written.

    Rules (中国人民银行《正确填写票据和结算凭证的基本规定》): an amount ending at 元 is followed by
    ``zheng`` (整, or 正); after 角 整 may be omitted (``jiao_zheng`` adds it); nothing follows 分.
    A zero inside the number is written 零, a run of zeros once; when the 元 digit is 0 and the
    角 digit is not, and when 角 is 0 and 分 is not, 零 is written before the 角/分 figure.
    拾 always carries its 壹 (10 → 壹拾元整). Amounts under one yuan start at 角/分 (0.05 → 伍分);
    0 → 零元整. ``amount`` is rounded half-up to the fen first.

    Examples: 1600 → 壹仟陆佰元整; 1234.56 → 壹仟贰佰叁拾肆元伍角陆分; 1005 → 壹仟零伍元整;
    100000.10 → 壹拾万元零壹角; 100010 → 壹拾万零壹拾元整.

    Raises ``ValueError`` for a negative amount or one of 10^16 yuan or more.

    Why not a library: cn2an 0.5.24 (``an2cn(x, "rmb")``) was run on the 41 amounts of
    ``tests/test_prizes.py``; it differs on 4: it drops the 零 after a 0 元 digit (100000.10 →
    壹拾万元壹角, 1680.32 → …捌拾元叁角贰分; the PBOC rule allows both, receipts here use 零) and it
    truncates 1234.565 to 伍角陆分 where money is rounded half-up (伍角柒分, like Excel ROUND).
    """
    value = q2(amount)
    if value < 0:
        raise ValueError(f"negative amount: {value}")
    fen_total = int(value * 100)
    if fen_total >= 10 ** 18:
        raise ValueError(f"amount too large: {value}")
    yuan, cents = divmod(fen_total, 100)
    jiao, fen = divmod(cents, 10)
    if yuan == 0 and cents == 0:
        return "零元" + zheng
    out = ""
    if yuan:
        out = _capital_integer(yuan) + "元"
    if cents == 0:
        return out + zheng
    if jiao:
        if yuan and yuan % 10 == 0:
            out += "零"
        out += _CAP_DIGITS[jiao] + "角"
    elif yuan:
        out += "零"
    if fen:
        out += _CAP_DIGITS[fen] + "分"
    elif jiao_zheng:
        out += zheng
    return out


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
        if n_places == 0 and block.merit_split:
            msg = (f"组别「{label}」参赛 {n_entries}，不设名次奖，按比例评优胜奖/优秀奖 / group "
                   f"{label!r}: {n_entries} entries, no place prizes, merit split only")
        else:
            msg = (f"组别「{label}」参赛 {n_entries}，录取前 {n_places} 名 / group {label!r}: "
                   f"{n_entries} entries, {n_places} places")
        if step is not None and step.note:
            msg += f"（注：{step.note}）"
        log.append(msg)

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
        merit_cut = block.merit_split.cutoff(n_entries) if block.merit_split else None
        if block.merit_split:
            log.append(f"组别「{label}」{block.merit_split.winner_label}：前 {merit_cut} 名"
                       f"（{n_entries}×{block.merit_split.winner_percent}% 向下取整）/ "
                       f"winner award: places 1–{merit_cut}")

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
            if table is not None and in_places:
                amounts = [seat_amount(s) for s in seats]
                if any(a is None for a in amounts[:1]):
                    shares = [None] * k
                else:
                    amounts = [a if a is not None else Decimal("0.00") for a in amounts]
                    shares = _tie_shares(amounts, ts, log, label, place, tied)
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
                note = ""
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
