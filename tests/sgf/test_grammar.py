"""The SGF grammar: collections, variations, strict errors and lenient repairs with positions."""

from __future__ import annotations

import pytest

from tengen.sgf.errors import SgfError
from tengen.sgf.grammar import RawNode, parse, serialise, valid_raw


def _only(text: str, strict: bool = False) -> RawNode:
    roots, _ = parse(text, strict=strict)
    assert len(roots) == 1
    return roots[0]


def _warnings(text: str) -> list[tuple[str, int, int]]:
    return [(w.message, w.line, w.col) for w in parse(text)[1]]


def test_collection_of_games_with_variations() -> None:
    roots, warnings = parse("(;FF[4]C[one];B[aa](;W[bb])(;W[cc];B[dd]))\n(;C[two])", strict=True)
    assert warnings == []
    assert [r.properties for r in roots] == [{"FF": ["4"], "C": ["one"]}, {"C": ["two"]}]
    branch = roots[0].children[0]
    assert branch.properties == {"B": ["aa"]}
    assert [c.properties for c in branch.children] == [{"W": ["bb"]}, {"W": ["cc"]}]
    assert branch.children[1].children[0].properties == {"B": ["dd"]}
    assert branch.children[1].parent is branch


def test_raw_values_keep_escapes_newlines_and_several_values() -> None:
    root = _only("(;C[a\\]b\\\\]AB[aa][bb]\n  [cc]LB[aa:x\\:y]GC[line\r\nbreak])", strict=True)
    assert root.properties == {
        "C": ["a\\]b\\\\"],
        "AB": ["aa", "bb", "cc"],
        "LB": ["aa:x\\:y"],
        "GC": ["line\r\nbreak"],
    }


@pytest.mark.parametrize("text", ["", "GC[\u5bf8\u5fc3]"])  # ASCII, or UTF-8 text in the record
def test_two_character_values_are_one_shared_string_with_the_same_text(text: str) -> None:
    """A point (or any value of two ASCII characters: an escape, a number) is one string for
    every node and record, so trees stay small; other values are their own, and every value
    reads as written."""
    first = _only(f"(;{text}AB[pd][dd]C[ok];B[pd];W[\\]];B[\u00e9x])", strict=True)
    second = _only("(;B[pd]AW[dd]C[ok]W[\\]])", strict=True)
    moves = first.children[0]
    assert moves.properties == {"B": ["pd"]}
    assert moves.children[0].properties == {"W": ["\\]"]}
    assert moves.children[0].children[0].properties == {"B": ["\u00e9x"]}  # not ASCII
    assert first.properties["AB"][0] is moves.properties["B"][0] is second.properties["B"][0]
    assert first.properties["AB"][1] is second.properties["AW"][0]
    assert moves.children[0].properties["W"][0] is second.properties["W"][0]


def test_whitespace_between_all_tokens() -> None:
    root = _only(" ( ; FF [4] \n C\t[x] ; B [aa] ) ", strict=True)
    assert root.properties == {"FF": ["4"], "C": ["x"]}
    assert root.children[0].properties == {"B": ["aa"]}


@pytest.mark.parametrize(
    ("text", "message", "line", "col"),
    [
        ("", "no SGF game tree found", 1, 1),
        ("   \n  ", "no SGF game tree found", 2, 3),
        ("hello (;B[aa])", "unexpected 'h' before the first game tree", 1, 1),
        ("(;B[aa])\nx", "unexpected 'x' between game trees", 2, 1),
        ("(;FF[4]\nAddBlack[aa])", "lower-case letters dropped from property AddBlack", 2, 1),
        ("(B[aa])", "missing ';' before the first property of a game tree", 1, 2),
        ("(;A[1](;B[2])\n;C[3])", "node after variations taken as a new variation", 2, 1),
        ("(;A[1](;B[2])C[3])", "property C after variations joined to their parent", 1, 14),
        ("(;C[a]b])", "property b without a value ignored", 1, 7),
        ("(;C[a]?)", "unexpected '?' ignored", 1, 7),
        ("(;C[a]C[b])", "duplicate property C: values merged", 1, 7),
        ("(;B[aa]", "unexpected end of data: game tree not closed", 1, 8),
        ("(;C[abc", "unterminated property value", 1, 4),
        ("(;B[aa]\n  W)", "property W without a value ignored", 2, 3),
        ("(;[aa])", "values without a property identifier ignored", 1, 3),
        ("(;()B[aa])", "empty game tree '()' ignored", 1, 4),
        ("((;B[aa]))", "'(' before the first node of a game tree ignored", 1, 2),
        ("(;b[aa])", "property identifier 'b' has no capitals", 1, 3),
        ("(;B[aa]) junk", "unexpected 'j' between game trees", 1, 10),
    ],
)
def test_strict_raises_with_line_and_col(text: str, message: str, line: int, col: int) -> None:
    with pytest.raises(SgfError) as info:
        parse(text, strict=True)
    assert (info.value.message, info.value.line, info.value.col) == (message, line, col)
    assert str(info.value) == f"line {line}, col {col}: {message}"


def test_lenient_text_before_between_and_after_games() -> None:
    text = "Header from a server\n(;B[aa])\n--\n(;W[bb])\ntrailer"
    roots, warnings = parse(text)
    assert [r.properties for r in roots] == [{"B": ["aa"]}, {"W": ["bb"]}]
    assert [(w.message, w.line, w.col) for w in warnings] == [
        ("text before the first game tree ignored", 1, 1),
        ("text between game trees ignored", 3, 1),
        ("text after the last game tree ignored", 5, 1),
    ]


