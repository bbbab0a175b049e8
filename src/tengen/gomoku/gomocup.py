"""The Gomocup brain protocol: ``tengen gomocup`` is a ``pbrain`` engine for Gomoku managers.

Managers (Piskvork, c-gomoku-cli, Yixin-Board, `tengen.gomoku.manager`) start the brain and
write one command a line on its stdin; the brain answers on stdout, one line a reply, flushed.
`Brain.handle` takes one line and returns the reply lines (often one, none for ``INFO``,
``END``, ``YXBOARD`` and the lines inside ``BOARD``); it never raises, so no input line can
crash or hang the brain. Commands are read in any case; ``x,y`` is column then row, from 0.

=========================  ===============================================================
command                    reply
=========================  ===============================================================
``START n``                ``OK``: an empty n x n board (``ERROR`` for a size tengen refuses)
``RECTSTART w,h``          ``OK``: an empty w x h board
``RESTART``                ``OK``: an empty board of the same size and rule
``INFO key value``         none; ``timeout_turn`` and ``time_left`` (ms) limit the thinking
                           time, ``rule`` sets the rule (see below), ``thread_num`` the
                           search's threads (1 to 64; Yixin-Board's key); ``timeout_match``,
                           ``max_memory``, ``game_type``, ``evaluate``, ``folder`` are kept
                           in ``Brain.info`` only; unknown keys are ignored, as asked
``BEGIN``                  the brain's first move on the empty board
``TURN x,y``               the opponent played x,y; the brain's move
``BOARD`` ... ``DONE``     lines ``x,y,field`` (1 own stone, 2 opponent's, 3 a continuous
                           game's winning line, skipped), in any order; the brain's move
``YXBOARD`` ... ``DONE``   the same position, set without a reply (Yixin-Board)
``SWAP2BOARD``             lines ``x,y`` to ``DONE``: the swap2 opening's stones so far,
                           Black first in turn (Gomocup 2020; ``x,y,field`` as ``BOARD``'s
                           lines, Rapfi's form, is read too). With none, three stones
                           ``x,y x,y x,y``; with three, ``SWAP`` (it takes Black), White's
                           fourth ``x,y``, or the fourth and fifth ``x,y x,y``; with five,
                           ``SWAP`` (it takes Black) or White's sixth ``x,y``. ``INFO opening
                           swap1`` (tengen's key) says the opening is swap1: no two stones
``TAKEBACK x,y``           ``OK``: the last move, at x,y, is taken back
``PLAY x,y``               the manager imposes the brain's move (after ``SUGGEST``); echoed
``YXSHOWFORBID``           ``FORBID `` + Black's forbidden points as ``xxyy`` + ``.`` when
                           Black is to move under renju; ``FORBID .`` otherwise
``ABOUT``                  ``name="tengen", version="...", author="...", country="..."``
``END``                    none; the brain exits
``STOP``, ``YXSTOP``       none: the brain thinks only while it answers, so nothing to stop
=========================  ===============================================================

Before its ``OK`` to ``START``, ``RECTSTART`` or ``RESTART`` the brain warms its player
(`Player.warm`: the first time, it loads the compiled code), as managers time moves and not
that answer. Anything else is answered ``UNKNOWN message``; a known command it cannot carry
out (bad coordinates, an occupied or forbidden point, no board yet) ``ERROR message``,
leaving the position as it was. Messages are free text after the keyword, as the protocol's
``MESSAGE`` and ``DEBUG`` lines are; the brain writes ``MESSAGE`` for an ``INFO`` value it
ignores.

The brain's colour is whoever is to move when it is asked: after ``BOARD`` it has Black when
both sides have as many stones, White when the opponent has one more (anything else is an
``ERROR``). The stones are a position, not moves: managers send them in any order, and none
is judged by renju's foul rule (a black stone standing on a point that would be forbidden to a
move is accepted); only the moves played after it are judged.

How other programs number the same things:

===================  ======================================  ================================
thing                this brain (Gomocup protocol)           other programs
===================  ======================================  ================================
point                ``x,y`` from 0: column from the left,   Piskvork ``.psq`` lines ``x,y,ms``
                     row from the top (``7,7`` is the        count from 1 (``8,8``); renju
                     centre of 15x15)                        notation ``h8`` has letters from
                                                             the left and numbers from the
                                                             bottom, from 1; SGF ``hh`` letters
                                                             from ``a`` = 0; Yixin's ``FORBID``
                                                             writes two digits x then y
                                                             (``0707``)
``INFO rule``        Gomocup bitmask: 0 freestyle, 1 exactly Piskvork for Renju and Yixin-Board
                     five, 4 renju, 8 caro (9 caro with      send ``rule 2`` for renju: their
                     exactly five), 2 continuous game        own setting (0 freestyle, 1 exact
                                                             five, 2 renju) sent unchanged;
                                                             Rapfi reads 2 as renju, and 5/6
                                                             as freestyle with swap1/swap2
===================  ======================================  ================================

tengen follows the Gomocup bitmask, as the Gomocup manager sends it: the continuous bit (2)
asks to play on after a five, which tengen does not do, so it is ignored and ``INFO rule 2``
alone is freestyle. A GUI that means renju by 2 (Piskvork for Renju, Yixin-Board) must send
4 to tengen, as Gomocup does.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TextIO

from tengen import __version__
from tengen.clock import lateness
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku.game import GomokuGame, GomokuIllegal
from tengen.gomoku.rules import GomokuRules, Opening

ABOUT = (
    f'name="tengen", version="{__version__}", author="the tengen authors", country="international"'
)
CONTINUOUS_BIT = 2
UNLIMITED_MS = 2_147_483_647  # ``time_left`` when the match has no time limit (the protocol's)
MOVE_TIME_CAP = 60.0  # seconds: the most the built-in player thinks on one move
# Kept back from each turn's limit: the reply's travel and a busy machine's stalls. The player
# overruns its own limit by milliseconds; Rapfi keeps back 30 ms.
TURN_RESERVE_S = 0.1
TURN_RESERVE_SHARE = 0.05
# ASCII digits, at most 9 of them: int() of thousands of digits fails (and is slow).
_COORDS = re.compile(r"\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*", re.ASCII)
_FIELD = re.compile(r"\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*", re.ASCII)
_SIZE = re.compile(r"\d{1,9}", re.ASCII)
MAX_THREADS = 64  # the most search threads `INFO thread_num` may ask for
_INFO_NUMBER = re.compile(r"-?\d{1,10}", re.ASCII)  # the protocol's 32-bit ints


class ProtocolError(Exception):
    """A command the brain knows but cannot carry out; answered ``ERROR message``."""


@dataclass
class Limits:
    """The ``INFO`` time limits, in milliseconds (0 turn limit: as fast as possible)."""

    timeout_turn: int = 5_000
    time_left: int = UNLIMITED_MS

    def move_seconds(self, lag: float = 0.0, moves_left: int = 0) -> float:
        """Seconds the player may think on the next move: the turn's limit less a reserve (0.85
        s of 1 s, 4.65 s of 5 s) and `lag`, and a share of the match's time left that lasts
        about 25 more moves, once `lag` is kept back for each of the `moves_left` the player
        may still have to make (a short match is not lost by the moves' own cost)."""
        turn = self.timeout_turn / 1000 * (1 - TURN_RESERVE_SHARE) - TURN_RESERVE_S - lag
        spare = self.time_left / 1000 - lag * moves_left
        left = spare / 25 if self.time_left > 0 else 0.0
        return max(0.0, min(turn, left, MOVE_TIME_CAP))


@dataclass
class Lag:
    """How far a player's moves run past the time it gave them to think (seconds): the cost of
    a move beyond its search (reading the board, judging fouls, a busy machine's stalls), as
    `tengen.clock.lateness` keeps it."""

    seconds: float = 0.0

    def moved(self, allowed: float, took: float) -> None:
        """Count a move that was allowed `allowed` seconds of thinking and took `took`."""
        self.seconds = lateness(self.seconds, took - allowed)

    def move_seconds(self, limits: Limits, game: GomokuGame) -> float:
        """`limits`' thinking time for the player to move in `game`, keeping this lag back
        for every move the player may still make on the board's empty points."""
        empty = game.rules.width * game.rules.height - game.move_number
        return limits.move_seconds(self.seconds, (empty + 1) // 2)


@dataclass
class _Pending:
    """The lines of a ``BOARD``/``YXBOARD`` block until its ``DONE``."""

    command: str
    lines: list[str] = field(default_factory=list)


class Player(Protocol):
    """What chooses the brain's moves (`tengen.ai.gomoku_player.GomokuPlayer`, wired by the
    CLI, so that this protocol layer does not import the AI)."""

    time_limit: float
    threads: int

    def warm(self) -> None:
        """Get ready to move at once (load compiled code): the brain calls it before its
        first ``OK`` to START, which managers do not count against any move's time."""
        ...

    def genmove(self, game: GomokuGame) -> Point:
        """A legal move for the player to move in `game`."""
        ...

    def open_three(self, game: GomokuGame) -> list[Point]:
        """The first three stones of a swap opening on `game`'s empty board."""
        ...

    def choose_side(self, game: GomokuGame, may_place_two: bool) -> list[Point] | None:
        """A swap opening's choice for the side to move: None (``SWAP``), or its stones."""
        ...


class Brain:
    """One brain session: the board, the rule, the limits, and the player that moves."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.game: GomokuGame | None = None
        self.limits = Limits()
        self.rule_mask = 0
        self.info: dict[str, str] = {}
        self.ended = False
        self._pending: _Pending | None = None
        self.lag = Lag()
        self._received = time.monotonic()  # when the line being handled was read

    # -- public ------------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """The reply lines to one input line; never raises."""
        self._received = time.monotonic()
        text = line.strip()
        if not text:
            return []
        try:
            if self._pending is not None:
                return self._collect(text)
            return self._dispatch(text)
        except ProtocolError as error:
            return [f"ERROR {error}"]
        except Exception as error:  # the protocol forbids dying on input: report, go on
            return [f"ERROR internal error: {type(error).__name__}: {error}"]

    # -- dispatch ----------------------------------------------------------------------------

    def _dispatch(self, text: str) -> list[str]:
        word, _, rest = text.partition(" ")
        command = word.upper()
        rest = rest.strip()
        handler = getattr(self, f"_cmd_{command.lower()}", None)
        if handler is None:
            return [f"UNKNOWN command {word!r}"]
        result: list[str] = handler(rest)
        return result

    def _cmd_start(self, rest: str) -> list[str]:
        if not _SIZE.fullmatch(rest):
            raise ProtocolError(f"START wants a board size, not {rest[:40]!r}")
        return self._new_game(int(rest), int(rest))

    def _cmd_rectstart(self, rest: str) -> list[str]:
        width, height = _numbers(rest, "RECTSTART")
        return self._new_game(width, height)

    def _cmd_restart(self, rest: str) -> list[str]:
        game = self._game()
        return self._new_game(game.rules.width, game.rules.height)

    def _cmd_info(self, rest: str) -> list[str]:
        key, _, value = rest.partition(" ")
        key, value = key.lower(), value.strip()
        self.info[key] = value
        if key in ("timeout_turn", "time_left", "rule", "thread_num"):
            if not _INFO_NUMBER.fullmatch(value) or not -(2**31) <= int(value) < 2**31:
                return [f"MESSAGE ignored INFO {key} {value[:40]!r}: not a 32-bit whole number"]
            number = int(value)
            if key == "rule":
                return self._set_rule(number)
            if key == "thread_num":
                if not 1 <= number <= MAX_THREADS:
                    return [f"MESSAGE ignored INFO thread_num {number}: not 1 to {MAX_THREADS}"]
                self.player.threads = number
                return []
            setattr(self.limits, key, number)
        return []

    def _cmd_begin(self, rest: str) -> list[str]:
        game = self._game()
        if game.moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        return [self._reply_move(game)]

    def _cmd_turn(self, rest: str) -> list[str]:
        game = self._game()
        point = self._point(rest, "TURN")
        self._play(game, point)
        return [self._reply_move(game)]

    def _cmd_play(self, rest: str) -> list[str]:
        game = self._game()
        point = self._point(rest, "PLAY")
        self._play(game, point)
        return [f"{point.col},{point.row}"]

    def _cmd_board(self, rest: str) -> list[str]:
        self._game()
        self._pending = _Pending("BOARD")
        return []

    def _cmd_yxboard(self, rest: str) -> list[str]:
        self._game()
        self._pending = _Pending("YXBOARD")
        return []

    def _cmd_swap2board(self, rest: str) -> list[str]:
        self._game()
        self._pending = _Pending("SWAP2BOARD")
        return []

    def _cmd_done(self, rest: str) -> list[str]:
        raise ProtocolError("DONE without BOARD or YXBOARD")

    def _cmd_takeback(self, rest: str) -> list[str]:
        game = self._game()
        point = self._point(rest, "TAKEBACK")
        if not game.moves or game.moves[-1][1] != point:
            raise ProtocolError(f"TAKEBACK {point.col},{point.row}: that is not the last move")
        game.undo()
        return ["OK"]

    def _cmd_yxshowforbid(self, rest: str) -> list[str]:
        game = self._game()
        points = sorted(game.forbidden_points(), key=lambda p: (p.row, p.col))
        return ["FORBID " + "".join(f"{p.col:02d}{p.row:02d}" for p in points) + "."]

    def _cmd_about(self, rest: str) -> list[str]:
        return [ABOUT]

    def _cmd_end(self, rest: str) -> list[str]:
        self.ended = True
        return []

    def _cmd_stop(self, rest: str) -> list[str]:
        return []

    _cmd_yxstop = _cmd_stop

    # -- BOARD blocks ------------------------------------------------------------------------

    def _collect(self, text: str) -> list[str]:
        """One line inside a BOARD block; DONE sets the position (and moves, for BOARD)."""
        pending = self._pending
        assert pending is not None
        word = text.split(maxsplit=1)[0].upper()
        if word == "DONE":
            self._pending = None
            if pending.command == "SWAP2BOARD":
                return [self._swap2(pending.lines)]
            game = self._set_position(pending.lines)
            return [self._reply_move(game)] if pending.command == "BOARD" else []
        if word in _COMMANDS:  # a manager that forgot DONE: drop the block, obey the command
            self._pending = None
            return [f"ERROR {pending.command} ended without DONE", *self._dispatch(text)]
        pending.lines.append(text)
        return []

    def _set_position(self, lines: Sequence[str]) -> GomokuGame:
        """The game the BOARD lines describe, own stones to move; the old one on an error."""
        old = self._game()
        own: list[Point] = []
        theirs: list[Point] = []
        for number, text in enumerate(lines, 1):
            match = _FIELD.fullmatch(text)
            if match is None:
                raise ProtocolError(f"board line {number} {text[:40]!r} is not x,y,field")
            x, y, kind = (int(g) for g in match.groups())
            if kind not in (1, 2, 3):
                raise ProtocolError(f"board line {number}: field {kind} is not 1, 2 or 3")
            point = self._on_board(old, x, y, f"board line {number}")
            if kind == 1:
                own.append(point)
            elif kind == 2:
                theirs.append(point)
        if len(own) == len(theirs):
            black, white = own, theirs
        elif len(theirs) == len(own) + 1:
            black, white = theirs, own
        else:
            raise ProtocolError(
                f"{len(own)} own and {len(theirs)} opponent stones: not a position with "
                "the brain to move (black has as many stones as white, or one more)"
            )
        self.game = _set_up(old.rules, black, white)
        return self.game

    def _swap2(self, lines: Sequence[str]) -> str:
        """The answer to a ``SWAP2BOARD`` block of 0, 3 or 5 stones (Black first, in turn):
        three stones, ``SWAP``, or the stones the brain places for the side to move."""
        old = self._game()
        points = []
        for number, text in enumerate(lines, 1):
            where = f"SWAP2BOARD line {number}"
            points.append(self._on_board(old, *_swap2_stone(text, number, where), where))
        if len(points) not in (0, 3, 5):
            raise ProtocolError(f"SWAP2BOARD with {len(points)} stones (0, 3 or 5 are asked)")
        swap1 = self.info.get("opening", "").lower() in ("swap", "swap1")
        game = GomokuGame(replace(old.rules, opening=Opening.SWAP if swap1 else Opening.SWAP2))
        try:
            for stones in (points[:3], points[3:]):
                if stones:
                    game.decide_opening(stones)
            self.player.time_limit = self.limits.move_seconds()
            if not points:
                answer: list[Point] | None = self.player.open_three(game)
            else:
                answer = self.player.choose_side(game, len(points) == 3 and not swap1)
            game.decide_opening(answer)
        except GomokuIllegal as error:
            raise ProtocolError(f"SWAP2BOARD: {error}") from None
        self.game = game
        return "SWAP" if answer is None else " ".join(f"{p.col},{p.row}" for p in answer)

    # -- helpers -----------------------------------------------------------------------------

    def _new_game(self, width: int, height: int) -> list[str]:
        try:
            rules = GomokuRules.from_gomocup(_rule_bits(self.rule_mask), width, height)
        except ValueError as error:
            raise ProtocolError(f"unsupported board {width}x{height}: {error}") from None
        self.player.warm()
        self.game = GomokuGame(rules)
        return ["OK"]

    def _set_rule(self, mask: int) -> list[str]:
        game = self.game
        try:
            size = (game.rules.width, game.rules.height) if game else (15, 15)
            rules = GomokuRules.from_gomocup(_rule_bits(mask), *size)
        except ValueError as error:
            return [f"MESSAGE ignored INFO rule {mask}: {error}"]
        self.rule_mask = mask
        if game is not None and rules != game.rules:  # the position stands under the new rule
            stones = [[p for c, p in game.moves if c is color] for color in Color]
            self.game = _set_up(rules, *stones)
        return []

    def _game(self) -> GomokuGame:
        if self.game is None:
            raise ProtocolError("no board yet: send START first")
        return self.game

    def _point(self, text: str, command: str) -> Point:
        x, y = _numbers(text, command)
        return self._on_board(self._game(), x, y, command)

    @staticmethod
    def _on_board(game: GomokuGame, x: int, y: int, where: str) -> Point:
        if not (0 <= x < game.rules.width and 0 <= y < game.rules.height):
            raise ProtocolError(
                f"{where}: {x},{y} is off the {game.rules.width}x{game.rules.height} board"
            )
        return Point(x, y)

    @staticmethod
    def _play(game: GomokuGame, point: Point) -> None:
        try:
            game.play(point)
        except GomokuIllegal as error:
            raise ProtocolError(f"{point.col},{point.row}: {error.reason}") from None

    def _reply_move(self, game: GomokuGame) -> str:
        """Choose, play and write the brain's move."""
        if game.is_over:
            drawn = game.drawn_because
            raise ProtocolError(f"the game is over ({game.result}{drawn and ': ' + drawn})")
        allowed = self.player.time_limit = self.lag.move_seconds(self.limits, game)
        point = self.player.genmove(game)
        self._play(game, point)
        self.lag.moved(allowed, time.monotonic() - self._received)
        return f"{point.col},{point.row}"


_COMMANDS = frozenset(name[5:].upper() for name in vars(Brain) if name.startswith("_cmd_"))


def _rule_bits(mask: int) -> int:
    """The rule bits of a Gomocup bitmask that tengen judges by (continuous play is ignored)."""
    return mask & ~CONTINUOUS_BIT


def _numbers(text: str, command: str) -> tuple[int, int]:
    match = _COORDS.fullmatch(text)
    if match is None:
        raise ProtocolError(f"{command} wants x,y, not {text[:40]!r}")
    return int(match.group(1)), int(match.group(2))


def _swap2_stone(text: str, number: int, where: str) -> tuple[int, int]:
    """The point of the `number`-th ``SWAP2BOARD`` line: ``x,y`` as the protocol has it, or
    ``x,y,field`` as in ``BOARD`` (Rapfi's reading), whose field must then be the stone's: 2
    for Black's (the odd lines: the side to move after 3 or 5 stones is White), 1 for White's."""
    match = _FIELD.fullmatch(text)
    if match is None:
        return _numbers(text, where)
    x, y, field = (int(g) for g in match.groups())
    stone = 2 if number % 2 else 1
    if field != stone:
        whose = "Black's, the opponent's (2)" if stone == 2 else "White's, the side to move's (1)"
        raise ProtocolError(f"{where}: field {field}, but stone {number} is {whose}")
    return x, y


def _set_up(rules: GomokuRules, black: Sequence[Point], white: Sequence[Point]) -> GomokuGame:
    """A game of `rules` set up with the position's stones (not judged as moves: a black stone
    on a point renju forbids to a move stands); ProtocolError naming a bad stone."""
    game = GomokuGame(rules)
    try:
        game.set_up(black, white)
    except GomokuIllegal as error:
        where = "" if error.point is None else f" at {error.point.col},{error.point.row}"
        raise ProtocolError(f"stone {error.move_number}{where}: {error.reason}") from None
    return game


def run(brain: Brain, stdin: TextIO, stdout: TextIO) -> int:
    """Answer the manager's lines from `stdin` on `stdout` until ``END`` or EOF; exit status."""
    for line in stdin:
        for reply in brain.handle(line):
            stdout.write(reply + "\n")
        stdout.flush()
        if brain.ended:
            break
    return 0
