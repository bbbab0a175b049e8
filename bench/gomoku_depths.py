"""The Gomoku search at fixed depths: false root ties and the swing of the score with depth.

Over the middle-game positions of bench/gomoku_search.py (the puzzle games cut after 10, 14 and
18 moves), each searched as the player searches (`ai.gomoku.search.Search` over the 16
best-ranked legal moves) to each depth of ``--depths``, with no deadline:

- ties: the root moves reported with the best score (the player picks among them at random),
  and of those, how many are really worse: searched alone with a full window (fresh tables)
  to the same depth, they score below the best by more than ``--margin`` (the transposition
  table makes scores differ a little from one search to another);
- swing: the mean and median of |score(d) - score(d+1)| over the positions whose scores at
  both depths are not forced wins or losses (how much the horizon's side to move matters).

Run ``python bench/gomoku_depths.py [--depths 3 4 5 6 7 8 9 10]``, with ``PYTHONPATH`` at
the tengen source tree to measure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from gomoku_search import game_of, positions, roots_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=list(range(3, 11)))
    parser.add_argument("--margin", type=int, default=50)
    args = parser.parse_args()
    os.environ["TENGEN_JIT"] = "compiled"
    from tengen.ai.gomoku import pvs
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.search import WIN, WON, Search, k

    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    far = time.monotonic() + 10**6
    scores: dict[int, list[int | None]] = {d: [] for d in args.depths}
    ties = {d: [0, 0, 0] for d in args.depths}  # positions with ties, tied moves, worse ones
    for rule, moves in positions():
        game = game_of(rule, moves)
        me = int(game.to_play)
        for depth in args.depths:
            pos = Position.of(game)
            report = Search(pos, far).run(me, roots_of(pos, game), far, max_depth=depth)
            best = max(report.scores.values())
            tied = [m for m, s in report.scores.items() if s == best]
            worse = 0
            if len(tied) > 1:
                for m in tied:
                    alone = Position.of(game)
                    alone.place(m, me)
                    tables = pvs.tables(alone.n, far)
                    full = -k.root(alone.s, tables, 3 - me, depth - 1, -2 * WIN, 2 * WIN, 1)
                    worse += int(full < best - args.margin)
            ties[depth][0] += len(tied) > 1
            ties[depth][1] += len(tied) if len(tied) > 1 else 0
            ties[depth][2] += worse
            won = abs(report.score) >= WON or report.depth < depth
            scores[depth].append(None if won else report.score)
            row = f"{rule} {len(moves)} moves, depth {depth}: move {report.move}, "
            print(row + f"score {report.score}, {len(tied)} tied, {worse} of them worse")
    count = len(scores[args.depths[0]])
    print(f"depth  positions with ties (of {count}), tied moves, really worse; swing to next")
    for d, e in zip(args.depths, [*args.depths[1:], None], strict=True):
        line = f"{d:>5}  {ties[d][0]}, {ties[d][1]}, {ties[d][2]}"
        if e is None:
            print(line)
            continue
        swings = [
            abs(a - b)
            for a, b in zip(scores[d], scores[e], strict=True)
            if a is not None and b is not None
        ]
        if swings:
            mean, median = statistics.mean(swings), statistics.median(swings)
            line += f"; mean {mean:,.0f}, median {median:,.0f} ({len(swings)} positions)"
        print(line)


if __name__ == "__main__":
    main()
