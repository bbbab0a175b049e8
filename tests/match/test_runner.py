"""The runner: a GNU Go match, a run that goes on past a hanging engine, kill and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.rules import CHINESE
from tengen.match.game import GameConfig
from tengen.match.players import PlayerSpec
from tengen.match.runner import RESULTS, RunConfig, load_results, run, schedule, table
from tengen.scoring import Result
from tests.match.fakes import fake_engine


def test_gnugo_level_10_beats_level_1(gnugo: str, tmp_path: Path) -> None:
    """Twelve 9x9 games, komi 7.5, six openings each played with both colours: the stronger
    wins most of them.

    GNU Go picks among equal moves at random, seeded from the clock unless ``--seed`` is
    given; both engines get a fixed seed, so that the match, and this test, is the same on
    every run (unseeded runs differ: one went 4-2 with level 10 behind on total points). The
    openings make the games differ, as fixed seeds alone would repeat them. On 9x9 the two
    levels are close: level 10 wins 7 of these 12.
    """
    weak = PlayerSpec("level1", f"{gnugo} --mode gtp --level 1 --seed 1")
    strong = PlayerSpec("level10", f"{gnugo} --mode gtp --level 10 --seed 1")
    b, w = Color.BLACK, Color.WHITE
    firsts = (((4, 4), (2, 6)), ((2, 2), (6, 6)), ((2, 6), (6, 2)))
    firsts += (((3, 3), (5, 5)), ((4, 4), (6, 2)), ((2, 4), (6, 4)))
    openings = tuple(((b, Point(*x)), (w, Point(*y))) for x, y in firsts)
    config = RunConfig(
        (weak, strong),
        12,
        GameConfig(size=9, ruleset=CHINESE.with_komi(7.5)),
        str(tmp_path),
        openings=openings,
        workers=2,
    )
    results = run(config)
    assert len(results) == 12
    strong_wins = 0
    for r in results:
        result = Result.from_sgf(r.result)
        assert result.reason in ("score", "draw"), r.ending
        strong_color = "B" if r.black == "level10" else "W"
        strong_wins += result.winner is not None and result.winner.letter == strong_color
    assert strong_wins > len(results) / 2, table(config, results)
    assert len(list((tmp_path / "games").glob("*.sgf"))) == 12


def test_a_hanging_engine_loses_on_time_and_the_run_goes_on(tmp_path: Path) -> None:
    hang = PlayerSpec("hang", fake_engine(tmp_path, "hang", 2), timeout=0.5)
    config = RunConfig(
        (PlayerSpec("random", "random"), hang), 2, GameConfig(size=7), str(tmp_path / "run")
    )
    results = run(config)
    assert [r.result for r in results] == ["B+T", "W+T"]  # hang is White in game 0, Black in 1
    assert [r.black for r in results] == ["random", "hang"]


def run_cli(out: Path, *, kill_after: int | None = None) -> subprocess.Popen[bytes]:
    """``tengen match`` of two seeded ``tengen gtp`` engines; killed (-9, the whole process
    group: runner, workers, engines) once `kill_after` games are in the results file."""
    engine = f"{sys.executable} -m tengen gtp --size 7 --playouts 20 --threads 1 --seed"
    argv = [
        sys.executable, "-m", "tengen", "match",
        f"a={engine} 1", f"b={engine} 2",
        "--games", "6", "--size", "7", "-o", str(out),
    ]  # fmt: skip
    if kill_after is None:
        return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while len(load_results(out / RESULTS)) < kill_after:
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended too early"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return proc


def test_a_killed_run_resumes_without_replaying_and_ends_as_an_uninterrupted_one(
    tmp_path: Path,
) -> None:
    whole = run_cli(tmp_path / "whole")
    run_cli(tmp_path / "cut", kill_after=2)
    kept = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "cut" / "games").glob("*.sgf")}
    assert 2 <= len(kept) < 6
    resumed = run_cli(tmp_path / "cut")
    out, err = resumed.communicate(timeout=60)
    whole_out, _ = whole.communicate(timeout=60)
    assert resumed.returncode == 0 and whole.returncode == 0, err
    assert b"resuming:" in err
    lines = (tmp_path / "cut" / RESULTS).read_text().splitlines()
    indices = sorted(json.loads(line)["index"] for line in lines)
    assert indices == list(range(6))  # every game once: none replayed
    for name, mtime in kept.items():
        assert (tmp_path / "cut" / "games" / name).stat().st_mtime_ns == mtime
    assert load_results(tmp_path / "cut" / RESULTS) == load_results(tmp_path / "whole" / RESULTS)
    assert out == whole_out  # the same table


def test_schedule_alternates_colours_and_cycles_openings() -> None:
    players = tuple(PlayerSpec(n, "random") for n in "abc")
    config = RunConfig(players, 4, GameConfig(), "x", format="gauntlet", openings=((), ()))
    jobs = schedule(config)
    assert [(j.black, j.white) for j in jobs[:4]] == [(0, 1), (0, 2), (1, 0), (2, 0)]
    assert [j.opening for j in jobs] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert len({j.seed for j in jobs}) == 8
