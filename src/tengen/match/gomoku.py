"""Gomoku match games: Gomocup brains (``pbrain-*`` programs) and tengen's built-in player.

A player spec's command is a Gomocup brain, spoken to through `GomocupEngine`, or ``builtin``
for `GomokuPlayer`. The brain gets ``START`` (or ``RECTSTART``), then ``INFO rule`` and, under
a time control, ``INFO timeout_match``; before each move ``INFO time_left`` and
``timeout_turn``. It is asked with ``BEGIN`` on the empty board, ``TURN`` with the opponent's
move, or ``BOARD`` with the whole position when it has missed moves (after an opening).
Under a swap opening (``GomokuRules.opening``, ``--swap``) the player scheduled for Black opens
and the decisions are asked with ``SWAP2BOARD``; the record and results name the colours as
played (``GameOutcome.swapped`` when the second player took Black).

The game ends on a winning row under the rules (``B+`` in the record), a draw (a full board,
or under renju Black left only forbidden points), a flag falling or a brain that answers too
late (time), or a brain that fails, answers garbage or plays a point the rules refuse, renju's
forbidden points included (forfeit). The record is an SGF ``GM[4]`` tree with the players, the
result, how the game ended and the clocks.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

from tengen import seat
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.gomoku.game import GomokuGame, GomokuIllegal
from tengen.gomoku.gomocup import UNLIMITED_MS, Lag, Limits
from tengen.gomoku.manager import GomocupEngine, GomocupError
from tengen.gomoku.record import game_to_tree
from tengen.gomoku.rules import GomokuRules, Opening
from tengen.match.game import GameOutcome, Times, annotate, on_the_clock
from tengen.match.players import GRACE, PlayerSpec
from tengen.scoring import Result
from tengen.sgf import serialise


@dataclass(frozen=True)
class ProtocolTimes:
    """A clock as the Gomocup protocol can say it: `turn`, the seconds this move may take
    without losing (``timeout_turn``), and `left`, the seconds the rest of the game shares
    (``time_left``; None when no such limit binds, said as the protocol's 2147483647).

    The protocol knows a time per move and a time per match. Absolute and Fischer time are a
    match time. Under byo-yomi the main time is the shared time, and each move may also use
    one period without loss; in overtime nothing is shared and each move has its period.
    Canadian overtime is a small match of its own: its period is shared by its stones.
    """

    turn: float
    left: float | None

    @classmethod
    def of(cls, clock: Clock) -> ProtocolTimes:
        """The times for the player to move now (a running clock counts what is spent)."""
        c = clock.control
        now = clock.remaining()  # the current phase: main time, or the period in overtime
        if c.system in ("absolute", "fischer"):
            return cls(now, now)
        if c.system == "byoyomi":
            return cls(now, None) if clock.in_overtime else cls(now + c.period, now)
        if clock.in_overtime:  # Canadian
            return cls(now, now)
        return cls(now + c.period / c.stones, now)

    @property
    def match_ms(self) -> int:
        """``timeout_match`` at the start of a game: the shared time, 0 for no limit."""
        return 0 if self.left is None else _ms(self.left)

    def limits(self) -> Limits:
        """The limits a brain reads from ``INFO timeout_turn`` and ``time_left``."""
        left = UNLIMITED_MS if self.left is None else _ms(self.left)
        return Limits(timeout_turn=_ms(self.turn), time_left=left)


@dataclass(frozen=True)
class GomokuConfig:
    """How a Gomoku game is played: rule and board size, time, opening stones."""

    rules: GomokuRules = field(default_factory=GomokuRules)
    time: TimeControl | None = None
    opening: tuple[tuple[Color, Move], ...] = ()


class GomokuSide(seat.Player[GomokuGame, Point], Protocol):
    """What plays one side of a Gomoku match game: a seat (`tengen.seat.Player`) that is
    also told each new game and asked the swap openings' decisions."""

    name: str

    def new_game(self, rules: GomokuRules, clock: Clock | None) -> None:
        """Set up an empty board of `rules` and the time."""
        ...

    def genmove(self, game: GomokuGame, color: Color, clock: Clock | None = None) -> Point:
        """The move for `color`, the player to move in `game`; errors of a brain propagate."""
        ...

    def swap2board(self, game: GomokuGame, clock: Clock | None = None) -> list[Point] | None:
        """The swap opening's decision due from this player (``SWAP2BOARD``): the stones it
        places for the side to move, or None (``SWAP``), told the time of `clock` but not
        charged to it; errors of a brain propagate."""
        ...


def make_side(spec: PlayerSpec, seed: int) -> GomokuSide:
    """A fresh Gomoku player: the built-in one (seeded) or the spec's brain.

    Raises GomocupError if the brain cannot be started.
    """
    if spec.command == "builtin":
        return BuiltinSide(spec.name, seed)
    return BrainSide(spec.name, shlex.split(spec.command), spec.timeout)


class BuiltinSide:
    """tengen's Gomoku player, thinking as its Gomocup brain would under the same clock."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self._player = GomokuPlayer(seed)
        self._limit = self._player.time_limit
        self._lag = Lag()

    def new_game(self, rules: GomokuRules, clock: Clock | None) -> None:
        """Load the player's compiled code before any clock runs (once; a brain does it at
        ``START``): loading it inside the first searched move cost 0.7 s of a 0.17 s budget."""
        self._player.warm()

    def genmove(self, game: GomokuGame, color: Color, clock: Clock | None = None) -> Point:
        """The player's move."""
        if clock is None:
            return self._player.genmove(game)
        allowed = self._allow(game, clock)
        start = time.monotonic()
        move = self._player.genmove(game)
        self._lag.moved(allowed, time.monotonic() - start)
        return move

    def swap2board(self, game: GomokuGame, clock: Clock | None = None) -> list[Point] | None:
        """The player's opening stones or choice, thinking as long as the move `clock` would
        allow (its searches weigh the colours), not charged to it."""
        if clock is not None:
            self._allow(game, clock)
        if not game.moves:
            return self._player.open_three(game)
        two = game.rules.opening is Opening.SWAP2 and game.move_number == 3
        return self._player.choose_side(game, two)

    def close(self) -> None:
        """Nothing to release."""

    def _allow(self, game: GomokuGame, clock: Clock) -> float:
        """Set the player's time for its next decision in `game` as its brain would read
        `clock` (at most its own limit), and return it."""
        budget = self._lag.move_seconds(ProtocolTimes.of(clock).limits(), game)
        self._player.time_limit = min(self._limit, budget)
        return self._player.time_limit


