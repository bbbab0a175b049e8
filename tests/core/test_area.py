"""The one area count (`core.area`), against a slow reference written from Tromp-Taylor's
definition: a point is black's if it holds a black stone or is empty and there is a path of
empty points from it to a black stone and none to a white one; the same for white.

Every caller is checked on the same random boards: `Board.regions` (the scoring's regions),
the playout's result (`ai.policy.area_margin`), the batch's scores (`batch.loops.area`) and
`scoring.count` under area rules.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.ai.policy import area_margin
from tengen.batch import loops
from tengen.core import area
from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.rules import TROMP_TAYLOR
from tengen.scoring.count import score_position


def adjacent(p: Point, width: int, height: int) -> list[Point]:
    """The points next to `p` on the board."""
    near = [Point(p.col - 1, p.row), Point(p.col + 1, p.row), Point(p.col, p.row - 1),
            Point(p.col, p.row + 1)]  # fmt: skip
    return [q for q in near if 0 <= q.col < width and 0 <= q.row < height]


def reference_owner(board: Board) -> dict[Point, Color | None]:
    """Each point's owner by the definition: its stone, or the colours an empty point can
    reach through empty points (one colour owns it; both or none, nobody)."""
    owner: dict[Point, Color | None] = {}
    for start in board.points():
        if board[start] is not None:
            owner[start] = board[start]
            continue
        seen, stack, reached = {start}, [start], set()
        while stack:
            p = stack.pop()
            for q in adjacent(p, board.width, board.height):
                if board[q] is None and q not in seen:
                    seen.add(q)
                    stack.append(q)
                elif board[q] is not None:
                    reached.add(board[q])
        owner[start] = next(iter(reached)) if len(reached) == 1 else None
    return owner


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A board of 1x1 to 9x7 with any stones (chains without liberties included: the count
    does not care how a position arose)."""
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 7))
    board = Board(width, height)
    cells = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=width * height,
                          max_size=width * height))  # fmt: skip
    for i, v in enumerate(cells):
        if v:
            board.set_point(Point(i % width, i // width), Color(v))
    return board


@settings(max_examples=400, deadline=None)
@given(boards())
def test_every_caller_counts_the_area_as_the_definition_does(board: Board) -> None:
    truth = reference_owner(board)
    margin = sum(1 if c is Color.BLACK else -1 for c in truth.values() if c is not None)
    st_ = board.state  # the kernels' own state, as the compiled callers see it
    cells = st_.shape[1]
    owner = np.empty(cells, np.int32)
    scratch = np.empty(cells, np.int32), np.empty(cells, np.int32)
    assert area.owners(st_, owner, *scratch) == margin
    s = board.width + 1
    for p, color in truth.items():
        assert owner[(p.row + 1) * s + p.col + 1] == (0 if color is None else int(color))
    own = np.zeros(cells)
    assert area_margin(st_, 0, own) == margin
    batch = np.zeros((1, 2), np.int64)
    loops.area(st_[None].copy(), batch)
    assert batch[0, 0] - batch[0, 1] == margin
    labels, reach = board.regions()
    for p, color in truth.items():
        if board[p] is None:
            colors = reach[labels[p.row, p.col]]
            assert (Color(colors) if colors in (1, 2) else None) == color
    counted = score_position(board, TROMP_TAYLOR.with_komi(0))
    assert counted.black - counted.white == margin
