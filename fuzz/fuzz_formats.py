"""Fuzz the importers of the servers' formats (GIB, NGF, UGF/UGI, PSQ) and what follows them:
the imported game written as SGF and read back, and replayed.

An input's first byte picks the format, the rest is the file. Inputs start from the real
records of each format (the shared corpus, else tests/data) and each format's opening, mutated
by libFuzzer at the byte level and here line by line: lines copied (many times), deleted,
swapped, a line of the format's own syntax inserted, review variations nested deep. Checked:
an importer raises nothing but `RecordError` (with a line >= 1 when it names one); the game
reads back from SGF as the same tree; a Go game replays, naming its problems.

    python fuzz/fuzz_formats.py --seconds 60     # see fuzz/harness.py and docs/FUZZING.md
"""

from __future__ import annotations

import random
import sys

import atheris

from fuzz_sgf import round_trip
from harness import ROOT, real_records, run
from tengen.sgf.formats import FORMATS, RecordError
from tengen.sgf.replay import check_tree

EXTENSIONS = sorted(FORMATS)
INSTRUMENT = [f"tengen.sgf.formats.{name}" for name in ("common", "gib", "ngf", "ugf", "psq")]
OPENINGS = {
    ".gib": b"\\HS\n\\[GAMEINFOMAIN=GRLT:0,ZIPSU:5\\]\n\\HE\n\\GS\nSTO 0 2 1 3 3\n\\GE\n",
    ".ngf": b"GIx\nGIa 1k\nGIb\nGI\nGI\nGI2020-1-1\nGI19\nGI0\nGI0\nGI6\nGI1\nPMABBREER\n",
    ".psq": b"Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\n",
    ".ugf": b"[Header]\nSize=19\nHdcp=2,0.5\n[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,4,4\n",
    ".ugi": b"[Header]\nLang=SJIS\n[Data]\nQP,B1,1,0\nYA,W1,2,0\n",
}
LINES = [
    b"", b"\\[", b"\\]", b"\\HS", b"\\HE", b"\\GS", b"\\GE", b"STO 0 2 1 3 3", b"STO 0 2 2 18 18",
    b"STO 0 9 1 19 0", b"SKI 0 3", b"INI 0 1 9 &4", b"INI 0 1 1 &4", b"\\[GAMEBLACKNAME=a (9D)\\]",
    b"\\[GAMEINFOMAIN=GRLT:0,ZIPSU:99999999,GTIME:600-30-3\\]", b"\\[GAMEDATE=2015- 8-29\\]",
    b"PMABBREER", b"PMACWAAAA", b"PMADBTTTT", b"GI19", b"GI99999", "IDB[1] 黑胜[EndTxt]".encode(),
    b"[Header]", b"[Data]", b"[ReviewNode]", b"[ReviewComment]", b"Size=25", b"Size=1",
    b"Hdcp=9,-5.50", b"Winner=B,7.50", b"Lang=GB", b"CoordinateType=XYZ", b"QP,B1,1,0",
    b"YA,W1,2,0", b"VARIATION,", b"VARIATIONEND,", b"NODE,2,1,20,20", b"NODE,3,2,1,1",
    b"NODE,4,0,0,0", b".Comment,2", b"Piskvorky 20x20, 11:11, 0", b"10,10,0", b"0,0,0",
    b"99,99,0", b"-1", b"\xff\xfe", b"\x00",
]  # fmt: skip


def one_input(data: bytes) -> None:
    """Import, write and read back, replay."""
    if not data:
        return
    loader = FORMATS[EXTENSIONS[data[0] % len(EXTENSIONS)]]
    try:
        tree = loader(data[1:])
    except RecordError as error:
        assert error.line is None or error.line >= 1, error
        return
    round_trip([tree])
    if tree.game_type == 1:
        names = [str(p) for p in check_tree(tree)]
        assert all(name.startswith(("root", "move ")) for name in names)


def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    """libFuzzer's byte mutations of the file half the time; line edits the other half. The
    first byte, the format, changes only rarely."""
    rng = random.Random(seed)
    head, body = data[:1] or bytes([rng.randrange(len(EXTENSIONS))]), data[1:]
    if rng.random() < 0.02:
        head = bytes([rng.randrange(len(EXTENSIONS))])
    if rng.random() < 0.5:
        return head + atheris.Mutate(body, max_size - 1)
    lines = body.split(b"\n")
    at = rng.randrange(len(lines) + 1)
    kind = rng.randrange(5)
    if kind == 0:
        lines.insert(at, rng.choice(LINES))
    elif kind == 1 and lines:
        lines[at:at] = [rng.choice(lines)] * rng.choice((1, 2, 10, 200))
    elif kind == 2 and lines:
        del lines[rng.randrange(len(lines))]
    elif kind == 3 and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        depth = rng.choice((1, 5, 100))
        nodes = [
            b"VARIATION,\nNODE,%d,%d,%d,%d" % (i + 9, i % 2 + 1, i % 9 + 1, 2) for i in range(depth)
        ]
        lines[at:at] = [*nodes, *[b"VARIATIONEND,"] * depth]
    return (head + b"\n".join(lines))[:max_size]


if __name__ == "__main__":
    seeds = [bytes([i]) + opening for i, opening in enumerate(OPENINGS[e] for e in EXTENSIONS)]
    for i, extension in enumerate(EXTENSIONS):
        found = real_records((extension,), ROOT / "tests" / "data" / "formats", limit=50)
        seeds += [bytes([i]) + data for data in found]
    run(
        "formats",
        one_input,
        expected=(RecordError,),
        seeds=seeds,
        instrument=INSTRUMENT,
        mutate=mutate,
    )
    sys.exit(2)  # run never returns
