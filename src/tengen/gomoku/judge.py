"""Renju's foul judge as compiled kernels: what a black stone on an empty cell makes.

This is the one implementation of the rule (`tengen.gomoku.renju` states it and gives its
reasons; the Gomoku player's searches call it from compiled code through
`ai.gomoku.fouls`). Cells are `GomokuBoard`'s padded layout as an int8 array (EMPTY, BLACK,
WHITE, EDGE), `steps` its four directions' strides, in the order of
``board.DIRECTIONS``. A verdict is a kind (`NONE`, `FIVE`, `OVERLINE`, `DOUBLE_FOUR`,
`DOUBLE_THREE`) and its lines: how many fours, threes or long rows each direction holds,
four bits a direction.

The three rule is recursive (a three is a row that one more stone makes a straight four at
a point that is itself allowed, judged with the stone on the board). The recursion runs on
an explicit stack, one row of `work` a level (`work_rows`): numba cannot load from its
cache a function that calls a recursive one, and the searches call this. Each level puts
one more black stone on an empty cell, so a board's empty cells bound the depth.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tengen.core.jit import lean

NONE, FIVE, OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = range(5)
EMPTY, BLACK = 0, 1  # `board`'s cell values (WHITE 2 and EDGE 3 only stop a row)
EDGE = 3
K = 5  # the judged cell's place in a window of 2 * K + 1 cells along a line
SPAN = 2 * K + 1
PENDING = -1  # `_enter`: the level's threes are still to be judged
SPOTS = 7  # straight-four points a line can hold (places K - 3 .. K + 3)
# A level's row of `work`.
_CAND = 0  # [4 * SPOTS] the cells that make a straight four, by direction
_COUNT = _CAND + 4 * SPOTS  # [4] how many, by direction
_POINT = _COUNT + 4  # the cell whose stone this level judges
_DIR = _POINT + 1  # the direction whose candidates are being tried
_NEXT = _DIR + 1  # the next candidate of that direction
_THREES = _NEXT + 1  # the threes found so far
_LINES = _THREES + 1  # their directions (four bits each)
_WINDOW = _LINES + 1  # [4 * SPAN] the four windows, made when the level is entered
ROW = _WINDOW + 4 * SPAN


def work_rows(cells: int) -> npt.NDArray[np.int64]:
    """A stack for judging on a board of `cells` padded cells (one row a level)."""
    return np.empty((cells + 1, ROW), dtype=np.int64)  # each level writes its row first


@lean
def foul(cells, steps, i, work, full):  # type: ignore[no-untyped-def]
    """The verdict on a black stone on the empty cell `i`: (kind, lines). A quick test lets
    most cells through without the judge. With `full` False the search stops once the kind
    is known, so the lines of a double-three may be short (the searches ask only whether)."""
    if not could_be(cells, steps, i):
        return NONE, 0
    return judge(cells, steps, i, work, full)


@lean
def could_be(cells, steps, i):  # type: ignore[no-untyped-def]
    """A cheap necessary condition for a foul: black stones within five cells (up to a white
    stone or the edge) on two lines, two each (a double-three or a four and a three needs at
    least that), or four on one line. Four, not five: two fours on one line that are not one
    straight four need four other stones (``X.X*X.X``)."""
    busy = 0
    for d in range(4):
        count = 0
        for sign in (1, -1):
            j = i
            for _ in range(5):
                j += sign * steps[d]
                value = cells[j]
                if value == BLACK:
                    count += 1
                elif value != EMPTY:
                    break
        if count >= 4:
            return True
        if count >= 2:
            busy += 1
    return busy >= 2


@lean
def judge(cells, steps, i, work, full):  # type: ignore[no-untyped-def]
    """What a black stone on the empty cell `i` makes, with its lines (see the module
    docstring). Every stone it puts down it takes back before returning."""
    level = 0
    kind, lines = _enter(cells, steps, i, work[0])
    while True:
        if kind != PENDING:  # a level is judged: hand its verdict to the one above
            if level == 0:
                return kind, lines
            level -= 1
            row = work[level]
            if kind == NONE:  # the candidate is allowed: its direction holds a three
                row[_THREES] += 1
                row[_LINES] += np.int64(1) << (4 * row[_DIR])
                row[_DIR] += 1
                row[_NEXT] = 0
            else:
                row[_NEXT] += 1
        row = work[level]
        d = row[_DIR]
        while d < 4 and row[_NEXT] >= row[_COUNT + d]:
            d += 1
            row[_NEXT] = 0
        row[_DIR] = d
        left = 0  # directions that may still hold a three
        for e in range(d, 4):
            if row[_COUNT + e] > 0:
                left += 1
        threes = row[_THREES]
        done = d == 4 or (
            not (full and level == 0) and (threes >= 2 or threes + left < 2)
        )  # below the top only the kind matters
        if done:
            cells[row[_POINT]] = EMPTY
            if threes >= 2:
                kind, lines = DOUBLE_THREE, row[_LINES]
            else:
                kind, lines = NONE, 0
            continue
        level += 1
        kind, lines = _enter(cells, steps, row[_CAND + SPOTS * d + row[_NEXT]], work[level])


@lean
def _enter(cells, steps, p, row):  # type: ignore[no-untyped-def]
    """Put a black stone on `p` and judge what needs no recursion: a five, an overline, a
    double four, or fewer than two lines that could hold a three (the stone is taken back
    and the kind returned); else set up `row` for the threes and return ``PENDING``."""
    cells[p] = BLACK
    row[_POINT] = p
    fives = over = 0
    for d in range(4):
        base = _WINDOW + SPAN * d
        _window(cells, p, steps[d], row, base)
        lo, hi = _run(row, base, K)
        if hi - lo == 4:
            fives += 1 << (4 * d)
        elif hi - lo >= 5:
            over += 1 << (4 * d)
    if fives:
        cells[p] = EMPTY
        return FIVE, fives
    if over:
        cells[p] = EMPTY
        return OVERLINE, over
    fours = total = 0
    for d in range(4):
        count = _fours(row, _WINDOW + SPAN * d)
        fours += count << (4 * d)
        total += count
    if total >= 2:
        cells[p] = EMPTY
        return DOUBLE_FOUR, fours
    lines = 0
    for d in range(4):
        count = 0
        if (fours >> (4 * d)) & 15 == 0:
            count = _straight_four_points(row, _WINDOW + SPAN * d, p, steps[d], _CAND + SPOTS * d)
        row[_COUNT + d] = count
        if count:
            lines += 1
    if lines < 2:
        cells[p] = EMPTY
        return NONE, 0
    row[_DIR] = 0
    row[_NEXT] = 0
    row[_THREES] = 0
    row[_LINES] = 0
    return PENDING, 0


@lean
def _window(cells, i, step, row, base):  # type: ignore[no-untyped-def]
    """Copy the 2 * K + 1 cells of a line centred on `i` into ``row[base:]``; beyond the
    board's edge every cell is EDGE."""
    for k in range(SPAN):
        row[base + k] = EDGE
    row[base + K] = cells[i]
    for sign in (1, -1):
        j = i
        for k in range(1, K + 1):
            j += sign * step
            value = cells[j]
            row[base + K + sign * k] = value
            if value == EDGE:
                break


