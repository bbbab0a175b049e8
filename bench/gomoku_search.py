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
speedup, or a change that should leave the tree alone). Each tree is served by its own
process, loaded once; the trees take turns position by position (the first to go alternating),
so that the machine's slow spells, which move a whole pass by 10-30%, fall on every tree
alike. ``--passes`` goes over the positions that many times; the end gives each tree's total
and its time (to a depth; at a fixed time, its time a node) against the first tree's: the
geometric mean of the per-position ratios, with a 95% interval from their spread.

Run ``python bench/gomoku_search.py [--seconds 0.3 | --depth 12 --threads 2 --passes 3]
[--src src /tmp/old/src]``.
"""

from __future__ import annotations

import argparse
import json
import math
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


def _search(rule: str, moves: list[tuple[int, int]], seconds: float, depth: int, threads: int
            ) -> tuple[int, int, float]:  # fmt: skip
    """Search one position as the player does for `seconds` (or to `depth` with no deadline,
    when not 0) on `threads` threads: the depth reached, the nodes and the seconds."""
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.search import Search

    limit = 10_000.0 if depth else seconds
    game = game_of(rule, moves)
    pos = Position.of(game)
    start = time.monotonic()
    soft = start + (limit if depth else 0.45 * limit)
    searching = Search(pos, start + limit, threads)
    report = searching.run(int(game.to_play), roots_of(pos, game), soft, depth or 20)
    return report.depth, searching.nodes, time.monotonic() - start


def _solve(rule: str, moves: list[tuple[int, int]]) -> tuple[int, float]:
    """The VCF solver's nodes and seconds looking for a win by fours of either side."""
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.threats import ThreatSearch

    pos = Position.of(game_of(rule, moves))
    start = time.monotonic()
    for side in (1, 2):
        ThreatSearch(pos, 10**8, 60.0).vcf(side)
    return pos.nodes, time.monotonic() - start


def _vcf_totals() -> tuple[int, float]:
    """The VCF solver's nodes and seconds over the positions and the puzzles' own."""
    nodes, spent = 0, 0.0
    for rule, moves in positions() + positions((0,)):
        count, took = _solve(rule, moves)
        nodes, spent = nodes + count, spent + took
    return nodes, spent


def _warm() -> None:
    """Compile the searches (or load numba's cache) untimed."""
    first = positions()[0]
    _search(*first, 1.0, 0, 1)
    _solve(*first)


def measure(seconds: float, depth: int, threads: int) -> dict[str, float]:
    """Search every position for `seconds` (or to `depth`, when not 0) on `threads` threads in
    this process's tengen; the totals."""
    _warm()
    every = positions()
    depths, nodes, spent = [], 0, 0.0
    for rule, moves in every:
        reached, count, took = _search(rule, moves, seconds, depth, threads)
        depths.append(reached)
        nodes += count
        spent += took
    vcf_nodes, vcf_spent = _vcf_totals()
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


def _serve(seconds: float, depth: int, threads: int) -> None:
    """A tree's process: warm up, then answer each line of stdin, a position's index or
    ``vcf``, with one line of JSON."""
    _warm()
    every = positions()
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() == "vcf":
            nodes, spent = _vcf_totals()
            print(json.dumps({"nodes": nodes, "seconds": spent}), flush=True)
            continue
        reached, nodes, spent = _search(*every[int(line)], seconds, depth, threads)
        print(json.dumps({"depth": reached, "nodes": nodes, "seconds": spent}), flush=True)


def _cost(row: dict[str, float], depth: int) -> float:
    """What a position cost a tree: to a `depth`, its time; at a fixed time, its time a node."""
    return row["seconds"] if depth else row["seconds"] / row["nodes"]


def _ratio(logs: list[float]) -> str:
    """The geometric mean of paired time ratios (their logs given) and its 95% interval."""
    mean = sum(logs) / len(logs)
    spread = (sum((x - mean) ** 2 for x in logs) / max(len(logs) - 1, 1)) ** 0.5
    half = 1.96 * spread / len(logs) ** 0.5
    return f"{math.exp(mean):.3f} [{math.exp(mean - half):.3f}, {math.exp(mean + half):.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--depth", type=int, default=0, help="search to this depth instead")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--src", nargs="+", default=[str(ROOT / "src")])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.seconds, args.depth, args.threads)
        return
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    command = [sys.executable, __file__, "--serve", "--seconds", str(args.seconds)]
    command += ["--depth", str(args.depth), "--threads", str(args.threads)]
    servers = []
    for src in args.src:
        env = dict(os.environ, PYTHONPATH=src, TENGEN_JIT="compiled")
        server = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)  # fmt: skip
        servers.append(server)
    for server in servers:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"

    def ask(server: subprocess.Popen[str], line: str) -> dict[str, float]:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(line + "\n")
        server.stdin.flush()
        return json.loads(server.stdout.readline())  # type: ignore[no-any-return]

    count = len(positions())
    rows: list[list[dict[str, float]]] = [[] for _ in servers]
    turn = 0
    for _ in range(args.passes):
        for i in range(count):
            order = list(range(len(servers)))
            order = order[turn % len(order) :] + order[: turn % len(order)]
            turn += 1
            for k in order:
                rows[k].append(ask(servers[k], str(i)))
    limit = f"to depth {args.depth}" if args.depth else f"at {args.seconds:g} s"
    for k, src in enumerate(args.src):
        nodes = sum(r["nodes"] for r in rows[k])
        spent = sum(r["seconds"] for r in rows[k])
        depths = [r["depth"] for r in rows[k]]
        vcf = ask(servers[k], "vcf")
        line = (
            f"{src}: {count} positions x {args.passes} {limit} on {args.threads} thread(s): "
            f"{nodes:,.0f} nodes in {spent:.2f} s, {nodes / spent:,.0f} nodes/s, depth "
            f"{sum(depths) / len(depths):.1f} ({min(depths):.0f}-{max(depths):.0f}); VCF: "
            f"{vcf['nodes']:,.0f} nodes in {vcf['seconds']:.2f} s, "
            f"{vcf['nodes'] / vcf['seconds']:,.0f} nodes/s"
        )
        if k:
            logs = [
                math.log(_cost(mine, args.depth) / _cost(first, args.depth))
                for mine, first in zip(rows[k], rows[0], strict=True)
            ]
            what = "time" if args.depth else "time a node"
            line += f"; {what} against the first tree's: {_ratio(logs)}"
        print(line, flush=True)
    for server in servers:
        assert server.stdin is not None
        server.stdin.close()
        server.wait()


if __name__ == "__main__":
    main()
