"""HTTP and WebSocket handlers: JSON in, a session call, JSON out; nothing else.

Every game action answers with the game's state and sends it to the game's websocket
listeners. A seat token comes in the ``X-Token`` header. Errors are JSON ``{"error": ...,
"reason": ...}`` with a 4xx status (see `session.WebError`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tengen.ai.levels import DEFAULT_LEVEL, LEVELS, Level
from tengen.core.rules import PRESETS
from tengen.web.analysis import (
    DEFAULT_SECONDS,
    GRAPH_PLAYOUTS,
    Analyst,
    Analysts,
    Budget,
)
from tengen.web.session import (
    GOMOKU_RULES,
    GOMOKU_SEATS,
    SEAT_KINDS,
    AnySession,
    BadRequest,
    NewGame,
    Sessions,
    WebError,
)

STATIC = Path(__file__).parent / "static"
MAX_RECORD_BYTES = 5_000_000

Action = Callable[[AnySession, dict[str, Any], str | None], None]


def _sessions(request: Request | WebSocket) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


async def _json(request: Request) -> dict[str, Any]:
    """The body as a JSON object ({} when empty). Raises BadRequest when malformed."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise BadRequest(f"malformed JSON: {err}") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return data


async def _finish(session: AnySession) -> dict[str, Any]:
    """Publish the change, let a computer seat answer, and return the state."""
    state = await run_in_threadpool(session.publish)
    if await run_in_threadpool(session.computer_move):
        state = await run_in_threadpool(session.publish)
    return state


def _action(act: Action) -> Callable[[Request], Any]:
    """A handler that runs `act(session, body, token)` for the game in the path."""

    async def handler(request: Request) -> JSONResponse:
        session = _sessions(request).get(request.path_params["game_id"])
        body = await _json(request)
        await run_in_threadpool(act, session, body, request.headers.get("x-token"))
        return JSONResponse(await _finish(session))

    return handler


async def index(request: Request) -> FileResponse:
    """The page (the same for the game list and for one game: the script reads the URL)."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


def _level_label(number: int, level: Level) -> str:
    """How the form names a level: its number and its budget a move."""
    budget = f"{level.playouts:,} playouts" if level.playouts else f"{level.seconds:g} s"
    return f"{number} ({budget} a move)"


async def config(request: Request) -> JSONResponse:
    """What the new-game form offers: rulesets, seat kinds, the built-in player's levels,
    whether an engine is there; the same for Gomoku under ``gomoku``."""
    sessions = _sessions(request)
    engine, gomoku_engine = sessions.engine, sessions.gomoku_engine
    return JSONResponse(
        {
            "rulesets": {name: r.komi for name, r in PRESETS.items()},
            "seats": [k for k in SEAT_KINDS if k != "engine" or engine],
            "levels": {str(n): _level_label(n, level) for n, level in LEVELS.items()},
            "default_level": DEFAULT_LEVEL,
            "engine": " ".join(engine) if engine else None,
            "gomoku": {
                "rules": list(GOMOKU_RULES),
                "seats": [k for k in GOMOKU_SEATS if k != "engine" or gomoku_engine],
                "engine": " ".join(gomoku_engine) if gomoku_engine else None,
            },
        }
    )


async def list_games(request: Request) -> JSONResponse:
    """Every stored game, newest change first."""
    return JSONResponse({"games": await run_in_threadpool(_sessions(request).list)})


async def create_game(request: Request) -> JSONResponse:
    """Start a game: 201 with its state, the tokens of same-screen seats and seat links."""
    options = NewGame.from_json(await _json(request))
    session = await run_in_threadpool(_sessions(request).create, options)
    state = await _finish(session)
    base = str(request.base_url).rstrip("/")
    own = session.tokens()
    links = {
        name: f"{base}/game/{session.id}#seat={name}&token={token}"
        for name, token in session.tokens(remote=True).items()
        if name not in own
    }
    body = {"id": session.id, "tokens": own, "links": links}
    return JSONResponse({**body, "state": state}, status_code=201)


async def import_game(request: Request) -> JSONResponse:
    """Open the record in the body (SGF, GIB, NGF, UGF, PSQ; ``?name=`` gives the file name)."""
    data = await request.body()
    if not data.strip():
        raise BadRequest("the body must hold a game record (SGF text or a record file)")
    if len(data) > MAX_RECORD_BYTES:
        raise BadRequest(f"the record is over {MAX_RECORD_BYTES} bytes")
    name = request.query_params.get("name", "")
    session = await run_in_threadpool(_sessions(request).import_record, data, name)
    body = {"id": session.id, "tokens": session.tokens(), "state": session.publish()}
    return JSONResponse(body, status_code=201)


async def get_game(request: Request) -> JSONResponse:
    """The game's state."""
    session = _sessions(request).get(request.path_params["game_id"])
    return JSONResponse(await run_in_threadpool(session.snapshot))


async def delete_game(request: Request) -> JSONResponse:
    """Delete the game (needs one of its seat tokens)."""
    game_id = request.path_params["game_id"]
    await run_in_threadpool(_sessions(request).delete, game_id, request.headers.get("x-token"))
    return JSONResponse({"deleted": game_id})


