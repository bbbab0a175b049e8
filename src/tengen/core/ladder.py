"""Ladder reading: is a chain captured by an unbroken run of ataris?

A ladder, as read here: the attacker gives atari with every move; the chain in atari may
extend at its liberty or capture any attacker chain in atari next to it (the counter-capture
that ladder breakers and loose attacking stones allow). The chain is captured when every
defence ends with it in atari again and no way out, and escapes when a defence gives it three
liberties (or the attacker has no legal atari left). Edges, breakers and simple ko come with
the rules (`core.kernels`); superko is not seen.

The reading plays and takes back moves on the caller's arrays (`kernels.play`,
`rebuild.undo`), leaving the position as it was (chain heads and the order of the empty
points may differ, as after any undo). It stops after `MAX_PLAYS` moves or `MAX_DEPTH` plies
and then answers "not captured": a claim of capture is always one read to the end. Used by
the search's prior (`tengen.ai.policy`); the playouts do not read ladders, which cost
them 18-28% of their speed when tried (bench/STRENGTH.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.kernels import LEGAL, chain_liberties, chain_stones, legality, play
from tengen.core.layout import COLOR, EMPTY, H_STRIDE, HDR, HEAD, LIBS, SIZE
from tengen.core.playout import add_new
from tengen.core.rebuild import undo

MAX_PLAYS = 400  # moves tried in one read, both sides: a long ladder needs about 2 a line
MAX_DEPTH = 160  # plies: a ladder across a 25x25 board and back is shorter than this
MAX_DEFENCES = 16  # a defender's moves considered at one ply (its liberty and captures)

# Strides are read as int64 (`int(np.int64(...))`: numba keeps int32 through a bare int()),
# so that (-s, -1, 1, s) is a tuple of one type, which numba can iterate.


@njit(cache=True, nogil=True)
def ladder_captured(st: np.ndarray, zh: np.ndarray, stone: int) -> bool:
    """Whether the chain at `stone`, in atari with its owner to move, is captured in a ladder
    (every escape or counter-capture is met by atari until it dies)."""
    return st[LIBS, st[HEAD, stone]] == 1 and _read(st, zh, stone, True)


@njit(cache=True, nogil=True)
def ladder_works(st: np.ndarray, zh: np.ndarray, stone: int) -> bool:
    """Whether the chain at `stone`, with two liberties and its opponent to move, can be
    captured in a ladder: an atari on one of its liberties that `ladder_captured` holds."""
    return st[LIBS, st[HEAD, stone]] == 2 and _read(st, zh, stone, False)


@njit(cache=True, nogil=True)
def extends_into_ladder(st: np.ndarray, zh: np.ndarray, loc: int, color: int) -> bool:
    """Whether a stone of `color` at `loc` (legal or not) leaves its chain with two liberties
    and caught in a ladder: running from atari there only makes a bigger chain to lose."""
    if not _two_liberties_after(st, loc, color) or legality(st, loc, color, False) != LEGAL:
        return False
    before = zh[0]
    rec, order = play(st, zh, loc, color)
    caught = ladder_works(st, zh, loc)
    undo(st, zh, int(rec), order, before)
    return caught


@njit(cache=True, nogil=True)
def _two_liberties_after(st: np.ndarray, loc: int, color: int) -> bool:
    """Whether a stone of `color` at empty `loc` would make a chain of exactly two liberties
    and capture nothing: the cheap test that spares most escapes the play and undo of a read."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    found = np.empty(3, np.int64)
    n = 0
    lib = np.empty(st.shape[1], np.int32)
    for off in (-s, -1, 1, s):
        a = loc + off
        v = st[COLOR, a]
        if v == EMPTY:
            n = add_new(found, n, a)
        elif v == 3 - color and st[LIBS, st[HEAD, a]] == 1:
            return False
        elif v == color:
            if st[LIBS, st[HEAD, a]] >= 4:
                return False
            k = chain_liberties(st, a, lib)
            for i in range(k):
                if lib[i] != loc:
                    n = add_new(found, n, lib[i])
                    if n == 3:
                        return False
        if n == 3:
            return False
    return n == 2


@njit(cache=True, nogil=True)
def ladder_atari(st: np.ndarray, zh: np.ndarray, loc: int, color: int) -> int:
    """The size of an opponent chain beside `loc` (with two liberties) that a stone of `color`
    there (legal or not) puts in atari and captures in a ladder; 0 if none."""
    if legality(st, loc, color, False) != LEGAL:
        return 0
    s = int(np.int64(st[HDR, H_STRIDE]))
    heads = np.zeros(4, np.int64)
    n = 0
    for off in (-s, -1, 1, s):
        a = loc + off
        if st[COLOR, a] == 3 - color and st[LIBS, st[HEAD, a]] == 2:
            heads[n] = a
            n += 1
    if n == 0:
        return 0
    before = zh[0]
    rec, order = play(st, zh, loc, color)
    taken = 0
    for i in range(n):
        a = heads[i]
        if st[COLOR, a] == 3 - color and ladder_captured(st, zh, a):
            taken = st[SIZE, st[HEAD, a]]
            break  # one chain is enough to know the atari works
    undo(st, zh, int(rec), order, before)
    return taken


