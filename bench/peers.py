"""tengen against OpenSpiel and pgx (CPU): random playouts, move-by-move API, memory per game.

One run measures, on 9x9 and 19x19, every implementation on the workload of ``bench/playout.py``
(from the empty board each move uniform among the legal points, simple ko, no suicide, that do
not fill the mover's own eye; a pass when there is none; the game ends after two passes in a row
or ``3 * size * size`` moves, passes counted as moves), and gives ratios from that same run:

* playouts: ``c`` (``bench/c/playout.c``, one core), ``tengen-compiled`` (the single-game
  kernel, one core), ``tengen-batch n=1024 threads=T`` (``tengen.batch``), ``openspiel``
  (``pyspiel`` Go driven from Python, with the eye rule added on top from its observation
  tensor, since its legal actions include eye-filling), ``openspiel-no-eye`` (its raw legal
  actions: a different, longer workload, shown for moves/s only), and ``pgx b=1`` / ``pgx
  b=1024`` (``jax.jit`` of a ``lax.while_loop`` over ``vmap(env.step)`` on the CPU, the eye rule
  added in jax; compile time excluded and reported);
* move by move through each library's public Python API (list the legal moves, drop the
  eye-filling ones, pick one at random, play it): ``tengen-api``, ``openspiel``, ``sgfmill``;
* memory per game: a tengen ``Board``, a ``Game``, one game of a ``tengen.batch`` state, an
  OpenSpiel state (fresh and after a game, from the process's resident memory), one pgx state.

Run ``python bench/peers.py [--quick] [--out PATH] [--sizes 9 19]`` from ``bench/.venv`` (``make
bench-env``); a peer that cannot be imported is reported as skipped. JSON goes to
``bench/results/peers.json``.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numba
import numpy as np

import batch as batch_bench
import playout as playout_bench
from common import CPU, RATIO_NOTE, RESULTS, best_of, load, machine, render, write_json
from common import ratio as rate_ratio
from tengen import batch
from tengen.core import Board, Game, KoRule, Ruleset, Scoring

DEFAULT_OUT = RESULTS / "peers.json"
SIMPLE_KO = Ruleset("bench-simple-ko", KoRule.SIMPLE, Scoring.AREA, suicide_allowed=False)
BATCH = 1024
QUICK_PGX_STEPS = 5  # --quick: pgx b=1024 plays this many moves a game (whole games: minutes)
REPEATS = 3  # fast rows: best of this many timings

# Games per row and size: (full run, --quick run). Sizes other than 9 use the 19x19 counts.
GAMES: dict[str, dict[int, tuple[int, int]]] = {
    "c": {9: (20_000, 500), 19: (4_000, 100)},
    "tengen-compiled": {9: (20_000, 500), 19: (4_000, 100)},
    "tengen-batch": {9: (16_384, 1024), 19: (4_096, 1024)},
    "openspiel": {9: (300, 30), 19: (40, 4)},
    "openspiel-no-eye": {9: (100, 30), 19: (10, 4)},
    "pgx b=1": {9: (20, 2), 19: (4, 1)},
    "pgx b=1024": {9: (1024, 1024), 19: (1024, 1024)},
    "tengen-api": {9: (100, 30), 19: (10, 4)},
    "tengen-api-raw": {9: (100, 30), 19: (10, 4)},
    "sgfmill": {9: (200, 5), 19: (20, 1)},
}


@dataclass
class Row:
    """One implementation on one board size and table."""

    table: str  # "playout" or "api"
    name: str
    size: int
    games: int
    moves: int
    seconds: float
    note: str = ""

    @property
    def moves_per_s(self) -> float:
        """Moves (passes included) per second."""
        return self.moves / self.seconds if self.seconds > 0 and self.games else float("nan")

    @property
    def games_per_s(self) -> float:
        """Games per second."""
        return self.games / self.seconds if self.seconds > 0 and self.games else float("nan")

    @property
    def moves_per_game(self) -> float:
        """Average game length, passes included."""
        return self.moves / self.games if self.games else float("nan")


def n_games(name: str, size: int, quick: bool) -> int:
    """Games to play for a row."""
    per = GAMES[name]
    return per.get(size, per[19])[1 if quick else 0]


def neighbour_tables(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Orthogonal and diagonal neighbour indices of each point (row-major), -1 off the board."""
    orth = np.full((size * size, 4), -1, np.int32)
    diag = np.full((size * size, 4), -1, np.int32)
    for r in range(size):
        for c in range(size):
            for i, (dr, dc) in enumerate(((-1, 0), (0, -1), (0, 1), (1, 0))):
                if 0 <= r + dr < size and 0 <= c + dc < size:
                    orth[r * size + c, i] = (r + dr) * size + c + dc
            for i, (dr, dc) in enumerate(((-1, -1), (-1, 1), (1, -1), (1, 1))):
                if 0 <= r + dr < size and 0 <= c + dc < size:
                    diag[r * size + c, i] = (r + dr) * size + c + dc
    return orth, diag


