"""A figure: what a Go diagram shows, built once and drawn by every output format.

Two kinds of figure, after the conventions of printed game records:

- A *position* figure shows the board at one moment (after move N), with the last move marked
  and, as an option, each chain labelled with its name and liberty count (``B1:3``, the seed
  app's group names, on the chain's first stone in reading order).
- A *numbered* figure shows the position before move A plainly and moves A..B with their
  numbers. Numbers keep the game's numbering, as books do (a figure of moves 51-100 shows 51 to
  100); ``renumber`` counts from 1 instead. Nothing is taken off the board during a figure: a
  captured stone stays drawn, so each point shows its first stone of the figure. A later move
  on a point already used in the figure is listed in a note under it: ``12 at 6`` (12 was
  played where 6 is shown), grouped as ``12, 18 at 6`` for a ko. When the point's stone was
  there before the figure began, that stone gets a letter and the note reads ``15 at A``
  (letters skip I, O and X, which read as coordinates or stones). A pass reads ``20 pass``.
  The last move is not marked: its number says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.game import Game, GameMove
from tengen.render.grid import star_points

_LETTERS = "ABCDEFGHJKLMNPQRSTUVWYZ"


@dataclass(frozen=True, slots=True)
class Figure:
    """Everything a diagram shows, in board coordinates; at most one text per stone."""

    width: int
    height: int
    stones: dict[Point, Color]
    numbers: dict[Point, int] = field(default_factory=dict)
    letters: dict[Point, str] = field(default_factory=dict)
    labels: dict[Point, str] = field(default_factory=dict)
    last: Point | None = None
    notes: tuple[str, ...] = ()
    played: tuple[tuple[int, Color], ...] = ()  # (shown number, colour) of each numbered move

    @property
    def stars(self) -> list[Point]:
        """The star points of the board."""
        return star_points(self.width, self.height)

    def text(self, point: Point) -> str | None:
        """The text written on the stone at `point`: its number, letter or chain label."""
        number = self.numbers.get(point)
        if number is not None:
            return str(number)
        return self.letters.get(point) or self.labels.get(point)


def _stones(board: Board) -> dict[Point, Color]:
    stones: dict[Point, Color] = {}
    for point in board.points():
        color = board[point]
        if color is not None:
            stones[point] = color
    return stones


def _letter(index: int) -> str:
    """``A``, ``B``, ... then ``AA``, ``AB``, ... over the letters in `_LETTERS`."""
    n = len(_LETTERS)
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, n)
        text = _LETTERS[rest] + text
    return text


def position_figure(board: Board, last: Move = None, *, chain_labels: bool = False) -> Figure:
    """The board as it stands, `last` marked; with `chain_labels`, each chain's ``B1:3``."""
    labels: dict[Point, str] = {}
    if chain_labels:
        for chain in board.chains():
            spot = min(chain.stones, key=lambda p: (p == last, p.row, p.col))
            labels[spot] = f"{chain.label}:{len(chain.liberties)}"
    mark = last if last is not None and board[last] is not None else None
    return Figure(board.width, board.height, _stones(board), labels=labels, last=mark)


def numbered_figure(base: Board, moves: Sequence[GameMove], *, renumber: bool = False) -> Figure:
    """`base` drawn plain and `moves` numbered over it, with the notes for re-used points."""
    stones = _stones(base)
    numbers: dict[Point, int] = {}
    letters: dict[Point, str] = {}
    later: dict[Point, list[int]] = {}
    passes: list[int] = []
    played: list[tuple[int, Color]] = []
    offset = moves[0].number - 1 if renumber and moves else 0
    for entry in moves:
        shown = entry.number - offset
        played.append((shown, entry.color))
        point = entry.move
        if point is None:
            passes.append(shown)
        elif point in stones:
            later.setdefault(point, []).append(shown)
        else:
            stones[point] = entry.color
            numbers[point] = shown
    fresh = count()
    notes: list[tuple[int, str]] = [(n, f"{n} pass") for n in passes]
    for point, again in later.items():
        if point not in numbers:
            letters[point] = _letter(next(fresh))
        target = numbers.get(point) or letters[point]
        notes.append((again[0], f"{', '.join(map(str, again))} at {target}"))
    return Figure(
        base.width,
        base.height,
        stones,
        numbers=numbers,
        letters=letters,
        notes=tuple(text for _, text in sorted(notes)),
        played=tuple(played),
    )


def board_after(game: Game, n: int) -> Board:
    """A copy of the board of `game` after its move `n` (0: before the first move).

    Steps the game back with undo and forward again with redo, so `game` ends as it began.
    Raises ValueError if the game has no move `n`.
    """
    if not 0 <= n <= game.move_number:
        raise ValueError(f"move {n} is outside the game's moves 0-{game.move_number}")
    undone = 0
    try:
        while game.move_number > n:
            game.undo()
            undone += 1
        return game.board.copy()
    finally:
        for _ in range(undone):
            game.redo()


def game_figure(
    game: Game,
    *,
    move: int | None = None,
    moves: tuple[int, int] | None = None,
    chain_labels: bool = False,
    renumber: bool = False,
) -> Figure:
    """The figure of `game` for ``--move N`` (the position after move N; default: the end)
    or ``--moves A-B`` (moves A..B numbered).

    Raises ValueError for moves the game does not have, or for both options at once, or for
    chain labels on a numbered figure (a stone carries one text).
    """
    if moves is None:
        n = game.move_number if move is None else move
        board = board_after(game, n)
        last = game.moves[n - 1].move if n > 0 else None
        return position_figure(board, last, chain_labels=chain_labels)
    if move is not None:
        raise ValueError("choose a position (move) or a range of moves, not both")
    if chain_labels:
        raise ValueError("chain labels go on position figures, not on numbered ones")
    first, final = moves
    if not 1 <= first <= final <= game.move_number:
        raise ValueError(f"moves {first}-{final} are outside the game's moves 1-{game.move_number}")
    return numbered_figure(
        board_after(game, first - 1), game.moves[first - 1 : final], renumber=renumber
    )


def wrap_notes(notes: Sequence[str], width: int) -> list[str]:
    """The notes joined by ``; `` into lines of at most `width` characters, never splitting
    a note (a note longer than a line gets a line to itself)."""
    lines: list[str] = []
    for note in notes:
        if lines and len(lines[-1]) + 2 + len(note) <= width:
            lines[-1] += "; " + note
        else:
            lines.append(note)
    return lines
