"""What controllers expect of tengen gtp, checked by their own rules: Lizzie's engine
handshake (its Leelaz.java, read line by line below), GoGui's analyze formats (its
GtpUtil.parseStringBoard and the manual's types), and GNU Go's answers where both engines
implement a command (issue 17)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from tengen.ai.mcts import MctsPlayer
from tengen.core.coords import Point, from_gtp
from tengen.gtp.client import GtpClient, GtpEngineError
from tengen.gtp.engine import GtpEngine
from tengen.gtp.stream import Stream
from tests.gnugo import require_gnugo
from tests.gtp.test_engine import GAME_SGF, ask, make_engine

TENGEN = [
    sys.executable,
    "-m",
    "tengen",
    "gtp",
    "--level",
    "1",
    "--playouts",
    "50",
    "--threads",
    "1",
]


# -- Lizzie ----------------------------------------------------------------------------------


def lizzie_reads(lines: list[str]) -> dict[str, object]:
    """Lizzie's Leelaz.parseLine on a start-up: it sends ``1 name`` and ``2 version`` and
    reads each ``=N`` answer as `params = line.trim().split(" ")`, the command number from
    params[0]; a name starting "KataGo" skips the version check, otherwise the version's
    second dot-separated field must be a whole number of at least 15 (else a warning)."""
    state: dict[str, object] = {"checking_name": True, "checking_version": True}
    for line in lines:
        if not line.startswith(("=", "?")):
            continue
        params = line.strip().split(" ")
        state["cmd"] = int(params[0][1:].strip())  # NumberFormatException in Lizzie
        if line.startswith("?") or len(params) == 1:
            continue
        if state["checking_name"]:
            state["kata"] = params[1].startswith("KataGo")
            state["checking_name"] = False
        elif state["checking_version"] and not state["kata"]:
            minor = int(params[1].split(".")[1])  # IndexError / ValueError: Lizzie fails
            state["warning"] = minor < 15
            state["checking_version"] = False
    return state


def test_lizzie_starts_tengen_without_a_version_warning_and_it_names_itself_tengen() -> None:
    proc = subprocess.run(
        TENGEN, input="1 name\n2 version\n3 quit\n", capture_output=True, text=True, timeout=120
    )
    lines = proc.stdout.splitlines()
    assert lines[0] == "=1 tengen"  # honest: not KataGo, not Leela Zero
    state = lizzie_reads(lines)
    assert state == {
        "checking_name": False,
        "checking_version": False,
        "cmd": 3,
        "kata": False,
        "warning": False,
    }


def lizzie_move_data(info: str) -> list[dict[str, Any]]:
    """Lizzie's Leelaz.parseInfo and MoveData.fromInfo: ``key value`` pairs until ``pv``,
    integers for visits, winrate, prior and lcb (permyriad)."""
    moves = []
    for var in info[len("info ") :].split(" info "):
        data = var.strip().split(" ")
        move: dict[str, Any] = {}
        i = 0
        while i < len(data):
            key = data[i]
            if key == "pv":
                move["pv"] = data[i + 1 :]
                break
            value = data[i + 1]
            if key in ("visits", "winrate", "prior", "lcb"):
                move[key] = int(value)
            elif key == "move":
                move[key] = value
            i += 2
        moves.append(move)
    return moves


def test_lizzies_analysis_reader_takes_tengens_lz_analyze_lines() -> None:
    with GtpClient(TENGEN, timeout=120) as client:
        client.send("boardsize 9")
        client.send("play b e5")
        proc = client._proc  # read the stream as Lizzie does, line by line
        proc.write("7 lz-analyze 10\n")
        info = ""
        deadline = time.monotonic() + 60
        while not info.startswith("info"):
            line = proc.readline(deadline)
            assert line is not None
            info = line.strip()
        proc.write("8 name\n")
        while (line := proc.readline(deadline)) is not None and not line.startswith("=8"):
            pass
    moves = lizzie_move_data(info)
    assert moves and all(from_gtp(str(m["move"]), 9, 9) is not None for m in moves)
    assert all(0 <= m["winrate"] <= 10000 and m["visits"] > 0 for m in moves)


# -- GoGui -----------------------------------------------------------------------------------

GOGUI_TYPES = {
    "bwboard", "cboard", "dboard", "eplist", "gfx", "hstring", "hpstring", "none", "param",
    "plist", "pspairs", "pstring", "sboard", "string", "var", "varb", "varc", "varp", "varpo",
    "varw",
}  # fmt: skip
GFX_WORDS = {"BLACK", "CIRCLE", "COLOR", "INFLUENCE", "LABEL", "MARK", "SQUARE", "TEXT",
             "TRIANGLE", "VAR", "WHITE"}  # fmt: skip


def gogui_split(line: str) -> list[str]:
    """GoGui's StringUtil.splitArguments: words, with "quoted strings" as one (quotes off)."""
    return (
        [a if b == "" else b for a, b in re.findall(r'([^\s"]+)|"([^"]*)"', line)] if line else []
    )


