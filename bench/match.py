"""Where match games run, and what resignation adjudication costs, side by side in one run.

Workload: `--games` games of GNU Go level 1 against itself on 9x9 (seeded; tengen's random
player when GNU Go is not installed), played by `tengen.match.runner.run` into a fresh folder,
so every row includes starting the engines and writing the SGF files and the results file:

* ``pool-1``, ``pool-2``: the local process pool with 1 and 2 workers (the default runner);
* ``dask-2``: a Dask LocalCluster of 2 worker processes, one thread each, reached by its
  address as a remote cluster would be (its start-up is timed apart, in ``start s``); left
  out when Dask (the ``cluster`` extra) is not installed.

``x pool-1`` is pool-1's time over the row's (above 1: faster). The second table times one
game of the random player against itself in this process, best of `--repeats`, with and
without ``--adjudicate-resign`` set so that it never fires (a margin of 10000 points): the
cost of counting the position with estimated dead stones after every move, on 9x9 and 19x19
(``ms a move``; the random player itself takes a fraction of a millisecond a move).

Run ``python bench/match.py [--games N] [--repeats R] [--out PATH]``; the figures and machine
details go to bench/results/match.json.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from common import RESULTS, best_of, machine, render, write_json
from tengen.match.game import GameConfig, ResignAdjudication
from tengen.match.players import PlayerSpec
from tengen.match.runner import RunConfig, play_job, run

DEFAULT_OUT = RESULTS / "match.json"
PLAYERS = (PlayerSpec("a", "random"), PlayerSpec("b", "random"))
GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")


def engines() -> tuple[PlayerSpec, PlayerSpec]:
    """The two players of the runner rows."""
    if GNUGO is None:
        return PLAYERS
    command = f"{GNUGO} --mode gtp --level 1 --seed"
    return PlayerSpec("gnugo-a", f"{command} 1"), PlayerSpec("gnugo-b", f"{command} 2")


@dataclass
class RunnerRow:
    """One way of running the games: its start-up (None: nothing to start) and run times."""

    runner: str
    games: int
    moves: int
    start_s: float | None
    seconds: float


@dataclass
class JudgedRow:
    """One game's time with and without resignation adjudication, in milliseconds."""

    size: int
    moves: int
    plain_ms: float
    judged_ms: float


def time_run(games: int, workers: int, cluster: str | None) -> tuple[float, int]:
    """Seconds to play `games` games into a fresh folder, and the moves played."""
    with tempfile.TemporaryDirectory() as out:
        game = GameConfig(size=9)
        config = RunConfig(engines(), games, game, out, workers=workers, cluster=cluster)
        start = time.perf_counter()
        results = run(config)
        return time.perf_counter() - start, sum(r.moves for r in results)


def runners(games: int) -> list[RunnerRow]:
    """One row per way of running the games."""
    rows = []
    for workers in (1, 2):
        seconds, moves = time_run(games, workers, None)
        rows.append(RunnerRow(f"pool-{workers}", games, moves, None, seconds))
    try:
        from distributed import LocalCluster
    except ImportError:
        print("dask-2: skipped (Dask is not installed: pip install '.[cluster]')")
        return rows
    start = time.perf_counter()
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        started = time.perf_counter() - start
        seconds, moves = time_run(games, 1, local.scheduler_address)
    rows.append(RunnerRow("dask-2", games, moves, started, seconds))
    return rows


def adjudication(repeats: int) -> list[JudgedRow]:
    """One game in this process with and without a never-firing resignation adjudication."""
    rows = []
    for size in (9, 19):
        plain = GameConfig(size=size)
        judged = GameConfig(size=size, resign=ResignAdjudication(10_000, 1))
        play_job(*PLAYERS, judged, 1)  # compile and warm up before timing
        outcome, base = best_of(lambda c=plain: play_job(*PLAYERS, c, 1), repeats)
        _, with_rule = best_of(lambda c=judged: play_job(*PLAYERS, c, 1), repeats)
        rows.append(JudgedRow(size, outcome.moves, base * 1e3, with_rule * 1e3))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games per runner (8)")
    parser.add_argument("--repeats", type=int, default=3, help="best of R for one game (3)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the JSON file")
    args = parser.parse_args()
    print("players:", ", ".join(p.command for p in engines()))
    rows = runners(args.games)
    base = rows[0].seconds
    head = ("runner", "games", "moves", "start s", "seconds", "games/s", "x pool-1")
    body = [
        (
            r.runner,
            str(r.games),
            str(r.moves),
            "-" if r.start_s is None else f"{r.start_s:.2f}",
            f"{r.seconds:.2f}",
            f"{r.games / r.seconds:.1f}",
            f"{base / r.seconds:.2f}",
        )
        for r in rows
    ]
    print(render(head, body))
    judged = adjudication(args.repeats)
    head = ("size", "moves", "plain ms", "adjudicated ms", "ms a move", "x plain")
    body = [
        (
            str(r.size),
            str(r.moves),
            f"{r.plain_ms:.1f}",
            f"{r.judged_ms:.1f}",
            f"{(r.judged_ms - r.plain_ms) / r.moves:.2f}",
            f"{r.judged_ms / r.plain_ms:.1f}",
        )
        for r in judged
    ]
    print()
    print(render(head, body))
    payload = {
        "machine": machine(),
        "players": [p.command for p in engines()],
        "runners": [asdict(r) for r in rows],
        "adjudication": [asdict(r) for r in judged],
    }
    write_json(args.out, payload)


if __name__ == "__main__":
    main()
