"""Automatic dead-stone estimate: which chains are alive, dead or in seki, each with a confidence.

Three steps, from certain to likely:

1. Benson's algorithm (`scoring.benson`) for both colours: pass-alive chains are alive and
   stones inside the opponent's pass-alive territory are dead, with confidence 1.
2. For every other chain, the mean ownership of its stones over many random playouts from the
   position (`Board.ownership`, half of them with each player moving first, so that having the
   move does not tilt the estimate). Seen from the chain's colour, a mean below `DEAD_BELOW`
   (0: the playouts give its stones to the opponent more often than not) means the chain is
   dead; anything else leaves it alive. The confidence is the share of playouts, by that mean,
   that agree with the status: ``(1 + m) / 2`` for alive, ``(1 - m) / 2`` for dead, so a chain
   whose fate the playouts leave open is reported near 0.5. On GNU Go's finished self-play
   games a threshold of 0 agrees best with GNU Go's dead stones (-0.3 agrees less often: the
   playouts are too kind to eyeless groups of a bad position).
3. A seki check. Random playouts settle a seki at random (whoever fills a shared liberty
   first dies), so its chains end near 0 ownership. Chains of both colours joined by shared
   liberties are in seki when every liberty of each of them is one the opponent cannot take
   (illegal, or self-atari that captures nothing), each has two liberties or more, and none
   touches an opponent chain in atari, whose capture would break the seki open. Such
   chains whose mean ownership stays within `SEKI_WITHIN` of 0 are reported as seki, with
   confidence ``1 - |m| / 2``: the static test is exact for the sekis it recognises, and a lean
   of the playouts, which a seki should not have, takes off up to half.

The same position, playouts and seed give the same estimate (the playouts are seeded).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from tengen.core.board import Board, Chain
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game
from tengen.scoring.benson import pass_alive

PLAYOUTS = 2000
DEAD_BELOW = 0.0
SEKI_WITHIN = 0.75


class Status(Enum):
    """A chain's fate at the end of the game."""

    ALIVE = "alive"
    DEAD = "dead"
    SEKI = "seki"


@dataclass(frozen=True)
class ChainEstimate:
    """One chain: its status, how sure the estimate is, and on what it rests.

    `ownership` is the mean playout ownership of its stones seen from its colour (+1: always
    its own); `certain` marks the statuses that Benson's algorithm proves.
    """

    color: Color
    stones: frozenset[Point]
    status: Status
    confidence: float
    ownership: float
    certain: bool

    @property
    def reason(self) -> str:
        """A few words on why the chain got its status."""
        if self.certain:
            return "pass-alive" if self.status is Status.ALIVE else "in pass-alive territory"
        if self.status is Status.SEKI:
            return "seki: neither side can approach"
        return f"mean ownership {self.ownership:+.2f} over the playouts"


@dataclass(frozen=True)
class Estimate:
    """Every chain's estimate and the expected owner of every point.

    `ownership` is a (height, width) array from -1 (white) to +1 (black): the playouts' mean,
    set to the owner where Benson's algorithm settles the point.
    """

    chains: tuple[ChainEstimate, ...]
    ownership: np.ndarray
    playouts: int
    seed: int

    def chain_at(self, point: Point) -> ChainEstimate | None:
        """The estimate of the chain on `point`, or None if the point is empty."""
        return next((c for c in self.chains if point in c.stones), None)


def estimate(
    board_or_game: Board | Game,
    to_play: Color | None = None,
    *,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    suicide_allowed: bool | None = None,
) -> Estimate:
    """Estimate the status of every chain (see the module docstring).

    `to_play` defaults to the game's player to move (Black for a bare board); `suicide_allowed`
    to the game's ruleset (False for a bare board). Raises ValueError if `playouts` < 2.
    """
    if playouts < 2:
        raise ValueError(f"playouts must be at least 2, not {playouts}")
    if isinstance(board_or_game, Game):
        board = board_or_game.board
        to_play = board_or_game.to_play if to_play is None else to_play
        if suicide_allowed is None:
            suicide_allowed = board_or_game.ruleset.suicide_allowed
    else:
        board = board_or_game
    to_play = Color.BLACK if to_play is None else to_play
    suicide = bool(suicide_allowed)

    half = playouts // 2
    owner = (
        board.ownership(to_play, half, 2 * seed) * half
        + board.ownership(to_play.opponent, playouts - half, 2 * seed + 1) * (playouts - half)
    ) / playouts

    alive: set[Point] = set()
    dead: set[Point] = set()
    for color in Color:
        stones, safe = pass_alive(board, color, suicide_allowed=suicide)
        alive |= stones
        dead |= {p for p in safe if board[p] is color.opponent}
        sign = 1.0 if color is Color.BLACK else -1.0
        for p in stones | safe:
            owner[p.row, p.col] = sign

    chains = board.chains()
    seki = _seki_chains(board, [c for c in chains if not c.stones & (alive | dead)])
    result = []
    for chain in chains:
        sign = 1.0 if chain.color is Color.BLACK else -1.0
        m = sign * float(np.mean([owner[p.row, p.col] for p in chain.stones]))
        certain = not chain.stones.isdisjoint(alive | dead)
        if certain:
            status = Status.DEAD if chain.stones <= dead else Status.ALIVE
            confidence = 1.0
        elif chain.label in seki and abs(m) <= SEKI_WITHIN:
            status, confidence = Status.SEKI, 1.0 - abs(m) / 2
        elif m < DEAD_BELOW:
            status, confidence = Status.DEAD, (1.0 - m) / 2
        else:
            status, confidence = Status.ALIVE, (1.0 + m) / 2
        result.append(ChainEstimate(chain.color, chain.stones, status, confidence, m, certain))
    return Estimate(tuple(result), owner, playouts, seed)


def dead_stones(est: Estimate) -> set[Point]:
    """The stones of the chains estimated dead."""
    return {p for c in est.chains if c.status is Status.DEAD for p in c.stones}


def seki_stones(est: Estimate) -> set[Point]:
    """The stones of the chains estimated in seki."""
    return {p for c in est.chains if c.status is Status.SEKI for p in c.stones}


def _seki_chains(board: Board, candidates: list[Chain]) -> set[str]:
    """Labels of the candidate chains in seki: each has two liberties or more, none of which
    the opponent can take (illegal, or self-atari capturing nothing), no opponent chain next
    to it in atari (taking it would give liberties to break the seki), and shares a liberty
    with an opponent chain that is itself in seki by the same test."""
    closed = {
        c.label: c
        for c in candidates
        if len(c.liberties) >= 2
        and all(_unplayable(board, p, c.color.opponent) for p in c.liberties)
        and all(board.liberty_count(q) >= 2 for q in _touching(board, c))
    }
    seki: set[str] = set()
    for label, chain in closed.items():
        if any(
            other.color is not chain.color and other.liberties & chain.liberties
            for other in closed.values()
        ):
            seki.add(label)
    return seki


def _touching(board: Board, chain: Chain) -> set[Point]:
    """The opponent stones next to `chain`."""
    return {
        q
        for p in chain.stones
        for q in (
            Point(p.col - 1, p.row),
            Point(p.col + 1, p.row),
            Point(p.col, p.row - 1),
            Point(p.col, p.row + 1),
        )
        if board.on_board(q) and board[q] is chain.color.opponent
    }


def _unplayable(board: Board, point: Point, color: Color) -> bool:
    """Whether `color` cannot play `point` but to put itself in atari without capturing."""
    if board.legality(point, color) is not None:
        return True
    trial = board.copy()
    record = trial.play_unchecked(point, color)
    return record.captured == 0 and trial.liberty_count(point) == 1
