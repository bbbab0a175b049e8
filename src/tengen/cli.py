"""The ``tengen`` command line.

``tengen gtp`` speaks GTP on stdin and stdout. The record commands (``sgf info``, ``sgf check``,
``convert``, ``diagram``) read every format `tengen.records` opens; work on many files shows a
progress bar on stderr (when it is a terminal, or with ``--progress``) and ends with a summary
there. A bad file is reported, with its line and column when known, and the run goes on.

What ``sgf check`` counts: an *error* changes what the record means or stops it from being
read (an unreadable file, an invalid SZ or GM, a move or setup the rules refuse on replay); a
*warning* is a quirk that reading repaired without changing the game (a syntax or charset
slip, an RU or KM tengen cannot read). The exit status is 1 when there are errors, or warnings
under ``--strict``. Gomoku games (GM[4]) are read but not replayed under Go rules.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, NoReturn, TextIO

from tqdm import tqdm

from tengen import __version__, render
from tengen.ai.levels import DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL
from tengen.ai.levels import level as ai_level
from tengen.ai.mcts import MctsPlayer
from tengen.analysis import batch
from tengen.analysis.builtin import BuiltinEngine
from tengen.analysis.engine import EngineError
from tengen.analysis.server import AnalysisServer
from tengen.clock import TimeControl
from tengen.core.coords import Point, from_gtp, name
from tengen.core.game import Game
from tengen.core.rules import Ruleset
from tengen.gomoku.rules import GomokuRules, Opening
from tengen.gtp.engine import MAX_SIZE, GtpEngine, Stream
from tengen.match.game import GameConfig, ResignAdjudication
from tengen.match.gomoku import GomokuConfig, check_openings, check_sides
from tengen.match.players import PlayerSpec
from tengen.match.plot import elo_png
from tengen.match.runner import RunConfig, load_openings, run, running_tallies, table
from tengen.records import Record, UnreadableRecord, open_record, record_files
from tengen.recount import recount
from tengen.scoring import PointStatus, score_game, unsettled
from tengen.scoring.life import dead_stones, estimate, seki_stones
from tengen.sgf import GameTree, serialise
from tengen.sgf.properties import interpret_simpletext
from tengen.sgf.replay import check_tree, replay, ruleset_of

Handler = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand named in `argv` (default: the process arguments); the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["serve"]:  # the web app parses its own options (argparse can't pass them)
        return _serve(argv[1:])
    if argv[:1] == ["gomocup"]:
        return _gomocup(argv[1:])
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


def _gomocup(argv: list[str]) -> int:
    """``tengen gomocup``: the built-in Gomoku player as a Gomocup brain on stdin/stdout."""
    if argv:
        print(
            "usage: tengen gomocup  (no options: managers set brains up with INFO)", file=sys.stderr
        )
        return 2
    from tengen.ai.gomoku_player import GomokuPlayer  # loads only for this command
    from tengen.gomoku.gomocup import Brain, run

    return run(Brain(GomokuPlayer()), sys.stdin, sys.stdout)


def _serve(argv: list[str]) -> int:
    """``tengen serve``: the web app; it reads its own options (--host, --port, --db, ...)."""
    from tengen.web import serve as serve_web  # uvicorn and starlette load only for this

    try:
        return serve_web(argv)
    except KeyboardInterrupt:
        return 130


# -- many files: progress bar, tally, summary ----------------------------------------------


def progress_bar(paths: Sequence[str], stream: TextIO, *, enabled: bool) -> tqdm[NoReturn]:
    """A ``[####----] done/total path`` line on `stream`, redrawn in place at most ten times a
    second by tqdm (the progress display tengen uses); a no-op when not `enabled`."""
    return tqdm(
        total=len(paths),
        desc=paths[0] if paths else "",
        file=stream,
        disable=not enabled,
        leave=False,
        dynamic_ncols=True,
        mininterval=0.1,
        ascii="-#",
        bar_format="[{bar:20}] {n_fmt}/{total_fmt} {desc}",
    )


@dataclass
class Tally:
    """What a run over many files met."""

    files: int = 0
    games: int = 0
    errors: int = 0
    warnings: int = 0
    written: int = 0


class Batch:
    """A run over many files: the files, their progress, the messages and the summary.

    Errors and warnings go to `messages` (stdout for ``sgf check``, whose output they are;
    stderr otherwise); the progress bar and the summary go to stderr.
    """

    def __init__(self, args: argparse.Namespace, messages: TextIO) -> None:
        self.paths = list(record_files(args.files))
        self.messages = messages
        enabled = sys.stderr.isatty() if args.progress is None else args.progress
        self.progress = progress_bar(self.paths, sys.stderr, enabled=enabled)
        self.tally = Tally()
        self.started = time.perf_counter()

    def records(self) -> Iterator[Record]:
        """Each file read leniently; an unreadable one is reported as an error and skipped."""
        for done, path in enumerate(self.paths):
            self.progress.set_description_str(path, refresh=False)
            self.progress.update(done - self.progress.n)
            self.tally.files += 1
            try:
                record = open_record(path)
            except UnreadableRecord as err:
                self.error(err.where, err.message)
                continue
            except Exception as err:  # a bug in an importer must not end the run
                self.error(path, f"internal error: {type(err).__name__}: {err}")
                continue
            self.tally.games += len(record.games)
            for warning in record.warnings:
                self.warning(f"{warning.path}:{warning.line}:{warning.col}", warning.message)
            yield record
        self.progress.close()

    def output(self, text: str) -> None:
        """A line of the command's own output, on stdout."""
        self.progress.clear()
        print(text)

    def error(self, where: str, message: str) -> None:
        """Report an error as ``where: error: message`` (the form compilers use)."""
        self.tally.errors += 1
        self._message(f"{where}: error: {message}")

    def warning(self, where: str, message: str) -> None:
        """Report a warning as ``where: warning: message``."""
        self.tally.warnings += 1
        self._message(f"{where}: warning: {message}")

    def summary(self) -> None:
        """One line on stderr: files, games, files written, errors, warnings, seconds."""
        t = self.tally
        parts = [_plural(t.files, "file"), _plural(t.games, "game")]
        if t.written:
            parts.append(f"{t.written} written")
        parts += [_plural(t.errors, "error"), _plural(t.warnings, "warning")]
        seconds = time.perf_counter() - self.started
        print(f"{', '.join(parts)} in {seconds:.2f} s", file=sys.stderr)

    def _message(self, text: str) -> None:
        self.progress.clear()
        print(text, file=self.messages)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _game_name(record: Record, index: int) -> str:
    """The file, and the game's number when the file holds several."""
    if len(record.games) == 1:
        return record.path
    return f"{record.path}: game {index + 1}"


# -- tengen sgf info -----------------------------------------------------------------------


def _info(args: argparse.Namespace) -> int:
    """``tengen sgf info``: one block of facts per game; 1 if a file could not be read."""
    batch = Batch(args, sys.stderr)
    for record in batch.records():
        for index, tree in enumerate(record.games):
            batch.output("\n".join([_game_name(record, index), *_info_lines(tree)]) + "\n")
    batch.summary()
    return 1 if batch.tally.errors else 0


def _info_lines(tree: GameTree) -> list[str]:
    """``  Label     value`` lines about one game, ``-`` for what the record does not say."""
    moves = sum(1 for node in tree.main_line() if "B" in node.properties or "W" in node.properties)
    nodes = leaves = 0
    for node in tree.nodes():
        nodes += 1
        leaves += not node.children
    facts = [
        ("Game", _game_kind(tree)),
        ("Black", _player(tree, "PB", "BR")),
        ("White", _player(tree, "PW", "WR")),
        ("Result", _text(tree, "RE")),
        ("Rules", _text(tree, "RU")),
        ("Komi", _text(tree, "KM")),
        ("Handicap", _text(tree, "HA")),
        ("Board", _board(tree)),
        ("Date", _text(tree, "DT")),
        ("Moves", str(moves)),
        ("Variations", str(leaves)),
        ("Nodes", str(nodes)),
    ]
    return [f"  {label:<12}{value}" for label, value in facts]


def _text(tree: GameTree, ident: str) -> str:
    """A root property as plain text (its first value), or ``-``."""
    values = tree.root.get_raw(ident)
    text = interpret_simpletext(values[0]).strip() if values else ""
    return text or "-"


def _game_kind(tree: GameTree) -> str:
    """``Go``, ``Gomoku``, or the GM value tengen does not play."""
    try:
        game_type = tree.game_type
    except ValueError:
        return _text(tree, "GM")
    return {1: "Go", 4: "Gomoku"}.get(game_type, f"GM[{game_type}]")


def _player(tree: GameTree, name: str, rank: str) -> str:
    """``name (rank)``, the name alone, or ``-``."""
    player, level = _text(tree, name), _text(tree, rank)
    return player if level == "-" else f"{player} ({level})"


def _board(tree: GameTree) -> str:
    """``19x19``, or the raw SZ with the reason it is not a board size."""
    try:
        width, height = tree.size
    except ValueError as err:
        return f"{_text(tree, 'SZ')} ({err})"
    return f"{width}x{height}"


# -- tengen sgf check ----------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    """``tengen sgf check``: every problem of every file; 1 on errors (or warnings, strict)."""
    batch = Batch(args, sys.stdout)
    for record in batch.records():
        for index, tree in enumerate(record.games):
            _check_game(batch, _game_name(record, index), tree)
    batch.summary()
    failed = batch.tally.errors or (args.strict and batch.tally.warnings)
    return 1 if failed else 0


def _check_game(batch: Batch, where: str, tree: GameTree) -> None:
    """Replay every variation of a Go game and report what the rules refuse."""
    try:
        game_type = tree.game_type
    except ValueError as err:
        batch.error(where, f"GM: {err}")
        return
    if game_type == 4:  # Go rules would call a Gomoku stone with no liberty suicide
        return
    if game_type != 1:
        batch.warning(where, f"GM[{game_type}] is not a game tengen plays: moves not checked")
        return
    for note in ruleset_of(tree)[1]:
        batch.warning(where, note)
    try:
        problems = check_tree(tree)
    except ValueError as err:
        batch.error(where, f"SZ: {err}")
        return
    for problem in problems:
        batch.error(f"{where}: {problem.where}", problem.message)
    _check_result(batch, where, tree)


def _check_result(batch: Batch, where: str, tree: GameTree) -> None:
    """Warn when a counted RE[] differs from tengen's count of a game played to the end."""
    try:
        found = recount(tree)
    except ValueError as err:
        batch.warning(where, f"RE: {err}")
        return
    if found is not None and not found.agrees:
        rules = found.counted.ruleset
        batch.warning(
            where,
            f"RE[{found.recorded.to_sgf()}] but tengen counts {found.counted.result.to_sgf()} "
            f"({rules.name} rules, komi {rules.komi:g})",
        )


# -- tengen convert ------------------------------------------------------------------------


def _convert(args: argparse.Namespace) -> int:
    """``tengen convert``: each record as ``DIR/<stem>.sgf``; 1 if any file was not written."""
    batch = Batch(args, sys.stderr)
    out_dir: Path = args.output
    written: dict[Path, str] = {}
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"tengen convert: {out_dir}: {err.strerror or err}", file=sys.stderr)
        return 1
    for record in batch.records():
        target = out_dir / (Path(record.path).stem + ".sgf")
        refusal = _refusal(target, written, force=args.force)
        if refusal:
            batch.error(record.path, refusal)
            continue
        try:
            target.write_bytes(serialise(record.games))
        except (OSError, ValueError) as err:
            batch.error(record.path, f"cannot write {target}: {err}")
            continue
        written[target] = record.path
        batch.tally.written += 1
    batch.summary()
    return 1 if batch.tally.errors else 0


