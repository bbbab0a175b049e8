"""Random-playout throughput of `tengen.batch` against a loop of single-game `Board.playout`.

The workload is `bench/playout.py`'s: from the empty board, each move uniform among the legal
points (simple ko, no suicide) that do not fill the mover's own eye, a pass when there is none,
until two passes in a row or ``3 * size * size`` moves. Rows, on 9x9 and 19x19:

* ``single``: ``Board.playout(BLACK, seed=seed + g)`` on a fresh copy of an empty board, game
  after game, one thread (the kernel is sequential);
* ``c``: ``bench/c/playout.c`` from ``bench/playout.py``, the practical limit on one core; it
  draws all its games from one random stream, so they are other games of the same workload
  (compare moves/s: ``tengen/peer``, the row's moves/s over C's);
* ``batch n=N threads=T``: ``tengen.batch.init(N, size)`` then ``random_playouts``, batch
  after batch until the same number of games is played, with numba limited to T threads; the
  ``init`` is timed too, as a user pays for it; numba's threads are capped at T and
  `tengen.batch.threads` may take fewer (few games, busy cores): the note says how many;
* the same rows marked ``busy``: with a process spinning on one core (started by the bench),
  where two threads must not be slower than one.

Game g of a batch seeded s is the game ``Board.playout(seed=s + g)`` plays, so every tengen row
plays the very same games; the bench checks that the move totals agree ("same games"). Times are
warm (numba compilation excluded, reported separately) and the best of a few repeats.

Run ``python bench/batch.py [--quick] [--out PATH] [--sizes 9 19] [--seed N]``; JSON goes to
``bench/results/batch.json``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import numba

from common import RATIO_NOTE, RESULTS, best_of, load, machine, ratio, render, write_json
from playout import build_c, c_games
from tengen import batch
from tengen.batch import threads as batch_threads
from tengen.batch.env import PLAYOUT_GAMES
from tengen.core import Board, Color

DEFAULT_OUT = RESULTS / "batch.json"
BATCHES = (1, 64, 1024)
GAMES = {9: (16_384, 1024), 19: (4096, 1024)}  # games per row: (full run, --quick run)
REPEATS = 5


@dataclass
class Row:
    """One way of playing `games` playouts on one board size."""

    name: str
    size: int
    batch: int
    threads: int
    games: int
    moves: int
    seconds: float
    note: str = ""

    @property
    def games_per_s(self) -> float:
        """Games per second."""
        return self.games / self.seconds

    @property
    def moves_per_s(self) -> float:
        """Moves (passes included) per second."""
        return self.moves / self.seconds


def single(size: int, games: int, seed: int) -> int:
    """Play `games` playouts one by one with Board.playout; return the moves played."""
    empty = Board(size)
    return sum(empty.copy().playout(Color.BLACK, seed=seed + g) for g in range(games))


def batched(size: int, games: int, seed: int, n: int) -> int:
    """Play `games` playouts in batches of `n`; return the moves played."""
    moves = 0
    for start in range(0, games, n):
        state = batch.random_playouts(batch.init(min(n, games - start), size), seed + start)
        moves += int(state.move_count.sum())
    return moves


def run(sizes: list[int], quick: bool, seed: int) -> tuple[list[Row], dict[str, object]]:
    """Measure every row on every size; return the rows and run metadata."""
    cores = numba.get_num_threads()
    threads = [1, 2] if cores >= 2 else [1]
    repeats = 1 if quick else REPEATS
    start = time.perf_counter()
    batched(9, 2, seed, 2)  # compile, or load from numba's cache
    meta: dict[str, object] = {
        "seed": seed,
        "quick": quick,
        "cores": cores,
        "threading_layer": numba.threading_layer(),  # type: ignore[attr-defined]  # public API
        "first_call_s": time.perf_counter() - start,
        "load_before": load(),  # other work on the machine skews the rows
    }
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        exe, meta["c_compiler"] = build_c(Path(tmp))
        for size in sizes:
            games = GAMES.get(size, GAMES[19])[1 if quick else 0]
            if exe is not None:
                c_games(exe, size, 1, seed)  # warm-up
                moves, secs = min(
                    (c_games(exe, size, games, seed) for _ in range(repeats)), key=lambda r: r[1]
                )
                rows.append(Row("c", size, 1, 1, games, moves, secs, "other games, same workload"))
            rows += measure(size, games, seed, threads, repeats)
            if len(threads) > 1:
                with spinning():
                    meta[f"load_busy_{size}"] = load()
                    rows += measure(size, games, seed, threads, repeats, busy=True)
    numba.set_num_threads(cores)
    meta["load_after"] = load()
    return rows, meta


@contextmanager
def spinning() -> Iterator[None]:
    """A process spinning on one core meanwhile (another user's job)."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)  # on its core, and seen by `batch.threads` as busy
        yield
    finally:
        spinner.kill()
        spinner.wait()


def measure(
    size: int, games: int, seed: int, threads: list[int], repeats: int, busy: bool = False
) -> list[Row]:
    """The single-game loop and every batch row on one size (warm: each after an untimed
    call); checks they play the same games."""
    tag = " busy" if busy else ""
    single(size, 2, seed)
    moves, secs = best_of(partial(single, size, games, seed), repeats)
    ref = Row("single" + tag, size, 1, 1, games, moves, secs)
    rows = [ref]
    for n in BATCHES:
        for t in threads:
            numba.set_num_threads(t)
            batched(size, 2, seed, n)  # warm-up
            moves, secs = best_of(partial(batched, size, games, seed, n), repeats)
            used = batch_threads.choose(n, PLAYOUT_GAMES)
            note = "same games" if moves == ref.moves else "DIFFERENT games"
            name = f"batch n={n} threads={t}{tag}"
            rows.append(Row(name, size, n, t, games, moves, secs, f"{note}; {used} used"))
    return rows


def versus_c(rows: list[Row], r: Row) -> float | None:
    """This tengen row's moves/s over C's on the same size (None without a C row)."""
    c = next((x for x in rows if x.name == "c" and x.size == r.size), None)
    return None if c is None or r.name == "c" else ratio(r.moves_per_s, c.moves_per_s)


def speedup(rows: list[Row], r: Row) -> float:
    """This row's games/s over the single-game loop's on the same size (busy rows: over the
    busy single-game loop's)."""
    name = "single busy" if r.name.endswith(" busy") else "single"
    ref = next(x for x in rows if x.name == name and x.size == r.size)
    return r.games_per_s / ref.games_per_s


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table."""
    head = (
        "implementation",
        "size",
        "games",
        "moves",
        "seconds",
        "games/s",
        "moves/s",
        "x single",
        "tengen/peer",
        "note",
    )
    body: list[tuple[str, ...]] = []
    for r in rows:
        body.append(
            (
                r.name,
                f"{r.size}x{r.size}",
                f"{r.games}",
                f"{r.moves}",
                f"{r.seconds:.3f}",
                f"{r.games_per_s:,.0f}",
                f"{r.moves_per_s:,.0f}",
                f"{speedup(rows, r):.2f}",
                "-" if (c := versus_c(rows, r)) is None else f"{c:.2f}",
                r.note,
            )
        )
    return render(head, body)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games, one timing")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], help="board sizes")
    parser.add_argument("--seed", type=int, default=12345, help="random seed")
    args = parser.parse_args(argv)
    rows, meta = run(args.sizes, args.quick, args.seed)
    print(table(rows))
    print(
        f"\nx single = games/s over the single-game Board.playout loop's (busy rows: the busy"
        f" loop's); {RATIO_NOTE}, the peer being C. C: {meta['c_compiler']}. {meta['cores']}"
        f" cores, numba threading layer {meta['threading_layer']}; first call"
        f" {meta['first_call_s']:.2f} s (compile or cache load), excluded above."
        f"\n{meta['load_before']} at the start, {meta['load_after']} at the end; busy rows:"
        f" {', '.join(str(v) for k, v in meta.items() if k.startswith('load_busy'))}"
    )
    meta.update(machine())
    payload = {
        "meta": meta,
        "results": [
            {
                **asdict(r),
                "games_per_s": r.games_per_s,
                "moves_per_s": r.moves_per_s,
                "speedup_vs_single": speedup(rows, r),
                "moves_per_s_vs_c": versus_c(rows, r),
            }
            for r in rows
        ],
    }
    write_json(args.out, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
