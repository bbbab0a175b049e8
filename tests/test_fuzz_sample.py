"""A few seconds of every fuzz target (``fuzz/fuzz_*.py``), so that `make test` keeps them
running and finding nothing; `make fuzz` runs them for minutes (docs/FUZZING.md)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
TARGETS = sorted(FUZZ.glob("fuzz_*.py"))
SECONDS = 3
SUMMARY = re.compile(r"^fuzz (\w+): (\d+) inputs, (\d+) failures$", re.MULTILINE)


def test_there_are_targets() -> None:
    assert len(TARGETS) >= 3, TARGETS


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
@pytest.mark.parametrize("target", TARGETS, ids=lambda path: path.stem)
def test_target_runs_and_finds_nothing(target: Path) -> None:
    command = [sys.executable, str(target), "--seconds", str(SECONDS), "--seed", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    found = SUMMARY.findall(done.stdout)
    assert len(found) == 1, done.stdout + done.stderr
    name, inputs, failures = found[0]
    assert name == target.stem.removeprefix("fuzz_")
    assert int(inputs) > 0, done.stdout + done.stderr
    assert int(failures) == 0 and done.returncode == 0, done.stdout + done.stderr
