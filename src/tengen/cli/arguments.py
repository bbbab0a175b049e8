"""Argument types shared by the subcommands: each checks one value and says what is wrong."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from tengen import render
from tengen.ai.levels import MAX_LEVEL, MIN_LEVEL
from tengen.ai.levels import level as ai_level
from tengen.core.rules import Ruleset
from tengen.gtp.engine import MAX_SIZE


def ruleset(text: str) -> Ruleset:
    """``--rules``: a preset name or KataGo JSON, as `Ruleset.parse` reads them."""
    try:
        return Ruleset.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def size(text: str) -> int:
    """``--size``: a board size GTP can address."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"board size must be an integer, not {text!r}") from None
    if not 1 <= number <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"board size must be 1 to {MAX_SIZE}")
    return number


def level(text: str) -> int:
    """A playing level for argparse."""
    try:
        number = int(text)
        ai_level(number)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"level must be a whole number from {MIN_LEVEL} to {MAX_LEVEL}, not {text!r}"
        ) from None
    return number


def resign_rate(text: str) -> float:
    """A resignation win rate for argparse: 0 (never resign) to below 1."""
    try:
        rate = float(text)
    except ValueError:
        rate = -1.0
    if not 0 <= rate < 1:
        raise argparse.ArgumentTypeError(f"resign must be a win rate from 0 to below 1: {text!r}")
    return rate


def seconds(text: str) -> float:
    """A positive number of seconds for argparse."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"seconds must be a positive number, not {text!r}")
    return value


def komi(text: str) -> float:
    """``--komi``: a finite number."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"komi must be a finite number, not {text!r}")
    return value


def count(text: str) -> int:
    """``--move``, ``--game``: a whole number."""
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
    return int(text)


def move_range(text: str) -> tuple[int, int]:
    """``--moves A-B``: two move numbers."""
    first, dash, final = text.partition("-")
    if not dash:
        raise argparse.ArgumentTypeError(f"expected A-B, not {text!r}")
    return count(first), count(final)


def diagram_path(text: str) -> Path:
    """``-o``: a file whose suffix names a diagram format."""
    path = Path(text)
    if path.suffix.lower() not in render.FORMATS:
        raise argparse.ArgumentTypeError(f"{text}: use one of {', '.join(render.FORMATS)}")
    return path
