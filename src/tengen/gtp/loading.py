"""``loadsgf``'s side of the GTP engine: a record file checked before it is read, and the
game at the main line up to the move GNU Go's second argument names."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

from tengen.core.coords import from_gtp
from tengen.core.game import Game
from tengen.core.rules import Ruleset
from tengen.gtp import arguments
from tengen.gtp.protocol import (
    GtpError,
)
from tengen.sgf import GameTree, Node
from tengen.sgf.replay import apply_node
from tengen.sgf.tree import Place

MAX_RECORD_BYTES = 16 * 1024 * 1024  # real records are well under 1 MB


def load(tree: GameTree, ruleset: Ruleset, stop: Callable[[int, Node], bool]) -> Game:
    """A GTP game at the main line of `tree` up to, not including, the move `stop` picks.

    `stop` gets each move's number and node. Moves are entered permissively (a record says
    what was played); later GTP moves are checked.
    """
    width, height = tree.size
    game = Game(width, height, ruleset, permissive=True, free_turns=True, end_after_passes=False)
    number = 0
    place = Place(tree.root)  # names a refused move without a walk to the root
    for depth, node in enumerate(tree.main_line()):
        if depth:
            place.down(0, node)
        if "B" in node.properties or "W" in node.properties:
            number += 1
            if stop(number, node):
                break
        apply_node(game, node, place=place)
    game.permissive = False
    return game


def stop_before(text: str, width: int, height: int) -> Callable[[int, Node], bool]:
    """GNU Go's second loadsgf argument: a move number (0: the whole line) or a vertex."""
    if text.isascii() and text.isdigit():
        until = arguments.whole(text, "move number")
        return lambda number, _node: number == until
    try:
        point = from_gtp(text, width, height)
    except ValueError:
        raise GtpError("syntax error") from None

    def at_point(_number: int, node: Node) -> bool:
        try:
            move = node.move_at((width, height))  # no walk to the root for SZ on `tt`
        except ValueError:
            return False
        return move is not None and move[1] == point

    return at_point


def check_record_file(path: str) -> None:
    """Refuse anything but a regular file of at most `MAX_RECORD_BYTES`, before it is parsed:
    a device such as /dev/zero would be read forever, a FIFO would block the engine, and a
    file in /proc may say it is empty and hold gigabytes (so the bytes are counted, not the
    size the file system tells)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO's open would block
    except (OSError, ValueError) as err:  # ValueError: a NUL in the name
        raise GtpError(f"cannot open '{path}': {getattr(err, 'strerror', None) or err}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise GtpError(f"not a regular file: '{path}'")
    with os.fdopen(fd, "rb", buffering=0) as file:
        try:
            size = len(file.read(MAX_RECORD_BYTES + 1))
        except OSError as err:
            raise GtpError(f"cannot read '{path}': {err.strerror or err}") from None
    if size > MAX_RECORD_BYTES:
        raise GtpError(f"record too large: '{path}' has more than {MAX_RECORD_BYTES} bytes")


def never(_number: int, _node: Node) -> bool:
    """Load the whole main line."""
    return False
