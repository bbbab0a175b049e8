"""Iterative deepening over the compiled principal variation search (`ai.gomoku.pvs`).

Each depth searches every root move (in Python: one compiled call a root move); the tables
(transposition table, history) persist from one depth to the next, and the root moves
are reordered by the last depth's scores. A depth cut off by the deadline is dropped, unless
its first root move (the last depth's best) was searched to the end and another then beat it:
that move is the better at the new depth, and the clock has paid for knowing it. No new depth
starts after the soft limit, nor after a forced win or loss is found, nor past `MAX_DEPTH`.

Only the best root move gets an exact score: the others are searched with a null window, which
proves only that they are no better (an upper bound). A bound that equals the best score is
searched again in a window around it, so that a root move reported as tied with the best is
really as good (the player breaks such ties at random): in Gomoku the lines below two root moves
often transpose into one position, so null-window bounds equal to the best are common, and more
so the deeper the search; taken for ties they let the player pick moves that lose.

With `threads` above one, each thread has its own copy of the position and history,
and all share one transposition table (the kernels release the GIL; a table entry half
written by one thread reads as empty to the others, see `ai.gomoku.pvs`). Each depth hands
out its root moves (`_Round`): the first to every thread until one has scored it; then the
others, a thread each, with the best score found so far as its bound; and when none is left
to start, a move still being searched, to a thread that would otherwise wait. Threads on one
move share out its tree (the simplified ABDADA of `ai.gomoku.pvs`: a move another thread is
searching is put off), and the first to finish scores it and stops the others. A bound may be
a little behind the best by the time a move is scored: the bound test above keeps that safe,
as a score above the bound is searched again in a full window. Two threads reach a depth
1.1-1.2 times sooner this way than with the first root move searched by one thread alone
(bench/STRENGTH.md).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

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
    """What a search found: its move, score, depth reached and nodes. `scores` has the root
    moves' scores at the last depth (every root's; or, of a depth the deadline cut short, those
    searched to the end): exact for the best and the moves tied with it, an upper bound for
    the others."""

    move: int
    score: int = 0
    depth: int = 0
    nodes: int = 0
    scores: dict[int, int] = field(default_factory=dict)


class Search:
    """Iterative deepening PVS for the side `me` over `pos`, until `deadline`, on `threads`
    threads (see the module docstring)."""

    def __init__(
        self, pos: Position, deadline: float, threads: int = 1, kept: compiled.Tables | None = None
    ) -> None:
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self.pos = pos
        self.tables = compiled.tables(pos.n, deadline, kept)
        self.tables.split[0] = threads > 1
        self.helpers = [
            (pos.copy(), compiled.tables(pos.n, deadline, self.tables, split=True))
            for _ in range(threads - 1)
        ]

    @property
    def stopped(self) -> bool:
        """Whether a thread has passed the deadline (its depth is then cut short)."""
        return bool(self.tables.stop[0]) or any(t.stop[0] for _, t in self.helpers)

    @property
    def nodes(self) -> int:
        """The nodes every thread has searched so far (a depth cut short included)."""
        return self.pos.nodes + sum(pos.nodes for pos, _ in self.helpers)

    def run(self, me: int, roots: list[int], soft: float, max_depth: int = MAX_DEPTH) -> Report:
        """The best of `roots` (legal, non-empty) for `me`, deepening until the deadline;
        no new depth starts after `soft`."""
        report = Report(roots[0])
        order = list(roots)
        for depth in range(1, max_depth + 1):
            if depth > 1 and time.monotonic() > soft:
                break
            move, score, scores, first_done = self._root(me, order, depth)
            if self.stopped and not (first_done and move != order[0]):
                break
            report = Report(move, score, depth, self.nodes, scores)
            if self.stopped:
                break
            order.sort(key=lambda m: -scores[m])
            if abs(score) >= WON:
                break
        return report

    def line(self, me: int, first: int, plies: int) -> list[int]:
        """The line the search expects after root move `first` of `me`: it, then in each
        position the move the transposition table holds there, `plies` moves at most (fewer
        where the table holds none: a position decided before it is stored, or overwritten)."""
        pos, who, m = self.pos.copy(), me, first
        moves: list[int] = []
        while len(moves) < plies and m >= 0 and not pos.cells[m]:
            pos.place(m, who)
            moves.append(m)
            who = 3 - who
            m = int(k.expected(pos.s, self.tables, who))
        return moves

    def setups(self, me: int) -> list[int]:
        """The quiet points after which `me`, moving again, wins by fours within the
        horizon's small VCF (`pvs.setups`): the moves that set up a win, in point order."""
        out = np.zeros(self.pos.n, dtype=np.int32)
        count = int(k.setups(self.pos.s, me, self.tables.deadline[0], out))
        return [int(m) for m in out[:count]]

    def _root(self, me: int, roots: list[int], depth: int) -> tuple[int, int, dict[int, int], bool]:
        """One depth over `roots`: the best move, its score, the scores of the roots searched
        to the end, and whether the first was (when the deadline stopped the search)."""
        share = _Round(roots)
        failed: list[BaseException] = []

        def work(pos: Position, tables: compiled.Tables) -> None:
            """Search the root moves `share` hands out until none is left or the clock runs
            out."""
            try:
                while (taken := share.take(tables)) is not None:
                    m, alpha = taken
                    score = _searched(pos, tables, me, m, depth, alpha)
                    if not share.done(tables, m, score):
                        return
            except BaseException as error:  # raised again in the caller's thread
                failed.append(error)

        threads = [threading.Thread(target=work, args=helper) for helper in self.helpers]
        for thread in threads:
            thread.start()
        work(self.pos, self.tables)
        for thread in threads:
            thread.join()
        if failed:
            raise failed[0]
        first_done = roots[0] in share.scores
        return share.best[1], share.best[0], share.scores, first_done


