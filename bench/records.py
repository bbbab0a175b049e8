"""Game-record throughput (games/s, MB/s, moves/s) of tengen vs sgfmill over the SGF corpus.

The workload, the same for all, file by file from bytes already in memory: read the file, then
replay the main line of its first game on a board. The ``-parse`` rows time the parsing alone,
to show where each side spends its time. A last table gives the memory a parsed record keeps:
the files all read, repeated to ``MEMORY_RECORDS`` records, each kept parsed (tengen's whole
tree, sgfmill's game), measured with tracemalloc.

* ``tengen``: ``tengen.sgf.bulk.replay_main_line``, the bulk path: a compiled scan of the bytes
  finds the main line and one compiled call replays it (setup, moves, captures, ko and superko
  checks; illegal moves reported and played permissively); the few files it does not take
  plainly go through the full path below, so the result is the same;
* ``tengen-full``: the full path, ``tengen.sgf.parse`` (the whole tree; lenient, charset from
  CA or detected) then ``tengen.sgf.replay.replay`` (move by move through ``Game``);
* ``sgfmill``: ``sgf.Sgf_game.from_bytes``, ``sgf_moves.get_setup_and_moves`` and
  ``boards.Board.play`` for each move (captures only; an occupied point is skipped).

Every ``.sgf`` file under the corpus is tried with each first (which also warms them up); a
file one side cannot read is counted and left out, and all are timed on the files all read.
Each side is timed ``--repeats`` times, alternating, and the best time counts.

Run ``python bench/records.py [--quick] [--out PATH] [--profile N [--side ROW]]``; see
bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from sgfmill import boards, sgf, sgf_moves

from common import RESULTS, machine, render, write_json
from tengen import __version__
from tengen.sgf import parse
from tengen.sgf.bulk import fast_main_line, replay_main_line
from tengen.sgf.replay import replay

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
DEFAULT_OUT = RESULTS / "records.json"
QUICK_FILES = 200  # files sampled (evenly over the sorted list) by --quick
MEMORY_RECORDS = 10_000  # records kept parsed for the memory table (1,000 with --quick)

Workload = Callable[[bytes], int]  # one file's bytes -> moves replayed; raises if unreadable


def tengen_file(data: bytes) -> int:
    """Replay the first game's main line by tengen's bulk path; the moves played."""
    return len(replay_main_line(data).moves)


def tengen_full_file(data: bytes) -> int:
    """Parse the whole tree with tengen and replay the first game's main line; the moves played."""
    game, _ = replay(parse(data).games[0])
    return game.move_number


def sgfmill_file(data: bytes) -> int:
    """Parse with sgfmill and play the first game's main line on its board; the moves read."""
    board, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(data))
    play_on(board, plays)
    return len(plays)


def play_on(board: boards.Board, plays: list[tuple[str, tuple[int, int] | None]]) -> None:
    """Play each move, skipping passes and the occupied points sgfmill refuses."""
    for colour, move in plays:
        if move is not None:
            try:  # noqa: SIM105 - suppress() would slow sgfmill's inner loop
                board.play(move[0], move[1], colour)
            except ValueError:
                pass


def tengen_parse(data: bytes) -> int:
    """Parsing alone, to split tengen's time: parse with tengen; no moves."""
    parse(data)
    return 0


def sgfmill_parse(data: bytes) -> int:
    """Parsing alone, to split sgfmill's time: parse with sgfmill; no moves."""
    sgf.Sgf_game.from_bytes(data)
    return 0


SIDES: dict[str, Workload] = {
    "tengen": tengen_file,
    "tengen-full": tengen_full_file,
    "sgfmill": sgfmill_file,
}
PARTS: dict[str, Workload] = {"tengen-parse": tengen_parse, "sgfmill-parse": sgfmill_parse}


@dataclass
class Result:
    """One implementation over the common files."""

    implementation: str
    files: int
    megabytes: float
    moves: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        """Files (one game each) per second."""
        return self.files / self.seconds

    @property
    def mb_per_s(self) -> float:
        """Megabytes of SGF per second."""
        return self.megabytes / self.seconds

    @property
    def moves_per_s(self) -> float:
        """Moves (passes included) per second; 0 for a parse-only row."""
        return self.moves / self.seconds


def corpus_files(corpus: Path, quick: bool) -> list[Path]:
    """The ``.sgf`` files (any case) under `corpus`, sorted; an even sample with `quick`."""
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file())
    if quick and len(files) > QUICK_FILES:
        step = len(files) / QUICK_FILES
        files = [files[int(i * step)] for i in range(QUICK_FILES)]
    return files


def readable(work: Workload, datas: list[bytes]) -> list[int | None]:
    """Each file's move count, or None where `work` raises."""
    counts: list[int | None] = []
    for data in datas:
        try:
            counts.append(work(data))
        except Exception:
            counts.append(None)
    return counts


def timed(work: Workload, datas: list[bytes]) -> tuple[float, int]:
    """Seconds for `work` over every file, and the moves it played."""
    start = time.perf_counter()
    moves = sum(work(data) for data in datas)
    return time.perf_counter() - start, moves


