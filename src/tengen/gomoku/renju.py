"""Renju's forbidden points for Black, as the International Rules of Renju (RIF, 1996/1998)
define them, each with its reason.

The RIF terms, for Black, with the stone just placed on the point judged:

* five: exactly five in an unbroken row; it wins, and a move that makes one is never
  forbidden, whatever else it makes (double-three, double-four, overline elsewhere);
* overline: six or more in an unbroken row - forbidden;
* four: a row to which one more stone makes five; a straight four makes it two ways
  (``.XXXX.``). Fours count by their five-points, so ``X.XXX.X`` and ``XX.XX.XX`` holding the
  new stone are two fours on one line - a double-four like two fours on two lines;
* three: a row to which one more stone, without making five, makes a straight four - and that
  stone's point must itself be allowed (this is the recursion: a "three" whose only way to a
  straight four is a forbidden point is a false three, as is one blocked too closely);
* double-four / double-three: two or more fours / threes through the new stone - forbidden.
  A four-three is allowed.

The recursion follows Piskvork's ``foulr`` (ported into GomocupJudge's ``check_forbid.py``),
the Gomocup manager's judge: the point that would make the straight four is judged with the
new stone on the board, and there a five also disqualifies it. The checks work on an 11-cell
window of each line around the point (``board.cells``), so each costs a few list reads.
"""

from __future__ import annotations

from tengen.core.coords import Point
from tengen.gomoku.board import BLACK, DIRECTIONS, EDGE, EMPTY, GomokuBoard
from tengen.gomoku.rules import Rule

FIVE = "five"
OVERLINE = "overline"
DOUBLE_FOUR = "double-four"
DOUBLE_THREE = "double-three"

_K = 5  # the judged point's place in a window of 2 * _K + 1 cells


def forbidden(board: GomokuBoard, point: Point, rule: Rule = Rule.RENJU) -> str | None:
    """Why a black stone may not go on the empty `point`, or None if it may.

    The reason names the rule and the lines: ``double-three (lines: horizontal, diagonal)``,
    ``double-four (lines: vertical, vertical)`` (two fours on one line), ``overline (lines:
    anti-diagonal)``. Always None under rules other than renju.
    Raises ValueError if `point` is off the board or occupied.
    """
    i = board.index(point)
    if board.cells[i] != EMPTY:
        raise ValueError(f"{board.name(point)} is occupied")
    if rule is not Rule.RENJU:
        return None
    return _reason(board.cells, board.steps, i)


def forbidden_points(board: GomokuBoard) -> dict[Point, str]:
    """Every empty point where Black may not play under renju, with its reason: `forbidden`
    asked of each empty point."""
    cells, steps = board.cells, board.steps
    found = {}
    for p in board.points():
        i = board.index(p)
        if cells[i] == EMPTY and (reason := _reason(cells, steps, i)) is not None:
            found[p] = reason
    return found


def has_allowed_point(board: GomokuBoard) -> bool:
    """Whether some empty point is not forbidden to Black: `forbidden_points` stopped at the
    first point that is free (near the start of a game, the first empty point)."""
    cells, steps = board.cells, board.steps  # the edge cells around the board are not EMPTY
    return any(v == EMPTY and _reason(cells, steps, i) is None for i, v in enumerate(cells))


def _reason(cells: list[int], steps: tuple[int, ...], i: int) -> str | None:
    """The one judge of a black stone on the empty cell `i` (`forbidden` and
    `forbidden_points` both ask it): the foul's reason, or None."""
    if not _could_be_forbidden(cells, steps, i):
        return None
    kind, lines = _judge(cells, steps, i)
    if kind is None or kind == FIVE:
        return None
    return f"{kind} (lines: {', '.join(DIRECTIONS[d] for d in lines)})"


