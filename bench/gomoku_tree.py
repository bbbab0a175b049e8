"""Nodes to each depth: the Gomoku player's search beside Rapfi's, on the same positions.

tengen's player at 1 s a move plays about as well as Rapfi held to 5,000-7,000 nodes, which
is about as deep (9-12 plies), while tengen searches some 600,000 nodes (bench/STRENGTH.md):
the gap is how many nodes each search spends on a ply. Over the middle-game positions of
bench/gomoku_search.py (the puzzle games cut after 10, 14 and 18 moves), tengen searches each
as the player does (`ai.gomoku.search.Search` over the 16 best-ranked legal moves, one
thread) to each depth of 1 to ``--depth`` afresh, counting its nodes (the threat searches'
at the horizon among them); Rapfi (``build/rapfi/pbrain-rapfi``, classical, one thread,
``--rapfi-nodes`` a position) reports its nodes so far at each depth it completes. A depth
counts a position when both searches reached it without a forced win or loss. The table:
the nodes summed over those positions, their ratio, and each search's growth from the depth
before (its effective branching factor; over the same positions).

Run ``python bench/gomoku_tree.py [--depth 10] [--rapfi-nodes 2000000]`` with ``PYTHONPATH``
at the tengen source tree to measure; where Rapfi is missing only tengen's columns are
printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from gomoku_review import RAPFI, Rapfi, rule_number
from gomoku_search import game_of, positions, roots_of

Counts = dict[int, int]  # nodes to reach each depth, for one position


def tengen_counts(rule: str, moves: list[tuple[int, int]], deepest: int) -> Counts:
    """Nodes tengen's search takes to complete each depth up to `deepest`, each searched
    afresh (as Rapfi's count is, from the start of its iterative deepening); it stops at a
    forced win or loss."""
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.search import WON, Search

    game = game_of(rule, moves)
    me = int(game.to_play)
    counts = {}
    for depth in range(1, deepest + 1):
        pos = Position.of(game)
        report = Search(pos, time.monotonic() + 3600).run(
            me, roots_of(pos, game), 1e18, max_depth=depth
        )
        if report.depth < depth or abs(report.score) >= WON:
            break
        counts[depth] = pos.nodes
    return counts


def rapfi_counts(rapfi: Rapfi, moves: list[tuple[int, int]]) -> Counts:
    """Rapfi's nodes so far at each depth it completes with an eval that is not a mate."""
    return {depth: nodes for depth, nodes, _, value in rapfi.depths(moves) if "M" not in value}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="tengen's deepest depth")
    parser.add_argument("--rapfi-nodes", type=int, default=2_000_000)
    args = parser.parse_args()
    os.environ["TENGEN_JIT"] = "compiled"
    from tengen.gomoku import Rule

    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    every = positions()
    tengen_counts(*every[0], 2)  # compile (or load numba's cache)
    rapfis: dict[str, Rapfi] = {}
    if RAPFI.exists():
        for rule in {rule for rule, _ in every}:
            rapfis[rule] = Rapfi(60_000, args.rapfi_nodes, rule_number(Rule(rule)))
    else:
        print(f"no Rapfi at {RAPFI} (make rapfi builds it): tengen's columns only")
    ours: list[Counts] = []
    theirs: list[Counts] = []
    for k, (rule, moves) in enumerate(every, 1):
        ours.append(tengen_counts(rule, moves, args.depth))
        theirs.append(rapfi_counts(rapfis[rule], moves) if rapfis else {})
        print(f"{k}/{len(every)} positions", file=sys.stderr, flush=True)
    for rapfi in rapfis.values():
        rapfi.close()
    deepest = max([args.depth, *(d for counts in theirs for d in counts)])
    print("| depth | positions | tengen's nodes | Rapfi's nodes | ratio | tengen's growth |"
          " Rapfi's growth |\n|---:|---:|---:|---:|---:|---:|---:|")  # fmt: skip
    for depth in range(2, deepest + 1):
        searches = ([ours] if depth <= args.depth else []) + ([theirs] if rapfis else [])
        both = [
            k
            for k in range(len(every))
            if searches and all(depth in c[k] and depth - 1 in c[k] for c in searches)
        ]
        if not both:
            continue
        cells = []
        for counts in (ours, theirs):
            now = sum(counts[k].get(depth, 0) for k in both)
            before = sum(counts[k].get(depth - 1, 0) for k in both)
            cells.append((f"{now:,}", f"{now / before:.2f}", now) if now else ("", "", 0))
        (mine, my_growth, a), (their_nodes, rapfi_growth, b) = cells
        ratio = f"{a / b:.1f}" if a and b else ""
        row = [str(depth), str(len(both)), mine, their_nodes, ratio, my_growth, rapfi_growth]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
