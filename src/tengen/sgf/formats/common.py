"""What the record importers share: the error, decoding, and reading of names, dates and results.

The servers wrote these formats for their own clients, in the players' own language, so the
same facts come as ``2D``, ``2段`` or ``2급`` and ``black wins by time``, ``黑超时胜`` or
``흑 시간승``. The readers here turn them into the SGF forms (``2d``, ``B+T``).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import charset_normalizer

from tengen.core.color import Color
from tengen.core.coords import Move, Point, to_sgf
from tengen.core.handicap import fixed_points
from tengen.sgf import collector
from tengen.sgf.properties import escape_text
from tengen.sgf.tree import GameTree, Node

Source = str | Path | bytes


class RecordError(ValueError):
    """A record that cannot be read, with the 1-based line of the file where it goes wrong."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(message if line is None else f"line {line}: {message}")


def read_source(source: Source) -> bytes:
    """The bytes of a record given as bytes or as a path."""
    return source if isinstance(source, bytes) else Path(source).read_bytes()


def decode(data: bytes, declared: str | None = None, hint: str | None = None) -> str:
    """Text of `data`: the declared codec if it fits, else UTF-8, else the format's hint (the
    server's country), else the detector's guess, else Latin-1 (which never fails)."""
    for codec in (declared, "utf-8-sig", hint):
        if codec:
            try:
                return data.decode(codec)
            except (LookupError, UnicodeDecodeError):
                pass
    best = charset_normalizer.from_bytes(data).best()
    return str(best) if best is not None else data.decode("latin-1")


def split_lines(text: str) -> list[str]:
    """Lines as an editor numbers them (CR LF, CR or LF), without their ends."""
    return re.split(r"\r\n|\r|\n", text)


def whole(text: str) -> int | None:
    """The whole number `text` holds (up to six digits, spaces around allowed), or None."""
    found = re.fullmatch(r"\s*(\d{1,6})\s*", text, re.ASCII)
    return int(found[1]) if found else None


