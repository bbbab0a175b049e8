"""ASCII diagrams of a board: ``X`` black, ``O`` white, ``.`` empty; render and parse.

Used by the tests (position in, position out), by ``showboard`` in GTP and by the CLI.
"""

from __future__ import annotations

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import GTP_COLUMNS, Point

_SYMBOL = {None: ".", Color.BLACK: "X", Color.WHITE: "O"}
_VALUE = {".": None, "+": None, "X": Color.BLACK, "#": Color.BLACK, "O": Color.WHITE}


def render(board: Board) -> str:
    """The board as rows of symbols separated by spaces, top row first, no coordinates."""
    return "\n".join(
        " ".join(_SYMBOL[board[Point(c, r)]] for c in range(board.width))
        for r in range(board.height)
    )


def render_with_coordinates(board: Board) -> str:
    """The board framed by GTP coordinates (letters A-Z without I; numbers from the bottom)."""
    letters = GTP_COLUMNS if board.width <= len(GTP_COLUMNS) else None
    header = "   " + " ".join(letters[: board.width]) if letters else ""
    lines = [header] if header else []
    for r in range(board.height):
        number = board.height - r
        row = " ".join(_SYMBOL[board[Point(c, r)]] for c in range(board.width))
        lines.append(f"{number:2d} {row} {number}")
    if header:
        lines.append(header)
    return "\n".join(lines)


def parse(text: str) -> Board:
    """A board from a diagram: one line a row, symbols ``. + X # O`` with or without spaces.

    The stones are set up without captures. Raises ValueError on an unknown symbol or rows of
    different lengths.
    """
    rows = []
    for line_no, line in enumerate(text.strip("\n").splitlines(), start=1):
        symbols = line.replace(" ", "")
        if not symbols:
            continue
        for col, s in enumerate(symbols, start=1):
            if s not in _VALUE:
                raise ValueError(f"diagram line {line_no}, column {col}: unknown symbol {s!r}")
        rows.append(symbols)
    if not rows or len({len(r) for r in rows}) != 1:
        raise ValueError("diagram rows must be non-empty and of one length")
    board = Board(len(rows[0]), len(rows))
    for r, symbols in enumerate(rows):
        for c, s in enumerate(symbols):
            value = _VALUE[s]
            if value is not None:
                board.set_point(Point(c, r), value)
    return board
