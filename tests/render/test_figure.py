"""What a figure shows: stones, numbers, notes for re-used points, last move, labels, stars."""

from __future__ import annotations

import pytest

from tengen.core import Board, Color, Game, GameMove, Point
from tengen.render import (
    board_after,
    column_labels,
    game_figure,
    numbered_figure,
    position_figure,
    row_labels,
    star_points,
)
from tengen.render.figure import wrap_notes

B, W = Color.BLACK, Color.WHITE


def test_numbered_figure_keeps_game_numbers_and_notes_the_ko(ko_game: Game) -> None:
    fig = game_figure(ko_game, moves=(1, 17))
    assert fig.numbers[Point(1, 1)] == 8  # the first stone at B5, though captured
    assert fig.stones[Point(1, 1)] is W
    assert fig.numbers[Point(2, 1)] == 9
    assert fig.notes == ("12, 17 at 8", "15 at 9")
    assert len(fig.numbers) == 17 - 3
    assert fig.letters == {}
    assert fig.last is None


def test_numbered_figure_letters_a_stone_from_before_it(ko_game: Game) -> None:
    fig = game_figure(ko_game, moves=(10, 17))
    # C5 holds Black 9 when the figure starts: drawn plain, lettered for the note.
    assert Point(2, 1) not in fig.numbers
    assert fig.letters == {Point(2, 1): "A"}
    assert fig.text(Point(2, 1)) == "A"
    assert fig.numbers[Point(1, 1)] == 12  # B5 was empty at the start (8 had been taken)
    assert fig.notes == ("15 at A", "17 at 12")
    assert fig.stones[Point(1, 0)] is B  # earlier stones are there, unnumbered
    assert Point(1, 0) not in fig.numbers


def test_renumbered_figure_counts_from_one(ko_game: Game) -> None:
    fig = game_figure(ko_game, moves=(10, 17), renumber=True)
    assert fig.numbers[Point(5, 0)] == 1
    assert fig.numbers[Point(1, 1)] == 3
    assert fig.notes == ("6 at A", "8 at 3")
    assert fig.played[0] == (1, W)


def test_passes_are_noted() -> None:
    game = Game(9)
    game.play(Point(2, 2))
    game.pass_move()
    game.play(Point(6, 6))
    fig = game_figure(game, moves=(1, 3))
    assert fig.notes == ("2 pass",)
    assert fig.played == ((1, B), (2, W), (3, B))


def test_notes_are_in_move_order() -> None:
    base = Board(9)
    base.set_point(Point(4, 4), B)
    moves = [
        GameMove(B, Point(0, 0), 1, 0),
        GameMove(W, Point(1, 0), 2, 0),
        GameMove(B, None, 3, 0),
        GameMove(W, Point(4, 4), 4, 0),
        GameMove(B, Point(0, 0), 5, 0),
        GameMove(W, Point(4, 4), 6, 0),
    ]
    fig = numbered_figure(base, moves)
    assert fig.notes == ("3 pass", "4, 6 at A", "5 at 1")
    assert fig.stones[Point(4, 4)] is B


def test_position_figure_marks_the_last_move(ko_game: Game) -> None:
    fig = game_figure(ko_game, move=12)
    assert fig.last == Point(1, 1)
    assert fig.stones[Point(1, 1)] is W
    assert Point(2, 1) not in fig.stones  # 9 was taken by 12
    assert fig.numbers == {} and fig.notes == ()
    assert game_figure(ko_game).last == Point(1, 1)  # move 17 connects at B5
    assert game_figure(ko_game, move=0).stones == {}
    assert game_figure(ko_game, move=0).last is None


def test_board_after_leaves_the_game_as_it_was(ko_game: Game) -> None:
    before = ko_game.board.hash, ko_game.move_number, ko_game.to_play
    board = board_after(ko_game, 9)
    assert board[Point(2, 1)] is B and board[Point(1, 1)] is None
    assert (ko_game.board.hash, ko_game.move_number, ko_game.to_play) == before
    with pytest.raises(ValueError, match="outside"):
        board_after(ko_game, 18)


def test_chain_labels_name_each_chain_with_its_liberties() -> None:
    game = Game(5)
    for point in [Point(0, 0), Point(0, 1), Point(1, 0), Point(4, 4)]:
        game.play(point)
    fig = game_figure(game, chain_labels=True)
    assert fig.labels == {Point(0, 0): "B1:2", Point(0, 1): "W2:2", Point(4, 4): "W3:2"}


def test_chain_label_avoids_the_last_move_when_it_can() -> None:
    board = Board(5)
    for point in [Point(1, 1), Point(2, 1)]:
        board.set_point(point, B)
    fig = position_figure(board, Point(1, 1), chain_labels=True)
    assert fig.labels == {Point(2, 1): "B1:6"}


def test_bad_requests_are_refused(ko_game: Game) -> None:
    with pytest.raises(ValueError, match="outside"):
        game_figure(ko_game, moves=(5, 18))
    with pytest.raises(ValueError, match="outside"):
        game_figure(ko_game, moves=(6, 5))
    with pytest.raises(ValueError, match="not both"):
        game_figure(ko_game, move=3, moves=(1, 2))
    with pytest.raises(ValueError, match="chain labels"):
        game_figure(ko_game, moves=(1, 2), chain_labels=True)


@pytest.mark.parametrize(
    ("width", "height", "expected"),
    [
        (19, 19, [(3, 3), (9, 3), (15, 3), (3, 9), (9, 9), (15, 9), (3, 15), (9, 15), (15, 15)]),
        (13, 13, [(3, 3), (9, 3), (6, 6), (3, 9), (9, 9)]),
        (9, 9, [(2, 2), (6, 2), (4, 4), (2, 6), (6, 6)]),
        (8, 8, [(2, 2), (5, 2), (2, 5), (5, 5)]),
        (6, 6, []),
        (19, 9, [(3, 2), (9, 2), (15, 2), (9, 4), (3, 6), (9, 6), (15, 6)]),
    ],
)
def test_star_points(width: int, height: int, expected: list[tuple[int, int]]) -> None:
    assert star_points(width, height) == [Point(c, r) for c, r in expected]


def test_coordinate_labels() -> None:
    assert column_labels(9) == list("ABCDEFGHJ")
    assert column_labels(25)[-1] == "Z"
    assert column_labels(26)[8] == "i" and column_labels(52)[-1] == "Z"
    assert row_labels(3) == ["3", "2", "1"]


def test_wrap_notes_never_splits_a_note() -> None:
    notes = ["12, 18 at 6", "20 at 3", "25 pass"]
    assert wrap_notes(notes, 20) == ["12, 18 at 6; 20 at 3", "25 pass"]
    assert wrap_notes(notes, 5) == notes
    assert wrap_notes([], 10) == []
