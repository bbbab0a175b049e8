"""Game sessions: the single owner of every game's mutable state in the web app.

A `GameSession` holds one game of Go: its game tree, a `Cursor` on it (the position shown), the
seats (who may move for each colour, by secret token), the computer players, and the scoring
state. Every change happens under the session's lock and is saved to the `Store` before the
call returns, so a killed server loses nothing. `sessions.Sessions` opens and creates games
(`newgame` makes their records); a Gomoku game (``GM[4]``) is a
`gomoku_session.GomokuSession` on the same base (`seats.SessionBase`). Nothing here knows
HTTP: errors are `WebError`s with a status that the routes pass on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from tengen.core.color import Color
from tengen.core.coords import Move, Point, to_gtp
from tengen.core.errors import IllegalMove
from tengen.core.rules import Ruleset
from tengen.gtp.client import GtpClientError
from tengen.render import position_figure, render_png, render_svg
from tengen.render.grid import star_points
from tengen.sgf import GameTree, Node
from tengen.sgf.cursor import Cursor
from tengen.web import markup_view, scoring_view
from tengen.web.clocks import GameClocks
from tengen.web.meta import SessionMeta
from tengen.web.players import (
    EngineError,
    GoSeat,
)
from tengen.web.seats import (
    COMPUTER,
    BadRequest,
    Conflict,
    Forbidden,
    SessionBase,
    parse_vertex,
)
from tengen.web.store import Store


def _node_index(tree: GameTree, node: Node) -> int:
    return next(i for i, n in enumerate(tree.nodes()) if n is node)


def _move(node: Node) -> tuple[Color, Move] | None:
    """The node's move, None for no move or an unreadable one."""
    try:
        return node.move
    except ValueError:
        return None


def _is_pass(node: Node) -> bool:
    move = _move(node)
    return move is not None and move[1] is None


def _vertex(point: Move, height: int) -> str:
    """GTP name of a move; columns past Z (boards over 25) have none, so '?'."""
    return "?" if point is not None and point.col >= 25 else to_gtp(point, height)


def _move_label(node: Node, height: int) -> str:
    move = _move(node)
    return "" if move is None else f"{move[0].letter} {_vertex(move[1], height)}"


