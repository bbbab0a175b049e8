"""The built-in Gomoku player: fives, forced blocks, forced wins, renju's forbidden points,
strength against a random mover, and the time limit kept."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest

from tengen.ai.gomoku.clock import Budget
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.pvs import _CHECK_EVERY
from tengen.ai.gomoku.vcf import CLOCK_EVERY
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuIllegal, GomokuRules, Rule, wins_at
from tests.gomoku.support import TickingClock


def game_of(diagram: str, rule: Rule = Rule.FREESTYLE) -> GomokuGame:
    """A 15x15 game whose stones are `diagram`'s (top left), played black and white in turn.

    Black has as many stones as White (Black to play) or one more (White to play).
    """
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    black = [Point(c, r) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "X"]
    white = [Point(c, r) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "O"]
    assert len(black) - len(white) in (0, 1)
    game = GomokuGame(GomokuRules(rule))
    for i in range(len(black) + len(white)):
        game.play((black if i % 2 == 0 else white)[i // 2])
    return game


def five_points(game: GomokuGame, color: Color) -> set[Point]:
    """Where a `color` stone would win now, by brute force with the judge."""
    found = set()
    for p in game.board.empty_points():
        board = game.board.copy()
        board.place(p, color)
        if wins_at(board, p, color, game.rules.rule) is not None:
            found.add(p)
    return found


def random_positions(rule: Rule, count: int, seed: int) -> list[GomokuGame]:
    """Crowded positions: 10 to 40 random legal stones in the board's central 8x8."""
    rng = random.Random(seed)
    games: list[GomokuGame] = []
    while len(games) < count:
        game = GomokuGame(GomokuRules(rule))
        for _ in range(rng.randint(10, 40)):
            if game.is_over:
                break
            with_stones = [p for p in game.legal_moves() if 3 <= p.col < 11 and 3 <= p.row < 11]
            if not with_stones:
                break
            game.play(rng.choice(with_stones))
        if not game.is_over:
            games.append(game)
    return games


def player(seed: int = 0) -> GomokuPlayer:
    return GomokuPlayer(seed=seed, time_limit=0.1)


# -- fives and blocks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("diagram", "wins"),
    [
        (
            """
            . X X X X . .
            O O O . . . .
            . . . O . . .
            """,
            {Point(0, 0), Point(5, 0)},
        ),
        (
            """
            X . . . . .
            . X O . . .
            . . . O . .
            . . . X O .
            . . . . X O
            """,
            {Point(2, 2)},
        ),
    ],
)
def test_wins_in_one(diagram: str, wins: set[Point]) -> None:
    game = game_of(diagram)
    assert player().genmove(game) in wins


def test_standard_rule_takes_the_five_not_the_overline() -> None:
    game = game_of(
        """
        . X X X X . X
        O O O . O . .
        . . . . . O .
        """,
        Rule.STANDARD,
    )
    assert player().genmove(game) == Point(0, 0)


def test_blocks_a_five_and_prefers_a_block_that_makes_a_four() -> None:
    # White threatens fives at 5,0 and 10,9; Black can stop only one and takes 10,9, which
    # also makes Black an open four on row 9.
    game = game_of(
        """
        X O O O O . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . X .
        . . . . X . . . . . O .
        X . . . . . . . . . O .
        . . . . . . . . . . O .
        . . X . . . . . . . O .
        . . . . . . . X X X . .
        """
    )
    assert five_points(game, Color.WHITE) == {Point(5, 0), Point(10, 9)}
    assert player().genmove(game) == Point(10, 9)


@pytest.mark.parametrize("rule", list(Rule))
def test_never_misses_a_five_or_a_forced_block(rule: Rule) -> None:
    checked_wins = checked_blocks = 0
    for n, game in enumerate(random_positions(rule, 150, seed=7)):
        me = game.to_play
        legal = set(game.legal_moves())
        mine = five_points(game, me) & legal
        theirs = five_points(game, me.opponent)
        move = player(n).genmove(game)
        assert move in legal
        if mine:
            assert move in mine, (game.board.diagram(), move)
            checked_wins += 1
        elif theirs & legal:
            assert move in theirs, (game.board.diagram(), move)
            checked_blocks += 1
    assert checked_wins >= 10 and checked_blocks >= 10


