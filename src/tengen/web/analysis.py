"""The AI's view of a Go game in the web app: one position's analysis, or a win-rate graph.

Each game has one `Analyst`, which runs at most one job at a time on a thread of its own:
the analysis of the position shown (win rate, best moves with their visits, ownership), or
the win rate after every move of the current line (the review graph). A job works on its own
copy of the game, taken under the session's lock in a moment, so the game's other requests
never wait for a search (which runs outside the GIL). Each job has a search of its own,
closed when it ends, except the built-in search of the last position analysed: the app keeps
that one (`PausedSearch`, one for all games, as a tree can take hundreds of MB), so that
analysing the same position again resumes it, its visits adding up as in Lizzie or KaTrain.

The graph is written into the record as it grows (`review_line`: ``SBKV`` and ``SBKS`` on
each node), and saved when its job ends; once the whole line is done, each move's points lost
and better move go in a block of its comment. So the graph comes back after a restart, and
shows in Sabaki; a record analysed there shows here.
Progress goes to the game's websocket listeners as ``{"analysis": view}`` or ``{"graph":
view}`` messages; the last view of each is kept for pages that ask. A job ends when its
budget is spent, when the user stops it, when another job starts, or (a position's
analysis) when the position shown changes.
"""

from __future__ import annotations

import contextlib
import copy
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from tengen.ai.analysis import Analyser, Analysis
from tengen.analysis.engine import EngineError
from tengen.analysis.position import Position
from tengen.analysis.review import LEAD, WINRATE, GameReview, annotate, judge
from tengen.core.game import Game
from tengen.sgf import Node, parse, serialise
from tengen.sgf.cursor import Cursor
from tengen.web.analysis_view import position_key, position_view
from tengen.web.engines import BUILTIN, Engines, SharedEngine
from tengen.web.review_line import (
    graph_point,
    has_move,
    line_through,
    position_at,
    positions,
    reviewable,
    saved_graph,
    with_lines,
)
from tengen.web.seats import BadRequest, Conflict
from tengen.web.session import GameSession
from tengen.web.sessions import AnySession

DEFAULT_SECONDS = 15.0
GRAPH_PLAYOUTS = 300  # per position of the graph: enough for its shape, quick on 2 cores
REPORT_EVERY = 0.5  # seconds between progress messages
TICK = 0.1  # seconds between the search's progress calls: how soon Stop takes effect
BUILTIN_NAME = "tengen (built-in)"  # how the record's review comments name it
ENGINE_VISITS = 1_000_000  # an engine's visits when only seconds bound its search


class ClosableAnalyser(Analyser, Protocol):
    """An analyser that holds threads or memory until closed (`tengen.ai.mcts.MctsPlayer`)."""

    def close(self) -> None:
        """Free what the search holds."""
        ...


@dataclass(frozen=True)
class Budget:
    """How long one search may run: seconds, playouts, or both (whichever ends first)."""

    seconds: float | None = None
    playouts: int | None = None


