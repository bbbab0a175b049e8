"""`tengen analysis`: KataGo's JSON analysis protocol on stdin/stdout, answered by any `Engine`
(the built-in search by default), so that KaTrain and other tools can use tengen as their engine.

Queries are read as they come, by a thread of their own, while one worker searches the queued
turns one at a time, highest ``priority`` first and then in arrival order. ``terminate`` and
``terminate_all`` drop queued turns (each answered with ``noResults``) and stop a running
search, which reports what it has. At the end of the input the queued turns are finished, as
KataGo does, and the command ends.
"""

from __future__ import annotations

import heapq
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from tengen import __version__
from tengen.ai.analysis import Analysis
from tengen.analysis.engine import Engine, EngineError
from tengen.analysis.position import Position
from tengen.analysis.protocol import Query, QueryError, error, policy_of, read_query, result

MAX_LINE = 10_000_000  # characters of one query line


@dataclass(order=True)
class _Task:
    """One turn of one query, ordered as the worker takes them."""

    key: tuple[int, int]  # (-priority, arrival)
    query: Query = field(compare=False)
    turn: int = field(compare=False)
    stop: threading.Event = field(compare=False, default_factory=threading.Event)


class AnalysisServer:
    """Answers the protocol's lines with `engine`, writing results to `sink`."""

    def __init__(self, engine: Engine, sink: TextIO) -> None:
        self.engine = engine
        self._sink = sink
        self._write_lock = threading.Lock()
        self._lock = threading.Condition()
        self._queue: list[_Task] = []
        self._running: _Task | None = None
        self._arrivals = itertools.count()
        self._closing = False

    def run(self, source: TextIO) -> None:
        """Answer every line of `source`; return once the input has ended and the queued
        turns are done."""
        worker = threading.Thread(target=self._work, name="tengen-analysis", daemon=True)
        worker.start()
        try:
            for line in source:
                self.handle(line)
        finally:
            with self._lock:
                self._closing = True
                self._lock.notify_all()
            worker.join()

    def handle(self, line: str) -> None:
        """One input line: a query or an action."""
        if not line.strip():
            return
        if len(line) > MAX_LINE:
            self._write(error(f"query line longer than {MAX_LINE} characters"))
            return
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            self._write(error(f"could not parse JSON: {err}"))
            return
        ident = data.get("id") if isinstance(data, dict) else None
        if isinstance(data, dict) and "action" in data:
            self._action(data, ident if isinstance(ident, str) else None)
            return
        try:
            query = read_query(data)
        except QueryError as err:
            self._write(error(str(err), ident if isinstance(ident, str) else None, err.field))
            return
        for key, message in query.warnings:
            self._write({"warning": message, "field": key, "id": query.id})
        with self._lock:
            for turn, priority in zip(query.turns, query.priorities, strict=True):
                task = _Task((-priority, next(self._arrivals)), query, turn)
                heapq.heappush(self._queue, task)
            self._lock.notify_all()

    def _action(self, data: dict[str, Any], ident: str | None) -> None:
        action = data["action"]
        if ident is None:
            self._write(error("'id' must be a string", None, "id"))
        elif action == "query_version":
            self._write({**data, "version": __version__, "git_hash": "<omitted>", "name": "tengen"})
        elif action == "clear_cache":
            self._write(data)
        elif action == "query_models":
            name = getattr(self.engine, "name", "tengen")
            self._write({**data, "models": [{"name": name, "internalName": name, "version": 0}]})
        elif action in ("terminate", "terminate_all"):
            target = data.get("terminateId")
            if action == "terminate" and not isinstance(target, str):
                self._write(error("terminate needs a terminateId string", ident, "terminateId"))
                return
            turns = data.get("turnNumbers")
            if turns is not None and not (
                isinstance(turns, list) and all(isinstance(t, int) for t in turns)
            ):
                self._write(error("turnNumbers must be a list of turns", ident, "turnNumbers"))
                return
            self._write(data)
            self._terminate(target if action == "terminate" else None, turns)
        else:
            self._write(error(f"unknown action {action!r}", ident, "action"))

    def _terminate(self, target: str | None, turns: list[int] | None) -> None:
        def hit(task: _Task) -> bool:
            return (target is None or task.query.id == target) and (
                turns is None or task.turn in turns
            )

        with self._lock:
            dropped = [t for t in self._queue if hit(t)]
            self._queue = [t for t in self._queue if not hit(t)]
            heapq.heapify(self._queue)
            if self._running is not None and hit(self._running):
                self._running.stop.set()
        for task in dropped:
            self._write(
                {"id": task.query.id, "isDuringSearch": False, "noResults": True,
                 "turnNumber": task.turn}
            )  # fmt: skip

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closing:
                    self._lock.wait()
                if not self._queue:
                    return
                task = heapq.heappop(self._queue)
                self._running = task
            try:
                self._search(task)
            except (EngineError, ValueError) as err:
                self._write(error(f"{type(err).__name__}: {err}", task.query.id))
            finally:
                with self._lock:
                    self._running = None

    def _search(self, task: _Task) -> None:
        q, turn = task.query, task.turn
        position = q.position.prefix(turn)
        started = time.monotonic()
        reported = started

        def update(analysis: Analysis) -> None:
            nonlocal reported
            now = time.monotonic()
            if q.seconds is not None and now - started >= q.seconds:
                task.stop.set()
            if q.report_every is not None and now - reported >= q.report_every:
                reported = now
                self._write(
                    result(
                        q, turn, analysis, during=True, policy=self._policy(q, analysis, position)
                    )
                )

        analysis = self.engine.analyse(position, q.visits, update=update, stop=task.stop)
        policy = self._policy(q, analysis, position)
        self._write(result(q, turn, analysis, during=False, policy=policy))

    @staticmethod
    def _policy(q: Query, analysis: Analysis, position: Position) -> list[float] | None:
        if not q.policy:
            return None
        legal = position.game().legal_moves(position.to_play, own_eyes=False)
        return policy_of(analysis, legal)

    def _write(self, data: dict[str, Any]) -> None:
        text = json.dumps(data, separators=(",", ":")) + "\n"
        with self._write_lock:
            try:
                self._sink.write(text)
                self._sink.flush()
            except (BrokenPipeError, ValueError):
                pass  # the reader left: the queued work ends with the input
