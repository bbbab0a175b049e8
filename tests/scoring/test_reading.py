"""Reading a small fight out (`scoring.reading`)."""

from __future__ import annotations

from tengen.core import Point
from tengen.core.coords import from_gtp
from tengen.core.diagram import parse
from tengen.scoring.reading import Budget, captured_moving_first

# Black's A2-D2 and C1-D1 round an eye of two points, A1-B1, inside White's wall: one eye
# whatever Black does (White's B1 after Black's A1, or the throw-in), so the chain is lost
# even moving first.
TWO_POINT_EYE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X X O . . . .
    . . X X O . . . .
    """

# The same with an eye of three points in a row, A1-C1: Black's B1 makes two eyes.
STRAIGHT_THREE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X X O . . . .
    . . . X O . . . .
    """


def points(vertices: str) -> set[Point]:
    return {p for v in vertices.split() if (p := from_gtp(v, 9, 9)) is not None}


def test_an_eye_of_two_points_dies_even_moving_first() -> None:
    board = parse(TWO_POINT_EYE)
    region = points("A1 B1 C1 D1 A2 B2 C2 D2")
    budget = Budget(10_000)
    assert captured_moving_first(board, Point(0, 7), region, budget, 10_000) is True
    assert 0 < budget.left < 10_000


def test_a_straight_three_lives_moving_first() -> None:
    board = parse(STRAIGHT_THREE)
    region = points("A1 B1 C1 D1 A2 B2 C2 D2")
    assert captured_moving_first(board, Point(0, 7), region, Budget(10_000), 10_000) is False


def test_out_of_budget_is_unknown_and_the_board_is_left_unchanged() -> None:
    board = parse(STRAIGHT_THREE)
    before = board.copy()
    region = points("A1 B1 C1 D1 A2 B2 C2 D2")
    assert captured_moving_first(board, Point(0, 7), region, Budget(1), 10_000) is None
    assert board.grid().tolist() == before.grid().tolist()
