"""Black's renju fouls inside the compiled searches, judged by the one foul judge.

`may_play` asks `tengen.gomoku.judge` (compiled, so a search thread keeps running beside the
others) about a black move only when the move's line patterns allow a foul at all: a foul is
an overline, two fours or two threes, so a move is passed as legal without asking when its
lines hold at most one pattern of a three or more (`patterns.F3` and up, which every renju
three and four is), no `patterns.F4` (two fours on one line look like that) and no run of
five or more black stones. That test only saves calls; the judge alone says what is a foul.
"""

from __future__ import annotations

from tengen.ai.gomoku.patterns import F3, F4
from tengen.core.jit import lean, lean_inline
from tengen.core.refs import deref
from tengen.gomoku import judge


@lean
def _ask(sr, i):  # type: ignore[no-untyped-def]
    """Whether a black stone on the empty point `i` is a foul, by the judge: the stones are
    copied into the judge's board layout (``s.board``, its edges set once) first."""
    s = deref(sr)
    for j in range(s.cells.shape[0]):
        s.board[s.pad[j]] = s.cells[j]
    kind, _ = judge.foul(s.board, s.steps, s.pad[i], s.work, False)
    return kind != judge.NONE and kind != judge.FIVE


@lean_inline
def may_play(sr, i, stone):  # type: ignore[no-untyped-def]
    """Whether `stone` may go on the empty point `i` of `sr` (an `ai.gomoku.state.State`, or
    a pointer to one: `core.refs`)."""
    s = deref(sr)
    if stone != 1 or not s.renju:
        return True
    strong = 0
    for d in range(4):
        p = s.pat[0, i, d]
        if p == F4:
            return not _ask(sr, i)
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
            return not _ask(sr, i)
    if strong >= 2:
        return not _ask(sr, i)
    return True
