r"""Tygem ``.gib`` records.

A GIB file has a header between the lines ``\HS`` and ``\HE``, one field a line written
``\[NAME=value\]``, then the game between ``\GS`` and ``\GE``. The fields read here:

- ``GAMEBLACKNAME`` / ``GAMEWHITENAME``: ``name (rank)``, the rank in the client's language
  (``2D``, ``2段``, ``1급``); ``GAMEBLACKNICK`` / ``GAMEWHITENICK`` stand in for a missing name.
- ``GAMEDATE``: ``2015- 8-29-22-56-58`` or, from Chinese clients, ``2012年11月22日 下午 6:3``;
  ``GDATE`` inside ``GAMEINFOSUB`` repeats it in the first form.
- ``GAMEGONGJE``: the komi ("deduction" from Black's score) times ten, ``65`` for 6.5; the
  ``GONGJE`` item of ``GAMEINFOMAIN`` repeats it. ``GAMEDUM`` also appears in handicap games,
  but with a meaning no sample settles, so only ``GAMECONDITION`` (kept as the game comment,
  e.g. ``3 Handicap : White Dum(5)``) reports it.
- ``GAMEINFOMAIN``: ``KEY:value`` items separated by commas; ``GRLT`` is how the game ended
  (0/1 Black/White won by the score in ``ZIPSU``, also times ten; 3/4 by resignation; 7/8 on
  time; anything else, such as 255, no result) and ``GTIME`` the clock as
  ``main-byoyomi-periods`` in seconds. ``GAMERESULT`` spells the result out in words and is
  used only when ``GRLT`` is missing.
- ``GAMENAME`` is the event, ``GAMEPLACE`` the place.

In the game part, ``INI 0 1 h &4`` gives the handicap ``h`` (stones on the standard points),
``STO 0 n c x y`` is move ``n`` by colour ``c`` (1 Black, 2 White) at column ``x`` from the
left and row ``y`` from the top, both from 0, and ``SKI 0 n`` a pass. The board is always
19x19. Other lines there (``2 1 0``, ``119 0 &4``) carry nothing this reader needs.
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
    number,
    point,
    read_source,
    result_from_text,
    split_lines,
    split_player,
)
from tengen.sgf.tree import GameTree

SIZE = 19
# The server's country, the best guess at the charset when the text is not UTF-8.
_CHARSETS = {"korea": "cp949", "china": "gb18030", "japan": "cp932", "taiwan": "big5"}
_GRLT = {3: "B+R", 4: "W+R", 7: "B+T", 8: "W+T"}
_INI = re.compile(r"INI\s+\d{1,9}\s+\d{1,9}\s+(\d{1,9})\b.*", re.ASCII)
_STO = re.compile(r"STO\s+\d{1,9}\s+\d{1,9}\s+([12])\s+(\d{1,9})\s+(\d{1,9})\s*", re.ASCII)
_SKI = re.compile(r"SKI\s+\d{1,9}\s+\d{1,9}\s*", re.ASCII)
_INT = re.compile(r"\s*(-?\d{1,9})\s*", re.ASCII)

Header = dict[str, str]


def load(source: Source) -> GameTree:
    """Read a GIB record (a path or its bytes). Raises RecordError if it is malformed."""
    data = read_source(source)
    kind = re.search(rb"GIBOKIND=(\w+)", data, re.ASCII)
    hint = _CHARSETS.get(kind[1].decode().lower()) if kind else None
    lines = split_lines(decode(data, hint=hint))
    header, start = _read_header(lines)
    info = _info(header)
    moves: list[tuple[Color, Move]] = []
    to_play = Color.BLACK
    for line_no, text in enumerate(lines[start:], start + 1):
        line = text.strip()
        if line.startswith("INI"):
            ini = _INI.fullmatch(line)
            if ini is None:
                raise RecordError(f"bad handicap line {line!r}", line_no)
            if moves:
                raise RecordError("handicap line after the first move", line_no)
            info.handicap = handicap_stones(int(ini[1]), SIZE, line_no)
            to_play = Color.WHITE if info.handicap else Color.BLACK
        elif line.startswith("STO"):
            sto = _STO.fullmatch(line)
            if sto is None:
                raise RecordError(f"bad move line {line!r}", line_no)
            x, y = sto[2], sto[3]
            to_play = Color.BLACK if sto[1] == "1" else Color.WHITE
            moves.append((to_play, point(int(x), int(y), SIZE, SIZE, line_no, f"{x} {y}")))
            to_play = to_play.opponent
        elif line.startswith("SKI"):
            if _SKI.fullmatch(line) is None:
                raise RecordError(f"bad pass line {line!r}", line_no)
            moves.append((to_play, None))
            to_play = to_play.opponent
    return build_tree(info, moves)


def _read_header(lines: list[str]) -> tuple[Header, int]:
    r"""The ``\[NAME=value\]`` fields between ``\HS`` and ``\HE``, and the index after."""
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if first == len(lines) or lines[first].strip() != r"\HS":
        raise RecordError(r"not a GIB record: it does not open with \HS", first + 1)
    header: Header = {}
    i = first + 1
    while i < len(lines):
        line, start = lines[i].strip(), i
        if line == r"\HE":
            return header, i + 1
        if line.startswith(r"\["):
            parts = [line]  # a field over many lines: joined once, not line by line
            while not parts[-1].endswith(r"\]") and i + 1 < len(lines):
                i += 1
                parts.append(lines[i].strip())
            line = "\n".join(parts)
            name, equals, value = line[2:].removesuffix(r"\]").partition("=")
            if not line.endswith(r"\]") or not equals:
                raise RecordError(f"bad header field {lines[start].strip()!r}", start + 1)
            header[name.strip().upper()] = value.strip()
        elif line:
            raise RecordError(f"unexpected line in the header: {line!r}", i + 1)
        i += 1
    raise RecordError(r"the header has no closing \HE", len(lines))


def _items(text: str) -> Header:
    """``GBKIND:0,GRLT:7,...`` -> {"GBKIND": "0", "GRLT": "7", ...}."""
    pairs = (item.partition(":") for item in text.split(","))
    return {key.strip().upper(): value.strip() for key, sep, value in pairs if sep}


def _int(text: str | None) -> int | None:
    """The integer `text` holds, or None."""
    found = _INT.fullmatch(text or "")
    return int(found[1]) if found else None


def _info(header: Header) -> GameInfo:
    """Players, date, komi, result, clock, event and place from the header fields."""
    main = _items(header.get("GAMEINFOMAIN", ""))
    sub = _items(header.get("GAMEINFOSUB", ""))
    info = GameInfo(width=SIZE, height=SIZE)
    for color in ("BLACK", "WHITE"):
        name, rank = split_player(header.get(f"GAME{color}NAME", ""))
        name = name or header.get(f"GAME{color}NICK", "")
        if color == "BLACK":
            info.black, info.black_rank = name or None, rank
        else:
            info.white, info.white_rank = name or None, rank
    info.date = iso_date(header.get("GAMEDATE", "")) or iso_date(sub.get("GDATE", ""))
    gongje = _int(header.get("GAMEGONGJE", main.get("GONGJE")))
    info.komi = None if gongje is None else gongje / 10
    grlt = _int(main.get("GRLT"))
    if grlt in (0, 1):
        score = _int(header.get("GAMEZIPSU", main.get("ZIPSU")))
        margin = number(score / 10) if score else ""
        info.result = f"{'B' if grlt == 0 else 'W'}+{margin}"
    elif grlt is not None:
        info.result = _GRLT.get(grlt)
    else:
        info.result = result_from_text(header.get("GAMERESULT", ""))
    clock = re.fullmatch(r"(\d{1,6})-(\d{1,4})-(\d{1,3})", main.get("GTIME", ""), re.ASCII)
    if clock:
        info.time = int(clock[1])
        info.overtime = f"{clock[3]}x{clock[2]} byo-yomi"
    info.event = header.get("GAMENAME") or None
    info.place = header.get("GAMEPLACE") or None
    info.comment = header.get("GAMECONDITION") or None
    return info
