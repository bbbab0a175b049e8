"""Playing levels of the built-in Go player, from 1 (beginner) to 10 (strongest).

A level is a search budget (simulations, or seconds per move) and, for the low levels, a
temperature: the move is drawn among the searched moves with odds visits**(1/temperature)
instead of always taking the most visited, so a beginner's game has mistakes in it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One level: the budget per move, the weakening and when to resign."""

    playouts: int | None  # simulations per move (None: bounded by seconds only)
    seconds: float | None  # seconds per move (None: bounded by playouts only)
    temperature: float = 0.0  # 0: the most visited move
    resign: float = 0.08  # resign when the win rate falls below this


LEVELS: dict[int, Level] = {
    1: Level(50, None, temperature=1.0, resign=0.02),
    2: Level(150, None, temperature=0.7, resign=0.03),
    3: Level(400, None, temperature=0.5, resign=0.04),
    4: Level(1_000, None, temperature=0.3),
    5: Level(3_000, None, temperature=0.1),
    6: Level(8_000, None),
    7: Level(20_000, None),
    8: Level(None, 2.0),
    9: Level(None, 5.0),
    10: Level(None, 10.0),
}
MIN_LEVEL = min(LEVELS)
MAX_LEVEL = max(LEVELS)
DEFAULT_LEVEL = 7


def level(number: int) -> Level:
    """The level numbered `number`. Raises ValueError naming the valid range."""
    if number not in LEVELS:
        raise ValueError(f"level must be {MIN_LEVEL} to {MAX_LEVEL}, not {number}")
    return LEVELS[number]
