"""Random-playout speed (games/s, moves/s) of tengen vs sgfmill and C, to keep playouts near C.

Every implementation plays the same workload on 9x9 and 19x19 from the empty board: each move
uniform among the legal points (simple ko, no suicide) that do not fill the mover's own eye
(all orthogonal neighbours own stones or edge; at most one enemy diagonal, none on the edge),
a pass when there is none; a game ends after two passes in a row or ``3 * size * size`` moves
(passes count as moves). Implementations:

* ``tengen-compiled``: the compiled kernel ``core.playout.uniform_playout`` on a fresh copy of
  an empty ``Board`` per game (warm: numba compile time is measured and reported separately);
* ``tengen-api``: the public Python API move by move (``Game.legal_moves``, a random choice,
  ``Game.play``), as a user's code would do it;
* ``sgfmill``: ``sgfmill.boards.Board`` with the legality checks (suicide, simple ko) a user
  has to add to it;
* ``c``: ``bench/c/playout.c``, compiled here with ``cc -O2``; it mirrors the kernel's data
  structures and random stream, so with the same seed it plays the very same games as
  ``tengen-compiled`` (the bench checks that the move totals agree).

Run ``python bench/playout.py [--quick] [--out PATH]``; see bench/README.md.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import numpy as np
from sgfmill import boards

from common import CPU, RATIO_NOTE, RESULTS, best_of, load, machine, ratio, render, write_json
from tengen.core import Board, Color, Game, KoRule, Ruleset, Scoring
from tengen.core import playout as pl

HERE = Path(__file__).resolve().parent
C_SOURCE = HERE / "c" / "playout.c"
DEFAULT_OUT = RESULTS / "playout.json"

# Simple ko and no suicide: the rules every implementation here plays by.
SIMPLE_KO = Ruleset("bench-simple-ko", KoRule.SIMPLE, Scoring.AREA, suicide_allowed=False)

# Games per (implementation, size): (full run, --quick run).
GAMES: dict[str, dict[int, tuple[int, int]]] = {
    "tengen-compiled": {9: (20_000, 500), 19: (4_000, 100)},
    "c": {9: (20_000, 500), 19: (4_000, 100)},
    "tengen-api": {9: (50, 2), 19: (5, 1)},
    "sgfmill": {9: (200, 5), 19: (20, 1)},
}
REPEATS = 3  # fast implementations are timed this many times; the best time counts


@dataclass
class Result:
    """One implementation on one board size."""

    implementation: str
    size: int
    games: int
    moves: int
    seconds: float
    length_sd: float = float("nan")  # standard deviation of the game length
    note: str = ""

    @property
    def games_per_s(self) -> float:
        """Games per second."""
        return self.games / self.seconds if self.seconds > 0 else float("nan")

    @property
    def moves_per_s(self) -> float:
        """Moves (passes included) per second."""
        return self.moves / self.seconds if self.seconds > 0 else float("nan")

    @property
    def moves_per_game(self) -> float:
        """Average game length in moves, passes included."""
        return self.moves / self.games if self.games else float("nan")


def max_moves(size: int) -> int:
    """The move cap shared by every implementation."""
    return 3 * size * size


# -- (a) tengen compiled kernel -------------------------------------------------------------


def compiled_games(size: int, games: int, seed: int) -> list[int]:
    """Play `games` kernel playouts from fresh copies of an empty board; return their lengths."""
    empty = Board(size)
    cap = max_moves(size)
    rng = np.array([seed], dtype=np.uint64)  # xorshift64 state, shared by the games like C's
    lengths = []
    for _ in range(games):
        board = empty.copy()
        # The kernel itself, not Board.playout (which seeds each game afresh), so that one
        # xorshift stream runs across the games exactly as in bench/c/playout.c.
        lengths.append(pl.uniform_playout(board.state, board.hashes, int(Color.BLACK), cap, rng))
    return lengths


def first_call_seconds() -> float:
    """Time the first kernel playout in this process (numba compile, or a load from cache)."""
    start = time.perf_counter()
    compiled_games(9, 1, 1)
    return time.perf_counter() - start


def cold_compile_seconds() -> float | None:
    """Time the first kernel playout in a fresh interpreter with an empty numba cache."""
    code = (
        "import time;from tengen.core import Board;from tengen.core import playout as pl;"
        "import numpy as np;b=Board(9);t=time.perf_counter();"
        "pl.uniform_playout(b.state,b.hashes,1,243,np.array([1],dtype=np.uint64));"
        "print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        proc = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
        )
    if proc.returncode != 0:
        return None
    return float(proc.stdout.split()[-1])


# -- (b) tengen public API ------------------------------------------------------------------


def api_games(size: int, games: int, seed: int) -> list[int]:
    """Random games through Game.legal_moves / random choice / Game.play; return their lengths."""
    rnd = random.Random(seed)
    cap = max_moves(size)
    lengths = []
    for _ in range(games):
        game = Game(size, ruleset=SIMPLE_KO)
        moves = 0
        while not game.is_over and moves < cap:
            choices = game.legal_moves(own_eyes=False)
            game.play(rnd.choice(choices) if choices else None)
            moves += 1
        lengths.append(moves)
    return lengths


def api_games_raw(size: int, games: int, seed: int) -> list[int]:
    """Random games through the `Game` API with no eye filter, as OpenSpiel's raw loop plays:
    each move uniform among `Game.legal_moves()` and the pass (`Game.pass_move`); return
    their lengths. Simple ko, so that the rules are OpenSpiel's."""
    rnd = random.Random(seed)
    cap = max_moves(size)
    lengths = []
    for _ in range(games):
        game = Game(size, ruleset=SIMPLE_KO)
        moves = 0
        while not game.is_over and moves < cap:
            choices = game.legal_moves()
            i = rnd.randrange(len(choices) + 1)
            if i < len(choices):
                game.play(choices[i])
            else:
                game.pass_move()
            moves += 1
        lengths.append(moves)
    return lengths