def gogui_board(text: str, size: int) -> list[list[str]]:
    """GoGui's GtpUtil.parseStringBoard: `size` non-blank lines (top row first) of at least
    `size` values; the board as rows."""
    rows = [gogui_split(line) for line in text.splitlines() if line.strip()]
    assert len(rows) >= size, "Incomplete string board"
    assert all(len(r) >= size for r in rows[:size]), "Incomplete string board"
    return [r[:size] for r in rows[:size]]


def analysed_engine() -> GtpEngine:
    player = MctsPlayer(1, playouts=200, threads=1, seed=3)
    engine = GtpEngine(player, size=9, analyser=player)
    ask(engine, f"loadsgf {GAME_SGF}")
    return engine


def test_gogui_analyze_commands_are_in_gogui_s_format_and_all_answer() -> None:
    engine = analysed_engine()
    listed = ask(engine, "gogui-analyze_commands").splitlines()
    assert listed
    for entry in listed:
        kind, label, command = entry.split("/")
        assert kind in GOGUI_TYPES and label and command
        assert ask(engine, f"known_command {command.split()[0]}") == "true"
        ask(engine, command.replace("%m", "b"))  # each one answers
    plain = make_engine(9)  # a player without a search offers no candidate moves
    assert "tengen-candidates" not in ask(plain, "gogui-analyze_commands")


def test_ownership_and_liberties_parse_as_gogui_boards() -> None:
    engine = analysed_engine()
    size = engine.game.width
    ownership = gogui_board(ask(engine, "tengen-ownership"), size)
    assert all(-1.0 <= float(v) <= 1.0 for row in ownership for v in row)
    liberties = gogui_board(ask(engine, "tengen-liberties"), size)
    board = engine.game.board
    for row in range(size):
        for col in range(size):
            label = liberties[row][col]
            stone = board[Point(col, row)]
            assert (label == "") == (stone is None)


def test_dead_stones_gfx_marks_what_final_status_list_calls_dead() -> None:
    engine = analysed_engine()
    lines = ask(engine, "tengen-dead_stones").splitlines()
    words = {line.split()[0] for line in lines}
    assert words <= GFX_WORDS
    marked = {v for line in lines if line.startswith("MARK ") for v in line.split()[1:]}
    dead = set(ask(engine, "final_status_list dead").split())
    assert marked == dead
    assert lines[-1] == "TEXT " + ask(engine, "final_score")


def test_candidates_are_legal_point_label_pairs() -> None:
    engine = analysed_engine()
    words = ask(engine, "tengen-candidates 0.2").split()
    assert words and len(words) % 2 == 0
    for vertex, label in zip(words[::2], words[1::2], strict=True):
        assert ask(engine, f"is_legal {engine.game.to_play.name.lower()} {vertex}") == "1"
        assert 0 <= int(label) <= 100


def test_gogui_twogtp_s_commands_answer() -> None:
    """twogtp asks name, version, protocol_version, cputime and sends rectangular boards."""
    engine = make_engine()
    assert float(ask(engine, "cputime")) >= 0
    ask(engine, "rectangular_boardsize 19 19")
    assert engine.game.width == 19


# -- GNU Go, where both implement a command ----------------------------------------------------


def test_liberties_overlay_agrees_with_gnugo_countlib() -> None:
    gnugo = require_gnugo()
    engine = make_engine(19)
    ask(engine, f"loadsgf {GAME_SGF}")
    size = engine.game.width
    labels = gogui_board(ask(engine, "tengen-liberties"), size)
    with GtpClient([gnugo, "--mode", "gtp"], timeout=30) as client:
        client.send(f"loadsgf {GAME_SGF}")
        for row, values in enumerate(labels):
            for col, label in enumerate(values):
                if label:
                    vertex = f"{'ABCDEFGHJKLMNOPQRST'[col]}{size - row}"
                    assert client.send(f"countlib {vertex}") == label, vertex


