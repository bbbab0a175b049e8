"""What the command-stream fuzz targets share (``fuzz_gtp.py``, ``fuzz_gomocup.py``): the
command line, hostile words to build lines from, the loop that runs for the asked time, a
watchdog that turns a hung input into a failure, and the failure files and summary line of the
fuzzing convention (``fuzz <target>: <N> inputs, <F> failures``; exit 1 if F > 0).

A target gives a function that runs one input (a list of lines, in-process or through the real
``tengen`` subprocess) and returns the problems found, each a short sentence.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANG_SECONDS = 60.0  # one in-process input taking longer than this is a hang

Run = Callable[[list[str], random.Random], list[str]]

# Words that break parsers: numbers at and past every limit, NaN, signs, unicode digits and
# letters, control characters, separators, empty-looking and very long tokens.
NUMBERS = [
    "0", "1", "-1", "2", "5", "7", "9", "13", "15", "19", "20", "25", "26", "52", "53", "100",
    "00009", "+5", "-0", "0.5", "-0.5", "7.5", "6.5", "1e3", "1e20", "-1e308", "1e309", "nan",
    "NaN", "-nan", "inf", "-inf", "Infinity", "1_000", "0x10", "9" * 30, "9" * 5000,
    "1" + "0" * 400,
    "2147483647", "2147483648", "-2147483649", "4294967296", "18446744073709551616", "1.5e-320",
    "\u0669", "\uff11\uff19", "½", "5,5", "3.", ".5", "1e", "--1", "0" * 50 + "7",
]  # fmt: skip
GARBAGE = [
    "", " ", "\t", "#", "# comment", "\x00", "\x01", "\x7f", "\r", "\x1b[2J", "\u2028",
    "\ufeff", "é", "日本", "\U0001f600", "\ud800", "a" * 10_000, "=", "?", "=1", "?1", "\\",
    "'", '"', "%s", "{}", "[]", "{", "}", "null", "true", "false", "-", ",", ",,", ";",
]  # fmt: skip


def pick(rng: random.Random, *pools: list[str]) -> str:
    """A random word from one of `pools`."""
    return rng.choice(rng.choice(pools))


def huge_line(rng: random.Random) -> str:
    """A line of 100k to 1M characters: words, or one word."""
    size = rng.choice([100_000, 1_000_000])
    if rng.random() < 0.5:
        return rng.choice("ax9 ") * size
    return " ".join(rng.choice(["play", "b", "a1", "1", "x"]) for _ in range(size // 4))


def save_failure(target: str, number: int, lines: list[str], problems: list[str]) -> Path:
    """Write the failing input and its problems to ``fuzz/failures/<target>/``."""
    folder = ROOT / "fuzz" / "failures" / target
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{number:06d}.txt"
    text = "".join(f"# {p}\n" for p in problems) + "".join(line + "\n" for line in lines)
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def run_program(command: list[str], data: str) -> tuple[str, list[str]]:
    """Feed `data` to the real program `command` (a few minutes at most); what it printed and
    the problems every protocol shares: a hang, a non-zero exit, a traceback, an internal
    error."""
    name = " ".join(command[2:])  # "tengen gtp" from [python, -m, tengen, gtp]
    try:
        proc = subprocess.run(
            command,
            input=data.encode("utf-8", errors="surrogatepass"),
            capture_output=True,
            timeout=240,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return "", [f"subprocess: {name} did not finish within 240 s"]
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    problems = []
    if proc.returncode != 0:
        problems.append(f"subprocess: exit status {proc.returncode}; stderr {err[-300:]!r}")
    if "Traceback" in err or "internal error" in out:
        problems.append(f"subprocess: {err[-300:] or out[-300:]!r}")
    return out, problems


def main(target: str, generate: Callable[[random.Random], list[str]], runs: dict[str, Run]) -> int:
    """Run the fuzz loop: inputs from `generate`, each through one of `runs` (by weight of
    the names: ``inprocess`` most of the time, ``subprocess`` now and then)."""
    parser = argparse.ArgumentParser(description=f"fuzz the {target} command stream")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to run")
    parser.add_argument("--seed", type=int, default=None, help="seed (default: random)")
    parser.add_argument(
        "--subprocess-every", type=int, default=50, help="every Nth input goes through tengen"
    )
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"fuzz {target}: seed {seed}", file=sys.stderr)
    rng = random.Random(seed)
    count = failures = 0
    current: list[list[str]] = [[]]
    watchdog = _Watchdog(target, current)
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline or count == 0:
        lines = generate(rng)
        how = (
            "subprocess"
            if args.subprocess_every and count % args.subprocess_every == 1
            else "inprocess"
        )
        current[0] = lines
        watchdog.arm(count)
        try:
            problems = runs[how](lines, random.Random(rng.random()))
        except Exception as error:  # the harness must report, never stop, on a new failure
            problems = [f"{how}: {type(error).__name__}: {error}"]
        watchdog.disarm()
        count += 1
        if problems:
            failures += 1
            watchdog.failures = failures
            path = save_failure(target, count, lines, problems)
            print(f"failure {count} ({how}): {problems[0][:200]} -> {path}", file=sys.stderr)
    print(f"fuzz {target}: {count} inputs, {failures} failures")
    return 1 if failures else 0


class _Watchdog:
    """Ends the run as a failure when one input takes longer than `HANG_SECONDS`."""

    def __init__(self, target: str, current: list[list[str]]) -> None:
        self.target = target
        self.current = current
        self._armed: float | None = None
        self._number = 0
        self.failures = 0
        threading.Thread(target=self._watch, daemon=True).start()

    def arm(self, number: int) -> None:
        self._number, self._armed = number, time.monotonic()

    def disarm(self) -> None:
        self._armed = None

    def _watch(self) -> None:
        while True:
            time.sleep(1.0)
            armed = self._armed
            if armed is not None and time.monotonic() - armed > HANG_SECONDS:
                problem = f"hang: no answer within {HANG_SECONDS:g} s"
                path = save_failure(self.target, self._number + 1, self.current[0], [problem])
                print(f"failure ({problem}) -> {path}", file=sys.stderr)
                total = self.failures + 1
                print(
                    f"fuzz {self.target}: {self._number + 1} inputs, {total} failures", flush=True
                )
                os._exit(1)
