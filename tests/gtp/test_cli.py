"""``tengen gtp`` as a controller sees it: a process speaking GTP on its pipes."""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from tengen.ai.players import RandomPlayer
from tengen.cli import main, serve
from tengen.gtp.engine import GtpEngine

TIMEOUT = 60  # seconds; the first start may compile the kernels


class Engine:
    """A ``python -m tengen gtp`` child process and a reader that never blocks the test forever."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tengen", "gtp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def send(self, line: bytes | str) -> str:
        """Send one line and return the whole response, up to and including the empty line."""
        assert self.process.stdin is not None
        self.process.stdin.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        self.process.stdin.flush()
        response = b""
        while not response.endswith(b"\n\n"):
            chunk = self.lines.get(timeout=TIMEOUT)
            assert chunk, f"engine closed its output; got {response!r}"
            response += chunk
        return response.decode()

    def finish(self) -> int:
        """Close stdin and wait for the exit status."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=TIMEOUT)

    def close(self) -> None:
        """Kill the process if it still runs and close both pipes."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=TIMEOUT)
        self.reader.join(timeout=TIMEOUT)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


@pytest.fixture
def engine() -> Iterator[Engine]:
    child = Engine("--seed", "3")
    yield child
    child.close()


def test_a_short_game_with_capture_undo_and_showboard(engine: Engine) -> None:
    assert engine.send("1 protocol_version") == "=1 2\n\n"
    assert engine.send("boardsize 5") == "= \n\n"
    assert engine.send("clear_board") == "= \n\n"
    assert engine.send("komi 0.5") == "= \n\n"
    for i, vertex in enumerate(["c3", "c2", "b2", "d2", "c1", "b1", "d1", "pass"]):
        assert engine.send(f"play {'bw'[i % 2]} {vertex}") == "= \n\n"
    assert engine.send("play b a1") == "= \n\n"  # captures B1
    assert engine.send("captures black") == "= 1\n\n"
    assert engine.send("play w a1") == "? illegal move\n\n"
    assert engine.send("2 undo") == "=2 \n\n"
    assert engine.send("captures black") == "= 0\n\n"
    assert engine.send("play b a1") == "= \n\n"
    board = engine.send("showboard")
    assert board.startswith("= \n   A B C D E\n")
    assert " 1 X . X X . 1\n" in board
    assert "BLACK (X) has captured 1 stones" in board
    move = engine.send("genmove w")
    assert move.startswith("= ")
    vertex = move[2:-2]
    assert vertex in ("pass", "resign") or vertex in engine.send("list_stones w").split()
    assert engine.send("3 quit") == "=3 \n\n"
    assert engine.process.wait(timeout=TIMEOUT) == 0


def test_end_of_input_ends_the_process(engine: Engine) -> None:
    assert engine.send("name") == "= tengen\n\n"
    assert engine.finish() == 0


def test_undecodable_bytes_and_comments_do_not_stop_it(engine: Engine) -> None:
    assert engine.send(b"\xff\xfe\n") == "? unknown command\n\n"
    assert engine.send(b"# just a comment\n9 name\n") == "=9 tengen\n\n"
    assert engine.send(b"play b \xc3\n") == "? invalid vertex\n\n"
    assert engine.send("quit") == "= \n\n"
    assert engine.process.wait(timeout=TIMEOUT) == 0


def test_options_set_size_rules_komi(monkeypatch: pytest.MonkeyPatch) -> None:
    commands = b"kata-get-rules\nquit\nname\n"
    stdout = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(commands)))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(stdout))
    argv = ["gtp", "--size", "9", "--rules", "japanese", "--komi", "0.5", "--seed", "1"]
    assert main(argv) == 0
    first, second, rest = stdout.getvalue().decode().split("\n\n")
    rules = json.loads(first.removeprefix("= "))
    assert (rules["ko"], rules["scoring"], rules["komi"]) == ("SIMPLE", "TERRITORY", 0.5)
    assert second == "= "
    assert rest == ""  # nothing is answered after quit


@pytest.mark.parametrize(
    "argv",
    [
        ["gtp", "--size", "26"],
        ["gtp", "--size", "x"],
        ["gtp", "--rules", "nope"],
        ["gtp", "--komi", "nan"],
        ["gtp", "--resign", "1"],
        ["gtp", "--resign", "never"],
        ["nope"],
    ],
)
def test_bad_options_exit_with_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "usage: tengen" in capsys.readouterr().err


def test_no_subcommand_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "gtp" in capsys.readouterr().err


def test_serve_answers_each_line_and_stops_at_quit() -> None:
    engine = GtpEngine(RandomPlayer(0), size=9)
    sink = io.BytesIO()
    serve(engine, io.BytesIO(b"\n1 name\n\n2 play b e5\n3 quit\n4 name\n"), sink)
    assert sink.getvalue() == b"=1 tengen\n\n=2 \n\n=3 \n\n"
    assert engine.game.move_number == 1


def _visits(report: str) -> int:
    """The visits a ``kata-analyze`` report line gives its moves, summed: the search's size,
    which only grows (the first move's may fall when another overtakes it)."""
    return sum(int(part.split()[0]) for part in report.split(" visits ")[1:])


def test_kata_analyze_streams_until_the_next_command(engine: Engine) -> None:
    """The real search behind ``tengen gtp``: reports arrive while stdin is quiet, and the
    next command ends them and is answered."""
    assert engine.send("boardsize 9") == "= \n\n"
    assert engine.send("play b e5") == "= \n\n"
    assert engine.process.stdin is not None
    engine.process.stdin.write(b"5 kata-analyze 10 ownership true\n")
    engine.process.stdin.flush()
    assert engine.lines.get(timeout=TIMEOUT) == b"=5\n"
    reports = [engine.lines.get(timeout=TIMEOUT).decode() for _ in range(2)]
    while _visits(reports[-1]) < 50:  # a few visits' ownership is noise (+0.2 after 5)
        reports.append(engine.lines.get(timeout=TIMEOUT).decode())
    for report in reports:
        assert report.startswith("info move ") and report.endswith("\n")
        assert len(report.split(" ownership ")[1].split()) == 81
    ownership = reports[-1].split(" ownership ")[1].split()
    assert float(ownership[4 * 9 + 4]) < -0.5  # White to play: Black's E5 is not White's
    visits = [_visits(r) for r in reports]
    assert visits == sorted(visits) and visits[0] < visits[-1]
    engine.process.stdin.write(b"6 name\n")
    engine.process.stdin.flush()
    lines = [engine.lines.get(timeout=TIMEOUT)]
    while lines[-2:] != [b"=6 tengen\n", b"\n"]:
        lines.append(engine.lines.get(timeout=TIMEOUT))
    *more, blank = lines[:-2]  # any last reports, then the empty line that ends 5
    assert blank == b"\n" and all(line.startswith(b"info move ") for line in more)
    assert engine.send("list_stones black") == "= E5\n\n"
