"""When the built-in Go player passes: the end of a game judged by tengen's own count.

The search cannot judge a pass near the end: its playouts score the board as it stands, so
it keeps playing to capture stones that any count takes off as dead, or fills its own
territory while nothing better is left. A person instead counts: passing now (after the
opponent's pass, it ends the game) is right when the count with the dead stones taken off
does not lose and no single move gains a point by the same count under the game's ruleset (a dame
under area scoring, a capture, closing an open border). `judge` makes that count with
`scoring.life`'s dead-stone estimate; a move is tried on a copy of the board.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game
from tengen.core.rules import TROMP_TAYLOR, Ruleset
from tengen.scoring import score_position, unsettled
from tengen.scoring.life import Estimate, Status, dead_stones, estimate, seki_stones

COUNT_PLAYOUTS = 300  # playouts of each dead-stone estimate behind a count
MIN_GAIN = 1.0  # points a move must gain by the count to be worth playing instead of passing
MAX_CANDIDATES = 12  # more open points than this: the game is not near its end


@dataclass(frozen=True)
class Judgement:
    """The count if the game ended now and what a move could still gain.

    `lead` is the player's lead by tengen's count (komi included); `gains` maps each move
    tried to the points it adds to that lead; `open_points` is how many empty points the count
    leaves to nobody (dame, points still to be sealed); `must_capture` is set under
    Tromp-Taylor when dead opponent stones are still on the board; `complete` is False when
    the time ran out before every move was tried."""

    lead: float
    gains: dict[Point, float]
    open_points: int
    must_capture: bool = False
    complete: bool = True

    @property
    def best_gain(self) -> tuple[Point | None, float]:
        """The move that gains most and its gain, (None, 0.0) when none was tried."""
        if not self.gains:
            return None, 0.0
        move = max(self.gains, key=lambda p: self.gains[p])
        return move, self.gains[move]

    @property
    def settled(self) -> bool:
        """Whether passing loses nothing: the count does not lose (a draw stays a draw) and
        no move gains a point."""
        return (
            self.complete
            and self.lead >= 0
            and not self.must_capture
            and self.open_points <= MAX_CANDIDATES
            and self.best_gain[1] < MIN_GAIN
        )


def judge(
    game: Game,
    color: Color,
    searched: Iterable[Point] = (),
    *,
    playouts: int = COUNT_PLAYOUTS,
    seed: int = 0,
    deadline: float | None = None,
) -> Judgement:
    """Count `game` for `color` (to move) and try the moves that could still change the count:
    the empty points the count leaves to nobody, the liberties of chains in atari, and
    `searched` (the search's favourites), until `deadline` (a `time.monotonic` time)."""
    board = game.board
    est = _estimate(board, game.ruleset, color, playouts, seed)
    lead = _lead(board, game, color, est)
    dead, seki = dead_stones(est), seki_stones(est)
    open_points = unsettled(board, dead, seki)
    dame = [p for p in open_points if board[p] is None]
    must_capture = game.ruleset.name == TROMP_TAYLOR.name and any(
        c.status is Status.DEAD and c.color is color.opponent for c in est.chains
    )
    if len(dame) > MAX_CANDIDATES:
        return Judgement(lead, {}, len(dame), must_capture)
    candidates = dict.fromkeys([*dame, *_atari_liberties(board), *searched])
    legal = set(game.legal_moves(color, own_eyes=False))
    gains: dict[Point, float] = {}
    for point in candidates:
        if point not in legal:
            continue
        if deadline is not None and time.monotonic() >= deadline:
            return Judgement(lead, gains, len(dame), must_capture, complete=False)
        after = board.copy()
        after.play(point, color, allow_suicide=game.ruleset.suicide_allowed)
        est_after = _estimate(after, game.ruleset, color.opponent, playouts, seed)
        gains[point] = _lead(after, game, color, est_after) - lead
    return Judgement(lead, gains, len(dame), must_capture)


def _estimate(board: Board, ruleset: Ruleset, to_play: Color, playouts: int, seed: int) -> Estimate:
    """The dead-stone estimate of `board` with `to_play` to move."""
    return estimate(
        board, to_play, playouts=playouts, seed=seed, suicide_allowed=ruleset.suicide_allowed
    )


def _lead(board: Board, game: Game, color: Color, est: Estimate) -> float:
    """`color`'s lead on `board` by the count of `game`'s ruleset, the estimate's dead stones
    taken off (none under Tromp-Taylor, which counts the board as it stands)."""
    tromp = game.ruleset.name == TROMP_TAYLOR.name
    score = score_position(
        board,
        game.ruleset,
        () if tromp else dead_stones(est),
        captures=(board.captures(Color.BLACK), board.captures(Color.WHITE)),
        handicap=game.handicap_stones,
        seki=seki_stones(est),
    )
    lead = score.black - score.white
    return lead if color is Color.BLACK else -lead


def _atari_liberties(board: Board) -> list[Point]:
    """The liberties of every chain in atari: where a capture or an escape is played."""
    return [lib for chain in board.chains_in_atari() for lib in chain.liberties]
