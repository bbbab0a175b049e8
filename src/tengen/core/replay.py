"""Play a whole line of moves in one compiled call, exactly as a permissive `Game` plays it.

`sgf.replay` enters a record move by move through `Game.play` in a game that takes moves as
players wrote them: either colour may move, passes never end the game, and a move the rules
refuse is reported and, unless its point is occupied, played anyway. `play_line` does the same
in one loop over the same kernels (`set_point`, `legality`, `hash_after`, `play`, `play_pass`),
keeping the superko history in a hash set where `Game` keeps counts. It is for bulk work over
many records; `Game` remains the checked, undoable path.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core import hashset, zobrist
from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.kernels import KO, LEGAL, OCCUPIED, SUICIDE, hash_after, legality, play, play_pass
from tengen.core.layout import (
    BLACK,
    COLOR,
    EMPTY,
    H_HEIGHT,
    H_STRIDE,
    H_WIDTH,
    HDR,
    HEAD,
    LIBS,
    WHITE,
)
from tengen.core.rebuild import set_point
from tengen.core.rules import KoRule, Ruleset
from tengen.core.zobrist import situation_compiled

SUPERKO = 4  # a code beyond the kernels' LEGAL, OCCUPIED, SUICIDE and KO
MOVE, STONE, SETUP = 0, 1, 2  # the kinds of rows of a line (see `play_line`)
_KO_RULES = {KoRule.SIMPLE: 0, KoRule.POSITIONAL: 1, KoRule.SITUATIONAL: 2}


@njit(cache=True)
def _play_line(
    st: np.ndarray,
    zh: np.ndarray,
    line: np.ndarray,
    ko_rule: int,
    allow_suicide: bool,
    side: int,
    codes: np.ndarray,
) -> int:
    """The loop of `play_line`: returns the player to move after, or -1 for bad input."""
    width, height, stride = st[HDR, H_WIDTH], st[HDR, H_HEIGHT], st[HDR, H_STRIDE]
    size = 16
    while ko_rule != 0 and size < 2 * (line.shape[0] + 2):
        size *= 2
    # Hash 0 (an empty board, Black to play) sits in every free slot, so it is always "seen".
    seen = np.zeros(size, np.int64)
    to_play = 1
    h = situation_compiled(zh[0], to_play == WHITE, side)
    hashset.add(seen, h)
    setup_mark = np.zeros(st.shape[1], np.int32)  # == generation: listed in the open setup
    changed = np.empty(st.shape[1], np.int32)  # stones the setup placed
    generation = 1
    setup_start = -1  # the first STONE row of the open setup
    for i in range(line.shape[0]):
        kind, color, col, row = line[i, 0], line[i, 1], line[i, 2], line[i, 3]
        if kind == STONE:
            if not (0 <= col < width and 0 <= row < height and 0 <= color <= 2):
                return -1
            loc = (row + 1) * stride + col + 1
            if setup_mark[loc] == generation:
                return -1
            setup_mark[loc] = generation
            if setup_start < 0:
                setup_start = i
            continue
        if kind == SETUP:
            if not 0 <= color <= 2:
                return -1
            # Game.setup places the black stones, then the white ones, then empties points.
            n_changed = 0
            for wanted in (1, 2, 0):
                for j in range(setup_start if setup_start >= 0 else i, i):
                    if line[j, 1] != wanted:
                        continue
                    loc = (line[j, 3] + 1) * stride + line[j, 2] + 1
                    if st[COLOR, loc] != wanted:
                        set_point(st, zh, loc, wanted)
                        if wanted != EMPTY:
                            changed[n_changed] = loc
                            n_changed += 1
            for j in range(n_changed):
                if st[LIBS, st[HEAD, changed[j]]] == 0:
                    return -1
            generation += 1
            setup_start = -1
            if color != 0:
                to_play = color
        elif kind == MOVE and (color == 1 or color == 2) and setup_start < 0:
            code = LEGAL
            if col == -1 and row == -1:
                play_pass(st)
            elif 0 <= col < width and 0 <= row < height:
                loc = (row + 1) * stride + col + 1
                code = legality(st, loc, color, allow_suicide)
                if code == OCCUPIED:
                    codes[i] = code
                    continue
                if ko_rule != 0 and code != KO and code != SUICIDE:
                    h = situation_compiled(hash_after(st, zh, loc, color), color == BLACK, side)
                    if hashset.contains(seen, h):
                        code = SUPERKO
                play(st, zh, loc, color)
            else:
                return -1
            codes[i] = code
            to_play = 3 - color
        else:
            return -1
        if ko_rule != 0:
            h = situation_compiled(zh[0], to_play == WHITE, side)
            hashset.add(seen, h)
    return -1 if setup_start >= 0 else to_play


def play_line(board: Board, ruleset: Ruleset, line: np.ndarray) -> tuple[np.ndarray, Color]:
    """Play a line of moves and setups on an empty `board` as ``Game(width, height, ruleset,
    permissive=True, free_turns=True, end_after_passes=False)`` would.

    `line` is an int32 array whose rows start (kind, colour, col, row); further columns are
    ignored. A `MOVE` row is ``Game.play`` of a stone of `colour` (col = row = -1: a pass). A
    `STONE` row lists one point of a setup: colour 1 or 2 puts a stone there, 0 empties it;
    each point at most once per setup. A `SETUP` row ends the setup: one ``Game.setup`` of
    the points listed since the last, with ``to_play`` the row's colour (0: unchanged).

    Returns each row's code (kernels' LEGAL for setup rows and legal moves; OCCUPIED: not
    played; SUICIDE, KO or `SUPERKO`: played and reported) and the player to move after the
    line. Raises ValueError for a point off the board, a bad kind or colour, a point listed
    twice in one setup, a setup that leaves a chain with no liberty or is not ended; the
    board is then in an unspecified state.
    """
    if board.hash != 0:
        raise ValueError("play_line starts from an empty board")
    codes = np.zeros(len(line), np.int8)
    situational = ruleset.ko is KoRule.SITUATIONAL
    after = _play_line(
        board.state,
        board.hashes,
        line,
        _KO_RULES[ruleset.ko],
        ruleset.suicide_allowed,
        zobrist.side_key(board.width, board.height) if situational else 0,
        codes,
    )
    if after < 0:
        raise ValueError("play_line: a point off the board, a bad row or a bad setup")
    return codes, Color(after)
