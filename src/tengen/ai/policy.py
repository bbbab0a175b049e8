"""Go for the search: candidate moves with prior knowledge, moves in the tree, heavy playouts.

These are the three compiled operations of `tengen.ai.protocol` for Go. Every rule (legality,
capture, simple ko, eyes) is a call to `tengen.core.kernels`, and which move a playout prefers
is `tengen.core.playout`'s (shared with the dead-stone estimate); what this module adds is
how much the tree trusts a move before searching it.

The game state is the kernels' ``st``/``zh`` pair plus ``meta`` (the slots below). Superko is
not seen here: the root's moves come from `Game.legal_moves`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.area import owners
from tengen.core.kernels import LEGAL, is_eye_like, legality, play, play_pass
from tengen.core.ladder import extends_into_ladder, ladder_atari
from tengen.core.layout import (
    BLACK,
    COLOR,
    EMPTY,
    H_HEIGHT,
    H_STRIDE,
    H_WIDTH,
    HDR,
    HEAD,
    LIBS,
    SIZE,
    WHITE,
)
from tengen.core.playout import (
    joins_own,
    liberties_after,
    neighbourhood_code,
    playout_move,
    urgent_moves,
)

# Strides are read as int64 (`int(np.int64(...))`: numba keeps int32 through a bare int()),
# so that (-s, -1, 1, s) is a tuple of one type, which numba can iterate.

# Slots of the int64 `meta` array (slot 0 is the protocol's: the player to move).
TO_PLAY, PASSES, LAST, KOMI2, MAX_MOVES = 0, 1, 2, 3, 4
META_SLOTS = 5

# Prior knowledge as (virtual visits, virtual wins) added to a new child.
_EVEN = (10.0, 5.0)
DEAD_LADDER = 40.0  # virtual losses of an escape from atari that runs into a working ladder
BIG_BOARD = 13  # from this size on, open areas get the opening's prior (`_open_area`)
OPENING_VISITS = 200.0  # the weight of that prior: as many virtual visits as a search gives a move
OPENING_AMAF = 5.0  # and in the AMAF rate, which the RAVE blend trusts most while visits are few
CORNER = 5  # a corner: its first five lines from both edges


@njit(cache=True, nogil=True)
def area_margin(st: np.ndarray, komi2: int, own: np.ndarray) -> float:
    """Black's area score minus White's minus komi (`core.area`'s count), on a board played
    out; adds +1/-1 per point owned to `own`."""
    cells = st.shape[1]
    owner = np.empty(cells, np.int32)
    margin = owners(st, owner, np.empty(cells, np.int32), np.empty(cells, np.int32))
    for loc in range(cells):
        if owner[loc] == BLACK:
            own[loc] += 1.0
        elif owner[loc] == WHITE:
            own[loc] -= 1.0
    return margin - komi2 / 2.0


@njit(cache=True, nogil=True)
def go_play(st: np.ndarray, zh: np.ndarray, meta: np.ndarray, move: int) -> None:
    """Play `move` (a location; 0 passes) for the player to move and pass the turn."""
    color = meta[TO_PLAY]
    if move == 0:
        play_pass(st)
        meta[PASSES] += 1
    else:
        play(st, zh, move, color)
        meta[PASSES] = 0
    meta[LAST] = move
    meta[TO_PLAY] = 3 - color


@njit(cache=True, nogil=True)
def go_rollout(
    st: np.ndarray,
    zh: np.ndarray,
    meta: np.ndarray,
    table: np.ndarray,
    rng: np.ndarray,
    amaf: np.ndarray,
    own: np.ndarray,
) -> float:
    """Play the game out with the playout policy; Black's area margin. Marks in `amaf` the
    colour that first played each point and adds the final owners to `own`.

    Two passes in a row within the tree do not end it: the playout still runs, so dead
    stones are taken off as a count with dead-stone removal would."""
    cells = st.shape[1]
    cands = np.empty(16, np.int64)
    buf = np.empty(cells, np.int32)
    stones = np.empty(cells, np.int32)
    color = meta[TO_PLAY]
    last = meta[LAST]
    passes = 0
    limit = meta[MAX_MOVES]
    moves = 0
    while passes < 2 and moves < limit:
        loc = playout_move(st, table, color, last, rng, cands, buf, stones)
        if loc:
            play(st, zh, loc, color)
            if amaf[loc] == 0:
                amaf[loc] = color
            passes = 0
        else:
            play_pass(st)
            passes += 1
        last = loc
        color = 3 - color
        moves += 1
    return area_margin(st, meta[KOMI2], own)


@njit(cache=True, nogil=True)
def _open_area(st: np.ndarray, loc: int, color: int) -> tuple[float, float, float]:
    """The prior of a move with no stone within two points, as virtual visits, virtual wins
    and the factor by which they count as virtual AMAF results too. Small boards get a nudge off the
    first two lines. On big boards the playouts cannot tell opening moves apart (every win
    rate within noise of the others), so the prior steers the search as an opening's
    principles would: the third and fourth lines, first in the corners, far more than the
    first two lines or the centre."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    h = int(st[HDR, H_HEIGHT])
    w = int(st[HDR, H_WIDTH])
    r = loc // s - 1
    c = loc % s - 1
    dr = min(r, h - 1 - r)
    dc = min(c, w - 1 - c)
    line = min(dr, dc)
    if min(h, w) < BIG_BOARD:
        if line == 0:
            return 20.0, 0.0, 0.0
        if line == 1:
            return 10.0, 2.0, 0.0
        if line == 2:
            return 10.0, 8.0, 0.0
        return 0.0, 0.0, 0.0
    if line == 0:
        rate = 0.1
    elif line == 1:
        rate = 0.25
    elif line <= 3:
        rate = (
            0.65 if max(dr, dc) >= CORNER else 0.45 if _under_own(st, r, c, h, w, color) else 0.75
        )
    elif line == 4:
        rate = 0.45
    else:
        rate = 0.4
    return OPENING_VISITS, OPENING_VISITS * rate, OPENING_AMAF


@njit(cache=True, nogil=True)
def _under_own(st: np.ndarray, r: int, c: int, h: int, w: int, color: int) -> bool:
    """Whether a stone of `color` in the corner nearest (r, c) (its first `CORNER` lines from
    both edges) stands at least as far from both of its edges: a move there would play under
    the player's own corner stone (C3 below E4), the shape the corner's prior must not pay
    for, while an enclosure (C5 beside D3) stays a corner move."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    dr = min(r, h - 1 - r)
    dc = min(c, w - 1 - c)
    top = 0 if r < h - 1 - r else h - CORNER
    left = 0 if c < w - 1 - c else w - CORNER
    for y in range(top, top + CORNER):
        for x in range(left, left + CORNER):
            own = st[COLOR, (y + 1) * s + x + 1] == color
            if own and min(y, h - 1 - y) >= dr and min(x, w - 1 - x) >= dc:
                return True
    return False


@njit(cache=True, nogil=True)
def _stones_near(st: np.ndarray, loc: int, radius: int) -> bool:
    """Whether a stone lies within Manhattan distance `radius`."""
    s = int(np.int64(st[HDR, H_STRIDE]))
    for dy in range(-radius, radius + 1):
        span = radius - abs(dy)
        for dx in range(-span, span + 1):
            a = loc + dy * s + dx
            if 0 <= a < st.shape[1]:
                v = st[COLOR, a]
                if v == 1 or v == 2:
                    return True
    return False


@njit(cache=True, nogil=True)
def _ladder_prior(taken: int) -> float:
    """The virtual wins (as many visits) of an atari that captures `taken` stones in a
    ladder: as much as a capture of that many."""
    return 0.0 if taken == 0 else 10.0 + 5.0 * min(taken, 4)


@njit(cache=True, nogil=True)
def go_candidates(
    st: np.ndarray,
    zh: np.ndarray,
    meta: np.ndarray,
    table: np.ndarray,
    moves: np.ndarray,
    prior_n: np.ndarray,
    prior_w: np.ndarray,
    amaf_n: np.ndarray,
    amaf_w: np.ndarray,
) -> int:
    """The moves the tree considers (every legal point but own eyes, then pass) with prior
    knowledge as virtual visits and wins: captures, ataris that capture in a ladder, atari
    escapes and shapes near the last move are trusted; groups put into atari, escapes that
    run into a working ladder (`core.ladder`) and empty-area first-line moves are not."""
    color = meta[TO_PLAY]
    opp = 3 - color
    last = meta[LAST]
    s = int(np.int64(st[HDR, H_STRIDE]))
    cells = st.shape[1]
    buf = np.empty(cells, np.int32)
    stones = np.empty(cells, np.int32)
    cands = np.empty(16, np.int64)
    urgent = urgent_moves(st, color, last, cands, buf, stones)
    n = 0
    for loc in range(cells):
        if st[COLOR, loc] != EMPTY or is_eye_like(st, loc, color):
            continue
        if legality(st, loc, color, False) != LEGAL:
            continue
        pn, pw = _EVEN
        an = aw = 0.0
        libs = liberties_after(st, loc, color, buf)
        captures = 0
        saves = False
        for off in (-s, -1, 1, s):
            a = loc + off
            v = st[COLOR, a]
            if v == opp and st[LIBS, st[HEAD, a]] == 1:
                captures += st[SIZE, st[HEAD, a]]
            elif v == color and st[LIBS, st[HEAD, a]] == 1:
                saves = True
        if libs < 2 and captures == 0:
            if joins_own(st, loc, color):
                pn += 30.0
            else:
                pn += 10.0
                pw += 1.0
        if captures > 0:
            w = 10.0 + 5.0 * min(captures, 4)
            pn += w
            pw += w
        running = saves and captures == 0 and libs >= 2 and extends_into_ladder(st, zh, loc, color)
        if running:
            pn += DEAD_LADDER
        elif saves and libs >= 2:
            pn += 15.0
            pw += 15.0
        if captures == 0 and libs >= 2:
            w = _ladder_prior(ladder_atari(st, zh, loc, color))
            pn += w
            pw += w
        for i in range(urgent):
            if cands[i] == loc and not running:  # the playouts do not read ladders
                pn += 10.0
                pw += 10.0
        near = last > 0 and abs(loc // s - last // s) <= 1 and abs(loc % s - last % s) <= 1
        if near and table[neighbourhood_code(st, loc)]:
            pn += 10.0
            pw += 10.0
        if not _stones_near(st, loc, 2):
            on, ow, amaf = _open_area(st, loc, color)
            pn += on
            pw += ow
            an, aw = amaf * on, amaf * ow
        moves[n] = loc
        prior_n[n] = pn
        prior_w[n] = pw
        amaf_n[n] = an
        amaf_w[n] = aw
        n += 1
    moves[n] = 0
    prior_n[n] = 30.0 if meta[PASSES] == 0 else 10.0
    prior_w[n] = 3.0 if meta[PASSES] == 0 else 5.0
    amaf_n[n] = amaf_w[n] = 0.0
    return n + 1
