"""HTTP and WebSocket handlers: JSON in, a session call, JSON out; nothing else.

Every game action answers with the game's state and sends it to the game's websocket
listeners. A seat token comes in the ``X-Token`` header. Errors are JSON ``{"error": ...,
"reason": ...}`` with a 4xx status (see `session.WebError`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tengen.ai.levels import DEFAULT_LEVEL, LEVELS, Level
from tengen.core.rules import PRESETS
from tengen.web import openapi, schemas
from tengen.web.analysis import DEFAULT_SECONDS, GRAPH_PLAYOUTS, Analyst, Analysts, Budget
from tengen.web.engines import Engines, settings_allowed
from tengen.web.openapi import Endpoint
from tengen.web.schemas import GOMOKU_RULES, GOMOKU_SEATS, SEAT_KINDS, Labels
from tengen.web.seats import BadRequest, Forbidden, WebError
from tengen.web.sessions import AnySession, Sessions

STATIC = Path(__file__).parent / "static"
MAX_JSON_BYTES = 1 << 20  # a JSON body: options and a comment, never near this
MAX_UPLOAD_BYTES = 16 << 20  # an uploaded record, unless `tengen serve --max-upload-mb` says


class TooLarge(WebError):
    """A body over its cap, refused while it is read."""

    status = 413


Action = Callable[[AnySession, Any, str | None], None]
M = TypeVar("M", bound=BaseModel)


def _sessions(request: Request | WebSocket) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


def _token(request: Request) -> str | None:
    return request.headers.get("x-token")


async def read_body(request: Request, limit: int) -> bytes:
    """The body, read chunk by chunk and refused with 413 as soon as it passes `limit` bytes
    (a Content-Length over it is refused before reading anything)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body is over {limit:,} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the body is over {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _body(request: Request, model: type[M]) -> M:
    """The JSON body as `model`. Raises TooLarge or BadRequest naming the field."""
    return schemas.parse(model, await read_body(request, MAX_JSON_BYTES))


async def _finish(session: AnySession) -> dict[str, Any]:
    """Publish the change, let a computer seat answer, and return the state."""
    state = await run_in_threadpool(session.publish)
    if await run_in_threadpool(session.computer_move):
        state = await run_in_threadpool(session.publish)
    return state


def _action(model: type[BaseModel], act: Action) -> Callable[[Request], Awaitable[Response]]:
    """A handler that runs `act(session, body, token)` for the game in the path."""

    async def handler(request: Request) -> Response:
        session = _sessions(request).get(request.path_params["game_id"])
        body = await _body(request, model)
        await run_in_threadpool(act, session, body, _token(request))
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
            "analysis_engines": request.app.state.analysts.engines.names,
            "gomoku": {
                "rules": list(GOMOKU_RULES),
                "seats": [k for k in GOMOKU_SEATS if k != "engine" or gomoku_engine],
                "engine": " ".join(gomoku_engine) if gomoku_engine else None,
            },
        }
    )


async def list_games(request: Request) -> JSONResponse:
    """A page of the stored games, newest change first (``?limit=&offset=``), and the total."""
    page = schemas.parse_query(schemas.Page, dict(request.query_params))
    listed = await run_in_threadpool(_sessions(request).list, page.limit, page.offset)
    return JSONResponse(listed)


async def create_game(request: Request) -> JSONResponse:
    """Start a game: 201 with its state, the tokens of same-screen seats and seat links."""
    options = await _body(request, schemas.NewGame)
    session = await run_in_threadpool(_sessions(request).create, options)
    return _created(request, session, await _finish(session))


def _created(request: Request, session: AnySession, state: dict[str, Any]) -> JSONResponse:
    """201 with a new game's state, the tokens of same-screen seats and the others' links."""
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
    """Open the record in the body (SGF, GIB, NGF, UGF, PSQ; ``?name=`` gives the file name)
    as a new game in review: 201 with its tokens and state."""
    name = schemas.parse_query(schemas.Upload, dict(request.query_params)).name
    data = await read_body(request, request.app.state.config.max_upload)
    if not data.strip():
        raise BadRequest("the body must hold a game record (SGF text or a record file)")
    session = await run_in_threadpool(_sessions(request).import_record, data, name)
    return _opened(session)


