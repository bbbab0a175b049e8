"""The search's prior reads ladders (`core.ladder`): no running into a working ladder, and an
atari that captures in a ladder is trusted."""

from __future__ import annotations

import numpy as np

from tengen.ai.policy import LAST, META_SLOTS, PASSES, TO_PLAY, go_candidates
from tengen.core import diagram
from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.patterns import TABLE

# White's C2 is in atari (Black just played B2); extending at D2 runs a ladder to the top.
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. X O . . . . . .
. . X X . . . . .
"""
LAST_MOVE = Point(1, 7)  # B2
ESCAPE = Point(3, 7)  # D2


def _with(text: str, row: int, line: str) -> str:
    rows = text.strip("\n").splitlines()
    rows[row] = line
    return "\n".join(rows)


def _priors(board: Board, color: Color, last: Point) -> dict[Point, tuple[float, float]]:
    """Each candidate's prior (virtual visits, virtual wins) for `color` after `last`."""
    st, zh = board.state.copy(), board.hashes.copy()
    meta = np.zeros(META_SLOTS, np.int64)
    meta[TO_PLAY], meta[PASSES], meta[LAST] = int(color), 0, board.loc(last)
    cells = st.shape[1]
    moves = np.empty(cells + 1, np.int64)
    pn, pw, an, aw = (np.empty(cells + 1) for _ in range(4))
    n = go_candidates(st, zh, meta, TABLE, moves, pn, pw, an, aw)
    return {board.point(int(moves[i])): (pn[i], pw[i]) for i in range(n) if moves[i]}


def _rate(prior: tuple[float, float]) -> float:
    return prior[1] / prior[0]


def test_prior_does_not_run_a_working_ladder() -> None:
    """Extending White's C2 at D2 only makes a bigger chain to lose: a low prior."""
    priors = _priors(diagram.parse(LADDER), Color.WHITE, LAST_MOVE)
    assert _rate(priors[ESCAPE]) < 0.15 and priors[ESCAPE][0] >= 40


def test_prior_trusts_the_escape_when_a_breaker_stops_the_ladder() -> None:
    """With White's stone at G6 on the path, the same extension saves the stone."""
    board = diagram.parse(_with(LADDER, 3, ". . . . . . O . ."))
    assert _rate(_priors(board, Color.WHITE, LAST_MOVE)[ESCAPE]) > 0.6


def test_prior_trusts_an_atari_that_captures_in_a_ladder() -> None:
    """Black's C1 on White's C2 (two liberties) starts a working ladder; with the breaker
    the same atari is an ordinary move."""
    text = _with(LADDER, 8, ". . . X . . . . .")
    working = _priors(diagram.parse(text), Color.BLACK, Point(2, 6))[Point(2, 8)]
    broken = _with(text, 3, ". . . . . . O . .")
    plain = _priors(diagram.parse(broken), Color.BLACK, Point(2, 6))[Point(2, 8)]
    assert _rate(working) > 0.6 and working[0] > plain[0] + 10
