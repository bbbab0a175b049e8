"""``tengen analyze`` reviews records with an engine; ``tengen analysis`` speaks KataGo's JSON
analysis protocol."""

from __future__ import annotations

import argparse
import os
import sys

from tqdm import tqdm

from tengen.analysis import batch
from tengen.analysis.builtin import BuiltinEngine
from tengen.analysis.engine import EngineError
from tengen.analysis.server import AnalysisServer
from tengen.cli import arguments as arg
from tengen.cli.signals import terminate_as_interrupt


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
        "--visits", type=arg.count, default=1000, help="visits per position (default: 1000)"
    )
    analyze.add_argument(
        "--workers", type=arg.count, default=1, help="engines run in parallel (default: 1)"
    )
    analyze.add_argument("--threads", type=arg.count, help="built-in search threads per engine")
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
    analysis.add_argument(
        "--threads", type=arg.count, help="search threads (default: one per core)"
    )
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
        with terminate_as_interrupt():
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
