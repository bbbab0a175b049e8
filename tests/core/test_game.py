"""Game-level rules: turn order, superko under each rule, passes, handicap, undo/redo."""

from __future__ import annotations

import pytest

from tengen.core import Color, Game, IllegalMove, IllegalReason, Point, Ruleset
from tengen.core.diagram import render
from tengen.core.rules import CHINESE, JAPANESE, NEW_ZEALAND, TROMP_TAYLOR, KoRule

B, W = Color.BLACK, Color.WHITE

SIMPLE = Ruleset("simple", ko=KoRule.SIMPLE)
POSITIONAL = Ruleset("positional", ko=KoRule.POSITIONAL)
SITUATIONAL = Ruleset("situational", ko=KoRule.SITUATIONAL)


def game_from(diagram: str, ruleset: Ruleset, to_play: Color = B) -> Game:
    """A game whose start position is `diagram` (X black, O white), `to_play` to move."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    game = Game(len(rows[0]), len(rows), ruleset)
    black = [Point(c, r) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "X"]
    white = [Point(c, r) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "O"]
    game.setup(black, white, to_play=to_play)
    return game


# Three kos. Black can take ko 1 at C2 (2, 1) and ko 3 at (2, 9); White can take ko 2 at (2, 5).
TRIPLE_KO = """
. X O . .
X O . O .
. X O . .
. . . . .
. O X . .
O X . X .
. O X . .
. . . . .
. X O . .
X O . O .
. X O . .
"""

# The six captures that bring the triple ko back to its start, Black to move again.
TRIPLE_KO_CYCLE = [Point(2, 1), Point(2, 5), Point(2, 9), Point(1, 1), Point(1, 5), Point(1, 9)]


@pytest.mark.parametrize(
    ("ruleset", "last_move_legal"),
    [(SIMPLE, True), (POSITIONAL, False), (SITUATIONAL, False)],
)
def test_triple_ko_cycle(ruleset: Ruleset, last_move_legal: bool) -> None:
    game = game_from(TRIPLE_KO, ruleset)
    start = render(game.board)
    for move in TRIPLE_KO_CYCLE[:-1]:
        game.play(move)
    assert game.legality(TRIPLE_KO_CYCLE[-1]) is (
        None if last_move_legal else IllegalReason.SUPERKO
    )
    if last_move_legal:
        game.play(TRIPLE_KO_CYCLE[-1])
        assert render(game.board) == start, "under simple ko the cycle can go round forever"
        for move in TRIPLE_KO_CYCLE:
            game.play(move)
        assert render(game.board) == start
    else:
        with pytest.raises(IllegalMove) as err:
            game.play(TRIPLE_KO_CYCLE[-1])
        assert err.value.reason is IllegalReason.SUPERKO
        assert err.value.move_number == 6


# Two kos, one pass: the position of the start comes back with White to move.
DOUBLE_KO = TRIPLE_KO.strip().splitlines()[:7]
DOUBLE_KO_WITH_PASS = [Point(2, 1), Point(2, 5), None, Point(1, 1)]


@pytest.mark.parametrize(
    ("ruleset", "legal"), [(SIMPLE, True), (POSITIONAL, False), (SITUATIONAL, True)]
)
def test_position_repeated_with_the_other_player_to_move(ruleset: Ruleset, legal: bool) -> None:
    """Positional superko forbids it; situational superko does not (other side to move)."""
    game = game_from("\n".join(DOUBLE_KO), ruleset)
    for move in DOUBLE_KO_WITH_PASS:
        game.play(move)
    assert game.legality(Point(1, 5)) is (None if legal else IllegalReason.SUPERKO)


# Sending two, returning one: Black throws in at A19-like (0, 0), White takes two stones at
# (2, 0), Black takes one back at (1, 0): the start position returns with White to move.
SEND_TWO = """
. X . X .
O O X . .
. . . . .
"""


@pytest.mark.parametrize(
    ("ruleset", "legal"), [(SIMPLE, True), (POSITIONAL, False), (SITUATIONAL, True)]
)
def test_sending_two_returning_one(ruleset: Ruleset, legal: bool) -> None:
    """The start position (set up, so first in the history) counts for superko."""
    game = game_from(SEND_TWO, ruleset)
    start = render(game.board)
    game.play(Point(0, 0))
    assert game.play(Point(2, 0)).captured == 2
    assert game.legality(Point(1, 0)) is (None if legal else IllegalReason.SUPERKO)
    if legal:
        assert game.play(Point(1, 0)).captured == 1
        assert render(game.board) == start and game.to_play is W


def test_suicide_per_ruleset() -> None:
    diagram = """
    X . O
    O O .
    """
    rulesets = ((CHINESE, False), (JAPANESE, False), (NEW_ZEALAND, True), (TROMP_TAYLOR, True))
    for ruleset, legal in rulesets:
        game = game_from(diagram, ruleset)
        assert game.is_legal(Point(1, 0)) is legal, ruleset.name
        if legal:
            move = game.play(Point(1, 0))
            assert move.captured == 2 and game.board.captures(W) == 2


def test_turn_order_pass_and_end_of_game() -> None:
    game = Game(9)
    with pytest.raises(IllegalMove) as err:
        game.play(Point(4, 4), W)
    assert err.value.reason is IllegalReason.WRONG_TURN and err.value.move_number == 1
    game.play(Point(4, 4))
    game.pass_move()
    game.pass_move()
    assert game.is_over and game.to_play is W
    with pytest.raises(IllegalMove) as err:
        game.play(Point(0, 0))
    assert err.value.reason is IllegalReason.GAME_OVER
    game.undo()
    assert not game.is_over and game.to_play is B
    game.play(Point(0, 0))


def test_resign() -> None:
    game = Game(9)
    game.play(Point(2, 2))
    game.resign()
    assert game.is_over and game.winner is B
    game.undo()
    assert not game.is_over and game.winner is None


def test_permissive_mode_plays_and_reports_broken_rules() -> None:
    game = game_from(
        """
        . X O .
        X O . O
        . X O .
        """,
        SIMPLE,
    )
    game.permissive = True
    assert game.play(Point(2, 1)).violations == ()
    move = game.play(Point(0, 2), B)  # Black again
    assert move.violations == (IllegalReason.WRONG_TURN,)
    assert game.board[Point(0, 2)] is B and game.to_play is W
    with pytest.raises(IllegalMove) as err:
        game.play(Point(2, 1))
    assert err.value.reason is IllegalReason.OCCUPIED


def test_permissive_mode_takes_back_a_ko_and_says_so() -> None:
    game = game_from(
        """
        . X O .
        X O . O
        . X O .
        """,
        SIMPLE,
    )
    game.permissive = True
    game.play(Point(2, 1))
    move = game.play(Point(1, 1))  # retakes at once
    assert move.violations == (IllegalReason.KO,)
    assert game.board[Point(2, 1)] is None


def test_fixed_handicap_gives_white_the_move() -> None:
    game = Game(19)
    points = game.place_handicap(4)
    assert set(points) == {Point(3, 3), Point(15, 3), Point(3, 15), Point(15, 15)}
    assert game.to_play is W and game.handicap_stones == 4
    with pytest.raises(ValueError):
        game.place_handicap(2)
    game.undo()
    assert game.board.hash == 0 and game.to_play is B


def test_undo_and_redo_restore_every_state() -> None:
    game = Game(5)
    moves = [Point(1, 0), Point(0, 0), Point(0, 1), None, Point(2, 2)]
    snapshots = []
    for m in moves:
        snapshots.append((render(game.board), game.to_play, game.board.hash))
        game.play(m)
    final = (render(game.board), game.to_play, game.board.hash)
    for snapshot in reversed(snapshots):
        game.undo()
        assert (render(game.board), game.to_play, game.board.hash) == snapshot
    for _ in moves:
        game.redo()
    assert (render(game.board), game.to_play, game.board.hash) == final
    with pytest.raises(IndexError):
        game.redo()


def test_setup_refuses_a_chain_without_liberties() -> None:
    game = Game(3)
    with pytest.raises(ValueError, match="chain at A3 with no liberty"):
        game.setup(black=[Point(0, 0)], white=[Point(1, 0), Point(0, 1)])
    assert game.board.hash == 0


def test_the_handicap_points_are_the_handicap_setups_black_stones() -> None:
    game = Game(9)
    assert game.handicap_points == []
    points = game.place_handicap(3)
    assert game.handicap_points == points and len(points) == 3
    game.play(Point(4, 4))
    game.setup(black=[Point(0, 0)])  # a later setup is no handicap
    assert game.handicap_points == points
    free = Game(9)
    free.set_handicap([Point(2, 2), Point(6, 6)])
    assert free.handicap_points == [Point(2, 2), Point(6, 6)]
