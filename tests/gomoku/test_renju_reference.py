"""tengen's renju judge against the slow reference written from the RIF definitions
(`tests.gomoku.renju_reference`), on random and adversarial positions: every empty point of
each position, the forbidden-point list and the single-point judge alike.

TENGEN_RENJU_POSITIONS sets how many positions hypothesis tries (a few thousand here;
``make check-long`` runs 100,000).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuBoard, GomokuGame, GomokuRules, Rule, forbidden, forbidden_points
from tengen.gomoku.game import GomokuIllegal
from tests.gomoku.renju_reference import DIRECTIONS, Position

POSITIONS = int(os.environ.get("TENGEN_RENJU_POSITIONS", "1000"))

Cells = dict[tuple[int, int], str]


@st.composite
def scattered(draw: st.DrawFn, width: int, height: int) -> Cells:
    """Stones anywhere, black-heavy: black densities up to a half."""
    symbols = draw(st.sampled_from(["..X", ".XX", "...XXO", ".XXO", "..XXXO"]))
    cells = draw(
        st.lists(st.sampled_from(symbols), min_size=width * height, max_size=width * height)
    )
    return {(i % width, i // width): s for i, s in enumerate(cells) if s != "."}


@st.composite
def dense_line(draw: st.DrawFn, width: int, height: int) -> Cells:
    """One whole line (often at or near an edge) mostly black, white stones blocking here and
    there, and a few stones elsewhere: same-line fours, overlines, fives beside fours."""
    d = draw(st.sampled_from(list(DIRECTIONS.values())))
    near_edge = draw(st.booleans())
    col = draw(
        st.sampled_from([0, 1, width - 1, width - 2]) if near_edge else st.integers(0, width - 1)
    )
    row = draw(
        st.sampled_from([0, 1, height - 1, height - 2]) if near_edge else st.integers(0, height - 1)
    )
    while 0 <= col - d[0] < width and 0 <= row - d[1] < height:
        col, row = col - d[0], row - d[1]
    cells: Cells = {}
    while 0 <= col < width and 0 <= row < height:
        cells[col, row] = draw(st.sampled_from(".XXXO" if draw(st.booleans()) else ".XX"))
        col, row = col + d[0], row + d[1]
    extra = draw(
        st.lists(
            st.tuples(
                st.integers(0, width - 1), st.integers(0, height - 1), st.sampled_from("XXO")
            ),
            max_size=12,
        )
    )
    for c, r, s in extra:
        cells.setdefault((c, r), s)
    return {p: s for p, s in cells.items() if s != "."}


# Rows that make fouls and near-fouls along one line: same-line double fours, a five beside a
# four, overlines, split threes; the hypothesis draws alter them and block their ends.
SHAPES = [
    "X.XXX.X",
    "XX.XX.XX",
    "XXX.X.XXX",
    "XXXX.X",
    "XX.XXX",
    ".XXX.",
    "X.XX",
    "XXXXX.XX",
    "X.X.X",
]


@st.composite
def shape(draw: st.DrawFn, width: int, height: int) -> Cells:
    """A row from SHAPES along a random line, a few of its cells changed, its ends maybe
    blocked by white, and a few stones elsewhere (crossing lines for fours and threes)."""
    row = list(draw(st.sampled_from(SHAPES)))
    for k in draw(st.lists(st.integers(0, len(row) - 1), max_size=2)):
        row[k] = draw(st.sampled_from(".XO"))
    row = [draw(st.sampled_from(".O")), *row, draw(st.sampled_from(".O"))]
    d = draw(st.sampled_from(list(DIRECTIONS.values())))
    col, row0 = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
    cells: Cells = {}
    for k, symbol in enumerate(row):
        p = (col + k * d[0], row0 + k * d[1])
        if 0 <= p[0] < width and 0 <= p[1] < height:
            cells[p] = symbol
    extra = draw(
        st.lists(
            st.tuples(
                st.integers(0, width - 1), st.integers(0, height - 1), st.sampled_from("XXO")
            ),
            max_size=8,
        )
    )
    for c, r, symbol in extra:
        cells.setdefault((c, r), symbol)
    return {p: symbol for p, symbol in cells.items() if symbol != "."}


@st.composite
def cluster(draw: st.DrawFn, width: int, height: int) -> Cells:
    """A dense black cluster in a 7x7 square (recursive threes need several lines crossing)."""
    c0, r0 = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
    square = [
        (c, r)
        for r in range(max(0, r0 - 3), min(height, r0 + 4))
        for c in range(max(0, c0 - 3), min(width, c0 + 4))
    ]
    symbols = draw(st.lists(st.sampled_from("..XXXXO"), min_size=len(square), max_size=len(square)))
    return {p: s for p, s in zip(square, symbols, strict=True) if s != "."}


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int, Cells]:
    width, height = draw(st.integers(5, 15)), draw(st.integers(5, 15))
    kind = draw(st.sampled_from([scattered, dense_line, shape, cluster]))
    return width, height, draw(kind(width, height))


def board_of(width: int, height: int, cells: Cells) -> GomokuBoard:
    board = GomokuBoard(width, height)
    for (c, r), s in cells.items():
        board.place(Point(c, r), Color.BLACK if s == "X" else Color.WHITE)
    return board


def reference_fouls(width: int, height: int, cells: Cells) -> dict[Point, str]:
    pos = Position(
        width,
        height,
        [p for p, s in cells.items() if s == "X"],
        [p for p, s in cells.items() if s == "O"],
    )
    found = {}
    for r in range(height):
        for c in range(width):
            if (c, r) not in cells and (foul := pos.foul((c, r))) is not None:
                kind, lines = foul
                found[Point(c, r)] = f"{kind} (lines: {', '.join(lines)})"
    return found


@settings(max_examples=POSITIONS, deadline=None, suppress_health_check=list(HealthCheck))
@given(positions())
def test_forbidden_points_agree_with_the_rif_reference(position: tuple[int, int, Cells]) -> None:
    width, height, cells = position
    board = board_of(width, height, cells)
    expected = reference_fouls(width, height, cells)
    assert forbidden_points(board) == expected
    for p in board.empty_points():
        assert forbidden(board, p) == expected.get(p)


def test_the_game_refuses_exactly_the_listed_points() -> None:
    """play(), legal_moves() and forbidden_points() on a same-line double four (``X.X*X.X``)
    and a five: one judge for all."""
    game = GomokuGame(GomokuRules(Rule.RENJU))
    black = [
        Point(3, 7),
        Point(5, 7),
        Point(6, 7),
        Point(9, 7),
        Point(3, 3),
        Point(4, 3),
        Point(5, 3),
        Point(6, 3),
    ]
    white = [
        Point(0, 0),
        Point(0, 2),
        Point(0, 4),
        Point(0, 6),
        Point(0, 8),
        Point(0, 10),
        Point(0, 12),
        Point(14, 14),
    ]
    for b, w in zip(black, white, strict=True):
        game.play(b)
        game.play(w)
    listed = game.forbidden_points()
    assert listed[Point(7, 7)] == "double-four (lines: horizontal, horizontal)"
    for p in game.board.empty_points():
        assert (p in listed) == (p not in game.legal_moves())
    try:
        game.play(Point(7, 7))
    except GomokuIllegal as error:
        assert error.reason == "forbidden: " + listed[Point(7, 7)]
    else:
        raise AssertionError("the listed forbidden point was played")
    game.play(Point(7, 3))  # XXXX* is a five: allowed, and wins
    assert game.result == "B+5"
