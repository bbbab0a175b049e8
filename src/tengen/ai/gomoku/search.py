"""Iterative deepening over the compiled principal variation search (`ai.gomoku.pvs`).

Each depth searches every root move (in Python: one compiled call a root move); the tables
(transposition table, killers, history) persist from one depth to the next, and the root moves
are reordered by the last depth's scores. A depth cut off by the deadline is dropped; no new
depth starts after the soft limit, nor after a forced win or loss is found, nor past `MAX_DEPTH`.

Only the best root move gets an exact score: the others are searched with a null window, which
proves only that they are no better (an upper bound). A bound that equals the best score is
searched again in a window around it, so that a root move reported as tied with the best is
really as good (the player breaks such ties at random): in Gomoku the lines below two root moves
often transpose into one position, so null-window bounds equal to the best are common, and more
so the deeper the search; taken for ties they let the player pick moves that lose.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from tengen.ai.gomoku import pvs as compiled
from tengen.ai.gomoku.position import Position
from tengen.core import jit

k = jit.live(compiled)  # interpreted until compiled (see `core.jit`)

WIN = compiled.WIN
WON = compiled.WON
# A bound on the deepest iteration (the clock stops the player long before: 9-12 plies at 1 s a
# move). It was 9 while searching deeper played worse; the root's false ties (the module's
# docstring), common at 10 plies and more, were the cause found (bench/STRENGTH.md).
MAX_DEPTH = 40


@dataclass
class Report:
    """What a search found: its move, score, depth reached and nodes. `scores` has every root
    move's score at the last depth: exact for the best and the moves tied with it, an upper
    bound for the others."""

    move: int
    score: int = 0
    depth: int = 0
    nodes: int = 0
    scores: dict[int, int] = field(default_factory=dict)


class Search:
    """Iterative deepening PVS for the side `me` over `pos`, until `deadline`."""

    def __init__(self, pos: Position, deadline: float) -> None:
        self.pos = pos
        self.tables = compiled.tables(pos.n, deadline)

    def run(self, me: int, roots: list[int], soft: float, max_depth: int = MAX_DEPTH) -> Report:
        """The best of `roots` (legal, non-empty) for `me`, deepening until the deadline;
        no new depth starts after `soft`."""
        report = Report(roots[0])
        order = list(roots)
        for depth in range(1, max_depth + 1):
            if depth > 1 and time.monotonic() > soft:
                break
            move, score, scores = self._root(me, order, depth)
            if self.tables.stop[0]:
                break
            report = Report(move, score, depth, self.pos.nodes, scores)
            order.sort(key=lambda m: -scores[m])
            if abs(score) >= WON:
                break
        return report

    def _root(self, me: int, roots: list[int], depth: int) -> tuple[int, int, dict[int, int]]:
        """One depth over `roots`: the best move, its score and every root's score (to be
        dropped when the deadline stopped the search)."""
        pos, tables = self.pos, self.tables
        alpha, best = -2 * WIN, roots[0]
        scores: dict[int, int] = {}
        for n, m in enumerate(roots):
            pos.place(m, me)
            try:
                if n == 0:
                    score = -k.node(pos.s, tables, 3 - me, depth - 1, -2 * WIN, -alpha, 1)
                else:
                    score = -k.node(pos.s, tables, 3 - me, depth - 1, -alpha - 1, -alpha, 1)
                    if score == alpha and not tables.stop[0]:  # a bound: is it a tie?
                        score = -k.node(pos.s, tables, 3 - me, depth - 1, -alpha - 1, 1 - alpha, 1)
                    if score > alpha and not tables.stop[0]:
                        score = -k.node(pos.s, tables, 3 - me, depth - 1, -2 * WIN, -alpha, 1)
            finally:
                pos.remove(m)
            if tables.stop[0]:
                break
            scores[m] = int(score)
            if score > alpha:
                alpha, best = int(score), m
        return best, alpha, scores