# -- (c) sgfmill ----------------------------------------------------------------------------


def _sgf_neighbours(size: int, row: int, col: int) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
        if 0 <= r < size and 0 <= c < size
    ]


def _sgf_eye_like(board: boards.Board, size: int, row: int, col: int, color: str) -> bool:
    get = board.get
    neighbours = _sgf_neighbours(size, row, col)
    if any(get(r, c) != color for r, c in neighbours):
        return False
    enemy = "w" if color == "b" else "b"
    enemies = sum(
        1
        for r, c in ((row - 1, col - 1), (row - 1, col + 1), (row + 1, col - 1), (row + 1, col + 1))
        if 0 <= r < size and 0 <= c < size and get(r, c) == enemy
    )
    return enemies == 0 if len(neighbours) < 4 else enemies <= 1


def _sgf_suicide(board: boards.Board, size: int, row: int, col: int, color: str) -> bool:
    """sgfmill allows self-capture: try the move on a copy unless a neighbour is empty."""
    get = board.get
    if any(get(r, c) is None for r, c in _sgf_neighbours(size, row, col)):
        return False
    trial = board.copy()
    trial.play(row, col, color)
    return trial.get(row, col) is None


def sgfmill_games(size: int, games: int, seed: int) -> list[int]:
    """Random games on sgfmill boards with suicide and simple-ko checks; return their lengths."""
    rnd = random.Random(seed)
    cap = max_moves(size)
    points = [(r, c) for r in range(size) for c in range(size)]
    lengths = []
    for _ in range(games):
        board = boards.Board(size)
        color = "b"
        ko: tuple[int, int] | None = None  # the point the player to move may not take
        passes = moves = 0
        while passes < 2 and moves < cap:
            empties = [p for p in points if board.get(*p) is None]
            n = len(empties)
            played = False
            while n > 0:  # uniform among acceptable points: reject and swap to the end
                i = rnd.randrange(n)
                r, c = empties[i]
                if (
                    (r, c) != ko
                    and not _sgf_eye_like(board, size, r, c, color)
                    and not _sgf_suicide(board, size, r, c, color)
                ):
                    ko = board.play(r, c, color)
                    played = True
                    break
                n -= 1
                empties[i], empties[n] = empties[n], empties[i]
            if played:
                passes = 0
            else:
                ko = None
                passes += 1
            moves += 1
            color = "w" if color == "b" else "b"
        lengths.append(moves)
    return lengths


