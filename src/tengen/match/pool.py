"""The local process pool of a run, whose games stop when the run stops.

A plain `ProcessPoolExecutor` outlives an interrupted runner: its exit waits for the games in
progress, and a runner killed outright leaves its workers playing on, engines and all. Here a
worker leaves Ctrl-C to the runner; told to stop (SIGTERM, sent by `stopping_pool` as the run
ends) or finding its runner gone, it kills the engines it started and ends at once. A game cut
short is not recorded, so a resumed run plays it again.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from types import FrameType

from tengen.process import kill_all

STOP_WAIT = 10.0  # seconds a worker has to end before it is killed
WATCH_INTERVAL = 1.0  # seconds between a worker's looks for its runner


@contextmanager
def stopping_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """`workers` processes; when the block ends, games not started are cancelled and the
    workers, still playing or idle, are stopped."""
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        max(workers, 1),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        mine = [p for p in multiprocessing.active_children() if p not in before]
        for process in mine:
            process.terminate()
        deadline = time.monotonic() + STOP_WAIT
        for process in mine:
            process.join(max(deadline - time.monotonic(), 0.0))
            if process.is_alive():
                process.kill()
                process.join()


def _start_worker(runner: int) -> None:
    """In each worker: ignore Ctrl-C (the runner handles it), stop on SIGTERM, and watch for
    the runner's end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_terminate)
    threading.Thread(target=_watch, args=(runner,), name="runner-watch", daemon=True).start()


def _on_terminate(signum: int, frame: FrameType | None) -> None:
    _stop(128 + signum)


def _watch(runner: int) -> None:
    """Stop this worker once its runner has gone (its parent changes)."""
    while os.getppid() == runner:
        time.sleep(WATCH_INTERVAL)
    _stop(1)


def _stop(status: int) -> None:
    """Kill this worker's engines and end it, whatever it was doing."""
    kill_all()
    os._exit(status)
