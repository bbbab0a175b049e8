"""Helpers for the Gomoku tests. Diagrams: ``X`` black, ``O`` white, ``.`` empty, ``*`` the
point under test (empty), placed at the top left of a 15x15 board. A fake clock for time
limits."""

from __future__ import annotations

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuBoard, GomokuGame, GomokuRules, Rule


def board(diagram: str, size: int = 15) -> GomokuBoard:
    """A size x size board with `diagram` at its top left."""
    return GomokuBoard.from_diagram(diagram, size, size)


def board_and_point(diagram: str, size: int = 15) -> tuple[GomokuBoard, Point]:
    """The board of `diagram` with its one ``*`` left empty, and the ``*`` point."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines() if line.strip()]
    (star,) = [Point(c, r) for r, line in enumerate(rows) for c, s in enumerate(line) if s == "*"]
    return board(diagram.replace("*", "."), size), star


# A renju position with Black to play and one empty point, 7,7, which would give Black seven on
# the diagonal (4,4 to 10,10): an overline, so Black cannot move. No row of the board holds
# five of one colour. (Found by flipping stones of a five-free tiling at random.)
SHUT_OUT = """
O O X X O O X X O O X X O O X
X X O O X X O O X X O O X X O
O O O X O O X O O X O X O O X
X X X O X X O X O X O X X X O
O O O O X O X X O X X X X O X
X X O O X X O X X O O O X X O
O O O X O O X O X O X O O O X
X X X O X O O . O O O O X X O
O O O X X O X O X X O X X O X
X X O X X X X O X X O O O X O
O O O X O O X O O O X X X O X
X X X O O X X O O X X O O X O
O O X X X X O X X O O X X O X
X X O O X X O O X X O O X X O
O O X X O O X X O O X X O O X
"""


def shut_out_stones() -> tuple[list[Point], list[Point]]:
    """The black and the white stones of `SHUT_OUT`."""
    board = GomokuBoard.from_diagram(SHUT_OUT)
    black = [p for p in board.points() if board[p] is Color.BLACK]
    white = [p for p in board.points() if board[p] is Color.WHITE]
    return black, white


def shut_out_moves() -> list[Point]:
    """`SHUT_OUT`'s stones as moves a renju game accepts one by one: each white stone after
    the first black one that is not a foul at that moment."""
    black, white = shut_out_stones()
    game = GomokuGame(GomokuRules(Rule.RENJU))
    for w in white:
        legal = set(game.legal_moves())
        game.play(next(p for p in black if p in legal))
        game.play(w)
    return [p for _, p in game.moves]


class TickingClock:
    """A stand-in for `time.monotonic` that moves `step` seconds at each look (compiled code
    reads `time.monotonic` too), so that a test of a time limit counts the looks made past it
    and does not depend on the machine's speed or load."""

    def __init__(self, step: float = 0.001) -> None:
        self.step = step
        self.now = 0.0
        self.started = 0.0
        self.looks: list[float] = []

    def __call__(self) -> float:
        self.now += self.step
        self.looks.append(self.now)
        return self.now

    def start(self) -> None:
        """Count the looks from now on."""
        self.looks.clear()
        self.started = self.now

    def past(self, limit: float) -> int:
        """How many looks since `start` read a time more than `limit` seconds (and a step)
        after it."""
        return sum(t > self.started + limit + self.step for t in self.looks)