def test_lenient_lower_case_ident_ff3() -> None:
    root = _only("(;AddBlack[aa]PlayerWhite[x])")
    assert root.properties == {"AB": ["aa"], "PW": ["x"]}
    assert _warnings("(;AddBlack[aa])") == [
        ("lower-case letters dropped from property AddBlack", 1, 3)
    ]


def test_lenient_missing_semicolon() -> None:
    root = _only("(FF[4]C[root];B[aa])")
    assert root.properties == {"FF": ["4"], "C": ["root"]}
    assert root.children[0].properties == {"B": ["aa"]}
    assert _warnings("(FF[4])") == [("missing ';' before the first property of a game tree", 1, 2)]


def test_lenient_unescaped_bracket_taken_as_text() -> None:
    text = "(;C[see [1] here]\n;C[a]b]N[x])"
    root = _only(text)
    assert root.properties == {"C": ["see [1\\] here"]}
    assert root.children[0].properties == {"C": ["a\\]b"], "N": ["x"]}
    assert _warnings(text) == [
        ("unescaped ']' in a value taken as text", 1, 11),
        ("unescaped ']' in a value taken as text", 2, 5),
    ]


def test_lenient_bracket_before_real_property_ends_the_value() -> None:
    root = _only("(;C[a] PB [b]) ")
    assert root.properties == {"C": ["a"], "PB": ["b"]}


def test_lenient_bracket_recovery_gives_up_at_end_of_data() -> None:
    roots, warnings = parse("(;C[a]x]y")
    assert roots[0].properties == {"C": ["a"]}
    assert [w.message for w in warnings] == [
        "property x without a value ignored",
        "unexpected ']' ignored",
        "property y without a value ignored",
        "unexpected end of data: game tree not closed",
    ]


def test_lenient_duplicate_properties_merged() -> None:
    root = _only("(;AB[aa]AW[bb]AB[cc][dd])")
    assert root.properties == {"AB": ["aa", "cc", "dd"], "AW": ["bb"]}


def test_lenient_unterminated_file_closes_trees() -> None:
    roots, warnings = parse("(;A[1](;B[2](;C[3]")
    assert roots[0].children[0].children[0].properties == {"C": ["3"]}
    assert [(w.message, w.line, w.col) for w in warnings] == [
        ("unexpected end of data: game tree not closed", 1, 19)
    ]


def test_lenient_unterminated_value_drops_a_dangling_escape() -> None:
    roots, _ = parse("(;C[abc\\")
    assert roots[0].properties == {"C": ["abc"]}


@pytest.mark.parametrize("text", ["", "\n\n", "no sgf here", "[aa][bb]", "((((", "()"])
def test_no_game_is_an_error_even_when_lenient(text: str) -> None:
    with pytest.raises(SgfError, match="no SGF game tree found"):
        parse(text)


def test_line_and_col_count_cr_lf_and_crlf() -> None:
    for newline in ("\n", "\r\n", "\r"):
        with pytest.raises(SgfError) as info:
            parse(f"(;B[aa]{newline}{newline}  ?)", strict=True)
        assert (info.value.line, info.value.col) == (3, 3)


def test_serialise_layout_and_variations() -> None:
    roots, _ = parse("(;FF[4];B[aa](;W[bb])(;W[cc];B[dd]))")
    assert serialise(roots) == "(;FF[4];B[aa]\n(;W[bb])\n(;W[cc];B[dd]))\n"


def test_serialise_wraps_long_sequences() -> None:
    root = RawNode({"GM": ["1"]})
    node = root
    for _ in range(30):
        child = RawNode({"B": ["aa"]}, node)
        node.children.append(child)
        node = child
    text = serialise([root])
    assert max(len(line) for line in text.splitlines()) <= 79
    assert parse(text, strict=True)[0][0].children[0].properties == {"B": ["aa"]}


def test_valid_raw_escapes_only_what_would_break() -> None:
    assert valid_raw("a\\]b") == "a\\]b"
    assert valid_raw("a]b") == "a\\]b"
    assert valid_raw("end\\") == "end\\\\"
    assert valid_raw("end\\\\") == "end\\\\"


def _main_line(n: int) -> str:
    moves = "".join(f";{'BW'[i % 2]}[{'abcdefghijklmnopqrs'[i % 19]}a]" for i in range(n))
    return f"(;GM[1]SZ[19]{moves})"


def test_deep_main_line_of_100000_moves() -> None:
    roots, _ = parse(_main_line(100_000), strict=True)
    again, _ = parse(serialise(roots), strict=True)
    node, depth = again[0], 0
    while node.children:
        node, depth = node.children[0], depth + 1
    assert depth == 100_000
    assert node.properties == {"W": ["ca"]}


def test_variations_nested_100000_deep() -> None:
    n = 100_000
    roots, _ = parse("(;GM[1]" + "(;B[aa](;W[bb])" * n + ")" * (n + 1), strict=True)
    text = serialise(roots)
    assert text.count("(") == 2 * n - 1  # the last W joins its B's sequence
    again, _ = parse(text, strict=True)
    node, depth = again[0].children[0], 1
    while len(node.children) == 2:
        leaf, node = node.children
        assert leaf.properties == {"W": ["bb"]}
        depth += 1
    assert depth == n
