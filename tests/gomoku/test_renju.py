"""Renju's forbidden points, one diagram per case of the RIF definitions.

``*`` marks the empty point judged for Black. The two recursive positions were found by
searching random boards for points where a judge that stops the recursion early disagrees
with the full one. Every diagram here, and every empty point of 1,800 random positions (about
365,000 points, 3,300 of them forbidden), was checked offline against Piskvork's ``foulr`` (the
Gomocup manager's judge, as GomocupJudge ports it): they agree.
"""

from __future__ import annotations

import pytest

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuRules, Rule, forbidden, forbidden_points, wins_at
from tengen.gomoku.game import GomokuGame, GomokuIllegal
from tests.gomoku.support import board, board_and_point


def judge(diagram: str) -> str | None:
    b, p = board_and_point(diagram)
    return forbidden(b, p)


def test_double_three() -> None:
    assert (
        judge(
            """
            . . . . . . . .
            . . . . . . . .
            . . . . X . . .
            . . . . X . . .
            . . X X * . . .
            . . . . . . . .
            . . . . . . . .
            """
        )
        == "double-three (lines: horizontal, vertical)"
    )


def test_split_threes_count() -> None:
    """``X.X*`` style (broken) threes are threes too."""
    assert judge(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . X . X * . . .
        . . . . . . . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . . . . . . .
        """
    ) == ("double-three (lines: horizontal, vertical)")


def test_false_three_blocked_on_both_sides() -> None:
    """``O.XX*.O`` cannot become a straight four: one three only, so no double-three."""
    assert (
        judge(
            """
            . . . . . . . . . .
            . . . . . . . . . .
            . O . X X * . O . .
            . . . . . X . . . .
            . . . . . X . . . .
            . . . . . . . . . .
            """
        )
        is None
    )


def test_false_three_against_the_edge() -> None:
    """A three on the first line has no room for a straight four towards the edge."""
    assert judge("X X * . . . . .\n. . X . . . . .\n. . . X . . . .") is None


def test_false_three_because_the_four_point_is_an_overline() -> None:
    """The horizontal three's only straight-four point (right of ``*``) is an overline point on
    its column, so it is forbidden and the three is false; the vertical three is real."""
    with_column = """
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . X . . .
        . . . . . . . . X . . .
        . . . . . . . . X . . .
        . . . . . . . . X . . .
        . . . O . X X * . . . .
        . . . . . . . X X . . .
        . . . . . . . X . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        """
    assert judge(with_column) is None
    without_column = """
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . O . X X * . . . .
        . . . . . . . X . . . .
        . . . . . . . X . . . .
        . . . . . . . . . . . .
        """
    assert judge(without_column) == "double-three (lines: horizontal, vertical)"


def test_false_three_because_the_four_point_is_a_double_three() -> None:
    """Recursion, one level: the anti-diagonal three ``XX.*`` becomes a straight four only at
    the gap, and that point makes a four plus two real threes (4-3-3, forbidden). So ``*``
    makes one three and is allowed."""
    assert (
        judge(
            """
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . X X * .
            . . . . . . . . . . . .
            . . . . . . . . X X X .
            . . . . . . . X . . . .
            """
        )
        is None
    )


def test_recursion_two_levels_deep() -> None:
    """A point whose double-three is real only because a point two levels down is forbidden:
    stopping the recursion after one level calls it allowed."""
    assert (
        judge(
            """
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . * . . .
            . . . . . . X X X . . .
            . . . . . . . . X X . .
            . . . . . X X . . . . .
            . . . . . . . . . . X .
            . . . . . . . . . . . .
            . . . . . . X . . . . .
            """
        )
        == "double-three (lines: vertical, anti-diagonal)"
    )


@pytest.mark.parametrize(
    "row",
    [
        ". X X X . * . X X X .",  # XXX.X.XXX
        ". . X X . * X . X X .",  # XX.XX.XX
        ". . . X . * X X . X .",  # X.XXX.X
    ],
)
def test_four_four_on_one_line(row: str) -> None:
    """Judged alike point by point and in the list (the list once skipped ``X.X*X.X``, whose
    line holds four black stones and its other lines none)."""
    diagram = f"{'. ' * 11}\n{row}\n{'. ' * 11}"
    assert judge(diagram) == "double-four (lines: horizontal, horizontal)"
    b, p = board_and_point(diagram)
    assert forbidden_points(b) == {p: "double-four (lines: horizontal, horizontal)"}


def test_straight_four_is_one_four() -> None:
    assert judge(f"{'. ' * 9}\n. . X X * X . . .\n{'. ' * 9}") is None


def test_double_four_on_two_lines() -> None:
    assert (
        judge(
            """
            . . . . . . . .
            . . . . X . . .
            . . . . X . . .
            . . . . X . . .
            . X X X * . . .
            . . . . O . . .
            """
        )
        == "double-four (lines: horizontal, vertical)"
    )


def test_four_three_is_allowed() -> None:
    assert (
        judge(
            """
            . . . . . . . .
            . . . . . . . .
            . . . . X . . .
            . . . . X . . .
            . X X X * . . .
            . . . . . . . .
            """
        )
        is None
    )


def test_overline_is_forbidden_for_black_and_wins_for_white() -> None:
    diagram = ". X X X * X X . .\n" + ". " * 9
    assert judge(diagram) == "overline (lines: horizontal)"
    b, p = board_and_point(diagram.replace("X", "O"))
    b.place(p, Color.WHITE)
    assert wins_at(b, p, Color.WHITE, Rule.RENJU) == [Point(c, 0) for c in range(1, 7)]


def test_five_with_double_three_is_allowed() -> None:
    """Exactly five wins even when the same stone makes a double-three."""
    assert (
        judge(
            """
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . X . . . .
            . . . . . X . . . .
            X X X X * . . . . .
            . . . X . . . . . .
            . . X . . . . . . .
            """
        )
        is None
    )
    assert judge("X X X X * . X\n. . . . X . .\n. . . . X . .\n. . . . . . .") is None


def test_five_beside_an_overline_is_allowed() -> None:
    assert (
        judge("X X . X X * . .\n. . . . . X . .\n. . . . . X . .\n. . . . . X . .\n. . . . . X . .")
        is None
    )


def test_only_renju_restricts() -> None:
    b, p = board_and_point(". X X X * X X . .\n" + ". " * 9)
    assert forbidden(b, p, Rule.STANDARD) is None
    with pytest.raises(ValueError, match="occupied"):
        forbidden(b, Point(1, 0))


def test_forbidden_points_lists_every_one_with_its_reason() -> None:
    b = board(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . . X . . . . . .
        . . . . X X . . .
        . . . . . . . . .
        """
    )
    assert forbidden_points(b) == {
        Point(2, 4): "double-three (lines: horizontal, vertical)"
    }  # not (3, 4): its second line holds one black stone


def test_the_game_refuses_a_forbidden_move_and_lists_legal_ones() -> None:
    game = GomokuGame(GomokuRules(Rule.RENJU))
    black = [Point(5, 7), Point(6, 7), Point(7, 5), Point(7, 6)]
    white = [Point(0, 0), Point(0, 2), Point(0, 4), Point(0, 6)]
    for b, w in zip(black, white, strict=True):
        game.play(b)
        game.play(w)
    assert game.forbidden_points() == {Point(7, 7): "double-three (lines: horizontal, vertical)"}
    bad = next(iter(game.forbidden_points()))
    assert bad not in game.legal_moves()
    with pytest.raises(GomokuIllegal) as caught:
        game.play(bad)
    assert caught.value.reason.startswith("forbidden: double-three")
    assert caught.value.move_number == 9
    game.play(Point(14, 14))
    assert game.forbidden_points() == {}  # White to play