def test_never_plays_a_forbidden_point_as_black_under_renju() -> None:
    checked = 0
    for n, game in enumerate(random_positions(Rule.RENJU, 200, seed=11)):
        if game.to_play is not Color.BLACK:
            continue
        forbidden = game.forbidden_points()
        move = player(n).genmove(game)
        assert move not in forbidden
        checked += bool(forbidden)
        game.play(move)  # raises GomokuIllegal if the move were refused
    assert checked >= 10


# -- forced wins and threats -----------------------------------------------------------------


def test_makes_an_open_four_from_an_open_three() -> None:
    game = game_of(
        """
        . . . . . . . .
        . . X X X . . .
        . . . . . . . .
        . O . . . . O .
        . . . . . O . .
        """
    )
    move = player().genmove(game)
    assert move in {Point(1, 1), Point(5, 1)}


def test_finds_a_four_three_and_wins_against_a_defender() -> None:
    # Black: 5..7 on row 7 closed by White's 4,7, and 8,5 8,6 on column 8. 8,7 makes a four
    # (five-point 9,7) and an open three on column 8 at once; nothing else wins as fast.
    game = game_of(
        """
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . O
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . X . . .
        . . . . . . . . X . . .
        . . . . O X X X . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . O . . . . . . . . . .
        . . . . . . O . . . . .
        . . . . . . . . . O . .
        """
    )
    assert game.to_play is Color.BLACK
    attacker, defender = player(1), player(2)
    assert attacker.genmove(game) == Point(8, 7)
    for _ in range(4):
        game.play(attacker.genmove(game))
        if game.is_over:
            break
        game.play(defender.genmove(game))
    assert game.winner is Color.BLACK


def test_blocks_an_open_three_at_its_ends() -> None:
    game = game_of(
        """
        . . . . . . . .
        . . O O O . . .
        . . . . . . . .
        . X . . . . . .
        . . . . . X . .
        . . . . . . . X
        """
    )
    assert player().genmove(game) in {Point(1, 1), Point(5, 1)}


HOUR = 3600.0  # a budget that only the defence's node limit cuts short, even while compiling


def wins_by_two_moves(game: GomokuGame, color: Color) -> bool:
    """Whether `color`, moving now, has a five or a move after which it has two five points
    (an open four or a double four): brute force with the judge."""
    if five_points(game, color):
        return True
    for p in game.board.empty_points():
        game.board.place(p, color)
        try:
            if len(five_points(game, color)) >= 2:
                return True
        finally:
            game.board.remove(p)
    return False


@pytest.mark.parametrize(
    "diagram",
    [
        # White's open three, its split three and its diagonal three; Black's stones stand
        # alone, so no White win needs more than two White moves and no Black four counts.
        ". X . . . . . . . \n . . . . . . . . . \n . . . O O O . . . \n X . . . . . . . X",
        ". X . . . . . . . \n . . . . . . . . . \n . . . O O . O . . \n X . . . . . . . X",
        "X . . . . . . . \n . . . . . . . . \n . . O . . . . . \n . . . O . . . X"
        "\n . . . . O . . . \n . . . . . . . . \n . X . . . . . .",
    ],
    ids=["open three", "split three", "diagonal three"],
)
def test_the_defence_keeps_exactly_the_moves_after_which_the_threat_is_gone(
    diagram: str,
) -> None:
    game = game_of(diagram)
    pos = Position.of(game)
    roots = pos.ranked(1)  # every empty point near a stone, as the player's roots come
    kept = player()._defences(pos, 1, roots, Budget.of(HOUR))
    expected = set()
    for i in roots:
        game.board.place(pos.point(i), Color.BLACK)
        if not wins_by_two_moves(game, Color.WHITE):
            expected.add(i)
        game.board.remove(pos.point(i))
    assert expected and len(expected) < len(roots)
    assert set(kept) == expected


