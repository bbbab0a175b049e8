"""A figure as a plain-text diagram: ``X`` black, ``O`` white, ``.`` empty, ``+`` star point.

Cells widen to fit the longest text on a stone (move numbers, letters, chain labels); numbers
carry no colour in text, so a numbered figure states the colours in a line under the board,
then the notes. The last move is bracketed, ``(X)``, as GNU Go's showboard does.
"""

from __future__ import annotations

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.render.figure import Figure, wrap_notes
from tengen.render.grid import column_labels, row_labels

_SYMBOL = {Color.BLACK: "X", Color.WHITE: "O"}


def _cell(figure: Figure, point: Point, stars: set[Point]) -> str:
    color = figure.stones.get(point)
    if color is None:
        return "+" if point in stars else "."
    return figure.text(point) or _SYMBOL[color]


def _row(cells: list[str], width: int, last: int | None) -> str:
    """The cells right-aligned in `width` characters each, the `last` one in brackets."""
    text = "".join(c.rjust(width) for c in cells) + " "
    if last is not None:
        end = (last + 1) * width
        start = end - len(cells[last]) - 1
        text = text[:start] + "(" + cells[last] + ")" + text[end + 1 :]
    return text


def _legend(figure: Figure) -> str:
    """Which colour played which numbers: by parity when that holds, else listed."""
    if not figure.played:
        return ""
    parity = {c: {n % 2 for n, played in figure.played if played is c} for c in Color}
    if not parity[Color.BLACK] & parity[Color.WHITE] and all(len(p) <= 1 for p in parity.values()):
        black_odd = parity[Color.BLACK] == {1} or parity[Color.WHITE] == {0}
        return "Black: odd, White: even" if black_odd else "Black: even, White: odd"
    lists = {
        c: ", ".join(str(n) for n, played in figure.played if played is c) or "none" for c in Color
    }
    return f"Black: {lists[Color.BLACK]}; White: {lists[Color.WHITE]}"


def render_text(figure: Figure) -> str:
    """The figure as lines of text framed by coordinates, with the legend and notes below."""
    stars = set(figure.stars)
    grid = [
        [_cell(figure, Point(col, row), stars) for col in range(figure.width)]
        for row in range(figure.height)
    ]
    width = max(2, *(len(c) + 1 for cells in grid for c in cells))
    numbers = row_labels(figure.height)
    pad = max(len(n) for n in numbers)
    header = " " * pad + _row(column_labels(figure.width), width, None).rstrip()
    lines = [header]
    for row, cells in enumerate(grid):
        last = figure.last.col if figure.last is not None and figure.last.row == row else None
        lines.append(numbers[row].rjust(pad) + _row(cells, width, last) + numbers[row])
    lines.append(header)
    extra = [_legend(figure)] if figure.played else []
    extra += wrap_notes(figure.notes, max(len(header), 40))
    if extra:
        lines += ["", *extra]
    return "\n".join(lines) + "\n"
