"""Game sessions: the single owner of every game's mutable state in the web app.

A `GameSession` holds one game of Go: its game tree, a `Cursor` on it (the position shown),
the seats (who may move for each colour, by secret token), the computer players, and the
scoring state. Every change happens under the session's lock and is saved to the `Store`
before the call returns, so a killed server loses nothing. This module is the play mode
(moves, handicap stones, resigning, undo and redo, the computer's turn); the state and the
clocks are `go_base`'s, the scoring and review modes mixins (`scoring_mode`, `review_mode`),
the page's JSON `go_view`'s. `sessions.Sessions` opens and creates games (`newgame` makes
their records); a Gomoku game (``GM[4]``) is a `gomoku_session.GomokuSession` on the same
base (`seats.SessionBase`). Nothing here knows HTTP: errors are `WebError`s with a status
that the routes pass on.
"""

from __future__ import annotations

import time
from typing import Any

from tengen.ai.mcts import MctsPlayer
from tengen.core.color import Color
from tengen.core.coords import to_gtp
from tengen.core.errors import IllegalMove
from tengen.gtp.client import GtpClientError
from tengen.sgf import Node
from tengen.web import go_view, scoring_view
from tengen.web.go_base import node_move
from tengen.web.players import EngineError, GoSeat
from tengen.web.review_mode import ReviewMode
from tengen.web.scoring_mode import ScoringMode
from tengen.web.seats import COMPUTER, BadRequest, Conflict, Forbidden, parse_vertex


