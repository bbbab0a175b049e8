"""Fit the static evaluation's pattern worths to who won match games (logistic regression).

The static worth (`tengen.ai.gomoku.state.evaluate`) is linear in how many empty points carry
each line pattern (summed over their four lines) and each threat class, for each side, the
opponent's at a fixed share. This replays the games against Rapfi of match folders
(``DIR/**/games/*.sgf``, as bench/gomoku_strength.py writes them; a game met twice counts
once), takes every position from the fifth stone on where neither side has a five to make
and the side to move no open four (the search decides those before it evaluates), and fits
those worths to whether the side to move won (a draw is half) by Newton's method, the
opponent's counts at ``--share``; the games whose number is a multiple of five are held out.
It prints the held-out log-loss of the evaluation on ``PYTHONPATH`` (scaled by its own fit)
and of the fitted worths, and the fitted worths in the evaluation's units (scaled so that
both predict as steeply): what `patterns.EVAL_WORTH` and `EVAL_COMBO_WORTH` hold.

With ``--shapes FILE`` it fits instead a worth for each point shape (the multiset of a point's
four line patterns) on top of the evaluation on ``PYTHONPATH``, which stays one input of the
regression, so that what is fitted is what to add to it: each shape's count on the side to
move's points less ``--share`` of the opponent's, for the shapes whose counts sum in absolute
value to ``--least`` or more over the positions, ridge-regularised and standardised (the
evaluation and the constant not penalised). FILE gets their worths in the evaluation's units
times ``--scale``, what `patterns.shape_worths` reads (``src/tengen/ai/gomoku/worths/``).
``--every`` takes every game, not only those against Rapfi (a head-to-head's games).

Run: ``python bench/gomoku_eval_fit.py /tmp/match-a /tmp/match-b --rule freestyle``, or
``python bench/gomoku_eval_fit.py /tmp/h2h/A1 /tmp/h2h/B1 --every --shapes
src/tengen/ai/gomoku/worths/freestyle.txt``.
"""

from __future__ import annotations

import argparse
import itertools
import os
from pathlib import Path

import numpy as np
import numpy.typing as npt

os.environ.setdefault("TENGEN_JIT", "compiled")

from gomoku_quality import read_games
from tengen.ai.gomoku.patterns import NAMES, OPEN_FOUR, WIN
from tengen.ai.gomoku.position import Position
from tengen.gomoku import Rule

