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

Run: ``python bench/gomoku_eval_fit.py /tmp/match-a /tmp/match-b --rule freestyle``.
"""

from __future__ import annotations

import argparse
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


def games(dirs: list[Path], rule: str) -> list[tuple[list[tuple[int, int]], float]]:
    """Each distinct game of `rule` against Rapfi (`gomoku_quality.read_games`): its moves and
    Black's result (1 won, 0 lost, 0.5 drawn)."""
    found: dict[tuple[tuple[int, int], ...], float] = {}
    for ru, moves, _, black in read_games(dirs):
        if ru == rule:
            found.setdefault(tuple(moves), black)
    return [(list(moves), black) for moves, black in found.items()]


def positions(
    played: list[tuple[list[tuple[int, int]], float]], rule: Rule
) -> tuple[Floats, Floats, Floats, npt.NDArray[np.int64]]:
    """The counts (the side to move's, then the opponent's), the result for the side to move,
    the evaluation's static worth and the game's number of every position kept."""
    rows, won, static, number = [], [], [], []
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
                won.append(black if me == 1 else 1.0 - black)
                static.append(pos.evaluate(me))
                number.append(g)
            pos.place(row * 15 + col, me)
    return (np.array(rows, dtype=np.float64), np.array(won), np.array(static, dtype=np.float64),
            np.array(number))  # fmt: skip


def fit(x: Floats, y: Floats, ridge: float = 1e-3) -> Floats:
    """Logistic regression weights of `x` (with a constant last) for `y`, by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(y) + ridge * np.eye(x.shape[1])
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
    args = parser.parse_args()
    played = games(args.dirs, args.rule)
    x, y, static, number = positions(played, Rule(args.rule))
    held = number % 5 == 0
    one = np.ones((len(y), 1))
    print(f"{len(played)} games, {len(y)} positions ({held.sum()} held out)")
    now = np.hstack([static[:, None] / 1000, one])
    w_now = fit(now[~held], y[~held], ridge=0)
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


if __name__ == "__main__":
    main()
