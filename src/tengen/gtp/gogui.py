"""GoGui's analyze formats: what ``gogui-analyze_commands`` lists and how each overlay's
response is written, so that GoGui draws tengen's ownership, dead stones and territory,
liberties and the AI's candidate moves on its board. No I/O and no engine state here.

The formats (GoGui's manual, "Analyze Commands"): a ``dboard`` or ``sboard`` is one line per
row, the top row first, one value per point left to right (``""`` for no label); ``gfx`` is one
graphics command a line (``MARK``, ``BLACK``, ``WHITE``, ``INFLUENCE``, ``LABEL``, ``TEXT``...);
``pspairs`` is ``vertex label`` pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from tengen.core.board import Board
from tengen.core.coords import Point, to_gtp
from tengen.gtp.search import Analysis
from tengen.scoring.count import PointStatus

# type/label/command, one a line; %m is the colour to move.
ANALYZE_COMMANDS = (
    "dboard/Ownership/tengen-ownership",
    "gfx/Dead stones and territory/tengen-dead_stones",
    "plist/Dead stones (list)/final_status_list dead",
    "sboard/Liberties/tengen-liberties",
    "pspairs/Candidate moves (win rate %)/tengen-candidates",
    "string/Final score/final_score",
    "string/CPU time/cputime",
)


def dboard(values: np.ndarray) -> str:
    """A ``dboard``: a (height, width) array from -1 (White) to +1 (Black), top row first."""
    return "\n".join(" ".join(f"{v:.2f}" for v in row) for row in np.clip(values, -1.0, 1.0))


def sboard(labels: dict[Point, str], width: int, height: int) -> str:
    """An ``sboard``: a label per point (``""`` where there is none), top row first."""
    rows = []
    for row in range(height):
        rows.append(" ".join(_quoted(labels.get(Point(col, row), "")) for col in range(width)))
    return "\n".join(rows)


def liberties(board: Board) -> dict[Point, str]:
    """Each stone's label: the liberties of its chain."""
    labels: dict[Point, str] = {}
    for point in board.points():
        if board[point] is not None and point not in labels:
            count = str(board.liberty_count(point))
            labels.update(dict.fromkeys(board.chain(point), count))
    return labels


def dead_stones_gfx(status: dict[Point, PointStatus], height: int, result: str) -> str:
    """``MARK`` on dead stones, ``BLACK``/``WHITE`` territory, and the result as ``TEXT``."""
    lines = []
    dead = [p for p, s in status.items() if s in (PointStatus.DEAD_BLACK, PointStatus.DEAD_WHITE)]
    black = [p for p, s in status.items() if _owner(s) == "BLACK"]
    white = [p for p, s in status.items() if _owner(s) == "WHITE"]
    for word, points in (("MARK", dead), ("BLACK", black), ("WHITE", white)):
        if points:
            lines.append(f"{word} {_vertices(points, height)}")
    lines.append(f"TEXT {result}")
    return "\n".join(lines)


def candidates(analysis: Analysis, count: int = 10) -> str:
    """``pspairs`` of the most searched moves (passes left out) and their win rates in %."""
    moves = [m for m in analysis.moves if m.visits > 0 and m.move is not None][:count]
    return " ".join(f"{to_gtp(m.move, analysis.height)} {round(100 * m.winrate)}" for m in moves)


def _owner(status: PointStatus) -> str | None:
    """Whose territory a point is (dead stones count for the other side)."""
    if status in (PointStatus.BLACK_TERRITORY, PointStatus.DEAD_WHITE):
        return "BLACK"
    if status in (PointStatus.WHITE_TERRITORY, PointStatus.DEAD_BLACK):
        return "WHITE"
    return None


def _vertices(points: Iterable[Point], height: int) -> str:
    ordered: Sequence[Point] = sorted(points, key=lambda p: (p.row, p.col))
    return " ".join(to_gtp(p, height) for p in ordered)


def _quoted(label: str) -> str:
    """A label as GoGui splits them: quoted when empty or holding spaces."""
    return f'"{label}"' if not label or " " in label else label
