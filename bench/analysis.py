"""Analysis in the app and over GTP: does it leave the game responsive, and how fast does it stop?

Rows, each measured with no analysis running and then with one running (side by side):
- a web request of the game (GET its state; POST a move then an undo) to the app's server
  (``python -m tengen.web``), while an analysis of a 19x19 position searches on every core;
- a GTP ``name`` answered by ``tengen gtp`` alone, and as the command that ends a
  ``kata-analyze`` (the time it takes the search to stop and the answer to arrive);
- the web Stop of a running analysis.
Plus the analysis's playouts a second on 9x9 and 19x19 (the search itself is bench/strength.py's).

    python bench/analysis.py [--samples 20]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import RESULTS, machine, render, write_json


def median_ms(fn: Callable[[], object], samples: int) -> float:
    """The median wall time of `fn`, in milliseconds."""
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


class App:
    """``python -m tengen.web`` in a subprocess on a free port, and JSON requests to it."""

    def __init__(self, db: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        argv = [sys.executable, "-m", "tengen.web", "--port", str(port), "--db", str(db)]
        self.process = subprocess.Popen([*argv, "--seed", "1"], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.call("GET", "/api/config")
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "X-Token": token}
        req = urllib.request.Request(self.url + path, data, headers, method=method)
        with urllib.request.urlopen(req, timeout=60) as response:
            return json.loads(response.read())

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def web_rows(samples: int) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Request latencies idle and during an analysis, the Stop's, and playouts a second."""
    with tempfile.TemporaryDirectory() as tmp:
        app = App(Path(tmp) / "g.sqlite3")
        try:
            return _web_rows(app, samples)
        finally:
            app.close()


def _web_rows(app: App, samples: int) -> tuple[list[dict[str, Any]], dict[str, float]]:
    rates = {}
    for size in (9, 19):
        game = app.call("POST", "/api/games", {"size": size})
        gid, token = game["id"], game["tokens"]["black"]
        analysis = f"/api/games/{gid}/analysis"
        app.call("POST", analysis, {"playouts": 200}, token)
        wait_done(app, gid)  # compiles the search once
        start = time.perf_counter()
        app.call("POST", analysis, {"seconds": 3}, token)
        view = wait_done(app, gid)
        rates[f"{size}x{size}"] = view["visits"] / (time.perf_counter() - start)

    def get_state() -> None:
        app.call("GET", f"/api/games/{gid}")

    def move_and_undo() -> None:
        app.call("POST", f"/api/games/{gid}/move", {"vertex": "D4"}, token)
        app.call("POST", f"/api/games/{gid}/undo", {}, token)

    rows = []
    for name, fn in (("web GET state", get_state), ("web move + undo", move_and_undo)):
        idle = median_ms(fn, samples)
        app.call("POST", analysis, {"seconds": 120}, token)
        time.sleep(0.5)
        busy = median_ms(fn, samples)
        app.call("POST", f"{analysis}/stop", {}, token)
        rows.append({"what": name, "idle_ms": idle, "analysing_ms": busy})
    stops = []
    for _ in range(5):
        app.call("POST", analysis, {"seconds": 120}, token)
        time.sleep(0.5)
        start = time.perf_counter()
        app.call("POST", f"{analysis}/stop", {}, token)
        stops.append(time.perf_counter() - start)
    stop_ms = 1000 * statistics.median(stops)
    rows.append({"what": "web Stop", "idle_ms": None, "analysing_ms": stop_ms})
    return rows, rates


def wait_done(app: App, gid: str) -> dict[str, Any]:
    while True:
        view = app.call("GET", f"/api/games/{gid}/analysis")["analysis"]
        if view and not view["running"]:
            return dict(view)
        time.sleep(0.05)


def gtp_row(samples: int) -> dict[str, Any]:
    """``name`` idle, and ``name`` sent to end a kata-analyze on 19x19."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tengen", "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    def send(line: str) -> None:
        stdin.write(line.encode() + b"\n")
        stdin.flush()

    def answer() -> None:
        while stdout.readline() != b"= tengen\n":
            pass
        stdout.readline()

    send("play b q16")
    stdout.readline(), stdout.readline()
    send("kata-analyze 10")  # compiles the search once
    time.sleep(3)
    send("name")
    answer()
    idle, busy = [], []
    for _ in range(samples):
        start = time.perf_counter()
        send("name")
        answer()
        idle.append(time.perf_counter() - start)
        send("kata-analyze 10")
        time.sleep(0.3)
        start = time.perf_counter()
        send("name")
        answer()
        busy.append(time.perf_counter() - start)
    send("quit")
    process.wait(timeout=30)
    return {
        "what": "GTP name (ends kata-analyze)",
        "idle_ms": 1000 * statistics.median(idle),
        "analysing_ms": 1000 * statistics.median(busy),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20, help="timings per row (20)")
    args = parser.parse_args()
    rows, rates = web_rows(args.samples)
    rows.append(gtp_row(args.samples))

    def ms(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}"

    body = [
        (
            r["what"],
            ms(r["idle_ms"]),
            ms(r["analysing_ms"]),
            "-" if r["idle_ms"] is None else f"{r['analysing_ms'] / r['idle_ms']:.1f}x",
        )
        for r in rows
    ]
    print(render(("median of " + str(args.samples), "idle ms", "analysing ms", "ratio"), body))
    print(render(("board", "analysis playouts/s"), [(k, f"{v:,.0f}") for k, v in rates.items()]))
    write_json(
        RESULTS / "analysis.json",
        {"machine": machine(), "samples": args.samples, "rows": rows, "playouts_per_s": rates},
    )


if __name__ == "__main__":
    main()