@lean
def _run(row, base, k):  # type: ignore[no-untyped-def]
    """The first and last place of the unbroken row of black stones through place `k` of
    the window at ``row[base:]``."""
    lo = k
    while lo > 0 and row[base + lo - 1] == BLACK:
        lo -= 1
    hi = k
    while hi < 2 * K and row[base + hi + 1] == BLACK:
        hi += 1
    return lo, hi


@lean
def _fours(row, base):  # type: ignore[no-untyped-def]
    """How many fours run through the window's centre: its five-points, a straight four's
    two counting once."""
    fives = 0  # a bit for each five-point
    count = 0
    for j in range(SPAN):
        if row[base + j] == EMPTY:
            row[base + j] = BLACK
            lo, hi = _run(row, base, K)
            row[base + j] = EMPTY
            if hi - lo == 4:
                fives |= 1 << j
                count += 1
    for b in range(5, SPAN):  # a straight four: five-points five apart, black between
        if fives & (1 << b) and fives & (1 << (b - 5)):
            between = True
            for j in range(b - 4, b):
                if row[base + j] != BLACK:
                    between = False
            if between:
                count -= 1
    return count


@lean
def _straight_four_points(row, base, p, step, out):  # type: ignore[no-untyped-def]
    """Write into ``row[out:]`` the cells where one more stone makes a straight four through
    the window's centre (``.XXXX.`` with neither end's five an overline), the candidates that
    make a three; return how many."""
    count = 0
    for j in range(K - 3, K + 4):
        if row[base + j] != EMPTY:
            continue
        row[base + j] = BLACK
        lo, hi = _run(row, base, K)
        row[base + j] = EMPTY
        if (
            hi - lo == 3
            and row[base + lo - 1] == EMPTY
            and row[base + hi + 1] == EMPTY
            and row[base + lo - 2] != BLACK
            and row[base + hi + 2] != BLACK
        ):
            row[out + count] = p + (j - K) * step
            count += 1
    return count


@lean
def fouls(cells, steps, work, kinds, lines):  # type: ignore[no-untyped-def]
    """Judge every empty cell (the others get `NONE`): `foul` with its full lines, into
    `kinds` and `lines`."""
    for i in range(cells.shape[0]):
        kinds[i], lines[i] = NONE, 0
        if cells[i] == EMPTY:
            kinds[i], lines[i] = foul(cells, steps, i, work, True)


@lean
def first_allowed(cells, steps, work):  # type: ignore[no-untyped-def]
    """The first empty cell where a black stone is no foul (a five counts as allowed), or -1."""
    for i in range(cells.shape[0]):
        if cells[i] == EMPTY:
            kind, _ = foul(cells, steps, i, work, False)
            if kind in (NONE, FIVE):
                return i
    return -1
