"""Markup and annotations of a record's node: comments, point marks, labels, lines, arrows,
dimmed points, move and position annotations, hotspots and move numbers.

`NodeEdits` holds the edits and is mixed into `tengen.sgf.cursor.Cursor`, which supplies the
current node and the board it checks points against. Every value is written with
``properties.serialise`` (through `Node.set`), so the raw SGF stays valid; a bad value raises
before anything changes.
"""

from __future__ import annotations

from tengen.core.coords import Point
from tengen.sgf.tree import Node

# Markup of single points; FF[4] allows at most one of them on a point within a node.
MARKUP = ("TR", "SQ", "CR", "MA", "SL")
# Move annotations (BM and TE hold 1 or 2; DO and IT no value): one per node.
MOVE_ANNOTATIONS = ("BM", "TE", "DO", "IT")
# Position annotations (each 1 or 2): one per node. HO (hotspot) goes with any of them.
POSITION_ANNOTATIONS = ("GB", "GW", "DM", "UC")


class NodeEdits:
    """The markup and annotation edits of the current node; a subclass gives `node` and
    `_on_board`."""

    @property
    def node(self) -> Node:
        """The node the edits apply to."""
        raise NotImplementedError

    def _on_board(self, point: Point) -> Point:
        """`point` as a Point. Raises ValueError if it is off the board."""
        raise NotImplementedError

    @property
    def comment(self) -> str:
        """The comment (C) of the current node, "" if none; setting "" removes it."""
        text: str | None = self.node.get("C")
        return text or ""

    @comment.setter
    def comment(self, text: str) -> None:
        self._set_or_delete("C", text or None)

    def add_markup(self, kind: str, point: Point) -> None:
        """Mark `point` with `kind` (TR, SQ, CR, MA or SL), replacing its other markup.

        Raises ValueError for another kind or a point off the board.
        """
        if kind not in MARKUP:
            raise ValueError(f"unknown markup {kind!r}; expected one of {', '.join(MARKUP)}")
        point = self._on_board(point)
        for other in MARKUP:
            if other != kind:
                self.remove_markup(other, point)
        points: list[Point] = self.node.get(kind) or []
        if point not in points:
            self.node.set(kind, [*points, point])

    def remove_markup(self, kind: str, point: Point) -> None:
        """Remove the markup `kind` from `point` if it is there. Raises ValueError for a kind
        that is not markup."""
        if kind not in MARKUP:
            raise ValueError(f"unknown markup {kind!r}; expected one of {', '.join(MARKUP)}")
        points: list[Point] = self.node.get(kind) or []
        if point in points:
            self._set_or_delete(kind, [p for p in points if p != point] or None)

    def set_label(self, point: Point, text: str | None) -> None:
        """Label `point` with `text` (LB), replacing its label; None or "" removes it.

        Raises ValueError for a point off the board.
        """
        point = self._on_board(point)
        labels: list[tuple[Point, str]] = [
            (p, t) for p, t in self.node.get("LB") or [] if p != point
        ]
        if text:
            labels.append((point, text))
        self._set_or_delete("LB", labels or None)

    def add_line(self, a: Point, b: Point) -> None:
        """Draw a line between `a` and `b` (LN). Raises ValueError if they are the same point
        or off the board."""
        self._add_pair("LN", a, b, directed=False)

    def remove_line(self, a: Point, b: Point) -> None:
        """Remove the line between `a` and `b` (either way round) if there is one."""
        self._remove_pair("LN", {(a, b), (b, a)})

    def add_arrow(self, a: Point, b: Point) -> None:
        """Draw an arrow from `a` to `b` (AR). Raises ValueError if they are the same point or
        off the board."""
        self._add_pair("AR", a, b, directed=True)

    def remove_arrow(self, a: Point, b: Point) -> None:
        """Remove the arrow from `a` to `b` if there is one."""
        self._remove_pair("AR", {(a, b)})

    def set_dimmed(self, points: list[Point]) -> None:
        """Dim `points` from the current node on (DD): the nodes below inherit the dimming
        until one sets its own, as FF[4] says; [] undims every point (``DD[]``).

        DD is written only where it changes the inherited dimming. Raises ValueError for a
        point off the board.
        """
        points = list(dict.fromkeys(self._on_board(p) for p in points))
        parent = self.node.parent
        inherited = dimmed(parent) if parent is not None else []
        self._set_or_delete("DD", None if set(points) == set(inherited) else points)

    def set_move_annotation(self, kind: str | None, value: int = 1) -> None:
        """Annotate the current move: BM (bad) or TE (tesuji) with `value` 1 or 2 (very), DO
        (doubtful) or IT (interesting); None removes the annotation. One per node.

        Raises ValueError for another kind, a value other than 1 or 2, or a node with no move.
        """
        if kind is not None and kind not in MOVE_ANNOTATIONS:
            raise ValueError(f"unknown move annotation {kind!r}")
        if kind is not None and not has_move(self.node):
            raise ValueError(f"{self.node.describe()} has no move to annotate")
        self._set_exclusive(MOVE_ANNOTATIONS, kind, True if kind in ("DO", "IT") else value)

    def set_position_annotation(self, kind: str | None, value: int = 1) -> None:
        """Annotate the position: GB or GW (good for Black or White), DM (even), UC (unclear),
        each with `value` 1 or 2 (very); None removes the annotation. One per node.

        Raises ValueError for another kind or a value other than 1 or 2.
        """
        if kind is not None and kind not in POSITION_ANNOTATIONS:
            raise ValueError(f"unknown position annotation {kind!r}")
        self._set_exclusive(POSITION_ANNOTATIONS, kind, value)

    def set_hotspot(self, value: int | None) -> None:
        """Mark the node as a hotspot (HO) with `value` 1 or 2 (a main hotspot); None removes
        it. Raises ValueError for another value."""
        self._set_or_delete("HO", value)

    def set_move_number(self, n: int | None) -> None:
        """Show the current move as number `n` (MN); None removes it.

        Raises ValueError if `n` is negative or the node has no move.
        """
        if n is not None:
            if n < 0:
                raise ValueError(f"a move number cannot be negative: {n}")
            if not has_move(self.node):
                raise ValueError(f"{self.node.describe()} has no move to number")
        self._set_or_delete("MN", n)

    # -- internals ---------------------------------------------------------------------------

    def _set_or_delete(self, ident: str, value: object) -> None:
        if value is None:
            self.node.delete(ident)
        else:
            self.node.set(ident, value)

    def _set_exclusive(self, group: tuple[str, ...], kind: str | None, value: object) -> None:
        if kind is not None:
            self.node.set(kind, value)  # first, so that a bad value changes nothing
        for other in group:
            if other != kind:
                self.node.delete(other)

    def _add_pair(self, ident: str, a: Point, b: Point, *, directed: bool) -> None:
        a, b = self._on_board(a), self._on_board(b)
        if a == b:
            raise ValueError(f"{ident} needs two different points")
        pairs: list[tuple[Point, Point]] = self.node.get(ident) or []
        if (a, b) in pairs or (not directed and (b, a) in pairs):
            return
        self.node.set(ident, [*pairs, (a, b)])

    def _remove_pair(self, ident: str, matches: set[tuple[Point, Point]]) -> None:
        pairs: list[tuple[Point, Point]] = self.node.get(ident) or []
        kept = [pair for pair in pairs if pair not in matches]
        if len(kept) != len(pairs):
            self._set_or_delete(ident, kept or None)


def dimmed(node: Node) -> list[Point]:
    """The points dimmed at `node`: its own DD, else the nearest ancestor's (FF[4]: DD is
    inherited, and ``DD[]`` ends it). Raises ValueError if that DD does not read."""
    n: Node | None = node
    while n is not None:
        if "DD" in n.properties:
            points: list[Point] = n.get("DD")
            return points
        n = n.parent
    return []


def has_move(node: Node) -> int:
    """1 if the node has a move (B or W, whatever its value), else 0: what move numbers count."""
    return int("B" in node.properties or "W" in node.properties)
