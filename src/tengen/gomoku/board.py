"""Gomoku board (stones only) and the five-in-a-row judge, by the last stone and by full scan.

The board is mechanism: it places and removes stones and knows no turn order or rule. The
stones live in a flat list padded with ``EDGE`` cells, so every scan along a line stops at the
edge without bounds checks::

    index(Point(col, row)) = (row + 1) * stride + col + 1        stride = width + 1

Each row is followed by one ``EDGE`` cell that is also the left edge of the next row, and a
padding row lies above and below. The four directions are the steps ``DIRECTIONS`` names:
horizontal (1), vertical (stride), diagonal down-right (stride + 1) and anti-diagonal
down-left (stride - 1). ``cells`` and ``steps`` are public for the judge and ``renju`` kernels;
they are plain lists of ints so that a compiler (numba, as ``core.kernels`` uses) could take the
same loops later.

The judge, ``wins_at``, looks only at the four lines through the last stone (seed 001's second
method); ``winner_full_scan`` scans every stone (its first method) and is kept as the reference
the property tests hold the judge to.
"""

from __future__ import annotations

from collections.abc import Iterator

from tengen.core.color import Color
from tengen.core.coords import Point, name
from tengen.gomoku.rules import Rule, check_size

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
DIRECTIONS = ("horizontal", "vertical", "diagonal", "anti-diagonal")
_SYMBOL = {EMPTY: ".", BLACK: "X", WHITE: "O"}
_VALUE = {".": EMPTY, "+": EMPTY, "X": BLACK, "O": WHITE}


class GomokuBoard:
    """Stones on a width x height board (5..52 each way, rectangles allowed).

    Raises ValueError for a size outside 5..52.
    """

    __slots__ = ("cells", "height", "steps", "stone_count", "stride", "width")

    def __init__(self, width: int = 15, height: int = 15) -> None:
        check_size(width, height)
        self.width = width
        self.height = height
        self.stride = stride = width + 1
        self.steps = (1, stride, stride + 1, stride - 1)
        self.cells = [EDGE] * ((height + 2) * stride + 1)
        for row in range(height):
            start = (row + 1) * stride + 1
            self.cells[start : start + width] = [EMPTY] * width
        self.stone_count = 0

    def index(self, p: Point) -> int:
        """The cell of `p`. Raises ValueError if `p` is off the board."""
        if not (0 <= p.col < self.width and 0 <= p.row < self.height):
            raise ValueError(
                f"point ({p.col}, {p.row}) is off the {self.width}x{self.height} board"
            )
        return (p.row + 1) * self.stride + p.col + 1

    def point(self, index: int) -> Point:
        """The point of a cell on the board (the inverse of ``index``)."""
        row, col = divmod(index, self.stride)
        return Point(col - 1, row - 1)

    def __getitem__(self, p: Point) -> Color | None:
        value = self.cells[self.index(p)]
        return None if value == EMPTY else Color(value)

    def place(self, p: Point, color: Color) -> None:
        """Put a stone on an empty point. Raises ValueError if off the board or occupied."""
        i = self.index(p)
        if self.cells[i] != EMPTY:
            raise ValueError(f"{self.name(p)} is occupied")
        self.cells[i] = int(color)
        self.stone_count += 1

    def remove(self, p: Point) -> None:
        """Take the stone off `p`. Raises ValueError if off the board or empty."""
        i = self.index(p)
        if self.cells[i] == EMPTY:
            raise ValueError(f"{self.name(p)} is empty")
        self.cells[i] = EMPTY
        self.stone_count -= 1

    def line_through(self, p: Point, color: Color) -> list[list[Point]]:
        """For each of ``DIRECTIONS``, the run of `color` stones through `p`, ends first to last.

        `p` itself counts as a `color` stone whatever it holds, so on an empty point this is the
        run a move there would make. Raises ValueError if `p` is off the board.
        """
        i = self.index(p)
        cells, c = self.cells, int(color)
        runs = []
        for step in self.steps:
            lo = i
            while cells[lo - step] == c:
                lo -= step
            hi = i
            while cells[hi + step] == c:
                hi += step
            runs.append([self.point(j) for j in range(lo, hi + 1, step)])
        return runs

    def is_full(self) -> bool:
        """Whether no empty point is left."""
        return self.stone_count == self.width * self.height

    def empty_points(self) -> list[Point]:
        """Every empty point, row by row from the top left."""
        return [p for p in self.points() if self.cells[self.index(p)] == EMPTY]

    def points(self) -> Iterator[Point]:
        """Every point of the board, row by row from the top left."""
        for row in range(self.height):
            for col in range(self.width):
                yield Point(col, row)

    def copy(self) -> GomokuBoard:
        """An independent board with the same stones."""
        other = GomokuBoard.__new__(GomokuBoard)
        other.width, other.height, other.stride = self.width, self.height, self.stride
        other.steps, other.cells = self.steps, list(self.cells)
        other.stone_count = self.stone_count
        return other

    def name(self, p: Point) -> str:
        """`p` as players write it (``H8``; SGF letters beyond 25 columns)."""
        return name(p, self.width, self.height)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GomokuBoard):
            return NotImplemented
        return (self.width, self.height, self.cells) == (other.width, other.height, other.cells)

    def diagram(self) -> str:
        """Rows of ``X`` (black), ``O`` (white) and ``.``, separated by spaces, top row first."""
        return "\n".join(
            " ".join(_SYMBOL[self.cells[self.index(Point(c, r))]] for c in range(self.width))
            for r in range(self.height)
        )

    @classmethod
    def from_diagram(
        cls, text: str, width: int | None = None, height: int | None = None
    ) -> GomokuBoard:
        """A board from rows of ``X``/``O``/``.`` (spaces optional), placed at the top left of a
        `width` x `height` board (by default the diagram's own size).

        Raises ValueError for an unknown symbol, rows of different lengths, or a diagram that
        does not fit.
        """
        rows = [line.replace(" ", "").upper() for line in text.strip().splitlines()]
        rows = [r for r in rows if r]
        if not rows or len({len(r) for r in rows}) != 1:
            raise ValueError("a diagram needs rows of one length")
        board = cls(width or len(rows[0]), height or len(rows))
        if len(rows[0]) > board.width or len(rows) > board.height:
            raise ValueError(f"the diagram does not fit a {board.width}x{board.height} board")
        for r, line in enumerate(rows):
            for c, symbol in enumerate(line):
                if symbol not in _VALUE:
                    raise ValueError(f"unknown symbol {symbol!r} in row {r + 1}")
                if _VALUE[symbol] != EMPTY:
                    board.place(Point(c, r), Color(_VALUE[symbol]))
        return board


