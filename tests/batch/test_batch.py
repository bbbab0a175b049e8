"""tengen.batch against tengen.core: the same games, positions, masks, scores and playouts."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen import batch
from tengen.batch import BatchState
from tengen.core import Board, Color, Game, KoRule, Point, Ruleset
from tengen.core.rules import CHINESE, TROMP_TAYLOR
from tengen.scoring import score_position

SIMPLE_SUICIDE = Ruleset("simple-suicide", KoRule.SIMPLE, suicide_allowed=True)
SIMPLE = Ruleset("simple", KoRule.SIMPLE)


def board_of(state: BatchState, g: int) -> Board:
    """A core Board holding a copy of game g's kernel state."""
    board = Board(state.width, state.height)
    board.state[:] = state.st[g]
    board.hashes[:] = state.zh[g]
    return board


def assert_same(state: BatchState, g: int, game: Game) -> None:
    """Game g of the batch is in the very position of `game`, with the same legal moves."""
    board = game.board
    assert state.stones[g].tolist() == board.grid().ravel().tolist()
    assert int(state.zh[g, 0]) == board.hash
    assert int(state.to_play[g]) == game.to_play
    assert state.captures[g].tolist() == [board.captures(Color.BLACK), board.captures(Color.WHITE)]
    assert bool(state.done[g]) == game.is_over
    mask = batch.legal_mask(state)[g]
    legal = [p.row * state.width + p.col for p in game.legal_moves()]
    assert np.flatnonzero(mask[:-1]).tolist() == legal
    assert mask[-1]


@given(
    st.tuples(st.integers(1, 7), st.integers(1, 7)),
    st.sampled_from([TROMP_TAYLOR, CHINESE, SIMPLE, SIMPLE_SUICIDE]),
    st.integers(3, 40),
    st.integers(0, 2**32),
)
def test_plays_the_same_games_as_core(
    size: tuple[int, int], rules: Ruleset, pass_every: int, seed: int
) -> None:
    """Three random games stepped together match three core Games after every move."""
    width, height = size
    n = 3
    picks = np.random.default_rng(seed).integers(0, 10_000, 3 * 250).tolist()
    state = batch.init(n, size, rules, max_moves=10_000)  # no cap: core games have none
    games = [Game(width, height, rules) for _ in range(n)]
    for g in range(n):
        assert_same(state, g, games[g])
    for t in range(0, len(picks) - n + 1, n):
        moves = np.full(n, 10**6, np.int64)  # finished games must ignore even this
        for g, game in enumerate(games):
            if game.is_over:
                continue
            legal = game.legal_moves()
            pick = picks[t + g]
            move = legal[pick % len(legal)] if legal and pick % pass_every else None
            game.play(move)
            moves[g] = state.points if move is None else move.row * width + move.col
        batch.step(state, moves)
        for g in range(n):
            assert_same(state, g, games[g])
    ruleset = TROMP_TAYLOR.with_komi(state.komi)
    expected = [score_position(game.board, ruleset) for game in games]
    reward = {Color.BLACK: 1.0, Color.WHITE: -1.0, None: 0.0}
    assert batch.scores(state).tolist() == [s.black - s.white for s in expected]
    assert batch.rewards(state).tolist() == [
        reward[s.result.winner] if game.is_over else 0.0
        for s, game in zip(expected, games, strict=True)
    ]


@pytest.mark.parametrize("size", [9, 19, (7, 5)])
def test_playouts_finish_every_game_consistently(size: int | tuple[int, int]) -> None:
    """Playouts from a few steps in: all games over, kernel states sound, scores as core's."""
    state = batch.init(48, size)
    rng = np.random.default_rng(5)
    for _ in range(6):
        legal = batch.legal_mask(state)
        batch.step(state, np.array([rng.choice(np.flatnonzero(row)) for row in legal]))
    batch.random_playouts(state, seed=11)
    assert state.done.all()
    ruleset = TROMP_TAYLOR.with_komi(state.komi)
    scores = batch.scores(state)
    rewards = batch.rewards(state)
    for g in range(state.games):
        board = board_of(state, g)
        board.check_consistency()
        assert board.grid().ravel().tolist() == state.stones[g].tolist()
        assert all(chain.liberties for chain in board.chains())
        score = score_position(board, ruleset)
        assert scores[g] == score.black - score.white
        assert rewards[g] == (1.0 if score.result.winner is Color.BLACK else -1.0)
    assert (batch.legal_mask(state) == np.eye(1, state.points + 1, state.points, dtype=bool)).all()


def test_playouts_are_board_playouts_on_any_thread_count() -> None:
    """Game g is the game Board.playout(seed=seed + g) plays, with one thread or all."""
    results = []
    cores = numba.get_num_threads()
    for threads in (1, cores):
        numba.set_num_threads(threads)
        try:
            state = batch.random_playouts(batch.init(16, 9), seed=100)
        finally:
            numba.set_num_threads(cores)
        results.append(state)
        for g in range(state.games):
            board = Board(9)
            moves = board.playout(Color.BLACK, seed=100 + g)
            assert state.stones[g].tolist() == board.grid().ravel().tolist()
            assert state.move_count[g] == moves
            assert state.to_play[g] == (Color.BLACK if moves % 2 == 0 else Color.WHITE)
    assert (results[0].stones == results[1].stones).all()


