"""Undo and setup as compiled kernels: stones change outside the capture rules, so the chains
around the change are rebuilt from the stones.

`core.kernels.play` keeps chains and liberties up to date move by move; taking a move back
(`undo`, from the record `play` packed) or setting a point by hand (`set_point`, SGF AB/AW/AE)
cannot, so both recompute every chain that touches the points they change.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.kernels import LOC_BITS, LOC_MASK
from tengen.core.layout import (
    BLACK,
    COLOR,
    EMPTY,
    H_CAPS,
    H_CELLS,
    H_KO,
    H_KO_COLOR,
    H_SERIAL,
    HDR,
    HEAD,
    LIBS,
    MARK,
    NEXT,
    ORDER,
    SIZE,
    WHITE,
    clear_stone,
    next_mark,
    offset,
    set_stone,
)


@njit(cache=True)
def _fill(st: np.ndarray, zh: np.ndarray, start: int, color: int, out: np.ndarray, n: int) -> int:
    """Flood-fill the empty region at `start` with `color`, appending the points to `out[n:]`.

    Returns the new length of `out`. Used only by `undo`: a captured chain's points form exactly
    one empty region, bounded by the capturer's stones, once every later move is undone.
    """
    set_stone(st, zh, start, color)
    out[n] = start
    top = n + 1
    i = n
    while i < top:
        s = out[i]
        i += 1
        for d in range(4):
            a = s + offset(st, d)
            if st[COLOR, a] == EMPTY:
                set_stone(st, zh, a, color)
                out[top] = a
                top += 1
    return top


@njit(cache=True)
def _rebuild_chain(st: np.ndarray, seed: int, stone_mark: int) -> None:
    """Recompute the chain through `seed` from scratch: head, links, size, liberties."""
    color = st[COLOR, seed]
    lib_mark = next_mark(st)
    stack = np.empty(st[HDR, H_CELLS], np.int32)
    stack[0] = seed
    top = 1
    st[MARK, seed] = stone_mark
    st[HEAD, seed] = seed
    st[NEXT, seed] = seed
    size = 0
    libs = 0
    while top > 0:
        top -= 1
        s = stack[top]
        size += 1
        if s != seed:
            st[HEAD, s] = seed
            st[NEXT, s] = st[NEXT, seed]
            st[NEXT, seed] = s
        for d in range(4):
            a = s + offset(st, d)
            col = st[COLOR, a]
            if col == EMPTY:
                if st[MARK, a] != lib_mark:
                    st[MARK, a] = lib_mark
                    libs += 1
            elif col == color and st[MARK, a] != stone_mark:
                st[MARK, a] = stone_mark
                stack[top] = a
                top += 1
    st[SIZE, seed] = size
    st[LIBS, seed] = libs


@njit(cache=True)
def _rebuild_around(st: np.ndarray, start: int, stone_mark: int) -> None:
    """Rebuild the chain at `start` (if a stone not yet rebuilt) and every chain touching it."""
    col = st[COLOR, start]
    if (col == BLACK or col == WHITE) and st[MARK, start] != stone_mark:
        _rebuild_chain(st, start, stone_mark)
    for d in range(4):
        a = start + offset(st, d)
        col = st[COLOR, a]
        if (col == BLACK or col == WHITE) and st[MARK, a] != stone_mark:
            _rebuild_chain(st, a, stone_mark)


@njit(cache=True)
def undo(st: np.ndarray, zh: np.ndarray, rec: int, prev_order: int, prev_hash: int) -> None:
    """Take back the move whose packed record is `rec`; records must be undone in LIFO order."""
    loc = rec & LOC_MASK
    prev_ko = (rec >> LOC_BITS) & LOC_MASK
    color = (rec >> (2 * LOC_BITS)) & 3
    prev_ko_color = (rec >> (2 * LOC_BITS + 2)) & 3
    capdirs = (rec >> (2 * LOC_BITS + 4)) & 15
    suicide = (rec >> (2 * LOC_BITS + 8)) & 1
    captured = rec >> (2 * LOC_BITS + 9)
    st[HDR, H_KO] = prev_ko
    st[HDR, H_KO_COLOR] = prev_ko_color
    if loc == 0:
        return
    opp = 3 - color
    # Put the removed stones back while the stone at loc still bounds their regions, then
    # lift that stone; rebuild chains only once every colour is final.
    restored = np.empty(st[HDR, H_CELLS], np.int32)
    n = 0
    if suicide:
        n = _fill(st, zh, loc, color, restored, 0)
        st[HDR, H_CAPS + opp - 1] -= captured
    else:
        for d in range(4):
            a = loc + offset(st, d)
            if capdirs & (1 << d) and st[COLOR, a] == EMPTY:
                n = _fill(st, zh, a, opp, restored, n)
        st[HDR, H_CAPS + color - 1] -= captured
    clear_stone(st, zh, loc)
    stone_mark = next_mark(st)
    _rebuild_around(st, loc, stone_mark)
    for i in range(n):
        _rebuild_around(st, restored[i], stone_mark)
    st[ORDER, loc] = prev_order
    st[HDR, H_SERIAL] -= 1
    zh[0] = prev_hash


@njit(cache=True)
def set_point(st: np.ndarray, zh: np.ndarray, loc: int, color: int) -> None:
    """Setup (SGF AB/AW/AE): make `loc` hold `color` or EMPTY with no capture, then rebuild.

    Chains left with no liberty stay on the board; the caller decides whether to allow that.
    """
    if st[COLOR, loc] == color:
        return
    if st[COLOR, loc] != EMPTY:
        clear_stone(st, zh, loc)
    if color != EMPTY:
        set_stone(st, zh, loc, color)
        st[HDR, H_SERIAL] += 1
        st[ORDER, loc] = st[HDR, H_SERIAL]
    st[HDR, H_KO] = 0
    st[HDR, H_KO_COLOR] = 0
    _rebuild_around(st, loc, next_mark(st))


@njit(cache=True)
def set_points(st: np.ndarray, zh: np.ndarray, locs: np.ndarray, colors: np.ndarray) -> None:
    """`set_point` of each location in turn with its colour: a large setup in one call."""
    for i in range(locs.shape[0]):
        set_point(st, zh, locs[i], colors[i])
