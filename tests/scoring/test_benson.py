"""Benson's pass-alive chains and regions: diagram tests, then GNU Go's regression answers.

GNU Go's ``unconditional.tst`` asks ``unconditional_status`` about points of positions from
the computer-go mailing list (benson_safe1-3, benson_unsafe: Benson's algorithm itself) and of
positions where GNU Go goes further (unconditional1-8). For the first group every answer must
match. For the second, GNU Go lets the owner capture the opponent's stones inside first, which
pass-alive status does not: in unconditional3 White takes Black's Q2-R2 if Black only passes
(W P2, Q3, R3, Q1, R1, then S2 captures), yet GNU Go calls it alive. There every answer tengen
decides must be GNU Go's (never alive, dead or territory where GNU Go is undecided or says
otherwise), and what it leaves undecided is counted.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.core import Board, Color, Point
from tengen.core.coords import from_gtp
from tengen.core.diagram import parse
from tengen.scoring.benson import pass_alive
from tengen.sgf import parse_file
from tengen.sgf.replay import replay

B, W = Color.BLACK, Color.WHITE
REGRESSION = (Path(__file__).parents[2] / ".." / "shared" / "corpus" / "gnugo_regression").resolve()


def points(board: Board, diagram: str) -> set[Point]:
    """The points marked ``*`` in a diagram of `board`'s size."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert (len(rows), len(rows[0])) == (board.height, board.width)
    return {Point(c, r) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "*"}


def test_two_eyes_are_pass_alive_and_the_eyes_safe() -> None:
    board = parse(
        """
        . X . X .
        X X X X X
        . . . . .
        . . . . .
        """
    )
    alive, safe = pass_alive(board, B)
    assert alive == set(board.stones(B))
    assert safe == {Point(0, 0), Point(2, 0), Point(4, 0)}
    assert pass_alive(board, W) == (set(), set())


def test_one_eye_is_not_pass_alive() -> None:
    board = parse(
        """
        . X X X X
        X X X X X
        . . . . .
        . . . . .
        """
    )
    assert pass_alive(board, B) == (set(), set())