def _could_be_forbidden(cells: list[int], steps: tuple[int, ...], i: int) -> bool:
    """A cheap necessary condition, so that most points skip the judge: black stones within
    five cells (up to a white stone or the edge) on two lines, two each (a double-three or a
    four and a three needs at least that), or four on one line. Four, not five: two fours on
    one line that are not one straight four need four other stones (``X.X*X.X``)."""
    busy = 0
    for step in steps:
        count = 0
        for sign in (step, -step):
            j = i
            for _ in range(5):
                j += sign
                value = cells[j]
                if value == BLACK:
                    count += 1
                elif value != EMPTY:
                    break
        if count >= 4:
            return True
        busy += count >= 2
    return busy >= 2


def _window(cells: list[int], i: int, step: int) -> list[int]:
    """The 11 cells of a line centred on `i`; beyond the board edge every cell is EDGE."""
    window = [EDGE] * (2 * _K + 1)
    window[_K] = cells[i]
    for sign in (1, -1):
        j = i
        for k in range(1, _K + 1):
            j += sign * step
            value = cells[j]
            window[_K + sign * k] = value
            if value == EDGE:
                break
    return window


def _run(window: list[int], k: int) -> tuple[int, int]:
    """The first and last place of the unbroken row of black stones through place `k`."""
    lo = k
    while lo > 0 and window[lo - 1] == BLACK:
        lo -= 1
    hi = k
    while hi < 2 * _K and window[hi + 1] == BLACK:
        hi += 1
    return lo, hi


def _fours(window: list[int]) -> int:
    """How many fours through the centre: its five-points, a straight four's two counting once."""
    fives = []
    for j, value in enumerate(window):
        if value == EMPTY:
            window[j] = BLACK
            lo, hi = _run(window, _K)
            window[j] = EMPTY
            if hi - lo == 4:
                fives.append(j)
    straight = sum(
        1 for a in fives for b in fives if b - a == 5 and all(v == BLACK for v in window[a + 1 : b])
    )
    return len(fives) - straight


def _straight_four_points(window: list[int]) -> list[int]:
    """Places where one more stone makes a straight four through the centre (``.XXXX.`` with
    neither end's five an overline) - the candidates that make a three."""
    found = []
    for j in range(_K - 3, _K + 4):
        if window[j] != EMPTY:
            continue
        window[j] = BLACK
        lo, hi = _run(window, _K)
        window[j] = EMPTY
        if (
            hi - lo == 3
            and window[lo - 1] == EMPTY
            and window[hi + 1] == EMPTY
            and window[lo - 2] != BLACK
            and window[hi + 2] != BLACK
        ):
            found.append(j)
    return found


def _judge(cells: list[int], steps: tuple[int, ...], i: int) -> tuple[str | None, list[int]]:
    """What a black stone on the empty cell `i` makes: FIVE, OVERLINE, DOUBLE_FOUR,
    DOUBLE_THREE or None, with the directions (indices of ``DIRECTIONS``) involved.

    The board is restored before returning; cells may change meanwhile (the recursion).
    """
    cells[i] = BLACK
    try:
        windows = [_window(cells, i, step) for step in steps]
        runs = [_run(w, _K) for w in windows]
        fives = [d for d, (lo, hi) in enumerate(runs) if hi - lo == 4]
        if fives:
            return FIVE, fives
        over = [d for d, (lo, hi) in enumerate(runs) if hi - lo >= 5]
        if over:
            return OVERLINE, over
        fours = [d for d, w in enumerate(windows) for _ in range(_fours(w))]
        if len(fours) >= 2:
            return DOUBLE_FOUR, fours
        candidates = {
            d: points
            for d, w in enumerate(windows)
            if d not in fours and (points := _straight_four_points(w))
        }
        if len(candidates) < 2:
            return None, []
        threes = [
            d
            for d, points in candidates.items()
            if any(_judge(cells, steps, i + (j - _K) * steps[d])[0] is None for j in points)
        ]
        if len(threes) >= 2:
            return DOUBLE_THREE, threes
        return None, []
    finally:
        cells[i] = EMPTY