# Commands both engines implement, with arguments right and wrong: the same success or
# failure, and the same answer where the answer is determined by the rules.
SCRIPT = [
    "boardsize 9", "clear_board", "komi 6.5", "play b e5", "play w e5", "play x e4",
    "play b z99", "play b", "is_legal w e5", "is_legal w d5", "captures b", "list_stones b",
    "undo", "undo", "list_stones b", "fixed_handicap 1", "fixed_handicap 10", "fixed_handicap 4",
    "play w c3", "all_legal w", "boardsize x", "boardsize 9", "komi abc", "play w a1",
    "play b a2", "play b b1", "captures b", "list_stones w", "known_command play",
    "known_command frobnicate", "protocol_version", "set_free_handicap d4 e5",
]  # fmt: skip
DETERMINED = {"is_legal", "captures", "list_stones", "fixed_handicap", "all_legal", "known_command",
              "protocol_version"}  # fmt: skip


def answers(argv: list[str]) -> list[tuple[bool, str]]:
    out = []
    with GtpClient(argv, timeout=60) as client:
        for line in SCRIPT:
            try:
                out.append((True, client.send(line)))
            except GtpEngineError:
                out.append((False, ""))
    return out


def test_commands_both_engines_implement_succeed_and_fail_alike() -> None:
    gnugo = require_gnugo()
    ours, theirs = answers(TENGEN), answers(shlex.split(f"{gnugo} --mode gtp"))
    for line, (ok, text), (their_ok, their_text) in zip(SCRIPT, ours, theirs, strict=True):
        assert ok == their_ok, (line, text, their_text)
        if ok and line.split()[0] in DETERMINED:
            assert text == their_text, line


@pytest.mark.parametrize("line", ["cputime", "name", "version", "protocol_version"])
def test_identity_answers_are_single_lines(line: str) -> None:
    assert "\n" not in ask(make_engine(), line)


# -- Sabaki ----------------------------------------------------------------------------------

_SABAKI_PV = re.compile(r"(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$")


def sabaki_parse(line: str, width: int, height: int) -> tuple[list[dict[str, Any]], list[float]]:
    """Sabaki's enginesyncer.parseAnalysis: the ownership (kept only with width x height
    values), then per ``info`` group the key/value tokens before a PV matched at its end;
    a win rate with a dot is a fraction (KataGo), else permyriad (Leela Zero); moves must be
    vertices. Returns (variations, ownership)."""
    ownership: list[float] = []
    owner = re.search(r"ownership\s+(.+)", line)
    if owner:
        raw = [float(x) for x in owner[1].split()]
        ownership = raw if len(raw) == width * height else []
        line = line[: owner.start()]
    variations = []
    for part in [x.strip() for x in re.split(r"\s*info\s+", line)[1:]]:
        pv = _SABAKI_PV.search(part)
        if pv is None:
            continue
        tokens = part[: pv.start()].strip().split()[:-1]
        entry = dict(zip(tokens[::2], tokens[1::2], strict=False))
        if not re.fullmatch(r"[A-Za-z]\d+", entry.get("move", "")):
            continue
        winrate = entry["winrate"]
        entry["winrate%"] = float(winrate) * 100 if "." in winrate else int(winrate) / 100
        entry["pv"] = pv[0].split()
        variations.append(entry)
    return variations, ownership


def streamed(engine: GtpEngine, line: str, seconds: float = 1.0) -> list[str]:
    """The lines an analysis command writes in `seconds`, then stopped as by a next command."""
    stream = engine.handle_line(line)
    assert isinstance(stream, Stream)
    written: list[str] = []
    stop = threading.Event()
    worker = threading.Thread(target=stream.run, args=(written.append, stop))
    worker.start()
    time.sleep(seconds)
    stop.set()
    worker.join(30)
    assert not worker.is_alive()
    return [w for chunk in written for w in chunk.splitlines()]


@pytest.mark.parametrize("command", ["lz-analyze b 10", "kata-analyze b 10 ownership true"])
def test_sabakis_analysis_reader_takes_tengens_lines(command: str) -> None:
    player = MctsPlayer(1, threads=1, seed=2)
    engine = GtpEngine(player, size=9, analyser=player)
    ask(engine, "rectangular_boardsize 9 7")  # Sabaki sends rectangular boards this way
    ask(engine, "play b e4")
    lines = [x for x in streamed(engine, command) if x.startswith("info ")]
    assert lines
    variations, ownership = sabaki_parse(lines[-1], 9, 7)
    assert variations and all(0 <= v["winrate%"] <= 100 for v in variations)
    assert all(from_gtp(v["move"], 9, 7) is not None for v in variations)
    assert all(from_gtp(m, 9, 7) is not None or m == "pass" for v in variations for m in v["pv"])
    assert len(ownership) == (63 if "ownership" in command else 0)
