"""A built-in player is warm before its clock starts (`core.jit`)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap


def test_a_builtin_player_waits_for_the_compiled_kernels_before_its_game() -> None:
    code = """
        from tengen.core import jit
        from tengen.core.game import Game
        from tengen.match.players import PlayerSpec
        player = PlayerSpec("a", "builtin --playouts 8 --threads 1").make(0)
        before = jit.ready()
        player.new_game(Game(9), None)
        print(before, jit.ready())
        player.close()
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, "TENGEN_JIT": "background"},
        capture_output=True,
        text=True,
        timeout=600,  # on an empty cache the warm-up compiles first
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
