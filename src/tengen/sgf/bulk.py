"""Replay the main line of many records fast: a file's bytes in, the final position out.

`replay_main_line` gives what ``sgf.parse`` then ``sgf.replay.replay`` give for the first game
of a file (the board at the end of the main line, the rules, the moves played, the problems),
without building a tree: `sgf.scan` finds the main line in the bytes and `core.replay` plays it
in one compiled call. Files in other charsets are decoded as the full path decodes them and
scanned as UTF-8. Whatever the scan does not take plainly (see `sgf.scan`) goes through the
full path instead, so the result is always the same.
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import SGF_LETTERS
from tengen.core.errors import IllegalReason
from tengen.core.game import Game
from tengen.core.kernels import KO, OCCUPIED, SUICIDE
from tengen.core.replay import MOVE, SUPERKO, play_line
from tengen.core.rules import Ruleset
from tengen.sgf import scan
from tengen.sgf.encoding import decode
from tengen.sgf.replay import ReplayProblem, replay, ruleset_from_raw
from tengen.sgf.tree import parse

_REASONS = {
    OCCUPIED: IllegalReason.OCCUPIED,
    SUICIDE: IllegalReason.SUICIDE,
    KO: IllegalReason.KO,
    SUPERKO: IllegalReason.SUPERKO,
}


@dataclass(frozen=True, eq=False)
class MainLine:
    """The end of a record's main line, and how it got there (compare fields, not lines)."""

    board: Board
    ruleset: Ruleset
    moves: np.ndarray  # (n, 3) int32 rows: colour (1, 2), col, row; -1, -1 for a pass
    to_play: Color
    handicap: int  # black stones the root placed as handicap (HA with AB)
    problems: tuple[str, ...]  # what the rules refused, as ``str(ReplayProblem)``

    @classmethod
    def from_game(cls, game: Game, problems: Sequence[ReplayProblem]) -> MainLine:
        """The main line as the full path leaves it: a replayed game and its problems."""
        rows = [(int(m.color), *(m.move or (-1, -1))) for m in game.moves]
        moves = np.array(rows, np.int32).reshape(-1, 3)
        return cls(
            game.board,
            game.ruleset,
            moves,
            game.to_play,
            game.handicap_stones,
            tuple(str(p) for p in problems),
        )


def replay_main_line(data: bytes) -> MainLine:
    """The main line of the first game in SGF bytes, replayed permissively.

    Raises SgfError if there is no game tree, and ValueError for a bad SZ or a game other than
    Go, as ``replay(parse(data).games[0])`` does.
    """
    line = fast_main_line(data)
    if line is not None:
        return line
    game, problems = replay(parse(data).games[0])
    return MainLine.from_game(game, problems)


def fast_main_line(data: bytes) -> MainLine | None:
    """`replay_main_line` by the scan alone; None where the file needs the full path."""
    text = _utf8(data)
    info, line = scan.scan(np.frombuffer(text, np.uint8))
    if info[scan.STATUS] != scan.OK:
        return None
    ruleset, _ = ruleset_from_raw(
        _raw(text, info[scan.RU_START], info[scan.RU_END]),
        _raw(text, info[scan.KM_START], info[scan.KM_END]),
    )
    board = Board(int(info[scan.WIDTH]), int(info[scan.HEIGHT]))
    try:
        codes, to_play = play_line(board, ruleset, line)
    except ValueError:  # a point set up twice in a node, a setup chain with no liberty
        return None
    is_move = line[:, 0] == MOVE
    problems: tuple[str, ...] = ()
    if codes.any():
        problems = tuple(_problem(line[i], int(codes[i])) for i in np.flatnonzero(codes))
        is_move &= codes != OCCUPIED
    moves = line[is_move, 1:4]
    return MainLine(board, ruleset, moves, to_play, int(info[scan.HANDICAP]), problems)


def _utf8(data: bytes) -> bytes:
    """The file as UTF-8 bytes of the text the full path decodes (see ``sgf.encoding``)."""
    if b"\x00" not in data:  # NULs may make the charset detection pick UTF-16
        if data.isascii():
            if b"\x1b" not in data:  # ESC would start ISO-2022 shifts
                return data
        elif not data.startswith(codecs.BOM_UTF8):
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                return data
    return decode(data).text.encode("utf-8", "surrogatepass")


def _raw(text: bytes, start: int, end: int) -> str | None:
    return None if start < 0 else text[start:end].decode("utf-8", "surrogatepass")


def _problem(row: np.ndarray, code: int) -> str:
    """The message the full path gives for a refused move (see ``Node.describe``)."""
    _, color, col, row_, label = (int(x) for x in row)
    where = "root" if label == 0 else f"move {label}"
    raw = SGF_LETTERS[col] + SGF_LETTERS[row_]
    return f"{where}: illegal move {Color(color).letter}[{raw}]: {_REASONS[code].value}"
