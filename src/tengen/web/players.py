"""The opponents a seat can hold besides a person: the built-in players and external engines.

Go: every seat is a `tengen.seat.Player` (`GoSeat`): the search of `tengen.ai.mcts` at a
level and the random player of `tengen.ai.players` as they are, and a GTP engine
(`EnginePlayer`). Gomoku: `BuiltinGomoku` (the threat search of `tengen.ai.gomoku_player`)
and a Gomocup ``pbrain`` engine (`GomocupPlayer`).

`EnginePlayer` keeps an external engine (GNU Go, KataGo...) in step with a game: before each
``genmove`` it sends only the moves the engine has not seen, or clears and replays everything
when the game went back (undo). After every sync it asks the engine for its stones
(``list_stones``) and returns any difference, so that the session can report it instead of
letting the two boards silently diverge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from tengen.ai.gomoku_player import GomokuPlayer
from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import Move, Point, from_gtp, to_gtp
from tengen.core.game import Game
from tengen.gomoku import GomokuGame, Opening
from tengen.gomoku.manager import GomocupEngine, GomocupError
from tengen.gtp.client import GtpClient, GtpClientError
from tengen.seat import RESIGN, Player, Resign

ENGINE_GRACE = 5.0  # seconds an engine on a clock may answer late before it is dropped
NAME_LENGTH = 60  # characters of an engine's name and version kept for PB/PW
T = TypeVar("T")
GoSeat = Player[Game, Move | Resign]  # what holds a computer seat of a Go game


class EngineError(Exception):
    """The engine failed, refused a command, or disagrees with tengen about the position."""


def gtp_engine_name(argv: list[str], timeout: float = 60.0) -> str:
    """What a GTP engine calls itself (``name`` and ``version``: "GNU Go 3.8"), for the
    record's PB/PW and the page. Raises EngineError if the engine cannot be started or asked."""
    try:
        with GtpClient(argv, timeout=timeout) as client:
            name = client.send("name").strip()
            version = client.send("version").strip() if client.known("version") else ""
    except OSError as err:
        raise EngineError(f"cannot start engine {argv[0]!r}: {err}") from None
    except GtpClientError as err:
        raise EngineError(str(err)) from None
    return _printable(f"{name} {version}") or "engine"


def gomocup_engine_name(argv: list[str], timeout: float = 30.0) -> str:
    """What a Gomocup brain calls itself (``ABOUT``'s name and version), as `gtp_engine_name`."""
    engine = None
    try:
        engine = GomocupEngine(argv, timeout)
        about = engine.about()
    except GomocupError as err:
        raise EngineError(str(err)) from None
    finally:
        if engine is not None:
            engine.end()
    told = (
        f"{about.get('name', '')} {about.get('version', '')}" if "name" in about else about["text"]
    )
    return _printable(told) or "engine"


def _printable(text: str) -> str:
    """`text` with control characters and runs of spaces gone, cut to `NAME_LENGTH`."""
    kept = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(kept.split())[:NAME_LENGTH].strip()


