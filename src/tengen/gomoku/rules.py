"""Gomoku rule variants as data: which fives win, whose moves are restricted, the opening.

=========  =====================================================  ============  =======
rule       a win                                                  restrictions  Gomocup
=========  =====================================================  ============  =======
freestyle  five or more in a row                                  none          0
standard   exactly five; an overline (six or more) does not win   none          1
renju      Black exactly five, White five or more                 Black: 3-3,   4
                                                                  4-4, overline
caro       exactly five, not flanked by opponent stones at both   none          8
           ends (the board edge does not block)
=========  =====================================================  ============  =======

The Gomocup column is the brain protocol's ``INFO rule`` bitmask (1 exactly five, 2 continuous
game, 4 renju, 8 caro; Piskvork's protocol page and the GomocupJudge sources). Bit 2 says the
manager continues after a five and matters to nobody judging a single game, so it is ignored.

Caro is the Vietnamese variant. Its Gomocup definition is only "a five blocked at both ends does
not win" (GomocupJudge's rule test has Black's four between two White stones and expects a
block elsewhere); the details here follow AlphaGomoku, an engine that plays Gomocup's caro
tournament: the five must be exactly five (its ``CARO5``; a variant where six or more also wins,
its ``CARO6``, is not modelled) and only an opponent stone blocks an end, never the edge.

The opening rule is an option of a game (``GomokuGame`` implements the sequences): ``swap``
(the first player places three stones, the second then picks a colour) and ``swap2`` (the same,
or the second player places two more stones and the first picks).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

MIN_SIZE = 5
MAX_SIZE = 52


class Rule(Enum):
    """Which rows of stones win, and whether Black's moves are restricted."""

    FREESTYLE = "freestyle"
    STANDARD = "standard"
    RENJU = "renju"
    CARO = "caro"


class Opening(Enum):
    """How the first stones are placed and colours chosen."""

    NONE = "none"
    SWAP = "swap"
    SWAP2 = "swap2"


_BITS = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4, Rule.CARO: 8}
_EXACT_FIVE, _CONTINUOUS, _RENJU, _CARO = 1, 2, 4, 8


def check_size(width: int, height: int) -> None:
    """Raise ValueError unless width x height is a Gomoku board (5..52 each way)."""
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        raise ValueError(
            f"board size {width}x{height} is outside {MIN_SIZE}x{MIN_SIZE}..{MAX_SIZE}x{MAX_SIZE}"
        )


@dataclass(frozen=True)
class GomokuRules:
    """The rule, the board size and the opening rule of a game.

    Raises ValueError if the size is outside 5x5..52x52.
    """

    rule: Rule = Rule.FREESTYLE
    width: int = 15
    height: int = 15
    opening: Opening = Opening.NONE

    def __post_init__(self) -> None:
        check_size(self.width, self.height)

    @classmethod
    def from_gomocup(cls, bitmask: int, width: int = 15, height: int = 15) -> GomokuRules:
        """Rules from Gomocup's ``INFO rule`` value: renju (4) wins over caro (8) over exactly
        five (1), as GomocupJudge picks; 0 is freestyle and the continuous-game bit 2 is ignored.

        Raises ValueError for a negative value or a bit above 8.
        """
        if bitmask < 0 or bitmask & ~(_EXACT_FIVE | _CONTINUOUS | _RENJU | _CARO):
            raise ValueError(f"unknown Gomocup rule {bitmask} (bits: 1, 2, 4, 8)")
        if bitmask & _RENJU:
            rule = Rule.RENJU
        elif bitmask & _CARO:
            rule = Rule.CARO
        elif bitmask & _EXACT_FIVE:
            rule = Rule.STANDARD
        else:
            rule = Rule.FREESTYLE
        return cls(rule, width, height)

    def to_gomocup(self) -> int:
        """The ``INFO rule`` value a Gomocup manager sends for this rule (0, 1, 4 or 8)."""
        return _BITS[self.rule]

    @classmethod
    def parse(cls, text: str, width: int = 15, height: int = 15) -> GomokuRules:
        """``freestyle``, ``standard``, ``renju`` or ``caro`` in any case.

        Raises ValueError naming an unknown rule.
        """
        name = text.strip().lower()
        for rule in Rule:
            if rule.value == name:
                return cls(rule, width, height)
        known = ", ".join(r.value for r in Rule)
        raise ValueError(f"unknown Gomoku rule {text!r} (known: {known})")
