"""The web app: `create_app(config)` builds it, `serve(argv)` runs it (``tengen serve``).

The server binds 127.0.0.1 unless told otherwise (``--host 0.0.0.0`` lets other devices on the
network join), keeps games in a SQLite file under the user's data directory (``--db``), and can
give a seat to a GTP engine (``--engine "gnugo --mode gtp --level 5"``) and, in Gomoku games,
to a Gomocup brain (``--gomoku-engine "pbrain-embryo"``). No state lives in
module globals: everything hangs off the app that the factory returns.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException

from tengen.ai.mcts import MctsPlayer
from tengen.core import jit
from tengen.web import routes
from tengen.web.analysis import Analysts
from tengen.web.engines import BUILTIN, ENGINE_NAME, Engines
from tengen.web.players import BRAIN_TURN
from tengen.web.seats import WebError
from tengen.web.sessions import Sessions
from tengen.web.store import Store

# The page sends nothing over its websocket: a frame over this is closed with 1009.
WS_MAX_BYTES = 64 << 10


def default_db() -> Path:
    """The games file in the user's data directory (e.g. ~/.local/share/tengen/games.sqlite3)."""
    return platformdirs.user_data_path("tengen") / "games.sqlite3"


@dataclass(frozen=True)
class Config:
    """What the app is built from: the games file, the engine commands, a seed for tests,
    the largest record an upload may hold, whether analysis engines may be set in the app."""

    db: Path
    engine: list[str] | None = None
    seed: int | None = None
    gomoku_engine: list[str] | None = None
    gomoku_engine_seconds: float = BRAIN_TURN  # the brain's time a move (INFO timeout_turn)
    max_upload: int = routes.MAX_UPLOAD_BYTES
    analysis_engines: dict[str, str] = field(default_factory=dict)  # name -> command line
    analysis_engine_dirs: dict[str, str] = field(default_factory=dict)  # name -> its folder
    engine_settings: bool = True  # from this machine's browser only (see web.engines)


def create_app(config: Config) -> Starlette:
    """A new app with its own store, sessions and analyses; engines and searches stop when it
    shuts down."""
    store = Store(config.db)
    sessions = Sessions(
        store, config.engine, config.seed, config.gomoku_engine, config.gomoku_engine_seconds
    )
    engines = Engines(config.analysis_engines, store, config.analysis_engine_dirs)
    analysts = Analysts(lambda: MctsPlayer(seed=config.seed or 0), engines)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        jit.start()  # compile or load the kernels now, not on the first move of the first game
        yield
        analysts.close()
        sessions.close()

    app = Starlette(
        routes=routes.routes(),
        exception_handlers={WebError: routes.web_error, HTTPException: routes.http_error},
        lifespan=lifespan,
    )
    app.state.sessions = sessions
    app.state.analysts = analysts
    app.state.config = config
    return app


def parser() -> argparse.ArgumentParser:
    """The command line of ``tengen serve``."""
    p = argparse.ArgumentParser(
        prog="tengen serve", description="Play and review Go and Gomoku in a browser."
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", type=Path, default=None, help=f"games file (default {default_db()})")
    p.add_argument(
        "--engine",
        default=None,
        help='a GTP engine to offer as an opponent, e.g. "gnugo --mode gtp --level 5"',
    )
    p.add_argument(
        "--gomoku-engine",
        default=None,
        help='a Gomocup brain to offer as a Gomoku opponent, e.g. "pbrain-embryo"',
    )
    p.add_argument(
        "--gomoku-engine-seconds",
        type=float,
        default=BRAIN_TURN,
        help="the time a move the Gomoku engine is told it has (default %(default)g)",
    )
    p.add_argument(
        "--analysis-engine",
        action="append",
        default=[],
        metavar="NAME=CMD",
        help='an analysis engine for review, e.g. "katago=katago analysis -config a.cfg -model '
        'm.bin.gz" (KataGo\'s JSON engine) or "leela=leelaz -g -w net.gz" (GTP kata-analyze or '
        "lz-analyze); repeatable",
    )
    p.add_argument(
        "--analysis-engine-dir",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="the folder an --analysis-engine runs in (its config and network paths are "
        "relative to it); repeatable",
    )
    p.add_argument(
        "--no-engine-settings",
        action="store_true",
        help="refuse to add or remove analysis engines in the app (they run programs here; "
        "without this, only a browser on this machine may)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the built-in player")
    p.add_argument(
        "--max-upload-mb",
        type=float,
        default=routes.MAX_UPLOAD_BYTES / (1 << 20),
        help="largest record an upload may hold, in MiB (default %(default)g)",
    )
    return p


def serve(argv: list[str] | None = None) -> int:
    """Parse the command line, print the URL and run the server until interrupted."""
    args = parser().parse_args(argv)
    engine = shlex.split(args.engine) if args.engine else None
    gomoku_engine = shlex.split(args.gomoku_engine) if args.gomoku_engine else None
    db = args.db or default_db()
    if not 0 < args.max_upload_mb <= 4096:
        parser().error("--max-upload-mb must be above 0 and at most 4096")
    if not 0 < args.gomoku_engine_seconds <= 3600:  # 0 is "no limit" to Rapfi
        parser().error("--gomoku-engine-seconds must be above 0 and at most 3600")
    analysis_engines = {}
    for given in args.analysis_engine:
        name, _, command = given.partition("=")
        name = name.strip()
        if not ENGINE_NAME.fullmatch(name) or not command.strip() or name == BUILTIN:
            parser().error(
                f"--analysis-engine wants NAME=COMMAND (NAME: letters, digits, -_.), not {given!r}"
            )
        analysis_engines[name] = command
    analysis_engine_dirs = {}
    for given in args.analysis_engine_dir:
        name, _, folder = given.partition("=")
        if name.strip() not in analysis_engines or not Path(folder).is_dir():
            parser().error(
                f"--analysis-engine-dir wants NAME=DIR for an --analysis-engine NAME and a "
                f"folder that exists, not {given!r}"
            )
        analysis_engine_dirs[name.strip()] = str(Path(folder).resolve())
    config = Config(
        db=db,
        engine=engine,
        seed=args.seed,
        gomoku_engine=gomoku_engine,
        gomoku_engine_seconds=args.gomoku_engine_seconds,
        max_upload=int(args.max_upload_mb * (1 << 20)),
        analysis_engines=analysis_engines,
        analysis_engine_dirs=analysis_engine_dirs,
        engine_settings=not args.no_engine_settings,
    )
    app = create_app(config)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"tengen: open http://{shown}:{args.port}/  (games in {db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=WS_MAX_BYTES)
    return 0