class GameSession(SessionBase[GoSeat]):
    """One game of Go: its record, the cursor on it, the seats and the computer players."""

    def __init__(
        self,
        game_id: str,
        tree: GameTree,
        meta: SessionMeta,
        store: Store,
        make_player: Callable[[str, int], GoSeat],
        created: float | None = None,
    ) -> None:
        super().__init__(game_id, tree, meta, store, created)
        self._make_player = make_player
        try:
            self.cursor = Cursor(tree)
        except ValueError as err:
            raise BadRequest(f"cannot open the record: {err}") from None
        nodes = list(tree.nodes())
        self.cursor.go_to(nodes[min(meta.node, len(nodes) - 1)])
        if meta.mode == "play":
            self.cursor.to_end()
        self.clocks = GameClocks.from_meta(meta.clock)
        self._flag_timer: threading.Timer | None = None
        self._time_flag_timer()

    # -- state -------------------------------------------------------------------------------

    def _handicap_points(self) -> list[Point]:
        points: list[Point] = self.tree.root.get("AB") or []
        return points if self.tree.root.get("HA") else []

    def placing_handicap(self) -> int:
        """How many free handicap stones Black still has to place (0 once play has begun)."""
        count = self.tree.root.get("HA") or 0
        if self.mode != "play" or self.tree.root.children or "PL" in self.tree.root.properties:
            return 0
        return max(count - len(self._handicap_points()), 0) if count >= 2 else 0

    def _passes_at_end(self) -> bool:
        """Whether the current node and its parent are both passes."""
        node = self.cursor.node
        return node.parent is not None and _is_pass(node) and _is_pass(node.parent)

    def phase(self) -> str:
        """handicap, play, scoring or over (play-mode games); review otherwise."""
        if self.mode != "play":
            return "scoring" if self.meta.dead is not None else "review"
        if "RE" in self.tree.root.properties:
            return "over"
        if self.meta.dead is not None:
            return "scoring"
        if self.placing_handicap():
            return "handicap"
        return "play"

    def state(self) -> dict[str, Any]:
        """Everything a page needs to draw the game, the same for every viewer."""
        game = self.cursor.game
        board = game.board
        w, h = game.width, game.height
        node = self.cursor.node
        last = None
        try:
            move = node.move_at((w, h))  # `tt` read with the game's size: no walk to the root
            last = move[1] if move else None
        except ValueError:
            pass
        numbers: dict[Point, int] = {}
        line: list[Node] = []
        n: Node | None = node
        while n is not None:
            line.append(n)
            n = n.parent
        count = 0
        for step in reversed(line):
            try:
                mv = step.move_at((w, h))
            except ValueError:
                mv = None
            if "B" in step.properties or "W" in step.properties:
                count += 1
            if mv and mv[1] is not None:
                numbers[mv[1]] = step.get("MN") or count
        grid = board.grid()
        rows = ["".join(".BW"[int(v)] for v in row) for row in grid]
        ko = board.ko_point if board.ko_color == game.to_play else None
        line_end = node
        while line_end.children:
            line_end = line_end.children[0]
        siblings = node.parent.children if node.parent is not None else [node]
        root = self.tree.root
        result = {
            "id": self.id,
            "version": self.version,
            "title": self.title(),
            "mode": self.mode,
            "phase": self.phase(),
            "width": w,
            "height": h,
            "stars": [[p.col, p.row] for p in star_points(w, h)],
            "board": rows,
            "to_play": game.to_play.name.lower(),
            "move_number": self.cursor.move_number,
            "line_length": line_end.move_number,
            "last_move": None if last is None else list(last),
            "last_pass": bool(self.cursor.move_number and last is None and node.move_at((w, h))),
            "ko": None if ko is None else list(ko),
            "captures": {
                "black": board.captures(Color.BLACK),
                "white": board.captures(Color.WHITE),
            },
            "numbers": [[p.col, p.row, v] for p, v in numbers.items() if board[p] is not None],
            "chains": [
                {
                    "label": c.label,
                    "color": c.color.name.lower(),
                    "stones": sorted([p.col, p.row] for p in c.stones),
                    "liberties": len(c.liberties),
                }
                for c in board.chains()
            ],
            "announce": self._announce(node, last),
            "seats": {name: seat["kind"] for name, seat in self.meta.seats.items()},
            "seated": self.seated,
            "can_redo": self.mode == "play" and bool(self.meta.redo),
            "info": self.info(),
            "undo_request": self.undo_request(),
            "copy_of": self.meta.copy_of,
            "imported": bool(self.meta.imported),
            "players": {
                "black": root.get("PB") or "Black",
                "white": root.get("PW") or "White",
            },
            "ruleset": game.ruleset.name,
            "komi": game.ruleset.komi,
            "handicap_left": self.placing_handicap(),
            "result": root.get("RE"),
            "comment": self.cursor.comment,
            "markup": markup_view.view(node, w, h),
            "variations": [
                {"index": i, "label": _move_label(c, h) or "(no move)"}
                for i, c in enumerate(node.children)
            ],
            "sibling": {
                "index": next(i for i, c in enumerate(siblings) if c is node),
                "count": len(siblings),
            },
            "tree": self._tree_view(),
            "problems": [str(p) for p in self.cursor.problems][-5:],
            "warnings": list(self.meta.warnings)[-5:],
            "scoring": scoring_view.view(self) if self.meta.dead is not None else None,
            "clock": None if self.clocks is None else self.clocks.view(),
        }
        return result

    def _announce(self, node: Node, last: Move) -> str:
        """What a screen reader says after the last change: move, captures, atari."""
        try:
            move = node.move
        except ValueError:
            return ""
        if move is None:
            return "Start of the game." if node.parent is None else ""
        color, point = move
        game = self.cursor.game
        h = game.height
        parts = [f"{color.name.title()} " + ("passes" if point is None else _vertex(point, h))]
        played = game.moves[-1] if game.moves else None
        if played is not None and played.captured:
            parts.append(f"captures {played.captured}")
        for chain in game.board.chains_in_atari():
            if chain.color is color.opponent:
                stone = min(chain.stones, key=lambda p: (p.row, p.col))
                parts.append(f"{chain.color.name.lower()} in atari at {_vertex(stone, h)}")
        if "RE" in self.tree.root.properties and self.mode == "play":
            parts.append(f"result {self.tree.root.get('RE')}")
        return ", ".join(parts) + "."

    def _tree_view(self) -> dict[str, Any]:
        """The nodes laid out for a tree drawing: depth across, one lane per variation."""
        current = self.cursor.node
        on_path: set[int] = set()
        n: Node | None = current
        while n is not None:
            on_path.add(id(n))
            n = n.parent
        nodes: list[list[Any]] = []
        lanes = 0
        stack: list[tuple[Node, int, int, int]] = [(self.tree.root, 0, 0, -1)]
        while stack:
            node, depth, lane, parent = stack.pop()
            index = len(nodes)
            color = "B" if "B" in node.properties else "W" if "W" in node.properties else ""
            nodes.append([depth, lane, parent, color, int(id(node) in on_path)])
            lanes = max(lanes, lane)
            children = []
            for i, child in enumerate(node.children):
                if i == 0:
                    children.append((child, depth + 1, lane, index))
                else:
                    lanes += 1
                    children.append((child, depth + 1, lanes, index))
            stack.extend(reversed(children))
        return {"nodes": nodes, "current": _node_index(self.tree, current)}

    # -- saving ----------------------------------------------------------------------------

    def _sync_record(self) -> None:
        """Remember the node shown; let the clock of the player to move run (none while the
        game is not in play) and keep the clocks."""
        self.meta.node = _node_index(self.tree, self.cursor.node)
        if self.clocks is not None:
            playing = self.mode == "play" and self.phase() == "play"
            self.clocks.run_for(self.cursor.game.to_play if playing else None)
            self.meta.clock = self.clocks.to_meta()
            self._time_flag_timer()

    # -- clocks ------------------------------------------------------------------------------

    def _time_flag_timer(self) -> None:
        """(Re)arm the timer that ends the game when the running clock's flag falls, so the
        loss is recorded and shown even when no one makes a request."""
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
        wait = None if self.clocks is None else self.clocks.next_flag_in()
        if wait is not None:
            self._flag_timer = threading.Timer(wait + 0.05, self._flag_fell)
            self._flag_timer.daemon = True
            self._flag_timer.start()

    def _flag_fell(self) -> None:
        """The flag timer's end: record a loss on time, if a flag has fallen, and tell pages."""
        with self.lock:
            if self.deleted or not self._check_time():
                return
        self.publish()

    def _check_time(self) -> bool:
        """If a flag has fallen in play, record the loss (``RE[W+T]``) and save; whether so."""
        if self.clocks is None or self.mode != "play" or self.phase() != "play":
            return False
        loser = self.clocks.flag()
        if loser is None:
            return False
        self._lose_on_time(loser)
        return True

    def _lose_on_time(self, loser: Color) -> None:
        self.tree.root.set("RE", f"{loser.opponent.letter}+T")
        self.meta.timeout = loser.letter
        self.save()

    def _clock_moved(self, color: Color) -> None:
        """After `color`'s move in play: charge its clock and note its time in the move."""
        clocks = self.clocks if self.mode == "play" else None
        if clocks is not None and not clocks.moved(color, self.cursor.node):
            self._lose_on_time(color)

    def close(self) -> None:
        """Stop the flag timer and the computer players."""
        if self._flag_timer is not None:
            self._flag_timer.cancel()
        super().close()

    # -- play --------------------------------------------------------------------------------

    def _parse_vertex(self, vertex: Any) -> Move:
        game = self.cursor.game
        return parse_vertex(vertex, game.width, game.height)

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
            (move := _move(node)) is not None
            and self.seat_kind(move[0]) in COMPUTER
            and node.parent is not None
        ):
            node = node.parent
        move = _move(node)
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
            move = _move(at)
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
                level = int(self.meta.level)
                player = self._players[color] = self._make_player(kind, level)
            try:
                clock = None if self.clocks is None else self.clocks.clocks[color]
                move = player.genmove(game, color, clock)
            except (EngineError, GtpClientError) as err:
                self._warn(f"engine failed: {err}")
                self.save()
                raise Conflict(f"the engine failed: {err}", "engine") from None
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

    def _check_info(self, info: dict[str, Any]) -> None:
        """Komi within the board's points; in play, rules tengen can count by."""
        super()._check_info(info)
        game = self.cursor.game
        points = game.width * game.height
        if "komi" in info and abs(info["komi"]) > points:
            raise BadRequest(f"komi must be within ±{points} on {game.width}x{game.height}")
        if info.get("rules") and self.mode == "play":
            try:
                Ruleset.parse(info["rules"])
            except ValueError as err:
                raise BadRequest(f"rules: {err}") from None

    def _info_changed(self) -> None:
        """Replay the record to the same node: komi and rules change the count."""
        node = self.cursor.node
        self.cursor = Cursor(self.tree)
        self.cursor.go_to(node)

    def choose_opening(self, choice: str, token: str | None) -> None:
        """Refused: Go has no swap opening (after the seat is checked, as for a move)."""
        with self.lock:
            self._require_seat(token, self.cursor.game.to_play)
            raise Conflict("swap openings are Gomoku's; Go has none", "go")

    # -- scoring -----------------------------------------------------------------------------

    def score_start(self, token: str | None) -> None:
        """Open the scoring view now (play mode: also before two passes)."""
        with self.lock:
            self._require_any(token)
            if self.meta.dead is None:
                scoring_view.start(self)
                self.save()

    def score_toggle(self, vertex: Any, token: str | None) -> None:
        """Mark the chain at `vertex` dead or alive again. Raises Conflict outside scoring."""
        with self.lock:
            self._require_any(token)
            if self.meta.dead is None or self.phase() == "over":
                raise Conflict("the game is not being scored")
            point = self._parse_vertex(vertex)
            if point is None:
                raise BadRequest("click a stone to mark it dead or alive")
            scoring_view.toggle(self, point)
            self.save()

    def score_accept(self, token: str | None) -> None:
        """Accept the marking for the token's seats. In play mode every seat a person holds
        must accept it (a computer agrees, a change of the marking asks again); then, or at
        once in review, the counted result is written to the record (RE) and play is over."""
        with self.lock:
            held = self._require_any(token)
            if self.meta.dead is None:
                raise Conflict("the game is not being scored")
            result = scoring_view.view(self)["result"]
            if result is None:
                raise Conflict("the position cannot be counted with these dead stones")
            if self.mode == "play":
                scoring_view.accept(self, held)
                if scoring_view.waiting_for(self):
                    self.save()
                    return
            self.tree.root.set("RE", result)
            self.save()

    def score_cancel(self, token: str | None) -> None:
        """Leave the scoring view and go on playing (the last pass is taken back in play)."""
        with self.lock:
            self._require_any(token)
            if self.meta.dead is None:
                raise Conflict("the game is not being scored")
            self.meta.dead = None
            if self.mode == "play":
                self.tree.root.delete("RE")
                if self._passes_at_end():
                    self.cursor.delete_branch()
            self.save()

    # -- review ------------------------------------------------------------------------------

    def navigate(self, target: Any, token: str | None) -> None:
        """Move the cursor: {"to": "start|end|back|forward|next|previous|main"}, {"move": n},
        {"variation": i} or {"node": index in the tree view}. Raises BadRequest or Conflict."""
        with self.lock:
            self._require_all(token)
            if self.mode == "play":
                raise Conflict("navigation is for review: switch the game to review mode")
            if not isinstance(target, dict) or len(target) != 1:
                raise BadRequest('give one of "to", "move", "variation" or "node"')
            ((key, value),) = target.items()
            c = self.cursor
            steps: dict[str, Callable[[], Node]] = {
                "start": c.to_start,
                "end": c.to_end,
                "back": c.back,
                "forward": c.forward,
                "next": c.next_variation,
                "previous": c.previous_variation,
                "main": c.to_main_line,
            }
            try:
                if key == "to" and isinstance(value, str) and value in steps:
                    steps[value]()
                elif key == "move" and isinstance(value, int) and not isinstance(value, bool):
                    c.to_move(value)
                elif key == "variation" and isinstance(value, int):
                    c.forward(value)
                elif key == "node" and isinstance(value, int) and not isinstance(value, bool):
                    nodes = list(self.tree.nodes())
                    if not 0 <= value < len(nodes):
                        raise BadRequest(f"no node {value} (the tree has {len(nodes)})")
                    c.go_to(nodes[value])
                else:
                    raise BadRequest(f"cannot navigate by {key!r} = {value!r}")
            except (IndexError, ValueError) as err:
                raise Conflict(str(err)) from None
            self.save()

    def set_comment(self, text: Any, token: str | None) -> None:
        """Replace the current node's comment ("" removes it)."""
        if not isinstance(text, str):
            raise BadRequest("'comment' must be a string")
        with self.lock:
            self._require_all(token)
            self.cursor.comment = text
            self.save()

    def set_markup(
        self, kind: str, vertex: Any, to: Any, text: str | None, token: str | None
    ) -> None:
        """Add or remove a mark of the current node, as a markup tool's click does (review;
        see `markup_view.toggle`). Raises BadRequest for a point off the board or a mark
        that cannot be made, Conflict in play."""
        with self.lock:
            self._require_all(token)
            if self.mode == "play":
                raise Conflict("markup is edited in review: switch the game to review mode")
            point = self._markup_point(vertex)
            end = None if to is None else self._markup_point(to)
            try:
                markup_view.toggle(self.cursor, kind, point, end, text)
            except ValueError as err:
                raise BadRequest(str(err), "markup") from None
            self.save()

    def _markup_point(self, vertex: Any) -> Point:
        point = self._parse_vertex(vertex)
        if point is None:
            raise BadRequest("markup goes on a point of the board, not 'pass'", "markup")
        return point

    def delete_branch(self, token: str | None) -> None:
        """Delete the current node and its subtree (review). Raises Conflict at the root."""
        with self.lock:
            self._require_all(token)
            if self.mode == "play":
                raise Conflict("in play mode take moves back with undo")
            try:
                self.cursor.delete_branch()
            except ValueError as err:
                raise Conflict(str(err)) from None
            self.save()

    def promote(self, token: str | None) -> None:
        """Make the current line the main line."""
        with self.lock:
            self._require_all(token)
            self.cursor.promote()
            self.save()

    def _show_latest(self) -> None:
        """Show the end of the line being played."""
        self.cursor.to_end()

    def figure_svg(self, chain_labels: bool = False) -> str:
        """The current position as an SVG diagram (tengen.render)."""
        with self.lock:
            return render_svg(self._figure(chain_labels))

    def figure_png(self, chain_labels: bool = False) -> bytes:
        """The current position as a PNG diagram (tengen.render)."""
        with self.lock:
            return render_png(self._figure(chain_labels))

    def _figure(self, chain_labels: bool) -> Any:
        try:
            move = self.cursor.node.move
        except ValueError:
            move = None
        last = move[1] if move else None
        return position_figure(self.cursor.game.board, last, chain_labels=chain_labels)
