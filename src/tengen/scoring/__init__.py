"""Counting finished games: results, area and territory scores, regions, dead-stone marking.

Imports `tengen.core` only. The dead-stone estimate (`scoring.life`) plugs into the same
`score_position` through its ``dead`` and ``seki`` arguments.
"""

from tengen.scoring.count import PointStatus, Score, score_game, score_position
from tengen.scoring.deadstones import toggle_dead, unsettled, unsettled_points
from tengen.scoring.result import Result

__all__ = [
    "PointStatus",
    "Result",
    "Score",
    "score_game",
    "score_position",
    "toggle_dead",
    "unsettled",
    "unsettled_points",
]
