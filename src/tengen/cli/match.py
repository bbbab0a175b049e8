"""``tengen match`` and ``tengen tournament``: games between players, resumable."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from tengen.cli import arguments as arg
from tengen.cli.signals import terminate_as_interrupt
from tengen.clock import TimeControl
from tengen.core.rules import Ruleset
from tengen.gomoku.rules import GomokuRules, Opening
from tengen.gtp.engine import MAX_SIZE
from tengen.match.game import GameConfig, ResignAdjudication
from tengen.match.gomoku import GomokuConfig, check_openings, check_sides
from tengen.match.players import PlayerSpec
from tengen.match.plot import elo_png
from tengen.match.runner import RunConfig, load_openings, run, running_tallies, table
from tengen.records import UnreadableRecord


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen match A B`` and ``tengen tournament A B C... [--format gauntlet]``."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--games", type=arg.count, default=10, help="games per pairing (10)")
    options.add_argument(
        "--game", choices=("go", "gomoku"), default="go", help="the game played (default: go)"
    )
    options.add_argument(
        "--size", type=arg.count, help="board size (default: 19 for Go, 15 for Gomoku)"
    )
    options.add_argument(
        "--rules",
        help="Go ruleset (default: chinese) or Gomoku rule: freestyle (default), standard, "
        "renju, caro",
    )
    options.add_argument("--komi", type=arg.komi, help="komi (default: the ruleset's)")
    options.add_argument("--handicap", type=arg.count, default=0, help="fixed handicap stones")
    options.add_argument(
        "--time", type=_time_control, help="absolute:600, byoyomi:600+5x30, canadian:600+25/300"
    )
    options.add_argument(
        "--max-moves", type=arg.count, help="adjudicate by counting after this many moves"
    )
    options.add_argument(
        "--adjudicate-resign",
        type=_resign_rule,
        metavar="MARGIN:MOVES",
        help="resign for a side behind by more than MARGIN points (tengen's count) after "
        "MOVES moves in a row",
    )
    options.add_argument("--referee", metavar="COMMAND", help="a GTP engine for final_score")
    options.add_argument(
        "--swap",
        choices=("swap1", "swap2"),
        help="Gomoku: open each game by the swap (swap1) or swap2 rule, the brains asked "
        "with SWAP2BOARD; the player scheduled for Black opens (alternating)",
    )
    options.add_argument("--openings", metavar="DIR", help="a folder of SGF opening files")
    options.add_argument("--opening-moves", type=arg.count, help="moves of each opening to play")
    options.add_argument("--workers", type=arg.count, default=1, help="parallel games (default: 1)")
    options.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786) instead of local workers",
    )
    options.add_argument("--seed", type=int, default=0, help="base seed of the built-in player")
    options.add_argument(
        "--plot", type=Path, metavar="FILE.png", help="draw the first player's Elo over games"
    )
    options.add_argument(
        "-o", "--out", required=True, metavar="DIR", help="results and SGF folder (resumable)"
    )
    players_help = "NAME=COMMAND of a GTP engine or Gomocup brain, or builtin"
    match = commands.add_parser(
        "match", parents=[options], help="play a match between two engines (resumable)"
    )
    match.add_argument("players", nargs=2, type=_player_spec, metavar="PLAYER", help=players_help)
    match.add_argument(
        "--sprt", type=_sprt_bounds, metavar="ELO0,ELO1", help="stop when the SPRT decides"
    )
    match.set_defaults(handler=_match, format="match")
    tournament = commands.add_parser(
        "tournament", parents=[options], help="a round-robin or gauntlet tournament (resumable)"
    )
    tournament.add_argument(
        "players", nargs="+", type=_player_spec, metavar="PLAYER", help=players_help
    )
    tournament.add_argument(
        "--format",
        choices=("round-robin", "gauntlet"),
        default="round-robin",
        help="every pair, or the first player against each other (default: round-robin)",
    )
    tournament.set_defaults(handler=_match, sprt=None)


def _match(args: argparse.Namespace) -> int:
    """``tengen match`` and ``tengen tournament``: run (or resume), then print the table (and
    draw the plot)."""
    try:
        game = _match_game(args)
        size = game.size if isinstance(game, GameConfig) else game.rules.width
        openings = load_openings(args.openings, size, args.opening_moves) if args.openings else ()
        if isinstance(game, GomokuConfig):
            check_sides(args.players)
            check_openings(openings, game.rules)
        config = RunConfig(
            players=tuple(args.players),
            games=args.games,
            game=game,
            out=args.out,
            format=args.format,
            openings=openings,
            workers=args.workers,
            seed=args.seed,
            sprt=args.sprt,
            cluster=args.cluster,
        )
        with terminate_as_interrupt():
            results = run(config, sys.stderr)
    except (ValueError, UnreadableRecord) as err:
        print(f"tengen {args.command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            f"tengen {args.command}: stopped; the finished games are kept in {args.out}, "
            "and the same command plays the rest",
            file=sys.stderr,
        )
        return 130
    print(table(config, results))
    if args.plot:
        first, others = config.players[0].name, [p.name for p in config.players[1:]]
        tallies = running_tallies(results, first)
        title = f"Elo of {first} against {', '.join(others)}: {len(tallies)} games"
        args.plot.write_bytes(elo_png(tallies, title))
    return 0


def _match_game(args: argparse.Namespace) -> GameConfig | GomokuConfig:
    """How each game of a match is played, from the options. Raises ValueError for a bad
    size or rule, or a Go option given for Gomoku."""
    if args.game == "gomoku":
        go_only = {
            "--komi": args.komi is not None,
            "--handicap": args.handicap,
            "--max-moves": args.max_moves,
            "--referee": args.referee,
            "--adjudicate-resign": args.adjudicate_resign,
        }
        given = [flag for flag, value in go_only.items() if value]
        if given:
            raise ValueError(f"{', '.join(given)}: for Go only, not Gomoku")
        size = args.size or 15
        rules = GomokuRules.parse(args.rules or "freestyle", size, size)
        if args.swap:
            if args.openings:
                raise ValueError("--swap and --openings: a game opens one way")
            opening = Opening.SWAP if args.swap == "swap1" else Opening.SWAP2
            rules = replace(rules, opening=opening)
        return GomokuConfig(rules, args.time)
    if args.swap:
        raise ValueError("--swap: for Gomoku only, not Go")
    size = args.size or 19
    if not 1 <= size <= MAX_SIZE:
        raise ValueError(f"Go board size must be 1 to {MAX_SIZE}, not {size}")
    ruleset = Ruleset.parse(args.rules or "chinese")
    return GameConfig(
        size=size,
        ruleset=ruleset if args.komi is None else ruleset.with_komi(args.komi),
        handicap=args.handicap,
        time=args.time,
        max_moves=args.max_moves,
        referee=args.referee,
        resign=args.adjudicate_resign,
    )


def _player_spec(text: str) -> PlayerSpec:
    """A match player: ``NAME=COMMAND`` or ``builtin``."""
    try:
        return PlayerSpec.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _time_control(text: str) -> TimeControl:
    """``--time``: a time control as `TimeControl.parse` reads it."""
    try:
        return TimeControl.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _resign_rule(text: str) -> ResignAdjudication:
    """``--adjudicate-resign MARGIN:MOVES``."""
    try:
        return ResignAdjudication.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _sprt_bounds(text: str) -> tuple[float, float]:
    """``--sprt ELO0,ELO1``: the two hypotheses, ELO0 below ELO1."""
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ELO0,ELO1, not {text!r}") from None
    if not low < high:
        raise argparse.ArgumentTypeError("ELO0 must be below ELO1")
    return low, high
