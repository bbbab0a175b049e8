"""The compiled steps of reading a fight (`scoring.reading`): what a position is for the chain
read, and the moves from it with what each leads to.

The search itself stays in Python (its table is a dict); what it does for every move of every
position it expands (play the move, look at the chain, take the move back) runs here, in one
call per position.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.kernels import LEGAL, chain_liberties, is_eye_like, legality, play
from tengen.core.layout import COLOR, EMPTY, H_KO, HDR, HEAD, NEXT, WALL, offset
from tengen.core.rebuild import undo

SAFE_LIBERTIES = 8  # a chain with this many liberties has room to spare: it stands
CAPTURED, OPEN, SAFE = 0, 1, 2  # what a position is for the chain read
MOVE, HASH, KO, STATE, LIBERTIES, IDENTITY = range(6)  # the columns of `children`'s rows


@njit(cache=True)
def look(st: np.ndarray, target: int, me: int, buf: np.ndarray) -> tuple[int, int, int]:
    """The chain of colour `me` on `target`: (CAPTURED, OPEN or SAFE, its liberties, its
    smallest point), the point -1 once captured.

    SAFE: `SAFE_LIBERTIES` liberties, or two that touch nothing but the chain (two eyes)."""
    if st[COLOR, target] != me:
        return CAPTURED, 0, -1
    n = chain_liberties(st, target, buf)
    head = st[HEAD, target]
    smallest = head
    s = st[NEXT, head]
    while s != head:
        smallest = min(smallest, s)
        s = st[NEXT, s]
    if n >= SAFE_LIBERTIES:
        return SAFE, n, smallest
    eyes = 0
    for i in range(n):
        lib = buf[i]
        closed = True
        for d in range(4):
            q = lib + offset(st, d)
            if st[COLOR, q] != WALL and (st[COLOR, q] != me or st[HEAD, q] != head):
                closed = False
                break
        if closed:
            eyes += 1
    return (SAFE if eyes >= 2 else OPEN), n, smallest


@njit(cache=True)
def children(
    st: np.ndarray,
    zh: np.ndarray,
    points: np.ndarray,
    mover: int,
    me: int,
    target: int,
    buf: np.ndarray,
    out: np.ndarray,
) -> int:
    """Write a row per move `mover` may make on `points` (MOVE, then HASH, KO and what `look`
    says after it) into `out`, the chain's liberties first; return how many.

    Moves are the legal ones but the chain's side filling an eye of its own (`is_eye_like`).
    The opponent may fill its own: under the fight's rule that two passes end it with the
    chain standing, such a move is a tempo that a pass is not (after a ko, say)."""
    n = 0
    for liberties_first in (True, False):
        for a in points:
            if st[COLOR, a] != EMPTY:
                continue
            head = st[HEAD, target]  # read afresh: taking a move back rebuilds the chains
            touches = False
            for d in range(4):
                q = a + offset(st, d)
                if st[COLOR, q] == me and st[HEAD, q] == head:
                    touches = True
            if touches != liberties_first or legality(st, a, mover, False) != LEGAL:
                continue
            if mover == me and is_eye_like(st, a, me):
                continue
            before = zh[0]
            packed, order = play(st, zh, a, mover)
            state, libs, smallest = look(st, target, me, buf)
            out[n, MOVE] = a
            out[n, HASH] = zh[0]
            out[n, KO] = st[HDR, H_KO]
            out[n, STATE] = state
            out[n, LIBERTIES] = libs
            out[n, IDENTITY] = smallest
            undo(st, zh, int(packed), order, before)
            n += 1
    return n
