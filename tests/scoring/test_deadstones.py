"""Marking dead stones by clicks, and reporting what is unsettled before counting.

Points are ``Point(col, row)`` with row 0 the top line of the diagram.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tengen.core import Board, Color, Point, diagram
from tengen.core.rules import CHINESE
from tengen.scoring import score_position, toggle_dead, unsettled, unsettled_points
from tengen.scoring.deadstones import related_stones

B, W = Color.BLACK, Color.WHITE

# Two black chains inside White's area, joined only through the empty point (2,0).
FALSE_EYE = """
. X . X O . .
X X X O O . .
O O O O . . .
. . . . . . .
"""

# A white stone (3,1) and a white pair (4,3)-(4,4) inside Black's side, apart from each other
# only by empty points: one enclosure, so they die together.
INVASION = """
. X O . . .
. X O O . .
. X X X X X
. . . . . .
. . . O O .
. . . . . .
"""


def test_clicking_a_chain_marks_every_chain_of_its_enclosure() -> None:
    board = diagram.parse(FALSE_EYE)
    dead = toggle_dead(board, set(), Point(1, 1))
    assert dead == {Point(1, 0), Point(0, 1), Point(1, 1), Point(2, 1), Point(3, 0)}
    assert score_position(board, CHINESE.with_komi(0), dead).white == 28


def test_clicking_a_dead_stone_brings_its_enclosure_back() -> None:
    board = diagram.parse(FALSE_EYE)
    dead = toggle_dead(board, set(), Point(3, 0))
    assert toggle_dead(board, dead, Point(0, 1)) == set()


def test_related_stones_stop_at_the_opponent() -> None:
    board = diagram.parse(INVASION)
    assert related_stones(board, Point(4, 4)) == {Point(3, 4), Point(4, 4)}
    # The white wall at the top is cut off from the pair by Black's row 2.
    assert related_stones(board, Point(2, 0)) == {Point(2, 0), Point(2, 1), Point(3, 1)}
    assert toggle_dead(board, {Point(0, 0)}, Point(0, 0)) == {Point(0, 0)}  # empty point


def test_unsettled_reports_dame_and_chains_in_atari() -> None:
    board = diagram.parse(FALSE_EYE)
    assert unsettled(board) == {Point(3, 0): "black chain in atari"}
    dead = toggle_dead(board, set(), Point(1, 1))
    assert unsettled_points(board, dead) == []
    dame = diagram.parse(". X . O .\n. X . O .")
    assert unsettled(dame) == {
        Point(2, 0): "dame: bordered by both colours",
        Point(2, 1): "dame: bordered by both colours",
    }


def test_shared_liberties_of_a_marked_seki_are_settled() -> None:
    board = diagram.parse(
        """
        O . X O . .
        O . X O . .
        X X O O . .
        . X O . . .
        """
    )
    assert unsettled_points(board) == [Point(1, 0), Point(1, 1)]
    assert unsettled_points(board, seki=[Point(0, 0), Point(2, 0)]) == []


def test_atari_is_judged_with_the_dead_stones_off() -> None:
    """The black stone (1,0) is in atari only because of the dead white stones next to it."""
    board = diagram.parse(
        """
        O X . .
        . O . .
        . . . .
        """
    )
    assert unsettled(board)[Point(1, 0)] == "black chain in atari"
    assert unsettled(board, dead=[Point(0, 0), Point(1, 1)]) == {}


@st.composite
def boards_and_clicks(draw: st.DrawFn) -> tuple[Board, list[Point]]:
    """A random position of up to 6x6 and a few clicks on it."""
    width, height = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    size = width * height
    cells = draw(st.lists(st.sampled_from([None, B, W]), min_size=size, max_size=size))
    board = Board(width, height)
    for point, value in zip(board.points(), cells, strict=True):
        board.set_point(point, value)
    points = st.builds(Point, st.integers(0, width - 1), st.integers(0, height - 1))
    return board, draw(st.lists(points, max_size=6))


@given(boards_and_clicks())
def test_toggling_twice_gives_back_the_set(case: tuple[Board, list[Point]]) -> None:
    board, clicks = case
    dead: set[Point] = set()
    for point in clicks:
        dead = toggle_dead(board, dead, point)
    for point in board.points():
        assert toggle_dead(board, toggle_dead(board, dead, point), point) == dead
    assert all(board[p] is not None for p in dead)
