"""Helpers for the importer tests: where the samples are, and replaying an imported game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.core import Game
from tengen.core.coords import from_sgf
from tengen.sgf import GameTree, Node

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = ROOT / "tests" / "data" / "formats"


def corpus(name: str) -> Path:
    """A sample record of ../shared/corpus; skips the test when the corpus is absent."""
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared corpus is not checked out here)")
    return path


def info(tree: GameTree, *idents: str) -> dict[str, list[str]]:
    """The root's raw values of `idents` (absent ones left out)."""
    return {i: tree.root.properties[i] for i in idents if i in tree.root.properties}


def moves(nodes: list[Node]) -> list[str]:
    """Moves as ``B[dd]`` / ``W[]`` strings, nodes without a move left out."""
    out = []
    for node in nodes:
        for color in ("B", "W"):
            if color in node.properties:
                out.append(f"{color}[{node.properties[color][0]}]")
    return out


def replay(nodes: list[Node]) -> Game:
    """Play `nodes` (a root first, then its line) on a permissive board: AB stones, then every
    move. Raises IllegalMove for a move on an occupied point, as a flipped coordinate soon gives.
    """
    width, height = nodes[0].board_size()
    game = Game(width, height, permissive=True)
    black = [from_sgf(p, width, height) for p in nodes[0].properties.get("AB", [])]
    if black:
        game.setup(black=[p for p in black if p is not None])
    for node in nodes[1:]:
        if node.move is not None:
            color, point = node.move
            game.play(point, color)
    return game
