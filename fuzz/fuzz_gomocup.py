"""Fuzz the Gomocup brain with random and malformed command streams.

Each input is a stream of manager lines: every command of the protocol (and Yixin's, and
unknown ones) with right and wrong arguments, ``BOARD``/``YXBOARD`` blocks with good, bad,
repeated and off-board fields (and without ``DONE``), ``INFO`` with hostile values, huge
numbers, NaN, unicode, control characters and huge lines, mixed with plausible play so that
games get somewhere. Most streams run in-process against `Brain` with the real player (its
thinking time capped); every 50th goes through the real ``tengen gomocup``.

A failure is an exception out of ``Brain.handle``, an ``internal error`` answer, a reply line
the protocol does not have (or a move off the board or on a stone), an ``ERROR`` that changed
the position, a subprocess that crashes, prints a traceback or hangs.

    .venv/bin/python fuzz/fuzz_gomocup.py --seconds 60 [--seed N]
"""

from __future__ import annotations

import random
import re
import sys

from stream_harness import GARBAGE, NUMBERS, huge_line, main, pick, run_program
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.coords import Point
from tengen.gomoku.game import GomokuGame
from tengen.gomoku.gomocup import Brain

COMMANDS = [
    "START", "RECTSTART", "RESTART", "INFO", "BEGIN", "TURN", "BOARD", "YXBOARD", "DONE",
    "TAKEBACK", "PLAY", "YXSHOWFORBID", "ABOUT", "END", "STOP", "YXSTOP", "SWAP2BOARD",
    "SUGGEST", "YXNBEST", "YXHASHCLEAR", "PROBE", "start", "Turn", "board",
]  # fmt: skip
INFO_KEYS = [
    "timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule",
    "evaluate", "folder", "caution_factor", "thread_num", "", "RULE",
]  # fmt: skip
RULE_VALUES = ["0", "1", "2", "3", "4", "5", "6", "8", "9", "12", "16", "-1", "4294967300"]
SIZES = ["15", "20", "19", "5", "6", "1", "0", "4", "26", "100", "10000"]
_MOVE = re.compile(r"(-?\d+),(-?\d+)")
_REPLY = re.compile(
    r"OK|SWAP|(?:-?\d+,-?\d+)(?: -?\d+,-?\d+)*|(?:ERROR|UNKNOWN|MESSAGE|DEBUG)( .*)?"
    r"|FORBID (?:\d{4})*\.|name=.*"
)


def coords(rng: random.Random, size: int = 15) -> str:
    """``x,y``: mostly on the board, sometimes off it or malformed."""
    r = rng.random()
    if r < 0.8:
        return f"{rng.randrange(size)},{rng.randrange(size)}"
    if r < 0.9:
        return f"{pick(rng, NUMBERS)},{pick(rng, NUMBERS)}"
    return rng.choice([" 7 , 7 ", "7,7,1", "7", "7,", ",7", "7;7", "7 7", "-0,-0", "a,b", ""])


def command_line(rng: random.Random, size: int) -> list[str]:
    """One command, or a BOARD-like block of lines."""
    name = rng.choice(COMMANDS) if rng.random() < 0.95 else pick(rng, GARBAGE, NUMBERS)
    upper = name.upper()
    r = rng.random()
    if upper in ("BOARD", "YXBOARD", "SWAP2BOARD"):
        block = [name]
        for _ in range(rng.randint(0, 12)):
            field = (
                rng.choice(["1", "2", "1", "2", "3"]) if rng.random() < 0.9 else pick(rng, NUMBERS)
            )
            block.append(
                f"{coords(rng, size)},{field}" if rng.random() < 0.9 else pick(rng, GARBAGE)
            )
        if rng.random() < 0.9:
            block.append(rng.choice(["DONE", "done", "DONE extra"]))
        return block
    if upper == "INFO":
        key = rng.choice(INFO_KEYS)
        value = (
            rng.choice(RULE_VALUES)
            if key.lower() == "rule" and r < 0.7
            else pick(rng, NUMBERS, GARBAGE)
        )
        return [f"{name} {key} {value}"]
    if upper in ("START",):
        return [f"{name} {rng.choice(SIZES) if r < 0.8 else pick(rng, NUMBERS, GARBAGE)}"]
    if upper == "RECTSTART":
        return [
            f"{name} {rng.choice(SIZES)},{rng.choice(SIZES)}"
            if r < 0.7
            else f"{name} {pick(rng, NUMBERS)}"
        ]
    if upper in ("TURN", "TAKEBACK", "PLAY"):
        return [f"{name} {coords(rng, size)}"]
    if r < 0.3:
        return [f"{name} {pick(rng, NUMBERS, GARBAGE)}"]
    return [name]


