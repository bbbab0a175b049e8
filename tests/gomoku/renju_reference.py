"""A deliberately slow renju foul judge written straight from the RIF definitions (International
Rules of Renju, 1996/1998, "Terms and definitions"), to hold `tengen.gomoku.renju` to.

It shares no code with tengen: a position is a set of black and a set of white ``(col, row)``
points on a ``width`` x ``height`` board, and every term is computed as the rules word it,
on whole lines of the board, with no windows, no pre-filter and no counting tricks:

* five: an unbroken row of exactly five black stones; overline: six or more;
* four: four stones of a row to which one more stone makes a five; fours are told apart by
  their four stones, so ``X.X*X.X`` (two sets of four) is two fours on one line and
  ``.XX*X.`` (one set, two ways to a five) one straight four;
* straight four: a four that can become a five in two ways;
* three: three stones of a row to which one more stone, without at the same time making a
  five, makes a straight four; that stone must not itself be a foul (judged with the three on
  the board: the recursion);
* a black stone that makes a five is never a foul; otherwise an overline, two or more fours,
  or two or more threes through the stone are fouls.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

Pt = tuple[int, int]

DIRECTIONS = {
    "horizontal": (1, 0),
    "vertical": (0, 1),
    "diagonal": (1, 1),
    "anti-diagonal": (-1, 1),
}


class Position:
    """Black and white stones on a board; `foul` judges a black move."""

    def __init__(self, width: int, height: int, black: Iterable[Pt], white: Iterable[Pt]) -> None:
        self.width, self.height = width, height
        self.black, self.white = frozenset(black), frozenset(white)

    def inside(self, p: Pt) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def line(self, p: Pt, d: str) -> list[Pt]:
        """Every point of the board on the line through `p` in direction `d`, in order."""
        return _line(self.width, self.height, p, d)

    def foul(self, p: Pt) -> tuple[str, list[str]] | None:
        """The foul a black stone on the empty point `p` commits, with its lines, or None."""
        return _foul(self, self.black, p)


@functools.cache
def _line(width: int, height: int, p: Pt, d: str) -> list[Pt]:
    """The points of a `width` x `height` board on the line through `p` in direction `d`."""
    dc, dr = DIRECTIONS[d]

    def inside(q: Pt) -> bool:
        return 0 <= q[0] < width and 0 <= q[1] < height

    start = p
    while inside((start[0] - dc, start[1] - dr)):
        start = (start[0] - dc, start[1] - dr)
    points = []
    q = start
    while inside(q):
        points.append(q)
        q = (q[0] + dc, q[1] + dr)
    return points


def _row(black: frozenset[Pt], line: list[Pt], p: Pt) -> list[Pt]:
    """The unbroken row of black stones through `p` (a black stone) along `line`."""
    k = line.index(p)
    lo = k
    while lo > 0 and line[lo - 1] in black:
        lo -= 1
    hi = k
    while hi + 1 < len(line) and line[hi + 1] in black:
        hi += 1
    return line[lo : hi + 1]


def _near(line: list[Pt], p: Pt, distance: int) -> list[Pt]:
    """The points of `line` at most `distance` points from `p` (on it) either way."""
    k = line.index(p)
    return line[max(k - distance, 0) : k + distance + 1]


def _empty(pos: Position, black: frozenset[Pt], q: Pt) -> bool:
    return q not in black and q not in pos.white


def _fours(pos: Position, black: frozenset[Pt], line: list[Pt], p: Pt) -> dict[frozenset[Pt], int]:
    """The fours through the black stone `p` on `line`: each set of four stones, with how many
    ways one more stone makes it a five."""
    fours: dict[frozenset[Pt], int] = {}
    for q in _near(line, p, 4):  # a five holding p and q spans at most five points
        if not _empty(pos, black, q):
            continue
        row = _row(black | {q}, line, q)
        if len(row) == 5 and p in row:
            stones = frozenset(row) - {q}
            fours[stones] = fours.get(stones, 0) + 1
    return fours


def _makes_five(pos: Position, black: frozenset[Pt], q: Pt) -> bool:
    """Whether the black stone on `q` is in an unbroken row of exactly five."""
    return any(len(_row(black, pos.line(q, d), q)) == 5 for d in DIRECTIONS)


def _threes(pos: Position, black: frozenset[Pt], line: list[Pt], p: Pt) -> set[frozenset[Pt]]:
    """The threes through the black stone `p` on `line`, each as its set of three stones."""
    threes = set()
    for q in _near(line, p, 3):  # an unbroken four holding p and q spans at most four
        if not _empty(pos, black, q):
            continue
        with_q = black | {q}
        straight = [
            stones
            for stones, ways in _fours(pos, with_q, line, q).items()
            if ways == 2 and p in stones
        ]
        if straight and not _makes_five(pos, with_q, q) and _foul(pos, black, q) is None:
            threes.update(stones - {q} for stones in straight)
    return threes


def _foul(pos: Position, black: frozenset[Pt], p: Pt) -> tuple[str, list[str]] | None:
    """The foul of a black stone on the empty point `p`, the stones `black` already placed."""
    with_p = black | {p}
    lines = {d: pos.line(p, d) for d in DIRECTIONS}
    rows = {d: _row(with_p, line, p) for d, line in lines.items()}
    if any(len(row) == 5 for row in rows.values()):
        return None
    over = [d for d, row in rows.items() if len(row) >= 6]
    if over:
        return "overline", over
    fours = [d for d, line in lines.items() for _ in _fours(pos, with_p, line, p)]
    if len(fours) >= 2:
        return "double-four", fours
    threes = [d for d, line in lines.items() for _ in _threes(pos, with_p, line, p)]
    if len(threes) >= 2:
        return "double-three", threes
    return None
