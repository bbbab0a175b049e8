"""Move choosers that engines call for ``genmove``; the random player is the baseline.

Each is a `tengen.seat.Player` of Go.
"""

from __future__ import annotations

import random

from tengen.ai.analysis import Progress
from tengen.clock import Clock
from tengen.core.color import Color
from tengen.core.coords import Move
from tengen.core.game import Game


class RandomPlayer:
    """Uniform among the legal moves that do not fill an own eye; passes when none is left."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def genmove(
        self,
        game: Game,
        color: Color,
        clock: Clock | None = None,
        *,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Move:
        """A random legal non-eye-filling point for `color`, or None (pass); never resigns.

        It neither searches nor takes time: `clock`, `progress` and `interval` are not used."""
        moves = game.legal_moves(color, own_eyes=False)
        return self._rng.choice(moves) if moves else None

    def close(self) -> None:
        """Nothing to free: the player holds no threads."""
