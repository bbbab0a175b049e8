"""The built-in Gomoku player: a threat-space solver, then alpha-beta over line patterns.

`GomokuPlayer.genmove`, in this order:

0. the opening book's move (`ai.gomoku.book`: the player's own long searches of the
   standard openings' first positions, made ahead of time), when it holds the position;
1. a five of its own (found by the game's judge, `wins_at`, under the game's rule);
2. the opponent's five-point: it blocks, preferring a block that makes its own four;
3. a win by continuous fours (VCF), then by threes and fours (VCT): `ai.gomoku.threats`;
4. if the opponent, moving twice, would win by threats, only moves after which it no longer
   does (when there are any);
5. otherwise principal variation search with iterative deepening (`ai.gomoku.search`) over
   the incremental line-pattern state (`ai.gomoku.kernels`, compiled), until its time is up.

The root moves are `game.legal_moves()`, so the player never plays a forbidden point; inside
the searches Black's moves under renju are judged by the one foul judge (`tengen.gomoku.judge`,
compiled), and a block that only a foul could make loses (White forces Black onto it). Time:
`time_limit` seconds per move, shared between the phases by `ai.gomoku.clock`; the alpha-beta
search runs on `threads` threads (`ai.gomoku.search`), by default one a core this process may
use, up to `MAX_THREADS`.
"""

from __future__ import annotations

import random

from tengen.ai.gomoku import book as opening_book
from tengen.ai.gomoku.clock import Budget
from tengen.ai.gomoku.patterns import FOUR
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.search import WIN as SEARCH_WIN
from tengen.ai.gomoku.search import Search
from tengen.ai.gomoku.threats import ThreatSearch
from tengen.batch.threads import cores
from tengen.core import jit
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku.board import GomokuBoard, wins_at
from tengen.gomoku.game import GomokuGame, GomokuIllegal
from tengen.gomoku.rules import GomokuRules, Rule

WIN = SEARCH_WIN  # `evaluate` of a won position
EVEN = 60  # evaluation points within which `evaluate` cannot tell the colours apart
_ROOT_WIDTH = 16  # root moves the search weighs
_PAIR_WIDTH = 4  # stones weighed for each of swap2's two extra stones
_VCF_NODES = 20_000
_VCT_NODES = 20_000
_EVAL_VCF_NODES = 500
_DEFENCE_NODES = 4_000  # the opponent's threat search, before and after each root move
_DEFENCE_DEPTH = 4
MAX_THREADS = 4  # the root moves shared out: more threads than this add little
WARM_WAIT = 20.0  # seconds `warm` waits for a background compile (managers give START more)
_WARM_SECONDS = 0.05  # the warm-up's searches: enough to call every kernel a move calls


