"""The Go capture rules as compiled kernels over one flat state array.

This is the only implementation of placing, capturing, suicide, the simple-ko point and undo in
tengen: `core.board.Board` calls these functions for every move, and the random playouts call
them from compiled code, so the fast path and the checked path cannot drift apart.

The kernels are compiled with numba (``cache=True`` keeps the machine code between runs): the
board is a few small int arrays and the work per move is a handful of branches, exactly what an
LLVM JIT turns into C-speed code while the source stays readable Python.

State layout (KataGo's padded board, see STYLE.md): ``st`` is an int32 array of shape
``(NROWS, n)``. A point at column ``c``, row ``r`` (row 0 at the top) is the location
``(r + 1) * stride + c + 1`` with ``stride = width + 1``; the cells around the board hold
``WALL``, so a neighbour is ``loc + offset`` with no bounds check. Location 0 is always a wall
cell and stands for "pass" and "no point". Chains are circular linked lists (``NEXT``) whose
stones all point at one head stone (``HEAD``); the liberty count and size are stored at the
head. ``zh`` is an int64 array: ``zh[0]`` is the position hash, ``zh[1 + (colour - 1) * n +
loc]`` the Zobrist key of a stone.

Knows nothing of turn order, superko or scoring (``core.game`` and ``core.rules`` do).
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

# Legality codes returned by `legality`.
LEGAL, OCCUPIED, SUICIDE, KO = 0, 1, 2, 3

# Packed move record: bit fields of one int64.
_LOC_BITS = 13
_LOC_MASK = (1 << _LOC_BITS) - 1


@njit(cache=True, inline="always")
def _pack(
    loc: int, ko: int, color: int, ko_color: int, capdirs: int, suicide: int, captured: int
) -> np.int64:
    """Pack a move record into one int64 (see `undo` for the field order)."""
    b = np.int64(_LOC_BITS)
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
def _offset(st: np.ndarray, d: int) -> int:
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
def _next_mark(st: np.ndarray) -> int:
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
def _set_stone(st: np.ndarray, zh: np.ndarray, loc: int, color: int) -> None:
    """Put a stone on an empty point: colour, hash, empty list (chain data is the caller's)."""
    st[COLOR, loc] = color
    zh[0] ^= zh[1 + (color - 1) * st[HDR, H_CELLS] + loc]
    _empties_remove(st, loc)


@njit(cache=True, inline="always")
def _clear_stone(st: np.ndarray, zh: np.ndarray, loc: int) -> None:
    color = st[COLOR, loc]
    st[COLOR, loc] = EMPTY
    zh[0] ^= zh[1 + (color - 1) * st[HDR, H_CELLS] + loc]
    _empties_add(st, loc)


@njit(cache=True, inline="always")
def _is_liberty_of(st: np.ndarray, empty: int, head: int) -> bool:
    for d in range(4):
        a = empty + _offset(st, d)
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
            e = s + _offset(st, d)
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
        _clear_stone(st, zh, s)
        n += 1
        h0 = -1
        h1 = -1
        h2 = -1
        for d in range(4):
            a = s + _offset(st, d)
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
        a = loc + _offset(st, d)
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
        a = loc + _offset(st, d)
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
        a = loc + _offset(st, d)
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
    _set_stone(st, zh, loc, color)
    st[HDR, H_SERIAL] += 1
    st[ORDER, loc] = st[HDR, H_SERIAL]
    st[HEAD, loc] = loc
    st[NEXT, loc] = loc
    st[SIZE, loc] = 1
    libs = 0
    for d in range(4):
        if st[COLOR, loc + _offset(st, d)] == EMPTY:
            libs += 1
    st[LIBS, loc] = libs

    capdirs = 0
    for d in range(4):
        a = loc + _offset(st, d)
        if st[COLOR, a] != opp:
            continue
        h = st[HEAD, a]
        seen = False
        for e in range(d):
            b = loc + _offset(st, e)
            if st[COLOR, b] == opp and st[HEAD, b] == h:
                seen = True
        if seen:
            continue
        st[LIBS, h] -= 1
        if st[LIBS, h] == 0:
            capdirs |= 1 << d

    for d in range(4):
        a = loc + _offset(st, d)
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
            a = loc + _offset(st, d)
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
def play_pass(st: np.ndarray) -> np.int64:
    """A pass: clears the ko point. Returns the packed record for `undo`."""
    rec = _pack(0, st[HDR, H_KO], 0, st[HDR, H_KO_COLOR], 0, 0, 0)
    st[HDR, H_KO] = 0
    st[HDR, H_KO_COLOR] = 0
    return rec


@njit(cache=True)
def _fill(st: np.ndarray, zh: np.ndarray, start: int, color: int, out: np.ndarray, n: int) -> int:
    """Flood-fill the empty region at `start` with `color`, appending the points to `out[n:]`.

    Returns the new length of `out`. Used only by `undo`: a captured chain's points form exactly
    one empty region, bounded by the capturer's stones, once every later move is undone.
    """
    _set_stone(st, zh, start, color)
    out[n] = start
    top = n + 1
    i = n
    while i < top:
        s = out[i]
        i += 1
        for d in range(4):
            a = s + _offset(st, d)
            if st[COLOR, a] == EMPTY:
                _set_stone(st, zh, a, color)
                out[top] = a
                top += 1
    return top


@njit(cache=True)
def _rebuild_chain(st: np.ndarray, seed: int, stone_mark: int) -> None:
    """Recompute the chain through `seed` from scratch: head, links, size, liberties."""
    color = st[COLOR, seed]
    lib_mark = _next_mark(st)
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
            a = s + _offset(st, d)
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
        a = start + _offset(st, d)
        col = st[COLOR, a]
        if (col == BLACK or col == WHITE) and st[MARK, a] != stone_mark:
            _rebuild_chain(st, a, stone_mark)


@njit(cache=True)
def undo(st: np.ndarray, zh: np.ndarray, rec: int, prev_order: int, prev_hash: int) -> None:
    """Take back the move whose packed record is `rec`; records must be undone in LIFO order."""
    loc = rec & _LOC_MASK
    prev_ko = (rec >> _LOC_BITS) & _LOC_MASK
    color = (rec >> (2 * _LOC_BITS)) & 3
    prev_ko_color = (rec >> (2 * _LOC_BITS + 2)) & 3
    capdirs = (rec >> (2 * _LOC_BITS + 4)) & 15
    suicide = (rec >> (2 * _LOC_BITS + 8)) & 1
    captured = rec >> (2 * _LOC_BITS + 9)
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
            a = loc + _offset(st, d)
            if capdirs & (1 << d) and st[COLOR, a] == EMPTY:
                n = _fill(st, zh, a, opp, restored, n)
        st[HDR, H_CAPS + color - 1] -= captured
    _clear_stone(st, zh, loc)
    stone_mark = _next_mark(st)
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
        _clear_stone(st, zh, loc)
    if color != EMPTY:
        _set_stone(st, zh, loc, color)
        st[HDR, H_SERIAL] += 1
        st[ORDER, loc] = st[HDR, H_SERIAL]
    st[HDR, H_KO] = 0
    st[HDR, H_KO_COLOR] = 0
    _rebuild_around(st, loc, _next_mark(st))


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
    mark = _next_mark(st)
    head = st[HEAD, loc]
    s = head
    n = 0
    while True:
        for d in range(4):
            a = s + _offset(st, d)
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
        col = st[COLOR, loc + _offset(st, d)]
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
