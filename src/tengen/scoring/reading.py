"""Reading a small fight out: is a chain captured even when its own side moves first?

The playouts (`Board.ownership`) leave some groups in between that a few exact moves decide:
a group in the opponent's corner that a placement kills, a chain racing a weaker one for
liberties. Their policy does not find such moves reliably, and playing more of them does not
help. When the fight is small this search settles it: both players play only on the empty
points of a region (the chain, the empty points and weak stones around it, bounded by strong
stones and the edge), either may pass, two passes in a row end the fight with the chain
standing, and the chain is lost once it is captured. Two of its liberties that touch nothing
but the chain itself are two eyes, and end the fight too, as do `SAFE_LIBERTIES` liberties
(a chain that took a big opponent chain in the fight has room to spare).

A depth-first search with a table of positions already read. A position met again on the
line being read (a ko or another cycle) counts as the chain standing, so the answer leans
towards life; a budget of positions bounds the cost, beyond which the answer is unknown.
Each side tries first the move that last decided a position at the same depth for it (a
killer move: the refutation of one line often refutes its neighbours), then the chain's
liberties, then the region's other points column by column from the left; the order decides
only how soon an answer is found, and so which fights the budget reaches (whitemouse's in the
cross-check is read in about a hundred positions this way, and not within a hundred thousand
row by row; siRNA's big black chain in 13,617 with killer moves, 20,156 without).
The moves are the compiled kernels' (`core.kernels`), played and taken back on one copy of
the board.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from tengen.core import kernels as k
from tengen.core import rebuild
from tengen.core.board import Board
from tengen.core.coords import Point
from tengen.core.layout import COLOR, EMPTY, H_KO, HDR, HEAD, WALL

SAFE_LIBERTIES = 8


class _OutOfBudget(Exception):
    """The search read more positions than it may."""


class Budget:
    """Positions that readings may still read, shared by the readings given it."""

    def __init__(self, positions: int) -> None:
        self.left = positions


def captured_moving_first(
    board: Board,
    stone: Point,
    region: Collection[Point],
    budget: Budget,
    limit: int,
    opponent_only: Collection[Point] = (),
    own_only: Collection[Point] = (),
) -> bool | None:
    """Whether the chain on `stone` is captured when its colour moves first and both sides
    play only on `region`, the opponent also on `opponent_only` and the chain's side also on
    `own_only` (see the module docstring): True or False, or None when reading it takes more
    than `limit` positions or more than `budget` has left (the positions read are taken from
    `budget`). `region` must hold the chain."""
    trial = board.copy()
    st, zh = trial.state, trial.hashes
    target = trial.loc(stone)
    me = int(st[COLOR, target])
    locs = [trial.loc(p) for p in sorted(region)]
    theirs = locs + [trial.loc(p) for p in sorted(opponent_only)]
    mine = locs + [trial.loc(p) for p in sorted(own_only)]
    stride = board.width + 1
    steps = (-stride, -1, 1, stride)
    buf = np.empty(st.shape[1], np.int32)
    table: dict[tuple[int, int, bool, int], bool] = {}
    killers: dict[tuple[int, int], int] = {}
    nodes = 0
    most = min(limit, budget.left)
    deepest = 4 * len(locs) + 8

    def two_eyes() -> bool:
        head = st[HEAD, target]
        eyes = 0
        for lib in buf[: k.chain_liberties(st, target, buf)].tolist():
            if all(
                st[COLOR, lib + d] == WALL
                or (st[COLOR, lib + d] == me and st[HEAD, lib + d] == head)
                for d in steps
            ):
                eyes += 1
        return eyes >= 2

    def captured(mover: int, passed: bool, depth: int) -> bool:
        nonlocal nodes
        if st[COLOR, target] != me:
            return True
        key = (int(zh[0]), mover, passed, int(st[HDR, H_KO]))
        if key in table:
            return table[key]
        nodes += 1
        if nodes > most:
            raise _OutOfBudget
        if depth > deepest or two_eyes() or k.chain_liberties(st, target, buf) >= SAFE_LIBERTIES:
            table[key] = False
            return False
        table[key] = False  # met again on this line: a cycle, which leaves the chain standing
        libs = set(buf[: k.chain_liberties(st, target, buf)].tolist())
        moves = [
            a
            for a in (mine if mover == me else theirs)
            if st[COLOR, a] == EMPTY
            and k.legality(st, a, mover, False) == k.LEGAL
            and not (mover == me and k.is_eye_like(st, a, me))
        ]
        killer = killers.get((mover, depth), -1)
        moves.sort(key=lambda a: (a != killer, a not in libs))
        attacking = mover != me
        result = None
        for a in moves:
            before = int(zh[0])
            packed, order = k.play(st, zh, a, mover)
            outcome = captured(3 - mover, False, depth + 1)
            rebuild.undo(st, zh, int(packed), order, before)
            if outcome is attacking:
                result = attacking
                killers[(mover, depth)] = a
                break
        if result is None:
            if passed:
                result = False
            else:
                before = int(zh[0])
                packed = k.play_pass(st)
                result = captured(3 - mover, True, depth + 1)
                rebuild.undo(st, zh, int(packed), 0, before)
        table[key] = result
        return result

    try:
        return captured(me, False, 0)
    except _OutOfBudget:
        return None
    finally:
        budget.left -= min(nodes, most)
