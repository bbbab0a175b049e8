"""Ending a game as between people: answering a pass by tengen's count, and resigning."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tengen.ai.ending import judge
from tengen.ai.mcts import MctsPlayer
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game
from tengen.core.rules import CHINESE, JAPANESE, Ruleset
from tengen.match.players import mcts_player

CHINESE_7 = CHINESE.with_komi(7.0)


def position(diagram: str, ruleset: Ruleset = CHINESE_7, to_play: Color = Color.WHITE) -> Game:
    """A game set up from a diagram (X black, O white), `to_play` to move."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    game = Game(len(rows[0]), len(rows), ruleset)
    black = [Point(c, r) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "X"]
    white = [Point(c, r) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "O"]
    game.setup(black, white, to_play=to_play)
    return game


def after_pass(diagram: str, ruleset: Ruleset = CHINESE_7) -> Game:
    """The position with White having just passed, Black to answer."""
    game = position(diagram, ruleset)
    game.play(None)
    return game


@pytest.fixture
def player() -> Iterator[MctsPlayer]:
    p = MctsPlayer(playouts=600, threads=2, seed=5)
    yield p
    p.close()


# Black's wall on column E, White's on F; a dead white stone at B8 and a dead black one at H3.
# Chinese, komi 7: Black 45 points, White 36 + 7 (B+2). Japanese, komi 6.5: B+2.5.
SETTLED_9 = """
    . . . . X O . . .
    . O . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . X .
    . . . . X O . . .
    . . . . X O . . .
    """


def test_answers_a_pass_with_a_pass_when_the_count_wins(player: MctsPlayer) -> None:
    game = after_pass(SETTLED_9)
    assert player.genmove(game, Color.BLACK) is None


def test_does_not_fill_its_territory_under_territory_rules(player: MctsPlayer) -> None:
    game = after_pass(SETTLED_9, JAPANESE)
    assert player.genmove(game, Color.BLACK) is None


def test_does_not_pass_when_passing_loses() -> None:
    game = position(SETTLED_9, to_play=Color.BLACK)
    game.play(None)  # Black passes; White is behind by the count
    with MctsPlayerAt(resign=0.0) as p:
        assert p.genmove(game, Color.WHITE) is not None
    assert judge(game, Color.WHITE).lead == -2


def test_answers_a_pass_on_19x19(player: MctsPlayer) -> None:
    # Walls on columns C, F, J (Black) and K, O, R (White): 190 points to 171 + 7.
    rows = ["..X..X...XO..O..O.." for _ in range(19)]
    rows[3] = "..X.OX...XO..O..O.."  # a dead white stone in Black's area
    rows[15] = "..X..X...XO..OX.O.."  # a dead black stone in White's
    game = after_pass("\n".join(rows))
    assert judge(game, Color.BLACK).lead == 190 - 171 - 7
    assert player.genmove(game, Color.BLACK) is None


def test_captures_a_chain_in_atari_instead_of_passing(player: MctsPlayer) -> None:
    rows = SETTLED_9.strip().splitlines()
    rows[4] = ". . . X O . . . ."  # White's E5 cuts in, in atari: F5 captures it
    game = after_pass("\n".join(rows))
    assert player.genmove(game, Color.BLACK) == Point(5, 4)


def test_takes_the_ko_instead_of_passing(player: MctsPlayer) -> None:
    rows = SETTLED_9.strip().splitlines()
    rows[0] = ". . . . X O . . ."
    rows[1] = ". O . X O . O . ."  # White's E8 in atari: Black takes the ko at F8
    rows[2] = ". . . . X O . . ."
    game = after_pass("\n".join(rows))
    assert player.genmove(game, Color.BLACK) == Point(5, 1)


def test_closes_an_open_border_instead_of_passing(player: MctsPlayer) -> None:
    rows = SETTLED_9.strip().splitlines()
    rows[8] = ". . . . . . . . ."  # the walls stop short of the edge: nothing is sealed
    game = after_pass("\n".join(rows))
    assert player.genmove(game, Color.BLACK) is not None


def test_fills_a_dame_under_area_rules_but_not_territory(player: MctsPlayer) -> None:
    rows = SETTLED_9.strip().splitlines()
    rows[8] = ". . . . X . O . ."  # F1 is dame: a point under area scoring only
    area = after_pass("\n".join(rows))
    assert judge(area, Color.BLACK).gains[Point(5, 8)] == 1
    assert player.genmove(area, Color.BLACK) == Point(5, 8)
    territory = after_pass("\n".join(rows), JAPANESE)
    assert judge(territory, Color.BLACK).gains[Point(5, 8)] == 0
    assert player.genmove(territory, Color.BLACK) is None


HOPELESS = """
    . O . O . O .
    O O O O O O O
    . O . O . O .
    O O O O O O O
    . O . O . O .
    X X . . . . .
    . X . . . . .
    """


@pytest.mark.parametrize(("resign", "resigns"), [(None, True), (0.0, False)])
def test_resign_threshold(resign: float | None, resigns: bool) -> None:
    game = position(HOPELESS, to_play=Color.BLACK)
    with MctsPlayerAt(resign=resign) as p:
        assert (p.genmove(game, Color.BLACK) == "resign") is resigns


def test_resigns_an_even_game_above_a_high_threshold() -> None:
    game = Game(7, 7, CHINESE_7)
    with MctsPlayerAt(resign=0.99) as p:
        assert p.genmove(game, Color.BLACK) == "resign"


@pytest.mark.parametrize("rate", [-0.1, 1.0, 2.0])
def test_refuses_a_resign_rate_out_of_range(rate: float) -> None:
    with pytest.raises(ValueError, match="resign must be a win rate"):
        MctsPlayer(resign=rate)


def test_a_match_sets_the_builtin_players_resign_rate() -> None:
    player = mcts_player("builtin:5 --resign 0 --threads 1")(seed=1)
    try:
        assert player.resign == 0.0
    finally:
        player.close()
    with pytest.raises(ValueError, match="resign must be a win rate"):
        mcts_player("builtin --resign 1.5")


class MctsPlayerAt:
    """A small player with a resignation rate, closed on leaving the block."""

    def __init__(self, resign: float | None) -> None:
        self.player = MctsPlayer(playouts=400, threads=2, seed=3, resign=resign)

    def __enter__(self) -> MctsPlayer:
        return self.player

    def __exit__(self, *exc: object) -> None:
        self.player.close()


def test_a_judgement_out_of_time_is_not_settled() -> None:
    rows = SETTLED_9.strip().splitlines()
    rows[8] = ". . . . X . O . ."  # F1 is dame: one move to try
    game = after_pass("\n".join(rows), JAPANESE)
    assert judge(game, Color.BLACK).settled
    late = judge(game, Color.BLACK, deadline=0.0)
    assert not late.complete and not late.settled
