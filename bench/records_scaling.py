"""How the record paths grow with the size of the file: each operation on generated records of
three sizes, ten times apart, and the growth between them (linear is about 10x per 10x).

The records, each at three sizes:

* ``moves``: a clean main line (rows filled in a checkerboard, a node of AE clearing the board
  every 342 moves; no problem);
* ``tt``: a main line of passes written ``tt``, which the fast paths leave to the general one;
* ``problems``: every move after the first on the occupied point ``aa`` (one problem a move);
* ``values``: one node with as many AB values (the 361 points again and again);
* ``nesting``: variations nested that deep, each level's first variation a move on the stone
  just played (a problem off the main line, named by its long path);
* ``gib``/``ngf``/``ugf``/``psq``: the servers' formats with that many moves (the UGF as a
  review nested that deep); ``gib-name``, a GIB player name with that many spaces, and
  ``gib-field``, a GIB header field over that many lines.

The operations: ``parse`` (lenient) and ``parse-strict``; ``check`` (``check_tree`` and every
problem named); ``replay`` (to the end of the last variation, problems named); ``bulk``
(``bulk.replay_main_line``); ``cursor`` (a ``Cursor`` to that node); ``write``
(``serialise``); ``sgf-check``, ``sgf-info`` and ``convert``, the CLI commands on the file
(output to /dev/null); ``load`` for the formats. Each is timed ``--repeats`` times (best
counts). Growth ``x`` is the time at one size over the time at the size before; more than
``--flag`` (default 25) for a tenfold size is marked ``SUPERLINEAR``.

Run ``python bench/records_scaling.py [--quick] [--repeats N] [--out PATH]``; ``--quick``
uses a tenth of each size.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from common import RESULTS, machine, render, write_json
from tengen.cli import main as cli
from tengen.core.coords import SGF_LETTERS
from tengen.sgf import parse, serialise
from tengen.sgf.bulk import replay_main_line
from tengen.sgf.cursor import Cursor
from tengen.sgf.formats import FORMATS
from tengen.sgf.replay import check_tree, replay

DEFAULT_OUT = RESULTS / "records_scaling.json"
POINTS = [a + b for b in SGF_LETTERS[:19] for a in SGF_LETTERS[:19]]
FILL = 342  # moves before the board is cleared: rows 0-17 filled, row 18 kept empty


def clean_moves(n: int) -> str:
    """`n` moves with no problem: a checkerboard over rows 0-17, then a node clearing it."""
    parts = ["(;GM[1]FF[4]SZ[19]KM[6.5]RU[Japanese]"]
    for i in range(n):
        if i and i % FILL == 0:
            parts.append(";AE[aa:sr]")
        k = i % FILL
        parts.append(f";{'BW'[k % 2]}[{POINTS[k]}]")
    return "".join(parts) + ")"


def tt_moves(n: int) -> str:
    return "(;SZ[19]" + "".join(f";{'BW'[i % 2]}[tt]" for i in range(n)) + ")"


def problems(n: int) -> str:
    return "(;SZ[19]" + "".join(f";{'BW'[i % 2]}[aa]" for i in range(n)) + ")"


def values(n: int) -> str:
    return "(;SZ[19]AB" + "".join(f"[{POINTS[i % 361]}]" for i in range(n)) + ";W[tt])"


def nesting(n: int) -> str:
    parts = ["(;SZ[19]"]
    for i in range(n):
        color, other, point = "BW"[i % 2], "WB"[i % 2], POINTS[i % 361]
        parts.append(f";{color}[{point}](;{other}[{point}])(")
    return "".join(parts) + ";B[]" + ")" * n + ")"


def gib(n: int) -> bytes:
    head = "\\HS\n\\[GAMEBLACKNAME=a (1D)\\]\n\\[GAMEWHITENAME=b (2D)\\]\n\\HE\n\\GS\n"
    moves = "".join(f"STO 0 {i + 1} {i % 2 + 1} {i % 19} {i // 19 % 19}\n" for i in range(n))
    return (head + moves + "\\GE\n").encode()


def gib_name(n: int) -> bytes:
    """A GIB whose Black name has `n` spaces in it, before a '(' that opens no rank."""
    return ("\\HS\n\\[GAMEBLACKNAME=a" + " " * n + "(b\\]\n\\HE\n\\GS\n\\GE\n").encode()


def gib_field(n: int) -> bytes:
    """A GIB whose header has a field over `n` lines."""
    return ("\\HS\n\\[GAMECONDITION=a\n" + "b\n" * n + "\\]\n\\HE\n\\GS\n\\GE\n").encode()


def ngf(n: int) -> bytes:
    head = "Rated\n19\nwhite 2d\nblack 1d\nsite\n0\n0\n6\n20170316 [09:51]\n0\nBlack wins\n"
    letters = "BCDEFGHIJKLMNOPQRST"
    moves = [f"PM{'AB'}{'BW'[i % 2]}{letters[i % 19]}{letters[i // 19 % 19]}AA" for i in range(n)]
    return (head + f"{n}\n" + "\n".join(moves) + "\n").encode()


def ugf(n: int) -> bytes:
    lines = ["[Header]", "Size=19", "[ReviewNode]", "NODE,1,0,0,0"]
    for i in range(n):
        lines += ["VARIATION,", f"NODE,{i + 2},{i % 2 + 1},{i % 19 + 1},{i // 19 % 19 + 1}"]
    return "\n".join([*lines, *["VARIATIONEND,"] * n, ""]).encode()


def psq(n: int) -> bytes:
    moves = "".join(f"{i % 20 + 1},{i // 20 % 20 + 1},0\n" for i in range(n))
    return ("Piskvorky 20x20, 11:11, 0\n" + moves + "-1\n").encode()


SGF_RECORDS: dict[str, tuple[Callable[[int], str], tuple[int, int, int]]] = {
    "moves": (clean_moves, (2_000, 20_000, 200_000)),
    "tt": (tt_moves, (2_000, 20_000, 200_000)),
    "problems": (problems, (2_000, 20_000, 200_000)),
    "values": (values, (10_000, 100_000, 1_000_000)),
    "nesting": (nesting, (1_600, 16_000, 160_000)),
}
FORMAT_RECORDS: dict[str, tuple[Callable[[int], bytes], tuple[int, int, int]]] = {
    "gib": (gib, (2_000, 20_000, 200_000)),
    "gib-name": (gib_name, (2_000, 20_000, 200_000)),
    "gib-field": (gib_field, (2_000, 20_000, 200_000)),
    "ngf": (ngf, (2_000, 20_000, 200_000)),
    "ugf": (ugf, (1_600, 16_000, 160_000)),
    "psq": (psq, (2_000, 20_000, 200_000)),
}


def sgf_operations(path: Path) -> dict[str, Callable[[], object]]:
    """Every operation on the SGF file at `path`, each from the bytes or a parsed tree."""
    data = path.read_bytes()
    tree = parse(data).games[0]
    out = path.parent / "out"

    def check() -> int:
        return len([str(p) for p in check_tree(tree)])

    last = tree.root  # the end of the last variation: the deepest node of a nesting
    while last.children:
        last = last.children[-1]

    def replay_line() -> int:
        return len([str(p) for p in replay(tree, last)[1]])

    def cursor() -> int:
        moved = Cursor(tree)
        moved.go_to(last)
        return len([str(p) for p in moved.problems])

    return {
        "parse": lambda: parse(data),
        "parse-strict": lambda: parse(data, strict=True),
        "check": check,
        "replay": replay_line,
        "bulk": lambda: len(replay_main_line(data).problems),
        "cursor": cursor,
        "write": lambda: serialise(tree),
        "sgf-check": lambda: _quiet(["sgf", "check", str(path), "--no-progress"]),
        "sgf-info": lambda: _quiet(["sgf", "info", str(path), "--no-progress"]),
        "convert": lambda: _quiet(["convert", str(path), "-o", str(out), "--force"]),
    }


def _quiet(argv: list[str]) -> int:
    """A CLI command with its output (stdout and stderr) sent to /dev/null."""
    with (
        open(os.devnull, "w") as sink,
        contextlib.redirect_stdout(sink),
        contextlib.redirect_stderr(sink),
    ):
        return cli(argv)


def measure(repeats: int, scale: int) -> list[dict[str, object]]:
    """Every (record, operation) row: seconds at each size."""
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (make, sizes) in SGF_RECORDS.items():
            times: dict[str, list[float]] = {}
            sizes = tuple(s // scale for s in sizes)
            for size in sizes:
                path = Path(tmp) / f"{name}.sgf"
                path.write_text(make(size), encoding="utf-8")
                for op, run in sgf_operations(path).items():
                    times.setdefault(op, []).append(best(run, repeats))
                print(f"  {name} {size}: done", file=sys.stderr, flush=True)
            rows += [_row(name, op, sizes, t) for op, t in times.items()]
        for name, (make, sizes) in FORMAT_RECORDS.items():
            sizes = tuple(s // scale for s in sizes)
            seconds = []
            for size in sizes:
                data, load = make(size), FORMATS[f".{name.split('-')[0]}"]
                seconds.append(best(lambda d=data, f=load: serialise(f(d)), repeats))
            rows.append(_row(name, "load+write", sizes, seconds))
            print(f"  {name}: done", file=sys.stderr, flush=True)
    return rows


def best(run: Callable[[], object], repeats: int) -> float:
    """The best of `repeats` times, each after a full collection, so that no timing pays for
    freeing the trees of the one before (trees are cycles: the collector frees them)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def _row(record: str, op: str, sizes: tuple[int, ...], seconds: list[float]) -> dict[str, object]:
    return {"record": record, "operation": op, "sizes": list(sizes), "seconds": seconds}


