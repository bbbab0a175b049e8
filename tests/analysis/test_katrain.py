"""KaTrain itself drives `tengen analysis`: its own engine class (no GUI) analyses the end of
the abandoned-group game and must find Black's 16-point mistake from tengen's answers.

KaTrain is not a dependency: the test runs under ``TENGEN_KATRAIN_PYTHON`` (a Python with
``pip install katrain``) or this interpreter if it has KaTrain, and skips otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def _katrain_python() -> str:
    given = os.environ.get("TENGEN_KATRAIN_PYTHON")
    if given:
        return given
    probe = subprocess.run([sys.executable, "-c", "import katrain"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(
            "KaTrain not installed: set TENGEN_KATRAIN_PYTHON to a Python with "
            "`pip install katrain` (outside the project's environment)"
        )
    return sys.executable


def test_katrain_reads_tengen_analysis() -> None:
    python = _katrain_python()
    command = f"{sys.executable} -m tengen analysis --threads 2"
    record = HERE / "data" / "abandoned_group_end.sgf"
    run = subprocess.run(
        [python, str(HERE / "katrain_driver.py"), str(record), command, "200"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    *nodes, tail = [json.loads(line) for line in run.stdout.splitlines()]
    assert tail["errors"] == []
    assert len(nodes) == 13 and all(n["complete"] for n in nodes)
    assert all(n["ownership"] == 81 and n["policy"] == 82 for n in nodes)
    black = [n for n in nodes[1::2]]  # Black moves first after the setup
    worst = max(black, key=lambda n: n["points_lost"])
    assert worst["move"] == "J9" and worst["points_lost"] > 8
    assert nodes[-2]["best"] == "E5"  # KaTrain's best move where Black played J9
