"""``tengen gtp``: the built-in player as a GTP engine on stdin and stdout."""

from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO

from tengen.ai.levels import DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL
from tengen.ai.mcts import MctsPlayer
from tengen.cli import arguments as arg
from tengen.core.rules import Ruleset
from tengen.gtp.engine import GtpEngine
from tengen.gtp.stream import Stream


def serve(engine: GtpEngine, source: BinaryIO, sink: BinaryIO) -> None:
    """Answer GTP lines from `source` on `sink`, flushing each response, until quit or EOF.

    Lines are read on a thread of their own, so that an analysis (``lz-analyze``) searches
    until the next line arrives: that line ends the analysis's response and is then answered.
    """
    lines: queue.Queue[bytes | None] = queue.Queue()
    threading.Thread(target=_read_lines, args=(source, lines), daemon=True).start()

    def write(text: str) -> None:
        sink.write(text.encode("utf-8"))
        sink.flush()

    ahead: list[bytes | None] = []
    while (raw := ahead.pop() if ahead else lines.get()) is not None:
        response = engine.handle_line(raw.decode("utf-8", errors="replace"))
        if isinstance(response, Stream):
            write(response.head)
            stop = threading.Event()
            if response.interruptible:
                worker = threading.Thread(target=_run_stream, args=(response, write, stop))
                worker.start()
                ahead.append(lines.get())  # the next line, or the end of input, stops it
                stop.set()
                worker.join()
            else:
                _run_stream(response, write, stop)
            write("\n")
        elif response is not None:
            write(response)
        if engine.quit_requested:
            return


def _read_lines(source: BinaryIO, lines: queue.Queue[bytes | None]) -> None:
    """Put every line of `source` on `lines`, then None at the end of input.

    A file with a descriptor is read with os.read: a thread left waiting in a buffered read
    of stdin when the process exits after ``quit`` would make Python abort at shutdown.
    """
    try:
        fd = source.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation is both: an in-memory stream
        for raw in source:
            lines.put(raw)
    else:
        rest = b""
        while chunk := os.read(fd, 65536):
            *complete, rest = (rest + chunk).split(b"\n")
            for raw in complete:
                lines.put(raw + b"\n")
        if rest:
            lines.put(rest)
    lines.put(None)


def _run_stream(stream: Stream, write: Callable[[str], None], stop: threading.Event) -> None:
    """Run a streamed response; a failure once it has begun is reported on stderr."""
    try:
        stream.run(write, stop)
    except Exception as err:
        print(f"tengen gtp: {type(err).__name__}: {err}", file=sys.stderr, flush=True)


def _gtp(args: argparse.Namespace) -> int:
    """``tengen gtp``: the built-in player (MCTS at --level) on stdin and stdout until quit
    or EOF; it also answers the analysis commands."""
    ruleset: Ruleset = args.rules
    if args.komi is not None:
        ruleset = ruleset.with_komi(args.komi)
    player = MctsPlayer(
        args.level,
        playouts=args.playouts,
        seconds=args.seconds,
        threads=args.threads,
        seed=args.seed,
        resign=args.resign,
    )
    try:
        engine = GtpEngine(player, size=args.size, ruleset=ruleset, analyser=player)
        serve(engine, sys.stdin.buffer, sys.stdout.buffer)
    finally:
        player.close()
    return 0


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen gtp [--rules NAME] [--size N] [--level L] ...``."""
    gtp = commands.add_parser("gtp", help="play as a GTP version 2 engine on stdin/stdout")
    gtp.add_argument(
        "--rules", type=arg.ruleset, default="chinese", help="ruleset name (default: chinese)"
    )
    gtp.add_argument("--size", type=arg.size, default=19, help="board size (default: 19)")
    gtp.add_argument("--komi", type=arg.komi, help="komi (default: the ruleset's)")
    gtp.add_argument(
        "--level",
        type=arg.level,
        default=DEFAULT_LEVEL,
        help=f"strength {MIN_LEVEL} (beginner) to {MAX_LEVEL} (default: {DEFAULT_LEVEL})",
    )
    gtp.add_argument(
        "--playouts", type=arg.count, help="simulations per move (replaces the level's)"
    )
    gtp.add_argument("--seconds", type=arg.seconds, help="seconds per move (replaces the level's)")
    gtp.add_argument("--threads", type=arg.count, help="search threads (default: one per core)")
    gtp.add_argument("--seed", type=int, default=0, help="seed of the player (default: 0)")
    gtp.add_argument(
        "--resign",
        type=arg.resign_rate,
        help="resign below this win rate, 0 never (default: the level's, 0.02 to 0.08)",
    )
    gtp.set_defaults(handler=_gtp)
