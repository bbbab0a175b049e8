"""Piskvork ``.psq`` Gomoku records (the Gomocup tournament manager's format).

The first line names the board, ``Piskvorky 20x20, 11:11, 0`` (width x height; the other two
fields are the program's own and are not needed). Then one move a line, ``x,y,time``: the
column from the left and the row from the top, both from 1, and the milliseconds the move
took. The first move is the first player's, Black in SGF, and the players alternate. The
moves end at the first line of another shape; what follows (the players' program names, a
``-1``, the rule) is the program's trailer, whose layout varies between versions, so it is
kept verbatim as the game comment rather than guessed at.
"""

from __future__ import annotations

import re

from tengen.core.color import Color
from tengen.core.coords import MAX_SIZE, Move
from tengen.sgf.formats.common import (
    GameInfo,
    RecordError,
    Source,
    build_tree,
    decode,
    point,
    read_source,
    split_lines,
)
from tengen.sgf.tree import GameTree

GOMOKU = 4
_HEADER = re.compile(r"\s*Piskvorky\s+(\d{1,3})\s*x\s*(\d{1,3})\b.*", re.ASCII | re.IGNORECASE)
_MOVE = re.compile(r"\s*(-?\d{1,9}),\s*(-?\d{1,9}),\s*(-?\d{1,12})\s*", re.ASCII)


def load(source: Source) -> GameTree:
    """Read a PSQ record (a path or its bytes). Raises RecordError if it is malformed."""
    lines = split_lines(decode(read_source(source)))
    header = _HEADER.fullmatch(lines[0])
    if header is None:
        raise RecordError("not a Piskvork record: the first line is not 'Piskvorky WxH, ...'", 1)
    width, height = int(header[1]), int(header[2])
    if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
        raise RecordError(f"board size {width}x{height} is outside 1x1..52x52", 1)
    moves: list[tuple[Color, Move]] = []
    color = Color.BLACK
    end = 1
    while end < len(lines) and (found := _MOVE.fullmatch(lines[end])):
        x, y = int(found[1]), int(found[2])
        moves.append((color, point(x - 1, y - 1, width, height, end + 1, f"{x},{y}")))
        color = color.opponent
        end += 1
    trailer = "\n".join(line.strip() for line in lines[end:] if line.strip())
    info = GameInfo(game=GOMOKU, width=width, height=height, comment=trailer or None)
    return build_tree(info, moves)
