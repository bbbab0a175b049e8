"""The app's analysis engines: each a command line run on first use, one job at a time.

Some come from the command line (``tengen serve --analysis-engine NAME=CMD``) and stay as
given; the others are set in the app's settings and kept in the games file, so they are there
after a restart. Settings run programs on the server's machine, so only a person at that
machine may change them (`settings_allowed`): the request must come from a loopback address
to a loopback host name (which a page of another site, even one whose name resolves to
127.0.0.1, cannot send from a browser), and the server must not have been started with
``--no-engine-settings``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import shlex
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tengen.analysis.engine import Engine, EngineError
from tengen.analysis.open import open_engine
from tengen.web.schemas import MAX_COMMAND
from tengen.web.seats import BadRequest, Conflict, NotFound
from tengen.web.store import Store, StoredEngine

BUILTIN = "builtin"  # the name of the built-in search among the analysis engines
ENGINE_NAME = re.compile(r"[\w.-]{1,40}")
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}


class SharedEngine:
    """One analysis engine of the app, started on first use and used by one job at a time
    (the others wait their turn)."""

    def __init__(self, name: str, command: str, cwd: str | None = None) -> None:
        self.name = name
        self.command = command
        self.cwd = cwd
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def use(self) -> Iterator[Engine]:
        """The engine, started if need be, for one job; a failure closes it (the next job
        starts it again). Raises EngineError or ValueError if it cannot start."""
        with self._lock:
            if self._engine is None:
                self._engine = open_engine(self.command, cwd=self.cwd)
            try:
                yield self._engine
            except EngineError:
                self._close_locked()
                raise

    def close(self) -> None:
        """End the engine's program (after the job using it, if one is)."""
        with self._lock:
            self._close_locked()

    def _close_locked(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None


class Engines:
    """The app's analysis engines by name: the command line's (each run in its folder from
    `folders`, if it has one), then the settings' (kept in `store`, when there is one)."""

    def __init__(
        self,
        commands: dict[str, str],
        store: Store | None = None,
        folders: dict[str, str] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._store = store
        self._fixed = set(commands)
        self._shared = {
            name: SharedEngine(name, cmd, (folders or {}).get(name))
            for name, cmd in commands.items()
        }
        for kept in store.engines() if store is not None else []:
            if kept.name not in self._shared and kept.name != BUILTIN:
                self._shared[kept.name] = SharedEngine(kept.name, kept.command, kept.cwd or None)

    @property
    def names(self) -> list[str]:
        """The built-in search first, then the configured engines."""
        with self._lock:
            return [BUILTIN, *self._shared]

    def get(self, name: str) -> SharedEngine:
        """The engine called `name`. Raises BadRequest naming the ones there are."""
        with self._lock:
            shared = self._shared.get(name)
        if shared is None:
            known = ", ".join(self.names)
            raise BadRequest(f"no analysis engine {name!r} (there are: {known})")
        return shared

    def describe(self) -> list[dict[str, Any]]:
        """Each engine but the built-in one: name, command, folder and where it was set."""
        with self._lock:
            return [
                {
                    "name": e.name,
                    "command": e.command,
                    "cwd": e.cwd or "",
                    "source": "command line" if e.name in self._fixed else "settings",
                }
                for e in self._shared.values()
            ]

    def put(self, name: str, command: str, cwd: str) -> None:
        """Set an engine from the settings: a new one, or a new command for one set there
        before (its running program ends once its job is done). Raises BadRequest for a
        name, command or folder that cannot work (`check_engine`), Conflict for the name of
        one from the command line."""
        check_engine(name, command, cwd)
        with self._lock:
            if name in self._fixed:
                raise Conflict(f"{name!r} is set on the server's command line: not here")
            old = self._shared.get(name)
            self._shared[name] = SharedEngine(name, command, cwd or None)
            if self._store is not None:
                self._store.save_engine(StoredEngine(name, command, cwd))
        if old is not None:
            _retire(old)

    def remove(self, name: str) -> None:
        """Forget an engine set in the settings (its program ends once its job is done).
        Raises NotFound, or Conflict for one from the command line."""
        with self._lock:
            if name in self._fixed:
                raise Conflict(f"{name!r} is set on the server's command line: not here")
            old = self._shared.pop(name, None)
            if old is None:
                raise NotFound(f"no analysis engine {name!r} in the settings")
            if self._store is not None:
                self._store.delete_engine(name)
        _retire(old)

    def close(self) -> None:
        """End every engine's program."""
        with self._lock:
            engines = list(self._shared.values())
        for shared in engines:
            shared.close()


def _retire(shared: SharedEngine) -> None:
    """End an engine no longer offered, on a thread of its own: a job may still use it."""
    threading.Thread(target=shared.close, name=f"retire-{shared.name}", daemon=True).start()


def check_engine(name: str, command: str, cwd: str) -> None:
    """Refuse with BadRequest, naming what is wrong, an engine that cannot be run: a name
    other than letters, digits and ``-_.`` (or ``builtin``), a command line that does not
    split into words or names no program (on the PATH, or a file from the folder), a folder
    that is not one (relative paths are not taken: the server's own folder is no one's)."""
    if not ENGINE_NAME.fullmatch(name) or name == BUILTIN:
        raise BadRequest(f"name: letters, digits and -_. (1 to 40), not 'builtin': {name!r}")
    if cwd and not (Path(cwd).is_absolute() and Path(cwd).is_dir()):
        raise BadRequest(f"cwd: {cwd!r} is not a folder given from the root")
    if len(command) > MAX_COMMAND:
        raise BadRequest(f"command: over {MAX_COMMAND} characters")
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise BadRequest(f"command: {err}") from None
    if not argv:
        raise BadRequest("command: empty")
    program = argv[0]
    if os.sep in program:
        path = Path(cwd or ".") / program if not Path(program).is_absolute() else Path(program)
        found = path.is_file() and os.access(path, os.X_OK)
    else:
        found = shutil.which(program) is not None
    if not found:
        raise BadRequest(f"command: no program {program!r} to run")


def settings_allowed(client: str | None, host: str | None, origin: str | None) -> bool:
    """Whether a request may change the engines: from a loopback address (`client`), to a
    loopback host name (the Host header: a page of another site whose name points here
    sends its own), and from a page of this very server if it says where it comes from."""
    if client is None or host is None:
        return False
    try:
        if not ipaddress.ip_address(client).is_loopback:
            return False
    except ValueError:
        return False
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if name not in LOOPBACK_NAMES:
        return False
    return origin is None or origin.split("://", 1)[-1] == host
