"""The 3x3 shapes that the Go playouts and priors favour, as a lookup table.

The shapes are the hane, cut and edge patterns of the MoGo playouts (Gelly, Wang, Munos and
Teytaud, 2006), written below as three rows around the candidate move at the centre:

===  ==========================================
X    a stone of one colour
O    a stone of the other colour
.    an empty point
#    off the board
x    not an X stone (empty or O)
o    not an O stone (empty or X)
?    anything
===  ==========================================

A shape matches in any of its 8 rotations and reflections and with the colours swapped, so it
is a good move for either player. `TABLE[code]` is 1 where the 3x3 neighbourhood `code` (see
`neighbourhood_code`) matches a shape.
"""

from __future__ import annotations

from itertools import product

import numpy as np

SHAPES: tuple[tuple[str, str, str], ...] = (
    ("XOX", "...", "???"),  # hane that encloses
    ("XO.", "...", "?.?"),  # hane that does not cut
    ("XO?", "X..", "?.?"),  # magari (bend around)
    ("XOO", "...", "?.?"),  # thin hane
    ("XO?", "O.o", "?o?"),  # cut
    ("?X?", "O.O", "ooo"),  # cut through a one-point gap
    ("X.?", "O.?", "###"),  # edge: chase along the side
    ("OX?", "X.O", "###"),  # edge: block the cut
    ("?X?", "x.O", "###"),  # edge: block the connection
    ("?XO", "x.x", "###"),  # edge: descend
    ("?OX", "X.O", "###"),  # edge: cut
)

# Point contents as coded in a neighbourhood: the kernels' EMPTY, BLACK, WHITE, WALL.
_VALUES = {"X": (1,), "O": (2,), ".": (0,), "#": (3,), "x": (0, 2), "o": (0, 1), "?": (0, 1, 2, 3)}
_SWAP = str.maketrans("XOxo", "OXox")

# The 8 neighbours in the order their 2-bit codes are packed: NW, N, NE, W, E, SW, S, SE.
NEIGHBOURS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def _transforms(rows: tuple[str, str, str]) -> set[tuple[str, str, str]]:
    """The shape in all 8 symmetries of the square, in both colourings."""
    grid = [list(r) for r in rows]
    out: set[tuple[str, str, str]] = set()
    for _ in range(4):
        grid = [list(r) for r in zip(*grid[::-1], strict=True)]  # rotate a quarter turn
        for g in (grid, [r[::-1] for r in grid]):
            text = tuple("".join(r) for r in g)
            out.add(text)  # type: ignore[arg-type]
            out.add(tuple(r.translate(_SWAP) for r in text))  # type: ignore[arg-type]
    return out


def build_table() -> np.ndarray:
    """A uint8 array of 4**8 entries: 1 where the neighbourhood matches a shape."""
    table = np.zeros(1 << 16, np.uint8)
    for shape in SHAPES:
        for rows in _transforms(shape):
            cells = [rows[1 + dy][1 + dx] for dx, dy in NEIGHBOURS]
            for values in product(*(_VALUES[c] for c in cells)):
                code = sum(v << (2 * i) for i, v in enumerate(values))
                table[code] = 1
    return table


TABLE = build_table()
