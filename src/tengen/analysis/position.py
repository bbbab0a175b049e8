"""A position to analyse, as the engines' protocols describe one: board size, rules, the stones
set up before the first move, and the moves since (so ko and superko are known).

`line_positions` reads the main line of a record into the position after each move.
"""

from __future__ import annotations

from dataclasses import dataclass

from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.game import Game
from tengen.core.rules import Ruleset
from tengen.sgf import GameTree, Node
from tengen.sgf.replay import apply_node, new_game, ruleset_of


@dataclass(frozen=True)
class Position:
    """Setup stones, then `moves`; `initial_player` moves first when there are no moves."""

    width: int
    height: int
    ruleset: Ruleset
    initial: tuple[tuple[Color, Point], ...] = ()
    moves: tuple[tuple[Color, Move], ...] = ()
    initial_player: Color = Color.BLACK

    @property
    def to_play(self) -> Color:
        """The player to move."""
        return self.moves[-1][0].opponent if self.moves else self.initial_player

    def prefix(self, count: int) -> Position:
        """The position after the first `count` moves."""
        return Position(
            self.width, self.height, self.ruleset, self.initial, self.moves[:count],
            self.initial_player,
        )  # fmt: skip

    def game(self) -> Game:
        """A game in this position, for a search to play in (moves replayed permissively, so a
        record's illegal move does not stop the analysis)."""
        game = Game(
            self.width, self.height, self.ruleset,
            permissive=True, free_turns=True, end_after_passes=False,
        )  # fmt: skip
        black = [p for c, p in self.initial if c is Color.BLACK]
        white = [p for c, p in self.initial if c is Color.WHITE]
        if black or white or self.initial_player is not Color.BLACK:
            game.setup(black=black, white=white, to_play=self.initial_player)
        for color, move in self.moves:
            game.play(move, color)
        game.permissive = False
        game.to_play = self.to_play
        return game


class Unanalysable(ValueError):
    """A record whose line cannot be written as setup plus moves (a setup after a move)."""


def line_positions(tree: GameTree) -> tuple[Position, list[Node]]:
    """The whole main line of a Go record as one `Position`, and the node of each move
    (``nodes[k]`` made move ``k``; ``position.prefix(k)`` is the position before it).

    Raises Unanalysable for setup stones after the first move, ValueError for a bad record.
    """
    game = new_game(tree)
    initial: list[tuple[Color, Point]] = []
    moves: list[tuple[Color, Move]] = []
    nodes: list[Node] = []
    first: Color | None = None
    for node in tree.main_line():
        setup = any(k in node.properties for k in ("AB", "AW", "AE"))
        if setup and moves:
            raise Unanalysable(f"{node.describe()}: setup stones after the first move")
        apply_node(game, node)
        if setup:
            initial = [(c, p) for p in game.board.points() if (c := game.board[p]) is not None]
        if "PL" in node.properties and not moves:
            first = game.to_play
        played = node.move
        if played is not None:
            moves.append(played)
            nodes.append(node)
    width, height = tree.size
    ruleset = ruleset_of(tree)[0]
    if moves:
        first = moves[0][0]
    elif first is None:
        first = Color.WHITE if initial and "HA" in tree.root.properties else Color.BLACK
    position = Position(width, height, ruleset, tuple(initial), tuple(moves), first)
    return position, nodes
