"""What a search says about a position: the shared result of `genmove` and of analysis.

The search (`tengen.ai.mcts`) fills it; the web app, ``lz-analyze`` in `tengen gtp` and the
match runner read it. Win rates are for the player to move, in [0, 1]; ownership is per
point in row-major order (row 0 at the top, as `tengen.core.coords.Point`), +1 for Black's
and -1 for White's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tengen.core.color import Color
from tengen.core.coords import Move
from tengen.core.game import Game


@dataclass(frozen=True)
class MoveInfo:
    """One candidate move at the root: how much it was searched and how it did."""

    move: Move  # None is a pass
    visits: int
    winrate: float  # for the player to move
    prior: float  # the policy's share before search, in [0, 1]
    pv: tuple[Move, ...]  # the principal variation, starting with `move`
    score_lead: float = 0.0  # expected final score for the player to move after `move`


@dataclass(frozen=True)
class Analysis:
    """The search's view of one position."""

    to_play: Color
    visits: int  # playouts through the root
    winrate: float  # for `to_play`
    score_lead: float  # expected final score for `to_play` (area, komi included)
    moves: tuple[MoveInfo, ...]  # best first (most visits)
    ownership: tuple[float, ...]  # width * height values in [-1, 1]
    width: int
    height: int


# Called with the analysis so far; returning False stops the search early.
Progress = Callable[[Analysis], bool]


class Analyser(Protocol):
    """A search that can be asked for its view of a position."""

    def analyse(
        self,
        game: Game,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Analysis:
        """Search the position of `game` for the side to move within the budget.

        `progress` is called about every `interval` seconds and once at the end; when it
        returns False the search stops and the analysis so far is returned.
        """
        ...
