"""Fuzz the GTP engine with random and malformed command streams.

Each input is a stream of lines: every command (and unknown ones) with right and wrong numbers
of arguments, hostile words (huge numbers, NaN, unicode, control characters), ids, comments,
huge lines, files that are no records (``/dev/zero``, a FIFO, a folder), mixed with plausible
play so that games get somewhere. Most streams run in-process against `GtpEngine` with the
built-in player at a few playouts; every 50th goes through the real ``tengen gtp``.

A failure is an exception out of ``handle_line``, an ``internal error`` answer, a malformed
response (not ``=``/``?``, the wrong id, an empty line inside), a refused command that changed
the session, an analysis stream that does not stop, a subprocess that crashes, prints a
traceback, hangs or answers a different number of times than it was asked.

    .venv/bin/python fuzz/fuzz_gtp.py --seconds 60 [--seed N]
"""

from __future__ import annotations

import os
import random
import re
import sys
import tempfile
import threading
from pathlib import Path

from stream_harness import GARBAGE, NUMBERS, ROOT, huge_line, main, pick, run_program
from tengen.ai.mcts import MctsPlayer
from tengen.gtp.engine import GtpEngine
from tengen.gtp.protocol import parse_line
from tengen.gtp.stream import Stream

_RESPONSE = re.compile(r"([=?])([0-9]*)(?: (.*))?\n\n", re.DOTALL)
_STREAM_HEAD = re.compile(r"=([0-9]*)\n")
COLORS = ["b", "w", "black", "white", "B", "WHITE", "bw", "x", "", "empty"]
VERTICES = ["a1", "A1", "j9", "e5", "t19", "pass", "PASS", "i5", "z1", "a0", "a26", "aa1", "5e"]
STATUSES = ["dead", "alive", "seki", "unknown", "DEAD"]
RULES = [
    "chinese", "japanese", "tromp-taylor", "aga", "new_zealand", "ing", "nonsense",
    '{"ko":"SIMPLE","scoring":"TERRITORY"}', '{"komi":NaN}', '{"komi":1e300}', '{"komi":"7"}',
    '{"ko":"POSITIONAL","komi":-Infinity}', '{"komi":7.5,"tax":"SEKI"}', "[1,2]", "{", '{"x":1}',
    '{"ko":' * 5000, "[" * 100_000,
]  # fmt: skip
ANALYZE_KEYS = ["interval", "maxmoves", "minmoves", "ownership", "rootInfo", "avoid", "allow"]
EXTRA = ["no_such_command", "genmove_black", "kata-raw-nn", "lz-setoption", "gogui-rules_game_id"]
RECORDS = ROOT / "tests" / "data"


def _files() -> list[str]:
    """Paths for ``loadsgf``: real records, other formats, and things that are no records."""
    fifo = Path(tempfile.gettempdir()) / f"fuzz_gtp_fifo_{os.getpid()}"
    if not fifo.exists():
        os.mkfifo(fifo)
    found = sorted(str(p) for p in RECORDS.rglob("*") if p.is_file())
    return [*found, "/dev/zero", "/dev/null", "/dev/urandom", str(fifo), "/", "/proc/self/mem",
            "/nonexistent.sgf", "", "\x00", "a" * 5000]  # fmt: skip


FILES = _files()


def argument(rng: random.Random) -> str:
    """One argument word, plausible or hostile."""
    return pick(rng, NUMBERS, GARBAGE, COLORS, VERTICES, STATUSES, ANALYZE_KEYS, FILES)


def command_line(rng: random.Random, commands: list[str]) -> str:
    """One line: a command with fitting or random arguments, sometimes an id or a comment."""
    name = rng.choice(commands + EXTRA) if rng.random() < 0.95 else argument(rng)
    r = rng.random()
    if r < 0.35:
        args = _fitting(rng, name)
    elif r < 0.9:
        args = [argument(rng) for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 7]))]
    else:
        args = [rng.choice(_fitting(rng, name) or [""]) for _ in range(rng.randint(0, 3))]
    words = [name, *args]
    if rng.random() < 0.2:
        words.insert(0, pick(rng, ["1", "0", "007", "99999999999999999999", "-1", "1a", "x"]))
    line = rng.choice([" ", "  ", "\t"]).join(words)
    if rng.random() < 0.05:
        line += " # " + argument(rng)
    if rng.random() < 0.03:
        line = line.replace(" ", rng.choice(["\x00", "\r", "\x0b", "\u00a0"]), 1)
    return line


