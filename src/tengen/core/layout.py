"""The compiled board's state array: its layout, and the steps on single cells every kernel
builds on.

Layout (KataGo's padded board, see STYLE.md): ``st`` is an int32 array of shape ``(NROWS, n)``.
A point at column ``c``, row ``r`` (row 0 at the top) is the location ``(r + 1) * stride + c +
1`` with ``stride = width + 1``; the cells around the board hold ``WALL``, so a neighbour is
``loc + offset`` with no bounds check. Location 0 is always a wall cell and stands for "pass"
and "no point". Chains are circular linked lists (``NEXT``) whose stones all point at one head
stone (``HEAD``); the liberty count and size are stored at the head. ``zh`` is an int64 array:
``zh[0]`` is the position hash, ``zh[1 + (colour - 1) * n + loc]`` the Zobrist key of a stone.

`init_state` lays out an empty board; `set_stone` and `clear_stone` put a stone on a point and
take it off, keeping the hash and the list of empty points up to date. The chains are their
callers' (`core.kernels` plays moves, `core.rebuild` takes them back and sets points up).
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3

# Rows of the state array.
HDR, COLOR, HEAD, NEXT, LIBS, SIZE, MARK, EMPTIES, EPOS, ORDER = range(10)
NROWS = 10

# Header slots (row HDR).
H_WIDTH, H_HEIGHT, H_STRIDE, H_CELLS = 0, 1, 2, 3
H_KO, H_KO_COLOR = 4, 5  # the simple-ko point and the colour that may not play there
H_CAPS = 6  # H_CAPS + colour - 1: stones captured by that colour (prisoners it holds)
H_MARKGEN = 8  # generation counter for the MARK row
H_NEMPTY = 9  # length of the EMPTIES list
H_SERIAL = 10  # stones placed so far; ORDER holds each stone's serial
HEADER_SLOTS = 16


@njit(cache=True, inline="always")
def offset(st: np.ndarray, d: int) -> int:
    """The step from a location to its neighbour in direction `d`: 0 up, 1 left, 2 right, 3 down."""
    s = st[HDR, H_STRIDE]
    if d == 0:
        return -s
    if d == 1:
        return -1
    if d == 2:
        return 1
    return s


@njit(cache=True)
def init_state(st: np.ndarray, width: int, height: int) -> None:
    """Fill a zeroed state array for an empty board of the given size."""
    stride = width + 1
    cells = st.shape[1]
    st[HDR, H_WIDTH] = width
    st[HDR, H_HEIGHT] = height
    st[HDR, H_STRIDE] = stride
    st[HDR, H_CELLS] = cells
    for loc in range(cells):
        st[COLOR, loc] = WALL
        st[EPOS, loc] = -1
    n = 0
    for r in range(height):
        for c in range(width):
            loc = (r + 1) * stride + c + 1
            st[COLOR, loc] = EMPTY
            st[EMPTIES, n] = loc
            st[EPOS, loc] = n
            n += 1
    st[HDR, H_NEMPTY] = n


@njit(cache=True, inline="always")
def next_mark(st: np.ndarray) -> int:
    """A new generation for the MARK row: cells marked before it read as unmarked."""
    g = st[HDR, H_MARKGEN] + 1
    if g > 2_000_000_000:
        st[MARK, :] = 0
        g = 1
    st[HDR, H_MARKGEN] = g
    return g


@njit(cache=True, inline="always")
def _empties_remove(st: np.ndarray, loc: int) -> None:
    i = st[EPOS, loc]
    last = st[HDR, H_NEMPTY] - 1
    moved = st[EMPTIES, last]
    st[EMPTIES, i] = moved
    st[EPOS, moved] = i
    st[EPOS, loc] = -1
    st[HDR, H_NEMPTY] = last


@njit(cache=True, inline="always")
def _empties_add(st: np.ndarray, loc: int) -> None:
    n = st[HDR, H_NEMPTY]
    st[EMPTIES, n] = loc
    st[EPOS, loc] = n
    st[HDR, H_NEMPTY] = n + 1


@njit(cache=True, inline="always")
def set_aside(st: np.ndarray, i: int, k: int) -> None:
    """Swap the empty point at index `i` of the empties list with the one at `k`, so that a
    sampler drawing from indices [0, k) no longer sees it; the list keeps every empty point."""
    loc = st[EMPTIES, i]
    other = st[EMPTIES, k]
    st[EMPTIES, i] = other
    st[EPOS, other] = i
    st[EMPTIES, k] = loc
    st[EPOS, loc] = k


@njit(cache=True, inline="always")
def set_stone(st: np.ndarray, zh: np.ndarray, loc: int, color: int) -> None:
    """Put a stone on an empty point: colour, hash, empty list (chain data is the caller's)."""
    st[COLOR, loc] = color
    zh[0] ^= zh[1 + (color - 1) * st[HDR, H_CELLS] + loc]
    _empties_remove(st, loc)


@njit(cache=True, inline="always")
def clear_stone(st: np.ndarray, zh: np.ndarray, loc: int) -> None:
    """Take a stone off its point: colour, hash, empty list (chain data is the caller's)."""
    color = st[COLOR, loc]
    st[COLOR, loc] = EMPTY
    zh[0] ^= zh[1 + (color - 1) * st[HDR, H_CELLS] + loc]
    _empties_add(st, loc)
