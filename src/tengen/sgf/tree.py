"""The game record model: nodes with raw and typed property access, games, parse and serialise.

A ``Node`` keeps its properties exactly as read (raw values, escapes kept), so unknown and
private properties survive a round trip untouched; ``get``/``set`` convert through
``sgf.properties``. A ``GameTree`` is one game of a collection. ``parse`` goes bytes -> text
(``sgf.encoding``) -> nodes (``sgf.grammar``); ``serialise`` goes back, always in UTF-8.
Nothing here replays moves on a board.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from tengen.core.color import Color
from tengen.core.coords import Point, check_size
from tengen.sgf import collector, grammar, properties
from tengen.sgf.encoding import decode, encode
from tengen.sgf.errors import SgfError, SgfWarning
from tengen.sgf.properties import SizeSource

_IDENT = re.compile(r"[A-Z]+")


class Node(grammar.RawNode):
    """One node of a game tree: raw properties (insertion order kept), children and parent.

    ``Node(properties, parent)`` makes a node pointing to ``parent``; use ``append_child`` to
    also link it as a child. The constructor is RawNode's own, not wrapped, as the parser makes
    one node per move.
    """

    __slots__ = ()

    properties: dict[str, list[str]]
    children: list[Node]  # type: ignore[assignment]
    parent: Node | None

    def append_child(self, properties: dict[str, list[str]] | None = None) -> Node:
        """Create a node with these raw properties as the last child of this one, and return it."""
        child = Node(properties, self)
        self.children.append(child)
        return child

    @property
    def root(self) -> Node:
        """The root of this node's game tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def board_size(self) -> tuple[int, int]:
        """(columns, rows) from the root's SZ, 19x19 without one. Raises ValueError if invalid."""
        root = self.root
        values = root.properties.get("SZ")
        if not values:
            return 19, 19
        width, height = properties.interpret_size(values[0])
        check_size(width, height)
        return width, height

    def get(self, ident: str) -> Any:
        """The typed value of a property (see ``sgf.properties``), or None if it is absent.

        Moves that pass are None too: use ``move`` to tell a pass from no move.
        Raises ValueError if the raw value does not fit the property's type.
        """
        values = self.properties.get(ident)
        if values is None:
            return None
        return properties.interpret(ident, values, self.board_size)

    def set(self, ident: str, value: Any) -> None:
        """Store a typed value as the property's raw values. Raises ValueError if it doesn't fit."""
        self.set_raw(ident, properties.serialise(ident, value))

    def get_raw(self, ident: str) -> list[str] | None:
        """The raw values of a property (escapes kept), or None if it is absent."""
        return self.properties.get(ident)

    def set_raw(self, ident: str, values: list[str]) -> None:
        """Store raw values. Raises ValueError for a bad identifier or an empty list of values."""
        if not _IDENT.fullmatch(ident):
            raise ValueError(f"invalid property identifier: {ident!r}")
        if not values:
            raise ValueError(f"property {ident} needs at least one value")
        self.properties[ident] = list(values)

    def delete(self, ident: str) -> None:
        """Remove a property if present."""
        self.properties.pop(ident, None)

    @property
    def move(self) -> tuple[Color, Point | None] | None:
        """The move of this node as (colour, point or None for a pass), or None if it has none.

        Raises ValueError if the move's value is not a point. A ``tt`` reads the root's SZ, a
        walk to the root: code going down a line knows the size and calls `move_at`.
        """
        return self.move_at(self.board_size)

    def move_at(self, size: SizeSource) -> tuple[Color, Point | None] | None:
        """`move` on a board of `size` (or a function giving it, called only for ``tt``)."""
        values = self.properties.get("B")
        if values:
            return Color.BLACK, properties.interpret_move(values[0], size)
        values = self.properties.get("W")
        if values:
            return Color.WHITE, properties.interpret_move(values[0], size)
        return None

    @property
    def path(self) -> list[int]:
        """Child indices from the root down to this node: ``[]`` for the root, ``[0, 1]``, ..."""
        indices = []
        node = self
        while node.parent is not None:
            indices.append(_index_of(node.parent.children, node))
            node = node.parent
        return indices[::-1]

    @property
    def move_number(self) -> int:
        """How many B/W moves there are from the root down to this node, this node included."""
        count = 0
        node: Node | None = self
        while node is not None:
            count += "B" in node.properties or "W" in node.properties
            node = node.parent
        return count

    def line_copy(self) -> GameTree:
        """A new record of the line from the root down to this node alone: each node's
        properties copied, no variations (what an engine is given, or a game goes on from)."""
        path: list[Node] = []
        at: Node | None = self
        while at is not None:
            path.append(at)
            at = at.parent
        root = Node({k: list(v) for k, v in path[-1].properties.items()})
        last = root
        for step in reversed(path[:-1]):
            last = last.append_child({k: list(v) for k, v in step.properties.items()})
        return GameTree(root)

    def describe(self) -> str:
        """A short name for messages: the move number and, off the main line, the variation path.

        The path lists child indices from the root with runs of first children written
        ``0*n``, so ``move 52`` is on the main line and ``move 12, path 0*9.2.0`` is not (see
        `Place`). It walks to the root: a walk down the tree names its nodes with a `Place`.
        """
        node = self.root
        place = Place(node)
        for index in self.path:
            node = node.children[index]
            place.down(index, node)
        return place.describe()


