"""Counting diagrams under every scoring method, and properties of the count on random boards.

Points are ``Point(col, row)`` with row 0 the top line of the diagram.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.core import Board, Color, Game, Point, Ruleset, diagram
from tengen.core.rules import (
    AGA,
    CHINESE,
    JAPANESE,
    KOREAN,
    NEW_ZEALAND,
    STONE_SCORING,
    TROMP_TAYLOR,
)
from tengen.scoring import PointStatus, Result, score_game, score_position

B, W = Color.BLACK, Color.WHITE

SPLIT = """
. X O . .
. X O . .
. X O . .
. X O . .
. X O . .
"""

DAME = """
. X . O .
. X . O .
. X . O .
"""

# Inner white (top left, 2 stones) and inner black (2 stones) share the two liberties of
# column 1 and have no eye: neither can play there without giving atari.
SEKI_NO_EYES = """
O . X O . . . .
O . X O . . . .
X X O O . . . .
. X O . . . . .
. X O . . . . .
. X O . . . . .
"""

# Each inner group has one eye, (0,0) for White and (4,0) for Black; (2,0) is shared.
SEKI_WITH_EYES = """
. O . X . X O . .
O O O X X X O . .
X X X O O O O . .
. . X O . . . . .
. . X O . . . . .
. . X O . . . . .
"""

# White's corner holds the bent four (0,0) (1,0) (0,1) (0,2) with every outside liberty
# filled: dead under Japanese rules whatever the ko threats.
BENT_FOUR = """
. . O X . .
. O O X . .
. O X X . .
O O X . . .
X X X . . .
. . . . . .
"""

# Black's corner group has one real eye (0,0) and a false eye (2,0): the stone at (3,0) is
# a separate chain in atari, so the group is dead.
FALSE_EYE = """
. X . X O . .
X X X O O . .
O O O O . . .
. . . . . . .
"""


def count(
    text: str, ruleset: Ruleset, dead: Iterable[Point] = (), seki: Iterable[Point] = ()
) -> tuple[float, float]:
    """Black's and White's totals for a diagram."""
    score = score_position(diagram.parse(text), ruleset, dead, seki=seki)
    return score.black, score.white


def test_area_and_territory_on_a_split_board() -> None:
    assert count(SPLIT, CHINESE) == (5 + 5, 5 + 10 + 7.5)
    assert count(SPLIT, JAPANESE) == (5, 10 + 6.5)
    score = score_position(diagram.parse(SPLIT), CHINESE)
    assert score.result == Result(W, 7.5 + 5, "score")
    assert score.status[Point(0, 0)] is PointStatus.BLACK_TERRITORY
    assert score.why[Point(0, 0)] == "bordered by black only"
    assert score.status[Point(2, 4)] is PointStatus.WHITE_STONE


def test_komi_goes_to_white_and_may_be_anything() -> None:
    assert count(SPLIT, CHINESE.with_komi(0)) == (10, 15)
    assert count(SPLIT, CHINESE.with_komi(-5)) == (10, 10)
    assert score_position(diagram.parse(SPLIT), CHINESE.with_komi(-5)).result.to_sgf() == "0"


def test_dame_counts_for_nobody() -> None:
    score = score_position(diagram.parse(DAME), JAPANESE.with_komi(0))
    dame = [p for p, s in score.status.items() if s is PointStatus.DAME]
    assert dame == [Point(2, 0), Point(2, 1), Point(2, 2)]
    assert score.why[Point(2, 1)] == "bordered by both colours"
    assert (score.black, score.white) == (3, 3)
    assert count(DAME, CHINESE.with_komi(0)) == (6, 6)


def test_empty_board_is_all_dame() -> None:
    score = score_position(Board(3), CHINESE)
    assert set(score.status.values()) == {PointStatus.DAME}
    assert (score.black, score.white) == (0, 7.5)
    assert score.why[Point(1, 1)] == "bordered by no stone"


def test_area_minus_territory_is_stones_on_board_minus_prisoners() -> None:
    """(area B - area W) - (territory B - territory W) = (stones B - stones W) - (prisoners B -
    prisoners W): with 5 stones each and 3 and 1 prisoners, the difference is -2."""
    board = diagram.parse(SPLIT)
    area = score_position(board, CHINESE.with_komi(0), captures=(3, 1))
    territory = score_position(board, JAPANESE.with_komi(0), captures=(3, 1))
    assert (area.black, area.white) == (10, 15)
    assert (territory.black, territory.white) == (5 + 3, 10 + 1)
    assert (area.black - area.white) - (territory.black - territory.white) == -2


def test_area_and_territory_differ_by_the_stones_played_in_a_real_game() -> None:
    """Played to the end on 5x5: Black invades, passes once and loses three stones. Area and
    territory margins then differ by the stones each side played: 8 for Black, 9 for White."""
    game = Game(5, ruleset=CHINESE.with_komi(0))
    walls = [(1, 0), (2, 0), (1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3), (1, 4), (2, 4)]
    invasion = [(3, 2), (3, 3), (4, 2), (3, 1), (4, 1), (4, 3), None, (4, 0), None, None]
    for move in walls + invasion:
        game.play(None if move is None else Point(*move))
    assert game.is_over and game.board.captures(W) == 3
    area = score_game(game)
    territory = score_position(game.board, JAPANESE.with_komi(0), captures=(0, 3))
    assert (area.black, area.white) == (5 + 5, 9 + 6)
    assert (territory.black, territory.white) == (5, 6 + 3)
    played = {c: sum(1 for m in game.moves if m.color is c and m.move) for c in Color}
    assert (played[B], played[W]) == (8, 9)
    assert (area.black - area.white) - (territory.black - territory.white) == 8 - 9


def test_seki_without_eyes_has_no_points_inside() -> None:
    board = diagram.parse(SEKI_NO_EYES)
    seki = [Point(0, 0), Point(2, 0)]
    for ruleset in (CHINESE, JAPANESE):
        plain = score_position(board, ruleset)
        marked = score_position(board, ruleset, seki=seki)
        assert (plain.black, plain.white) == (marked.black, marked.white)
        assert plain.status[Point(1, 0)] is PointStatus.DAME
        assert marked.status[Point(1, 0)] is PointStatus.SEKI
        assert marked.why[Point(1, 1)] == "empty point of a seki"
    assert count(SEKI_NO_EYES, CHINESE, seki=seki) == (7 + 3, 9 + 27 + 7.5)
    assert count(SEKI_NO_EYES, JAPANESE, seki=seki) == (3, 27 + 6.5)


def test_seki_with_eyes_counts_the_eyes_under_area_but_not_under_territory() -> None:
    seki = [Point(1, 0), Point(3, 0)]
    # Chinese: stones 11 and 13, territory 6 and 21, and each eye in seki counts.
    assert count(SEKI_WITH_EYES, CHINESE, seki=seki) == (11 + 6 + 1, 13 + 21 + 1 + 7.5)
    # Japanese and Korean: no territory in seki, so the eyes count for nobody.
    for ruleset in (JAPANESE, KOREAN):
        score = score_position(diagram.parse(SEKI_WITH_EYES), ruleset, seki=seki)
        assert (score.black, score.white) == (6, 21 + 6.5)
        assert score.status[Point(4, 0)] is PointStatus.SEKI
        assert score.status[Point(0, 0)] is PointStatus.SEKI
        assert score.why[Point(4, 0)] == "eye of a black group in seki: no points in seki"
        assert score.status[Point(3, 0)] is PointStatus.BLACK_STONE
        assert score.why[Point(3, 0)] == "black stone in seki"
    # Unmarked, the eyes look like territory: marking the seki is the caller's job.
    assert count(SEKI_WITH_EYES, JAPANESE) == (7, 22 + 6.5)


def test_group_tax_takes_two_points_per_living_group_and_none_from_seki() -> None:
    """Stone scoring (tax ALL): the outer groups pay 2 each; the groups in seki pay nothing,
    and their eyes count for nobody."""
    seki = [Point(1, 0), Point(3, 0)]
    score = score_position(diagram.parse(SEKI_WITH_EYES), STONE_SCORING, seki=seki)
    assert score.details["black_tax"] == -2
    assert score.details["white_tax"] == -2
    assert (score.black, score.white) == (11 + 6 - 2, 13 + 21 - 2 + 7.5)


def test_group_tax_counts_groups_joined_by_their_territory_once() -> None:
    text = """
    . X O . O X .
    . X O . O X .
    . X O . O X .
    """
    score = score_position(diagram.parse(text), STONE_SCORING.with_komi(0))
    assert score.details["black_tax"] == -4  # two black groups, left and right
    assert score.details["white_tax"] == -2  # the two white walls share column 3
    assert (score.black, score.white) == (12 - 4, 9 - 2)


def test_bent_four_in_the_corner_counted_as_dead() -> None:
    board = diagram.parse(BENT_FOUR)
    dead = [Point(1, 1)]  # one stone marks the whole chain
    japanese = score_position(board, JAPANESE, dead)
    # 18 outside + 4 inside + 6 points of dead stones, plus the 6 dead stones as prisoners.
    assert japanese.details["black_territory"] == 28
    assert japanese.details["black_dead"] == 6
    assert (japanese.black, japanese.white) == (34, 6.5)
    assert japanese.status[Point(2, 0)] is PointStatus.DEAD_WHITE
    assert japanese.why[Point(2, 0)] == "dead white stone; bordered by black only"
    assert japanese.status[Point(0, 0)] is PointStatus.BLACK_TERRITORY
    assert count(BENT_FOUR, CHINESE, dead=dead) == (36, 7.5)


def test_false_eye_group_counts_for_white_once_every_chain_is_dead() -> None:
    board = diagram.parse(FALSE_EYE)
    whole = [Point(1, 1), Point(3, 0)]
    assert count(FALSE_EYE, CHINESE.with_komi(0), dead=whole) == (0, 28)
    # Japanese: 14 outside + 2 eyes + 5 dead points, and 5 prisoners.
    assert count(FALSE_EYE, JAPANESE.with_komi(0), dead=whole) == (0, 21 + 5)
    # Only the main chain dead: the false eye touches the live-looking stone at (3,0), so the
    # region is neutral and White gets only its outside.
    partial = score_position(board, JAPANESE.with_komi(0), [Point(1, 1)])
    assert partial.status[Point(2, 0)] is PointStatus.DAME
    assert partial.status[Point(1, 0)] is PointStatus.DEAD_BLACK


@pytest.mark.parametrize(
    ("ruleset", "compensation"),
    [(CHINESE, 4), (AGA, 3), (JAPANESE, 0), (NEW_ZEALAND, 0), (TROMP_TAYLOR, 0)],
)
def test_handicap_compensation_per_ruleset(ruleset: Ruleset, compensation: int) -> None:
    score = score_position(diagram.parse(SPLIT), ruleset, handicap=4)
    assert score.details["white_handicap_compensation"] == compensation
    plain = score_position(diagram.parse(SPLIT), ruleset)
    assert score.white - plain.white == compensation


@pytest.mark.parametrize("ruleset", [CHINESE, AGA])
def test_one_handicap_stone_gets_no_compensation(ruleset: Ruleset) -> None:
    score = score_position(diagram.parse(SPLIT), ruleset, handicap=1)
    assert score.details["white_handicap_compensation"] == 0


def test_score_game_uses_handicap_stones_and_komi() -> None:
    game = Game(9, ruleset=CHINESE.with_komi(0.5))
    game.place_handicap(4)
    game.play(None)
    game.play(None)
    score = score_game(game)
    assert (score.black, score.white) == (81, 0.5 + 4)
    aga = Game(9, ruleset=AGA.with_komi(0.5))
    aga.place_handicap(4)
    assert score_game(aga).white == 0.5 + 3


def test_score_game_uses_the_captures_of_the_game() -> None:
    game = Game(3, ruleset=JAPANESE.with_komi(0))
    for col, row in [(1, 0), (0, 0), (0, 1)]:  # Black takes the corner stone
        game.play(Point(col, row))
    assert score_game(game).details["black_prisoners"] == 1


def test_score_game_after_resignation_keeps_the_count() -> None:
    game = Game(5, ruleset=CHINESE)
    game.play(Point(2, 2))
    game.resign()
    score = score_game(game)
    assert score.result == Result(B, None, "resign")
    assert score.black == 25
    assert "Black wins by resignation (B+R)" in score.explain()


def test_tromp_taylor_refuses_dead_stones_and_counts_the_board_as_it_is() -> None:
    board = diagram.parse(BENT_FOUR)
    with pytest.raises(ValueError, match="Tromp-Taylor"):
        score_position(board, TROMP_TAYLOR, [Point(1, 1)])
    tt = score_position(board, TROMP_TAYLOR.with_komi(0))
    assert (tt.black, tt.white) == (8 + 18, 6 + 4)


def test_bad_marks_are_named() -> None:
    board = diagram.parse(DAME)
    with pytest.raises(ValueError, match="dead point A3 is empty"):
        score_position(board, CHINESE, [Point(0, 0)])
    with pytest.raises(ValueError, match=r"seki point \(9, 9\) is off the board"):
        score_position(board, CHINESE, seki=[Point(9, 9)])
    with pytest.raises(ValueError, match="B3 is marked dead and in seki"):
        score_position(board, JAPANESE, [Point(1, 2)], seki=[Point(1, 0)])
    with pytest.raises(ValueError, match="negative"):
        score_position(board, JAPANESE, captures=(-1, 0))


def test_explain_lists_each_side_and_the_result() -> None:
    text = score_position(diagram.parse(DAME), JAPANESE, captures=(2, 0)).explain()
    assert text.splitlines() == [
        "Rules: japanese (territory scoring), komi 6.5",
        "Black: 3 territory + 2 prisoners = 5",
        "White: 3 territory + 6.5 komi = 9.5",
        "White wins by 4.5 (W+4.5)",
        "Counted for nobody: 3 dame, 0 in seki",
    ]
    taxed = score_position(diagram.parse(SPLIT), STONE_SCORING).explain()
    assert "Black: 5 stones + 5 territory - 2 group tax = 8" in taxed


# -- properties ------------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A random position of 1x1 to 7x7 (any colouring: chains may lack liberties)."""
    width, height = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = draw(
        st.lists(st.sampled_from([None, B, W]), min_size=width * height, max_size=width * height)
    )
    board = Board(width, height)
    for point, value in zip(board.points(), cells, strict=True):
        board.set_point(point, value)
    return board