async def download_sgf(request: Request) -> Response:
    """The record as an SGF file."""
    session = _sessions(request).get(request.path_params["game_id"])
    text = await run_in_threadpool(session.sgf)
    name = f"tengen-{session.id}.sgf"
    return Response(
        text,
        media_type="application/x-go-sgf; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def position_svg(request: Request) -> Response:
    """The position shown, as an SVG diagram (``?labels=1`` adds chain labels)."""
    session = _sessions(request).get(request.path_params["game_id"])
    labels = request.query_params.get("labels") == "1"
    svg = await run_in_threadpool(session.figure_svg, labels)
    return Response(svg, media_type="image/svg+xml")


async def position_png(request: Request) -> Response:
    """The position shown, as a PNG diagram (``?labels=1`` adds chain labels)."""
    session = _sessions(request).get(request.path_params["game_id"])
    labels = request.query_params.get("labels") == "1"
    png = await run_in_threadpool(session.figure_png, labels)
    return Response(png, media_type="image/png")


async def game_socket(websocket: WebSocket) -> None:
    """Send the game's state now and after every change until the page goes away."""
    await websocket.accept()
    try:
        session = _sessions(websocket).get(websocket.path_params["game_id"])
    except WebError as err:
        await websocket.send_json({"error": err.message})
        await websocket.close(code=4404)
        return
    queue = session.subscribe()

    async def forward() -> None:
        while True:
            await websocket.send_json(await queue.get())

    task = asyncio.create_task(forward())
    try:
        await websocket.send_json(await run_in_threadpool(session.snapshot))
        while True:
            await websocket.receive_text()  # the page only listens; this notices it leaving
    except WebSocketDisconnect:
        pass
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        session.unsubscribe(queue)


def _analyst(request: Request) -> Analyst:
    """The analyst of the Go game in the path. Raises NotFound, or Conflict for Gomoku."""
    analysts: Analysts = request.app.state.analysts
    return analysts.get(_sessions(request).get(request.path_params["game_id"]))


async def analysis_view(request: Request) -> JSONResponse:
    """The last analysis of a position and the last win-rate graph (None where none ran)."""
    return JSONResponse(_analyst(request).view())


async def analysis_start(request: Request) -> JSONResponse:
    """Analyse the position shown: ``{"seconds": s, "playouts": n}``, either or both."""
    analyst = _analyst(request)
    budget = Budget.from_json(await _json(request), Budget(seconds=DEFAULT_SECONDS))
    token = request.headers.get("x-token")
    return JSONResponse(await run_in_threadpool(analyst.start_position, budget, token))


async def graph_start(request: Request) -> JSONResponse:
    """Start the win-rate graph of the current line: ``{"playouts": n}`` for each position."""
    analyst = _analyst(request)
    budget = Budget.from_json(await _json(request), Budget(playouts=GRAPH_PLAYOUTS))
    token = request.headers.get("x-token")
    return JSONResponse(await run_in_threadpool(analyst.start_graph, budget, token))


async def analysis_stop(request: Request) -> JSONResponse:
    """Stop the analysis or graph that runs; its last view stays."""
    analyst = _analyst(request)
    token = request.headers.get("x-token")
    return JSONResponse(await run_in_threadpool(analyst.stop, token))


async def web_error(request: Request, exc: Exception) -> JSONResponse:
    """A refused request: its status and message."""
    assert isinstance(exc, WebError)
    return JSONResponse({"error": exc.message, "reason": exc.reason}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own 404/405 as JSON."""
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail, "reason": None}, status_code=exc.status_code)


def routes() -> list[BaseRoute]:
    """Every route of the app."""
    game = "/api/games/{game_id}"
    actions: dict[str, Action] = {
        "move": lambda s, b, t: s.play(b.get("vertex"), t),
        "pass": lambda s, b, t: s.pass_move(t),
        "resign": lambda s, b, t: s.resign(t),
        "undo": lambda s, b, t: s.undo(t),
        "nav": lambda s, b, t: s.navigate(b, t),
        "comment": lambda s, b, t: s.set_comment(b.get("comment"), t),
        "delete-branch": lambda s, b, t: s.delete_branch(t),
        "promote": lambda s, b, t: s.promote(t),
        "mode": lambda s, b, t: s.set_mode(b.get("mode"), t),
        "score": lambda s, b, t: s.score_start(t),
        "score/toggle": lambda s, b, t: s.score_toggle(b.get("vertex"), t),
        "score/accept": lambda s, b, t: s.score_accept(t),
        "score/cancel": lambda s, b, t: s.score_cancel(t),
    }
    return [
        Route("/", index),
        Route("/game/{game_id}", index),
        Route("/api/config", config),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/import", import_game, methods=["POST"]),
        Route(game, get_game, methods=["GET"]),
        Route(game, delete_game, methods=["DELETE"]),
        Route(f"{game}/sgf", download_sgf),
        Route(f"{game}/position.svg", position_svg),
        Route(f"{game}/position.png", position_png),
        *(Route(f"{game}/{name}", _action(act), methods=["POST"]) for name, act in actions.items()),
        Route(f"{game}/analysis", analysis_view, methods=["GET"]),
        Route(f"{game}/analysis", analysis_start, methods=["POST"]),
        Route(f"{game}/analysis/stop", analysis_stop, methods=["POST"]),
        Route(f"{game}/graph", graph_start, methods=["POST"]),
        WebSocketRoute(f"{game}/ws", game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