async def copy_game(request: Request) -> JSONResponse:
    """A copy of the game's record as a new game in review, with tokens of its own: how a
    seat of a game between two people reviews it without changing the shared game."""
    await _body(request, schemas.Empty)
    session = await run_in_threadpool(_sessions(request).copy, request.path_params["game_id"])
    return _opened(session)


async def play_from_here(request: Request) -> JSONResponse:
    """A new game in play from the position the game shows, with seats of its own (as a new
    game's: tokens for this screen, links for the others)."""
    options = await _body(request, schemas.PlayFrom)
    game_id = request.path_params["game_id"]
    session = await run_in_threadpool(_sessions(request).play_from, game_id, options)
    return _created(request, session, await _finish(session))


def _opened(session: AnySession) -> JSONResponse:
    body = {"id": session.id, "tokens": session.tokens(), "state": session.publish()}
    return JSONResponse(body, status_code=201)


async def get_game(request: Request) -> JSONResponse:
    """The game's state."""
    session = _sessions(request).get(request.path_params["game_id"])
    return JSONResponse(await run_in_threadpool(session.snapshot))


async def delete_game(request: Request) -> JSONResponse:
    """Delete the game (needs one of its seat tokens)."""
    game_id = request.path_params["game_id"]
    await run_in_threadpool(_sessions(request).delete, game_id, _token(request))
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
    labels = schemas.parse_query(Labels, dict(request.query_params)).labels == "1"
    svg = await run_in_threadpool(session.figure_svg, labels)
    return Response(svg, media_type="image/svg+xml")


async def position_png(request: Request) -> Response:
    """The position shown, as a PNG diagram (``?labels=1`` adds chain labels)."""
    session = _sessions(request).get(request.path_params["game_id"])
    labels = schemas.parse_query(Labels, dict(request.query_params)).labels == "1"
    png = await run_in_threadpool(session.figure_png, labels)
    return Response(png, media_type="image/png")


async def game_socket(websocket: WebSocket) -> None:
    """Send the game's state now and after every change until the page goes away.

    The socket only sends: a text frame from the page is answered with an error message, a
    binary one closes the socket with 1003 and a reason (an oversized frame: uvicorn's 1009).
    """
    await websocket.accept()
    try:
        session = _sessions(websocket).get(websocket.path_params["game_id"])
    except WebError as err:
        await websocket.send_json({"error": err.message})
        await websocket.close(code=4404, reason=err.message[:120])
        return
    queue = session.subscribe()

    async def forward() -> None:
        while True:
            await websocket.send_json(await queue.get())

    task = asyncio.create_task(forward())
    try:
        await websocket.send_json(await run_in_threadpool(session.snapshot))
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if message.get("bytes") is not None:
                await websocket.close(code=1003, reason="binary frames are not accepted")
                break
            await websocket.send_json(
                {"error": "this socket only sends game states; act through the HTTP API"}
            )
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


def _budget(body: schemas.Analysis, default: Budget) -> Budget:
    """The budget asked for, `default` when neither seconds nor playouts is given."""
    if body.seconds is None and body.playouts is None:
        return default
    return Budget(body.seconds, body.playouts)


async def analysis_start(request: Request) -> JSONResponse:
    """Analyse the position shown: ``{"seconds": s, "playouts": n}``, either or both."""
    analyst = _analyst(request)
    body = await _body(request, schemas.Analysis)
    budget = _budget(body, Budget(seconds=DEFAULT_SECONDS))
    start = analyst.start_position
    return JSONResponse(await run_in_threadpool(start, budget, _token(request), body.engine))


