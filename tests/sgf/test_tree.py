"""The record model: Node access, GameTree, parse, parse_file, serialise, paths, comparison."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.sgf import (
    GameTree,
    Node,
    SgfError,
    first_difference,
    parse,
    parse_file,
    serialise,
    trees_equal,
)

_RECORD = "(;FF[4]GM[1]SZ[19:13]KM[6.5]XX[private\\]];B[dd];W[](;B[tt]C[pass])(;B[ee]))"


def test_typed_and_raw_access() -> None:
    game = parse(_RECORD).games[0]
    root = game.root
    assert root.get("KM") == 6.5
    assert root.get("SZ") == (19, 13)
    assert root.get("XX") == ["private]"]
    assert root.get_raw("XX") == ["private\\]"]
    assert root.get("PB") is None
    root.set("PB", "Lee [9p]")
    assert root.get_raw("PB") == ["Lee [9p\\]"]
    root.set_raw("AB", ["aa:bb"])
    assert root.get("AB") == [Point(0, 0), Point(1, 0), Point(0, 1), Point(1, 1)]
    root.delete("AB")
    root.delete("AB")
    assert "AB" not in root.properties
    with pytest.raises(ValueError):
        root.set_raw("b", ["x"])
    with pytest.raises(ValueError):
        root.set_raw("B", [])


def test_moves_passes_and_size() -> None:
    game = parse(_RECORD).games[0]
    assert game.size == (19, 13)
    assert game.game_type == 1
    first, second = game.main_line()[1:3]
    assert first.move == (Color.BLACK, Point(3, 3))
    assert second.move == (Color.WHITE, None)
    pass_tt, ee = second.children
    assert pass_tt.move == (Color.BLACK, None)
    assert ee.move == (Color.BLACK, Point(4, 4))
    assert game.root.move is None


def test_tt_is_a_point_on_big_boards() -> None:
    game = parse("(;SZ[25];B[tt])").games[0]
    assert game.main_line()[1].move == (Color.BLACK, Point(19, 19))
    assert game.main_line()[1].get("B") == Point(19, 19)


def test_defaults_and_gomoku() -> None:
    assert GameTree().size == (19, 19)
    assert GameTree().game_type == 1
    gomoku = parse("(;GM[4]SZ[15];B[hh];W[hi])").games[0]
    assert gomoku.game_type == 4
    assert gomoku.size == (15, 15)
    with pytest.raises(ValueError):
        _ = parse("(;SZ[53])").games[0].size


def test_append_child_links_and_init_does_not() -> None:
    root = Node({"GM": ["1"]})
    child = root.append_child({"B": ["aa"]})
    assert child.parent is root
    assert root.children == [child]
    loose = Node(parent=root)
    assert loose.parent is root
    assert loose not in root.children


def test_paths_and_move_numbers() -> None:
    game = parse(_RECORD).games[0]
    ee = game.main_line()[2].children[1]
    assert ee.path == [0, 0, 1]
    assert ee.move_number == 3
    assert game.root.path == []
    assert game.root.move_number == 0
    assert ee.describe() == "move 3, path 0*2.1"
    assert game.main_line()[1].describe() == "move 1"
    assert game.root.describe() == "root"
    assert [n.path for n in game.nodes()] == [[], [0], [0, 0], [0, 0, 0], [0, 0, 1]]


def test_serialise_writes_utf8_with_ca_and_leaves_games_alone() -> None:
    games = parse("(;CA[GB2312]C[围棋])(;C[two])".encode("gb18030")).games
    data = serialise(games)
    assert data == "(;CA[UTF-8]C[围棋])\n(;C[two]CA[UTF-8])\n".encode()
    assert games[0].root.get("CA") == "GB2312"
    assert serialise(games[1]) == b"(;C[two]CA[UTF-8])\n"


def test_round_trip_keeps_unknown_properties_verbatim() -> None:
    result = parse(_RECORD)
    again = parse(serialise(result.games), strict=True)
    result.games[0].root.properties["CA"] = ["UTF-8"]
    assert trees_equal(result.games[0].root, again.games[0].root)
    assert again.games[0].root.get_raw("XX") == ["private\\]"]


def test_first_difference_names_the_node() -> None:
    a = parse("(;B[aa];W[bb](;B[cc])(;B[dd]))").games[0].root
    b = parse("(;B[aa];W[bb](;B[cc])(;B[de]))").games[0].root
    c = parse("(;B[aa];W[bb](;B[cc]))").games[0].root
    assert first_difference(a, a) is None
    assert first_difference(a, b) == "move 3, path 0.1: {'B': ['dd']} != {'B': ['de']}"
    assert first_difference(a, c) == "move 2: 2 != 1 children"


def test_parse_str_and_result_fields() -> None:
    result = parse("x(;B[aa])")
    assert result.encoding == "str"
    assert [(w.message, w.line, w.col) for w in result.warnings] == [
        ("text before the first game tree ignored", 1, 1)
    ]


def test_parse_file_names_the_file(tmp_path: Path) -> None:
    good = tmp_path / "good.sgf"
    good.write_bytes(b"x(;B[aa])")
    result = parse_file(good)
    assert str(result.warnings[0]) == f"{good}:1:1: text before the first game tree ignored"
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;B[aa]")
    with pytest.raises(SgfError) as info:
        parse_file(bad, strict=True)
    assert info.value.path == str(bad)
    assert str(info.value) == f"{bad}:1:8: unexpected end of data: game tree not closed"


def test_a_line_copy_holds_the_line_to_the_node_and_nothing_else() -> None:
    tree = parse("(;GM[1]SZ[9]AB[aa];B[ee](;W[cc]C[main];B[gg])(;W[dd]C[side]))").games[0]
    side = tree.root.children[0].children[1]
    copied = side.line_copy()
    assert serialise(copied) == serialise(parse("(;GM[1]SZ[9]AB[aa];B[ee];W[dd]C[side])").games[0])
    copied.root.set("GN", "changed")  # the copy shares nothing with the record
    assert tree.root.get("GN") is None and len(tree.root.children[0].children) == 2
