"""How long the built-in Go player thinks on a clock: each move's share of the time left.

`budget_seconds` cuts the player's own limit to what the clock can spare over the moves
likely left, keeping back a safety for the answer to arrive and how late the answers on this
machine lately came (`tengen.clock.lateness`).
"""

from __future__ import annotations

from tengen.clock import Clock
from tengen.core.game import Game

SAFETY = 0.3  # seconds kept back from the clock for the answer to arrive
MARGIN = 0.1  # share of the time left also kept back: a loaded machine answers late


def budget_seconds(
    seconds: float | None, clock: Clock | None, game: Game, late: float = 0.0
) -> float | None:
    """The seconds to think: the player's own limit, cut to what the clock can spare, less
    `late` (how late the answers on this machine have lately come)."""
    if clock is None:
        return seconds
    c = clock.control
    empty = len(game.board.empty_points())
    moves_left = max(empty / 3.0, 10.0)
    main = max(clock.main, 0.0)
    if c.system == "byoyomi":
        spare = main / moves_left + c.period * (0.5 if main > 0 else 0.9)
    elif c.system == "canadian":
        if main > 0:
            spare = main / moves_left + 0.5 * c.period / c.stones
        else:
            spare = 0.9 * clock.period_left / max(clock.stones, 1)
    elif c.system == "fischer":
        spare = main / moves_left + 0.8 * c.period
    else:
        spare = main / moves_left
    allowance = clock.allowance()
    if c.system == "byoyomi":  # the margins are kept within the period: a late move loses one
        allowance = min(allowance, clock.remaining() + (0.0 if clock.in_overtime else c.period))
    spare = min(spare, allowance - SAFETY - MARGIN * allowance - late)
    spare = max(spare, 0.05)
    return spare if seconds is None else min(seconds, spare)
