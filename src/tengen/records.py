"""Open any game record tengen reads (SGF collections and the server formats), and write a
game as a record.

``.sgf`` files (and files with a suffix no importer claims) are read as SGF, leniently by
default, so their repaired quirks come back as warnings; ``.gib``, ``.ngf``, ``.ugf``, ``.ugi``
and ``.psq`` go through `tengen.sgf.formats`. Whatever goes wrong, the caller gets one error
type, `UnreadableRecord`, naming the file and, when known, the line and column.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tengen import __version__
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game, GameMove
from tengen.core.rules import PRESETS
from tengen.sgf import GameTree, SgfError, SgfWarning, parse_file
from tengen.sgf.formats import FORMATS, RecordError, load_record

SUFFIXES: tuple[str, ...] = (".sgf", *FORMATS)


@dataclass
class Record:
    """The games of one file and the warnings of reading it."""

    path: str
    games: list[GameTree]
    warnings: list[SgfWarning] = field(default_factory=list)


class UnreadableRecord(ValueError):
    """A file that cannot be read as a record; `line` and `col` are 1-based, None when unknown."""

    def __init__(
        self, path: str, message: str, line: int | None = None, col: int | None = None
    ) -> None:
        self.path = path
        self.message = message
        self.line = line
        self.col = col
        super().__init__(f"{self.where}: {message}")

    @property
    def where(self) -> str:
        """``path:line:col``, ``path:line`` or ``path``, as much as is known."""
        return ":".join(str(part) for part in (self.path, self.line, self.col) if part is not None)


def open_record(path: str | os.PathLike[str], *, strict: bool = False) -> Record:
    """Read every game of the record at `path`, SGF or another format, by its suffix.

    `strict` applies to SGF only (the importers have no lenient mode to leave).
    Raises UnreadableRecord for a missing, unreadable or malformed file.
    """
    name = os.fspath(path)
    try:
        if Path(name).suffix.lower() in FORMATS:
            return Record(name, [load_record(name)])
        result = parse_file(name, strict=strict)
    except SgfError as err:
        raise UnreadableRecord(name, err.message, err.line, err.col) from None
    except RecordError as err:
        raise UnreadableRecord(name, err.message, err.line) from None
    except OSError as err:
        raise UnreadableRecord(name, err.strerror or str(err)) from None
    return Record(name, result.games, result.warnings)


def record_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[str]:
    """The paths given, with each directory replaced by the record files under it (sorted).

    Files named directly are kept whatever their suffix; under a directory only the suffixes
    in `SUFFIXES` count.
    """
    for path in paths:
        if not os.path.isdir(path):
            yield os.fspath(path)
            continue
        found = (p for p in Path(path).rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())
        yield from sorted(str(p) for p in found)


def game_record(game: Game) -> GameTree:
    """The game as a record: SZ, KM, RU and HA in the root, then each setup and move in order.

    Setups before the first move (handicap stones among them) go in the root; a later setup
    gets a node of its own. The game is stepped back with undo and forward again with redo,
    so it ends as it began.
    """
    tree = GameTree()
    root = tree.root
    root.set("GM", 1)
    root.set("FF", 4)
    root.set("AP", ("tengen", __version__))
    root.set("SZ", game.width if game.width == game.height else (game.width, game.height))
    root.set("KM", game.ruleset.komi)
    ruleset = game.ruleset
    root.set("RU", ruleset.name if ruleset.name in PRESETS else ruleset.to_json())
    if game.handicap_stones:
        root.set("HA", game.handicap_stones)
    node = root
    for step in _history(game):
        if isinstance(step, GameMove):
            node = node.append_child()
            node.set(step.color.letter, step.move)
            continue
        if node is not root or any(i in root.properties for i in ("AB", "AW", "AE", "PL")):
            node = node.append_child()
        for ident, value in step.items():
            node.set(ident, value)
    return tree


Setup = dict[str, Any]  # the AB, AW, AE and PL properties of one setup


def _history(game: Game) -> list[GameMove | Setup]:
    """Every move and setup of `game`, oldest first (resignations left out)."""
    moves = game.moves
    steps: list[GameMove | Setup] = []
    undone = 0
    try:
        while game.actions:
            before, to_play, number = game.board.grid(), game.to_play, game.move_number
            game.undo()
            undone += 1
            if game.move_number < number:
                steps.append(moves[game.move_number])
                continue
            setup = _setup(game.board.grid(), before)
            if to_play is not game.to_play:
                setup["PL"] = to_play
            if setup:
                steps.append(setup)
    finally:
        for _ in range(undone):
            game.redo()
    return steps[::-1]


def _setup(before: np.ndarray, after: np.ndarray) -> Setup:
    """The AB, AW and AE lists that turn grid `before` into grid `after`."""
    setup: Setup = {}
    for ident, value in (("AB", Color.BLACK), ("AW", Color.WHITE), ("AE", 0)):
        rows, cols = np.nonzero((after != before) & (after == value))
        if len(rows):
            setup[ident] = [Point(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]
    return setup
