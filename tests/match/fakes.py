"""Scripted engines for the failure paths: a GTP engine that passes until its k-th genmove,
and a Gomocup brain that plays fixed points until its k-th move, where they crash, hang,
answer garbage or (the engine, "cold") take two seconds (as ``fake_engine.py MODE K
[PIDS]``, ``fake_brain.py MODE K``). The engine given a folder PIDS leaves an empty file
there named by its process id."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

FAKE_ENGINE = textwrap.dedent(
    """
    import os, sys, time
    mode, k = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:
        open(os.path.join(sys.argv[3], str(os.getpid())), "w").close()
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
            if moves == k and mode == "cold":
                time.sleep(2)
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


def fake_engine(folder: Path, mode: str, k: int, pids: Path | None = None) -> str:
    """The command line of a fake engine that misbehaves (`mode`) at its `k`-th genmove (and
    says its process id in `pids`)."""
    script = folder / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    return f"{sys.executable} {script} {mode} {k}" + (f" {pids}" if pids else "")


FAKE_BRAIN = textwrap.dedent(
    """
    import sys, time
    mode, k = sys.argv[1], int(sys.argv[2])
    log = open(sys.argv[3], "a") if len(sys.argv) > 3 else None
    moves, in_board = 0, False
    for line in sys.stdin:
        words = line.replace(",", " ").split()
        if not words:
            continue
        command = words[0].upper()
        if in_board and command != "DONE":
            continue
        reply = None
        if command in ("START", "RECTSTART", "RESTART"):
            reply = "OK"
        elif command == "BOARD":
            in_board = True
        elif command in ("BEGIN", "TURN", "DONE"):
            in_board = False
            moves += 1
            reply = ["0,0", "14,0", "0,14", "14,14", "7,0", "0,7"][(moves - 1) % 6]
            if moves == k and mode == "crash":
                sys.stderr.write("brain: out of cheese\\n")
                sys.exit(11)
            if moves == k and mode == "hang":
                time.sleep(600)
            if moves == k and mode == "cold":
                time.sleep(2)
            if moves == k and mode == "garbage":
                reply = "lorem ipsum"
            if moves == k and mode == "occupied":
                reply = f"{words[1]},{words[2]}"
        elif command == "INFO" and log is not None:
            log.write(line.strip() + "\\n")
            log.flush()
        elif command == "END":
            break
        if reply is not None:
            sys.stdout.write(reply + "\\r\\n")
            sys.stdout.flush()
    """
)


def fake_brain(folder: Path, mode: str, k: int, log: Path | None = None) -> str:
    """The command line of a Gomocup brain that plays the corners of a 15x15 board, then the
    middle of two sides, and misbehaves (`mode`: crash, hang, garbage, occupied: the
    opponent's point) at its `k`-th move; with `log`, it writes there each ``INFO`` line."""
    script = folder / "fake_brain.py"
    script.write_text(FAKE_BRAIN)
    return f"{sys.executable} {script} {mode} {k}" + (f" {log}" if log else "")
