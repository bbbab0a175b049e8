"""How many threads a batched call runs on: no more than its games can keep busy, nor than
the cores free right now, so that batching is never slower than one thread.

A parallel loop waits for its slowest thread: a thread given two games on a 1024-game batch
is all overhead, and one whose core is busy with another process holds every other thread
up. So each call takes ``min(numba's thread count, games // per_thread, free cores)``
threads, where the free cores are those of this process's CPU affinity that were idle, or
busy with this process, since the last look (``/proc/stat``; the load average elsewhere).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numba

STAT = Path("/proc/stat")
RESAMPLE = 0.5  # seconds between looks at the machine; a look costs a file read
FIRST_LOOK = 0.02  # seconds the very first look measures over

_lock = threading.Lock()
_last: tuple[float, float, float] | None = None  # the last `_look`
_free = 0.0  # what it found


def cores() -> list[int]:
    """The CPUs this process may run on."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return list(range(os.cpu_count() or 1))


def _look(cpus: list[int]) -> tuple[float, float, float] | None:
    """(wall time, idle and I/O-wait seconds of `cpus` since boot, this process's CPU
    seconds); None without /proc/stat."""
    try:
        lines = STAT.read_text().splitlines()
    except OSError:
        return None
    wanted = {f"cpu{c}" for c in cpus}
    ticks = 0
    for line in lines:
        fields = line.split()
        if fields and fields[0] in wanted:
            ticks += int(fields[4]) + int(fields[5])
    return time.monotonic(), ticks / os.sysconf("SC_CLK_TCK"), time.process_time()


def free_cores() -> float:
    """Cores of this process's affinity that other processes left free lately (over the
    time since the last look, at least `FIRST_LOOK`): the idle ones plus those this process
    kept busy itself."""
    global _last, _free
    cpus = cores()
    with _lock:
        if _last is not None and time.monotonic() - _last[0] < RESAMPLE:
            return _free
        before = _last or _look(cpus)
        if before is None:
            _free = max(1.0, len(cpus) - os.getloadavg()[0])
            return _free
        time.sleep(max(0.0, FIRST_LOOK - (time.monotonic() - before[0])))
        now = _look(cpus)
        if now is None:
            return max(1.0, len(cpus) - os.getloadavg()[0])
        wall = now[0] - before[0]
        _free = min(float(len(cpus)), ((now[1] - before[1]) + (now[2] - before[2])) / wall)
        _last = now
        return _free


def choose(games: int, per_thread: int) -> int:
    """The threads for a call over `games` games, each thread needing `per_thread` of them
    to be worth starting."""
    most = min(numba.get_num_threads(), games // per_thread)
    if most <= 1:
        return 1
    return max(1, min(most, int(free_cores() + 0.5)))


@contextmanager
def threads_for(games: int, per_thread: int) -> Iterator[int]:
    """Run the body on `choose(games, per_thread)` numba threads (this thread's setting is
    restored after)."""
    before = numba.get_num_threads()
    chosen = choose(games, per_thread)
    numba.set_num_threads(chosen)
    try:
        yield chosen
    finally:
        numba.set_num_threads(before)
