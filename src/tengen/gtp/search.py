"""The search behind the analysis commands, as the GTP engine sees it: Protocols, not imports.

`tengen.ai.mcts.MctsPlayer` and its `tengen.ai.analysis` results meet these Protocols without
gtp importing ai (the layers in ARCHITECTURE.md); the command line injects the search
(``GtpEngine(..., analyser=player)``). Win rates are for the player to move; ownership is
row by row from the top left, +1 for Black's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from tengen.core.color import Color
from tengen.core.coords import Move
from tengen.core.game import Game


class MoveInfo(Protocol):
    """What a report shows of one candidate move at the root."""

    @property
    def move(self) -> Move: ...  # None is a pass
    @property
    def visits(self) -> int: ...
    @property
    def winrate(self) -> float: ...  # for the player to move
    @property
    def prior(self) -> float: ...  # the policy's share before search, in [0, 1]
    @property
    def pv(self) -> Sequence[Move]: ...  # the principal variation, starting with `move`
    @property
    def score_lead(self) -> float: ...  # for the player to move, after `move`


class Analysis(Protocol):
    """What a report shows of a search's view of one position."""

    @property
    def to_play(self) -> Color: ...
    @property
    def visits(self) -> int: ...
    @property
    def winrate(self) -> float: ...
    @property
    def score_lead(self) -> float: ...
    @property
    def moves(self) -> Sequence[MoveInfo]: ...  # best first
    @property
    def ownership(self) -> Sequence[float]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...


# Called with the analysis so far; returning False stops the search early.
Progress = Callable[[Analysis], bool]


class Analyser(Protocol):
    """A search that reports its view of a position while it runs (``lz-analyze``)."""

    def analyse(
        self,
        game: Game,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Analysis:
        """Search `game`'s position for the side to move within the budget, calling
        `progress` about every `interval` seconds and once at the end; stop when it returns
        False."""
        ...
