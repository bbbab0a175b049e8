"""SGF property values: the type of every property, and raw value <-> Python value for each type.

==============  ==========================  ===============================================
type            raw values                  Python value
==============  ==========================  ===============================================
none            ``[]``                      ``True``
number, double  ``[12]``, ``[2]``           ``int``
real            ``[6.5]``                   ``float`` (a decimal comma is accepted)
color           ``[B]``                     ``Color``
simpletext      ``[a\\]b]``                 ``str``; escapes removed, line breaks -> spaces
text            ``[a\\]b]``                 ``str``; escapes and soft line breaks removed
point           ``[dd]``                    ``Point``
move            ``[dd]`` ``[]`` ``[tt]``    ``Point``, or ``None`` for a pass (``tt`` up to 19x19)
point list      ``[aa:bb][cd]``             ``list[Point]``, rectangles expanded
elist           ``[]`` or a point list      ``list[Point]``, maybe empty
line            ``[aa:cc]`` (LN, AR)        ``list[tuple[Point, Point]]``
label           ``[dd:text]`` (LB)          ``list[tuple[Point, str]]``
size            ``[19]`` ``[19:13]``        ``tuple[int, int]`` (columns, rows)
application     ``[name:1.0]`` (AP)         ``tuple[str, str]``
figure          ``[]`` or ``[0:name]``      ``True`` or ``tuple[int, str]``
unknown         anything                    ``list[str]`` of texts
==============  ==========================  ===============================================

Points are read as SGF letters (``a``-``z``, ``A``-``Z``) and not checked against the board:
the replay knows the size and reports moves off the board with the node they are in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from tengen.core.color import Color
from tengen.core.coords import SGF_LETTERS, Point, to_sgf

Size = tuple[int, int]
SizeSource = Size | Callable[[], Size]

_LETTER_INDEX = {letter: i for i, letter in enumerate(SGF_LETTERS)}
# Every point value written as exactly two SGF letters (no spaces), read once: the fast path of
# ``interpret_point`` and ``interpret_move``, which give the same Point for these values.
# ``tt`` is here as the point (19, 19); whether a move ``tt`` is a pass is for the caller.
PLAIN_POINTS: Mapping[str, Point] = {
    a + b: Point(i, j) for i, a in enumerate(SGF_LETTERS) for j, b in enumerate(SGF_LETTERS)
}
_NUMBER = re.compile(r"[+-]?\d+")
_REAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
# One regex for everything text needs: soft line break, escaped char, line break, other space.
_TEXT_TOKEN = re.compile(r"\\(\r\n|\n\r|\r|\n)|\\([\s\S])|(\r\n|\n\r|\r|\n)|([\t\v\f])")
_UNESCAPED_COLON = re.compile(r"(?:\\[\s\S]|[^\\:])*")


def escape_text(text: str, *, composed: bool = False) -> str:
    """The raw value of a text: ``\\`` and ``]`` escaped, and ``:`` too inside a composed value."""
    text = text.replace("\\", "\\\\").replace("]", "\\]")
    return text.replace(":", "\\:") if composed else text


def _unescape(raw: str, line_break: str) -> str:
    def replace(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return ""
        escaped = m.group(2)
        if escaped is not None:
            return " " if escaped in "\t\v\f" else escaped
        return line_break if m.group(3) is not None else " "

    return _TEXT_TOKEN.sub(replace, raw)


def interpret_text(raw: str) -> str:
    """Text: escapes and soft line breaks removed, line breaks ``\\n``, other spaces ``' '``."""
    return _unescape(raw, "\n")


def interpret_simpletext(raw: str) -> str:
    """SimpleText: as text, but line breaks become spaces."""
    return _unescape(raw, " ")


def split_composed(raw: str) -> tuple[str, str]:
    """Split a composed raw value at its first unescaped ``:``. Raises ValueError if it has none."""
    m = _UNESCAPED_COLON.match(raw)
    assert m is not None  # '*' always matches
    if m.end() >= len(raw):
        raise ValueError(f"expected a composed value 'a:b', got {raw!r}")
    return raw[: m.end()], raw[m.end() + 1 :]


def interpret_number(raw: str) -> int:
    """``[+-]digits``. Raises ValueError otherwise."""
    text = raw.strip()
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"invalid number: {raw!r}")
    return int(text)


def interpret_real(raw: str) -> float:
    """A decimal number; the decimal comma some programs write is accepted. Raises ValueError."""
    text = raw.strip().replace(",", ".")
    if not _REAL.fullmatch(text):
        raise ValueError(f"invalid real: {raw!r}")
    return float(text)


def interpret_double(raw: str) -> int:
    """``1`` (normal) or ``2`` (emphasised). Raises ValueError otherwise."""
    if raw.strip() not in ("1", "2"):
        raise ValueError(f"invalid double: {raw!r}")
    return int(raw)


def interpret_color(raw: str) -> Color:
    """``B`` or ``W``. Raises ValueError otherwise."""
    text = raw.strip()
    if text not in ("B", "W", "b", "w"):
        raise ValueError(f"invalid colour: {raw!r}")
    return Color.BLACK if text in "Bb" else Color.WHITE


def interpret_point(raw: str) -> Point:
    """Two SGF letters, column then row. Raises ValueError otherwise."""
    point = PLAIN_POINTS.get(raw)
    if point is not None:
        return point
    text = raw.strip()
    if len(text) != 2 or text[0] not in _LETTER_INDEX or text[1] not in _LETTER_INDEX:
        raise ValueError(f"invalid point: {raw!r}")
    return Point(_LETTER_INDEX[text[0]], _LETTER_INDEX[text[1]])


def interpret_move(raw: str, size: SizeSource = (19, 19)) -> Point | None:
    """A point, or None for a pass: ``[]``, or ``[tt]`` on boards up to 19x19 (FF[3]).

    ``size`` (or a function giving it, called only for ``tt``) decides what ``tt`` means.
    Raises ValueError if the value is not a point.
    """
    point = PLAIN_POINTS.get(raw)
    if point is not None and raw != "tt":
        return point
    text = raw.strip()
    if text == "":
        return None
    if text == "tt":
        width, height = size() if callable(size) else size
        if width <= 19 and height <= 19:
            return None
    return interpret_point(text)


def interpret_point_list(raw: str) -> list[Point]:
    """One value of a point list: a point, or a rectangle ``aa:cc`` expanded row by row."""
    if ":" not in raw:
        return [interpret_point(raw)]
    first, second = (interpret_point(p) for p in raw.split(":", 1))
    cols = range(min(first.col, second.col), max(first.col, second.col) + 1)
    rows = range(min(first.row, second.row), max(first.row, second.row) + 1)
    return [Point(col, row) for row in rows for col in cols]


def interpret_size(raw: str) -> Size:
    """``19`` -> (19, 19); ``19:13`` -> (19, 13) as (columns, rows). Raises ValueError."""
    if ":" in raw:
        width, height = (interpret_number(p) for p in raw.split(":", 1))
    else:
        width = height = interpret_number(raw)
    if width < 1 or height < 1:
        raise ValueError(f"invalid board size: {raw!r}")
    return width, height


def _serialise_real(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return format(value, "f").rstrip("0")


def _serialise_point(point: Point) -> str:
    col, row = point
    if not (0 <= col < len(SGF_LETTERS) and 0 <= row < len(SGF_LETTERS)):
        raise ValueError(f"point {point} has no SGF letters")
    return to_sgf(Point(col, row))


def _serialise_double(value: int) -> str:
    if value not in (1, 2):
        raise ValueError(f"invalid double: {value!r}")
    return str(value)


class PropertyType(NamedTuple):
    """How to read all values of a property into one Python value, and write it back."""

    name: str
    interpret: Callable[[list[str], SizeSource], Any]
    serialise: Callable[[Any], list[str]]


def _single(name: str, read: Callable[[str], Any], write: Callable[[Any], str]) -> PropertyType:
    """A property with one value; only the first is read, as real files may repeat it."""
    return PropertyType(name, lambda values, _size: read(values[0]), lambda v: [write(v)])


def _point_list(name: str, empty_ok: bool) -> PropertyType:
    def read(values: list[str], _size: SizeSource) -> list[Point]:
        # A value given again adds nothing: read once, so that a rectangle repeated a million
        # times is not expanded a million times.
        return [
            p for raw in dict.fromkeys(values) if raw.strip() for p in interpret_point_list(raw)
        ]

    def write(points: list[Point]) -> list[str]:
        if not points and not empty_ok:
            raise ValueError(f"a {name} needs at least one point")
        return [_serialise_point(p) for p in points] or [""]

    return PropertyType(name, read, write)


def _pairs(name: str, read: Callable[[str, str], Any], write: Callable[[Any], str]) -> PropertyType:
    """A list of composed values ``a:b``."""
    return PropertyType(
        name,
        lambda values, _size: [read(*split_composed(raw)) for raw in values],
        lambda items: [write(item) for item in items],
    )


def _interpret_figure(raw: str) -> bool | tuple[int, str]:
    if raw.strip() == "":
        return True
    flags, name = split_composed(raw)
    return interpret_number(flags), interpret_simpletext(name)


def _serialise_figure(value: bool | tuple[int, str]) -> str:
    if value is True:
        return ""
    flags, name = value  # type: ignore[misc]
    return f"{flags}:{escape_text(name, composed=True)}"


def _serialise_size(value: int | Size) -> str:
    width, height = (value, value) if isinstance(value, int) else value
    return str(width) if width == height else f"{width}:{height}"


NONE = _single("none", lambda raw: True, lambda value: "")
NUMBER = _single("number", interpret_number, str)
REAL = _single("real", interpret_real, _serialise_real)
DOUBLE = _single("double", interpret_double, _serialise_double)
COLOR = _single("color", interpret_color, lambda color: Color(color).letter)
SIMPLETEXT = _single("simpletext", interpret_simpletext, escape_text)
TEXT = _single("text", interpret_text, escape_text)
POINT = _single("point", interpret_point, _serialise_point)
MOVE = PropertyType(
    "move",
    lambda values, size: interpret_move(values[0], size),
    lambda move: [to_sgf(None) if move is None else _serialise_point(move)],
)
POINT_LIST = _point_list("point list", empty_ok=False)
ELIST = _point_list("elist", empty_ok=True)
LINE = _pairs(
    "line",
    lambda a, b: (interpret_point(a), interpret_point(b)),
    lambda pair: f"{_serialise_point(pair[0])}:{_serialise_point(pair[1])}",
)
LABEL = _pairs(
    "label",
    lambda point, text: (interpret_point(point), interpret_simpletext(text)),
    lambda pair: f"{_serialise_point(pair[0])}:{escape_text(pair[1], composed=True)}",
)
SIZE = _single("size", interpret_size, _serialise_size)
APPLICATION = _single(
    "application",
    lambda raw: tuple(interpret_simpletext(p) for p in split_composed(raw)),
    lambda pair: ":".join(escape_text(p, composed=True) for p in pair),
)
FIGURE = _single("figure", _interpret_figure, _serialise_figure)
UNKNOWN = PropertyType(
    "unknown",
    lambda values, _size: [interpret_text(raw) for raw in values],
    lambda texts: [escape_text(t) for t in ([texts] if isinstance(texts, str) else texts)],
)

PROPERTY_TYPES: dict[str, PropertyType] = {
    # Moves (FF[4] section "Move properties").
    "B": MOVE, "W": MOVE, "KO": NONE, "MN": NUMBER,
    # Setup.
    "AB": POINT_LIST, "AW": POINT_LIST, "AE": POINT_LIST, "PL": COLOR,
    # Node annotation.
    "C": TEXT, "N": SIMPLETEXT, "DM": DOUBLE, "GB": DOUBLE, "GW": DOUBLE, "HO": DOUBLE,
    "UC": DOUBLE, "V": REAL,
    # Move annotation.
    "BM": DOUBLE, "DO": NONE, "IT": NONE, "TE": DOUBLE,
    # Markup.
    "AR": LINE, "LN": LINE, "LB": LABEL, "CR": POINT_LIST, "MA": POINT_LIST,
    "SL": POINT_LIST, "SQ": POINT_LIST, "TR": POINT_LIST, "DD": ELIST,
    # Root.
    "AP": APPLICATION, "CA": SIMPLETEXT, "FF": NUMBER, "GM": NUMBER, "ST": NUMBER, "SZ": SIZE,
    # Game info.
    "AN": SIMPLETEXT, "BR": SIMPLETEXT, "BT": SIMPLETEXT, "CP": SIMPLETEXT,
    "DT": SIMPLETEXT, "EV": SIMPLETEXT, "GC": TEXT, "GN": SIMPLETEXT, "ON": SIMPLETEXT,
    "OT": SIMPLETEXT, "PB": SIMPLETEXT, "PC": SIMPLETEXT, "PW": SIMPLETEXT, "RE": SIMPLETEXT,
    "RO": SIMPLETEXT, "RU": SIMPLETEXT, "SO": SIMPLETEXT, "TM": REAL, "US": SIMPLETEXT,
    "WR": SIMPLETEXT, "WT": SIMPLETEXT,
    # Timing.
    "BL": REAL, "OB": NUMBER, "OW": NUMBER, "WL": REAL,
    # Miscellaneous.
    "FG": FIGURE, "PM": NUMBER, "VW": ELIST,
    # Go (GM[1]); Gomoku (GM[4]) uses the general properties only.
    "HA": NUMBER, "KM": REAL, "TB": ELIST, "TW": ELIST,
    # FF[1]-FF[3] properties still met in old files.
    "BS": NUMBER, "WS": NUMBER, "CH": DOUBLE, "EL": NUMBER, "EX": MOVE, "ID": SIMPLETEXT,
    "KI": NUMBER, "L": POINT_LIST, "M": POINT_LIST, "OM": NUMBER, "OP": REAL, "OV": NUMBER,
    "RG": POINT_LIST, "SC": POINT_LIST, "SE": POINT_LIST, "SI": DOUBLE, "TC": NUMBER,
    "LT": NONE,
}  # fmt: skip


def property_type(ident: str) -> PropertyType:
    """The value type of a property; unknown and private properties are lists of texts."""
    return PROPERTY_TYPES.get(ident, UNKNOWN)


def interpret(ident: str, values: list[str], size: SizeSource = (19, 19)) -> Any:
    """The Python value of a property's raw values (see the module table).

    ``size`` (or a function giving it) is used only to read ``tt`` in moves.
    Raises ValueError if a value does not fit the property's type.
    """
    if not values:
        raise ValueError(f"property {ident} has no value")
    return property_type(ident).interpret(values, size)


def serialise(ident: str, value: Any) -> list[str]:
    """The raw values of a property holding a Python value (see the module table).

    Raises ValueError (or TypeError) if the value does not fit the property's type.
    """
    return property_type(ident).serialise(value)
