"""Pandanet (IGS) ``.ugf`` game records and ``.ugi`` reviews, as PandaEGG writes them.

The file is in sections, each opened by a line ``[Name]``:

- ``[Header]``: ``Key=value`` lines. ``Lang`` declares the charset (``SJIS`` is Shift-JIS);
  ``PlayerB`` / ``PlayerW`` are ``name,rank,...``; ``Size``; ``Hdcp`` is
  ``handicap,komi`` with the komi as a signed real (``0,-5.50``: Black receives 5.5);
  ``Winner`` is ``B,7.50`` (the colour, then the margin or a word); ``Date`` starts with
  ``YYYY/MM/DD``; ``Rule`` (``JPN``), ``Place``, ``Title``, ``Copyright`` and ``Comment``
  carry over as they are. ``CoordinateType`` must be ``IGS``, the system described next.
- ``[Data]``: one move a line, ``QP,B1,1,0``: the point, the colour (``B``/``W`` and a digit),
  the move number and the time used. The point is two letters from ``A``: the column from the
  left, then the row from the *bottom* (``QP`` on 19x19 is SGF ``qd``); ``YA`` is a pass.
- ``[ReviewNode]``: the game tree of a review, one ``NODE,id,colour,x,y`` a line with colour 0
  (no move), 1 (Black) or 2 (White) and x, y counted from 1, x from the left and y from the
  bottom; ``size+1,size+1`` is a pass. A block between ``VARIATION,`` and ``VARIATIONEND,``
  is an alternative to the node that follows the block; the first node is the root.
- ``[ReviewComment]``: ``.Comment,id`` then the lines of the comment on that node.

When the review tree holds moves it is the game tree; otherwise ``[Data]`` is its one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tengen.core.color import Color
from tengen.core.coords import Move
from tengen.sgf import collector
from tengen.sgf.formats.common import (
    GameInfo,
    RecordError,
    Source,
    decode,
    handicap_stones,
    iso_date,
    move_properties,
    number,
    point,
    read_source,
    split_lines,
    whole,
)
from tengen.sgf.properties import escape_text
from tengen.sgf.tree import GameTree, Node

_CHARSETS = {"SJIS": "cp932", "JPN": "cp932", "GB": "gb18030", "KOR": "cp949", "BIG5": "big5"}
_RULES = {"JPN": "Japanese", "CHN": "Chinese", "KOR": "Korean"}
_NODE = re.compile(r"NODE,(\d{1,9}),([012]),(\d{1,4}),(\d{1,4})\s*", re.ASCII)
_REAL = re.compile(r"\s*(-?\d{1,4}(?:\.\d{1,4})?)\s*", re.ASCII)

Section = list[tuple[int, str]]


@dataclass
class _Entry:
    """A node of the review tree while it is read: its main continuation comes first."""

    properties: dict[str, list[str]]
    main: _Entry | None = None
    variations: list[_Entry] = field(default_factory=list)
    comment: list[str] = field(default_factory=list)


def load(source: Source) -> GameTree:
    """Read a UGF or UGI record (a path or its bytes). Raises RecordError if it is malformed."""
    data = read_source(source)
    lang = re.search(rb"^Lang=(\S+)", data, re.MULTILINE)
    declared = _CHARSETS.get(lang[1].decode("ascii", "replace").upper()) if lang else None
    sections = _sections(split_lines(decode(data, declared=declared)))
    if "HEADER" not in sections:
        raise RecordError("not a UGF record: it has no [Header] section", 1)
    info = _info(sections["HEADER"])
    root, nodes = _review(sections.get("REVIEWNODE", []), info.width)
    if root.main is None and not root.variations:
        root, nodes = _data(sections.get("DATA", []), info.width)
    _comments(sections.get("REVIEWCOMMENT", []), nodes)
    return GameTree(_build(root, info.properties()))


def _sections(lines: list[str]) -> dict[str, Section]:
    """Non-blank lines with their numbers, by the (upper-cased) name of their section."""
    sections: dict[str, Section] = {}
    current: Section | None = None
    for line_no, line in enumerate(lines, 1):
        text = line.strip()
        if re.fullmatch(r"\[\w+\]", text):
            current = sections.setdefault(text[1:-1].upper(), [])
        elif text and current is None:
            raise RecordError(f"text before the first section: {text!r}", line_no)
        elif text and current is not None:
            current.append((line_no, line))
    return sections


def _info(header: Section) -> GameInfo:
    """Game information from the ``[Header]`` lines."""
    values = {}
    lines = {}
    for line_no, line in header:
        key, _, value = line.strip().partition("=")
        values[key.lower()] = value.strip()
        lines[key.lower()] = line_no
    if values.get("coordinatetype", "IGS").upper() != "IGS":
        raise RecordError("unknown coordinate type", lines["coordinatetype"])
    size = whole(values.get("size", "19"))
    if size is None or not 2 <= size <= 24:
        raise RecordError(f"bad board size {values['size']!r}", lines["size"])
    info = GameInfo(width=size, height=size)
    handicap, _, komi = values.get("hdcp", "").partition(",")
    if handicap.strip():
        count = whole(handicap)
        if count is None:
            raise RecordError(f"bad handicap {handicap!r}", lines["hdcp"])
        info.handicap = handicap_stones(count, size, lines["hdcp"])
    if real := _REAL.fullmatch(komi):
        info.komi = float(real[1])
    for key in ("playerb", "playerw"):
        name, _, rest = values.get(key, "").partition(",")
        player_rank = rest.partition(",")[0].strip() or None
        if key == "playerb":
            info.black, info.black_rank = name.strip() or None, player_rank
        else:
            info.white, info.white_rank = name.strip() or None, player_rank
    info.result = _result(values.get("winner", ""))
    info.date = iso_date(values.get("date", "").partition(",")[0])
    info.rules = _RULES.get(values.get("rule", "").upper(), values.get("rule") or None)
    info.name = ", ".join(p.strip() for p in values.get("title", "").split(",") if p.strip())
    info.place = values.get("place") or None
    info.copyright = values.get("copyright") or None
    info.comment = values.get("comment") or None
    return info


def _result(winner: str) -> str | None:
    """``B,7.50`` -> ``B+7.5``; ``W,R`` -> ``W+R``; None unless Black or White won."""
    color, _, how = (part.strip().upper() for part in winner.partition(","))
    if color not in ("B", "W"):
        return None
    if real := _REAL.fullmatch(how):
        return f"{color}+{number(float(real[1]))}"
    return f"{color}+{how[:1] if how[:1] in ('R', 'T', 'F') else ''}"


def _data_move(line: str, size: int, line_no: int) -> tuple[Color, Move]:
    """``QP,B1,1,0`` -> (Black, Point(16, 3)); ``YA`` is a pass."""
    parts = line.strip().split(",")
    where, who = parts[0], parts[1][:1] if len(parts) > 1 else ""
    if len(where) != 2 or not where.isascii() or not where.isupper() or who not in ("B", "W"):
        raise RecordError(f"bad move line {line.strip()!r}", line_no)
    color = Color.BLACK if who == "B" else Color.WHITE
    if where == "YA":
        return color, None
    col, up = ord(where[0]) - ord("A"), ord(where[1]) - ord("A")
    return color, point(col, size - 1 - up, size, size, line_no, where)


def _data(lines: Section, size: int) -> tuple[_Entry, dict[int, _Entry]]:
    """The ``[Data]`` moves as one line of play, numbered as a review numbers its nodes (the
    root 1, the first move 2) so that comments can find them."""
    root = entry = _Entry({})
    nodes = {1: root}
    for line_no, line in lines:
        entry.main = _Entry(move_properties(*_data_move(line, size, line_no)))
        entry = nodes[len(nodes) + 1] = entry.main
    return root, nodes


def _review(lines: Section, size: int) -> tuple[_Entry, dict[int, _Entry]]:
    """The review tree's root, and its entries by node id."""
    root = current = _Entry({})
    nodes: dict[int, _Entry] = {}
    opened: list[tuple[_Entry, int]] = []
    branch = False
    for line_no, line in lines:
        text = line.strip()
        if text.startswith("VARIATIONEND"):
            if not opened:
                raise RecordError("VARIATIONEND without VARIATION", line_no)
            current, branch = opened.pop()[0], False
        elif text.startswith("VARIATION"):
            opened.append((current, line_no))
            branch = True
        else:
            node_id, entry = _node(text, size, line_no)
            if not nodes and not entry.properties:
                entry = root  # the first node, without a move, is the root
            elif branch:
                current.variations.append(entry)
            elif current.main is None:
                current.main = entry
            else:
                raise RecordError("this node's parent already has a continuation", line_no)
            nodes.setdefault(node_id, entry)
            current, branch = entry, False
    if opened:
        raise RecordError("VARIATION without VARIATIONEND", opened[-1][1])
    return root, nodes