Floats = npt.NDArray[np.float64]
CLASSES = ("three", "double three", "four", "four-three", "open four")  # THREE .. OPEN_FOUR
FIRST = 4  # positions with fewer stones are the opening's
# A point's four patterns (`Position.code`, digits 0-9) as the index of their multiset.
SHAPES = list(itertools.combinations_with_replacement(range(10), 4))
_SHAPE_OF = np.array(
    [SHAPES.index(tuple(sorted((code // 10**d) % 10 for d in range(4)))) for code in range(10_000)]
)


def games(
    dirs: list[Path], rule: str, every: bool = False
) -> list[tuple[list[tuple[int, int]], float]]:
    """Each distinct game of `rule` against Rapfi (with `every`, of any players:
    `gomoku_quality.read_games`): its moves and Black's result (1 won, 0 lost, 0.5 drawn)."""
    found: dict[tuple[tuple[int, int], ...], float] = {}
    for ru, moves, _, black in read_games(dirs, None if every else "rapfi"):
        if ru == rule:
            found.setdefault(tuple(moves), black)
    return [(list(moves), black) for moves, black in found.items()]


def positions(
    played: list[tuple[list[tuple[int, int]], float]], rule: Rule
) -> tuple[Floats, Floats, Floats, npt.NDArray[np.int64], npt.NDArray[np.int16]]:
    """The counts (the side to move's, then the opponent's), the result for the side to move,
    the evaluation's static worth, the game's number and the count of each shape on the empty
    points (the side to move's, then the opponent's) of every position kept."""
    rows, won, static, number, shapes = [], [], [], [], []
    for g, (moves, black) in enumerate(played):
        pos = Position(15, 15, rule)
        for ply, (col, row) in enumerate(moves):
            me = 1 + ply % 2
            c, o = me - 1, 2 - me
            tally = pos.tally
            if (
                ply >= FIRST
                and not tally[c, WIN]
                and not tally[o, WIN]
                and not any(tally[c, OPEN_FOUR:WIN])
            ):
                empty = pos.cells == 0
                counts = []
                for side in (c, o):
                    counts.extend(np.bincount(pos.pat[side][empty].ravel(), minlength=10)[1:9])
                    counts.extend(tally[side, 1 : OPEN_FOUR + 1])
                rows.append(counts)
                each = [_SHAPE_OF[pos.code[side][empty]] for side in (c, o)]
                shapes.append(
                    np.concatenate([np.bincount(k, minlength=len(SHAPES)) for k in each]).astype(
                        np.int16
                    )
                )
                won.append(black if me == 1 else 1.0 - black)
                static.append(pos.evaluate(me))
                number.append(g)
            pos.place(row * 15 + col, me)
    return (np.array(rows, dtype=np.float64), np.array(won), np.array(static, dtype=np.float64),
            np.array(number), np.array(shapes))  # fmt: skip


def fit(x: Floats, y: Floats, ridge: float = 1e-3, free: tuple[int, ...] = ()) -> Floats:
    """Logistic regression weights of `x` (with a constant last) for `y`, by Newton's method;
    the weights of the columns `free` not penalised."""
    penalty = np.full(x.shape[1], ridge)
    penalty[list(free)] = 0.0
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(y) + np.diag(penalty)
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(x: Floats, w: Floats, y: Floats) -> float:
    """The mean log-loss of the weights `w` over `x` against `y`."""
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", type=Path, nargs="+")
    parser.add_argument("--rule", default="freestyle", choices=["freestyle", "renju"])
    parser.add_argument("--share", type=float, default=0.75, help="the opponent's counts' share")
    parser.add_argument("--every", action="store_true", help="every game, not only Rapfi's")
    parser.add_argument("--shapes", type=Path, help="fit the shapes' worths, written here")
    parser.add_argument("--least", type=float, default=1000.0)
    parser.add_argument("--scale", type=float, default=0.5)
    args = parser.parse_args()
    played = games(args.dirs, args.rule, args.every)
    x, y, static, number, shapes = positions(played, Rule(args.rule))
    held = number % 5 == 0
    one = np.ones((len(y), 1))
    print(f"{len(played)} games, {len(y)} positions ({held.sum()} held out)")
    now = np.hstack([static[:, None] / 1000, one])
    w_now = fit(now[~held], y[~held], ridge=0)
    if args.shapes:
        fit_shapes(args, shapes, now, y, held, w_now)
        return
    half = x.shape[1] // 2
    counts = x[:, :half] - args.share * x[:, half:]
    scale = counts[~held].std(0) + 1e-9
    fitted = np.hstack([counts / scale, one])
    w = fit(fitted[~held], y[~held])
    base = y[~held].mean()
    nothing = log_loss(one[held], np.log([base / (1 - base)]), y[held])
    print(f"held-out log-loss: knowing nothing {nothing:.4f}, "
          f"the evaluation now {log_loss(now[held], w_now, y[held]):.4f}, "
          f"fitted {log_loss(fitted[held], w, y[held]):.4f}")  # fmt: skip
    units = 1000 / w_now[0]  # the fitted worths in the evaluation's units
    names = [*NAMES[1:9], *CLASSES]
    for name, value in zip(names, w[:-1] / scale, strict=True):
        print(f"  {name:13s} {value * units:8.0f}")


def fit_shapes(
    args: argparse.Namespace,
    shapes: npt.NDArray[np.int16],
    now: Floats,
    y: Floats,
    held: npt.NDArray[np.bool_],
    w_now: Floats,
) -> None:
    """``--shapes``: fit the shapes' worths on top of the evaluation (`now`: its worth and a
    constant, `w_now` their fit) and write them to ``args.shapes``."""
    n = len(SHAPES)
    counts = shapes[:, :n].astype(np.float32) - np.float32(args.share) * shapes[:, n:]
    used = np.abs(counts).sum(0) >= args.least
    x = counts[:, used]
    scale = x[~held].std(0) + 1e-6
    both = np.hstack([now[:, :1], x / scale, now[:, 1:]])
    w = fit(both[~held], y[~held], free=(0, both.shape[1] - 1))
    print(f"{used.sum()} shapes; held-out log-loss: the evaluation now "
          f"{log_loss(now[held], w_now, y[held]):.4f}, with the shapes "
          f"{log_loss(both[held], w, y[held]):.4f}")  # fmt: skip
    worths = w[1:-1] / scale / w[0] * 1000 * args.scale
    lines = [f"# bench/gomoku_eval_fit.py --shapes, {args.rule}, scale {args.scale:g}"]
    for k, worth in zip(np.flatnonzero(used), worths, strict=True):
        lines.append(" ".join([*(NAMES[p] for p in SHAPES[k]), str(round(float(worth)))]))
    args.shapes.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
