"""The opening book: the player's own moves in the first positions of the standard openings,
searched far longer ahead of time than a move's clock allows.

Half of the player's loss a move by Rapfi's judgement falls on positions of 12 stones or fewer,
where it loses twice as much a move as later (bench/STRENGTH.md), and a move's clock cannot be
stretched there: Gomocup's ``timeout_turn`` is per move. bench/gomoku_book.py builds the book
from the 26 standard three-stone openings by the player itself (its own search, many seconds a
position; the opponent's replies its own best few up to 7 stones, then Rapfi's, the
strongest open engine's: to 11 stones at one node limit and then two, to 13 at two; and the
positions of a match's games against Rapfi up to 9 stones that it lacked), one file a rule in
``book/``. Its check then replaced each move after which Rapfi proved the opponent's win, or
(``judged``) rated it more than 0.1 of win rate below the position, by the player's best move
that Rapfi did not refute so (searched without the refuted moves).
A line holds a position (its black and its white stones, SGF points, in the orientation whose
text sorts first of the board's eight) and the move there, then the depth and time the search
took, and what the check found (``holds`` unsaid; ``replaces`` the moves refuted; ``lost``
whatever the move; ``weak``, none of four tries within the drop; ``forced``, a block)::

    hh ig jj / ih hj : kk  # depth 13, 4.2 s; checked 2000000

A position is looked up in all eight orientations, so a turned or mirrored opening finds its
line; a position the book does not hold, a board of another size, or a move no longer legal
gives None, and the player searches as usual.

Beside each book, ``book/swap2-<rule>.txt`` holds the three-stone openings the player opens
swap2 with, each with a score for White to move (bench/gomoku_swap2.py): in freestyle and
standard those its long searches call most even of the 151 near the centre; in renju the
standard openings Rapfi calls most even, which the book above follows (from its own table, the
player's swap2 games against Rapfi were lost by move 12 in 20 to 23 of the 26 it opened; from
these, in 5: bench/STRENGTH.md)::

    gh hh / ii : -12  # depth 13, 5.0 s
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku.game import GomokuGame
from tengen.gomoku.rules import Rule

SIZE = 15  # the book's board
FOLDER = Path(__file__).resolve().parent / "book"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"

Key = tuple[tuple[Point, ...], tuple[Point, ...]]


def turned(p: Point, t: int, size: int = SIZE) -> Point:
    """`p` under the board's symmetry `t` (0-7: bit 0 mirrors the columns, bit 1 the rows,
    bit 2 swaps columns and rows, applied in that order)."""
    col, row = p
    if t & 1:
        col = size - 1 - col
    if t & 2:
        row = size - 1 - row
    if t & 4:
        col, row = row, col
    return Point(col, row)


def unturned(p: Point, t: int, size: int = SIZE) -> Point:
    """The point that symmetry `t` takes to `p` (`turned`'s inverse)."""
    col, row = p
    if t & 4:
        col, row = row, col
    if t & 2:
        row = size - 1 - row
    if t & 1:
        col = size - 1 - col
    return Point(col, row)


def canonical(black: Iterable[Point], white: Iterable[Point]) -> tuple[Key, int]:
    """The position's key in the orientation that sorts first, and the symmetry giving it."""
    black, white = list(black), list(white)
    options = []
    for t in range(8):
        key = (
            tuple(sorted(turned(p, t) for p in black)),
            tuple(sorted(turned(p, t) for p in white)),
        )
        options.append((key, t))
    return min(options)


def sgf(p: Point) -> str:
    """`p` as SGF letters (column, then row from the top)."""
    return _LETTERS[p.col] + _LETTERS[p.row]


def line(key: Key, move: Point, note: str = "") -> str:
    """A book line for the position `key` (canonical) and its `move` (in that orientation)."""
    black, white = (" ".join(sgf(p) for p in stones) for stones in key)
    text = f"{black} / {white} : {sgf(move)}"
    return f"{text}  # {note}" if note else text


def parse(text: str, where: str) -> tuple[Key, Point]:
    """A book line's key and move; ValueError naming `where` when it is malformed."""
    body = text.split("#", 1)[0]
    try:
        stones, move = body.split(":")
        black, white = stones.split("/")
        key = (_points(black), _points(white))
        (point,) = _points(move)
    except ValueError as error:
        raise ValueError(f"{where}: not a book line ({error}): {text!r}") from None
    return key, point


def _points(text: str) -> tuple[Point, ...]:
    points = []
    for word in text.split():
        if len(word) != 2 or any(c not in _LETTERS[:SIZE] for c in word):
            raise ValueError(f"bad point {word!r}")
        points.append(Point(_LETTERS.index(word[0]), _LETTERS.index(word[1])))
    return tuple(sorted(points))


@functools.cache
def table(rule: Rule) -> dict[Key, Point]:
    """The book of `rule` (empty when it has none)."""
    path = FOLDER / f"{rule.value}.txt"
    if not path.exists():
        return {}
    found = {}
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if text.strip() and not text.startswith("#"):
            key, move = parse(text, f"{path.name} line {number}")
            found[key] = move
    return found


@functools.cache
def swap2_openings(rule: Rule) -> list[tuple[Key, int]]:
    """Swap2's three-stone openings for `rule`, each with its score for White to move
    (``book/swap2-<rule>.txt``, built by bench/gomoku_swap2.py; lines ``hh ig / gg : -40  #
    note``); [] when the rule has none."""
    path = FOLDER / f"swap2-{rule.value}.txt"
    if not path.exists():
        return []
    found = []
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if text.strip() and not text.startswith("#"):
            found.append(_scored(text, f"{path.name} line {number}"))
    return found


def _scored(text: str, where: str) -> tuple[Key, int]:
    """A swap2 line's opening (two black stones, one white) and score; ValueError naming
    `where` when it is malformed."""
    body = text.split("#", 1)[0]
    try:
        stones, score = body.split(":")
        black, white = stones.split("/")
        key = (_points(black), _points(white))
        if (len(key[0]), len(key[1])) != (2, 1):
            raise ValueError("an opening is two black stones and one white")
        return key, int(score)
    except ValueError as error:
        raise ValueError(f"{where}: not a swap2 line ({error}): {text!r}") from None


def stones(game: GomokuGame) -> tuple[list[Point], list[Point]]:
    """The black and the white stones on `game`'s board."""
    board = game.board
    black = [p for _, p in game.moves if board[p] is Color.BLACK]
    white = [p for _, p in game.moves if board[p] is Color.WHITE]
    return black, white


def move(game: GomokuGame) -> Point | None:
    """The book's move for the side to move in `game`, or None (see the module docstring)."""
    rules = game.rules
    if rules.width != SIZE or rules.height != SIZE or game.is_over:
        return None
    book = table(rules.rule)
    if not book:
        return None
    key, t = canonical(*stones(game))
    found = book.get(key)
    if found is None:
        return None
    p = unturned(found, t)
    return p if game.is_legal(p) else None
