"""``tengen gomocup``: the built-in Gomoku player as a Gomocup brain on stdin and stdout."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    """``tengen gomocup``: the built-in Gomoku player as a Gomocup brain on stdin/stdout."""
    if argv:
        print(
            "usage: tengen gomocup  (no options: managers set brains up with INFO)", file=sys.stderr
        )
        return 2
    from tengen.ai.gomoku_player import GomokuPlayer  # loads only for this command
    from tengen.gomoku.gomocup import Brain, run

    # A fresh seed each process: a manager starts a brain a game, and a fixed seed opened every
    # swap2 game with the same stones.
    return run(Brain(GomokuPlayer(seed=None)), sys.stdin, sys.stdout)
