"""Plain-text diagrams, compared with golden output."""

from __future__ import annotations

from tengen.core import Color, Game, Point
from tengen.render import game_figure, render_text
from tengen.render.figure import Figure

KO_FIGURE = """\
   A  B  C  D  E  F
6  .  X  O  . 11 10 6
5  X 12  A  O  .  . 5
4  .  X  O  .  . 16 4
3  .  .  .  .  .  . 3
2  .  .  .  .  . 13 2
1  .  .  .  . 14  X 1
   A  B  C  D  E  F

Black: odd, White: even
15 at A; 17 at 12
"""

POSITION_9 = """\
  A B C D E F G H J
9 . . . . . . . . . 9
8 . . . . . . . . . 8
7 . . + . . . O . . 7
6 . . . . . . . . . 6
5 . . . . + . . . . 5
4 . . . . . . . . . 4
3 . . X . . .(X). . 3
2 . . . . . . . . . 2
1 . . . . . . . . . 1
  A B C D E F G H J
"""

WITH_PASS = """\
  A B C D E F G
7 . . . . . . . 7
6 . . . . . . . 6
5 . . 1 2 + . . 5
4 . . 4 + . . . 4
3 . . + . + . . 3
2 . . . . . . . 2
1 . . . . . . . 1
  A B C D E F G

Black: odd, White: even
3 pass
"""


def test_ko_figure(ko_game: Game) -> None:
    assert render_text(game_figure(ko_game, moves=(10, 17))) == KO_FIGURE


def test_position_with_stars_and_last_move() -> None:
    game = Game(9)
    for point in [Point(2, 6), Point(6, 2), Point(6, 6)]:
        game.play(point)
    assert render_text(game_figure(game)) == POSITION_9


def test_pass_in_a_numbered_figure() -> None:
    game = Game(7)
    for point in [Point(2, 2), Point(3, 2), None, Point(2, 3)]:
        game.play(point)
    assert render_text(game_figure(game, moves=(1, 4))) == WITH_PASS


def test_cells_widen_for_chain_labels() -> None:
    game = Game(7)
    for point in [Point(2, 2), Point(3, 2), None, Point(2, 3)]:
        game.play(point)
    lines = render_text(game_figure(game, chain_labels=True)).splitlines()
    assert lines[0] == "     A    B    C    D    E    F    G"
    assert lines[3] == "5    .    . B1:2 W2:3    +    .    . 5"
    assert lines[4] == "4    .    .(W3:3)   +    .    .    . 4"


def test_colours_are_listed_when_parity_does_not_tell_them() -> None:
    played = ((1, Color.BLACK), (2, Color.BLACK), (3, Color.WHITE))
    stones = {Point(0, 0): Color.BLACK, Point(1, 0): Color.BLACK, Point(2, 0): Color.WHITE}
    numbers = {Point(0, 0): 1, Point(1, 0): 2, Point(2, 0): 3}
    fig = Figure(3, 1, stones, numbers=numbers, played=played)
    assert render_text(fig).splitlines()[-1] == "Black: 1, 2; White: 3"


def test_last_move_on_the_right_edge() -> None:
    game = Game(3)
    game.play(Point(2, 1))
    assert render_text(game_figure(game)).splitlines()[2] == "2 . .(X)2"
