"""Small games for the diagram tests."""

from __future__ import annotations

import pytest

from tengen.core import Game, Point

# A ko on 6x6 at B5/C5, taken four times, with ko threats played elsewhere:
#  8 W B5, 9 B C5 takes 8, 12 W B5 takes 9, 15 B C5 takes 12, 17 B B5 connects.
KO_MOVES = [
    (1, 0), (2, 0), (0, 1), (3, 1), (1, 2), (2, 2), (5, 5), (1, 1), (2, 1),
    (5, 0), (4, 0), (1, 1), (5, 4), (4, 5), (2, 1), (5, 2), (1, 1),
]  # fmt: skip


@pytest.fixture
def ko_game() -> Game:
    """The ko fight of `KO_MOVES`, 17 moves, Black first."""
    game = Game(6)
    for col, row in KO_MOVES:
        game.play(Point(col, row))
    return game


@pytest.fixture
def game19() -> Game:
    """A 19x19 opening of 12 moves in the upper left, Black first."""
    game = Game(19)
    for col, row in [
        (15, 3), (3, 15), (16, 15), (3, 3), (2, 5), (2, 2), (3, 2),
        (2, 3), (4, 2), (4, 3), (5, 3), (3, 1),
    ]:  # fmt: skip
        game.play(Point(col, row))
    return game