# -- OpenSpiel ------------------------------------------------------------------------------


def openspiel_game(size: int) -> Any:
    """pyspiel's Go with komi 7.5 and the bench's move cap."""
    import pyspiel

    params = {"board_size": size, "komi": 7.5, "max_game_length": playout_bench.max_moves(size)}
    return pyspiel.load_game("go", params)


def openspiel_games(size: int, games: int, seed: int, eye_rule: bool = True) -> int:
    """Random games through pyspiel's API (legal_actions, choice, apply_action); total moves.

    With `eye_rule`, the mover's own eyes are dropped from the legal actions, read from the
    observation tensor (planes: black, white, empty, to-play; point index = action index).
    """
    game = openspiel_game(size)
    rnd = random.Random(seed)
    points = size * size
    orth, diag = neighbour_tables(size)
    nbrs = [[int(q) for q in row if q >= 0] for row in orth]
    diags = [[int(q) for q in row if q >= 0] for row in diag]
    edge = [len(n) < 4 for n in nbrs]
    moves = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            if eye_rule and len(actions) > 1:
                obs = state.observation_tensor()
                me = state.current_player()  # 0 black, 1 white: plane index of own stones
                own = obs[me * points : (me + 1) * points]
                enemy = obs[(1 - me) * points : (2 - me) * points]
                actions = [
                    a
                    for a in actions
                    if a == points
                    or not (
                        all(own[q] for q in nbrs[a])
                        and sum(enemy[q] for q in diags[a]) <= (0 if edge[a] else 1)
                    )
                ]
            state.apply_action(rnd.choice(actions) if len(actions) > 1 else points)
            moves += 1
    return moves


# -- pgx ------------------------------------------------------------------------------------


