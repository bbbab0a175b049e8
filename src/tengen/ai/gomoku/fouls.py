"""Black's renju fouls inside the compiled searches, judged by the one foul judge.

`may_play` asks `tengen.gomoku.renju.forbidden` (through numba's object mode) about a black
move only when the move's line patterns allow a foul at all: a foul is an overline, two fours
or two threes, so a move is passed as legal without asking when its lines hold at most one
pattern of a three or more (`patterns.F3` and up, which every renju three and four is),
no `patterns.F4` (two fours on one line look like that) and no run of five or more black stones.
That test only saves calls; the judge alone says what is a foul.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt
from numba import njit, objmode

from tengen.ai.gomoku.kernels import lean
from tengen.ai.gomoku.patterns import F3, F4
from tengen.core.coords import Point
from tengen.gomoku.board import GomokuBoard
from tengen.gomoku.renju import forbidden


def judged(cells: npt.NDArray[np.int8], width: int, height: int, i: int) -> bool:
    """Whether a black stone on the empty point `i` of `cells` is a foul, by the judge."""
    board = GomokuBoard(width, height)
    padded = _padded(width, height)
    for j in np.flatnonzero(cells):
        board.cells[padded[j]] = int(cells[j])
    return forbidden(board, Point(i % width, i // width)) is not None


@functools.cache
def _padded(width: int, height: int) -> list[int]:
    """Where each point number sits in a `GomokuBoard`'s cell list."""
    board = GomokuBoard(width, height)
    return [board.index(Point(j % width, j // width)) for j in range(width * height)]


@njit(cache=True)
def _ask(cells, width, height, i):  # type: ignore[no-untyped-def]
    """The judge's verdict from compiled code (object mode: ~1 us and the judge's time)."""
    with objmode(foul="int64"):
        foul = int(judged(cells, width, height, i))
    return foul


@lean
def may_play(s, i, stone):  # type: ignore[no-untyped-def]
    """Whether `stone` may go on the empty point `i` of `s` (an `ai.gomoku.state.State`)."""
    if stone != 1 or not s.renju:
        return True
    strong = 0
    for d in range(4):
        p = s.pat[0, i, d]
        if p == F4:
            return _ask(s.cells, s.width, s.height, i) == 0
        if p >= F3:
            strong += 1
        run = 0
        for side in range(2):  # black stones next to `i`, nearest first, either way
            for k in range(4):
                q = s.nb[i, d, 3 - k] if side == 0 else s.nb[i, d, 4 + k]
                if q < 0 or s.cells[q] != 1:
                    break
                run += 1
        if run >= 4:
            return _ask(s.cells, s.width, s.height, i) == 0
    if strong >= 2:
        return _ask(s.cells, s.width, s.height, i) == 0
    return True
