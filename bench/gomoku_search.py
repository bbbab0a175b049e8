"""The Gomoku player's alpha-beta search: nodes per second and depth reached at a fixed time;
and its VCF solver's nodes per second.

Middle-game positions are the puzzle set's games (tests/data/gomoku_vcf.txt: self-play games
of the built-in player, freestyle and renju) cut after 10, 14 and 18 moves. Each is searched
as the player searches (`ai.gomoku.search.Search` over the 16 best-ranked legal moves, no new
depth past 45% of the time, up to depth 20: the player stops at `search.MAX_DEPTH`) for
`--seconds`, after one search to compile. ``--src`` lists tengen source trees (e.g. the
previous commit's, ``git archive <commit> src | tar -x -C /tmp/old``); each is measured in
its own process, one after the other, in the same run. The VCF solver looks for a win by
fours of either side (as the player does for the opponent, moving twice) in the same
positions and the puzzles' own, with no node limit: a few hundred nodes in all, so its rate
is a rough figure.

With ``--depth D`` each position is searched instead to depth D with no deadline, on
``--threads`` threads, and the time to reach it is what is measured (a parallel search's
speedup, or a change that should leave the tree alone); ``--passes`` measures the trees that
many times, alternating, and ends with each tree's mean and range (the machine's noise is
10-20% a pass).

Run ``python bench/gomoku_search.py [--seconds 0.3 | --depth 12 --threads 2 --passes 3]
[--src src /tmp/old/src]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # tengen is imported late: `--src` and TENGEN_JIT choose which and how
    from tengen.ai.gomoku.position import Position
    from tengen.gomoku import GomokuGame

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "tests" / "data" / "gomoku_vcf.txt"
CUTS = (10, 14, 18)
ROOTS = 16


def positions(cuts: tuple[int, ...] = CUTS) -> list[tuple[str, list[tuple[int, int]]]]:
    """(rule, moves) of the puzzle games cut after each of `cuts` moves (0: not cut)."""
    found = []
    for text in PUZZLES.read_text().splitlines():
        rule, moves = text.split("\t")
        points = [tuple(map(int, m.split(","))) for m in moves.split()]
        for cut in cuts:
            if cut < len(points) - 2:
                found.append((rule, [(c, r) for c, r in points[: cut or len(points)]]))
    return found


def game_of(rule: str, moves: list[tuple[int, int]]) -> GomokuGame:
    """The game after `moves` (column, row) under `rule`."""
    from tengen.core.coords import Point
    from tengen.gomoku import GomokuGame, GomokuRules, Rule

    game = GomokuGame(GomokuRules(Rule(rule)))
    for c, r in moves:
        game.play(Point(c, r))
    return game


def roots_of(pos: Position, game: GomokuGame) -> list[int]:
    """The root moves the player searches in `game` (`pos` its position): the `ROOTS`
    best-ranked legal points."""
    me = int(game.to_play)
    legal = {pos.index(p) for p in game.legal_moves()}
    return [m for m in pos.ranked(me) if m in legal][:ROOTS]


def measure(seconds: float, depth: int, threads: int) -> dict[str, float]:
    """Search every position for `seconds` (or to `depth`, when not 0) on `threads` threads in
    this process's tengen; the totals."""
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.search import Search
    from tengen.ai.gomoku.threats import ThreatSearch

    def search(rule: str, moves: list[tuple[int, int]], limit: float) -> tuple[int, int, float]:
        game = game_of(rule, moves)
        pos = Position.of(game)
        start = time.monotonic()
        soft = start + (limit if depth else 0.45 * limit)
        searching = Search(pos, start + limit, threads)
        report = searching.run(int(game.to_play), roots_of(pos, game), soft, depth or 20)
        return report.depth, searching.nodes, time.monotonic() - start

    def solve(rule: str, moves: list[tuple[int, int]]) -> tuple[int, float]:
        pos = Position.of(game_of(rule, moves))
        start = time.monotonic()
        for side in (1, 2):
            ThreatSearch(pos, 10**8, 60.0).vcf(side)
        return pos.nodes, time.monotonic() - start

    every = positions()
    search(*every[0], 1.0)  # compile (or load numba's cache)
    solve(*every[0])
    depths, nodes, spent, vcf_nodes, vcf_spent = [], 0, 0.0, 0, 0.0
    for rule, moves in every:
        reached, count, took = search(rule, moves, 10_000.0 if depth else seconds)
        depths.append(reached)
        nodes += count
        spent += took
    for rule, moves in every + positions((0,)):
        count, took = solve(rule, moves)
        vcf_nodes += count
        vcf_spent += took
    return {
        "vcf_nodes": vcf_nodes,
        "vcf_seconds": vcf_spent,
        "positions": len(every),
        "nodes": nodes,
        "seconds": spent,
        "depth_mean": sum(depths) / len(depths),
        "depth_min": min(depths),
        "depth_max": max(depths),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--depth", type=int, default=0, help="search to this depth instead")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--src", nargs="+", default=[str(ROOT / "src")])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.seconds, args.depth, args.threads)))
        return
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    took: dict[str, list[float]] = {src: [] for src in args.src}
    for _ in range(args.passes):
        for src in args.src:
            env = dict(os.environ, PYTHONPATH=src, TENGEN_JIT="compiled")
            command = [sys.executable, __file__, "--child", "--seconds", str(args.seconds)]
            command += ["--depth", str(args.depth), "--threads", str(args.threads)]
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            row = json.loads(done.stdout.strip().splitlines()[-1])
            took[src].append(row["seconds"])
            rate = row["nodes"] / row["seconds"]
            limit = f"to depth {args.depth}" if args.depth else f"at {args.seconds:g} s"
            print(
                f"{src}: {row['positions']} positions {limit} on {args.threads} thread(s): "
                f"{row['nodes']:,} nodes in {row['seconds']:.2f} s, {rate:,.0f} nodes/s, depth "
                f"{row['depth_mean']:.1f} ({row['depth_min']}-{row['depth_max']}); VCF: "
                f"{row['vcf_nodes']:,} nodes in {row['vcf_seconds']:.2f} s, "
                f"{row['vcf_nodes'] / row['vcf_seconds']:,.0f} nodes/s",
                flush=True,
            )
    if args.passes > 1:
        for src, times in took.items():
            mean = sum(times) / len(times)
            print(f"{src}: mean {mean:.2f} s ({min(times):.2f}-{max(times):.2f})")


if __name__ == "__main__":
    main()
