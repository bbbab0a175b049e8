"""Property value types: raw SGF values <-> Python values, one test per type or quirk."""

from __future__ import annotations

import pytest

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.sgf.properties import (
    escape_text,
    interpret,
    interpret_move,
    interpret_simpletext,
    interpret_text,
    property_type,
    serialise,
    split_composed,
)


def test_none_number_real_double_color() -> None:
    assert interpret("KO", [""]) is True
    assert serialise("KO", True) == [""]
    assert interpret("HA", [" 4 "]) == 4
    assert interpret("MN", ["-3"]) == -3
    assert serialise("HA", 9) == ["9"]
    assert interpret("KM", ["6.5"]) == 6.5
    assert interpret("KM", ["750"]) == 750.0
    assert interpret("KM", ["6,5"]) == 6.5  # decimal comma written by some Asian programs
    assert serialise("KM", 7.5) == ["7.5"]
    assert serialise("KM", 0.0) == ["0"]
    assert serialise("KM", -0.25) == ["-0.25"]
    assert interpret("GB", ["2"]) == 2
    assert interpret("PL", ["W"]) is Color.WHITE
    assert serialise("PL", Color.BLACK) == ["B"]


@pytest.mark.parametrize(
    ("ident", "raw"), [("HA", "two"), ("KM", "5 1/2"), ("DM", "3"), ("PL", "x"), ("SZ", "-10")]
)
def test_invalid_values_raise_value_error(ident: str, raw: str) -> None:
    with pytest.raises(ValueError):
        interpret(ident, [raw])


def test_points_and_52_letters() -> None:
    assert interpret("TR", ["aa"]) == [Point(0, 0)]
    assert interpret("SQ", ["zA"]) == [Point(25, 26)]
    assert interpret("CR", ["ZZ"]) == [Point(51, 51)]
    assert serialise("CR", [Point(51, 26)]) == ["ZA"]
    with pytest.raises(ValueError):
        serialise("CR", [Point(52, 0)])
    with pytest.raises(ValueError):
        interpret("CR", ["a1"])


def test_moves_and_both_pass_forms() -> None:
    assert interpret("B", ["dd"]) == Point(3, 3)
    assert interpret("B", [""]) is None
    assert interpret("W", ["tt"]) is None
    assert interpret("W", ["tt"], (19, 13)) is None
    assert interpret("W", ["tt"], (21, 21)) == Point(19, 19)
    assert interpret_move("tt", lambda: (25, 25)) == Point(19, 19)
    assert serialise("B", None) == [""]
    assert serialise("W", Point(15, 3)) == ["pd"]


def test_compressed_point_lists_expand_rectangles() -> None:
    assert interpret("AB", ["aa:bb", "dd"]) == [
        Point(0, 0),
        Point(1, 0),
        Point(0, 1),
        Point(1, 1),
        Point(3, 3),
    ]
    assert interpret("AW", ["cc:aa"]) == interpret("AW", ["aa:cc"])  # corners in either order
    assert len(interpret("AE", ["aa:ss"])) == 361
    assert serialise("AB", [Point(0, 0), Point(3, 3)]) == ["aa", "dd"]
    with pytest.raises(ValueError):
        serialise("AB", [])


def test_elist_may_be_empty() -> None:
    assert interpret("VW", [""]) == []
    assert interpret("TB", ["aa:ab"]) == [Point(0, 0), Point(0, 1)]
    assert serialise("DD", []) == [""]


def test_text_escapes_and_soft_line_breaks() -> None:
    assert interpret("C", ["a\\]b\\\\c\\:d"]) == "a]b\\c:d"
    assert interpret("C", ["soft\\\nbreak"]) == "softbreak"
    assert interpret("C", ["soft\\\r\nbreak"]) == "softbreak"
    assert interpret("C", ["hard\r\nbreak\rthree\n\rfour"]) == "hard\nbreak\nthree\nfour"
    assert interpret("C", ["tab\there"]) == "tab here"
    assert interpret_text("\\x\\y") == "xy"
    assert serialise("C", "a]b\\c:d\n") == ["a\\]b\\\\c:d\n"]


def test_simpletext_turns_line_breaks_into_spaces() -> None:
    assert interpret("N", ["two\nlines"]) == "two lines"
    assert interpret("PB", ["soft\\\nbreak"]) == "softbreak"
    assert interpret_simpletext("a\\\tb") == "a b"


def test_escape_text_only_escapes_colons_in_composed_values() -> None:
    assert escape_text("a:b]c\\") == "a:b\\]c\\\\"
    assert escape_text("a:b", composed=True) == "a\\:b"


def test_split_composed_at_first_unescaped_colon() -> None:
    assert split_composed("a\\:b:c:d") == ("a\\:b", "c:d")
    assert split_composed("a\\\\:b") == ("a\\\\", "b")
    with pytest.raises(ValueError):
        split_composed("no\\:colon")


def test_composed_lines_labels_and_application() -> None:
    assert interpret("LN", ["aa:cc", "bb:dd"]) == [
        (Point(0, 0), Point(2, 2)),
        (Point(1, 1), Point(3, 3)),
    ]
    assert serialise("AR", [(Point(0, 0), Point(2, 2))]) == ["aa:cc"]
    assert interpret("LB", ["dd:A", "ee:x\\:y\\]z"]) == [(Point(3, 3), "A"), (Point(4, 4), "x:y]z")]
    assert serialise("LB", [(Point(3, 3), "x:y]")]) == ["dd:x\\:y\\]"]
    assert interpret("AP", ["Sabaki:0.52.2"]) == ("Sabaki", "0.52.2")
    assert interpret("AP", ["a\\:b:1:2"]) == ("a:b", "1:2")
    assert serialise("AP", ("a:b", "1.0")) == ["a\\:b:1.0"]
    with pytest.raises(ValueError):
        interpret("LB", ["dd"])


def test_figure() -> None:
    assert interpret("FG", [""]) is True
    assert interpret("FG", ["257:Figure 1"]) == (257, "Figure 1")
    assert serialise("FG", (0, "a:b")) == ["0:a\\:b"]
    assert serialise("FG", True) == [""]


def test_square_and_rectangular_sizes() -> None:
    assert interpret("SZ", ["19"]) == (19, 19)
    assert interpret("SZ", ["19:13"]) == (19, 13)
    assert serialise("SZ", (19, 13)) == ["19:13"]
    assert serialise("SZ", (9, 9)) == ["9"]
    assert serialise("SZ", 13) == ["13"]


def test_gomoku_and_go_game_types_are_numbers() -> None:
    assert interpret("GM", ["4"]) == 4
    assert interpret("GM", ["1"]) == 1


def test_unknown_properties_are_lists_of_text() -> None:
    assert property_type("XZ").name == "unknown"
    assert interpret("XZ", ["a\\]", "b"]) == ["a]", "b"]
    assert serialise("XZ", "one]") == ["one\\]"]
    assert serialise("XZ", ["a", "b"]) == ["a", "b"]


def test_ff3_properties_have_types() -> None:
    assert interpret("L", ["aa", "bb"]) == [Point(0, 0), Point(1, 1)]
    assert interpret("KI", ["11"]) == 11
    assert interpret("EX", ["tt"]) is None


def test_missing_values_raise() -> None:
    with pytest.raises(ValueError):
        interpret("B", [])
