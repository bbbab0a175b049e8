"""A Go position as the arrays the built-in player's search reads (`policy`'s meta slots).

`position` copies a game's kernel state and hashes, fills the meta slots (player to move,
passes, last move, komi, move cap) and marks the moves the root may search; `key` and
`history` tell the player whether its trees from the last search lead to it (tree reuse).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tengen.ai.policy import KOMI2, LAST, MAX_MOVES, META_SLOTS, PASSES, TO_PLAY
from tengen.core.color import Color
from tengen.core.game import Game
from tengen.scoring.count import handicap_compensation


@dataclass(frozen=True)
class Position:
    """A game position in the arrays the search reads, with what identifies it for reuse."""

    st: np.ndarray
    zh: np.ndarray
    meta: np.ndarray
    allowed: np.ndarray
    key: tuple[object, ...]
    history: tuple[tuple[int, int], ...]
    color: Color
    width: int
    height: int


def position(game: Game, color: Color) -> Position:
    """The search's arrays for `game` with `color` to move."""
    board = game.board
    st = board.state.copy()  # the kernels' state of the board, as the kernels expect it
    zh = board.hashes.copy()
    meta = np.zeros(META_SLOTS, np.int64)
    meta[TO_PLAY] = int(color)
    meta[PASSES] = game.consecutive_passes
    moves = game.moves
    if moves and moves[-1].color is not color and moves[-1].move is not None:
        meta[LAST] = board.loc(moves[-1].move)
    komi = game.ruleset.komi + handicap_compensation(
        game.ruleset.handicap_bonus, game.handicap_stones
    )
    meta[KOMI2] = round(2 * komi)
    meta[MAX_MOVES] = 3 * game.width * game.height
    allowed = np.zeros(st.shape[1] + 1, np.int8)
    allowed[0] = 1
    for p in game.legal_moves(color, own_eyes=False):
        allowed[board.loc(p)] = 1
    history = tuple((int(m.color), 0 if m.move is None else board.loc(m.move)) for m in moves)
    key = (game.width, game.height, game.ruleset, game.actions - len(moves), game.handicap_stones)
    return Position(st, zh, meta, allowed, key, history, color, game.width, game.height)
