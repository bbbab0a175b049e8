"""The Go rules core: board, chains, hashing, rulesets, games. Imports nothing else of tengen."""

from tengen.core.board import Board, Chain, MoveRecord
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.errors import IllegalMove, IllegalReason
from tengen.core.game import Game, GameMove
from tengen.core.rules import KoRule, Ruleset, Scoring

__all__ = [
    "Board",
    "Chain",
    "Color",
    "Game",
    "GameMove",
    "IllegalMove",
    "IllegalReason",
    "KoRule",
    "Move",
    "MoveRecord",
    "Point",
    "Ruleset",
    "Scoring",
]
