"""Money and place wording of the awards: equal splits to the fen, 第三名 / 并列第三名, and
amounts in financial capitals (大写金额, 壹万贰仟元整) for 领奖签收表. Importable from
:mod:`bianpai.engines.prizes`.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from bianpai.engines.rounding import TWO_PLACES, q2, to_decimal


FEN = TWO_PLACES


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
