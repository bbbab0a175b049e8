"""Benson's algorithm: the chains of a colour that are unconditionally alive (pass-alive) and
the regions they make safe, exactly, on any board size.

D. B. Benson, "Life in the game of Go", Information Sciences 10 (1976). For a colour X:

* an *X-enclosed region* is a maximal connected set of points that hold no X stone (empty
  points and opponent stones); every neighbour of a region outside it is an X stone;
* a region is *vital* to an X chain when every empty point of the region is a liberty of the
  chain: the opponent cannot fill it, as the last empty point would be a suicide unless it
  captured the chain, which keeps a liberty in a second vital region (a region without an
  empty point, possible only in a set-up position, is vital to nothing);
* start with every X chain and every region, then repeat until nothing changes: remove the
  chains that have fewer than two vital regions among the remaining ones, and remove the
  regions that border a removed chain.

The chains left are unconditionally alive: the opponent cannot capture them even if X passes
at every turn, and Benson proved that every such set of chains is found. Where multi-stone
suicide is legal the opponent may empty a region by taking its own stones off the board, so
its stones then count like empty points in the vital test (as KataGo does).

A remaining region is *safe* (pass-alive territory, where any opponent stone is dead) when all
its bordering chains are pass-alive and its *inner* points, those with no X stone next to them,
are at most two and adjacent. X can always play next to its own pass-alive chains without
self-atari (the merged chain keeps a liberty in another vital region), so an opponent eye, and
every point the opponent shares with an X stone in a seki, must be an inner point; two eyes or
a seki need two inner points that are not neighbours. KataGo's pass-alive territory allows one
inner point; the adjacent pair adds the two-point eye, which X can always reduce to one.
"""

from __future__ import annotations

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point

_EMPTY = 0


def pass_alive(
    board: Board, color: Color, *, suicide_allowed: bool = False
) -> tuple[set[Point], set[Point]]:
    """The stones of `color` that are unconditionally alive, and the points of the regions
    those chains make safe for `color` (empty points and dead opponent stones)."""
    width, height = board.width, board.height
    grid = [v for row in board.grid().tolist() for v in row]
    size = width * height
    neighbours = _neighbours(width, height)
    me = int(color)

    chain_of = [-1] * size
    chains: list[list[int]] = []
    region_of = [-1] * size
    regions: list[list[int]] = []
    for start in range(size):
        mine = grid[start] == me
        labels = chain_of if mine else region_of
        if labels[start] >= 0:
            continue
        label = len(chains) if mine else len(regions)
        labels[start] = label
        members = [start]
        for p in members:
            for q in neighbours[p]:
                if labels[q] < 0 and (grid[q] == me) == mine:
                    labels[q] = label
                    members.append(q)
        (chains if mine else regions).append(members)

    vital: list[set[int]] = []  # per region: the chains it is vital to
    borders: list[set[int]] = []  # per region: the chains next to it
    sealed: list[bool] = []  # per region: too small inside for the opponent to live
    for members in regions:
        around: set[int] = set()
        candidates: set[int] | None = None
        inner: list[int] = []
        for p in members:
            touching = {chain_of[q] for q in neighbours[p] if grid[q] == me}
            around |= touching
            if not touching:
                inner.append(p)
            if grid[p] == _EMPTY or suicide_allowed:
                candidates = touching if candidates is None else candidates & touching
        vital.append(candidates or set())
        borders.append(around)
        sealed.append(len(inner) <= 1 or (len(inner) == 2 and inner[1] in neighbours[inner[0]]))

    alive = set(range(len(chains)))
    healthy = set(range(len(regions)))
    while True:
        count = [0] * len(chains)
        for r in healthy:
            for c in vital[r]:
                count[c] += 1
        doomed = {c for c in alive if count[c] < 2}
        if not doomed:
            break
        alive -= doomed
        healthy = {r for r in healthy if not borders[r] & doomed}

    stones = {_point(p, width) for c in alive for p in chains[c]}
    safe = {_point(p, width) for r in healthy if borders[r] and sealed[r] for p in regions[r]}
    return stones, safe


def _neighbours(width: int, height: int) -> list[list[int]]:
    """For each point index (row * width + col), the indices of its on-board neighbours."""
    result = []
    for row in range(height):
        for col in range(width):
            here = []
            if col > 0:
                here.append(row * width + col - 1)
            if col < width - 1:
                here.append(row * width + col + 1)
            if row > 0:
                here.append((row - 1) * width + col)
            if row < height - 1:
                here.append((row + 1) * width + col)
            result.append(here)
    return result


def _point(index: int, width: int) -> Point:
    row, col = divmod(index, width)
    return Point(col, row)