class _Round:
    """The root moves of one depth, handed out to the threads as the module docstring says."""

    def __init__(self, roots: list[int]) -> None:
        self.first = roots[0]
        self.queue = iter(roots[1:])
        self.scores: dict[int, int] = {}
        self.best = [0, self.first]  # the best score so far and its move
        self.bounds: dict[int, int | None] = {self.first: None}  # each started move's alpha
        self.on: dict[int, list[compiled.Tables]] = {self.first: []}  # who searches what
        self.stopped: set[int] = set()  # the tables (ids) stopped as another scored their move
        self.lock = threading.Lock()

    def take(self, tables: compiled.Tables) -> tuple[int, int | None] | None:
        """A root move for the thread of `tables` to search and its bound (None: in a full
        window), or None when every move is scored or the thread's clock has run out."""
        with self.lock:
            if tables.stop[0]:
                return None
            m = self.first if self.first not in self.scores else next(self.queue, None)
            if m is None:
                running = [x for x in self.on if x not in self.scores]
                if not running:
                    return None
                m = min(running, key=lambda x: len(self.on[x]))
            elif m != self.first:
                self.bounds[m] = self.best[0]
                self.on[m] = []
            self.on[m].append(tables)
            return m, self.bounds[m]

    def done(self, tables: compiled.Tables, m: int, score: int) -> bool:
        """Take the score of `m` from the thread of `tables` if it is the first to finish it,
        stopping the others on it; whether the thread goes on (its clock has not run out)."""
        with self.lock:
            self.on[m] = [other for other in self.on[m] if other is not tables]
            if id(tables) in self.stopped:  # another thread scored `m` first
                self.stopped.remove(id(tables))
                tables.stop[0] = 0
                return True
            if tables.stop[0]:
                return False
            self.scores[m] = score
            if m == self.first or score > self.best[0]:
                self.best[:] = [score, m]
            for other in self.on[m]:
                other.stop[0] = 1
                self.stopped.add(id(other))
            return True


def _searched(
    pos: Position, tables: compiled.Tables, me: int, m: int, depth: int, alpha: int | None
) -> int:
    """Root move `m`'s score at `depth`: exact, in a full window, when `alpha` is None; else
    in a null window at `alpha` (an upper bound when at most `alpha`), searched again around
    `alpha` when equal to it (a tie, or only a bound?) and in a full window when above."""
    pos.place(m, me)
    try:
        if alpha is None:
            return int(-k.root(pos.s, tables, 3 - me, depth - 1, -2 * WIN, 2 * WIN, 1))
        score = -k.root(pos.s, tables, 3 - me, depth - 1, -alpha - 1, -alpha, 1)
        if score == alpha and not tables.stop[0]:
            score = -k.root(pos.s, tables, 3 - me, depth - 1, -alpha - 1, 1 - alpha, 1)
        if score > alpha and not tables.stop[0]:
            score = -k.root(pos.s, tables, 3 - me, depth - 1, -2 * WIN, -alpha, 1)
        return int(score)
    finally:
        pos.remove(m)
