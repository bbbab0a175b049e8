"""A run's progress on a terminal: one tqdm line redrawn in place, or plain lines elsewhere.

On a terminal the line reads ``[####------] 7/20  a 4-2-1  61% Elo +77  ETA 1:05``: games done of
all, the first player's wins, losses and draws against the field, its score and Elo difference,
and the time left at the pace of the games played in this session. Into a file or a pipe each
finished game gets a line of its own instead (``[7/20] a vs b: B+3.5 (two passes) | ...``), so
that a log keeps every result. The terminal line is tqdm's (the progress display tengen uses,
as `tengen sgf check` does); the ETA is this module's, timed on this session's games only.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import NoReturn, TextIO

from tqdm import tqdm

from tengen.match.stats import Tally, elo_estimate

BAR = 10  # characters of the bar
WIDE, TALL = 1000, 24  # the terminal's shape where it does not say it


class RunProgress:
    """Reports a run of `total` games on `stream`; `tty` (default: ``stream.isatty()``) picks
    the redrawn line; `now` is the clock the ETA is measured with."""

    def __init__(
        self,
        total: int,
        stream: TextIO,
        *,
        tty: bool | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self._now = now
        self._started = now()
        self._first_done: int | None = None  # games already done when this session began
        self._bar: tqdm[NoReturn] | None = None  # the terminal line, once a game has finished

    def start(self, done: int) -> None:
        """The run begins with `done` games already in the results file."""
        self._first_done = done
        self._started = self._now()
        if done:
            self.message(f"resuming: {done} of {self.total} games already played")

    def game(self, done: int, player: str, tally: Tally, detail: str) -> None:
        """A game finished: `done` games in all, `tally` the first player's against the field,
        `detail` the game's own line for plain output."""
        if not self.tty:
            self._write(f"[{done}/{self.total}] {detail} | ETA {self.eta(done)}\n")
            return
        if self._bar is None:
            columns, rows = _shape(self.stream)
            self._bar = tqdm(
                total=self.total,
                initial=done,
                desc=self.status(done, player, tally),
                file=self.stream,
                ncols=columns,
                nrows=rows,
                mininterval=0,
                ascii="-#",
                bar_format=f"[{{bar:{BAR}}}] {{n_fmt}}/{{total_fmt}}  {{desc}}",
            )
            return
        self._bar.n = done
        self._bar.set_description_str(self.status(done, player, tally))  # and redraw

    def status(self, done: int, player: str, tally: Tally) -> str:
        """What follows the bar: the first player's record, score, Elo and the ETA."""
        score = f"{tally.score:.0%} Elo {elo_estimate(tally)}" if tally.games else "-"
        record = f"{tally.wins}-{tally.losses}-{tally.draws}"
        return f"{player} {record}  {score}  ETA {self.eta(done)}"

    def eta(self, done: int) -> str:
        """Time left as ``m:ss`` (``h:mm:ss`` past an hour), ``?`` before a game of this
        session has finished."""
        first = self._first_done or 0
        played = done - first
        if played <= 0:
            return "?"
        seconds = round((self._now() - self._started) / played * max(self.total - done, 0))
        minutes, secs = divmod(seconds, 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

    def message(self, text: str) -> None:
        """A line of its own, below the redrawn line on a terminal."""
        self.close()
        self._write(text + "\n")

    def close(self) -> None:
        """End the redrawn line, so that what follows starts on a line of its own."""
        if self._bar is not None:
            self._bar.close()  # tqdm draws the line a last time and ends it
            self._bar = None

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


def _shape(stream: TextIO) -> tuple[int, int]:
    """The terminal's columns (tqdm trims the line to them) and rows. A bare pseudo-terminal
    says 0 by 0, which tqdm would take as no room to draw: then `WIDE` by `TALL`."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError):  # no descriptor (io.UnsupportedOperation), or not a terminal
        return WIDE, TALL
    return size.columns or WIDE, size.lines or TALL
