"""How one move's thinking time is shared between the solver and the search.

The player gets one limit per move (`GomokuPlayer.time_limit`, which the Gomocup brain sets
from ``timeout_turn`` and ``time_left``, see `tengen.gomoku.gomocup.Limits`). A forced win
found early saves the rest, so the threat searches go first with a share each (the player's
own, then the opponent's against each candidate move); the alpha-beta
search gets what is left, and iterative deepening starts no new depth past its soft limit
(a deeper iteration costs several times the last one, and would be cut off unfinished).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

VCF_SHARE = 0.15
VCT_SHARE = 0.2
DEFENCE_SHARE = 0.25  # looking for the opponent's threats, before and after each root move
SOFT_SHARE = 0.45  # of the search's time: no new depth starts after this


@dataclass(frozen=True)
class Budget:
    """Deadlines (``time.monotonic`` seconds) of one move's phases."""

    start: float
    limit: float

    @classmethod
    def of(cls, seconds: float) -> Budget:
        """A budget of `seconds` (at least a few milliseconds) starting now."""
        return cls(time.monotonic(), max(seconds, 0.005))

    def vcf_seconds(self) -> float:
        """The VCF search's time."""
        return self.limit * VCF_SHARE

    def vct_seconds(self) -> float:
        """The VCT search's time."""
        return self.limit * VCT_SHARE

    def defence_seconds(self) -> float:
        """The time to look for the opponent's threats and the moves that stop them."""
        return self.limit * DEFENCE_SHARE

    def hard(self) -> float:
        """When the search must stop (an unfinished iteration counts only where it found a
        better move: `ai.gomoku.search`)."""
        return self.start + self.limit

    def soft(self) -> float:
        """When the search starts no new iteration."""
        now = time.monotonic()
        return now + max(self.hard() - now, 0.0) * SOFT_SHARE
