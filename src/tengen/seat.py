"""What holds a computer seat in a game of Go or Gomoku: one `Player` protocol.

The built-in players, a GTP engine and a Gomocup brain all meet it: asked for `color`'s move
in a game (with `color`'s clock when the game is timed), they answer it, and `close` frees
what they hold (a search's threads, an engine's process). A role adds to it in the package
that needs it, never by importing the players: the GTP engine's player also reports its
search (`tengen.gtp.engine.Player`); a match side is told every move and each new game
(`tengen.match.players.Player`, `tengen.match.gomoku.GomokuSide`).

The protocol imports only the colours and the clock, so that every layer above can use it.
"""

from __future__ import annotations

from typing import Literal, Protocol, TypeVar

from tengen.clock import Clock
from tengen.core.color import Color

Resign = Literal["resign"]
RESIGN: Resign = "resign"  # what a Go player answers instead of a move to resign

G = TypeVar("G", contravariant=True)  # the game: tengen.core.game.Game, gomoku.GomokuGame
M = TypeVar("M", covariant=True)  # the answer: a Go move or RESIGN, or a Gomoku point


class Player(Protocol[G, M]):
    """A computer seat: the move it chooses for a colour, and a way to stop it."""

    def genmove(self, game: G, color: Color, clock: Clock | None = None) -> M:
        """The move `color` chooses in `game`, within `clock` when there is one."""
        ...

    def close(self) -> None:
        """Free what the player holds (search threads, an engine process)."""
        ...