class Analyst:
    """The analysis jobs of one Go game; `send` gets every progress message."""

    def __init__(
        self,
        session: GameSession,
        make_analyser: Callable[[], ClosableAnalyser],
        send: Callable[[dict[str, Any]], None],
        engines: Engines | None = None,
        paused: PausedSearch | None = None,
    ) -> None:
        self.session = session
        self._engines = engines or Engines({})
        self._paused = paused or PausedSearch()
        self.position: dict[str, Any] | None = None
        self.graph: dict[str, Any] | None = None
        self._make_analyser = make_analyser
        self._send = send
        self._lock = threading.Lock()  # one start or stop at a time
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def view(self) -> dict[str, Any]:
        """The last view of each kind of job (None where none ran); while no graph runs, the
        graph saved in the record for the line shown, where there is one."""
        graph = self.graph
        if graph is None or not (graph["running"] or "error" in graph):
            with self.session.lock:
                saved = saved_graph(self.session.cursor.node)
            graph = with_lines(saved, graph) if saved is not None else graph
        position = self.position
        if position is not None and not position["running"] and "error" not in position:
            position = {**position, "resumable": self._paused.holds(self, position["key"])}
        return {"analysis": position, "graph": graph}

    def start_position(
        self, budget: Budget, token: str | None, engine: str = BUILTIN
    ) -> dict[str, Any]:
        """Analyse the position shown within the budget, with the built-in search or a named
        analysis engine; the built-in search resumes where it was paused on this position.
        Raises Forbidden unless the token holds every person's seat (a seat
        of a game between two people analyses a copy), BadRequest for an unknown engine."""
        session = self.session
        with session.lock:
            session._require_all(token)
            node = session.cursor.node
            game = _search_copy(session.cursor.game)
            position = None if engine == BUILTIN else position_at(node)
        key = position_key(game)
        if position is not None:
            shared = self._engines.get(engine)
            self._start_engine(
                "analysis",
                {"running": True, "key": key, "visits": 0, "moves": [], "engine": engine},
                lambda stop: self._engine_position(shared, position, key, budget, node, stop),
            )
            return self.view()

        def job(analyser: ClosableAnalyser, stop: threading.Event) -> None:
            reported = -math.inf

            def progress(analysis: Analysis) -> bool:
                nonlocal reported
                going = not stop.is_set() and session.cursor.node is node
                if going and time.monotonic() - reported >= REPORT_EVERY:
                    self._report("analysis", position_view(analysis, key, True))
                    reported = time.monotonic()
                return going

            result = analyser.analyse(
                game,
                seconds=budget.seconds,
                playouts=budget.playouts,
                progress=progress,
                interval=TICK,
            )
            self._report("analysis", position_view(result, key, False))

        self._start("analysis", {"running": True, "key": key, "visits": 0, "moves": []}, job, key)
        return self.view()

    def start_graph(
        self, budget: Budget, token: str | None, engine: str = BUILTIN
    ) -> dict[str, Any]:
        """Find Black's win rate after every move of the current line (and at its start),
        with `budget` for each position, by the built-in search or a named engine (all the
        line's positions in one request, KataGo's efficient path). Raises Forbidden unless
        the token holds every person's seat, BadRequest for an unknown engine."""
        session = self.session
        with session.lock:
            session._require_all(token)
            record = serialise(session.tree)
            line = line_through(session.cursor.node)
            steps = line[-1].path  # the child index of each node after the root
            position = reviewable(line[-1])
        if engine != BUILTIN and position is None:
            raise BadRequest("this line has setup stones after its first move: no engine takes it")
        total = positions(line)
        points: list[dict[str, Any]] = []
        analyses: dict[int, Analysis] = {}
        if engine != BUILTIN and position is not None:
            shared = self._engines.get(engine)
            self._start_engine(
                "graph",
                {"running": True, "total": total, "points": [], "engine": engine},
                lambda stop: self._engine_graph(shared, position, line, budget, stop),
            )
            return self.view()

        def job(analyser: ClosableAnalyser, stop: threading.Event) -> None:
            cursor = Cursor(parse(record).games[0])
            try:
                for node, step in zip(line, [None, *steps], strict=True):
                    if step is not None:
                        cursor.forward(step)
                        if not has_move(node):
                            continue
                    if stop.is_set():
                        break
                    result = analyser.analyse(
                        _search_copy(cursor.game),
                        seconds=budget.seconds,
                        playouts=budget.playouts,
                        progress=lambda _: not stop.is_set(),
                        interval=TICK,
                    )
                    point = graph_point(cursor.move_number, result)
                    points.append(point)
                    analyses[cursor.move_number] = result
                    with session.lock:
                        node.properties[WINRATE] = [f"{100 * point['black_winrate']:.2f}"]
                        node.properties[LEAD] = [f"{point['black_lead']:.2f}"]
                    self._report("graph", {"running": True, "total": total, "points": list(points)})
            finally:
                if points:
                    with session.lock:
                        if position is not None and len(analyses) == total:
                            visits = budget.playouts or 0
                            self._annotate(
                                line, position, judge(BUILTIN_NAME, visits, position, analyses)
                            )
                        session.save()
            self._report("graph", {"running": False, "total": total, "points": points})

        self._start("graph", {"running": True, "total": total, "points": []}, job)
        return self.view()

    def stop(self, token: str | None) -> dict[str, Any]:
        """Stop the running job (its last view stays). Raises Forbidden as `start_position`."""
        with self.session.lock:
            self.session._require_all(token)
        self._halt()
        return self.view()

    def close(self) -> None:
        """Stop the running job (its search is freed as it ends) and free a paused search."""
        self._halt()
        self._paused.drop(self)

    def resumable_lost(self) -> None:
        """Tell the pages that the paused search of this game was freed (another game's
        took its place): analysing again starts afresh."""
        if self.position is not None and self.position.get("resumable"):
            self._report("analysis", {**self.position, "resumable": False})

    def _start(
        self,
        kind: str,
        initial: dict[str, Any],
        job: Callable[[ClosableAnalyser, threading.Event], None],
        key: str | None = None,
    ) -> None:
        """Stop the running job, report `initial` and run `job` on a thread of its own, with
        the search paused on position `key` if there is one, else a new one; a position's
        search is kept, paused, when its job ends."""
        with self._lock:
            self._halt_locked()
            self._report(kind, initial)
            kept = None if key is None else self._paused.take(self, key)
            analyser, stop = kept or self._make_analyser(), threading.Event()
            self._paused.drop(self)  # another job: the paused search is of no more use
            self._stop = stop

            def run() -> None:
                failed = False
                try:
                    job(analyser, stop)
                except Exception as err:  # a failed search must not take the app down
                    failed = True
                    self._report(kind, {"running": False, "error": f"{type(err).__name__}: {err}"})
                finally:
                    if key is None or failed:
                        analyser.close()
                    else:
                        self._paused.keep(self, key, analyser)
                        if self.position is not None and self.position.get("key") == key:
                            self._report("analysis", {**self.position, "resumable": True})

            self._thread = threading.Thread(target=run, name=f"analysis-{self.session.id}")
            self._thread.start()

    def _start_engine(
        self, kind: str, initial: dict[str, Any], job: Callable[[threading.Event], None]
    ) -> None:
        """Stop the running job, report `initial` and run an engine's `job` on its thread;
        an engine that fails, hangs past its timeout or answers nonsense ends the job with
        its message (the app goes on)."""
        with self._lock:
            self._halt_locked()
            self._report(kind, initial)
            stop = self._stop = threading.Event()

            def run() -> None:
                try:
                    job(stop)
                except (EngineError, ValueError, OSError) as err:
                    self._report(kind, {"running": False, "error": str(err), **_named(initial)})

            self._thread = threading.Thread(target=run, name=f"analysis-{self.session.id}")
            self._thread.start()

    def _engine_position(
        self,
        shared: SharedEngine,
        position: Position,
        key: str,
        budget: Budget,
        node: Node,
        stop: threading.Event,
    ) -> None:
        """One position on an analysis engine, reported as it goes."""
        reported = -math.inf
        named = {"engine": shared.name}

        def update(analysis: Analysis) -> None:
            nonlocal reported
            if self.session.cursor.node is not node:
                stop.set()
            elif not stop.is_set() and time.monotonic() - reported >= REPORT_EVERY:
                self._report("analysis", {**position_view(analysis, key, True), **named})
                reported = time.monotonic()

        with shared.use() as engine, _deadline(budget.seconds, stop):
            result = engine.analyse(position, _visits(budget), update=update, stop=stop)
        self._report("analysis", {**position_view(result, key, False), **named})

    def _engine_graph(
        self,
        shared: SharedEngine,
        position: Position,
        line: list[Node],
        budget: Budget,
        stop: threading.Event,
    ) -> None:
        """Every position of the line on an analysis engine, written into the record."""
        nodes = [line[0], *filter(has_move, line[1:])]
        total = len(nodes)
        found: dict[int, dict[str, Any]] = {}
        analyses: dict[int, Analysis] = {}
        named = {"engine": shared.name}
        try:
            with shared.use() as engine:
                turns = range(len(position.moves) + 1)
                for turn, result in engine.analyse_line(
                    position, turns, _visits(budget), stop=stop
                ):
                    found[turn] = graph_point(turn, result)
                    analyses[turn] = result
                    with self.session.lock:
                        node = nodes[turn].properties
                        node[WINRATE] = [f"{100 * found[turn]['black_winrate']:.2f}"]
                        node[LEAD] = [f"{found[turn]['black_lead']:.2f}"]
                    points = [found[t] for t in sorted(found)]
                    self._report(
                        "graph", {"running": True, "total": total, "points": points, **named}
                    )
        finally:
            if found:
                with self.session.lock:
                    if len(analyses) == total:
                        review = judge(shared.name, _visits(budget), position, analyses)
                        self._annotate(line, position, review)
                    self.session.save()
        points = [found[t] for t in sorted(found)]
        self._report("graph", {"running": False, "total": total, "points": points, **named})

    def _annotate(self, line: list[Node], position: Position, review: GameReview) -> None:
        """Write a finished graph's review into the record as `tengen analyze` does: each
        move's values, and its points lost and better move in a block of its comment (the
        person's own words kept). Called under the session's lock."""
        annotate(line[0], [n for n in line[1:] if has_move(n)], review, position.height)

    def _halt(self) -> None:
        with self._lock:
            self._halt_locked()

    def _halt_locked(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _report(self, kind: str, view: dict[str, Any]) -> None:
        """Keep the view and send it to the game's pages."""
        if kind == "analysis":
            self.position = view
        else:
            self.graph = view
        self._send({kind: view})


def _search_copy(game: Game) -> Game:
    """A copy of `game` for a search to play in: the records' permissive replay off."""
    copied = copy.deepcopy(game)
    copied.permissive = False
    return copied


def _visits(budget: Budget) -> int:
    """An engine's visits for `budget` (seconds alone end the search with `_deadline`)."""
    return budget.playouts or ENGINE_VISITS


@contextlib.contextmanager
def _deadline(seconds: float | None, stop: threading.Event) -> Iterator[None]:
    """Set `stop` after `seconds` (an engine's search is bounded by visits, not time)."""
    timer = None if seconds is None else threading.Timer(seconds, stop.set)
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()


def _named(view: dict[str, Any]) -> dict[str, Any]:
    return {"engine": view["engine"]} if "engine" in view else {}


class PausedSearch:
    """The built-in search of the last position analysed in the app, kept paused so that
    analysing it again resumes it. One for the whole app: keeping another frees this one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: tuple[Analyst, str, ClosableAnalyser] | None = None

    def keep(self, owner: Analyst, key: str, analyser: ClosableAnalyser) -> None:
        """Keep `owner`'s search of position `key`, freeing the one held before."""
        with self._lock:
            old, self._held = self._held, (owner, key, analyser)
        if old is not None:
            old[2].close()
            if old[0] is not owner:
                old[0].resumable_lost()

    def holds(self, owner: Analyst, key: str) -> bool:
        """Whether `owner`'s search of `key` is kept."""
        with self._lock:
            return self._held is not None and self._held[:2] == (owner, key)

    def take(self, owner: Analyst, key: str) -> ClosableAnalyser | None:
        """`owner`'s search of `key`, no longer kept here, or None."""
        with self._lock:
            held = self._held
            if held is None or held[:2] != (owner, key):
                return None
            self._held = None
            return held[2]

    def drop(self, owner: Analyst) -> None:
        """Free `owner`'s kept search, if it has one."""
        with self._lock:
            held = self._held
            if held is None or held[0] is not owner:
                return
            self._held = None
        held[2].close()


class Analysts:
    """The analysts of one app's games, made on first use; `close` stops them all."""

    def __init__(
        self, make_analyser: Callable[[], ClosableAnalyser], engines: Engines | None = None
    ) -> None:
        self._make_analyser = make_analyser
        self.engines = engines or Engines({})
        self._paused = PausedSearch()
        self._open: dict[str, Analyst] = {}
        self._lock = threading.Lock()

    def get(self, session: AnySession) -> Analyst:
        """The analyst of a Go game. Raises Conflict for a Gomoku game."""
        if not isinstance(session, GameSession):
            raise Conflict("analysis is for Go games")
        with self._lock:
            old = self._open.get(session.id)
            if old is not None and old.session is session:
                return old
            analyst = self._open[session.id] = Analyst(
                session, self._make_analyser, session.broadcast, self.engines, self._paused
            )
        if old is not None:  # the game was deleted and made again under its id
            old.close()
        return analyst

    def close(self) -> None:
        """Stop every job and free every search."""
        with self._lock:
            analysts, self._open = list(self._open.values()), {}
        for analyst in analysts:
            analyst.close()
        self.engines.close()
