"""Batching glue: compiled loops over the games of a batch, each calling `core.kernels`.

The rules stay in `core.kernels`. A batch holds one kernel state per game, stacked:
``st[g]`` is the same ``(NROWS, cells)`` array a `Board` holds and ``zh[g]`` the same hash and
Zobrist keys, so each loop here picks a game's slice and calls the very kernels the `Board`
calls (`legality`, `hash_after`, `legal_points`, `play`, `play_pass`, `playout`), one game per
iteration of a `prange` loop, in parallel across the machine's cores. What the loops add is the
batch's bookkeeping: whose turn, passes, the end of a game, the public stone arrays, and the
positional-superko history as a per-game hash set (`core.game.Game` keeps the same history in a
Counter).

`area` is the one count here that is not a kernel call: the Tromp-Taylor area of each board
(stones plus empty points that reach only that colour), which `scoring.score_position` counts
in Python for one board; the tests check the two agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tengen.core import hashset
from tengen.core.area import owners
from tengen.core.kernels import LEGAL, hash_after, legal_points, legality, play, play_pass
from tengen.core.layout import BLACK, COLOR, EMPTIES, H_NEMPTY, HDR, WHITE
from tengen.core.playout import seed_rng, uniform_playout

SUPERKO = 4  # legality code beyond the kernels' own: the move repeats an earlier position


@njit(cache=True, inline="always")
def _publish(
    s: np.ndarray,
    locs: np.ndarray,
    stones: np.ndarray,
    past: np.ndarray,
    move_count: int,
) -> None:
    """Copy a game's stones from its kernel state to its public row and its history ring."""
    ring = past[move_count % past.shape[0]]
    for p in range(stones.shape[0]):
        c = s[COLOR, locs[p]]
        stones[p] = c
        ring[p] = c


@njit(cache=True, parallel=True)
def move_codes(
    st: np.ndarray,
    zh: np.ndarray,
    moves: np.ndarray,
    to_play: np.ndarray,
    done: np.ndarray,
    allow_suicide: bool,
    seen: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write each game's legality code for its move (kernel location; 0 passes) into `out`:
    the kernels' LEGAL, OCCUPIED, SUICIDE, KO, or SUPERKO when `seen` (one hash set per game,
    width 0 for simple ko) holds the position the move makes. Passes and finished games: LEGAL.
    """
    for g in prange(st.shape[0]):
        loc = moves[g]
        code = LEGAL
        if not done[g] and loc != 0:
            color = to_play[g]
            code = legality(st[g], loc, color, allow_suicide)
            if (
                code == LEGAL
                and seen.shape[1] > 0
                and hashset.contains(seen[g], hash_after(st[g], zh[g], loc, color))
            ):
                code = SUPERKO
        out[g] = code


@njit(cache=True, parallel=True)
def apply_moves(
    st: np.ndarray,
    zh: np.ndarray,
    moves: np.ndarray,
    to_play: np.ndarray,
    passes: np.ndarray,
    done: np.ndarray,
    move_count: np.ndarray,
    max_moves: int,
    seen: np.ndarray,
    locs: np.ndarray,
    stones: np.ndarray,
    past: np.ndarray,
    past_len: np.ndarray,
) -> None:
    """Play each unfinished game's move (checked by `move_codes`), then turn, passes, end of
    game (two passes in a row or `max_moves`), superko set, stones and history ring."""
    for g in prange(st.shape[0]):
        if done[g]:
            continue
        loc = moves[g]
        if loc == 0:
            play_pass(st[g])
            passes[g] += 1
        else:
            play(st[g], zh[g], loc, to_play[g])
            passes[g] = 0
            if seen.shape[1] > 0:
                hashset.add(seen[g], zh[g, 0])
        to_play[g] = 3 - to_play[g]
        move_count[g] += 1
        done[g] = passes[g] >= 2 or move_count[g] >= max_moves
        _publish(st[g], locs, stones[g], past[g], move_count[g])
        past_len[g] = min(past_len[g] + 1, past.shape[1])


@njit(cache=True, parallel=True)
def legal_masks(
    st: np.ndarray,
    zh: np.ndarray,
    to_play: np.ndarray,
    done: np.ndarray,
    allow_suicide: bool,
    seen: np.ndarray,
    point_of: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill `out` (games, points + 1) with the moves each game's player may make: the points
    the kernels allow, less superko repeats when `seen` has width; the last column, pass, is
    always set. `point_of` maps a kernel location to its point index."""
    n_points = out.shape[1] - 1
    for g in prange(st.shape[0]):
        row = out[g]
        row[:] = False
        row[n_points] = True
        if done[g]:
            continue
        s = st[g]
        color = to_play[g]
        if seen.shape[1] > 0:
            found = np.empty(s.shape[1], np.int32)
            hashes = np.empty(s.shape[1], np.int64)
            n = legal_points(s, zh[g], color, allow_suicide, False, found, hashes)
            for i in range(n):
                if not hashset.contains(seen[g], hashes[i]):
                    row[point_of[found[i]]] = True
        else:
            for i in range(s[HDR, H_NEMPTY]):
                loc = s[EMPTIES, i]
                if legality(s, loc, color, allow_suicide) == LEGAL:
                    row[point_of[loc]] = True


@njit(cache=True, parallel=True)
def playouts(
    st: np.ndarray,
    zh: np.ndarray,
    to_play: np.ndarray,
    passes: np.ndarray,
    done: np.ndarray,
    move_count: np.ndarray,
    max_moves: int,
    seed: int,
    locs: np.ndarray,
    stones: np.ndarray,
    past: np.ndarray,
    past_len: np.ndarray,
) -> None:
    """Play every unfinished game to its end with `core.playout.uniform_playout`, game g seeded with
    ``seed_rng(seed + g)`` (the game `Board.playout(seed=seed + g)` plays from the same
    position, whatever the number of threads), within the `max_moves` cap."""
    for g in prange(st.shape[0]):
        if done[g]:
            continue
        limit = max_moves - move_count[g]
        n = uniform_playout(st[g], zh[g], to_play[g], limit, seed_rng(seed + g))
        if n % 2 == 1:
            to_play[g] = 3 - to_play[g]
        move_count[g] += n
        passes[g] = 2 if n < limit else 0
        done[g] = True
        _publish(st[g], locs, stones[g], past[g], move_count[g])
        past_len[g] = 1


@njit(cache=True, parallel=True)
def area(st: np.ndarray, out: np.ndarray) -> None:
    """Write each game's area (`core.area`'s count) into `out` (games, 2): for black then
    white, its stones plus the empty points from which only its stones can be reached."""
    for g in prange(st.shape[0]):
        cells = st.shape[2]
        owner = np.empty(cells, np.int32)
        owners(st[g], owner, np.empty(cells, np.int32), np.empty(cells, np.int32))
        black = 0
        white = 0
        for loc in range(cells):
            if owner[loc] == BLACK:
                black += 1
            elif owner[loc] == WHITE:
                white += 1
        out[g, 0] = black
        out[g, 1] = white
