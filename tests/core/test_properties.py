"""Property tests: the incremental board against a from-scratch reference, undo, superko."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.core import Board, Color, Game, IllegalMove, IllegalReason, Point, Ruleset
from tengen.core.rules import KoRule

B, W = Color.BLACK, Color.WHITE


def reference_play(
    grid: dict[Point, Color], width: int, height: int, point: Point, color: Color
) -> int:
    """The capture rules by flood fill over a dict, written independently of the kernels.

    Places the stone, removes enemy chains without liberties, then the own chain if it has
    none. Returns the number of stones removed.
    """

    def neighbours(p: Point) -> list[Point]:
        c, r = p
        cand = [Point(c - 1, r), Point(c + 1, r), Point(c, r - 1), Point(c, r + 1)]
        return [q for q in cand if 0 <= q.col < width and 0 <= q.row < height]

    def chain_and_libs(p: Point) -> tuple[set[Point], set[Point]]:
        color_p = grid[p]
        chain, libs, todo = {p}, set(), [p]
        while todo:
            for q in neighbours(todo.pop()):
                if q not in grid:
                    libs.add(q)
                elif grid[q] == color_p and q not in chain:
                    chain.add(q)
                    todo.append(q)
        return chain, libs

    grid[point] = color
    removed = 0
    for q in neighbours(point):
        if grid.get(q) == color.opponent:
            chain, libs = chain_and_libs(q)
            if not libs:
                for s in chain:
                    del grid[s]
                removed += len(chain)
    if removed == 0:
        chain, libs = chain_and_libs(point)
        if not libs:
            for s in chain:
                del grid[s]
            removed = len(chain)
    return removed


def as_dict(board: Board) -> dict[Point, Color]:
    return {p: c for p in board.points() if (c := board[p]) is not None}


sizes = st.tuples(st.integers(1, 9), st.integers(1, 9))
choices = st.lists(st.integers(0, 10_000), min_size=1, max_size=250)


@given(sizes, choices)
def test_board_matches_reference_and_undo_restores_empty(
    size: tuple[int, int], picks: list[int]
) -> None:
    """Random moves (suicide allowed, so every capture path runs) in both implementations."""
    width, height = size
    board = Board(width, height)
    ref: dict[Point, Color] = {}
    records = []
    color = B
    for pick in picks:
        empties = board.empty_points()
        if not empties:
            break
        point = empties[pick % len(empties)]
        if board.legality(point, color, allow_suicide=True) is not None:
            continue
        record = board.play_unchecked(point, color)
        removed = reference_play(ref, width, height, point, color)
        assert record.captured == removed
        assert as_dict(board) == ref
        board.check_consistency()
        for chain in board.chains():
            assert all(board[q] is None for q in chain.liberties)
            assert len(chain.liberties) == board.liberty_count(next(iter(chain.stones)))
        records.append(record)
        color = color.opponent
    for record in reversed(records):
        board.undo(record)
    board.check_consistency()
    assert board.hash == 0 and as_dict(board) == {}
    assert board.captures(B) == board.captures(W) == 0


@given(st.sampled_from([KoRule.POSITIONAL, KoRule.SITUATIONAL]), choices)
def test_no_position_repeats_under_superko(ko: KoRule, picks: list[int]) -> None:
    """On a 4x4 board, where kos and recaptures are frequent, no stone position recurs."""
    game = Game(4, ruleset=Ruleset("test", ko=ko), end_after_passes=False)
    seen = {(game.board.hash, game.to_play)}
    positions = {game.board.hash}
    for pick in picks:
        legal = game.legal_moves()
        move = legal[pick % len(legal)] if legal and pick % 17 else None
        game.play(move)
        if move is None:
            continue
        if ko is KoRule.POSITIONAL:
            assert game.board.hash not in positions
        else:
            assert (game.board.hash, game.to_play) not in seen
        positions.add(game.board.hash)
        seen.add((game.board.hash, game.to_play))


@given(choices)
def test_undo_redo_round_trip(picks: list[int]) -> None:
    game = Game(5)
    history = [game.board.hash]
    for pick in picks[:60]:
        legal = game.legal_moves()
        if game.is_over:
            break
        game.play(legal[pick % len(legal)] if legal and pick % 13 else None)
        history.append(game.board.hash)
    n = game.move_number
    for expected in reversed(history[:-1]):
        game.undo()
        assert game.board.hash == expected
    for _ in range(n):
        game.redo()
    assert game.board.hash == history[-1]
    game.board.check_consistency()


@given(st.sampled_from(list(KoRule)), st.booleans(), choices)
def test_legal_moves_agrees_with_pointwise_legality(
    ko: KoRule, suicide: bool, picks: list[int]
) -> None:
    """The one-pass compiled listing equals asking `legality` point by point, for both sides."""
    rules = Ruleset("test", ko=ko, suicide_allowed=suicide)
    game = Game(5, ruleset=rules, free_turns=True, end_after_passes=False)
    for pick in picks[:80]:
        for color in (B, W):
            expected = [p for p in game.board.points() if game.legality(p, color) is None]
            assert game.legal_moves(color) == expected
        legal = game.legal_moves()
        game.play(legal[pick % len(legal)] if legal and pick % 11 else None)


def pick_move(game: Game, rnd: random.Random) -> tuple[Point | None, Color]:
    """Any point (occupied ones too) or, rarely, a pass; now and then for the wrong colour."""
    points = list(game.board.points())
    move = None if rnd.random() < 0.03 else rnd.choice(points)
    return move, game.to_play if rnd.random() < 0.8 else game.to_play.opponent


@given(
    st.integers(2, 4),
    st.sampled_from(list(KoRule)),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_play_refuses_exactly_what_legality_names(
    size: int, ko: KoRule, suicide: bool, permissive: bool, seed: int
) -> None:
    """`play` checks and plays in one kernel call where it can and reads superko from the
    position made; `legality` checks without playing. A strict game must refuse exactly the
    moves `legality` names, with that reason and the board untouched; a permissive one must
    refuse only occupied points and report the same first rule broken on what it plays. Small
    boards, where positions recur often, put superko to the test."""
    rnd = random.Random(seed)
    game = Game(
        size, ruleset=Ruleset("test", ko=ko, suicide_allowed=suicide), permissive=permissive
    )
    for _ in range(300):
        move, color = pick_move(game, rnd)
        reason = game.legality(move, color)
        before = (game.board.hash, game.move_number, game.to_play)
        if reason is not None and (not permissive or reason is IllegalReason.OCCUPIED):
            with pytest.raises(IllegalMove) as err:
                game.play(move, color)
            assert err.value.reason is reason
            assert (game.board.hash, game.move_number, game.to_play) == before
            continue
        played = game.play(move, color)
        assert (played.violations[0] if played.violations else None) is reason
    game.board.check_consistency()


@given(
    st.integers(2, 5),
    st.sampled_from(list(KoRule)),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_play_moves_is_play_move_by_move(
    size: int, ko: KoRule, suicide: bool, permissive: bool, free: bool, seed: int
) -> None:
    """`play_moves` plays a line as `play` would move by move, and stops where `play` refuses:
    the same entries, rules broken, board (also against the flood-fill reference), hashes,
    superko history and turn; undoing every move empties the board again."""
    rnd = random.Random(seed)
    ruleset = Ruleset("test", ko=ko, suicide_allowed=suicide)
    options = {"permissive": permissive, "free_turns": free, "end_after_passes": rnd.random() < 0.5}
    line = Game(size, ruleset=ruleset, **options)
    single = Game(size, ruleset=ruleset, **options)
    moves = [pick_move(single, rnd) for _ in range(300)]
    moves += [(Point(size, 0), B)] * rnd.randint(0, 1)  # off the board: refused
    grid: dict[Point, Color] = {}
    i = 0
    while i < len(moves):
        chunk = moves[i : i + rnd.randint(1, 80)]
        entries = line.play_moves(chunk)
        for (move, color), entry in zip(chunk, entries, strict=False):
            assert single.play(move, color) == entry
            if move is not None:
                reference_play(grid, size, size, move, color)
        i += len(entries)
        if len(entries) < len(chunk):  # refused: `play` says why, in both games
            move, color = moves[i]
            with pytest.raises(IllegalMove) as refused:
                line.play(move, color)
            with pytest.raises(IllegalMove) as expected:
                single.play(move, color)
            assert refused.value.reason is expected.value.reason
            i += 1
    assert as_dict(line.board) == grid == as_dict(single.board)
    assert (line.board.hash, line.to_play, line.moves) == (
        single.board.hash,
        single.to_play,
        single.moves,
    )
    assert line.legal_moves() == single.legal_moves()  # superko remembers the same positions
    line.board.check_consistency()
    while line.actions:
        line.undo()
    assert not as_dict(line.board) and line.board.hash == 0
