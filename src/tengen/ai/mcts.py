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

One cohesive thing, past 500 lines: the player's decisions read the same trees, root
statistics and lateness as its search threads, and each is a few lines. What stands alone is
already apart: the tree and its kernels (`tree`), the playout policy (`policy`), the end-game
count (`ending`), the levels (`levels`) and what a search reports (`analysis`).
"""

from __future__ import annotations

import math
import os
import random
import time
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace

import numpy as np

from tengen.ai import ending, tree
from tengen.ai import go as go_kernels
from tengen.ai.analysis import Analysis, MoveInfo, Progress
from tengen.ai.levels import DEFAULT_LEVEL
from tengen.ai.levels import level as get_level
from tengen.ai.policy import (
    KOMI2,
    LAST,
    MAX_MOVES,
    META_SLOTS,
    PASSES,
    TO_PLAY,
)
from tengen.clock import Clock
from tengen.core import jit, playout
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.game import Game
from tengen.core.patterns import TABLE
from tengen.scoring.count import handicap_compensation
from tengen.seat import RESIGN, Resign

# Interpreted until compiled (see `core.jit`): a first search never waits for the compiler.
go, t, pl = jit.live(go_kernels), jit.live(tree), jit.live(playout)

SETTLED = 0.8  # a point is settled when this share of the playouts agree on its owner
MIN_RESIGN_VISITS = 200  # never resign on less evidence than this
PASS_PROBE = 200  # simulations given to the pass alone before passing
REUSE_MOVES = 8  # moves played since the last search that tree reuse follows
SAFETY = 0.3  # seconds kept back from the clock for the answer to arrive
MARGIN = 0.1  # share of the time left also kept back: a loaded machine answers late
LATE_DECAY = 0.9  # how much of the last lateness is still kept back at the next move
END_SHARE = 0.6  # share of the move's time searched after a pass (the count takes the rest)
SEARCHED = 3  # the search's favourites the count tries before answering a pass


@dataclass
class _Tree:
    """One thread's search tree and random state."""

    ni: np.ndarray
    nf: np.ndarray
    hdr: np.ndarray
    rng: np.ndarray
    own: np.ndarray = field(default_factory=lambda: np.zeros(0))
    start: int = 0  # simulations run before the current search


