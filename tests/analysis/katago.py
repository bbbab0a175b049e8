"""Finding a KataGo for the tests: ``TENGEN_KATAGO`` names the binary and
``TENGEN_KATAGO_MODEL`` its network (``make katago`` builds both into .katago/). Without them
the tests that need KataGo skip with a message; the same tests run against tengen's own
engine over the same protocols everywhere."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TENGEN = [sys.executable, "-m", "tengen"]

# Small and quiet: two positions at once, one search thread each (2 cores), logs in tmp.
ANALYSIS_CONFIG = """\
logDir = {logs}
logToStderr = false
reportAnalysisWinratesAs = SIDETOMOVE
maxVisits = 500
numAnalysisThreads = 2
numSearchThreadsPerAnalysisThread = 1
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 18
nnMutexPoolSizePowerOfTwo = 12
"""
GTP_CONFIG = """\
logDir = {logs}
logToStderr = false
logAllGTPCommunication = false
logSearchInfo = false
logSearchInfoForChosenMove = false
rules = chinese
allowResignation = false
resignThreshold = -0.90
resignConsecTurns = 3
maxVisits = 500
numSearchThreads = 2
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 18
nnMutexPoolSizePowerOfTwo = 12
ponderingEnabled = false
"""


def katago() -> tuple[str, str] | None:
    """The KataGo binary and model from the environment, or None."""
    binary, model = os.environ.get("TENGEN_KATAGO"), os.environ.get("TENGEN_KATAGO_MODEL")
    if binary and model and Path(binary).is_file() and Path(model).is_file():
        return binary, model
    return None


def require_katago() -> tuple[str, str]:
    """The KataGo binary and model, or skip the test saying how to get them."""
    found = katago()
    if found is None:
        pytest.skip(
            "KataGo not configured: run `make katago` and set TENGEN_KATAGO and "
            "TENGEN_KATAGO_MODEL (the script prints both)"
        )
    return found


def katago_command(kind: str, folder: Path) -> list[str]:
    """``katago analysis`` or ``katago gtp`` with a config written into `folder`."""
    binary, model = require_katago()
    config = folder / f"{kind}.cfg"
    template = ANALYSIS_CONFIG if kind == "analysis" else GTP_CONFIG
    config.write_text(template.format(logs=folder / "logs"), encoding="utf-8")
    return [binary, kind, "-config", str(config), "-model", model]