class GameSession(ScoringMode, ReviewMode):
    """One game of Go: its record, the cursor on it, the seats and the computer players."""

    def state(self) -> dict[str, Any]:
        """Everything a page needs to draw the game, the same for every viewer."""
        return go_view.state(self)

    # -- play --------------------------------------------------------------------------------

    def _check_can_move(self, token: str | None) -> Color:
        color = self.cursor.game.to_play
        phase = self.phase()
        if phase == "over":
            raise Conflict(f"the game is over ({self.tree.root.get('RE')})", "game over")
        if phase == "scoring":
            raise Conflict("the game is being scored: accept the score or resume play", "scoring")
        self._require_seat(token, color)
        if self.mode == "play" and self.seat_kind(color) in COMPUTER:
            raise Conflict(f"it is the computer's turn ({color.name.lower()})", "wrong turn")
        return color

    def play(self, vertex: Any, token: str | None) -> None:
        """Play a move (or place a free handicap stone) for the player to move.

        Raises BadRequest for a bad vertex, Forbidden for a wrong token, Conflict for an
        illegal move (its reason: ko, suicide, occupied...) or a game that is over.
        """
        with self.lock:
            if self.placing_handicap():
                self._place_handicap(vertex, token)
                return
            move = self._parse_vertex(vertex)
            color = self._check_can_move(token)
            if self._check_time():
                raise Conflict(f"{color.name.lower()}'s time ran out", "time")
            if self.mode == "play" and self._passes_at_end():
                raise Conflict("both players passed: score the game or undo", "game over")
            try:
                self.cursor.play(move, color)
            except IllegalMove as err:
                where = "pass" if move is None else to_gtp(move, self.cursor.game.height)
                raise Conflict(
                    f"illegal move {where}: {err.reason.value}", err.reason.value
                ) from None
            self._clock_moved(color)
            if self.mode == "play":
                self._moved_on()
                if self._passes_at_end():
                    scoring_view.start(self)
            self.save()

    def _place_handicap(self, vertex: Any, token: str | None) -> None:
        move = self._parse_vertex(vertex)
        self._require_seat(token, Color.BLACK)
        if move is None:
            raise BadRequest("place the handicap stones before passing")
        if self.cursor.game.board[move] is not None:
            raise Conflict(f"illegal move {vertex}: occupied", "occupied")
        self.cursor.to_start()
        if self.placing_handicap() == 1:
            self.tree.root.set("PL", Color.WHITE)
        self.cursor.set_setup(black=[move])
        self.save()

    def pass_move(self, token: str | None) -> None:
        """The player to move passes; two passes in a row start the scoring (play mode)."""
        self.play("pass", token)

    def resign(self, token: str | None) -> None:
        """The token's player resigns (play mode); the result is written to the record."""
        with self.lock:
            if self.mode != "play":
                raise Conflict("only a game in play mode can be resigned")
            held = self._require_any(token)
            if self.phase() == "over":
                raise Conflict("the game is over", "game over")
            to_play = self.cursor.game.to_play
            loser = to_play if to_play in held else next(iter(held))
            self.tree.root.set("RE", f"{loser.opponent.letter}+R")
            self.meta.resigned = loser.letter
            self.meta.dead = None
            self._moved_on()
            self.save()

    def _undo_check(self, held: set[Color]) -> Node | None:
        """What an undo by `held` would take back: from the returned node to the end, or the
        result alone (None). Raises Forbidden if the last move by a person was the other
        player's, Conflict when there is nothing to undo."""
        if self.mode != "play":
            raise Conflict("undo is for games in play mode; in review, delete the branch")
        if self.meta.timeout:
            raise Conflict("the game was lost on time: it cannot be taken back", "game over")
        if self.meta.resigned or "RE" in self.tree.root.properties:
            return None
        self.cursor.to_end()
        node = self.cursor.node
        while (
            (move := node_move(node)) is not None
            and self.seat_kind(move[0]) in COMPUTER
            and node.parent is not None
        ):
            node = node.parent
        move = node_move(node)
        if move is None:
            raise Conflict("nothing to undo")
        if move[0] not in held:
            raise Forbidden("only the player who made the last move can take it back")
        return node

    def _take_back(self, held: set[Color]) -> None:
        """Take back the last move of `held`'s player and the computer's replies after it (or
        a resignation), keeping them for redo."""
        node = self._undo_check(held)
        if node is None:
            self.tree.root.delete("RE")
            self.meta.resigned = None
            self.meta.dead = None
            self.save()
            return
        self.meta.dead = None
        taken = self._line_from(node)
        self.cursor.go_to(node)
        self.cursor.delete_branch()
        self.meta.redo = [*self.meta.redo, taken]
        self.save()

    def _line_from(self, node: Node) -> list[list[str | None]]:
        """The moves from `node` to the cursor, as [colour letter, GTP vertex or None]."""
        height = self.cursor.game.height
        moves: list[list[str | None]] = []
        at: Node | None = self.cursor.node
        while at is not None:
            move = node_move(at)
            if move is not None:
                color, point = move
                moves.append([color.letter, None if point is None else to_gtp(point, height)])
            if at is node:
                break
            at = at.parent
        return moves[::-1]

    def redo(self, token: str | None) -> None:
        """Play again the moves the last undo took back (play mode; not once another move was
        made, nor on a clock). Raises Conflict when there is nothing to redo."""
        with self.lock:
            if self.mode != "play":
                raise Conflict("redo is for games in play mode; in review, step forward")
            held = self._require_any(token)
            stack = self.meta.redo
            if not stack:
                raise Conflict("nothing to redo")
            if self.clocks is not None:
                raise Conflict("a game on a clock cannot redo taken-back moves")
            group = stack[-1]
            if Color.parse(group[0][0]) not in held:
                raise Forbidden("only the player who took the moves back can play them again")
            game = self.cursor.game
            for letter, vertex in group:
                color = Color.parse(letter)
                self.cursor.play(parse_vertex(vertex or "pass", game.width, game.height), color)
            self.meta.redo = stack[:-1]
            if self._passes_at_end():
                scoring_view.start(self)
            self.save()

    def computer_move(self) -> bool:
        """If a computer holds the seat to move, let it move. Returns whether the game changed
        (a move, a resignation, or a loss on time found before the move).

        Raises Conflict if the engine fails; a difference between the engine's stones and the
        board is recorded in the warnings.
        """
        with self.lock:
            if self.mode != "play" or self.phase() != "play":
                return False
            if self._check_time():
                return True  # no move, but the game has changed: it is lost on time
            game = self.cursor.game
            color = game.to_play
            kind = self.seat_kind(color)
            if kind not in COMPUTER:
                return False
            player = self._players.get(color)
            if player is None:
                player = self._players[color] = self._new_player(kind, color)
            try:
                clock = None if self.clocks is None else self.clocks.clocks[color]
                move = player.genmove(game, color, clock)
            except (EngineError, GtpClientError) as err:
                raise self._engine_failed(err) from None
            for difference in getattr(player, "differences", []):
                self._warn(difference)
            if move == "resign":
                self.tree.root.set("RE", f"{color.opponent.letter}+R")
                self.meta.resigned = color.letter
            else:
                try:
                    self.cursor.play(move, color)
                except IllegalMove as err:
                    self._warn(f"the engine's move is illegal here ({err.reason.value}); it passes")
                    self.cursor.play(None, color)
                self._clock_moved(color)
                self._moved_on()
                if self._passes_at_end():
                    scoring_view.start(self)
            self.save()
            return True

    def _new_player(self, kind: str, color: Color) -> GoSeat:
        """A computer seat's player. On a clock the built-in one warms up on this board first
        (`MctsPlayer.warm`) and its running clock is excused that time: its first move does not
        pay for loading the compiled search, as in a match."""
        player = self._make_player(kind, int(self.meta.level))
        if isinstance(player, MctsPlayer) and self.clocks is not None:
            start = time.monotonic()
            game = self.cursor.game
            player.warm(game.width, game.height)
            if self.clocks.running is color:
                self.clocks.clocks[color].excuse(time.monotonic() - start)
        return player

    def choose_opening(self, choice: str, token: str | None) -> None:
        """Refused: Go has no swap opening (after the seat is checked, as for a move)."""
        with self.lock:
            self._require_seat(token, self.cursor.game.to_play)
            raise Conflict("swap openings are Gomoku's; Go has none", "go")