@dataclass(frozen=True)
class _Position:
    """A game position in the arrays the search reads, with what identifies it for reuse."""

    st: np.ndarray
    zh: np.ndarray
    meta: np.ndarray
    allowed: np.ndarray
    key: tuple[object, ...]
    history: tuple[tuple[int, int], ...]
    color: Color
    width: int
    height: int


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
        self._trees: list[_Tree] = []
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
        seconds = _budget_seconds(self.seconds, clock, game, self._late)
        try:
            return self._genmove(game, color, seconds, progress, interval)
        finally:
            if clock is not None and seconds is not None:
                late = time.monotonic() - start - seconds
                self._late = max(LATE_DECAY * self._late, late, 0.0)

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
        analysis = self._analysis(pos)
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
            analysis = self._analysis(pos)
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
        analysis = self._analysis(pos)
        if progress is not None:
            progress(analysis)
        self.last_analysis = analysis
        return analysis

    def warm(self, width: int = 19, height: int | None = None) -> None:
        """Compile (or load from numba's cache) the search and the count on a `width` x
        `height` board, so that the first move on a clock does not pay for it; the player
        then searches as if it had not been warmed."""
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

    def _begin(self, game: Game, color: Color) -> _Position:
        """The position to search, with the trees ready for it and fresh ownership counts."""
        pos = _position(game, color)
        self._prepare(pos)
        for tr in self._trees:
            tr.own = np.zeros(pos.st.shape[1], np.float64)
            tr.start = int(tr.hdr[t.SIMULATIONS])
        return pos

    def _run(
        self,
        pos: _Position,
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
            elif progress is not None and not progress(self._analysis(pos)):
                self._stop[0] = True

    def _work(
        self, tr: _Tree, pos: _Position, share: int | None, deadline: float | None, chunk: int
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

    def _prepare(self, pos: _Position) -> None:
        """Keep each tree's subtree for this position when the moves since lead there."""
        root_color = 3 - int(pos.color)
        old, extra = self._history, pos.history[len(self._history) :]
        reusable = (
            self._trees
            and self._key == pos.key
            and pos.history[: len(old)] == old
            and len(extra) <= REUSE_MOVES
        )
        trees: list[_Tree] = []
        for i in range(self.threads):
            kept = self._follow(self._trees[i], extra, root_color) if reusable else None
            if kept is None:
                ni, nf, hdr = t.new_tree(self._capacity, root_color)
                rng = self._trees[i].rng if i < len(self._trees) else _rng(self.seed, i)
                kept = _Tree(ni, nf, hdr, rng)
            trees.append(kept)
        self._trees = trees
        self._key = pos.key
        self._history = pos.history

    def _follow(
        self, tr: _Tree, moves: tuple[tuple[int, int], ...], root_color: int
    ) -> _Tree | None:
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
        return _Tree(ni, nf, hdr, tr.rng)

    # -- results -----------------------------------------------------------------------------

    def _analysis(self, pos: _Position) -> Analysis:
        """Add up the trees' root statistics into an `Analysis`."""
        stats: dict[int, list[float]] = {}  # move -> visits, wins, score, prior n, prior w
        best_tree: dict[int, tuple[float, _Tree, int]] = {}
        root_visits = root_wins = root_score = 0.0
        sims = 0
        own = np.zeros(pos.st.shape[1], np.float64)
        for tr in self._trees:
            ni, nf = tr.ni, tr.nf
            root_visits += nf[t.VISITS, 0]
            root_wins += nf[t.WINS, 0]
            root_score += nf[t.SCORE, 0]
            sims += int(tr.hdr[t.SIMULATIONS])
            own += tr.own
            first, count = int(ni[t.FIRST, 0]), int(ni[t.COUNT, 0])
            for c in range(first, first + count):
                move = int(ni[t.MOVE, c])
                if not pos.allowed[move]:
                    continue
                s = stats.setdefault(move, [0.0, 0.0, 0.0, nf[t.PRIOR_N, c], nf[t.PRIOR_W, c]])
                s[0] += nf[t.VISITS, c]
                s[1] += nf[t.WINS, c]
                s[2] += nf[t.SCORE, c]
                if move not in best_tree or nf[t.VISITS, c] > best_tree[move][0]:
                    best_tree[move] = (nf[t.VISITS, c], tr, c)
        width, height = pos.width, pos.height
        stride = width + 1
        total_prior = sum(s[4] / s[3] for s in stats.values()) or 1.0
        infos = []
        for move, (visits, wins, score, pn, pw) in stats.items():
            _, tr, node = best_tree[move]
            infos.append(
                MoveInfo(
                    move=_point(move, stride),
                    visits=int(visits),
                    winrate=float(wins / visits if visits else pw / pn),
                    prior=float((pw / pn) / total_prior),
                    pv=tuple(_point(m, stride) for m in _pv(tr, node)),
                    score_lead=score / visits if visits else 0.0,
                )
            )
        infos.sort(key=lambda m: (-m.visits, -m.prior))
        rollouts = max(sum(int(tr.hdr[t.SIMULATIONS]) - tr.start for tr in self._trees), 1)
        share = own / rollouts
        ownership = tuple(
            float(share[(r + 1) * stride + c + 1]) for r in range(height) for c in range(width)
        )
        return Analysis(
            to_play=pos.color,
            visits=int(root_visits),
            winrate=1.0 - root_wins / root_visits if root_visits else 0.5,
            score_lead=-root_score / root_visits if root_visits else 0.0,
            moves=tuple(infos),
            ownership=ownership,
            width=width,
            height=height,
        )

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


def _position(game: Game, color: Color) -> _Position:
    """The search's arrays for `game` with `color` to move."""
    board = game.board
    st = board.state.copy()  # the kernels' state of the board, as the kernels expect it
    zh = board.hashes.copy()
    meta = np.zeros(META_SLOTS, np.int64)
    meta[TO_PLAY] = int(color)
    meta[PASSES] = game.consecutive_passes
    moves = game.moves
    if moves and moves[-1].color is not color and moves[-1].move is not None:
        meta[LAST] = board.loc(moves[-1].move)
    komi = game.ruleset.komi + handicap_compensation(
        game.ruleset.handicap_bonus, game.handicap_stones
    )
    meta[KOMI2] = round(2 * komi)
    meta[MAX_MOVES] = 3 * game.width * game.height
    allowed = np.zeros(st.shape[1] + 1, np.int8)
    allowed[0] = 1
    for p in game.legal_moves(color, own_eyes=False):
        allowed[board.loc(p)] = 1
    history = tuple((int(m.color), 0 if m.move is None else board.loc(m.move)) for m in moves)
    key = (game.width, game.height, game.ruleset, game.actions - len(moves), game.handicap_stones)
    return _Position(st, zh, meta, allowed, key, history, color, game.width, game.height)


def _watching(progress: Progress | None) -> Progress | None:
    """`progress` made unable to stop the search."""
    if progress is None:
        return None

    def watch(analysis: Analysis) -> bool:
        progress(analysis)
        return True

    return watch


def _budget_seconds(
    seconds: float | None, clock: Clock | None, game: Game, late: float = 0.0
) -> float | None:
    """The seconds to think: the player's own limit, cut to what the clock can spare, less
    `late` (how late the answers on this machine have lately come)."""
    if clock is None:
        return seconds
    c = clock.control
    empty = len(game.board.empty_points())
    moves_left = max(empty / 3.0, 10.0)
    main = max(clock.main, 0.0)
    if c.system == "byoyomi":
        spare = main / moves_left + c.period * (0.5 if main > 0 else 0.9)
    elif c.system == "canadian":
        if main > 0:
            spare = main / moves_left + 0.5 * c.period / c.stones
        else:
            spare = 0.9 * clock.period_left / max(clock.stones, 1)
    elif c.system == "fischer":
        spare = main / moves_left + 0.8 * c.period
    else:
        spare = main / moves_left
    allowance = clock.allowance()
    spare = min(spare, allowance - SAFETY - MARGIN * allowance - late)
    spare = max(spare, 0.05)
    return spare if seconds is None else min(seconds, spare)


def _split(playouts: int | None, parts: int) -> list[int | None]:
    """Share a simulation budget between the trees (None: no budget, run on time)."""
    if playouts is None:
        return [None] * parts
    return [playouts // parts + (1 if i < playouts % parts else 0) for i in range(parts)]


def _rng(seed: int, index: int) -> np.ndarray:
    """Tree `index`'s random state for the player's seed."""
    rng: np.ndarray = pl.seed_rng(seed * 1_009 + index)
    return rng


def _point(loc: int, stride: int) -> Move:
    """The point at a kernel location (0 is a pass)."""
    return None if loc == 0 else Point(loc % stride - 1, loc // stride - 1)


def _pv(tr: _Tree, node: int) -> list[int]:
    """The moves from `node` down its most visited children, `node`'s own move first."""
    line = [int(tr.ni[t.MOVE, node])]
    while tr.ni[t.COUNT, node] > 0 and len(line) < 30:
        first = int(tr.ni[t.FIRST, node])
        children = range(first, first + int(tr.ni[t.COUNT, node]))
        node = max(children, key=lambda c: tr.nf[t.VISITS, c])
        if tr.nf[t.VISITS, node] < 1:
            break
        line.append(int(tr.ni[t.MOVE, node]))
    return line
