"""Numbers in GTP arguments, read within the bounds the engine can use.

Every numeric argument of every command goes through these, so a value the engine cannot use
(``komi 1e20``, an interval of a thousand digits, NaN) is refused with ``?`` and a reason before
it reaches the game, and never fails later inside ``genmove`` or ``final_score``.
"""

from __future__ import annotations

import math

from tengen.gtp.protocol import GtpError

MAX_KOMI = 625.0  # the points of the largest GTP board (25x25): any real komi is within it
MAX_SECONDS = 1e9  # about 31 years: more than any clock, far from float and int limits
MAX_COUNT = 1_000_000  # stones, periods, moves or centiseconds a command may name
_MAX_DIGITS = 18  # leading zeros aside; int() is quadratic in the digits past 4300


def whole(text: str, what: str, low: int = 0, high: int = MAX_COUNT, refusal: str = "") -> int:
    """A GTP int (decimal digits only) in ``[low, high]``.

    A text that is not a whole number is the spec's ``syntax error``; one out of range is
    refused with `refusal` where the spec names the message, else with one naming `what`.
    """
    if not text.isascii() or not text.isdigit():
        raise GtpError("syntax error")
    digits = text.lstrip("0") or "0"
    value = int(digits) if len(digits) <= _MAX_DIGITS else None
    if value is None or not low <= value <= high:
        shown = digits if len(digits) <= 20 else digits[:20] + "..."
        raise GtpError(refusal or f"{what} must be from {low} to {high}, not {shown}")
    return value


def real(text: str, what: str, low: float, high: float) -> float:
    """A finite decimal number in ``[low, high]``; GtpError naming `what` otherwise (the
    spec's ``syntax error`` for a text that is not a number)."""
    try:
        value = float(text)
    except ValueError:
        raise GtpError("syntax error") from None
    check(value, what, low, high)
    return value


def check(value: float, what: str, low: float, high: float) -> None:
    """Refuse a value that is not finite or lies outside ``[low, high]``."""
    if not math.isfinite(value) or not low <= value <= high:
        raise GtpError(f"{what} must be a finite number from {low:g} to {high:g}, not {value!r}")


def komi(text: str) -> float:
    """A komi: finite, at most the points of the largest board either way."""
    return real(text, "komi", -MAX_KOMI, MAX_KOMI)