class PgxRunner:
    """Whole random games of pgx Go on the CPU in one jitted ``lax.while_loop``."""

    def __init__(self, size: int, n: int, max_steps: int | None = None) -> None:
        import jax
        import jax.numpy as jnp
        import pgx.go

        self.jax, self.size, self.n = jax, size, n
        cap = playout_bench.max_moves(size)
        env = pgx.go.Go(size=size, komi=7.5, max_terminal_steps=cap)
        orth_np, diag_np = neighbour_tables(size)
        orth, diag = jnp.asarray(orth_np), jnp.asarray(diag_np)
        edge = jnp.asarray((orth_np < 0).any(axis=1))
        points = size * size

        def policy(state: Any, key: Any) -> Any:
            """Uniform among legal non-eye points; pass when there is none."""
            x = state._x
            sign = jnp.where(x.color == 0, 1, -1)
            stones = jnp.append(jnp.sign(x.board) * sign, 0)  # +1 own, -1 enemy; [-1]: off-board
            o, d = stones[orth], stones[diag]
            own_around = ((o == 1) | (orth < 0)).all(axis=1)
            enemy_diag = ((d == -1) & (diag >= 0)).sum(axis=1)
            eye = own_around & (enemy_diag <= jnp.where(edge, 0, 1))
            ok = state.legal_action_mask[:points] & ~eye
            noise = jax.random.uniform(key, (points,))
            pick = jnp.argmax(jnp.where(ok, noise, -1.0))
            return jnp.where(ok.any(), pick, points)

        step = jax.vmap(env.step)
        pick = jax.vmap(policy)

        def games(key: Any) -> Any:
            state = jax.vmap(env.init)(jax.random.split(key, n))

            def body(carry: Any) -> Any:
                state, key = carry
                key, sub = jax.random.split(key)
                return step(state, pick(state, jax.random.split(sub, n))), key

            def going(carry: Any) -> Any:
                state = carry[0]
                more = ~state.terminated.all()
                if max_steps is None:
                    return more
                return more & (state._x.step_count.max() < max_steps)

            state, _ = jax.lax.while_loop(going, body, (state, key))
            return state._x.step_count.sum(), state

        self.games = jax.jit(games)
        self.run: Any = None
        self.init = jax.jit(jax.vmap(env.init))

    def compile_seconds(self) -> float:
        """Compile ahead of time (no game played); the seconds it took."""
        start = time.perf_counter()
        self.run = self.games.lower(self.jax.random.PRNGKey(0)).compile()
        return time.perf_counter() - start

    def play(self, games: int, seed: int) -> int:
        """Play `games` games in batches of n; total moves (passes included)."""
        moves = 0
        for b in range(0, games, self.n):
            moves += int(self.run(self.jax.random.PRNGKey(seed + b))[0])
        return moves

    def state_bytes(self) -> float:
        """Bytes of one game's state (all leaves of the batched state over n)."""
        state = self.init(self.jax.random.split(self.jax.random.PRNGKey(0), self.n))
        leaves = self.jax.tree_util.tree_leaves(state)
        return sum(leaf.nbytes for leaf in leaves) / self.n


# -- tengen ---------------------------------------------------------------------------------


def tengen_batch_games(size: int, games: int, seed: int, threads: int) -> int:
    """tengen.batch random playouts in batches of BATCH on `threads` threads; total moves."""
    numba.set_num_threads(threads)
    return batch_bench.batched(size, games, seed, BATCH)


def try_import(name: str) -> str | None:
    """None when `name` imports, else the reason it does not."""
    try:
        __import__(name)
    except Exception as exc:  # any failure means the peer is skipped, with the reason
        return f"skipped: import {name} failed ({type(exc).__name__}: {exc})"[:160]
    return None