def number(value: float) -> str:
    """A komi or score as SGF writes reals: ``6.5``, ``11``, ``-5.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def iso_date(text: str) -> str | None:
    """``2015- 8-29-22-56``, ``2012年11月22日``, ``20170316 [09:51]`` -> ``YYYY-MM-DD``."""
    found = re.search(r"(\d{4})(\d{2})(\d{2})", text, re.ASCII) or re.search(
        r"(\d{4})\D{1,3}(\d{1,2})\D{1,3}(\d{1,2})", text, re.ASCII
    )
    if found is None:
        return None
    try:
        return datetime.date(*(int(g) for g in found.groups())).isoformat()
    except ValueError:
        return None


_NUMERALS = {c: i for i, c in enumerate("一二三四五六七八九十", 1)} | {"初": 1}
_UNITS = {"k": "k", "kyu": "k", "级": "k", "級": "k", "급": "k"}
_UNITS |= {"d": "d", "dan": "d", "段": "d", "단": "d", "p": "p", "dp": "p", "pro": "p", "프로": "p"}
_RANK = re.compile(
    r"(\d{1,2}|[初一二三四五六七八九十])\s*([a-z]+|[级級급段단]|프로)\s*([*?]?)", re.A
)


def _sgf_rank(text: str) -> str | None:
    """The SGF form of a rank written any of the ways the servers write it, or None."""
    found = _RANK.fullmatch(text.strip().lower())
    if found is None or found[2] not in _UNITS:
        return None
    digits, unit, mark = found.groups()
    value = int(digits) if digits.isdigit() else _NUMERALS[digits]
    return f"{value}{_UNITS[unit]}{mark}"


def rank(text: str) -> str:
    """``10K`` -> ``10k``, ``9DP`` -> ``9p``, ``初段`` -> ``1d``, ``1급`` -> ``1k``, ``7D*`` ->
    ``7d*``; anything else comes back stripped."""
    return _sgf_rank(text) or text.strip()


def split_player(text: str) -> tuple[str, str | None]:
    """``name (rank)``, ``name(rank)`` or ``name   rank`` -> (name, SGF rank or None)."""
    text = text.strip()
    # ``name (rank)``: the last '(' opens the rank. Found by hand, as a regex would try each
    # start of the space before it in turn (time quadratic in a long run of spaces).
    opening = text.rfind("(")
    name, inside = text[:opening].rstrip(), text[opening + 1 : -1]
    if text.endswith(")") and opening >= 0 and ")" not in inside and name and "\n" not in name:
        return name, rank(inside) if inside.strip() else None
    parts = text.rsplit(None, 1)
    if len(parts) == 2 and (found := _sgf_rank(parts[1])):
        return parts[0], found
    return text, None


_DRAW = ("draw", "jigo", "和棋", "持碁", "무승부")
_BLACK = ("black", "黑", "黒", "흑")
_WHITE = ("white", "白", "백")
_LOSE = ("lose", "lost", "负", "負", "敗", "패")
_WIN = ("win", "won", "胜", "勝", "승")
_RESIGN = ("resi", "中盘", "中盤", "中押", "불계")
_TIME = ("time", "超时", "时间", "時間", "切れ", "시간")


def _first(text: str, words: tuple[str, ...]) -> int:
    """Where the first of `words` occurs in `text` (len(text) if none does)."""
    return min((i for i in (text.find(w) for w in words) if i >= 0), default=len(text))


def result_from_text(text: str) -> str | None:
    """A result written out in English, Chinese, Japanese or Korean -> ``B+R``, ``W+3.5``,
    ``B+T``, ``W+`` or ``0`` (a draw); None when it names no winner (``Progressing!``)."""
    t = text.lower()
    if any(w in t for w in _DRAW):
        return "0"
    black, white = _first(t, _BLACK), _first(t, _WHITE)
    if black == white:
        return None
    named = Color.BLACK if black < white else Color.WHITE
    if any(w in t for w in _LOSE):
        winner = named.opponent
    elif any(w in t for w in _WIN):
        winner = named
    else:
        return None
    if any(w in t for w in _RESIGN):
        how = "R"
    elif any(w in t for w in _TIME):
        how = "T"
    else:
        score = re.search(r"(\d{1,4}(?:\.\d{1,2})?)\s*(?:目|집|moku|points?)?\s*([半반])?", t, re.A)
        how = number(float(score[1]) + (0.5 if score[2] else 0)) if score else ""
    return f"{winner.letter}+{how}"


def point(col: int, row: int, width: int, height: int, line: int, written: str) -> Point:
    """Point(col, row), or RecordError naming `line` and the point as `written` in the file."""
    if not (0 <= col < width and 0 <= row < height):
        raise RecordError(f"point {written!r} is off the {width}x{height} board", line)
    return Point(col, row)


def handicap_stones(count: int, size: int, line: int) -> list[Point]:
    """The standard points of `count` handicap stones (none below 2), or RecordError."""
    if count < 2:
        return []
    try:
        return fixed_points(count, size)
    except ValueError as error:
        raise RecordError(str(error), line) from None


@dataclass
class GameInfo:
    """The facts of a game as the importers find them, written out as SGF root properties."""

    game: int = 1
    width: int = 19
    height: int = 19
    black: str | None = None
    black_rank: str | None = None
    white: str | None = None
    white_rank: str | None = None
    date: str | None = None
    komi: float | None = None
    handicap: list[Point] = field(default_factory=list)
    result: str | None = None
    rules: str | None = None
    time: int | None = None
    overtime: str | None = None
    name: str | None = None
    event: str | None = None
    place: str | None = None
    copyright: str | None = None
    comment: str | None = None

    def properties(self) -> dict[str, list[str]]:
        """The root node: GM, FF, SZ, then the game information that was found."""
        size = str(self.width) if self.width == self.height else f"{self.width}:{self.height}"
        props = {"GM": [str(self.game)], "FF": ["4"], "SZ": [size]}
        texts = {
            "GN": self.name,
            "EV": self.event,
            "PC": self.place,
            "DT": self.date,
            "PB": self.black,
            "BR": self.black_rank,
            "PW": self.white,
            "WR": self.white_rank,
            "RU": self.rules,
            "OT": self.overtime,
            "RE": self.result,
            "CP": self.copyright,
            "GC": self.comment,
        }
        props |= {key: [escape_text(value)] for key, value in texts.items() if value}
        if self.komi is not None:
            props["KM"] = [number(self.komi)]
        if self.time is not None:
            props["TM"] = [str(self.time)]
        if self.handicap:
            props["HA"] = [str(len(self.handicap))]
            props["AB"] = [to_sgf(p) for p in self.handicap]
        return props


def move_properties(color: Color, move: Move) -> dict[str, list[str]]:
    """``{"B": ["dd"]}``; a pass is the empty value."""
    return {color.letter: [to_sgf(move)]}


def build_tree(info: GameInfo, moves: Iterable[tuple[Color, Move]]) -> GameTree:
    """A game tree with `info` at the root and `moves` as its one line of play."""
    collecting = collector.pause()
    try:
        root = Node(info.properties())
        node = root
        for color, move in moves:
            node = node.append_child(move_properties(color, move))
        return GameTree(root)
    finally:
        collector.resume(collecting)
