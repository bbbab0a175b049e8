"""Reading a small fight out: is a chain captured even when its own side moves first?

The playouts (`Board.ownership`) leave some groups in between that a few exact moves decide:
a group in the opponent's corner that a placement kills, a chain racing a weaker one for
liberties. Their policy does not find such moves reliably, and playing more of them does not
help. When the fight is small this search settles it: both players play only on the empty
points of a region (the chain, the empty points and weak stones around it, bounded by strong
stones and the edge), either may pass, two passes in a row end the fight with the chain
standing, and the chain is lost once it is captured. Two of its liberties that touch nothing
but the chain itself are two eyes, and end the fight too, as do `fight.SAFE_LIBERTIES` liberties
(a chain that took a big opponent chain in the fight has room to spare).

The search is depth-first proof-number search (df-pn; Nagai 2002), the method of choice for
life-and-death problems: it grows the tree where the fewest positions are left to prove
the capture, or to disprove it, so a fight whose answer hangs on one narrow line (a semeai
that ends in a nakade) is read in thousands of positions where plain depth-first search,
which has to refute every defence in turn, needs hundreds of thousands (9x9-2 in the
cross-check: about 20,000 against more than 200,000). A position's first estimate is the
chain's liberties to prove it captured, and fewer to disprove it the more liberties it has.
A position met again on the line being read (a ko or another cycle) counts as the chain
standing, so the answer leans towards life; a budget of positions bounds the cost, beyond
which the answer is unknown. Neither player plays again where a chain of the defender's of two
stones or more stood: once it is taken, its points are the taker's, and reading on over them
(the defender giving up one chain of its group to save another) is what ran past the budget
in a group joined by a false eye (score11 in the cross-check: more than 400,000 positions
before, 14,088 after). A lone stone's point stays open, for kos and snapbacks.

A `Fight` keeps its table of positions for every chain of one colour read in it: the chains
of a group short of eyes (a lone stone beside it, its main chain) are read in the same
positions once they join, so the second and third readings cost little.
The moves are the compiled kernels' (`core.kernels`, `scoring.fight`), played and taken back
on one copy of the board.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from tengen.core import jit
from tengen.core import kernels as compiled_kernels
from tengen.core import rebuild as compiled_rebuild
from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.layout import COLOR, H_KO, HDR
from tengen.scoring import fight as compiled_fight
from tengen.scoring.fight import CAPTURED, HASH, IDENTITY, KO, LIBERTIES, MOVE, OPEN, SAFE, STATE

k, rb, fk = jit.live(compiled_kernels), jit.live(compiled_rebuild), jit.live(compiled_fight)

INFINITE = 1 << 40
PASS = -1

Key = tuple[int, int, bool, int, int]  # hash, player to move, after a pass, ko point, chain
Proof = tuple[int, int]  # proof number (positions to prove the capture), disproof number


class _OutOfBudget(Exception):
    """The search read more positions than it may."""


class Budget:
    """Positions that readings may still read, shared by the readings given it."""

    def __init__(self, positions: int) -> None:
        self.left = positions


class Fight:
    """A fight on `board` over `region`, for chains of `color`: the opponent may also play on
    `opponent_only`, `color` also on `own_only`, and neither where a chain of `color` of two
    stones or more stands. Its table of positions serves every chain of `color` read in it
    (`captured_moving_first`)."""

    def __init__(
        self,
        board: Board,
        region: Collection[Point],
        color: Color,
        opponent_only: Collection[Point] = (),
        own_only: Collection[Point] = (),
    ) -> None:
        self.board = board.copy()
        self.me = 1 if color is Color.BLACK else 2
        locs = [
            self.board.loc(p)
            for p in sorted(region)
            if self.board[p] is not color or len(self.board.chain(p)) == 1
        ]
        self.region = set(region)
        self.points = {
            self.me: np.array(locs + [self.board.loc(p) for p in sorted(own_only)], np.int64),
            3 - self.me: np.array(
                locs + [self.board.loc(p) for p in sorted(opponent_only)], np.int64
            ),
        }
        self.deepest = 4 * len(locs) + 8
        self.table: dict[Key, Proof] = {}
        self.kids: dict[Key, list[tuple[int, Key | None]]] = {}

    def captured_moving_first(self, stone: Point, budget: Budget, limit: int) -> bool | None:
        """Whether the chain on `stone` is captured when its colour moves first: True or
        False, or None when reading it takes more than `limit` positions or more than
        `budget` has left (the positions read are taken from `budget`). The chain must be
        of the fight's colour and in its region."""
        if stone not in self.region or self.board[stone] is None:
            raise ValueError(f"no chain of the fight's colour in its region at {stone}")
        st, zh = self.board.state, self.board.hashes
        me = self.me
        target = self.board.loc(stone)
        if int(st[COLOR, target]) != me:
            raise ValueError(f"the chain at {stone} is not of the fight's colour")
        buf = np.empty(st.shape[1], np.int32)
        rows = np.empty((max(len(p) for p in self.points.values()), 6), np.int64)
        table, kids = self.table, self.kids
        path: set[Key] = set()  # the line being read
        nodes = 0
        most = min(limit, budget.left)

        def start(libs: int) -> Proof:
            """A new position's estimate: harder to capture, easier to save, with liberties."""
            return (libs, max(1, 5 - libs))

        def expand(mover: int, passed: bool, ident: int) -> list[tuple[int, Key | None]]:
            n = fk.children(st, zh, self.points[mover], mover, me, target, buf, rows)
            out: list[tuple[int, Key | None]] = []
            for row in rows[:n].tolist():
                child = (row[HASH], 3 - mover, False, row[KO], row[IDENTITY])
                if child not in table:
                    state = row[STATE]
                    table[child] = (
                        (0, INFINITE)
                        if state == CAPTURED
                        else (INFINITE, 0)
                        if state == SAFE
                        else start(row[LIBERTIES])
                    )
                out.append((row[MOVE], child))
            if passed:
                out.append((PASS, None))  # a second pass ends the fight: the chain stands
            else:
                after = (int(zh[0]), 3 - mover, True, 0, ident)
                table.setdefault(after, (1, 1))  # the same chain: its liberties say nothing new
                out.append((PASS, after))
            return out

        def value(child: Key | None) -> Proof:
            if child is None or child in path:
                return (INFINITE, 0)
            return table[child]

        def search(node: Key, depth: int, limit_pn: int, limit_dn: int) -> None:
            """Read `node` until its proof or disproof number reaches its limit."""
            nonlocal nodes
            nodes += 1
            if nodes > most:
                raise _OutOfBudget
            mover, passed = node[1], node[2]
            if depth > self.deepest:
                table[node] = (INFINITE, 0)
                return
            moves = kids.get(node)
            if moves is None:
                moves = kids[node] = expand(mover, passed, node[4])  # [4]: the chain's point
            attacking = mover != me
            path.add(node)
            try:
                while True:
                    best, first, second, total, best_other = 0, INFINITE, INFINITE, 0, 0
                    for i, (_, child) in enumerate(moves):
                        pn, dn = value(child)
                        mine, other = (pn, dn) if attacking else (dn, pn)
                        total = min(INFINITE, total + other)
                        if mine < first:
                            best, first, second, best_other = i, mine, first, other
                        elif mine < second:
                            second = mine
                    pn, dn = (first, total) if attacking else (total, first)
                    table[node] = (pn, dn)
                    if pn >= limit_pn or dn >= limit_dn:
                        return
                    move, child = moves[best]
                    assert child is not None  # a final pass is never best: it is disproved
                    if attacking:
                        child_pn = min(limit_pn, second + 1)
                        child_dn = min(INFINITE, limit_dn - dn + best_other)
                    else:
                        child_dn = min(limit_dn, second + 1)
                        child_pn = min(INFINITE, limit_pn - pn + best_other)
                    before = int(zh[0])
                    if move == PASS:
                        packed, order = k.play_pass(st), 0
                    else:
                        packed, order = k.play(st, zh, move, mover)
                    try:
                        search(child, depth + 1, child_pn, child_dn)
                    finally:  # taken back even when the budget runs out: the board is kept
                        rb.undo(st, zh, int(packed), order, before)
            finally:
                path.discard(node)

        state, _, ident = fk.look(st, target, me, buf)
        if state != OPEN:
            return bool(state == CAPTURED)
        root = (int(zh[0]), me, False, int(st[HDR, H_KO]), ident)
        try:
            search(root, 0, INFINITE, INFINITE)
            return table[root][0] == 0
        except _OutOfBudget:
            return None
        finally:
            budget.left -= min(nodes, most)
