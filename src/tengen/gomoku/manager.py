"""The manager side of the Gomocup protocol: drive an external ``pbrain-*`` engine.

`GomocupEngine` runs a brain (Rapfi, Embryo, Yixin's engine, ``tengen gomocup``...) in a
subprocess and speaks to it as Piskvork does: commands end in CR LF, ``MESSAGE`` and ``DEBUG``
lines are skipped (kept in ``messages`` for a log), a ``SUGGEST x,y`` is accepted with
``PLAY x,y``. A reader thread feeds the brain's lines into a queue so that every answer can
time out; another keeps the tail of its stderr for the error messages. A brain that answers
late is killed, as tournament managers do: a late move cannot be told from the next one.

`play_game` plays a whole game between two brains under `GomokuRules`, each move checked by
`GomokuGame` (an illegal or malformed move is an error naming the brain, not a loss), the swap
openings' decisions asked with ``SWAP2BOARD`` (Gomocup's 2020 extension).
"""

from __future__ import annotations

import collections
import contextlib
import re
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from tengen.core.coords import Point
from tengen.gomoku.game import GomokuGame, GomokuIllegal
from tengen.gomoku.rules import GomokuRules, Opening
from tengen.process import LineProcess, ProgramDied, ProgramError, ProgramTimeout

_MESSAGES = 200
_MOVE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")
_ABOUT = re.compile(r'(\w+)\s*=\s*"([^"]*)"')
_FORBID = re.compile(r"FORBID\s*((?:\d{4})*)\s*\.", re.IGNORECASE)
# Brains that read SWAP2BOARD's stones only as BOARD's ``x,y,field`` lines, not as the
# protocol's ``x,y``, known by a word in their command's file names (as Lizzie knows KataGo):
# Rapfi answers each ``x,y`` line "ERROR Color is not a valid value", then answers for an
# empty board. Not by ABOUT: a brain need not answer it, and one that does not would be
# waited for until its timeout and killed.
_SWAP2_FIELDS = ("rapfi",)


class GomocupError(ProgramError):
    """Anything that went wrong talking to a Gomocup brain."""


class GomocupRefused(GomocupError):
    """The brain answered ``ERROR`` or ``UNKNOWN`` to a command."""

    def __init__(self, command: str, answer: str) -> None:
        self.command = command
        self.answer = answer
        super().__init__(f"brain refused {command!r}: {answer}")


class GomocupTimeout(GomocupError, ProgramTimeout):
    """No answer within the timeout; the brain has been killed."""


class GomocupEngineDied(GomocupError, ProgramDied):
    """The brain exited, or closed its output, before answering."""


