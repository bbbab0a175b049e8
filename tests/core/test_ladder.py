"""The ladder reader (`core.ladder`): named positions, a slow reference written from the
definition, and GNU Go's tactical reading (`attack` / `defend`) on generated positions."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from tengen.core import diagram, ladder
from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point, to_gtp
from tengen.gtp.client import GtpClient

Grid = dict[Point, Color]


def _captured(text: str, col: int, row: int) -> bool:
    """`ladder_captured` of the chain at (col, row) of a diagram; the board must come back
    unchanged."""
    board = diagram.parse(text)
    before = (diagram.render(board), board.hash)
    found = bool(ladder.ladder_captured(board.state, board.hashes, board.loc(Point(col, row))))
    board.check_consistency()
    assert (diagram.render(board), board.hash) == before
    return found


def _works(text: str, col: int, row: int) -> bool:
    """`ladder_works` of the chain at (col, row) of a diagram (two liberties)."""
    board = diagram.parse(text)
    found = bool(ladder.ladder_works(board.state, board.hashes, board.loc(Point(col, row))))
    board.check_consistency()
    return found


# The white stone at C2 is in atari; extending at D2 leads up and to the right.
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. X O . . . . . .
. . X X . . . . .
"""


def test_ladder_works() -> None:
    """Extending only gives two liberties each time, up to the top edge."""
    assert _captured(LADDER, 2, 7)


def test_ladder_with_breaker() -> None:
    """A white stone on the ladder's path (G6) joins the fleeing chain: three liberties."""
    breaker = LADDER.splitlines()
    breaker[4] = ". . . . . . O . ."
    assert not _captured("\n".join(breaker), 2, 7)


def test_breaker_off_the_path() -> None:
    """A white stone beside the path but not on it (A8) does not help."""
    far = LADDER.splitlines()
    far[2] = "O . . . . . . . ."
    assert _captured("\n".join(far), 2, 7)


def test_attacker_stone_on_the_path() -> None:
    """A black stone ahead of the ladder only makes it shorter."""
    ahead = LADDER.splitlines()
    ahead[4] = ". . . . . . X . ."
    assert _captured("\n".join(ahead), 2, 7)


# White's E1 is in atari on the first line; it can only run along the edge.
EDGE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X X . . . .
. . . X O . . . .
"""


def test_ladder_along_the_edge() -> None:
    """Along the first line, the chain has at most two liberties until the corner."""
    assert _captured(EDGE, 4, 8)


def test_edge_ladder_with_friend() -> None:
    """A white stone at J2 gives the running chain a third liberty near the corner."""
    rows = EDGE.splitlines()
    rows[8] = ". . . . . . . . O"
    assert not _captured("\n".join(rows), 4, 8)


# As LADDER, but Black's C1-D1 has two liberties only (White's E1 takes one): when White
# extends at D2, it is in atari, and White captures it after Black's next atari.
COUNTER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. X O . . . . . .
. . X X O . . . .
"""


def test_counter_capture_escapes() -> None:
    """The fleeing chain captures the attacker chain in atari beside it and gets out."""
    assert not _captured(COUNTER, 2, 7)


def test_ladder_works_on_two_liberties() -> None:
    """Black's atari at C1 on White's C2 (two liberties) starts the working ladder."""
    assert _works(LADDER.replace(". . X X . . . . .", ". . . X . . . . ."), 2, 7)


def test_not_a_ladder_when_not_in_atari() -> None:
    """A chain with three liberties is not read at all."""
    assert not _captured(". . .\n. O .\n. . .", 1, 1)
    assert not _works(". . .\n. O .\n. . .", 1, 1)


# -- a slow reference, straight from the definition ----------------------------------------


class _TooBig(Exception):
    """The reference's exhaustive reading passed its node cap."""


def _neighbours(size: int, p: Point) -> Iterator[Point]:
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        q = Point(p.col + dc, p.row + dr)
        if 0 <= q.col < size and 0 <= q.row < size:
            yield q


def _chain(grid: Grid, size: int, p: Point) -> tuple[set[Point], set[Point]]:
    """The stones and liberties of the chain at `p`, by flood fill."""
    color = grid[p]
    stones, libs, todo = {p}, set(), [p]
    while todo:
        for q in _neighbours(size, todo.pop()):
            if q not in grid:
                libs.add(q)
            elif grid[q] is color and q not in stones:
                stones.add(q)
                todo.append(q)
    return stones, libs


def _play(
    grid: Grid, size: int, ko: Point | None, p: Point, color: Color
) -> tuple[Grid, Point | None] | None:
    """The position after `color` plays at `p` and the new simple-ko point, or None when the
    move is illegal (occupied, ko, suicide)."""
    if p in grid or p == ko:
        return None
    new = dict(grid)
    new[p] = color
    taken: set[Point] = set()
    for q in _neighbours(size, p):
        if new.get(q) is color.opponent and q not in taken:
            stones, libs = _chain(new, size, q)
            if not libs:
                taken |= stones
    for q in taken:
        del new[q]
    stones, libs = _chain(new, size, p)
    if not libs:
        return None
    lone = len(taken) == 1 and len(stones) == 1 and len(libs) == 1
    return new, next(iter(taken)) if lone else None


