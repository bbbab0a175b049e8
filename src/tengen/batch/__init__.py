"""Many Go games stepped together as arrays, for self-play and reinforcement learning.

The API follows pgx and OpenSpiel. A `BatchState` holds `games` boards of one size as numpy
arrays, changed in place:

* ``init(n, size=19, rules=TROMP_TAYLOR, komi=None)``: n empty boards, black to play;
* ``step(state, moves)``: one move per game, an int array (games,) of point indices
  ``row * width + col`` (row 0 at the top, as `stones` is laid out) or ``points`` for a pass.
  An illegal move raises ValueError naming the game, the move and the rule, before any game
  moves (the state is unchanged); finished games ignore their move. A game ends after two
  passes in a row or at the move cap (``max_moves``, three times the points by default);
* ``legal_mask(state)``: (games, points + 1) bool, the last column pass; a finished game
  allows only pass, so that sampling from a mask is always defined;
* ``rewards(state)``: +1 black won, -1 white won, 0 a draw or an unfinished game, by the
  Tromp-Taylor area count with komi (``scores`` gives the margins);
* ``observation(state, history=8)``: AlphaZero planes (games, 2 * history + 1, height, width):
  the stones of the player to move and of the opponent for the last `history` positions, then
  a plane of ones when black is to play;
* ``random_playouts(state, seed)``: every unfinished game played to its end by
  `core.playout.uniform_playout` itself (uniform non-eye-filling moves under simple ko, whatever the
  ruleset), game g exactly as ``Board.playout(seed=seed + g)`` would play it, the games spread
  over the cores with numba's ``prange`` (``numba.set_num_threads`` caps how many;
  `batch.threads` takes fewer when the games are few or other processes keep cores busy).

Rules: the same kernels as `tengen.core` (see `tengen.batch.loops`), so the same captures,
suicide and simple ko. Ko is simple or positional superko, as the ruleset says. The default,
Tromp-Taylor, has positional superko (and multi-stone suicide): it is the ruleset whose count
`rewards` uses, and under simple ko random or learned play can cycle through a triple ko up to
the move cap. Its price is in `legal_mask`, which needs the position after every legal point
(`kernels.hash_after`) and a probe of the game's hash set of past positions: on 19x19 about
four times the simple-ko mask (12-15 against 3.4 microseconds a game in mid-game, one core,
1024 games); `step` checks one hash per game. The set takes 8 bytes a slot, the smallest power
of two above twice the move cap (4096 slots, 32 KiB a game on 19x19); pass a ruleset with
``KoRule.SIMPLE`` for the cheaper masks and no set. Situational superko, territory scoring and
group tax are refused.
"""

from tengen.batch.env import (
    BatchState,
    init,
    legal_mask,
    observation,
    random_playouts,
    rewards,
    scores,
    step,
)

__all__ = [
    "BatchState",
    "init",
    "legal_mask",
    "observation",
    "random_playouts",
    "rewards",
    "scores",
    "step",
]
