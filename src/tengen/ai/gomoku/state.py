"""The searcher's position as one argument for compiled code: the pattern arrays, a Zobrist
hash and the counters, with the compiled moves that keep them together.

`State` is a named tuple of numpy arrays (and the board's fixed numbers), so the compiled
searches (`ai.gomoku.vcf`, `vct`, `pvs`) take one argument, not twenty, and pass it on as a
pointer (`core.refs`); `Position` builds it and Python callers reach these kernels through
`core.jit.live`.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, objmode

from tengen.ai.gomoku import kernels
from tengen.ai.gomoku.patterns import WIN
from tengen.core.jit import lean, lean_inline
from tengen.core.refs import deref


class State(NamedTuple):
    """The arrays of `ai.gomoku.kernels` (see its docstring) and what the searches add."""

    cells: npt.NDArray[np.int8]
    nb: npt.NDArray[np.int32]
    tbl: npt.NDArray[np.int8]
    worth: npt.NDArray[np.int32]
    kind: npt.NDArray[np.int8]
    key: npt.NDArray[np.int32]
    pat: npt.NDArray[np.int8]
    code: npt.NDArray[np.int16]
    val: npt.NDArray[np.int32]
    kd: npt.NDArray[np.int8]
    total: npt.NDArray[np.int64]
    tally: npt.NDArray[np.int32]
    near: npt.NDArray[np.int16]
    sq: npt.NDArray[np.int32]
    zob: npt.NDArray[np.int64]  # [2, n]: a stone's key, by colour index
    side: npt.NDArray[np.int64]  # [2]: the key of the side to move, by colour index
    hash: npt.NDArray[np.int64]  # [1]: the stones' Zobrist hash
    nodes: npt.NDArray[np.int64]  # [1]: nodes searched so far (every search counts here)
    fail_key: npt.NDArray[np.int64]  # the VCF's and VCT's refuted (position, attacker) ...
    fail_depth: npt.NDArray[np.int32]  # ... and the depth each was refuted to
    fours: npt.NDArray[np.int32]  # [VCF_ROWS, n]: the VCF's move lists, a row per depth
    frame: npt.NDArray[np.int64]  # [VCF_ROWS, vcf.FRAME]: the VCF's stack, a row per depth
    threes: npt.NDArray[np.int32]  # [VCT_ROWS, n]: the VCT's move lists, a row per level
    board: npt.NDArray[np.int8]  # the renju judge's layout of the stones (`ai.gomoku.fouls`)
    pad: npt.NDArray[np.int32]  # [n]: each point's cell in `board`
    steps: npt.NDArray[np.int64]  # [4]: `board`'s line strides
    work: npt.NDArray[np.int64]  # the judge's stack (`gomoku.judge.work_rows`)
    width: int
    height: int
    renju: bool  # Black's fouls apply (`ai.gomoku.fouls`)


@lean
def play(sr, i, stone):  # type: ignore[no-untyped-def]
    """Put a `stone` (1 Black, 2 White) on the empty point `i` (`sr`: a state or a pointer to
    one, `core.refs`)."""
    s = deref(sr)
    kernels.place(i, stone, sr)
    s.hash[0] ^= s.zob[stone - 1, i]


@lean
def undo(sr, i):  # type: ignore[no-untyped-def]
    """Take the stone off point `i` (as in `play`)."""
    s = deref(sr)
    s.hash[0] ^= s.zob[s.cells[i] - 1, i]
    kernels.remove(i, sr)


@lean_inline
def survey(s, stone):  # type: ignore[no-untyped-def]
    """The threats on the board, for `stone` and then its opponent, read from the kernels'
    `tally` (no scan): how many points make a five (counting stops at two) and the first, and
    the strongest threat class a move makes (`patterns.WIN` .. 0)."""
    c, o = stone - 1, 2 - stone
    mine, theirs = s.tally[c, WIN], s.tally[o, WIN]
    return (
        min(mine, 2),
        _first_five(s, c, mine),
        min(theirs, 2),
        _first_five(s, o, theirs),
        _top(s.tally, c),
        _top(s.tally, o),
    )


@lean
def _first_five(s, c, count):  # type: ignore[no-untyped-def]
    """The lowest empty point where colour `c` makes a five, of `count` such points (-1 if
    none): the tally's sum when there is one, else a scan (two or more are rare: the game is
    decided)."""
    if count == 0:
        return -1
    if count == 1:
        return s.tally[c, kernels.SUM]
    for j in range(s.cells.shape[0]):
        if s.cells[j] == 0 and s.kd[c, j] == WIN:
            return j
    return -1


@lean_inline
def _top(tally, c):  # type: ignore[no-untyped-def]
    """The strongest threat class a move of colour `c` makes (0 when none)."""
    for k in range(WIN, 0, -1):
        if tally[c, k] > 0:
            return k
    return 0


@lean_inline
def evaluate(s, stone):  # type: ignore[no-untyped-def]
    """The static worth for `stone`, to move: its points' worth in the evaluation minus the
    opponent's at 3/4 (it moves second), as `patterns.EVAL_WORTH` and the shape worths were
    fitted. It stays even from one ply to the next, as `ai.gomoku.pvs`'s futility pruning
    needs: an open-four point of the opponent, the side to move's to block, counts about a
    thousand, where the move order's worths give it 5,500 and more."""
    return s.total[stone - 1] - (s.total[2 - stone] * 3) // 4


@njit(cache=True)
def clock():  # type: ignore[no-untyped-def]
    """`time.monotonic()` from compiled code (numba has no clock of its own; ~0.5 us)."""
    with objmode(now="float64"):
        now = time.monotonic()
    return now
