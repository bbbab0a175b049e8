"""An older tengen tree's Gomocup brain for bench matches, its compiled kernels loaded before
it reads START.

Before the brain warmed its player at START itself (`GomokuPlayer.warm`), ``tengen gomocup``
loaded numba's cached kernels during its first move, about a second of CPU counted on that
move's clock. On the shared machine, niced, that alone overran the 2 s a move
allowed under ``byoyomi:0+1x1``: at load average 6-7, 25 to 32 of 52 games against Rapfi were
lost on time at the brain's first move, all of them. Loaded here, before the brain answers
``START`` (which the manager allows 60 s), the first move costs what the others do. The brain
itself is the unchanged ``tengen gomocup`` of whichever source tree PYTHONPATH names.

Run by bench/gomoku_strength.py for its ``--old`` tree, as ``python bench/gomoku_brain.py`` with
``TENGEN_JIT=compiled``; the current tree's brain needs none of it.
"""

from __future__ import annotations

import sys

from tengen.ai.gomoku_player import GomokuPlayer
from tengen.cli import gomocup
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule


def load_kernels() -> None:
    """A short search of a three-stone position under freestyle and renju, untimed by any
    manager, so that numba loads every kernel the brain's moves call."""
    for rule in (Rule.FREESTYLE, Rule.RENJU):
        game = GomokuGame(GomokuRules(rule))
        for point in (Point(7, 7), Point(7, 8), Point(8, 8)):
            game.play(point)
        GomokuPlayer(0, time_limit=0.05).genmove(game)


if __name__ == "__main__":
    load_kernels()
    sys.exit(gomocup.main(sys.argv[1:]))