@njit(cache=True, nogil=True)
def _read(st: np.ndarray, zh: np.ndarray, stone: int, defending: bool) -> bool:
    """The ladder's depth-first search from the defender's turn (`defending`: the chain has
    one liberty) or the attacker's (two); True when the chain is captured. A loop over an
    explicit stack of plies, as numba cannot cache a recursive function (numba issue 6061)."""
    cells = st.shape[1]
    moves = np.empty((MAX_DEPTH, MAX_DEFENCES), np.int64)
    count = np.empty(MAX_DEPTH, np.int64)
    tried = np.zeros(MAX_DEPTH, np.int64)
    recs = np.empty(MAX_DEPTH, np.int64)
    orders = np.empty(MAX_DEPTH, np.int64)
    hashes = np.empty(MAX_DEPTH, np.int64)
    stones = np.empty(cells, np.int32)
    lib = np.empty(cells, np.int32)
    count[0] = _tries(st, stone, defending, moves[0], stones, lib)
    depth = 0
    plays = 0
    while True:
        mover_defends = (depth % 2 == 0) == defending
        result = -1  # this ply's answer once known: 1 captured, 0 not
        while tried[depth] < count[depth]:
            loc = moves[depth, tried[depth]]
            tried[depth] += 1
            color = st[COLOR, stone]
            mover = color if mover_defends else 3 - color
            if legality(st, loc, mover, False) != LEGAL:
                continue
            if plays == MAX_PLAYS:
                _unwind(st, zh, recs, orders, hashes, depth)
                return False
            plays += 1
            hashes[depth] = zh[0]
            recs[depth], orders[depth] = play(st, zh, loc, mover)
            libs = st[LIBS, st[HEAD, stone]]
            deeper = libs == 2 if mover_defends else libs == 1
            if deeper and depth + 1 < MAX_DEPTH:
                depth += 1
                count[depth] = _tries(st, stone, not mover_defends, moves[depth], stones, lib)
                tried[depth] = 0
                break
            captured = mover_defends and libs == 1 and _takeable(st, stone, lib)
            undo(st, zh, recs[depth], orders[depth], hashes[depth])
            # An escape settles the defender's ply, a capture the attacker's.
            if captured != mover_defends:
                result = int(captured)
                break
        else:
            result = int(mover_defends)  # every try failed
        if result < 0:
            continue  # a ply deeper was opened
        while True:  # hand the answer up until a ply it does not settle
            if depth == 0:
                return result == 1
            depth -= 1
            undo(st, zh, recs[depth], orders[depth], hashes[depth])
            if (result == 1) == ((depth % 2 == 0) == defending):
                break  # the parent's try failed: it goes on with its next one


@njit(cache=True, nogil=True)
def _tries(
    st: np.ndarray,
    stone: int,
    defending: bool,
    out: np.ndarray,
    stones: np.ndarray,
    lib: np.ndarray,
) -> int:
    """Write into `out` the moves of one ply for the chain at `stone`: the defender's
    (`_defences`) or the attacker's (`_ataris`); return how many."""
    if defending:
        return _defences(st, stone, out, stones, lib)
    return _ataris(st, stone, out, lib)


@njit(cache=True, nogil=True)
def _ataris(st: np.ndarray, stone: int, out: np.ndarray, lib: np.ndarray) -> int:
    """Write into `out` the attacker's tries on the chain at `stone` (two liberties): each
    liberty, unless the defender's extension at the other has three open sides and so
    escapes for sure; the one leaving that extension fewer open sides first. Return how many."""
    chain_liberties(st, stone, lib)
    a, b = int(lib[0]), int(lib[1])
    open_a, open_b = _open_sides(st, a, b), _open_sides(st, b, a)
    if open_a < open_b:
        a, b, open_a, open_b = b, a, open_b, open_a
    n = 0
    if open_b < 3:  # the attacker at a, the defender extends at b
        out[n] = a
        n += 1
    if open_a < 3:
        out[n] = b
        n += 1
    return n


@njit(cache=True, nogil=True)
def _open_sides(st: np.ndarray, loc: int, other: int) -> int:
    """The empty neighbours of `loc` other than `other`."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    n = 0
    for off in (-s, -1, 1, s):
        a = loc + off
        if a != other and st[COLOR, a] == EMPTY:
            n += 1
    return n


@njit(cache=True, nogil=True)
def _takeable(st: np.ndarray, stone: int, lib: np.ndarray) -> bool:
    """Whether the opponent may play the last liberty of the chain at `stone` (not if simple
    ko forbids it)."""
    chain_liberties(st, stone, lib)
    return legality(st, lib[0], 3 - st[COLOR, stone], False) == LEGAL


@njit(cache=True, nogil=True)
def _unwind(
    st: np.ndarray,
    zh: np.ndarray,
    recs: np.ndarray,
    orders: np.ndarray,
    hashes: np.ndarray,
    depth: int,
) -> None:
    """Take back the moves of plies `depth - 1` down to 0, newest first."""
    for d in range(depth - 1, -1, -1):
        undo(st, zh, recs[d], orders[d], hashes[d])


@njit(cache=True, nogil=True)
def _defences(
    st: np.ndarray, stone: int, moves: np.ndarray, stones: np.ndarray, lib: np.ndarray
) -> int:
    """Write into `moves` the defender's tries for the chain at `stone` (in atari): capturing
    each attacker chain in atari next to it, then extending at its liberty; return how many."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    color = st[COLOR, stone]
    n = 0
    size = chain_stones(st, stone, stones)
    for i in range(size):
        for off in (-s, -1, 1, s):
            a = stones[i] + off
            if st[COLOR, a] == 3 - color and st[LIBS, st[HEAD, a]] == 1 and n < MAX_DEFENCES - 1:
                chain_liberties(st, a, lib)
                n = add_new(moves, n, lib[0])
    chain_liberties(st, stone, lib)
    return add_new(moves, n, lib[0])