def _refusal(target: Path, written: dict[Path, str], *, force: bool) -> str | None:
    """Why `target` must not be written, or None: no overwriting, not even forced, of a file
    this run wrote (two inputs with the same stem)."""
    if target in written:
        return f"{target} was written from {written[target]} in this run"
    if target.exists() and not force:
        return f"{target} exists (use --force to overwrite)"
    return None


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
        raise ValueError(f"no game {number}: the file holds {_plural(len(record.games), 'game')}")
    return record.games[number - 1]


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
    gtp.add_argument(
        "--level",
        type=_level,
        default=DEFAULT_LEVEL,
        help=f"strength {MIN_LEVEL} (beginner) to {MAX_LEVEL} (default: {DEFAULT_LEVEL})",
    )
    gtp.add_argument("--playouts", type=_count, help="simulations per move (replaces the level's)")
    gtp.add_argument("--seconds", type=_seconds, help="seconds per move (replaces the level's)")
    gtp.add_argument("--threads", type=_count, help="search threads (default: one per core)")
    gtp.add_argument("--seed", type=int, default=0, help="seed of the player (default: 0)")
    gtp.add_argument(
        "--resign",
        type=_resign_rate,
        help="resign below this win rate, 0 never (default: the level's, 0.02 to 0.08)",
    )
    gtp.set_defaults(handler=_gtp)
    commands.add_parser(  # listed for --help; `main` runs it
        "gomocup", help="play Gomoku as a Gomocup (Piskvork) brain on stdin/stdout"
    )
    commands.add_parser(  # listed for --help; `main` hands its options to the web app
        "serve",
        add_help=False,
        help="the web app to play and review Go (see `tengen serve --help`)",
    )
    _add_score_parser(commands)
    _add_sgf_parser(commands)
    _add_convert_parser(commands)
    _add_diagram_parser(commands)
    _add_match_parsers(commands)
    _add_analysis_parsers(commands)
    return parser


