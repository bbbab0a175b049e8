"""The ``tengen`` command line: one module per command group, each adding its subparsers."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from tengen import __version__
from tengen.cli import analysis, app, gomocup, gtp, match, position, records
from tengen.cli.gtp import serve

__all__ = ["main", "serve"]

Handler = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand named in `argv` (default: the process arguments); the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["serve"]:  # the web app parses its own options (argparse can't pass them)
        return app.main(argv[1:])
    if argv[:1] == ["gomocup"]:
        return gomocup.main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        (getattr(args, "help_parser", None) or parser).print_help(sys.stderr)
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader left (``| head``): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _parser() -> argparse.ArgumentParser:
    """The argument parser with the subcommands of every command group."""
    parser = argparse.ArgumentParser(prog="tengen", description="Go rules, engines and tools.")
    parser.add_argument("--version", action="version", version=f"tengen {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    gtp.add_parsers(commands)
    commands.add_parser(  # listed for --help; `main` runs it
        "gomocup", help="play Gomoku as a Gomocup (Piskvork) brain on stdin/stdout"
    )
    commands.add_parser(  # listed for --help; `main` hands its options to the web app
        "serve",
        add_help=False,
        help="the web app to play and review Go (see `tengen serve --help`)",
    )
    position.add_parsers(commands)
    records.add_parsers(commands)
    match.add_parsers(commands)
    analysis.add_parsers(commands)
    return parser