def test_a_false_eye_is_not_an_eye() -> None:
    # C19 is an eye of the big chain only while D19 lives, and D19 has no other eye.
    board = parse(
        """
        . X . X O . .
        X X X O O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert pass_alive(board, B) == (set(), set())


def test_two_chains_sharing_two_eyes_live_together() -> None:
    board = parse(
        """
        X . X O .
        . X X O .
        X X O O .
        O O O . .
        """
    )
    alive, safe = pass_alive(board, B)
    assert alive == set(board.stones(B))
    assert safe == {Point(1, 0), Point(0, 1)}


def test_stones_in_a_vital_region_are_dead_and_the_region_safe() -> None:
    board = parse(
        """
        O . X . X
        . X X X X
        X X . . .
        . . . . .
        """
    )
    alive, safe = pass_alive(board, B)
    assert alive == set(board.stones(B))
    assert safe == {Point(0, 0), Point(1, 0), Point(0, 1), Point(3, 0)}


def test_with_suicide_the_opponent_can_empty_a_region() -> None:
    # White can play B1 then A2 and take its own three stones off: the eye turns into a
    # three-point corner that Black no longer touches everywhere.
    board = parse(
        """
        O . X . X
        . X X X X
        X X . . .
        . . . . .
        """
    )
    assert pass_alive(board, B)[0] == set(board.stones(B))
    assert pass_alive(board, B, suicide_allowed=True) == (set(), set())


def test_a_large_enclosure_is_not_safe_territory() -> None:
    board = parse(
        """
        . X . X . . . . X
        X X X X . . . . X
        . . . X . . . . X
        . . . X X X X X X
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    alive, safe = pass_alive(board, B)
    assert alive == set(board.stones(B))
    assert safe == {Point(0, 0), Point(2, 0)}


def test_two_adjacent_inner_points_stay_safe_three_do_not() -> None:
    small = parse(
        """
        . . . X . X .
        . . X X X X X
        X X X . . . .
        . . . . . . .
        """
    )
    # A1 and B1 are inner points of the corner region: White cannot make two eyes there.
    expected = """
        * * * X * X *
        * * X X X X X
        X X X . . . .
        . . . . . . .
        """
    assert pass_alive(small, B)[1] == points(small, expected)
    large = parse(
        """
        . . . . X . X .
        . . . X X X X X
        X X X X . . . .
        . . . . . . . .
        """
    )
    assert pass_alive(large, B)[1] == {Point(5, 0), Point(7, 0)}


def test_any_board_shape() -> None:
    assert pass_alive(Board(1), B) == (set(), set())
    assert pass_alive(Board(25, 2), W) == (set(), set())
    board = parse(". X X . X X .")
    assert pass_alive(board, B) == (set(board.stones(B)), {Point(0, 0), Point(3, 0), Point(6, 0)})
    # Single stones: the end ones have one vital region each, and their fall takes the rest.
    assert pass_alive(parse(". X . X . X"), B) == (set(), set())


# -- GNU Go's regression answers --------------------------------------------------------------

BENSON_FILES = ("benson_safe1", "benson_safe2", "benson_safe3", "benson_unsafe", "boardsize 2")
# GNU Go's territory goes further than pass-alive regions here: the corner O19..T19, R18..T18
# has three inner points in a row (R19 S19 T19), where White's only way to live needs a ko.
BEYOND_BENSON = {"134": "O19: corner region with three inner points"}


def gnugo_status(board: Board, point: Point) -> str:
    """GNU Go's unconditional_status words, from Benson's algorithm for both colours."""
    alive = {c: pass_alive(board, c) for c in Color}
    stone = board[point]
    if stone is not None:
        if point in alive[stone][0]:
            return "alive"
        return "dead" if point in alive[stone.opponent][1] else "undecided"
    for color in Color:
        if point in alive[color][1]:
            return f"{color.name.lower()}_territory"
    return "undecided"


def regression_cases() -> list[tuple[str, str, Board, Point, str]]:
    """(position, test number, board, point, expected answer) for every case of the file."""
    lines = (REGRESSION / "unconditional.tst").read_text().splitlines()
    cases = []
    name, board = "", Board(19)
    for line, answer in zip(lines, [*lines[1:], ""], strict=True):
        words = line.split()
        if line.startswith("loadsgf"):
            name = Path(words[1]).stem
            game, _ = replay(parse_file(REGRESSION / words[1]).games[0])
            board = game.board
        elif line.startswith("boardsize"):
            name, board = line, Board(int(words[1]))
        elif line.startswith("play"):
            board = board.copy()
            board.play(from_gtp(words[2], board.width, board.height), Color.parse(words[1]))
        elif match := re.fullmatch(r"(\d+) unconditional_status (\w+)", line):
            expected = re.match(r"#\? \[(\w+)", answer)
            assert expected, f"no expected answer after {line!r}"
            point = from_gtp(match[2], board.width, board.height)
            assert point is not None
            cases.append((name, match[1], board, point, expected[1]))
    return cases


@pytest.fixture(scope="module")
def cases() -> list[tuple[str, str, Board, Point, str]]:
    if not REGRESSION.is_dir():
        pytest.skip(f"GNU Go regression files not found at {REGRESSION}")
    return regression_cases()


def test_benson_positions_match_gnugo(cases: list[tuple[str, str, Board, Point, str]]) -> None:
    checked = [c for c in cases if c[0] in BENSON_FILES and c[1] not in BEYOND_BENSON]
    wrong = [
        f"{name} #{number}: GNU Go {expected}, tengen {got}"
        for name, number, board, point, expected in checked
        if (got := gnugo_status(board, point)) != expected
    ]
    assert len(checked) == 210
    assert not wrong, "\n".join(wrong)


def test_gnugo_goes_beyond_benson_only_where_listed(
    cases: list[tuple[str, str, Board, Point, str]],
) -> None:
    for _, number, board, point, expected in cases:
        if number in BEYOND_BENSON:
            assert gnugo_status(board, point) == "undecided" != expected


def test_unconditional_positions_never_contradict_gnugo(
    cases: list[tuple[str, str, Board, Point, str]],
) -> None:
    others = [c for c in cases if c[0] not in BENSON_FILES]
    decided = wrong = 0
    for name, number, board, point, expected in others:
        got = gnugo_status(board, point)
        if got != "undecided":
            decided += 1
            if got != expected:
                wrong += 1
                print(f"{name} #{number}: GNU Go {expected}, tengen {got}")
    print(f"unconditional1-8: tengen decides {decided} of {len(others)} points as GNU Go does")
    assert len(others) == 462
    assert wrong == 0
    assert decided > 0


@given(
    seed=st.integers(1, 2**31),
    length=st.integers(10, 250),
    size=st.sampled_from([5, 7, 9]),
)
def test_pass_alive_stones_survive_any_opponent_moves(seed: int, length: int, size: int) -> None:
    board = Board(size)
    board.playout(B, max_moves=length, seed=seed)
    rng = random.Random(seed)
    for color in Color:
        trial = board.copy()
        alive, _ = pass_alive(trial, color)
        for _ in range(3 * size * size):
            legal = trial.legal_points(color.opponent)
            if not legal:
                break
            trial.play(rng.choice(legal)[0], color.opponent)
            assert all(trial[p] is color for p in alive)
