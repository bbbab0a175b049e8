"""The searcher's position: the compiled pattern state, a Zobrist hash and renju's fouls.

`Position` wraps the arrays of `tengen.ai.gomoku.kernels` as one `ai.gomoku.state.State` for
the compiled searches (through `core.jit.live`, so a cold start runs their interpreted twins);
Black's moves under renju are judged by the one foul judge, `tengen.gomoku.judge` (compiled),
through `ai.gomoku.fouls`.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import numpy as np
import numpy.typing as npt

from tengen.ai.gomoku import fouls, patterns, state
from tengen.ai.gomoku import kernels as compiled
from tengen.ai.gomoku.state import State
from tengen.ai.gomoku.vcf import FAIL_SIZE, FRAME, VCF_ROWS
from tengen.ai.gomoku.vct import VCT_ROWS
from tengen.core import jit
from tengen.core.coords import Point
from tengen.gomoku import judge
from tengen.gomoku.board import GomokuBoard
from tengen.gomoku.game import GomokuGame
from tengen.gomoku.rules import Rule

k = jit.live(compiled)  # interpreted until compiled (see `core.jit`)
st = jit.live(state)
fo = jit.live(fouls)

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


def _judge_board(width: int, height: int) -> dict[str, npt.NDArray[Any]]:
    """The renju judge's board for `State` (`ai.gomoku.fouls` copies the stones in): an empty
    `GomokuBoard`'s cells, each point's cell, the line strides and the judge's stack."""
    board = GomokuBoard(width, height)
    cells = np.array(board.cells, dtype=np.int8)
    pad = [board.index(Point(j % width, j // width)) for j in range(width * height)]
    return {
        "board": cells,
        "pad": np.array(pad, dtype=np.int32),
        "steps": np.array(board.steps, dtype=np.int64),
        "work": judge.work_rows(len(cells)),
    }


@functools.cache
def _zobrist(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Random keys of the stones ([2, n], by colour index) and of the side to move ([2])."""
    rng = np.random.default_rng(20231123)
    keys = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=2 * n + 2)
    return keys[: 2 * n].reshape(2, n), keys[2 * n :]


class Position:
    """A board under a rule with its line patterns, stone by stone."""

    def __init__(self, width: int, height: int, rule: Rule) -> None:
        self.width, self.height, self.rule = width, height, rule
        self.n = n = width * height
        self.nb, self.sq = geometry(width, height)
        self.tbl = np.stack([patterns.table(rule, 1), patterns.table(rule, 2)])
        self.worth, self.kind = patterns.combos(rule)
        self.cells = np.zeros(n, dtype=np.int8)
        self.key = np.zeros((n, 4), dtype=np.int32)
        self.pat = np.zeros((2, n, 4), dtype=np.int8)
        self.code = np.zeros((2, n), dtype=np.int16)
        self.val = np.zeros((2, n), dtype=np.int32)
        self.kd = np.zeros((2, n), dtype=np.int8)
        self.total = np.zeros(2, dtype=np.int64)
        self.tally = np.zeros((2, 8), dtype=np.int32)
        self.near = np.zeros(n, dtype=np.int16)
        self.out = np.zeros(n, dtype=np.int32)
        zob, side = _zobrist(n)
        self.s = State(
            self.cells, self.nb, self.tbl, self.worth, self.kind, self.key, self.pat, self.code,
            self.val, self.kd, self.total, self.tally, self.near, self.sq, zob, side,
            hash=np.zeros(1, dtype=np.int64),
            nodes=np.zeros(1, dtype=np.int64),
            fail_key=np.zeros(FAIL_SIZE, dtype=np.int64),
            fail_depth=np.zeros(FAIL_SIZE, dtype=np.int32),
            fours=np.zeros((VCF_ROWS, n), dtype=np.int32),
            frame=np.zeros((VCF_ROWS, FRAME), dtype=np.int64),
            threes=np.zeros((VCT_ROWS, n), dtype=np.int32),
            **_judge_board(width, height),
            width=width,
            height=height,
            renju=rule is Rule.RENJU,
        )  # fmt: skip
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

    def copy(self) -> Position:
        """An independent copy: the same stones and pattern state in arrays of its own (a
        second search thread's board), its node count at 0."""
        twin = copy.copy(self)
        twin.s = State._make(v.copy() if isinstance(v, np.ndarray) else v for v in self.s)
        for name in ("cells", "key", "pat", "code", "val", "kd", "total", "tally", "near"):
            setattr(twin, name, getattr(twin.s, name))
        twin.out = np.zeros_like(self.out)
        twin.s.nodes[0] = 0
        return twin

    @property
    def hash(self) -> int:
        """The stones' Zobrist hash."""
        return int(self.s.hash[0])

    @property
    def nodes(self) -> int:
        """Nodes searched in this position so far, by every search."""
        return int(self.s.nodes[0])

    def refresh(self) -> None:
        """Recompute the pattern state from the stones (`kernels.fresh`)."""
        k.fresh(self.cells, self.nb, self.tbl, self.worth, self.kind, self.key, self.pat,
                self.code, self.val, self.kd, self.total, self.tally, self.near,
                self.sq)  # fmt: skip

    def index(self, p: Point) -> int:
        """The point number of `p`."""
        return p.row * self.width + p.col

    def point(self, i: int) -> Point:
        """The point of number `i`."""
        return Point(i % self.width, i // self.width)

    def place(self, i: int, stone: int) -> None:
        """Put a `stone` (1 Black, 2 White) on the empty point `i`."""
        st.play(self.s, i, stone)

    def remove(self, i: int) -> None:
        """Take the stone off point `i`."""
        st.undo(self.s, i)

    def fives(self, stone: int) -> list[int]:
        """The empty points where `stone` makes a five (by the patterns)."""
        count = k.fives_of(self.cells, self.pat, stone - 1, self.out)
        return [int(j) for j in self.out[:count]]

    def threats(self, stone: int, least: int) -> list[int]:
        """The empty points where `stone`'s move makes a threat of class `least` or more."""
        count = k.collect(self.cells, self.kd, self.tally, stone - 1, least, self.out)
        return [int(j) for j in self.out[:count]]

    def ranked(self, stone: int, pool: int = patterns.POOL) -> list[int]:
        """The empty points near stones, the most promising for `stone` first: the searches'
        order (`kernels.rank_key`, its first `pool` re-ranked by `kernels.refine`)."""
        count = k.ranked(self.cells, self.near, self.val, self.kd, self.code, self.worth,
                         stone - 1, pool, self.out)  # fmt: skip
        return [int(j) for j in self.out[:count]]

    def may_play(self, i: int, stone: int) -> bool:
        """Whether `stone` may go on the empty point `i`: not a foul of Black under renju
        (`ai.gomoku.fouls`, which asks the one judge)."""
        return bool(fo.may_play(self.s, i, stone))

    def kind_of(self, i: int, stone: int) -> int:
        """The threat class `stone`'s move on `i` makes (`patterns.WIN` .. 0)."""
        return int(self.kd[stone - 1, i])

    def evaluate(self, stone: int) -> int:
        """The static worth of the position for `stone`, to move (`state.evaluate`): its
        points' worth in the evaluation minus the opponent's at 3/4."""
        return int(st.evaluate(self.s, stone))
