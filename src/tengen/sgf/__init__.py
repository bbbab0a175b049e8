"""Game records in SGF: bytes -> text (encoding) -> raw trees (grammar) -> typed model (tree).

Layers, each importing only those before it: ``errors``, ``tokens`` (the compiled tokenizer)
and ``grammar`` (no Go knowledge), ``encoding`` (charsets), ``properties`` (value types),
``tree`` (Node, GameTree, parse, serialise), ``replay`` (records on the rules); ``collector``
pauses garbage collection while those two build. Bulk work skips the tree: ``scan`` finds a
file's main line in its bytes and ``bulk.replay_main_line`` replays it in one compiled call,
with the same result as ``parse`` then ``replay``.
"""

from tengen.sgf.errors import SgfError, SgfWarning
from tengen.sgf.properties import escape_text
from tengen.sgf.tree import (
    GameTree,
    Node,
    ParseResult,
    first_difference,
    parse,
    parse_file,
    serialise,
    trees_equal,
)

__all__ = [
    "GameTree",
    "Node",
    "ParseResult",
    "SgfError",
    "SgfWarning",
    "escape_text",
    "first_difference",
    "parse",
    "parse_file",
    "serialise",
    "trees_equal",
]
