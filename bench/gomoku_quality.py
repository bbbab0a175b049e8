"""How good the Gomoku player's single moves are, by Rapfi's judgement (a program tengen did
not write): where it blunders, and whether more time or a change mends it.

Matches of 52 games move by 50-100 Elo from run to run, and head-to-head gains have carried
over to Rapfi only in part (bench/STRENGTH.md). Here Rapfi (``build/rapfi/pbrain-rapfi``,
classical, one thread, a node limit so that its answers do not move with the load) judges
single moves instead, in three resumable steps:

- ``collect DIR... --out FILE``: positions from match games against Rapfi (``DIR/**/games/*.sgf``)
  where tengen (the player not named ``rapfi``) is to move, 4 to 40 stones on the board; each
  is evaluated by Rapfi, and ``--count`` of those it calls open (win rate 0.1-0.9 for the side
  to move) are kept, drawn with a fixed seed. A line of FILE: rule, Rapfi's move, the moves.
  With ``--book``, every position of 3 stones or more that the opening book holds instead
  (each once, by its canonical orientation), open or not: where the book played.
- ``play FILE --out PICKS [--seconds S] [--threads T]``: the player on ``PYTHONPATH`` (a tree
  frozen with ``git archive`` and warmed, as for bench/gomoku_strength.py) picks its move in
  each position under its own clock (``--no-book``: without its opening book).
- ``judge FILE PICKS...``: Rapfi evaluates each position after each picked move and after its
  own move (cached in bench/results/gomoku/judged/: a move is judged once) and prints, for
  each PICKS, the mean loss in Rapfi's win rate against its own move (its win rate is
  sigmoid(eval / 200), Config::ScalingFactor; a mate is 0 or 1), the blunders (a loss above
  0.3) and how often the pick is Rapfi's move; then each PICKS against the first, paired by
  position, with the standard error of the mean difference; ``--by-stones`` adds each PICKS'
  mean loss by stones on the board, three at a time.

How sensitive it is (bench/STRENGTH.md): on the 600 positions of bench/positions/gomoku_open.txt
(collected from the fourth to sixth sessions' games against Rapfi, 500,000 nodes), the same
tree at 0.33 s, 1 s and 3 s a move (about 180 Elo a step in matches) lost 0.0375, 0.0349 and,
on the 300 measured, 0.0233 against 0.0316; two runs of one tree at 1 s differed by 0.003,
and the standard error of a difference over 600 positions is about 0.004. So it resolves
about 100 Elo, no better than a match of the same machine time: it is for finding where the
player goes wrong (its blunders, which more time does or does not mend), not for ranking
close variants.

Run ``python bench/gomoku_quality.py collect /tmp/matches --out bench/results/gomoku/q.txt``
(or take bench/positions/gomoku_open.txt), then ``PYTHONPATH=/tmp/tree/src python
bench/gomoku_quality.py play bench/results/gomoku/q.txt --out picks-tree.txt`` for each tree,
then ``python bench/gomoku_quality.py judge bench/results/gomoku/q.txt picks-a.txt
picks-b.txt``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Collection
from pathlib import Path

from gomoku_review import LOST, Rapfi, black_result, match_records, record_moves

CACHE = Path(__file__).resolve().parent / "results" / "gomoku" / "judged"  # Rapfi's evals
RULES = {"freestyle": 0, "renju": 4}  # the Gomocup protocol's rule numbers
JUDGE_NODES = 500_000  # Rapfi's nodes a position: ~0.6 s on one thread of this machine
SCALE = 200.0  # Rapfi's eval a unit of the logistic win rate (Config::ScalingFactor)
BLUNDER = 0.3  # a loss of win rate this large is a blunder
Move = tuple[int, int]


def win_rate(value: int) -> float:
    """Rapfi's win rate for the side whose eval is `value` (a mate is 0 or 1)."""
    if abs(value) >= -LOST:
        return 1.0 if value > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-value / SCALE))


