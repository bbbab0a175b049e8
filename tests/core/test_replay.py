"""`core.replay.play_line` plays a line exactly as a permissive, free-turn `Game` does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.core import Board, Color, Game, IllegalMove, Point
from tengen.core.kernels import KO, LEGAL, OCCUPIED, SUICIDE
from tengen.core.replay import MOVE, SETUP, STONE, SUPERKO, play_line
from tengen.core.rules import AGA, CHINESE, JAPANESE, NEW_ZEALAND, TROMP_TAYLOR, Ruleset

RULESETS = [JAPANESE, CHINESE, AGA, NEW_ZEALAND, TROMP_TAYLOR]
_CODES = {"occupied": OCCUPIED, "suicide": SUICIDE, "ko": KO, "superko": SUPERKO}


def _by_game(size: int, ruleset: Ruleset, rows: list[tuple[int, int, int, int]]) -> Game:
    """Play `rows` through Game, returning it with each row's code in ``game.codes``."""
    game = Game(size, size, ruleset, permissive=True, free_turns=True, end_after_passes=False)
    codes: list[int] = []
    stones: dict[int, list[Point]] = {0: [], 1: [], 2: []}
    for kind, color, col, row in rows:
        code = LEGAL
        if kind == STONE:
            stones[color].append(Point(col, row))
        elif kind == SETUP:
            game.setup(stones[1], stones[2], stones[0], to_play=Color(color) if color else None)
            stones = {0: [], 1: [], 2: []}
        else:
            move = None if col < 0 else Point(col, row)
            try:
                played = game.play(move, Color(color))
            except IllegalMove as err:
                code = _CODES[err.reason.value]
            else:
                code = _CODES[played.violations[0].value] if played.violations else LEGAL
        codes.append(code)
    game.codes = codes  # type: ignore[attr-defined]
    return game


@st.composite
def _lines(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int, int]]]:
    """A small board and a line of moves (passes now and then) with a setup or two."""
    size = draw(st.integers(2, 4))
    coord = st.integers(0, size - 1)
    rows: list[tuple[int, int, int, int]] = []
    for _ in range(draw(st.integers(0, 60))):
        if draw(st.integers(0, 15)) == 0:
            points = draw(st.lists(st.tuples(coord, coord), unique=True, max_size=3))
            rows += [(STONE, draw(st.integers(0, 2)), c, r) for c, r in points]
            rows.append((SETUP, draw(st.integers(0, 2)), 0, 0))
        elif draw(st.integers(0, 9)) == 0:
            rows.append((MOVE, draw(st.integers(1, 2)), -1, -1))
        else:
            rows.append((MOVE, draw(st.integers(1, 2)), draw(coord), draw(coord)))
    return size, rows


@settings(max_examples=200, deadline=None)
@given(_lines(), st.sampled_from(RULESETS))
def test_line_plays_as_game_does(
    line: tuple[int, list[tuple[int, int, int, int]]], ruleset: Ruleset
) -> None:
    size, rows = line
    board = Board(size)
    try:
        codes, to_play = play_line(board, ruleset, np.array(rows, np.int32).reshape(-1, 4))
    except ValueError:  # a setup leaving a chain with no liberty: Game refuses it too
        with pytest.raises(ValueError, match="no liberty"):
            _by_game(size, ruleset, rows)
        return
    game = _by_game(size, ruleset, rows)
    assert codes.tolist() == game.codes  # type: ignore[attr-defined]
    assert to_play is game.to_play
    assert np.array_equal(board.state, game.board.state)
    assert board.hash == game.board.hash


def test_superko_repeats_are_played_and_reported() -> None:
    """Move 7 recreates the position after move 1 (see tests/sgf/test_bulk.py)."""
    line = [(MOVE, 1 + i % 2, c, r) for i, (c, r) in enumerate([(1, 1), (0, 0), (0, 1), (1, 0)])]
    line += [(MOVE, 1, 1, 1), (MOVE, 2, 0, 1), (MOVE, 1, 1, 1)]
    board = Board(2)
    codes, to_play = play_line(board, CHINESE, np.array(line, np.int32))
    assert codes.tolist() == [LEGAL] * 6 + [SUPERKO]
    assert to_play is Color.WHITE and board.stones(Color.BLACK) == [Point(1, 1)]


@pytest.mark.parametrize(
    "rows",
    [
        [(MOVE, 1, 5, 0)],  # off the board
        [(MOVE, 3, 0, 0)],  # no such colour
        [(STONE, 1, 0, 0), (STONE, 2, 0, 0), (SETUP, 0, 0, 0)],  # one point twice in a setup
        [(STONE, 1, 0, 0)],  # a setup never ended
        [(STONE, 1, 0, 0), (MOVE, 2, 1, 1)],  # a move inside a setup
        [(7, 1, 0, 0)],  # no such kind
    ],
)
def test_bad_lines_raise_value_error(rows: list[tuple[int, int, int, int]]) -> None:
    with pytest.raises(ValueError, match="play_line"):
        play_line(Board(3), JAPANESE, np.array(rows, np.int32))


def test_starts_from_an_empty_board_only() -> None:
    board = Board(3)
    board.set_point(Point(1, 1), Color.BLACK)
    with pytest.raises(ValueError, match="empty board"):
        play_line(board, JAPANESE, np.zeros((0, 4), np.int32))
