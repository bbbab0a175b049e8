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

RESULTS = Path(__file__).resolve().parent / "results"
# The libraries a bench may measure or run on; those not installed are left out.
LIBRARIES = ("numpy", "numba", "sgfmill", "open_spiel", "pgx", "jax")

T = TypeVar("T")


def best_of(fn: Callable[[], T], repeats: int) -> tuple[T, float]:
    """`fn`'s (deterministic) answer and its best wall time over `repeats` calls."""
    start = time.perf_counter()
    answer = fn()
    best = time.perf_counter() - start
    for _ in range(repeats - 1):
        start = time.perf_counter()
        answer = fn()
        best = min(best, time.perf_counter() - start)
    return answer, best


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
