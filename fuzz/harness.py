"""Run a fuzz target under atheris (libFuzzer) for a time, as ``fuzz/README``'s convention says.

A target script calls `run` with a function that takes one input (bytes) and raises only the
errors its API documents, which it lists in `expected`. The script is started as

    python fuzz/fuzz_<target>.py --seconds S [--seed N]   # fuzz for about S seconds
    python fuzz/fuzz_<target>.py --reproduce FILE...      # run saved inputs, tracebacks shown

and ends with the one line ``fuzz <target>: <N> inputs, <F> failures``, exit 1 if F > 0.
A failure is an exception not in `expected` (its input and traceback go to
``fuzz/failures/<target>/``); an input that takes longer than `slow` seconds, and than 25
times the usual time per byte of the recent inputs, twice in a row (time quadratic in the
input, say; a limit relative to the other inputs holds on a busy machine); or a hang or crash
libFuzzer stops (``-timeout``, ``-rss_limit_mb``; it writes the input there itself and a fresh
worker goes on fuzzing).

The fuzzing runs in a worker process (this script again, with ``--worker``), so a hang or a
native crash is counted and the run goes on. Only the pure-Python modules in `instrument` get
coverage instrumentation: numba compiles the bytecode of its kernels, which instrumented code
would break.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import types
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NoReturn

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = ROOT.parent / "shared" / "corpus"  # the real records, beside the work tree
FAILURES = FUZZ / "failures"
KEEP = 3  # inputs saved per distinct failure (exception type and place)

OneInput = Callable[[bytes], None]
Mutator = Callable[[bytes, int, int], bytes]  # (data, max_size, seed) -> new data


def real_records(suffixes: Sequence[str], fixtures: Path, limit: int = 400) -> list[bytes]:
    """The project's fixtures under `fixtures` and up to `limit` record files with these
    suffixes (case ignored, at most 32 KB) from the shared corpus when it is there, spread
    evenly over its sorted list."""
    found = []
    for base in (CORPUS, fixtures):
        if base.is_dir():
            files = [p for p in sorted(base.rglob("*")) if p.suffix.lower() in suffixes]
            files = [p for p in files if p.is_file() and p.stat().st_size <= 32_000]
            step = max(1, len(files) // limit)
            found += [p.read_bytes() for p in files[::step][:limit]]
    return found


def run(
    target: str,
    one_input: OneInput,
    expected: tuple[type[BaseException], ...],
    seeds: Iterable[bytes],
    instrument: Sequence[str],
    mutate: Mutator | None = None,
    dictionary: Path | None = None,
    slow: float = 2.0,
    max_len: int = 32_768,
) -> NoReturn:
    """Fuzz `one_input` as the command line asks (see the module docstring); never returns."""
    parser = argparse.ArgumentParser(description=f"fuzz the {target} target")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=None, help="libFuzzer's random seed")
    parser.add_argument("--timeout", type=int, default=20, help="seconds one input may hang")
    parser.add_argument("--reproduce", nargs="+", type=Path, help="run these inputs once")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)  # the stats file
    parser.add_argument("corpus", nargs="*", type=Path, help=argparse.SUPPRESS)  # the worker's
    args = parser.parse_args()
    if args.reproduce:
        sys.exit(_reproduce(target, one_input, expected, args.reproduce))
    if args.worker is not None:
        _work(target, one_input, expected, args, instrument, mutate, dictionary, slow, max_len)
    sys.exit(_drive(target, list(seeds), args))


def _drive(target: str, seeds: list[bytes], args: argparse.Namespace) -> int:
    """Start workers until the time is up; print the summary line; the exit status."""
    failures_dir = FAILURES / target
    failures_dir.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + args.seconds
    inputs = failures = rounds = 0
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{target}-") as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        for data in seeds:
            (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)
        stats, log = Path(tmp) / "stats", Path(tmp) / "log"
        while (left := deadline - time.monotonic()) > 0.5 or rounds == 0:
            stats.write_text("0 0")
            command = [sys.executable, sys.argv[0], "--worker", str(stats)]
            command += ["--seconds", f"{max(left, 1.0):.1f}", "--timeout", str(args.timeout)]
            if args.seed is not None:
                command += ["--seed", str(args.seed + rounds)]
            command.append(str(corpus))
            with log.open("wb") as out:
                code = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
            done, failed = (int(x) for x in stats.read_text().split())
            inputs, failures, rounds = inputs + done, failures + failed, rounds + 1
            if code not in (0, 1):  # stopped by libFuzzer: a hang, a crash, out of memory
                failures += 1
                kept = failures_dir / f"worker-{int(time.time())}-{code}.log"
                kept.write_bytes(log.read_bytes()[-20_000:])
                print(f"fuzz {target}: worker stopped (exit {code}); see {kept}", flush=True)
    if failures:
        print(f"fuzz {target}: failing inputs and tracebacks in {failures_dir}", flush=True)
    print(f"fuzz {target}: {inputs} inputs, {failures} failures", flush=True)
    return 1 if failures else 0


class _Stats:
    """The worker's counts, written to the driver's file now and then and at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.inputs = 0
        self.failures = 0
        self.written = time.monotonic()

    def save(self) -> None:
        self.path.write_text(f"{self.inputs} {self.failures}")
        self.written = time.monotonic()