@given(boards())
def test_area_counts_every_point_but_dame(board: Board) -> None:
    score = score_position(board, CHINESE.with_komi(0))
    assert set(score.status) == set(board.points()) == set(score.why)
    dame = sum(1 for s in score.status.values() if s is PointStatus.DAME)
    assert score.black + score.white == board.width * board.height - dame


@given(boards(), st.integers(0, 20), st.integers(0, 20))
def test_area_and_territory_margins_differ_by_stones_minus_prisoners(
    board: Board, by_black: int, by_white: int
) -> None:
    area = score_position(board, CHINESE.with_komi(0), captures=(by_black, by_white))
    territory = score_position(board, JAPANESE.with_komi(0), captures=(by_black, by_white))
    stones = len(board.stones(B)) - len(board.stones(W))
    difference = (area.black - area.white) - (territory.black - territory.white)
    assert difference == stones - (by_black - by_white)


@given(boards(), st.sampled_from([CHINESE, JAPANESE, AGA, STONE_SCORING]), st.integers(0, 9))
def test_details_add_up_to_the_totals(board: Board, ruleset: Ruleset, handicap: int) -> None:
    score = score_position(board, ruleset, handicap=handicap)
    for color, total in ((B, score.black), (W, score.white)):
        side = color.name.lower()
        assert sum(v for k, v in score.details.items() if k.startswith(side)) == total
    assert score.result == Result.from_totals(score.black, score.white)
