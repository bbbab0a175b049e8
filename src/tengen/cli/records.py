"""The record commands: ``tengen sgf info``, ``tengen sgf check`` and ``tengen convert``.

They read every format `tengen.records` opens; the run over many files (`tengen.cli.files`)
shows a progress bar on stderr (when it is a terminal, or with ``--progress``) and ends with a
summary there. A bad file is reported, with its line and column when known, and the run goes
on.

What ``sgf check`` counts: an *error* changes what the record means or stops it from being
read (an unreadable file, an invalid SZ or GM, a move or setup the rules refuse on replay); a
*warning* is a quirk that reading repaired without changing the game (a syntax or charset
slip, an RU or KM tengen cannot read). The exit status is 1 when there are errors, or warnings
under ``--strict``. Gomoku games (GM[4]) are read but not replayed under Go rules.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tengen.cli.files import Batch, batch_options, game_name
from tengen.recount import recount
from tengen.sgf import GameTree, serialise
from tengen.sgf.properties import interpret_simpletext
from tengen.sgf.replay import check_tree, ruleset_of

# -- tengen sgf info -----------------------------------------------------------------------


def _info(args: argparse.Namespace) -> int:
    """``tengen sgf info``: one block of facts per game; 1 if a file could not be read."""
    batch = Batch(args, sys.stderr)
    for record in batch.records():
        for index, tree in enumerate(record.games):
            batch.output("\n".join([game_name(record, index), *_info_lines(tree)]) + "\n")
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
            _check_game(batch, game_name(record, index), tree)
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


def _add_sgf_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen sgf info|check``."""
    sgf = commands.add_parser("sgf", help="inspect game records (info, check)")
    sgf.set_defaults(help_parser=sgf)
    actions = sgf.add_subparsers(dest="action", metavar="ACTION")
    batch = batch_options()
    info = actions.add_parser(
        "info", parents=[batch], help="players, result, rules, moves and variations of each game"
    )
    info.set_defaults(handler=_info)
    check = actions.add_parser(
        "check", parents=[batch], help="parse and replay every variation; list every problem"
    )
    check.add_argument("--strict", action="store_true", help="count warnings as errors")
    check.set_defaults(handler=_check)


def _add_convert_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen convert IN... -o DIR``."""
    convert = commands.add_parser(
        "convert", parents=[batch_options()], help="write records as UTF-8 SGF files"
    )
    convert.add_argument(
        "-o", "--output", required=True, type=Path, metavar="DIR", help="folder for the SGF files"
    )
    convert.add_argument("--force", action="store_true", help="overwrite existing files")
    convert.set_defaults(handler=_convert)


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tengen sgf info|check`` and ``tengen convert``."""
    _add_sgf_parser(commands)
    _add_convert_parser(commands)
