"""Ending a program ends everything it started: engines behind shell wrappers that do not
``exec``, engines that ignore SIGTERM, and grandchildren that keep the pipes open (issue 16).
Checked through /proc: nothing of the program is left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tengen.gtp.client import GtpClient, GtpEngineDied, GtpTimeout
from tengen.process import TERM_WAIT, LineProcess
from tests.match.test_stop import STARTUP, running, wait_gone

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

# A GTP engine that hangs on genmove; with "stubborn" it ignores SIGTERM and a closed input;
# with "-warm" it first answers one genmove (a match's warm-up move), so it hangs in the game.
ENGINE = textwrap.dedent(
    """
    import os, signal, sys, time
    pids, mode = sys.argv[1], sys.argv[2]
    stubborn, answered = mode.startswith("stubborn"), int(mode.endswith("-warm"))
    if stubborn:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    open(os.path.join(pids, str(os.getpid())), "w").close()
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "genmove" and answered:
            answered -= 1
            sys.stdout.write("= pass\\n\\n")
            sys.stdout.flush()
            continue
        if word == "genmove":
            while True:
                time.sleep(1)
        sys.stdout.write("= \\n\\n" if word != "name" else "= hang\\n\\n")
        sys.stdout.flush()
        if word == "quit":
            break
    while stubborn:  # an engine that does not end when its input does
        time.sleep(1)
    """
)


@pytest.fixture(autouse=True)
def _no_strays(tmp_path: Path) -> Iterator[None]:
    """Kill whatever a failing test left of its engines, so a regression does not linger."""
    yield
    folder = tmp_path / "pids"
    for pid in {int(p.name) for p in folder.iterdir()} if folder.exists() else set():
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def wrapper(tmp_path: Path, mode: str) -> tuple[list[str], Path]:
    """A ``#!/bin/sh`` wrapper that starts the engine without ``exec`` (so the engine is a
    grandchild); the folder where each process of it leaves its id."""
    pids = tmp_path / "pids"
    pids.mkdir(exist_ok=True)
    (tmp_path / "engine.py").write_text(ENGINE)
    script = tmp_path / "engine.sh"
    script.write_text(
        f'#!/bin/sh\necho $$ > "{pids}/$$"\n'
        f'"{sys.executable}" "{tmp_path}/engine.py" "{pids}" {mode}\n'
    )
    script.chmod(0o755)
    return [str(script)], pids


def started(pids: Path, count: int) -> set[int]:
    """The ids of the first `count` processes to start (within `STARTUP` seconds)."""
    deadline = time.monotonic() + STARTUP
    while len(list(pids.iterdir())) < count:
        assert time.monotonic() < deadline, "the engine did not start"
        time.sleep(0.02)
    return {int(p.name) for p in pids.iterdir()}


BOUND = 1.0 + TERM_WAIT + 3.0  # close's wait, the SIGTERM grace, and slack for a busy machine


@pytest.mark.parametrize("mode", ["plain", "stubborn"])
def test_closing_a_wrapped_engine_hung_in_genmove_ends_it_all(tmp_path: Path, mode: str) -> None:
    argv, pids = wrapper(tmp_path, mode)
    client = GtpClient(argv, timeout=10)
    assert client.send("name") == "hang"
    processes = started(pids, 2)  # the shell and the engine
    with pytest.raises(GtpTimeout):
        client.send("genmove b", timeout=0.3)
    start = time.monotonic()
    client.close(timeout=0.5)
    assert time.monotonic() - start < BOUND
    assert wait_gone(processes) == set()


def test_a_wrapped_engine_that_ignores_its_closed_input_is_ended_at_normal_exit(
    tmp_path: Path,
) -> None:
    """``quit`` answered, but the engine stays: the group is ended all the same."""
    argv, pids = wrapper(tmp_path, "stubborn")
    client = GtpClient(argv, timeout=10)
    client.send("name")
    processes = started(pids, 2)
    start = time.monotonic()
    client.close(timeout=0.5)
    assert time.monotonic() - start < BOUND
    assert wait_gone(processes) == set()


def test_kill_ends_the_whole_group(tmp_path: Path) -> None:
    argv, pids = wrapper(tmp_path, "stubborn")
    program = LineProcess(argv)
    processes = started(pids, 2)
    program.kill()
    assert wait_gone(processes) == set()
    program.stop(0.0)


def test_a_crashed_wrappers_engine_is_ended_too(tmp_path: Path) -> None:
    """The shell dies (as on a crash); its engine, still holding the pipes, must not linger."""
    argv, pids = wrapper(tmp_path, "plain")
    client = GtpClient(argv, timeout=10)
    client.send("name")
    processes = started(pids, 2)
    shell = min(processes, key=lambda pid: Path(f"/proc/{pid}/cmdline").read_bytes().count(b"py"))
    os.kill(shell, signal.SIGKILL)
    # The engine still holds stdout, so no end of output comes: the command times out, or is
    # refused at once when the client has already reaped the shell (a race on a busy machine).
    with pytest.raises((GtpTimeout, GtpEngineDied)):
        client.send("genmove b", timeout=0.3)
    start = time.monotonic()
    client.close(timeout=0.5)
    assert time.monotonic() - start < BOUND
    assert wait_gone(processes) == set()


def test_stop_does_not_block_on_pipes_held_by_a_process_outside_the_group(
    tmp_path: Path,
) -> None:
    """A grandchild that left the group (setsid) keeps the pipes open: stopping returns anyway."""
    pid_file = tmp_path / "escaped"
    script = tmp_path / "escape.sh"
    script.write_text(
        f"#!/bin/sh\nsetsid sh -c 'echo $$ > \"{pid_file}\"; exec sleep 600' &\nsleep 600\n"
    )
    script.chmod(0o755)
    program = LineProcess([str(script)])
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline
        time.sleep(0.02)
    escaped = int(pid_file.read_text())
    try:
        start = time.monotonic()
        program.stop(0.2)
        assert time.monotonic() - start < BOUND
        assert program.returncode is not None
    finally:
        os.kill(escaped, signal.SIGKILL)
    assert wait_gone({escaped}) == set()


def test_a_dead_wrapper_is_reported_as_died(tmp_path: Path) -> None:
    script = tmp_path / "dies.sh"
    script.write_text("#!/bin/sh\necho oops >&2\nexit 3\n")
    script.chmod(0o755)
    client = GtpClient([str(script)], timeout=10)
    with pytest.raises(GtpEngineDied, match="status 3"):
        client.send("name")
    client.close()


def test_match_with_a_hanging_wrapped_engine_finishes_and_leaves_nothing(tmp_path: Path) -> None:
    """The issue's case: a match at a few seconds a move against a wrapper that hangs in the
    game (after its warm-up move)."""
    argv, pids = wrapper(tmp_path, "stubborn-warm")
    command = [
        sys.executable, "-m", "tengen", "match", f"hang={argv[0]}", "random=random",
        "--games", "2", "--size", "5", "--time", "absolute:2", "-o", str(tmp_path / "out"),
    ]  # fmt: skip
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    processes = {int(p.name) for p in pids.iterdir()}
    assert len(processes) == 4  # two games, a shell and an engine each
    assert wait_gone(processes) == set()
    assert not any(running(p) for p in processes)


def test_ctrl_c_ends_the_pool_workers_and_their_wrapped_engines(tmp_path: Path) -> None:
    argv, pids = wrapper(tmp_path, "stubborn")
    command = [
        sys.executable, "-m", "tengen", "match", f"a={argv[0]}", f"b={argv[0]}",
        "--games", "4", "--workers", "2", "--size", "5", "-o", str(tmp_path / "out"),
    ]  # fmt: skip
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        processes = started(pids, 8)  # two games at once: two engines each, behind shells
    except AssertionError:
        proc.kill()
        raise
    os.killpg(proc.pid, signal.SIGINT)  # the terminal signals the foreground group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert wait_gone(processes) == set(), err.decode()
