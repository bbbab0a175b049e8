"""A cursor over a game tree: the current node, the position there, and edits of the record.

The cursor keeps a core `Game` in step with its node by moving incrementally: stepping forward
applies one node (``replay.apply_node``) and stepping back undoes exactly the actions that node
added, so a move costs the same at move 5 and at move 500. A jump to an unrelated node goes up
to the common ancestor and down again; nothing is ever replayed from the root.

Edits go through the cursor so that the position stays right: playing a move (following an
existing child or starting a variation), deleting a branch, promoting a variation, setup stones
edited in place with every later move re-checked; comments, markup and annotations come from
`tengen.sgf.markup.NodeEdits`. Every value is written with ``properties.serialise``, so the raw
SGF stays valid.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import pairwise

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.errors import IllegalMove, IllegalReason
from tengen.core.game import Game
from tengen.sgf.markup import NodeEdits, has_move
from tengen.sgf.replay import ReplayProblem, apply_node, check_below, new_game
from tengen.sgf.tree import GameTree, Node, Place

_SETUP = ("AB", "AW", "AE")
_HARD = (IllegalReason.OCCUPIED, IllegalReason.OFF_BOARD)


@dataclass
class _Step:
    """A node on the cursor's path: how many game actions came before it, and its problems."""

    node: Node
    mark: int
    move_number: int
    problems: list[ReplayProblem]


