"""Stopping a run: Ctrl-C or SIGTERM stops its games and their engines at once, and a runner
killed outright leaves nothing playing (its workers notice and close their engines)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tengen.match.runner import RESULTS
from tests.match.fakes import fake_engine

STARTUP = 90.0  # seconds for the workers to start (numba loads) and both games to begin
GONE = 20.0  # seconds for processes to end once told to


def start_hanging_run(tmp_path: Path) -> tuple[subprocess.Popen[bytes], set[int]]:
    """``tengen match`` on two workers of two engines that never answer ``genmove``, in a
    session of its own; the runner and the process ids of the four engines, once all play."""
    pids = tmp_path / "pids"
    pids.mkdir()
    hang = fake_engine(tmp_path, "hang", 1, pids)
    argv = [
        sys.executable, "-m", "tengen", "match", f"a={hang}", f"b={hang}",
        "--games", "4", "--workers", "2", "--size", "5", "-o", str(tmp_path / "out"),
    ]  # fmt: skip
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + STARTUP
    while len(list(pids.iterdir())) < 4:
        assert proc.poll() is None and time.monotonic() < deadline, "the games did not start"
        time.sleep(0.05)
    return proc, {int(p.name) for p in pids.iterdir()}


def running(pid: int) -> bool:
    """Whether process `pid` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def parent(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("PPid:")).split()[1])


def wait_gone(pids: set[int]) -> set[int]:
    """The processes of `pids` still running after `GONE` seconds."""
    deadline = time.monotonic() + GONE
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return {p for p in pids if running(p)}


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_stopped_run_ends_its_games_and_engines_and_says_how_to_resume(
    tmp_path: Path, how: str
) -> None:
    proc, engines = start_hanging_run(tmp_path)
    workers = {parent(p) for p in engines}
    assert len(workers) == 2 and proc.pid not in workers
    if how == "ctrl-c":  # the terminal signals the whole foreground process group
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.terminate()
    _, err = proc.communicate(timeout=GONE)
    assert proc.returncode == 130, err
    assert b"stopped; the finished games are kept in" in err
    assert wait_gone(engines | workers) == set(), err.decode()
    results = tmp_path / "out" / RESULTS
    assert not results.exists() or results.read_text() == ""  # no stopped game counted


def test_the_workers_of_a_killed_runner_close_their_engines_and_end(tmp_path: Path) -> None:
    proc, engines = start_hanging_run(tmp_path)
    workers = {parent(p) for p in engines}
    proc.kill()  # the runner alone, as an OOM killer would
    proc.communicate()
    assert wait_gone(engines | workers) == set()
