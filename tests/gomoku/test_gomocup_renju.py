"""End to end: a Gomocup manager (`GomocupEngine`) plays ``tengen gomocup`` brains under renju
from a set-up position holding a black stone on a foul point and a same-line double four for
Black to avoid. The forbidden points the brain lists are those of the RIF reference."""

from __future__ import annotations

import random
import sys

from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule
from tengen.gomoku.manager import GomocupEngine
from tests.gomoku.renju_reference import Position

BRAIN = [sys.executable, "-m", "tengen", "gomocup"]

# Black: row 7 X.XX*.X around 7,7 (two fours on one line: a foul for a move there, and no
# other black stone on its lines); the double-three vertex 13,10 of 11..13,10 and 13,8..10,
# standing as set up; six on row 0, an overline that stands and does not win. White: apart
# on rows 14 and 4.
BLACK = [Point(3, 7), Point(5, 7), Point(6, 7), Point(9, 7)]
BLACK += [Point(11, 10), Point(12, 10), Point(13, 10), Point(13, 8), Point(13, 9)]
BLACK += [Point(c, 0) for c in range(6)]
WHITE = [Point(c, 14) for c in range(0, 15, 2)] + [Point(c, 4) for c in range(1, 15, 2)]


def reference_fouls(game: GomokuGame) -> set[Point]:
    black = [(p.col, p.row) for c, p in game.moves if c.name == "BLACK"]
    white = [(p.col, p.row) for c, p in game.moves if c.name == "WHITE"]
    pos = Position(15, 15, black, white)
    return {
        Point(c, r)
        for r in range(15)
        for c in range(15)
        if (c, r) not in pos.black | pos.white and pos.foul((c, r)) is not None
    }


def test_a_manager_plays_the_renju_brain_through_set_up_fouls_and_same_line_fours() -> None:
    rules = GomokuRules(Rule.RENJU)
    rng = random.Random(17)
    black, white = rng.sample(BLACK, len(BLACK)), rng.sample(WHITE, len(WHITE))
    game = GomokuGame(rules)
    game.set_up(black, white)  # the manager's own judge, in the order a manager might send
    fouls = reference_fouls(game)
    assert Point(7, 7) in fouls
    with GomocupEngine(BRAIN, timeout=60) as first, GomocupEngine(BRAIN, timeout=60) as second:
        for engine in (first, second):
            engine.start(15)
            engine.set_rules(rules)
        first.yxboard(game)
        assert set(first.forbidden_points()) == fouls
        engines = {game.to_play: first, game.to_play.opponent: second}
        move = first.board(game)
        game.play(move)  # raises GomokuIllegal if the brain chose a foul
        move = second.board(game)
        while True:
            game.play(move)
            if game.is_over or game.move_number >= 60:
                break
            move = engines[game.to_play].turn(move)
    assert game.move_number > len(BLACK) + len(WHITE) + 2
