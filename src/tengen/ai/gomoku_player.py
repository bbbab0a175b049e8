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
   the incremental line-pattern state (`ai.gomoku.kernels`, compiled), until its time is up,
   with the transposition table of its last search (on the same board and rule) kept. Its
   root moves are the best-ranked points and, when step 4 found no threat to stop, the quiet
   points after which the player, moving again, would win by fours (`Search.setups`): the
   moves that convert a lead, which the ranking may put past the root's list.

The root moves are `game.legal_moves()`, so the player never plays a forbidden point; inside
the searches Black's moves under renju are judged by the one foul judge (`tengen.gomoku.judge`,
compiled), and a block that only a foul could make loses (White forces Black onto it). Time:
`time_limit` seconds per move, shared between the phases by `ai.gomoku.clock`; the alpha-beta
search runs on `threads` threads (`ai.gomoku.search`), by default one a core this process may
use, up to `MAX_THREADS`.

Swap openings: `open_three` plays an opening from the table of those the player's long
searches call even (`ai.gomoku.book`), and `choose_side` weighs the colours by the same
search in the move's time (`weigh`).
"""

from __future__ import annotations

import random
from collections.abc import Collection

from tengen.ai.gomoku import book as opening_book
from tengen.ai.gomoku.clock import Budget
from tengen.ai.gomoku.patterns import FOUR
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.pvs import Tables
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
# Swap openings, fitted to Rapfi's judgement of 3- and 5-stone positions (bench/gomoku_swap2.py,
# bench/STRENGTH.md): the search's score for White to move at which the colours are even (in
# renju it undervalues White's side early), and the band around it where swap2's chooser
# places two stones rather than take a colour.
EVEN_AT = {Rule.RENJU: -300}  # 0 for the other rules
SWAP_EVEN = 150
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
    """Threat search, then alpha-beta over line patterns; `seed` breaks ties between moves and
    picks swap openings (None: a fresh seed from the system, so that games differ).

    ``time_limit`` (seconds) bounds one move's thinking; the Gomocup brain sets it from the
    manager's time limits, and `threads` from its ``INFO thread_num``. `book` False plays
    without the opening book (the book's builder, and measures of the search alone).
    """

    def __init__(
        self,
        seed: int | None = 0,
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
        # The last alpha-beta search's tables by board and rule: the next search keeps its
        # transposition table (see `ai.gomoku.search`).
        self.kept: dict[tuple[int, int, Rule], Tables] = {}

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
        return self._decide(game, legal_points, Budget.of(self.time_limit))[0]

    def weigh(
        self, game: GomokuGame, seconds: float, avoid: Collection[Point] = ()
    ) -> tuple[Point, int]:
        """The player's move in `game` (not over) and how good the position is for the side to
        move, from up to `seconds` of the move's own thinking: ``WIN`` for a forced win (a five,
        fours, threes), the search's score otherwise, the static `evaluate` when the move was
        forced (a block) or no depth finished. The book is not asked: it holds no scores. The
        move is none of `avoid` while another is legal (the book's check drops moves that a
        stronger engine proves lost: bench/gomoku_book.py)."""
        self.last_depth = 0
        legal = game.legal_moves()
        allowed = [p for p in legal if p not in avoid] or legal
        move, value = self._decide(game, allowed, Budget.of(seconds))
        return move, self.evaluate(game) if value is None else value

    def _decide(
        self, game: GomokuGame, legal_points: list[Point], budget: Budget
    ) -> tuple[Point, int | None]:
        """`_choose` on `game`'s position: the move among `legal_points` and its score."""
        pos = Position.of(game)
        me = int(game.to_play)
        legal = {pos.index(p) for p in legal_points}
        move, value = self._choose(game, pos, me, legal, budget)
        return pos.point(move), value

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
        one of the openings of the rule's swap2 table, chosen as even (`book.swap2_openings`),
        turned at random, so that neither colour is a gift and no two games need start alike.
        Without a table for the rule or the board: the centre, White beside it, and the third
        stone within two points that the static evaluation calls most even."""
        rules = game.rules
        known = opening_book.swap2_openings(rules.rule)
        if known and rules.width == rules.height == opening_book.SIZE:
            (b1, b2), (w,) = self.rng.choice(known)[0]
            t = self.rng.randrange(8)
            return [opening_book.turned(p, t) for p in (b1, w, b2)]
        centre = Point((rules.width - 1) // 2, (rules.height - 1) // 2)
        options = []
        for dc, dr in ((1, 0), (1, 1)):
            white = Point(centre.col + dc, centre.row + dr)
            for r in range(centre.row - 2, centre.row + 3):
                for c in range(centre.col - 2, centre.col + 3):
                    third = Point(c, r)
                    if third in (centre, white):
                        continue
                    trial = GomokuGame(rules)
                    for p in (centre, white, third):
                        trial.play(p)
                    options.append(
                        (abs(self.evaluate(trial)), self.rng.random(), [centre, white, third])
                    )
        return min(options)[2]

    def choose_side(self, game: GomokuGame, may_place_two: bool) -> list[Point] | None:
        """A swap opening's choice for the side to move (White, after three or five stones),
        from a search of the position in the move's time: None to take the other colour
        (``SWAP``) when the side to move stands worse (its score below the rule's even score,
        ``EVEN_AT``), its move when not; and when `may_place_two` (swap2 after three stones)
        and the score is within ``SWAP_EVEN`` of even, two more stones that leave the position
        most even, so the opponent's choice gains little. Half the time goes to the first
        search when two stones may follow."""
        seconds = self.time_limit / 2 if may_place_two else self.time_limit
        move, value = self.weigh(game, seconds)
        even = EVEN_AT.get(game.rules.rule, 0)
        if may_place_two and abs(value - even) <= SWAP_EVEN:
            two = self._place_two(game, even, Budget.of(self.time_limit - seconds))
            if two is not None:
                return two
        if value < even:
            return None
        known = opening_book.move(game) if self.book else None
        return [known or move]

    def _place_two(self, game: GomokuGame, even: int, budget: Budget) -> list[Point] | None:
        """Stones 4 (White) and 5 (Black) of `pairs` whose position a search of each, in an
        equal share of `budget`, scores nearest `even`; None if there is no such pair."""
        trials = self.pairs(game)
        share = budget.limit / max(len(trials), 1)
        options = [
            (abs(self.weigh(trial, share)[1] - even), self.rng.random(), two)
            for trial, two in trials
        ]
        return min(options)[2] if options else None

    def pairs(self, game: GomokuGame) -> list[tuple[GomokuGame, list[Point]]]:
        """The pairs swap2's chooser weighs for stones 4 (White) and 5 (Black), each with the
        game they leave: the best-ranked points for each, leaving out a pair that ends the
        game or fouls."""
        pos = Position.of(game)
        point = pos.point
        trials = []
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
                    trials.append((trial, [point(w), point(b)]))
        return trials

    def _choose(
        self, game: GomokuGame, pos: Position, me: int, legal: set[int], budget: Budget
    ) -> tuple[int, int | None]:
        """Steps 1-5 of the module docstring: the move, and ``WIN`` when it wins by force, the
        search's score when it searched a depth, else None."""
        them = 3 - me
        wins = _judged_fives(game, pos, me, legal)
        if wins:
            return self._pick(pos, me, wins), WIN
        blocks = _judged_fives(game, pos, them, legal | set(pos.fives(them)))
        if blocks:
            return self._pick(pos, me, (blocks & legal) or legal, fours_first=True), None
        threats = ThreatSearch(pos, _VCF_NODES, budget.vcf_seconds())
        found = threats.vcf(me)
        if found is not None and found in legal:
            return found, WIN
        threats = ThreatSearch(pos, _VCT_NODES, budget.vct_seconds())
        found = threats.vct(me)
        if found is not None and found in legal:
            return found, WIN
        roots = [m for m in pos.ranked(me) if m in legal][:_ROOT_WIDTH] or sorted(legal)
        defences = self._defences(pos, me, roots, budget)
        board = (pos.width, pos.height, pos.rule)
        search = Search(pos, budget.hard(), self.threads, self.kept.get(board))
        self.kept = {board: search.tables}
        if defences:
            roots = defences
        else:  # no threat to stop: the moves that set up a win by fours join the roots
            roots += [m for m in search.setups(me) if m in legal and m not in roots]
        report = search.run(me, roots, budget.soft())
        self.last_depth = report.depth
        if not report.depth:
            return report.move, None
        ties = [m for m, s in report.scores.items() if s == report.score]
        return (self.rng.choice(ties) if len(ties) > 1 else report.move), report.score

    def _defences(self, pos: Position, me: int, roots: list[int], budget: Budget) -> list[int]:
        """When the opponent, moving twice, would win by fours or threes: the roots after which
        it no longer does (its own fours first); [] when there is no such threat or nothing
        stops it."""
        them = 3 - me
        share = budget.defence_seconds() / (len(roots) + 1)
        if not _threatens(pos, them, share):
            return []
        kept = []
        for m in roots:
            pos.place(m, me)
            try:
                if not _threatens(pos, them, share):
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


def _threatens(pos: Position, stone: int, seconds: float) -> bool:
    """Whether `stone`, moving next on `pos`, wins by fours or by threes within the defence's
    node and depth bounds."""
    solver = ThreatSearch(pos, _DEFENCE_NODES, seconds)
    return solver.vcf(stone) is not None or solver.vct(stone, _DEFENCE_DEPTH) is not None


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
