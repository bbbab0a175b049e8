"""A line-protocol program in a subprocess: what the GTP client and the Gomocup manager share.

Reader threads move the program's output lines into a queue (so a read can time out) and keep
the last lines of its stderr for error messages. The protocol itself (answers, ids, what a
timeout means) belongs to the caller, whose errors derive from `ProgramError`, so that code
driving either kind of program (a match) catches one family.

Each program runs in a session (and process group) of its own, so that Ctrl-C reaches tengen
only, and so that ending it ends everything it started: an engine behind a shell wrapper that
does not ``exec`` is a grandchild, holding the pipes after the wrapper dies. Stopping signals
the whole group, SIGTERM and then SIGKILL after a bounded wait (engines may ignore SIGTERM), and
never closes a pipe another thread reads (a close waits for that read, which a stray holder of
the pipe can keep waiting forever). `kill_all` ends those still running when there is no time
for that. Imports nothing of tengen.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
import weakref
from typing import IO

STDERR_LINES = 20
TERM_WAIT = 1.0  # seconds a program's group has between SIGTERM and SIGKILL
POLL = 0.02  # seconds between looks for a group's end


class ProgramError(Exception):
    """Anything that went wrong talking to a program (each protocol subclasses it)."""


class ProgramTimeout(ProgramError):
    """No complete answer came within the timeout."""


class ProgramDied(ProgramError):
    """The program exited, or closed its output, before answering."""


class LineProcess:
    """A running program spoken to by lines. Raises OSError if it cannot be started."""

    def __init__(self, argv: list[str], *, cwd: str | None = None) -> None:
        self.argv = list(argv)
        self._process = subprocess.Popen(
            self.argv,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            start_new_session=True,
        )
        _started.add(self)
        assert self._process.stdout is not None and self._process.stderr is not None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._threads = [
            threading.Thread(target=self._read_stdout, args=(self._process.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self._process.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @property
    def returncode(self) -> int | None:
        """The exit status, or None while the program runs."""
        return self._process.poll()

    def write(self, text: str) -> None:
        """Send `text` (line ends included). Raises OSError (or ValueError) if the pipe is gone."""
        assert self._process.stdin is not None
        self._process.stdin.write(text)
        self._process.stdin.flush()

    def readline(self, deadline: float) -> str | None:
        """The next output line (line end kept), or None at the end of the output.

        Raises TimeoutError if no line comes before `deadline` (a `time.monotonic` value).
        """
        try:
            return self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            raise TimeoutError from None

    def died(self, command: str) -> str:
        """Why the program did not answer `command`: its exit status (or a closed output) and
        the end of its stderr, as an error message."""
        try:
            code: int | None = self._process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            code = None
        self._threads[1].join(timeout=1.0)
        status = "closed its output" if code is None else f"exited with status {code}"
        return f"{self.argv[0]} {status} before answering {command!r}{self.stderr_tail()}"

    def stderr_tail(self) -> str:
        """The last lines of stderr, ready to end a message."""
        tail = "\n".join(self._stderr)
        return f"; stderr ends:\n{tail}" if tail else " (no stderr)"

    def stop(self, wait: float) -> None:
        """Close the program's input and give it `wait` seconds to exit; then end whatever
        is left of its process group (SIGTERM, then SIGKILL `TERM_WAIT` seconds later).

        Takes at most about `wait` + `TERM_WAIT` + 1 seconds, whatever the program does.
        """
        _close(self._process.stdin)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=wait)
        if self._group_alive():
            self._signal_group(signal.SIGTERM)
            deadline = time.monotonic() + TERM_WAIT
            while self._group_alive() and time.monotonic() < deadline:
                time.sleep(POLL)
            self._signal_group(signal.SIGKILL)
        self._process.wait()
        for thread in self._threads:  # they end at the pipes' end, once the group is gone
            thread.join(timeout=1.0)

    def kill(self) -> None:
        """End the program and everything it started, now."""
        self._signal_group(signal.SIGKILL)

    def _group_alive(self) -> bool:
        """Whether the leader or any other process of the program's group still runs.

        The group's id stays reserved while any member (or the unreaped leader) exists, so
        signalling it never reaches another program's processes.
        """
        if self._process.poll() is None:
            return True
        try:
            os.killpg(self._process.pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def _signal_group(self, signum: int) -> None:
        """Send `signum` to the program's process group, if any of it is left."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signum)

    def _read_stdout(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)
        _close(stream)

    def _read_stderr(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._stderr.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        _close(stream)


_started: weakref.WeakSet[LineProcess] = weakref.WeakSet()


def kill_all() -> None:
    """Kill every program started by this process that still runs (for a process about to
    end at once, which must not leave its engines behind)."""
    for program in list(_started):
        program.kill()


def _close(stream: IO[str] | None) -> None:
    """Close a pipe, if there is one and it still can be (a gone reader: nothing to flush)."""
    if stream is not None:
        with contextlib.suppress(OSError):
            stream.close()