def _reference(
    grid: Grid, size: int, ko: Point | None, stone: Point, defending: bool, plays: list[int]
) -> bool:
    """Whether the chain at `stone` is captured by ataris: with one liberty and the defender to
    move (it extends or captures an attacker chain in atari beside it) or with two and the
    attacker to move (it plays a liberty); every try read out, no pruning."""
    color = grid[stone]
    stones, libs = _chain(grid, size, stone)
    tries = list(libs)
    if defending:
        for p in stones:
            for q in _neighbours(size, p):
                if grid.get(q) is color.opponent:
                    attacker_libs = _chain(grid, size, q)[1]
                    if len(attacker_libs) == 1:
                        tries += attacker_libs
    mover = color if defending else color.opponent
    results = []
    for p in set(tries):
        after = _play(grid, size, ko, p, mover)
        if after is None:
            continue
        plays[0] += 1
        if plays[0] > 5 * ladder.MAX_PLAYS:
            raise _TooBig
        new, new_ko = after
        n = len(_chain(new, size, stone)[1])
        if not defending:
            results.append(n == 1 and _reference(new, size, new_ko, stone, True, plays))
        elif n == 1:
            last = next(iter(_chain(new, size, stone)[1]))
            results.append(_play(new, size, new_ko, last, color.opponent) is not None)
        else:
            results.append(n == 2 and _reference(new, size, new_ko, stone, False, plays))
    return all(results) if defending else any(results)


# -- generated positions -------------------------------------------------------------------


def _position(rng: random.Random, size: int) -> tuple[Board, Point]:
    """A ladder-like position: a stone in atari or with two liberties, boxed in by a few
    opponent stones, among random stones (breakers, attackers, stones in atari), with no
    chain left without liberties; returns the board and the boxed stone."""
    board = Board(size)
    target = Point(rng.randrange(1, size - 1), rng.randrange(1, size - 1))
    color = rng.choice((Color.BLACK, Color.WHITE))
    board.set_point(target, color)
    sides = list(_neighbours(size, target))
    rng.shuffle(sides)
    for q in sides[: rng.choice((2, 3))]:
        board.set_point(q, color.opponent)
    for _ in range(rng.randrange(0, 3 * size)):
        p = Point(rng.randrange(size), rng.randrange(size))
        if board[p] is None:
            board.set_point(p, rng.choice((Color.BLACK, Color.WHITE)))
            if any(board.liberty_count(q) == 0 for q in [p, *_neighbours(size, p)] if board[q]):
                board.set_point(p, None)
    return board, target


def _grid(board: Board) -> Grid:
    return {p: c for p in board.points() if (c := board[p]) is not None}


def _cases(seed: int, count: int, size: int) -> Iterator[tuple[Board, Point, bool]]:
    """Generated positions whose boxed chain has one liberty (defender to move: True) or two
    (attacker to move: False)."""
    rng = random.Random(seed)
    while count:
        board, target = _position(rng, size)
        libs = board.liberty_count(target)
        if libs in (1, 2):
            count -= 1
            yield board, target, libs == 1


def _kernel(board: Board, target: Point, defending: bool) -> bool:
    read = ladder.ladder_captured if defending else ladder.ladder_works
    return bool(read(board.state, board.hashes, board.loc(target)))


def test_reader_matches_reference() -> None:
    """On 300 generated 9x9 positions the compiled reader and the reference agree (positions
    whose full reading passes the reader's node cap are left out)."""
    compared = captured = 0
    for board, target, defending in _cases(seed=22, count=300, size=9):
        try:
            expected = _reference(_grid(board), 9, None, target, defending, [0])
        except _TooBig:
            continue
        found = _kernel(board, target, defending)
        assert found == expected, (diagram.render_with_coordinates(board), target, defending)
        compared += 1
        captured += expected
    assert compared >= 250 and 30 <= captured <= compared - 30


@pytest.mark.gnugo
def test_reader_against_gnugo(gnugo: str) -> None:
    """Where the reader says a chain is captured, GNU Go's reading agrees: `defend` finds no
    defence for a chain in atari, `attack` captures a chain with two liberties."""
    claims = 0
    with GtpClient([gnugo, "--mode", "gtp"], timeout=20) as engine:
        engine.send("boardsize 9")
        for board, target, defending in _cases(seed=2026, count=80, size=9):
            engine.send("clear_board")
            for p, c in _grid(board).items():
                engine.send(f"play {c.name.lower()} {to_gtp(p, 9)}")
            vertex = to_gtp(target, 9)
            if not _kernel(board, target, defending):
                continue
            claims += 1
            answer = engine.send(f"{'defend' if defending else 'attack'} {vertex}")
            where = diagram.render_with_coordinates(board)
            if defending:
                assert answer.split()[0] == "0", (where, vertex, answer)
            else:
                assert answer.split()[0] != "0", (where, vertex, answer)
    assert claims >= 10


def test_reader_leaves_arrays_alone() -> None:
    """Reading leaves every stone, liberty count and the hash as they were."""
    for board, target, defending in _cases(seed=5, count=40, size=9):
        stones = board.state[1].copy()
        hashes = board.hashes.copy()
        _kernel(board, target, defending)
        board.check_consistency()
        assert np.array_equal(board.state[1], stones) and np.array_equal(board.hashes, hashes)
