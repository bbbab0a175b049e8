"""Fit the Gomoku searches' move order to Rapfi's choice of move (softmax regression).

The searches weigh only the first few points of their order (`pvs.WIDTH`), so a good move
ranked past them is out of sight. Rapfi (``build/rapfi/pbrain-rapfi``, classical, a program
tengen did not write) names its move in many positions; this fits how the order should
re-rank its own first `POOL` points to put that move first, in two resumable steps:

- ``label DIR... --out FILE``: every distinct position of the ``--rule`` games (freestyle
  or renju) of match directories (``DIR/**/games/*.sgf``, any players), of 4 to 60 stones,
  where neither side has a five to make (the search settles those before it orders), with
  Rapfi's eval and move at ``--nodes`` nodes under that rule (one thread, so its answer does
  not move with the load), by ``--workers`` Rapfis side by side. A line of FILE is JSON:
  the rule, eval, Rapfi's move, the moves. With ``--below N`` (and ``--seed``) it labels
  instead N positions below each of those, the kind a search evaluates rather than the kind
  games pass through: each reached by 1 to `DEEP` plies of the search's order, a ply taking
  the order's first point or, as often, any of its first `pvs.WIDTH` (the block when the
  opponent has a five to make: a walk does not end before it); a walk that comes to a won
  position is dropped.
- ``fit FILE... --out TABLE``: for each labelled ``--rule`` position whose eval is open
  (within ``--open`` of even: a won or lost position's move says little of order) and whose
  Rapfi move is among the first `POOL` points of `kernels.rank_key`'s order
  (`Position.ranked` without its second look), the chance of each of those points is a
  softmax of ``-r ln(1 + its place) + own[shape] + theirs[shape]``, a shape being the
  multiset of the point's four line patterns for the side to move (own) and for its
  opponent (theirs), the split classes taken as their classes (`patterns.UNSPLIT`),
  ridge-regularised (``--ridge``); every fifth position is held out. It prints how often
  Rapfi's move is the order's first, in its first 3, 8 and 14, before and after (held out),
  and writes TABLE, what `patterns.order_worths` reads: the worths divided by r, in units
  of 1/`patterns.ORDER_SCALE`, those whose shape was seen ``--least`` times or more.

Run ``python bench/gomoku_order_fit.py label /tmp/selfA --out /tmp/labels.jsonl``, then
``python bench/gomoku_order_fit.py fit /tmp/labels.jsonl --out
src/tengen/ai/gomoku/worths/order-freestyle.txt`` (with ``--rule renju`` both times,
``order-renju.txt``). Under renju Black's fouls stay among the points, as in the search,
which skips them only when it comes to them. ``--check FILE`` (a position file of
bench/gomoku_quality.py, e.g. bench/positions/gomoku_open.txt) adds those positions as one
more held-out set, drawn from other games.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

os.environ.setdefault("TENGEN_JIT", "compiled")

from gomoku_quality import parse, read_games
from gomoku_review import Rapfi, rule_number
from tengen.ai.gomoku.patterns import CLASSES, NAMES, ORDER_SCALE, POOL, UNSPLIT
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.pvs import WIDTH
from tengen.gomoku import Rule

Move = tuple[int, int]
SIZE = 15
FIRST = 4  # positions with fewer stones are the opening's
LAST = 60  # positions with more are past nearly every game against Rapfi (median 41 moves)
DEEP = 8  # the most plies a walk of ``--below`` goes below a game's position
RULES = (Rule.FREESTYLE, Rule.RENJU)  # the rules with an order table of their own
TOPS = (1, 3, 8, 14)  # where Rapfi's move is counted in the order
BASES = sorted(set(UNSPLIT))  # the classes a shape is made of
SHAPES = list(itertools.combinations_with_replacement(BASES, 4))
_INDEX = {shape: k for k, shape in enumerate(SHAPES)}


def positions(dirs: list[Path], rule: Rule) -> list[list[Move]]:
    """Each distinct position of the `rule` games in `dirs`, as its moves, of `FIRST` to
    `LAST` stones, where neither side has a five to make."""
    seen: set[frozenset[tuple[int, Move]]] = set()
    found = []
    for _, moves, _, _ in read_games(dirs, None, (rule.value,)):
        pos = Position(SIZE, SIZE, rule)
        for k, (x, y) in enumerate(moves):
            if FIRST <= k <= LAST and not pos.fives(1) and not pos.fives(2):
                key = frozenset((i % 2, m) for i, m in enumerate(moves[:k]))
                if key not in seen:
                    seen.add(key)
                    found.append(list(moves[:k]))
            pos.place(y * SIZE + x, 1 + k % 2)
    return found


def replayed(moves: Sequence[Move], rule: Rule) -> Position:
    """The position after `moves` (column and row, Black's first) on the 15x15 board."""
    pos = Position(SIZE, SIZE, rule)
    for k, (x, y) in enumerate(moves):
        pos.place(y * SIZE + x, 1 + k % 2)
    return pos


def below(moves: list[Move], rule: Rule, rng: random.Random) -> list[Move] | None:
    """A position 1 to `DEEP` plies below `moves` by the search's order (``--below``), as
    its moves, or None if the walk ends in a won position first."""
    pos = replayed(moves, rule)
    walk, plies = list(moves), rng.randint(1, DEEP)
    while True:
        me = 1 + len(walk) % 2
        theirs = pos.fives(3 - me)
        if pos.fives(me) or len(theirs) > 1:
            return None
        if len(walk) - len(moves) >= plies and not theirs:
            return walk
        if theirs:
            choice = theirs
        else:
            width = WIDTH[min(len(walk) - len(moves), len(WIDTH) - 1)]
            choice = [j for j in pos.ranked(me) if pos.may_play(j, me)][:width]
            if rng.random() < 0.5:
                choice = choice[:1]
        if not choice:
            return None
        j = rng.choice(choice)
        pos.place(j, me)
        walk.append((j % SIZE, j // SIZE))


def label(args: argparse.Namespace) -> None:
    """Write Rapfi's eval and move for each position not yet in the output file."""
    done = set()
    if args.out.exists():
        done = {
            tuple(map(tuple, json.loads(t)["moves"])) for t in args.out.read_text().splitlines()
        }
    todo = positions(args.dirs, args.rule)
    if args.below:
        rng = random.Random(args.seed)
        walks = (below(m, args.rule, rng) for m in todo for _ in range(args.below))
        todo = list({tuple(w): w for w in walks if w is not None}.values())
    todo = [m for m in todo if tuple(m) not in done]
    print(f"{len(todo)} positions to label ({len(done)} done)", file=sys.stderr)
    shares = [todo[w :: args.workers] for w in range(args.workers)]

    def run(share: list[list[Move]]) -> None:
        rapfi = Rapfi(0, nodes=args.nodes, rule=rule_number(args.rule))
        try:
            for moves in share:
                value, best = rapfi.think(moves)
                row = {"rule": args.rule.value, "eval": value, "move": best, "moves": moves}
                with args.out.open("a") as out:
                    out.write(json.dumps(row) + "\n")
        finally:
            rapfi.close()

    with ThreadPoolExecutor(args.workers) as pool:
        list(pool.map(run, shares))


def shape(code: int) -> int:
    """The index in `SHAPES` of a point's four patterns (`Position.code`)."""
    pats = sorted(UNSPLIT[code // CLASSES**d % CLASSES] for d in range(4))
    return _INDEX[tuple(pats)]


class Data:
    """Positions as the first `POOL` points of the order: each one's place, own and
    opponent's shape, and which is Rapfi's move."""

    def __init__(self, rows: list[tuple[list[Move], Move]], rule: Rule) -> None:
        own, theirs, target, kept = [], [], [], 0
        for moves, best in rows:
            pos = replayed(moves, rule)
            me = 1 + len(moves) % 2
            order = pos.ranked(me, 0)[:POOL]
            goal = best[1] * SIZE + best[0]
            if goal not in order or len(order) < POOL:
                continue
            kept += 1
            own.append([shape(int(pos.code[me - 1, j])) for j in order])
            theirs.append([shape(int(pos.code[2 - me, j])) for j in order])
            target.append(order.index(goal))
        self.own = np.array(own, dtype=np.int64).reshape(-1, POOL)
        self.theirs = np.array(theirs, dtype=np.int64).reshape(-1, POOL)
        self.target = np.array(target, dtype=np.int64)
        self.dropped = len(rows) - kept


PLACE = -np.log1p(np.arange(POOL))  # the place term, the unit of the worths


def scores(data: Data, w: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each point's score under weights `w`: the place term's, then the own shapes' worths,
    then the opponent's."""
    return w[0] * PLACE[None, :] + w[1 + data.own] + w[1 + len(SHAPES) + data.theirs]


def fitted(data: Data, ridge: float, steps: int = 3000) -> npt.NDArray[np.float64]:
    """The weights that maximise the log-likelihood of Rapfi's moves less `ridge` times the
    worths' squares' sum (Adam: the loss is convex and smooth, so any good optimiser finds
    the one optimum)."""
    w = np.zeros(1 + 2 * len(SHAPES))
    w[0] = 1.0
    m, v = np.zeros_like(w), np.zeros_like(w)
    rows = np.arange(len(data.target))
    penalised = np.ones_like(w)
    penalised[0] = 0.0
    for step in range(1, steps + 1):
        s = scores(data, w)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        p[rows, data.target] -= 1  # the loss's gradient in each score
        grad = np.concatenate([
            [float((p * PLACE[None, :]).sum())],
            np.bincount(data.own.ravel(), p.ravel(), len(SHAPES)),
            np.bincount(data.theirs.ravel(), p.ravel(), len(SHAPES)),
        ])  # fmt: skip
        grad = grad / len(rows) + 2 * ridge * penalised * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def tops(data: Data, w: npt.NDArray[np.float64]) -> str:
    """How often Rapfi's move is in the first 1, 3, 8 and 14 of the order by worths `w`."""
    s = scores(data, w)
    mine = s[np.arange(len(data.target)), data.target]
    places = (s > mine[:, None]).sum(axis=1)  # ties go to Rapfi's move
    return " ".join(f"{np.mean(places < k):.3f}" for k in TOPS)


def fit(args: argparse.Namespace) -> None:
    """Fit the worths, print the held-out tops, write the table."""
    rows = []
    for path in args.files:
        for text in path.read_text().splitlines():
            row = json.loads(text)
            if row.get("rule", "freestyle") != args.rule.value:  # the first files had none
                continue
            if abs(row["eval"]) <= args.open and len(row["moves"]) <= LAST:
                rows.append(([tuple(m) for m in row["moves"]], tuple(row["move"])))
    train = Data([r for k, r in enumerate(rows) if k % 5], args.rule)
    held = Data([r for k, r in enumerate(rows) if k % 5 == 0], args.rule)
    sets = {"held out": held}
    if args.check:
        lines = [parse(t) for t in args.check.read_text().splitlines() if t.strip()]
        sets[args.check.name] = Data(
            [(m, b) for rule, b, m in lines if rule == args.rule.value], args.rule
        )
    print(f"{len(train.target)} positions fitted ({train.dropped} with Rapfi's move past "
          f"the first {POOL} dropped); tops {TOPS}")  # fmt: skip
    w = fitted(train, args.ridge)
    base = np.zeros_like(w)
    base[0] = 1.0
    for name, data in sets.items():
        print(f"{name} ({len(data.target)}): before {tops(data, base)}, fitted {tops(data, w)}")
    print(f"the place term's weight {w[0]:.3f}")
    worths = w[1:] / w[0]  # in units of the place term
    sides = (
        ("own", train.own, worths[: len(SHAPES)]),
        ("theirs", train.theirs, worths[len(SHAPES) :]),
    )
    lines = [
        "# The move order's shape worths (bench/gomoku_order_fit.py): side, four patterns,",
        f"# worth in 1/{ORDER_SCALE} of the place term; fitted to {len(train.target)} "
        f"{args.rule.value} positions' Rapfi moves.",
    ]
    for side, points, part in sides:
        count = np.bincount(points.ravel(), minlength=len(SHAPES))
        for k, pats in enumerate(SHAPES):
            worth = round(float(part[k]) * ORDER_SCALE)
            if count[k] >= args.least and worth:
                lines.append(" ".join([side, *(NAMES[p] for p in pats), str(worth)]))
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 2} worths to {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)
    lab = steps.add_parser("label")
    lab.add_argument("dirs", nargs="+", type=Path)
    lab.add_argument("--out", type=Path, required=True)
    lab.add_argument("--nodes", type=int, default=40_000)
    lab.add_argument("--workers", type=int, default=4)
    lab.add_argument("--below", type=int, default=0, help="positions below each game's")
    lab.add_argument("--seed", type=int, default=1)
    fits = steps.add_parser("fit")
    for step in (lab, fits):
        step.add_argument("--rule", type=Rule, choices=RULES, default=Rule.FREESTYLE)
    fits.add_argument("files", nargs="+", type=Path)
    fits.add_argument("--out", type=Path, required=True)
    fits.add_argument("--open", type=int, default=440, help="Rapfi's eval within this of even")
    fits.add_argument("--ridge", type=float, default=1e-3)
    fits.add_argument("--least", type=int, default=20)
    fits.add_argument("--check", type=Path)
    args = parser.parse_args()
    {"label": label, "fit": fit}[args.step](args)


if __name__ == "__main__":
    main()
