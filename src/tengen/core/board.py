"""Fast Go board: stones, chains, liberty counts, prisoners and a position hash.

Chains and liberties are kept up to date move by move by `core.kernels` (the LibertyTracker
idea, done as KataGo does it), never by rescanning the board. Knows the simple-ko point only;
superko, turn order, passes and scoring belong to `core.game`. Undo with the `MoveRecord` that
`play` returns, in reverse order of play.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np

from tengen.core import area, jit, kernels, layout, playout, rebuild, zobrist
from tengen.core.color import Color
from tengen.core.coords import Move, Point, check_size, name
from tengen.core.errors import IllegalMove, IllegalReason
from tengen.core.patterns import TABLE

# Interpreted until compiled (see `core.jit`).
k, lay, rb, pl = jit.live(kernels), jit.live(layout), jit.live(rebuild), jit.live(playout)

_REASONS = {
    k.OCCUPIED: IllegalReason.OCCUPIED,
    k.SUICIDE: IllegalReason.SUICIDE,
    k.KO: IllegalReason.KO,
}
# `kernels.play`'s packed record >> CAPTURED_SHIFT: the stones the move took off the board
# (its captures, or its own chain by suicide).
CAPTURED_SHIFT = 2 * k.LOC_BITS + 9


NO_HASHES = np.empty(0, np.int64)  # `kernels.legal_points`: no hashes wanted


@cache
def _points(width: int, height: int, cells: int) -> tuple[Point, ...]:
    """The point at each kernel location of a board shape (walls give off-board points)."""
    return tuple(Point(loc % (width + 1) - 1, loc // (width + 1) - 1) for loc in range(cells))


@cache
def _point_array(width: int, height: int, cells: int) -> np.ndarray:
    """`_points` as a numpy object array: indexed by an array of locations in one step."""
    points = np.empty(cells, object)
    points[:] = _points(width, height, cells)
    return points


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """What `Board.undo` needs to take a move back exactly (a few machine words)."""

    move: Move
    color: Color | None
    captured: int
    packed: int
    prev_order: int
    prev_hash: int


@dataclass(frozen=True, slots=True)
class Chain:
    """A connected group of one colour with its liberties, as `Board.chains` lists them."""

    label: str
    color: Color
    stones: frozenset[Point]
    liberties: frozenset[Point]


class Board:
    """A rectangular Go board of 1x1 to 52x52 points (square by default).

    `state` and `hashes` are the compiled kernels' arrays (`core.layout` describes their
    layout): code that calls the kernels itself (the replay, the search) reads them; a kernel
    that changes them changes this board.
    """

    __slots__ = ("_buf", "_point_at", "hashes", "height", "state", "width")
    state: np.ndarray  # int32 (NROWS, cells): stones, chains, liberties, the ko point
    hashes: np.ndarray  # int64: [0] the position's hash, then each (colour, cell)'s key

    def __init__(self, width: int = 19, height: int | None = None) -> None:
        height = width if height is None else height
        check_size(width, height)
        self.width = width
        self.height = height
        cells = max((height + 2) * (width + 1) + 1, lay.HEADER_SLOTS)
        self.state = np.zeros((lay.NROWS, cells), dtype=np.int32)
        lay.init_state(self.state, width, height)
        self.hashes = zobrist.table(width, height, cells).copy()
        self._buf = np.empty(cells, dtype=np.int32)
        self._point_at = _point_array(width, height, cells)  # shared by boards of this shape

    # -- coordinates -------------------------------------------------------------------------

    def loc(self, point: Point) -> int:
        """The kernel location of a point. Raises IllegalMove(OFF_BOARD) if it is not on board."""
        col, row = point
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise IllegalMove(IllegalReason.OFF_BOARD, point)
        return (row + 1) * (self.width + 1) + col + 1

    def point(self, loc: int) -> Point:
        """The point at a kernel location."""
        return _points(self.width, self.height, self.state.shape[1])[loc]

    def points(self) -> Iterator[Point]:
        """Every point, row by row from the top left."""
        for row in range(self.height):
            for col in range(self.width):
                yield Point(col, row)

    def on_board(self, point: Point) -> bool:
        """Whether a point lies on this board."""
        return 0 <= point[0] < self.width and 0 <= point[1] < self.height

    # -- state -------------------------------------------------------------------------------

    def __getitem__(self, point: Point) -> Color | None:
        value = int(self.state[lay.COLOR, self.loc(point)])
        return None if value == lay.EMPTY else Color(value)

    @property
    def hash(self) -> int:
        """Zobrist hash of the stones (0 for the empty board); equal positions hash equal."""
        return int(self.hashes[0])

    @property
    def ko_point(self) -> Point | None:
        """The point the next player may not take back by simple ko, if any."""
        loc = int(self.state[lay.HDR, lay.H_KO])
        return None if loc == 0 else self.point(loc)

    @property
    def ko_color(self) -> Color | None:
        """The colour that the simple-ko point is forbidden to."""
        value = int(self.state[lay.HDR, lay.H_KO_COLOR])
        return None if value == 0 else Color(value)

    def captures(self, color: Color) -> int:
        """Stones captured by `color` so far (the prisoners it holds)."""
        return int(self.state[lay.HDR, lay.H_CAPS + color - 1])

    def stones(self, color: Color) -> list[Point]:
        """The points holding `color`, row by row from the top left."""
        grid = self.grid()
        rows, cols = np.nonzero(grid == color)
        return [Point(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]

    def empty_points(self) -> list[Point]:
        """The empty points, row by row from the top left."""
        rows, cols = np.nonzero(self.grid() == lay.EMPTY)
        return [Point(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]

    def grid(self) -> np.ndarray:
        """A (height, width) int8 array copy: 0 empty, 1 black, 2 white."""
        s = self.width + 1
        inner = self.state[lay.COLOR, s : s * (self.height + 1)].reshape(self.height, s)
        return inner[:, 1:].astype(np.int8)

    def regions(self) -> tuple[np.ndarray, list[int]]:
        """The empty regions by the area rule (`core.area.label_regions`): a (height, width)
        array numbering each empty point's region (-1 on a stone), in board order from the top
        left, and for each region the colours of the stones it reaches (bit 1 black, bit 2
        white; 0 for none)."""
        cells = self.state.shape[1]
        label = np.empty(cells, np.int32)
        reach = np.empty(cells, np.int32)
        count = area.label_regions(self.state, label, reach)
        s = self.width + 1
        inner = label[s : s * (self.height + 1)].reshape(self.height, s)[:, 1:].copy()
        return inner, reach[:count].tolist()

    def copy(self) -> Board:
        """An independent board in the same state."""
        other = Board.__new__(Board)
        other.width = self.width
        other.height = self.height
        other.state = self.state.copy()
        other.hashes = self.hashes.copy()
        other._buf = np.empty_like(self._buf)
        other._point_at = self._point_at
        return other

    # -- chains ------------------------------------------------------------------------------

    def chain(self, point: Point) -> frozenset[Point]:
        """The stones of the chain at `point`. Raises ValueError if the point is empty."""
        loc = self._stone_loc(point)
        n = k.chain_stones(self.state, loc, self._buf)
        return frozenset(self.point(int(x)) for x in self._buf[:n])

    def liberties(self, point: Point) -> frozenset[Point]:
        """The liberties of the chain at `point`. Raises ValueError if the point is empty."""
        loc = self._stone_loc(point)
        n = k.chain_liberties(self.state, loc, self._buf)
        return frozenset(self.point(int(x)) for x in self._buf[:n])

    def liberty_count(self, point: Point) -> int:
        """How many liberties the chain at `point` has (kept incrementally; O(1))."""
        loc = self._stone_loc(point)
        return int(self.state[lay.LIBS, self.state[lay.HEAD, loc]])

    def chains(self) -> list[Chain]:
        """Every chain, labelled ``B1``, ``W2``, ... in order of the chain's first-placed stone.

        One counter runs across both colours, as the seed app numbers its groups.
        """
        firsts: list[tuple[int, int]] = []
        seen: set[int] = set()
        for loc in self._stone_locs():
            head = int(self.state[lay.HEAD, loc])
            if head in seen:
                continue
            seen.add(head)
            n = k.chain_stones(self.state, head, self._buf)
            firsts.append((int(self.state[lay.ORDER, self._buf[:n]].min()), head))
        firsts.sort()
        result = []
        for number, (_, head) in enumerate(firsts, start=1):
            color = Color(int(self.state[lay.COLOR, head]))
            point = self.point(head)
            result.append(
                Chain(f"{color.letter}{number}", color, self.chain(point), self.liberties(point))
            )
        return result

    def chains_in_atari(self) -> list[Chain]:
        """The chains with exactly one liberty."""
        return [c for c in self.chains() if len(c.liberties) == 1]

    # -- moves -------------------------------------------------------------------------------

    def legality(
        self, point: Point, color: Color, *, allow_suicide: bool = False
    ) -> IllegalReason | None:
        """None if `color` may play at `point` by the capture rules and simple ko, else why not.

        Single-stone suicide is always refused; multi-stone suicide only without
        `allow_suicide`.
        """
        if not self.on_board(point):
            return IllegalReason.OFF_BOARD
        code = k.legality(self.state, self.loc(point), int(color), allow_suicide)
        return _REASONS.get(code)

    def play(self, point: Point, color: Color, *, allow_suicide: bool = False) -> MoveRecord:
        """Play a stone, checking the capture rules and simple ko. Raises IllegalMove."""
        code, packed, prev_order, prev_hash, _ = k.try_play(
            self.state, self.hashes, self.loc(point), int(color), allow_suicide, False
        )
        if not packed:
            raise IllegalMove(_REASONS[code], point)
        return MoveRecord(point, color, packed >> CAPTURED_SHIFT, packed, prev_order, prev_hash)

    def play_unchecked(self, point: Point, color: Color) -> MoveRecord:
        """Play a stone on an empty point with no legality check (captures and suicide apply)."""
        prev_hash = int(self.hashes[0])
        packed, prev_order = k.play(self.state, self.hashes, self.loc(point), int(color))
        return MoveRecord(
            point, color, int(packed) >> CAPTURED_SHIFT, int(packed), prev_order, prev_hash
        )

    def play_pass(self) -> MoveRecord:
        """A pass: only clears the simple-ko point."""
        prev_hash = int(self.hashes[0])
        return MoveRecord(None, None, 0, int(k.play_pass(self.state)), 0, prev_hash)

    def undo(self, record: MoveRecord) -> None:
        """Take back the move of `record`: stones, captured chains, ko point and hash.

        Records must be undone in reverse order of play.
        """
        rb.undo(self.state, self.hashes, record.packed, record.prev_order, record.prev_hash)

    def set_point(self, point: Point, color: Color | None) -> None:
        """Setup: put a stone of `color` (or nothing) on `point`, with no capture."""
        rb.set_point(self.state, self.hashes, self.loc(point), 0 if color is None else int(color))

    def set_points(self, changes: Iterable[tuple[Point, Color | None]]) -> None:
        """`set_point` for each (point, colour or None) in turn; the points must be on the
        board (not checked: this is the loop a large setup runs)."""
        stride = self.width + 1
        locs, colors = [], []
        for (col, row), color in changes:
            locs.append((row + 1) * stride + col + 1)
            colors.append(0 if color is None else int(color))
        rb.set_points(self.state, self.hashes, np.array(locs, np.intp), np.array(colors, np.intp))

    def is_eye_like(self, point: Point, color: Color) -> bool:
        """Whether `point` is an own eye a random player should not fill (see kernels)."""
        return bool(k.is_eye_like(self.state, self.loc(point), int(color)))

    def legal_points(
        self, color: Color, *, allow_suicide: bool = False, skip_eyes: bool = False
    ) -> list[tuple[Point, int]]:
        """Every point `color` may play by the capture rules and simple ko, row by row, each
        with the hash of the position it would make (what superko checks), in one compiled
        pass; `skip_eyes` leaves out the points `is_eye_like` calls own eyes."""
        points, hashes = self.legal_points_and_hashes(
            color, allow_suicide=allow_suicide, skip_eyes=skip_eyes
        )
        return list(zip(points, hashes, strict=True))

    def legal_points_and_hashes(
        self, color: Color, *, allow_suicide: bool = False, skip_eyes: bool = False
    ) -> tuple[list[Point], list[int]]:
        """`legal_points` as two lists side by side, the points and their hashes: a caller
        that needs only the points builds no pairs."""
        hashes = np.empty(self.state.shape[1], np.int64)
        points = self._legal(color, allow_suicide, skip_eyes, hashes)
        return points, hashes[: len(points)].tolist()

    def _legal(
        self, color: Color, allow_suicide: bool, skip_eyes: bool, hashes: np.ndarray
    ) -> list[Point]:
        """The points of `legal_points` (the locations pass through the scratch buffer),
        their hashes written into `hashes` unless it is `NO_HASHES`."""
        buf = self._buf
        n = k.legal_points(
            self.state, self.hashes, int(color), allow_suicide, skip_eyes, buf, hashes
        )
        points: list[Point] = self._point_at[buf[:n]].tolist()
        return points

    def playout(self, color: Color, max_moves: int | None = None, seed: int = 0) -> int:
        """Play a random game to its end in place (`playout.uniform_playout`); return its moves.

        `max_moves` defaults to three times the number of points.
        """
        limit = 3 * self.width * self.height if max_moves is None else max_moves
        rng = pl.seed_rng(seed)
        return int(pl.uniform_playout(self.state, self.hashes, int(color), limit, rng))

    def ownership(
        self, to_play: Color, playouts: int = 200, seed: int = 0, max_moves: int | None = None
    ) -> np.ndarray:
        """Expected owner of each point over playouts from here (`core.playout`: captures,
        atari escapes and shapes first, never an own eye filled or an own group put into
        atari): a (height, width) float array from -1 (white) to +1 (black). The board is
        left unchanged."""
        limit = 3 * self.width * self.height if max_moves is None else max_moves
        out = np.zeros(self.state.shape[1], np.float64)
        jit.wait()  # hundreds of playouts: worth waiting for the compiled kernels, if need be
        rng = pl.seed_rng(seed)
        playout.ownership(self.state, self.hashes, TABLE, int(to_play), playouts, limit, rng, out)
        s = self.width + 1
        return out[s : s * (self.height + 1)].reshape(self.height, s)[:, 1:].copy()

    # -- checking ----------------------------------------------------------------------------

    def check_consistency(self) -> None:
        """Recompute chains, liberty counts, hash and the empty list from scratch.

        Raises AssertionError naming the first difference from the incremental state.
        """
        fresh = Board(self.width, self.height)
        for point in self.points():
            value = self[point]
            if value is not None:
                fresh.set_point(point, value)
        where = f" in {self!r}"
        if fresh.hash != self.hash:
            raise AssertionError(f"hash differs from a recomputation{where}")
        for loc in self._stone_locs():
            a = (int(self.state[lay.HEAD, loc]), int(fresh.state[lay.HEAD, loc]))
            mine = self.state[lay.LIBS, a[0]], self.state[lay.SIZE, a[0]]
            theirs = fresh.state[lay.LIBS, a[1]], fresh.state[lay.SIZE, a[1]]
            if tuple(mine) != tuple(theirs):
                raise AssertionError(
                    f"chain at {self.point(loc)}: (libs, size) {mine} != recomputed {theirs}"
                    + where
                )
            if self.chain(self.point(loc)) != fresh.chain(self.point(loc)):
                raise AssertionError(f"chain at {self.point(loc)} has the wrong stones{where}")
        n = int(self.state[lay.HDR, lay.H_NEMPTY])
        listed = sorted(int(x) for x in self.state[lay.EMPTIES, :n])
        empties = sorted(self.loc(p) for p in self.empty_points())
        if listed != empties:
            raise AssertionError(f"empty-point list is out of date{where}")
        for i, loc in enumerate(self.state[lay.EMPTIES, :n]):
            if self.state[lay.EPOS, loc] != i:
                raise AssertionError(f"empty-point index of {self.point(int(loc))} is wrong")

    # -- helpers -----------------------------------------------------------------------------

    def _stone_loc(self, point: Point) -> int:
        loc = self.loc(point)
        if self.state[lay.COLOR, loc] not in (lay.BLACK, lay.WHITE):
            raise ValueError(f"no stone at {point}")
        return loc

    def _stone_locs(self) -> Iterator[int]:
        colors = self.state[lay.COLOR]
        for loc in np.nonzero((colors == lay.BLACK) | (colors == lay.WHITE))[0]:
            yield int(loc)

    def __repr__(self) -> str:
        """The size and the stones by name (``Board(9x9, black C3 D4, white E5)``); a picture
        is `tengen.core.diagram.render`'s job, which the board does not import."""
        names = {
            c: " ".join(name(p, self.width, self.height) for p in self.points() if self[p] is c)
            for c in Color
        }
        stones = [f"{c.name.lower()} {names[c]}" for c in Color if names[c]]
        return f"Board({self.width}x{self.height}, {', '.join(stones) or 'empty'})"
