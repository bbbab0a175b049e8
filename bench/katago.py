"""tengen's overhead on KataGo's analysis: one whole game through KataGo's JSON analysis
engine, asked directly (a bare pipe, the JSON written and read and nothing else) and through
tengen (`JsonAnalyser` + the review: queries built from the record, results parsed into
`Analysis` values, points lost, the record annotated and serialised).

Each run starts a fresh KataGo (so no run profits from another's cache) and is timed from the
query to the last result, the network's loading left out. Runs alternate bare/tengen to share
the machine's noise. Needs ``TENGEN_KATAGO`` and ``TENGEN_KATAGO_MODEL`` (``make katago``).

    python bench/katago.py [--visits 100] [--runs 3] [RECORD]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import RESULTS, machine, render, write_json
from tengen.analysis.katago import JsonAnalyser
from tengen.analysis.position import line_positions
from tengen.analysis.protocol import query
from tengen.analysis.review import annotate, review
from tengen.sgf import parse, serialise

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "analysis" / "data" / "abandoned_group.sgf"
CONFIG = """\
logDir = {logs}
logToStderr = false
reportAnalysisWinratesAs = SIDETOMOVE
numAnalysisThreads = 2
numSearchThreadsPerAnalysisThread = 1
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 18
nnMutexPoolSizePowerOfTwo = 12
"""


def command(folder: Path) -> list[str]:
    binary, model = os.environ["TENGEN_KATAGO"], os.environ["TENGEN_KATAGO_MODEL"]
    config = folder / "analysis.cfg"
    config.write_text(CONFIG.format(logs=folder / "logs"), encoding="utf-8")
    return [binary, "analysis", "-config", str(config), "-model", model]


def bare(argv: list[str], record: bytes, visits: int) -> float:
    """KataGo alone: write the query, read lines until every turn has its final result."""
    position, _ = line_positions(parse(record).games[0])
    turns = list(range(len(position.moves) + 1))
    with subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write('{"id":"v","action":"query_version"}\n')
        proc.stdin.flush()
        proc.stdout.readline()  # the network is loaded
        line = json.dumps(query("g", position, turns, visits)) + "\n"
        start = time.perf_counter()
        proc.stdin.write(line)
        proc.stdin.flush()
        left = len(turns)
        while left:
            data = json.loads(proc.stdout.readline())
            left -= not data.get("isDuringSearch", True)
        elapsed = time.perf_counter() - start
        proc.stdin.close()
        proc.wait()
    return elapsed


def through_tengen(argv: list[str], record: bytes, visits: int) -> tuple[float, float]:
    """KataGo under tengen: the review of the record, annotated and serialised. Returns the
    wall time and the CPU time tengen's own process spent (its threads included): the part
    of the overhead that a busy machine cannot blur."""
    engine = JsonAnalyser(argv)  # waits for the network, as `bare` does
    try:
        start, cpu = time.perf_counter(), time.process_time()
        tree = parse(record).games[0]
        position, nodes = line_positions(tree)
        result = review(engine, position, visits)
        annotate(tree.root, nodes, result, position.height)
        serialise(tree)
        return time.perf_counter() - start, time.process_time() - cpu
    finally:
        engine.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", nargs="?", type=Path, default=RECORD)
    parser.add_argument("--visits", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (os.environ.get("TENGEN_KATAGO") and os.environ.get("TENGEN_KATAGO_MODEL")):
        sys.exit("set TENGEN_KATAGO and TENGEN_KATAGO_MODEL (make katago prints them)")
    record = args.record.read_bytes()
    times: dict[str, list[float]] = {"bare": [], "tengen": []}
    cpu: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        argv = command(Path(folder))
        for _ in range(args.runs):
            times["bare"].append(bare(argv, record, args.visits))
            wall, used = through_tengen(argv, record, args.visits)
            times["tengen"].append(wall)
            cpu.append(used)
    positions = len(parse(record).games[0].main_line())
    rows = []
    for name, values in times.items():
        median = statistics.median(values)
        rate = positions * args.visits / median
        spread = f"{min(values):.2f}-{max(values):.2f}"
        rows.append((name, f"{median:.2f}", spread, f"{rate:.0f}"))
    overhead = statistics.median(times["tengen"]) / statistics.median(times["bare"]) - 1
    print(f"{positions} positions x {args.visits} visits, {args.runs} runs each, alternating")
    print(render(("KataGo", "median s", "range s", "visits/s"), rows))
    print(f"tengen's overhead: {100 * overhead:+.1f}% of KataGo's own time (wall clock)")
    share = statistics.median(cpu) / statistics.median(times["bare"])
    print(f"tengen's own CPU: {statistics.median(cpu):.2f} s, {100 * share:.2f}% of KataGo's time")
    write_json(
        RESULTS / "katago.json",
        {"machine": machine(), "visits": args.visits, "positions": positions, "times": times,
         "overhead": overhead, "tengen_cpu": cpu},
    )  # fmt: skip


if __name__ == "__main__":
    main()