class Cursor(NodeEdits):
    """The current node of a game tree and the position there, kept in step incrementally.

    A permissive cursor lets `play` add moves the ruleset refuses (ko, suicide, superko),
    reporting them in `problems`; otherwise `play` raises IllegalMove for them. Records
    themselves are always replayed permissively, their illegal moves listed in `problems`.
    Raises ValueError if the root's SZ is not a board size.
    """

    def __init__(self, tree: GameTree, *, permissive: bool = False) -> None:
        self.tree = tree
        self.permissive = permissive
        self._game = new_game(tree)
        self._path: list[_Step] = []
        self._place = Place(tree.root)  # where the current node is, to name it in problems
        self._enter(tree.root, 0)

    # -- state -------------------------------------------------------------------------------

    @property
    def node(self) -> Node:
        """The current node."""
        return self._path[-1].node

    @property
    def game(self) -> Game:
        """The position at the current node (read it; change it only through the cursor)."""
        return self._game

    @property
    def move_number(self) -> int:
        """How many nodes with a move (B or W) lead from the root to the current node.

        MN is only for display and does not change it (as in ``Node.describe``).
        """
        return self._path[-1].move_number

    @property
    def variations(self) -> list[Node]:
        """The children of the current node, the main continuation first."""
        return list(self.node.children)

    @property
    def problems(self) -> list[ReplayProblem]:
        """What the rules refused in the nodes from the root to the current node, in order."""
        return [p for step in self._path for p in step.problems]

    # -- navigation --------------------------------------------------------------------------

    def forward(self, variation: int = 0) -> Node:
        """Step to the child `variation` (0: the main continuation). Raises IndexError."""
        children = self.node.children
        if not 0 <= variation < len(children):
            raise IndexError(f"{self.node.describe()} has no variation {variation}")
        self._enter(children[variation], variation)
        return self.node

    def back(self) -> Node:
        """Step to the parent, undoing what the current node did. Raises IndexError at the root."""
        if len(self._path) == 1:
            raise IndexError("the root has no parent")
        self._leave()
        return self.node

    def to_start(self) -> Node:
        """Go back to the root."""
        while len(self._path) > 1:
            self._leave()
        return self.node

    def to_end(self) -> Node:
        """Follow the first children to the end of the current line."""
        while self.node.children:
            self._enter(self.node.children[0], 0)
        return self.node

    def to_move(self, n: int) -> Node:
        """Go to the node of move `n` on the current line (the root for 0).

        The current line is the path to the current node continued by first children; move
        `n` is the first node there with `n` moves from the root (see `move_number`).
        Raises ValueError if the line has no move `n`.
        """
        if n < 0:
            raise ValueError(f"no move {n}")
        for step in self._path:
            if step.move_number == n:
                return self.go_to(step.node)
        node, count = self.node, self.move_number
        while count < n and node.children:
            node = node.children[0]
            count += has_move(node)
        if count != n:
            raise ValueError(f"the line has {count} moves, not {n}")
        return self.go_to(node)

    def next_variation(self) -> Node:
        """Go to the next sibling of the current node. Raises IndexError if there is none."""
        return self._sibling(1)

    def previous_variation(self) -> Node:
        """Go to the previous sibling of the current node. Raises IndexError if there is none."""
        return self._sibling(-1)

    def to_main_line(self) -> Node:
        """Go to the main-line node at the current depth, or the last main-line node if the
        main line is shorter."""
        depth = len(self._path) - 1
        node = self.tree.root
        while depth and node.children:
            node = node.children[0]
            depth -= 1
        return self.go_to(node)

    def go_to(self, node: Node) -> Node:
        """Go to any node of the tree: up to the common ancestor, then down.

        Raises ValueError if `node` is not in this tree (a deleted branch included).
        """
        line = [node]
        while line[-1].parent is not None:
            line.append(line[-1].parent)
        line.reverse()
        if line[0] is not self.tree.root or not all(
            any(c is child for c in parent.children) for parent, child in pairwise(line)
        ):
            raise ValueError("the node is not in this game tree")
        common = 0
        limit = min(len(line), len(self._path))
        while common + 1 < limit and line[common + 1] is self._path[common + 1].node:
            common += 1
        while len(self._path) > common + 1:
            self._leave()
        for parent, child in pairwise(line[common:]):
            self._enter(child, next(i for i, c in enumerate(parent.children) if c is child))
        return self.node

    # -- edits of the tree -------------------------------------------------------------------

    def play(self, move: Point | None, color: Color | None = None) -> Node:
        """Play `move` (None passes) for `color` (default: the player to move) and go there.

        A child that already has this move is followed; otherwise a new child is added (a new
        variation after the existing ones). Raises IllegalMove (reason and move number) if the
        rules refuse the move; a permissive cursor plays it anyway, reporting it in
        `problems`, except on an occupied or off-board point.
        """
        color = self._game.to_play if color is None else color
        for i, child in enumerate(self.node.children):
            try:
                if child.move == (color, move):
                    return self.forward(i)
            except ValueError:
                continue  # a child with a broken move value is not this move
        reason = self._game.legality(move, color)
        if reason is not None and (not self.permissive or reason in _HARD):
            raise IllegalMove(reason, move, self.move_number + 1)
        child = self.node.append_child()
        child.set(color.letter, move)
        return self.forward(len(self.node.children) - 1)

    def delete_branch(self) -> Node:
        """Remove the current node and everything below it; go to its parent.

        Raises ValueError at the root.
        """
        if len(self._path) == 1:
            raise ValueError("the root cannot be deleted")
        node = self.node
        parent = self.back()
        parent.children[:] = [c for c in parent.children if c is not node]
        node.parent = None
        return parent

    def promote(self) -> None:
        """Make the current node's line the main line: every ancestor's child on the path moves
        to the front of its children, the other variations keeping their order."""
        for parent, child in pairwise(self._path):
            siblings = parent.node.children
            siblings[:] = [child.node, *(c for c in siblings if c is not child.node)]
        # The path is now all first children: the place and the problems' names change.
        self._place = Place(self.tree.root)
        for depth, step in enumerate(self._path):
            if depth:
                self._place.down(0, step.node)
            where = self._place.describe()
            step.problems = [replace(p, where=where) for p in step.problems]

    def set_setup(
        self,
        black: Iterable[Point] = (),
        white: Iterable[Point] = (),
        empty: Iterable[Point] = (),
        clear: Iterable[Point] = (),
    ) -> list[ReplayProblem]:
        """Edit the current node's setup in place and re-check every later move.

        Points in `black`, `white` and `empty` join AB, AW and AE and leave the other two, so
        a point is in at most one of them; points in `clear` leave all three (the node no
        longer changes them). The node is applied again, then every node below it, in every
        variation, is replayed; the cursor stays where it is. Returns the problems of the node
        and of every node below it (moves that became occupied or illegal).
        Raises ValueError if a point is off the board or given two colours, if the node's setup
        cannot be read, or if the new setup would leave a chain with no liberty; the node is
        then left unchanged.
        """
        wanted: dict[Point, str | None] = {}
        for points, ident in ((black, "AB"), (white, "AW"), (empty, "AE"), (clear, None)):
            for p in points:
                point = self._on_board(p)
                if wanted.get(point, ident) != ident:
                    raise ValueError(f"point {point} is given two colours")
                wanted[point] = ident
        node, step = self.node, self._path[-1]
        lists: dict[str, list[Point]] = {ident: node.get(ident) or [] for ident in _SETUP}
        for ident, points in lists.items():
            kept = [p for p in points if wanted.get(p, ident) == ident]
            added = [p for p, target in wanted.items() if target == ident and p not in points]
            lists[ident] = kept + added
        # Try the new setup on the position before the node (points off the board are left
        # out, as replay does), so that a refused edit leaves the node as it was.
        on_board = {k: [p for p in v if self._game.board.on_board(p)] for k, v in lists.items()}
        self._undo_to(step.mark)
        try:
            self._game.setup(black=on_board["AB"], white=on_board["AW"], empty=on_board["AE"])
        except ValueError:
            step.problems = apply_node(self._game, node, place=self._place)
            raise
        self._game.undo()
        for ident, points in lists.items():
            if points != (node.get(ident) or []):
                # An existing property keeps its place among the node's properties.
                self._set_or_delete(ident, points or None)
        step.problems = apply_node(self._game, node, place=self._place)
        return step.problems + self._check_below()

    # -- internals ---------------------------------------------------------------------------

    def _enter(self, node: Node, index: int) -> None:
        """Apply `node` (the child `index` of the current node, or the root) and make it
        current."""
        mark = self._game.actions
        if self._path:
            self._place.down(index, node)
        problems = apply_node(self._game, node, place=self._place)
        count = (self._path[-1].move_number if self._path else 0) + has_move(node)
        self._path.append(_Step(node, mark, count, problems))

    def _leave(self) -> None:
        """Undo the current node's actions and make its parent current."""
        self._undo_to(self._path.pop().mark)
        self._place.up()

    def _undo_to(self, mark: int) -> None:
        while self._game.actions > mark:
            self._game.undo()

    def _sibling(self, offset: int) -> Node:
        if len(self._path) == 1:
            raise IndexError("the root has no siblings")
        parent = self._path[-2].node
        index = next(i for i, c in enumerate(parent.children) if c is self.node) + offset
        if not 0 <= index < len(parent.children):
            raise IndexError(
                f"{self.node.describe()} has no {'next' if offset > 0 else 'previous'} variation"
            )
        self._leave()
        self._enter(parent.children[index], index)
        return self.node

    def _check_below(self) -> list[ReplayProblem]:
        """Replay every node below the current one, in every variation, and undo it again."""
        return check_below(self._game, self.node, self._place)

    def _on_board(self, point: Point) -> Point:
        point = Point(*point)
        if not self._game.board.on_board(point):
            raise ValueError(
                f"point {point} is off the {self._game.width}x{self._game.height} board"
            )
        return point