def test_the_defence_keeps_nothing_back_when_there_is_no_threat() -> None:
    game = game_of(". . . . . \n . X O . . \n . . X O .")
    pos = Position.of(game)
    roots = pos.ranked(1)  # every empty point near a stone, as the player's roots come
    assert not wins_by_two_moves(game, Color.WHITE)
    assert player()._defences(pos, 1, roots, Budget.of(HOUR)) == []


# -- games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
@pytest.mark.parametrize("color", [Color.BLACK, Color.WHITE])
def test_beats_a_random_mover(rule: Rule, color: Color) -> None:
    rng = random.Random(3)
    me = player(5)
    game = GomokuGame(GomokuRules(rule))
    while not game.is_over:
        if game.to_play is color:
            game.play(me.genmove(game))
        else:
            game.play(rng.choice(game.legal_moves()))
    assert game.winner is color


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_a_move_ends_within_a_few_looks_at_the_clock_past_its_time_limit(
    monkeypatch: pytest.MonkeyPatch, rule: Rule
) -> None:
    """A fake clock that moves a millisecond at each look (compiled code reads `time.monotonic`
    too), so the test does not depend on the machine's speed or load: in a whole game between
    two players with 0.4 s a move, no move reads the clock more than a few times once it is past
    the move's limit (the search, the threat solvers and the defence share one deadline; the
    search's nodes between two looks are bounded in tests/ai/test_gomoku_pvs.py): the look that
    stops the search, and before it, since its last look, those of its horizon's VCFs, which
    look every `CLOCK_EVERY` of the nodes they all count (`ai.gomoku.vcf`)."""
    limit = 0.4
    most = 1 + _CHECK_EVERY // CLOCK_EVERY
    game = GomokuGame(GomokuRules(rule))
    players = {c: GomokuPlayer(int(c), time_limit=limit, threads=1) for c in Color}
    clock = TickingClock()
    monkeypatch.setattr(time, "monotonic", clock)
    searched = 0
    while not game.is_over and len(game.moves) < 80:
        clock.start()
        game.play(players[game.to_play].genmove(game))
        assert clock.past(limit) <= most, (len(game.moves), len(clock.looks), clock.past(limit))
        searched += len(clock.looks) > 0
    monkeypatch.undo()
    assert searched >= 5  # moves that searched (not the book's or a forced block)


def test_no_move_when_the_game_is_over() -> None:
    game = game_of(
        """
        X X X X X
        O O O O .
        """
    )
    assert game.is_over
    with pytest.raises(ValueError, match="no legal move"):
        player().genmove(game)
    with pytest.raises(GomokuIllegal):
        game.play(Point(9, 9))


# In a fresh process (compiling on demand, as the suite does): warm up, count each kernel's
# signatures, then play moves for both colours under every rule; print the kernels that got a
# signature during the moves (each one a compile, or at least a cache load, on a move's clock).
_KERNELS_AFTER_WARMING = """
import sys
from numba.core.dispatcher import Dispatcher
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.gomoku import GomokuGame, GomokuRules, Rule

def counts():
    return {
        (name, attr): len(value.signatures)
        for name, module in list(sys.modules.items()) if name.startswith("tengen.") and module
        for attr, value in list(vars(module).items()) if isinstance(value, Dispatcher)
    }

player = GomokuPlayer(time_limit=0.05)
player.warm()
before = counts()
for rule in Rule:
    game = GomokuGame(GomokuRules(rule))
    while game.move_number < 12 and not game.is_over:
        game.play(player.genmove(game))
print(sorted(k for k, n in counts().items() if n > before.get(k, 0)))
"""


def test_warming_up_loads_every_kernel_a_move_calls() -> None:
    """After `warm`, no move under any rule, for either colour, calls a kernel not yet loaded
    (a brain warms at START, outside every clock; a renju foul judge left out of the warm-up
    once cost a brain's first move 1.7 s of a 0.2 s budget, compiling on a fresh install)."""
    env = dict(os.environ, TENGEN_JIT="compiled")
    done = subprocess.run(
        [sys.executable, "-c", _KERNELS_AFTER_WARMING],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout
