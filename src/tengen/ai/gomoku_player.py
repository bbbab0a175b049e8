"""The built-in Gomoku player: threats first, then a pattern-scored two-ply search.

`GomokuPlayer.genmove` looks for, in this order:

1. a five of its own (a win in one);
2. the opponent's five-points: it blocks one, preferring a block that makes its own four;
3. a win by continuous fours (VCF): an open four, a double four, a four-three, or fours
   that force the replies up to one of those - the opponent's forced replies are played out,
   and a block that makes the opponent a four must itself be answered;
4. the opponent's winning threats (moves that would give it an open four, a double four or
   a four-three): the move that leaves fewest of them, best-scored first;
5. otherwise the best move of a two-ply search over the best-scored candidates near the stones.

Fives are judged by the game's own judge (`wins_at`) under the game's rule, and Black's moves
under renju are checked with `renju.forbidden`; the root moves are `game.legal_moves()`, so the
player never plays a forbidden point and never misses a five or a forced block.

The pattern score counts windows: every five cells in a row that hold stones of one colour
only. Playing a point raises the player's windows through it (``ATTACK``, steeply by how many
stones they hold) and spoils the opponent's (``DEFENCE``). It needs no table of shapes: an open
three lies in more three-stone windows than a closed one, so it scores more.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Iterable

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku.board import BLACK, EDGE, EMPTY, GomokuBoard, wins_at
from tengen.gomoku.game import GomokuGame, GomokuIllegal
from tengen.gomoku.renju import forbidden
from tengen.gomoku.rules import Rule

# Value of a one-colour window by its stones: 0..5.
_WINDOW = (0, 1, 12, 150, 2_000, 1_000_000)
ATTACK = tuple(_WINDOW[k + 1] - _WINDOW[k] for k in range(5))  # own window k -> k + 1 stones
DEFENCE = tuple(_WINDOW[k] * 9 // 10 for k in range(5))  # opponent's window of k spoiled
_ROOT_WIDTH = 12  # candidates searched at the root
_REPLY_WIDTH = 8  # opponent replies searched for each
_VCF_DEPTH = 8  # fours in a row the VCF search follows
_VCF_NODES = 1_000
WIN = _WINDOW[5]  # `evaluate` of a won position
EVEN = 60  # window points within which `evaluate` cannot tell the colours apart


@functools.cache
def _geometry(width: int, height: int) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    """The five-cell windows of a board (as ``GomokuBoard`` cell indices) and, for each cell,
    the windows through it."""
    board = GomokuBoard(width, height)
    cells = board.cells
    windows: list[tuple[int, ...]] = []
    through: list[list[int]] = [[] for _ in cells]
    for i, value in enumerate(cells):
        if value == EDGE:
            continue
        for step in board.steps:
            window = tuple(i + k * step for k in range(5))
            if all(0 <= j < len(cells) and cells[j] != EDGE for j in window):
                for j in window:
                    through[j].append(len(windows))
                windows.append(window)
    return windows, through


@functools.cache
def _neighbours(width: int, height: int) -> list[list[int]]:
    """For each cell index, the on-board cells within two rows and columns of it."""
    board = GomokuBoard(width, height)
    near: list[list[int]] = [[] for _ in board.cells]
    for p in board.points():
        near[board.index(p)] = [
            board.index(Point(c, r))
            for r in range(max(p.row - 2, 0), min(p.row + 3, height))
            for c in range(max(p.col - 2, 0), min(p.col + 3, width))
            if (c, r) != p
        ]
    return near


class _Position:
    """A scratch copy of the game's board with per-window stone counts kept up to date."""

    def __init__(self, game: GomokuGame) -> None:
        self.board = game.board.copy()
        self.cells = self.board.cells
        self.rule = game.rules.rule
        self.nodes = 0
        width, height = game.rules.width, game.rules.height
        self.windows, self.through = _geometry(width, height)
        self.near = _neighbours(width, height)
        self.count = {1: [0] * len(self.windows), 2: [0] * len(self.windows)}
        self.hot: dict[tuple[int, int], set[int]] = {(c, k): set() for c in (1, 2) for k in (3, 4)}
        self.filed: list[tuple[int, int] | None] = [None] * len(self.windows)
        self.stones: set[int] = set()
        for _, p in game.moves:
            i = self.board.index(p)
            value = self.cells[i]
            self.cells[i] = EMPTY
            self.place(i, value)

    # -- stones ------------------------------------------------------------------------------

    def place(self, i: int, c: int) -> None:
        """Put a `c` stone on the empty cell `i`."""
        self.cells[i] = c
        self.stones.add(i)
        count = self.count[c]
        for w in self.through[i]:
            count[w] += 1
            self._file(w)

    def remove(self, i: int) -> None:
        """Take the stone off cell `i`."""
        c = self.cells[i]
        self.cells[i] = EMPTY
        self.stones.discard(i)
        count = self.count[c]
        for w in self.through[i]:
            count[w] -= 1
            self._file(w)

    def _file(self, w: int) -> None:
        """Keep `hot`: the one-colour windows holding three or four stones."""
        black, white = self.count[1][w], self.count[2][w]
        key = None
        if black in (3, 4) and not white:
            key = (1, black)
        elif white in (3, 4) and not black:
            key = (2, white)
        old = self.filed[w]
        if old != key:
            if old is not None:
                self.hot[old].discard(w)
            if key is not None:
                self.hot[key].add(w)
            self.filed[w] = key

    # -- threats -----------------------------------------------------------------------------

    def empties(self, windows: Iterable[int]) -> set[int]:
        return {i for w in windows for i in self.windows[w] if self.cells[i] == EMPTY}

    def fives(self, c: int) -> set[int]:
        """The empty cells where a `c` stone would win under the rule."""
        found = set()
        for i in self.empties(self.hot[c, 4]):
            self.cells[i] = c
            if wins_at(self.board, self.board.point(i), Color(c), self.rule) is not None:
                found.add(i)
            self.cells[i] = EMPTY
        return found

    def fours(self, c: int) -> set[int]:
        """Empty cells where a `c` stone fills a window to four: the candidates for a four."""
        return self.empties(self.hot[c, 3])

    def may_play(self, i: int, c: int) -> bool:
        """Whether `c` may put a stone on the empty cell `i` (only Black under renju may not)."""
        if c != BLACK or self.rule is not Rule.RENJU:
            return True
        return forbidden(self.board, self.board.point(i)) is None

    def unstoppable(self, c: int) -> bool:
        """Whether `c`, to move after the opponent, makes a five whatever the opponent plays:
        the opponent has no five of its own and every block leaves `c` a five-point."""
        o = 3 - c
        points = self.fives(c)
        if not points or self.fives(o):
            return False
        for r in points:
            if not self.may_play(r, o):
                continue
            self.place(r, o)
            held = bool(self.fives(c))
            self.remove(r)
            if not held:
                return False
        return True

    def vcf(self, c: int, depth: int, allowed: set[int] | None = None) -> int | None:
        """A first move of a win by continuous fours for `c` (to move, no five of its own), or
        None; `allowed` limits the first move (the root's legal moves). Each four's forced
        block is played out; a block that makes a four must be answered by the next four."""
        o = 3 - c
        threats = self.fives(o)
        if len(threats) > 1:
            return None
        moves = self.fours(c)
        if threats:
            moves &= threats
        if allowed is not None:
            moves &= allowed
        for m in sorted(moves, key=lambda i: -self.gain(i, c)):
            self.nodes += 1
            if self.nodes > _VCF_NODES:
                return None
            if allowed is None and not self.may_play(m, c):
                continue
            self.place(m, c)
            try:
                if self.unstoppable(c):
                    return m
                points = self.fives(c)
                if depth > 1 and len(points) == 1:
                    (reply,) = points
                    if not self.may_play(reply, o):
                        return m
                    self.place(reply, o)
                    found = self.vcf(c, depth - 1)
                    self.remove(reply)
                    if found is not None:
                        return m
            finally:
                self.remove(m)
        return None

    def threatens(self, i: int, c: int) -> bool:
        """Whether a `c` stone on the empty cell `i` wins by force: an open four, a double four,
        or a four whose forced block leaves `c` an open four (a four-three)."""
        if not self.may_play(i, c):
            return False
        o = 3 - c
        self.place(i, c)
        try:
            if self.unstoppable(c):
                return True
            points = self.fives(c)
            if len(points) != 1 or self.fives(o):
                return False
            (block,) = points
            if not self.may_play(block, o):
                return True
            self.place(block, o)
            try:
                return not self.fives(o) and any(
                    self.may_play(m, c) and self._unstoppable_after(m, c) for m in self.fours(c)
                )
            finally:
                self.remove(block)
        finally:
            self.remove(i)

    def _unstoppable_after(self, i: int, c: int) -> bool:
        self.place(i, c)
        try:
            return self.unstoppable(c)
        finally:
            self.remove(i)

    # -- scores ------------------------------------------------------------------------------

    def gain(self, i: int, c: int) -> int:
        """What a `c` stone on `i` adds to `c`'s windows and takes from the opponent's."""
        mine, theirs = self.count[c], self.count[3 - c]
        total = 0
        for w in self.through[i]:
            k, j = mine[w], theirs[w]
            if not j:
                total += ATTACK[k]
            elif not k:
                total += DEFENCE[j]
        return total

    def candidates(self) -> set[int]:
        """Empty cells within two rows and columns of a stone."""
        cells, near = self.cells, self.near
        return {j for i in self.stones for j in near[i] if cells[j] == EMPTY}

    def best(self, c: int, width: int, among: Iterable[int] | None = None) -> list[int]:
        """The `width` best-scored candidate cells for `c`."""
        pool = self.candidates() if among is None else among
        return sorted(pool, key=lambda i: -self.gain(i, c))[:width]