def _batch_options() -> argparse.ArgumentParser:
    """The options every many-file command shares."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "files", nargs="+", metavar="FILE", help="record files, or directories to search"
    )
    options.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    return options


def _add_sgf_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen sgf info|check``."""
    sgf = commands.add_parser("sgf", help="inspect game records (info, check)")
    sgf.set_defaults(help_parser=sgf)
    actions = sgf.add_subparsers(dest="action", metavar="ACTION")
    batch = _batch_options()
    info = actions.add_parser(
        "info", parents=[batch], help="players, result, rules, moves and variations of each game"
    )
    info.set_defaults(handler=_info)
    check = actions.add_parser(
        "check", parents=[batch], help="parse and replay every variation; list every problem"
    )
    check.add_argument("--strict", action="store_true", help="count warnings as errors")
    check.set_defaults(handler=_check)


def _add_score_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen score FILE [--rules NAME] [--dead D4,E5...]``."""
    score = commands.add_parser(
        "score", help="count the end of a record: result, dead stones and the point map"
    )
    score.add_argument("file", metavar="FILE", help="a record file")
    score.add_argument(
        "--rules", type=_ruleset, help="count by these rules (default: the record's RU)"
    )
    score.add_argument("--komi", type=_komi, help="komi (default: the record's KM)")
    score.add_argument(
        "--dead",
        metavar="D4,E5...",
        help="the dead stones, any stone of each dead chain (default: tengen's estimate)",
    )
    score.add_argument(
        "--game", type=_count, default=1, metavar="K", help="game K of a collection (default: 1)"
    )
    score.set_defaults(handler=_score)


def _add_convert_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen convert IN... -o DIR``."""
    convert = commands.add_parser(
        "convert", parents=[_batch_options()], help="write records as UTF-8 SGF files"
    )
    convert.add_argument(
        "-o", "--output", required=True, type=Path, metavar="DIR", help="folder for the SGF files"
    )
    convert.add_argument("--force", action="store_true", help="overwrite existing files")
    convert.set_defaults(handler=_convert)


