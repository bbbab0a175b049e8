"""What every bench script shares: best-of timing, the machine's description, the JSON file.

A bench script is run as ``python bench/NAME.py``, so this module is imported as ``common``.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

# The benches time the compiled kernels (numba compiling on the first call, excluded by the
# warm-up): not the interpreted twins `tengen.core.jit` runs while it compiles. coldstart.py
# sets the mode of each process it starts.
os.environ.setdefault("TENGEN_JIT", "compiled")

RESULTS = Path(__file__).resolve().parent / "results"
# The libraries a bench may measure or run on; those not installed are left out.
LIBRARIES = ("numpy", "numba", "sgfmill", "open_spiel", "pgx", "jax")

T = TypeVar("T")


def best_of(
    fn: Callable[[], T], repeats: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[T, float]:
    """`fn`'s (deterministic) answer and its best time over `repeats` calls: wall time, or
    with ``clock=CPU`` this process's CPU time (what single-threaded rows use: other
    processes taking the core then stretch it far less)."""
    start = clock()
    answer = fn()
    best = clock() - start
    for _ in range(repeats - 1):
        start = clock()
        answer = fn()
        best = min(best, clock() - start)
    return answer, best


CPU = time.process_time


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, or what `platform` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """Where the figures came from: CPU, cores, load, Python and library versions."""
    versions = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "load_average_1min": os.getloadavg()[0],  # other work on the machine skews the rows
        "versions": versions,
    }


def load() -> str:
    """The machine's load now, to print beside a table: the 1, 5 and 15-minute load averages,
    the tasks running at this moment (this one included) and the cores."""
    try:
        fields = Path("/proc/loadavg").read_text().split()
        running = f", {fields[3].split('/')[0]} running"
    except (OSError, IndexError):
        fields, running = [f"{x:.2f}" for x in os.getloadavg()], ""
    return f"load average {' '.join(fields[:3])}{running}, {os.cpu_count()} cores"


def ratio(tengen: float | None, peer: float | None) -> float | None:
    """Every ratio column of the benches: tengen's rate over the peer's, above 1 when tengen
    is faster (None when either is missing)."""
    if tengen is None or peer is None or not peer > 0 or not tengen > 0:
        return None
    return tengen / peer


RATIO_NOTE = "tengen/peer = tengen's rate over this row's (above 1: tengen faster)"


def write_json(path: Path, payload: dict[str, Any]) -> None:
    """Write `payload` (no NaN allowed: use None) to `path`, making its folder, and say so."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, allow_nan=False) + "\n")
    print(f"wrote {path}")


def render(head: tuple[str, ...], body: list[tuple[str, ...]]) -> str:
    """An aligned text table with a rule under the head."""
    rows = [head, *body]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)