def generate(rng: random.Random) -> list[str]:
    """A stream: usually a START first (so moves reach a board), then 1 to 40 commands."""
    size = rng.choice([15, 15, 20, 6])
    lines: list[str] = []
    if rng.random() < 0.9:
        lines += ["INFO timeout_turn 50", f"START {size}"]
        if rng.random() < 0.4:
            lines.insert(0, f"INFO rule {rng.choice(['0', '1', '4', '8'])}")
    for _ in range(rng.randint(1, 40)):
        r = rng.random()
        if r < 0.005:
            lines.append(huge_line(rng))
        elif r < 0.04:
            lines.append("".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randint(0, 30))))
        else:
            lines += command_line(rng, size)
    return [line.replace("\n", " ") for line in lines]


# -- in-process --------------------------------------------------------------------------------


class QuickPlayer(GomokuPlayer):
    """The real player, thinking at most 20 ms a move so that the fuzzer sees many inputs."""

    def genmove(self, game: GomokuGame) -> Point:
        self.time_limit = min(self.time_limit, 0.02)
        return super().genmove(game)


def position(brain: Brain) -> tuple[object, ...]:
    """What an ``ERROR`` must leave as it was."""
    game = brain.game
    if game is None:
        return (None,)
    return (game.rules, tuple(game.moves))


def run_inprocess(lines: list[str], rng: random.Random) -> list[str]:
    """Feed the lines to a fresh brain; the problems found."""
    brain = Brain(QuickPlayer(seed=rng.randrange(1000)))
    problems: list[str] = []
    for number, line in enumerate(lines, 1):
        where = f"line {number} {line[:80]!r}"
        before = position(brain)
        pending = brain._pending is not None  # a BOARD block is being read
        try:
            replies = brain.handle(line)
        except Exception as error:
            return [f"{where}: handle raised {type(error).__name__}: {error}"]
        if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
            return [f"{where}: handle returned {replies!r}"]
        for reply in replies:
            problems += _check_reply(reply, brain, where)
        refused = len(replies) == 1 and replies[0].startswith("ERROR")
        if refused and not pending and position(brain) != before:
            problems.append(f"{where}: {replies[0][:120]!r} but the position changed")
        if brain.ended:
            break
    return problems


def _check_reply(reply: str, brain: Brain, where: str) -> list[str]:
    if "\n" in reply or "\r" in reply or _REPLY.fullmatch(reply) is None:
        return [f"{where}: reply {reply[:200]!r} is not in the protocol"]
    if "internal error" in reply or "Traceback" in reply:
        return [f"{where}: {reply[:300]}"]
    problems = []
    game = brain.game
    for x, y in (
        _MOVE.findall(reply)
        if not reply.startswith(("ERROR", "MESSAGE", "UNKNOWN", "DEBUG"))
        else ()
    ):
        if game is None or not (0 <= int(x) < game.rules.width and 0 <= int(y) < game.rules.height):
            problems.append(f"{where}: move {x},{y} is off the board")
    return problems


# -- through the real tengen gomocup -----------------------------------------------------------

TENGEN = [sys.executable, "-m", "tengen", "gomocup"]


def run_subprocess(lines: list[str], rng: random.Random) -> list[str]:
    """Feed the lines (then ``END``) to ``tengen gomocup``; the problems found."""
    lines = [line for line in lines if len(line) < 200_000][:40]
    data = "".join(line + "\r\n" for line in [*lines, "END"])
    out, problems = run_program(TENGEN, data)
    for reply in out.splitlines():
        if _REPLY.fullmatch(reply.rstrip("\r")) is None:
            problems.append(f"subprocess: reply {reply[:200]!r} is not in the protocol")
            break
    return problems


if __name__ == "__main__":
    sys.exit(main("gomocup", generate, {"inprocess": run_inprocess, "subprocess": run_subprocess}))
