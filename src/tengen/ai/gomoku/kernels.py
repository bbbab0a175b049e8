"""The Gomoku player's board as compiled kernels: line patterns kept up to date stone by stone.

State (numpy arrays; ``n`` = width * height points, point ``row * width + col``; colour index
``c`` is 0 for Black, 1 for White; a cell holds 0, 1 (Black) or 2 (White))::

    cells[n]        int8   the stones
    nb[n, 4, 8]     int32  each point's neighbours along the four lines, 4 before then 4
                           after (nearest last before, nearest first after), -1 off the board
    tbl[2, 3**8]    int8   the pattern of a line's key for each colour (`patterns.table`)
    worth[4, C**4]  int32  the worth of four patterns: in the move order, in the evaluation, and
                           as the own and the opponent's shape in the order's second look
                           (`refine`)
    kind[C**4]      int8   their threat class (`patterns.combos`; C = `patterns.CLASSES`)
    key[n, 4]       int32  the line keys, both colours' in one word (Black's in the low 16
                           bits, White's above; digit 0 empty, 1 own, 2 opponent or edge),
                           so that a stone changes a line with one addition (`_STEP`)
    pat[2, n, 4]    int8   their patterns
    code[2, n]      int16  a point's four patterns as one number (`_code`), the index of
                           `worth` and `kind`, kept as its patterns change
    val[2, n]       int32  a point's worth to each colour in the move order (`worth` row 0)
    kd[2, n]        int8   the threat class a move there makes for each colour
                           (`pat`, `code`, `val` and `kd` are kept for the empty points only)
    total[2]        int64  the empty points' worth in the evaluation (`worth` row 1), summed:
                           the evaluation's terms
    tally[2, 8]     int32  how many empty points make each threat class (0 .. `patterns.WIN`)
                           for each colour; column 7 is the sum of the five-points' numbers,
                           so a lone five-point is known without a scan
    near[n]         int16  stones within two rows and columns (the move generator's area)
    sq[n, 24]       int32  those 24 points, -1 off the board

`place` and `remove` change only the 32 keys a stone touches (a digit each), so a move costs a
few hundred operations and a node's threat summary (`state.survey`) a dozen; `fresh` computes
the same from the stones alone, which the property tests hold the incremental state to. The
two colours' keys of a line share a word, not one key in base 4 (edge, Black, White, empty):
the pattern table stays one colour's 3**8 entries, in the processor's first cache, where 4**8
entries were not. The word and `code` (no recombining of four patterns when one changes) make
the search's nodes some 1.2x as fast (bench/STRENGTH.md).
Python calls these through `tengen.core.jit.live`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.ai.gomoku.patterns import CLASSES, FIVE, HALF, ORDER_SCALE, POOL, POWERS, TIER, WIN
from tengen.core.jit import lean
from tengen.core.refs import deref

SUM = 7  # `tally`'s column of the five-points' sum

_SHIFT = 16  # White's key above Black's in a line's word
# What a cell adds to a line's word at each of the eight places, by what it holds: [0 empty,
# 1 Black, 2 White, 3 the edge (the opponent of both), place]
_STEP = np.array(
    [[(black * p) | (white * p) << _SHIFT for p in POWERS]
     for black, white in ((0, 0), (1, 2), (2, 1), (2, 2))],
    dtype=np.int32,
)  # fmt: skip
_DIGIT = np.array([CLASSES**d for d in range(4)], dtype=np.int64)  # a line's digit in `_code`
_TIER = np.array(TIER, dtype=np.int64)
# The place term of `refine`: the k-th point of `rank_key`'s order ranks ln(1 + k) below the
# first, in the shape worths' units (the form bench/gomoku_order_fit.py fits them in).
_PLACE = np.array([round(ORDER_SCALE * np.log1p(k)) for k in range(POOL)], dtype=np.int64)


@njit(cache=True, inline="always")
def _code(pat, c, j):  # type: ignore[no-untyped-def]
    """Point `j`'s four patterns for colour `c` as one number (base `CLASSES`), the index of
    `worth` and `kind`. Each pattern is read as a Python int: `pat` is int8, and the interpreted
    twin (`core.jit`) would compute ``CLASSES**3 * pat[...]`` in int8 and fail."""
    return (
        int(pat[c, j, 0])
        + CLASSES * int(pat[c, j, 1])
        + CLASSES * CLASSES * int(pat[c, j, 2])
        + CLASSES * CLASSES * CLASSES * int(pat[c, j, 3])
    )


@njit(cache=True, inline="always")
def _line(word, c):  # type: ignore[no-untyped-def]
    """Colour `c`'s key of a line from its word in `key`, unsigned: an index of `tbl` that
    numba does not test for wrapping (< 0)."""
    return np.uint64((word >> (_SHIFT * c)) & 0xFFFF)


@njit(cache=True)
def fresh(cells, nb, tbl, worth, kind, key, pat, code, val, kd, total, tally, near, sq):  # type: ignore[no-untyped-def]
    """Compute every key, pattern, worth and the totals from the stones alone."""
    n = cells.shape[0]
    total[0] = 0
    total[1] = 0
    tally[:, :] = 0
    for j in range(n):
        near[j] = 0
        for k in range(24):
            q = sq[j, k]
            if q >= 0 and cells[q] != 0:
                near[j] += 1
        for d in range(4):
            word = 0
            for k in range(2 * HALF):
                q = nb[j, d, k]
                word += _STEP[3 if q < 0 else cells[q], k]
            key[j, d] = word
            for c in range(2):
                pat[c, j, d] = tbl[c, _line(word, c)]
        for c in range(2):
            combined = _code(pat, c, j)
            code[c, j] = combined
            val[c, j] = worth[0, combined]
            kd[c, j] = kind[combined]
            if cells[j] == 0:
                total[c] += worth[1, combined]
                _count(tally, c, j, kd[c, j], 1)


@lean
def place(i, stone, board):  # type: ignore[no-untyped-def]
    """Put a `stone` (1 Black, 2 White) on the empty point `i` of `board` (a named tuple of
    the arrays above, such as `ai.gomoku.state.State`, or a pointer to one: `core.refs`)."""
    _move(i, stone, 1, board)


@lean
def remove(i, board):  # type: ignore[no-untyped-def]
    """Take the stone off point `i` of `board` (as in `place`)."""
    _move(i, deref(board).cells[i], -1, board)


@lean
def _move(i, stone, sign, board):  # type: ignore[no-untyped-def]
    """Add (`sign` 1) or take away (-1) a `stone` on `i`, updating what it touches. The
    patterns, code, worth and class of an occupied point are left as they were (nothing reads
    them); a point's are made anew from its keys when its stone is taken off."""
    b = deref(board)
    cells, nb, tbl, worth, kind, key, pat = b.cells, b.nb, b.tbl, b.worth, b.kind, b.key, b.pat
    code, val, kd, total, tally, near, sq = b.code, b.val, b.kd, b.total, b.tally, b.near, b.sq
    if sign > 0:
        cells[i] = stone
    else:
        cells[i] = 0
        for c in range(2):
            for d in range(4):
                pat[c, i, d] = tbl[c, _line(key[i, d], c)]
            combined = _code(pat, c, i)
            code[c, i] = combined
            val[c, i] = worth[0, combined]
            kd[c, i] = kind[combined]
    total[0] -= sign * worth[1, code[0, i]]
    total[1] -= sign * worth[1, code[1, i]]
    _count(tally, 0, i, kd[0, i], -sign)
    _count(tally, 1, i, kd[1, i], -sign)
    for k in range(24):
        q = sq[i, k]
        if q >= 0:
            near[q] += sign
    for d in range(4):
        for k in range(2 * HALF):
            j = nb[i, d, k]
            if j < 0:
                continue
            u = np.uint64(j)  # unsigned indices: numba tests a signed one for wrapping (< 0)
            place_at = 2 * HALF - 1 - k  # where `i` sits among `j`'s neighbours
            key[u, d] += sign * _STEP[stone, place_at]
            if cells[u] != 0:
                continue
            word = key[u, d]
            for c in range(2):
                p = tbl[c, _line(word, c)]
                was = pat[c, u, d]
                if p != was:  # j's line d changed for colour c: its digit of the code moves
                    old = int(code[c, u])  # (inline: a call, passing nine arrays, costs ~6x)
                    pat[c, u, d] = p
                    combined = old + (int(p) - int(was)) * _DIGIT[d]
                    code[c, u] = combined
                    cu, ou = np.uint64(combined), np.uint64(old)
                    new = worth[0, cu]
                    threat = kind[cu]
                    total[c] += worth[1, cu] - worth[1, ou]
                    if threat != kd[c, u]:
                        _count(tally, c, j, kd[c, u], -1)
                        _count(tally, c, j, threat, 1)
                    val[c, u] = new
                    kd[c, u] = threat


