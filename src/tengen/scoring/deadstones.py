"""Marking dead stones by hand, and what is left to play before a position can be counted.

A click on a stone marks dead (or alive again) its chain together with every chain of its
colour reachable through empty points and that colour's stones: the stones one enclosure of the
opponent holds, which live or die together. Sabaki ("related chains"), OGS and KGS mark groups
the same way. As the chains so related are a partition of each colour's stones, every set built
by clicks gives its related chains one state, and clicking the same stone twice undoes a click.
"""

from __future__ import annotations

from collections.abc import Iterable, Set

from tengen.core.board import Board
from tengen.core.coords import Point
from tengen.scoring.regions import adjacent, contents, empty_regions, whole_chains, without


def related_stones(board: Board, point: Point) -> frozenset[Point]:
    """The stones of `point`'s colour reachable from it through empty points and that colour's
    stones. Raises ValueError if `point` is empty."""
    color = board[point]
    if color is None:
        raise ValueError(f"no stone at {point}")
    cells = contents(board)
    seen, stack = {point}, [point]
    while stack:
        for q in adjacent(stack.pop(), board.width, board.height):
            if q not in seen and cells[q] is not color.opponent:
                seen.add(q)
                stack.append(q)
    return frozenset(p for p in seen if cells[p] is color)


def toggle_dead(board: Board, dead: Set[Point], point: Point) -> set[Point]:
    """`dead` with the stones related to `point` (see the module docstring) marked dead, or
    alive again if the stone at `point` was dead. An empty point changes nothing."""
    if board[point] is None:
        return set(dead)
    group = related_stones(board, point)
    return set(dead) - group if point in dead else set(dead) | group


def unsettled(
    board: Board, dead: Iterable[Point] = (), seki: Iterable[Point] = ()
) -> dict[Point, str]:
    """What still needs play before counting, point by point with a short reason.

    Empty points bordered by both colours (dame, and points still to be sealed) outside a seki,
    and live chains in atari once the dead stones are off, which could still be captured.
    Raises ValueError as `regions.whole_chains` does for a bad dead or seki point.
    """
    dead_stones = whole_chains(board, dead, "dead")
    seki_stones = whole_chains(board, seki, "seki")
    found: dict[Point, str] = {}
    for region in empty_regions(board, dead_stones):
        if region.owner is None and region.colors and region.border.isdisjoint(seki_stones):
            for p in region.points:
                found[p] = "dame: bordered by both colours"
    for chain in without(board, dead_stones).chains_in_atari():
        if chain.stones.isdisjoint(seki_stones):
            color = chain.color.name.lower()
            for p in chain.stones:
                found[p] = f"{color} chain in atari"
    return dict(sorted(found.items(), key=lambda item: (item[0].row, item[0].col)))


def unsettled_points(
    board: Board, dead: Iterable[Point] = (), seki: Iterable[Point] = ()
) -> list[Point]:
    """The points of `unsettled`, row by row from the top left."""
    return list(unsettled(board, dead, seki))
