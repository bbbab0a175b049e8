"""The web app's game list on a large database: ``GET /api/games`` with 10,000 stored games.

The rows are real: a few games are played through the app (Go on the same screen, Go against
a remote seat with a 120-move record, Gomoku), and their stored rows are copied under new ids
and times into one SQLite file, in one transaction (the app would write each with an fsync).
Then, warm, the list is asked for from ``python -m tengen.web`` (uvicorn) over loopback HTTP,
so the figure is what a page waits for (routing, the query, JSON, uvicorn, the socket):

* ``first page``: ``/api/games`` (the 50 newest, and the total);
* ``last page``: ``/api/games?offset=N-50`` (the deepest page of the index);
* ``page of 500``: ``/api/games?limit=500`` (the largest page).

Each is timed `--repeats` times; best and median are reported. The issue's target: well under
100 ms at 10,000 games (before, the list loaded every game: ~1.9 s at 250).

Run ``python bench/web.py [--games N] [--repeats R] [--out PATH]``; the figures and machine
details go to bench/results/web.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from common import RESULTS, machine, render, write_json

MOVES = ["D4", "Q16", "Q4", "D16", "C3", "R17", "K10", "F3", "O3", "C14"]


@contextmanager
def server(db: Path) -> Iterator[str]:
    """`python -m tengen.web` on a free loopback port and the database `db`; its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [sys.executable, "-m", "tengen.web", "--port", str(port), "--db", str(db)]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/config", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def call(url: str, body: Any = None, token: str | None = None, raw: bytes | None = None) -> Any:
    """POST JSON (or raw bytes) or GET; the JSON answer."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"X-Token": token} if token else {})}
    with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=60) as r:
        return json.loads(r.read())


def populate(db: Path, games: int) -> None:
    """`games` stored games: real rows made by the app, copied under new ids and times."""
    with server(db) as url:
        made = call(f"{url}/api/games", {"size": 19})
        token = made["tokens"]["black"]
        for vertex in MOVES:
            call(f"{url}/api/games/{made['id']}/move", {"vertex": vertex}, token)
        call(f"{url}/api/games", {"size": 9, "white": "remote", "title": "a long game"})
        call(f"{url}/api/games", {"game": "gomoku"})
        moves = (f";{'BW'[i % 2]}[{chr(97 + i % 19)}{chr(97 + i // 19)}]" for i in range(120))
        call(f"{url}/api/games/import", raw=("(;GM[1]SZ[19]" + "".join(moves) + ")").encode())
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT title, mode, sgf, meta FROM games").fetchall()
        now = time.time()
        conn.executemany(
            "INSERT INTO games (id, title, mode, created, updated, sgf, meta)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                (f"bench{i:08d}", title, mode, now - i, now - i, sgf, meta)
                for i, (title, mode, sgf, meta) in zip(
                    range(games - len(rows)), itertools.cycle(rows), strict=False
                )
            ),
        )


def timed(url: str, repeats: int) -> tuple[float, float, int]:
    """Best and median seconds of GET `url`, and how many games it listed."""
    times = []
    listed = 0
    for _ in range(repeats):
        start = time.perf_counter()
        answer = call(url)
        times.append(time.perf_counter() - start)
        listed = len(answer["games"])
    return min(times), statistics.median(times), listed


def main() -> None:
    parser = argparse.ArgumentParser(description="The web app's game list on 10,000 games.")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--out", type=Path, default=RESULTS / "web.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        populate(db, args.games)
        rows = []
        with server(db) as base:
            call(f"{base}/api/games")  # warm: the first query plan, the pages of the file
            for name, url in [
                ("first page", "/api/games"),
                ("last page", f"/api/games?offset={args.games - 50}"),
                ("page of 500", "/api/games?limit=500"),
            ]:
                best, median, listed = timed(base + url, args.repeats)
                rows.append(
                    {"what": name, "games": args.games, "listed": listed,
                     "best_ms": best * 1000, "median_ms": median * 1000}
                )  # fmt: skip
    head = ("what", "stored", "listed", "best ms", "median ms")
    body = [
        (r["what"], f"{r['games']:,}", str(r["listed"]), f"{r['best_ms']:.1f}",
         f"{r['median_ms']:.1f}")
        for r in rows
    ]  # fmt: skip
    print(render(head, body))
    write_json(args.out, {"machine": machine(), "repeats": args.repeats, "rows": rows})


if __name__ == "__main__":
    main()
