"""A Gomoku game session: a `GomokuGame` behind the same seats, lock, store and listeners as
a Go game (`seats.SessionBase`).

The record is an SGF ``GM[4]`` tree (`tengen.gomoku.record`), rebuilt from the game at every
save of a played game; an imported record (``.psq`` or SGF) is kept as it came and reviewed
move by move. The game judges everything: fives, renju forbidden points, the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tengen.core.color import Color
from tengen.core.coords import Point, to_gtp
from tengen.gomoku import GomokuGame, GomokuIllegal
from tengen.gomoku.record import game_from_tree, game_to_tree
from tengen.gomoku.rules import Opening
from tengen.render.grid import star_points
from tengen.sgf import GameTree
from tengen.web import opening
from tengen.web.meta import SessionMeta
from tengen.web.players import EngineError, GomokuComputer
from tengen.web.seats import COMPUTER, BadRequest, Conflict, Forbidden, SessionBase, parse_vertex
from tengen.web.store import Store

_ROOT_KEPT_OUT = ("GM", "FF", "SZ", "RU", "RE")  # what game_to_tree writes itself


def open_game(tree: GameTree) -> GomokuGame:
    """The game of a ``GM[4]`` record. Raises BadRequest with the reason it cannot be read."""
    try:
        return game_from_tree(tree)
    except (ValueError, GomokuIllegal) as err:
        raise BadRequest(f"cannot open the Gomoku record: {err}") from None


class GomokuSession(SessionBase[GomokuComputer]):
    """One Gomoku game: the game, the move shown in review, the seats, the computer players."""

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

    def _shown_game(self) -> GomokuGame:
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

    def state(self) -> dict[str, Any]:
        """The Go page's state fields (captures, chains... empty) plus Gomoku's own:
        ``forbidden`` ([col, row, reason] for Black under renju), ``winning_line``, ``rule``."""
        game = self._shown_game()
        rules = game.rules
        w, h = rules.width, rules.height
        rows = [
            "".join(
                "." if (c := game.board[Point(col, row)]) is None else c.letter for col in range(w)
            )
            for row in range(h)
        ]
        last = game.moves[-1][1] if game.moves else None
        root = self.tree.root
        return {
            "id": self.id,
            "version": self.version,
            "game": "gomoku",
            "title": self.title(),
            "mode": self.mode,
            "phase": self.phase(),
            "rule": rules.rule.value,
            "width": w,
            "height": h,
            "stars": [[p.col, p.row] for p in star_points(w, h)],
            "board": rows,
            "to_play": game.to_play.name.lower(),
            "acting": opening.actor(game).name.lower(),
            "black_player": self.game.black_player,
            "opening": opening.view(game, self.meta) if self.mode == "play" else None,
            "move_number": game.move_number,
            "line_length": self.game.move_number,
            "last_move": None if last is None else list(last),
            "last_pass": False,
            "ko": None,
            "captures": {"black": 0, "white": 0},
            "numbers": [[p.col, p.row, i + 1] for i, (_, p) in enumerate(game.moves)],
            "chains": [],
            "forbidden": [
                [p.col, p.row, why] for p, why in sorted(game.forbidden_points().items())
            ],
            "winning_line": None
            if game.winning_line is None
            else sorted([p.col, p.row] for p in game.winning_line),
            "winner": None if game.winner is None else game.winner.name.lower(),
            "announce": self._announce(game),
            "seats": {name: seat["kind"] for name, seat in self.meta.seats.items()},
            "seated": self.seated,
            "can_redo": self.mode == "play" and bool(self.meta.redo),
            "info": self.info(),
            "undo_request": self.undo_request(),
            "copy_of": self.meta.copy_of,
            "imported": bool(self.meta.imported),
            "players": {"black": root.get("PB") or "Black", "white": root.get("PW") or "White"},
            "ruleset": rules.rule.value,
            "komi": None,
            "handicap_left": 0,
            "result": game.result or None,
            "drawn_because": game.drawn_because,
            "comment": root.get("GC") or root.get("C") or "",
            "variations": [],
            "sibling": {"index": 0, "count": 1},
            "tree": {
                "nodes": [
                    [
                        i,
                        0,
                        i - 1,
                        "" if i == 0 else self.game.moves[i - 1][0].letter,
                        int(i <= game.move_number),
                    ]
                    for i in range(self.game.move_number + 1)
                ],
                "current": game.move_number,
            },
            "problems": [],
            "warnings": list(self.meta.warnings)[-5:],
            "scoring": None,
        }

    def _announce(self, game: GomokuGame) -> str:
        """What a screen reader says after the last change: the stone, a five, the result."""
        if not game.moves:
            return "Start of the game."
        color, point = game.moves[-1]
        parts = [f"{color.name.title()} {to_gtp(point, game.rules.height)}"]
        if game.winning_line is not None:
            parts.append("five in a row")
        if game.result:
            parts.append(f"result {game.result}")
        return ", ".join(parts) + "."

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

    # -- play --------------------------------------------------------------------------------

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

    def _place_two(self, point: Point) -> None:
        """Swap2's stones 4 and 5: the first click is held, the second places both (the same
        point twice lets go of the first)."""
        held = self.meta.opening_pending
        if held is None:
            if self.game.board[point] is not None:
                raise GomokuIllegal("occupied", self.game.move_number + 1, point)
            self.meta.opening_pending = [point.col, point.row]
            return
        self.meta.opening_pending = None
        first = Point(*held)
        if first == point:
            return
        self.game.place_opening([first, point])
        self.meta.opening_two = False
        self._log_choice(3, "two")

    def choose_opening(self, choice: str, token: str | None) -> None:
        """The opening's choice of the player who owes it: "swap" (the other colour), "keep"
        (swap2's player 1 stays Black), "two" (swap2's player 2 places stones 4 and 5).
        Raises Forbidden for another seat, Conflict for a choice not open now."""
        with self.lock:
            self._check_playing()
            color = opening.actor(self.game)
            self._require_seat(token, color)
            if self.seat_kind(color) in COMPUTER:
                raise Conflict(f"it is the computer's turn ({color.name.lower()})", "wrong turn")
            open_now = opening.options(self.game, bool(self.meta.opening_two))
            if choice not in open_now:
                now = ", ".join(open_now) or "none"
                raise Conflict(f"{choice!r} is not a choice now (open: {now})", "opening")
            n = self.game.move_number
            if choice == "two":
                self.meta.opening_two = True
            else:
                if choice == "swap":
                    self.game.swap()
                    self._swap_seats()
                else:
                    self.game.decide_opening(None)
                self._log_choice(n, choice)
            self._moved_on()
            self.save()

    def _decide_opening(self, answer: list[Point] | None) -> None:
        """Carry out a computer's opening answer (as ``SWAP2BOARD`` gives it) and note the
        choice it makes. Raises GomokuIllegal for an answer the opening does not allow."""
        n = self.game.move_number
        self.game.decide_opening(answer)
        if answer is None:
            choice = "swap" if n == 3 else "keep"
        elif len(answer) == 2:
            choice = "two"
        else:
            choice = "swap" if n == 5 else ""
        if choice == "swap":
            self._swap_seats()
        if choice:
            self._log_choice(n, choice)

    def _log_choice(self, after: int, choice: str) -> None:
        log: list[list[Any]] = self.meta.opening_log
        log.append([after, choice])

    def _swap_seats(self) -> None:
        """The people (and computers) change colours; so do the record's names."""
        seats = self.meta.seats
        seats["black"], seats["white"] = seats["white"], seats["black"]
        self._players = {c.opponent: p for c, p in self._players.items()}
        root = self.tree.root
        black, white = root.get("PB"), root.get("PW")
        for prop, name in (("PB", white), ("PW", black)):
            if name is None:
                root.delete(prop)
            else:
                root.set(prop, name)

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

    def _undo_actions(self) -> None:
        """Under a swap opening: take back the last action (a stone, the opening's stones, a
        choice), and the computer's after it, until a person is to act."""
        while True:
            self._undo_action()
            person = self.seat_kind(opening.actor(self.game)) not in COMPUTER
            if person or not self.game.move_number:
                break
        self.shown = self.game.move_number
        self.save()

    def _undo_action(self) -> None:
        """Take back one action of a swap opening's game, with the choice it noted."""
        if self.meta.opening_two:
            self.meta.opening_two, self.meta.opening_pending = False, None
            return
        log: list[list[Any]] = self.meta.opening_log
        n = self.game.move_number
        last = log[-1] if log else None
        if last is not None and int(last[0]) == n and last[1] in ("swap", "keep"):
            log.pop()
            if last[1] == "swap":
                self._swap_seats()
        elif last is not None and last == [3, "two"] and n == 5:
            log.pop()
        self.game.undo()

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
                self._warn(f"engine failed: {err}")
                self.save()
                raise Conflict(f"the engine failed: {err}", "engine") from None
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

    def _show_latest(self) -> None:
        """Show the last stone."""
        self.shown = self.game.move_number

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