def _work(
    target: str,
    one_input: OneInput,
    expected: tuple[type[BaseException], ...],
    args: argparse.Namespace,
    instrument: Sequence[str],
    mutate: Mutator | None,
    dictionary: Path | None,
    slow: float,
    max_len: int,
) -> NoReturn:
    """The worker: libFuzzer calls `one_input` on input after input until the deadline."""
    import atheris

    stats = _Stats(args.worker)
    deadline = time.monotonic() + args.seconds
    failures_dir = FAILURES / target
    seen: dict[str, int] = {}

    def fail(data: bytes, report: str, key: str) -> None:
        stats.failures += 1
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= KEEP:
            name = hashlib.sha1(data).hexdigest()[:16]
            (failures_dir / f"{name}.input").write_bytes(data)
            (failures_dir / f"{name}.txt").write_text(report)
        stats.save()

    per_byte: deque[float] = deque(maxlen=2000)  # seconds per byte of the recent inputs
    usual = [0.0]  # their median, updated every 200 inputs

    def test(data: bytes) -> None:
        now = time.monotonic()
        if now >= deadline and stats.inputs:  # at least one input, however late it starts
            stats.save()
            os._exit(0)
        stats.inputs += 1
        error = _outcome(one_input, data, expected)
        took = time.monotonic() - now
        per_byte.append(took / max(len(data), 64))
        if stats.inputs % 200 == 0:
            usual[0] = statistics.median(per_byte)
        limit = max(slow, 25 * usual[0] * len(data))
        if error is not None:
            fail(data, error[0], error[1])
        elif took > limit:
            again = time.monotonic()
            _outcome(one_input, data, expected)
            took = time.monotonic() - again
            if took > limit:
                report = f"slow: {took:.2f} s for {len(data)} bytes (limit {limit:.2f} s)\n"
                fail(data, report, "slow")
        if time.monotonic() - stats.written > 0.5:
            stats.save()

    _instrument(instrument)
    argv = [sys.argv[0], f"-timeout={args.timeout}", f"-max_len={max_len}", "-rss_limit_mb=3072"]
    argv += [f"-artifact_prefix={failures_dir}/", "-print_final_stats=0", "-close_fd_mask=3"]
    argv.append(f"-report_slow_units={10 * args.timeout}")  # slowness is judged in `test`
    if args.seed is not None:
        argv.append(f"-seed={args.seed}")
    if dictionary is not None:
        argv.append(f"-dict={dictionary}")
    argv += [str(path) for path in args.corpus]
    extra = {} if mutate is None else {"custom_mutator": mutate}
    atheris.Setup(argv, test, **extra)
    atheris.Fuzz()
    stats.save()
    os._exit(0)


def _outcome(
    one_input: OneInput, data: bytes, expected: tuple[type[BaseException], ...]
) -> tuple[str, str] | None:
    """None if `one_input` ran or raised an expected error; else (traceback, a key for it)."""
    try:
        one_input(data)
    except expected:
        return None
    except Exception as error:  # every other exception is what fuzzing looks for
        frames = traceback.extract_tb(error.__traceback__)
        where = next((f for f in reversed(frames) if "tengen" in f.filename), frames[-1])
        key = f"{type(error).__name__} {where.filename}:{where.lineno}"
        return traceback.format_exc(), key
    return None


def _instrument(modules: Sequence[str]) -> None:
    """Coverage instrumentation for the functions and methods of these modules (and their
    nested functions); not for other code, numba's kernels above all."""
    import atheris

    wanted = set(modules)
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and obj.__module__ in wanted:
            atheris.instrument_func(obj)


def _reproduce(
    target: str, one_input: OneInput, expected: tuple[type[BaseException], ...], paths: list[Path]
) -> int:
    """Run each saved input once; print its outcome; 1 if any still fails."""
    failed = 0
    for path in paths:
        start = time.monotonic()
        error = _outcome(one_input, path.read_bytes(), expected)
        took = time.monotonic() - start
        if error is not None:
            failed += 1
            print(f"{path}: FAILS\n{error[0]}")
        else:
            print(f"{path}: ok in {took:.3f} s")
    print(f"fuzz {target}: {len(paths)} inputs, {failed} failures")
    return 1 if failed else 0
