"""Games: turns, wins, draws, resignation, undo, illegal moves, and the swap/swap2 openings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuIllegal, GomokuRules, Opening, Rule
from tests.gomoku.renju_reference import Position
from tests.gomoku.support import shut_out_stones


def play_all(game: GomokuGame, points: list[tuple[int, int]]) -> None:
    for col, row in points:
        game.play(Point(col, row))


def test_black_wins_with_five_and_the_game_ends() -> None:
    game = GomokuGame()
    play_all(game, [(7, 7), (0, 0), (8, 7), (0, 1), (9, 7), (0, 2), (10, 7), (0, 3)])
    assert not game.is_over and game.result == "" and game.to_play is Color.BLACK
    game.play(Point(11, 7))
    assert game.is_over and game.winner is Color.BLACK and game.result == "B+5"
    assert game.winning_line == [Point(c, 7) for c in range(7, 12)]
    assert game.legal_moves() == [] and game.move_number == 9
    with pytest.raises(GomokuIllegal, match="game over") as caught:
        game.play(Point(14, 14))
    assert caught.value.reason == "game over" and caught.value.move_number == 10
    game.undo()
    assert not game.is_over and game.winning_line is None and game.to_play is Color.BLACK


def test_standard_overline_does_not_end_the_game() -> None:
    game = GomokuGame(GomokuRules(Rule.STANDARD))
    play_all(game, [(1, 7), (0, 0), (2, 7), (0, 1), (4, 7), (0, 2), (5, 7), (0, 3), (6, 7), (0, 5)])
    game.play(Point(3, 7))  # six in a row
    assert not game.is_over


@pytest.mark.parametrize(
    ("point", "color", "reason"),
    [
        (Point(7, 7), None, "occupied"),
        (Point(15, 0), None, "off board"),
        (Point(3, 3), Color.BLACK, "wrong turn"),
    ],
)
def test_illegal_moves(point: Point, color: Color | None, reason: str) -> None:
    game = GomokuGame()
    game.play(Point(7, 7))
    with pytest.raises(GomokuIllegal) as caught:
        game.play(point, color)
    assert caught.value.reason == reason and caught.value.move_number == 2
    assert game.move_number == 1


def test_draw_on_a_full_board() -> None:
    game = GomokuGame(GomokuRules(width=5, height=5))
    # No row, column or diagonal of this pattern holds five of one colour.
    pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]
    blacks = [Point(c, r) for r, row in enumerate(pattern) for c, s in enumerate(row) if s == "X"]
    whites = [Point(c, r) for r, row in enumerate(pattern) for c, s in enumerate(row) if s == "O"]
    for b, w in zip(blacks, whites, strict=False):
        game.play(b)
        game.play(w)
    game.play(blacks[-1])
    assert game.is_over and game.winner is None and game.result == "draw"
    assert game.drawn_because == "the board is full"
    assert game.legal_moves() == []


def test_resign_and_undo_it() -> None:
    game = GomokuGame()
    game.play(Point(7, 7))
    game.resign()
    assert game.winner is Color.BLACK and game.result == "B+R" and game.is_over
    with pytest.raises(GomokuIllegal, match="game over"):
        game.resign(Color.BLACK)
    game.undo()
    assert not game.is_over and game.result == ""
    game.resign(Color.BLACK)
    assert game.result == "W+R"


def test_undo_everything_gives_an_empty_board() -> None:
    game = GomokuGame()
    play_all(game, [(7, 7), (8, 8), (6, 6)])
    for _ in range(3):
        game.undo()
    assert game.board.stone_count == 0 and game.moves == [] and game.to_play is Color.BLACK
    with pytest.raises(IndexError):
        game.undo()


def test_swap_after_three_stones() -> None:
    game = GomokuGame(GomokuRules(opening=Opening.SWAP))
    assert not game.can_swap
    game.place_opening([Point(7, 7), Point(8, 7), Point(7, 9)])
    assert game.can_swap and game.to_play is Color.WHITE
    game.swap()
    assert game.black_player == 2 and game.player_of(Color.WHITE) == 1 and not game.can_swap
    game.play(Point(6, 6))  # player 1, now White, plays stone 4
    with pytest.raises(GomokuIllegal, match="no colour choice"):
        game.swap()
    game.undo()
    game.undo()
    assert game.black_player == 1 and game.can_swap


def test_swap_declined_by_playing() -> None:
    game = GomokuGame(GomokuRules(opening=Opening.SWAP))
    play_all(game, [(7, 7), (8, 7), (7, 9)])  # the first three, one at a time
    assert game.can_swap
    game.play(Point(6, 6))
    assert not game.can_swap and game.black_player == 1


def test_swap2_two_more_stones_then_the_first_player_chooses() -> None:
    game = GomokuGame(GomokuRules(opening=Opening.SWAP2))
    game.place_opening([Point(7, 7), Point(8, 7), Point(7, 9)])
    game.place_opening([Point(6, 6), Point(9, 9)])
    assert game.move_number == 5 and game.to_play is Color.WHITE and game.can_swap
    game.swap()  # player 1 takes White and plays stone 6
    assert game.player_of(Color.WHITE) == 1
    game.play(Point(10, 10))
    assert not game.can_swap


def test_swap2_undo_takes_back_the_proposal() -> None:
    game = GomokuGame(GomokuRules(opening=Opening.SWAP2))
    game.place_opening([Point(7, 7), Point(8, 7), Point(7, 9)])
    game.place_opening([Point(6, 6), Point(9, 9)])
    game.undo()
    assert game.move_number == 3 and game.can_swap


@pytest.mark.parametrize(
    ("opening", "first", "then"),
    [
        (Opening.NONE, 3, None),
        (Opening.SWAP, 2, None),
        (Opening.SWAP, 3, 2),  # only swap2 has the two-stone option
        (Opening.SWAP2, 3, 3),
    ],
)
def test_opening_steps_out_of_sequence(opening: Opening, first: int, then: int | None) -> None:
    game = GomokuGame(GomokuRules(opening=opening))
    points = [Point(c, 0) for c in range(0, 12, 2)]
    if then is None:
        with pytest.raises(GomokuIllegal, match="opening"):
            game.place_opening(points[:first])
        return
    game.place_opening(points[:first])
    with pytest.raises(GomokuIllegal, match="opening"):
        game.place_opening(points[first : first + then])


def test_an_illegal_opening_stone_takes_the_batch_back() -> None:
    game = GomokuGame(GomokuRules(opening=Opening.SWAP))
    with pytest.raises(GomokuIllegal, match="occupied"):
        game.place_opening([Point(7, 7), Point(8, 8), Point(7, 7)])
    assert game.move_number == 0 and game.board.stone_count == 0


# -- set-up positions ----------------------------------------------------------------------

# Black's 1,12 2,12 3,12 3,10 3,11: 3,12 is a double-three vertex, forbidden to a move; set up
# as a position, the stone stands, in whatever order the stones come.
_SETUP_BLACK = [Point(1, 12), Point(2, 12), Point(3, 12), Point(3, 10), Point(3, 11)]
_SETUP_WHITE = [Point(0, 0), Point(2, 0), Point(4, 0), Point(6, 0), Point(8, 0)]


@pytest.mark.parametrize("first", range(5))
def test_set_up_is_not_judged_by_the_foul_rule(first: int) -> None:
    black = _SETUP_BLACK[first:] + _SETUP_BLACK[:first]
    game = GomokuGame(GomokuRules(Rule.RENJU))
    game.set_up(black, list(reversed(_SETUP_WHITE)))
    assert {p for c, p in game.moves if c is Color.BLACK} == set(_SETUP_BLACK)
    assert game.to_play is Color.BLACK and not game.is_over
    replay = GomokuGame(GomokuRules(Rule.RENJU))
    vertex_last = [p for p in _SETUP_BLACK if p != Point(3, 12)] + [Point(3, 12)]
    with pytest.raises(GomokuIllegal, match="forbidden: double-three"):  # moves are judged
        for b, w in zip(vertex_last, _SETUP_WHITE, strict=True):
            replay.play(b)
            replay.play(w)
    game.undo()
    assert game.move_number == 9 and game.to_play is Color.WHITE


def test_set_up_judges_a_five_in_the_position() -> None:
    game = GomokuGame(GomokuRules(Rule.RENJU))
    black = [Point(c, 3) for c in range(4)] + [Point(12, 14), Point(14, 14)]
    game.set_up(black, [Point(c, 9) for c in range(6)])
    assert game.winner is Color.WHITE and game.result == "W+5"  # White's six wins in renju
    six = GomokuGame(GomokuRules(Rule.RENJU))
    six.set_up([Point(c, 3) for c in range(6)], [Point(c, 9) for c in range(0, 12, 2)])
    assert not six.is_over  # Black's overline stands and does not win


@pytest.mark.parametrize(
    ("black", "white", "reason"),
    [
        ([Point(1, 1), Point(2, 2)], [], "2 black and 0 white"),
        ([Point(1, 1)], [Point(1, 1)], "occupied"),
        ([Point(1, 1)], [Point(15, 1)], "off board"),
    ],
)
def test_set_up_refuses_what_is_no_position(
    black: list[Point], white: list[Point], reason: str
) -> None:
    game = GomokuGame(GomokuRules(Rule.RENJU))
    with pytest.raises(GomokuIllegal, match=reason):
        game.set_up(black, white)
    assert game.move_number == 0 and game.board.stone_count == 0
    game.play(Point(7, 7))
    with pytest.raises(GomokuIllegal, match="not empty"):
        game.set_up([Point(1, 1)], [])


# -- SWAP2BOARD answers ----------------------------------------------------------------------

_THREE = [Point(7, 7), Point(8, 7), Point(7, 9)]


def test_decide_opening_swap2_every_path() -> None:
    rules = GomokuRules(opening=Opening.SWAP2)
    took_black = GomokuGame(rules)
    assert took_black.opening_decision == 1
    took_black.decide_opening(_THREE)
    assert took_black.opening_decision == 2
    took_black.decide_opening(None)  # player 2 takes Black; player 1 plays White's 4th
    assert took_black.opening_decision is None and took_black.player_of(Color.WHITE) == 1
    stays_white = GomokuGame(rules)
    stays_white.decide_opening(_THREE)
    stays_white.decide_opening([Point(6, 6)])
    assert stays_white.move_number == 4 and stays_white.black_player == 1
    assert stays_white.opening_decision is None
    for answer, black_player in ((None, 1), ([Point(9, 9)], 2)):
        five = GomokuGame(rules)
        five.decide_opening(_THREE)
        five.decide_opening([Point(6, 6), Point(6, 8)])
        assert five.opening_decision == 1 and five.to_play is Color.WHITE
        five.decide_opening(answer)  # SWAP: player 1 keeps Black; a move: takes White
        assert five.opening_decision is None and five.black_player == black_player
        assert five.player_of(five.to_play) == 2  # White (stone 6), or Black after it


@pytest.mark.parametrize(
    ("opening", "before", "answer"),
    [
        (Opening.SWAP, [_THREE], [Point(6, 6), Point(6, 8)]),  # swap1: no two stones
        (Opening.SWAP2, [], None),
        (Opening.SWAP2, [], [Point(7, 7)]),
        (Opening.SWAP2, [_THREE, [Point(6, 6), Point(6, 8)]], [Point(1, 1), Point(2, 2)]),
        (Opening.SWAP2, [_THREE, [Point(6, 6)]], None),  # the opening is over
        (Opening.NONE, [], _THREE),
    ],
)
def test_decide_opening_refuses_answers_out_of_turn(
    opening: Opening, before: list[list[Point]], answer: list[Point] | None
) -> None:
    game = GomokuGame(GomokuRules(opening=opening))
    for stones in before:
        game.decide_opening(stones)
    moves = list(game.moves)
    with pytest.raises(GomokuIllegal, match="opening"):
        game.decide_opening(answer)
    assert game.moves == moves


def test_decide_opening_refuses_an_occupied_sixth_and_changes_nothing() -> None:
    game = GomokuGame(GomokuRules(opening=Opening.SWAP2))
    game.decide_opening(_THREE)
    game.decide_opening([Point(6, 6), Point(6, 8)])
    with pytest.raises(GomokuIllegal, match="occupied"):
        game.decide_opening([Point(7, 7)])
    assert game.black_player == 1 and game.opening_decision == 1 and game.move_number == 5


@pytest.mark.parametrize("rule", list(Rule))
def test_black_with_only_forbidden_points_left_draws_under_renju(rule: Rule) -> None:
    """Black cannot move, and there is no pass: the game is a draw, not a position where the
    player to move is asked for a move it does not have (a Gomocup brain was, in a match)."""
    black, white = shut_out_stones()
    game = GomokuGame(GomokuRules(rule))
    game.set_up(black, white)
    reference = Position(15, 15, [(p.col, p.row) for p in black], [(p.col, p.row) for p in white])
    assert game.winner is None and game.to_play is Color.BLACK
    if rule is Rule.RENJU:
        assert reference.foul((7, 7)) == ("overline", ["diagonal"])
        assert game.is_over and game.result == "draw" and game.legal_moves() == []
        assert game.drawn_because == "Black has only forbidden points left"
        with pytest.raises(GomokuIllegal, match="game over"):
            game.play(Point(7, 7))
    else:  # the same stones under other rules: Black plays the last point
        assert not game.is_over and game.result == "" and game.legal_moves() == [Point(7, 7)]
    game.undo()  # White to play, with two points: the game goes on under every rule
    assert not game.is_over and game.drawn_because == "" and len(game.legal_moves()) == 2


@given(st.lists(st.tuples(st.integers(3, 11), st.integers(3, 11)), max_size=40))
@settings(max_examples=40, deadline=None)
def test_is_legal_agrees_with_legal_moves_and_play_under_renju(
    points: list[tuple[int, int]],
) -> None:
    game = GomokuGame(GomokuRules(Rule.RENJU))
    for col, row in points:
        if not game.is_legal(Point(col, row)):
            continue
        game.play(Point(col, row))
        if game.is_over:
            break
    legal = set(game.legal_moves())
    for p in [*game.board.points(), Point(15, 0), Point(0, 15)]:
        assert game.is_legal(p) == (p in legal), p
        if p not in legal and not game.is_over and 0 <= p.col < 15 and 0 <= p.row < 15:
            with pytest.raises(GomokuIllegal):
                game.play(p)
