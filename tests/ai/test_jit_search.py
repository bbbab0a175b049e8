"""The search keeps to its time on the kernels' interpreted twins (`core.jit`)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap


def test_a_search_on_the_twins_keeps_to_its_time() -> None:
    # Interpreted, one chunk of simulations takes far longer than the move's time: the
    # search must stop inside it.
    code = """
        import time
        from tengen import Game
        from tengen.ai.mcts import MctsPlayer
        g = Game(9)
        p = MctsPlayer(seconds=0.5, threads=1)
        start = time.monotonic()
        move = p.genmove(g, g.to_play)
        print(time.monotonic() - start < 5, move is not None)
        p.close()
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, "TENGEN_JIT": "interpreted"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
