"""Diagram tests of the capture rules: position in, move, position out."""

from __future__ import annotations

import pytest

from tengen.core import Board, Color, IllegalMove, IllegalReason, Point
from tengen.core.diagram import parse, render

B, W = Color.BLACK, Color.WHITE


def clean(text: str) -> str:
    """A diagram as `render` writes it: one space between symbols, no blank lines."""
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines())


def after(diagram: str, *moves: tuple[int, int, Color]) -> Board:
    board = parse(diagram)
    for col, row, color in moves:
        board.play(Point(col, row), color)
        board.check_consistency()
    return board


def test_single_capture_counts_a_prisoner() -> None:
    board = after(
        """
        . X .
        X O X
        . . .
        """,
        (1, 2, B),
    )
    assert render(board) == clean(
        """
        . X .
        X . X
        . X .
        """
    )
    assert board.captures(B) == 1
    assert board.captures(W) == 0


def test_capture_before_suicide_takes_two_chains() -> None:
    """Black's stone has no liberty of its own but removes both white chains' last one."""
    board = after(
        """
        . O X .
        O X . .
        X . . .
        """,
        (0, 0, B),
    )
    assert render(board) == clean(
        """
        X . X .
        . X . .
        X . . .
        """
    )
    assert board.captures(B) == 2


def test_capture_of_a_large_chain_frees_liberties_of_its_neighbours() -> None:
    board = after(
        """
        O O O X .
        X X O X .
        . X O X .
        X O O . .
        . X X . .
        """,
        (3, 3, B),
    )
    assert render(board) == clean(
        """
        . . . X .
        X X . X .
        . X . X .
        X . . X .
        . X X . .
        """
    )
    assert board.captures(B) == 7
    assert board.liberty_count(Point(0, 1)) == 6


def test_snapback() -> None:
    board = after(
        """
        . . O X .
        O O O X .
        X X X X .
        """,
        (1, 0, B),
    )
    assert board.liberty_count(Point(0, 1)) == 1
    board.play(Point(0, 0), W)
    assert board[Point(1, 0)] is None and board.captures(W) == 1
    assert board.ko_point is None, "a capture that joins a chain is no ko"
    board.play(Point(1, 0), B)
    board.check_consistency()
    assert render(board) == clean(
        """
        . X . X .
        . . . X .
        X X X X .
        """
    )
    assert board.captures(B) == 5


KO = """
    . X O .
    X O . O
    . X O .
"""


def test_simple_ko_forbids_the_immediate_retake_only() -> None:
    board = parse(KO)
    board.play(Point(2, 1), B)
    assert board.ko_point == Point(1, 1) and board.ko_color is W
    with pytest.raises(IllegalMove) as err:
        board.play(Point(1, 1), W)
    assert err.value.reason is IllegalReason.KO
    assert board.legality(Point(1, 1), B) is None, "the ko binds only the player to retake"
    board.play_pass()
    assert board.ko_point is None
    board.play(Point(1, 1), W)
    assert board[Point(2, 1)] is None


def test_single_stone_suicide_is_always_refused() -> None:
    board = parse(
        """
        . O .
        O . .
        """
    )
    for allow in (False, True):
        assert board.legality(Point(0, 0), B, allow_suicide=allow) is IllegalReason.SUICIDE


def test_multi_stone_suicide_only_when_allowed() -> None:
    board = parse(
        """
        X . O
        O O .
        """
    )
    assert board.legality(Point(1, 0), B) is IllegalReason.SUICIDE
    record = board.play(Point(1, 0), B, allow_suicide=True)
    board.check_consistency()
    assert render(board) == clean(
        """
        . . O
        O O .
        """
    )
    assert board.captures(W) == 2 and record.captured == 2
    board.undo(record)
    board.check_consistency()
    assert render(board) == clean(
        """
        X . O
        O O .
        """
    )
    assert board.captures(W) == 0


def test_occupied_and_off_board() -> None:
    board = parse("X .")
    assert board.legality(Point(0, 0), W) is IllegalReason.OCCUPIED
    assert board.legality(Point(2, 0), W) is IllegalReason.OFF_BOARD
    with pytest.raises(IllegalMove):
        board.play(Point(0, 5), W)


