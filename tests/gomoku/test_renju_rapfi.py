"""tengen's renju judge against a program tengen did not write: Rapfi's forbidden points
(``YXSHOWFORBID``, asked through tengen's Gomocup manager) on random crowded positions, Black
to move. Skips without Rapfi (``make rapfi``; CI does not build it).

TENGEN_RENJU_RAPFI_POSITIONS sets how many positions (300 here, about 2 s; ``make check-long``
runs 20,000, about a minute). In some one position in six of these a foul's verdict turns on
renju's recursion (a three counts only if its four-point is not itself a foul). On a mismatch
the message gives the position and the slow RIF reference's verdict
(`tests.gomoku.renju_reference`), which says which judge is wrong.
"""

from __future__ import annotations

import os
import random

from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule
from tengen.gomoku.manager import GomocupEngine
from tests.gomoku.test_gomocup_renju import reference_fouls
from tests.gomoku.test_swap2 import rapfi

POSITIONS = int(os.environ.get("TENGEN_RENJU_RAPFI_POSITIONS", "300"))
SIZE = 15


def crowded(rng: random.Random) -> tuple[list[Point], list[Point]]:
    """Black-heavy stones in a 5x5 to 9x9 square (lines crossing there make the recursive
    threes and fours), then white stones away from it until the counts are level."""
    c0, r0 = rng.randrange(SIZE), rng.randrange(SIZE)
    half = rng.choice([2, 3, 4])
    symbols = rng.choice(["..XXXXO", ".XXXO", "...XXXO", "..XXO"])
    black: list[Point] = []
    white: list[Point] = []
    for r in range(max(0, r0 - half), min(SIZE, r0 + half + 1)):
        for c in range(max(0, c0 - half), min(SIZE, c0 + half + 1)):
            s = rng.choice(symbols)
            if s != ".":
                (black if s == "X" else white).append(Point(c, r))
    taken = set(black) | set(white)
    while len(white) < len(black):
        p = Point(rng.randrange(SIZE), rng.randrange(SIZE))
        if p not in taken and (abs(p.col - c0) > half + 1 or abs(p.row - r0) > half + 1):
            white.append(p)
            taken.add(p)
    del white[len(black) :]
    return black, white


def test_renju_fouls_agree_with_rapfi_on_crowded_positions() -> None:
    """Every position: tengen's forbidden points are Rapfi's. The sample must hold fouls of
    every kind the judge names (double three, double four, overline), or it tests little."""
    rules = GomokuRules(Rule.RENJU)
    rng = random.Random(23)
    kinds: set[str] = set()
    checked = fouls = 0
    with GomocupEngine(rapfi(), timeout=60) as engine:
        engine.start(SIZE)
        engine.set_rules(rules)
        while checked < POSITIONS:
            black, white = crowded(rng)
            game = GomokuGame(rules)
            game.set_up(black, white)
            if game.winner is not None:  # a five on the board: no move to judge
                continue
            ours = game.forbidden_points()
            engine.yxboard(game)
            theirs = set(engine.forbidden_points())
            if set(ours) != theirs:
                raise AssertionError(
                    f"position {checked}: black {[(p.col, p.row) for p in black]}, white "
                    f"{[(p.col, p.row) for p in white]}: tengen only "
                    f"{sorted((p.col, p.row) for p in set(ours) - theirs)}, Rapfi only "
                    f"{sorted((p.col, p.row) for p in theirs - set(ours))}; the RIF "
                    f"reference: {sorted((p.col, p.row) for p in reference_fouls(game))}"
                )
            kinds.update(reason.split(" ", 1)[0] for reason in ours.values())
            fouls += len(ours)
            checked += 1
    assert fouls > POSITIONS // 10
    assert {"double-three", "double-four", "overline"} <= kinds, kinds
