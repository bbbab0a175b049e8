"""KataGo's JSON analysis engine (``katago analysis -config C -model M``) as an `Engine`.

One query carries a whole game's line with the turns to analyse, and KataGo searches them in
parallel: the efficient path for reviewing games. The program runs through
`tengen.process.LineProcess` (its own process group, stderr kept for the error message);
`tengen analysis` speaks the same protocol, so this class drives either.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from tengen.ai.analysis import Analysis
from tengen.analysis.engine import EngineError, Update
from tengen.analysis.position import Position
from tengen.analysis.protocol import QueryError, query, read_result
from tengen.process import LineProcess

START_TIMEOUT = 300.0  # seconds to load a network and answer the version query
STALL = 300.0  # seconds a search may go without a result
POLL = 0.1  # seconds between looks at the stop event


class JsonAnalyser:
    """The JSON analysis engine run by `argv` (in `cwd`). Raises EngineError if it cannot be
    started or does not answer ``query_version``."""

    def __init__(
        self, argv: list[str], *, cwd: str | None = None, start_timeout: float = START_TIMEOUT
    ) -> None:
        self.argv = list(argv)
        try:
            self._proc = LineProcess(self.argv, cwd=cwd)
        except OSError as err:
            raise EngineError(f"cannot start {argv[0]}: {err}") from None
        self._ids = itertools.count(1)
        try:
            answer = self._ask({"id": "version", "action": "query_version"}, start_timeout)
        except EngineError:
            self._proc.stop(1.0)
            raise
        self.version = str(answer.get("version", "?"))
        self.name = f"{answer.get('name', argv[0])} {self.version}"

    def analyse(
        self,
        position: Position,
        visits: int,
        *,
        update: Update | None = None,
        stop: threading.Event | None = None,
    ) -> Analysis:
        """The last turn of `position`; `update` sees the reports during the search."""
        turn = len(position.moves)
        for _, analysis in self._run(position, [turn], visits, stop, update):
            return analysis
        raise EngineError(f"{self.name} stopped before analysing the position")

    def analyse_line(
        self,
        position: Position,
        turns: Sequence[int],
        visits: int,
        *,
        stop: threading.Event | None = None,
    ) -> Iterator[tuple[int, Analysis]]:
        """All `turns` in one query; results as KataGo finishes them."""
        return self._run(position, list(turns), visits, stop, None)

    def close(self) -> None:
        """Close the engine's input (it ends when its searches do) and stop it."""
        self._proc.stop(5.0)

    def _run(
        self,
        position: Position,
        turns: list[int],
        visits: int,
        stop: threading.Event | None,
        update: Update | None,
    ) -> Iterator[tuple[int, Analysis]]:
        ident = f"q{next(self._ids)}"
        every = 0.5 if update is not None else None
        self._send(query(ident, position, turns, visits, report_every=every))
        left = set(turns)
        terminated = False
        last = time.monotonic()
        try:
            while left:
                if stop is not None and stop.is_set() and not terminated:
                    self._send({"id": f"{ident}-stop", "action": "terminate", "terminateId": ident})
                    terminated = True
                data = self._read(time.monotonic() + POLL, ident)
                if data is None:
                    if time.monotonic() - last > STALL:
                        raise EngineError(f"{self.name}: no result for {STALL:g} s")
                    continue
                last = time.monotonic()
                if data.get("id") != ident or "action" in data:
                    continue  # an acknowledgement, or a late result of an earlier query
                if "warning" in data:
                    continue
                if data.get("noResults"):
                    left.discard(int(data.get("turnNumber", -1)))
                    continue
                try:
                    turn, analysis = read_result(data, position)
                except QueryError as err:
                    raise EngineError(f"{self.name}: {err}") from None
                if data.get("isDuringSearch"):
                    if update is not None:
                        update(analysis)
                    continue
                left.discard(turn)
                yield turn, analysis
        finally:
            if left and not terminated and self._proc.returncode is None:
                self._send({"id": f"{ident}-stop", "action": "terminate", "terminateId": ident})

    def _ask(self, data: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send an action and wait for its answer."""
        self._send(data)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            answer = self._read(deadline, str(data["id"]))
            if answer is not None and answer.get("id") == data["id"]:
                if "error" in answer:
                    raise EngineError(f"{self.argv[0]}: {answer['error']}")
                return answer
        raise EngineError(f"{self.argv[0]} did not answer {data['action']} in {timeout:g} s")

    def _send(self, data: dict[str, Any]) -> None:
        try:
            self._proc.write(json.dumps(data, separators=(",", ":")) + "\n")
        except (OSError, ValueError):
            raise EngineError(self._proc.died(str(data.get("action", "a query")))) from None

    def _read(self, deadline: float, ident: str) -> dict[str, Any] | None:
        """The next JSON line, or None if none came by `deadline`. Raises EngineError if the
        engine died, said something that is not JSON, or reported an error for `ident`."""
        try:
            line = self._proc.readline(deadline)
        except TimeoutError:
            return None
        if line is None:
            raise EngineError(self._proc.died(f"query {ident}"))
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            raise EngineError(
                f"{self.argv[0]} wrote a line that is not JSON: {line[:200]!r}"
            ) from None
        if not isinstance(data, dict):
            raise EngineError(f"{self.argv[0]} wrote JSON that is not an object: {line[:200]!r}")
        if "error" in data and data.get("id") in (ident, None):
            where = f" (field {data['field']})" if "field" in data else ""
            raise EngineError(f"{self.argv[0]}: {data['error']}{where}")
        return data
