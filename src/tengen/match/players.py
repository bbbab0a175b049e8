"""Players of a match: a GTP engine in a subprocess (`tengen.gtp.seat.EngineSeat`, the app's
adapter too), or tengen's built-in player.

A `PlayerSpec` is the picklable description a worker process turns into a `Player`; the
player is told every move (its own and the opponent's) so that an engine stays in sync.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from tengen import seat
from tengen.ai.levels import DEFAULT_LEVEL
from tengen.ai.mcts import MctsPlayer, check_settings
from tengen.ai.players import RandomPlayer
from tengen.clock import Clock
from tengen.core import jit
from tengen.core.color import Color
from tengen.core.coords import Move
from tengen.core.game import Game
from tengen.gtp.seat import EngineSeat
from tengen.seat import Resign

GRACE = 1.0  # seconds an engine may overrun its clock before its command times out


class Player(seat.Player[Game, Move | Resign], Protocol):
    """What plays one side of a match game: a seat (`tengen.seat.Player`) that is also told
    each new game and every move."""

    name: str

    def new_game(self, game: Game, clock: Clock | None) -> None:
        """Set up for `game` (size, rules, komi, handicap already placed) and the time."""
        ...

    def play(self, color: Color, move: Move) -> None:
        """`color` played `move` (None passes): an opening move or the opponent's."""
        ...

    def genmove(self, game: Game, color: Color, clock: Clock | None = None) -> Move | Resign:
        """The move for `color`, or `RESIGN`; errors of the engine propagate."""
        ...


@dataclass(frozen=True)
class PlayerSpec:
    """A player by name: ``command`` is a GTP engine's command line, ``builtin[:LEVEL]``
    (tengen's MCTS player, options as in `mcts_player`) or ``random``.

    ``{seed}`` in an engine's command line becomes the game's seed, so that a randomised
    engine (``gnugo --seed {seed}``) plays each game differently yet every run the same.
    """

    name: str
    command: str
    cwd: str | None = None
    timeout: float = 60.0

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """``NAME=COMMAND`` or a bare command (named by its program); ``builtin[:LEVEL]`` and
        ``random`` are tengen's."""
        label, sep, command = text.partition("=")
        if not sep or not label or " " in label:
            label, command = "", text
        argv = shlex.split(command)
        if not argv:
            raise ValueError(f"empty player command: {text!r}")
        if argv[0].startswith("builtin"):
            mcts_player(command)  # refuse a bad level or option now, not in a game
        return cls(label or argv[0].rsplit("/", 1)[-1], command)

    def make(self, seed: int) -> Player:
        """A fresh player; `seed` seeds the built-in players."""
        if self.command == "random":
            return BuiltinPlayer(self.name, RandomPlayer(seed))
        if self.command.startswith("builtin"):
            return BuiltinPlayer(self.name, mcts_player(self.command)(seed=seed))
        argv = [arg.replace("{seed}", str(seed)) for arg in shlex.split(self.command)]
        return EngineSeat(argv, name=self.name, cwd=self.cwd, timeout=self.timeout, grace=GRACE)


def mcts_player(command: str) -> Callable[..., MctsPlayer]:
    """What makes (given ``seed=``) the MCTS player of
    ``builtin[:LEVEL] [--playouts N] [--seconds S] [--threads T] [--resign R]`` (R: the win
    rate below which it resigns; 0 never).

    Raises ValueError naming what is wrong in the command.
    """
    head, *rest = shlex.split(command)
    name, _, number = head.partition(":")
    if name != "builtin" or len(rest) % 2:
        raise ValueError(f"built-in player {command!r}: use builtin[:LEVEL] [--OPTION VALUE]...")
    options = dict(zip(rest[::2], rest[1::2], strict=True))
    unknown = set(options) - {"--level", "--playouts", "--seconds", "--threads", "--resign"}
    if unknown:
        raise ValueError(f"built-in player {command!r}: unknown option {sorted(unknown)[0]}")
    try:
        level = int(options.get("--level", number or DEFAULT_LEVEL))
        playouts = int(options["--playouts"]) if "--playouts" in options else None
        seconds = float(options["--seconds"]) if "--seconds" in options else None
        threads = int(options["--threads"]) if "--threads" in options else None
        resign = float(options["--resign"]) if "--resign" in options else None
        check_settings(level, playouts, seconds, threads, resign)
    except ValueError as err:
        raise ValueError(f"built-in player {command!r}: {err}") from None
    return partial(
        MctsPlayer, level, playouts=playouts, seconds=seconds, threads=threads, resign=resign
    )


class BuiltinPlayer:
    """One of tengen's own players (``builtin``: MCTS; ``random``), seeded per game."""

    def __init__(self, name: str, player: RandomPlayer | MctsPlayer) -> None:
        self.name = name
        self._player = player

    def new_game(self, game: Game, clock: Clock | None) -> None:
        """Wait for the compiled kernels (`core.jit`) and warm the MCTS player up on this
        board, before the clock starts: a first search on the interpreted twins, or one that
        pays for loading its kernels, would find a fraction of its usual playouts."""
        jit.wait()
        if isinstance(self._player, MctsPlayer):
            self._player.warm(game.width, game.height)

    def play(self, color: Color, move: Move) -> None:
        """Nothing to remember: the game is passed to `genmove`."""

    def genmove(self, game: Game, color: Color, clock: Clock | None = None) -> Move | Resign:
        """The player's move, thought over within what the clock allows."""
        return self._player.genmove(game, color, clock)

    def close(self) -> None:
        """Stop the search threads, if any."""
        self._player.close()
