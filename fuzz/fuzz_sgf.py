"""Fuzz the SGF reader and writer: bytes through parse, lenient and strict, and back.

Inputs start from real records (the shared corpus, else tests/data), mutated by libFuzzer at
the byte level (with an SGF dictionary) and by `sgf_mutations` at the level of SGF. Checked:
parse raises nothing but `SgfError` (with a line and column); where strict reading takes a
file, lenient reading gives the same trees with no repair; written games read back strictly,
with no warning, as the same trees; writing what was read back gives the same bytes.
(`fuzz_sgf_replay` takes the games on to the rules.)

    python fuzz/fuzz_sgf.py --seconds 60        # see fuzz/harness.py and docs/FUZZING.md
"""

from __future__ import annotations

import sys

from harness import ROOT, real_records, run
from sgf_mutations import DICTIONARY, mutate
from tengen.sgf import GameTree, SgfError, first_difference, parse, serialise

INSTRUMENT = ["tengen.sgf.grammar", "tengen.sgf.encoding", "tengen.sgf.tree"]


def one_input(data: bytes) -> None:
    """Read the bytes both ways, compare, write and read back."""
    try:
        lenient = parse(data)
    except SgfError as error:
        assert error.line >= 1 and error.col >= 1, error
        lenient = None
    try:
        strict = parse(data, strict=True)
    except SgfError as error:
        assert error.line >= 1 and error.col >= 1, error
        strict = None
    if strict is not None:
        assert lenient is not None, "strict reading takes what lenient reading refuses"
        assert all(w.message.startswith("no CA") for w in strict.warnings), strict.warnings
        assert [str(w) for w in lenient.warnings] == [str(w) for w in strict.warnings]
        _same(lenient.games, strict.games)
    if lenient is not None:
        assert all(w.line >= 1 and w.col >= 1 for w in lenient.warnings)
        round_trip(lenient.games)


def _same(games: list[GameTree], others: list[GameTree]) -> None:
    assert len(games) == len(others)
    for game, other in zip(games, others, strict=True):
        difference = first_difference(game.root, other.root)
        assert difference is None, difference


def round_trip(games: list[GameTree]) -> None:
    """Written games read back strictly, with no warning, as the same trees; and writing
    what was read gives the same bytes."""
    written = serialise(games)
    again = parse(written, strict=True)
    assert again.warnings == [], again.warnings[:3]
    for game in games:
        game.root.properties["CA"] = ["UTF-8"]  # what serialise writes
    _same(games, again.games)
    assert serialise(again.games) == written


if __name__ == "__main__":
    seeds = real_records((".sgf",), ROOT / "tests" / "data" / "records")
    run(
        "sgf",
        one_input,
        expected=(SgfError,),
        seeds=seeds,
        instrument=INSTRUMENT,
        mutate=mutate,
        dictionary=DICTIONARY,
    )
    sys.exit(2)  # run never returns
