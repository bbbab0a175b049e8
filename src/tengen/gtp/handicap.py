"""Where the engine puts free handicap stones: the fixed points, then spread out evenly."""

from __future__ import annotations

from tengen.core.coords import Point
from tengen.core.handicap import fixed_points, max_fixed


def free_points(count: int, width: int, height: int) -> list[Point]:
    """`count` points (2 <= count < width * height) as far from each other and the edge as can be.

    Starts from the fixed handicap points when the board has them, then adds, one at a time,
    the point farthest from the stones already chosen and from the edge (ties: the one farther
    from the edge, then top left first).
    """
    if not 2 <= count < width * height:
        raise ValueError(f"cannot place {count} handicap stones on {width}x{height}")
    top = max_fixed(width) if width == height else 0
    chosen = fixed_points(min(count, top), width, height) if top >= 2 else []
    line = {
        Point(c, r): min(c, r, width - 1 - c, height - 1 - r) + 1
        for r in range(height)
        for c in range(width)
    }
    room = {p: n * n for p, n in line.items()}  # squared distance to the edge or nearest stone
    for p in chosen:
        _take(room, p)
    while len(chosen) < count:
        best = max(room, key=lambda p: (room[p], line[p], -p.row, -p.col))
        _take(room, best)
        chosen.append(best)
    return chosen


def _take(room: dict[Point, int], stone: Point) -> None:
    """Remove `stone` from the candidates and shrink the room of the others around it."""
    del room[stone]
    for p, r in room.items():
        room[p] = min(r, (p.col - stone.col) ** 2 + (p.row - stone.row) ** 2)