@njit(cache=True, inline="always")
def _count(tally, c, j, threat, sign):  # type: ignore[no-untyped-def]
    """Count the empty point `j`, of threat class `threat` for colour `c`, in (`sign` 1) or
    out (-1) of `tally`."""
    tally[c, threat] += sign
    if threat == WIN:
        tally[c, SUM] += sign * j


@lean
def collect(cells, kd, tally, c, least, out):  # type: ignore[no-untyped-def]
    """Write into `out` the empty points where colour `c`'s move makes a threat of class
    `least` or more; return how many. `tally` says how many there are, so the scan stops at
    the last (and does not start when there is none)."""
    want = 0
    for k in range(least, WIN + 1):
        want += tally[c, k]
    count, j, n = 0, 0, cells.shape[0]
    while count < want and j < n:
        if cells[j] == 0 and kd[c, j] >= least:
            out[count] = j
            count += 1
        j += 1
    return count


@njit(cache=True)
def fives_of(cells, pat, c, out):  # type: ignore[no-untyped-def]
    """Write into `out` the empty points where colour `c` makes a five; return how many."""
    count = 0
    for j in range(cells.shape[0]):
        if cells[j] == 0:
            for d in range(4):
                if pat[c, j, d] == FIVE:
                    out[count] = j
                    count += 1
                    break
    return count


