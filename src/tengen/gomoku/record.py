"""Gomoku games to and from SGF ``GM[4]`` trees (and so from Piskvork ``.psq``, which
``sgf.formats.psq`` reads into such a tree).

A tree gives the board size (``SZ``, 15x15 without one), the rule (``RU``, freestyle without
one) and the main line's ``B``/``W`` moves; the game judges the result itself, so ``RE`` is
read only for a resignation the moves cannot show. A renju record may end on Black's forbidden
stone: the foul loses, and ``RE`` is written ``W+F``. Setup stones (``AB``/``AW``) and passes have
no place in a Gomoku game and are refused. Written trees carry ``GM[4]``, ``SZ``, ``RU`` and,
for a finished game, ``RE`` as SGF writes it: ``B+`` (a win without a score), ``B+R``, ``0``.
The opening's colour swaps have no SGF property and are not written.
"""

from __future__ import annotations

from tengen.core.color import Color
from tengen.core.coords import to_sgf
from tengen.gomoku.game import GomokuGame
from tengen.gomoku.rules import GomokuRules, Rule
from tengen.sgf.properties import escape_text
from tengen.sgf.tree import GameTree, Node

GOMOKU = 4


def game_from_tree(tree: GameTree, rules: GomokuRules | None = None) -> GomokuGame:
    """Replay a ``GM[4]`` tree's main line; `rules` overrides the tree's ``RU`` and ``SZ``.

    Raises ValueError if the tree is not Gomoku, its RU names an unknown rule, it has setup
    stones or a pass, or a value is malformed; GomokuIllegal at the first illegal move.
    """
    if tree.game_type != GOMOKU:
        raise ValueError(f"not a Gomoku record: GM[{tree.game_type}], expected GM[4]")
    root = tree.root
    if rules is None:
        width, height = tree.size if "SZ" in root.properties else (15, 15)
        ru = root.get("RU")
        rules = (
            GomokuRules.parse(ru, width, height)
            if ru
            else GomokuRules(Rule.FREESTYLE, width, height)
        )
    game = GomokuGame(rules)
    for node in tree.main_line():
        if "AB" in node.properties or "AW" in node.properties:
            raise ValueError(f"{node.describe()}: setup stones (AB/AW) are not supported")
        move = node.move
        if move is None:
            continue
        color, point = move
        if point is None:
            raise ValueError(f"{node.describe()}: Gomoku has no pass")
        game.play(point, color, foul_loses=True)
    result = root.get("RE") or ""
    if not game.is_over and result[:2] in ("B+", "W+") and result[2:3].upper() == "R":
        game.resign(Color.WHITE if result[0] == "B" else Color.BLACK)
    return game


def game_to_tree(game: GomokuGame) -> GameTree:
    """A ``GM[4]`` tree of the game's moves, rule, size and (when finished) result."""
    rules = game.rules
    size = str(rules.width) if rules.width == rules.height else f"{rules.width}:{rules.height}"
    properties = {"GM": [str(GOMOKU)], "FF": ["4"], "SZ": [size], "RU": [rules.rule.value]}
    if game.is_over:
        properties["RE"] = [escape_text(_sgf_result(game))]
    root = Node(properties)
    node = root
    for color, point in game.moves:
        node = node.append_child({color.letter: [to_sgf(point)]})
    return GameTree(root)


def _sgf_result(game: GomokuGame) -> str:
    """The game's result as SGF's RE writes it."""
    if game.winner is None:
        return "0"
    return f"{game.winner.letter}+{'R' if game.resigned else 'F' if game.foul else ''}"


def game_to_psq(game: GomokuGame) -> str:
    """The game as a Piskvork ``.psq`` record: the board line, then ``x,y,0`` a move from 1.

    Move times are not kept by tengen and are written as 0; no trailer is written, as
    ``sgf.formats.psq`` (and Piskvork) read the moves up to the first line of another shape.
    """
    rules = game.rules
    lines = [f"Piskvorky {rules.width}x{rules.height}, 11:11, 0"]
    lines += [f"{point.col + 1},{point.row + 1},0" for _, point in game.moves]
    return "\r\n".join(lines) + "\r\n"
