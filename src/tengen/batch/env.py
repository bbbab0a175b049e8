"""The batched Go environment: `BatchState` and the functions that step, mask, score and observe it.

See the package docstring (`tengen.batch`) for the API and its conventions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tengen.batch import loops
from tengen.batch.threads import threads_for
from tengen.core import kernels as k
from tengen.core import layout, zobrist
from tengen.core.coords import check_size
from tengen.core.errors import IllegalReason
from tengen.core.rules import TROMP_TAYLOR, KoRule, Ruleset, Scoring, Tax

# Games a thread needs to be worth starting (`batch.threads`): a step, mask or count takes
# 1-15 microseconds a game, a whole playout hundreds.
STEP_GAMES = 64
PLAYOUT_GAMES = 2

_REASONS = {
    k.OCCUPIED: IllegalReason.OCCUPIED,
    k.SUICIDE: IllegalReason.SUICIDE,
    k.KO: IllegalReason.KO,
    loops.SUPERKO: IllegalReason.SUPERKO,
}


@dataclass(eq=False)
class BatchState:
    """`games` Go games of one size and ruleset as arrays, changed in place by `step`.

    Public (read them; change them only through this module): `stones` (games, points) int8
    row-major (0 empty, 1 black, 2 white), `to_play` (games,) int8 (1 black, 2 white),
    `passes` (consecutive passes), `done`, `move_count` (passes included) and the `captures`
    view. Internal: the kernel states `st` (games, NROWS, cells) and `zh` (games, 1 + 2*cells),
    the superko hash sets `seen` (games, 0 under simple ko), the stone history ring `past`
    (games, history, points) with its valid length `past_len`, and `locs`, the kernel
    location of each action (pass: 0), with `point_of`, its inverse (-1 off the board).
    """

    width: int
    height: int
    rules: Ruleset
    komi: float
    max_moves: int
    stones: np.ndarray
    to_play: np.ndarray
    passes: np.ndarray
    done: np.ndarray
    move_count: np.ndarray
    st: np.ndarray
    zh: np.ndarray
    seen: np.ndarray
    past: np.ndarray
    past_len: np.ndarray
    locs: np.ndarray
    point_of: np.ndarray

    @property
    def games(self) -> int:
        """How many games the batch holds."""
        return int(self.stones.shape[0])

    @property
    def points(self) -> int:
        """Points of one board; also the action index of a pass."""
        return self.width * self.height

    @property
    def captures(self) -> np.ndarray:
        """(games, 2) int32 view: stones captured by black, by white."""
        return self.st[:, layout.HDR, layout.H_CAPS : layout.H_CAPS + 2]


def init(
    n: int,
    size: int | tuple[int, int] = 19,
    rules: Ruleset = TROMP_TAYLOR,
    komi: float | None = None,
    *,
    max_moves: int | None = None,
    history: int = 8,
) -> BatchState:
    """`n` empty boards of `size` (or (width, height)), black to play.

    `komi` defaults to the ruleset's; `max_moves` (the move cap, passes included) to three
    times the points, as `Board.playout`; `history` is how many positions `observation` can
    show. Raises ValueError for rules the batch does not play (situational superko, territory
    scoring, group tax) and for bad sizes or counts.
    """
    width, height = (size, size) if isinstance(size, int) else size
    check_size(width, height)
    if rules.ko is KoRule.SITUATIONAL or rules.scoring is not Scoring.AREA:
        raise ValueError(f"tengen.batch plays area scoring with simple or positional ko: {rules}")
    if rules.tax is not Tax.NONE:
        raise ValueError(f"tengen.batch does not count group tax: {rules}")
    points = width * height
    cap = 3 * points if max_moves is None else max_moves
    if n < 1 or cap < 1 or history < 1:
        raise ValueError(f"need n, max_moves, history >= 1, not {n}, {cap}, {history}")
    cells = max((height + 2) * (width + 1) + 1, layout.HEADER_SLOTS)
    template = np.zeros((layout.NROWS, cells), np.int32)
    layout.init_state(template, width, height)
    st = np.empty((n, layout.NROWS, cells), np.int32)
    st[:] = template
    zh = np.empty((n, 1 + 2 * cells), np.int64)
    zh[:] = zobrist.table(width, height, cells)
    # Load at most one half: every move adds at most one position, the empty board is implicit.
    slots = 1 << (2 * cap + 1).bit_length() if rules.ko is KoRule.POSITIONAL else 0
    rows, cols = np.divmod(np.arange(points), width)
    locs = np.zeros(points + 1, np.int32)
    locs[:points] = (rows + 1) * (width + 1) + cols + 1
    point_of = np.full(cells, -1, np.int32)
    point_of[locs[:points]] = np.arange(points)
    return BatchState(
        width=width,
        height=height,
        rules=rules,
        komi=rules.komi if komi is None else float(komi),
        max_moves=cap,
        stones=np.zeros((n, points), np.int8),
        to_play=np.full(n, layout.BLACK, np.int8),
        passes=np.zeros(n, np.int32),
        done=np.zeros(n, np.bool_),
        move_count=np.zeros(n, np.int32),
        st=st,
        zh=zh,
        seen=np.zeros((n, slots), np.int64),
        past=np.zeros((n, history, points), np.int8),
        past_len=np.ones(n, np.int32),
        locs=locs,
        point_of=point_of,
    )


def step(state: BatchState, moves: np.ndarray) -> BatchState:
    """Play one move in every unfinished game, in place; finished games ignore theirs.

    `moves` holds a point index (row * width + col, row 0 at the top) or `points` for a pass
    per game. Every move is checked before any is played: an illegal one raises ValueError
    naming the game, the move and the rule, and leaves the state unchanged.
    """
    moves = np.asarray(moves)
    if moves.shape != (state.games,) or not np.issubdtype(moves.dtype, np.integer):
        raise ValueError(f"moves must be {state.games} integers, not {moves.dtype} {moves.shape}")
    active = ~state.done
    off = active & ((moves < 0) | (moves > state.points))
    if off.any():
        g = int(np.argmax(off))
        raise ValueError(
            f"game {g}: move {int(moves[g])} is off the board (0..{state.points - 1}, "
            f"{state.points} passes)"
        )
    locs = np.where(active, state.locs[np.clip(moves, 0, state.points)], 0).astype(np.int32)
    codes = np.empty(state.games, np.int8)
    suicide = state.rules.suicide_allowed
    with threads_for(state.games, STEP_GAMES):
        loops.move_codes(
            state.st, state.zh, locs, state.to_play, state.done, suicide, state.seen, codes
        )
    if codes.any():
        g = int(np.nonzero(codes)[0][0])
        row, col = divmod(int(moves[g]), state.width)
        raise ValueError(
            f"game {g}: illegal move {int(moves[g])} ({col}, {row}) at move "
            f"{int(state.move_count[g]) + 1}: {_REASONS[int(codes[g])].value}"
        )
    with threads_for(state.games, STEP_GAMES):
        loops.apply_moves(
            state.st,
            state.zh,
            locs,
            state.to_play,
            state.passes,
            state.done,
            state.move_count,
            state.max_moves,
            state.seen,
            state.locs,
            state.stones,
            state.past,
            state.past_len,
        )
    return state


def legal_mask(state: BatchState) -> np.ndarray:
    """(games, points + 1) bool: the moves each player to move may make under the rules
    (superko included), the last column being pass; a finished game has only pass."""
    out = np.empty((state.games, state.points + 1), np.bool_)
    with threads_for(state.games, STEP_GAMES):
        loops.legal_masks(
            state.st,
            state.zh,
            state.to_play,
            state.done,
            state.rules.suicide_allowed,
            state.seen,
            state.point_of,
            out,
        )
    return out


def scores(state: BatchState) -> np.ndarray:
    """(games,) float64: black's Tromp-Taylor area minus white's minus komi, as the boards
    stand now (no dead stones: random play captures them)."""
    areas = np.empty((state.games, 2), np.int32)
    with threads_for(state.games, STEP_GAMES):
        loops.area(state.st, areas)
    return areas[:, 0] - areas[:, 1] - state.komi


def rewards(state: BatchState) -> np.ndarray:
    """(games,) float32 from black's side: +1 black wins, -1 white wins, 0 a draw or a game
    still going, by `scores` at the end."""
    return np.where(state.done, np.sign(scores(state)), 0.0).astype(np.float32)


def observation(
    state: BatchState, history: int = 8, dtype: npt.DTypeLike = np.float32
) -> np.ndarray:
    """AlphaZero's input planes, (games, 2 * history + 1, height, width) of `dtype`.

    Planes 2i and 2i+1 hold the stones of the player to move and of the opponent i moves ago
    (zeros before the start of the game or of the known history); the last plane is 1 when
    black is to play. Raises ValueError if `history` exceeds what `init` was asked to keep.
    """
    keep = state.past.shape[1]
    if not 1 <= history <= keep:
        raise ValueError(f"history must be 1..{keep} (the init history), not {history}")
    n = state.games
    me = state.to_play[:, None]
    games = np.arange(n)
    obs = np.zeros((n, 2 * history + 1, state.points), dtype)
    for i in range(history):
        known = (state.past_len > i)[:, None]
        then = state.past[games, (state.move_count - i) % keep]
        obs[:, 2 * i] = (then == me) & known
        obs[:, 2 * i + 1] = (then == 3 - me) & known
    obs[:, -1] = (state.to_play == layout.BLACK)[:, None]
    return obs.reshape(n, 2 * history + 1, state.height, state.width)


def random_playouts(state: BatchState, seed: int = 0) -> BatchState:
    """Play every unfinished game to its end in place, in parallel across cores.

    Each game runs `core.playout.uniform_playout` (uniform among the points simple ko and no-suicide
    allow that do not fill the mover's own eye; pass when there is none) until two passes of
    its own in a row (a pass just before does not count) or the move cap; game g is the game
    `Board.playout(seed=seed + g)` plays from the same position. The policy knows simple ko
    only, and the playout's positions do not enter the superko history or the observation
    history (the game is over after it).
    """
    with threads_for(state.games, PLAYOUT_GAMES):
        loops.playouts(
            state.st,
            state.zh,
            state.to_play,
            state.passes,
            state.done,
            state.move_count,
            state.max_moves,
            seed,
            state.locs,
            state.stones,
            state.past,
            state.past_len,
        )
    return state