class EnginePlayer:
    """A GTP engine started from `argv` on first use and kept in sync with the game."""

    def __init__(self, argv: list[str], timeout: float = 60.0) -> None:
        self.argv = argv
        self.timeout = timeout
        self.differences: list[str] = []
        self._client: GtpClient | None = None
        self._setup: tuple[object, ...] | None = None
        self._sent: list[tuple[Color, Move]] = []
        self._timed: TimeControl | None = None  # the clock the engine was told of

    def genmove(self, game: Game, color: Color, clock: Clock | None = None) -> Move | Resign:
        """Sync, check the engine's stones, tell it the clock (``time_settings`` once,
        ``time_left`` each move), then ask it to move. Raises EngineError."""
        client = self._sync(game)
        timeout = self.timeout
        if clock is not None:
            if self._timed != clock.control:
                self._call(lambda: client.set_time(clock.control))
                self._timed = clock.control
            self._call(lambda: client.time_left(color, clock))
            timeout = clock.allowance() + ENGINE_GRACE
        answer = self._send(client, f"genmove {color.letter}", timeout).strip()
        if answer.lower() == RESIGN:
            return RESIGN
        try:
            move = from_gtp(answer, game.width, game.height)
        except ValueError as err:
            raise EngineError(f"engine answered genmove with {answer!r}: {err}") from None
        self._sent.append((color, move))
        return move

    def close(self) -> None:
        """Stop the engine if it runs."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def _send(self, client: GtpClient, command: str, timeout: float | None = None) -> str:
        return self._call(lambda: client.send(command, timeout=timeout or self.timeout))

    def _call(self, ask: Callable[[], T]) -> T:
        """Ask the engine something; a failure closes it (it is restarted and synced on the
        next move) and becomes an EngineError."""
        try:
            return ask()
        except GtpClientError as err:
            self.close()
            self._setup, self._timed = None, None
            raise EngineError(str(err)) from None

    def _sync(self, game: Game) -> GtpClient:
        """Bring the engine to the game's position; record any stone it disagrees about."""
        if self._client is None:
            try:
                self._client = GtpClient(self.argv, timeout=self.timeout)
            except OSError as err:
                raise EngineError(f"cannot start engine {self.argv[0]!r}: {err}") from None
            self._setup = None
        client = self._client
        moves = [(m.color, m.move) for m in game.moves]
        handicap = game.handicap_points
        setup = (game.width, game.height, game.ruleset.komi, tuple(handicap))
        if setup != self._setup or moves[: len(self._sent)] != self._sent:
            self._send(client, f"boardsize {game.width}")
            self._send(client, "clear_board")
            self._send(client, f"komi {game.ruleset.komi}")
            if handicap:
                vertices = " ".join(to_gtp(p, game.height) for p in handicap)
                self._send(client, f"set_free_handicap {vertices}")
            self._setup, self._sent = setup, []
        for color, move in moves[len(self._sent) :]:
            self._send(client, f"play {color.letter} {to_gtp(move, game.height)}")
            self._sent.append((color, move))
        self.differences = self._compare(client, game)
        return client

    def _compare(self, client: GtpClient, game: Game) -> list[str]:
        """What the engine's stones and tengen's board disagree about, one line per colour."""
        found = []
        for color, name in ((Color.BLACK, "black"), (Color.WHITE, "white")):
            theirs = set(self._send(client, f"list_stones {name}").upper().split())
            ours = {to_gtp(p, game.height) for p in game.board.stones(color)}
            if theirs != ours:
                extra = " ".join(sorted(theirs - ours)) or "-"
                missing = " ".join(sorted(ours - theirs)) or "-"
                found.append(
                    f"engine's {name} stones differ from tengen's after move "
                    f"{game.move_number}: engine only {extra}; tengen only {missing}"
                )
        return found


class GomokuComputer(Protocol):
    """What a Gomoku session asks of a computer seat."""

    def genmove(self, game: GomokuGame) -> Point:
        """The stone the player to move places. Raises EngineError."""
        ...

    def opening(self, game: GomokuGame) -> list[Point] | None:
        """The swap opening's step this player owes, as ``SWAP2BOARD`` answers it: the first
        three stones, or after three or five stones None (take the other colour) or stones
        for the side to move. Raises EngineError."""
        ...

    def close(self) -> None:
        """Free what the player holds (an engine process)."""
        ...


class BuiltinGomoku:
    """Adapts `tengen.ai.gomoku_player.GomokuPlayer` to `GomokuComputer`."""

    def __init__(self, seed: int | None = None) -> None:
        self._player = GomokuPlayer(seed or 0)

    def genmove(self, game: GomokuGame) -> Point:
        """The built-in player's stone."""
        return self._player.genmove(game)

    def opening(self, game: GomokuGame) -> list[Point] | None:
        """The built-in player's opening: three stones it judges even, or its side's choice."""
        if not game.moves:
            return self._player.open_three(game)
        two = game.rules.opening is Opening.SWAP2 and game.move_number == 3
        return self._player.choose_side(game, two)

    def close(self) -> None:
        """Nothing to free."""


class GomocupPlayer:
    """A Gomocup brain started from `argv` on first use; each turn sends the whole game
    (``BOARD``), so an undo needs no bookkeeping."""

    def __init__(self, argv: list[str], timeout: float = 30.0) -> None:
        self.argv = argv
        self.timeout = timeout
        self._engine: GomocupEngine | None = None

    def genmove(self, game: GomokuGame) -> Point:
        """Start the brain if needed, then ask for its move. Raises EngineError."""
        return self._ask(game, lambda engine: engine.board(game))

    def opening(self, game: GomokuGame) -> list[Point] | None:
        """The brain's answer to ``SWAP2BOARD`` with the stones so far. Raises EngineError."""
        stones = [p for _, p in game.moves]
        return self._ask(game, lambda engine: engine.swap2board(stones, game.rules.opening))

    def _ask(self, game: GomokuGame, question: Callable[[GomocupEngine], T]) -> T:
        """Start the brain if needed and ask it; a failure stops it and is an EngineError."""
        try:
            if self._engine is None:
                self._engine = GomocupEngine(self.argv, self.timeout)
                self._engine.start(game.rules.width, game.rules.height)
                self._engine.set_rules(game.rules)
            return question(self._engine)
        except GomocupError as err:
            self.close()
            raise EngineError(str(err)) from None

    def close(self) -> None:
        """Stop the brain if it runs."""
        if self._engine is not None:
            self._engine.end()
            self._engine = None
