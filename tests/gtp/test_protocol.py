"""The GTP wire format: preprocessing, ids, response framing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.gtp.protocol import Command, format_failure, format_success, parse_line, preprocess


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("name\n", Command(None, "name", ())),
        ("play b d4", Command(None, "play", ("b", "d4"))),
        ("12 play  w\tpass \r\n", Command("12", "play", ("w", "pass"))),
        ("  7 name # a comment", Command("7", "name", ())),
        ("0 clear_board", Command("0", "clear_board", ())),
        ("12a name", Command(None, "12a", ("name",))),
        ("-1 name", Command(None, "-1", ("name",))),
        ("pl\x00ay b\x1b d4", Command(None, "play", ("b", "d4"))),
        ("pl\x7fay b d4", Command(None, "play", ("b", "d4"))),
        ("42", Command("42", "", ())),
    ],
)
def test_parse_line(line: str, expected: Command) -> None:
    assert parse_line(line) == expected


@pytest.mark.parametrize(
    "line", ["", "\n", "   \t  \r\n", "# only a comment", "  # x\n", "\x01\x02"]
)
def test_lines_without_a_command_are_skipped(line: str) -> None:
    assert parse_line(line) is None


def test_preprocess_follows_the_spec_order() -> None:
    # Control characters go first, so a comment hidden after one is still a comment.
    assert preprocess("a\tb\x03c # d\te") == "a bc "
    assert preprocess("x\ny") == "x\ny"


def test_ids_are_ascii_digits_only() -> None:
    command = parse_line("\u0661\u0662 name")  # Arabic-Indic digits are not an id
    assert command == Command(None, "\u0661\u0662", ("name",))


@pytest.mark.parametrize(
    ("result", "id_", "expected"),
    [
        ("2", None, "= 2\n\n"),
        ("", None, "= \n\n"),
        ("tengen", "5", "=5 tengen\n\n"),
        ("\nboard\nlines", None, "= \nboard\nlines\n\n"),
        ("a\n\n\nb\n", "3", "=3 a\nb\n\n"),
        ("x\r\ny", None, "= x\ny\n\n"),
    ],
)
def test_format_success(result: str, id_: str | None, expected: str) -> None:
    assert format_success(result, id_) == expected


def test_format_failure() -> None:
    assert format_failure("illegal move") == "? illegal move\n\n"
    assert format_failure("cannot undo", "9") == "?9 cannot undo\n\n"


@given(st.text())
def test_responses_are_framed_whatever_the_text(text: str) -> None:
    for response in (format_success(text, "1"), format_failure(text)):
        body = response[:-2]
        assert response.endswith("\n\n")
        assert "\n\n" not in body
        assert not body.endswith("\n")


@given(st.text())
def test_parse_never_raises_and_yields_clean_words(line: str) -> None:
    command = parse_line(line)
    if command is not None:
        words = ([command.id] if command.id else []) + [command.name, *command.args]
        for word in words:
            assert "#" not in word
            assert not any(ord(c) < 32 or ord(c) == 127 for c in word)
