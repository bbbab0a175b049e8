"""GtpClient against GNU Go, and against a scripted fake engine for the failure paths."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest

from tengen.gtp.client import GtpClient, GtpEngineDied, GtpEngineError, GtpTimeout

FAKE_ENGINE = textwrap.dedent(
    """
    import sys, time
    stubborn = False
    for line in sys.stdin:
        words = line.split()
        ident = words.pop(0) if words and words[0].isdigit() else ""
        name, args = (words[0], words[1:]) if words else ("", [])
        if name == "sleep":
            time.sleep(float(args[0]))
            answer = "= slept " + args[0]
        elif name == "fail":
            answer = "? " + " ".join(args)
        elif name == "lines":
            answer = "= one\\ntwo\\n three"
        elif name == "stubborn":
            stubborn = True
            answer = "="
        elif name == "die":
            sys.stderr.write("warming up\\nfatal: out of cheese\\n")
            sys.stderr.flush()
            sys.exit(3)
        elif name == "quit":
            sys.stdout.write("=" + ident + "\\n\\n")
            sys.stdout.flush()
            if stubborn:
                time.sleep(60)
            break
        else:
            answer = "= " + name
        if answer[0] in "=?":
            answer = answer[0] + ident + answer[1:]
        sys.stdout.write(answer + "\\n\\n")
        sys.stdout.flush()
    """
)


@pytest.fixture
def fake(tmp_path: Path) -> list[str]:
    """argv of the fake engine: a small Python script run by this interpreter."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    return [sys.executable, str(script)]


def test_gnugo_answers_and_refuses(gnugo: str) -> None:
    with GtpClient([gnugo, "--mode", "gtp"]) as client:
        assert client.send("name") == "GNU Go"
        assert client.send("protocol_version") == "2"
        assert client.send("boardsize 9") == ""
        client.send("play black E5")
        assert client.send("list_stones black") == "E5"
        with pytest.raises(GtpEngineError) as info:
            client.send("play white E5")
        assert info.value.command == "play white E5"
        assert info.value.message == "illegal move"
        assert client.send("1 list_stones white") == ""
    assert client.returncode == 0


def test_multi_line_answer_and_ids(fake: list[str]) -> None:
    with GtpClient(fake) as client:
        assert client.send("lines") == "one\ntwo\n three"
        assert client.send("12 name") == "name"
        with pytest.raises(GtpEngineError, match="no such thing"):
            client.send("fail no such thing")
        assert client.send("after") == "after"


def test_timeout_then_late_answer_is_skipped(fake: list[str]) -> None:
    with GtpClient(fake, timeout=5.0) as client:
        start = time.monotonic()
        with pytest.raises(GtpTimeout, match="sleep 2"):
            client.send("sleep 2", timeout=0.2)
        assert time.monotonic() - start < 1.8  # did not wait for the answer
        assert client.send("next") == "next"


def test_dead_engine_reports_status_and_stderr(fake: list[str]) -> None:
    client = GtpClient(fake)
    with pytest.raises(GtpEngineDied) as info:
        client.send("die")
    message = str(info.value)
    assert "exited with status 3" in message
    assert "fatal: out of cheese" in message
    with pytest.raises(GtpEngineDied):
        client.send("name")
    client.close()
    assert client.returncode == 3


def test_close_kills_an_engine_that_will_not_exit(fake: list[str]) -> None:
    client = GtpClient(fake)
    client.send("stubborn")
    start = time.monotonic()
    client.close(timeout=0.5)
    assert time.monotonic() - start < 5
    assert client.returncode is not None and client.returncode < 0


def test_close_does_not_wait_on_an_engine_busy_with_a_command_that_timed_out(
    fake: list[str],
) -> None:
    """Such an engine would read ``quit`` only after its 30 s: it is given its closed input
    and a moment (`BUSY_WAIT`), then killed, rather than ``quit`` and the full `timeout`."""
    client = GtpClient(fake)
    with pytest.raises(GtpTimeout):
        client.send("sleep 30", timeout=0.2)
    start = time.monotonic()
    client.close(timeout=10.0)
    assert time.monotonic() - start < 5
    assert client.returncode is not None and client.returncode < 0


def test_commands_are_one_line(fake: list[str]) -> None:
    with GtpClient(fake) as client, pytest.raises(ValueError, match="one line"):
        client.send("name\nquit")
