"""The built-in MCTS as an analysis engine: the default, which needs nothing installed."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

from tengen.ai.analysis import Analysis
from tengen.ai.mcts import MctsPlayer
from tengen.analysis.engine import Update, one_by_one
from tengen.analysis.position import Position

TICK = 0.2  # seconds between progress calls: how soon `stop` takes effect


class BuiltinEngine:
    """`tengen.ai.mcts.MctsPlayer` behind `Engine`; `threads` defaults to one per core."""

    name = "tengen"

    def __init__(self, *, threads: int | None = None, seed: int = 0) -> None:
        self._player = MctsPlayer(threads=threads, seed=seed)

    def analyse(
        self,
        position: Position,
        visits: int,
        *,
        update: Update | None = None,
        stop: threading.Event | None = None,
    ) -> Analysis:
        """Search `position` with `visits` playouts."""

        def progress(analysis: Analysis) -> bool:
            if update is not None:
                update(analysis)
            return stop is None or not stop.is_set()

        return self._player.analyse(
            position.game(), playouts=visits, progress=progress, interval=TICK
        )

    def analyse_line(
        self,
        position: Position,
        turns: Sequence[int],
        visits: int,
        *,
        stop: threading.Event | None = None,
    ) -> Iterator[tuple[int, Analysis]]:
        """Each turn in order (the tree of one position is reused for the next)."""
        return one_by_one(self, position, turns, visits, stop)

    def close(self) -> None:
        """Stop the search threads."""
        self._player.close()
