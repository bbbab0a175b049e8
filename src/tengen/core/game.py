"""A game of Go: a `Board` plus a `Ruleset`, turn order, history, superko, passes, handicap.

Every move is checked against the ruleset and refused with `IllegalMove` (a typed reason and
the move number), unless the game is permissive: then any move the bare capture rules allow is
played and the rules it breaks are reported on the returned `GameMove`, so that a record of a
real game can always be entered. Undo restores the board from the moves' records, never by
replaying from the start; redo plays undone actions again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from tengen.core import coords, jit, kernels, layout, rebuild, zobrist
from tengen.core import handicap as handicap_rules
from tengen.core.board import CAPTURED_SHIFT, NO_HASHES, Board
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.errors import IllegalMove, IllegalReason
from tengen.core.rules import CHINESE, KoRule, Ruleset

# Interpreted until compiled (see `core.jit`).
k, lay, rb = jit.live(kernels), jit.live(layout), jit.live(rebuild)


@dataclass(frozen=True, slots=True)
class GameMove:
    """A move as played: who, where (None for a pass), its number, captures, rules broken."""

    color: Color
    move: Move
    number: int
    captured: int
    violations: tuple[IllegalReason, ...] = ()


# `GameMove(...)` without the frozen dataclass's guarded per-field __setattr__: `Game._record`
# fills the slots through their descriptors, in half the time, and the object is the same.
_object_new = object.__new__
_set_color, _set_move, _set_number, _set_captured, _set_violations = (
    GameMove.__dict__[name].__set__
    for name in ("color", "move", "number", "captured", "violations")
)

# What undo needs besides a move's GameMove: the kernels' packed record, the previous ORDER
# value and hash (for `rebuild.undo`), and the player to move and passes before it.
_Undo = tuple[int, int, int, Color, int]


@dataclass(frozen=True, slots=True)
class _Setup:
    changes: tuple[tuple[Point, Color | None, Color | None], ...]  # point, before, after
    prev_to_play: Color
    to_play: Color
    is_handicap: bool


@dataclass(frozen=True, slots=True)
class _Resign:
    color: Color


_Action = GameMove | _Setup | _Resign

# Members read once: on the move path, looking one up on its Enum class costs more than the
# check that uses it.
_BLACK, _WHITE = Color.BLACK, Color.WHITE
_SIMPLE, _POSITIONAL, _SITUATIONAL = KoRule.SIMPLE, KoRule.POSITIONAL, KoRule.SITUATIONAL
# Color.opponent, as a lookup by the colour's value (a tuple: an enum member hashes slowly).
_OPPONENT = (_BLACK, _WHITE, _BLACK)  # [0] unused
_NO_VIOLATIONS: tuple[IllegalReason, ...] = ()
_STONE = (None, _BLACK, _WHITE)  # what a kernel colour code puts on a point
_LEGAL = k.LEGAL
_KERNEL_REASONS = {
    k.OCCUPIED: IllegalReason.OCCUPIED,
    k.SUICIDE: IllegalReason.SUICIDE,
    k.KO: IllegalReason.KO,
}


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
        self._undo_moves: list[_Undo] = []  # one per GameMove in _actions, in the same order
        self._redo: list[_Action] = []
        self._side = zobrist.side_key(self.board.width, self.board.height)
        # How often each position, and each situation (position and player to move), occurred.
        self._positions: dict[int, int] = {}
        self._situations: dict[int, int] = {}
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
        return [a for a in self._actions if isinstance(a, GameMove)]

    @property
    def move_number(self) -> int:
        """How many moves (passes included) have been played."""
        return len(self._undo_moves)

    @property
    def handicap_stones(self) -> int:
        """Black stones placed as handicap (0 when none)."""
        return sum(
            sum(1 for _, _, after in a.changes if after is Color.BLACK)
            for a in self._actions
            if isinstance(a, _Setup) and a.is_handicap
        )

    @property
    def handicap_points(self) -> list[Point]:
        """The points of the black stones placed as handicap, in the order they were set up
        (what an engine is told with ``set_free_handicap``); empty without a handicap."""
        return [
            point
            for a in self._actions
            if isinstance(a, _Setup) and a.is_handicap
            for point, _, after in a.changes
            if after is Color.BLACK
        ]

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
        _, broken = self._check(move, self.to_play if color is None else color)
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
        ko = self.ruleset.ko
        if ko is _SIMPLE:
            return self.board._legal(color, self.ruleset.suicide_allowed, not own_eyes, NO_HASHES)
        points, hashes = self.board.legal_points_and_hashes(
            color, allow_suicide=self.ruleset.suicide_allowed, skip_eyes=not own_eyes
        )
        if ko is _POSITIONAL:
            seen = self._positions
            return [p for p, h in zip(points, hashes, strict=True) if h not in seen]
        if self.ruleset.ko is _SITUATIONAL:
            nxt = _OPPONENT[color]
            return [
                p
                for p, h in zip(points, hashes, strict=True)
                if zobrist.situation(h, nxt is _WHITE, self._side) not in self._situations
            ]
        return points

    # -- actions -----------------------------------------------------------------------------

    def play(self, move: Move, color: Color | None = None) -> GameMove:
        """Play `move` (None passes) for `color` (default: the player to move).

        Raises IllegalMove with the reason and move number; in a permissive game only for an
        occupied or off-board point, other broken rules being listed on the result.
        """
        if color is None:
            color = self.to_play
        if not self.permissive and (
            self.ruleset.ko is not _SIMPLE
            or self.is_over
            or (not self.free_turns and color != self.to_play)
        ):
            # Superko, the turn or the end of the game may refuse what the capture rules allow:
            # check it all first, so that a refused move leaves the board untouched.
            loc, broken = self._check(move, color)
            if broken:
                raise IllegalMove(broken[0], move, self.move_number + 1)
            entry = self._record(move, color, loc, *self._play_at(loc, color), broken)
        elif move is None:
            broken = self._breaks(k.LEGAL, color, False)
            entry = self._record(move, color, 0, *self._play_at(0, color), broken)
        else:
            # One kernel call checks and plays: it refuses only an occupied point, and in a
            # strict game a simple ko or suicide; the rules broken are read afterwards, superko
            # from the hash of the position made.
            board = self.board
            col, row = move
            width = board.width
            if not (0 <= col < width and 0 <= row < board.height):
                raise IllegalMove(IllegalReason.OFF_BOARD, move, self.move_number + 1)
            loc = (row + 1) * (width + 1) + col + 1
            permissive = self.permissive
            code, packed, prev_order, prev_hash, after = k.try_play(
                board.state, board.hashes, loc, int(color), self.ruleset.suicide_allowed, permissive
            )
            if not packed:
                raise IllegalMove(_KERNEL_REASONS[code], move, self.move_number + 1)
            if permissive:
                repeated = (
                    code == _LEGAL
                    and self.ruleset.ko is not _SIMPLE
                    and self._repeats(after, color)
                )
                broken = self._breaks(code, color, repeated)
            else:  # simple ko, the game on, the right turn: the kernel played a legal move
                broken = _NO_VIOLATIONS
            entry = self._record(move, color, loc, packed, prev_order, prev_hash, after, broken)
        self._redo.clear()
        return entry

    def pass_move(self, color: Color | None = None) -> GameMove:
        """Pass for `color` (default: the player to move)."""
        return self.play(None, color)

    def play_moves(self, moves: Sequence[tuple[Move, Color]]) -> list[GameMove]:
        """Play `moves` (point or None, colour) in turn as `play` would, until one is refused.

        Returns the entries of the moves played: a shorter list means the next move was
        refused (`play` it to learn why). A permissive game (a record's replay) plays the
        whole line in one kernel call; others play move by move.
        """
        if not self.permissive:
            entries = []
            for move, color in moves:
                try:
                    entries.append(self.play(move, color))
                except IllegalMove:
                    break
            return entries
        board = self.board
        width, height = board.width, board.height
        locs: list[int] = []
        for move, _ in moves:
            if move is None:
                locs.append(0)
                continue
            col, row = move
            if not (0 <= col < width and 0 <= row < height):
                break
            locs.append((row + 1) * (width + 1) + col + 1)
        colors = np.fromiter((c for _, c in moves[: len(locs)]), np.int64, len(locs))
        out = np.empty((len(locs), 5), np.int64)
        played = k.try_play_run(
            board.state,
            board.hashes,
            np.array(locs, np.int64),
            colors,
            self.ruleset.suicide_allowed,
            True,
            out,
        )
        superko = self.ruleset.ko is not _SIMPLE
        # Neither superko nor the end can refuse a move of this run: LEGAL means no rule broken.
        clean = not superko and not self.end_after_passes and self.resigned is None
        free = self.free_turns
        record, breaks = self._record, self._breaks
        entries = []
        for (move, color), loc, (code, packed, prev_order, prev_hash, after) in zip(
            moves, locs, out[:played].tolist(), strict=False
        ):
            if code == _LEGAL and clean and (free or color is self.to_play):
                broken = _NO_VIOLATIONS
            else:
                repeated = superko and loc != 0 and code == _LEGAL and self._repeats(after, color)
                broken = breaks(code, color, repeated)
            entries.append(record(move, color, loc, packed, prev_order, prev_hash, after, broken))
        if entries:
            self._redo.clear()
        return entries

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
        board = self.board
        width, height = board.width, board.height
        wanted: dict[Point, Color | None] = {}
        for points, value in ((black, Color.BLACK), (white, Color.WHITE), (empty, None)):
            for p in points:
                col, row = p
                if not (0 <= col < width and 0 <= row < height):
                    raise ValueError(
                        f"setup point ({col}, {row}) is off the {width}x{height} board"
                    )
                wanted[p if type(p) is Point else Point(col, row)] = value
        stride = width + 1
        colors = board.state[lay.COLOR].tolist()  # one copy, not one numpy read per point
        changes = []
        for p, value in wanted.items():
            before = _STONE[colors[(p.row + 1) * stride + p.col + 1]]
            if before is not value:
                changes.append((p, before, value))
        action = _Setup(tuple(changes), self.to_play, to_play or self.to_play, is_handicap=handicap)
        self._apply(action)
        placed = [p for p, _, after in changes if after is not None]
        locs = np.array([(p.row + 1) * stride + p.col + 1 for p in placed], np.intp)
        st = board.state
        dead = np.flatnonzero(st[lay.LIBS, st[lay.HEAD, locs]] == 0)
        if len(dead):
            self._unapply(action)
            where = coords.name(placed[dead[0]], width, height)
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
        if isinstance(action, GameMove):
            loc = 0 if action.move is None else self.board.loc(action.move)
            played = self._play_at(loc, action.color)
            self._record(action.move, action.color, loc, *played, action.violations)
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

    def _check(self, move: Move, color: Color) -> tuple[int, tuple[IllegalReason, ...]]:
        """The kernel location of `move` (0 for a pass or off the board) and every rule the
        move breaks, the first being the one to report; the board is left as it is."""
        if move is None:
            return 0, self._breaks(k.LEGAL, color, False)
        board = self.board
        col, row = move
        if not (0 <= col < board.width and 0 <= row < board.height):
            return 0, (IllegalReason.OFF_BOARD,)
        loc = (row + 1) * (board.width + 1) + col + 1
        code = k.legality(board.state, loc, int(color), self.ruleset.suicide_allowed)
        if code == k.OCCUPIED:
            return loc, (IllegalReason.OCCUPIED,)
        repeated = (
            code == k.LEGAL
            and self.ruleset.ko is not _SIMPLE
            and self._repeats(k.hash_after(board.state, board.hashes, loc, int(color)), color)
        )
        return loc, self._breaks(code, color, repeated)

    def _breaks(self, code: int, color: Color, repeated: bool) -> tuple[IllegalReason, ...]:
        """The rules broken by `color` moving now to an empty point (or passing) that the
        kernels call `code`, `repeated` if it repeats a position superko forbids; in the order
        they are reported."""
        over = self.is_over
        wrong_turn = not self.free_turns and color != self.to_play
        if code == k.LEGAL and not (repeated or over or wrong_turn):
            return _NO_VIOLATIONS
        broken: list[IllegalReason] = []
        if over:
            broken.append(IllegalReason.GAME_OVER)
        if wrong_turn:
            broken.append(IllegalReason.WRONG_TURN)
        if code == k.SUICIDE:
            broken.append(IllegalReason.SUICIDE)
        elif code == k.KO:
            broken.append(IllegalReason.KO)
        if repeated:
            broken.append(IllegalReason.SUPERKO)
        return tuple(broken)

    def _repeats(self, after: int, color: Color) -> bool:
        """Whether the position hash `after`, made by `color`, repeats what superko forbids."""
        ko = self.ruleset.ko
        if ko is _POSITIONAL:
            return after in self._positions
        if ko is _SITUATIONAL:
            return zobrist.situation(after, color is _BLACK, self._side) in self._situations
        return False

    def _play_at(self, loc: int, color: Color) -> tuple[int, int, int, int]:
        """Play at kernel location `loc` (0 passes) with no check; return what `_record`
        needs: the packed record, the previous ORDER value, the hashes before and after."""
        board = self.board
        prev_hash = int(board.hashes[0])
        if not loc:
            return int(k.play_pass(board.state)), 0, prev_hash, prev_hash
        packed, prev_order = k.play(board.state, board.hashes, loc, int(color))
        return int(packed), prev_order, prev_hash, int(board.hashes[0])

    def _record(
        self,
        move: Move,
        color: Color,
        loc: int,
        packed: int,
        prev_order: int,
        prev_hash: int,
        after: int,
        broken: tuple[IllegalReason, ...],
    ) -> GameMove:
        """Note a move just played on the board (at `loc`, 0 for a pass; `after` the hash of
        the position it made) as the next action."""
        entry: GameMove = _object_new(GameMove)
        _set_color(entry, color)
        _set_move(entry, move)
        _set_number(entry, len(self._undo_moves) + 1)
        _set_captured(entry, packed >> CAPTURED_SHIFT)
        _set_violations(entry, broken)
        prev_to_play, prev_passes = self.to_play, self.consecutive_passes
        self._actions.append(entry)
        self._undo_moves.append((packed, prev_order, prev_hash, prev_to_play, prev_passes))
        self.consecutive_passes = 0 if loc else prev_passes + 1
        self.to_play = to_play = _OPPONENT[color]
        positions, situations = self._positions, self._situations
        positions[after] = positions.get(after, 0) + 1
        situation = zobrist.situation(after, to_play is _WHITE, self._side)
        situations[situation] = situations.get(situation, 0) + 1
        return entry

    def _apply(self, action: _Action) -> None:
        if isinstance(action, _Setup):
            self.board.set_points((p, after) for p, _, after in action.changes)
            self.to_play = action.to_play
            self._remember(self.to_play)
        elif isinstance(action, _Resign):
            self.resigned = action.color
        else:
            raise TypeError(action)
        self._actions.append(action)

    def _unapply(self, action: _Action) -> None:
        self._actions.pop()
        if isinstance(action, GameMove):
            self._forget(self.to_play)
            packed, prev_order, prev_hash, self.to_play, self.consecutive_passes = (
                self._undo_moves.pop()
            )
            rb.undo(self.board.state, self.board.hashes, packed, prev_order, prev_hash)
        elif isinstance(action, _Setup):
            self._forget(self.to_play)
            self.board.set_points((p, before) for p, before, _ in reversed(action.changes))
            self.to_play = action.prev_to_play
        else:
            self.resigned = None

    def _remember(self, to_play: Color) -> None:
        """Count the position and situation now on the board (`_record` does it inline)."""
        h = self.board.hash
        self._positions[h] = self._positions.get(h, 0) + 1
        s = zobrist.situation(h, to_play is _WHITE, self._side)
        self._situations[s] = self._situations.get(s, 0) + 1

    def _forget(self, to_play: Color) -> None:
        h = self.board.hash
        _decrement(self._positions, h)
        _decrement(self._situations, zobrist.situation(h, to_play is _WHITE, self._side))


def _decrement(counts: dict[int, int], key: int) -> None:
    """Count one occurrence of `key` less, dropping it at zero (present means seen)."""
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]
