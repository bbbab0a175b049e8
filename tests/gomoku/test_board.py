"""The board's mechanics and the judge: a diagram for every rule's wins and non-wins, and the
property that the judge by the last stone agrees with the full scan of the board."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuBoard, Rule, winner_full_scan, wins_at
from tests.gomoku.support import board


def test_place_remove_and_read() -> None:
    b = GomokuBoard(7, 5)
    b.place(Point(6, 4), Color.WHITE)
    assert b[Point(6, 4)] is Color.WHITE and b[Point(0, 0)] is None
    assert b.stone_count == 1
    with pytest.raises(ValueError, match="occupied"):
        b.place(Point(6, 4), Color.BLACK)
    with pytest.raises(ValueError, match="off the 7x5 board"):
        b.place(Point(7, 0), Color.BLACK)
    b.remove(Point(6, 4))
    with pytest.raises(ValueError, match="empty"):
        b.remove(Point(6, 4))
    assert b == GomokuBoard(7, 5)


def test_edges_stop_every_line() -> None:
    """A stone at each corner sees no neighbour across the padding, even in a 5x5 corner."""
    b = board("X . . . X\n. . . . .\n. . . . .\n. . . . .\nX . . . X", 5)
    for p in (Point(0, 0), Point(4, 0), Point(0, 4), Point(4, 4)):
        assert all(len(run) == 1 for run in b.line_through(p, Color.BLACK))


def test_line_through_an_empty_point() -> None:
    b = board(". X .\nX . X\n. X .", 5)
    horizontal, vertical, diagonal, anti = b.line_through(Point(1, 1), Color.BLACK)
    assert horizontal == [Point(0, 1), Point(1, 1), Point(2, 1)]
    assert vertical == [Point(1, 0), Point(1, 1), Point(1, 2)]
    assert diagonal == anti == [Point(1, 1)]


def test_diagram_round_trip_and_copy() -> None:
    text = "X O . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . O"
    b = GomokuBoard.from_diagram(text)
    assert b.diagram() == text
    c = b.copy()
    c.place(Point(4, 0), Color.BLACK)
    assert b.diagram() == text and c != b


def test_rectangular_board_edges() -> None:
    b = GomokuBoard(52, 5)
    for col in range(47, 52):
        b.place(Point(col, 4), Color.BLACK)
    assert wins_at(b, Point(51, 4), Color.BLACK, Rule.STANDARD) == [
        Point(c, 4) for c in range(47, 52)
    ]
    assert b.name(Point(51, 4)) == "Ze"  # beyond 25 columns, SGF letters


FIVE = ". . X X X X X . ."
SIX = ". . X X X X X X ."
FIVE_BETWEEN_WHITE = ". O X X X X X O ."


@pytest.mark.parametrize(
    ("row", "rule", "color", "wins"),
    [
        (FIVE, Rule.FREESTYLE, Color.BLACK, True),
        (SIX, Rule.FREESTYLE, Color.BLACK, True),
        (FIVE, Rule.STANDARD, Color.WHITE, True),
        (SIX, Rule.STANDARD, Color.BLACK, False),
        (SIX, Rule.STANDARD, Color.WHITE, False),
        (FIVE, Rule.RENJU, Color.BLACK, True),
        (SIX, Rule.RENJU, Color.BLACK, False),
        (SIX, Rule.RENJU, Color.WHITE, True),
        (FIVE, Rule.CARO, Color.BLACK, True),
        (SIX, Rule.CARO, Color.BLACK, False),
        (FIVE_BETWEEN_WHITE, Rule.CARO, Color.BLACK, False),
        (FIVE_BETWEEN_WHITE, Rule.STANDARD, Color.BLACK, True),
        ("X X X X X O . . .", Rule.CARO, Color.BLACK, True),  # the edge does not block
        ("O X X X X X . . .", Rule.CARO, Color.BLACK, True),  # one end blocked only
    ],
)
def test_rows_under_each_rule(row: str, rule: Rule, color: Color, wins: bool) -> None:
    """The row is drawn for Black; for White the colours swap."""
    if color is Color.WHITE:
        row = row.replace("X", "x").replace("O", "X").replace("x", "O")
    b = board(f"{row}\n" + ". " * 9)
    last = Point(row.replace(" ", "").index("X" if color is Color.BLACK else "O") + 2, 0)
    if b[last] is not color:
        last = Point(4, 0)
    line = wins_at(b, last, color, rule)
    full = winner_full_scan(b, rule)
    assert (line is not None) == wins == (full is not None)
    if line is not None:
        assert full == (color, line)
        assert len(line) == row.count("X" if color is Color.BLACK else "O")


def test_caro_blocked_five_on_a_diagonal() -> None:
    b = board(
        """
        O . . . . . .
        . X . . . . .
        . . X . . . .
        . . . X . . .
        . . . . X . .
        . . . . . X .
        . . . . . . O
        """
    )
    assert wins_at(b, Point(3, 3), Color.BLACK, Rule.CARO) is None
    assert wins_at(b, Point(3, 3), Color.BLACK, Rule.FREESTYLE) == [
        Point(i, i) for i in range(1, 6)
    ]


def test_the_judge_needs_the_stone_on_the_point() -> None:
    b = board(FIVE)
    assert wins_at(b, Point(0, 0), Color.BLACK, Rule.FREESTYLE) is None
    assert wins_at(b, Point(2, 0), Color.WHITE, Rule.FREESTYLE) is None


def test_anti_diagonal_win_reports_the_run_in_order() -> None:
    b = board(
        """
        . . . . X
        . . . X .
        . . X . .
        . X . . .
        X . . . .
        """
    )
    run = [Point(4, 0), Point(3, 1), Point(2, 2), Point(1, 3), Point(0, 4)]
    assert wins_at(b, Point(2, 2), Color.BLACK, Rule.STANDARD) == run
    assert winner_full_scan(b, Rule.STANDARD) == (Color.BLACK, run)


sizes = st.tuples(st.integers(5, 12), st.integers(5, 12))


@given(sizes, st.sampled_from(list(Rule)), st.randoms(use_true_random=False))
def test_judge_agrees_with_full_scan(size: tuple[int, int], rule: Rule, rng: random.Random) -> None:
    """After every stone of a random game (until a win), the judge by the last stone and the
    full scan agree on whether there is a winner, who, and (the one new win) which line."""
    width, height = size
    b = GomokuBoard(width, height)
    points = list(b.points())
    rng.shuffle(points)
    # Cluster the game: half the time, play only in a 6x6 corner region so rows form fast.
    if rng.random() < 0.5:
        points = [p for p in points if p.col < 6 and p.row < 6] + [
            p for p in points if not (p.col < 6 and p.row < 6)
        ]
    color = Color.BLACK
    for p in points:
        b.place(p, color)
        line = wins_at(b, p, color, rule)
        full = winner_full_scan(b, rule)
        if full is None:
            assert line is None
        else:
            assert line is not None and full[0] is color
            assert p in full[1] and p in line
            break
        color = color.opponent
