"""A Go session's state, which all its modes share: the cursor on the record (the position
shown), the phase of the game, the clocks and the timer that ends a game when a flag falls.

`GoSessionBase` is the base class of the Go session's mode mixins (`scoring_mode`,
`review_mode`) and of `session.GameSession`, which plays; `go_view` draws it for the page.
They all import this module and none of them each other, so the modes stay apart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from tengen.core.color import Color
from tengen.core.coords import Move, Point, to_gtp
from tengen.core.rules import Ruleset
from tengen.sgf import GameTree, Node
from tengen.sgf.cursor import Cursor
from tengen.web.clocks import GameClocks
from tengen.web.meta import SessionMeta
from tengen.web.players import GoSeat
from tengen.web.seats import BadRequest, SessionBase, parse_vertex
from tengen.web.store import Store


def node_index(tree: GameTree, node: Node) -> int:
    """The node's place in the tree's nodes, depth first (as the tree view counts them)."""
    return next(i for i, n in enumerate(tree.nodes()) if n is node)


def node_move(node: Node) -> tuple[Color, Move] | None:
    """The node's move, None for no move or an unreadable one."""
    try:
        return node.move
    except ValueError:
        return None


def _is_pass(node: Node) -> bool:
    move = node_move(node)
    return move is not None and move[1] is None


def vertex_name(point: Move, height: int) -> str:
    """GTP name of a move; columns past Z (boards over 25) have none, so '?'."""
    return "?" if point is not None and point.col >= 25 else to_gtp(point, height)


class GoSessionBase(SessionBase[GoSeat]):
    """The state of one game of Go that its modes share (`session.GameSession` is the whole
    session)."""

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

    def _parse_vertex(self, vertex: Any) -> Move:
        game = self.cursor.game
        return parse_vertex(vertex, game.width, game.height)

    def _show_latest(self) -> None:
        """Show the end of the line being played."""
        self.cursor.to_end()

    # -- saving ----------------------------------------------------------------------------

    def _sync_record(self) -> None:
        """Remember the node shown; let the clock of the player to move run (none while the
        game is not in play) and keep the clocks."""
        self.meta.node = node_index(self.tree, self.cursor.node)
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

    # -- game information --------------------------------------------------------------------

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
