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
four line patterns) on top of the evaluation's line worths (the evaluation on ``PYTHONPATH``
less its own shape worths for the rule), which stay one input of the regression, so that what
is fitted is what to add to them: each shape's count on the side to move's points less
``--share`` of the opponent's, for the shapes whose counts sum in absolute value to ``--least``
or more over the positions, ridge-regularised (``--ridge``) and standardised (the line worths
and the constant not penalised). With ``--prior TABLE`` the table's worths at full size
(divided by ``--scale``) are one more unpenalised input, so that the shapes' worths are drawn
toward a multiple of it rather than toward nothing: how renju's table was fitted, on fewer
games, toward freestyle's. FILE gets the worths in the evaluation's units times ``--scale``,
what `patterns.shape_worths` reads (``src/tengen/ai/gomoku/worths/``). ``--every`` takes every
game, not only those against Rapfi (a head-to-head's games).

With ``--labels`` the arguments are instead files of positions labelled by Rapfi
(bench/gomoku_order_fit.py ``label``: its eval at 40,000 nodes), and what is fitted is Rapfi's
win rate for the side to move (`gomoku_quality.win_rate`: sigmoid(eval / 200)), not who won: a
position's label is then a search's judgement of it rather than one game's outcome, whatever
came after. Only positions whose eval is within ``--open`` of even are kept (a won or lost one
is the search's to find); a position's opening (its first six stones) decides whether it is
held out, so that positions of one game do not sit on both sides. The shapes are fitted on top
of the whole evaluation on ``PYTHONPATH`` (an unpenalised input), and FILE gets its shape
table plus what was fitted, at ``--scale``; with ``--quiet``, only for the shapes of points
where a move makes no threat (a three or more), leaving the threats' worths as they were; with
``--threats``, only for the others. With ``--leaves D`` each label moves to the leaf of the
line a D-ply search of its position expects (main's search on ``PYTHONPATH``, its best move
and then each position's best move in its transposition table), the side to move there taking
the label as its own or its opponent's: what is fitted is then the static worth where the
search uses it, at the end of the lines it compares, not at a position that a search starts
from (which may credit the shapes with what the search below them finds anyway). ``--against
TABLE...`` prints the held-out log-loss of each table of shape worths in place of the rule's,
the line worths as they are: a table's fit to these positions, before it is played.

Run: ``python bench/gomoku_eval_fit.py /tmp/match-a /tmp/match-b --rule freestyle``, or
``python bench/gomoku_eval_fit.py /tmp/h2h/A1 /tmp/h2h/B1 --every --shapes
src/tengen/ai/gomoku/worths/freestyle.txt``, or for renju ``... --rule renju --every --ridge
0.03 --prior src/tengen/ai/gomoku/worths/freestyle.txt --shapes
src/tengen/ai/gomoku/worths/renju.txt``, or on Rapfi's labels ``... --labels /tmp/labels.jsonl
--least 30 --ridge 0.03 --scale 1 --shapes src/tengen/ai/gomoku/worths/freestyle.txt``.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

os.environ.setdefault("TENGEN_JIT", "compiled")

from gomoku_order_fit import replayed
from gomoku_quality import read_games, win_rate
from tengen.ai.gomoku.patterns import (
    CLASSES,
    CODES,
    NAMES,
    OPEN_FOUR,
    WIN,
    combo_class,
    read_shapes,
    shape_worths,
)
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.search import WON, Search
from tengen.gomoku import Rule

Floats = npt.NDArray[np.float64]
THREATS = ("three", "double three", "four", "four-three", "open four")  # THREE .. OPEN_FOUR
FIRST = 4  # positions with fewer stones are the opening's
ROOTS = 16  # the root moves `at_leaf`'s search weighs (the player's `_ROOT_WIDTH`)
# A point's four patterns (`Position.code`, base `CLASSES`) as the index of their multiset.
SHAPES = list(itertools.combinations_with_replacement(range(CLASSES), 4))
_INDEX = {shape: k for k, shape in enumerate(SHAPES)}
_SHAPE_OF = np.array(
    [_INDEX[tuple(sorted(code // CLASSES**d % CLASSES for d in range(4)))] for code in range(CODES)]
)


def games(
    dirs: list[Path], rule: str, every: bool = False
) -> list[tuple[list[tuple[int, int]], float]]:
    """Each distinct game of `rule` against Rapfi (with `every`, of any players:
    `gomoku_quality.read_games`): its moves and Black's result (1 won, 0 lost, 0.5 drawn)."""
    found: dict[tuple[tuple[int, int], ...], float] = {}
    for _, moves, _, black in read_games(dirs, None if every else "rapfi", (rule,)):
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
            if ply >= FIRST and _evaluated(pos, me):
                empty = pos.cells == 0
                counts = []
                for side in (c, o):
                    lines = np.bincount(pos.pat[side][empty].ravel(), minlength=CLASSES)
                    counts.extend(lines[1:-1])
                    counts.extend(tally[side, 1 : OPEN_FOUR + 1])
                rows.append(counts)
                shapes.append(_shape_counts(pos, me))
                won.append(black if me == 1 else 1.0 - black)
                static.append(pos.evaluate(me))
                number.append(g)
            pos.place(row * 15 + col, me)
    return (np.array(rows, dtype=np.float64), np.array(won), np.array(static, dtype=np.float64),
            np.array(number), np.array(shapes))  # fmt: skip


def labelled(
    files: list[Path], rule: Rule, bound: float, leaves: int = 0
) -> tuple[Floats, Floats, npt.NDArray[np.int64], npt.NDArray[np.int16]]:
    """Each distinct labelled `rule` position of `files` whose eval is within `bound` of even
    and that the search would evaluate: Rapfi's win rate for the side to move, the static
    worth (the side to move's points less 3/4 of the opponent's, unrounded), the group it is
    held out by (its first six stones' hash, five groups) and its shape counts; with `leaves`,
    each taken at the leaf of the search's line below it instead (`at_leaf`), two at a time."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    todo = []
    for path in files:
        for line in path.read_text().splitlines():
            label = json.loads(line)
            moves = tuple((col, row) for col, row in label["moves"])
            if label["rule"] != rule.value or moves in seen:
                continue
            seen.add(moves)  # the first label of a position counts
            if abs(label["eval"]) <= bound:
                todo.append((moves, label["eval"]))
    work = functools.partial(_features, rule=rule, leaves=leaves)
    if leaves:  # a search a position: one process a core
        with ProcessPoolExecutor(2) as pool:
            found = list(pool.map(work, todo, chunksize=200))
    else:
        found = list(map(work, todo))
    rate, static, group, shapes = zip(*(row for row in found if row is not None), strict=True)
    return (np.array(rate), np.array(static, dtype=np.float64), np.array(group),
            np.array(shapes))  # fmt: skip


def _features(
    todo: tuple[tuple[tuple[int, int], ...], int], rule: Rule, leaves: int
) -> tuple[float, float, int, npt.NDArray[np.int16]] | None:
    """One labelled position's row of `labelled`, or None if the search would not evaluate
    it (or, with `leaves`, its leaf), or finds it won or lost."""
    moves, value = todo
    pos = replayed(moves, rule)
    me = who = 1 + len(moves) % 2
    if not _evaluated(pos, me):
        return None
    if leaves:
        leaf = at_leaf(pos, me, leaves)
        if leaf is None:
            return None
        pos, who = leaf
        if not _evaluated(pos, who):
            return None
    rate = win_rate(value)
    group = hash(moves[:6]) % 5  # ints' and tuples' hashes are not salted
    static = pos.total[who - 1] - 0.75 * pos.total[2 - who]
    return rate if who == me else 1 - rate, static, group, _shape_counts(pos, who)


def at_leaf(pos: Position, me: int, depth: int) -> tuple[Position, int] | None:
    """The position at the end of the line a `depth`-ply search of `pos` expects
    (`Search.line`: its best move, then the table's, `depth` moves at most) and its side to
    move; None if the search finds `pos` won or lost."""
    roots = [j for j in pos.ranked(me) if pos.may_play(j, me)][:ROOTS]
    if not roots:
        return None
    search = Search(pos.copy(), time.monotonic() + 600, 1)
    report = search.run(me, roots, time.monotonic() + 600, max_depth=depth)
    if abs(report.score) >= WON:
        return None
    line = search.line(me, report.move, depth)
    leaf = pos.copy()
    for ply, move in enumerate(line):
        leaf.place(move, me if ply % 2 == 0 else 3 - me)
    return leaf, me if len(line) % 2 == 0 else 3 - me


def _evaluated(pos: Position, me: int) -> bool:
    """Whether the search would evaluate `pos` with `me` to move: neither side has a five to
    make, and `me` no open four (the search decides those first)."""
    tally, c, o = pos.tally, me - 1, 2 - me
    return not tally[c, WIN] and not tally[o, WIN] and not any(tally[c, OPEN_FOUR:WIN])


def _shape_counts(pos: Position, me: int) -> npt.NDArray[np.int16]:
    """How many empty points have each shape, for `me` and then for the opponent."""
    empty = pos.cells == 0
    each = [_SHAPE_OF[pos.code[side][empty]] for side in (me - 1, 2 - me)]
    return np.concatenate([np.bincount(k, minlength=len(SHAPES)) for k in each]).astype(np.int16)


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
    parser.add_argument("--rule", default="freestyle", choices=[rule.value for rule in Rule])
    parser.add_argument("--share", type=float, default=0.75, help="the opponent's counts' share")
    parser.add_argument("--every", action="store_true", help="every game, not only Rapfi's")
    parser.add_argument("--shapes", type=Path, help="fit the shapes' worths, written here")
    parser.add_argument("--least", type=float, default=1000.0)
    parser.add_argument("--scale", type=float, default=0.5)
    parser.add_argument("--ridge", type=float, default=1e-3, help="the shapes' penalty")
    parser.add_argument("--prior", type=Path, help="a table the shapes are drawn toward")
    parser.add_argument("--labels", action="store_true", help="fit Rapfi's evals of DIRS' files")
    parser.add_argument("--open", type=float, default=1500.0, help="the evals kept, within this")
    parser.add_argument("--leaves", type=int, default=0, help="with --labels: this deep")
    parser.add_argument("--against", type=Path, nargs="*", default=[], help="tables to score")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--quiet", action="store_true", help="with --labels: no threat's shape")
    only.add_argument("--threats", action="store_true", help="with --labels: threats' only")
    args = parser.parse_args()
    if args.labels:
        if args.shapes is None:
            parser.error("--labels writes a table: name it with --shapes")
        rate, static, group, shapes = labelled(args.dirs, Rule(args.rule), args.open, args.leaves)
        print(f"{len(rate)} positions ({(group == 0).sum()} held out)")
        fit_labels(args, shapes, static, rate, group == 0)
        return
    played = games(args.dirs, args.rule, args.every)
    x, y, static, number, shapes = positions(played, Rule(args.rule))
    held = number % 5 == 0
    one = np.ones((len(y), 1))
    print(f"{len(played)} games, {len(y)} positions ({held.sum()} held out)")
    if args.shapes:
        fit_shapes(args, shapes, static, y, held)
        return
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
    names = [*NAMES[1:-1], *THREATS]
    for name, value in zip(names, w[:-1] / scale, strict=True):
        print(f"  {name:13s} {value * units:8.0f}")


def fit_shapes(
    args: argparse.Namespace,
    shapes: npt.NDArray[np.int16],
    static: Floats,
    y: Floats,
    held: npt.NDArray[np.bool_],
) -> None:
    """``--shapes``: fit the shapes' worths on top of the evaluation's line worths (`static`
    less the rule's shape worths) and write them to ``args.shapes``."""
    n = len(SHAPES)
    counts = shapes[:, :n].astype(np.float64) - args.share * shapes[:, n:]
    own, prior = table(shape_worths(Rule(args.rule))), np.zeros(n)
    if args.prior:
        prior = table(read_shapes(args.prior)) / args.scale
    one = np.ones((len(y), 1))
    # The line worths, then the prior's sum if there is one: inputs not penalised.
    lines = np.column_stack([static - counts @ own, *([counts @ prior] if args.prior else [])])
    lines /= 1000
    used = np.abs(counts).sum(0) >= args.least
    x = counts[:, used]
    scale = x[~held].std(0) + 1e-6
    both = np.hstack([lines, x / scale, one])
    free = (*range(lines.shape[1]), both.shape[1] - 1)
    w = fit(both[~held], y[~held], args.ridge, free)
    known = {"the evaluation": static[:, None] / 1000, "its line worths": lines[:, :1]}
    if args.prior:
        known["the line worths and the prior"] = lines
    for name, inputs in known.items():
        x_ = np.hstack([inputs, one])
        print(f"held-out log-loss, {name}: "
              f"{log_loss(x_[held], fit(x_[~held], y[~held], ridge=0), y[held]):.4f}")  # fmt: skip
    print(f"{used.sum()} shapes; held-out log-loss with them "
          f"{log_loss(both[held], w, y[held]):.4f}")  # fmt: skip
    weight = w[1] if args.prior else 0.0
    worths = weight * prior
    worths[used] += w[lines.shape[1] : -1] / scale * 1000
    worths *= args.scale / w[0]
    head = [f"# bench/gomoku_eval_fit.py --shapes, {args.rule}, scale {args.scale:g}"]
    if args.prior:
        toward = f"toward {args.prior.name} (its weight {weight / w[0]:.2f})"
        head[0] += f", ridge {args.ridge:g}, {toward}"
    write_shapes(args.shapes, head[0], np.flatnonzero(used | (prior != 0)), worths)


def fit_labels(
    args: argparse.Namespace,
    shapes: npt.NDArray[np.int16],
    static: Floats,
    rate: Floats,
    held: npt.NDArray[np.bool_],
) -> None:
    """``--labels``: fit what to add to the shapes' worths on top of the whole evaluation
    (`static`) to Rapfi's win rates (`rate`), and write the rule's table plus that to
    ``args.shapes``."""
    n = len(SHAPES)
    counts = shapes[:, :n].astype(np.float64) - args.share * shapes[:, n:]
    used = np.abs(counts[~held]).sum(0) >= args.least
    if args.quiet or args.threats:  # only the shapes where a move makes no threat, or one
        quiet = np.array([combo_class(list(shape)) == 0 for shape in SHAPES])
        used &= quiet if args.quiet else ~quiet
    scale = counts[~held][:, used].std(0) + 1e-6
    one = np.ones((len(rate), 1))
    now = np.hstack([static[:, None] / 1000, one])
    both = np.hstack([now[:, :1], counts[:, used] / scale, one])
    w = fit(both[~held], rate[~held], args.ridge, (0, both.shape[1] - 1))
    w_now = fit(now[~held], rate[~held], ridge=0)
    print(f"{used.sum()} shapes; held-out log-loss against Rapfi's win rates: "
          f"the evaluation {log_loss(now[held], w_now, rate[held]):.4f}, "
          f"with the shapes fitted {log_loss(both[held], w, rate[held]):.4f}")  # fmt: skip
    own = shape_worths(Rule(args.rule))
    for path in args.against:  # each table in place of the rule's, the rest as it is
        other = np.hstack([(static + counts @ (table(read_shapes(path)) - table(own)))[:, None]
                           / 1000, one])  # fmt: skip
        loss = log_loss(other[held], fit(other[~held], rate[~held], ridge=0), rate[held])
        print(f"  with {path} in its place: {loss:.4f}")
    added = np.zeros(n)
    added[used] = w[1:-1] / scale * 1000 / w[0] * args.scale
    head = (f"# bench/gomoku_eval_fit.py --labels, {args.rule}: the table before it plus a fit "
            f"to Rapfi's evals within {args.open:g} of even"
            f"{f', at the leaves of {args.leaves}-ply searches' if args.leaves else ''}, "
            f"ridge {args.ridge:g}, "
            f"scale {args.scale:g}{', quiet shapes only' if args.quiet else ''}"
            f"{', threat shapes only' if args.threats else ''}")  # fmt: skip
    kept = [k for k, shape in enumerate(SHAPES) if shape in own or used[k]]
    write_shapes(args.shapes, head, kept, table(own) + added)


def write_shapes(path: Path, head: str, kept: Iterable[int], worths: Floats) -> None:
    """Write a table of shape worths, what `patterns.read_shapes` reads: the line `head`,
    then for each of the shapes `kept` (indices of `SHAPES`) its patterns and its worth,
    rounded."""
    rows = [" ".join([*(NAMES[p] for p in SHAPES[k]), str(round(float(worths[k])))]) for k in kept]
    path.write_text("\n".join([head, *rows]) + "\n")


def table(worths: dict[tuple[int, ...], int]) -> Floats:
    """A table of shape worths as a vector over `SHAPES`."""
    out = np.zeros(len(SHAPES))
    for k, shape in enumerate(SHAPES):
        out[k] = worths.get(shape, 0)
    return out


if __name__ == "__main__":
    main()
