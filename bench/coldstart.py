"""Cold start: how soon a fresh process plays, with numba's cache empty and full.

Each row starts a new interpreter (``sys.executable``) and times, from before it is started:

* ``first move``: ``import tengen``, ``Game(19)`` and one ``play``, then exit;
* ``gtp name`` / ``gtp genmove``: ``python -m tengen gtp`` answering ``name``, then, after
  ``boardsize 19`` and ``time_settings 0 2 1`` (2 s byo-yomi), its first ``genmove b`` (the
  time of that command alone), then a second one;
* ``compiled ready``: in a process that played its first move, how long `core.jit.wait`
  takes: until the compiled kernels are in use (the warm-up compiles them in a subprocess
  when the cache is empty).

``cache`` is ``cold`` (``NUMBA_CACHE_DIR`` a new empty folder per row) or ``warm`` (a folder
filled by a cold row before it). ``TENGEN_JIT=compiled`` rows call the compiled kernels from
the start, as before `core.jit` existed: numba compiles on the first call. Goals (issue 19):
first move under 0.5 s, the first genmove within its 2 s byo-yomi.

Run ``python bench/coldstart.py [--quick] [--out PATH]``; JSON in bench/results/coldstart.json.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from common import RESULTS, load, machine, render, write_json

DEFAULT_OUT = RESULTS / "coldstart.json"
FIRST_MOVE = """
    from tengen import Game, Point
    Game(19).play(Point(3, 3))
    print("played", flush=True)
"""
READY = """
    import time
    from tengen import Game, Point
    from tengen.core import jit
    Game(19).play(Point(3, 3))
    start = time.monotonic()
    jit.wait()
    print(f"{time.monotonic() - start:.3f}", flush=True)
"""


@dataclass
class Row:
    """One measurement."""

    what: str
    cache: str
    mode: str
    seconds: float
    note: str = ""
    cpu: float | None = None  # user + system seconds of the measured process, where it is one


def env_for(cache: Path, mode: str) -> dict[str, str]:
    """The environment of a measured process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("TENGEN_JIT", None)
    if mode != "default":
        env["TENGEN_JIT"] = mode
    return env


def python_seconds(code: str, env: dict[str, str]) -> tuple[float, str, float]:
    """Seconds from starting a fresh interpreter on `code` to its exit; its output; its CPU
    seconds (user + system: what a loaded machine stretches far less than wall time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, done.stdout.strip(), cpu


def gtp_seconds(env: dict[str, str]) -> tuple[float, float, float, str]:
    """`tengen gtp` in a fresh process: seconds to answer `name` (from its start), to answer
    the first and the second `genmove b` (each from the command); the first move."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tengen", "gtp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(command: str) -> str:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        answer = proc.stdout.readline().strip()
        proc.stdout.readline()  # the empty line that ends an answer
        if not answer.startswith("="):
            raise RuntimeError(f"{command}: {answer}")
        return answer[1:].strip()

    try:
        ask("name")
        name = time.perf_counter() - start
        ask("boardsize 19")
        ask("time_settings 0 2 1")
        t = time.perf_counter()
        move = ask("genmove b")
        first = time.perf_counter() - t
        ask("play w D4")
        t = time.perf_counter()
        ask("genmove b")
        second = time.perf_counter() - t
        ask("quit")
    finally:
        proc.wait(timeout=30)
    return name, first, second, move


def run(quick: bool) -> list[Row]:
    """Every row, in an order where each warm row follows the cold row that filled its cache."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        modes = ("default",) if quick else ("default", "compiled")
        for mode in modes:
            cold = root / f"first-{mode}"
            secs, _, cpu = python_seconds(FIRST_MOVE, env_for(cold, mode))
            rows.append(Row("first move", "cold", mode, secs, cpu=cpu))
            gtp_cache = root / f"gtp-{mode}"
            name, first, second, move = gtp_seconds(env_for(gtp_cache, mode))
            rows.append(Row("gtp name", "cold", mode, name))
            rows.append(Row("gtp first genmove", "cold", mode, first, f"played {move}"))
            rows.append(Row("gtp second genmove", "cold", mode, second))
        ready_cache = root / "ready"
        secs, out, _ = python_seconds(READY, env_for(ready_cache, "default"))
        rows.append(Row("compiled ready", "cold", "default", float(out), "jit.wait()"))
        secs, _, cpu = python_seconds(FIRST_MOVE, env_for(ready_cache, "default"))
        rows.append(Row("first move", "warm", "default", secs, cpu=cpu))
        secs, out, _ = python_seconds(READY, env_for(ready_cache, "default"))
        rows.append(Row("compiled ready", "warm", "default", float(out), "jit.wait()"))
        name, first, second, move = gtp_seconds(env_for(ready_cache, "default"))
        rows.append(Row("gtp name", "warm", "default", name))
        rows.append(Row("gtp first genmove", "warm", "default", first, f"played {move}"))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run, print the table with the machine's load, write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the default mode only")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    args = parser.parse_args(argv)
    before = load()
    rows = run(args.quick)
    after = load()
    head = ("what", "cache", "TENGEN_JIT", "seconds", "CPU seconds", "note")
    body: list[tuple[str, ...]] = [
        (
            r.what,
            r.cache,
            r.mode,
            f"{r.seconds:.2f}",
            "-" if r.cpu is None else f"{r.cpu:.2f}",
            r.note,
        )
        for r in rows
    ]
    print(render(head, body))
    print(
        "seconds: wall time from starting the process (first move: to its exit); CPU seconds: "
        "the process's user + system time (the warm-up child it may start is not counted)"
    )
    print(f"\nload before: {before}; after: {after}")
    write_json(
        args.out,
        {
            "meta": {**machine(), "load_before": before, "load_after": after},
            "rows": [asdict(r) for r in rows],
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
