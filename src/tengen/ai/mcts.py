"""The built-in Go player: root-parallel UCT-RAVE search with heavy playouts.

`MctsPlayer` runs one search tree per thread (`tree.search` releases the GIL, so the trees
grow on every core at once), each seeded from the player's seed, and adds up their root
statistics. With a simulation budget the result depends only on the seed, the number of
threads and the moves asked so far; with seconds it also depends on the machine. Trees are
kept between moves and the subtree of the moves since played becomes the next root.

Decisions the search alone does not make live here: resigning below a win rate (the level's,
or the player's `resign`; 0 never resigns), passing once every point the player could still
play is settled (or nothing but own eyes is left), answering a pass with a pass when tengen's
count does not lose and no move gains a point (`ending`), keeping back from the clock how late
its answers lately came, and drawing a weaker move at low levels.

What stands alone is apart: the tree and its kernels (`tree`), the threads' trees and their
root statistics added up (`forest`), the position the search reads (`position`), the time a
move gets on a clock (`timing`), the playout policy (`policy`), the end-game count (`ending`),
the levels (`levels`) and what a search reports (`analysis`).
"""

from __future__ import annotations

import math
import os
import random
import time
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import replace

import numpy as np

from tengen.ai import ending, timing, tree
from tengen.ai import go as go_kernels
from tengen.ai.analysis import Analysis, MoveInfo, Progress
from tengen.ai.forest import Tree, summarize
from tengen.ai.levels import DEFAULT_LEVEL
from tengen.ai.levels import level as get_level
from tengen.ai.position import Position, position
from tengen.clock import Clock, lateness
from tengen.core import jit, playout
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.game import Game
from tengen.core.patterns import TABLE
from tengen.seat import RESIGN, Resign

# Interpreted until compiled (see `core.jit`): a first search never waits for the compiler.
go, t, pl = jit.live(go_kernels), jit.live(tree), jit.live(playout)

SETTLED = 0.8  # a point is settled when this share of the playouts agree on its owner
MIN_RESIGN_VISITS = 200  # never resign on less evidence than this
PASS_PROBE = 200  # simulations given to the pass alone before passing
REUSE_MOVES = 8  # moves played since the last search that tree reuse follows
END_SHARE = 0.6  # share of the move's time searched after a pass (the count takes the rest)
SEARCHED = 3  # the search's favourites the count tries before answering a pass