def table(rows: list[dict[str, object]], flag: float) -> str:
    """Time per size and the growth between sizes, superlinear growth marked."""
    body = []
    for row in rows:
        seconds: list[float] = row["seconds"]  # type: ignore[assignment]
        sizes: list[int] = row["sizes"]  # type: ignore[assignment]
        growth = [b / a if a > 0 else float("inf") for a, b in pairwise(seconds)]
        body.append(
            (
                str(row["record"]),
                str(row["operation"]),
                "/".join(_count(s) for s in sizes),
                *(f"{s:.4f}" for s in seconds),
                *(f"{g:.1f}x" for g in growth),
                "SUPERLINEAR" if any(g > flag for g in growth) else "",
            )
        )
    head = ("record", "operation", "sizes", "s small", "s mid", "s large", "x mid", "x large", "")
    return render(head, body)


def _count(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 else f"{n // 1000}k" if n >= 1000 else str(n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of each size")
    parser.add_argument("--repeats", type=int, default=3, help="timings per cell (best counts)")
    parser.add_argument("--flag", type=float, default=25.0, help="growth per 10x to mark")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the JSON file")
    args = parser.parse_args()
    sys.setrecursionlimit(1000)  # the default: nothing may need more
    start = time.perf_counter()
    rows = measure(args.repeats, 10 if args.quick else 1)
    print(table(rows, args.flag))
    took = time.perf_counter() - start
    print(f"{took:.0f} s in all; load average {os.getloadavg()[0]:.1f}")
    write_json(args.out, {"machine": machine(), "rows": rows, "seconds": took})


if __name__ == "__main__":
    main()
