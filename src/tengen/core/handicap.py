"""Handicap stone placement: the fixed points of the GTP specification and free placement.

Fixed handicap exists on square boards of 7x7 and larger: at most 4 stones on even sizes and
7x7, at most 9 on odd sizes from 9x9. Stones sit on the 3-3 points up to 11x11 and on the 4-4
points from 12x12, with the side and centre points of the same lines (GNU Go's placement).
"""

from __future__ import annotations

from tengen.core.coords import Point


def max_fixed(size: int) -> int:
    """The largest fixed handicap a size x size board has (0 if none)."""
    if size < 7:
        return 0
    if size == 7 or size % 2 == 0:
        return 4
    return 9


def fixed_points(count: int, width: int, height: int | None = None) -> list[Point]:
    """The fixed handicap points for `count` stones. Raises ValueError if there are none."""
    height = width if height is None else height
    if width != height:
        raise ValueError(f"fixed handicap needs a square board, not {width}x{height}")
    size = width
    top = max_fixed(size)
    if not 2 <= count <= top:
        limit = f"2 to {top}" if top else "none"
        raise ValueError(f"invalid handicap {count} for {size}x{size} (fixed handicap: {limit})")
    edge = 2 if size <= 11 else 3
    lo, mid, hi = edge, size // 2, size - 1 - edge
    corners = [Point(hi, lo), Point(lo, hi), Point(lo, lo), Point(hi, hi)]
    center = Point(mid, mid)
    sides_lr = [Point(lo, mid), Point(hi, mid)]
    sides_tb = [Point(mid, lo), Point(mid, hi)]
    if count <= 4:
        return corners[:count]
    if count == 5:
        return [*corners, center]
    if count == 6:
        return corners + sides_lr
    if count == 7:
        return [*corners, *sides_lr, center]
    if count == 8:
        return corners + sides_lr + sides_tb
    return [*corners, *sides_lr, *sides_tb, center]


def check_free(points: list[Point], width: int, height: int) -> None:
    """Raise ValueError unless `points` are 2 or more distinct points that leave one empty."""
    if len(points) < 2:
        raise ValueError("free handicap needs at least two stones")
    if len(set(points)) != len(points):
        raise ValueError("free handicap points repeat")
    if len(points) >= width * height:
        raise ValueError("free handicap must leave at least one point empty")
    for p in points:
        if not (0 <= p.col < width and 0 <= p.row < height):
            raise ValueError(f"free handicap point {p} is off the board")