def _add_diagram_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen diagram FILE [--move N | --moves A-B] -o OUT``."""
    diagram = commands.add_parser("diagram", help="draw a position or moves as SVG, PNG or text")
    diagram.add_argument("file", metavar="FILE", help="a record file")
    which = diagram.add_mutually_exclusive_group()
    which.add_argument(
        "--move", type=_count, metavar="N", help="the position after move N (default: the end)"
    )
    which.add_argument(
        "--moves", type=_move_range, metavar="A-B", help="moves A to B, numbered on the stones"
    )
    diagram.add_argument(
        "--labels", action="store_true", help="label each chain with its liberties"
    )
    diagram.add_argument(
        "--game", type=_count, default=1, metavar="K", help="game K of a collection (default: 1)"
    )
    diagram.add_argument(
        "-o",
        "--output",
        required=True,
        type=_diagram_path,
        metavar="OUT",
        help="the diagram file: .svg, .png or .txt",
    )
    diagram.set_defaults(handler=_diagram)


def _add_match_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen match A B`` and ``tengen tournament A B C... [--format gauntlet]``."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--games", type=_count, default=10, help="games per pairing (10)")
    options.add_argument(
        "--game", choices=("go", "gomoku"), default="go", help="the game played (default: go)"
    )
    options.add_argument(
        "--size", type=_count, help="board size (default: 19 for Go, 15 for Gomoku)"
    )
    options.add_argument(
        "--rules",
        help="Go ruleset (default: chinese) or Gomoku rule: freestyle (default), standard, "
        "renju, caro",
    )
    options.add_argument("--komi", type=_komi, help="komi (default: the ruleset's)")
    options.add_argument("--handicap", type=_count, default=0, help="fixed handicap stones")
    options.add_argument(
        "--time", type=_time_control, help="absolute:600, byoyomi:600+5x30, canadian:600+25/300"
    )
    options.add_argument(
        "--max-moves", type=_count, help="adjudicate by counting after this many moves"
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
    options.add_argument("--opening-moves", type=_count, help="moves of each opening to play")
    options.add_argument("--workers", type=_count, default=1, help="parallel games (default: 1)")
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
        with _terminate_as_interrupt():
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


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM stops the run as Ctrl-C does (its games are stopped too)."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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


def _level(text: str) -> int:
    """A playing level for argparse."""
    try:
        number = int(text)
        ai_level(number)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"level must be a whole number from {MIN_LEVEL} to {MAX_LEVEL}, not {text!r}"
        ) from None
    return number


def _resign_rate(text: str) -> float:
    """A resignation win rate for argparse: 0 (never resign) to below 1."""
    try:
        rate = float(text)
    except ValueError:
        rate = -1.0
    if not 0 <= rate < 1:
        raise argparse.ArgumentTypeError(f"resign must be a win rate from 0 to below 1: {text!r}")
    return rate


def _seconds(text: str) -> float:
    """A positive number of seconds for argparse."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"seconds must be a positive number, not {text!r}")
    return value


