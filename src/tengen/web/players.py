"""The opponents a seat can hold besides a person: the built-in players and external engines.

Go: every seat is a `tengen.seat.Player` (`GoSeat`): the search of `tengen.ai.mcts` at a
level and the random player of `tengen.ai.players` as they are, and a GTP engine through
`tengen.gtp.seat.EngineSeat` (`engine_seat`), the match runner's adapter too. Gomoku:
`BuiltinGomoku` (the threat search of `tengen.ai.gomoku_player`) and a Gomocup ``pbrain``
engine (`GomocupPlayer`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.coords import Move, Point
from tengen.core.game import Game
from tengen.gomoku import GomokuGame, Opening
from tengen.gomoku.manager import GomocupEngine, GomocupError
from tengen.gtp.client import GtpClient, GtpClientError
from tengen.gtp.seat import EngineSeat
from tengen.seat import Player, Resign

ENGINE_GRACE = 5.0  # seconds an engine on a clock may answer late before it is dropped
NAME_LENGTH = 60  # characters of an engine's name and version kept for PB/PW
# A Gomocup brain's seat: Gomoku games here have no clock, so the brain is told a time a
# move (``INFO timeout_turn``; the server's --gomoku-engine-seconds) and no match limit; not
# told, each brain keeps its own default, which for Rapfi is no limit at all (it searches on
# until a mate or its deepest depth), so the seat's answer deadline ran out.
BRAIN_TURN = 5.0
BRAIN_DEADLINE = 30.0  # seconds a brain may take to answer (a cold START) before it is dropped
T = TypeVar("T")
GoSeat = Player[Game, Move | Resign]  # what holds a computer seat of a Go game


def engine_seat(argv: list[str]) -> EngineSeat:
    """A GTP engine's seat in the app: on a clock it may answer `ENGINE_GRACE` seconds late
    (a page's player is not a tournament); a failure raises `GtpClientError`, which the
    session reports as the engine failing, and the next move starts the engine again."""
    return EngineSeat(argv, grace=ENGINE_GRACE)


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
    """`text` with control characters and runs of spaces gone, cut to `NAME_LENGTH` between
    words: a parenthesis the cut would split (a build's details) goes whole, else "…" marks
    the cut."""
    kept = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if len(kept) <= NAME_LENGTH:
        return kept
    cut = kept[:NAME_LENGTH]
    opened = cut.rfind("(")
    if opened > 0 and opened > cut.rfind(")"):
        return cut[:opened].strip()
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut[:-1]).strip() + "…"


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
    """Adapts `tengen.ai.gomoku_player.GomokuPlayer` to `GomokuComputer`; with no `seed`, each
    game's player draws its own (its swap openings differ from game to game)."""

    def __init__(self, seed: int | None = None) -> None:
        self._player = GomokuPlayer(seed)

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
        """Drop the transposition table the player keeps from move to move."""
        self._player.kept.clear()


class GomocupPlayer:
    """A Gomocup brain started from `argv` on first use and told its time, `turn` seconds a
    move, before its first question, as the protocol asks a manager; it may answer
    `ENGINE_GRACE` seconds late (and START within `BRAIN_DEADLINE`). Each turn sends the whole
    game (``BOARD``), so an undo needs no bookkeeping."""

    def __init__(self, argv: list[str], turn: float = BRAIN_TURN) -> None:
        self.argv = argv
        self.turn = turn
        self.timeout = max(BRAIN_DEADLINE, turn + ENGINE_GRACE)
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
                self._engine.info("timeout_turn", round(self.turn * 1000))
                self._engine.info("timeout_match", 0)  # no limit: no clock
            return question(self._engine)
        except GomocupError as err:
            self.close()
            raise EngineError(str(err)) from None

    def close(self) -> None:
        """Stop the brain if it runs."""
        if self._engine is not None:
            self._engine.end()
            self._engine = None
