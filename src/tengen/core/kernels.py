"""The Go capture rules as compiled kernels over one flat state array (`core.layout`).

This is the only implementation of placing, capturing, suicide and the simple-ko point in
tengen (taking a move back and setting a point up are `core.rebuild`'s): `core.board.Board`
calls these functions for every move, and the random playouts call them from compiled code, so
the fast path and the checked path cannot drift apart.

The kernels are compiled with numba (``cache=True`` keeps the machine code between runs): the
board is a few small int arrays and the work per move is a handful of branches, exactly what an
LLVM JIT turns into C-speed code while the source stays readable Python.

Knows nothing of turn order, superko or scoring (``core.game`` and ``core.rules`` do).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.layout import (
    COLOR,
    EMPTY,
    H_CAPS,
    H_CELLS,
    H_KO,
    H_KO_COLOR,
    H_SERIAL,
    H_STRIDE,
    HDR,
    HEAD,
    LIBS,
    MARK,
    NEXT,
    ORDER,
    SIZE,
    WALL,
    clear_stone,
    next_mark,
    offset,
    set_stone,
)

# Legality codes returned by `legality`.
LEGAL, OCCUPIED, SUICIDE, KO = 0, 1, 2, 3

# Packed move record: bit fields of one int64 (`play` packs it, `rebuild.undo` reads it).
LOC_BITS = 13
LOC_MASK = (1 << LOC_BITS) - 1


@njit(cache=True, inline="always")
def _pack(
    loc: int, ko: int, color: int, ko_color: int, capdirs: int, suicide: int, captured: int
) -> np.int64:
    """Pack a move record into one int64 (see `rebuild.undo` for the field order)."""
    b = np.int64(LOC_BITS)
    return (
        np.int64(loc)
        | (np.int64(ko) << b)
        | (np.int64(color) << (2 * b))
        | (np.int64(ko_color) << (2 * b + 2))
        | (np.int64(capdirs) << (2 * b + 4))
        | (np.int64(suicide) << (2 * b + 8))
        | (np.int64(captured) << (2 * b + 9))
    )


@njit(cache=True, inline="always")
def _is_liberty_of(st: np.ndarray, empty: int, head: int) -> bool:
    for d in range(4):
        a = empty + offset(st, d)
        if st[COLOR, a] != EMPTY and st[COLOR, a] != WALL and st[HEAD, a] == head:
            return True
    return False


@njit(cache=True)
def _merge(st: np.ndarray, h1: int, h2: int) -> int:
    """Merge two chains of one colour; the smaller joins the larger. Returns the new head."""
    if st[SIZE, h1] < st[SIZE, h2]:
        h1, h2 = h2, h1
    libs = st[LIBS, h1]
    s = h2
    while True:
        for d in range(4):
            e = s + offset(st, d)
            if st[COLOR, e] == EMPTY and not _is_liberty_of(st, e, h1):
                libs += 1
        st[HEAD, s] = h1
        s = st[NEXT, s]
        if s == h2:
            break
    t = st[NEXT, h1]
    st[NEXT, h1] = st[NEXT, h2]
    st[NEXT, h2] = t
    st[SIZE, h1] += st[SIZE, h2]
    st[LIBS, h1] = libs
    return h1


@njit(cache=True)
def _remove_chain(st: np.ndarray, zh: np.ndarray, any_stone: int) -> int:
    """Take a chain off the board, giving its points back as liberties. Returns its size."""
    head = st[HEAD, any_stone]
    s = head
    n = 0
    while True:
        clear_stone(st, zh, s)
        n += 1
        h0 = -1
        h1 = -1
        h2 = -1
        for d in range(4):
            a = s + offset(st, d)
            col = st[COLOR, a]
            if col == EMPTY or col == WALL:
                continue
            h = st[HEAD, a]
            if h == head or h == h0 or h == h1 or h == h2:
                continue
            st[LIBS, h] += 1
            if h0 < 0:
                h0 = h
            elif h1 < 0:
                h1 = h
            else:
                h2 = h
        s = st[NEXT, s]
        if s == head:
            break
    return n


@njit(cache=True, inline="always")
def legality(st: np.ndarray, loc: int, color: int, allow_suicide: bool) -> int:
    """LEGAL, OCCUPIED, KO (the simple-ko point) or SUICIDE for a stone of `color` at `loc`.

    Single-stone suicide is refused even when suicide is allowed: it only recreates the
    position before it (KataGo's and the New Zealand rules' reading).
    """
    if st[COLOR, loc] != EMPTY:
        return OCCUPIED
    if loc == st[HDR, H_KO] and color == st[HDR, H_KO_COLOR]:
        return KO
    opp = 3 - color
    friend = False
    for d in range(4):
        a = loc + offset(st, d)
        col = st[COLOR, a]
        if col == EMPTY:
            return LEGAL
        if col == color:
            friend = True
            if st[LIBS, st[HEAD, a]] > 1:
                return LEGAL
        elif col == opp and st[LIBS, st[HEAD, a]] == 1:
            return LEGAL
    if allow_suicide and friend:
        return LEGAL
    return SUICIDE


@njit(cache=True)
def _xor_chain(st: np.ndarray, zh: np.ndarray, head: int, h: int) -> int:
    color = st[COLOR, head]
    base = 1 + (color - 1) * st[HDR, H_CELLS]
    s = head
    while True:
        h ^= zh[base + s]
        s = st[NEXT, s]
        if s == head:
            return h


@njit(cache=True)
def hash_after(st: np.ndarray, zh: np.ndarray, loc: int, color: int) -> int:
    """The position hash after `color` plays at empty `loc`, without playing it (for superko)."""
    opp = 3 - color
    h = zh[0]
    captured = False
    own_libs = False
    seen0 = -1
    seen1 = -1
    seen2 = -1
    for d in range(4):
        a = loc + offset(st, d)
        col = st[COLOR, a]
        if col == EMPTY:
            own_libs = True
        elif col == color:
            if st[LIBS, st[HEAD, a]] > 1:
                own_libs = True
        elif col == opp:
            head = st[HEAD, a]
            if st[LIBS, head] == 1 and head != seen0 and head != seen1 and head != seen2:
                h = _xor_chain(st, zh, head, h)
                captured = True
                if seen0 < 0:
                    seen0 = head
                elif seen1 < 0:
                    seen1 = head
                else:
                    seen2 = head
    if captured or own_libs:
        return h ^ zh[1 + (color - 1) * st[HDR, H_CELLS] + loc]
    # Suicide: the new stone and every friendly chain it joins leave the board.
    for d in range(4):
        a = loc + offset(st, d)
        if st[COLOR, a] == color:
            head = st[HEAD, a]
            if head != seen0 and head != seen1 and head != seen2:
                h = _xor_chain(st, zh, head, h)
                if seen0 < 0:
                    seen0 = head
                elif seen1 < 0:
                    seen1 = head
                else:
                    seen2 = head
    return h


@njit(cache=True)
def play(st: np.ndarray, zh: np.ndarray, loc: int, color: int) -> tuple[np.int64, int]:
    """Play a stone assuming the point is empty; capture, then remove own chain if no liberty.

    Returns ``(packed record, previous ORDER value)`` for `undo`.
    """
    opp = 3 - color
    prev_ko = st[HDR, H_KO]
    prev_ko_color = st[HDR, H_KO_COLOR]
    prev_order = st[ORDER, loc]
    set_stone(st, zh, loc, color)
    st[HDR, H_SERIAL] += 1
    st[ORDER, loc] = st[HDR, H_SERIAL]
    st[HEAD, loc] = loc
    st[NEXT, loc] = loc
    st[SIZE, loc] = 1
    libs = 0
    for d in range(4):
        if st[COLOR, loc + offset(st, d)] == EMPTY:
            libs += 1
    st[LIBS, loc] = libs

    capdirs = 0
    for d in range(4):
        a = loc + offset(st, d)
        if st[COLOR, a] != opp:
            continue
        h = st[HEAD, a]
        seen = False
        for e in range(d):
            b = loc + offset(st, e)
            if st[COLOR, b] == opp and st[HEAD, b] == h:
                seen = True
        if seen:
            continue
        st[LIBS, h] -= 1
        if st[LIBS, h] == 0:
            capdirs |= 1 << d

    for d in range(4):
        a = loc + offset(st, d)
        if st[COLOR, a] != color:
            continue
        h = st[HEAD, a]
        if h == st[HEAD, loc]:
            continue
        st[LIBS, h] -= 1
        _merge(st, h, st[HEAD, loc])

    captured = 0
    ko_point = 0
    for d in range(4):
        if capdirs & (1 << d):
            a = loc + offset(st, d)
            if st[COLOR, a] == opp:
                n = _remove_chain(st, zh, a)
                captured += n
                ko_point = a
    st[HDR, H_CAPS + color - 1] += captured

    head = st[HEAD, loc]
    suicide = 0
    if st[LIBS, head] == 0:
        suicide = 1
        lost = _remove_chain(st, zh, loc)
        st[HDR, H_CAPS + opp - 1] += lost
        captured = lost

    if captured == 1 and suicide == 0 and st[SIZE, head] == 1 and st[LIBS, head] == 1:
        st[HDR, H_KO] = ko_point
        st[HDR, H_KO_COLOR] = opp
    else:
        st[HDR, H_KO] = 0
        st[HDR, H_KO_COLOR] = 0

    return _pack(loc, prev_ko, color, prev_ko_color, capdirs, suicide, captured), prev_order


@njit(cache=True)
def try_play(
    st: np.ndarray, zh: np.ndarray, loc: int, color: int, allow_suicide: bool, force: bool
) -> tuple[int, int, int, int, int]:
    """`legality`, then `play` if the move is legal, or with `force` whenever the point is empty
    (what the bare capture rules allow): one call where a checked move would take two.

    Returns ``(legality code, packed record, previous ORDER value, hash before, hash after)``
    (what `undo` and a superko check need); the record is 0 when nothing was played.
    """
    before = int(zh[0])
    code = legality(st, loc, color, allow_suicide)
    if code == LEGAL or (force and code != OCCUPIED):
        packed, prev_order = play(st, zh, loc, color)
        return code, int(packed), prev_order, before, int(zh[0])
    return code, 0, 0, before, before


@njit(cache=True)
def try_play_run(
    st: np.ndarray,
    zh: np.ndarray,
    locs: np.ndarray,
    colors: np.ndarray,
    allow_suicide: bool,
    force: bool,
    out: np.ndarray,
) -> int:
    """`try_play` of each move in turn (`play_pass` where the location is 0), stopping at the
    first one not played: a line of moves in one call. Row i of `out` gets move i's five
    results, as `try_play` returns them (a pass: LEGAL, its record, 0, the hash twice).

    Returns how many moves were played; the next one's code is in `out` if one was refused.
    """
    for i in range(locs.shape[0]):
        loc = locs[i]
        before = int(zh[0])
        if loc == 0:
            out[i, 0] = LEGAL
            out[i, 1] = play_pass(st)
            out[i, 2] = 0
            out[i, 3] = before
            out[i, 4] = before
            continue
        code, packed, prev_order, before, after = try_play(
            st, zh, loc, colors[i], allow_suicide, force
        )
        out[i, 0] = code
        if packed == 0:
            return i
        out[i, 1] = packed
        out[i, 2] = prev_order
        out[i, 3] = before
        out[i, 4] = after
    return locs.shape[0]


@njit(cache=True)
def play_pass(st: np.ndarray) -> np.int64:
    """A pass: clears the ko point. Returns the packed record for `undo`."""
    rec = _pack(0, st[HDR, H_KO], 0, st[HDR, H_KO_COLOR], 0, 0, 0)
    st[HDR, H_KO] = 0
    st[HDR, H_KO_COLOR] = 0
    return rec


@njit(cache=True)
def legal_points(
    st: np.ndarray,
    zh: np.ndarray,
    color: int,
    allow_suicide: bool,
    skip_eyes: bool,
    locs: np.ndarray,
    hashes: np.ndarray,
) -> int:
    """Write every point `color` may play by the capture rules and simple ko into `locs`, in
    row-major order, with the position hash each would make into `hashes` (for superko; an
    empty `hashes` asks for none); with `skip_eyes`, leave out the points `is_eye_like` calls
    own eyes. Return how many."""
    n = 0
    with_hashes = hashes.shape[0] > 0
    colors = st[COLOR]  # a row read once: twice as fast a scan as st[COLOR, loc] each time
    for loc in range(st.shape[1]):
        if colors[loc] == EMPTY and _listed(st, loc, color, allow_suicide, skip_eyes):
            locs[n] = loc
            if with_hashes:
                hashes[n] = hash_after(st, zh, loc, color)
            n += 1
    return n


@njit(cache=True, inline="always")
def _listed(st: np.ndarray, loc: int, color: int, allow_suicide: bool, skip_eyes: bool) -> bool:
    """Whether `legal_points` lists `loc`: empty, legal, and not an own eye if skipped."""
    if st[COLOR, loc] != EMPTY:
        return False
    if skip_eyes and is_eye_like(st, loc, color):
        return False
    return legality(st, loc, color, allow_suicide) == LEGAL


@njit(cache=True)
def chain_liberties(st: np.ndarray, loc: int, out: np.ndarray) -> int:
    """Write the liberties of the chain at `loc` into `out`; return how many."""
    mark = next_mark(st)
    head = st[HEAD, loc]
    s = head
    n = 0
    while True:
        for d in range(4):
            a = s + offset(st, d)
            if st[COLOR, a] == EMPTY and st[MARK, a] != mark:
                st[MARK, a] = mark
                out[n] = a
                n += 1
        s = st[NEXT, s]
        if s == head:
            break
    return n


@njit(cache=True)
def chain_stones(st: np.ndarray, loc: int, out: np.ndarray) -> int:
    """Write the stones of the chain at `loc` into `out`; return how many."""
    head = st[HEAD, loc]
    s = head
    n = 0
    while True:
        out[n] = s
        n += 1
        s = st[NEXT, s]
        if s == head:
            break
    return n


@njit(cache=True)
def is_eye_like(st: np.ndarray, loc: int, color: int) -> bool:
    """True if `loc` is an own eye the playout policy must not fill.

    All orthogonal neighbours are own stones (or the edge); of the diagonal neighbours at most
    one is an enemy stone, and none when the point is on the edge.
    """
    edge = False
    for d in range(4):
        col = st[COLOR, loc + offset(st, d)]
        if col == WALL:
            edge = True
        elif col != color:
            return False
    s = st[HDR, H_STRIDE]
    enemies = 0
    opp = 3 - color
    for off in (-s - 1, -s + 1, s - 1, s + 1):
        if st[COLOR, loc + off] == opp:
            enemies += 1
    if edge:
        return enemies == 0
    return enemies <= 1
