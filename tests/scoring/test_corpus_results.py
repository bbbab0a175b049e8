"""Recounting the corpus records that were played to a counted end, against their RE[].

`make test` recounts every second record file (by path): 1-2 minutes where all took 2-4;
``TENGEN_RECOUNT_EVERY=1`` (`make check-long`) recounts them all.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tengen.recount import recount
from tengen.sgf import SgfError, parse_file

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
EVERY = int(os.environ.get("TENGEN_RECOUNT_EVERY", "2"))  # recount every EVERY-th file


def test_recounted_results_agree_with_the_records(capsys: pytest.CaptureFixture[str]) -> None:
    """Where the dead stones are clear (every chain's status at least 80% sure), at least 90%
    of counted, finished records get the same result; the rate is printed with every
    disagreement for a person to judge (most are bug-reproduction files or a KM that differs
    from the komi the server counted with)."""
    if not CORPUS.is_dir():
        pytest.skip(f"the corpus is not at {CORPUS}")
    compared = agreed = clear = clear_agreed = 0
    disagreements = []
    paths = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() == ".sgf")
    for path in paths[::EVERY]:
        try:
            games = parse_file(path).games
        except SgfError:
            continue
        for tree in games:
            try:
                found = recount(tree)
            except ValueError:
                continue
            if found is None:
                continue
            compared += 1
            agreed += found.agrees
            if found.confidence >= 0.8:
                clear += 1
                clear_agreed += found.agrees
            if not found.agrees:
                disagreements.append(
                    f"  {path.relative_to(CORPUS)}: RE[{found.recorded.to_sgf()}], counted "
                    f"{found.counted.result.to_sgf()} (confidence {found.confidence:.2f})"
                )
    with capsys.disabled():
        print(
            f"\nrecounted {compared} finished records: {agreed} agree ({agreed / compared:.1%});"
            f" with clear dead stones {clear_agreed} of {clear} ({clear_agreed / clear:.1%})"
        )
        print("\n".join(disagreements))
    assert compared > 400 // EVERY and clear > 80 // EVERY
    assert clear_agreed / clear >= 0.9
    assert agreed / compared >= 0.9
