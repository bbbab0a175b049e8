"""Drive an external GTP engine (GNU Go, KataGo, another tengen) in a subprocess.

Used to cross-check the rules core against other programs and to pit engines against each other.
A reader thread feeds the engine's answers into a queue, so that every command can time out;
another keeps the tail of its stderr for the error messages. Commands may carry ids, checked
against the answers. `verify_sync` compares the engine's position with a tengen `Game`, so a
controller notices a lost sync at once instead of many moves later.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from types import TracebackType

from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import Point, from_gtp, name
from tengen.core.game import Game
from tengen.core.rules import Ruleset
from tengen.process import LineProcess, ProgramDied, ProgramError, ProgramTimeout

KGS_RULES = ("japanese", "chinese", "aga", "new_zealand")
BUSY_WAIT = 1.0  # seconds a busy engine has to exit on its closed input before it is killed


class GtpClientError(ProgramError):
    """Anything that went wrong talking to a GTP engine."""


class GtpEngineError(GtpClientError):
    """The engine answered ``?``: it refused or failed the command."""

    def __init__(self, command: str, message: str) -> None:
        self.command = command
        self.message = message
        super().__init__(f"engine refused {command!r}: {message}")


class GtpTimeout(GtpClientError, ProgramTimeout):
    """No complete answer came within the timeout; a late answer is skipped when it arrives."""


class GtpEngineDied(GtpClientError, ProgramDied):
    """The engine exited, or closed its output, before answering."""


class GtpClient:
    """A GTP engine running as a subprocess of `argv`, spoken to one command at a time."""

    def __init__(
        self,
        argv: list[str],
        timeout: float = 30.0,
        *,
        cwd: str | None = None,
        ids: bool = False,
    ) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.ids = ids
        self._next_id = 1
        self._commands: frozenset[str] | None = None
        self._proc = LineProcess(self.argv, cwd=cwd)
        self._late = 0  # answers owed to commands that timed out, to be skipped
        self._asked = False  # a command was sent whose answer has not been read
        self._eof = False

    # -- public ------------------------------------------------------------------------------

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command and return the answer's text without ``=`` and the blank line.

        Raises GtpEngineError on a ``?`` answer, GtpTimeout after `timeout` seconds (default:
        the client's), GtpEngineDied if the engine is gone.
        """
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line: {command!r}")
        if self._eof or self._proc.returncode is not None:
            raise self._died(command)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        ident = ""
        if self.ids:
            ident, self._next_id = str(self._next_id), self._next_id + 1
        try:
            self._proc.write(f"{ident} {command}\n" if ident else command + "\n")
        except (OSError, ValueError):
            raise self._died(command) from None
        self._asked = True  # until the answer is read: an interrupted wait leaves it set
        while self._late:
            self._read_answer(command, deadline)
            self._late -= 1
        ok, text, got = self._read_answer(command, deadline)
        self._asked = False
        if ident and got != ident:
            raise GtpClientError(f"{self.argv[0]}: answer id {got!r} to command id {ident}")
        if not ok:
            raise GtpEngineError(command, text)
        return text

    def stream(
        self,
        command: str,
        on_line: Callable[[str], bool],
        timeout: float | None = None,
        stop_with: str = "protocol_version",
    ) -> None:
        """Send a command whose answer streams lines until the next command arrives
        (``kata-analyze``, ``lz-analyze``): give `on_line` each line after the ``=`` until it
        returns False or the engine ends the answer, then send `stop_with` to end the stream
        and read its answer. `timeout` (default: the client's) bounds the wait for each line.

        Raises GtpEngineError on a ``?`` answer, GtpTimeout, GtpEngineDied.
        """
        if self.ids:
            raise ValueError("streamed answers are read without command ids")
        wait = self.timeout if timeout is None else timeout
        if self._eof or self._proc.returncode is not None:
            raise self._died(command)
        if self._late:
            raise GtpTimeout(f"{self.argv[0]}: still busy with a command that timed out")
        try:
            self._proc.write(command + "\n")
        except (OSError, ValueError):
            raise self._died(command) from None
        self._asked = True
        first = self._stream_line(command, wait)
        while not first.strip():
            first = self._stream_line(command, wait)
        if first.startswith("?"):
            self._stream_line(command, wait)  # the blank line that ends the error
            self._asked = False
            raise GtpEngineError(command, first[1:].strip())
        if not first.startswith("="):
            raise GtpClientError(f"{self.argv[0]}: answer to {command!r} starts with {first!r}")
        rest = first[1:].strip()
        going, ended = not rest or on_line(rest), False
        while going:
            line = self._stream_line(command, wait)
            if not line:
                ended = True  # the engine ended the answer itself
                break
            going = on_line(line)
        try:
            self._proc.write(stop_with + "\n")
        except (OSError, ValueError):
            raise self._died(command) from None
        while not ended and self._stream_line(command, wait):
            pass  # the rest of the stream, up to the blank line that ends it
        self._read_answer(stop_with, time.monotonic() + wait)
        self._asked = False

    def _stream_line(self, command: str, wait: float) -> str:
        """The next line of a streamed answer, line end removed."""
        try:
            line = self._proc.readline(time.monotonic() + wait)
        except TimeoutError:
            self._late += 1
            raise GtpTimeout(f"{self.argv[0]}: {command!r} went quiet for {wait:g} s") from None
        if line is None:
            self._eof = True
            raise self._died(command)
        return line.rstrip("\r\n")

    def known(self, command: str) -> bool:
        """True if the engine lists `command` (``list_commands`` is asked once)."""
        if self._commands is None:
            self._commands = frozenset(self.send("list_commands").split())
        return command in self._commands

    def stones(self, game: Game) -> dict[Point, Color]:
        """The engine's stones on `game`'s board: ``list_stones`` where known, else a parsed
        ``showboard``. Raises GtpClientError if neither can be read."""
        w, h = game.width, game.height
        if self.known("list_stones"):
            found: dict[Point, Color] = {}
            for color in Color:
                for vertex in self.send(f"list_stones {color.name.lower()}").split():
                    point = from_gtp(vertex, w, h)
                    if point is not None:
                        found[point] = color
            return found
        return parse_showboard(self.send("showboard"), w, h)

    def verify_sync(self, game: Game) -> str | None:
        """Compare the engine's stones (and komi, where it tells it) with `game`: None when
        they agree, else the first difference in reading order, e.g. ``D4: tengen has black,
        the engine has empty``."""
        ours = {p: c for p in game.board.points() if (c := game.board[p]) is not None}
        theirs = self.stones(game)
        for p in sorted(ours.keys() | theirs.keys(), key=lambda p: (p.row, p.col)):
            mine, its = ours.get(p), theirs.get(p)
            if mine != its:
                where = name(p, game.width, game.height)
                return f"{where}: tengen has {_stone(mine)}, the engine has {_stone(its)}"
        if self.known("get_komi"):
            komi = float(self.send("get_komi"))
            if komi != game.ruleset.komi:
                return f"komi: tengen has {game.ruleset.komi}, the engine has {komi}"
        return None

    def set_rules(self, ruleset: Ruleset) -> str | None:
        """Tell the engine the rules with ``kata-set-rules`` or ``kgs-rules``, whichever it
        lists (KataGo's first); the command sent, or None when it knows neither."""
        if self.known("kata-set-rules"):
            rules = json.loads(ruleset.to_json())
            del rules["komi"]  # KataGo refuses it there ("Unknown rules option: komi")
            command = f"kata-set-rules {json.dumps(rules, separators=(',', ':'))}"
        elif self.known("kgs-rules"):
            kgs = ruleset.name.replace("-", "_")
            command = f"kgs-rules {kgs if kgs in KGS_RULES else 'chinese'}"
        else:
            return None
        self.send(command)
        return command

    def set_time(self, control: TimeControl) -> str:
        """Send the time system: ``kgs-time_settings`` where listed, else ``time_settings``
        (byo-yomi as one-stone Canadian periods; Fischer as absolute, kept right by
        `time_left`). Returns the command sent."""
        c = control
        main, period = int(c.main), int(c.period)
        if self.known("kgs-time_settings") and c.system != "fischer":
            args = {
                "absolute": f"absolute {main}",
                "byoyomi": f"byoyomi {main} {period} {c.periods}",
                "canadian": f"canadian {main} {period} {c.stones}",
            }[c.system]
            command = f"kgs-time_settings {args}"
        elif c.system == "byoyomi":
            command = f"time_settings {main} {period} 1"
        elif c.system == "canadian":
            command = f"time_settings {main} {period} {c.stones}"
        else:
            command = f"time_settings {main} 0 0"
        self.send(command)
        return command

    def time_left(self, color: Color, clock: Clock) -> None:
        """Send ``time_left`` for `color` from its clock."""
        seconds, stones = clock.gtp_time_left()
        self.send(f"time_left {color.name.lower()} {seconds} {stones}")

    def close(self, timeout: float = 5.0) -> None:
        """Say ``quit``, wait up to `timeout` seconds for the engine to exit, then kill it.

        An engine still busy with a command (one that timed out, or whose wait was interrupted)
        would read ``quit`` only when done: it gets `BUSY_WAIT` seconds to end on its closed
        input instead.
        """
        busy = self._late > 0 or self._asked
        if not busy and self._proc.returncode is None and not self._eof:
            with contextlib.suppress(GtpClientError):
                self.send("quit", timeout=timeout)
        self._proc.stop(BUSY_WAIT if busy else timeout)

    @property
    def returncode(self) -> int | None:
        """The engine's exit status, or None while it runs."""
        return self._proc.returncode

    def __enter__(self) -> GtpClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------

    def _read_answer(self, command: str, deadline: float) -> tuple[bool, str, str]:
        """One whole answer: (True, text, id) for ``=``, (False, message, id) for ``?``."""
        lines: list[str] = []
        while True:
            try:
                line = self._proc.readline(deadline)
            except TimeoutError:
                self._late += 1
                raise GtpTimeout(
                    f"{self.argv[0]}: no complete answer to {command!r} within the timeout"
                ) from None
            if line is None:
                self._eof = True
                raise self._died(command)
            line = line.rstrip("\r\n")
            if not lines and not line.strip():
                continue  # blank lines between answers
            if lines and not line:
                break
            lines.append(line)
        first = lines[0]
        if first[0] not in "=?":
            raise GtpClientError(f"{self.argv[0]}: answer to {command!r} starts with {first!r}")
        rest = first[1:]
        ident = rest[: len(rest) - len(rest.lstrip("0123456789"))]
        lines[0] = rest[len(ident) :].lstrip()
        return first[0] == "=", "\n".join(lines), ident

    def _died(self, command: str) -> GtpEngineDied:
        return GtpEngineDied(self._proc.died(command))


def parse_showboard(text: str, width: int, height: int) -> dict[Point, Color]:
    """The stones of a ``showboard`` diagram (rows numbered from the bottom; ``X`` black,
    ``O`` white). Raises GtpClientError unless every row of the board is found."""
    found: dict[Point, Color] = {}
    rows: set[int] = set()
    for line in text.splitlines():
        words = line.split()
        cells = words[1 : width + 1]
        if not (words and words[0].isdigit() and 1 <= int(words[0]) <= height):
            continue
        if len(cells) != width or any(c not in ".+XO#@" for c in cells):
            continue
        row = height - int(words[0])
        rows.add(row)
        for col, cell in enumerate(cells):
            if cell in "X#@":
                found[Point(col, row)] = Color.BLACK
            elif cell == "O":
                found[Point(col, row)] = Color.WHITE
    if len(rows) != height:
        raise GtpClientError(f"showboard shows {len(rows)} of the {height} rows")
    return found


def _stone(color: Color | None) -> str:
    return "empty" if color is None else color.name.lower()
