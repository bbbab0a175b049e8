"""GTP regression files as GNU Go and GoGui's gogui-regress run them.

A ``.tst`` file is GTP commands with comments; a command with a numeric id and a line
``#? [pattern]`` right after it is a test: the answer (text after ``=id``) must match the
regular expression as a whole (multi-line, dot matches newlines), or must not with
``[!pattern]``; a trailing ``*`` marks a known failure. A failed answer (``?``) fails the
test. The engine runs with the file's folder as working directory, so ``loadsgf
games/x.sgf`` finds its records.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tengen.gtp.client import GtpClient, GtpEngineError

_TEST = re.compile(r"#\?\s*\[(.*)\](\*?)\s*$")
_NUMBERED = re.compile(r"(\d+)\s+(\S.*)")


@dataclass(frozen=True)
class Outcome:
    """One test: its id and command, what was expected, what came, whether it passed."""

    id: int
    command: str
    pattern: str
    answer: str | None  # None: the engine refused the command
    passed: bool
    known_failure: bool


def steps(path: Path) -> Iterator[tuple[str, int | None, str | None, bool]]:
    """(command, id, pattern, known failure) per command of the file, pattern None when the
    command is not a test."""
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    for i, line in enumerate(lines):
        if not line or line.startswith("#"):
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""  # the pattern's line
        match = _TEST.match(following)
        numbered = _NUMBERED.fullmatch(line)
        ident, command = (int(numbered[1]), numbered[2]) if numbered else (None, line)
        yield command, ident, match[1] if match else None, bool(match and match[2])


def run(
    path: Path,
    argv: list[str],
    setup: tuple[str, ...] = (),
    only: str = "",
    ids: frozenset[int] | None = None,
) -> list[Outcome]:
    """Run the file against the engine of `argv` (after the `setup` commands, as
    gogui-regress's -gtpfile); the tests' outcomes. With `only`, just the tests whose command
    starts with that word, with `ids` just those tests (the other commands that are no tests
    still run: they set the positions up)."""
    outcomes = []
    with GtpClient(argv, timeout=120, cwd=str(path.parent)) as client:
        for command in setup:
            client.send(command)
        for command, ident, pattern, known in steps(path):
            if pattern is not None and (
                (only and command.split()[0] != only) or (ids is not None and ident not in ids)
            ):
                continue
            try:
                answer: str | None = client.send(command)
            except GtpEngineError:
                answer = None
            if pattern is None or ident is None:
                continue
            negate = pattern.startswith("!")
            regex = re.compile(pattern[1:] if negate else pattern, re.MULTILINE | re.DOTALL)
            matched = answer is not None and regex.fullmatch(answer.strip()) is not None
            passed = answer is not None and matched != negate
            outcomes.append(Outcome(ident, command, pattern, answer, passed, known))
    return outcomes
