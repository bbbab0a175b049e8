"""Finding GNU Go for the cross-checks: they skip without it, except in CI, which installs it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

_DEBIAN_PATH = "/usr/games/gnugo"


def find_gnugo() -> str | None:
    """The GNU Go executable: ``gnugo`` on PATH, else Debian's /usr/games/gnugo, else None."""
    found = shutil.which("gnugo")
    if found:
        return found
    path = Path(_DEBIAN_PATH)
    return str(path) if path.is_file() and os.access(path, os.X_OK) else None


def require_gnugo() -> str:
    """The GNU Go path; skips the test when it is absent, or fails it when CI is set."""
    path = find_gnugo()
    if path is None:
        message = "GNU Go not found (install the gnugo package: apt-get install gnugo)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI must have it", pytrace=False)
        pytest.skip(message)
    return path