def _fitting(rng: random.Random, name: str) -> list[str]:
    """Arguments of the right kind for `name` (values still hostile at times)."""
    color, vertex = rng.choice(COLORS[:6]), rng.choice(VERTICES[:8])
    number = rng.choice([*NUMBERS[:18], rng.choice(NUMBERS)])
    table: dict[str, list[str]] = {
        "boardsize": [rng.choice(["9", "5", "1", "19", "25", number])],
        "rectangular_boardsize": [rng.choice(["9", "7", number]), rng.choice(["13", number])],
        "komi": [number],
        "play": [color, vertex],
        "genmove": [color],
        "is_legal": [color, vertex],
        "all_legal": [color],
        "list_stones": [color],
        "captures": [color],
        "fixed_handicap": [rng.choice(["2", "4", "9", "10", number])],
        "place_free_handicap": [rng.choice(["2", "4", number])],
        "set_free_handicap": [rng.choice(VERTICES) for _ in range(rng.randint(1, 4))],
        "known_command": [rng.choice(["play", "nope", "lz-analyze", ""])],
        "kgs-rules": [rng.choice(["japanese", "chinese", "aga", "new_zealand", "x"])],
        "kata-set-rules": [rng.choice(RULES)],
        "time_settings": [number, rng.choice(["0", "30", number]), rng.choice(["0", "5", number])],
        "kgs-time_settings": [rng.choice(["none", "absolute", "byoyomi", "canadian", "x"]),
                              number, rng.choice(["30", number]), rng.choice(["5", number])][
            : rng.randint(1, 4)],
        "time_left": [color, number, rng.choice(["0", "3", number])],
        "final_status_list": [rng.choice(STATUSES)],
        "loadsgf": [rng.choice(FILES), rng.choice(["0", "3", "e5", number])][: rng.randint(1, 2)],
        "lz-analyze": _analyze(rng, color, number),
        "kata-analyze": _analyze(rng, color, number),
        "lz-genmove_analyze": _analyze(rng, color, number),
        "kata-genmove_analyze": _analyze(rng, color, number),
    }  # fmt: skip
    return table.get(name, [])


def _analyze(rng: random.Random, color: str, number: str) -> list[str]:
    words = [color] if rng.random() < 0.7 else []
    if rng.random() < 0.5:
        words.append(rng.choice(["1", "10", "0", number]))
    for _ in range(rng.randint(0, 3)):
        words += [rng.choice(ANALYZE_KEYS), rng.choice(["true", "false", "3", number])]
    return words


COMMANDS = list(GtpEngine.COMMANDS + GtpEngine.ANALYSIS_COMMANDS)


def generate(rng: random.Random) -> list[str]:
    """A stream of 1 to 60 lines, now and then a huge one or a whole line of garbage."""
    lines = []
    for _ in range(rng.randint(1, 60)):
        r = rng.random()
        if r < 0.005:
            lines.append(huge_line(rng))
        elif r < 0.05:
            lines.append("".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randint(0, 40))))
        else:
            lines.append(command_line(rng, COMMANDS))
    return lines


# -- running an input in-process ---------------------------------------------------------------

_PLAYER = MctsPlayer(1, playouts=16, threads=1, seed=0)


def snapshot(engine: GtpEngine) -> tuple[object, ...]:
    """What a refused command must leave as it was."""
    game = engine.game
    return (
        game.width,
        game.height,
        game.board.grid().tobytes(),
        game.ruleset,
        game.move_number,
        game.to_play,
        tuple(sorted((c.name, repr(vars(k))) for c, k in engine.clocks.items())),
    )


def run_inprocess(lines: list[str], rng: random.Random) -> list[str]:
    """Feed the lines to a fresh engine; the problems found."""
    engine = GtpEngine(_PLAYER, size=rng.choice([5, 7, 9]), analyser=_PLAYER)
    problems: list[str] = []
    for number, line in enumerate(lines, 1):
        where = f"line {number} {line[:80]!r}"
        before = snapshot(engine)
        try:
            response = engine.handle_line(line)
        except Exception as error:
            return [f"{where}: handle_line raised {type(error).__name__}: {error}"]
        command = parse_line(line)
        if isinstance(response, Stream):
            problems += _check_stream(response, where)
        elif command is None:
            if response is not None:
                problems.append(f"{where}: a line with no command was answered {response!r}")
        elif response is None:
            problems.append(f"{where}: a command got no response")
        else:
            problems += _check_response(response, command.id, where)
            if response.startswith("?") and snapshot(engine) != before:
                problems.append(f"{where}: refused ({response.strip()!r}) but changed the session")
        if engine.quit_requested:
            break
    return problems


def _check_response(response: str, ident: str | None, where: str) -> list[str]:
    match = _RESPONSE.fullmatch(response)
    if match is None:
        return [f"{where}: malformed response {response[:200]!r}"]
    problems = []
    if match.group(2) != (ident or ""):
        problems.append(f"{where}: id {match.group(2)!r} answers id {ident!r}")
    body = match.group(3) or ""
    if "\n\n" in body or "\r" in body:
        problems.append(f"{where}: an empty line or CR inside {response[:200]!r}")
    if "internal error" in body or "Traceback" in body:
        problems.append(f"{where}: {response.strip()[:300]}")
    return problems


def _check_stream(stream: Stream, where: str) -> list[str]:
    """Run an analysis stream briefly, stopped as the next command would stop it."""
    written: list[str] = []
    stop = threading.Event()
    failure: list[str] = []

    def run() -> None:
        try:
            stream.run(written.append, stop)
        except Exception as error:
            failure.append(f"{where}: the stream raised {type(error).__name__}: {error}")

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    if stream.interruptible:
        worker.join(0.05)
        stop.set()
    worker.join(30)
    problems = list(failure)
    if worker.is_alive():
        problems.append(f"{where}: the stream did not end 30 s after it was stopped")
    if _STREAM_HEAD.fullmatch(stream.head) is None:
        problems.append(f"{where}: stream head {stream.head!r}")
    for text in written:
        if not text.endswith("\n") or "\n\n" in text or not text.startswith(("info", "play")):
            problems.append(f"{where}: stream line {text[:200]!r}")
    return problems


# -- running an input through the real tengen gtp --------------------------------------------

TENGEN = [
    sys.executable,
    "-m",
    "tengen",
    "gtp",
    "--level",
    "1",
    "--playouts",
    "16",
    "--threads",
    "1",
]


def run_subprocess(lines: list[str], rng: random.Random) -> list[str]:
    """Feed the lines (then ``quit``) to ``tengen gtp``; the problems found."""
    lines = [line for line in lines if len(line) < 200_000][:40]  # keep the pipe quick
    commands = []  # the commands answered: up to the first quit
    for line in [*lines, "quit"]:
        command = parse_line(line.replace("\n", " "))
        if command is not None:
            commands.append(command)
            if command.name == "quit" and not command.args:
                break
    data = "".join(line.replace("\n", " ") + "\n" for line in [*lines, "quit"])
    out, problems = run_program(TENGEN, data)
    responses = [r for r in out.split("\n\n") if r]
    if len(responses) != len(commands):
        problems.append(f"subprocess: {len(responses)} responses to {len(commands)} commands")
    for response in responses:
        if not response.startswith(("=", "?")):
            problems.append(f"subprocess: a response starts {response[:80]!r}")
            break
    return problems


if __name__ == "__main__":
    sys.exit(main("gtp", generate, {"inprocess": run_inprocess, "subprocess": run_subprocess}))
