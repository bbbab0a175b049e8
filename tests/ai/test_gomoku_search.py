"""The Gomoku player's pattern state, solver and search: the incremental patterns against a
from-scratch count and against the line read straight off the board, the VCF and VCT puzzle
sets (each proved by exhaustive defence when it was built: bench/gomoku_puzzles.py). The
player's forced moves are tested in tests/gomoku/test_player.py."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.ai.gomoku import kernels, patterns, state
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.threats import ThreatSearch
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core import jit
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule

PUZZLES = Path(__file__).resolve().parent.parent / "data" / "gomoku_vcf.txt"
_STATE = ("cells", "key", "pat", "code", "val", "kd", "total", "tally", "near")
_OF_EMPTY = ("pat", "code", "val", "kd")  # kept for the empty points only (`kernels._move`)


def _state(pos: Position) -> dict[str, np.ndarray]:
    """The pattern state as the searches read it: the occupied points' patterns, worth and
    class left out."""
    empty = pos.cells == 0
    return {
        name: getattr(pos, name)[:, empty] if name in _OF_EMPTY else getattr(pos, name).copy()
        for name in _STATE
    }


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return all(np.array_equal(a[name], b[name]) for name in _STATE)


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
    return _by_definition(line, pos.rule, stone)


def _by_definition(line: tuple[int, ...], rule: Rule, stone: int) -> int:
    """The (split) class of a nine-cell line: its class, then F2, B3 and F3 split by how many
    of the empty cells grow them to the class above (three, three and two or more: X)."""
    coarse = patterns._classify(line, rule, stone, {})
    above = {patterns.F2: patterns.F3, patterns.B3: patterns.B4, patterns.F3: patterns.F4}
    if coarse not in above:
        return coarse
    grown = [(*line[:k], 1, *line[k + 1 :]) for k, digit in enumerate(line) if digit == 0]
    ways = sum(patterns._classify(g, rule, stone, {}) == above[coarse] for g in grown)
    if coarse == patterns.F3:
        return patterns.F3X if ways >= 2 else patterns.F3
    split = patterns.F2X if coarse == patterns.F2 else patterns.B3X
    return split if ways >= 3 else coarse


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
    kept = _state(pos)
    pos.refresh()
    assert _same(kept, _state(pos))
    for i in random.Random(len(steps)).sample(range(pos.n), min(pos.n, 12)):
        for d in range(4):
            for stone in (1, 2):
                assert pos.pat[stone - 1, i, d] == _line_pattern(pos, i, d, stone)
    for stone in (1, 2):  # the node's summary, read from the tally, against a scan
        assert tuple(int(x) for x in state.survey(pos.s, stone)) == _survey_by_scan(pos, stone)
    empty = [j for j in range(pos.n) if not pos.cells[j]]
    for stone in (1, 2):  # the threat points, whose scan stops at the tally's count
        for least in range(1, patterns.WIN + 1):
            scan = [j for j in empty if pos.kd[stone - 1, j] >= least]
            assert pos.threats(stone, least) == scan
    for c in (0, 1):  # the move order's and the evaluation's worths, from the patterns
        lines = [[int(p) for p in pos.pat[c, j]] for j in empty]
        order = [_worth(x, patterns.WORTH, patterns.COMBO_WORTH) for x in lines]
        assert [int(pos.val[c, j]) for j in empty] == order
        shapes = patterns.shape_worths(rule)
        evaluation = [
            _worth(x, patterns.EVAL_WORTH, patterns.EVAL_COMBO_WORTH)
            + shapes.get(tuple(sorted(x)), 0)
            for x in lines
        ]
        assert int(pos.total[c]) == sum(evaluation)


@pytest.mark.parametrize(
    ("rule", "name"),
    [(Rule.FREESTYLE, "freestyle"), (Rule.STANDARD, "freestyle"), (Rule.CARO, "freestyle"),
     (Rule.RENJU, "renju")],
)  # fmt: skip
def test_the_shape_worths_are_the_fitted_tables_lines(rule: Rule, name: str) -> None:
    """Each line of the rule's fitted table is a shape (four pattern names) and its worth,
    which the evaluation's row adds to the point's line worths, and the move order's does
    not."""
    assert patterns.shape_table(rule).name == f"{name}.txt"
    lines = [x.split() for x in patterns.shape_table(rule).read_text().splitlines()]
    lines = [line for line in lines if line and not line[0].startswith("#")]
    assert len(lines) > 100
    assert all(len(line) == 5 for line in lines)
    expected = {
        tuple(sorted(patterns.NAMES.index(name) for name in line[:4])): int(line[4])
        for line in lines
    }
    assert patterns.shape_worths(rule) == expected
    worth, _ = patterns.combos(rule)
    for code in range(patterns.CODES):
        pats = [(code // patterns.CLASSES**d) % patterns.CLASSES for d in range(4)]
        assert worth[0, code] == _worth(pats, patterns.WORTH, patterns.COMBO_WORTH)
        line = _worth(pats, patterns.EVAL_WORTH, patterns.EVAL_COMBO_WORTH)
        assert worth[1, code] - line == expected.get(tuple(sorted(pats)), 0)


def _order_table(rule: Rule) -> dict[tuple[str, tuple[str, ...]], int]:
    """The move order's shape worths as the table's lines say: by side and the four pattern
    names, unsplit and sorted as written."""
    lines = [x.split() for x in patterns.order_table(rule).read_text().splitlines()]
    return {
        (line[0], tuple(sorted(line[1:5]))): int(line[5])
        for line in lines
        if line and not line[0].startswith("#")
    }


@settings(max_examples=30, deadline=None)
@given(rule=st.sampled_from(list(Rule)), seed=st.integers(0, 10**6))
def test_the_orders_second_look_reranks_its_first_points_by_place_and_shape(
    rule: Rule, seed: int
) -> None:
    """`Position.ranked`: the first `POOL` points of `rank_key`'s order re-ranked, the k-th
    by ``ORDER_SCALE * ln(1 + k)`` less the table's worths of its shape for the side to move
    and for the opponent (each shape its four patterns' names, the split classes as their
    classes), ties as they came; the rest as they were. Renju has a table of its own."""
    rng = random.Random(seed)
    pos = Position(15, 15, rule)
    for i in rng.sample(range(pos.n), rng.randint(1, 40)):
        pos.place(i, rng.randint(1, 2))
    table = _order_table(rule)
    unsplit = {"F2x": "F2", "B3x": "B3", "F3x": "F3"}

    def shape(c: int, j: int) -> tuple[str, ...]:
        names = (patterns.NAMES[int(p)] for p in pos.pat[c, j])
        return tuple(sorted(unsplit.get(name, name) for name in names))

    for stone in (1, 2):
        c = stone - 1
        base = pos.ranked(stone, 0)
        top = base[: patterns.POOL]
        keys = [
            round(patterns.ORDER_SCALE * math.log1p(k))
            - table.get(("own", shape(c, j)), 0)
            - table.get(("theirs", shape(1 - c, j)), 0)
            for k, j in enumerate(top)
        ]
        again = [top[k] for k in sorted(range(len(top)), key=lambda k: (keys[k], k))]
        assert pos.ranked(stone) == again + base[patterns.POOL :]


def _worth(lines: list[int], worth: tuple[int, ...], combo: dict[int, int]) -> int:
    """A point's worth by definition: its four lines' patterns' and their combination's."""
    return sum(worth[p] for p in lines) + combo.get(patterns.combo_class(lines), 0)


def _survey_by_scan(pos: Position, stone: int) -> tuple[int, ...]:
    """What `state.survey` reports, by looking at every empty point."""
    summary: list[int] = []
    for c in (stone - 1, 2 - stone):
        empty = [j for j in range(pos.n) if not pos.cells[j]]
        fives = [j for j in empty if pos.kd[c, j] == patterns.WIN]
        summary += [min(len(fives), 2), fives[0] if fives else -1]
    tops = [max((int(pos.kd[c, j]) for j in empty), default=0) for c in (stone - 1, 2 - stone)]
    return (*summary, *tops)


@settings(max_examples=20, deadline=None)
@given(rule=st.sampled_from(list(Rule)), seed=st.integers(0, 10**6))
def test_a_copy_has_the_same_state_and_moves_alone(rule: Rule, seed: int) -> None:
    rng = random.Random(seed)
    pos = Position(15, 15, rule)
    for i in rng.sample(range(pos.n), rng.randint(0, 30)):
        pos.place(i, rng.randint(1, 2))
    twin = pos.copy()
    assert twin.hash == pos.hash and twin.nodes == 0
    for name in _STATE:
        assert np.array_equal(getattr(pos, name), getattr(twin, name)), name
        assert getattr(twin, name) is getattr(twin.s, name)  # the searches' arrays
    before = {name: getattr(pos, name).copy() for name in _STATE}
    empty = int(np.flatnonzero(twin.cells == 0)[0])
    twin.place(empty, 1)
    for name in _STATE:
        assert np.array_equal(before[name], getattr(pos, name)), name
    fresh = Position(15, 15, rule)
    for i in np.flatnonzero(twin.cells):
        fresh.place(int(i), int(twin.cells[i]))
    assert fresh.hash == twin.hash
    assert _same(_state(fresh), _state(twin))


def test_kernels_compiled_with_reference_counting_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    # A numba release without the private `_nrt` switch gets kernels with numba's reference
    # counting: the options must drop the switch, and such a kernel must keep the same state.
    from numba import njit
    from numba.core.cpu import CPUTargetOptions

    counted = njit(cache=False, nogil=True)(kernels.place.py_func)
    lean, slow = Position(15, 15, Rule.RENJU), Position(15, 15, Rule.RENJU)
    rng = random.Random(3)
    for turn, i in enumerate(rng.sample(range(lean.n), 60)):
        stone = 1 + turn % 2
        lean.place(i, stone)
        counted(i, stone, slow.s)
        for name in _STATE:
            assert np.array_equal(getattr(lean, name), getattr(slow, name)), (turn, name)
    assert jit.lean_options()["_nrt"] is False
    owner = next(k for k in CPUTargetOptions.__mro__ if "_nrt" in vars(k))
    monkeypatch.delattr(owner, "_nrt")  # no kernel compiles while it is gone
    assert jit.lean_options() == {"cache": True, "nogil": True}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("..XX.XX..", patterns.FIVE),  # the middle fills X X X X X
        (".XXX.....", patterns.F4),
        ("OXXX.....", patterns.B4),
        ("...XX.X..", patterns.F3),  # X X . X: one point makes an open four
        ("...X.X...", patterns.F3X),  # . X X X .: either end makes an open four
        ("..XX.....", patterns.F3X),
        (".X.X.....", patterns.F3),  # X . X X: only the gap makes an open four
        ("...X.....", patterns.F2X),  # X X: four points make an open three
        ("O..X...O.", patterns.F2),  # X X held in by O: two make an open three
        ("OXX......", patterns.B3),  # O X X . X: the gap or the right makes a four
        ("X..XX..X.", patterns.B3X),  # X . . X X . . X: four points make a four
        ("..OX.X...", patterns.B3),
        ("OX.X.XO..", patterns.B4),
        ("O.......O", patterns.F1),
        ("OO..X.OOO", patterns.DEAD),
    ],
)
def test_patterns_follow_their_definition(line: str, expected: int) -> None:
    digits = tuple({".": 0, "X": 1, "O": 2}[c] for c in line)
    centre = (*digits[:4], 1, *digits[5:])
    key = patterns.encode([*digits[:4], *digits[5:]])
    assert patterns.table(Rule.FREESTYLE, 1)[key] == expected
    assert _by_definition(centre, Rule.FREESTYLE, 1) == expected


def test_an_overline_is_a_five_only_where_the_rule_says() -> None:
    line = (0, 1, 1, 1, 1, 1, 1, 1, 0)  # the middle stone in a run of seven
    assert patterns._classify(line, Rule.FREESTYLE, 1, {}) == patterns.FIVE
    assert patterns._classify(line, Rule.RENJU, 2, {}) == patterns.FIVE
    assert patterns._classify(line, Rule.RENJU, 1, {}) != patterns.FIVE
    assert patterns._classify(line, Rule.STANDARD, 2, {}) != patterns.FIVE


def _puzzles(name: str = "gomoku_vcf.txt") -> list[tuple[Rule, list[Point]]]:
    found = []
    for text in (PUZZLES.parent / name).read_text().splitlines():
        rule, moves = text.split("\t")
        points = [Point(*map(int, m.split(","))) for m in moves.split()]
        found.append((Rule(rule), points))
    return found


def _game(rule: Rule, moves: list[Point]) -> GomokuGame:
    game = GomokuGame(GomokuRules(rule))
    for p in moves:
        game.play(p)
    return game


def test_the_puzzle_set_is_solved_within_a_node_budget() -> None:
    puzzles = _puzzles()
    assert len(puzzles) >= 8
    for rule, moves in puzzles:
        game = _game(rule, moves)
        pos = Position.of(game)
        first = ThreatSearch(pos, 50_000, 600.0).vcf(int(game.to_play))
        assert first is not None, moves
        assert pos.point(first) in game.legal_moves()


def test_the_vct_set_needs_threes_and_is_solved_within_a_node_budget() -> None:
    puzzles = _puzzles("gomoku_vct.txt")
    assert len(puzzles) >= 12
    assert {rule for rule, _ in puzzles} == {Rule.FREESTYLE, Rule.RENJU}
    for rule, moves in puzzles:
        game = _game(rule, moves)
        pos = Position.of(game)
        attacker = int(game.to_play)
        assert ThreatSearch(pos, 200_000, 600.0).vcf(attacker) is None, moves
        first = ThreatSearch(pos, 400_000, 600.0).vct(attacker)  # the longest needs 313,192
        assert first is not None, moves
        assert pos.point(first) in game.legal_moves()


@pytest.mark.parametrize("number", [1, 6, 7])
def test_the_player_wins_a_vct_puzzle_against_its_own_defence(number: int) -> None:
    # Both sides are the built-in player; the attacker's win was proved against every
    # defence, so whatever the defender tries, the attacker must make five. These three
    # puzzles' VCTs take 10,000-20,000 nodes: within a 1 s move's VCT on a loaded machine.
    rule, moves = _puzzles("gomoku_vct.txt")[number]
    game = _game(rule, moves)
    attacker = game.to_play
    players = {attacker: GomokuPlayer(1, 1.0, 1), attacker.opponent: GomokuPlayer(2, 1.0, 1)}
    for player in players.values():
        player.warm()  # a kernel compiled on demand inside a move would eat its time
    while not game.is_over and len(game.moves) < len(moves) + 40:
        game.play(players[game.to_play].genmove(game))
    assert game.winner is attacker, [f"{p.col},{p.row}" for _, p in game.moves]
