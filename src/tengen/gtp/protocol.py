"""GTP version 2 wire format: split a command line and format a response; no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ID = re.compile(r"[0-9]+")
# Control characters the spec drops (all but HT and LF), plus CR; for str.translate.
_CONTROL = {c: None for c in (*range(32), 127) if c not in (9, 10)}
_BLANK_LINES = re.compile(r"\n{2,}")


class GtpError(Exception):
    """A command failed; the message is the text that follows ``?``."""


@dataclass(frozen=True, slots=True)
class Command:
    """One command line: the id to echo (if any), the command name and its arguments.

    The name is empty when the line holds only an id.
    """

    id: str | None
    name: str
    args: tuple[str, ...]


def preprocess(line: str) -> str:
    """The spec's cleaning: drop control characters but HT and LF, cut the comment, HT to space."""
    return line.translate(_CONTROL).split("#", 1)[0].replace("\t", " ")


def parse_line(line: str) -> Command | None:
    """Read ``[id] name [args...]``; None for a line that is empty once cleaned."""
    words = preprocess(line).split()
    if not words:
        return None
    if _ID.fullmatch(words[0]):
        return Command(words[0], words[1] if len(words) > 1 else "", tuple(words[2:]))
    return Command(None, words[0], tuple(words[1:]))


def format_success(result: str, id: str | None = None) -> str:
    """``=id result`` and the empty line that ends every response."""
    return f"={id or ''} {_clean(result)}\n\n"


def format_stream_start(id: str | None = None) -> str:
    """``=id`` alone on its line: the start of a response written while the engine works
    (``lz-analyze``); the caller ends it with an empty line."""
    return f"={id or ''}\n"


def format_failure(message: str, id: str | None = None) -> str:
    """``?id message`` and the empty line that ends every response."""
    return f"?{id or ''} {_clean(message)}\n\n"


def _clean(text: str) -> str:
    """Keep a response body from ending the response early: no control chars, no empty lines."""
    return _BLANK_LINES.sub("\n", text.translate(_CONTROL)).rstrip("\n")
