"""`tengen gomocup` is a Gomocup brain on stdin/stdout, as a manager starts it."""

from __future__ import annotations

import subprocess
import sys


def test_tengen_gomocup_answers_a_manager() -> None:
    session = "START 15\r\nINFO rule 4\r\nBEGIN\r\nTURN 8,8\r\nABOUT\r\nEND\r\n"
    done = subprocess.run(
        [sys.executable, "-m", "tengen", "gomocup"],
        input=session,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = [line for line in done.stdout.splitlines() if not line.startswith("MESSAGE")]
    assert replies[0] == "OK"
    first, second = (tuple(int(v) for v in r.split(",")) for r in replies[1:3])
    assert first != (8, 8) and second != (8, 8) and first != second
    assert all(0 <= v < 15 for v in (*first, *second))
    assert replies[3].startswith('name="tengen"')