def run(datas: list[bytes], repeats: int) -> tuple[list[Result], dict[str, object]]:
    """Try every file on each side, then time all on the files all read."""
    counts = {name: readable(work, datas) for name, work in SIDES.items()}
    common = [i for i in range(len(datas)) if all(c[i] is not None for c in counts.values())]
    chosen = [datas[i] for i in common]
    best: dict[str, tuple[float, int]] = {}
    workloads = {**SIDES, **PARTS}
    for repeat in range(repeats):
        order = list(workloads) if repeat % 2 == 0 else list(workloads)[::-1]
        for name in order:
            seconds, moves = timed(workloads[name], chosen)
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, moves)
    megabytes = sum(map(len, chosen)) / 1e6
    results = [Result(name, len(chosen), megabytes, m, s) for name, (s, m) in best.items()]
    meta: dict[str, object] = {
        "files_found": len(datas),
        "files_timed": len(chosen),
        "unreadable": {name: sum(c is None for c in cs) for name, cs in counts.items()},
        "move_counts_differ": sum(counts["tengen"][i] != counts["sgfmill"][i] for i in common),
        "bulk_and_full_moves_differ": sum(
            counts["tengen"][i] != counts["tengen-full"][i] for i in common
        ),
        "bulk_fallbacks": sum(fast_main_line(data) is None for data in chosen),
        "repeats": repeats,
    }
    return results, meta


def kept_bytes(parse_one: Callable[[bytes], object], datas: list[bytes], records: int) -> float:
    """Bytes per record that `parse_one`'s results keep, `datas` cycled to `records` records
    (tracemalloc: what is allocated and still held once all are parsed)."""
    gc.collect()
    tracemalloc.start()
    kept = [parse_one(datas[i % len(datas)]) for i in range(records)]
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return held / records


def memory(datas: list[bytes], records: int) -> dict[str, float]:
    """Bytes per parsed record, tengen's and sgfmill's, on the files both read."""
    chosen = [d for d in datas if readable(tengen_parse, [d]) != [None]]
    chosen = [d for d in chosen if readable(sgfmill_parse, [d]) != [None]]
    return {
        "tengen": kept_bytes(parse, chosen, records),
        "sgfmill": kept_bytes(sgf.Sgf_game.from_bytes, chosen, records),
    }


def profile(datas: list[bytes], top: int, side: str) -> None:
    """Print the `top` functions of one row's workload by own time over the files it reads."""
    profiler = cProfile.Profile()
    profiler.enable()
    readable({**SIDES, **PARTS}[side], datas)
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def table(results: list[Result]) -> str:
    """The results as an aligned table, each row's speed relative to sgfmill's same row."""
    by_name = {r.implementation: r for r in results}
    head = ("implementation", "files", "MB", "moves", "seconds", "games/s", "MB/s", "moves/s")
    body = [
        (
            r.implementation,
            f"{r.files}",
            f"{r.megabytes:.2f}",
            f"{r.moves}",
            f"{r.seconds:.3f}",
            f"{r.games_per_s:,.1f}",
            f"{r.mb_per_s:.2f}",
            f"{r.moves_per_s:,.0f}",
            f"{by_name[_counterpart(r)].seconds / r.seconds:.2f}",
        )
        for r in results
    ]
    return render((*head, "x sgfmill"), body)


def _counterpart(result: Result) -> str:
    """The sgfmill row a row is compared with: ``sgfmill-parse`` for parse rows, else sgfmill."""
    return "sgfmill-parse" if result.implementation.endswith("-parse") else "sgfmill"


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_FILES} files, one timing")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of records")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    parser.add_argument("--repeats", type=int, help="timings per side (default: 3, quick 1)")
    parser.add_argument("--profile", type=int, metavar="N", help="also print a row's top N")
    parser.add_argument(
        "--side", choices=[*SIDES, *PARTS], default="tengen", help="the row --profile profiles"
    )
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        parser.error(f"no corpus at {args.corpus}")
    files = corpus_files(args.corpus, args.quick)
    datas = [p.read_bytes() for p in files]
    repeats = args.repeats or (1 if args.quick else 3)
    results, meta = run(datas, repeats)
    print(table(results))
    unreadable = meta["unreadable"]
    print(
        f"\n{meta['files_found']} files found; unreadable: {unreadable}; all timed on "
        f"{meta['files_timed']} (best of {repeats}). x sgfmill = sgfmill's time / this time "
        "(parse rows: sgfmill-parse's). tengen is the bulk path; it left "
        f"{meta['bulk_fallbacks']} of these files to the full path (tengen-full). "
        f"Move counts differ from sgfmill's on {meta['move_counts_differ']} files (tengen "
        "counts the moves it played, sgfmill the moves it read), between tengen and "
        f"tengen-full on {meta['bulk_and_full_moves_differ']}."
    )
    records = MEMORY_RECORDS // 10 if args.quick else MEMORY_RECORDS
    held = memory(datas, records)
    print()
    print(
        render(
            ("parsed record", "KB kept", "x sgfmill"),
            [(n, f"{b / 1024:.1f}", f"{held['sgfmill'] / b:.2f}") for n, b in held.items()],
        )
    )
    print(
        f"{records:,} records (the files both read, cycled), each kept parsed; tracemalloc. "
        "x sgfmill = sgfmill's bytes / this row's (above 1: tengen smaller)."
    )
    meta["memory_records"] = records
    meta["bytes_per_record"] = held
    if args.profile:
        profile(datas, args.profile, args.side)
    meta.update(corpus=str(args.corpus), quick=args.quick, tengen=__version__)
    meta["machine"] = machine()
    ratio = {r.implementation: r for r in results}
    payload = {
        "meta": meta,
        "results": [
            {
                **asdict(r),
                "games_per_s": r.games_per_s,
                "mb_per_s": r.mb_per_s,
                "moves_per_s": r.moves_per_s,
            }
            for r in results
        ],
        "tengen_over_sgfmill": ratio["sgfmill"].seconds / ratio["tengen"].seconds,
        "tengen_full_over_sgfmill": ratio["sgfmill"].seconds / ratio["tengen-full"].seconds,
        "tengen_over_sgfmill_parse": ratio["sgfmill-parse"].seconds / ratio["tengen-parse"].seconds,
    }
    write_json(args.out, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
