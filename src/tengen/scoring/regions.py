"""Empty regions of a final position and the live stones that border them.

A region is a maximal connected set of empty points, where the points of stones marked dead
count as empty (they are taken off before counting). Its border is the set of live stones next
to it: one colour makes it that colour's territory (or area), both colours make it neutral.
Counting the points belongs to `scoring.count`; which stones are dead belongs to the callers.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point, to_gtp


@dataclass(frozen=True, slots=True)
class Region:
    """A maximal connected set of empty (or dead-stone) points and the live stones beside it."""

    points: frozenset[Point]
    border: frozenset[Point]
    colors: frozenset[Color]

    @property
    def owner(self) -> Color | None:
        """The one colour bordering the region, or None if it touches both or neither."""
        return next(iter(self.colors)) if len(self.colors) == 1 else None


def adjacent(point: Point, width: int, height: int) -> Iterator[Point]:
    """The up to four points next to `point` on a width x height board."""
    col, row = point
    if col > 0:
        yield Point(col - 1, row)
    if col < width - 1:
        yield Point(col + 1, row)
    if row > 0:
        yield Point(col, row - 1)
    if row < height - 1:
        yield Point(col, row + 1)


def contents(board: Board, removed: Collection[Point] = ()) -> dict[Point, Color | None]:
    """Every point's stone colour, or None where it is empty or its stone is in `removed`."""
    rows = board.grid().tolist()
    return {
        Point(c, r): (None if v == 0 or Point(c, r) in removed else Color(v))
        for r, line in enumerate(rows)
        for c, v in enumerate(line)
    }


def empty_regions(board: Board, removed: Collection[Point] = ()) -> list[Region]:
    """The empty regions once the stones on `removed` are taken off, in board order of their
    first point (row by row from the top left). Which colours a region reaches is the compiled
    area count's (`Board.regions`), the one rule of area in tengen."""
    cleared = without(board, removed) if removed else board
    labels, reach = cleared.regions()
    points: list[set[Point]] = [set() for _ in reach]
    for (row, col), region in np.ndenumerate(labels):
        if region >= 0:
            points[region].add(Point(col, row))
    regions = []
    for region, inside in enumerate(points):
        border = {
            q
            for p in inside
            for q in adjacent(p, board.width, board.height)
            if labels[q.row, q.col] < 0
        }
        colors = frozenset(c for c in Color if reach[region] & int(c))
        regions.append(Region(frozenset(inside), frozenset(border), colors))
    return regions


def whole_chains(board: Board, points: Iterable[Point], what: str) -> frozenset[Point]:
    """The stones of every chain with a stone on one of `points`.

    Raises ValueError naming the point if one is off the board or empty; `what` ("dead",
    "seki") says in the message what the points were given as.
    """
    stones: set[Point] = set()
    for p in points:
        point = Point(*p)
        if not board.on_board(point) or board[point] is None:
            where = "off the board" if not board.on_board(point) else "empty"
            raise ValueError(f"{what} point {point_name(board, point)} is {where}")
        if point not in stones:
            stones |= board.chain(point)
    return frozenset(stones)


def without(board: Board, stones: Collection[Point]) -> Board:
    """A copy of `board` with `stones` taken off (the position dead stones leave behind)."""
    cleared = board.copy()
    for point in stones:
        cleared.set_point(point, None)
    return cleared


def point_name(board: Board, point: Point) -> str:
    """A point as players write it: the GTP vertex (``D4``) where one exists, else (col, row)."""
    if board.on_board(point) and board.width <= 25:
        return to_gtp(point, board.height)
    return f"({point.col}, {point.row})"