class GomokuPlayer:
    """Threat search, then alpha-beta over line patterns; `seed` breaks ties between moves.

    ``time_limit`` (seconds) bounds one move's thinking; the Gomocup brain sets it from the
    manager's time limits, and `threads` from its ``INFO thread_num``. `book` False plays
    without the opening book (the book's builder, and measures of the search alone).
    """

    def __init__(
        self,
        seed: int = 0,
        time_limit: float = 0.4,
        threads: int | None = None,
        book: bool = True,
    ) -> None:
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.threads = default_threads() if threads is None else threads
        self.book = book
        self.last_depth = 0  # the depth the last search completed (0: solved or forced)
        self._warm = False

    def warm(self) -> None:
        """Load the compiled kernels a move calls, so that no move's clock pays for it: wait for
        them (at most `WARM_WAIT` seconds of a background compile, the moves running on the
        interpreted twins until it ends; see `core.jit`), then search briefly under freestyle and
        under renju, for White and for Black (whose renju moves call the foul judge: left out,
        compiling it on demand cost a brain's first move 1.7 s). Once per player; a brain calls
        it at START."""
        if self._warm:
            return
        self._warm = True
        jit.wait(WARM_WAIT)
        for rule in (Rule.FREESTYLE, Rule.RENJU):
            game = GomokuGame(GomokuRules(rule))
            for point in (Point(7, 7), Point(7, 8), Point(8, 8), Point(8, 7)):
                game.play(point)
                if game.move_number >= 3:
                    GomokuPlayer(time_limit=_WARM_SECONDS, book=False).genmove(game)

    def genmove(self, game: GomokuGame) -> Point:
        """A legal move for the player to move. Raises ValueError when there is none."""
        legal_points = game.legal_moves()
        if not legal_points:
            raise ValueError("no legal move: the game is over")
        if not game.moves:
            return min(legal_points, key=lambda p: _centre_distance(game.board, p))
        self.last_depth = 0
        known = opening_book.move(game) if self.book else None
        if known is not None:
            return known
        budget = Budget.of(self.time_limit)
        pos = Position.of(game)
        me = int(game.to_play)
        legal = {pos.index(p) for p in legal_points}
        return pos.point(self._choose(game, pos, me, legal, budget))

    def evaluate(self, game: GomokuGame) -> int:
        """How good `game` is for the player to move, in pattern points: ``WIN`` with a five to
        make or a win by continuous fours, ``-WIN`` facing two five-points, else its points'
        worth minus the opponent's (`Position.evaluate`). 0 when the game is over."""
        legal_points = game.legal_moves()
        if not legal_points:
            return 0
        pos = Position.of(game)
        me = int(game.to_play)
        legal = {pos.index(p) for p in legal_points}
        if set(pos.fives(me)) & legal:
            return WIN
        if len(pos.fives(3 - me)) > 1:
            return -WIN
        found = ThreatSearch(pos, _EVAL_VCF_NODES, 1.0).vcf(me)
        if found is not None and found in legal:
            return WIN
        return pos.evaluate(me)

    def open_three(self, game: GomokuGame) -> list[Point]:
        """The first three stones of a swap opening (Black, White, Black) on the empty board:
        the centre, White beside it (straight or diagonally), and the black stone within two
        points that the evaluation calls most even, so that neither colour is a gift."""
        width, height = game.rules.width, game.rules.height
        centre = Point((width - 1) // 2, (height - 1) // 2)
        options = []
        for dc, dr in ((1, 0), (1, 1)):
            white = Point(centre.col + dc, centre.row + dr)
            for r in range(centre.row - 2, centre.row + 3):
                for c in range(centre.col - 2, centre.col + 3):
                    third = Point(c, r)
                    if third in (centre, white):
                        continue
                    trial = GomokuGame(game.rules)
                    for p in (centre, white, third):
                        trial.play(p)
                    options.append(
                        (abs(self.evaluate(trial)), self.rng.random(), [centre, white, third])
                    )
        return min(options)[2]

    def choose_side(self, game: GomokuGame, may_place_two: bool) -> list[Point] | None:
        """A swap opening's choice for the side to move (White, after three or five stones):
        None to take the other colour (``SWAP``) when the evaluation calls the side to move
        worse, its move when better, and, when `may_place_two` (swap2 after three stones) and
        the evaluation cannot tell (within ``EVEN``), two more stones that keep it even."""
        value = self.evaluate(game)
        if may_place_two and abs(value) <= EVEN:
            two = self._place_two(game)
            if two is not None:
                return two
        if value < 0:
            return None
        return [self.genmove(game)]

    def _place_two(self, game: GomokuGame) -> list[Point] | None:
        """Stones 4 (White) and 5 (Black), among the best-ranked points, that leave the
        position most even by the evaluation; None if every pair ends the game or fouls."""
        pos = Position.of(game)
        point = pos.point
        options = []
        for w in pos.ranked(2)[:_PAIR_WIDTH]:
            pos.place(w, 2)
            blacks = pos.ranked(1)[:_PAIR_WIDTH]
            pos.remove(w)
            for b in blacks:
                trial = GomokuGame(game.rules)
                trial.set_up(*([p for c, p in game.moves if c is color] for color in Color))
                try:
                    trial.play(point(w))
                    trial.play(point(b))
                except GomokuIllegal:
                    continue
                if not trial.is_over:
                    options.append(
                        (abs(self.evaluate(trial)), self.rng.random(), [point(w), point(b)])
                    )
        return min(options)[2] if options else None

    def _choose(
        self, game: GomokuGame, pos: Position, me: int, legal: set[int], budget: Budget
    ) -> int:
        them = 3 - me
        wins = _judged_fives(game, pos, me, legal)
        if wins:
            return self._pick(pos, me, wins)
        blocks = _judged_fives(game, pos, them, legal | set(pos.fives(them)))
        if blocks:
            return self._pick(pos, me, (blocks & legal) or legal, fours_first=True)
        threats = ThreatSearch(pos, _VCF_NODES, budget.vcf_seconds())
        found = threats.vcf(me)
        if found is not None and found in legal:
            return found
        threats = ThreatSearch(pos, _VCT_NODES, budget.vct_seconds())
        found = threats.vct(me)
        if found is not None and found in legal:
            return found
        roots = [m for m in pos.ranked(me) if m in legal][:_ROOT_WIDTH] or sorted(legal)
        roots = self._defences(pos, me, roots, budget) or roots
        report = Search(pos, budget.hard(), self.threads).run(me, roots, budget.soft())
        self.last_depth = report.depth
        best = max(report.scores.values(), default=None)
        ties = [m for m, s in report.scores.items() if s == best] if report.depth else []
        return self.rng.choice(ties) if len(ties) > 1 else report.move

    def _defences(self, pos: Position, me: int, roots: list[int], budget: Budget) -> list[int]:
        """When the opponent, moving twice, would win by fours or threes: the roots after which
        it no longer does (its own fours first); [] when there is no such threat or nothing
        stops it."""
        them = 3 - me
        share = budget.defence_seconds() / (len(roots) + 1)
        solver = ThreatSearch(pos, _DEFENCE_NODES, share)
        if solver.vcf(them) is None and solver.vct(them, _DEFENCE_DEPTH) is None:
            return []
        kept = []
        for m in roots:
            pos.place(m, me)
            try:
                solver = ThreatSearch(pos, _DEFENCE_NODES, share)
                if solver.vcf(them) is None and solver.vct(them, _DEFENCE_DEPTH) is None:
                    kept.append(m)
            finally:
                pos.remove(m)
        return kept

    def _pick(self, pos: Position, me: int, moves: set[int], fours_first: bool = False) -> int:
        """The best-ranked of `moves` (a block that makes a four first), ties by the seed."""

        def value(i: int) -> tuple[int, int, float]:
            four = int(pos.kind_of(i, me) >= FOUR) if fours_first else 0
            return four, int(pos.val[me - 1, i]), self.rng.random()

        return max(moves, key=value)


def default_threads() -> int:
    """Search threads: one a core this process may run on, up to `MAX_THREADS`."""
    return max(1, min(len(cores()), MAX_THREADS))


def _judged_fives(game: GomokuGame, pos: Position, stone: int, points: set[int]) -> set[int]:
    """The `points` (near stones) where a `stone` wins by the game's own judge."""
    board = game.board.copy()
    color = Color(stone)
    found = set()
    for i in points:
        if pos.near[i] == 0 or pos.cells[i] != 0:
            continue
        p = pos.point(i)
        board.place(p, color)
        if wins_at(board, p, color, game.rules.rule) is not None:
            found.add(i)
        board.remove(p)
    return found


def _centre_distance(board: GomokuBoard, p: Point) -> float:
    return abs(p.col - (board.width - 1) / 2) + abs(p.row - (board.height - 1) / 2)
