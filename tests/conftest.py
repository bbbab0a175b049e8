"""Shared fixtures and settings for the test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.gnugo import require_gnugo

# The suite calls the compiled kernels from the start, as plain numba would (compiling on
# demand); the background warm-up of `tengen.core.jit` has tests of its own.
os.environ.setdefault("TENGEN_JIT", "compiled")

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The modules whose tests took 40 s or more in CI (a fresh clone, 2026-11-28), longest first.
# `make test` hands whole modules to its two workers in the order collected
# (`--dist loadscope --no-loadscope-reorder`); with these first, the short modules fill in at
# the end. xdist's default order, by the number of tests a module has, left the one-test
# corpus recount (137 s) to the end, with one worker running alone for minutes.
HEAVY = (
    "scoring/test_corpus_results.py",
    "web/test_browser.py",
    "match/test_runner.py",
    "core/test_gnugo_crosscheck.py",
    "gomoku/test_gomocup.py",
    "match/test_gomoku.py",
    "scoring/test_gnugo_scoring.py",
    "sgf/test_bulk.py",
    "match/test_game.py",
    "sgf/test_fuzz.py",
    "web/test_api.py",
    "scoring/test_deadstone_crosscheck.py",
)
TESTS = Path(__file__).parent


@pytest.fixture(scope="session")
def gnugo() -> str:
    """Path of the GNU Go executable (skip without it; fail in CI, which installs it)."""
    return require_gnugo()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the `HEAVY` modules first, in its order; the rest keep the order collected."""
    missing = [name for name in HEAVY if not (TESTS / name).is_file()]
    if missing:
        raise pytest.UsageError(f"tests/conftest.py's HEAVY names missing modules: {missing}")
    rank = {str(TESTS / name): n for n, name in enumerate(HEAVY)}
    items.sort(key=lambda item: rank.get(str(item.path), len(HEAVY)))