def _node(text: str, size: int, line_no: int) -> tuple[int, _Entry]:
    """A ``NODE`` line -> its id and an entry with its move (none for colour 0)."""
    found = _NODE.fullmatch(text)
    if found is None:
        raise RecordError(f"bad review node {text!r}", line_no)
    color, x, y = int(found[2]), int(found[3]), int(found[4])
    if color == 0:
        return int(found[1]), _Entry({})
    move = None if x == y == size + 1 else point(x - 1, size - y, size, size, line_no, f"{x},{y}")
    return int(found[1]), _Entry(move_properties(Color(color), move))


def _comments(lines: Section, nodes: dict[int, _Entry]) -> None:
    """Attach each ``.Comment,id`` block to its node (a node that is gone takes none)."""
    target: _Entry | None = None
    for line_no, line in lines:
        if line.lstrip().startswith(".Comment"):
            node_id = whole(line.partition(",")[2])
            if node_id is None:
                raise RecordError(f"bad comment line {line.strip()!r}", line_no)
            target = nodes.get(node_id)
        elif target is not None:
            target.comment.append(line.strip())


def _build(root: _Entry, properties: dict[str, list[str]]) -> Node:
    """The tengen tree of `root`, its main continuations first, without recursion."""
    collecting = collector.pause()
    try:
        top = Node(properties | _properties(root))
        stack = [(root, top)]
        while stack:
            entry, node = stack.pop()
            for child in ([entry.main] if entry.main else []) + entry.variations:
                stack.append((child, node.append_child(_properties(child))))
        return top
    finally:
        collector.resume(collecting)


def _properties(entry: _Entry) -> dict[str, list[str]]:
    """The entry's move, and its comment as ``C``."""
    if not entry.comment:
        return entry.properties
    return entry.properties | {"C": [escape_text("\n".join(entry.comment))]}
