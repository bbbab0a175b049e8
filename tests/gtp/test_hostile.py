"""Hostile arguments: numbers the engine cannot use and files it must not read are refused
with ``?`` and a reason, and the session is left as it was (issue 16)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from tengen.ai.mcts import MctsPlayer
from tengen.gtp.engine import GtpEngine
from tengen.gtp.loading import MAX_RECORD_BYTES
from tests.gtp.test_engine import ask, make_engine, refused


def snapshot(engine: GtpEngine) -> tuple[str, str, str, int]:
    """What a refused command must leave alone: rules with komi, stones, size, clocks."""
    return (
        ask(engine, "kata-get-rules"),
        ask(engine, "list_stones b") + "/" + ask(engine, "list_stones w"),
        f"{engine.game.width}x{engine.game.height}",
        len(engine.clocks),
    )


HUGE = "9" * 5000  # more digits than int() converts by default
BAD_LINES = [
    "komi 1e20",
    "komi -1e308",
    "komi nan",
    'kata-set-rules {"komi": NaN}',
    'kata-set-rules {"komi": Infinity}',
    'kata-set-rules {"komi": -Infinity, "ko": "SIMPLE"}',
    'kata-set-rules {"komi": 1e300}',
    "kata-set-rules " + '{"ko":' * 5000,  # found by hand: RecursionError in the JSON reader
    "kata-set-rules " + "[" * 100_000,
    "boardsize " + HUGE,
    "rectangular_boardsize 9 " + HUGE,
    "rectangular_boardsize 0 9",
    "rectangular_boardsize 9",
    "fixed_handicap " + HUGE,
    "place_free_handicap " + HUGE,
    "time_settings 1e308 0 0",
    "time_settings 60 30 1e30",
    "time_settings 60 30 2.5",
    "time_settings nan 0 0",
    "kgs-time_settings byoyomi 1e308 30 5",
    "kgs-time_settings canadian 60 30 1e300",
    "kgs-time_settings absolute inf",
    "time_left b 1e308 0",
    "time_left b 30 " + HUGE,
    "time_left b 30 -1",
    "lz-analyze b 1" + "0" * 400,
    "lz-analyze " + HUGE,
    "kata-analyze b interval " + HUGE,
    "kata-analyze b maxmoves " + HUGE,
    "lz-analyze b minmoves 1e5",
    "loadsgf /dev/null " + HUGE,
]


@pytest.mark.parametrize("line", BAD_LINES, ids=lambda line: line[:40])
def test_numbers_out_of_range_are_refused_and_change_nothing(line: str) -> None:
    engine = GtpEngine(MctsPlayer(1, playouts=30, threads=1), size=9, analyser=None)
    engine.commands += GtpEngine.ANALYSIS_COMMANDS  # parse the analysis arguments too
    ask(engine, "time_settings 60 30 5")
    ask(engine, "play b e5")
    before = snapshot(engine)
    message = refused(engine, line)
    assert "internal error" not in message
    assert snapshot(engine) == before


@pytest.mark.parametrize("komi", ["625", "-625", "0.25"])
def test_the_largest_komi_accepted_still_plays_and_counts(komi: str) -> None:
    """The bound is one the whole engine can use: the search and the count at its ends."""
    engine = GtpEngine(MctsPlayer(1, playouts=30, threads=1), size=5)
    ask(engine, f"komi {komi}")
    ask(engine, "genmove b")
    ask(engine, "genmove w")
    result = ask(engine, "final_score")
    assert result[:2] in ("B+", "W+")
    ask(engine, f'kata-set-rules {{"komi": {komi}}}')
    assert json.loads(ask(engine, "kata-get-rules"))["komi"] == float(komi)


def test_a_records_unusable_komi_is_ignored(tmp_path: Path) -> None:
    record = tmp_path / "k.sgf"
    record.write_text("(;GM[1]SZ[9]KM[1e300];B[ee])")
    engine = make_engine(9)
    ask(engine, "komi 6.5")
    assert ask(engine, f"loadsgf {record}") == "white"
    assert json.loads(ask(engine, "kata-get-rules"))["komi"] == 6.5
    assert ask(engine, "final_score") == "B+74.5"  # one stone owns the board, less komi


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", "/proc", "/"])
def test_loadsgf_reads_regular_files_only(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    engine = make_engine(9)
    assert refused(engine, f"loadsgf {path}") == f"not a regular file: '{path}'"


def test_loadsgf_of_a_fifo_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.sgf"
    os.mkfifo(fifo)
    engine = make_engine(9)
    answers: list[str] = []
    worker = threading.Thread(target=lambda: answers.append(refused(engine, f"loadsgf {fifo}")))
    worker.start()
    worker.join(timeout=10)
    if worker.is_alive():  # unblock the engine's open so the test process can end
        with open(fifo, "wb"):
            pass
        worker.join()
        pytest.fail("loadsgf blocked on a FIFO")
    assert answers == [f"not a regular file: '{fifo}'"]


def test_loadsgf_counts_the_bytes_of_a_proc_file_that_says_it_is_empty() -> None:
    """/proc/self/pagemap is a regular file of size 0 that reads as gigabytes."""
    path = "/proc/self/pagemap"
    if not os.path.exists(path) or os.stat(path).st_size != 0:
        pytest.skip(f"no empty-looking {path} here")
    engine = make_engine(9)
    message = refused(engine, f"loadsgf {path}")
    assert message.startswith((f"record too large: '{path}'", f"cannot read '{path}'")), message


def test_loadsgf_refuses_a_file_over_the_cap(tmp_path: Path) -> None:
    record = tmp_path / "huge.sgf"
    with open(record, "wb") as f:  # sparse: no disk used
        f.write(b"(;GM[1]SZ[9];B[ee])")
        f.truncate(MAX_RECORD_BYTES + 1)
    engine = make_engine(9)
    ask(engine, "play b c3")
    assert refused(engine, f"loadsgf {record}").startswith(f"record too large: '{record}'")
    assert ask(engine, "list_stones b") == "C3"


def test_rectangular_boardsize_plays_counts_and_prints_the_shape() -> None:
    engine = make_engine(19)
    ask(engine, "komi 0.5")
    ask(engine, "rectangular_boardsize 7 13")
    assert (engine.game.width, engine.game.height) == (7, 13)
    ask(engine, "play b a13")
    ask(engine, "play w g1")
    assert refused(engine, "play b h1") == "invalid vertex"
    assert refused(engine, "play b a14") == "invalid vertex"
    assert ask(engine, "list_stones b") == "A13"
    assert "SZ[7:13]" in ask(engine, "printsgf")
    assert "KM[0.5]" in ask(engine, "printsgf")
    assert refused(engine, "rectangular_boardsize 26 9") == "unacceptable size"
    assert refused(engine, "rectangular_boardsize 9 x") == "syntax error"
    ask(engine, "clear_board")
    assert refused(engine, "fixed_handicap 2") == "invalid number of stones"  # not square
    ask(engine, "rectangular_boardsize 9 9")
    assert ask(engine, "fixed_handicap 2") == "G7 C3"


def test_cputime_counts_the_engines_cpu_seconds() -> None:
    engine = make_engine(9)
    first = float(ask(engine, "cputime"))
    sum(i * i for i in range(2_000_000))  # burn some CPU in this (the engine's) process
    second = float(ask(engine, "cputime"))
    assert second > first >= 0
    assert refused(engine, "cputime now") == "syntax error"


@pytest.mark.parametrize(
    "line",
    [
        "fixed_handicap 10",
        "place_free_handicap 81",
        "set_free_handicap a1 a1",
        "set_free_handicap a1 z1",
    ],
)
def test_a_refused_handicap_keeps_the_passes_played(line: str) -> None:
    """Found by fuzz/fuzz_gtp.py: the passes were forgotten before the count was checked."""
    engine = make_engine(9)
    ask(engine, "play b pass")
    assert engine.game.move_number == 1
    refused(engine, line)
    assert engine.game.move_number == 1
    assert ask(engine, "fixed_handicap 2") == "G7 C3"  # an accepted one forgets them
    assert engine.game.move_number == 0
