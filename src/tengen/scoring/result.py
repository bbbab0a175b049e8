"""The result of a game (winner, margin, reason) and its SGF ``RE[]`` text, both ways.

=============  ===========================================  ===========
``RE[]``       `Result`                                     also read
=============  ===========================================  ===========
``B+3.5``      ``Result(BLACK, 3.5, "score")``              ``b + 3.5``
``W+R``        ``Result(WHITE, None, "resign")``            ``W+Resign``
``B+T``        ``Result(BLACK, None, "time")``              ``B+Time``
``W+F``        ``Result(WHITE, None, "forfeit")``           ``W+Forfeit``
``B+``         ``Result(BLACK, None, "unknown")``           (a win of unknown kind)
``0``          ``Result(None, None, "draw")``               ``Draw``, ``Jigo``, ``B+0``
``Void``       ``Result(None, None, "void")``               (no result)
``?``          ``Result(None, None, "unknown")``            ``""`` (empty RE)
=============  ===========================================  ===========

Reading ignores case and spaces, as real files vary in both; writing gives the FF[4] short form.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tengen.core.color import Color

_WIN_REASONS = {"resign": "R", "time": "T", "forfeit": "F"}
_WIN_WORDS = {
    "r": "resign",
    "resign": "resign",
    "t": "time",
    "time": "time",
    "f": "forfeit",
    "forfeit": "forfeit",
}
_NO_WINNER = {
    "0": "draw",
    "draw": "draw",
    "jigo": "draw",
    "void": "void",
    "?": "unknown",
    "": "unknown",
}
_WIN = re.compile(r"([bw])\+(.*)")
_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")


@dataclass(frozen=True)
class Result:
    """Who won, by how many points (only for a counted game) and why.

    `reason` is one of score, resign, time, forfeit, draw, void, unknown. Raises ValueError
    for combinations that mean nothing (a draw with a winner, a resignation with a margin, a
    counted win without a positive margin).
    """

    winner: Color | None
    margin: float | None
    reason: str

    def __post_init__(self) -> None:
        wins = ("score", "resign", "time", "forfeit")
        if self.reason not in (*wins, "draw", "void", "unknown"):
            raise ValueError(f"unknown result reason {self.reason!r}")
        if (self.reason in wins and self.winner is None) or (
            self.reason in ("draw", "void") and self.winner is not None
        ):
            raise ValueError(f"a {self.reason} result with winner {self.winner}")
        if self.reason == "score":
            if self.margin is None or not (math.isfinite(self.margin) and self.margin > 0):
                raise ValueError(f"a counted win needs a positive margin, not {self.margin}")
        elif self.margin is not None:
            raise ValueError(f"a {self.reason} result has no margin")

    @classmethod
    def from_totals(cls, black: float, white: float) -> Result:
        """The counted result of two totals: the larger wins by the difference; equal draws."""
        if black == white:
            return cls(None, None, "draw")
        winner = Color.BLACK if black > white else Color.WHITE
        return cls(winner, abs(black - white), "score")

    def to_sgf(self) -> str:
        """``B+3.5``, ``W+R``, ``W+T``, ``B+F``, ``B+``, ``0`` (draw), ``Void`` or ``?``."""
        if self.winner is None:
            return {"draw": "0", "void": "Void"}.get(self.reason, "?")
        if self.margin is not None:
            return f"{self.winner.letter}+{format_points(self.margin)}"
        return f"{self.winner.letter}+{_WIN_REASONS.get(self.reason, '')}"

    @classmethod
    def from_sgf(cls, text: str) -> Result:
        """Read an ``RE[]`` value (see the module table). Raises ValueError naming the text."""
        key = re.sub(r"\s+", "", text).lower()
        if key in _NO_WINNER:
            return cls(None, None, _NO_WINNER[key])
        match = _WIN.fullmatch(key)
        if match is None:
            raise ValueError(f"unrecognised game result {text!r}")
        winner = Color.parse(match[1])
        rest = match[2]
        if rest in _WIN_WORDS:
            return cls(winner, None, _WIN_WORDS[rest])
        if rest == "":
            return cls(winner, None, "unknown")
        if _NUMBER.fullmatch(rest) is None:
            raise ValueError(f"unrecognised game result {text!r}")
        margin = float(rest)
        return cls(None, None, "draw") if margin == 0 else cls(winner, margin, "score")

    def __str__(self) -> str:
        return self.to_sgf()


def format_points(value: float) -> str:
    """A score as players write it: ``7`` for a whole number, ``7.5`` otherwise."""
    return str(int(value)) if float(value).is_integer() else str(value)
