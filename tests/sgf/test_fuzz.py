"""Property tests: generated trees survive write -> read; no input raises anything but SgfError."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tengen.core.coords import Point
from tengen.sgf import (
    GameTree,
    Node,
    SgfError,
    escape_text,
    first_difference,
    grammar,
    parse,
    serialise,
)

CORPUS = (Path(__file__).parents[2] / ".." / "shared" / "corpus").resolve()

_TRICKY = st.sampled_from(["]", "\\", ":", "[", ";", "(", ")", "\n", " ", "é", "囲", "☃", "😀"])
_TEXT = st.text(
    alphabet=_TRICKY | st.characters(blacklist_categories=("Cs", "Cc")) | st.just("\n"),
    max_size=30,
)
_SIMPLE = st.text(alphabet=_TRICKY.filter(lambda c: c != "\n") | st.sampled_from("abcXYZ 12"))
_POINT = st.builds(Point, st.integers(0, 18), st.integers(0, 18))
_BIG_POINT = st.builds(Point, st.integers(0, 51), st.integers(0, 51))

_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "C": _TEXT,
    "N": _SIMPLE,
    "B": st.none() | _POINT,
    "W": st.none() | _POINT,
    "AB": st.lists(_BIG_POINT, min_size=1, max_size=5),
    "LB": st.lists(st.tuples(_POINT, _SIMPLE), min_size=1, max_size=3),
    "KM": st.sampled_from([0.0, 6.5, 7.5, -3.25, 375.0]),
    "AP": st.tuples(_SIMPLE, _SIMPLE),
}
_PROPERTIES = st.dictionaries(st.sampled_from(sorted(_VALUES)), st.none(), max_size=4).flatmap(
    lambda keys: st.fixed_dictionaries({k: _VALUES[k] for k in keys})
)
_PRIVATE = st.dictionaries(
    st.text(alphabet=st.sampled_from("QXYZ"), min_size=2, max_size=4),
    st.lists(_TEXT, min_size=1, max_size=3),
    max_size=2,
)


@st.composite
def _games(draw: st.DrawFn) -> GameTree:
    """A game of up to 30 nodes with random shape, typed and private properties."""
    game = GameTree()
    nodes = [game.root]
    for _ in range(draw(st.integers(0, 30))):
        parent = nodes[draw(st.integers(0, len(nodes) - 1))]
        node = parent.append_child()
        for ident, value in draw(_PROPERTIES).items():
            node.set(ident, value)
        for ident, texts in draw(_PRIVATE).items():
            node.set_raw(ident, [escape_text(t) for t in texts])
        nodes.append(node)
    return game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_games(), min_size=1, max_size=3))
def test_generated_games_survive_serialise_and_parse(games: list[GameTree]) -> None:
    again = parse(serialise(games), strict=True)
    assert again.warnings == []
    assert len(again.games) == len(games)
    for game, copy in zip(games, again.games, strict=True):
        game.root.properties["CA"] = ["UTF-8"]
        assert first_difference(game.root, copy.root) is None
        for node, read in zip(game.nodes(), copy.nodes(), strict=True):
            for ident in node.properties:
                assert read.get(ident) == node.get(ident)


@settings(max_examples=50, deadline=None)
@given(_TEXT)
def test_typed_text_comes_back_exactly(text: str) -> None:
    node = Node()
    node.set("C", text)
    copy = parse(serialise(GameTree(node)), strict=True).games[0].root
    assert copy.get("C") == text


def _parse_or_sgf_error(data: bytes, strict: bool) -> None:
    try:
        result = parse(data, strict=strict)
    except SgfError as e:
        assert e.line >= 1 and e.col >= 1
        return
    assert result.games
    assert all(w.line >= 1 and w.col >= 1 for w in result.warnings)
    if strict:
        assert all(w.message.startswith("no CA") for w in result.warnings)
    parse(serialise(result.games), strict=True)


_SGFISH = st.lists(
    st.sampled_from([b"(", b")", b";", b"[", b"]", b"\\", b"B", b"aa", b"C", b"x", b" ", b"\n"])
    | st.binary(max_size=3),
    max_size=60,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | _SGFISH, st.booleans())
def test_arbitrary_bytes_raise_only_sgf_error(data: bytes, strict: bool) -> None:
    _parse_or_sgf_error(data, strict)


def _seed_files() -> list[bytes]:
    names = [
        "katrain_test_data/fox sgf works.sgf",
        "sgfc_test_files/test.sgf",
        "littlego_sgf/sgfc/ff4_ex.sgf",
        "sabaki_sgf_lib_tests/complex.sgf",
        "libsgfcplusplus_test_files/encoding-chinese-gbk.sgf",
        "gnugo_regression/games/ego2.sgf",
    ]
    return [(CORPUS / n).read_bytes()[:3000] for n in names if (CORPUS / n).is_file()]


_SEEDS = _seed_files()


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    """A real file with a few bytes flipped, inserted or deleted."""
    data = bytearray(draw(st.sampled_from(_SEEDS)))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["flip", "insert", "delete"]))
        byte = draw(st.sampled_from(list(b"()[];\\:aB\n\x00\xff")) | st.integers(0, 255))
        if kind == "insert":
            data.insert(at, byte)
        elif at < len(data):
            if kind == "flip":
                data[at] = byte
            else:
                del data[at]
    return bytes(data)


@pytest.mark.skipif(not _SEEDS, reason=f"SGF corpus not found at {CORPUS}")
@settings(max_examples=200, deadline=None)
@given(_mutated(), st.booleans())
def test_mutated_real_files_raise_only_sgf_error(data: bytes, strict: bool) -> None:
    _parse_or_sgf_error(data, strict)


_READABLE = st.lists(_games(), min_size=1, max_size=2).map(serialise) | _SGFISH
if _SEEDS:
    _READABLE |= _mutated()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_READABLE, st.sampled_from(["latin-1", "utf-8"]))
def test_compiled_reader_agrees_with_the_parser(data: bytes, charset: str) -> None:
    """Where the compiled tokenizer reads a text, strict parsing reads the same trees."""
    text = data.decode(charset, "surrogateescape")
    plain = grammar._parse_plain(text, Node)
    if plain is None:
        return
    parser = grammar._Parser(text, True, Node)
    roots = parser.parse()
    assert parser.warnings == []
    assert len(roots) == len(plain)
    for mine, theirs in zip(plain, roots, strict=True):
        assert first_difference(mine, theirs) is None
