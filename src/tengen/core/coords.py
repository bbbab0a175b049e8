"""Points and every coordinate system players meet; the one module that converts between them.

========================  =============  ===========  =============  ====
system                    upper left     upper right  lower left     pass
========================  =============  ===========  =============  ====
``Point(col, row)``       ``(0, 0)``     ``(18, 0)``  ``(0, 18)``    None
GTP vertex (19x19)        ``A19``        ``T19``      ``A1``         pass
SGF letters               ``aa``         ``sa``       ``as``         ``""`` (``tt`` up to 19x19)
========================  =============  ===========  =============  ====

Rows count from the top, as SGF does; GTP counts rows from the bottom and skips the letter I,
so it covers at most 25 columns. SGF letters go ``a``-``z`` then ``A``-``Z``, up to 52.
A move is a ``Point`` or ``None`` for a pass.
"""

from __future__ import annotations

from typing import NamedTuple

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SIZE = 52


class Point(NamedTuple):
    """A point of the board: column from the left, row from the top, both from 0."""

    col: int
    row: int


Move = Point | None


def check_size(width: int, height: int) -> None:
    """Raise ValueError unless width x height is a board SGF can describe (1..52 each)."""
    if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
        raise ValueError(f"board size {width}x{height} is outside 1x1..{MAX_SIZE}x{MAX_SIZE}")


def to_gtp(move: Move, height: int) -> str:
    """``Point(3, 15)`` on 19 rows -> ``D4``; None -> ``pass``."""
    if move is None:
        return "pass"
    if move.col >= len(GTP_COLUMNS):
        raise ValueError(f"column {move.col + 1} has no GTP letter (GTP stops at 25)")
    return f"{GTP_COLUMNS[move.col]}{height - move.row}"


def from_gtp(text: str, width: int, height: int) -> Move:
    """``D4`` -> ``Point(3, height - 4)``; ``pass`` -> None. Raises ValueError if off the board."""
    t = text.strip().upper()
    if t == "PASS":
        return None
    if len(t) < 2 or t[0] not in GTP_COLUMNS or not (t[1:].isascii() and t[1:].isdigit()):
        raise ValueError(f"invalid vertex: {text!r}")
    col = GTP_COLUMNS.index(t[0])
    number = int(t[1:])
    if col >= width or not 1 <= number <= height:
        raise ValueError(f"vertex {text!r} is off the {width}x{height} board")
    return Point(col, height - number)


def to_sgf(move: Move) -> str:
    """``Point(3, 3)`` -> ``dd``; None -> ``""`` (the FF[4] pass)."""
    if move is None:
        return ""
    return SGF_LETTERS[move.col] + SGF_LETTERS[move.row]


def from_sgf(text: str, width: int, height: int) -> Move:
    """``dd`` -> ``Point(3, 3)``; ``""`` and, up to 19x19, ``tt`` -> None (pass).

    Raises ValueError for anything else that is not a point on the board.
    """
    if text == "" or (text == "tt" and width <= 19 and height <= 19):
        return None
    if len(text) != 2 or text[0] not in SGF_LETTERS or text[1] not in SGF_LETTERS:
        raise ValueError(f"invalid SGF point: {text!r}")
    point = Point(SGF_LETTERS.index(text[0]), SGF_LETTERS.index(text[1]))
    if point.col >= width or point.row >= height:
        raise ValueError(f"SGF point {text!r} is off the {width}x{height} board")
    return point


def name(point: Point, width: int, height: int) -> str:
    """A point as players write it: the GTP vertex up to 25 columns, SGF letters beyond."""
    return to_gtp(point, height) if width <= len(GTP_COLUMNS) else to_sgf(point)