def test_undo_restores_captured_chains_ko_and_hash() -> None:
    board = parse(KO)
    before = (render(board), board.hash)
    record = board.play(Point(2, 1), B)
    assert board.hash != before[1]
    board.undo(record)
    board.check_consistency()
    assert (render(board), board.hash) == before
    assert board.ko_point is None and board.captures(B) == 0


def test_undo_of_a_capture_in_two_directions() -> None:
    board = parse(
        """
        X O . O X
        X O . O X
        . X . X .
        """
    )
    board.play(Point(2, 0), B)
    start = (render(board), board.hash)
    record = board.play(Point(2, 1), B)
    assert record.captured == 4
    board.check_consistency()
    board.undo(record)
    board.check_consistency()
    assert (render(board), board.hash) == start
    assert board[Point(1, 0)] is W and board[Point(3, 1)] is W
    assert board.liberty_count(Point(1, 0)) == 1


def test_chain_queries_and_labels_follow_first_stone_order() -> None:
    """The seed app's example: aa, ab, ca, bb, ba gives two chains named B1 and W2."""
    board = Board(5)
    for col, row, color in ((0, 0, B), (0, 1, W), (2, 0, B), (1, 1, W), (1, 0, B)):
        board.play(Point(col, row), color)
    chains = board.chains()
    assert [c.label for c in chains] == ["B1", "W2"]
    assert chains[0].stones == {Point(0, 0), Point(1, 0), Point(2, 0)}
    assert chains[1].stones == {Point(0, 1), Point(1, 1)}
    assert chains[1].liberties == {Point(0, 2), Point(1, 2), Point(2, 1)}
    assert board.liberties(Point(1, 0)) == {Point(2, 1), Point(3, 0)}
    assert board.chain(Point(0, 0)) == chains[0].stones


def test_atari_listing() -> None:
    board = parse(
        """
        O X . .
        . . . .
        . . . .
        """
    )
    assert [c.label for c in board.chains_in_atari()] == ["W1"]


def test_rectangular_and_tiny_boards() -> None:
    tiny = Board(1)
    assert tiny.legality(Point(0, 0), B) is IllegalReason.SUICIDE
    wide = Board(52, 3)
    wide.play(Point(51, 2), B)
    wide.play(Point(50, 2), W)
    wide.play(Point(51, 1), W)
    assert wide[Point(51, 2)] is None and wide.captures(W) == 1
    wide.check_consistency()
    with pytest.raises(ValueError):
        Board(53)


def test_playout_ends_in_a_consistent_position_with_eyes_left_alone() -> None:
    board = Board(9)
    moves = board.playout(B, seed=7)
    board.check_consistency()
    assert 0 < moves <= 3 * 81
    assert len(board.empty_points()) > 0
    for p in board.empty_points():
        for color in (B, W):
            if board.legality(p, color) is None:
                # With two passes the game ended because every remaining point is an own eye.
                assert board.is_eye_like(p, color)
    again = Board(9)
    assert again.playout(B, seed=7) == moves and again.hash == board.hash


def test_ownership_sees_settled_areas_and_leaves_the_board_alone() -> None:
    board = parse(
        """
        . X . X O . O
        X X X X O O .
        . . . X O . O
        X X X X O O O
        """
    )
    before = (render(board), board.hash)
    own = board.ownership(B, playouts=200, seed=3)
    assert own.shape == (4, 7)
    assert (own[:, :3] > 0.9).all() and (own[:, 5:] < -0.9).all()
    assert (render(board), board.hash) == before
    assert (board.ownership(B, playouts=200, seed=3) == own).all()


def test_repr_names_the_stones_without_drawing() -> None:
    board = parse(
        """
        . X .
        O . X
        . . .
        """
    )
    assert repr(board) == "Board(3x3, black B3 C2, white A2)"
    assert repr(Board(30, 2)) == "Board(30x2, empty)"  # SGF letters past 25 columns
    board = Board(30, 2)
    board.set_point(Point(29, 1), W)
    assert repr(board) == "Board(30x2, white Db)"  # column 29 is D, row 1 is b
