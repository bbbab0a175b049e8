"""Fuzz target `websocket`: random and malformed frames at a game's websocket.

A real uvicorn server on 127.0.0.1 (`loopback`, with `tengen serve`'s frame cap) serves a
fresh app. Each input is one connection (to a live game, or to an unknown id) and a few
frames: text garbage, bad JSON, JSON of the wrong types, actions with wrong or real seat
tokens, binary frames, frames over the cap, fragmented messages. After each frame the server
must answer with a JSON error or close with a code and a reason; a connection dropped with no
close frame, or no answer within a few seconds, is a failure. Every few inputs the game is
checked unchanged and the server still answers HTTP.

    .venv/bin/python fuzz/fuzz_websocket.py --seconds 60 [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

from loopback import Loopback
from tengen.web.app import WS_MAX_BYTES

TARGET = "websocket"
FAILURES = Path(__file__).parent / "failures" / TARGET
ANSWER_SECONDS = 5.0


def _frame(rng: random.Random, tokens: list[str]) -> str | bytes | list[str]:
    """One hostile frame (a list of strings is sent as one fragmented message)."""
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    if kind == 1:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(200)))
    if kind == 2:
        return rng.choice(["{", "[1,", '{"a": NaN}', "null", "\x00", "", '"\\ud800"', "[]" * 999])
    if kind == 3:
        value: Any = rng.choice([None, 1, -1e308, True, [], {}, "x" * rng.randrange(1000)])
        return json.dumps({rng.choice(["action", "vertex", "token", "mode"]): value})
    if kind == 4:
        token = rng.choice([*tokens, "wrong", "", "\u00e9" * 8])
        action = rng.choice(["move", "pass", "resign", "undo", "mode", "nav", "comment"])
        return json.dumps({"action": action, "vertex": "C3", "mode": "review", "token": token})
    if kind == 5:
        return "[" * rng.randrange(1, 20_000) + "]" * rng.randrange(20_000)
    if kind == 6:
        return rng.choice(["a", b"b"]) * (WS_MAX_BYTES + rng.randrange(1, 1000))  # type: ignore[operator]
    if kind == 7:
        return ["{", '"action": ', '"move"}']
    if kind == 8:
        return "x" * rng.randrange(WS_MAX_BYTES // 2)
    return json.dumps({"action": "move", "vertex": rng.choice(["E5", "zz", "", "pass"])})


async def _one(url: str, game: str, tokens: list[str], rng: random.Random) -> str | None:
    """One connection and its frames; None if every answer was fine, else what went wrong."""
    target = game if rng.random() < 0.9 else rng.choice(["nope", "%00", "a" * 300])
    ws_url = url.replace("http://", "ws://") + f"/api/games/{target}/ws"
    async with websockets.connect(ws_url, max_size=None, open_timeout=10) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_SECONDS))
        if target != game:
            if "error" not in first:
                return f"unknown game {target!r} answered {first!r:.200}"
            await asyncio.wait_for(ws.wait_closed(), ANSWER_SECONDS)
            return _closed_badly(ws)
        for _ in range(rng.randrange(1, 6)):
            frame = _frame(rng, tokens)
            try:
                await ws.send(frame)
                answer = await asyncio.wait_for(ws.recv(), ANSWER_SECONDS)
            except websockets.ConnectionClosed:
                return _closed_badly(ws)
            except TimeoutError:
                return f"no answer within {ANSWER_SECONDS} s to {_show(frame)}"
            data = json.loads(answer)
            if "error" not in data:
                return f"{_show(frame)} was answered {answer[:200]!r}"
    return None


def _closed_badly(ws: Any) -> str | None:
    """None for a close frame with a code (and a reason where the app closed), else why."""
    received = ws.protocol.close_rcvd
    if received is None:
        return "the connection dropped without a close frame"
    if received.code in (1003, 4404) and not received.reason:
        return f"closed with {received.code} but no reason"
    return None


def _show(frame: str | bytes | list[str]) -> str:
    text = repr(frame)
    return text if len(text) < 200 else f"{text[:200]}... ({len(text)} characters)"


async def _run(url: str, seconds: float, rng: random.Random) -> tuple[int, int]:
    import urllib.request

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{url}{path}", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result

    def record_of(game: str) -> bytes:
        with urllib.request.urlopen(f"{url}/api/games/{game}/sgf", timeout=30) as answer:
            data: bytes = answer.read()
            return data

    data = post("/api/games", {"size": 9, "white": "remote"})
    game = data["id"]
    tokens = [*data["tokens"].values(), data["links"]["white"].rsplit("token=", 1)[1]]
    before = await asyncio.to_thread(record_of, game)
    inputs = failures = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        inputs += 1
        seed = rng.randrange(2**32)
        try:
            problem = await _one(url, game, tokens, random.Random(seed))
        except Exception as err:  # a refused handshake, a dropped connection...
            problem = f"{type(err).__name__}: {err}"
        if problem is None and inputs % 20 == 0:
            after = await asyncio.to_thread(record_of, game)
            problem = None if after == before else "the game changed through its websocket"
        if problem is not None:
            failures += 1
            FAILURES.mkdir(parents=True, exist_ok=True)
            text = f"input seed {seed} (random.Random(seed) in _one)\n{problem}\n"
            (FAILURES / f"{int(time.time())}-{failures}.txt").write_text(text, encoding="utf-8")
    return inputs, failures


def main(argv: list[str] | None = None) -> int:
    """Run, print the one summary line, and exit 1 if anything failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    with tempfile.TemporaryDirectory() as tmp, Loopback(Path(tmp) / "fuzz.sqlite3", seed) as url:
        inputs, failures = asyncio.run(_run(url, args.seconds, random.Random(seed)))
    print(f"fuzz {TARGET}: {inputs} inputs, {failures} failures", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
