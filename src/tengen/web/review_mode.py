"""The review mode of a Go session: move about the record's tree, edit comments, markup and
variations, and draw the position shown as a diagram.

A mixin of `session.GameSession` on `go_base.GoSessionBase`. Editing needs every person's
seat (`_require_all`): in a game between two people, each reviews a copy instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tengen.core.coords import Point
from tengen.render import position_figure, render_png, render_svg
from tengen.sgf import Node
from tengen.web import markup_view
from tengen.web.go_base import GoSessionBase
from tengen.web.seats import BadRequest, Conflict


class ReviewMode(GoSessionBase):
    """The review and editing actions of a Go session, and its diagrams."""

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