class BrainSide:
    """A Gomocup brain, started when the player is made and ended by `close`."""

    def __init__(self, name: str, argv: list[str], timeout: float) -> None:
        self.name = name
        self.engine = GomocupEngine(argv, timeout)
        self._timeout = timeout
        self._seen: int | None = 0  # stones the brain knows of (None: send the board)

    def new_game(self, rules: GomokuRules, clock: Clock | None) -> None:
        """``START``, ``INFO rule`` and, with a clock, ``INFO timeout_match``."""
        self.engine.start(rules.width, rules.height)
        self.engine.set_rules(rules)
        if clock is not None:
            self.engine.info("timeout_match", ProtocolTimes.of(clock).match_ms)
        self._seen = 0

    def swap2board(self, game: GomokuGame, clock: Clock | None = None) -> list[Point] | None:
        """``SWAP2BOARD`` with the stones so far, after the turn's time and the time left
        under a clock (as the protocol asks before it); the brain is then sent the whole
        board."""
        self.engine.timeout = self._timeout
        if clock is not None:
            self._tell_time(clock)
        self._seen = None
        return self.engine.swap2board([p for _, p in game.moves], game.rules.opening)

    def genmove(self, game: GomokuGame, color: Color, clock: Clock | None = None) -> Point:
        """``BEGIN``, ``TURN`` or ``BOARD``, with the time left first under a clock.

        Raises GomocupTimeout when the brain answers too late for its clock (or, without one,
        the spec's timeout), GomocupError when it fails or answers garbage.
        """
        engine = self.engine
        engine.timeout = self._timeout
        if clock is not None:
            self._tell_time(clock)
            engine.timeout = clock.allowance() + GRACE
        stones = game.move_number
        if stones == 0:
            move = engine.begin()
        elif self._seen is not None and stones == self._seen + 1:
            move = engine.turn(game.moves[-1][1])
        else:
            move = engine.board(game)
        self._seen = stones + 1
        return move

    def close(self) -> None:
        """``END`` the brain."""
        self.engine.end(wait=0.5)

    def _tell_time(self, clock: Clock) -> None:
        """``INFO timeout_turn`` and ``time_left`` from `clock`, as the protocol sends them
        before a move or a swap decision is asked."""
        limits = ProtocolTimes.of(clock).limits()
        self.engine.info("timeout_turn", limits.timeout_turn)
        self.engine.info("time_left", limits.time_left)


