"""WBaduk / CyberOro ``.ngf`` records.

The usual layout is twelve header lines, one value each, then one line a move:

1. game title (``Rated game``, ``Oro2000 Promotional Match``): the event;
2. board size;
3. White's name and rank, separated by spaces (``LQC         9DP``; ``DP`` is a professional
   rank, ``*`` marks an established one);
4. Black's name and rank;
5. the site (``www.cyberoro.com``): the place;
6. handicap (stones on the standard points);
7. unknown;
8. komi as a whole number: the half point is implied in even games (``7`` is 7.5), while a
   handicap game's komi is taken as written;
9. date, ``20170316 [09:51]``;
10. unknown;
11. the result in English words (``Black wins by 0.5!``, ``White wins by resign!``,
    ``White loses on time``, ``Progressing!`` for an unfinished game);
12. the number of moves.

A move line is ``PM`` + the move number in two letters + ``B`` or ``W`` + four letters: the
column, the row, then the same two reversed (``PMABBREER`` is Black at column R, row E).
Letters count from ``B`` for 0, columns from the left and rows from the top; ``A`` (-1), or
the first letter past the board, on both axes is a pass.

Records of Chinese origin use another dialect: every header line starts with ``GI`` and the
order is title, White, Black, two unknown lines, date (``2006-9-5``), size, handicap, unknown,
komi, number of moves; after the moves, a line ``IDB[n] result text[EndTxt]`` gives the result
in Chinese (``黑中盘胜``: Black wins by resignation). That White comes before Black here is
assumed from the usual layout; no sample settles it.
"""

from __future__ import annotations

import re

from tengen.core.color import Color
from tengen.core.coords import Move
from tengen.sgf.formats.common import (
    GameInfo,
    RecordError,
    Source,
    build_tree,
    decode,
    handicap_stones,
    iso_date,
    point,
    read_source,
    result_from_text,
    split_lines,
    split_player,
)
from tengen.sgf.tree import GameTree

_MOVE = re.compile(r"PM[A-Z]{2}([BW])([A-Z])([A-Z])[A-Z]{2}\s*")
_NUMBER = re.compile(r"\s*(-?\d{1,3}(?:\.\d{1,2})?)\s*", re.ASCII)
# Header line (0-based) of each field, in the usual layout and in the GI dialect.
_PLAIN = {"event": 0, "size": 1, "white": 2, "black": 3, "place": 4, "handicap": 5, "komi": 7}
_PLAIN |= {"date": 8, "result": 10}
_GI = {"event": 0, "white": 1, "black": 2, "date": 5, "size": 6, "handicap": 7, "komi": 9}


def load(source: Source) -> GameTree:
    """Read an NGF record (a path or its bytes). Raises RecordError if it is malformed."""
    lines = list(enumerate(split_lines(decode(read_source(source))), 1))
    dialect = lines[0][1].startswith("GI")
    fields = _GI if dialect else _PLAIN
    header = (
        [(n, line[2:]) for n, line in lines if line.startswith("GI")] if dialect else lines[:12]
    )
    need = max(fields.values()) + 1
    if len(header) < need:
        raise RecordError(f"the header has {len(header)} of its {need} lines", len(lines))
    info = _info({key: header[i] for key, i in fields.items()})
    if dialect:
        text = next((line for _, line in lines if line.startswith("IDB[")), "")
        info.result = result_from_text(text.partition("]")[2].removesuffix("[EndTxt]"))
    body = lines if dialect else lines[12:]
    moves = [_move(line, info.width, n) for n, line in body if line.startswith("PM")]
    return build_tree(info, moves)


def _integer(field: tuple[int, str], what: str) -> int:
    """The whole number on a header line, or RecordError naming `what`."""
    line_no, text = field
    found = _NUMBER.fullmatch(text)
    if found is None or not float(found[1]).is_integer():
        raise RecordError(f"bad {what} {text!r}", line_no)
    return int(float(found[1]))


def _info(fields: dict[str, tuple[int, str]]) -> GameInfo:
    """Game information from the header lines, each as (file line, text), keyed as `_PLAIN`."""
    size = _integer(fields["size"], "board size")
    if not 2 <= size <= 25:
        raise RecordError(f"board size {size} is not 2 to 25", fields["size"][0])
    info = GameInfo(width=size, height=size)
    handicap = _integer(fields["handicap"], "handicap")
    info.handicap = handicap_stones(handicap, size, fields["handicap"][0])
    komi = _NUMBER.fullmatch(fields["komi"][1])
    if komi:
        written = float(komi[1])
        info.komi = written + 0.5 if written.is_integer() and not info.handicap else written
    info.white, info.white_rank = split_player(fields["white"][1])
    info.black, info.black_rank = split_player(fields["black"][1])
    info.date = iso_date(fields["date"][1])
    info.event = fields["event"][1].strip() or None
    info.place = fields.get("place", (0, ""))[1].strip() or None
    info.result = result_from_text(fields.get("result", (0, ""))[1])
    return info


def _move(line: str, size: int, line_no: int) -> tuple[Color, Move]:
    """One ``PM`` line -> (colour, point or None for a pass)."""
    found = _MOVE.fullmatch(line)
    if found is None:
        raise RecordError(f"bad move line {line!r}", line_no)
    color = Color.BLACK if found[1] == "B" else Color.WHITE
    col, row = ord(found[2]) - ord("B"), ord(found[3]) - ord("B")
    if col in (-1, size) and row == col:
        return color, None
    return color, point(col, row, size, size, line_no, found[2] + found[3])
