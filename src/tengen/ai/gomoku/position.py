"""The searcher's position: the compiled pattern state, a Zobrist hash and renju's fouls.

`Position` wraps the arrays of `tengen.ai.gomoku.kernels` (through `core.jit.live`, so a cold
start runs their interpreted twins) and keeps a `GomokuBoard` beside them so that Black's moves
under renju are judged by the one foul judge, `tengen.gomoku.renju.forbidden`.
"""

from __future__ import annotations

import functools
import random

import numpy as np
import numpy.typing as npt

from tengen.ai.gomoku import kernels as compiled
from tengen.ai.gomoku import patterns
from tengen.core import jit
from tengen.core.coords import Point
from tengen.gomoku.board import BLACK, GomokuBoard
from tengen.gomoku.game import GomokuGame
from tengen.gomoku.renju import forbidden
from tengen.gomoku.rules import Rule

k = jit.live(compiled)  # interpreted until compiled (see `core.jit`)

Ints = npt.NDArray[np.int32]
_LINES = ((1, 0), (0, 1), (1, 1), (-1, 1))  # the four directions as (col, row) steps


@functools.cache
def geometry(width: int, height: int) -> tuple[Ints, Ints]:
    """The neighbour arrays of a board: ``nb`` (four lines, four each side) and ``sq`` (the
    24 points within two rows and columns); -1 off the board."""
    n = width * height
    nb = np.full((n, 4, 2 * patterns.HALF), -1, dtype=np.int32)
    sq = np.full((n, 24), -1, dtype=np.int32)
    for j in range(n):
        col, row = j % width, j // width
        for d, (dc, dr) in enumerate(_LINES):
            for slot, dist in enumerate((-4, -3, -2, -1, 1, 2, 3, 4)):
                c, r = col + dc * dist, row + dr * dist
                if 0 <= c < width and 0 <= r < height:
                    nb[j, d, slot] = r * width + c
        slot = 0
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                if dc or dr:
                    c, r = col + dc, row + dr
                    if 0 <= c < width and 0 <= r < height:
                        sq[j, slot] = r * width + c
                    slot += 1
    return nb, sq


@functools.cache
def _zobrist(n: int) -> tuple[list[int], list[int]]:
    rng = random.Random(20231123)
    return [rng.getrandbits(64) for _ in range(n)], [rng.getrandbits(64) for _ in range(n)]


class Position:
    """A board under a rule with its line patterns, stone by stone."""

    def __init__(self, width: int, height: int, rule: Rule) -> None:
        self.width, self.height, self.rule = width, height, rule
        self.n = n = width * height
        self.nb, self.sq = geometry(width, height)
        self.tbl = np.stack([patterns.table(rule, 1), patterns.table(rule, 2)])
        self.worth, self.kind = patterns.combos()
        self.cells = np.zeros(n, dtype=np.int8)
        self.key = np.zeros((2, n, 4), dtype=np.int32)
        self.pat = np.zeros((2, n, 4), dtype=np.int8)
        self.val = np.zeros((2, n), dtype=np.int32)
        self.kd = np.zeros((2, n), dtype=np.int8)
        self.total = np.zeros(2, dtype=np.int64)
        self.near = np.zeros(n, dtype=np.int16)
        self.out = np.zeros(n, dtype=np.int32)
        self.board = GomokuBoard(width, height)
        self._gi = [self.board.index(Point(j % width, j // width)) for j in range(n)]
        self.zob = _zobrist(n)
        self.hash = 0
        self.stones = 0
        self.nodes = 0
        self.refresh()

    @classmethod
    def of(cls, game: GomokuGame) -> Position:
        """The position of `game`'s board."""
        pos = cls(game.rules.width, game.rules.height, game.rules.rule)
        for _, p in game.moves:
            stone = game.board[p]
            if stone is not None:
                pos.place(pos.index(p), int(stone))
        return pos

    def refresh(self) -> None:
        """Recompute the pattern state from the stones (`kernels.fresh`)."""
        k.fresh(self.cells, self.nb, self.tbl, self.worth, self.kind, self.key, self.pat,
                self.val, self.kd, self.total, self.near, self.sq)  # fmt: skip

    def index(self, p: Point) -> int:
        """The point number of `p`."""
        return p.row * self.width + p.col

    def point(self, i: int) -> Point:
        """The point of number `i`."""
        return Point(i % self.width, i // self.width)

    def place(self, i: int, stone: int) -> None:
        """Put a `stone` (1 Black, 2 White) on the empty point `i`."""
        k.place(i, stone, self.cells, self.nb, self.tbl, self.worth, self.kind, self.key,
                self.pat, self.val, self.kd, self.total, self.near, self.sq)  # fmt: skip
        self.board.cells[self._gi[i]] = stone
        self.hash ^= self.zob[stone - 1][i]
        self.stones += 1

    def remove(self, i: int) -> None:
        """Take the stone off point `i`."""
        stone = int(self.cells[i])
        k.remove(i, self.cells, self.nb, self.tbl, self.worth, self.kind, self.key,
                 self.pat, self.val, self.kd, self.total, self.near, self.sq)  # fmt: skip
        self.board.cells[self._gi[i]] = 0
        self.hash ^= self.zob[stone - 1][i]
        self.stones -= 1

    def fives(self, stone: int) -> list[int]:
        """The empty points where `stone` makes a five (by the patterns)."""
        count = k.fives_of(self.cells, self.pat, stone - 1, self.out)
        return [int(j) for j in self.out[:count]]

    def threats(self, stone: int, least: int) -> list[int]:
        """The empty points where `stone`'s move makes a threat of class `least` or more."""
        count = k.collect(self.cells, self.kd, stone - 1, least, self.out)
        return [int(j) for j in self.out[:count]]

    def ranked(self, stone: int) -> list[int]:
        """The empty points near stones, the most promising for `stone` first."""
        count = k.ranked(self.cells, self.near, self.val, self.kd, stone - 1, self.out)
        return [int(j) for j in self.out[:count]]

    def may_play(self, i: int, stone: int) -> bool:
        """Whether `stone` may go on the empty point `i`: not a foul of Black under renju."""
        if stone != BLACK or self.rule is not Rule.RENJU:
            return True
        return forbidden(self.board, self.point(i)) is None

    def kind_of(self, i: int, stone: int) -> int:
        """The threat class `stone`'s move on `i` makes (`patterns.WIN` .. 0)."""
        return int(self.kd[stone - 1, i])

    def evaluate(self, stone: int) -> int:
        """The static worth of the position for `stone`, to move: its points' worth minus
        the opponent's (which moves second, so counts a little less)."""
        mine, theirs = int(self.total[stone - 1]), int(self.total[2 - stone])
        return mine - (theirs * 7) // 8
