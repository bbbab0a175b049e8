"""The current node's markup for the page, and the edits its markup tools make.

`view` is the ``markup`` of a Go game's state: point marks (TR, SQ, CR, MA, SL), labels (LB),
arrows (AR), lines (LN) and the dimmed points (DD, inherited down the tree). Markup is kept
as it came in an upload (`upload.check_record` does not check it), so a value that does not
read, or a point off the board, is left out of the drawing rather than refused. `toggle` is
one click of a markup tool, made with `tengen.sgf.markup.NodeEdits`.
"""

from __future__ import annotations

from typing import Any

from tengen.core.coords import Point
from tengen.sgf.markup import MARKUP, NodeEdits, dimmed
from tengen.sgf.tree import Node

MARKS = ("TR", "SQ", "CR", "MA")  # the point marks the page's tools add (SL is only drawn)
PAIRS = ("AR", "LN")  # drawn from one point to another
KINDS = (*MARKS, "LB", *PAIRS, "DD", "erase")
MAX_LABEL = 4  # characters of a label: what fits on a point ("A", "12", "361")
_NAMES = {"AR": "an arrow", "LN": "a line"}


def _read(node: Node, ident: str) -> list[Any]:
    """The node's value of a list property, [] when absent or unreadable."""
    try:
        return list(node.get(ident) or [])
    except ValueError:
        return []


def _dimmed(node: Node) -> list[Point]:
    """The points dimmed at `node`, [] when its DD does not read."""
    try:
        return dimmed(node)
    except ValueError:
        return []


def view(node: Node, width: int, height: int) -> dict[str, list[list[Any]]]:
    """The node's markup on a `width` x `height` board, as ``[col, row, ...]`` lists: marks
    ``[c, r, kind]``, labels ``[c, r, text]``, arrows and lines ``[c0, r0, c1, r1]``,
    dimmed ``[c, r]``."""

    def on(p: Point) -> bool:
        return p.col < width and p.row < height

    def pairs(ident: str) -> list[list[Any]]:
        return [[a.col, a.row, b.col, b.row] for a, b in _read(node, ident) if on(a) and on(b)]

    return {
        "marks": [[p.col, p.row, kind] for kind in MARKUP for p in _read(node, kind) if on(p)],
        "labels": [[p.col, p.row, text] for p, text in _read(node, "LB") if on(p)],
        "arrows": pairs("AR"),
        "lines": pairs("LN"),
        "dimmed": [[p.col, p.row] for p in _dimmed(node) if on(p)],
    }


def toggle(
    edits: NodeEdits, kind: str, point: Point, to: Point | None = None, text: str | None = None
) -> None:
    """One click of a markup tool at `point`: add the mark `kind` there, or remove it if it
    is there. A label (LB) needs `text` to be added; an arrow or line (AR, LN) goes to `to`;
    DD dims or undims the point; ``erase`` removes every mark at the point.

    Raises ValueError for an unknown kind, a missing `text` or `to`, an arrow or line to its
    own point, or a point off the board.
    """
    node = edits.node
    if kind in MARKS:
        if point in _read(node, kind):
            edits.remove_markup(kind, point)
        else:
            edits.add_markup(kind, point)
    elif kind == "LB":
        if any(p == point for p, _ in _read(node, "LB")):
            edits.set_label(point, None)
        elif text and text.strip():
            edits.set_label(point, text)
        else:
            raise ValueError("a label needs its text")
    elif kind in PAIRS:
        if to is None:
            raise ValueError(f"{_NAMES[kind]} needs a 'to' point")
        if to == point:
            raise ValueError(f"{_NAMES[kind]} must go to another point")
        pairs = _read(node, kind)
        if kind == "AR":
            (edits.remove_arrow if (point, to) in pairs else edits.add_arrow)(point, to)
        else:
            there = (point, to) in pairs or (to, point) in pairs
            (edits.remove_line if there else edits.add_line)(point, to)
    elif kind == "DD":
        points = _dimmed(node)
        edits.set_dimmed([p for p in points if p != point] if point in points else [*points, point])
    elif kind == "erase":
        erase(edits, point)
    else:
        raise ValueError(f"unknown markup {kind!r} (known: {', '.join(KINDS)})")


def erase(edits: NodeEdits, point: Point) -> None:
    """Remove every mark at `point`: its point mark, label and dimming, and the arrows and
    lines that start or end there."""
    node = edits.node
    for kind in MARKUP:
        if point in _read(node, kind):
            edits.remove_markup(kind, point)
    if any(p == point for p, _ in _read(node, "LB")):
        edits.set_label(point, None)
    for a, b in _read(node, "AR"):
        if point in (a, b):
            edits.remove_arrow(a, b)
    for a, b in _read(node, "LN"):
        if point in (a, b):
            edits.remove_line(a, b)
    points = _dimmed(node)
    if point in points:
        edits.set_dimmed([p for p in points if p != point])
