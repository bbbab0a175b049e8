"""The engine side of GTP time: ``time_settings``, ``kgs-time_settings`` and ``time_left``
turned into `tengen.clock` objects that the player's time manager reads for ``genmove``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tengen.clock import Clock, TimeControl
from tengen.gtp.arguments import MAX_COUNT, MAX_SECONDS
from tengen.gtp.protocol import GtpError


def from_time_settings(args: Sequence[str]) -> TimeControl | None:
    """``time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`` (GTP v2 4.3): None means no limit.

    Stones 0 with a byo-yomi time means no limit; byo-yomi time 0 means absolute time; else
    Canadian overtime of BYO_YOMI_STONES stones in BYO_YOMI_TIME seconds.
    """
    if len(args) != 3:
        raise GtpError("time_settings takes main time, byo-yomi time and byo-yomi stones")
    main, period, stones = number(args[0]), number(args[1]), count(args[2])
    if period > 0 and stones == 0:
        return None
    if period == 0:
        return TimeControl("absolute", main)
    return TimeControl("canadian", main, period, stones=stones)


def from_kgs_time_settings(args: Sequence[str]) -> TimeControl | None:
    """``kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD COUNT |
    canadian MAIN PERIOD STONES``; None means no limit."""
    if not args:
        raise GtpError("kgs-time_settings needs a time system")
    system, numbers = args[0].lower(), [number(a) for a in args[1:]]
    if system in ("byoyomi", "canadian") and len(numbers) == 3:
        numbers[2] = count(args[3])
    wanted = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
    if system not in wanted:
        raise GtpError(f"unknown time system {args[0][:40]!r} (none, absolute, byoyomi, canadian)")
    if len(numbers) != wanted[system]:
        raise GtpError(f"kgs-time_settings {system} takes {wanted[system]} numbers")
    try:
        if system == "none":
            return None
        if system == "absolute":
            return TimeControl("absolute", numbers[0])
        if system == "byoyomi":
            return TimeControl("byoyomi", numbers[0], numbers[1], periods=int(numbers[2]))
        return TimeControl("canadian", numbers[0], numbers[1], stones=int(numbers[2]))
    except ValueError as err:
        raise GtpError(str(err)) from None


def apply_time_left(clock: Clock, seconds: float, stones: int) -> None:
    """Set `clock` from ``time_left``: `stones` 0 is main time; otherwise overtime with that
    many stones (Canadian) or periods (byo-yomi, as KGS sends) left."""
    if seconds < 0 or stones < 0:
        raise GtpError("time_left takes a time and a stone count that are not negative")
    system = clock.control.system
    clock.expired = False
    if stones == 0 or system not in ("byoyomi", "canadian"):
        clock.main = seconds
        return
    clock.main = 0.0
    if system == "byoyomi":
        clock.periods = stones
    else:
        clock.period_left, clock.stones = seconds, stones


def number(text: str) -> float:
    """A number of seconds, 0 to `MAX_SECONDS`. Raises GtpError naming the text."""
    try:
        value = float(text)
    except ValueError:
        raise GtpError(f"not a number: {text[:40]!r}") from None
    if not 0 <= value <= MAX_SECONDS:
        raise GtpError(f"not a time or count: {text[:40]!r} (0 to {MAX_SECONDS:g} seconds)")
    return value


def count(text: str) -> int:
    """A whole number of stones or periods, 0 to `MAX_COUNT` (``5.0`` is read as 5).

    Raises GtpError naming the text."""
    value = number(text)
    if value != int(value) or value > MAX_COUNT:
        raise GtpError(f"not a time or count: {text[:40]!r} (stones: 0 to {MAX_COUNT})")
    return int(value)
