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
window of each line around the point. They are compiled (`tengen.gomoku.judge`, the one
implementation, which the Gomoku player's searches call too); this module asks them about a
`GomokuBoard` and words their verdicts.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tengen.core import jit
from tengen.core.coords import Point
from tengen.gomoku import judge as compiled
from tengen.gomoku.board import DIRECTIONS, EMPTY, GomokuBoard
from tengen.gomoku.rules import Rule

FIVE = "five"
OVERLINE = "overline"
DOUBLE_FOUR = "double-four"
DOUBLE_THREE = "double-three"
_NAMES = {compiled.OVERLINE: OVERLINE, compiled.DOUBLE_FOUR: DOUBLE_FOUR,
          compiled.DOUBLE_THREE: DOUBLE_THREE}  # fmt: skip

j = jit.live(compiled)  # interpreted until compiled (see `core.jit`)


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
    cells, steps = _arrays(board)
    kind, lines = j.foul(cells, steps, i, compiled.work_rows(len(cells)), True)
    return _reason(int(kind), int(lines))


def forbidden_points(board: GomokuBoard) -> dict[Point, str]:
    """Every empty point where Black may not play under renju, with its reason: `forbidden`
    asked of each empty point."""
    cells, steps = _arrays(board)
    kinds = np.zeros(len(cells), dtype=np.int64)
    lines = np.zeros(len(cells), dtype=np.int64)
    j.fouls(cells, steps, compiled.work_rows(len(cells)), kinds, lines)
    found = {}
    for p in board.points():
        i = board.index(p)
        if (reason := _reason(int(kinds[i]), int(lines[i]))) is not None:
            found[p] = reason
    return found


def has_allowed_point(board: GomokuBoard) -> bool:
    """Whether some empty point is not forbidden to Black: `forbidden_points` stopped at the
    first point that is free (near the start of a game, the first empty point)."""
    cells, steps = _arrays(board)
    return bool(j.first_allowed(cells, steps, compiled.work_rows(len(cells))) >= 0)


def _arrays(board: GomokuBoard) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The board's cells and steps as the judge takes them."""
    return np.array(board.cells, dtype=np.int8), np.array(board.steps, dtype=np.int64)


def _reason(kind: int, lines: int) -> str | None:
    """A verdict in words (None for no foul, and for a five, which is never one): the rule
    and each line, a line holding two fours named twice."""
    name = _NAMES.get(kind)
    if name is None:
        return None
    named = [DIRECTIONS[d] for d in range(4) for _ in range((lines >> (4 * d)) & 15)]
    return f"{name} (lines: {', '.join(named)})"
