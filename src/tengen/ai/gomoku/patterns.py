"""Line patterns of Gomoku, by definition: what a stone on a point makes along one line.

A point's pattern for a colour, along one direction, is read from the eight cells around it
(four each side), as if that colour played the point. Each neighbour is a digit: 0 empty,
1 the colour's own stone, 2 the opponent's stone or the board's edge, so a line is one of
3**8 keys. The classes, weakest first::

    DEAD  nothing (the line cannot hold a five through the point)
    B1 F1 one stone, closed or open          B2 F2 F2X two   B3 B3X F3 F3X three
    B4    a four: exactly one point left makes five
    F4    an open four: two or more points make five
    FIVE  the stone wins

They follow the threat-space definitions: FIVE when the run through the point wins under the
rule (`tengen.gomoku.board`'s own judge of a run, ``_wins``); F4/B4 by how many empty points
then make a FIVE; below that a pattern is "open" (F) if one more stone can make it the open
class above and "closed" (B) if only the closed one. Three classes are split by how many
empty points make the class above (`_refined`): F2X an open two with three or more points that
make an open three, B3X a closed three with three or more that make a four, F3X an open three
with two or more that make an open four; F2, B3 and F3 are the rest. The threats
(`combo_class`) and the move order take each split class as its class; the evaluation tells
them apart (fitted to who won the head-to-head games, the split classes' shapes predict the
winner better than the unsplit ones refitted on the same games, and play better:
bench/STRENGTH.md). The edge counts as the opponent's stone, so caro's "not blocked at both
ends" is judged exactly only inside the board; a game's real fives are always the judge's.
Renju's fouls are not patterns: the player asks the foul judge (`tengen.gomoku.judge`) about
Black's moves.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tengen.gomoku.board import BLACK, EMPTY, WHITE, _wins
from tengen.gomoku.rules import Rule

DEAD, B1, F1, B2, F2, F2X, B3, B3X, F3, F3X, B4, F4, FIVE = range(13)  # weakest first
NAMES = ("dead", "B1", "F1", "B2", "F2", "F2x", "B3", "B3x", "F3", "F3x", "B4", "F4", "five")
CLASSES = len(NAMES)
CODES = CLASSES**4  # a point's four patterns as one number (`combos`)
KEYS = 3**8
HALF = 4  # neighbours each side
POWERS = tuple(3**k for k in range(2 * HALF))
# What one pattern is worth to the side that may play it (summed over the four lines), in
# the move order (`ai.gomoku.kernels.rank_key`).
WORTH = (0, 1, 4, 8, 30, 30, 30, 30, 160, 160, 180, 1_500, 12_000)
# Combinations of lines on one point: the threat classes a move makes.
WIN, OPEN_FOUR, FOUR_THREE, FOUR, DOUBLE_THREE, THREE = 6, 5, 4, 3, 2, 1
COMBO_WORTH = {OPEN_FOUR: 4_000, FOUR_THREE: 2_500, DOUBLE_THREE: 900}
# The same in the static evaluation (`ai.gomoku.state.evaluate`): fitted to who won, by
# logistic regression over the positions of some 1,800 freestyle match games against Rapfi
# (bench/gomoku_eval_fit.py; the opponent's sum at 3/4, as `evaluate` takes it). On held-out
# games they predict the winner better than the move order's worths do (log-loss 0.55-0.59
# against 0.60-0.62 in freestyle, 0.64-0.65 against 0.661 in renju; 0.693 knowing nothing): a
# closed one (B1) is worth less than nothing (its line is mostly blocked), a double three far
# less than the order's 900. In the move order as well, the fitted worths played worse; in the
# evaluation alone, a little better (bench/STRENGTH.md), so each keeps its own.
EVAL_WORTH = (0, -20, 10, 14, 30, 30, 66, 66, 86, 86, 184, 142, 12_000)
EVAL_COMBO_WORTH = {OPEN_FOUR: 974, FOUR_THREE: 1_968, FOUR: 117, DOUBLE_THREE: 214, THREE: 91}
# On top of those, a worth for each common shape of a point (its four patterns as a multiset,
# `shape_worths`). Freestyle's: the table fitted to who won the player's head-to-head games
# (halved), plus a fit to Rapfi's evals of searched positions taken at the leaves of the
# search's own 6-ply lines, where it uses the worths (bench/gomoku_eval_fit.py ``--labels
# --leaves``; fitted at the searched positions themselves, the worths predicted those better
# and played worse). Standard and caro add the freestyle table (head to head, they played
# better with the table before; the leaves' fit was played under freestyle only); renju has
# its own, fitted to renju games with the freestyle table of then as a prior
# (bench/gomoku_eval_fit.py ``--prior``), plus the same fit at the leaves to Rapfi's renju
# evals, fitted twice (bench/STRENGTH.md).
# The shapes are of the split classes (F2X, B3X, F3X apart); the split classes' line worths
# above are their unsplit classes', and the tables hold what tells them apart.
WORTHS = Path(__file__).resolve().parent / "worths"
# Where each class (0 .. WIN) puts a move in the searches' order (`ai.gomoku.kernels.rank_key`):
# a lone closed four ranks with the threes, by worth, not above them all. Ranked above, the
# fours filled the searches' few slots a node, and most of Rapfi's winning lines that the
# player let in went through threes or quiet moves it never searched (bench/STRENGTH.md).
TIER = (0, 1, 2, 1, 4, 5, 6)
# The order's second look (`ai.gomoku.kernels.refine`): its first `POOL` points re-ranked by
# their place and their shapes for each side, worths fitted to Rapfi's choice of move
# (bench/gomoku_order_fit.py), in 1/`ORDER_SCALE` of the place term. A shape is of the
# unsplit classes (`UNSPLIT`): 715 shapes a side, not 1,820, for a fit of a few thousand
# positions.
POOL = 24
ORDER_SCALE = 256
UNSPLIT = (DEAD, B1, F1, B2, F2, F2, B3, B3, F3, F3, B4, F4, FIVE)  # F2X F2, B3X B3, F3X F3

Table = npt.NDArray[np.int8]


def decode(key: int) -> list[int]:
    """The eight neighbour digits of a key, nearest-left first: positions 0..3 are the cells
    4..1 before the point, 4..7 the cells 1..4 after it."""
    return [(key // POWERS[k]) % 3 for k in range(2 * HALF)]


def encode(digits: list[int]) -> int:
    """The key of eight neighbour digits (see `decode`)."""
    return sum(d * POWERS[k] for k, d in enumerate(digits))


@functools.cache
def table(rule: Rule, color: int) -> Table:
    """The pattern of every key for a `color` stone under `rule` (3**8 entries)."""
    out = np.zeros(KEYS, dtype=np.int8)
    memo: dict[tuple[int, ...], int] = {}
    for key in range(KEYS):
        digits = decode(key)
        line = (*digits[:HALF], 1, *digits[HALF:])
        out[key] = _refined(line, _classify(line, rule, color, memo), rule, color, memo)
    return out


def _refined(
    line: tuple[int, ...], coarse: int, rule: Rule, color: int, memo: dict[tuple[int, ...], int]
) -> int:
    """The class of `line` whose `_classify` class is `coarse`: F2X, B3X or F3X where an F2,
    B3 or F3 has that many points or more that make the class above (see the docstring)."""
    grows = {F2: (F3, 3, F2X), B3: (B4, 3, B3X), F3: (F4, 2, F3X)}.get(coarse)
    if grows is None:
        return coarse
    above, least, split = grows
    ways = 0
    for k, digit in enumerate(line):
        if digit == 0:
            grown = (*line[:k], 1, *line[k + 1 :])
            ways += _classify(grown, rule, color, memo) == above
    return split if ways >= least else coarse


def _classify(
    line: tuple[int, ...], rule: Rule, color: int, memo: dict[tuple[int, ...], int]
) -> int:
    """The class of the nine-cell `line` (digits; the middle is the colour's stone), one of
    the unsplit classes (`_refined` splits three of them)."""
    known = memo.get(line)
    if known is not None:
        return known
    if _five(line, rule, color):
        result = FIVE
    else:
        empties = [k for k, d in enumerate(line) if d == 0]
        children = []
        for k in empties:
            grown = (*line[:k], 1, *line[k + 1 :])
            children.append(
                FIVE if _five(grown, rule, color) else _classify(grown, rule, color, memo)
            )
        fives = children.count(FIVE)
        if fives >= 2:
            result = F4
        elif fives == 1:
            result = B4
        else:
            best = max(children, default=DEAD)
            # A class is one stone short of the best its one-stone-more lines reach.
            result = {F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1}.get(best, DEAD)
    memo[line] = result
    return result


def _five(line: tuple[int, ...], rule: Rule, color: int) -> bool:
    """Whether the run of own stones through the middle of `line` wins under `rule`."""
    lo = hi = HALF
    while lo > 0 and line[lo - 1] == 1:
        lo -= 1
    while hi < 2 * HALF and line[hi + 1] == 1:
        hi += 1
    opponent = BLACK + WHITE - color
    before = EMPTY if lo == 0 else (EMPTY if line[lo - 1] == 0 else opponent)
    after = EMPTY if hi == 2 * HALF else (EMPTY if line[hi + 1] == 0 else opponent)
    return _wins(rule, color, hi - lo + 1, before, after)


def combo_class(patterns: tuple[int, ...] | list[int]) -> int:
    """The threat class a move makes from its four lines' patterns (``WIN`` .. ``THREE``, 0)."""
    fours = sum(1 for p in patterns if p == B4)
    threes = sum(1 for p in patterns if p in (F3, F3X))
    if FIVE in patterns:
        return WIN
    if F4 in patterns or fours >= 2:
        return OPEN_FOUR
    if fours and threes:
        return FOUR_THREE
    if fours:
        return FOUR
    if threes >= 2:
        return DOUBLE_THREE
    return THREE if threes else 0


def shape_table(rule: Rule) -> Path:
    """The file of `rule`'s shape worths: renju's own, else freestyle's."""
    return WORTHS / ("renju.txt" if rule is Rule.RENJU else "freestyle.txt")


@functools.cache
def shape_worths(rule: Rule) -> dict[tuple[int, ...], int]:
    """What the evaluation adds under `rule` for a point of each shape (its four patterns,
    sorted), from `shape_table`."""
    return read_shapes(shape_table(rule))


def read_shapes(path: Path) -> dict[tuple[int, ...], int]:
    """A table of shape worths (bench/gomoku_eval_fit.py ``--shapes``: a line is four pattern
    names and a worth), by the shape's patterns, sorted."""
    found = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            *names, worth = line.split()
            found[tuple(sorted(NAMES.index(name) for name in names))] = int(worth)
    return found


def order_table(rule: Rule) -> Path:
    """The file of `rule`'s shape worths in the move order: renju's own (fitted to Rapfi's
    renju moves), freestyle's for every other rule."""
    return WORTHS / ("order-renju.txt" if rule is Rule.RENJU else "order-freestyle.txt")


@functools.cache
def order_worths(rule: Rule) -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    """What the move order's second look adds under `rule` for a point of each shape (four
    unsplit patterns, sorted): for the side to move's shape there, and for its opponent's."""
    own: dict[tuple[int, ...], int] = {}
    theirs: dict[tuple[int, ...], int] = {}
    for line in order_table(rule).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            side, *names, worth = line.split()
            found = {"own": own, "theirs": theirs}[side]
            found[tuple(sorted(NAMES.index(name) for name in names))] = int(worth)
    return own, theirs


@functools.cache
def combos(rule: Rule) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]:
    """For every four patterns (as ``p0 + C p1 + C**2 p2 + C**3 p3``, C = `CLASSES`): the
    point's worth (row 0 in the move order, row 1 in the evaluation, with `rule`'s shape
    worths, rows 2 and 3 in the order's second look, as the side to move's and as its
    opponent's: `order_worths`) and its threat class."""
    shapes = shape_worths(rule)
    own, theirs = order_worths(rule)
    worth = np.zeros((4, CODES), dtype=np.int32)
    kind = np.zeros(CODES, dtype=np.int8)
    for code in range(CODES):
        pats = [(code // CLASSES**d) % CLASSES for d in range(4)]
        c = combo_class(pats)
        kind[code] = c
        worth[0, code] = sum(WORTH[p] for p in pats) + COMBO_WORTH.get(c, 0)
        worth[1, code] = sum(EVAL_WORTH[p] for p in pats) + EVAL_COMBO_WORTH.get(c, 0)
        worth[1, code] += shapes.get(tuple(sorted(pats)), 0)
        unsplit = tuple(sorted(UNSPLIT[p] for p in pats))
        worth[2, code] = own.get(unsplit, 0)
        worth[3, code] = theirs.get(unsplit, 0)
    return worth, kind
