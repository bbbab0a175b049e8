"""Result values and SGF RE[] text, both ways, including the spellings real files carry."""

from __future__ import annotations

import pytest

from tengen.core import Color
from tengen.scoring import Result

B, W = Color.BLACK, Color.WHITE


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("B+3.5", Result(B, 3.5, "score")),
        ("W+12", Result(W, 12.0, "score")),
        ("B+0.25", Result(B, 0.25, "score")),
        ("W+R", Result(W, None, "resign")),
        ("B+T", Result(B, None, "time")),
        ("W+F", Result(W, None, "forfeit")),
        ("B+", Result(B, None, "unknown")),
        ("0", Result(None, None, "draw")),
        ("Void", Result(None, None, "void")),
        ("?", Result(None, None, "unknown")),
    ],
)
def test_short_forms_round_trip(text: str, result: Result) -> None:
    assert Result.from_sgf(text) == result
    assert result.to_sgf() == text
    assert str(result) == text


@pytest.mark.parametrize(
    ("text", "short"),
    [
        ("B+Resign", "B+R"),
        ("w+resign", "W+R"),
        ("B+Time", "B+T"),
        ("W+Forfeit", "W+F"),
        ("W+2.5 ", "W+2.5"),
        (" b + 7 ", "B+7"),
        ("B+7.0", "B+7"),
        ("W+.5", "W+0.5"),
        ("Draw", "0"),
        ("jigo", "0"),
        ("Jigo", "0"),
        ("B+0", "0"),
        ("void", "Void"),
        ("", "?"),
    ],
)
def test_real_world_spellings_read_to_the_short_form(text: str, short: str) -> None:
    assert Result.from_sgf(text).to_sgf() == short


@pytest.mark.parametrize("text", ["B+X", "W+-3", "C+3", "Black wins", "B+3.5.1", "W+nan", "B+R+"])
def test_bad_text_is_named_in_the_error(text: str) -> None:
    with pytest.raises(ValueError, match="unrecognised game result") as info:
        Result.from_sgf(text)
    assert repr(text) in str(info.value)


def test_from_totals_gives_the_larger_side_and_the_difference() -> None:
    assert Result.from_totals(40, 37.5) == Result(B, 2.5, "score")
    assert Result.from_totals(30, 36.5) == Result(W, 6.5, "score")
    assert Result.from_totals(30.5, 30.5) == Result(None, None, "draw")


@pytest.mark.parametrize(
    ("winner", "margin", "reason"),
    [
        (None, None, "resign"),
        (B, None, "draw"),
        (B, 0.0, "score"),
        (B, None, "score"),
        (W, 3.0, "resign"),
        (B, None, "won"),
    ],
)
def test_meaningless_results_are_refused(
    winner: Color | None, margin: float | None, reason: str
) -> None:
    with pytest.raises(ValueError):
        Result(winner, margin, reason)