@njit(cache=True)
def ranked(cells, near, val, kd, code, worth, c, pool, out):  # type: ignore[no-untyped-def]
    """Write into `out` the empty points near stones, best first for colour `c` (`rank_key`,
    then the first `pool` of them by `refine`); return how many."""
    n = cells.shape[0]
    scores = np.empty(n, dtype=np.int64)
    count = 0
    for j in range(n):
        if cells[j] == 0 and near[j] > 0:
            scores[count] = rank_key(val, kd, c, j)
            out[count] = j
            count += 1
    order = np.argsort(scores[:count], kind="mergesort")
    chosen = out[:count][order].copy()
    out[:count] = chosen
    refine(worth, code, c, out, 0, min(count, pool), scores)
    return count


@njit(cache=True, inline="always")
def refine(worth, code, c, row, start, count, keys):  # type: ignore[no-untyped-def]
    """Re-rank `row[start:start + count]`, points in `rank_key`'s order, for colour `c`: the
    k-th by `_PLACE[k]` less its shape worths for `c` and for the opponent (`worth` rows 2
    and 3, `patterns.order_worths`), smaller first, ties in the order they came; `keys` (as
    long as `row`) takes the new keys. With no shape worths the order is unchanged."""
    for k in range(count):
        m = row[start + k]
        key = _PLACE[k] - int(worth[2, code[c, m]]) - int(worth[3, code[1 - c, m]])
        i = start + k
        while i > start and keys[i - 1] > key:
            keys[i], row[i] = keys[i - 1], row[i - 1]
            i -= 1
        keys[i], row[i] = key, m


@njit(cache=True, inline="always")
def tier(kind):  # type: ignore[no-untyped-def]
    """Where a move of threat class `kind` ranks in the move order (`patterns.TIER`)."""
    return int(_TIER[max(int(kind), 0)])  # ints, not int8: `_code` says why


@njit(cache=True, inline="always")
def rank_key(val, kd, c, j):  # type: ignore[no-untyped-def]
    """How promising the empty point `j` is for colour `c`, smaller first: its own worth there
    plus the opponent's, by the threat classes' tiers first (ties: the lower point first)."""
    mine = tier(kd[c, j])
    theirs = max(int(kd[1 - c, j]), 0)
    top = max(mine, tier(theirs) - 1) if theirs >= 3 else mine
    return -(top * 100_000 + int(val[c, j]) + (int(val[1 - c, j]) * 3) // 4)
