"""Decimal helpers: half-up rounding to 2 places, as Excel ``ROUND`` does.

Python's ``round()`` on floats is wrong for carried points and money (70.10 × 25 % must give 17.53,
not 17.52), so every shown, carried or compared value passes through :func:`q2`.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

TWO_PLACES = Decimal("0.01")


def to_decimal(value) -> Decimal:
    """Exact ``Decimal`` of ``value`` (int, str, Decimal or float via its shortest repr).

    Raises ``ValueError`` for None, NaN, booleans or text that is not a number.
    """
    if isinstance(value, Decimal):
        if value.is_nan():
            raise ValueError("NaN is not a number")
        return value
    if value is None or isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, float):  # includes numpy.float64
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"not a finite number: {value!r}")
        return Decimal(repr(float(value)))
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
        return to_decimal(value.item())
    try:
        d = Decimal(str(value).strip())
    except InvalidOperation as exc:
        raise ValueError(f"not a number: {value!r}") from exc
    if d.is_nan():
        raise ValueError("NaN is not a number")
    return d


def q2(value) -> Decimal:
    """``value`` rounded half-up to 2 decimal places (Excel ``ROUND(x, 2)``)."""
    return to_decimal(value).quantize(TWO_PLACES, rounding=ROUND_HALF_UP)


def quantize(value, places: int = 2) -> Decimal:
    """``value`` rounded half-up to ``places`` decimal places."""
    return to_decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