def test_move_cap_ends_games() -> None:
    state = batch.init(2, 5, max_moves=3)
    for moves in ([0, 25], [25, 0], [1, 25]):
        assert not state.done.any()
        batch.step(state, np.array(moves))
    assert state.done.tolist() == [True, True]
    assert state.passes.tolist() == [0, 1]
    assert batch.rewards(state).tolist() == [1.0, -1.0]  # one colour on the board: 25 points


def ko_state(rules: Ruleset) -> BatchState:
    """A 4x3 board where black has just taken a ko at (1, 1) by playing (2, 1)."""
    state = batch.init(1, (4, 3), rules)
    for col, row in [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2), (3, 1), (0, 0), (2, 2), (2, 1)]:
        batch.step(state, np.array([row * 4 + col]))
    assert state.captures[0].tolist() == [1, 0]
    return state


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([5], r"game 0: illegal move 5 \(1, 1\) at move 10: ko"),
        ([0], r"game 0: illegal move 0 \(0, 0\) at move 10: occupied"),
        ([13], r"game 0: move 13 is off the board \(0..11, 12 passes\)"),
        ([-1], "game 0: move -1 is off the board"),
        ([1, 2], "moves must be 1 integers"),
        ([1.0], "moves must be 1 integers"),
    ],
)
def test_illegal_moves_raise_and_change_nothing(moves: list[float], message: str) -> None:
    state = ko_state(SIMPLE)
    before = state.st.copy(), state.stones.copy(), state.move_count.copy()
    with pytest.raises(ValueError, match=message):
        batch.step(state, np.array(moves))
    assert (state.st == before[0]).all()
    assert (state.stones == before[1]).all() and (state.move_count == before[2]).all()
    assert not batch.legal_mask(state)[0, 5]


def test_superko_forbids_what_simple_ko_allows() -> None:
    """On a 2x1 board white's suicide after taking back would recreate the empty board."""
    results = {}
    for rules in (TROMP_TAYLOR, SIMPLE_SUICIDE):
        state = batch.init(1, (2, 1), rules)
        batch.step(state, np.array([0]))  # black
        batch.step(state, np.array([1]))  # white captures
        batch.step(state, np.array([2]))  # black passes (ko forbids 0)
        results[rules.name] = batch.legal_mask(state)[0].tolist()
        game = Game(2, 1, rules)
        for move in (Point(0, 0), Point(1, 0), None):
            game.play(move)
        assert results[rules.name][:2] == [Point(i, 0) in game.legal_moves() for i in (0, 1)]
    assert results == {"tromp-taylor": [False, False, True], "simple-suicide": [True, False, True]}
    state = batch.init(1, (2, 1))
    batch.step(state, np.array([0]))
    batch.step(state, np.array([1]))
    batch.step(state, np.array([2]))
    with pytest.raises(ValueError, match="superko"):
        batch.step(state, np.array([0]))


def test_observation_planes() -> None:
    """Own/opponent stones from the mover's side for each past position, then colour to play."""
    state = batch.init(2, (3, 2), history=3)
    batch.step(state, np.array([0, 6]))  # game 0: black a; game 1: black passes
    batch.step(state, np.array([4, 6]))  # white at (1, 1); game 1 ends
    batch.step(state, np.array([6, 0]))  # black passes; game 1 ignores its move
    obs = batch.observation(state, history=3)
    assert obs.shape == (2, 7, 2, 3) and obs.dtype == np.float32
    a = [[1, 0, 0], [0, 0, 0]]
    b = [[0, 0, 0], [0, 1, 0]]
    zero = [[0, 0, 0], [0, 0, 0]]
    # Game 0, white to play after three moves: positions now, 1 and 2 moves ago.
    assert obs[0].tolist() == [b, a, b, a, zero, a, zero]
    # Game 1, over after two passes, black to play; nothing before the start.
    assert obs[1].tolist() == [zero, zero, zero, zero, zero, zero, [[1] * 3] * 2]
    assert batch.observation(state, history=1, dtype=np.uint8)[0].tolist() == [b, a, zero]
    with pytest.raises(ValueError, match=r"history must be 1\.\.3"):
        batch.observation(state, history=4)


def test_refuses_rules_it_does_not_play() -> None:
    with pytest.raises(ValueError, match="simple or positional ko"):
        batch.init(1, 9, Ruleset.parse("aga"))
    with pytest.raises(ValueError, match="simple or positional ko"):
        batch.init(1, 9, Ruleset.parse("japanese"))
    with pytest.raises(ValueError, match="group tax"):
        batch.init(1, 9, Ruleset.parse("stone-scoring"))
    with pytest.raises(ValueError, match="board size"):
        batch.init(1, 0)
    assert batch.init(1, 9, komi=0.5).komi == 0.5
    assert batch.init(1, 9).seen.shape == (1, 512) and batch.init(1, 9, SIMPLE).seen.shape == (1, 0)
