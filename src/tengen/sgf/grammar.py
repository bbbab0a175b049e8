"""SGF text <-> raw game trees: tokenising, parsing and serialising. Nothing here knows Go.

A collection is a list of root nodes; a node holds ``ident -> [raw values]`` (escapes kept) and
its children, so variations are simply nodes with several children. Decoding bytes is the job of
``sgf.encoding`` and interpreting values that of ``sgf.properties``. Parser and serialiser use
explicit stacks, never recursion, and run in time linear in the size of the text, so a
100,000-move line or 100,000 nested variations are fine.

Strict reading raises ``SgfError`` at the first deviation from the FF[4] grammar. Lenient reading
repairs what real files get wrong and records an ``SgfWarning`` for each repair: text before,
between or after game trees; lower-case letters in property identifiers (FF[3] ``AddBlack`` is
``AB``); a missing ``;`` at the start of a game tree; a node after variations (taken as one more
variation); properties without values, values without a property, empty ``()`` trees; an
unescaped ``]`` inside a value when what follows cannot continue the SGF; duplicate properties in
a node (values merged); an unterminated file (open trees closed). Text with no game tree at all
is an ``SgfError`` in both modes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, TypeVar, overload

import numpy as np

from tengen.core import jit
from tengen.sgf import tokens as compiled_tokens
from tengen.sgf.errors import SgfError, SgfWarning

tokens = jit.live(compiled_tokens)  # interpreted until compiled (see `core.jit`)


class RawNode:
    """One SGF node: raw property values in file order, and the nodes that follow it."""

    __slots__ = ("children", "parent", "properties")

    def __init__(
        self, properties: dict[str, list[str]] | None = None, parent: RawNode | None = None
    ) -> None:
        """Make a node pointing to ``parent``; the caller adds it to ``parent.children``."""
        self.properties: dict[str, list[str]] = {} if properties is None else properties
        self.children: list[RawNode] = []
        self.parent = parent


N = TypeVar("N", bound=RawNode)
# Every two-character ASCII raw value parsed so far, by `tokens.pair_code`: points are most of
# a record's values (B[pd], AB[dd][pp]), and one shared string each keeps parsed trees about
# as small as sgfmill's (each node's list then holds a reference, not a 51-byte string).
_PAIRS: list[str | None] = [None] * (128 * 128)

_SPACE = " \t\n\r\v\f"
_SKIP_SPACE = re.compile(r"[ \t\n\r\v\f]*")
_LETTERS = re.compile(r"[A-Za-z]+")
_JUNK = re.compile(r"[^A-Za-z;()\[]+")
_LINE_BREAK = re.compile(r"\r\n?|\n")
# Where a game tree may begin in lenient mode: '(' then ';' or a property (missing ';').
_GAME_START = re.compile(r"\([ \t\n\r\v\f]*(?:;|[A-Za-z]+[ \t\n\r\v\f]*\[)")
_ESCAPE_OR_BRACKET = re.compile(r"(\\[\s\S])|\]")
# The fast path of ``parse_game``: optional space, an optional ';' and then, optionally, one
# well-formed property: an all-capitals identifier and its values, each ending at its first
# unescaped ']', followed by something that can follow a value (``can_follow`` without '[',
# so that an unterminated next value is left to the slow path). Whatever does not fit this
# pattern (lower-case letters, stray ']', missing values, ...) is read character by character.
_VALUE_BODY = r"(?:[^\\\]]|\\[\s\S])*"
_FAST_TOKEN = re.compile(
    rf"[{_SPACE}]*(?:(;)[{_SPACE}]*)?"
    rf"(?:([A-Z]+)[{_SPACE}]*\[({_VALUE_BODY})\][{_SPACE}]*"
    rf"((?:\[{_VALUE_BODY}\][{_SPACE}]*)*)"
    r"(?=[;()]|[A-Z]+(?![A-Za-z])|\Z))?"
)
_VALUE = re.compile(rf"\[({_VALUE_BODY})\]")


class _Frame:
    """One open game tree: the node its first node hangs from and the last node read in it."""

    __slots__ = ("branched", "last", "parent")

    def __init__(self, parent: RawNode | None) -> None:
        self.parent = parent
        self.last: RawNode | None = None
        self.branched = False


class _Parser:
    """The parse state of one text: position, open trees, roots and warnings."""

    def __init__(self, text: str, strict: bool, node_class: type[RawNode]) -> None:
        self.text = text
        self.n = len(text)
        self.strict = strict
        self.node_class = node_class
        self.roots: list[RawNode] = []
        self.warnings: list[SgfWarning] = []
        self._line_starts: list[int] | None = None
        # Lenient ']' recovery already scanned to the end from here without an acceptable ']'.
        self._dead_end = self.n + 1

    def line_col(self, pos: int) -> tuple[int, int]:
        """1-based line and column of a character offset (CR, LF and CRLF all end a line)."""
        if self._line_starts is None:
            self._line_starts = [m.end() for m in _LINE_BREAK.finditer(self.text)]
        line = bisect_right(self._line_starts, pos)
        start = self._line_starts[line - 1] if line else 0
        return line + 1, pos - start + 1

    def error(self, message: str, pos: int) -> SgfError:
        return SgfError(message, *self.line_col(pos))

    def deviation(self, message: str, pos: int) -> None:
        """Raise in strict mode, record a warning in lenient mode."""
        if self.strict:
            raise self.error(message, pos)
        self.warnings.append(SgfWarning(message, *self.line_col(pos)))

    def skip_space(self, pos: int) -> int:
        m = _SKIP_SPACE.match(self.text, pos)
        assert m is not None  # '*' always matches
        return m.end()

    def parse(self) -> list[RawNode]:
        pos = self.find_game(0)
        if pos >= self.n:
            raise self.error("no SGF game tree found", pos if self.n else 0)
        while pos < self.n:
            pos = self.find_game(self.parse_game(pos))
        if not self.roots:  # every tree was empty or unreadable, e.g. "(a["
            raise self.error("no SGF game tree found", 0)
        return self.roots

    def find_game(self, pos: int) -> int:
        """The offset of the next game tree's '(' from ``pos``, or the end of the text."""
        pos = self.skip_space(pos)
        if pos >= self.n:
            return pos
        where = "between game trees" if self.roots else "before the first game tree"
        if self.strict:
            if self.text[pos] != "(":
                raise self.error(f"unexpected {self.text[pos]!r} {where}", pos)
            return pos
        m = _GAME_START.match(self.text, pos)
        if m is not None:
            return pos
        m = _GAME_START.search(self.text, pos)
        if m is None:
            if not self.roots:
                raise self.error("no SGF game tree found", pos)
            self.deviation("text after the last game tree ignored", pos)
            return self.n
        self.deviation(f"text {where} ignored", pos)
        return m.start()

    def new_node(self, frame: _Frame) -> RawNode:
        parent = frame.last if frame.last is not None else frame.parent
        node = self.node_class(None, parent)
        if parent is None:
            self.roots.append(node)
        else:
            parent.children.append(node)
        frame.last = node
        return node

    def parse_game(self, pos: int) -> int:
        """Read one game tree starting at its '('; return the offset after its ')'.

        Each step first tries ``_FAST_TOKEN``, which reads a ';' and/or a whole well-formed
        property in one C-level match. It takes only what the character-by-character path
        below would read with no deviation and the same result (a new node in a tree without
        variations yet; a property of the current node, not a duplicate); anything else is
        left, from its first character, to that path.
        """
        text, n = self.text, self.n
        frames = [_Frame(None)]
        node_class, roots = self.node_class, self.roots
        fast = _FAST_TOKEN.match
        pos += 1
        while True:
            frame = frames[-1]
            m = fast(text, pos)
            assert m is not None  # everything in it is optional
            semi, ident, first, more = m.groups()
            if semi is not None and frame.branched:
                pos = m.start(1)  # a node after variations: a deviation, for the slow path
            else:
                if semi is not None:
                    parent = frame.last if frame.last is not None else frame.parent
                    node = node_class(None, parent)
                    if parent is None:
                        roots.append(node)
                    else:
                        parent.children.append(node)
                    frame.last = node
                if ident is None:
                    pos = m.end()
                else:
                    last = frame.last
                    if last is not None and not frame.branched and ident not in last.properties:
                        last.properties[ident] = [first, *_VALUE.findall(more)] if more else [first]
                        pos = m.end()
                        continue
                    pos = m.start(2)  # missing ';', after variations or a duplicate
            if pos >= n:
                self.deviation("unexpected end of data: game tree not closed", n)
                return n
            c = text[pos]
            if c == ";":
                if frame.branched:
                    self.deviation("node after variations taken as a new variation", pos)
                    frame = _Frame(frame.last)
                    frames.append(frame)
                self.new_node(frame)
                pos += 1
            elif c == "(":
                if frame.last is None:
                    self.deviation("'(' before the first node of a game tree ignored", pos)
                else:
                    frame.branched = True
                    frames.append(_Frame(frame.last))
                pos += 1
            elif c == ")":
                if frame.last is None:
                    self.deviation("empty game tree '()' ignored", pos)
                frames.pop()
                pos += 1
                if not frames:
                    return pos
            elif c == "[":
                self.deviation("values without a property identifier ignored", pos)
                _, pos = self.read_values(pos)
            elif "A" <= c <= "Z" or "a" <= c <= "z":
                pos = self.read_property(pos, frame)
            else:
                m = _JUNK.match(text, pos)
                assert m is not None  # c itself is junk
                self.deviation(f"unexpected {m.group()[:20]!r} ignored", pos)
                pos = m.end()

    def read_property(self, pos: int, frame: _Frame) -> int:
        """Read ``IDENT[value]...`` at ``pos`` into the frame's current node."""
        m = _LETTERS.match(self.text, pos)
        assert m is not None  # called on a letter
        written = m.group()
        after = self.skip_space(m.end())
        if after >= self.n or self.text[after] != "[":
            self.deviation(f"property {written[:20]} without a value ignored", pos)
            return after
        ident = written
        if not written.isupper():
            ident = "".join(ch for ch in written if "A" <= ch <= "Z")
            if not ident:
                self.deviation(f"property identifier {written[:20]!r} has no capitals", pos)
                _, end = self.read_values(after)
                return end
            self.deviation(f"lower-case letters dropped from property {written[:20]}", pos)
        if frame.last is None:
            self.deviation("missing ';' before the first property of a game tree", pos)
            self.new_node(frame)
        elif frame.branched:
            self.deviation(f"property {ident} after variations joined to their parent", pos)
        values, end = self.read_values(after)
        node = frame.last
        assert node is not None  # set just above
        present = node.properties.get(ident)
        if present is None:
            node.properties[ident] = values
        else:
            self.deviation(f"duplicate property {ident}: values merged", pos)
            present.extend(values)
        return end

    def read_values(self, pos: int) -> tuple[list[str], int]:
        """Read one or more ``[...]`` at ``pos``; return the raw values and the offset after."""
        values = []
        while pos < self.n and self.text[pos] == "[":
            value, pos = self.read_value(pos)
            values.append(value)
            pos = self.skip_space(pos)
        return values, pos

    def read_value(self, pos: int) -> tuple[str, int]:
        """Read the value whose '[' is at ``pos``; return the raw text and the offset after ']'."""
        text = self.text
        start = pos + 1
        recover = not self.strict and start < self._dead_end
        end = start
        first_close = -1
        while True:
            end = text.find("]", end)
            if end < 0:
                break
            slash = end - 1
            while slash >= start and text[slash] == "\\":
                slash -= 1
            if (end - 1 - slash) % 2 == 0 and (not recover or self.can_follow(end + 1)):
                break
            if (end - 1 - slash) % 2 == 0 and first_close < 0:
                first_close = end
            end += 1
        if end < 0 and first_close >= 0:
            self._dead_end = start
            return text[start:first_close], first_close + 1
        if end < 0:
            self.deviation("unterminated property value", pos)
            raw = text[start:]
            if (len(raw) - len(raw.rstrip("\\"))) % 2:
                raw = raw[:-1]
            return raw, self.n
        raw = text[start:end]
        if first_close >= 0:
            self.deviation("unescaped ']' in a value taken as text", first_close)
            raw = _ESCAPE_OR_BRACKET.sub(lambda m: m.group(1) or "\\]", raw)
        return raw, end + 1

    def can_follow(self, pos: int) -> bool:
        """Whether the text at ``pos`` can follow a value: a value, property, node, tree or end.

        A property is an all-capitals name, or any name (FF[3] style) followed by '['.
        """
        pos = self.skip_space(pos)
        if pos >= self.n or self.text[pos] in "[;()":
            return True
        m = _LETTERS.match(self.text, pos)
        if m is None:
            return False
        if m.group().isupper():
            return True
        after = self.skip_space(m.end())
        return after < self.n and self.text[after] == "["


@overload
def parse(text: str, *, strict: bool = False) -> tuple[list[RawNode], list[SgfWarning]]: ...
@overload
def parse(
    text: str, *, strict: bool = False, node_class: type[N]
) -> tuple[list[N], list[SgfWarning]]: ...
def parse(
    text: str, *, strict: bool = False, node_class: type[RawNode] = RawNode
) -> tuple[list[Any], list[SgfWarning]]:
    """Parse a collection of SGF game trees from decoded text; return the roots and the warnings.

    ``node_class`` (a RawNode subclass with the same constructor) lets the model layer build its
    own nodes directly. Raises SgfError (with line and column) if there is no game tree at all
    or, in strict mode, at the first deviation from the FF[4] grammar.
    """
    roots = _parse_plain(text, node_class)
    if roots is not None:
        return roots, []
    parser = _Parser(text, strict, node_class)
    return parser.parse(), parser.warnings


def _parse_plain(text: str, node_class: type[RawNode]) -> list[RawNode] | None:
    """The trees of a text with no deviation from the grammar, from the compiled tokenizer
    (`sgf.tokens`), which both modes read alike; None for any other text."""
    data = text.encode("utf-8", "surrogatepass")
    found, parents, props, values = tokens.tokenize(np.frombuffer(data, np.uint8), False)
    if found[tokens.STATUS] != tokens.OK or found[tokens.LOWER_CASE]:
        return None
    if len(data) != len(text):  # byte offsets -> character offsets
        leading = (np.frombuffer(data, np.uint8) & 0xC0) != 0x80
        chars = np.concatenate(([0], np.cumsum(leading)))
        props = props.copy()
        props[:, 1:3] = chars[props[:, 1:3]]
        values = values.copy()
        values[:, :2] = chars[values[:, :2]]
    nodes: list[RawNode] = []
    roots: list[RawNode] = []
    for parent in parents.tolist():
        if parent < 0:
            node = node_class(None, None)
            roots.append(node)
        else:
            up = nodes[parent]
            node = node_class(None, up)
            up.children.append(node)
        nodes.append(node)
    spans = values.tolist()
    pairs = _PAIRS
    for index, start, end, first, count in props.tolist():
        properties = nodes[index].properties
        ident = text[start:end]
        if ident in properties:  # repeated: the parser merges the values with a warning
            return None
        if count == 1:  # `_value` written out: the call costs 4-8% of a corpus parse
            a, b, pair = spans[first]
            if pair < 0:
                properties[ident] = [text[a:b]]
            else:
                value = pairs[pair]
                if value is None:
                    value = pairs[pair] = text[a:b]
                properties[ident] = [value]
        else:
            properties[ident] = [_value(text, span) for span in spans[first : first + count]]
    return roots


def _value(text: str, span: list[int]) -> str:
    """The raw value of one (start, end, pair) span: for a value of two ASCII characters the
    string `_PAIRS` shares, else a slice of its own."""
    a, b, pair = span
    if pair < 0:
        return text[a:b]
    value = _PAIRS[pair]
    if value is None:
        value = _PAIRS[pair] = text[a:b]
    return value


def valid_raw(value: str) -> str:
    """A raw value made safe to write between brackets: stray ']' and a final lone '\\' escaped."""
    if "]" not in value and not value.endswith("\\"):
        return value
    value = _ESCAPE_OR_BRACKET.sub(lambda m: m.group(1) or "\\]", value)
    return value + "\\" if value.endswith("\\") and _odd_tail(value) else value


def _odd_tail(value: str) -> bool:
    return (len(value) - len(value.rstrip("\\"))) % 2 == 1


def _node_text(node: RawNode) -> str:
    return ";" + "".join(
        ident + "".join(f"[{valid_raw(v)}]" for v in values)
        for ident, values in node.properties.items()
    )


_LINE_LENGTH = 79


def serialise(roots: Sequence[RawNode]) -> str:
    """Write game trees as SGF text, one tree per line group, variations on new lines.

    Raw values are written as they are, except that a stray ']' or a final lone '\\' is escaped
    so that the output always parses.
    """
    out: list[str] = []
    for root in roots:
        # A stack of subtrees still to write; None stands for the ')' that closes one.
        stack: list[RawNode | None] = [root]
        width = 0
        while stack:
            node = stack.pop()
            if node is None:
                out.append(")")
                width += 1
                continue
            if width:
                out.append("\n")
            out.append("(")
            width = 1
            while True:
                piece = _node_text(node)
                if width > 1 and width + len(piece) > _LINE_LENGTH:
                    out.append("\n")
                    width = 0
                out.append(piece)
                width += len(piece)
                if len(node.children) != 1:
                    break
                node = node.children[0]
            stack.append(None)
            stack.extend(reversed(node.children))
        out.append("\n")
    return "".join(out)