def check_sides(specs: Iterable[PlayerSpec]) -> None:
    """Raise ValueError naming a player spec meant for Go: ``random``, or ``builtin`` with a
    level or options (Gomoku's built-in player has none)."""
    for spec in specs:
        head = spec.command.split(maxsplit=1)[0]
        if spec.command != "builtin" and (head == "random" or head.startswith("builtin")):
            raise ValueError(
                f"player {spec.name} ({spec.command}) plays Go only: Gomoku's built-in "
                "player is plain builtin"
            )


def check_openings(openings: Iterable[tuple[tuple[Color, Move], ...]], rules: GomokuRules) -> None:
    """Raise ValueError naming the first opening (from 1) whose stones `rules` refuse."""
    for number, opening in enumerate(openings, 1):
        game = GomokuGame(rules)
        try:
            for color, move in opening:
                if move is None:
                    raise ValueError("a pass")
                game.play(move, color)
        except ValueError as err:  # GomokuIllegal is one
            rule = rules.rule.value
            raise ValueError(f"opening {number} cannot be played under {rule}: {err}") from None
        if game.is_over:
            raise ValueError(f"opening {number} already ends the game ({game.result})")


def play_gomoku(
    black: GomokuSide,
    white: GomokuSide,
    config: GomokuConfig,
    now: Callable[[], float] = time.monotonic,
) -> GameOutcome:
    """Play one game; the caller makes and closes the players."""
    game = GomokuGame(config.rules)
    players = {Color.BLACK: black, Color.WHITE: white}
    clocks = {c: Clock(config.time, now) if config.time else None for c in Color}
    times: Times = []
    result, ending = _run(game, players, clocks, config, times)
    tree = game_to_tree(game)
    names = (players[Color.BLACK].name, players[Color.WHITE].name)
    annotate(tree, names, result, ending, config.time, times)
    swapped = game.black_player == 2
    return GameOutcome(result, ending, game.move_number, None, serialise(tree), swapped)


def _run(
    game: GomokuGame,
    players: dict[Color, GomokuSide],
    clocks: dict[Color, Clock | None],
    config: GomokuConfig,
    times: Times,
) -> tuple[Result, str]:
    """Play until the end; the result and how the game ended."""
    for color, player in players.items():
        try:
            player.new_game(config.rules, clocks[color])
        except GomocupError as err:
            return Result(color.opponent, None, "forfeit"), f"{player.name} failed: {err}"
    for color, move in config.opening:
        assert move is not None  # openings are checked by `check_openings`
        game.play(move, color)
        times.append(None)
    ended = _swap_opening(game, players, clocks, times)
    if ended is not None:
        return ended
    while not game.is_over:
        color = game.to_play
        player, clock = players[color], clocks[color]
        ask = partial(player.genmove, game, color, clock)
        point, ending = on_the_clock(player.name, color, clock, ask)
        if ending is not None:
            return ending
        assert point is not None  # an answer, as no ending came
        try:
            game.play(point, color)
        except GomokuIllegal as err:
            return Result(color.opponent, None, "forfeit"), f"{player.name} played illegally: {err}"
        times.append((clock.remaining(), clock.overtime_count()) if clock else None)
    if game.winner is None:
        return Result(None, None, "draw"), game.drawn_because
    winner = players[game.winner].name
    return Result(game.winner, None, "unknown"), f"{winner} made a winning row"


def _swap_opening(
    game: GomokuGame,
    players: dict[Color, GomokuSide],
    clocks: dict[Color, Clock | None],
    times: Times,
) -> tuple[Result, str] | None:
    """The swap opening's decisions (``GomokuRules.opening``), `players` by their colours
    updated when a swap gives Black to the second player; the ending if one fails. The
    decisions are outside the game clocks (a brain is told its clock's turn and time left, and
    answers within its timeout)."""
    sides = {1: players[Color.BLACK], 2: players[Color.WHITE]}
    while (due := game.opening_decision) is not None:
        side = sides[due]
        color = Color.BLACK if game.player_of(Color.BLACK) == due else Color.WHITE
        before = game.move_number
        try:
            game.decide_opening(side.swap2board(game, clocks[color]))
        except GomocupError as err:
            return Result(color.opponent, None, "forfeit"), f"{side.name} failed: {err}"
        except GomokuIllegal as err:
            return (
                Result(color.opponent, None, "forfeit"),
                f"{side.name} answered the opening illegally: {err}",
            )
        times.extend([None] * (game.move_number - before))
        for c in Color:
            players[c] = sides[game.player_of(c)]
    return None


def _ms(seconds: float) -> int:
    return max(int(seconds * 1000), 0)
