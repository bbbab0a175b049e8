"""The two clocks of a web game: kept by the server, saved with the game, told to every page.

A game made with a time control (`tengen.clock.TimeControl`) gets one `Clock` per colour,
reading wall-clock time so that a clock keeps running across requests, pages and server
restarts: the state saved in the game's metadata says when the running clock was started. The
session calls `moved` after each move (the mover's clock stops and is charged, the other
starts) and `run_for` after anything else that changes whose turn it is (undo, handicap, the
end of scoring); `flag` says whose flag has fallen meanwhile. Pages get `view`: seconds left
and the running colour, to count down between the server's messages.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from tengen.clock import Clock, ClockState, TimeControl
from tengen.core.color import Color
from tengen.sgf import Node

wall_clock = time.time  # read at each clock's creation, so that tests can set the time


_NAMES = {Color.BLACK: "black", Color.WHITE: "white"}
_LEFT = {Color.BLACK: ("BL", "OB"), Color.WHITE: ("WL", "OW")}


class GameClocks:
    """Black's and White's clocks under one control; at most one runs."""

    def __init__(
        self,
        control: TimeControl,
        states: dict[str, Any] | None = None,
        now: Callable[[], float] | None = None,
    ) -> None:
        self.control = control
        now = now or wall_clock
        self.clocks = {
            color: Clock(control, now)
            if states is None
            else Clock.restore(control, ClockState(**states[name]), now)
            for color, name in _NAMES.items()
        }

    @classmethod
    def from_meta(
        cls, meta: dict[str, Any] | None, now: Callable[[], float] | None = None
    ) -> GameClocks | None:
        """The clocks saved in a game's ``meta["clock"]``, or None for a game without."""
        if not meta:
            return None
        return cls(TimeControl.parse(meta["control"]), meta["states"], now)

    def to_meta(self) -> dict[str, Any]:
        """What `from_meta` reads back: plain JSON."""
        return {
            "control": str(self.control),
            "states": {name: asdict(self.clocks[c].state()) for c, name in _NAMES.items()},
        }

    @property
    def running(self) -> Color | None:
        """The colour whose clock runs, if any."""
        return next((c for c, clock in self.clocks.items() if clock.running), None)

    def flag(self) -> Color | None:
        """The colour whose flag has fallen: an expired clock, or a running one with no time
        left (its player has not moved in time; the clock is stopped and charged)."""
        for color, clock in self.clocks.items():
            if clock.running and clock.allowance() <= 0:
                clock.stop()
                clock.expired = True
            if clock.expired:
                return color
        return None

    def moved(self, color: Color, node: Node) -> bool:
        """`color` has just moved (to `node`): charge its clock, write its time left into the
        node (``BL``/``WL``, ``OB``/``OW`` in overtime) and start the opponent's. Returns
        False, starting nothing, when the flag fell before the move."""
        clock = self.clocks[color]
        if clock.running:
            clock.stop()
        if clock.expired:
            return False
        left, stones = _LEFT[color]
        node.set(left, round(clock.remaining(), 1))
        count = clock.overtime_count()
        if count is not None:
            node.set(stones, count)
        self.run_for(color.opponent)
        return True

    def run_for(self, color: Color | None) -> None:
        """Let `color`'s clock run (None: stop both); a clock that stops is charged."""
        for other, clock in self.clocks.items():
            if clock.running and other is not color:
                clock.stop()
        if color is not None and not self.clocks[color].running:
            self.clocks[color].start()

    def next_flag_in(self) -> float | None:
        """Seconds until the running clock's flag falls, or None when none runs."""
        color = self.running
        return None if color is None else self.clocks[color].allowance()

    def view(self) -> dict[str, Any]:
        """The clocks as a page draws them: per colour the seconds left in the current phase,
        the byo-yomi periods or Canadian stones left in overtime, and the text to show."""
        running = self.running
        return {
            "control": str(self.control),
            "system": self.control.system,
            "periods": self.control.periods,
            "period": self.control.period,
            "stones": self.control.stones,
            "running": None if running is None else _NAMES[running],
            **{
                _NAMES[color]: {
                    "remaining": round(clock.remaining(), 2),
                    "overtime": clock.overtime_count(),
                    "in_overtime": clock.in_overtime,
                    "expired": clock.expired,
                    "text": clock.format(),
                }
                for color, clock in self.clocks.items()
            },
        }
