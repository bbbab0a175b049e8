"""The playouts: the policy that picks a playout's moves, the ownership it leads to, and the
plain uniform playout with its random numbers.

A playout move answers the last move first (take its chain in atari, or save an own chain
next to it from atari), then plays a 3x3 shape next to it (`core.patterns`), else a random
move; never one that fills an own eye or puts an own group of two stones or more into atari.
The built-in player's playouts (`tengen.ai.policy`) and the dead-stone estimate's
(`tengen.scoring.life`, through `ownership`) are these; every rule they use (legality,
capture, simple ko, eyes) is a call to `tengen.core.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.area import owners
from tengen.core.kernels import (
    LEGAL,
    chain_liberties,
    chain_stones,
    is_eye_like,
    legality,
    play,
    play_pass,
)
from tengen.core.layout import (
    BLACK,
    COLOR,
    EMPTIES,
    EMPTY,
    H_NEMPTY,
    H_STRIDE,
    HDR,
    HEAD,
    LIBS,
    WALL,
    WHITE,
    set_aside,
)

# Strides are read as int64 (`int(np.int64(...))`: numba keeps int32 through a bare int()),
# so that (-s, -1, 1, s) is a tuple of one type, which numba can iterate.


@njit(cache=True, nogil=True, inline="always")
def _below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in [0, n)."""
    return int(xorshift(rng) % np.uint64(n))


@njit(cache=True, nogil=True)
def neighbourhood_code(st: np.ndarray, loc: int) -> int:
    """The 3x3 contents around `loc` packed as in `patterns.NEIGHBOURS` (2 bits a point)."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    code = 0
    shift = 0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx == 0 and dy == 0:
                continue
            a = loc + dy * s + dx
            v = WALL if a < 0 or a >= st.shape[1] else st[COLOR, a]
            code |= v << shift
            shift += 2
    return code


@njit(cache=True, nogil=True)
def liberties_after(st: np.ndarray, loc: int, color: int, buf: np.ndarray) -> int:
    """Liberties (counted up to 2) of the chain a stone of `color` at `loc` would make;
    2 when it captures. The lone stone's own case counts like any other."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    opp = 3 - color
    first = -1
    for off in (-s, -1, 1, s):
        a = loc + off
        col = st[COLOR, a]
        if col == EMPTY:
            if first < 0:
                first = a
            elif a != first:
                return 2
        elif col == opp:
            if st[LIBS, st[HEAD, a]] == 1:
                return 2
        elif col == color:
            if st[LIBS, st[HEAD, a]] >= 3:
                return 2
            n = chain_liberties(st, a, buf)
            for i in range(n):
                b = buf[i]
                if b == loc:
                    continue
                if first < 0:
                    first = b
                elif b != first:
                    return 2
    return 0 if first < 0 else 1


