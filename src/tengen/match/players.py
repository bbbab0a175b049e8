"""Players of a match: a GTP engine in a subprocess, or tengen's built-in player.

A `PlayerSpec` is the picklable description a worker process turns into a `Player`; the
player is told every move (its own and the opponent's) so that an engine stays in sync.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Protocol

from tengen.ai.players import RandomPlayer
from tengen.clock import Clock
from tengen.core.color import Color
from tengen.core.coords import Move, Point, from_gtp, to_gtp
from tengen.core.game import Game
from tengen.gtp.client import GtpClient, GtpClientError

RESIGN = "resign"
GRACE = 1.0  # seconds an engine may overrun its clock before its command times out


class Player(Protocol):
    """What plays one side of a match game."""

    name: str

    def new_game(self, game: Game, clock: Clock | None) -> None:
        """Set up for `game` (size, rules, komi, handicap already placed) and the time."""
        ...

    def play(self, color: Color, move: Move) -> None:
        """`color` played `move` (None passes): an opening move or the opponent's."""
        ...

    def genmove(self, game: Game, color: Color, clock: Clock | None) -> Move | str:
        """The move for `color`, or `RESIGN`; errors of the engine propagate."""
        ...

    def close(self) -> None:
        """Release the player (stop its engine)."""
        ...


@dataclass(frozen=True)
class PlayerSpec:
    """A player by name: ``command`` is a GTP engine's command line, or ``builtin``."""

    name: str
    command: str
    cwd: str | None = None
    timeout: float = 60.0

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """``NAME=COMMAND`` or a bare command (named by its program); ``builtin`` is tengen's."""
        label, sep, command = text.partition("=")
        if not sep or not label or " " in label:
            label, command = "", text
        argv = shlex.split(command)
        if not argv:
            raise ValueError(f"empty player command: {text!r}")
        return cls(label or argv[0].rsplit("/", 1)[-1], command)

    def make(self, seed: int) -> Player:
        """A fresh player; `seed` seeds the built-in player."""
        if self.command == "builtin":
            return BuiltinPlayer(self.name, seed)
        return GtpPlayer(self.name, shlex.split(self.command), self.cwd, self.timeout)


class BuiltinPlayer:
    """tengen's own (random, eye-respecting) player, seeded per game."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self._player = RandomPlayer(seed)

    def new_game(self, game: Game, clock: Clock | None) -> None:
        """Nothing to set up."""

    def play(self, color: Color, move: Move) -> None:
        """Nothing to remember: the game is passed to `genmove`."""

    def genmove(self, game: Game, color: Color, clock: Clock | None) -> Move | str:
        """The random player's move."""
        return self._player.genmove(game, color)

    def close(self) -> None:
        """Nothing to release."""


class GtpPlayer:
    """A GTP engine, started when the player is made and quit by `close`."""

    def __init__(self, name: str, argv: list[str], cwd: str | None, timeout: float) -> None:
        self.name = name
        self.client = GtpClient(argv, timeout=timeout, cwd=cwd)
        self._height = 19

    def new_game(self, game: Game, clock: Clock | None) -> None:
        """Board size, clear board, komi, rules, handicap stones and time settings."""
        c = self.client
        self._height = game.height
        c.send(f"boardsize {game.width}")
        c.send("clear_board")
        c.send(f"komi {game.ruleset.komi}")
        c.set_rules(game.ruleset)
        stones = [p for p in game.board.points() if game.board[p] is Color.BLACK]
        if stones:
            c.send("set_free_handicap " + " ".join(to_gtp(p, game.height) for p in stones))
        if clock is not None:
            c.set_time(clock.control)

    def play(self, color: Color, move: Move) -> None:
        """``play``."""
        self.client.send(f"play {color.name.lower()} {to_gtp(move, self._height)}")

    def genmove(self, game: Game, color: Color, clock: Clock | None) -> Move | str:
        """``time_left`` then ``genmove``, timing out when the clock would have run out.

        Raises GtpClientError for an answer that is no vertex; the engine has played the move.
        """
        timeout = None
        if clock is not None:
            self.client.time_left(color, clock)
            timeout = clock.allowance() + GRACE
        answer = self.client.send(f"genmove {color.name.lower()}", timeout=timeout)
        if answer.strip().lower() == RESIGN:
            return RESIGN
        try:
            point: Point | None = from_gtp(answer, game.width, game.height)
        except ValueError:
            raise GtpClientError(f"{self.name}: genmove answered {answer!r}") from None
        return point

    def close(self) -> None:
        """Quit the engine."""
        self.client.close(timeout=0.5)
