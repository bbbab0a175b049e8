"""The run's progress: one line redrawn in place on a terminal, a line a game elsewhere."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from tengen.match.progress import RunProgress
from tengen.match.stats import Tally


class Clock:
    """A clock the test sets."""

    def __init__(self) -> None:
        self.time = 0.0

    def __call__(self) -> float:
        return self.time


def test_a_terminal_gets_one_line_redrawn_in_place() -> None:
    stream = io.StringIO()
    clock = Clock()
    progress = RunProgress(10, stream, tty=True, now=clock)
    progress.start(0)
    clock.time = 6.0
    progress.game(1, "a", Tally(1, 0, 0), "unused on a terminal")
    clock.time = 8.0
    progress.game(2, "a", Tally(1, 1, 0), "unused on a terminal")
    text = stream.getvalue()
    assert "\n" not in text and text.count("\r") == 2
    first, second = text.split("\r")[1:]
    assert first == "[#---------] 1/10  a 1-0-0  100% Elo > -234  ETA 0:54"  # 6 s a game, 9 to go
    assert second.rstrip() == "[##--------] 2/10  a 1-1-0  50% Elo +0  ETA 0:32"
    assert len(second) == len(first)  # padded to blank the longer line it covers
    progress.message("SPRT accepts H1: stopping")
    progress.close()
    # tqdm draws the line a last time as it ends it
    assert stream.getvalue().endswith("\r" + second.rstrip() + "\nSPRT accepts H1: stopping\n")


def test_elsewhere_every_game_gets_its_own_line_and_a_resumed_run_times_only_its_games() -> None:
    stream = io.StringIO()
    clock = Clock()
    progress = RunProgress(4000, stream, tty=False, now=clock)
    clock.time = 50.0
    progress.start(1000)
    assert progress.eta(1000) == "?"
    clock.time = 250.0
    progress.game(1001, "a", Tally(600, 401, 0), "a vs b: B+R (b resigned) | a 600, b 401")
    progress.close()
    assert stream.getvalue() == (
        "resuming: 1000 of 4000 games already played\n"
        "[1001/4000] a vs b: B+R (b resigned) | a 600, b 401 | ETA 166:36:40\n"
    )  # 200 s for one game of this session, 2999 to go


def test_the_mode_follows_whether_the_stream_is_a_terminal() -> None:
    assert not RunProgress(1, io.StringIO()).tty
    leader, follower = os.openpty()
    with open(follower, "w") as terminal:
        assert RunProgress(1, terminal).tty
    os.close(leader)


def test_tengen_match_redraws_its_line_on_a_terminal(tmp_path: Path) -> None:
    """stderr on a pseudo-terminal: the run's report is one line, redrawn as each game ends."""
    leader, follower = os.openpty()
    argv = [sys.executable, "-m", "tengen", "match", "a=random", "b=random", "--games", "3"]
    argv += ["--size", "5", "-o", str(tmp_path)]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=follower, timeout=120, check=True)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # Linux: EIO once the terminal has no other end left
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    text = seen.decode()
    drawn = [line.split()[1] for line in text.split("\r") if line.startswith("[")]
    assert drawn == ["1/3", "2/3", "3/3", "3/3"]  # one a game, and tqdm's last as it ends the line
    assert "3/3  a " in text and text.endswith("\n")
    assert proc.stdout.decode().startswith("a vs b: ")
