"""A Gomoku game: the board under rules, turn order, the opening rule, game end, and undo.

Stones alternate Black, White, Black... whoever places them. The opening rules change who
holds which colour, not the stones' order; the players are numbered 1 (the one who opens) and
2, and ``black_player`` says who holds Black:

* ``swap``: player 1 places the first three stones (Black, White, Black; ``play`` three times
  or ``place_opening`` with three points). Player 2 then either calls ``swap()`` to take Black
  (player 1, now White, plays stone 4) or plays stone 4 as White.
* ``swap2``: the same three stones; then player 2 either ``swap()``s, or plays stone 4 as
  White, or calls ``place_opening`` with two points (stones 4 and 5, White then Black), after
  which player 1 either ``swap()``s to take White and play stone 6, or stays Black and player 2
  plays stone 6 as White. This is the sequence of Gomocup's ``SWAP2BOARD``;
  ``opening_decision`` and ``decide_opening`` take its answers as they come.

Without an opening rule Black is player 1 and nobody swaps. The game ends on a winning row
(the rule decides which), by resignation, or drawn on a full board or, under renju, when
Black is to play and every empty point is forbidden (Black cannot move, and neither tengen
nor the Gomocup protocol has a pass). Under renju it also ends on a foul: a record (or a
referee) may place a forbidden stone for Black with ``foul_loses``, and White wins, as the
renju rules say. ``undo`` takes back the last action: a stone, a batch of
opening stones, a swap or a resignation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import renju
from tengen.gomoku.board import GomokuBoard, winner_full_scan, wins_at
from tengen.gomoku.rules import GomokuRules, Opening, Rule

FOUL = "forbidden: "  # the prefix of a GomokuIllegal reason for Black's forbidden point


class GomokuIllegal(ValueError):
    """An action the rules refuse, with the reason and the number the move would have had.

    ``reason`` is ``occupied``, ``off board``, ``wrong turn``, ``game over``, ``forbidden: ...``
    (with the renju reason) or ``opening: ...`` (an opening action out of sequence).
    """

    def __init__(self, reason: str, move_number: int, point: Point | None = None) -> None:
        self.reason = reason
        self.move_number = move_number
        self.point = point
        where = "" if point is None else f" at ({point.col}, {point.row})"
        super().__init__(f"move {move_number}{where}: {reason}")


@dataclass(frozen=True)
class _Action:
    """One entry of the undo log: stones placed, a swap, or a resignation."""

    kind: str  # "stones", "swap", "keep" (swap2's first player keeps Black) or "resign"
    count: int = 0  # stones placed by a "stones" action


class GomokuGame:
    """A game under `rules`: play, the opening actions, resign, undo, and the result."""

    def __init__(self, rules: GomokuRules | None = None) -> None:
        self.rules = rules or GomokuRules()
        self.board = GomokuBoard(self.rules.width, self.rules.height)
        self.moves: list[tuple[Color, Point]] = []
        self.black_player = 1
        self.winner: Color | None = None
        self.winning_line: list[Point] | None = None
        self.resigned: Color | None = None
        self.foul: tuple[Point, str] | None = None  # Black's forbidden stone and its reason
        self._log: list[_Action] = []

    @property
    def to_play(self) -> Color:
        """The colour of the next stone."""
        return Color.BLACK if len(self.moves) % 2 == 0 else Color.WHITE

    @property
    def move_number(self) -> int:
        """How many stones have been placed."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: a win, a resignation, or a draw (`drawn_because`)."""
        return self.winner is not None or bool(self.drawn_because)

    @property
    def drawn_because(self) -> str:
        """Why the game is drawn: ``the board is full``, or under renju ``Black has only
        forbidden points left`` (with Black to play); ``""`` when it is not drawn."""
        if self.winner is not None:
            return ""
        if self.board.is_full():
            return "the board is full"
        if (
            self.rules.rule is Rule.RENJU
            and self.to_play is Color.BLACK
            and not renju.has_allowed_point(self.board)
        ):
            return "Black has only forbidden points left"
        return ""

    @property
    def result(self) -> str:
        """``B+5``/``W+5`` (a winning row), ``B+R``/``W+R`` (resignation), ``W+F`` (Black's
        foul under renju), ``draw`` (`drawn_because`), or ``""`` while the game goes on."""
        if self.winner is not None:
            how = "R" if self.resigned else "F" if self.foul else "5"
            return f"{self.winner.letter}+{how}"
        return "draw" if self.drawn_because else ""

    @property
    def can_swap(self) -> bool:
        """Whether ``swap()`` is the choice now open (see the module docstring)."""
        if self.rules.opening is Opening.NONE or not self._log or self.is_over:
            return False
        last = self._log[-1]
        if last.kind != "stones":
            return False
        if len(self.moves) == 3:
            return True
        return self.rules.opening is Opening.SWAP2 and len(self.moves) == 5 and last.count == 2

    def player_of(self, color: Color) -> int:
        """Which player (1 or 2) holds `color` now."""
        return self.black_player if color is Color.BLACK else 3 - self.black_player

    def play(self, point: Point, color: Color | None = None, *, foul_loses: bool = False) -> None:
        """Place the next stone (of `color`, if given, which must be ``to_play``).

        Raises GomokuIllegal if the game is over, `color` is not to play, `point` is off the
        board or occupied, or it is forbidden to Black under renju, unless `foul_loses`: then
        the forbidden stone is placed and White wins by Black's foul (replaying a record).
        """
        try:
            self._check(point, color)
        except GomokuIllegal as error:
            if not (foul_loses and error.reason.startswith(FOUL)):
                raise
            self._place(point)
            self.foul = (point, error.reason.removeprefix(FOUL))
            self.winner, self.winning_line = Color.WHITE, None
        else:
            self._place(point)
        self._log.append(_Action("stones", 1))

    def set_up(self, black: Sequence[Point], white: Sequence[Point]) -> None:
        """Put a position on the empty board as it stands (a manager's ``BOARD``): the stones
        are not moves, so none is judged by renju's foul rule, and their order does not matter.
        They enter ``moves`` alternately, Black first, each undone on its own; the position
        is then judged as a whole (a five in it ends the game).

        Raises GomokuIllegal unless the board is empty, Black has as many stones as White or
        one more, and every point is on the board and given once (nothing is placed then).
        """
        if self.moves or self._log:
            raise GomokuIllegal("set-up: the board is not empty", len(self.moves) + 1)
        if len(black) - len(white) not in (0, 1):
            raise GomokuIllegal(
                f"set-up: {len(black)} black and {len(white)} white stones (Black has as many "
                "as White or one more)",
                1,
            )
        order = [p for pair in zip(black, white, strict=False) for p in pair]
        order += black[len(white) :]
        seen: set[Point] = set()
        for number, point in enumerate(order, 1):
            if not (0 <= point.col < self.board.width and 0 <= point.row < self.board.height):
                raise GomokuIllegal("off board", number, point)
            if point in seen:
                raise GomokuIllegal("occupied", number, point)
            seen.add(point)
        for number, point in enumerate(order):
            color = Color.BLACK if number % 2 == 0 else Color.WHITE
            self.board.place(point, color)
            self.moves.append((color, point))
            self._log.append(_Action("stones", 1))
        won = winner_full_scan(self.board, self.rules.rule)
        if won is not None:
            self.winner, self.winning_line = won

    def place_opening(self, points: list[Point]) -> None:
        """Place the opening stones in one action: the first three (swap, swap2), or stones 4
        and 5 when player 2 chooses that option of swap2.

        Raises GomokuIllegal if the opening rule has no such step now, or a stone is illegal
        (the stones placed before it are taken back).
        """
        opening = self.rules.opening
        first_three = opening is not Opening.NONE and not self.moves and len(points) == 3
        swap2_two = opening is Opening.SWAP2 and len(self.moves) == 3 and self.can_swap
        if not (first_three or (swap2_two and len(points) == 2)):
            raise GomokuIllegal(
                f"opening: no {len(points)}-stone placement now under {opening.value}",
                len(self.moves) + 1,
            )
        for placed, p in enumerate(points):
            try:
                self._check(p, None)
            except GomokuIllegal:
                for _ in range(placed):
                    self._unplace()
                raise
            self._place(p)
        self._log.append(_Action("stones", len(points)))

    @property
    def opening_decision(self) -> int | None:
        """Which player (1 or 2) owes the opening's next decision, the one a Gomocup manager
        asks for with ``SWAP2BOARD``: player 1 the first three stones, player 2 the choice
        after them, player 1 the choice after swap2's two more; None when none is due."""
        if self.rules.opening is Opening.NONE or self.is_over:
            return None
        if not self._log:
            return 1
        if self.can_swap:
            return 1 if len(self.moves) == 5 else 2
        return None

    def decide_opening(self, answer: Sequence[Point] | None) -> None:
        """Carry out a ``SWAP2BOARD`` answer of the player who owes the decision. The answer
        names stones for the side to move, or is None (``SWAP``: the other side): the first
        three stones; after three, None (player 2 takes Black), White's stone 4, or under
        swap2 stones 4 and 5; after five, None (player 1 keeps Black) or White's stone 6
        (player 1 takes White and plays it).

        Raises GomokuIllegal for an answer the opening does not allow now, or an illegal stone
        (nothing is changed then).
        """
        n = len(self.moves)
        stones = None if answer is None else list(answer)
        count = None if stones is None else len(stones)
        due = self.opening_decision
        allowed = {0: (3,), 3: (None, 1, 2) if self.rules.opening is Opening.SWAP2 else (None, 1)}
        allowed[5] = (None, 1)
        if due is None or count not in allowed.get(n, ()):
            what = "SWAP" if count is None else f"{count} stones"
            raise GomokuIllegal(
                f"opening: {what} is no answer after {n} stones under {self.rules.opening.value}",
                n + 1,
            )
        if stones is None:
            if n == 3:
                self.swap()
            else:
                self._log.append(_Action("keep"))
        elif count == 1:
            if n == 5:
                self.swap()
            try:
                self.play(stones[0])
            except GomokuIllegal:
                if n == 5:
                    self.undo()
                raise
        else:
            self.place_opening(stones)

    def swap(self) -> None:
        """The player choosing takes the other colour: player 2 after three stones (swap,
        swap2), player 1 after swap2's five. Raises GomokuIllegal when no choice is open."""
        if not self.can_swap:
            raise GomokuIllegal("opening: no colour choice is open now", len(self.moves) + 1)
        self.black_player = 3 - self.black_player
        self._log.append(_Action("swap"))

    def resign(self, color: Color | None = None) -> None:
        """`color` (by default the player to move) gives up. Raises GomokuIllegal if over."""
        if self.is_over:
            raise GomokuIllegal("game over", len(self.moves) + 1)
        loser = self.to_play if color is None else color
        self.resigned = loser
        self.winner = loser.opponent
        self._log.append(_Action("resign"))

    def undo(self) -> None:
        """Take back the last action. Raises IndexError if there is none."""
        action = self._log.pop()
        if action.kind == "swap":
            self.black_player = 3 - self.black_player
        elif action.kind == "resign":
            self.resigned = self.winner = None
        elif action.kind == "stones":
            for _ in range(action.count):
                self._unplace()

    def legal_moves(self) -> list[Point]:
        """The empty points the next stone may take; [] when the game is over."""
        if self.is_over:
            return []
        forbidden = self.forbidden_points()
        return [p for p in self.board.empty_points() if p not in forbidden]

    def is_legal(self, point: Point) -> bool:
        """Whether the next stone may go on `point` (one point's `legal_moves`)."""
        try:
            self._check(point, None)
        except GomokuIllegal:
            return False
        return True

    def forbidden_points(self) -> dict[Point, str]:
        """Black's forbidden points with reasons when Black is to play under renju, else {}
        (they are shown when they leave Black no move too: they are why the game is drawn)."""
        if self.rules.rule is Rule.RENJU and self.to_play is Color.BLACK and self.winner is None:
            return renju.forbidden_points(self.board)
        return {}

    def _check(self, point: Point, color: Color | None) -> None:
        """Raise GomokuIllegal unless the next stone may go on `point`."""
        number = len(self.moves) + 1
        if self.is_over:
            raise GomokuIllegal("game over", number, point)
        if color is not None and color is not self.to_play:
            raise GomokuIllegal("wrong turn", number, point)
        if not (0 <= point.col < self.board.width and 0 <= point.row < self.board.height):
            raise GomokuIllegal("off board", number, point)
        if self.board[point] is not None:
            raise GomokuIllegal("occupied", number, point)
        if self.to_play is Color.BLACK and self.rules.rule is Rule.RENJU:
            reason = renju.forbidden(self.board, point)
            if reason is not None:
                raise GomokuIllegal(f"{FOUL}{reason}", number, point)

    def _place(self, point: Point) -> None:
        """Put the next stone on `point` (already checked) and judge it."""
        color = self.to_play
        self.board.place(point, color)
        self.moves.append((color, point))
        line = wins_at(self.board, point, color, self.rules.rule)
        if line is not None:
            self.winner, self.winning_line = color, line

    def _unplace(self) -> None:
        """Take the last stone back, and the win it made."""
        _, point = self.moves.pop()
        self.board.remove(point)
        self.winner = self.winning_line = self.foul = None