def playout_rows(size: int, quick: bool, seed: int, meta: dict[str, Any]) -> list[Row]:
    """Every playout row on one size."""
    reps = 1 if quick else REPEATS
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        exe, meta["c_compiler"] = playout_bench.build_c(Path(tmp))
        n = n_games("c", size, quick)
        if exe is None:
            rows.append(Row("playout", "c", size, 0, 0, 0.0, f"skipped: {meta['c_compiler']}"))
        else:
            playout_bench.c_games(exe, size, 1, seed)  # warm-up, as before every timed row
            moves, secs = min(
                (playout_bench.c_games(exe, size, n, seed) for _ in range(reps)),
                key=lambda r: r[1],
            )
            rows.append(Row("playout", "c", size, n, moves, secs, "1 core"))
    n = n_games("tengen-compiled", size, quick)
    playout_bench.compiled_games(size, 1, seed)
    moves, secs = best_of(lambda: sum(playout_bench.compiled_games(size, n, seed)), reps, CPU)
    rows.append(Row("playout", "tengen-compiled", size, n, moves, secs, "1 core"))
    n = n_games("tengen-batch", size, quick)
    cores = os.cpu_count() or 1
    for t in sorted({1, min(2, cores)}):
        tengen_batch_games(size, 2, seed, t)
        moves, secs = best_of(partial(tengen_batch_games, size, n, seed, t), reps)
        name = f"tengen-batch n={BATCH} threads={t}"
        rows.append(Row("playout", name, size, n, moves, secs, f"{t} core(s)"))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    if (why := try_import("pyspiel")) is None:
        n = n_games("openspiel", size, quick)
        openspiel_games(size, 1, seed + 1)
        moves, secs = best_of(partial(openspiel_games, size, n, seed), 1, CPU)
        rows.append(Row("playout", "openspiel", size, n, moves, secs, "eye rule added in Python"))
        n = n_games("openspiel-no-eye", size, quick)
        openspiel_games(size, 1, seed + 1, False)
        moves, secs = best_of(partial(openspiel_games, size, n, seed, False), reps, CPU)
        note = "raw legal actions: fills eyes, other workload (moves/s only)"
        rows.append(Row("playout", "openspiel-no-eye", size, n, moves, secs, note))
    else:
        rows.append(Row("playout", "openspiel", size, 0, 0, 0.0, why))
    if (why := try_import("pgx")) is None:
        for b in (1, BATCH):
            name = f"pgx b={b}"
            steps = QUICK_PGX_STEPS if quick and b == BATCH else None
            runner = PgxRunner(size, b, steps)
            compile_s = runner.compile_seconds()
            n = n_games(name, size, quick)
            moves, secs = best_of(partial(runner.play, n, seed), 1 if b == BATCH else reps)
            note = f"CPU, jit compile {compile_s:.1f} s excluded; ends on superko too"
            if steps is not None:
                note += f"; quick: the first {steps} moves of each game"
            rows.append(Row("playout", name, size, n, moves, secs, note))
            meta[f"pgx_compile_s_{size}_b{b}"] = compile_s
    else:
        rows.append(Row("playout", "pgx", size, 0, 0, 0.0, why))
    return rows


def api_rows(
    size: int, quick: bool, seed: int, openspiel: Row | None, openspiel_raw: Row | None
) -> list[Row]:
    """The move-by-move rows on one size (OpenSpiel's are its playout rows: the same code)."""
    rows = []
    reps = 1 if quick else REPEATS
    n = n_games("tengen-api", size, quick)
    playout_bench.api_games(size, 1, seed + 1)
    moves, secs = best_of(lambda: sum(playout_bench.api_games(size, n, seed)), reps, CPU)
    rows.append(Row("api", "tengen-api", size, n, moves, secs, "Game.legal_moves(own_eyes=False)"))
    if openspiel is not None:
        rows.append(Row("api", "openspiel", size, openspiel.games, openspiel.moves,
                        openspiel.seconds, "legal_actions + eye rule on observation"))  # fmt: skip
    n = n_games("tengen-api-raw", size, quick)
    playout_bench.api_games_raw(size, 1, seed + 1)
    moves, secs = best_of(lambda: sum(playout_bench.api_games_raw(size, n, seed)), reps, CPU)
    note = "Game.legal_moves(), play/pass_move: fills eyes"
    rows.append(Row("api", "tengen-api-raw", size, n, moves, secs, note))
    if (raw := openspiel_raw) is not None:
        note = "legal_actions + apply_action: fills eyes"
        rows.append(Row("api", "openspiel-raw", size, raw.games, raw.moves, raw.seconds, note))
    n = n_games("sgfmill", size, quick)
    playout_bench.sgfmill_games(size, 1, seed + 1)
    moves, secs = best_of(lambda: sum(playout_bench.sgfmill_games(size, n, seed)), 1, CPU)
    rows.append(Row("api", "sgfmill", size, n, moves, secs, "with suicide/ko checks added"))
    return rows


# -- memory ---------------------------------------------------------------------------------