class GomocupEngine:
    """A Gomocup brain running as a subprocess of `argv`; `timeout` seconds per answer."""

    def __init__(self, argv: list[str], timeout: float = 30.0) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.messages: collections.deque[str] = collections.deque(maxlen=_MESSAGES)
        names = [Path(word).name.lower() for word in self.argv]
        self.swap2_fields = any(brain in name for brain in _SWAP2_FIELDS for name in names)
        try:
            self._proc = LineProcess(self.argv)
        except OSError as error:
            raise GomocupEngineDied(f"cannot start {self.argv[0]}: {error}") from None

    # -- the protocol ------------------------------------------------------------------------

    def start(self, width: int, height: int | None = None) -> None:
        """``START`` a square board, or ``RECTSTART`` a rectangle; expects ``OK``."""
        if height is None or height == width:
            self._expect_ok(f"START {width}")
        else:
            self._expect_ok(f"RECTSTART {width},{height}")

    def restart(self) -> None:
        """``RESTART``: an empty board of the same size; expects ``OK``."""
        self._expect_ok("RESTART")

    def info(self, key: str, value: int | str) -> None:
        """``INFO key value``; brains do not answer it."""
        self._send(f"INFO {key} {value}")

    def set_rules(self, rules: GomokuRules) -> None:
        """``INFO rule`` with the Gomocup bitmask of `rules`."""
        self.info("rule", rules.to_gomocup())

    def begin(self) -> Point:
        """``BEGIN``: the brain's first move on the empty board."""
        return self._ask_move("BEGIN")

    def turn(self, point: Point) -> Point:
        """``TURN x,y``: the opponent's move; the brain's answer."""
        return self._ask_move(f"TURN {point.col},{point.row}")

    def board(self, game: GomokuGame) -> Point:
        """``BOARD``: the game's stones in move order, the player to move's as own (1); the
        brain's move."""
        me = game.to_play
        lines = [f"{p.col},{p.row},{1 if c is me else 2}" for c, p in game.moves]
        for line in ["BOARD", *lines]:
            self._send(line)
        return self._ask_move("DONE")

    def forbidden_points(self) -> list[Point]:
        """``YXSHOWFORBID`` (Yixin-Board's extension): the points the brain says Black may not
        take, from its ``FORBID xxyy...`` answer."""
        answer = self._answer("YXSHOWFORBID")
        match = _FORBID.fullmatch(answer)
        if match is None:
            if answer.split(maxsplit=1)[0].upper() in ("ERROR", "UNKNOWN"):
                raise GomocupRefused("YXSHOWFORBID", answer)
            raise GomocupError(f"{self.argv[0]}: answer to YXSHOWFORBID is {answer!r}")
        digits = match.group(1)
        return [
            Point(int(digits[k : k + 2]), int(digits[k + 2 : k + 4]))
            for k in range(0, len(digits), 4)
        ]

    def yxboard(self, game: GomokuGame) -> None:
        """``YXBOARD`` (Yixin-Board's extension): the game's stones as ``board`` sends them,
        set in the brain without a move in answer."""
        me = game.to_play
        for line in ["YXBOARD", *(f"{p.col},{p.row},{1 if c is me else 2}" for c, p in game.moves)]:
            self._send(line)
        self._send("DONE")

    def swap2board(
        self, stones: Sequence[Point], opening: Opening = Opening.SWAP2
    ) -> list[Point] | None:
        """``SWAP2BOARD`` with the opening's stones so far (0, 3 or 5): the brain's stones for
        the side to move, or None for ``SWAP``. Under swap (swap1) ``INFO opening swap1`` goes
        first, tengen's word to brains that know it that two stones are no answer. The stones
        go as ``x,y`` lines, as the protocol has them, or with `swap2_fields` (a brain named
        in `_SWAP2_FIELDS`) as ``BOARD``'s ``x,y,field``, 1 for the side to move's (White's)
        and 2 for Black's.

        Raises GomocupRefused for ``ERROR``/``UNKNOWN``, GomocupError for another answer.
        """
        if opening is Opening.SWAP:
            self.info("opening", "swap1")
        fields = [f",{2 - k % 2}" if self.swap2_fields else "" for k in range(len(stones))]
        lines = [f"{p.col},{p.row}{field}" for p, field in zip(stones, fields, strict=True)]
        for line in ["SWAP2BOARD", *lines]:
            self._send(line)
        answer = self._answer("DONE")
        if answer.upper() == "SWAP":
            return None
        words = answer.split()
        if words and words[0].upper() in ("ERROR", "UNKNOWN"):
            raise GomocupRefused("SWAP2BOARD", answer)
        points = [_MOVE.fullmatch(word) for word in words]
        if not points or None in points:
            raise GomocupError(
                f"{self.argv[0]}: answer to SWAP2BOARD is neither SWAP nor x,y stones: {answer!r}"
            )
        return [Point(int(m.group(1)), int(m.group(2))) for m in points if m is not None]

    def takeback(self, point: Point) -> None:
        """``TAKEBACK x,y``: the last move is undone; expects ``OK``."""
        self._expect_ok(f"TAKEBACK {point.col},{point.row}")

    def about(self) -> dict[str, str]:
        """``ABOUT``: the brain's ``key="value"`` pairs (``{"text": line}`` for old brains)."""
        line = self._answer("ABOUT")
        pairs = dict(_ABOUT.findall(line))
        return pairs or {"text": line}

    def end(self, wait: float = 1.0) -> None:
        """``END``, then wait up to `wait` seconds for the brain to exit before killing it."""
        if self._proc.returncode is None:
            with contextlib.suppress(GomocupError):
                self._send("END")
        self._proc.stop(wait)

    close = end

    @property
    def returncode(self) -> int | None:
        """The brain's exit status, or None while it runs."""
        return self._proc.returncode

    def __enter__(self) -> GomocupEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.end()

    # -- internals ---------------------------------------------------------------------------

    def _send(self, line: str) -> None:
        if "\n" in line or "\r" in line:
            raise ValueError(f"a Gomocup command is one line: {line!r}")
        if self._proc.returncode is not None:
            raise self._died(line)
        try:
            self._proc.write(line + "\r\n")
        except (OSError, ValueError):
            raise self._died(line) from None

    def _answer(self, command: str) -> str:
        """Send `command` and return its answer, skipping ``MESSAGE``/``DEBUG`` lines."""
        self._send(command)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self._proc.readline(deadline)
            except TimeoutError:
                self._proc.stop(0.0)
                raise GomocupTimeout(
                    f"{self.argv[0]}: no answer to {command!r} within {self.timeout:g} s"
                    f"{self._proc.stderr_tail()}"
                ) from None
            if line is None:
                raise self._died(command)
            line = line.strip()
            word = line.split(maxsplit=1)[0].upper() if line else ""
            if word in ("MESSAGE", "DEBUG"):
                self.messages.append(line)
            elif line:
                return line

    def _expect_ok(self, command: str) -> None:
        answer = self._answer(command)
        if answer.upper() != "OK":
            raise GomocupRefused(command, answer)

    def _ask_move(self, command: str) -> Point:
        answer = self._answer(command)
        while answer.upper().startswith("SUGGEST "):
            answer = self._answer(f"PLAY {answer[8:].strip()}")
        match = _MOVE.fullmatch(answer)
        if match is None:
            if answer.split(maxsplit=1)[0].upper() in ("ERROR", "UNKNOWN"):
                raise GomocupRefused(command, answer)
            raise GomocupError(f"{self.argv[0]}: answer to {command!r} is not x,y: {answer!r}")
        return Point(int(match.group(1)), int(match.group(2)))

    def _died(self, command: str) -> GomocupEngineDied:
        return GomocupEngineDied(self._proc.died(command))


