"""The interface every analysis engine offers, whatever it runs and speaks.

A search is asked for with `Engine.analyse` (one position, reporting as it goes) or
`Engine.analyse_line` (many positions of one game, the efficient path for a whole game). Both
block; callers on an event loop run them in a worker thread and hand the updates back with
``loop.call_soon_threadsafe``. Setting the `stop` event ends a search early with what it has.
Results are `tengen.ai.analysis.Analysis` values: win rates and score leads for the player
to move, ownership +1 for Black's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from tengen.ai.analysis import Analysis
from tengen.analysis.position import Position
from tengen.process import ProgramError

# Called with the analysis so far while a search runs.
Update = Callable[[Analysis], None]


class EngineError(ProgramError):
    """An engine failed, answered nonsense, or cannot analyse at all."""


class CannotAnalyse(EngineError):
    """The program runs but offers no analysis command (GNU Go, for one)."""


class Engine(Protocol):
    """An analysis engine: one search at a time; `close` ends it (and its program)."""

    @property
    def name(self) -> str: ...

    def analyse(
        self,
        position: Position,
        visits: int,
        *,
        update: Update | None = None,
        stop: threading.Event | None = None,
    ) -> Analysis:
        """Search `position` for up to `visits` visits; `update` sees progress."""
        ...

    def analyse_line(
        self,
        position: Position,
        turns: Sequence[int],
        visits: int,
        *,
        stop: threading.Event | None = None,
    ) -> Iterator[tuple[int, Analysis]]:
        """Search ``position.prefix(turn)`` for each of `turns`, yielding (turn, analysis) as
        each finishes (in any order); stops early when `stop` is set."""
        ...

    def close(self) -> None:
        """End the engine's program or threads."""
        ...


def one_by_one(
    engine: Engine,
    position: Position,
    turns: Sequence[int],
    visits: int,
    stop: threading.Event | None,
) -> Iterator[tuple[int, Analysis]]:
    """`Engine.analyse_line` for engines that search one position at a time."""  # fmt: skip
    for turn in turns:
        if stop is not None and stop.is_set():
            return
        yield turn, engine.analyse(position.prefix(turn), visits, stop=stop)
