"""Diagram helpers for the Gomoku tests: ``X`` black, ``O`` white, ``.`` empty, ``*`` the point
under test (empty), placed at the top left of a 15x15 board."""

from __future__ import annotations

from tengen.core.coords import Point
from tengen.gomoku import GomokuBoard


def board(diagram: str, size: int = 15) -> GomokuBoard:
    """A size x size board with `diagram` at its top left."""
    return GomokuBoard.from_diagram(diagram, size, size)


def board_and_point(diagram: str, size: int = 15) -> tuple[GomokuBoard, Point]:
    """The board of `diagram` with its one ``*`` left empty, and the ``*`` point."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines() if line.strip()]
    (star,) = [Point(c, r) for r, line in enumerate(rows) for c, s in enumerate(line) if s == "*"]
    return board(diagram.replace("*", "."), size), star