class Place:
    """Where a walk down a game tree stands: the move number and the variation path in runs.

    Kept step by step (`down` to a child, `up` again), so naming the node costs no walk to the
    root and describing every node of a tree takes time linear in its size. A path of more
    than `SHOWN` parts (deeply nested variations) is named by its first and last parts.
    """

    SHOWN = 12

    __slots__ = ("moves", "parts")

    def __init__(self, root: Node) -> None:
        """Stand at `root`."""
        self.moves = [_has_move(root)]  # the move number at each depth, the root's first
        # The path in runs: a child index > 0 as itself, a run of k first children as -k.
        self.parts: list[int] = []

    def down(self, index: int, child: Node) -> None:
        """Step to `child`, the child `index` of the node here."""
        self.moves.append(self.moves[-1] + _has_move(child))
        parts = self.parts
        if index:
            parts.append(index)
        elif parts and parts[-1] < 0:
            parts[-1] -= 1
        else:
            parts.append(-1)

    def up(self) -> None:
        """Step back to the parent of the node here."""
        self.moves.pop()
        parts = self.parts
        if parts[-1] < -1:
            parts[-1] += 1
        else:
            parts.pop()

    def describe(self) -> str:
        """``root``, ``move 52`` on the main line, ``move 12, path 0*9.2.0`` elsewhere."""
        parts = self.parts
        if not parts:
            return "root"
        if len(parts) == 1 and parts[0] < 0:
            return f"move {self.moves[-1]}"
        half = self.SHOWN // 2
        if len(parts) <= self.SHOWN:
            shown = [_part(p) for p in parts]
        else:
            hidden = f"[{len(parts) - 2 * half} more]"
            shown = [*map(_part, parts[:half]), hidden, *map(_part, parts[-half:])]
        return f"move {self.moves[-1]}, path {'.'.join(shown)}"


def _has_move(node: Node) -> int:
    return int("B" in node.properties or "W" in node.properties)


def _part(part: int) -> str:
    return str(part) if part >= 0 else "0" if part == -1 else f"0*{-part}"


def _index_of(siblings: list[Node], node: Node) -> int:
    for i, sibling in enumerate(siblings):
        if sibling is node:
            return i
    raise ValueError("node is not a child of its parent")


class GameTree:
    """One game: a root node and every node under it."""

    def __init__(self, root: Node | None = None) -> None:
        self.root = Node() if root is None else root

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows) from SZ, 19x19 by default. Raises ValueError if SZ is invalid."""
        return self.root.board_size()

    @property
    def game_type(self) -> int:
        """GM: 1 for Go (the default), 4 for Gomoku. Raises ValueError if GM is not a number."""
        values = self.root.properties.get("GM")
        return properties.interpret_number(values[0]) if values else 1

    def main_line(self) -> list[Node]:
        """The root and every first child after it."""
        line = [self.root]
        while line[-1].children:
            line.append(line[-1].children[0])
        return line

    def nodes(self) -> Iterator[Node]:
        """Every node, depth first in file order."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass
class ParseResult:
    """The games of a collection, the warnings of lenient reading, and the charset decoded."""

    games: list[GameTree]
    warnings: list[SgfWarning] = field(default_factory=list)
    encoding: str = "str"


def parse(data: bytes | str, *, strict: bool = False) -> ParseResult:
    """Read an SGF collection from bytes (charset from CA or detected) or from decoded text.

    Raises SgfError (with line and column) if there is no game tree or, in strict mode, at the
    first deviation from FF[4]; lenient mode repairs what it can and lists warnings instead.
    """
    collecting = collector.pause(collect_due=True)
    try:
        if isinstance(data, str):
            text, encoding, warnings = data, "str", []
        else:
            decoded = decode(data, strict=strict)
            text, encoding, warnings = decoded.text, decoded.encoding, list(decoded.warnings)
        roots, grammar_warnings = grammar.parse(text, strict=strict, node_class=Node)
        return ParseResult([GameTree(r) for r in roots], warnings + grammar_warnings, encoding)
    finally:
        collector.resume(collecting)


def parse_file(path: str | os.PathLike[str], *, strict: bool = False) -> ParseResult:
    """Read an SGF file; errors and warnings name the file.

    Raises SgfError as ``parse`` does, and OSError if the file cannot be read.
    """
    with open(path, "rb") as f:
        data = f.read()
    name = os.fspath(path)
    try:
        result = parse(data, strict=strict)
    except SgfError as e:
        raise e.with_path(name) from None
    result.warnings = [replace(w, path=name) for w in result.warnings]
    return result


def serialise(games: GameTree | list[GameTree]) -> bytes:
    """Write games as one UTF-8 SGF collection, with CA[UTF-8] in each root (games unchanged).

    Every property, known or not, is written from its raw values.
    Raises UnicodeEncodeError if a value holds a lone surrogate.
    """
    if isinstance(games, GameTree):
        games = [games]
    roots = []
    for game in games:
        root = grammar.RawNode({**game.root.properties, "CA": ["UTF-8"]})
        root.children = game.root.children  # type: ignore[assignment]
        roots.append(root)
    return encode(grammar.serialise(roots))


def first_difference(a: Node, b: Node) -> str | None:
    """Where two trees differ (properties or shape), as a message naming the node; None if equal."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x.properties != y.properties:
            return f"{x.describe()}: {x.properties} != {y.properties}"
        if len(x.children) != len(y.children):
            return f"{x.describe()}: {len(x.children)} != {len(y.children)} children"
        stack.extend(zip(x.children, y.children, strict=True))
    return None


def trees_equal(a: Node, b: Node) -> bool:
    """Whether two trees have the same properties (raw values) and the same shape."""
    return first_difference(a, b) is None
