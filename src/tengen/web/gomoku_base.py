"""A Gomoku session's state, which its parts share: the `GomokuGame` (rebuilt with its swap
opening's choices), the move shown in review, and the record rebuilt from the game.

`GomokuSessionBase` is the base class of the opening's mixin (`gomoku_opening`) and of
`gomoku_session.GomokuSession`, which plays; `gomoku_view` draws it for the page. They all
import this module and none of them each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuIllegal
from tengen.gomoku.record import game_from_tree, game_to_tree
from tengen.gomoku.rules import Opening
from tengen.sgf import GameTree
from tengen.web import opening
from tengen.web.meta import SessionMeta
from tengen.web.players import GomokuComputer
from tengen.web.seats import BadRequest, Conflict, SessionBase, parse_vertex
from tengen.web.store import Store

_ROOT_KEPT_OUT = ("GM", "FF", "SZ", "RU", "RE")  # what game_to_tree writes itself


def open_game(tree: GameTree) -> GomokuGame:
    """The game of a ``GM[4]`` record. Raises BadRequest with the reason it cannot be read."""
    try:
        return game_from_tree(tree)
    except (ValueError, GomokuIllegal) as err:
        raise BadRequest(f"cannot open the Gomoku record: {err}") from None


class GomokuSessionBase(SessionBase[GomokuComputer]):
    """The state of one Gomoku game that its parts share (`gomoku_session.GomokuSession` is
    the whole session)."""

    def __init__(
        self,
        game_id: str,
        tree: GameTree,
        meta: SessionMeta,
        store: Store,
        make_player: Callable[[str], GomokuComputer],
        created: float | None = None,
    ) -> None:
        super().__init__(game_id, tree, meta, store, created)
        meta.game = "gomoku"
        rule = Opening(meta.opening)
        try:
            self.game = opening.rebuild(open_game(tree), rule, meta.opening_log)
        except (ValueError, GomokuIllegal) as err:
            raise BadRequest(f"cannot replay the game's opening: {err}") from None
        self._make_player = make_player
        shown = self.game.move_number if meta.shown is None else meta.shown
        self.shown = min(shown, self.game.move_number)
        if self.mode == "play":
            self.shown = self.game.move_number

    # -- state -------------------------------------------------------------------------------

    def shown_game(self) -> GomokuGame:
        """The game as it stood after `shown` moves (the whole game when all are shown)."""
        if self.shown >= self.game.move_number:
            return self.game
        game = GomokuGame(self.game.rules)
        for color, point in self.game.moves[: self.shown]:
            game.play(point, color)
        return game

    def phase(self) -> str:
        """play or over (play mode); review otherwise."""
        if self.mode != "play":
            return "review"
        return "over" if self.game.is_over else "play"

    def _sync_record(self) -> None:
        """Rebuild a played game's record (keeping the root's names and dates); note the move
        shown."""
        self.meta.shown = self.shown
        if self.meta.imported:
            return
        tree = game_to_tree(self.game)
        for key, values in self.tree.root.properties.items():
            if key not in _ROOT_KEPT_OUT:
                tree.root.properties[key] = values
        self.tree = tree

    # -- moves -------------------------------------------------------------------------------

    def _point(self, vertex: Any) -> Point:
        rules = self.game.rules
        point = parse_vertex(vertex, rules.width, rules.height)
        if point is None:
            raise BadRequest("Gomoku has no pass")
        return point

    def _check_playing(self) -> None:
        if self.mode != "play":
            raise Conflict(
                "an imported record is reviewed, not played"
                if self.meta.imported
                else "the game is in review: switch it to play mode"
            )
        if self.game.is_over:
            raise Conflict(f"the game is over ({self.game.result})", "game over")

    def _show_latest(self) -> None:
        """Show the last stone."""
        self.shown = self.game.move_number
