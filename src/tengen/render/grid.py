"""Star points and coordinate labels of a board of any size, shared by every diagram format.

Star points (hoshi) follow the boards players know: 9 on 19x19 (4-4, sides, centre), 5 on 13x13
(4-4, centre) and 5 on 9x9 (3-3, centre). For any size: on each axis of 7 or more lines the
corner points sit on the 3rd line up to 11 lines and on the 4th line from 12, as the fixed
handicap points do; the centre is added when both axes are odd, and the side points when an
axis is odd and 15 or longer. Axes shorter than 7 lines have no star points.

Columns are labelled with the GTP letters (A-Z without I) up to 25 columns and with the SGF
letters (a-z, A-Z) beyond; rows are numbered from the bottom, as GTP does.
"""

from __future__ import annotations

from tengen.core.coords import GTP_COLUMNS, SGF_LETTERS, Point


def _corner_lines(size: int) -> tuple[int, ...]:
    if size < 7:
        return ()
    edge = 2 if size <= 11 else 3
    return (edge, size - 1 - edge)


def _middle(size: int) -> int | None:
    return size // 2 if size >= 7 and size % 2 == 1 else None


def star_points(width: int, height: int) -> list[Point]:
    """The star points of a width x height board, row by row from the top left."""
    cols, rows = _corner_lines(width), _corner_lines(height)
    points = {Point(c, r) for c in cols for r in rows}
    mid_col, mid_row = _middle(width), _middle(height)
    if mid_col is not None and mid_row is not None:
        points.add(Point(mid_col, mid_row))
    if mid_col is not None and width >= 15:
        points.update(Point(mid_col, r) for r in rows)
    if mid_row is not None and height >= 15:
        points.update(Point(c, mid_row) for c in cols)
    return sorted(points, key=lambda p: (p.row, p.col))


def column_labels(width: int) -> list[str]:
    """The label of each column: GTP letters up to 25 columns, SGF letters beyond."""
    letters = GTP_COLUMNS if width <= len(GTP_COLUMNS) else SGF_LETTERS
    return list(letters[:width])


def row_labels(height: int) -> list[str]:
    """The label of each row from the top: numbers counted from the bottom."""
    return [str(height - row) for row in range(height)]
