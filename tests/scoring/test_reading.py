"""Reading a small fight out (`scoring.reading`)."""

from __future__ import annotations

import pytest

from tengen.core import Color, Point
from tengen.core.coords import from_gtp
from tengen.core.diagram import parse
from tengen.scoring.reading import Budget, Fight

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

# A lone black stone, B1, beside the two-point eye group: once it joins (at A1... or not),
# its fate is the group's.
TWO_CHAINS = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X . O . . . .
    . . X X O . . . .
    """

REGION = "A1 B1 C1 D1 A2 B2 C2 D2"


def points(vertices: str) -> set[Point]:
    return {p for v in vertices.split() if (p := from_gtp(v, 9, 9)) is not None}


def test_an_eye_of_two_points_dies_even_moving_first() -> None:
    board = parse(TWO_POINT_EYE)
    budget = Budget(10_000)
    fight = Fight(board, points(REGION), Color.BLACK)
    assert fight.captured_moving_first(Point(0, 7), budget, 10_000) is True
    assert 0 < budget.left < 10_000


def test_a_straight_three_lives_moving_first() -> None:
    board = parse(STRAIGHT_THREE)
    fight = Fight(board, points(REGION), Color.BLACK)
    assert fight.captured_moving_first(Point(0, 7), Budget(10_000), 10_000) is False


def test_out_of_budget_is_unknown_and_the_board_is_left_unchanged() -> None:
    board = parse(TWO_POINT_EYE)
    before = board.copy()
    fight = Fight(board, points(REGION), Color.BLACK)
    assert fight.captured_moving_first(Point(0, 7), Budget(2), 10_000) is None
    assert board.grid().tolist() == before.grid().tolist()
    # The fight's own board is taken back too: a later reading starts from the position.
    assert fight.board.grid().tolist() == before.grid().tolist()
    assert fight.captured_moving_first(Point(0, 7), Budget(10_000), 10_000) is True


def test_chains_of_one_fight_share_what_was_read() -> None:
    board = parse(TWO_CHAINS)
    region = points("A1 B1 C1 D1 A2 B2 C2 D2 D3")
    alone = Fight(board, region, Color.BLACK)
    first = Budget(10_000)
    alone.captured_moving_first(Point(0, 7), first, 10_000)
    second = Budget(10_000)
    answer = alone.captured_moving_first(Point(2, 8), second, 10_000)
    fresh = Budget(10_000)
    assert (
        Fight(board, region, Color.BLACK).captured_moving_first(Point(2, 8), fresh, 10_000)
        is answer
    )
    assert 10_000 - second.left < 10_000 - fresh.left


def test_a_chain_must_be_of_the_fights_colour_and_in_its_region() -> None:
    board = parse(TWO_POINT_EYE)
    fight = Fight(board, points(REGION), Color.WHITE)
    with pytest.raises(ValueError, match="colour"):
        fight.captured_moving_first(Point(0, 7), Budget(100), 100)
    with pytest.raises(ValueError, match="region"):
        fight.captured_moving_first(Point(0, 6), Budget(100), 100)
