"""The web app served by uvicorn on 127.0.0.1 (a free port) in a thread of the fuzzing process,
with the options `tengen serve` uses (and ``--no-engine-settings``); shared by fuzz_api.py
and fuzz_websocket.py."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from types import TracebackType

import uvicorn

from tengen.web import Config, create_app
from tengen.web.app import WS_MAX_BYTES


class Loopback:
    """``with Loopback(db) as url:`` serves a fresh app on the database `db` until the end of
    the block."""

    def __init__(self, db: Path, seed: int = 0) -> None:
        # No engine settings: an engine the fuzzer set would run a made-up program here.
        self.app = create_app(Config(db=db, seed=seed, engine_settings=False))
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=0,
            log_level="critical",
            ws_max_size=WS_MAX_BYTES,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