class MctsPlayer:
    """The built-in Go player at a level (see `tengen.ai.levels`); explicit `playouts` or
    `seconds` replace the level's budget; `resign` replaces the level's resignation win rate
    (0: never resign, as for analysis). Call `close` to stop its threads."""

    def __init__(
        self,
        level: int = DEFAULT_LEVEL,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        threads: int | None = None,
        seed: int = 0,
        capacity: int = 1_500_000,
        resign: float | None = None,
    ) -> None:
        check_settings(level, playouts, seconds, threads, resign)
        self.level = get_level(level)
        self.resign = self.level.resign if resign is None else resign
        if playouts is None and seconds is None:
            playouts, seconds = self.level.playouts, self.level.seconds
        self.playouts = playouts
        self.seconds = seconds
        self.threads = threads or os.cpu_count() or 1
        self.seed = seed
        self.params = np.array(t.DEFAULT_PARAMS, np.float64)
        self.last_analysis: Analysis | None = None
        self._capacity = capacity
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="tengen-mcts")
        self._trees: list[Tree] = []
        self._key: tuple[object, ...] | None = None
        self._history: tuple[tuple[int, int], ...] = ()
        self._stop = np.zeros(1, np.bool_)
        self._late = 0.0  # how late answers on a clock came lately (seconds past the budget)

    # -- the player --------------------------------------------------------------------------

    def genmove(
        self,
        game: Game,
        color: Color,
        clock: Clock | None = None,
        *,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Move | Resign:
        """The move for `color` (None passes), or "resign"; the game is not changed.

        `progress` sees the search about every `interval` seconds and once at its end (its
        answer is ignored: the move's budget is the level's or the clock's)."""
        start = time.monotonic()
        seconds = timing.budget_seconds(self.seconds, clock, game, self._late)
        try:
            return self._genmove(game, color, seconds, progress, interval)
        finally:
            if clock is not None and seconds is not None:
                late = time.monotonic() - start - seconds
                self._late = lateness(self._late, late)

    def _genmove(
        self,
        game: Game,
        color: Color,
        seconds: float | None,
        progress: Progress | None,
        interval: float,
    ) -> Move | Resign:
        """`genmove` within `seconds` (None: the playouts alone)."""
        legal = game.legal_moves(color, own_eyes=False)
        if not legal:
            return None
        deadline = None if seconds is None else time.monotonic() + seconds
        if game.consecutive_passes and seconds is not None:
            seconds *= END_SHARE
        pos = self._begin(game, color)
        self._run(pos, self.playouts, seconds, _watching(progress), interval)
        analysis = summarize(self._trees, pos)
        self.last_analysis = analysis
        if progress is not None:
            progress(analysis)
        played = [m for m in analysis.moves if m.move is not None and m.visits > 0]
        if not played:
            return legal[0]
        best = played[0]
        if analysis.visits >= MIN_RESIGN_VISITS and best.winrate < self.resign:
            return RESIGN
        if game.consecutive_passes:
            return self._answer_pass(game, color, played, deadline)
        if self._settled(game, color, analysis, legal):
            # Everything looks decided: search the pass itself before trusting that.
            only_pass = np.zeros_like(pos.allowed)
            only_pass[0] = 1
            self._run(replace(pos, allowed=only_pass), PASS_PROBE, None, None, 1.0)
            analysis = summarize(self._trees, pos)
            self.last_analysis = analysis
            best = next(m for m in analysis.moves if m.move == best.move)
            probed = next(m for m in analysis.moves if m.move is None)
            if probed.score_lead >= best.score_lead - 0.5 and probed.winrate >= best.winrate:
                return None
        passing = next((m for m in analysis.moves if m.move is None), None)
        if passing and passing.visits >= best.visits / 4 and passing.winrate > best.winrate:
            return None
        if self.level.temperature > 0:
            return self._draw(played, game.move_number)
        return best.move

    def analyse(
        self,
        game: Game,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Analysis:
        """Search the position for the player to move (see `analysis.Analyser`)."""
        if playouts is None and seconds is None:
            playouts, seconds = self.playouts, self.seconds
        pos = self._begin(game, game.to_play)
        self._run(pos, playouts, seconds, progress, interval)
        analysis = summarize(self._trees, pos)
        if progress is not None:
            progress(analysis)
        self.last_analysis = analysis
        return analysis

    def warm(self, width: int = 19, height: int | None = None) -> None:
        """Wait for the compiled kernels (`core.jit`), then load the search and the count on a
        `width` x `height` board, so that the first move on a clock does not pay for them; the
        player then searches as if it had not been warmed."""
        jit.wait()
        game = Game(width, height)
        self._run(self._begin(game, Color.BLACK), 2 * self.threads, None, None, 1.0)
        ending.judge(game, Color.BLACK, playouts=2)
        self._trees, self._key, self._history = [], None, ()

    def close(self) -> None:
        """Stop any search and the threads; drop the trees."""
        self._stop[0] = True
        self._pool.shutdown(wait=True)
        self._trees = []

    # -- search ------------------------------------------------------------------------------

    def _begin(self, game: Game, color: Color) -> Position:
        """The position to search, with the trees ready for it and fresh ownership counts."""
        pos = position(game, color)
        self._prepare(pos)
        for tr in self._trees:
            tr.own = np.zeros(pos.st.shape[1], np.float64)
            tr.start = int(tr.hdr[t.SIMULATIONS])
        return pos

    def _run(
        self,
        pos: Position,
        playouts: int | None,
        seconds: float | None,
        progress: Progress | None,
        interval: float,
    ) -> None:
        """Grow every tree within the budget, calling `progress` every `interval` seconds."""
        self._stop[0] = False
        deadline = None if seconds is None else time.monotonic() + seconds
        shares = _split(playouts, self.threads)
        chunk = max(8, 40_000 // pos.st.shape[1])
        jobs: list[Future[int]] = [
            self._pool.submit(self._work, tr, pos, share, deadline, chunk)
            for tr, share in zip(self._trees, shares, strict=True)
        ]
        while True:
            timeout = interval
            if deadline is not None and not self._stop[0]:
                timeout = max(0.0, min(interval, deadline - time.monotonic()))
            finished, pending = wait(jobs, timeout=timeout, return_when=FIRST_EXCEPTION)
            for job in finished:
                job.result()  # re-raise a worker's error here
            if not pending:
                break
            if deadline is not None and time.monotonic() >= deadline:
                # Stop inside the chunk: slow ones run while the kernels compile (`core.jit`).
                self._stop[0] = True
            elif progress is not None and not progress(summarize(self._trees, pos)):
                self._stop[0] = True

    def _work(
        self, tr: Tree, pos: Position, share: int | None, deadline: float | None, chunk: int
    ) -> int:
        """One thread's share of the simulations (None: until the deadline)."""
        done = 0
        while not self._stop[0]:
            n = chunk if share is None else min(chunk, share - done)
            if n <= 0:
                break
            done += go.search(
                TABLE,
                pos.st,
                pos.zh,
                pos.meta,
                tr.ni,
                tr.nf,
                tr.hdr,
                pos.allowed,
                self.params,
                tr.rng,
                tr.own,
                n,
                self._stop,
            )
            if deadline is not None and time.monotonic() >= deadline:
                break
        return done

    def _prepare(self, pos: Position) -> None:
        """Keep each tree's subtree for this position when the moves since lead there."""
        root_color = 3 - int(pos.color)
        old, extra = self._history, pos.history[len(self._history) :]
        reusable = (
            self._trees
            and self._key == pos.key
            and pos.history[: len(old)] == old
            and len(extra) <= REUSE_MOVES
        )
        trees: list[Tree] = []
        for i in range(self.threads):
            kept = self._follow(self._trees[i], extra, root_color) if reusable else None
            if kept is None:
                ni, nf, hdr = t.new_tree(self._capacity, root_color)
                rng = self._trees[i].rng if i < len(self._trees) else _rng(self.seed, i)
                kept = Tree(ni, nf, hdr, rng)
            trees.append(kept)
        self._trees = trees
        self._key = pos.key
        self._history = pos.history

    def _follow(self, tr: Tree, moves: tuple[tuple[int, int], ...], root_color: int) -> Tree | None:
        """The tree re-rooted after `moves` ((colour, location) pairs), or None."""
        node = 0
        for color, loc in moves:
            first, count = int(tr.ni[t.FIRST, node]), int(tr.ni[t.COUNT, node])
            found = [c for c in range(first, first + count) if tr.ni[t.MOVE, c] == loc]
            if not found or tr.ni[t.COLOR, found[0]] != color:
                return None
            node = found[0]
        if tr.ni[t.COLOR, node] != root_color:
            return None
        if node == 0:
            return tr
        ni, nf, hdr = t.new_tree(self._capacity, root_color)
        hdr[t.NODES] = t.subtree(tr.ni, tr.nf, node, ni, nf)
        return Tree(ni, nf, hdr, tr.rng)

    # -- results -----------------------------------------------------------------------------

    def _settled(self, game: Game, color: Color, analysis: Analysis, legal: list[Point]) -> bool:
        """Whether every point `color` could still play has an owner most playouts agree on."""
        sign = 1.0 if color is Color.BLACK else -1.0
        own = analysis.ownership
        return all(abs(own[p.row * game.width + p.col] * sign) >= SETTLED for p in legal)

    def _answer_pass(
        self, game: Game, color: Color, played: list[MoveInfo], deadline: float | None
    ) -> Move:
        """After the opponent's pass (a pass now ends the game): pass when tengen's count does
        not lose and no move gains a point; else the search's move, or the move that gains
        most when the search's own gains nothing by the count. Out of time (`deadline`)
        before every move is tried, it plays the search's move."""
        searched = [m.move for m in played[:SEARCHED] if m.move is not None]
        seed = self.seed + game.move_number
        verdict = ending.judge(game, color, searched, seed=seed, deadline=deadline)
        if verdict.settled:
            return None
        move, gain = verdict.best_gain
        best = played[0].move
        behind = best is None or verdict.gains.get(best, 0.0) < gain
        if move is not None and gain >= ending.MIN_GAIN and behind:
            return move
        return best

    def _draw(self, played: list[MoveInfo], number: int) -> Move:
        """A move drawn with odds visits**(1/temperature), seeded by the move number."""
        rng = random.Random(self.seed * 1_000_003 + number)
        weights = [m.visits ** (1.0 / self.level.temperature) for m in played]
        return rng.choices([m.move for m in played], weights)[0]


def check_settings(
    level: int,
    playouts: int | None,
    seconds: float | None,
    threads: int | None,
    resign: float | None = None,
) -> None:
    """Raise ValueError naming the first setting of a player that is out of range."""
    get_level(level)
    if resign is not None and not 0 <= resign < 1:
        raise ValueError(f"resign must be a win rate from 0 (never) to below 1, not {resign}")
    if playouts is not None and playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts}")
    if seconds is not None and not 0 < seconds < math.inf:
        raise ValueError(f"seconds must be a positive number, not {seconds}")
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")


def _watching(progress: Progress | None) -> Progress | None:
    """`progress` made unable to stop the search."""
    if progress is None:
        return None

    def watch(analysis: Analysis) -> bool:
        progress(analysis)
        return True

    return watch


def _split(playouts: int | None, parts: int) -> list[int | None]:
    """Share a simulation budget between the trees (None: no budget, run on time)."""
    if playouts is None:
        return [None] * parts
    return [playouts // parts + (1 if i < playouts % parts else 0) for i in range(parts)]


def _rng(seed: int, index: int) -> np.ndarray:
    """Tree `index`'s random state for the player's seed."""
    rng: np.ndarray = pl.seed_rng(seed * 1_009 + index)
    return rng
