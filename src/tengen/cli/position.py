"""One record's position: ``tengen score`` counts it, ``tengen diagram`` draws it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from tengen import render
from tengen.cli import arguments as arg
from tengen.cli.files import plural
from tengen.core.coords import Point, from_gtp, name
from tengen.core.game import Game
from tengen.records import Record, UnreadableRecord, open_record
from tengen.scoring import PointStatus, score_game, unsettled
from tengen.scoring.life import dead_stones, estimate, seki_stones
from tengen.sgf import GameTree
from tengen.sgf.replay import replay

# -- tengen diagram ------------------------------------------------------------------------


def _diagram(args: argparse.Namespace) -> int:
    """``tengen diagram``: draw the main line of a record; 1 with a message on failure."""

    def draw(game: Game) -> None:
        figure = render.game_figure(
            game, move=args.move, moves=args.moves, chain_labels=args.labels
        )
        render.save(figure, args.output)

    return _on_record("diagram", args, draw)


def _on_record(command: str, args: argparse.Namespace, work: Callable[[Game], None]) -> int:
    """Replay game ``args.game`` of ``args.file`` and hand it to `work`; 1 with a one-line
    message (no traceback) when the file cannot be read or `work` raises ValueError."""
    try:
        game, problems = replay(_pick_game(open_record(args.file), args.game))
        for problem in problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        work(game)
    except UnreadableRecord as err:
        print(f"tengen {command}: {err}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as err:
        print(f"tengen {command}: {args.file}: {err}", file=sys.stderr)
        return 1
    return 0


# -- tengen score --------------------------------------------------------------------------

_MAP_SYMBOL = {
    PointStatus.BLACK_STONE: "X",
    PointStatus.WHITE_STONE: "O",
    PointStatus.BLACK_TERRITORY: "b",
    PointStatus.WHITE_TERRITORY: "w",
    PointStatus.DAME: ".",
    PointStatus.SEKI: "s",
    PointStatus.DEAD_BLACK: "x",
    PointStatus.DEAD_WHITE: "o",
}
_MAP_LEGEND = (
    "X O stones, x o dead stones, b w territory (area or territory by the rules), . dame, s seki"
)


def _score(args: argparse.Namespace) -> int:
    """``tengen score``: count the end of a record's main line; the result and the map."""
    return _on_record("score", args, lambda game: _print_score(game, args))


def _print_score(game: Game, args: argparse.Namespace) -> None:
    """Count `game` by the rules and dead stones the options give; print the count and map."""
    if args.rules is not None or args.komi is not None:
        komi = game.ruleset.komi if args.komi is None else args.komi
        game.ruleset = (args.rules or game.ruleset).with_komi(komi)
    if args.dead is None:
        est = estimate(game)
        dead, seki, source = dead_stones(est), seki_stones(est), "(estimated)"
    else:
        dead, seki, source = _vertices(args.dead, game), set(), "(given)"
    score = score_game(game, dead, seki)
    print(score.explain())
    names = [name(p, game.width, game.height) for p in sorted(dead, key=lambda p: (p.row, p.col))]
    print("Dead stones:", " ".join(names) or "none", source)
    for point, why in unsettled(game.board, dead, seki).items():
        print(f"Not settled: {name(point, game.width, game.height)}: {why}")
    print()
    for row in range(game.height):
        print(" ".join(_MAP_SYMBOL[score.status[Point(col, row)]] for col in range(game.width)))
    print(_MAP_LEGEND)


def _vertices(text: str, game: Game) -> set[Point]:
    """``--dead D4,E5``: GTP vertices on the game's board. Raises ValueError naming a bad one."""
    points = set()
    for vertex in filter(None, (v.strip() for v in text.split(","))):
        point = from_gtp(vertex, game.width, game.height)
        if point is None:
            raise ValueError(f"--dead: {vertex!r} is not a point")
        if game.board[point] is None:
            raise ValueError(f"--dead: no stone at {vertex}")
        points.add(point)
    return points


def _pick_game(record: Record, number: int) -> GameTree:
    """Game `number` (from 1) of a record. Raises ValueError if there is no such game."""
    if not 1 <= number <= len(record.games):
        raise ValueError(f"no game {number}: the file holds {plural(len(record.games), 'game')}")
    return record.games[number - 1]


def _add_score_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen score FILE [--rules NAME] [--dead D4,E5...]``."""
    score = commands.add_parser(
        "score", help="count the end of a record: result, dead stones and the point map"
    )
    score.add_argument("file", metavar="FILE", help="a record file")
    score.add_argument(
        "--rules", type=arg.ruleset, help="count by these rules (default: the record's RU)"
    )
    score.add_argument("--komi", type=arg.komi, help="komi (default: the record's KM)")
    score.add_argument(
        "--dead",
        metavar="D4,E5...",
        help="the dead stones, any stone of each dead chain (default: tengen's estimate)",
    )
    score.add_argument(
        "--game", type=arg.count, default=1, metavar="K", help="game K of a collection (default: 1)"
    )
    score.set_defaults(handler=_score)


def _add_diagram_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen diagram FILE [--move N | --moves A-B] -o OUT``."""
    diagram = commands.add_parser("diagram", help="draw a position or moves as SVG, PNG or text")
    diagram.add_argument("file", metavar="FILE", help="a record file")
    which = diagram.add_mutually_exclusive_group()
    which.add_argument(
        "--move", type=arg.count, metavar="N", help="the position after move N (default: the end)"
    )
    which.add_argument(
        "--moves", type=arg.move_range, metavar="A-B", help="moves A to B, numbered on the stones"
    )
    diagram.add_argument(
        "--labels", action="store_true", help="label each chain with its liberties"
    )
    diagram.add_argument(
        "--game", type=arg.count, default=1, metavar="K", help="game K of a collection (default: 1)"
    )
    diagram.add_argument(
        "-o",
        "--output",
        required=True,
        type=arg.diagram_path,
        metavar="OUT",
        help="the diagram file: .svg, .png or .txt",
    )
    diagram.set_defaults(handler=_diagram)


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen score`` and ``tengen diagram``."""
    _add_score_parser(commands)
    _add_diagram_parser(commands)