def read_games(
    dirs: list[Path], opponent: str | None = "rapfi", rules: Collection[str] = tuple(RULES)
) -> list[tuple[str, list[Move], int, float]]:
    """Each game's rule, moves, tengen's colour index (0 Black) and Black's result (1 won,
    0 lost, 0.5 otherwise) from match directories: the games of `rules` (by default those
    Rapfi judges) against `opponent` (a player's name in the records), or with None every
    game (a head-to-head's, tengen's colour then that of the name sorting first)."""
    games = []
    for path in match_records(dirs):
        text = path.read_text()
        rule = re.search(r"RU\[(\w+)\]", text)
        black = re.search(r"PB\[([^\]]*)\]", text)
        white = re.search(r"PW\[([^\]]*)\]", text)
        if not (rule and black and white) or rule.group(1) not in rules:
            continue
        if opponent is not None and opponent not in (black.group(1), white.group(1)):
            continue
        if opponent is not None:
            ours = int(black.group(1) == opponent)
        else:
            ours = int(black.group(1) > white.group(1))
        games.append((rule.group(1), record_moves(text), ours, black_result(text)))
    return games


def line(rule: str, best: Move, moves: list[Move]) -> str:
    """A position file's line."""
    return " ".join([rule, _text(best), *(_text(m) for m in moves)])


def parse(text: str) -> tuple[str, Move, list[Move]]:
    """A position file's line as rule, Rapfi's move and the moves."""
    rule, best, *moves = text.split()
    return rule, _move(best), [_move(m) for m in moves]


def _text(move: Move) -> str:
    return f"{move[0]},{move[1]}"


def _move(text: str) -> Move:
    x, y = text.split(",")
    return int(x), int(y)


def collect(args: argparse.Namespace) -> None:
    """Draw open positions where tengen is to move and write them with Rapfi's move."""
    if args.book:
        candidates = book_positions(read_games(args.dirs))
        print(f"{len(candidates)} positions the book holds", flush=True)
    else:
        seen, candidates = set(), []
        for rule, moves, ours, _ in read_games(args.dirs):
            for n in range(4, min(len(moves), 41)):
                if n % 2 == ours and (rule, tuple(moves[:n])) not in seen:
                    seen.add((rule, tuple(moves[:n])))
                    candidates.append((rule, moves[:n]))
        random.Random(args.seed).shuffle(candidates)
        print(f"{len(candidates)} candidate positions; keeping {args.count} open ones", flush=True)
    judges = {rule: Rapfi(60_000, args.nodes, number) for rule, number in RULES.items()}
    kept: list[str] = []
    try:
        for rule, moves in candidates:
            value, best = judges[rule].think(moves)
            if args.book or 0.1 <= win_rate(value) <= 0.9:
                kept.append(line(rule, best, moves))
                if len(kept) % 25 == 0:
                    print(f"{len(kept)} kept", flush=True)
                if len(kept) == args.count and not args.book:
                    break
    finally:
        for judge in judges.values():
            judge.close()
    args.out.write_text("\n".join(kept) + "\n")


def book_positions(games: list[tuple[str, list[Move], int, float]]) -> list[tuple[str, list[Move]]]:
    """The positions of `games` (`read_games`) where tengen is to move with 3 stones or more
    that its opening book holds, each once by its canonical orientation."""
    from tengen.ai.gomoku import book
    from tengen.core.coords import Point
    from tengen.gomoku import GomokuGame, GomokuRules, Rule

    seen, found = set(), []
    for rule, moves, ours, _ in games:
        game = GomokuGame(GomokuRules(Rule(rule)))
        for n, (x, y) in enumerate(moves):
            if n >= 3 and n % 2 == ours and book.move(game) is not None:
                key = (rule, book.canonical(*book.stones(game))[0])
                if key not in seen:
                    seen.add(key)
                    found.append((rule, moves[:n]))
            game.play(Point(x, y))
    return found


def play(args: argparse.Namespace) -> None:
    """The player's move in each position, written one a line (resumable)."""
    from tengen.ai.gomoku_player import GomokuPlayer
    from tengen.core.coords import Point
    from tengen.gomoku import GomokuGame, GomokuRules, Rule

    positions = [parse(text) for text in args.positions.read_text().split("\n") if text]
    done = args.out.read_text().split("\n")[:-1] if args.out.exists() else []
    player = GomokuPlayer(
        seed=args.seed, time_limit=args.seconds, threads=args.threads, book=not args.no_book
    )
    player.warm()
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    with args.out.open("a") as out:
        for k, (rule, _, moves) in enumerate(positions[len(done) :], start=len(done)):
            game = GomokuGame(GomokuRules(Rule(rule)))
            for x, y in moves:
                game.play(Point(x, y))
            start = time.monotonic()
            p = player.genmove(game)
            out.write(f"{p.col},{p.row} {player.last_depth} {time.monotonic() - start:.2f}\n")
            out.flush()
            if (k + 1) % 25 == 0:
                print(f"{k + 1} / {len(positions)}", flush=True)


