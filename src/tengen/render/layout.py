"""The geometry and palette of a drawn figure, shared by the SVG and PNG renderers.

Everything is measured in cells (the distance between two lines): the grid sits inside a
margin that holds the coordinates on all four sides, and the notes run below the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.render.figure import Figure, wrap_notes
from tengen.render.grid import column_labels, row_labels

BOARD = "#dcb35c"
PAPER = "#ffffff"
INK = "#000000"
STONE = {Color.BLACK: "#000000", Color.WHITE: "#ffffff"}
CONTRAST = {Color.BLACK: "#ffffff", Color.WHITE: "#000000"}

_MARGIN = 1.4  # grid edge to canvas edge
_COORD_GAP = 0.85  # grid edge to the centre of a coordinate
_NOTE_LINE = 0.8  # height of a line of notes
_CHAR = 0.62  # width of a digit, in font sizes, in the wider sans-serif fonts (DejaVu)


@dataclass(frozen=True)
class Layout:
    """Where each part of `figure` goes on a canvas whose cells are `cell` units wide."""

    figure: Figure
    cell: float

    def x(self, col: int) -> float:
        """The horizontal centre of a column."""
        return (_MARGIN + col) * self.cell

    def y(self, row: int) -> float:
        """The vertical centre of a row."""
        return (_MARGIN + row) * self.cell

    def centre(self, point: Point) -> tuple[float, float]:
        """The centre of a point."""
        return self.x(point.col), self.y(point.row)

    @property
    def board_width(self) -> float:
        """Width of the board area (and of the canvas)."""
        return (2 * _MARGIN + self.figure.width - 1) * self.cell

    @property
    def board_height(self) -> float:
        """Height of the board area, coordinates included."""
        return (2 * _MARGIN + self.figure.height - 1) * self.cell

    @property
    def stone_radius(self) -> float:
        """Radius of a stone: a hair less than half a cell, so that neighbours do not touch."""
        return 0.47 * self.cell

    @property
    def star_radius(self) -> float:
        """Radius of a star point."""
        return 0.1 * self.cell

    @property
    def line_width(self) -> float:
        """Width of a grid line; the edge of the board is drawn twice as wide."""
        return self.cell / 30

    @property
    def coord_size(self) -> float:
        """Font size of the coordinates."""
        return 0.42 * self.cell

    @property
    def note_size(self) -> float:
        """Font size of the notes."""
        return 0.45 * self.cell

    def text_size(self, text: str) -> float:
        """Font size for `text` on a stone: as large as fits across it."""
        return self.cell * min(0.55, 0.85 / (_CHAR * len(text)))

    def coordinates(self) -> list[tuple[str, float, float]]:
        """Each coordinate label with its centre, on all four sides of the grid."""
        fig, gap = self.figure, _COORD_GAP * self.cell
        top, bottom = self.y(0) - gap, self.y(fig.height - 1) + gap
        left, right = self.x(0) - gap, self.x(fig.width - 1) + gap
        labels = []
        for col, text in enumerate(column_labels(fig.width)):
            labels += [(text, self.x(col), top), (text, self.x(col), bottom)]
        for row, text in enumerate(row_labels(fig.height)):
            labels += [(text, left, self.y(row)), (text, right, self.y(row))]
        return labels

    @cached_property
    def note_lines(self) -> list[str]:
        """The notes wrapped to the width of the board."""
        chars = int((self.board_width - self.cell) / (_CHAR * self.note_size))
        return wrap_notes(self.figure.notes, max(chars, 1))

    def note_y(self, index: int) -> float:
        """The vertical centre of line `index` of the notes."""
        return self.board_height + (index + 0.5) * _NOTE_LINE * self.cell

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the whole canvas, notes included."""
        notes = (len(self.note_lines) * _NOTE_LINE + 0.3) * self.cell if self.note_lines else 0
        return self.board_width, self.board_height + notes
