"""Fuzz SGF games on the rules: replay of every variation, problem names, the cursor, and the
bulk path (a compiled scan of the bytes) against the full path (parse, then replay).

Inputs as in `fuzz_sgf`. Checked: nothing raises but `SgfError` from parse and the ValueError
the API documents for a bad SZ or GM (caught there only); each problem's name is its node's
``describe()``; the main line's problems are those `check_tree` finds off no variation, and
the cursor finds the same; where the scan takes a file, the bulk path gives the position,
moves, rules and problems of the full path.

    python fuzz/fuzz_sgf_replay.py --seconds 60   # see fuzz/harness.py and docs/FUZZING.md
"""

from __future__ import annotations

import sys

import numpy as np

from harness import ROOT, real_records, run
from sgf_mutations import DICTIONARY, mutate
from tengen.sgf import GameTree, SgfError, parse
from tengen.sgf.bulk import MainLine, fast_main_line
from tengen.sgf.cursor import Cursor
from tengen.sgf.replay import check_tree, replay

INSTRUMENT = [
    "tengen.sgf.properties",
    "tengen.sgf.tree",
    "tengen.sgf.replay",
    "tengen.sgf.cursor",
    "tengen.sgf.bulk",
]


def one_input(data: bytes) -> None:
    """Replay what lenient reading gives, and the bulk path against it."""
    try:
        games = parse(data).games
    except SgfError:
        return
    for game in games:
        _replay(game)
    _bulk_agrees(data, games[0])


def _replay(game: GameTree) -> None:
    """Replay every variation, name the problems, walk the cursor: where the API documents a
    ValueError (a bad SZ or GM), the game is left there."""
    try:
        if game.game_type != 1:
            return
        game.size  # noqa: B018 - raises ValueError for a bad SZ, as replay would
    except ValueError:
        return
    problems = check_tree(game)
    for problem in problems[:20]:
        assert problem.where == problem.node.describe(), (problem.where, problem.node.path)
    names = [str(p) for p in problems]
    _, line = replay(game)
    assert [str(p) for p in line] == [n for n in names if ", path" not in n]
    cursor = Cursor(game)
    cursor.to_end()
    assert [str(p) for p in cursor.problems] == [str(p) for p in line]
    cursor.to_start()


def _bulk_agrees(data: bytes, first: GameTree) -> None:
    """Where the bulk path takes a file, it gives what the full path gives."""
    fast = fast_main_line(data)
    if fast is None:
        return
    full = MainLine.from_game(*replay(first))
    assert fast.problems == full.problems, (fast.problems[:3], full.problems[:3])
    assert fast.moves.tolist() == full.moves.tolist()
    assert (fast.ruleset, fast.to_play, fast.handicap) == (
        full.ruleset,
        full.to_play,
        full.handicap,
    )
    assert np.array_equal(fast.board.grid(), full.board.grid())
    assert fast.board.hash == full.board.hash


if __name__ == "__main__":
    seeds = real_records((".sgf",), ROOT / "tests" / "data" / "records")
    run(
        "sgf_replay",
        one_input,
        expected=(SgfError,),
        seeds=seeds,
        instrument=INSTRUMENT,
        mutate=mutate,
        dictionary=DICTIONARY,
    )
    sys.exit(2)  # run never returns
