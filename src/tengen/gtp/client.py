"""Drive an external GTP engine (GNU Go, KataGo, another tengen) in a subprocess.

Used to cross-check the rules core against other programs and to pit engines against each other.
A reader thread feeds the engine's answers into a queue, so that every command can time out;
another keeps the tail of its stderr for the error messages.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import subprocess
import threading
import time
from types import TracebackType
from typing import IO

_STDERR_LINES = 20


class GtpClientError(Exception):
    """Anything that went wrong talking to a GTP engine."""


class GtpEngineError(GtpClientError):
    """The engine answered ``?``: it refused or failed the command."""

    def __init__(self, command: str, message: str) -> None:
        self.command = command
        self.message = message
        super().__init__(f"engine refused {command!r}: {message}")


class GtpTimeout(GtpClientError):
    """No complete answer came within the timeout; a late answer is skipped when it arrives."""


class GtpEngineDied(GtpClientError):
    """The engine exited, or closed its output, before answering."""


class GtpClient:
    """A GTP engine running as a subprocess of `argv`, spoken to one command at a time."""

    def __init__(self, argv: list[str], timeout: float = 30.0) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self._process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        assert self._process.stdout is not None and self._process.stderr is not None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._late = 0  # answers owed to commands that timed out, to be skipped
        self._eof = False
        self._threads = [
            threading.Thread(target=self._read_stdout, args=(self._process.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self._process.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    # -- public ------------------------------------------------------------------------------

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command and return the answer's text without ``=`` and the blank line.

        Raises GtpEngineError on a ``?`` answer, GtpTimeout after `timeout` seconds (default:
        the client's), GtpEngineDied if the engine is gone.
        """
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line: {command!r}")
        if self._eof or self._process.poll() is not None:
            raise self._died(command)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(command + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died(command) from None
        while self._late:
            self._read_answer(command, deadline)
            self._late -= 1
        ok, text = self._read_answer(command, deadline)
        if not ok:
            raise GtpEngineError(command, text)
        return text

    def close(self, timeout: float = 5.0) -> None:
        """Say ``quit``, wait up to `timeout` seconds for the engine to exit, then kill it."""
        if self._process.poll() is None and not self._eof:
            with contextlib.suppress(GtpClientError):
                self.send("quit", timeout=timeout)
        try:
            self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        for thread in self._threads:
            thread.join(timeout=1.0)

    @property
    def returncode(self) -> int | None:
        """The engine's exit status, or None while it runs."""
        return self._process.poll()

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

    def _read_answer(self, command: str, deadline: float) -> tuple[bool, str]:
        """One whole answer: (True, text) for ``=``, (False, message) for ``?``."""
        lines: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(remaining, 0.0))
            except queue.Empty:
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
        lines[0] = first[1:].lstrip("0123456789").lstrip()
        return first[0] == "=", "\n".join(lines)

    def _died(self, command: str) -> GtpEngineDied:
        try:
            code = self._process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            code = None
        self._threads[1].join(timeout=1.0)
        status = "closed its output" if code is None else f"exited with status {code}"
        tail = "\n".join(self._stderr)
        detail = f"; stderr ends:\n{tail}" if tail else " (no stderr)"
        return GtpEngineDied(f"{self.argv[0]} {status} before answering {command!r}{detail}")

    def _read_stdout(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_stderr(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._stderr.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