@njit(cache=True, nogil=True)
def joins_own(st: np.ndarray, loc: int, color: int) -> bool:
    """Whether `loc` is next to a stone of `color`."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    return bool(
        st[COLOR, loc - s] == color
        or st[COLOR, loc - 1] == color
        or st[COLOR, loc + 1] == color
        or st[COLOR, loc + s] == color
    )


@njit(cache=True, nogil=True)
def _acceptable(st: np.ndarray, loc: int, color: int, buf: np.ndarray) -> bool:
    """Legal, no own eye filled, and no group of two or more stones left in atari."""
    if st[COLOR, loc] != EMPTY or is_eye_like(st, loc, color):
        return False
    if legality(st, loc, color, False) != LEGAL:
        return False
    return not (joins_own(st, loc, color) and liberties_after(st, loc, color, buf) < 2)


@njit(cache=True, nogil=True)
def add_new(cands: np.ndarray, n: int, loc: int) -> int:
    """Append `loc` to `cands[:n]` unless it is there already; the new length."""
    for i in range(n):
        if cands[i] == loc:
            return n
    cands[n] = loc
    return n + 1


@njit(cache=True, nogil=True)
def urgent_moves(
    st: np.ndarray, color: int, last: int, cands: np.ndarray, buf: np.ndarray, stones: np.ndarray
) -> int:
    """Moves answering the last move: take its chain in atari, or save an own chain next to
    it from atari (capture an attacker, or extend when that gives two liberties)."""
    n = 0
    if last <= 0 or st[COLOR, last] == EMPTY:
        return 0
    opp = 3 - color
    s = int(np.int64(st[HDR, H_STRIDE]))
    if st[COLOR, last] == opp and st[LIBS, st[HEAD, last]] == 1:
        chain_liberties(st, last, buf)
        n = add_new(cands, n, buf[0])
    for off in (-s, -1, 1, s):
        a = last + off
        if st[COLOR, a] != color or st[LIBS, st[HEAD, a]] != 1:
            continue
        size = chain_stones(st, a, stones)
        for i in range(size):
            for off2 in (-s, -1, 1, s):
                b = stones[i] + off2
                if st[COLOR, b] == opp and st[LIBS, st[HEAD, b]] == 1:
                    chain_liberties(st, b, buf)
                    n = add_new(cands, n, buf[0])
        chain_liberties(st, a, buf)
        lib = buf[0]
        if liberties_after(st, lib, color, buf) >= 2:
            n = add_new(cands, n, lib)
    return n


@njit(cache=True, nogil=True)
def _shapes(st: np.ndarray, table: np.ndarray, last: int, cands: np.ndarray) -> int:
    """Empty points next to the last move whose 3x3 neighbourhood is a good shape."""
    if last <= 0:
        return 0
    s = int(np.int64(st[HDR, H_STRIDE]))
    n = 0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            a = last + dy * s + dx
            if st[COLOR, a] == EMPTY and table[neighbourhood_code(st, a)]:
                cands[n] = a
                n += 1
    return n


@njit(cache=True, nogil=True)
def _pick(
    st: np.ndarray, color: int, cands: np.ndarray, n: int, rng: np.ndarray, buf: np.ndarray
) -> int:
    """A random acceptable move among `cands[:n]`, or 0."""
    while n > 0:
        i = _below(rng, n)
        loc = cands[i]
        if _acceptable(st, loc, color, buf):
            return int(loc)
        n -= 1
        cands[i] = cands[n]
    return 0


@njit(cache=True, nogil=True)
def playout_move(
    st: np.ndarray,
    table: np.ndarray,
    color: int,
    last: int,
    rng: np.ndarray,
    cands: np.ndarray,
    buf: np.ndarray,
    stones: np.ndarray,
) -> int:
    """The playout's move for `color` after `last` (a location; 0 pass): urgent, then shape,
    then random; 0 when it should pass."""
    n = urgent_moves(st, color, last, cands, buf, stones)
    loc = _pick(st, color, cands, n, rng, buf)
    if loc:
        return loc
    n = _shapes(st, table, last, cands)
    loc = _pick(st, color, cands, n, rng, buf)
    if loc:
        return loc
    k = st[HDR, H_NEMPTY]
    while k > 0:
        i = _below(rng, k)
        loc = st[EMPTIES, i]
        if _acceptable(st, loc, color, buf):
            return int(loc)
        k -= 1
        set_aside(st, i, k)  # the refused point leaves the live range
    return 0


@njit(cache=True, nogil=True)
def ownership(
    st: np.ndarray,
    zh: np.ndarray,
    table: np.ndarray,
    to_play: int,
    playouts: int,
    max_moves: int,
    rng: np.ndarray,
    out: np.ndarray,
) -> None:
    """Add to `out[loc]` the share of `playouts` games played with `playout_move` from this
    position (left unchanged) that end with `loc` black (+1) or white (-1).

    A point counts for a colour by the area rule (`core.area`): its stone, or an empty point
    that reaches that colour's stones only.
    """
    cells = st.shape[1]
    work_st = np.empty_like(st)
    work_zh = np.empty_like(zh)
    cands = np.empty(16, np.int64)
    buf = np.empty(cells, np.int32)
    stones = np.empty(cells, np.int32)
    owner = np.empty(cells, np.int32)
    label = np.empty(cells, np.int32)
    reach = np.empty(cells, np.int32)
    weight = 1.0 / playouts
    for _ in range(playouts):
        work_st[:, :] = st
        work_zh[:] = zh
        color, last, passes, moves = to_play, 0, 0, 0
        while passes < 2 and moves < max_moves:
            loc = playout_move(work_st, table, color, last, rng, cands, buf, stones)
            if loc:
                play(work_st, work_zh, loc, color)
                passes = 0
            else:
                play_pass(work_st)
                passes += 1
            last = loc
            color = 3 - color
            moves += 1
        owners(work_st, owner, label, reach)
        for loc in range(cells):
            if owner[loc] == BLACK:
                out[loc] += weight
            elif owner[loc] == WHITE:
                out[loc] -= weight


@njit(cache=True)
def seed_rng(seed: int) -> np.ndarray:
    """A nonzero xorshift64 state from any integer seed (splitmix64 scrambles it)."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    rng = np.empty(1, np.uint64)
    rng[0] = z if z != np.uint64(0) else np.uint64(1)
    return rng


@njit(cache=True, inline="always")
def xorshift(rng: np.ndarray) -> np.uint64:
    """The next number of the xorshift64 stream in `rng[0]` (nonzero), advancing it."""
    x: np.uint64 = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return x


@njit(cache=True)
def uniform_playout(
    st: np.ndarray, zh: np.ndarray, to_play: int, max_moves: int, rng: np.ndarray
) -> int:
    """Play uniformly random moves until two passes in a row or `max_moves`; return the
    moves played (the plain playout of `Board.playout`, the batch and the benchmarks).

    Each move is uniform among the legal points (simple ko, no suicide) that do not fill the
    mover's own eye; with none, the mover passes. `rng` holds a nonzero xorshift64 state.
    """
    color = to_play
    passes = 0
    moves = 0
    while passes < 2 and moves < max_moves:
        k = st[HDR, H_NEMPTY]
        played = False
        while k > 0:
            i = np.int64(xorshift(rng) % np.uint64(k))
            loc = st[EMPTIES, i]
            if not is_eye_like(st, loc, color) and legality(st, loc, color, False) == LEGAL:
                play(st, zh, loc, color)
                played = True
                break
            k -= 1
            set_aside(st, int(i), k)
        if played:
            passes = 0
        else:
            play_pass(st)
            passes += 1
        moves += 1
        color = 3 - color
    return moves
