"""A Gomoku game session: a `GomokuGame` behind the same seats, lock, store and listeners as
a Go game (`seats.SessionBase`).

The record is an SGF ``GM[4]`` tree (`tengen.gomoku.record`), rebuilt from the game at every
save of a played game; an imported record (``.psq`` or SGF) is kept as it came and reviewed
move by move. The game judges everything: fives, renju forbidden points, the result. This
module plays, reviews and refuses what only Go has; the state is `gomoku_base`'s, the swap
opening a mixin (`gomoku_opening`), the page's JSON `gomoku_view`'s.
"""

from __future__ import annotations

from typing import Any

from tengen.core.color import Color
from tengen.core.coords import to_gtp
from tengen.gomoku import GomokuIllegal
from tengen.gomoku.rules import Opening
from tengen.web import gomoku_view, opening
from tengen.web.gomoku_opening import GomokuOpening
from tengen.web.players import EngineError
from tengen.web.seats import COMPUTER, BadRequest, Conflict, Forbidden


class GomokuSession(GomokuOpening):
    """One Gomoku game: the game, the move shown in review, the seats, the computer players."""

    def state(self) -> dict[str, Any]:
        """The Go page's state fields (captures, chains... empty) plus Gomoku's own:
        ``forbidden`` ([col, row, reason] for Black under renju), ``winning_line``, ``rule``."""
        return gomoku_view.state(self)

    # -- play --------------------------------------------------------------------------------

    def play(self, vertex: Any, token: str | None) -> None:
        """Place a stone for the player to move.

        Raises BadRequest for a bad vertex, Forbidden for a wrong token, Conflict for an
        illegal move (occupied, or forbidden under renju with its reason) or a game over.
        """
        with self.lock:
            point = self._point(vertex)
            self._check_playing()
            color = opening.actor(self.game)  # in a swap opening, not always the stone's colour
            self._require_seat(token, color)
            if self.seat_kind(color) in COMPUTER:
                raise Conflict(f"it is the computer's turn ({color.name.lower()})", "wrong turn")
            if "keep" in opening.options(self.game, False):
                raise Conflict("choose first: keep Black, or take White", "opening")
            try:
                if self.meta.opening_two:
                    self._place_two(point)
                else:
                    self.game.play(point)
            except GomokuIllegal as err:
                name = to_gtp(point, self.game.rules.height)
                raise Conflict(f"illegal move {name}: {err.reason}", err.reason) from None
            self.shown = self.game.move_number
            self._moved_on()
            self.save()

    def resign(self, token: str | None) -> None:
        """The token's player resigns (the player to move if the token holds both seats)."""
        with self.lock:
            held = self._require_any(token)
            self._check_playing()
            to_play = self.game.to_play
            self.game.resign(to_play if to_play in held else next(iter(held)))
            self._moved_on()
            self.save()

    def _undo_check(self, held: set[Color]) -> int:
        """How many stones an undo by `held` would take back: the player's last and the
        computer's replies after it (0: a resignation). Raises Forbidden (the other
        player's stone) or Conflict."""
        if self.mode != "play":
            raise Conflict("undo is for games in play mode")
        if self.game.resigned is not None:
            return 0
        if self.game.rules.opening is not Opening.NONE:
            if not (self.game.move_number or self.meta.opening_two):
                raise Conflict("nothing to undo")
            return -1  # the last action, whoever took it (a swap exchanged the colours)
        moves = self.game.moves
        count = 0
        while count < len(moves) and self.seat_kind(moves[-1 - count][0]) in COMPUTER:
            count += 1
        if count == len(moves):
            raise Conflict("nothing to undo")
        if moves[-1 - count][0] not in held:
            raise Forbidden("only the player who made the last move can take it back")
        return count + 1

    def _take_back(self, held: set[Color]) -> None:
        """Take back a resignation, or `held`'s player's last stone and the computer's replies
        after it, keeping the stones for redo."""
        count = self._undo_check(held)
        if count == 0:
            self.game.undo()
            self.save()
            return
        if count < 0:
            self._undo_actions()
            return
        moves, height = self.game.moves, self.game.rules.height
        taken = [[c.letter, to_gtp(p, height)] for c, p in moves[len(moves) - count :]]
        for _ in range(count):
            self.game.undo()
        self.meta.redo = [*self.meta.redo, taken]
        self.shown = self.game.move_number
        self.save()

    def redo(self, token: str | None) -> None:
        """Place again the stones the last undo took back (not once another was placed).
        Raises Conflict when there is nothing to redo."""
        with self.lock:
            if self.mode != "play":
                raise Conflict("redo is for games in play mode; in review, step forward")
            held = self._require_any(token)
            stack = self.meta.redo
            if not stack:
                raise Conflict("nothing to redo")
            group = stack[-1]
            if Color.parse(group[0][0]) not in held:
                raise Forbidden("only the player who took the stones back can place them again")
            for letter, vertex in group:
                self.game.play(self._point(vertex), Color.parse(letter))
            self.meta.redo = stack[:-1]
            self.shown = self.game.move_number
            self.save()

    def computer_move(self) -> bool:
        """If a computer holds the seat to move, let it move. Returns whether it moved.

        Raises Conflict if the engine fails. An engine's illegal move is recorded in the
        warnings and counts as its resignation (Gomoku has no pass).
        """
        with self.lock:
            if self.phase() != "play":
                return False
            color = opening.actor(self.game)
            kind = self.seat_kind(color)
            if kind not in COMPUTER:
                return False
            player = self._players.get(color)
            if player is None:
                player = self._players[color] = self._make_player(kind)
            try:
                if self.game.opening_decision is not None:
                    self._decide_opening(player.opening(self.game))
                else:
                    self.game.play(player.genmove(self.game), color)
            except EngineError as err:
                raise self._engine_failed(err) from None
            except GomokuIllegal as err:
                self._warn(f"the engine's move is illegal ({err.reason}); it resigns")
                self.game.resign(color)
            self._moved_on()
            self.shown = self.game.move_number
            self.save()
            return True

    # -- review ------------------------------------------------------------------------------

    def navigate(self, target: Any, token: str | None) -> None:
        """Show another move: {"to": "start|end|back|forward"}, {"move": n} or {"node": n}
        (the tree is one line, node n is move n). Raises BadRequest or Conflict."""
        with self.lock:
            self._require_all(token)
            if self.mode == "play":
                raise Conflict("navigation is for review: switch the game to review mode")
            if not isinstance(target, dict) or len(target) != 1:
                raise BadRequest('give one of "to", "move" or "node"')
            ((key, value),) = target.items()
            last = self.game.move_number
            steps = {"start": 0, "end": last, "back": self.shown - 1, "forward": self.shown + 1}
            if key == "to" and value in steps:
                number = steps[value]
            elif key in ("move", "node") and isinstance(value, int) and not isinstance(value, bool):
                number = value
            elif key == "to" and value in ("next", "previous", "main"):
                raise Conflict("a Gomoku record here has no variations")
            else:
                raise BadRequest(f"cannot navigate by {key!r} = {value!r}")
            if not 0 <= number <= last:
                raise Conflict(f"no move {number} (the game has {last})")
            self.shown = number
            self.save()

    # -- what only Go has --------------------------------------------------------------------

    def _check_info(self, info: dict[str, Any]) -> None:
        """No komi in Gomoku, and the rule is the game's own."""
        super()._check_info(info)
        for field in ("komi", "handicap", "rules"):
            if field in info:
                raise Conflict(f"a Gomoku game's {field} is not game information", "gomoku")

    @staticmethod
    def _go_only(action: str) -> Conflict:
        return Conflict(f"{action} is not part of Gomoku", "gomoku")

    def pass_move(self, token: str | None) -> None:
        """Refused: Gomoku has no pass."""
        raise self._go_only("passing")

    def score_start(self, token: str | None) -> None:
        """Refused: a Gomoku game is not counted."""
        raise self._go_only("scoring")

    def score_toggle(self, vertex: Any, token: str | None) -> None:
        """Refused: a Gomoku game is not counted."""
        raise self._go_only("scoring")

    def score_accept(self, token: str | None) -> None:
        """Refused: a Gomoku game is not counted."""
        raise self._go_only("scoring")

    def score_cancel(self, token: str | None) -> None:
        """Refused: a Gomoku game is not counted."""
        raise self._go_only("scoring")

    def set_comment(self, text: Any, token: str | None) -> None:
        """Refused: comments are edited in Go records only, for now."""
        raise self._go_only("editing comments")

    def set_markup(
        self, kind: str, vertex: Any, to: Any, text: str | None, token: str | None
    ) -> None:
        """Refused: markup is edited in Go records only, for now."""
        raise self._go_only("editing markup")

    def delete_branch(self, token: str | None) -> None:
        """Refused: a Gomoku record here is one line."""
        raise self._go_only("deleting a branch")

    def promote(self, token: str | None) -> None:
        """Refused: a Gomoku record here is one line."""
        raise self._go_only("promoting a variation")

    def figure_svg(self, chain_labels: bool = False) -> str:
        """Refused: the diagrams are drawn for Go positions."""
        raise self._go_only("a position diagram")

    def figure_png(self, chain_labels: bool = False) -> bytes:
        """Refused: the diagrams are drawn for Go positions."""
        raise self._go_only("a position diagram")
