"""tengen: Go and Gomoku in Python — rules, records, engines, and play in the browser."""

from tengen.core import Board, Color, Game, IllegalMove, Point, Ruleset

__version__ = "0.15.0"

__all__ = ["Board", "Color", "Game", "IllegalMove", "Point", "Ruleset", "__version__"]
