"""Roster value helpers of the eligibility check: dates typed every way organizers type them,
gender words, age in completed years (周岁) or by calendar year, and the 18-digit Chinese ID
number (GB 11643: ISO 7064 MOD 11-2 check digit, the birth date inside). Importable from
:mod:`bianpai.engines.eligibility`.

The ID-number check digit and birth-date reading are a few lines of the standard's arithmetic;
we keep our own rather than add a dependency for them (the tests pin the standard's examples).
"""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd

from bianpai.engines.eligibility_rules import STAFF_ROLES

_EXCEL_EPOCH = dt.date(1899, 12, 30)
_DATE_RE = re.compile(r"^\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*$")


def _blank(v) -> bool:
    if v is None:
        return True
    try:
        if pd.isna(v):
            return True
    except (TypeError, ValueError):
        pass
    return isinstance(v, str) and not v.strip()


def _to_date(v) -> dt.date | None:
    """A date from a date/datetime/Timestamp, an Excel serial number, or text 2003-10-01,
    2003/10/01, 2003.10.01, 2003年10月1日, 20031001. ``None`` for blank; ``ValueError`` if bad."""
    if _blank(v):
        return None
    if isinstance(v, pd.Timestamp):
        return v.date()
    if isinstance(v, dt.datetime):
        return v.date()
    if isinstance(v, dt.date):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if 1 <= v < 2958466 and float(v).is_integer():
            return _EXCEL_EPOCH + dt.timedelta(days=int(v))
        raise ValueError(v)
    s = str(v).strip()
    m = _DATE_RE.match(s)
    if m:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if re.fullmatch(r"\d{8}", s):
        return dt.date(int(s[:4]), int(s[4:6]), int(s[6:]))
    raise ValueError(v)


def _gender(v) -> str | None:
    if _blank(v):
        return None
    s = str(v).strip().lower()
    if s in ("男", "m", "male", "男性"):
        return "M"
    if s in ("女", "f", "female", "女性"):
        return "F"
    return "?"


def age_on(birth: dt.date, ref: dt.date, basis: str = "completed_years") -> int:
    """Age at ``ref``: completed years (周岁; one more on the birthday itself, 29 February
    birthdays on 1 March in common years) or ``ref.year − birth.year`` for ``calendar_year``."""
    if basis == "calendar_year":
        return ref.year - birth.year
    return ref.year - birth.year - ((ref.month, ref.day) < (birth.month, birth.day))


_ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
_ID_CHECK = "10X98765432"


def _id_parts(s: str) -> tuple[bool, dt.date | None, str] | None:
    """(checksum ok, birth date, gender) of an 18-digit ID number, or None if not that form.

    GB 11643-1999: ISO 7064 MOD 11-2 check digit, birth date at digits 7–14, gender by the
    parity of digit 17. Why not a library: id-validator 1.0.20 (the PyPI package for this, last
    released 2021) also requires the first six digits to be in its frozen table of area codes, so
    it refuses a correct number from an area code created or renamed since (tried:
    999999199001011238 and new codes → invalid); the area code is not an eligibility fact here.
    """
    s = s.strip().upper()
    if not re.fullmatch(r"\d{17}[\dX]", s):
        return None
    ok = _ID_CHECK[sum(int(c) * w for c, w in zip(s[:17], _ID_WEIGHTS)) % 11] == s[17]
    try:
        birth = dt.date(int(s[6:10]), int(s[10:12]), int(s[12:14]))
    except ValueError:
        birth = None
    return ok, birth, ("M" if int(s[16]) % 2 else "F")


def _is_player(role) -> bool:
    if _blank(role):
        return True
    r = str(role).strip()
    if "队员" in r or "运动员" in r:
        return True
    return r not in STAFF_ROLES
