"""A GTP engine holding a seat of a game of Go: the one adapter the app and the match runner
use (`tengen.seat.Player`, plus the match's `new_game` and `play`).

The engine follows the game it is asked about. Before each ``genmove`` it gets only the moves
it has not seen; when the game is another one or went back (an undo), it is set up again (size,
komi, rules, handicap stones) and the game replayed. After every catch-up its stones are
compared with tengen's (`GtpClient.verify_sync`, where the engine has ``list_stones``) and a
difference is kept in `differences`, for the app to report rather than let two boards
silently part. A match tells it each new game
(`new_game`: on a clock, a warm-up move first, so that an engine compiling or loading on its
first search does it before its time runs) and each move (`play`, sent at once).

A failure of the engine raises `GtpClientError` (a timeout or a death among them) and closes
it: the next question starts it again and replays the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import Move, Point, from_gtp, to_gtp
from tengen.core.game import Game
from tengen.gtp.client import GtpClient, GtpClientError
from tengen.seat import RESIGN, Resign

# Seconds a cold engine may take over its warm-up move (loading or compiling: `tengen gtp`
# answers in about 2 s on an empty numba cache); past that it is taken as hung, so a game
# against a hanging engine still ends.
WARM_TIMEOUT = 30.0
T = TypeVar("T")


class EngineSeat:
    """The GTP engine that `argv` starts (in `cwd`), on first use. `timeout` bounds each
    command off the clock; on a clock, ``genmove`` may take the clock's allowance and `grace`
    seconds more."""

    def __init__(
        self,
        argv: list[str],
        *,
        name: str | None = None,
        cwd: str | None = None,
        timeout: float = 60.0,
        grace: float = 1.0,
    ) -> None:
        self.argv = argv
        self.name = name or argv[0]
        self.cwd = cwd
        self.timeout = timeout
        self.grace = grace
        self.differences: list[str] = []
        self._client: GtpClient | None = None
        self._setup: tuple[object, ...] | None = None  # the game the engine was set up for
        self._sent: list[tuple[Color, Move]] = []  # the moves it has, in order
        self._timed: TimeControl | None = None  # the clock it was told of
        self._warm = False
        self._height = 19  # of the board the engine was set up for

    # -- the seat ----------------------------------------------------------------------------

    def genmove(self, game: Game, color: Color, clock: Clock | None = None) -> Move | Resign:
        """Catch the engine up with `game`, tell it the clock (``time_settings`` once,
        ``time_left`` each move), and ask it to move. Raises GtpClientError, also for an
        answer that is no vertex."""
        client = self._sync(game)
        timeout = self.timeout
        if clock is not None:
            if self._timed != clock.control:
                self._call(lambda: client.set_time(clock.control))
                self._timed = clock.control
            self._call(lambda: client.time_left(color, clock))
            timeout = clock.allowance() + self.grace
        answer = self._send(f"genmove {color.name.lower()}", timeout).strip()
        if answer.lower() == RESIGN:
            return RESIGN
        try:
            move: Point | None = from_gtp(answer, game.width, game.height)
        except ValueError:
            self.close()
            raise GtpClientError(f"{self.name}: genmove answered {answer!r}") from None
        self._sent.append((color, move))
        return move

    def close(self) -> None:
        """Quit the engine, if it runs (the next question starts it again)."""
        client, self._client = self._client, None
        self._setup, self._timed = None, None
        if client is not None:
            client.close(timeout=0.5)

    # -- what a match adds -------------------------------------------------------------------

    def new_game(self, game: Game, clock: Clock | None) -> None:
        """Set the engine up for `game` (size, komi, rules, handicap) and tell it the clock;
        before the first game on a clock, a warm-up move (see the module docstring)."""
        client = self._start()
        if clock is not None and not self._warm:
            for command in (f"boardsize {game.width}", "clear_board", "time_settings 0 1 1"):
                self._send(command)
            try:
                self._send("genmove b", WARM_TIMEOUT)
            except GtpClientError as err:
                raise GtpClientError(f"{self.name}: its warm-up move failed: {err}") from None
            self._warm = True
        self._setup = None
        self._sync(game)
        if clock is not None:
            self._call(lambda: client.set_time(clock.control))
            self._timed = clock.control

    def play(self, color: Color, move: Move) -> None:
        """`color` played `move` (None passes): sent at once, if the engine follows the game."""
        if self._client is not None and self._setup is not None:
            self._send(f"play {color.name.lower()} {to_gtp(move, self._height)}")
            self._sent.append((color, move))

    # -- keeping in step ---------------------------------------------------------------------

    def _start(self) -> GtpClient:
        if self._client is None:
            try:
                self._client = GtpClient(self.argv, timeout=self.timeout, cwd=self.cwd)
            except OSError as err:
                raise GtpClientError(f"cannot start engine {self.argv[0]!r}: {err}") from None
            self._setup, self._sent, self._timed = None, [], None
        return self._client

    def _sync(self, game: Game) -> GtpClient:
        """Bring the engine to `game`'s position; keep what its stones disagree about."""
        client = self._start()
        moves = [(m.color, m.move) for m in game.moves]
        handicap = game.handicap_points
        setup = (game.width, game.height, game.ruleset, tuple(handicap))
        if setup != self._setup or moves[: len(self._sent)] != self._sent:
            self._send(f"boardsize {game.width}")
            self._send("clear_board")
            self._send(f"komi {game.ruleset.komi}")
            self._call(lambda: client.set_rules(game.ruleset))
            if handicap:
                vertices = " ".join(to_gtp(p, game.height) for p in handicap)
                self._send(f"set_free_handicap {vertices}")
            self._setup, self._sent, self._height = setup, [], game.height
        for color, move in moves[len(self._sent) :]:
            self._send(f"play {color.name.lower()} {to_gtp(move, game.height)}")
            self._sent.append((color, move))
        difference = None
        if self._call(lambda: client.known("list_stones")):  # no guessing at showboards
            difference = self._call(lambda: client.verify_sync(game))
        self.differences = [] if difference is None else [difference]
        return client

    def _send(self, command: str, timeout: float | None = None) -> str:
        client = self._start()
        return self._call(lambda: client.send(command, timeout=timeout or self.timeout))

    def _call(self, ask: Callable[[], T]) -> T:
        """Ask the engine something; a failure closes it and propagates."""
        try:
            return ask()
        except GtpClientError:
            self.close()
            raise