def _komi(text: str) -> float:
    """``--komi``: a finite number."""
    try:
        komi = float(text)
    except ValueError:
        komi = math.nan
    if not math.isfinite(komi):
        raise argparse.ArgumentTypeError(f"komi must be a finite number, not {text!r}")
    return komi


def _count(text: str) -> int:
    """``--move``, ``--game``: a whole number."""
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
    return int(text)


def _move_range(text: str) -> tuple[int, int]:
    """``--moves A-B``: two move numbers."""
    first, dash, final = text.partition("-")
    if not dash:
        raise argparse.ArgumentTypeError(f"expected A-B, not {text!r}")
    return _count(first), _count(final)


def _diagram_path(text: str) -> Path:
    """``-o``: a file whose suffix names a diagram format."""
    path = Path(text)
    if path.suffix.lower() not in render.FORMATS:
        raise argparse.ArgumentTypeError(f"{text}: use one of {', '.join(render.FORMATS)}")
    return path


def _add_analysis_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen analyze`` (review records) and ``tengen analysis`` (the JSON engine)."""
    analyze = commands.add_parser(
        "analyze", help="review records with an engine: win rates, score leads, mistakes"
    )
    analyze.add_argument(
        "files", nargs="+", metavar="FILE_OR_DIR", help="record files, or folders to search"
    )
    analyze.add_argument("-o", "--out", required=True, metavar="DIR", help="where to write")
    analyze.add_argument(
        "--engine",
        metavar="CMD",
        help="a GTP engine with kata-analyze or lz-analyze, or a JSON analysis engine "
        "('katago analysis -config C -model M'); default: the built-in search",
    )
    analyze.add_argument(
        "--visits", type=_count, default=1000, help="visits per position (default: 1000)"
    )
    analyze.add_argument(
        "--workers", type=_count, default=1, help="engines run in parallel (default: 1)"
    )
    analyze.add_argument("--threads", type=_count, help="built-in search threads per engine")
    analyze.add_argument(
        "--cluster", metavar="ADDRESS", help="analyse on the Dask cluster at ADDRESS"
    )
    analyze.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    analyze.set_defaults(handler=_analyze)
    analysis = commands.add_parser(
        "analysis", help="KataGo's JSON analysis protocol on stdin/stdout (for KaTrain)"
    )
    analysis.add_argument("--threads", type=_count, help="search threads (default: one per core)")
    analysis.add_argument("--seed", type=int, default=0, help="seed of the search (default: 0)")
    for ignored in ("-config", "-model", "-override-config", "-human-model"):
        analysis.add_argument(ignored, help=argparse.SUPPRESS)  # KataGo's, as KaTrain passes
    analysis.set_defaults(handler=_analysis)


def _analyze(args: argparse.Namespace) -> int:
    """``tengen analyze``: write each record annotated to --out; print each game's mistakes."""
    jobs = batch.plan(args.files, args.out)
    if not jobs:
        print("tengen analyze: no records found", file=sys.stderr)
        return 2
    settings = batch.Settings(args.engine, args.visits, args.threads)
    done = sum(os.path.exists(j.target) for j in jobs)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = tqdm(total=len(jobs), initial=done, unit="record", disable=not show, file=sys.stderr)
    if done:
        bar.write(f"resuming: {done} of {len(jobs)} records already analysed", file=sys.stderr)
    failed = 0
    try:
        with _terminate_as_interrupt():
            for outcome in batch.run(jobs, settings, workers=args.workers, cluster=args.cluster):
                failed += not outcome.sgf
                for line in outcome.lines:
                    bar.write(f"{outcome.job.source}: {line}", file=sys.stdout)
                bar.update()
    except (EngineError, ValueError) as err:
        bar.close()
        print(f"tengen analyze: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        bar.close()
        print(
            f"tengen analyze: stopped; the analysed records are in {args.out}, "
            "and the same command analyses the rest",
            file=sys.stderr,
        )
        return 130
    bar.close()
    return 1 if failed else 0


def _analysis(args: argparse.Namespace) -> int:
    """``tengen analysis``: answer JSON analysis queries with the built-in search until EOF."""
    engine = BuiltinEngine(threads=args.threads, seed=args.seed)
    try:
        AnalysisServer(engine, sys.stdout).run(sys.stdin)
    finally:
        engine.close()
    return 0