def _wins(rule: Rule, color: int, length: int, before: int, after: int) -> bool:
    """Whether a run of `length` stones of `color`, between the cells `before` and `after`,
    wins under `rule`."""
    if length < 5:
        return False
    if rule is Rule.FREESTYLE or (rule is Rule.RENJU and color == WHITE):
        return True
    if length != 5:
        return False
    if rule is Rule.CARO:
        opponent = BLACK + WHITE - color
        return before != opponent or after != opponent
    return True


def wins_at(board: GomokuBoard, point: Point, color: Color, rule: Rule) -> list[Point] | None:
    """The winning run through the `color` stone on `point`, or None if it makes none.

    Looks only at the four lines through `point`, so it judges the last move. The run is all
    its stones: five, or more where an overline wins (freestyle; White in renju). Returns None
    when `point` does not hold a `color` stone. Raises ValueError if `point` is off the board.
    """
    i = board.index(point)
    cells, c = board.cells, int(color)
    if cells[i] != c:
        return None
    for step in board.steps:
        lo = i
        while cells[lo - step] == c:
            lo -= step
        hi = i
        while cells[hi + step] == c:
            hi += step
        if _wins(rule, c, (hi - lo) // step + 1, cells[lo - step], cells[hi + step]):
            return [board.point(j) for j in range(lo, hi + 1, step)]
    return None


_FORWARD = ((1, 0), (0, 1), (1, 1), (-1, 1))  # right, down, down-right, down-left


def winner_full_scan(board: GomokuBoard, rule: Rule) -> tuple[Color, list[Point]] | None:
    """The first winning run found scanning every stone from the top left, or None.

    The reference judge: from each stone that starts a run (no stone of its colour just before
    it), it walks right, down, down-right and down-left, through the public board API only.
    """

    def at(col: int, row: int) -> Color | None:
        inside = 0 <= col < board.width and 0 <= row < board.height
        return board[Point(col, row)] if inside else None

    for start in board.points():
        color = board[start]
        if color is None:
            continue
        for dc, dr in _FORWARD:
            if at(start.col - dc, start.row - dr) == color:
                continue
            run = [start]
            while at(run[-1].col + dc, run[-1].row + dr) == color:
                run.append(Point(run[-1].col + dc, run[-1].row + dr))
            if len(run) < 5:
                continue
            if rule is Rule.FREESTYLE or (rule is Rule.RENJU and color is Color.WHITE):
                return color, run
            if len(run) != 5:
                continue
            blocked = (
                at(start.col - dc, start.row - dr) == color.opponent
                and at(run[-1].col + dc, run[-1].row + dr) == color.opponent
            )
            if rule is not Rule.CARO or not blocked:
                return color, run
    return None