def play_game(
    black: GomocupEngine, white: GomocupEngine, rules: GomokuRules | None = None
) -> GomokuGame:
    """Play a game from the empty board to its end (a five or a draw); `black` opens.

    Both brains get ``START``/``RECTSTART`` and ``INFO rule`` first. Under an opening rule
    (swap, swap2) `black` is player 1, who places the first three stones, and the brains make
    the opening's choices through ``SWAP2BOARD``; the game's ``black_player`` tells who took
    Black. Raises GomocupError when a brain fails, or answers a move or an opening choice the
    rules refuse (naming the brain and the reason).
    """
    rules = rules or GomokuRules()
    game = GomokuGame(rules)
    players = {1: black, 2: white}
    for engine in players.values():
        engine.set_rules(rules)
        engine.start(rules.width, rules.height)
    while (due := game.opening_decision) is not None:
        engine = players[due]
        answer = engine.swap2board([p for _, p in game.moves], rules.opening)
        try:
            game.decide_opening(answer)
        except GomokuIllegal as error:
            raise GomocupError(f"{engine.argv[0]} answered SWAP2BOARD: {error}") from None
    seen = {1: 0, 2: 0}  # stones each brain knows of
    while not game.is_over:
        player = game.player_of(game.to_play)
        engine = players[player]
        if not game.moves:
            move = engine.begin()
        elif seen[player] == game.move_number - 1:
            move = engine.turn(game.moves[-1][1])
        else:
            move = engine.board(game)
        try:
            game.play(move)
        except GomokuIllegal as error:
            raise GomocupError(f"{engine.argv[0]} played {move.col},{move.row}: {error}") from None
        seen[player] = game.move_number
    return game