def judge(args: argparse.Namespace) -> None:
    """Rapfi's view of each pick file's moves, and each file against the first."""
    positions = [parse(text) for text in args.positions.read_text().split("\n") if text]
    cache_path = CACHE / f"{args.positions.stem}.json"
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    cache: dict[str, int] = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    judges: dict[str, Rapfi] = {}

    def after(rule: str, moves: list[Move], move: Move) -> float:
        """The mover's win rate after `move`, by Rapfi (the opponent's eval, turned)."""
        key = f"{args.nodes} {line(rule, move, moves)}"
        if key not in cache:
            if rule not in judges:
                judges[rule] = Rapfi(60_000, args.nodes, RULES[rule])
            cache[key] = judges[rule].think([*moves, move])[0]
            if len(cache) % 20 == 0:
                cache_path.write_text(json.dumps(cache))
        return 1.0 - win_rate(cache[key])

    losses: dict[Path, list[float]] = {}
    try:
        for picks in args.picks:
            fields = [text.split() for text in picks.read_text().split("\n") if text]
            depths = [int(depth) for _, depth, _ in fields]
            rows, same = [], 0
            for (rule, best, moves), (text, _, _) in zip(positions, fields, strict=False):
                move = _move(text)
                rows.append(after(rule, moves, best) - after(rule, moves, move))
                same += move == best
            losses[picks] = rows
            if args.by_stones:
                print(picks.name, by_stones(rows, [len(moves) for _, _, moves in positions]))
            n = len(rows)
            blunders = [k for k, loss in enumerate(rows) if loss > BLUNDER]
            print(
                f"{picks.name}: {n} positions, mean loss {statistics.fmean(rows):.4f}, "
                f"blunders {len(blunders)}, Rapfi's move {same} ({same / n:.0%}), "
                f"median depth {statistics.median(depths)}; blunders at lines "
                + " ".join(str(k + 1) for k in blunders),
                flush=True,
            )
    finally:
        cache_path.write_text(json.dumps(cache))
        for rapfi in judges.values():
            rapfi.close()
    first, *others = args.picks
    for picks in others:
        pairs = list(zip(losses[first], losses[picks], strict=False))
        diffs = [b - a for a, b in pairs]
        error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        print(
            f"{picks.name} - {first.name}: mean loss {statistics.fmean(diffs):+.4f} "
            f"(standard error {error:.4f}) over {len(diffs)} positions"
        )


def by_stones(losses: list[float], stones: list[int]) -> str:
    """The mean of `losses` by the positions' `stones`, three at a time."""
    groups: dict[int, list[float]] = {}
    for loss, count in zip(losses, stones, strict=False):
        groups.setdefault(count // 3 * 3, []).append(loss)
    return " | ".join(
        f"{low}-{low + 2}: {statistics.fmean(rows):.4f} ({len(rows)})"
        for low, rows in sorted(groups.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    p = steps.add_parser("collect")
    p.add_argument("dirs", type=Path, nargs="+")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--nodes", type=int, default=JUDGE_NODES)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--book", action="store_true")
    p = steps.add_parser("play")
    p.add_argument("positions", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-book", action="store_true")
    p = steps.add_parser("judge")
    p.add_argument("positions", type=Path)
    p.add_argument("picks", type=Path, nargs="+")
    p.add_argument("--nodes", type=int, default=JUDGE_NODES)
    p.add_argument("--by-stones", action="store_true")
    args = parser.parse_args()
    if args.step == "play":
        os.environ.setdefault("TENGEN_JIT", "compiled")
    {"collect": collect, "play": play, "judge": judge}[args.step](args)


if __name__ == "__main__":
    sys.exit(main())