async def graph_start(request: Request) -> JSONResponse:
    """Start the win-rate graph of the current line: ``{"playouts": n}`` for each position."""
    analyst = _analyst(request)
    body = await _body(request, schemas.Graph)
    budget = _budget(body, Budget(playouts=GRAPH_PLAYOUTS))
    start = analyst.start_graph
    return JSONResponse(await run_in_threadpool(start, budget, _token(request), body.engine))


async def analysis_stop(request: Request) -> JSONResponse:
    """Stop the analysis or graph that runs; its last view stays."""
    analyst = _analyst(request)
    await _body(request, schemas.Empty)
    return JSONResponse(await run_in_threadpool(analyst.stop, _token(request)))


def _engines(request: Request) -> tuple[Engines, bool]:
    """The app's analysis engines, and whether this request may change them."""
    analysts: Analysts = request.app.state.analysts
    client = request.client.host if request.client else None
    allowed = request.app.state.config.engine_settings and settings_allowed(
        client, request.headers.get("host"), request.headers.get("origin")
    )
    return analysts.engines, allowed


def _engine_list(engines: Engines, allowed: bool) -> dict[str, Any]:
    """The engines as the settings show them (their command lines only to whoever may change
    them), and whether they may be changed."""
    listed = engines.describe()
    if not allowed:
        listed = [{"name": e["name"], "source": e["source"]} for e in listed]
    return {"engines": listed, "editable": allowed}


def _settings(request: Request) -> Engines:
    """The engines, if this request may change them. Raises Forbidden."""
    engines, allowed = _engines(request)
    if not allowed:
        raise Forbidden(
            "analysis engines run programs on the server's machine: they are set from a "
            "browser on that machine (http://127.0.0.1:PORT/), unless the server was started "
            "with --no-engine-settings"
        )
    return engines


async def engine_list(request: Request) -> JSONResponse:
    """The analysis engines (besides the built-in one): name, command line, folder, and
    whether the command line or the settings set it."""
    return JSONResponse(_engine_list(*_engines(request)))


async def engine_put(request: Request) -> JSONResponse:
    """Add an analysis engine, or change one added here: ``{"name", "command", "cwd"}``."""
    engines = _settings(request)
    body = await _body(request, schemas.EngineSetting)
    await run_in_threadpool(engines.put, body.name, body.command, body.cwd)
    return JSONResponse(_engine_list(engines, True))


async def engine_delete(request: Request) -> JSONResponse:
    """Remove an analysis engine added in the settings."""
    engines = _settings(request)
    await run_in_threadpool(engines.remove, request.path_params["name"])
    return JSONResponse(_engine_list(engines, True))


async def openapi_document(request: Request) -> JSONResponse:
    """The OpenAPI 3.1 document of this API, built from the endpoint table and the schemas."""
    return JSONResponse(openapi.document(ENDPOINTS))


