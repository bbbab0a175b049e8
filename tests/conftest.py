"""Shared fixtures and settings for the test suite."""

from __future__ import annotations

import os

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


@pytest.fixture(scope="session")
def gnugo() -> str:
    """Path of the GNU Go executable (skip without it; fail in CI, which installs it)."""
    return require_gnugo()
