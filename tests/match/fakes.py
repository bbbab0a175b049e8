"""A scripted GTP engine for the failure paths: it passes, until its k-th genmove, where it
crashes, hangs or answers garbage (as ``fake.py MODE K``)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

FAKE_ENGINE = textwrap.dedent(
    """
    import sys, time
    mode, k = sys.argv[1], int(sys.argv[2])
    known = ["boardsize", "clear_board", "komi", "play", "genmove", "quit", "list_commands"]
    moves = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        reply = ""
        if words[0] == "genmove":
            moves += 1
            reply = "pass"
            if moves == k and mode == "crash":
                sys.stderr.write("search: out of cheese\\n")
                sys.stderr.flush()
                sys.exit(11)
            if moves == k and mode == "hang":
                time.sleep(600)
            if moves == k and mode == "garbage":
                sys.stdout.write("lorem ipsum\\n\\n")
                sys.stdout.flush()
                continue
            if moves == k and mode == "offboard":
                reply = "Z99"
        elif words[0] == "list_commands":
            reply = "\\n".join(known)
        sys.stdout.write("= " + reply + "\\n\\n")
        sys.stdout.flush()
        if words[0] == "quit":
            break
    """
)


def fake_engine(folder: Path, mode: str, k: int) -> str:
    """The command line of a fake engine that misbehaves (`mode`) at its `k`-th genmove."""
    script = folder / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    return f"{sys.executable} {script} {mode} {k}"