async def web_error(request: Request, exc: Exception) -> JSONResponse:
    """A refused request: its status and message."""
    assert isinstance(exc, WebError)
    return JSONResponse({"error": exc.message, "reason": exc.reason}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own 404/405 as JSON."""
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail, "reason": None}, status_code=exc.status_code)


ACTIONS: dict[str, tuple[type[BaseModel], Action]] = {
    "move": (schemas.Move, lambda s, b, t: s.play(b.vertex, t)),
    "pass": (schemas.Empty, lambda s, b, t: s.pass_move(t)),
    "resign": (schemas.Empty, lambda s, b, t: s.resign(t)),
    "undo": (schemas.Empty, lambda s, b, t: s.undo(t)),
    "redo": (schemas.Empty, lambda s, b, t: s.redo(t)),
    "undo/answer": (schemas.UndoAnswer, lambda s, b, t: s.answer_undo(b.accept, t)),
    "opening": (schemas.OpeningChoice, lambda s, b, t: s.choose_opening(b.choice, t)),
    "info": (schemas.GameInfo, lambda s, b, t: s.set_info(b.model_dump(exclude_none=True), t)),
    "nav": (schemas.Navigate, lambda s, b, t: s.navigate(b.target(), t)),
    "comment": (schemas.Comment, lambda s, b, t: s.set_comment(b.comment, t)),
    "markup": (schemas.Markup, lambda s, b, t: s.set_markup(b.kind, b.vertex, b.to, b.text, t)),
    "delete-branch": (schemas.Empty, lambda s, b, t: s.delete_branch(t)),
    "promote": (schemas.Empty, lambda s, b, t: s.promote(t)),
    "mode": (schemas.Mode, lambda s, b, t: s.set_mode(b.mode, t)),
    "score": (schemas.Empty, lambda s, b, t: s.score_start(t)),
    "score/toggle": (schemas.Move, lambda s, b, t: s.score_toggle(b.vertex, t)),
    "score/accept": (schemas.Empty, lambda s, b, t: s.score_accept(t)),
    "score/cancel": (schemas.Empty, lambda s, b, t: s.score_cancel(t)),
}
_GAME = "/api/games/{game_id}"
_STATE = "GameState"

# Every HTTP endpoint of the API, once: the routes and the OpenAPI document come from here.
ENDPOINTS: list[Endpoint] = [
    Endpoint("/api/config", "GET", config, response="Config"),
    Endpoint("/api/games", "GET", list_games, query=schemas.Page, response="GameList"),
    Endpoint(
        "/api/games", "POST", create_game, body=schemas.NewGame, status=201, response="Created"
    ),
    Endpoint(
        "/api/games/import",
        "POST",
        import_game,
        query=schemas.Upload,
        upload=True,
        status=201,
        response="Opened",
    ),
    Endpoint(_GAME, "GET", get_game, response=_STATE),
    Endpoint(_GAME, "DELETE", delete_game, token=True, response="Deleted"),
    Endpoint(f"{_GAME}/sgf", "GET", download_sgf, media="application/x-go-sgf"),
    Endpoint(f"{_GAME}/position.svg", "GET", position_svg, query=Labels, media="image/svg+xml"),
    Endpoint(f"{_GAME}/position.png", "GET", position_png, query=Labels, media="image/png"),
    Endpoint(f"{_GAME}/copy", "POST", copy_game, body=schemas.Empty, status=201, response="Opened"),
    Endpoint(
        f"{_GAME}/play-from-here",
        "POST",
        play_from_here,
        body=schemas.PlayFrom,
        status=201,
        response="Created",
    ),
    *(
        Endpoint(
            f"{_GAME}/{name}",
            "POST",
            _action(model, act),
            body=model,
            token=True,
            response=_STATE,
            summary=f"The {name} action; answers the new state.",
        )
        for name, (model, act) in ACTIONS.items()
    ),
    Endpoint("/api/engines", "GET", engine_list, response="Engines"),
    Endpoint("/api/engines", "POST", engine_put, body=schemas.EngineSetting, response="Engines"),
    Endpoint("/api/engines/{name}", "DELETE", engine_delete, response="Engines"),
    Endpoint(f"{_GAME}/analysis", "GET", analysis_view, response="AnalysisView"),
    Endpoint(
        f"{_GAME}/analysis",
        "POST",
        analysis_start,
        body=schemas.Analysis,
        token=True,
        response="AnalysisView",
    ),
    Endpoint(
        f"{_GAME}/analysis/stop",
        "POST",
        analysis_stop,
        body=schemas.Empty,
        token=True,
        response="AnalysisView",
    ),
    Endpoint(
        f"{_GAME}/graph",
        "POST",
        graph_start,
        body=schemas.Graph,
        token=True,
        response="AnalysisView",
    ),
]


def routes() -> list[BaseRoute]:
    """Every route of the app: the page, the API endpoints, the websocket, static files."""
    return [
        Route("/", index),
        Route("/game/{game_id}", index),
        Route("/openapi.json", openapi_document, methods=["GET"]),
        *(Route(e.path, e.handler, methods=[e.method]) for e in ENDPOINTS),
        WebSocketRoute(f"{_GAME}/ws", game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
