"""The swap openings of a web Gomoku game: who acts, what they may choose, and how a stored
game is rebuilt with its choices.

A `GomokuGame` carries the opening's sequence (see `tengen.gomoku.game`); the web game adds
people to it. The seats stay by colour, so a swap exchanges the two seats (and the record's
names): the person who held Black now holds White. The choices are kept in the game's
metadata as ``[stones placed before it, "swap" | "keep" | "two"]``, since SGF has no property
for them, and replayed with the record's moves when the game is opened again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tengen.core.color import Color
from tengen.gomoku import GomokuGame
from tengen.gomoku.rules import Opening
from tengen.web.meta import SessionMeta

CHOICES = ("swap", "keep", "two")


def rebuild(recorded: GomokuGame, opening: Opening, log: list[list[Any]]) -> GomokuGame:
    """`recorded` (the record's moves, replayed without an opening rule) played again under
    `opening` with the choices of `log`. Raises ValueError or GomokuIllegal for a log that
    does not fit the moves."""
    if opening is Opening.NONE:
        return recorded
    game = GomokuGame(replace(recorded.rules, opening=opening))
    points = [p for _, p in recorded.moves]
    choices = {int(after): str(action) for after, action in log}
    i = 0
    while True:
        action = choices.get(i)
        if action == "swap":
            game.swap()
        elif action == "keep":
            game.decide_opening(None)
        if i == len(points):
            break
        if action == "two":
            game.place_opening(points[i : i + 2])
            i += 2
            continue
        game.play(points[i], foul_loses=True)
        i += 1
    if recorded.resigned is not None:
        game.resign(recorded.resigned)
    return game


def in_opening(game: GomokuGame) -> bool:
    """Whether the opening still has a step to take: the first three stones, or a choice."""
    if game.rules.opening is Opening.NONE or game.is_over:
        return False
    return game.move_number < 3 or game.opening_decision is not None


def actor(game: GomokuGame) -> Color:
    """The seat that acts now: the colour to move, or in the opening the colour held by the
    player who owes its step (player 1, who places the first three stones, holds Black)."""
    if game.rules.opening is not Opening.NONE and game.move_number < 3 and not game.is_over:
        return Color.BLACK if game.black_player == 1 else Color.WHITE
    due = game.opening_decision
    if due is None:
        return game.to_play
    return Color.BLACK if game.black_player == due else Color.WHITE


def options(game: GomokuGame, placing_two: bool) -> list[str]:
    """The choices open to the actor besides placing a stone: after three stones "swap" (and
    under swap2 "two"), after swap2's five "swap" (take White) or "keep" (stay Black)."""
    if not in_opening(game) or game.move_number < 3 or placing_two:
        return []
    if game.move_number == 5:
        return ["keep", "swap"]
    return ["swap", "two"] if game.rules.opening is Opening.SWAP2 else ["swap"]


def view(game: GomokuGame, meta: SessionMeta) -> dict[str, Any] | None:
    """What the page shows of the opening: the rule, the step, who acts, the choices, and the
    first of two stones being placed; None for a game without an opening rule."""
    opening = game.rules.opening
    if opening is Opening.NONE:
        return None
    pending = meta.opening_pending
    placing_two = bool(meta.opening_two)
    n = game.move_number
    if not in_opening(game):
        step = "done"
    elif n < 3:
        step = "three"
    elif placing_two:
        step = "two"
    else:
        step = "choose"
    return {
        "rule": opening.value,
        "step": step,
        "actor": actor(game).name.lower(),
        "choices": options(game, placing_two),
        "pending": pending,
        "black_player": game.black_player,
    }