# -- (d) C ----------------------------------------------------------------------------------


def build_c(workdir: Path) -> tuple[Path | None, str]:
    """Compile bench/c/playout.c with ``cc -O2``; return (executable or None, compiler note)."""
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        return None, f"no C compiler ({cc}) found"
    exe = workdir / "playout"
    proc = subprocess.run(
        [cc, "-O2", "-o", str(exe), str(C_SOURCE)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        return None, f"{cc} failed: {proc.stderr.strip()[:200]}"
    version = subprocess.run([cc, "--version"], capture_output=True, text=True, check=False)
    return exe, f"{cc} -O2 ({version.stdout.splitlines()[0] if version.stdout else '?'})"


def c_games(exe: Path, size: int, games: int, seed: int) -> tuple[int, float]:
    """Run the C playouts; return (total moves, seconds timed inside C)."""
    out = subprocess.run(
        [str(exe), str(size), str(games), str(seed)], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[1]), float(out[2])


# -- driver ---------------------------------------------------------------------------------


def games_for(size: int, pick: int, name: str) -> int:
    """Games to play for an implementation (sizes other than 9 use the 19x19 counts)."""
    return GAMES[name].get(size, GAMES[name][19])[pick]


def result(name: str, size: int, lengths: list[int], seconds: float) -> Result:
    """A Result from per-game lengths."""
    sd = float(np.std(lengths, ddof=1)) if len(lengths) > 1 else 0.0
    return Result(name, size, len(lengths), sum(lengths), seconds, sd)


def run(sizes: list[int], quick: bool, seed: int) -> tuple[list[Result], dict[str, object]]:
    """Measure every implementation on every size; return results and run metadata."""
    pick = 1 if quick else 0
    repeats = 1 if quick else REPEATS
    meta: dict[str, object] = {"seed": seed, "quick": quick, "max_moves": "3 * size * size"}
    meta["first_call_s"] = first_call_seconds()
    meta["numba_cache_hits"] = sum(pl.uniform_playout.stats.cache_hits.values())
    meta["cold_compile_s"] = cold_compile_seconds()
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        exe, meta["c_compiler"] = build_c(Path(tmp))
        for size in sizes:
            n = games_for(size, pick, "c")
            if exe is not None:
                c_games(exe, size, 1, seed)  # warm-up
                best_moves, best = 0, float("inf")
                for _ in range(repeats):
                    best_moves, secs = c_games(exe, size, n, seed)
                    best = min(best, secs)
                results.append(Result("c", size, n, best_moves, best))
            else:
                results.append(Result("c", size, 0, 0, 0.0, note=f"skipped: {meta['c_compiler']}"))
            slow = 1  # the Python implementations are timed once
            for name, fn, times in (
                ("tengen-compiled", compiled_games, repeats),
                ("tengen-api", api_games, slow),
                ("sgfmill", sgfmill_games, slow),
            ):
                n = games_for(size, pick, name)
                fn(size, 1, seed + 1)  # warm-up: compilation, caches
                play = partial(fn, size, n, seed)
                lengths, secs = best_of(play, times, CPU)
                results.append(result(name, size, lengths, secs))
    check(results)
    return results, meta


def check(results: list[Result]) -> None:
    """Annotate each result: same games as C, and average length consistent with the kernel's.

    The Python implementations draw other random games, so their mean length is compared with
    the kernel's in standard errors (z); |z| > 4 flags a different workload.
    """
    for size in {r.size for r in results}:
        rows = {r.implementation: r for r in results if r.size == size}
        c, ref = rows.get("c"), rows["tengen-compiled"]
        if c is not None and c.games:
            same = c.games == ref.games and c.moves == ref.moves
            c.length_sd = ref.length_sd if same else float("nan")
            ref.note = "same games as C" if same else "DIFFERENT games from C"
        for r in rows.values():
            if r.implementation in ("c", "tengen-compiled") or not r.games:
                continue
            se = math.hypot(
                ref.length_sd / math.sqrt(ref.games), ref.length_sd / math.sqrt(r.games)
            )
            z = (r.moves_per_game - ref.moves_per_game) / se if se > 0 else float("inf")
            verdict = "length ok" if abs(z) <= 4 else "LENGTH DIFFERS"
            r.note = f"{verdict} (z={z:+.1f} vs tengen-compiled)"


# The tengen row each peer is measured against.
TENGEN_ROW = {"c": "tengen-compiled", "sgfmill": "tengen-api"}


def tengen_over(results: list[Result], r: Result) -> float | None:
    """The matching tengen row's moves/s over this peer row's (None for tengen's rows)."""
    mine = TENGEN_ROW.get(r.implementation)
    ours = next((x for x in results if x.implementation == mine and x.size == r.size), None)
    if ours is None or not ours.games or not r.games:
        return None
    return ratio(ours.moves_per_s, r.moves_per_s)


def _fmt(x: float, spec: str) -> str:
    """`x` formatted, or "-" for NaN."""
    return "-" if math.isnan(x) else format(x, spec)


def _finite(x: float | None) -> float | None:
    """NaN as None, so that the JSON file is strict JSON."""
    return None if x is None or math.isnan(x) else x


def table(results: list[Result]) -> str:
    """The results as an aligned text table."""
    head = (
        "implementation",
        "size",
        "games",
        "moves",
        "seconds",
        "games/s",
        "moves/s",
        "moves/game",
        "sd",
        "tengen/peer",
        "note",
    )
    body: list[tuple[str, ...]] = []
    for r in results:
        versus = tengen_over(results, r)
        body.append(
            (
                r.implementation,
                f"{r.size}x{r.size}",
                f"{r.games}",
                f"{r.moves}",
                f"{r.seconds:.3f}",
                _fmt(r.games_per_s, ",.1f"),
                _fmt(r.moves_per_s, ",.0f"),
                _fmt(r.moves_per_game, ".1f"),
                _fmt(r.length_sd, ".1f"),
                "-" if versus is None else f"{versus:.2f}",
                r.note,
            )
        )
    return render(head, body)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games only (smoke run)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], help="board sizes")
    parser.add_argument("--seed", type=int, default=12345, help="nonzero random seed")
    args = parser.parse_args(argv)
    if args.seed <= 0:
        parser.error("--seed must be positive")
    before = load()
    results, meta = run(args.sizes, args.quick, args.seed)
    meta["load_before"], meta["load_after"] = before, load()
    cold = meta["cold_compile_s"]
    print(table(results))
    print(
        f"\n{RATIO_NOTE}: tengen-compiled for c, tengen-api for sgfmill. Moves include passes;"
        " every row is timed in CPU time of its process (single-threaded)."
        f"\n{meta['load_before']} before, {meta['load_after']} after"
        f"\nnumba: first playout call {meta['first_call_s']:.2f} s "
        f"(cache hits {meta['numba_cache_hits']}); cold compile "
        + ("failed" if cold is None else f"{cold:.2f} s")
        + f"; both excluded above. C: {meta['c_compiler']}"
    )
    meta.update(machine())
    payload = {
        "meta": meta,
        "results": [
            {
                **asdict(r),
                "length_sd": _finite(r.length_sd),
                "games_per_s": _finite(r.games_per_s),
                "moves_per_s": _finite(r.moves_per_s),
                "moves_per_game": _finite(r.moves_per_game),
                "tengen_over_this": tengen_over(results, r),
            }
            for r in results
        ],
    }
    write_json(args.out, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
