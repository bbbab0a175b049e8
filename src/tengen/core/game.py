"""A game of Go: a `Board` plus a `Ruleset`, turn order, history, superko, passes, handicap.

Every move is checked against the ruleset and refused with `IllegalMove` (a typed reason and
the move number), unless the game is permissive: then any move the bare capture rules allow is
played and the rules it breaks are reported on the returned `GameMove`, so that a record of a
real game can always be entered. Undo restores the board from the moves' records, never by
replaying from the start; redo plays undone actions again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from tengen.core import coords, zobrist
from tengen.core import handicap as handicap_rules
from tengen.core import kernels as k
from tengen.core.board import Board, MoveRecord
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.errors import IllegalMove, IllegalReason
from tengen.core.rules import CHINESE, KoRule, Ruleset


@dataclass(frozen=True, slots=True)
class GameMove:
    """A move as played: who, where (None for a pass), its number, captures, rules broken."""

    color: Color
    move: Move
    number: int
    captured: int
    violations: tuple[IllegalReason, ...] = ()


@dataclass(frozen=True, slots=True)
class _Played:
    entry: GameMove
    record: MoveRecord
    prev_to_play: Color
    prev_passes: int


@dataclass(frozen=True, slots=True)
class _Setup:
    changes: tuple[tuple[Point, Color | None, Color | None], ...]  # point, before, after
    prev_to_play: Color
    to_play: Color
    is_handicap: bool


@dataclass(frozen=True, slots=True)
class _Resign:
    color: Color


_Action = _Played | _Setup | _Resign


class Game:
    """One game under one ruleset.

    `free_turns` lets either colour move at any time (GTP's ``play`` does); with
    `end_after_passes` False, two passes do not end the game (over GTP the controller decides).
    """

    def __init__(
        self,
        width: int = 19,
        height: int | None = None,
        ruleset: Ruleset = CHINESE,
        *,
        permissive: bool = False,
        free_turns: bool = False,
        end_after_passes: bool = True,
    ) -> None:
        self.board = Board(width, height)
        self.ruleset = ruleset
        self.permissive = permissive
        self.free_turns = free_turns
        self.end_after_passes = end_after_passes
        self.to_play = Color.BLACK
        self.consecutive_passes = 0
        self.resigned: Color | None = None
        self._actions: list[_Action] = []
        self._move_count = 0
        self._redo: list[_Action] = []
        self._side = zobrist.side_key(self.board.width, self.board.height)
        self._positions: Counter[int] = Counter()
        self._situations: Counter[int] = Counter()
        self._remember(self.to_play)

    # -- queries -----------------------------------------------------------------------------

    @property
    def width(self) -> int:
        """Columns of the board."""
        return self.board.width

    @property
    def height(self) -> int:
        """Rows of the board."""
        return self.board.height

    @property
    def moves(self) -> list[GameMove]:
        """The moves played so far (passes included), oldest first."""
        return [a.entry for a in self._actions if isinstance(a, _Played)]

    @property
    def move_number(self) -> int:
        """How many moves (passes included) have been played."""
        return self._move_count

    @property
    def handicap_stones(self) -> int:
        """Black stones placed as handicap (0 when none)."""
        return sum(
            sum(1 for _, _, after in a.changes if after is Color.BLACK)
            for a in self._actions
            if isinstance(a, _Setup) and a.is_handicap
        )

    @property
    def actions(self) -> int:
        """How many undoable actions (moves, passes, setups, resignations) have been applied."""
        return len(self._actions)

    @property
    def is_over(self) -> bool:
        """True after a resignation, or two passes in a row when they end the game."""
        return self.resigned is not None or (self.end_after_passes and self.consecutive_passes >= 2)

    @property
    def winner(self) -> Color | None:
        """The winner by resignation; counting the score belongs to `tengen.scoring`."""
        return None if self.resigned is None else self.resigned.opponent

    def legality(self, move: Move, color: Color | None = None) -> IllegalReason | None:
        """None if `color` (default: the player to move) may play `move` now, else why not."""
        broken = self._violations(move, self.to_play if color is None else color)
        return broken[0] if broken else None

    def is_legal(self, move: Move, color: Color | None = None) -> bool:
        """Whether `move` is allowed now under the ruleset."""
        return self.legality(move, color) is None

    def legal_moves(self, color: Color | None = None, *, own_eyes: bool = True) -> list[Point]:
        """Every point `color` (default: the player to move) may play now, row by row from the
        top left; pass is always legal while the game goes on and is not listed. With
        `own_eyes` False, points that `Board.is_eye_like` calls own eyes are left out (what
        random players want)."""
        color = self.to_play if color is None else color
        if self.is_over or (not self.free_turns and color != self.to_play):
            return []
        candidates = self.board.legal_points(
            color, allow_suicide=self.ruleset.suicide_allowed, skip_eyes=not own_eyes
        )
        if self.ruleset.ko is KoRule.POSITIONAL:
            return [p for p, h in candidates if self._positions[h] == 0]
        if self.ruleset.ko is KoRule.SITUATIONAL:
            nxt = color.opponent
            return [p for p, h in candidates if self._situations[self._situation(h, nxt)] == 0]
        return [p for p, _ in candidates]

    # -- actions -----------------------------------------------------------------------------

    def play(self, move: Move, color: Color | None = None) -> GameMove:
        """Play `move` (None passes) for `color` (default: the player to move).

        Raises IllegalMove with the reason and move number; in a permissive game only for an
        occupied or off-board point, other broken rules being listed on the result.
        """
        color = self.to_play if color is None else color
        number = self.move_number + 1
        broken = self._violations(move, color)
        if broken:
            hard = broken[0] in (IllegalReason.OCCUPIED, IllegalReason.OFF_BOARD)
            if not self.permissive or hard:
                raise IllegalMove(broken[0], move, number)
        self._redo.clear()
        return self._do_play(move, color, tuple(broken))

    def pass_move(self, color: Color | None = None) -> GameMove:
        """Pass for `color` (default: the player to move)."""
        return self.play(None, color)

    def resign(self, color: Color | None = None) -> None:
        """`color` (default: the player to move) resigns; the game is over."""
        if self.is_over and not self.permissive:
            raise IllegalMove(IllegalReason.GAME_OVER, None, self.move_number + 1)
        self._redo.clear()
        self._apply(_Resign(self.to_play if color is None else color))

    def setup(
        self,
        black: Iterable[Point] = (),
        white: Iterable[Point] = (),
        empty: Iterable[Point] = (),
        to_play: Color | None = None,
        *,
        handicap: bool = False,
    ) -> None:
        """Place or remove stones with no capture (SGF AB/AW/AE), as one undoable action.

        `handicap` marks the black stones as handicap stones (for scoring compensation).
        Raises ValueError if a point is off the board or a chain is left with no liberty.
        """
        wanted: dict[Point, Color | None] = {}
        for points, value in ((black, Color.BLACK), (white, Color.WHITE), (empty, None)):
            for p in points:
                if not self.board.on_board(p):
                    raise ValueError(
                        f"setup point ({p[0]}, {p[1]}) is off the {self.width}x{self.height} board"
                    )
                wanted[Point(*p)] = value
        changes = tuple(
            (p, self.board[p], value) for p, value in wanted.items() if self.board[p] != value
        )
        action = _Setup(changes, self.to_play, to_play or self.to_play, is_handicap=handicap)
        self._apply(action)
        dead = [p for p, _, after in changes if after and self.board.liberty_count(p) == 0]
        if dead:
            self._unapply(action)
            where = coords.name(dead[0], self.width, self.height)
            raise ValueError(f"setup leaves the chain at {where} with no liberty")
        self._redo.clear()

    def place_handicap(self, count: int) -> list[Point]:
        """Put `count` black stones on the fixed handicap points; White then moves.

        Raises ValueError if the board is not empty or the size has no such handicap.
        """
        points = handicap_rules.fixed_points(count, self.width, self.height)
        self.set_handicap(points)
        return points

    def set_handicap(self, points: list[Point]) -> None:
        """Free handicap: black stones on `points` of an empty board; White then moves."""
        if self._actions or self.board.hash != 0:
            raise ValueError("handicap stones go on an empty board before the first move")
        handicap_rules.check_free(points, self.width, self.height)
        changes = tuple((Point(*p), None, Color.BLACK) for p in points)
        self._redo.clear()
        self._apply(_Setup(changes, self.to_play, Color.WHITE, is_handicap=True))

    def undo(self) -> None:
        """Take back the last action (move, pass, resignation or setup). Raises IndexError."""
        if not self._actions:
            raise IndexError("nothing to undo")
        action = self._actions[-1]
        self._unapply(action)
        self._redo.append(action)

    def redo(self) -> None:
        """Play again the last undone action. Raises IndexError if there is none."""
        if not self._redo:
            raise IndexError("nothing to redo")
        action = self._redo.pop()
        if isinstance(action, _Played):
            e = action.entry
            self._do_play(e.move, e.color, e.violations)
        else:
            self._apply(action)

    def clear(self) -> None:
        """Back to the empty board at the start, keeping size and rules."""
        self.__init__(  # type: ignore[misc]
            self.width,
            self.height,
            self.ruleset,
            permissive=self.permissive,
            free_turns=self.free_turns,
            end_after_passes=self.end_after_passes,
        )

    # -- internals ---------------------------------------------------------------------------

    def _violations(self, move: Move, color: Color) -> list[IllegalReason]:
        """Every rule the move breaks, the first being the one to report."""
        broken: list[IllegalReason] = []
        if move is not None and not self.board.on_board(move):
            return [IllegalReason.OFF_BOARD]
        loc = 0 if move is None else self.board.loc(move)
        code = (
            k.LEGAL
            if move is None
            else k.legality(self.board._st, loc, int(color), self.ruleset.suicide_allowed)
        )
        if code == k.OCCUPIED:
            return [IllegalReason.OCCUPIED]
        if self.is_over:
            broken.append(IllegalReason.GAME_OVER)
        if not self.free_turns and color != self.to_play:
            broken.append(IllegalReason.WRONG_TURN)
        if move is None:
            return broken
        if code == k.SUICIDE:
            broken.append(IllegalReason.SUICIDE)
        elif code == k.KO:
            broken.append(IllegalReason.KO)
        if self.ruleset.ko is not KoRule.SIMPLE and code != k.KO:
            after = int(k.hash_after(self.board._st, self.board._zh, loc, int(color)))
            if self.ruleset.ko is KoRule.POSITIONAL:
                repeated = self._positions[after] > 0
            else:
                repeated = self._situations[self._situation(after, color.opponent)] > 0
            if repeated and code != k.SUICIDE:
                broken.append(IllegalReason.SUPERKO)
        return broken

    def _do_play(self, move: Move, color: Color, broken: tuple[IllegalReason, ...]) -> GameMove:
        number = self.move_number + 1
        record = self.board.play_pass() if move is None else self.board.play_unchecked(move, color)
        entry = GameMove(color, move, number, record.captured, broken)
        self._actions.append(_Played(entry, record, self.to_play, self.consecutive_passes))
        self._move_count += 1
        self.consecutive_passes = self.consecutive_passes + 1 if move is None else 0
        self.to_play = color.opponent
        self._remember(self.to_play)
        return entry

    def _apply(self, action: _Action) -> None:
        if isinstance(action, _Setup):
            for p, _, after in action.changes:
                self.board.set_point(p, after)
            self.to_play = action.to_play
            self._remember(self.to_play)
        elif isinstance(action, _Resign):
            self.resigned = action.color
        else:
            raise TypeError(action)
        self._actions.append(action)

    def _unapply(self, action: _Action) -> None:
        self._actions.pop()
        if isinstance(action, _Played):
            self._move_count -= 1
            self._forget(self.to_play)
            self.board.undo(action.record)
            self.to_play = action.prev_to_play
            self.consecutive_passes = action.prev_passes
        elif isinstance(action, _Setup):
            self._forget(self.to_play)
            for p, before, _ in reversed(action.changes):
                self.board.set_point(p, before)
            self.to_play = action.prev_to_play
        else:
            self.resigned = None

    def _situation(self, position: int, to_play: Color) -> int:
        return position ^ (self._side if to_play is Color.WHITE else 0)

    def _remember(self, to_play: Color) -> None:
        h = self.board.hash
        self._positions[h] += 1
        self._situations[self._situation(h, to_play)] += 1

    def _forget(self, to_play: Color) -> None:
        h = self.board.hash
        self._positions[h] -= 1
        self._situations[self._situation(h, to_play)] -= 1