class GomokuPlayer:
    """Threat search, then a pattern-scored search; `seed` breaks ties between equal moves.

    ``time_limit`` (seconds) bounds the searches; the Gomocup brain sets it from the manager's
    time limits. It bounds only the final search: the threat searches are bounded by size.
    """

    def __init__(self, seed: int = 0, time_limit: float = 0.4) -> None:
        self.rng = random.Random(seed)
        self.time_limit = time_limit

    def genmove(self, game: GomokuGame) -> Point:
        """A legal move for the player to move. Raises ValueError when there is none."""
        legal_points = game.legal_moves()
        if not legal_points:
            raise ValueError("no legal move: the game is over")
        position = _Position(game)
        board = position.board
        legal = {board.index(p) for p in legal_points}
        deadline = time.monotonic() + self.time_limit
        return board.point(self._choose(position, int(game.to_play), legal, deadline))

    def evaluate(self, game: GomokuGame) -> int:
        """How good `game` is for the player to move, in window points: ``WIN`` with a five to
        make or a win by continuous fours, ``-WIN`` facing two five-points, else its windows'
        worth minus the opponent's, plus its best move's gain (it moves first). 0 when over."""
        legal_points = game.legal_moves()
        if not legal_points:
            return 0
        pos = _Position(game)
        me = int(game.to_play)
        them = 3 - me
        legal = {pos.board.index(p) for p in legal_points}
        if pos.fives(me) & legal:
            return WIN
        if len(pos.fives(them)) > 1:
            return -WIN
        if pos.vcf(me, _VCF_DEPTH, legal) is not None:
            return WIN
        worth = 0
        for w in range(len(pos.windows)):
            mine, theirs = pos.count[me][w], pos.count[them][w]
            if not theirs:
                worth += _WINDOW[mine]
            elif not mine:
                worth -= _WINDOW[theirs]
        return worth + max(pos.gain(i, me) for i in pos.candidates() & legal or legal)

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
        """Stones 4 (White) and 5 (Black), among the best-scored candidates, that leave the
        position most even by the evaluation; None if every pair ends the game or fouls."""
        pos = _Position(game)
        point = pos.board.point
        options = []
        for w in pos.best(2, _REPLY_WIDTH // 2):
            pos.place(w, 2)
            blacks = pos.best(1, _REPLY_WIDTH // 2)
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

    def _choose(self, pos: _Position, me: int, legal: set[int], deadline: float) -> int:
        them = 3 - me
        if not pos.stones:
            return min(legal, key=lambda i: self._centre_distance(pos.board, i))
        wins = pos.fives(me) & legal
        if wins:
            return self._pick(pos, me, wins)
        blocks = pos.fives(them)
        if blocks:
            return self._block(pos, me, blocks & legal or legal)
        vcf = pos.vcf(me, _VCF_DEPTH, legal)
        if vcf is not None:
            return vcf
        threats = {i for i in pos.fours(them) if pos.threatens(i, them)}
        if threats:
            return self._defend(pos, me, threats, legal)
        return self._search(pos, me, legal, deadline)

    def _pick(self, pos: _Position, me: int, moves: Iterable[int]) -> int:
        """The best-scored of `moves`, ties broken by the seed."""
        return max(moves, key=lambda i: (pos.gain(i, me), self.rng.random()))

    def _block(self, pos: _Position, me: int, blocks: set[int]) -> int:
        """A block of a five-point; one that makes an own five-point (a four) first."""

        def value(i: int) -> tuple[int, int, float]:
            pos.place(i, me)
            fours = len(pos.fives(me))
            pos.remove(i)
            return fours, pos.gain(i, me), self.rng.random()

        return max(blocks, key=value)

    def _defend(self, pos: _Position, me: int, threats: set[int], legal: set[int]) -> int:
        """The move that leaves the opponent fewest winning threats (best-scored on a tie)."""
        them = 3 - me
        lines = {w for i in threats for w in pos.through[i] if pos.count[them][w] >= 2}
        options = (threats | pos.empties(lines)) & legal or legal

        def value(i: int) -> tuple[int, int, float]:
            pos.place(i, me)
            left = sum(1 for t in threats if t != i and pos.threatens(t, them))
            pos.remove(i)
            return -left, pos.gain(i, me), self.rng.random()

        return max(options, key=value)

    def _search(self, pos: _Position, me: int, legal: set[int], deadline: float) -> int:
        """Two plies over the best-scored candidates: own gain minus the best reply's gain."""
        them = 3 - me
        roots = pos.best(me, _ROOT_WIDTH, pos.candidates() & legal or legal)
        best, best_value = roots[0], float("-inf")
        for i in roots:
            if time.monotonic() > deadline:
                break
            value = pos.gain(i, me) + self.rng.random()
            pos.place(i, me)
            replies = pos.best(them, _REPLY_WIDTH)
            value -= max((pos.gain(r, them) for r in replies), default=0)
            pos.remove(i)
            if value > best_value:
                best, best_value = i, value
        return best

    @staticmethod
    def _centre_distance(board: GomokuBoard, i: int) -> float:
        p = board.point(i)
        return abs(p.col - (board.width - 1) / 2) + abs(p.row - (board.height - 1) / 2)
