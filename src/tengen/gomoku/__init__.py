"""Five in a row: Gomoku's rule variants, Renju's forbidden points, games and records.

Layers, each importing only those before it (and ``core.coords``/``core.color``): ``rules``
(the variants as data), ``board`` (stones and the judge), ``renju`` (Black's forbidden points),
``game`` (turns, openings, end, undo), ``record`` (SGF ``GM[4]`` trees, also from ``.psq``).
"""

from tengen.gomoku.board import GomokuBoard, winner_full_scan, wins_at
from tengen.gomoku.game import GomokuGame, GomokuIllegal
from tengen.gomoku.renju import forbidden, forbidden_points
from tengen.gomoku.rules import GomokuRules, Opening, Rule

__all__ = [
    "GomokuBoard",
    "GomokuGame",
    "GomokuIllegal",
    "GomokuRules",
    "Opening",
    "Rule",
    "forbidden",
    "forbidden_points",
    "winner_full_scan",
    "wins_at",
]
