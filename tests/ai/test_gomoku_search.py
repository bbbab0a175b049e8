"""The Gomoku player's pattern state, solver and search: the incremental patterns against a
from-scratch count and against the line read straight off the board, the VCF puzzle set
(checked by exhaustive defence when it was built), and the player's forced moves under
every rule."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.ai.gomoku import patterns
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.threats import ThreatSearch
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule, wins_at

PUZZLES = Path(__file__).resolve().parent.parent / "data" / "gomoku_vcf.txt"
_STATE = ("cells", "key", "pat", "val", "kd", "total", "near")


def _line_pattern(pos: Position, i: int, d: int, stone: int) -> int:
    """The pattern of point `i` along line `d` for `stone`, read off the cells directly."""
    digits = []
    for q in pos.nb[i, d]:
        if q < 0:
            digits.append(2)
        else:
            value = int(pos.cells[q])
            digits.append(0 if value == 0 else 1 if value == stone else 2)
    line = (*digits[:4], 1, *digits[4:])
    return patterns._classify(line, pos.rule, stone, {})


@settings(max_examples=40, deadline=None)
@given(
    rule=st.sampled_from(list(Rule)),
    size=st.integers(min_value=5, max_value=11),
    steps=st.lists(st.tuples(st.integers(0, 10**6), st.booleans()), max_size=60),
)
def test_incremental_patterns_equal_a_fresh_count(
    rule: Rule, size: int, steps: list[tuple[int, bool]]
) -> None:
    pos = Position(size, size, rule)
    for pick, take in steps:
        stones = [i for i in range(pos.n) if pos.cells[i]]
        empties = [i for i in range(pos.n) if not pos.cells[i]]
        if take and stones:
            pos.remove(stones[pick % len(stones)])
        elif empties:
            pos.place(empties[pick % len(empties)], 1 + pick % 2)
    kept = {name: getattr(pos, name).copy() for name in _STATE}
    pos.refresh()
    for name in _STATE:
        assert np.array_equal(kept[name], getattr(pos, name)), name
    for i in random.Random(len(steps)).sample(range(pos.n), min(pos.n, 12)):
        for d in range(4):
            for stone in (1, 2):
                assert pos.pat[stone - 1, i, d] == _line_pattern(pos, i, d, stone)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("..XX.XX..", patterns.FIVE),  # the middle fills X X X X X
        (".XXX.....", patterns.F4),
        ("OXXX.....", patterns.B4),
        ("...XX.X..", patterns.F3),
        ("...X.X...", patterns.F3),
        ("..OX.X...", patterns.B3),
        ("OX.X.XO..", patterns.B4),
        ("O.......O", patterns.F1),
        ("OO..X.OOO", patterns.DEAD),
    ],
)
def test_patterns_follow_their_definition(line: str, expected: int) -> None:
    digits = tuple({".": 0, "X": 1, "O": 2}[c] for c in line)
    centre = (*digits[:4], 1, *digits[5:])
    assert patterns._classify(centre, Rule.FREESTYLE, 1, {}) == expected


def test_an_overline_is_a_five_only_where_the_rule_says() -> None:
    line = (0, 1, 1, 1, 1, 1, 1, 1, 0)  # the middle stone in a run of seven
    assert patterns._classify(line, Rule.FREESTYLE, 1, {}) == patterns.FIVE
    assert patterns._classify(line, Rule.RENJU, 2, {}) == patterns.FIVE
    assert patterns._classify(line, Rule.RENJU, 1, {}) != patterns.FIVE
    assert patterns._classify(line, Rule.STANDARD, 2, {}) != patterns.FIVE


def _puzzles() -> list[tuple[Rule, list[Point]]]:
    found = []
    for text in PUZZLES.read_text().splitlines():
        rule, moves = text.split("\t")
        points = [Point(*map(int, m.split(","))) for m in moves.split()]
        found.append((Rule(rule), points))
    return found


def test_the_puzzle_set_is_solved_within_a_node_budget() -> None:
    puzzles = _puzzles()
    assert len(puzzles) >= 8
    for rule, moves in puzzles:
        game = GomokuGame(GomokuRules(rule))
        for p in moves:
            game.play(p)
        pos = Position.of(game)
        first = ThreatSearch(pos, 50_000, 600.0).vcf(int(game.to_play))
        assert first is not None, moves
        assert pos.point(first) in game.legal_moves()


def _random_game(rule: Rule, rng: random.Random) -> GomokuGame:
    """10 to 40 random legal stones in the central 9x9, the game not over."""
    while True:
        game = GomokuGame(GomokuRules(rule))
        for _ in range(rng.randint(10, 40)):
            options = [p for p in game.legal_moves() if 3 <= p.col < 12 and 3 <= p.row < 12]
            if game.is_over or not options:
                break
            game.play(rng.choice(options))
        if not game.is_over:
            return game


def _fives(game: GomokuGame, color: Color) -> set[Point]:
    """Where a `color` stone wins now, by brute force with the judge."""
    found = set()
    for p in game.board.empty_points():
        board = game.board.copy()
        board.place(p, color)
        if wins_at(board, p, color, game.rules.rule) is not None:
            found.add(p)
    return found


@pytest.mark.parametrize("rule", list(Rule))
def test_the_player_wins_blocks_and_never_fouls(rule: Rule) -> None:
    rng = random.Random(rule.value)
    player = GomokuPlayer(seed=1, time_limit=0.05)
    for _ in range(6):
        game = _random_game(rule, rng)
        me = game.to_play
        move = player.genmove(game)
        assert move in game.legal_moves()
        assert move not in game.forbidden_points()
        mine = _fives(game, me) & set(game.legal_moves())
        theirs = _fives(game, me.opponent)
        if mine:
            assert move in mine
        elif len(theirs) == 1:
            assert move in theirs or not theirs & set(game.legal_moves())