def traced_bytes(make: Callable[[], Any], count: int) -> float:
    """Python-heap bytes (tracemalloc, numpy included) per object over `count` objects."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    keep = [make() for _ in range(count)]
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del keep
    return used / count


RSS_CODE = """
import os, random, sys
import pyspiel
size, moves, count = map(int, sys.argv[1:])
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
game = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
state, rnd = game.new_initial_state(), random.Random(1)
while not state.is_terminal() and state.move_number() < moves:
    state.apply_action(rnd.choice(state.legal_actions()))
base = rss()
keep = [state.clone() for _ in range(count)]
print(state.move_number(), (rss() - base) / count)
"""


def openspiel_state_bytes(size: int, moves: int, count: int = 20_000) -> tuple[int, float]:
    """(moves played, resident-memory growth per clone) of OpenSpiel states, in a fresh process.

    The states live in C++, where tracemalloc cannot see them; a fresh interpreter keeps the
    allocator's free lists from hiding the growth.
    """
    args = [sys.executable, "-c", RSS_CODE, str(size), str(moves), str(count)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), float(out[1])


def memory_rows(size: int) -> list[dict[str, Any]]:
    """Bytes per game for each representation on one size."""
    out: list[dict[str, Any]] = []

    def add(name: str, nbytes: float, how: str) -> None:
        out.append({"name": name, "size": size, "bytes_per_game": nbytes, "how": how})

    empty = Board(size)
    arrays = empty.state.nbytes + empty.hashes.nbytes + empty._buf.nbytes
    add("tengen Board (arrays)", arrays, "nbytes of its numpy arrays")
    add("tengen Board.copy()", traced_bytes(empty.copy, 2000), "tracemalloc, 2000 copies")
    add("tengen Game (fresh)", traced_bytes(lambda: Game(size, ruleset=SIMPLE_KO), 200),
        "tracemalloc, 200 games")  # fmt: skip
    for label, rules in (("simple ko", SIMPLE_KO), ("Tromp-Taylor, superko table", None)):
        state = batch.init(BATCH, size) if rules is None else batch.init(BATCH, size, rules)
        nbytes = sum(v.nbytes for v in vars(state).values() if isinstance(v, np.ndarray))
        add(f"tengen.batch per game ({label})", nbytes / BATCH, f"nbytes / n, n={BATCH}")
    if try_import("pyspiel") is None:
        for moves in (0, size * size):
            played, nbytes = openspiel_state_bytes(size, moves)
            add(f"openspiel state (after {played} moves)", nbytes,
                "RSS growth over 20000 clones, fresh process")  # fmt: skip
    if try_import("pgx") is None:
        for b in (1, BATCH):
            add(f"pgx state (batch {b}) per game", PgxRunner(size, b).state_bytes(),
                "nbytes of the state's arrays / batch")  # fmt: skip
    return out


# -- report ---------------------------------------------------------------------------------


def find(rows: list[Row], table: str, name: str, size: int) -> Row | None:
    """The measured row of that name, or None."""
    return next(
        (r for r in rows if (r.table, r.name, r.size) == (table, name, size) and r.games), None
    )


def ratio(num: Row | None, den: Row | None) -> float | None:
    """num's moves/s over den's (None when either is missing)."""
    if num is None or den is None or not num.games or not den.games:
        return None
    return rate_ratio(num.moves_per_s, den.moves_per_s)


def _fmt(x: float | None, spec: str) -> str:
    return "-" if x is None or math.isnan(x) else format(x, spec)


def comparisons(rows: list[Row]) -> dict[str, float | None]:
    """For every row: how many times tengen's matching row's moves/s is this row's."""
    out: dict[str, float | None] = {}
    for r in rows:
        key = f"{r.table}:{r.name}:{r.size}"
        if r.name.startswith("tengen"):
            out[key] = None
        elif r.name == "openspiel-raw":
            out[key] = ratio(find(rows, "api", "tengen-api-raw", r.size), r)
        elif r.table == "api":
            out[key] = ratio(find(rows, "api", "tengen-api", r.size), r)
        elif r.name.startswith(("pgx b=1024", "tengen-batch")):
            best = f"tengen-batch n={BATCH} threads={min(2, os.cpu_count() or 1)}"
            out[key] = ratio(find(rows, "playout", best, r.size), r)
        else:
            out[key] = ratio(find(rows, "playout", "tengen-compiled", r.size), r)
    return out


def tables(rows: list[Row], memory: list[dict[str, Any]], loads: dict[str, str]) -> str:
    """Playout, move-by-move and memory tables, each with the load while it was measured."""
    comp = comparisons(rows)
    head = ("implementation", "size", "games", "moves", "seconds", "games/s", "moves/s",
            "moves/game", "tengen/peer", "note")  # fmt: skip
    text = []
    for table in ("playout", "api"):
        body = []
        for r in (r for r in rows if r.table == table):
            body.append((r.name, f"{r.size}x{r.size}", str(r.games), str(r.moves),
                         f"{r.seconds:.3f}", _fmt(r.games_per_s, ",.1f"),
                         _fmt(r.moves_per_s, ",.0f"), _fmt(r.moves_per_game, ".1f"),
                         _fmt(comp[f"{r.table}:{r.name}:{r.size}"], ".2f"), r.note))  # fmt: skip
        title = "Random playouts" if table == "playout" else "Move by move through the API"
        text += [f"{title} ({loads[table]}):", render(head, body), ""]
    body = [(m["name"], f"{m['size']}x{m['size']}", f"{m['bytes_per_game']:,.0f}", m["how"])
            for m in memory]  # fmt: skip
    text += [f"Memory per game ({loads['memory']}):",
             render(("representation", "size", "bytes", "how"), body)]  # fmt: skip
    return "\n".join(text)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run, print the tables and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games only (smoke run)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], help="board sizes")
    parser.add_argument("--seed", type=int, default=12345, help="nonzero random seed")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory table")
    args = parser.parse_args(argv)
    playout_bench.compiled_games(9, 1, 1)  # numba compile or cache load, excluded
    batch_bench.batched(9, 2, 1, 2)
    meta: dict[str, Any] = {
        "seed": args.seed,
        "quick": args.quick,
        **machine(),
    }
    rows: list[Row] = []
    loads: dict[str, list[str]] = {"playout": [], "api": [], "memory": []}
    for size in args.sizes:
        loads["playout"].append(load())
        rows += playout_rows(size, args.quick, args.seed, meta)
        loads["api"].append(load())
        os_rows = (find(rows, "playout", "openspiel", size),
                   find(rows, "playout", "openspiel-no-eye", size))  # fmt: skip
        rows += api_rows(size, args.quick, args.seed, *os_rows)
    loads["memory"].append(load())
    memory = [] if args.no_memory else [m for s in args.sizes for m in memory_rows(s)]
    loads["memory"].append(load())
    meta["loads"] = loads
    print(tables(rows, memory, {t: "; ".join(v) for t, v in loads.items()}))
    print(
        f"\n{RATIO_NOTE}: tengen-compiled for single-game rows, tengen-batch threads=2 for"
        " batched rows, tengen-api (tengen-api-raw for openspiel-raw) for the move-by-move"
        f" rows. Single-threaded rows (c, tengen-compiled, openspiel, the move-by-move rows)"
        " are timed in their process's CPU time, batched rows (tengen-batch, pgx) in wall"
        f" time. {meta['cpu']}, {meta['cores']} cores. C: {meta.get('c_compiler')}"
    )
    comp = comparisons(rows)
    payload = {
        "meta": meta,
        "results": [
            {
                **asdict(r),
                "moves_per_s": None if math.isnan(r.moves_per_s) else r.moves_per_s,
                "games_per_s": None if math.isnan(r.games_per_s) else r.games_per_s,
                "tengen_over_this": comp[f"{r.table}:{r.name}:{r.size}"],
            }
            for r in rows
        ],
        "memory": memory,
    }
    write_json(args.out, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
