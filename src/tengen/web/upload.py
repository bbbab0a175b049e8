"""Uploaded records checked at the door, so that a stored game can always be opened again.

Every property the app reads as a typed value (moves, setup stones, MN and the root's GM, SZ,
HA, KM) must read as its SGF type, with its points on the board and numbers the app can play
with; the first fault is refused naming its node and property. The rest (timing, markup,
application names, private properties; PL and RU, which replay reads leniently) is kept as it
came: real records often bend those.
"""

from __future__ import annotations

import math

from tengen.core.coords import Point
from tengen.sgf import GameTree
from tengen.sgf.properties import POINT_LIST, interpret_point, property_type
from tengen.sgf.replay import ruleset_of
from tengen.web.seats import BadRequest

# Rectangles (``AB[aa:ss]``) are expanded by every reader: cap the points they stand for.
MAX_POINTS = 1_000_000
GOMOKU = 4
_GAMES = (1, GOMOKU)  # Go and Gomoku
MAX_GOMOKU = 25  # the app names Gomoku points in GTP letters, which stop at Z
CHECKED = ("B", "W", "MN", "AB", "AW", "AE", "GM", "SZ", "HA", "KM")


def check_record(tree: GameTree) -> None:
    """Raise BadRequest naming the node and property of the first value the app cannot use."""
    try:
        width, height = tree.size
    except ValueError as err:
        raise BadRequest(f"root: SZ: {err}") from None
    points = 0
    for node in tree.nodes():
        for ident, values in node.properties.items():
            if ident not in CHECKED:
                continue
            kind = property_type(ident)
            try:
                if kind is POINT_LIST:
                    points += _check_rectangles(values, width, height)
                value = kind.interpret(values, (width, height))
                if ident in ("B", "W"):
                    _on_board(value, width, height)
            except ValueError as err:
                raise BadRequest(
                    f"{node.describe()}: {ident}[{_short(values[0])}]: {err}"
                ) from None
            if points > MAX_POINTS:
                raise BadRequest(f"{node.describe()}: {ident}: over {MAX_POINTS:,} points in all")
    _check_root(tree, width, height)


def _check_root(tree: GameTree, width: int, height: int) -> None:
    """GM a game the app plays, HA a stone count that fits the board, KM a finite komi."""
    root = tree.root
    game = root.get("GM")
    if game is not None and game not in _GAMES:
        raise BadRequest(f"root: GM[{game}] is not Go (1) or Gomoku (4)")
    if game == GOMOKU and max(width, height) > MAX_GOMOKU:
        raise BadRequest(f"root: SZ: a Gomoku board is at most {MAX_GOMOKU}x{MAX_GOMOKU} here")
    handicap = root.get("HA")
    if handicap is not None and not 0 <= handicap <= width * height:
        raise BadRequest(f"root: HA[{handicap}] is not a stone count for {width}x{height}")
    komi = ruleset_of(tree)[0].komi  # as replay reads it (Fox's KM[750] is 7.5)
    if "KM" in root.properties and not (math.isfinite(komi) and abs(komi) <= width * height):
        raise BadRequest(
            f"root: KM[{_short(str(root.get('KM')))}] is not a komi for {width}x{height}"
        )


def _check_rectangles(values: list[str], width: int, height: int) -> int:
    """Check the corners of each point or rectangle; the number of points they cover."""
    total = 0
    for raw in values:
        if not raw.strip():
            continue
        corners = [interpret_point(p) for p in raw.split(":", 1)]
        for corner in corners:
            _on_board(corner, width, height)
        first, last = corners[0], corners[-1]
        total += (abs(first.col - last.col) + 1) * (abs(first.row - last.row) + 1)
    return total


def _on_board(point: Point | None, width: int, height: int) -> None:
    if point is not None and not (point.col < width and point.row < height):
        raise ValueError(f"off the {width}x{height} board")


def _short(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:40]}..."
