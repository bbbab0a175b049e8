"""The ``tengen`` command line: ``tengen gtp`` speaks GTP on stdin and stdout."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import BinaryIO

from tengen import __version__
from tengen.ai.players import RandomPlayer
from tengen.core.rules import Ruleset
from tengen.gtp.engine import MAX_SIZE, GtpEngine


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand named in `argv` (default: the process arguments); the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "gtp":
        return _gtp(args)
    parser.print_help(sys.stderr)
    return 2


def serve(engine: GtpEngine, source: BinaryIO, sink: BinaryIO) -> None:
    """Answer GTP lines from `source` on `sink`, flushing each response, until quit or EOF."""
    for raw in source:
        response = engine.handle_line(raw.decode("utf-8", errors="replace"))
        if response is not None:
            sink.write(response.encode("utf-8"))
            sink.flush()
        if engine.quit_requested:
            return


def _gtp(args: argparse.Namespace) -> int:
    """``tengen gtp``: a random-player engine on stdin and stdout until quit or EOF."""
    ruleset: Ruleset = args.rules
    if args.komi is not None:
        ruleset = ruleset.with_komi(args.komi)
    engine = GtpEngine(RandomPlayer(args.seed), size=args.size, ruleset=ruleset)
    try:
        serve(engine, sys.stdin.buffer, sys.stdout.buffer)
    except KeyboardInterrupt:
        return 130
    return 0


def _parser() -> argparse.ArgumentParser:
    """The argument parser with its subcommands."""
    parser = argparse.ArgumentParser(prog="tengen", description="Go rules, engines and tools.")
    parser.add_argument("--version", action="version", version=f"tengen {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    gtp = commands.add_parser("gtp", help="play as a GTP version 2 engine on stdin/stdout")
    gtp.add_argument(
        "--rules", type=_ruleset, default="chinese", help="ruleset name (default: chinese)"
    )
    gtp.add_argument("--size", type=_size, default=19, help="board size (default: 19)")
    gtp.add_argument("--komi", type=_komi, help="komi (default: the ruleset's)")
    gtp.add_argument("--seed", type=int, help="seed of the random player")
    return parser


def _ruleset(text: str) -> Ruleset:
    """``--rules``: a preset name or KataGo JSON, as `Ruleset.parse` reads them."""
    try:
        return Ruleset.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _size(text: str) -> int:
    """``--size``: a board size GTP can address."""
    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"board size must be an integer, not {text!r}") from None
    if not 1 <= size <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"board size must be 1 to {MAX_SIZE}")
    return size


def _komi(text: str) -> float:
    """``--komi``: a finite number."""
    try:
        komi = float(text)
    except ValueError:
        komi = math.nan
    if not math.isfinite(komi):
        raise argparse.ArgumentTypeError(f"komi must be a finite number, not {text!r}")
    return komi
